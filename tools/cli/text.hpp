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

namespace lakegc::cli {

/// "512 B", "430.9 KiB", "1.2 GiB".
inline std::string human_bytes(std::uint64_t n) {
  constexpr std::string_view units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  if (n < 1024) return fmt::format("{} B", n);
  double v = static_cast<double>(n);
  std::size_t u = 0;
  while (v >= 1024.0 && u + 1 < std::size(units)) {
    v /= 1024.0;
    ++u;
  }
  return fmt::format("{:.1f} {}", v, units[u]);
}

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
