// SharedText, the text of a plan's names: what it keeps outlives the text
// it was given, copies share what was written and never write over each
// other, and held owners live as long as any copy.
#include <doctest/doctest.h>

#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lakegc/core/shared_text.hpp"

namespace lakegc::tests::shared_text_test {

using namespace lakegc;

namespace {
std::string name(int i) { return "g" + std::to_string(i) + "_1-0-1_20260101000000000.parquet"; }

// Fills freed heap blocks of a chunk's size with 'x', so a view of freed
// text reads garbage instead of the bytes it had.
void scribble_freed_chunks() {
  std::vector<std::unique_ptr<char[]>> junk;
  for (int i = 0; i < 16; ++i) {
    junk.emplace_back(new char[SharedText::kChunkBytes]);
    std::memset(junk.back().get(), 'x', SharedText::kChunkBytes);
  }
}
}  // namespace

TEST_CASE("kept text is a copy: it outlives and ignores the text it was given, across many chunks") {
  SharedText text;
  std::vector<std::string_view> kept;
  constexpr int kCount = 20'000;  // ~900 KB: many chunks
  for (int i = 0; i < kCount; ++i) {
    std::string source = name(i);
    kept.push_back(text.keep(source));
    source.assign(source.size(), 'x');
  }
  const std::string longer(3 * SharedText::kChunkBytes, 'L');  // longer than a chunk: one of its own
  const std::string_view kept_longer = text.keep(longer);
  bool all = true;
  for (int i = 0; i < kCount; ++i) all = all && kept[static_cast<std::size_t>(i)] == name(i);
  CHECK(all);
  CHECK(kept_longer == longer);
  CHECK(text.keep("").empty());
}

TEST_CASE("a copy keeps the text alive after the original goes, and the two never write over each other") {
  auto original = std::make_unique<SharedText>();
  const std::string_view first = original->keep("first");
  SharedText copy = *original;
  // Each writes on after the copy: never into the same place.
  const std::string_view by_original = original->keep("AAAA");
  const std::string_view by_copy = copy.keep("BBBB");
  CHECK(by_original == "AAAA");
  CHECK(by_copy == "BBBB");
  original.reset();
  scribble_freed_chunks();
  CHECK(first == "first");
  SharedText moved = std::move(copy);
  CHECK(moved.keep("DDDD") == "DDDD");
  CHECK(by_copy == "BBBB");
}

TEST_CASE("an assigned copy, and one that shares, keep the text alive after the original goes") {
  auto source = std::make_unique<SharedText>();
  const std::string_view second = source->keep("second");
  SharedText assigned;
  (void)assigned.keep("old");
  assigned = *source;
  const std::string_view by_source = source->keep("EEEE");
  const std::string_view by_assigned = assigned.keep("CCCC");
  CHECK(by_source == "EEEE");
  CHECK(by_assigned == "CCCC");
  source.reset();
  scribble_freed_chunks();
  CHECK(second == "second");
  CHECK(by_source == "EEEE");  // written to a chunk the assigned copy holds too

  auto shared_source = std::make_unique<SharedText>();
  const std::string_view third = shared_source->keep("third");
  SharedText sharer;
  sharer.share(*shared_source);
  shared_source.reset();
  scribble_freed_chunks();
  CHECK(third == "third");
}

TEST_CASE("held owners live as long as any copy; holding one twice holds it once") {
  std::weak_ptr<const void> watched;
  SharedText text;
  {
    auto owner = std::make_shared<std::string>("the view's names");
    watched = owner;
    text.hold(owner);
    text.hold(owner);
  }
  CHECK(watched.use_count() == 1);
  SharedText copy = text;
  SharedText shared;
  shared.share(text);
  text.clear();
  CHECK_FALSE(watched.expired());
  copy.clear();
  CHECK_FALSE(watched.expired());
  shared.clear();
  CHECK(watched.expired());
  CHECK(watched.use_count() == 0);
}

}  // namespace lakegc::tests::shared_text_test
