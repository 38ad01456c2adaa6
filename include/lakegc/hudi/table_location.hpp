// File: lakegc/hudi/table_location.hpp
// -----------------------------------------------------------------------------
// How the caller names a table's root (a directory or a URI): what errors
// name files by, and what prefixes the paths lakegc writes into plans; and
// reading a file or an instant field so that an error names where it was.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "lakegc/core/instant_time.hpp"
#include "lakegc/core/status.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc::hudi {

struct TableLocation {
  std::string base_path;  // no trailing '/' (but "/" itself)

  static TableLocation of(std::string base_path) {
    while (base_path.size() > 1 && base_path.back() == '/') base_path.pop_back();
    return TableLocation{std::move(base_path)};
  }

  /// `base_path/rel`, how errors name a file of the table.
  std::string display(std::string_view rel) const {
    if (base_path.empty()) return std::string(rel);
    if (base_path == "/") return "/" + std::string(rel);
    return fmt::format("{}/{}", base_path, rel);
  }
};

/// A file of the table read whole; errors name it as the caller does.
template <ReadableStorage S>
[[nodiscard]] StatusOr<std::string> read_table_file(S& storage, const TableLocation& where, const std::string& rel) {
  auto bytes = storage.read(rel);
  if (!bytes.ok()) return annotate(bytes.status(), where.display(rel));
  return bytes;
}

/// An instant field of a record: an error names the file and the field.
[[nodiscard]] inline StatusOr<InstantTime> parse_instant_field(std::string_view value, std::string_view file,
                                                               std::string_view field) {
  auto t = InstantTime::parse(value);
  if (!t.ok()) return annotate(t.status(), fmt::format("{}: {}", file, field));
  return *t;
}

}  // namespace lakegc::hudi
