// File: lakegc/core/bytes.hpp
// -----------------------------------------------------------------------------
// Short byte strings compared and searched without a call into libc: the
// table builder compares every listed name with the one before it, every
// listed path with its partition's, every file id with its group's, and
// finds every path's last '/'. Names are 60-90 bytes that share long
// prefixes; a call per test (memcmp through std::string_view, or
// rfind's byte-at-a-time loop) was a tenth of load_view (bench/README.md).
//
// Same results as std::string_view's operators (bytes as unsigned char).
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace lakegc::detail {

// Eight bytes as a number that orders as the bytes do.
inline std::uint64_t load_ordered64(const char* p) noexcept {
  std::uint64_t v;
  std::memcpy(&v, p, sizeof v);
  if constexpr (std::endian::native == std::endian::little) v = __builtin_bswap64(v);
  return v;
}

/// a < b, as std::string_view's operator<.
inline bool bytes_less(std::string_view a, std::string_view b) noexcept {
  const std::size_t n = a.size() < b.size() ? a.size() : b.size();
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const std::uint64_t x = load_ordered64(a.data() + i);
    const std::uint64_t y = load_ordered64(b.data() + i);
    if (x != y) return x < y;
  }
  for (; i < n; ++i) {
    if (a[i] != b[i]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[i]);
  }
  return a.size() < b.size();
}

/// a == b.
inline bool bytes_equal(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  std::size_t i = 0;
  for (; i + 8 <= a.size(); i += 8) {
    std::uint64_t x;
    std::uint64_t y;
    std::memcpy(&x, a.data() + i, sizeof x);
    std::memcpy(&y, b.data() + i, sizeof y);
    if (x != y) return false;
  }
  for (; i < a.size(); ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

/// The position of the last '/' in `s`, or npos (s.rfind('/')). Eight
/// bytes at a time from the end: a listed path's name is most of it.
inline std::size_t last_slash(std::string_view s) noexcept {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  constexpr std::uint64_t kHighs = 0x8080808080808080ULL;
  constexpr std::uint64_t kSlashes = kOnes * static_cast<unsigned char>('/');
  std::size_t end = s.size();
  for (; end >= 8; end -= 8) {
    std::uint64_t v;
    std::memcpy(&v, s.data() + end - 8, sizeof v);
    const std::uint64_t x = v ^ kSlashes;         // a zero byte where '/' was
    if (((x - kOnes) & ~x & kHighs) != 0) break;  // some byte is zero (exact test: below)
  }
  while (end > 0) {
    --end;
    if (s[end] == '/') return end;
  }
  return std::string_view::npos;
}

}  // namespace lakegc::detail
