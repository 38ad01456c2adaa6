// Snapshot resolution: what a query at T reads, with the library's view.
#include <doctest/doctest.h>

#include "lakegc/sim/snapshot.hpp"
#include "sim_fixture.hpp"

namespace lakegc::tests::snapshot_test {

using namespace lakegc;
using namespace lakegc::sim;
using namespace lakegc::sim::testing;

TEST_CASE("a time-travel snapshot reads each group's newest slice at or before it") {
  MiniTable t;
  const auto a1 = t.base("a", minute(1));
  t.commit(1, {a1});
  const auto a2 = t.base("a", minute(2));
  const auto b2 = t.base("b", minute(2));
  t.commit(2, {a2, b2});
  const auto a3 = t.base("a", minute(3));
  t.commit(3, {a3});
  CHECK(t.snapshot(1) == std::vector<std::string>{a1});
  CHECK(t.snapshot(2) == std::vector<std::string>{a2, b2});
  CHECK(t.snapshot(3) == std::vector<std::string>{a3, b2});
}

TEST_CASE("replaced groups leave the snapshot at their replacecommit") {
  MiniTable t;
  const auto a1 = t.base("a", minute(1));
  t.commit(1, {a1});
  const auto c2 = t.base("c", minute(2));
  t.commit(2, {c2}, Action::replacecommit, {{"p", "a"}});
  CHECK(t.snapshot(1) == std::vector<std::string>{a1});
  CHECK(t.snapshot(2) == std::vector<std::string>{c2});
}

TEST_CASE("a pending compaction's slice is read together with the slice it compacts") {
  MiniTable t;
  const auto a1 = t.base("a", minute(1));
  t.commit(1, {a1});
  const auto l2 = t.log("a", minute(2));
  t.commit(2, {l2}, Action::deltacommit);
  REQUIRE(t.journal.schedule_compaction(minute(3), {{minute(3), "p", "a", minute(1)}}).ok());
  const auto l4 = t.log("a", minute(4));
  t.commit(4, {l4}, Action::deltacommit);
  CHECK(t.snapshot(2) == std::vector<std::string>{l2, a1});
  // The newest slice at 4 is the compaction's (log l4 only); the query also
  // reads the slice being compacted.
  CHECK(t.snapshot(4) == std::vector<std::string>{l2, l4, a1});
}

TEST_CASE("layout 1: logs written after the snapshot are not part of it") {
  MiniTable t(TimelineLayout::v1);
  const auto a1 = t.base("a", minute(1));
  t.commit(1, {a1});
  const auto l2 = t.log("a", minute(1));  // layout 1: named by the slice's base instant
  t.commit(2, {l2}, Action::deltacommit);
  REQUIRE(t.journal.schedule_compaction(minute(3), {{minute(3), "p", "a", minute(1)}}).ok());
  const auto a3 = t.base("a", minute(3));
  t.complete_compaction(3, {a3});
  const auto l4 = t.log("a", minute(3));  // appended to the compacted slice
  t.commit(4, {l4}, Action::deltacommit);
  // An as-of view at 2 does not see the compaction's base file, so it would
  // attach l4 to slice 1; l4 was written after 2 and is not read.
  CHECK(t.snapshot(2) == std::vector<std::string>{l2, a1});
  CHECK(t.snapshot(4) == std::vector<std::string>{l4, a3});
}

}  // namespace lakegc::tests::snapshot_test
