// File: lakegc/core/name_prefix_key.hpp
// -----------------------------------------------------------------------------
// Cheap comparisons of file names, for the sorts and lookups that planning
// runs over every file of a partition. Hudi names share long prefixes (a
// group's files all start with its file id) and differ early only between
// groups, late only within one.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace lakegc {

/// The first 8 bytes of `name` as a big-endian number, zero-padded.
/// Ordering by it and then by the whole text is ordering by the text (bytes
/// compare unsigned, as std::string_view does), and most comparisons of
/// names from different groups (file ids are UUIDs) end at the number.
inline std::uint64_t name_prefix_key(std::string_view name) noexcept {
  std::uint64_t key = 0;
  for (std::size_t i = 0; i < 8; ++i) {
    key <<= 8;
    if (i < name.size()) key |= static_cast<unsigned char>(name[i]);
  }
  return key;
}

/// a == b, comparing the last 8 bytes first: names of one group differ in
/// their instant, version or write token, at the end.
inline bool same_name(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  if (a.size() >= 8 && std::memcmp(a.data() + a.size() - 8, b.data() + b.size() - 8, 8) != 0) return false;
  return a == b;
}

}  // namespace lakegc
