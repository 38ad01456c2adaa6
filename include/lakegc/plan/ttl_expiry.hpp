// File: lakegc/plan/ttl_expiry.hpp
// -----------------------------------------------------------------------------
// Hudi's TTL expiry test on instant strings, as KeepByTimeStrategy's
// isPartitionExpired does it (HoodieInstantTimeGenerator):
//
//   expiredTime = instantTimePlusMillis(referenceTime, ttlMillis)
//   expired     = fixInstantTimeCompatibility(ttlInstant) > expiredTime   (string order)
//
// * fixInstantTimeCompatibility pads a 14-digit instant with "999" and cuts
//   anything longer than 17 digits to 17.
// * instantTimePlusMillis parses the padded reference as a LocalDateTime
//   (yyyyMMddHHmmssSSS, Java's SMART resolver: a day past the month's end is
//   clamped to its last day, 24:00:00.000 is the next midnight), places it in
//   the timeline's zone (UTC, or the JVM's zone for LOCAL), adds the
//   milliseconds and formats the result back, a year past 9999 with a
//   leading '+' (Java's yyyy pattern). A reference that is not a date but is
//   a whole number (e.g. "0", "00000000000000") becomes that number plus the
//   milliseconds, zero-padded to 17 digits. Anything else makes Hudi's run
//   fail.
//
// The '+' is why a very long retention expires everything: "+10226..."
// sorts before every "2026..." instant. lakegc reproduces it, and plan_ttl
// warns about it.
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <absl/time/civil_time.h>
#include <absl/time/time.h>
#include <fmt/format.h>

#include "lakegc/core/digits.hpp"
#include "lakegc/core/instant_time.hpp"
#include "lakegc/core/status.hpp"

namespace lakegc::ttl {

/// Hudi's fixInstantTimeCompatibility.
inline std::string fix_instant_time_compatibility(std::string_view t) {
  if (t.size() == 14) return std::string(t) + "999";
  if (t.size() > 17) return std::string(t.substr(0, 17));
  return std::string(t);
}

namespace detail {

// LocalDateTime.parse(s, yyyyMMddHHmmss + SSS) under ResolverStyle.SMART, as
// civil time plus milliseconds; nothing when Java throws.
struct JavaLocalDateTime {
  absl::CivilSecond civil;
  int millis = 0;
};

inline std::optional<JavaLocalDateTime> parse_java_millis_instant(std::string_view s) {
  // fix_instant_time_compatibility leaves 17 digits for every date Hudi
  // writes; a shorter or longer string fails Java's parse too.
  if (s.size() != 17 || !lakegc::detail::all_digits(s)) return std::nullopt;
  auto num = [&](std::size_t from, std::size_t n) {
    std::int64_t v = 0;
    std::from_chars(s.data() + from, s.data() + from + n, v);
    return v;
  };
  constexpr std::size_t y = 4;
  const std::int64_t year = num(0, y);
  const auto month = static_cast<int>(num(y, 2));
  const auto day = static_cast<int>(num(y + 2, 2));
  auto hour = static_cast<int>(num(y + 4, 2));
  const auto minute = static_cast<int>(num(y + 6, 2));
  const auto second = static_cast<int>(num(y + 8, 2));
  const auto millis = static_cast<int>(num(y + 10, 3));
  if (year < 1 || year > 999'999'999 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 24 || minute > 59 ||
      second > 59) {
    return std::nullopt;
  }
  const bool next_midnight = hour == 24;
  if (next_midnight && (minute != 0 || second != 0 || millis != 0)) return std::nullopt;
  if (next_midnight) hour = 0;
  // SMART clamps the day to the month's length.
  const auto last_day = absl::CivilDay(absl::CivilMonth(year, month) + 1) - 1;
  const int clamped = std::min(day, last_day.day());
  absl::CivilSecond civil(year, month, clamped, hour, minute, second);
  if (next_midnight) civil += 86'400;
  return JavaLocalDateTime{civil, millis};
}

inline absl::TimeZone zone_of(TimelineTimezone tz) {
  return tz == TimelineTimezone::utc ? absl::UTCTimeZone() : absl::LocalTimeZone();
}

// Long.parseLong: an optional sign, then decimal digits, in range.
inline std::optional<std::int64_t> java_parse_long(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty() || s.front() == '+') return std::nullopt;
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace detail

/// Hudi's instantTimePlusMillis: `reference` + `millis` as an instant
/// string. InvalidArgument where Hudi throws (a reference that is neither a
/// date nor a whole number).
[[nodiscard]] inline StatusOr<std::string> instant_plus_millis(std::string_view reference, std::int64_t millis,
                                                               TimelineTimezone tz) {
  const std::string padded = fix_instant_time_compatibility(reference);
  if (auto dt = detail::parse_java_millis_instant(padded)) {
    const absl::TimeZone zone = detail::zone_of(tz);
    const absl::Time at =
        absl::FromCivil(dt->civil, zone) + absl::Milliseconds(dt->millis) + absl::Milliseconds(millis);
    const absl::CivilSecond c = absl::ToCivilSecond(at, zone);
    const std::int64_t ms = ((absl::ToUnixMillis(at) % 1000) + 1000) % 1000;
    const std::string year = c.year() > 9999 ? fmt::format("+{}", c.year()) : fmt::format("{:04d}", c.year());
    return fmt::format("{}{:02d}{:02d}{:02d}{:02d}{:02d}{:03d}", year, c.month(), c.day(), c.hour(), c.minute(),
                       c.second(), ms);
  }
  // Java's fallback reads the reference as given, not padded.
  if (auto n = detail::java_parse_long(reference)) return fmt::format("{:017d}", *n + millis);
  return absl::InvalidArgumentError(
      fmt::format("'{}' is neither an instant time nor a number (Hudi's TTL run fails on it)", reference));
}

/// Hudi's isPartitionExpired: the TTL instant sorts after reference + retention.
[[nodiscard]] inline StatusOr<bool> is_expired(const InstantTime& ttl_instant, std::string_view reference,
                                               std::int64_t ttl_millis, TimelineTimezone tz) {
  LAKEGC_ASSIGN_OR_RETURN(std::string expires, instant_plus_millis(reference, ttl_millis, tz));
  return fix_instant_time_compatibility(ttl_instant.str()) > expires;
}

}  // namespace lakegc::ttl
