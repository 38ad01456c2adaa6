// Snapshot resolution: what a query at T reads, with the library's view.
#include <doctest/doctest.h>

#include "lakegc/sim/oracle.hpp"
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

namespace {

/// Snapshots at minutes 1..8 of `t`, as file names.
std::vector<std::vector<std::string>> all_snapshots(MiniTable& t) {
  std::vector<std::vector<std::string>> out;
  for (int m = 1; m <= 8; ++m) out.push_back(t.snapshot(m));
  return out;
}

/// Writes `name` into partition p of `t` and answers whether the oracle's
/// judge said it may change a snapshot; REQUIREs that a "no" left every
/// snapshot as it was, and returns whether any changed.
bool judged_and_changed(MiniTable& t, const std::string& name, bool& judged) {
  const auto before = all_snapshots(t);
  judged = may_change_snapshots("p/" + name, t.md());
  REQUIRE(t.storage.put_sized("p/" + name, 10).ok());
  const bool changed = all_snapshots(t) != before;
  if (!judged) REQUIRE_FALSE(changed);
  return changed;
}

}  // namespace

TEST_CASE("a data file of a pending write changes no snapshot unless a view can place it (the oracle's cache)") {
  for (const TimelineLayout layout : {TimelineLayout::v1, TimelineLayout::v2}) {
    CAPTURE(static_cast<int>(layout));
    MiniTable t(layout);
    const auto a1 = t.base("a", minute(1));
    t.commit(1, {a1});
    t.commit(2, {t.log("a", layout == TimelineLayout::v1 ? minute(1) : minute(2))}, Action::deltacommit);
    REQUIRE(t.journal.begin(minute(5), Action::commit).ok());
    REQUIRE(t.journal.begin(minute(6), Action::deltacommit).ok());
    REQUIRE(t.journal.schedule_compaction(minute(7), {{minute(7), "p", "a", minute(1)}}).ok());
    bool judged = true;
    // A pending commit's base file, new group or old: no view takes it.
    CHECK_FALSE(judged_and_changed(t, t.base("b", minute(5)), judged));
    CHECK_FALSE(judged);
    CHECK_FALSE(judged_and_changed(t, t.base("a", minute(5)), judged));
    CHECK_FALSE(judged);
    if (layout == TimelineLayout::v2) {
      // Layout 2 names a log by its deltacommit: pending, so uncommitted.
      CHECK_FALSE(judged_and_changed(t, t.log("a", minute(6)), judged));
      CHECK_FALSE(judged);
    } else {
      // Layout 1 names it by its slice's base instant: it joins that slice.
      CHECK(judged_and_changed(t, t.log("a", minute(1)), judged));
      CHECK(judged);
    }
    // A pending compaction's base file opens the slice a query reads.
    CHECK(judged_and_changed(t, t.base("a", minute(7)), judged));
    CHECK(judged);
    // A base file of a completed commit (a zombie task's late file).
    CHECK(judged_and_changed(t, t.base("c", minute(1)), judged));
    CHECK(judged);
    // Unknown instant (archived, or never on the timeline): not judged.
    CHECK(may_change_snapshots("p/" + t.base("d", minute(0)), t.md()));
    CHECK(may_change_snapshots("p/not-a-data-file.txt", t.md()));
  }
}

TEST_CASE("the oracle's snapshot cache: kept across a pending write's files, dropped by a visible one, verified") {
  VirtualClock clock;
  Oracle oracle(clock);
  MiniTable t;
  const auto a1 = t.base("a", minute(1));
  t.commit(1, {a1});
  REQUIRE(oracle.shadow().write_if_absent("p/.hoodie_partition_metadata", "x").ok());
  oracle.mirror_data_file("p/" + a1, 10);
  REQUIRE(t.journal.begin(minute(5), Action::commit).ok());
  oracle.verify_cache(true);
  const auto names = [&](int m) {
    auto files = oracle.snapshot(t.md(), minute(m));
    REQUIRE(files.ok());
    std::vector<std::string> out;
    for (const auto& f : **files) out.push_back(f.name);
    return out;
  };
  CHECK(names(6) == std::vector<std::string>{a1});
  oracle.mirror_data_file("p/" + t.base("a", minute(5)), 10);  // pending: the cache stays, and verifies
  CHECK(names(6) == std::vector<std::string>{a1});
  const auto c1 = t.base("c", minute(1));
  oracle.mirror_data_file("p/" + c1, 10);  // a completed instant's file: the cache goes
  CHECK(names(6) == std::vector<std::string>{a1, c1});
  // A file put behind the oracle's back: the verification catches the stale cache.
  REQUIRE(oracle.shadow().put_sized("p/" + t.base("e", minute(1)), 10).ok());
  const auto stale = oracle.snapshot(t.md(), minute(6));
  REQUIRE_FALSE(stale.ok());
  CHECK(message_of(stale.status()).find("stale") != std::string_view::npos);
}

}  // namespace lakegc::tests::snapshot_test
