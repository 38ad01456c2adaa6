// Which partitions a clean scans and when it runs (docs/hudi-rules.md
// sections 7 and 8): the incremental window, its five fallbacks to a full
// scan, empty cleans (Hudi 6953, 17844), the cap per run (Hudi 11248), the
// trigger and one pending clean at a time.
#include <doctest/doctest.h>

#include "clean_fixture.hpp"

namespace lakegc::tests::scope_test {

using namespace lakegc;
using namespace lakegc::testing;

namespace {

Slot slot(const std::string& partition, const std::string& id = "") {
  return Slot{partition, id.empty() ? partition + "g-0" : id};
}

auto incremental(std::uint32_t n) {
  return cleaning(keep_latest_commits{n}, guard::savepoints, guard::pending_table_services, scope::incremental);
}
auto full(std::uint32_t n) {
  return cleaning(keep_latest_commits{n}, guard::savepoints, guard::pending_table_services);
}

/// What plan_clean would scan now, with partition paths instead of indices.
struct Scanned {
  ScanKind kind = ScanKind::none;
  std::set<std::string> partitions;
  std::string fallback_reason;
  CleanPlan plan;
};

template <CleaningPolicy P>
Scanned scan(TestTable& t, const P& policy) {
  const TableMetadata md = t.md();
  const TableView v = load_view(t.storage, md).value();
  CleanContext ctx;
  ctx.now_ms = t.now;
  CleanScope scope;
  Scanned out;
  out.plan = plan_clean(v, md, policy, ctx, &scope).value();
  out.kind = scope.kind;
  out.fallback_reason = scope.fallback_reason;
  for (std::uint32_t i : scope.partitions) out.partitions.insert(v.partitions()[i].path);
  return out;
}

/// Four updates of one group in "a" and a clean that deletes the oldest:
/// the table then has a completed clean whose boundary is the third commit.
std::vector<InstantTime> updates_then_clean(TestTable& t) {
  std::vector<InstantTime> c;
  for (int i = 0; i < 4; ++i) c.push_back(t.commit({slot("a")}));
  const CleanRunReport r = t.clean(incremental(2));
  REQUIRE(r.executed.has_value());
  REQUIRE(r.executed->metadata.earliest_commit_to_retain == c[2]);
  return c;
}

}  // namespace

TEST_CASE("incremental scope: only partitions written by commits requested in [previous boundary, new boundary)") {
  TestTable t;
  t.commit({slot("d")});  // before the previous boundary
  std::vector<InstantTime> a;
  for (int i = 0; i < 4; ++i) a.push_back(t.commit({slot("a")}));
  // Retain 2 of [d, a0, a1, a2, a3]: the boundary is a2; a0 goes.
  const CleanRunReport first = t.clean(incremental(2));
  REQUIRE(first.executed.has_value());
  REQUIRE(first.executed->metadata.earliest_commit_to_retain == a[2]);
  CHECK(first.scope.kind == ScanKind::full);  // no earlier clean to start from

  t.commit({slot("b")});
  t.commit({slot("c")});
  const InstantTime g = t.commit({slot("g")});  // the new boundary itself
  t.commit({slot("f")});                        // after the new boundary
  // Retain 2 of 9 commits: the new boundary is g. The window [a2, g) holds
  // a2, a3, b and c.
  const Scanned s = scan(t, incremental(2));
  REQUIRE(s.plan.earliest_instant_to_retain == g);
  CHECK(s.kind == ScanKind::incremental);
  CHECK(s.fallback_reason.empty());
  CHECK(s.partitions == std::set<std::string>{"a", "b", "c"});
  // Nothing deletable lies outside the window: the full scan finds the same.
  const Scanned everything = scan(t, full(2));
  CHECK(everything.kind == ScanKind::full);
  CHECK(everything.partitions.size() == 6);
  CHECK(s.plan == everything.plan);
  CHECK(planned_slices(s.plan, "a") == std::set<InstantTime>{a[1], a[2]});
}

TEST_CASE("incremental scope: a replacecommit in the window brings its replaced partitions") {
  TestTable t;
  t.commit({slot("old")});
  updates_then_clean(t);
  t.replace({slot("new")}, {slot("old")});  // writes "new", replaces the group in "old"
  for (int i = 0; i < 3; ++i) t.commit({slot("a")});
  const Scanned s = scan(t, incremental(2));
  REQUIRE(s.kind == ScanKind::incremental);
  CHECK(s.partitions.contains("old"));
  CHECK(s.partitions.contains("new"));
  CHECK(s.plan.partitions_to_be_deleted == std::vector<std::string>{"old"});
}

TEST_CASE("incremental scope falls back to a full scan: no completed clean") {
  TestTable t;
  for (int i = 0; i < 4; ++i) t.commit({slot("a")});
  const Scanned s = scan(t, incremental(2));
  CHECK(s.kind == ScanKind::full);
  CHECK(s.fallback_reason == "no completed clean");
}

TEST_CASE("incremental scope falls back to a full scan: the previous clean recorded no boundary") {
  TestTable t;
  for (int i = 0; i < 3; ++i) t.commit({slot("a")});
  // KEEP_LATEST_FILE_VERSIONS records earliestCommitToRetain = "".
  const CleanRunReport versions =
      t.clean(cleaning(keep_latest_file_versions{1}, guard::savepoints, guard::pending_table_services));
  REQUIRE(versions.executed.has_value());
  REQUIRE_FALSE(versions.executed->metadata.earliest_commit_to_retain.has_value());
  for (int i = 0; i < 3; ++i) t.commit({slot("a")});
  Scanned s = scan(t, incremental(2));
  CHECK(s.kind == ScanKind::full);
  CHECK(s.fallback_reason == "previous clean has no earliest commit to retain");
  // Control: once a boundary clean has run, the next one is incremental.
  REQUIRE(t.clean(incremental(2)).executed.has_value());
  t.commit({slot("a")});
  s = scan(t, incremental(2));
  CHECK(s.kind == ScanKind::incremental);
}

TEST_CASE("incremental scope falls back to a full scan: the previous boundary was archived") {
  TestTable t;
  const auto c = updates_then_clean(t);  // boundary c[2]
  for (int i = 0; i < 2; ++i) t.commit({slot("b")});
  CHECK(scan(t, incremental(2)).kind == ScanKind::incremental);  // control
  // Archive up to c[3]: the previous boundary leaves the active timeline,
  // the clean instant (after c[3]) stays.
  t.journal.archive_before(c[3]);
  REQUIRE(t.md().last_completed_clean.has_value());
  const Scanned s = scan(t, incremental(2));
  CHECK(s.kind == ScanKind::full);
  CHECK(s.fallback_reason == "previous clean's earliest commit to retain is archived");
}

TEST_CASE("incremental scope falls back to a full scan: a savepoint the previous clean recorded was deleted") {
  TestTable t;
  t.commit({slot("a")});
  const InstantTime sp = t.savepoint_latest();  // names the first slice
  for (int i = 0; i < 4; ++i) t.commit({slot("a")});
  const CleanRunReport r = t.clean(incremental(2));
  REQUIRE(r.executed.has_value());
  REQUIRE(r.executed->metadata.extra_metadata.at("savepointed_timestamps") == sp.str());
  for (int i = 0; i < 2; ++i) t.commit({slot("b")});
  CHECK(scan(t, incremental(2)).kind == ScanKind::incremental);  // control
  REQUIRE(t.journal.remove_savepoint(sp).ok());
  const Scanned s = scan(t, incremental(2));
  CHECK(s.kind == ScanKind::full);
  CHECK(s.fallback_reason == "a savepoint recorded by the previous clean was deleted");
  // The savepointed slice (the first commit's) is now cleaned by that scan.
  CHECK_FALSE(s.plan.files_per_partition.at("a").empty());
}

TEST_CASE("incremental scope: a boundary at or before the previous one scans nothing") {
  TestTable t;
  const auto c = updates_then_clean(t);  // boundary c[2]
  Scanned s = scan(t, incremental(2));   // no new commit: same boundary
  CHECK(s.plan.earliest_instant_to_retain == c[2]);
  CHECK(s.kind == ScanKind::incremental);
  CHECK(s.partitions.empty());
  CHECK_FALSE(s.plan.has_work());
  for (int i = 0; i < 3; ++i) t.commit({slot("a")});
  // Retention raised from 2 to 6: the boundary moves back to c[1].
  s = scan(t, incremental(6));
  REQUIRE(s.plan.earliest_instant_to_retain == c[1]);
  CHECK(s.kind == ScanKind::incremental);
  CHECK(s.partitions.empty());
  CHECK_FALSE(s.plan.has_work());
}

TEST_CASE("incremental scope: a partition where a reader lease kept a slice is scanned again by the next clean") {
  TestTable t;
  auto leased = cleaning(keep_latest_commits{2}, guard::savepoints, guard::pending_table_services, guard::reader_leases,
                         scope::incremental);
  std::vector<InstantTime> c;
  c.push_back(t.commit({slot("a"), slot("b")}));
  c.push_back(t.commit({slot("a")}));
  c.push_back(t.commit({slot("a")}));
  c.push_back(t.commit({slot("b")}));
  c.push_back(t.commit({slot("b")}));
  // Boundary c3. In "a" slices c0 and c1 are deletable, but a query reading
  // snapshot c0 holds a lease on a's c0 slice.
  CleanContext ctx;
  ctx.leases = {c[0]};
  const CleanRunReport first = t.clean(leased, ctx);
  REQUIRE(first.executed.has_value());
  REQUIRE(first.executed->metadata.earliest_commit_to_retain == c[3]);
  CHECK(planned_slices(*first.plan, "a") == std::set<InstantTime>{c[1]});
  CHECK(t.md().last_completed_clean->lease_vetoed_partitions == std::vector<std::string>{"a"});

  // The lease is released; later commits touch only "b", so no commit in
  // the next window [c3, c6) brings the clean back to "a". The record does.
  for (int i = 0; i < 3; ++i) c.push_back(t.commit({slot("b")}));
  const Scanned s = scan(t, leased);
  REQUIRE(s.plan.earliest_instant_to_retain == c[6]);
  CHECK(s.kind == ScanKind::incremental);
  CHECK(s.partitions.contains("a"));
  CHECK(planned_slices(s.plan, "a") == std::set<InstantTime>{c[0]});
  CHECK(s.plan == scan(t, cleaning(keep_latest_commits{2}, guard::savepoints, guard::pending_table_services,
                                   guard::reader_leases))
                      .plan);
}

TEST_CASE("incremental scope: a commit the hours boundary passed while it ran is scanned once it completes") {
  TestTable t;  // layout 2: completion times are known
  auto hours = cleaning(keep_by_hours{1}, guard::savepoints, guard::pending_table_services, scope::incremental);
  const InstantTime b0 = t.commit({slot("b")});
  CommitInfo slow;
  const InstantTime w = t.begin_commit({slot("b")}, &slow);  // a long write to "b"
  for (int i = 0; i < 6; ++i) t.commit({slot("a")});
  // keep_by_hours does not wait for pending writes: its boundary passes w.
  const CleanRunReport first = t.clean(hours);
  REQUIRE(first.executed.has_value());
  REQUIRE(w < *first.executed->metadata.earliest_commit_to_retain);
  CHECK(planned_slices(*first.plan, "b").empty());  // b's c0 is its latest committed slice

  // w completes after that clean; now b0 is superseded by a slice before
  // the boundary. The next window holds only commits to "a".
  t.now += 60'000;
  REQUIRE(t.journal.complete(w, InstantTime::from_epoch_ms(t.now, TimelineTimezone::utc), slow).ok());
  for (int i = 0; i < 3; ++i) t.commit({slot("a")});
  const Scanned s = scan(t, hours);
  CHECK(s.kind == ScanKind::incremental);
  CHECK(s.partitions.contains("b"));
  CHECK(planned_slices(s.plan, "b") == std::set<InstantTime>{b0});
  CHECK(s.plan == scan(t, cleaning(keep_by_hours{1}, guard::savepoints, guard::pending_table_services)).plan);
}

TEST_CASE("incremental scope falls back to a full scan: a commit that completed after the previous clean is archived") {
  // Found by the schedule_fast fuzzer (I6): such a commit is scanned from
  // its commit metadata (the case above); archived before the next clean,
  // its partitions are unknown, and an incremental scan left its superseded
  // slice behind for good.
  TestTable t;  // layout 2: completion times are known
  auto hours = cleaning(keep_by_hours{1}, guard::savepoints, guard::pending_table_services, scope::incremental);
  const InstantTime b0 = t.commit({slot("b")});
  CommitInfo slow;
  const InstantTime w = t.begin_commit({slot("b")}, &slow);
  for (int i = 0; i < 6; ++i) t.commit({slot("a")});
  const CleanRunReport first = t.clean(hours);
  REQUIRE(first.executed.has_value());
  const InstantTime previous_boundary = *first.executed->metadata.earliest_commit_to_retain;
  REQUIRE(w < previous_boundary);
  t.now += 60'000;
  REQUIRE(t.journal.complete(w, InstantTime::from_epoch_ms(t.now, TimelineTimezone::utc), slow).ok());
  for (int i = 0; i < 3; ++i) t.commit({slot("a")});
  CHECK(scan(t, hours).kind == ScanKind::incremental);  // control: w is still active

  t.journal.archive_before(previous_boundary);  // w and b0 go; the previous boundary stays
  REQUIRE(t.md().archived_completions.contains(w));
  const Scanned s = scan(t, hours);
  CHECK(s.kind == ScanKind::full);
  CHECK(
      s.fallback_reason ==
      fmt::format("commit {} completed after the previous clean and is archived: its partitions are unknown", w.str()));
  CHECK(planned_slices(s.plan, "b") == std::set<InstantTime>{b0});
  // Where the archive cannot be read the commit is missed, as in Hudi.
  t.journal.set_archive_readable(false);
  CHECK(scan(t, hours).kind == ScanKind::incremental);
}

namespace {
// Hudi 6953 / 17844: after one real clean, an append-only stretch (every
// commit a new file group) with a clean after each commit, then archival up
// to a commit just after the last real clean's boundary. Returns the scope
// of the clean that runs after archival.
CleanRunReport append_only_then_archive(bool empty_cleans, std::size_t* empty_cleans_committed) {
  TestTable t;
  std::vector<InstantTime> c;
  for (int i = 0; i < 4; ++i) c.push_back(t.commit({slot("a")}));
  c.push_back(t.commit({slot("log", "x0-0")}));
  c.push_back(t.commit({slot("log", "x1-0")}));
  auto run = [&] {
    return empty_cleans ? t.clean(cleaning(keep_latest_commits{2}, guard::savepoints, guard::pending_table_services,
                                           scope::incremental, scope::empty_clean_interval{1}))
                        : t.clean(incremental(2));
  };
  // The last real clean: boundary c[4]; deletes a's slices c[0] to c[2].
  const CleanRunReport real = run();
  REQUIRE(real.executed.has_value());
  REQUIRE(real.executed->metadata.earliest_commit_to_retain == c[4]);
  const std::size_t cleans_before = t.journal.clean_metadata().size();
  for (int i = 2; i < 10; ++i) {
    t.commit({slot("log", fmt::format("x{}-0", i))});
    const CleanRunReport r = run();
    CHECK(r.files_deleted() == 0);
    CHECK(r.scope.kind == ScanKind::incremental);  // the anchor is still on the timeline
  }
  *empty_cleans_committed = t.journal.clean_metadata().size() - cleans_before;
  // Archival passes the real clean's boundary (c[4]), not its instant.
  t.journal.archive_before(c[5]);
  t.commit({slot("log", "x10-0")});
  return run();
}
}  // namespace

TEST_CASE("Hudi 6953 and 17844: empty cleans keep an append-only table's cleaning incremental") {
  std::size_t committed = 0;
  const CleanRunReport with = append_only_then_archive(/*empty_cleans=*/true, &committed);
  CHECK(committed >= 3);  // one every hour, commits every 30 minutes
  CHECK(with.scope.kind == ScanKind::incremental);
  CHECK(with.scope.fallback_reason.empty());

  const CleanRunReport without = append_only_then_archive(/*empty_cleans=*/false, &committed);
  CHECK(committed == 0);  // nothing to delete, nothing committed
  CHECK(without.scope.kind == ScanKind::full);
  CHECK(without.scope.fallback_reason == "previous clean's earliest commit to retain is archived");
}

TEST_CASE("empty cleans are committed as cleans with no files, and the anchor moves forward") {
  TestTable t;
  auto policy = cleaning(keep_latest_commits{2}, guard::savepoints, guard::pending_table_services, scope::incremental,
                         scope::empty_clean_interval{1});
  for (int i = 0; i < 4; ++i) t.commit({slot("log", fmt::format("x{}-0", i))});
  // No completed clean yet: the first empty plan is due at once.
  CleanRunReport r = t.clean(policy);
  REQUIRE(r.executed.has_value());
  CHECK(r.plan->empty_clean);
  CHECK(r.executed->metadata.total_files_deleted == 0);
  CHECK(r.executed->metadata.partitions.empty());
  const auto first_anchor = r.executed->metadata.earliest_commit_to_retain;
  REQUIRE(first_anchor.has_value());
  // 30 minutes later: not due (interval 1 hour), nothing persisted.
  t.commit({slot("log", "x4-0")});
  r = t.clean(policy);
  CHECK_FALSE(r.executed.has_value());
  CHECK(r.skipped_reason == "nothing to clean");
  // An hour later: due again, with a later anchor.
  t.commit({slot("log", "x5-0")});
  r = t.clean(policy);
  REQUIRE(r.executed.has_value());
  CHECK(r.executed->metadata.earliest_commit_to_retain > first_anchor);
  CHECK(r.scope.kind == ScanKind::incremental);
}

TEST_CASE("Hudi 11248: a cap per run drains a long backlog over several runs") {
  TestTable t;
  auto capped = cleaning(keep_latest_commits{2}, guard::savepoints, guard::pending_table_services, scope::incremental,
                         scope::max_commits_to_clean{3});
  // A first clean sets the anchor (the cap needs a previous boundary).
  for (int i = 0; i < 4; ++i) t.commit({slot("a")});
  REQUIRE(t.clean(capped).executed.has_value());
  // The cleaner was off for a long time: 12 commits updating two groups.
  for (int i = 0; i < 12; ++i) t.commit({slot("a"), slot("b")});

  int runs = 0;
  std::uint64_t deleted = 0;
  while (true) {
    t.commit({slot("z")});  // the writer keeps going; each run has a new commit
    const TableMetadata md = t.md();
    const auto commits = md.timeline.completed_commits();
    const InstantTime prev = *md.last_completed_clean->earliest_commit_to_retain;
    std::size_t from = 0;
    while (commits[from]->requested < prev) ++from;
    const InstantTime uncapped = commits[commits.size() - 2]->requested;
    const CleanRunReport r = t.clean(capped);
    ++runs;
    REQUIRE(r.plan.has_value());
    const InstantTime ectr = *r.plan->earliest_instant_to_retain;
    if (ectr == uncapped) break;
    // Capped: exactly three completed commits past the previous boundary.
    CHECK(ectr == commits[from + 3]->requested);
    REQUIRE(r.executed.has_value());
    CHECK(r.executed->files_deleted > 0);
    deleted += r.files_deleted();
    REQUIRE(runs < 20);
  }
  CHECK(runs >= 4);
  CHECK(deleted >= 16);
  // Drained: an uncapped full scan finds nothing more.
  CHECK_FALSE(t.plan(full(2)).has_work());
  // The last backlog commit is both the latest slice and the newest before
  // the boundary: one file left per group.
  CHECK(t.files("a").size() == 1);
  CHECK(t.files("b").size() == 1);
}

TEST_CASE("trigger: a clean is scheduled only after trigger_max_commits new commits") {
  TestTable t;
  auto policy = cleaning(keep_latest_commits{1}, guard::savepoints, guard::pending_table_services, scope::incremental,
                         scope::trigger_max_commits{3});
  t.commit({slot("a")});
  t.commit({slot("a")});
  CleanRunReport r = t.clean(policy);
  CHECK_FALSE(r.plan.has_value());  // not even planned
  CHECK(r.skipped_reason == "2 new commit(s) since the last clean; the trigger needs 3");
  t.commit({slot("a")});
  r = t.clean(policy);  // no previous clean: all three count
  REQUIRE(r.executed.has_value());
  t.commit({slot("a")});
  t.commit({slot("a")});
  r = t.clean(policy);
  CHECK_FALSE(r.executed.has_value());
  CHECK(r.skipped_reason == "2 new commit(s) since the last clean; the trigger needs 3");
  t.commit({slot("a")});
  r = t.clean(policy);
  CHECK(r.executed.has_value());
  CHECK(t.journal.clean_metadata().size() == 2);
}

TEST_CASE("one pending clean at a time: a pending clean is finished before a new one is planned") {
  // hoodie.clean.multiple.enabled=true (allowed since Hudi 0.11) lets one run
  // do both; the default, as in Hudi, leaves the new plan to the next run.
  TestTable t;
  std::vector<InstantTime> c;
  for (int i = 0; i < 4; ++i) c.push_back(t.commit({slot("a")}));
  // The cleaner crashes right after persisting its plan.
  t.journal.crash_after_transitions(1);
  t.now += 1000;
  auto policy = full(2);
  CleanContext ctx;
  ctx.now_ms = t.now;
  REQUIRE_FALSE(run_clean(t.storage, t.journal, policy, ctx).ok());
  t.journal.recover();
  const TableMetadata before = t.md();  // the timeline the span points into
  const auto pending = before.timeline.cleans();
  REQUIRE(pending.size() == 1);
  REQUIRE(pending[0]->is_pending());
  const InstantTime old_instant = pending[0]->requested;
  const CleanPlan old_plan = t.journal.read_clean_plan(old_instant).value();
  CHECK(planned_slices(old_plan, "a") == std::set<InstantTime>{c[0]});

  for (int i = 0; i < 2; ++i) c.push_back(t.commit({slot("a")}));
  const CleanRunReport first = t.clean(policy);
  REQUIRE(first.finished_pending.size() == 1);
  CHECK(first.finished_pending[0].instant == old_instant);
  CHECK(first.finished_pending[0].files_deleted == 1);
  // As Hudi (hoodie.clean.multiple.enabled=false): the run that finished a
  // pending clean schedules no other; the next run does.
  CHECK_FALSE(first.executed.has_value());
  CHECK(first.skipped_reason.find("hoodie.clean.multiple.enabled") != std::string::npos);
  const CleanRunReport r = t.clean(policy);
  CHECK(r.finished_pending.empty());
  REQUIRE(r.executed.has_value());
  CHECK(old_instant < r.executed->instant);
  // Planned after the old plan ran: it does not name the old plan's files.
  CHECK(planned_slices(*r.plan, "a") == std::set<InstantTime>{c[1], c[2]});
  const TableMetadata after = t.md();
  for (const Instant* clean : after.timeline.cleans()) CHECK(clean->is_completed());
}

TEST_CASE("one pending clean at a time: a pending clean that cannot finish blocks new plans") {
  TestTable t;
  for (int i = 0; i < 4; ++i) t.commit({slot("a")});
  auto policy = full(2);
  t.journal.crash_after_transitions(1);
  t.now += 1000;
  CleanContext ctx;
  ctx.now_ms = t.now;
  REQUIRE_FALSE(run_clean(t.storage, t.journal, policy, ctx).ok());
  t.journal.recover();
  for (int i = 0; i < 2; ++i) t.commit({slot("a")});
  t.storage.fail_next(storage_op::remove, absl::UnavailableError("injected: storage busy"));
  ctx.now_ms = t.now += 1000;
  const auto failed = run_clean(t.storage, t.journal, policy, ctx);
  CHECK_FALSE(failed.ok());
  CHECK(t.md().timeline.cleans().size() == 1);  // no second plan was persisted
  const CleanRunReport r = t.clean(policy);
  CHECK(r.finished_pending.size() == 1);
  CHECK_FALSE(r.executed.has_value());  // the next run schedules the new clean
  CHECK(t.clean(policy).executed.has_value());
  CHECK(t.md().timeline.cleans().size() == 2);
}

}  // namespace lakegc::tests::scope_test
