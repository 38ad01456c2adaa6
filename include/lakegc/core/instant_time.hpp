// File: lakegc/core/instant_time.hpp
// -----------------------------------------------------------------------------
// Hudi instant times: `yyyyMMddHHmmssSSS` (17 digits), `yyyyMMddHHmmss`
// (14 digits, tables older than Hudi 0.10), and 20-digit metadata-table
// instants (a 17-digit instant plus a 3-digit suffix). Special values such as
// `00000000000000` (init) or `00000000000001` (bootstrap) are valid instants
// but not dates.
//
// Hudi compares instants as strings. InstantTime keeps the exact text (so
// formatting is the inverse of parsing) and orders by one total order that
// agrees with Hudi's string comparison: the first 17 digits as a number (14
// digits padded with "000"), then the length (a 14-digit instant sorts just
// before the 17-digit one with the same prefix, as "X" < "X000" does), then the
// metadata suffix.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <absl/time/civil_time.h>
#include <absl/time/time.h>
#include <fmt/format.h>

#include "lakegc/core/digits.hpp"
#include "lakegc/core/status.hpp"

namespace lakegc {

/// How a table writes instant times: `hoodie.table.timeline.timezone`.
enum class TimelineTimezone : std::uint8_t { utc, local };

class InstantTime {
 public:
  /// The smallest instant; never produced by parse(). Used as "before every
  /// instant" in comparisons.
  constexpr InstantTime() = default;

  /// Parses 14, 17 or 20 digits. Anything else is InvalidArgument naming the
  /// text.
  [[nodiscard]] static StatusOr<InstantTime> parse(std::string_view text) {
    if (const auto t = from_digits(text)) return *t;
    if (!has_instant_length(text)) {
      return absl::InvalidArgumentError(
          fmt::format("invalid instant time '{}': expected 14, 17 or 20 digits (yyyyMMddHHmmss[SSS])", text));
    }
    std::size_t i = 0;
    while (detail::is_digit(text[i])) ++i;
    return absl::InvalidArgumentError(fmt::format("invalid instant time '{}': non-digit at position {}", text, i));
  }

  /// parse() without the error: the instant of 14, 17 or 20 digits, or
  /// nothing. For scanners that read an instant out of every listed name
  /// and turn a bad one into "not a data file".
  [[nodiscard]] static std::optional<InstantTime> from_digits(std::string_view text) noexcept {
    if (!has_instant_length(text)) return std::nullopt;
    std::uint64_t head = 0;
    std::uint16_t suffix = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (!detail::is_digit(text[i])) return std::nullopt;
      const auto digit = static_cast<unsigned>(text[i] - '0');
      if (i < 17) {
        head = head * 10 + digit;
      } else {
        suffix = static_cast<std::uint16_t>(suffix * 10 + digit);
      }
    }
    if (text.size() == 14) head *= 1000;
    InstantTime t;
    t.head_ = head;
    t.digits_ = static_cast<std::uint8_t>(text.size());
    t.rank_ = text.size() == 14 ? 0 : text.size() == 17 ? 1 : static_cast<std::uint16_t>(2 + suffix);
    return t;
  }

  /// The 17-digit instant of `epoch_ms` in `tz`.
  static InstantTime from_epoch_ms(std::int64_t epoch_ms, TimelineTimezone tz) {
    const absl::TimeZone zone = tz == TimelineTimezone::utc ? absl::UTCTimeZone() : absl::LocalTimeZone();
    const absl::Time t = absl::FromUnixMillis(epoch_ms);
    const absl::CivilSecond cs = absl::ToCivilSecond(t, zone);
    const std::int64_t ms = ((epoch_ms % 1000) + 1000) % 1000;
    std::uint64_t v = static_cast<std::uint64_t>(cs.year());
    v = v * 100 + static_cast<std::uint64_t>(cs.month());
    v = v * 100 + static_cast<std::uint64_t>(cs.day());
    v = v * 100 + static_cast<std::uint64_t>(cs.hour());
    v = v * 100 + static_cast<std::uint64_t>(cs.minute());
    v = v * 100 + static_cast<std::uint64_t>(cs.second());
    v = v * 1000 + static_cast<std::uint64_t>(ms);
    InstantTime it;
    it.head_ = v;
    it.digits_ = 17;
    it.rank_ = 1;
    return it;
  }

  /// Epoch milliseconds of this instant read as a date in `tz`. A 14-digit
  /// instant counts as the last millisecond of its second, as Hudi's
  /// fixInstantTimeCompatibility pads it with "999". Special values that are
  /// not dates (month 00, ...) are InvalidArgument.
  [[nodiscard]] StatusOr<std::int64_t> to_epoch_ms(TimelineTimezone tz) const {
    std::uint64_t v = head_;
    const auto ms = static_cast<std::int64_t>(digits_ == 14 ? 999 : v % 1000);
    v /= 1000;
    const auto second = static_cast<int>(v % 100);
    v /= 100;
    const auto minute = static_cast<int>(v % 100);
    v /= 100;
    const auto hour = static_cast<int>(v % 100);
    v /= 100;
    const auto day = static_cast<int>(v % 100);
    v /= 100;
    const auto month = static_cast<int>(v % 100);
    v /= 100;
    const auto year = static_cast<std::int64_t>(v);
    if (digits_ == 0 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59 ||
        year < 1) {
      return absl::InvalidArgumentError(fmt::format("instant '{}' is not a date", str()));
    }
    const absl::CivilSecond cs(year, month, day, hour, minute, second);
    if (cs.day() != day || cs.month() != month) {  // e.g. Feb 30 normalised away
      return absl::InvalidArgumentError(fmt::format("instant '{}' is not a date", str()));
    }
    const absl::TimeZone zone = tz == TimelineTimezone::utc ? absl::UTCTimeZone() : absl::LocalTimeZone();
    return absl::ToUnixMillis(absl::FromCivil(cs, zone)) + ms;
  }

  /// The exact text this instant was parsed from.
  std::string str() const {
    if (digits_ == 0) return {};
    char buf[20];
    std::uint64_t v = digits_ == 14 ? head_ / 1000 : head_;
    const int head_digits = digits_ == 14 ? 14 : 17;
    for (int i = head_digits - 1; i >= 0; --i) {
      buf[i] = static_cast<char>('0' + v % 10);
      v /= 10;
    }
    if (digits_ == 20) {
      unsigned s = rank_ - 2u;
      for (int i = 19; i >= 17; --i) {
        buf[i] = static_cast<char>('0' + s % 10);
        s /= 10;
      }
    }
    return std::string(buf, digits_);
  }

  /// True for instants produced by parse() or from_epoch_ms().
  constexpr bool valid() const noexcept { return digits_ != 0; }
  constexpr int digits() const noexcept { return digits_; }
  /// The first 17 digits as a number (14-digit instants padded with 000).
  constexpr std::uint64_t head() const noexcept { return head_; }

  friend constexpr bool operator==(const InstantTime&, const InstantTime&) = default;
  /// By the first 17 digits, then the default value before any parsed
  /// one, then by rank (14 digits, 17, 20 by suffix). Two integer compares:
  /// the planners compare instants once or twice per slice, and the
  /// branchier form was not inlined there (an out-of-line call was a
  /// seventh of an incremental plan, bench/README.md).
  friend constexpr std::strong_ordering operator<=>(const InstantTime& a, const InstantTime& b) noexcept {
    if (a.head_ != b.head_) return a.head_ <=> b.head_;
    return a.tail_key() <=> b.tail_key();
  }

  template <typename H>
  friend H AbslHashValue(H h, const InstantTime& t) {
    return H::combine(std::move(h), t.head_, t.rank_, t.digits_);
  }

 private:
  static constexpr bool has_instant_length(std::string_view text) noexcept {
    return text.size() == 14 || text.size() == 17 || text.size() == 20;
  }
  // What orders two instants of one head: valid above the default, then rank.
  constexpr std::uint32_t tail_key() const noexcept { return (static_cast<std::uint32_t>(digits_ != 0) << 16) | rank_; }

  std::uint64_t head_ = 0;
  std::uint16_t rank_ = 0;   // 0: 14 digits, 1: 17 digits, 2 + suffix: 20 digits
  std::uint8_t digits_ = 0;  // 0 for the default "before everything" value
};

}  // namespace lakegc

template <>
struct fmt::formatter<lakegc::InstantTime> : fmt::formatter<std::string_view> {
  template <typename FormatContext>
  auto format(const lakegc::InstantTime& t, FormatContext& ctx) const {
    const std::string s = t.valid() ? t.str() : std::string("-");
    return fmt::formatter<std::string_view>::format(s, ctx);
  }
};
