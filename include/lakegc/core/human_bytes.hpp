// File: lakegc/core/human_bytes.hpp
// -----------------------------------------------------------------------------
// Byte counts for people, in one form for every report of the library and the
// tool: "512 B", "430.9 KiB", "1.2 GiB" (binary units, one decimal).
#pragma once

#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace lakegc {

inline std::string human_bytes(std::uint64_t n) {
  constexpr std::string_view units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (n < 1024) return fmt::format("{} B", n);
  double v = static_cast<double>(n);
  std::size_t u = 0;
  while (v >= 1024.0 && u + 1 < std::size(units)) {
    v /= 1024.0;
    ++u;
  }
  return fmt::format("{:.1f} {}", v, units[u]);
}

}  // namespace lakegc
