// File: lakegc/core/digits.hpp
// -----------------------------------------------------------------------------
// ASCII decimal digits, as Hudi's names and instants use them (no locale, no
// signs): the one test every scanner of names and timeline files shares.
#pragma once

#include <string_view>

namespace lakegc::detail {

constexpr bool is_digit(char c) noexcept { return static_cast<unsigned char>(c - '0') < 10; }

/// Non-empty and nothing but '0'..'9'.
constexpr bool all_digits(std::string_view s) noexcept {
  if (s.empty()) return false;
  for (char c : s) {
    if (!is_digit(c)) return false;
  }
  return true;
}

/// The first position at or after `p` that is not a digit (or `end`).
constexpr const char* skip_digits(const char* p, const char* end) noexcept {
  while (p != end && is_digit(*p)) ++p;
  return p;
}

}  // namespace lakegc::detail
