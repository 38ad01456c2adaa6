// File: tools/cli/text.hpp
// -----------------------------------------------------------------------------
// Small helpers for the tool's human-readable output.
#pragma once

#include <cstdint>
#include <iterator>
#include <utility>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/human_bytes.hpp"

namespace lakegc::cli {

using lakegc::human_bytes;

/// Appends one formatted line to `out`.
template <typename... Args>
void appendln(std::string& out, fmt::format_string<Args...> format, Args&&... args) {
  fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
  out += '\n';
}

/// "a, b, c", or "-" for none.
inline std::string join_or_dash(const std::vector<std::string>& items) {
  if (items.empty()) return "-";
  std::string out;
  for (const auto& s : items) {
    if (!out.empty()) out += ", ";
    out += s;
  }
  return out;
}

/// How partitions are shown to people: the root of a non-partitioned table
/// has the empty path.
inline std::string partition_label(std::string_view path) {
  return path.empty() ? std::string("<root>") : std::string(path);
}

}  // namespace lakegc::cli
