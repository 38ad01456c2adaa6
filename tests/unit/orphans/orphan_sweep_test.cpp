// The orphan sweep and its guards. Each incident from other formats' orphan removal (Iceberg, Delta, lakeFS) that fits a
// local table is a case here.
#include <doctest/doctest.h>

#include "../clean/clean_fixture.hpp"
#include "lakegc/exec/orphan_executor.hpp"

namespace lakegc::tests::orphan_sweep_test {

using namespace lakegc;
using namespace lakegc::testing;

namespace {
const Slot kA{"p", "fa-0"};
constexpr std::int64_t kWeek = 7 * kDayMs;

std::set<std::string> paths(const std::vector<OrphanFile>& files) {
  std::set<std::string> out;
  for (const auto& f : files) out.insert(f.path);
  return out;
}

OrphanPlan sweep(TestTable& t, OrphanOptions options = {}, std::int64_t now = 0) {
  const TableMetadata md = t.md();
  auto plan = plan_orphans(t.storage, md, options, now == 0 ? t.now : now);
  REQUIRE_MESSAGE(plan.ok(), std::string(message_of(plan.status())));
  return *plan;
}
}  // namespace

TEST_CASE("files of failed writes and speculative duplicates are orphans; committed versions are not") {
  TestTable t;
  const InstantTime c1 = t.commit({kA});
  // A speculative duplicate of c1's file: same file id and instant, another token.
  const std::string dup = fmt::format("fa-0_9-9-9_{}.parquet", c1);
  REQUIRE(t.storage.put_sized(join_path("p", dup), 100).ok());
  // A write that failed and was rolled back: its instant is gone, its file stayed.
  CommitInfo info;
  const InstantTime failed = t.begin_commit({Slot{"p", "fz-0"}}, &info);
  REQUIRE(t.journal.remove_pending(failed).ok());
  for (int i = 0; i < 3; ++i) t.commit({kA});  // superseded versions: the cleaner's, not the sweep's
  t.now += kWeek;
  const OrphanPlan plan = sweep(t);
  CHECK(paths(plan.orphans) == std::set<std::string>{"p/" + dup, join_path("p", info.files[0].name)});
  CHECK(plan.bytes == 200);
  CHECK(plan.referenced == 4);
  CHECK(plan.guards.empty());
  // The view that rechecks the candidates holds their file groups whole:
  // fa-0's four committed versions and the duplicate, and fz-0's file.
  CHECK(plan.rechecked == 6);
}

TEST_CASE("the second line of defence: a candidate the view shows in a slice stops the sweep, naming it") {
  TestTable t;
  const InstantTime c1 = t.commit({kA});
  CommitInfo info;
  const InstantTime failed = t.begin_commit({Slot{"p", "fz-0"}}, &info);
  REQUIRE(t.journal.remove_pending(failed).ok());
  const TableMetadata md = t.md();
  const TableView v = load_view(t.storage, md).value();
  const std::string committed = join_path("p", md.commits.at(c1).files.at(0).name);
  const std::vector<OrphanFile> in_slice{{committed, 1, 0, c1}};
  const std::vector<OrphanFile> uncommitted{{join_path("p", info.files.at(0).name), 1, 0, failed}};
  CHECK(check_outside_slices(v, {&uncommitted}).ok());
  const Status st = check_outside_slices(v, {&uncommitted, &in_slice});
  CHECK(st.code() == absl::StatusCode::kInternal);
  CHECK(std::string(st.message()).find("'" + committed + "' passed the orphan rules") != std::string::npos);
}

TEST_CASE("only files older than the cutoff go; younger ones are reported") {
  TestTable t;
  t.commit({kA});
  REQUIRE(t.storage.put_sized("p/fz-0_0-1-1_20200101000000000.parquet", 5).ok());  // before the timeline: archived
  CommitInfo info;
  const InstantTime failed = t.begin_commit({Slot{"p", "fy-0"}}, &info);
  REQUIRE(t.journal.remove_pending(failed).ok());
  OrphanPlan plan = sweep(t);  // the failed file was written just now
  CHECK(plan.orphans.empty());
  CHECK(paths(plan.too_young) == std::set<std::string>{join_path("p", info.files[0].name)});
  CHECK(plan.kept == 1);  // the archived-instant file is left alone
  plan = sweep(t, {}, t.now + 3 * kDayMs);
  CHECK(paths(plan.orphans) == std::set<std::string>{join_path("p", info.files[0].name)});
}

TEST_CASE("incident: mtime-based age deletes a long write's files; pending instants and markers protect them") {
  // Delta's VACUUM counts age from removal, not from a file's mtime: a file
  // written long ago by a write that is still running is not garbage.
  TestTable t;
  t.commit({kA});
  CommitInfo info;
  const InstantTime running = t.begin_commit({Slot{"p", "fr-0"}}, &info);
  t.now += kWeek;  // the write has been running for a week
  OrphanOptions force_short;
  force_short.older_than_ms = kDayMs;
  force_short.force = true;
  CHECK(sweep(t, force_short).orphans.empty());
  // Its instant is lost from the timeline view, but its markers survive:
  // still protected by name.
  REQUIRE(t.journal.add_marker(running, info.files[0].owned()).ok());
  CHECK(sweep(t, force_short).orphans.empty());
}

TEST_CASE("a cutoff shorter than the longest live write is refused unless forced, in words") {
  TestTable t;
  t.commit({kA});
  CommitInfo info;
  const InstantTime running = t.begin_commit({Slot{"p", "fr-0"}}, &info);
  t.now += 2 * kDayMs + 2 * 3'600'000;
  REQUIRE(t.journal.heartbeat(running, t.now - 30'000).ok());  // alive: beat 30 s ago
  OrphanOptions opts;
  opts.older_than_ms = kDayMs;
  const TableMetadata md = t.md();
  auto refused = plan_orphans(t.storage, md, opts, t.now);
  REQUIRE_FALSE(refused.ok());
  CHECK(absl::IsFailedPrecondition(refused.status()));
  const std::string msg(message_of(refused.status()));
  CHECK_MESSAGE(msg.find("cutoff 1d is shorter than the longest write on the timeline (2d 2h") != std::string::npos,
                msg);
  CHECK_MESSAGE(msg.find(" ms") == std::string::npos, msg);  // durations as people write them
  opts.force = true;
  CHECK(plan_orphans(t.storage, md, opts, t.now).ok());
}

TEST_CASE("a pending write whose heartbeat expired is reported, keeps its files, and does not stop the sweep") {
  TestTable t;
  t.commit({kA});
  // A write that died six days ago: markers name its file, its heartbeat
  // stopped long ago, its instant is still inflight.
  CommitInfo stale;
  const InstantTime dead = t.begin_commit({Slot{"p", "fd-0"}}, &stale);
  REQUIRE(t.journal.add_marker(dead, stale.files[0].owned()).ok());
  REQUIRE(t.journal.heartbeat(dead, t.now).ok());
  // And one real orphan: a write rolled back long ago whose file stayed.
  CommitInfo gone;
  const InstantTime failed = t.begin_commit({Slot{"p", "fz-0"}}, &gone);
  REQUIRE(t.journal.remove_pending(failed).ok());
  t.commit({kA});
  t.now += 6 * kDayMs;
  const OrphanPlan plan = sweep(t);  // default cutoff 3d < the dead write's age: not refused
  CHECK(paths(plan.orphans) == std::set<std::string>{join_path("p", gone.files[0].name)});
  REQUIRE(plan.stale_writes.size() == 1);
  CHECK(plan.stale_writes[0].instant == dead);
  CHECK(plan.stale_writes[0].age_ms >= 6 * kDayMs);
  CHECK(plan.stale_writes[0].last_heartbeat_ms.has_value());
  auto out = delete_orphans(t.storage, plan);
  REQUIRE(out.ok());
  CHECK(t.exists("p", stale.files[0].name));
  CHECK_FALSE(t.exists("p", gone.files[0].name));
  // The same write with a live heartbeat is a running write: it stops a
  // sweep whose cutoff is shorter than its age.
  REQUIRE(t.journal.heartbeat(dead, t.now).ok());
  const TableMetadata md = t.md();
  CHECK(absl::IsFailedPrecondition(plan_orphans(t.storage, md, {}, t.now).status()));
}

TEST_CASE("issue 11: a clean, rollback or restore instant older than every commit does not expose archived files") {
  // The write timeline starts at its first write instant: a non-write
  // instant kept from long ago (Hudi archives cleans and rollbacks by their
  // own count, restores never) must not move the start back and make the
  // files of archived commits look like a failed write's.
  for (const Action old_action : {Action::rollback, Action::clean, Action::restore}) {
    CAPTURE(to_string(old_action));
    TestTable t;
    const InstantTime ancient = t.tick();
    REQUIRE(t.journal.begin(ancient, old_action).ok());
    REQUIRE(t.journal.complete(ancient, t.completion_of(ancient), {}).ok());
    const InstantTime first = t.commit({kA});                  // archived below
    const InstantTime second = t.commit({Slot{"p", "fb-0"}});  // stays
    t.journal.archive({first});
    CommitInfo gone;
    const InstantTime failed = t.begin_commit({Slot{"p", "fz-0"}}, &gone);
    REQUIRE(t.journal.remove_pending(failed).ok());
    t.now += kWeek;
    const TableMetadata md = t.md();
    REQUIRE(md.timeline.instants().front().requested == ancient);
    REQUIRE(md.timeline.write_start() == second);
    const OrphanPlan plan = sweep(t);
    CHECK(paths(plan.orphans) == std::set<std::string>{join_path("p", gone.files[0].name)});
    // The archived commit's file is the only slice of a live group.
    const TableView v = load_view(t.storage, md).value();
    REQUIRE(v.groups().size() == 2);
    CHECK(v.file_id(v.groups()[0]) == "fa-0");
    CHECK(v.slices_of(v.groups()[0])[0].base_instant == first);
  }
}

TEST_CASE("issue 11: the sweep keeps a completed write's only base file even if its metadata does not name it") {
  TestTable t;
  const InstantTime c1 = t.commit({kA});
  // A second file of c1 that its write stats do not name (a task retry
  // whose output was never reconciled): Hudi's view reads it as the slice
  // of group fn-0 at c1.
  const std::string unnamed = fmt::format("fn-0_1-2-3_{}.parquet", c1);
  REQUIRE(t.storage.put_sized(join_path("p", unnamed), 50).ok());
  // A duplicate of a named file (same group and instant) is an orphan.
  const std::string dup = fmt::format("fa-0_9-9-9_{}.parquet", c1);
  REQUIRE(t.storage.put_sized(join_path("p", dup), 50).ok());
  // A layout-2 log of a completed deltacommit that its stats do not name is
  // attached to a slice by Hudi's view.
  const InstantTime d = t.deltacommit({kA});
  const std::string unnamed_log = t.log_name("fa-0", d, 2);
  REQUIRE(t.storage.put_sized(join_path("p", unnamed_log), 5).ok());
  t.now += kWeek;
  const OrphanPlan plan = sweep(t);
  CHECK(paths(plan.orphans) == std::set<std::string>{"p/" + dup});
  CHECK(plan.kept >= 2);
}

TEST_CASE("issue 11: commits archived past a savepoint (archive.beyond.savepoint) are not orphans") {
  // Archival beyond a savepoint keeps the savepointed commit active and
  // archives the commits after it. An instant missing between the
  // savepointed commit and the next active commit may have been archived:
  // its files stay. Past the first non-savepointed commit, a missing
  // instant is a failed write.
  TestTable t;
  const InstantTime sp = t.commit({kA});
  const InstantTime hole = t.commit({Slot{"p", "fh-0"}});
  const InstantTime next = t.commit({Slot{"p", "fn-0"}});
  CommitInfo gone;
  const InstantTime failed = t.begin_commit({Slot{"p", "fz-0"}}, &gone);
  REQUIRE(t.journal.remove_pending(failed).ok());
  t.journal.archive({hole});
  t.now += kWeek;
  TableMetadata md = t.md();
  // Hudi's savepoint of commit `sp` is the instant `sp.savepoint`.
  std::vector<Instant> instants(md.timeline.instants().begin(), md.timeline.instants().end());
  instants.push_back(Instant{sp, t.completion_of(sp, 5000), Action::savepoint, State::completed});
  md.timeline = Timeline::make(std::move(instants)).value();
  REQUIRE(md.timeline.write_start() == sp);
  REQUIRE(md.timeline.archive_horizon() == next);
  REQUIRE(md.timeline.savepoints().size() == 1);
  auto plan = plan_orphans(t.storage, md, {}, t.now);
  REQUIRE(plan.ok());
  CHECK(paths(plan->orphans) == std::set<std::string>{join_path("p", gone.files[0].name)});
}

TEST_CASE("incident: an empty in-use set after a failed metadata read deletes nothing") {
  TestTable t;
  t.commit({kA});
  t.commit({kA});
  t.now += kWeek;
  TableMetadata md = t.md();
  md.commits.clear();  // every commit file failed to decode, and the loader said nothing
  // Without the guard every data file would look orphaned: nothing names it.
  auto plan = plan_orphans(t.storage, md, {}, t.now);
  REQUIRE(plan.ok());
  CHECK(plan->stopped);
  CHECK(plan->orphans.empty());
  // And a journal whose load fails stops the sweep before listing.
  t.journal.fail_loads(absl::DataLossError("20240101000000000.commit: truncated"));
  CHECK_FALSE(t.journal.load().ok());
}

TEST_CASE("incident: a transient empty listing for a live partition skips it") {
  TestTable t;
  t.commit({kA, Slot{"q", "fq-0"}});
  CommitInfo info;
  const InstantTime failed = t.begin_commit({Slot{"q", "fz-0"}}, &info);
  REQUIRE(t.journal.remove_pending(failed).ok());
  t.now += kWeek;
  // The store answers "nothing" for one listing (eventual consistency).
  t.storage.empty_next_listing();
  const OrphanPlan plan = sweep(t);
  CHECK(plan.orphans.empty());
  REQUIRE(plan.guards.size() == 2);
  CHECK(plan.guards[0].scope == "p");
  // A listing that works finds the failed write's file.
  CHECK(paths(sweep(t).orphans) == std::set<std::string>{join_path("q", info.files[0].name)});
}

TEST_CASE("incident: two tables sharing a location stop the sweep") {
  TestTable t;
  t.commit({kA});
  REQUIRE(t.storage.write_if_absent("nested/.hoodie/hoodie.properties", "hoodie.table.name=other\n").ok());
  REQUIRE(t.storage.put_sized("nested/fo-0_0-1-1_20300101000000000.parquet", 10).ok());
  t.now += kWeek;
  const OrphanPlan plan = sweep(t);
  CHECK(plan.stopped);
  CHECK(plan.orphans.empty());
  REQUIRE_FALSE(plan.guards.empty());
  CHECK(plan.guards[0].reason.find("nested/.hoodie") != std::string::npos);
}

TEST_CASE("layout-1 logs and files of completed instants without metadata are left alone") {
  TestTable t(TimelineLayout::v1);
  const InstantTime base = t.commit({kA}, Action::deltacommit);
  // A layout-1 log named by the base instant that no write stat names.
  REQUIRE(t.storage.put_sized(join_path("p", t.log_name("fa-0", base)), 10).ok());
  REQUIRE(t.storage.put_sized("p/.hoodie_partition_metadata.extra", 1).ok());  // not a data file
  t.now += kWeek;
  const OrphanPlan plan = sweep(t);
  CHECK(plan.orphans.empty());
  CHECK(plan.kept == 1);
  CHECK(plan.not_data_files >= 1);
}

TEST_CASE("a referenced path matches in its own directory only, and a named path holding '/' still matches") {
  // The sweep keys referenced paths by hash of (directory, name) and checks
  // the text of a hit; a path the metadata names with a '/' in the name is
  // kept as text. Both must still match the listing exactly.
  TestTable t;
  const InstantTime c1 = t.commit({kA});
  TableMetadata md = t.md();
  const std::string name(md.commits.at(c1).files.at(0).name);
  // The same name in another directory: not what the metadata names (kept,
  // as the only base file of its slice, but not counted as referenced).
  REQUIRE(t.storage.put_sized(join_path("q", name), 100).ok());
  // A file the metadata names as "sub/<name>" in partition "p".
  const std::string nested = fmt::format("fb-0_1-0-1_{}.parquet", c1);
  REQUIRE(t.storage.put_sized("p/sub/" + nested, 100).ok());
  md.commits.at(c1).files.push_back({"p", "sub/" + nested, 100});
  t.now += kWeek;
  auto plan = plan_orphans(t.storage, md, OrphanOptions{}, t.now);
  REQUIRE(plan.ok());
  CHECK(plan->referenced == 2);  // p/<name> and p/sub/<nested>
  CHECK(plan->kept == 1);        // q/<name>
  CHECK(plan->orphans.empty());
}

TEST_CASE("delete_orphans removes exactly the planned files; missing ones count as gone") {
  TestTable t;
  t.commit({kA});
  CommitInfo info;
  const InstantTime failed = t.begin_commit({Slot{"p", "fz-0"}, Slot{"p", "fy-0"}}, &info);
  REQUIRE(t.journal.remove_pending(failed).ok());
  t.now += kWeek;
  const OrphanPlan plan = sweep(t);
  REQUIRE(plan.orphans.size() == 2);
  REQUIRE(t.storage.remove(plan.orphans[0].path).ok());
  const std::size_t before = t.storage.file_count();
  auto out = delete_orphans(t.storage, plan);
  REQUIRE(out.ok());
  CHECK(out->files_deleted == 1);
  CHECK(out->files_already_gone == 1);
  CHECK(t.storage.file_count() == before - 1);
  CHECK(t.files("p").size() == 1);
}

}  // namespace lakegc::tests::orphan_sweep_test
