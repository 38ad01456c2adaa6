// The chunked containers the orphan sweep keeps its listing in: values and
// views stay where they were put while the containers grow past many
// chunks, small and large (prefaulted) chunks alike.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "lakegc/core/prefaulted.hpp"

namespace lakegc::tests::prefaulted_test {

using namespace lakegc;

TEST_CASE("ChunkedList keeps every value, in order, at a stable address, across small and prefaulted chunks") {
  struct Value {
    std::uint64_t a;
    std::uint32_t b;
  };
  ChunkedList<Value> list;
  std::vector<const Value*> where;
  // 16-byte values: 64 KiB chunks doubling to 8 MiB; 3 million values fill
  // small chunks and several prefaulted ones.
  constexpr std::uint64_t kCount = 3'000'000;
  for (std::uint64_t i = 0; i < kCount; ++i) where.push_back(&list.push_back({i * 7, static_cast<std::uint32_t>(i)}));
  CHECK(list.size() == kCount);
  std::uint64_t i = 0;
  bool in_order = true, same_address = true;
  list.for_each([&](const Value& v) {
    in_order = in_order && v.a == i * 7 && v.b == static_cast<std::uint32_t>(i);
    same_address = same_address && &v == where[i];
    ++i;
  });
  CHECK(i == kCount);
  CHECK(in_order);
  CHECK(same_address);
}

TEST_CASE("TextArena's views keep their text while it grows, including strings longer than a chunk") {
  TextArena arena;
  std::vector<std::string> originals;
  std::vector<std::string_view> copies;
  for (int i = 0; i < 200'000; ++i) originals.push_back("name-" + std::to_string(i) + std::string(i % 90, 'x'));
  originals.push_back(std::string(std::size_t{9} << 20, 'y'));  // more than the largest chunk
  originals.push_back("");
  originals.push_back("after the long one");
  for (const auto& s : originals) copies.push_back(arena.copy(s));
  bool same = true;
  for (std::size_t i = 0; i < originals.size(); ++i) same = same && copies[i] == originals[i];
  CHECK(same);
  CHECK(copies[copies.size() - 3].size() == (std::size_t{9} << 20));
}

TEST_CASE("A moved-from TextArena starts over instead of writing into the chunk it gave away") {
  TextArena from;
  const std::string_view kept = from.copy("kept by the arena it moved to");
  TextArena to = std::move(from);
  // Without the reset the moved-from arena's next copy lands right after
  // `kept`, in `to`'s chunk, and a long one overwrites what follows.
  const std::string_view later = from.copy(std::string(100, 'z'));  // NOLINT(bugprone-use-after-move): the point
  const std::string_view after = to.copy("written after the move");
  CHECK(kept == "kept by the arena it moved to");
  CHECK(later == std::string(100, 'z'));
  CHECK(after == "written after the move");
  CHECK(later.data() != kept.data() + kept.size());
}

TEST_CASE("PrefaultedAllocator backs a hash-table-sized vector, small and large") {
  std::vector<std::uint64_t, PrefaultedAllocator<std::uint64_t>> small(1000, 3), large(std::size_t{1} << 21, 5);
  CHECK(small.back() == 3);
  CHECK(large.back() == 5);
  large.resize(std::size_t{1} << 22, 6);  // a reallocation: the old block is unmapped
  CHECK(large[(std::size_t{1} << 21) - 1] == 5);
  CHECK(large.back() == 6);
}

}  // namespace lakegc::tests::prefaulted_test
