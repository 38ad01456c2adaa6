// NameSet, the savepointed names of a view: its views of the text stay
// valid through growth, copies and moves, and a copy owns its own text.
#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "lakegc/core/name_hash.hpp"
#include "lakegc/core/name_set.hpp"

namespace lakegc::tests::name_set_test {

using namespace lakegc;

namespace {
std::string name(int i) { return "f" + std::to_string(i) + "-0_1-2-3_20260101000000000.parquet"; }
}  // namespace

TEST_CASE("NameSet finds every inserted name across many arena chunks, and nothing else") {
  NameSet set;
  constexpr int kCount = 300'000;  // ~14 MB of text: small and prefaulted chunks
  for (int i = 0; i < kCount; ++i) set.insert(name(i));
  set.insert(name(7));  // a duplicate is not counted twice
  CHECK(set.size() == kCount);
  bool all = true;
  for (int i = 0; i < kCount; ++i) all = all && set.contains(name(i));
  CHECK(all);
  CHECK_FALSE(set.contains(name(kCount)));
  CHECK_FALSE(set.contains("f1-0_1-2-3_20260101000000000.parque"));  // a prefix of a member
  CHECK_FALSE(set.empty());
}

TEST_CASE("A copied NameSet keeps its names after the source is gone; a moved-from one is empty and usable") {
  std::vector<std::string> texts;
  for (int i = 0; i < 60'000; ++i) texts.push_back(name(i));  // past 1 MiB: its last chunk is unmapped when it goes
  auto source = std::make_unique<NameSet>();
  for (const auto& t : texts) source->insert(t);
  NameSet copy(*source);
  NameSet assigned;
  assigned.insert("replaced by the assignment");
  assigned = *source;
  source.reset();  // the copies must not view its arena
  bool all = true;
  for (const auto& t : texts) all = all && copy.contains(t) && assigned.contains(t);
  CHECK(all);
  CHECK_FALSE(assigned.contains("replaced by the assignment"));

  NameSet moved(std::move(copy));
  CHECK(moved.size() == texts.size());
  CHECK(moved.contains(texts.front()));
  copy.clear();  // NOLINT(bugprone-use-after-move): reused after a move, as a builder's clear_metadata does
  CHECK(copy.empty());
  copy.insert("new");
  CHECK(copy.contains("new"));
  CHECK_FALSE(moved.contains("new"));
  CHECK(moved.contains(texts.back()));
}

TEST_CASE("NameHash hashes views as Abseil hashes its own string_view, alone and inside pairs and tuples") {
  // Debian's Abseil would hash a std::string_view with std::hash; NameHash
  // must not (name_hash.hpp says why). Equal values must hash equally.
  const std::string text = name(7);
  const std::string_view v = text;
  const absl::string_view a(text.data(), text.size());
  CHECK(NameHash{}(v) == absl::Hash<absl::string_view>{}(a));
  CHECK(NameHash{}(std::pair{v, v}) == absl::HashOf(a, a));
  CHECK(NameHash{}(std::pair{std::uint32_t{3}, v}) == absl::HashOf(std::uint32_t{3}, a));
  CHECK(NameHash{}(std::tuple{std::uint32_t{3}, v, std::uint64_t{9}}) ==
        absl::HashOf(std::uint32_t{3}, a, std::uint64_t{9}));
  const std::string copy = text;
  CHECK(NameHash{}(std::string_view(copy)) == NameHash{}(v));
  NameViewSet set;
  set.insert(v);
  CHECK(set.contains(std::string_view(copy)));
  CHECK_FALSE(set.contains(std::string_view(name(8))));
}

}  // namespace lakegc::tests::name_set_test
