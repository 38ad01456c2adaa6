// File: lakegc/core/duration.hpp
// -----------------------------------------------------------------------------
// Durations as people write them: `30m`, `5h`, `3d`, `6d2h`, `1h30m`, and
// back (`6d 2h`). Messages that name a duration use format_duration, never
// raw milliseconds: "the cutoff 3d is shorter than a write that ran 6d 2h"
// is read correctly at 3 a.m.; "259200000 ms" is not.
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

#include <absl/time/time.h>
#include <fmt/format.h>

#include "lakegc/core/status.hpp"

namespace lakegc {

namespace detail {
struct DurationUnit {
  char suffix;
  std::int64_t ms;
};
inline constexpr DurationUnit kDurationUnits[] = {{'d', 86'400'000}, {'h', 3'600'000}, {'m', 60'000}, {'s', 1'000}};
}  // namespace detail

/// Parses one or more `<whole number><unit>` terms, units d, h, m, s, each
/// at most once and largest first (`2d`, `1h30m`, `90m`, `0s`). `what`
/// names the option or key in the error.
[[nodiscard]] inline StatusOr<absl::Duration> parse_duration(std::string_view text, std::string_view what) {
  auto bad = [&] {
    return absl::InvalidArgumentError(
        fmt::format("{} '{}': expected a duration such as 30m, 5h, 3d or 1h30m", what, text));
  };
  if (text.empty()) return bad();
  std::int64_t total = 0;
  std::size_t next_unit = 0;  // units must come largest first, each once
  std::string_view rest = text;
  while (!rest.empty()) {
    std::int64_t n = 0;
    const auto [ptr, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), n);
    if (ec != std::errc() || ptr == rest.data() || ptr == rest.data() + rest.size() || n < 0) return bad();
    const char unit = *ptr;
    std::size_t u = next_unit;
    while (u < std::size(detail::kDurationUnits) && detail::kDurationUnits[u].suffix != unit) ++u;
    if (u == std::size(detail::kDurationUnits)) return bad();
    const std::int64_t scale = detail::kDurationUnits[u].ms;
    if (n > (INT64_MAX - total) / scale) return bad();
    total += n * scale;
    next_unit = u + 1;
    rest.remove_prefix(static_cast<std::size_t>(ptr - rest.data()) + 1);
  }
  return absl::Milliseconds(total);
}

/// The two largest non-zero units, rounded down: `3d`, `6d 2h`, `1h 30m`,
/// `45s`; under a second, `250ms`; zero is `0s`. Negative durations get a
/// leading `-`.
inline std::string format_duration(absl::Duration d) {
  std::int64_t ms = absl::ToInt64Milliseconds(d);
  std::string out;
  if (ms < 0) {
    out = "-";
    ms = -ms;
  }
  if (ms == 0) return "0s";
  if (ms < 1000) return out + fmt::format("{}ms", ms);
  int terms = 0;
  for (const auto& u : detail::kDurationUnits) {
    const std::int64_t n = ms / u.ms;
    if (n == 0) {
      if (terms > 0) break;  // "1d" not "1d 0h 5m": two adjacent units at most
      continue;
    }
    if (terms > 0) out += ' ';
    out += fmt::format("{}{}", n, u.suffix);
    ms -= n * u.ms;
    if (++terms == 2) break;
  }
  return out;
}

/// format_duration of a count of milliseconds (the storage boundary's unit).
inline std::string format_duration_ms(std::int64_t ms) { return format_duration(absl::Milliseconds(ms)); }

}  // namespace lakegc
