// Fuzz target: the name grammars lakegc applies to every listed file: base
// and log file names (core/file_name.hpp) and timeline instant file names
// (hudi/timeline_file_name.hpp). Round trip: a parsed data file name formats
// to a name that parses to the same fields.
#include <variant>

#include "../target.hpp"
#include "lakegc/core/file_name.hpp"
#include "lakegc/hudi/timeline_file_name.hpp"

namespace {

std::optional<std::string> file_names_seed(const std::filesystem::path& relative, std::string_view) {
  return relative.filename().string();
}

}  // namespace

LAKEGC_FUZZ_TARGET(file_names) {
  (void)lakegc::hudi::looks_like_instant_file(data);
  (void)lakegc::fuzz::checked(lakegc::hudi::parse_timeline_file_name(data).status());
  (void)lakegc::fuzz::checked(lakegc::parse_base_file_name(data).status());
  (void)lakegc::fuzz::checked(lakegc::parse_log_file_name(data).status());
  auto f = lakegc::parse_data_file_name(data);
  if (!f.ok()) return f.status();
  const std::string formatted = std::visit([](const auto& n) { return lakegc::format_file_name(n); }, *f);
  auto again = lakegc::parse_data_file_name(formatted);
  if (!again.ok())
    lakegc::fuzz::fail("'{}' formats to '{}', which does not parse: {}", data, formatted, again.status().ToString());
  if (!(*again == *f)) lakegc::fuzz::fail("'{}' formats to '{}', which parses to other fields", data, formatted);
  return lakegc::Status();
}
