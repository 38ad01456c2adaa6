// File: lakegc/core/name_hash.hpp
// -----------------------------------------------------------------------------
// The hash for hash containers keyed by std::string_view (file names, file
// ids, partition paths), alone or in a pair or tuple.
//
// Why: Debian's Abseil has its own absl::string_view (not std::string_view),
// so absl::flat_hash_set<std::string_view> falls back to std::hash, which
// is libstdc++'s Murmur (8 bytes a step), then mixed again. Hashing as an
// absl::string_view takes Abseil's own string hash (LowLevelHash, 64 bytes
// a step): 1.7M file names of about 80 bytes hash in 11 ms instead of 17.
// That is a small part of any lookup here (the probe's cache miss is most
// of it), so load_view moved within the machine's noise; the point is one
// hash, chosen once, for every container keyed by a view of text.
#pragma once

#include <cstddef>
#include <string_view>
#include <tuple>
#include <utility>

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>
#include <absl/hash/hash.h>
#include <absl/strings/string_view.h>

#include "lakegc/core/bytes.hpp"

namespace lakegc {

namespace detail {
inline absl::string_view hashable(std::string_view s) noexcept { return {s.data(), s.size()}; }
template <typename T>
const T& hashable(const T& value) noexcept {
  return value;
}
}  // namespace detail

/// Hashes a std::string_view, or a pair or tuple holding some (with
/// integers, InstantTime, anything Abseil hashes), as Abseil would hash the
/// same values with absl::string_view in their place.
struct NameHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept { return absl::HashOf(detail::hashable(s)); }
  template <typename A, typename B>
  std::size_t operator()(const std::pair<A, B>& p) const noexcept {
    return absl::HashOf(detail::hashable(p.first), detail::hashable(p.second));
  }
  template <typename... T>
  std::size_t operator()(const std::tuple<T...>& t) const noexcept {
    return std::apply([](const auto&... v) { return absl::HashOf(detail::hashable(v)...); }, t);
  }
};

/// Equality of two names without a call into libc (core/bytes.hpp): a
/// lookup that finds its name compares the whole name, and `load_view`
/// looks every listed name up in the savepoints' set.
struct NameEq {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const noexcept { return detail::bytes_equal(a, b); }
};

/// A set / map keyed by views of text held elsewhere.
using NameViewSet = absl::flat_hash_set<std::string_view, NameHash, NameEq>;
template <typename V>
using NameViewMap = absl::flat_hash_map<std::string_view, V, NameHash, NameEq>;

}  // namespace lakegc
