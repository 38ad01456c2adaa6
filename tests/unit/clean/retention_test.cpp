// One case per retention rule of docs/hudi-rules.md §4 to §6, each on a
// hand-built timeline.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "clean_fixture.hpp"

namespace lakegc::tests::retention_test {

using namespace lakegc;
using namespace lakegc::testing;

namespace {
const Slot kA{"p", "fa-0"};
const Slot kB{"p", "fb-0"};

auto commits_policy(std::uint32_t n) {
  return cleaning(keep_latest_commits{n}, guard::savepoints, guard::pending_table_services);
}
}  // namespace

TEST_CASE("seed example: commits every 30 minutes, a 5-hour query, 10 commits retained") {
  // A query starts on the snapshot of commit c0 and reads for 5 hours; ten
  // more commits land meanwhile (one every 30 minutes). When it reads its
  // files, the cleaner has run after the last of them.
  for (std::uint32_t retained : {10u, 9u}) {
    TestTable t;
    const InstantTime c0 = t.commit({kA});
    const std::string query_file = *t.files("p").begin();
    for (int i = 0; i < 10; ++i) t.commit({kA});
    const CleanPlan plan = t.plan(commits_policy(retained));
    const bool deleted = planned(plan).contains("p/" + query_file);
    if (retained == 10) {
      CHECK_MESSAGE(!deleted, "10 commits retained keep the 5-hour query's files");
      CHECK(plan.earliest_instant_to_retain.has_value());
    } else {
      CHECK_MESSAGE(deleted, "9 commits retained lose them");
    }
    CHECK(c0.valid());
  }
}

TEST_CASE("keep_latest_commits: nothing until more than N commits; latest and the slice before the boundary stay") {
  TestTable t;
  std::vector<InstantTime> c;
  for (int i = 0; i < 3; ++i) c.push_back(t.commit({kA}));
  CHECK_FALSE(t.plan(commits_policy(3)).has_work());
  CHECK_FALSE(t.plan(commits_policy(3)).earliest_instant_to_retain.has_value());
  for (int i = 0; i < 3; ++i) c.push_back(t.commit({kA}));
  // 6 commits, retain 3: ECTR = c3; keep c5 (latest), c4, c3 and c2 (newest before ECTR).
  const CleanPlan plan = t.plan(commits_policy(3));
  REQUIRE(plan.earliest_instant_to_retain == c[3]);
  CHECK(planned_slices(plan, "p") == std::set<InstantTime>{c[0], c[1]});
  CHECK(plan.policy == "KEEP_LATEST_COMMITS");
  CHECK(plan.last_completed_commit_timestamp == c[5]);
  for (const auto& f : plan.files_per_partition.at("p")) CHECK(f.reason == DeleteReason::older_than_boundary);
}

TEST_CASE("deltacommits and replacecommits count as commits; an untouched group keeps its only slice") {
  TestTable t;
  const InstantTime c0 = t.commit({kA, kB});
  t.commit({kA});
  t.deltacommit({Slot{"p", "fc-0"}});
  t.commit({kA});
  const CleanPlan plan = t.plan(commits_policy(2));
  // 4 commits, retain 2: ECTR = the deltacommit; fa's c0 slice is older than
  // the newest slice before it (c1), fb's c0 is its latest.
  CHECK(planned_slices(plan, "p") == std::set<InstantTime>{c0});
  CHECK(plan.file_count() == 1);
}

TEST_CASE("Hudi issue 8584: keep_by_hours keeps the newest slice before the boundary") {
  TestTable t;  // a commit every 30 minutes
  std::vector<InstantTime> c;
  for (int i = 0; i < 8; ++i) c.push_back(t.commit({kA}));
  // 2 hours retained: cutoff = now - 2h = c[3]'s time (now is c[7]'s), so
  // the boundary is c[3]. c[2] is the slice a query pinned just before the
  // boundary reads: it stays (before HUDI-7223 it was deleted).
  const CleanPlan plan = t.plan(cleaning(keep_by_hours{2}, guard::savepoints, guard::pending_table_services));
  REQUIRE(plan.earliest_instant_to_retain == c[3]);
  CHECK(planned_slices(plan, "p") == std::set<InstantTime>{c[0], c[1]});
  CHECK(plan.policy == "KEEP_LATEST_BY_HOURS");
}

// keep_latest_commits with Retention::keep_newest_before_boundary off: the
// pre-0.14.1 KEEP_LATEST_BY_HOURS behaviour the simulator's canary uses.
struct drops_newest_before_boundary {
  static constexpr bool is_retention_rule = true;
  keep_latest_commits rule;
  static std::string hudi_name() { return keep_latest_commits::hudi_name(); }
  Retention retention(const RetentionContext& ctx) const {
    Retention r = rule.retention(ctx);
    r.keep_newest_before_boundary = false;
    return r;
  }
};

TEST_CASE("without the newest-before-boundary rule (the 8584 canary's), a group's latest slice still stays") {
  TestTable t;
  std::vector<InstantTime> a;
  std::vector<InstantTime> b;
  for (int i = 0; i < 3; ++i) a.push_back(t.commit({kA}));
  for (int i = 0; i < 5; ++i) b.push_back(t.commit({kB}));
  const CleanPlan plan =
      t.plan(cleaning(drops_newest_before_boundary{{2}}, guard::savepoints, guard::pending_table_services));
  REQUIRE(plan.earliest_instant_to_retain == b[3]);
  // Every slice of A is before the boundary; its latest (a[2]) is the
  // group's current state and stays. B's newest before the boundary (b[2])
  // goes: the flag is what drops it.
  CHECK(planned_slices(plan, "p") == std::set<InstantTime>{a[0], a[1], b[0], b[1], b[2]});
}

TEST_CASE("keep_by_hours: an idle table is not cleaned") {
  TestTable t;
  for (int i = 0; i < 5; ++i) t.commit({kA});
  CleanContext ctx;
  ctx.now_ms = t.now + 48 * 3'600'000LL;
  const CleanPlan plan = t.plan(cleaning(keep_by_hours{24}, guard::savepoints, guard::pending_table_services), ctx);
  CHECK_FALSE(plan.earliest_instant_to_retain.has_value());
  CHECK_FALSE(plan.has_work());
}

TEST_CASE("the boundary never passes a pending write; a commit completing out of order is cleaned later") {
  TestTable t;
  std::vector<InstantTime> c;
  c.push_back(t.commit({kA}));
  c.push_back(t.commit({kA}));
  CommitInfo slow_info;
  const InstantTime slow = t.begin_commit({kB}, &slow_info);  // a long write, still running
  for (int i = 0; i < 5; ++i) c.push_back(t.commit({kA}));
  // Retain 2 would put ECTR at c[5]; the pending write clamps it to c[1],
  // the last completed commit before it.
  CleanPlan plan = t.plan(commits_policy(2));
  REQUIRE(plan.earliest_instant_to_retain == c[1]);
  CHECK(planned_slices(plan, "p").empty());
  // The slow write completes last; the clamp lifts. It is among the last two
  // commits by completion, so the boundary stays at it (lakegc takes the
  // earlier of the requested-order and completion-order candidates).
  REQUIRE(t.journal.complete(slow, t.completion_of(c.back()), slow_info).ok());
  plan = t.plan(commits_policy(2));
  CHECK(plan.earliest_instant_to_retain == slow);
  CHECK(planned_slices(plan, "p").contains(c[0]));
}

TEST_CASE("keep_latest_file_versions: N slices per group, one fewer under pending compaction") {
  TestTable t;
  std::vector<InstantTime> c;
  for (int i = 0; i < 5; ++i) c.push_back(t.commit({kA, kB}));
  auto versions = cleaning(keep_latest_file_versions{2}, guard::savepoints, guard::pending_table_services);
  CleanPlan plan = t.plan(versions);
  CHECK_FALSE(plan.earliest_instant_to_retain.has_value());
  CHECK(planned_slices(plan, "p") == std::set<InstantTime>{c[0], c[1], c[2]});
  CHECK(plan.file_count() == 6);
  // A pending compaction on fa at c[4]: its slices (>= c[4]) count as one
  // version, so only one more (c[3]) stays.
  const InstantTime comp = t.schedule_compaction({kA}, {c[4]});
  plan = t.plan(versions);
  std::set<std::string> fa_slices;
  for (const auto& f : plan.files_per_partition.at("p")) {
    if (f.name.starts_with("fa-0")) fa_slices.insert(f.slice.str());
  }
  CHECK(fa_slices == std::set<std::string>{c[0].str(), c[1].str(), c[2].str()});
  CHECK(comp.valid());
}

TEST_CASE("savepointed slices stay under every policy, by base or log file name") {
  TestTable t;
  std::vector<InstantTime> c;
  c.push_back(t.commit({kA}));
  const InstantTime sp = t.savepoint_latest();  // names fa's c0 base file
  for (int i = 0; i < 5; ++i) c.push_back(t.commit({kA}));
  for (auto plan : {t.plan(commits_policy(2)),
                    t.plan(cleaning(keep_latest_file_versions{1}, guard::savepoints, guard::pending_table_services))}) {
    CHECK_FALSE(planned_slices(plan, "p").contains(c[0]));
    CHECK(planned_slices(plan, "p").contains(c[1]));
    CHECK(plan.extra_metadata.at("savepointed_timestamps") == sp.str());
  }
  // Without the guard (on purpose), the savepointed slice goes.
  CHECK(planned_slices(t.plan(cleaning(keep_latest_commits{2}, guard::pending_table_services, unguarded)), "p")
            .contains(c[0]));
}

TEST_CASE("MOR: a slice goes as a unit with its logs; without compaction nothing is reclaimable") {
  TestTable t(TimelineLayout::v1);
  const InstantTime base = t.commit({kA}, Action::deltacommit);
  for (int i = 0; i < 6; ++i) t.deltacommit({kA}, {base});
  CHECK_FALSE(t.plan(commits_policy(2)).has_work());
  const InstantTime comp = t.schedule_compaction({kA}, {base});
  t.complete_compaction(comp, {kA});
  for (int i = 0; i < 3; ++i) t.deltacommit({kA}, {comp});
  const CleanPlan plan = t.plan(commits_policy(2));
  // The old slice (base + 6 logs) goes together.
  CHECK(planned_slices(plan, "p") == std::set<InstantTime>{base});
  CHECK(plan.file_count() == 7);
}

TEST_CASE("pending compaction: every slice at or after its base instant stays") {
  TestTable t(TimelineLayout::v1);
  std::vector<InstantTime> c;
  for (int i = 0; i < 6; ++i) c.push_back(t.commit({kA}, Action::deltacommit));
  // Compaction pending on the slice at c[1] (an old slice, e.g. a stuck
  // compaction); commits keep landing.
  const InstantTime comp = t.schedule_compaction({kA}, {c[1]});
  (void)comp;
  auto unclamped = cleaning(keep_latest_file_versions{1}, guard::savepoints, guard::pending_table_services);
  const CleanPlan plan = t.plan(unclamped);
  CHECK(planned_slices(plan, "p") == std::set<InstantTime>{c[0]});
  // Without the guard the compaction's input slice would be deleted.
  const CleanPlan bad = t.plan(cleaning(keep_latest_file_versions{1}, guard::savepoints, unguarded));
  CHECK(planned_slices(bad, "p").contains(c[1]));
}

TEST_CASE("Hudi issue 19290: layout 2 protects a log whose deltacommit completed after the compaction was requested") {
  TestTable t(TimelineLayout::v2);
  const InstantTime c0 = t.commit({kA});
  // A deltacommit requested before the compaction but completing after it.
  const InstantTime slow = t.tick();
  REQUIRE(t.journal.begin(slow, Action::deltacommit).ok());
  const std::string slow_log = t.log_name("fa-0", slow);
  REQUIRE(t.storage.put_sized(join_path("p", slow_log), 10).ok());
  const InstantTime comp = t.schedule_compaction({kA}, {c0});
  CommitInfo info;
  info.partitions_written = {"p"};
  info.files = {{"p", slow_log, 10}};
  REQUIRE(t.journal.complete(slow, t.completion_of(comp, 60'000), info).ok());
  for (int i = 0; i < 4; ++i) t.commit({kB});
  const TableView v = t.view();
  const auto slices = v.slices_of(v.groups()[0]);
  REQUIRE(slices.size() == 2);
  CHECK(slices[0].base_instant == comp);  // the log joined the compaction's slice
  const CleanPlan plan =
      t.plan(cleaning(keep_latest_file_versions{1}, guard::savepoints, guard::pending_table_services));
  CHECK_FALSE(planned(plan).contains("p/" + slow_log));
}

TEST_CASE("replaced groups go once the replacecommit is before the boundary; at once under file versions") {
  TestTable t;
  const Slot old{"q", "old-0"};
  t.commit({old});
  t.commit({old});
  const InstantTime r = t.replace({Slot{"q", "new-0"}}, {old});
  auto commits2 = commits_policy(2);
  CleanPlan plan = t.plan(commits2);
  CHECK_FALSE(planned(plan).contains("q/" + *t.files("q").begin()));  // r is not before the boundary yet
  auto versions = cleaning(keep_latest_file_versions{3}, guard::savepoints, guard::pending_table_services);
  plan = t.plan(versions);
  CHECK(plan.files_per_partition.at("q").size() == 2);
  for (const auto& f : plan.files_per_partition.at("q")) CHECK(f.reason == DeleteReason::replaced_group);
  for (int i = 0; i < 3; ++i) t.commit({kA});
  plan = t.plan(commits2);
  REQUIRE(plan.earliest_instant_to_retain > r);
  CHECK(plan.files_per_partition.at("q").size() == 2);
  CHECK(plan.partitions_to_be_deleted.empty());  // q still has the live group new-0
}

TEST_CASE("a partition emptied by replacement is deleted, unless an in-flight write has files there") {
  TestTable t;
  const Slot old{"gone", "old-0"};
  t.commit({old});
  t.replace({kA}, {old});  // e.g. delete_partition / TTL
  for (int i = 0; i < 3; ++i) t.commit({kA});
  CleanPlan plan = t.plan(commits_policy(2));
  CHECK(plan.partitions_to_be_deleted == std::vector<std::string>{"gone"});
  // An in-flight write lands a file in "gone": the raw listing keeps it.
  CommitInfo info;
  t.begin_commit({Slot{"gone", "late-0"}}, &info);
  plan = t.plan(commits_policy(2));
  CHECK(plan.partitions_to_be_deleted.empty());
}

TEST_CASE("any_of keeps what either rule keeps; all_of only what both keep") {
  TestTable t;
  std::vector<InstantTime> c;
  for (int i = 0; i < 8; ++i) c.push_back(t.commit({kA}));
  // commits{5}: ECTR c3 -> deletes c0, c1. hours{1}: cutoff now-1h -> ECTR c5
  // -> deletes c0..c3.
  auto any = t.plan(
      cleaning(any_of(keep_latest_commits{5}, keep_by_hours{1}), guard::savepoints, guard::pending_table_services));
  auto all = t.plan(
      cleaning(all_of(keep_latest_commits{5}, keep_by_hours{1}), guard::savepoints, guard::pending_table_services));
  CHECK(any.earliest_instant_to_retain == c[3]);
  CHECK(planned_slices(any, "p") == std::set<InstantTime>{c[0], c[1]});
  CHECK(all.earliest_instant_to_retain == c[5]);
  CHECK(planned_slices(all, "p") == std::set<InstantTime>{c[0], c[1], c[2], c[3]});
  // Mixed kinds: keep 2 versions OR 5 commits.
  auto mixed = t.plan(cleaning(any_of(keep_latest_file_versions{2}, keep_latest_commits{5}), guard::savepoints,
                               guard::pending_table_services));
  CHECK(planned_slices(mixed, "p") == std::set<InstantTime>{c[0], c[1]});
}

TEST_CASE("reader leases keep the slices a leased snapshot reads") {
  TestTable t;
  std::vector<InstantTime> c;
  for (int i = 0; i < 6; ++i) c.push_back(t.commit({kA}));
  CleanContext ctx;
  ctx.leases = {c[1]};
  auto leased =
      cleaning(keep_latest_commits{1}, guard::savepoints, guard::pending_table_services, guard::reader_leases);
  const CleanPlan plan = t.plan(leased, ctx);
  CHECK(planned_slices(plan, "p") == std::set<InstantTime>{c[0], c[2], c[3]});
}

TEST_CASE("plans are deterministic and sorted") {
  TestTable t;
  for (int i = 0; i < 6; ++i) t.commit({kA, kB, Slot{"r", "fc-0"}});
  const CleanPlan a = t.plan(commits_policy(2));
  const CleanPlan b = t.plan(commits_policy(2));
  CHECK(a == b);
  for (const auto& [p, files] : a.files_per_partition) {
    CHECK(std::is_sorted(files.begin(), files.end(),
                         [](const PlannedDelete& x, const PlannedDelete& y) { return x.name < y.name; }));
  }
}

TEST_CASE("a plan is in name order whatever order the listing gave the files in") {
  // A listing in name order (every real one) lets the planner sort a
  // partition's files by index without reading their names; any other
  // order is sorted by name. Both give the same plan.
  TestTable t(TimelineLayout::v1);
  for (int i = 0; i < 6; ++i) {
    t.commit({kA, kB, Slot{"r", "fc-0"}});
    t.deltacommit({kA, kB}, {});
  }
  const TableMetadata md = t.md();
  std::vector<std::string> paths;
  t.storage.for_each_file([&](const FileEntry& e) { paths.emplace_back(e.path); });
  auto build = [&](bool backwards) {
    TableViewBuilder b(md.timeline, md.layout);
    auto add = [&](const std::string& path) {
      const auto slash = path.rfind('/');
      const std::string_view dir = std::string_view(path).substr(0, slash);
      const std::string_view name = std::string_view(path).substr(slash + 1);
      if (is_partition_metadata_file(name)) {
        b.add_partition(dir);
      } else {
        b.add_file(dir, name, 100);
      }
    };
    if (backwards) {
      std::for_each(paths.rbegin(), paths.rend(), add);
    } else {
      std::for_each(paths.begin(), paths.end(), add);
    }
    add_metadata(b, md);
    return std::move(b).build();
  };
  const TableView forwards = build(false);
  const TableView backwards = build(true);
  for (const Partition& p : forwards.partitions()) CHECK(p.files_in_name_order);
  for (const Partition& p : backwards.partitions()) CHECK_FALSE(p.files_in_name_order);

  const CleanPlan a = plan_clean(forwards, md, commits_policy(2), CleanContext{t.now, {}}).value();
  const CleanPlan b = plan_clean(backwards, md, commits_policy(2), CleanContext{t.now, {}}).value();
  REQUIRE(a.file_count() > 10);
  CHECK(a == b);
  for (const CleanPlan* plan : {&a, &b}) {
    for (const auto& [p, files] : plan->files_per_partition) {
      CHECK(std::is_sorted(files.begin(), files.end(),
                           [](const PlannedDelete& x, const PlannedDelete& y) { return x.name < y.name; }));
    }
  }
}

TEST_CASE("issue 11: layout 2, a log of an archived deltacommit is deleted only with every slice it could belong to") {
  // Base slice at t100, deltacommit D requested t110, compaction C requested
  // t115, D completes t120: D's log belongs to C's slice. D and C are then
  // archived, and the archive is not read: lakegc cannot tell where D's log
  // belongs. The boundary passes C: Hudi deletes the t100 slice only.
  auto build = [](TestTable& t, bool archive_readable) {
    t.journal.set_archive_readable(archive_readable);
    const InstantTime t100 = t.commit({kA}, Action::deltacommit);
    const InstantTime d = t.tick();
    REQUIRE(t.journal.begin(d, Action::deltacommit).ok());
    const std::string d_log = t.log_name("fa-0", d);
    REQUIRE(t.storage.put_sized(join_path("p", d_log), 10).ok());
    const InstantTime c = t.schedule_compaction({kA}, {t100});
    CommitInfo info;
    info.partitions_written = {"p"};
    info.files = {{"p", d_log, 10}};
    REQUIRE(t.journal.complete(d, t.completion_of(c, 60'000), info).ok());  // after C was requested
    t.complete_compaction(c, {kA});
    std::vector<InstantTime> later;
    for (int i = 0; i < 4; ++i) later.push_back(t.commit({Slot{"r", "fr-0"}}));  // elsewhere, to move the boundary
    t.journal.archive({t100, d, c});
    return std::tuple{t100, c, d_log, later};
  };
  auto policy = commits_policy(2);

  TestTable unread(TimelineLayout::v2);
  const auto [t100, c, d_log, later] = build(unread, /*archive_readable=*/false);
  const TableView v = unread.view();
  REQUIRE(v.completion_unknown_count() == 1);
  const CleanPlan plan = unread.plan(policy);
  REQUIRE(plan.earliest_instant_to_retain.has_value());
  REQUIRE(c < *plan.earliest_instant_to_retain);
  const std::set<InstantTime> slices = planned_slices(plan, "p");
  CHECK(slices == std::set<InstantTime>{t100});       // the t100 slice goes
  CHECK_FALSE(planned(plan).contains("p/" + d_log));  // but not the log that may be C's

  // With the archive's completion times the log is known to be C's: same plan.
  TestTable read(TimelineLayout::v2);
  const auto [t100b, cb, d_logb, laterb] = build(read, /*archive_readable=*/true);
  REQUIRE(read.view().completion_unknown_count() == 0);
  const CleanPlan known = read.plan(policy);
  CHECK(planned_slices(known, "p") == std::set<InstantTime>{t100b});
  CHECK_FALSE(planned(known).contains("p/" + d_logb));
  (void)later;
  (void)laterb;
}

TEST_CASE("issue 11: an uncertain log goes when every slice it could belong to goes (a replaced group)") {
  TestTable t(TimelineLayout::v2);
  t.journal.set_archive_readable(false);
  const Slot g{"q", "fg-0"};
  const InstantTime base = t.commit({g}, Action::deltacommit);
  const InstantTime d = t.deltacommit({g});
  t.journal.archive({base, d});
  t.replace({Slot{"q", "fn-0"}}, {g});
  for (int i = 0; i < 3; ++i) t.commit({kA});
  REQUIRE(t.view().completion_unknown_count() == 1);
  const CleanPlan plan = t.plan(commits_policy(1));
  // The replaced group goes whole, its uncertain log with it.
  CHECK(plan.files_per_partition.at("q").size() == 2);
}

TEST_CASE("issue 11: the boundary never passes a replacecommit whose replaced files a guard kept") {
  // A reader lease holds a snapshot that reads the replaced group: the
  // group stays, and so must its replacecommit, or Hudi's archiver (which
  // archives replacecommits older than the last clean's earliest instant to
  // retain) would make the group live again: duplicate rows.
  TestTable t;
  const Slot old{"q", "old-0"};
  const InstantTime c0 = t.commit({old});
  const InstantTime r = t.replace({Slot{"q", "new-0"}}, {old});
  std::vector<InstantTime> c;
  for (int i = 0; i < 6; ++i) c.push_back(t.commit({kA}));
  auto leased =
      cleaning(keep_latest_commits{2}, guard::savepoints, guard::pending_table_services, guard::reader_leases);
  CleanContext ctx;
  ctx.leases = {c0};  // a long query on the snapshot before the replacement
  const CleanPlan plan = t.plan(leased, ctx);
  REQUIRE(plan.earliest_instant_to_retain.has_value());
  CHECK(*plan.earliest_instant_to_retain <= r);
  CHECK_FALSE(plan.files_per_partition.contains("q"));
  // Without the lease the group goes and the boundary moves on.
  const CleanPlan free = t.plan(leased, CleanContext{});
  CHECK(free.earliest_instant_to_retain > r);
  CHECK(free.files_per_partition.at("q").size() == 1);
  // The boundary comes back exactly to the replacecommit: slices older than
  // it still go (c0 in p... none here) and it is a commit instant.
  CHECK(plan.earliest_instant_to_retain == r);
  // ... and says so: the rule's own boundary is the one the free plan keeps.
  CHECK(boundary_held_from(t.md(), leased, ctx, plan) == free.earliest_instant_to_retain);
  CHECK_FALSE(boundary_held_from(t.md(), leased, CleanContext{}, free).has_value());
}

TEST_CASE("issue 11: keep_latest_commits{0} never cleans (as Hudi), it does not mean 1") {
  TestTable t;
  for (int i = 0; i < 5; ++i) t.commit({kA});
  const CleanPlan zero = t.plan(commits_policy(0));
  CHECK_FALSE(zero.has_work());
  CHECK_FALSE(zero.earliest_instant_to_retain.has_value());
  CHECK(t.plan(commits_policy(1)).has_work());
}

TEST_CASE("interop seed 2: a slice holding a file a pending write's markers name stays") {
  // Layout 1 names a log by its slice's base instant, so a log a running
  // deltacommit created for an older slice looks committed. Its marker says
  // otherwise: the write may still be appending to it. (Hudi, listing
  // through its metadata table, never sees such a file.)
  TestTable t(TimelineLayout::v1);
  const InstantTime b0 = t.commit({kA}, Action::deltacommit);
  t.commit({kA}, Action::deltacommit);  // a newer slice
  const InstantTime running = t.tick();
  REQUIRE(t.journal.begin(running, Action::deltacommit).ok());
  REQUIRE(t.journal.set_inflight(running).ok());
  const WrittenFile log{"p", t.log_name("fa-0", b0, 2), 10};
  REQUIRE(t.storage.put_sized(join_path("p", log.name), 10).ok());
  REQUIRE(t.journal.add_marker(running, log).ok());
  auto versions = [](auto... guards) { return cleaning(keep_latest_file_versions{1}, guards...); };
  const CleanPlan guarded = t.plan(versions(guard::savepoints, guard::pending_table_services));
  CHECK_FALSE(planned(guarded).contains("p/" + log.name));
  CHECK(planned_slices(guarded, "p").empty());
  // Without the guard (unguarded), the slice goes with the running write's log.
  const CleanPlan unguarded = t.plan(versions(guard::savepoints, lakegc::unguarded));
  CHECK(planned(unguarded).contains("p/" + log.name));
  // Once the write is rolled back (its instant and markers gone), the slice
  // is an ordinary old version again.
  REQUIRE(t.journal.rollback(running).ok());
  CHECK(planned_slices(t.plan(versions(guard::savepoints, guard::pending_table_services)), "p") ==
        std::set<InstantTime>{b0});
}

TEST_CASE("a plan's files are ordered by name: the 8-byte prefix key orders as the text does") {
  // Short names, names equal in their first 8 bytes, zero bytes and bytes
  // above 0x7f (std::string_view compares bytes unsigned): the prefix key
  // must never disagree with the text.
  const std::string alphabet("\0\x01a-b_.\x7f\x80\xff", 11);
  std::mt19937 rng(20261204);
  std::vector<std::string> names;
  for (int i = 0; i < 4000; ++i) {
    std::string n = (i % 3 == 0) ? "0c6f1e2a-" : "";
    const auto len = rng() % 12;
    for (std::uint32_t k = 0; k < len; ++k) n += alphabet[rng() % alphabet.size()];
    names.push_back(n);
  }
  names.push_back(names[17]);  // equal names
  std::vector<detail::PickedFile> picked;
  for (std::uint32_t i = 0; i < names.size(); ++i)
    picked.push_back({names[i], i, DeleteReason::older_than_boundary, {}});
  std::vector<detail::NameKey> keys = {{1, 2}};  // scratch is cleared first
  detail::sort_by_name(picked, keys);
  std::vector<std::uint32_t> order;
  for (const detail::NameKey& k : keys) order.push_back(k.second);
  REQUIRE(order.size() == picked.size());
  std::vector<std::uint32_t> seen(order.begin(), order.end());
  std::sort(seen.begin(), seen.end());
  for (std::uint32_t i = 0; i < seen.size(); ++i) REQUIRE(seen[i] == i);
  for (std::size_t i = 1; i < order.size(); ++i) {
    const std::string_view a = picked[order[i - 1]].name;
    const std::string_view b = picked[order[i]].name;
    CHECK(a <= b);
    if (a == b) CHECK(order[i - 1] < order[i]);  // equal names keep their order
  }
}

TEST_CASE("a plan's names are its view's text, kept alive by the plan after the view is gone") {
  TestTable t;
  for (int i = 0; i < 5; ++i) t.commit({kA});
  const TableMetadata m = t.md();
  CleanContext ctx;
  ctx.now_ms = t.now;
  std::weak_ptr<const void> names;
  CleanPlan plan;
  std::vector<std::string> want;
  {
    const TableView v = load_view(t.storage, m).value();
    names = v.name_owner();
    plan = plan_clean(v, m, commits_policy(2), ctx).value();
    REQUIRE(plan.file_count() > 0);
    std::set<const char*> in_view;
    for (std::uint32_t f = 0; f < v.file_count(); ++f) in_view.insert(v.file_name(f).data());
    for (const auto& [p, files] : plan.files_per_partition) {
      for (const PlannedDelete& f : files) {
        CHECK_MESSAGE(in_view.contains(f.name.data()), "not a copy: the view's own text");
        want.emplace_back(f.name);
      }
    }
  }
  CHECK_FALSE(names.expired());
  std::vector<std::string> got;
  for (const auto& [p, files] : plan.files_per_partition) {
    for (const PlannedDelete& f : files) got.emplace_back(f.name);
  }
  CHECK(got == want);
  CleanPlan copy = plan;
  plan = CleanPlan{};
  CHECK_FALSE(names.expired());
  copy = CleanPlan{};
  CHECK(names.expired());
}

}  // namespace lakegc::tests::retention_test
