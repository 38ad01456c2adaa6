// IndexOrder, the planner's order of a partition's deleted files by file
// index: dense indices by bits, sparse or repeated ones by a sort, and the
// same order either way (ascending, ties by position).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "lakegc/plan/index_order.hpp"

namespace lakegc::tests::index_order_test {

using namespace lakegc;

// The expected order: positions sorted by key, ties by position.
std::vector<std::uint32_t> stable_order(const std::vector<std::uint32_t>& keys) {
  std::vector<std::uint32_t> out(keys.size());
  std::iota(out.begin(), out.end(), 0u);
  std::stable_sort(out.begin(), out.end(), [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
  return out;
}

std::vector<std::uint32_t> ordered(IndexOrder& order, const std::vector<std::uint32_t>& keys) {
  return order.ascending(keys.size(), [&](std::size_t i) { return keys[i]; });
}

TEST_CASE("dense indices in any order come back ascending") {
  IndexOrder order;
  // A group's slices newest first: each group's files descend, the groups ascend.
  const std::vector<std::uint32_t> keys = {1002, 1001, 1000, 1005, 1004, 1003, 1130, 1129};
  CHECK(ordered(order, keys) == std::vector<std::uint32_t>{2, 1, 0, 5, 4, 3, 7, 6});
  CHECK(ordered(order, {7}) == std::vector<std::uint32_t>{0});
  CHECK(ordered(order, {}).empty());
}

TEST_CASE("indices spread wider than the dense ratio are sorted, to the same order") {
  IndexOrder order;
  const std::uint32_t wide = 10 * IndexOrder::kDenseRatio;
  const std::vector<std::uint32_t> keys = {5 * wide, 0, 3 * wide, 4'000'000'000u, 1};
  CHECK(ordered(order, keys) == std::vector<std::uint32_t>{1, 4, 2, 0, 3});
}

TEST_CASE("a repeated index keeps its positions' order") {
  IndexOrder order;
  const std::vector<std::uint32_t> keys = {9, 4, 9, 3, 4};  // dense, so the bits see the repeat
  CHECK(ordered(order, keys) == std::vector<std::uint32_t>{3, 1, 4, 0, 2});
}

TEST_CASE("random sets, dense and sparse, repeated or not, equal a stable sort; the scratch is reused") {
  IndexOrder order;
  std::mt19937 rng(20261207);
  for (int round = 0; round < 400; ++round) {
    const std::size_t n = 1 + rng() % 300;
    const std::uint32_t span = round % 3 == 0 ? static_cast<std::uint32_t>(n * (IndexOrder::kDenseRatio + 50))
                                              : static_cast<std::uint32_t>(n + rng() % (4 * n));
    const std::uint32_t base = rng() % 1'000'000;
    std::vector<std::uint32_t> keys;
    for (std::size_t i = 0; i < n; ++i) keys.push_back(base + static_cast<std::uint32_t>(rng() % span));
    if (round % 2 == 0) {  // distinct, as a plan's files are
      std::sort(keys.begin(), keys.end());
      keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
      std::shuffle(keys.begin(), keys.end(), rng);
    }
    INFO("round " << round << ", " << keys.size() << " indices over " << span);
    CHECK(ordered(order, keys) == stable_order(keys));
  }
}

}  // namespace lakegc::tests::index_order_test
