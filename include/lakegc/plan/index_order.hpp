// File: lakegc/plan/index_order.hpp
// -----------------------------------------------------------------------------
// The order of a set of 32-bit indices, ascending: the planner's order of a
// partition's deleted files, whose file indices ascend with their names
// (Partition::files_in_name_order).
//
// Why not std::sort: a partition's deleted files are a few hundred to a
// few thousand indices out of a range not much larger, and sorting them
// (branchy comparisons, log n passes) was about a sixth of an incremental
// plan (bench/README.md). Dense indices are ordered by a bit per index of
// their range instead: one pass to set, one to read the set bits back.
// Sparse or repeated indices take the sort, so the result never depends on
// which path ran.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace lakegc {

/// Scratch for ordering indices; reused from one call to the next.
class IndexOrder {
 public:
  /// A range at most this many times the count of indices is ordered by
  /// bits: reading them back costs range / 64 words, at most one per
  /// index (a sort makes log n comparisons), and the slots take at most
  /// 256 bytes per index, held until the next call.
  static constexpr std::size_t kDenseRatio = 64;

  /// Positions 0..n-1 ordered by key(i) ascending, ties by position.
  /// `key` is called once per position. The result stays valid until the
  /// next call.
  template <typename Key>
  const std::vector<std::uint32_t>& ascending(std::size_t n, Key&& key) {
    order_.clear();
    if (n == 0) return order_;
    keys_.resize(n);
    std::uint32_t lo = std::numeric_limits<std::uint32_t>::max();
    std::uint32_t hi = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint32_t k = key(i);
      keys_[i] = k;
      lo = std::min(lo, k);
      hi = std::max(hi, k);
    }
    const std::size_t range = std::size_t{hi} - lo + 1;
    if (range / kDenseRatio > n || !by_bits(lo, range)) by_sort();
    return order_;
  }

 private:
  // Orders by a bit per index of [lo, lo + range); false when an index
  // repeats (the bits cannot say which position comes first).
  bool by_bits(std::uint32_t lo, std::size_t range) {
    const std::size_t words = (range + 63) / 64;
    bits_.assign(words, 0);
    slot_.resize(range);
    for (std::uint32_t i = 0; i < keys_.size(); ++i) {
      const std::size_t at = keys_[i] - lo;
      const std::uint64_t bit = std::uint64_t{1} << (at % 64);
      if ((bits_[at / 64] & bit) != 0) return false;
      bits_[at / 64] |= bit;
      slot_[at] = i;
    }
    order_.reserve(keys_.size());
    for (std::size_t w = 0; w < words; ++w) {
      for (std::uint64_t b = bits_[w]; b != 0; b &= b - 1) {
        order_.push_back(slot_[w * 64 + static_cast<std::size_t>(std::countr_zero(b))]);
      }
    }
    return true;
  }

  void by_sort() {
    order_.clear();
    pairs_.clear();
    pairs_.reserve(keys_.size());
    for (std::uint32_t i = 0; i < keys_.size(); ++i) pairs_.emplace_back(keys_[i], i);
    std::sort(pairs_.begin(), pairs_.end());
    for (const auto& p : pairs_) order_.push_back(p.second);
  }

  std::vector<std::uint32_t> keys_;
  std::vector<std::uint64_t> bits_;
  std::vector<std::uint32_t> slot_;  // slot_[index - lo]: its position, where its bit is set
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs_;
  std::vector<std::uint32_t> order_;
};

}  // namespace lakegc
