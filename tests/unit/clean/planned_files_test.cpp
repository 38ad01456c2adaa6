// PlannedFiles, a plan's files in one vector: partitions read back in path
// order with their files in the order appended, whatever order the
// partitions came in; a partition's files stay contiguous (appending to an
// earlier partition is refused); copies and moves keep appending where the
// original would; equality is by content, not by where files sit.
#include <doctest/doctest.h>

#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "lakegc/plan/clean_plan.hpp"
#include "lakegc/plan/planned_files.hpp"

namespace lakegc::tests::planned_files_test {

using namespace lakegc;

// The name views the caller's text: push and add copy it into the plan.
PlannedDelete file(std::string_view name, std::uint64_t size = 1) {
  return PlannedDelete{name, size, DeleteReason::older_than_boundary, {}};
}

std::vector<std::string> partitions_of(const PlannedFiles& f) {
  std::vector<std::string> out;
  for (const auto& [p, files] : f) out.emplace_back(p);
  return out;
}

std::vector<std::string> names_in(const PlannedFiles& f, std::string_view partition) {
  std::vector<std::string> out;
  for (const PlannedDelete& d : f.at(partition)) out.push_back(std::string(d.name));
  return out;
}

TEST_CASE("partitions read back in path order, each with its files in the order appended") {
  PlannedFiles f;
  f.push("p=2", file("a"));
  f.push("p=2", file("b"));
  f.add("p=1", {file("c"), file("d"), file("e")});
  f.push("p=3", file("f"));
  CHECK(f.size() == 3);
  CHECK(f.file_count() == 6);
  CHECK(partitions_of(f) == std::vector<std::string>{"p=1", "p=2", "p=3"});
  CHECK(names_in(f, "p=1") == std::vector<std::string>{"c", "d", "e"});
  CHECK(names_in(f, "p=2") == std::vector<std::string>{"a", "b"});
  CHECK(names_in(f, "p=3") == std::vector<std::string>{"f"});
  CHECK(f.contains("p=2"));
  CHECK_FALSE(f.contains("p=4"));
  CHECK_THROWS_AS((void)f.at("p=4"), std::out_of_range);
  // Iteration and at() give the same spans.
  for (const auto& [p, files] : f) {
    CHECK(files.data() == f.at(p).data());
    CHECK(files.size() == f.at(p).size());
  }
}

TEST_CASE("an empty list records no partition; an empty plan has no work") {
  PlannedFiles f;
  f.add("p", {});
  CHECK(f.empty());
  CHECK_FALSE(f.contains("p"));
  CleanPlan plan;
  CHECK_FALSE(plan.has_work());
  plan.files_per_partition.push("p", file("x", 5));
  plan.files_per_partition.push("q", file("y", 7));
  CHECK(plan.has_work());
  CHECK(plan.file_count() == 2);
  CHECK(plan.bytes() == 12);
}

TEST_CASE("appending to a partition other than the last one is refused and changes nothing") {
  PlannedFiles f;
  f.push("a", file("1"));
  f.push("b", file("2"));
  CHECK_THROWS_AS(f.push("a", file("3")), std::logic_error);
  CHECK_THROWS_AS(f.add("a", {file("3")}), std::logic_error);
  CHECK(f.file_count() == 2);
  CHECK(names_in(f, "a") == std::vector<std::string>{"1"});
  // The last partition goes on growing.
  f.push("b", file("4"));
  CHECK(names_in(f, "b") == std::vector<std::string>{"2", "4"});
}

TEST_CASE("a copy and a moved-to list keep appending to the last partition") {
  PlannedFiles f;
  f.push("a", file("1"));
  f.push("b", file("2"));
  PlannedFiles copy = f;
  CHECK(copy == f);
  copy.push("b", file("3"));
  CHECK(names_in(copy, "b") == std::vector<std::string>{"2", "3"});
  CHECK(names_in(f, "b") == std::vector<std::string>{"2"});  // the original is untouched
  CHECK_FALSE(copy == f);

  PlannedFiles assigned;
  assigned.push("z", file("9"));
  assigned = f;
  CHECK(assigned == f);
  assigned.push("b", file("3"));
  CHECK(assigned == copy);

  PlannedFiles moved = std::move(f);
  moved.push("b", file("3"));
  CHECK(moved == copy);
  PlannedFiles move_assigned;
  move_assigned = std::move(moved);
  move_assigned.push("c", file("5"));
  CHECK(names_in(move_assigned, "b") == std::vector<std::string>{"2", "3"});
  CHECK(names_in(move_assigned, "c") == std::vector<std::string>{"5"});
}

TEST_CASE("equality compares partitions and files, not where they sit in the vector") {
  PlannedFiles ab;
  ab.add("a", {file("1"), file("2")});
  ab.add("b", {file("3")});
  PlannedFiles ba;
  ba.add("b", {file("3")});
  ba.add("a", {file("1"), file("2")});
  CHECK(ab == ba);

  PlannedFiles other_order;
  other_order.add("a", {file("2"), file("1")});
  other_order.add("b", {file("3")});
  CHECK_FALSE(ab == other_order);

  PlannedFiles other_size;
  other_size.add("a", {file("1"), file("2", 9)});
  other_size.add("b", {file("3")});
  CHECK_FALSE(ab == other_size);

  PlannedFiles other_partition;
  other_partition.add("a", {file("1"), file("2")});
  other_partition.add("c", {file("3")});
  CHECK_FALSE(ab == other_partition);

  PlannedFiles moved_file;  // same files, one in the other partition
  moved_file.add("a", {file("1")});
  moved_file.add("b", {file("2"), file("3")});
  CHECK_FALSE(ab == moved_file);
}

TEST_CASE("files can be changed in place through at() and iteration") {
  PlannedFiles f;
  f.add("a", {file("1", 10), file("2", 20)});
  f.add("b", {file("3", 30)});
  f.at("a")[1].size = 21;
  for (const auto& [p, files] : f) {
    for (PlannedDelete& d : files) d.size += 1;
  }
  CHECK(f.at("a")[0].size == 11);
  CHECK(f.at("a")[1].size == 22);
  CHECK(f.at("b")[0].size == 31);
  f.clear();
  CHECK(f.empty());
  CHECK(f.file_count() == 0);
  f.push("a", file("again"));  // a cleared list starts afresh
  CHECK(names_in(f, "a") == std::vector<std::string>{"again"});
}

TEST_CASE("runs longer than a block, and runs that reserved room, read back whole") {
  const std::size_t n = PlannedFiles::kBlockFiles;
  PlannedFiles f;
  f.push("a", file("first"));
  // Outgrows the first block without a reservation: the run moves.
  for (std::size_t i = 0; i < 2 * n + 3; ++i) f.push("b", file(std::to_string(i), i));
  // Reserved: lands in a block with room.
  f.reserve_run(5);
  for (std::size_t i = 0; i < 5; ++i) f.push("c", file(std::to_string(i), i));
  // Reserved room and then more than reserved.
  f.reserve_run(2);
  for (std::size_t i = 0; i < n + 1; ++i) f.push("d", file(std::to_string(i), i));
  CHECK(f.file_count() == 1 + (2 * n + 3) + 5 + (n + 1));
  CHECK(names_in(f, "a") == std::vector<std::string>{"first"});
  for (const auto& [p, files] : f) {
    if (p == "a") continue;
    const std::size_t want = p == "b" ? 2 * n + 3 : p == "c" ? 5 : n + 1;
    REQUIRE(files.size() == want);
    for (std::size_t i = 0; i < files.size(); ++i) {
      CHECK(files[i].name == std::to_string(i));
      CHECK(files[i].size == i);
    }
  }
  // A copy appends to its last run too, though its blocks hold no spare room.
  PlannedFiles copy = f;
  copy.push("d", file("more"));
  CHECK(copy.at("d").size() == n + 2);
  CHECK(copy.at("d").back().name == "more");
  CHECK(f.at("d").size() == n + 1);
}

// Fills `files` with names "0", "1", ... held in `text`.
void fill_held(std::span<PlannedDelete> files, const std::vector<std::string>& text, std::size_t from) {
  for (std::size_t i = 0; i < files.size(); ++i) files[i] = file(text[from + i], from + i);
}

TEST_CASE("append_held appends a run at once: read back as pushing each file would") {
  const std::size_t n = PlannedFiles::kBlockFiles;
  auto text = std::make_shared<std::vector<std::string>>();
  for (std::size_t i = 0; i < 3 * n; ++i) text->push_back(std::to_string(i));
  PlannedFiles held;
  PlannedFiles pushed;
  held.hold(text);
  auto both = [&](std::string_view partition, std::size_t from, std::size_t count) {
    fill_held(held.append_held(partition, count), *text, from);
    for (std::size_t i = from; i < from + count; ++i) pushed.push(partition, file((*text)[i], i));
  };
  both("a", 0, 3);      // a new run in the first block
  both("a", 3, 2);      // more for the same run, in place
  both("b", 0, n + 7);  // larger than a block: a block of its own
  both("b", 5, 4);      // the block is full: the run moves, whole
  both("c", 0, 1);
  both("c", 1, 2 * n);  // a short run that outgrows the shared block
  CHECK(held.append_held("d", 0).empty());
  CHECK_FALSE(held.contains("d"));
  CHECK(held == pushed);
  CHECK(held.file_count() == 3 + 2 + (n + 7) + 4 + 1 + 2 * n);
  CHECK(names_in(held, "a") == std::vector<std::string>{"0", "1", "2", "3", "4"});
  REQUIRE(held.at("b").size() == n + 11);
  CHECK(held.at("b")[n + 7].name == "5");
  CHECK(held.at("c").back().name == std::to_string(2 * n));
  // The same rule as push: an earlier partition is refused, nothing added.
  CHECK_THROWS_AS(held.append_held("a", 2), std::logic_error);
  CHECK(held.file_count() == pushed.file_count());
  CHECK(names_in(held, "a").size() == 5);
}

TEST_CASE("pushed names are copied: the plan does not read the caller's text again") {
  PlannedFiles f;
  std::string name = "g1_1-0-1_20260101000000000.parquet";
  f.push("a", file(name));
  f.emplace("a", name + "x", 1, DeleteReason::beyond_versions, {});
  name.assign(name.size(), '?');
  CHECK(names_in(f, "a") ==
        std::vector<std::string>{"g1_1-0-1_20260101000000000.parquet", "g1_1-0-1_20260101000000000.parquetx"});
}

TEST_CASE("append takes another list's partitions in order and keeps its names' owners alive") {
  std::weak_ptr<const void> watched;
  auto part = std::make_unique<PlannedFiles>();
  {
    auto owner = std::make_shared<const std::string>("b1b2");
    watched = owner;
    part->hold(owner);
    part->emplace_held("b", std::string_view(*owner).substr(0, 2), 1, DeleteReason::beyond_versions, {});
    part->emplace_held("b", std::string_view(*owner).substr(2), 2, DeleteReason::beyond_versions, {});
  }
  part->push("c", file("c1"));
  PlannedFiles plan;
  plan.push("a", file("a1"));
  plan.append(*part);
  part.reset();
  CHECK_FALSE(watched.expired());
  CHECK(partitions_of(plan) == std::vector<std::string>{"a", "b", "c"});
  CHECK(names_in(plan, "b") == std::vector<std::string>{"b1", "b2"});
  CHECK(names_in(plan, "c") == std::vector<std::string>{"c1"});
  CHECK(plan.file_count() == 4);
  PlannedFiles earlier;
  earlier.push("a", file("a2"));
  CHECK_THROWS_AS(plan.append(earlier), std::logic_error);
  plan.clear();
  CHECK(watched.expired());
}

}  // namespace lakegc::tests::planned_files_test
