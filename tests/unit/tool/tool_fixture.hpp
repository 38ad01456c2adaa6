// Helpers shared by the tool unit tests: a Hudi table written into
// memory_storage with table_writer, and status printing.
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "lakegc/hudi/journal.hpp"
#include "lakegc/hudi/writer.hpp"
#include "lakegc/storage/memory_storage.hpp"

namespace lakegc::testing {

inline std::string msg(const Status& s) { return std::string(message_of(s)); }

#define TOOL_REQUIRE_OK(expr)                                                \
  do {                                                                       \
    const auto& tool_r_ = (expr);                                            \
    REQUIRE_MESSAGE(tool_r_.ok(), ::lakegc::testing::msg(tool_r_.status())); \
  } while (false)

#define TOOL_REQUIRE_OK_STATUS(expr)                                \
  do {                                                              \
    const ::lakegc::Status tool_s_ = (expr);                        \
    REQUIRE_MESSAGE(tool_s_.ok(), ::lakegc::testing::msg(tool_s_)); \
  } while (false)

inline InstantTime instant(const char* s) { return InstantTime::parse(s).value(); }

using writer_t = hudi::table_writer<memory_storage>;
using journal_t = hudi::journal<memory_storage>;

/// A Copy-on-Write table whose group `file_id(1)` in partition "p=1" has
/// one slice per instant in `commits` (sizes 100, 200, ...).
inline void write_versions(memory_storage& s, const std::vector<InstantTime>& commits) {
  hudi::TableConfig cfg;
  cfg.name = "t";
  cfg.partition_fields = {"p"};
  auto w = writer_t::create(s, cfg);
  REQUIRE_MESSAGE(w.ok(), msg(w.status()));
  std::size_t size = 100;
  for (const InstantTime& t : commits) {
    TOOL_REQUIRE_OK_STATUS(w->start(t));
    TOOL_REQUIRE_OK(w->write_base_file(t, "p=1", writer_t::file_id(1), std::string(size, 'x')));
    TOOL_REQUIRE_OK_STATUS(w->complete(t));
    size += 100;
  }
}

}  // namespace lakegc::testing
