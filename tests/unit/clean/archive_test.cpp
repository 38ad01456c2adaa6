// Timeline archival (issue 15): plan_archive's rules on hand-built timelines,
// one case per rule of Hudi 1.2.0's archivers (TimelineArchiverV1/V2,
// ArchivalUtils), each with a control the rule changes; the keep counts the
// cleaner raises; what lakegc keeps beyond Hudi (replaced files on storage,
// an unreadable metadata table); and the archival keys' parser.
#include <doctest/doctest.h>

#include <algorithm>

#include "clean_fixture.hpp"
#include "lakegc/plan/plan_archive.hpp"
#include "lakegc/policy/archive_config.hpp"

namespace lakegc::tests::archive_test {

using namespace lakegc;
using namespace lakegc::testing;

namespace {

constexpr std::int64_t kMinute = 60'000;
constexpr std::int64_t kT0 = 1'780'000'000'000;

InstantTime t(int n) { return InstantTime::from_epoch_ms(kT0 + n * kMinute, TimelineTimezone::utc); }

// A timeline built instant by instant; instant n is requested at minute n.
struct Tl {
  TimelineLayout layout = TimelineLayout::v2;
  std::vector<Instant> instants;
  std::optional<CleanRecord> last_clean;

  Tl& add(int n, Action a, State s = State::completed, int done_after = 1) {
    Instant i;
    i.requested = t(n);
    i.action = a;
    i.state = s;
    if (s == State::completed && layout == TimelineLayout::v2) i.completed = t(n + done_after);
    instants.push_back(i);
    return *this;
  }
  Tl& commits(int from, int to, Action a = Action::commit) {
    for (int n = from; n <= to; ++n) add(n, a);
    return *this;
  }
  TableMetadata md() const {
    TableMetadata m;
    m.layout = layout;
    m.timezone = TimelineTimezone::utc;
    m.timeline = Timeline::make(instants).value();
    m.last_completed_clean = last_clean;
    return m;
  }
};

ArchiveSettings keep(int min, int max) {
  ArchiveSettings s;
  s.min_commits = min;
  s.max_commits = max;
  s.cleaner_policy = CleanerPolicyKind::keep_latest_file_versions;  // no cleaner raise unless a test wants it
  return s;
}

ArchivePlan plan(const Tl& tl, const ArchiveSettings& s, const ArchiveContext& ctx = {}) {
  auto p = plan_archive(tl.md(), s, ctx);
  REQUIRE_MESSAGE(p.ok(), std::string(message_of(p.status())));
  return *p;
}

std::vector<InstantTime> archived(const ArchivePlan& p) {
  std::vector<InstantTime> out;
  for (const auto& i : p.archived) out.push_back(i.requested);
  return out;
}

std::vector<InstantTime> ts(std::initializer_list<int> ns) {
  std::vector<InstantTime> out;
  for (int n : ns) out.push_back(t(n));
  return out;
}

std::vector<InstantTime> range(int from, int to) {
  std::vector<InstantTime> out;
  for (int n = from; n <= to; ++n) out.push_back(t(n));
  return out;
}

bool kept_for(const ArchivePlan& p, int n, ArchiveStop why) {
  for (const auto& k : p.kept) {
    if (k.instant.requested == t(n)) return std::find(k.reasons.begin(), k.reasons.end(), why) != k.reasons.end();
  }
  return false;
}

}  // namespace

TEST_CASE("archive: commits only while more than keep.max are active, all but keep.min") {
  Tl tl;
  tl.commits(1, 10);
  CHECK(archived(plan(tl, keep(2, 3))) == range(1, 8));
  CHECK(archived(plan(tl, keep(4, 6))) == range(1, 6));
  // Control: 10 commits, keep.max 10: nothing is due.
  const ArchivePlan none = plan(tl, keep(9, 10));
  CHECK(none.archived.empty());
  CHECK(none.kept.empty());
}

TEST_CASE("archive: the cleaner raises keep.min and keep.max (ArchivalUtils)") {
  Tl tl;
  tl.commits(1, 10);
  ArchiveSettings s = keep(2, 3);
  s.cleaner_policy = CleanerPolicyKind::keep_latest_commits;
  s.cleaner_commits_retained = 5;
  // Earliest commit to retain: the 5th from the end (commit 6); 4 commits
  // after it, +2: keep.min 6, keep.max 7.
  const ArchivePlan p = plan(tl, s);
  CHECK(p.keep.cleaner_ectr == t(6));
  CHECK(p.keep.min_keep == 6);
  CHECK(p.keep.max_keep == 7);
  CHECK(archived(p) == range(1, 4));
  // Control: retaining 1 needs only 2, below keep.min 2+: unchanged.
  s.cleaner_commits_retained = 1;
  CHECK(archived(plan(tl, s)) == range(1, 8));
  // A pending commit before the n-th: the last completed one before it.
  tl.add(0, Action::commit, State::inflight);
  s.cleaner_commits_retained = 5;
  CHECK(archive_keep_counts(tl.md(), s).cleaner_ectr == std::nullopt);
}

TEST_CASE("archive: KEEP_LATEST_BY_HOURS counts back from the newest commit, not the clock") {
  Tl tl;
  tl.commits(1, 200);  // one commit a minute
  ArchiveSettings s = keep(2, 3);
  s.cleaner_policy = CleanerPolicyKind::keep_latest_by_hours;
  s.cleaner_hours_retained = 1;
  const ArchiveKeepCounts k = archive_keep_counts(tl.md(), s);
  CHECK(k.cleaner_ectr == t(140));  // 200 - 60 minutes
  CHECK(k.min_keep == 60 + 2);
  s.cleaner_hours_retained = 2;
  CHECK(archive_keep_counts(tl.md(), s).cleaner_ectr == t(80));
}

TEST_CASE("archive: never past the newest completed commit before the earliest pending write") {
  Tl tl;
  tl.commits(1, 4).add(5, Action::deltacommit, State::inflight).commits(6, 10);
  const ArchivePlan p = plan(tl, keep(1, 2));
  CHECK(archived(p) == range(1, 3));  // commit 4 (newest before the pending 5) stays
  CHECK(kept_for(p, 4, ArchiveStop::pending_write));
  // A pending compaction counts as a pending write too.
  Tl c;
  c.commits(1, 4).add(5, Action::compaction, State::requested).commits(6, 10);
  CHECK(archived(plan(c, keep(1, 2))) == range(1, 3));
  // A pending clean does not.
  Tl clean;
  clean.commits(1, 4).add(5, Action::clean, State::requested).commits(6, 10);
  CHECK(archived(plan(clean, keep(1, 2))).size() == 8);
  // No completed commit before it: nothing before the pending one itself.
  Tl first;
  first.add(1, Action::commit, State::requested).commits(2, 10);
  CHECK(plan(first, keep(1, 2)).archived.empty());
}

TEST_CASE("archive: the compaction window of a MOR table") {
  Tl tl;
  tl.commits(1, 3, Action::deltacommit).add(4, Action::commit).commits(5, 7, Action::deltacommit);
  ArchiveContext mor;
  mor.merge_on_read = true;
  // 3 deltacommits after the compaction at 4, fewer than 5: the compaction stays.
  const ArchivePlan p = plan(tl, keep(1, 2), mor);
  CHECK(archived(p) == range(1, 3));
  CHECK(kept_for(p, 4, ArchiveStop::compaction_window));
  // max.delta.commits 2: the deltacommit that keeps one more after it (6).
  ArchiveSettings two = keep(1, 2);
  two.compaction_max_delta_commits = 2;
  CHECK(archived(plan(tl, two, mor)) == range(1, 5));
  // Controls: a COW table, or a time-based trigger, has no window.
  CHECK(archived(plan(tl, keep(1, 2))) == range(1, 6));
  ArchiveSettings timed = keep(1, 2);
  timed.compaction_trigger = CompactionTrigger::time_elapsed;
  CHECK(archived(plan(tl, timed, mor)) == range(1, 6));
  // No compaction yet: from the first deltacommit.
  Tl deltas;
  deltas.commits(1, 4, Action::deltacommit);
  CHECK(plan(deltas, keep(1, 2), mor).archived.empty());
}

TEST_CASE("archive: layout 1 counts deltacommits after the compaction by their files' modification times") {
  Tl tl;
  tl.layout = TimelineLayout::v1;
  tl.commits(1, 3, Action::deltacommit).add(4, Action::commit).commits(5, 9, Action::deltacommit);
  ArchiveContext ctx;
  ctx.merge_on_read = true;
  ArchiveSettings s = keep(1, 2);
  s.compaction_max_delta_commits = 3;
  // By requested time: 5 deltacommits after 4, the bound is 7.
  CHECK(archived(plan(tl, s, ctx)) == range(1, 6));
  // Files modified before the compaction's instant (a clock behind the
  // instant times): no deltacommit counts as after it, the compaction stays.
  for (int n = 1; n <= 9; ++n) ctx.layout1_modified[t(n)] = t(0);
  CHECK(archived(plan(tl, s, ctx)) == range(1, 3));
}

TEST_CASE("archive: the first replacecommit not yet behind the last clean's earliest instant to retain") {
  Tl tl;
  tl.commits(1, 3).add(4, Action::replacecommit).commits(5, 9).add(10, Action::clean).commits(11, 14);
  // No completed clean: the first replacecommit.
  Tl noclean;
  noclean.commits(1, 3).add(4, Action::replacecommit).commits(5, 14);
  CHECK(archived(plan(noclean, keep(1, 2))) == range(1, 3));
  ArchiveCleanPlanFacts cp{t(10), t(2).str(), std::nullopt};
  ArchiveContext ctx;
  ctx.last_clean_plan = &cp;
  const ArchivePlan p = plan(tl, keep(1, 2), ctx);
  CHECK(archived(p) == range(1, 3));
  CHECK(kept_for(p, 4, ArchiveStop::clustering));
  // Control: the clean's boundary passed the replacecommit.
  cp.earliest_instant_to_retain = t(6).str();
  // 13 commits: all but keep.min 1, and the clean before the newest of them.
  CHECK(archived(plan(tl, keep(1, 2), ctx)).size() == 13);
  // A savepoint the clean recorded, with a replacecommit between it and the
  // boundary: from the savepoint (policy of the archiving writer: not
  // KEEP_LATEST_FILE_VERSIONS).
  cp.savepointed_timestamps = t(3).str();
  ArchiveSettings kc = keep(1, 2);
  kc.cleaner_policy = CleanerPolicyKind::keep_latest_commits;
  kc.cleaner_commits_retained = 1;
  CHECK(archived(plan(tl, kc, ctx)) == range(1, 3));
  CHECK(archived(plan(tl, keep(1, 2), ctx)).size() == 13);
  // A plan without an earliest instant: from the clean itself.
  cp.savepointed_timestamps.reset();
  cp.earliest_instant_to_retain = "";
  Tl late;
  late.commits(1, 9).add(10, Action::clean).add(11, Action::replacecommit).commits(12, 14);
  CHECK(archived(plan(late, keep(1, 2), ctx)) == range(1, 9));
}

TEST_CASE("archive: the last clean's plan unreadable keeps from the first replacecommit") {
  Tl tl;
  tl.commits(1, 3).add(4, Action::replacecommit).commits(5, 9).add(10, Action::clean).commits(11, 14);
  ArchiveContext ctx;
  ctx.clean_plan_error = "no .clean.requested";
  const ArchivePlan p = plan(tl, keep(1, 2), ctx);
  CHECK(archived(p) == range(1, 3));
  CHECK(kept_for(p, 4, ArchiveStop::clean_plan_unreadable));
}

TEST_CASE("archive: a savepoint stops commit archival, or only itself beyond savepoints") {
  Tl tl;
  tl.commits(1, 10).add(4, Action::savepoint);
  const ArchivePlan p = plan(tl, keep(2, 3));
  CHECK(archived(p) == range(1, 3));
  CHECK(kept_for(p, 5, ArchiveStop::savepoint));
  ArchiveSettings beyond = keep(2, 3);
  beyond.beyond_savepoint = true;
  CHECK(archived(plan(tl, beyond)) == ts({1, 2, 3, 5, 6, 7, 8, 9}));
  // A pending savepoint does not count.
  Tl pending;
  pending.commits(1, 10).add(4, Action::savepoint, State::inflight);
  CHECK(archived(plan(pending, keep(2, 3))) == range(1, 8));
}

TEST_CASE("archive: layout 1 archives cleans and rollbacks by their own count") {
  Tl tl;
  tl.layout = TimelineLayout::v1;
  tl.add(1, Action::clean).add(2, Action::rollback).add(3, Action::clean).add(4, Action::clean);
  tl.add(5, Action::clean).add(6, Action::clean).commits(7, 8);
  // 5 cleans > keep.max 3: all but the newest 2; 1 rollback, 2 commits: none.
  CHECK(archived(plan(tl, keep(2, 3))) == ts({1, 3, 4}));
  // Layout 2 archives them only before the newest archived commit: no commit is due.
  tl.layout = TimelineLayout::v2;
  CHECK(plan(tl, keep(2, 3)).archived.empty());
}

TEST_CASE("archive: layout 2 archives cleans and rollbacks older than the newest archived commit") {
  Tl tl;
  tl.commits(1, 3).add(4, Action::clean).add(5, Action::rollback).commits(6, 7).add(8, Action::clean).commits(9, 12);
  const ArchivePlan p = plan(tl, keep(4, 5));  // 9 commits: archive 5 (1,2,3,6,7)
  CHECK(archived(p) == ts({1, 2, 3, 4, 5, 6, 7}));
  // With a pending write at 7 commits stop at 3: the clean at 4 stays.
  Tl stop;
  stop.commits(1, 3).add(4, Action::clean).add(5, Action::rollback).add(6, Action::commit, State::inflight);
  stop.commits(7, 12);
  const ArchivePlan q = plan(stop, keep(3, 4));
  CHECK(archived(q) == ts({1, 2}));
  CHECK(kept_for(q, 4, ArchiveStop::after_last_archived_commit));
}

TEST_CASE("archive: restore, indexing and savepoint instants and pending instants are never archived") {
  Tl tl;
  tl.layout = TimelineLayout::v1;
  tl.add(1, Action::restore).add(2, Action::indexing).add(3, Action::clean, State::requested);
  tl.add(4, Action::rollback, State::inflight).commits(5, 12).add(6, Action::savepoint);
  ArchiveSettings beyond = keep(1, 2);
  beyond.beyond_savepoint = true;
  const ArchivePlan p = plan(tl, beyond);
  for (const auto& i : p.archived) {
    CHECK(is_commit_action(i.action));
    CHECK(i.is_completed());
  }
  // 8 commits, keep.min 1: limit(7) counts the savepointed one it skips,
  // so every other commit goes, the newest included (Hudi's arithmetic).
  CHECK(archived(p) == ts({5, 7, 8, 9, 10, 11, 12}));
}

TEST_CASE("archive: the metadata table's latest compaction") {
  for (auto layout : {TimelineLayout::v1, TimelineLayout::v2}) {
    CAPTURE(static_cast<int>(layout));
    Tl tl;
    tl.layout = layout;
    tl.commits(1, 10).add(11, Action::clean).add(12, Action::clean).add(13, Action::clean).commits(14, 16);
    ArchiveContext ctx;
    const InstantTime mdt_compaction = InstantTime::from_epoch_ms(kT0 + 5 * kMinute + 30'000, TimelineTimezone::utc);
    ctx.metadata_table = ArchiveMetadataTable{std::nullopt, mdt_compaction};
    const ArchivePlan p = plan(tl, keep(1, 2), ctx);
    // Layout 1: nothing requested at or after 5:30; layout 2: nothing at or
    // after the first commit that completed after it (commit 5, done at 6).
    const int last = layout == TimelineLayout::v1 ? 5 : 4;
    CHECK(archived(p) == range(1, last));
    CHECK(kept_for(p, last + 1, ArchiveStop::metadata_compaction));
    // Control: hoodie.metadata.enable=false ignores it.
    ArchiveSettings off = keep(1, 2);
    off.metadata_enabled = false;
    CHECK(plan(tl, off, ctx).archived.size() > 4);
    // Never compacted: nothing at all.
    ctx.metadata_table = ArchiveMetadataTable{std::nullopt, std::nullopt};
    CHECK(plan(tl, keep(1, 2), ctx).archived.empty());
    // Unreadable: lakegc keeps everything and says why.
    ctx.metadata_table = ArchiveMetadataTable{std::string("no timeline"), std::nullopt};
    const ArchivePlan u = plan(tl, keep(1, 2), ctx);
    CHECK(u.archived.empty());
    CHECK(kept_for(u, 1, ArchiveStop::metadata_unreadable));
  }
  // Layout 1 also holds back cleans after the compaction; layout 2 by completion time.
  Tl v1;
  v1.layout = TimelineLayout::v1;
  v1.add(1, Action::clean).add(2, Action::clean).add(8, Action::clean).add(9, Action::clean).commits(10, 11);
  ArchiveContext ctx;
  ctx.metadata_table = ArchiveMetadataTable{std::nullopt, t(5)};
  CHECK(archived(plan(v1, keep(1, 2), ctx)) == ts({1, 2}));
  Tl v2;
  v2.commits(1, 2).add(3, Action::commit, State::completed, 10).commits(4, 12);
  CHECK(archived(plan(v2, keep(1, 2), ctx)) == range(1, 2));  // 3 completed at 13, after 5
  // A commit requested at the compaction's own time does not count as after it.
  Tl same;
  same.commits(1, 4).add(5, Action::commit, State::completed, 10).commits(6, 12);
  CHECK(archived(plan(same, keep(1, 2), ctx)) == range(1, 5));  // bound: 6, done at 7
}

TEST_CASE("archive: hoodie.archive.block.on.latest.clean.ectr (layout 1)") {
  Tl tl;
  tl.layout = TimelineLayout::v1;
  tl.commits(1, 9).add(10, Action::clean).commits(11, 14);
  CleanRecord r;
  r.instant = t(10);
  r.earliest_commit_to_retain = t(4);
  tl.last_clean = r;
  ArchiveSettings s = keep(1, 2);
  CHECK(archived(plan(tl, s)).size() == 12);
  s.block_on_clean_ectr = true;
  const ArchivePlan p = plan(tl, s);
  CHECK(archived(p) == range(1, 3));
  CHECK(kept_for(p, 4, ArchiveStop::clean_ectr));
  // Layout 2 has no such switch (and archives the clean before the newest archived commit).
  tl.layout = TimelineLayout::v2;
  CHECK(archived(plan(tl, s)).size() == 13);
}

TEST_CASE("archive: hoodie.archive.limit.instants (layout 1)") {
  Tl tl;
  tl.layout = TimelineLayout::v1;
  tl.commits(1, 10);
  ArchiveSettings s = keep(2, 3);
  s.limit_instants = 3;
  const ArchivePlan p = plan(tl, s);
  CHECK(archived(p) == range(1, 3));
  CHECK(kept_for(p, 4, ArchiveStop::limit_instants));
  tl.layout = TimelineLayout::v2;
  CHECK(archived(plan(tl, s)) == range(1, 8));
}

TEST_CASE("archive: table services off, or a metaserver, archive nothing") {
  Tl tl;
  tl.commits(1, 10);
  ArchiveSettings s = keep(2, 3);
  s.table_services_enabled = false;
  CHECK(plan(tl, s).archived.empty());
  s = keep(2, 3);
  s.metaserver_enabled = true;
  CHECK(plan(tl, s).archived.empty());
}

TEST_CASE("archive: keeps a replacecommit whose replaced files are still on storage (beyond Hudi)") {
  TestTable tt(TimelineLayout::v2);
  tt.commit({{"p", "f1"}});
  const InstantTime r = tt.replace({{"p", "f2"}}, {{"p", "f1"}});
  for (int i = 0; i < 6; ++i) tt.commit({{"p", "f2"}});
  const TableMetadata md = tt.md();
  const TableView view = tt.view();
  ArchiveContext ctx;
  ctx.view = &view;
  ArchiveSettings s = keep(1, 2);
  // No clean yet: Hudi's clustering bound alone keeps the replacecommit.
  auto hudi_only = plan_archive(md, s, {}).value();
  auto with_view = plan_archive(md, s, ctx).value();
  CHECK(hudi_only.archived.size() == 1);
  CHECK(with_view.archived.size() == 1);
  // The replaced file removed: the view no longer holds the replacecommit back.
  ArchiveCleanPlanFacts cp{InstantTime::from_epoch_ms(tt.now + 1, TimelineTimezone::utc),
                           tt.md().timeline.completed_commits().back()->requested.str(), std::nullopt};
  TableMetadata cleaned = md;
  std::vector<Instant> is(md.timeline.instants().begin(), md.timeline.instants().end());
  Instant clean;
  clean.requested = cp.clean;
  clean.completed = cp.clean;
  clean.action = Action::clean;
  clean.state = State::completed;
  is.push_back(clean);
  cleaned.timeline = Timeline::make(is).value();
  ctx.last_clean_plan = &cp;
  ArchiveContext no_view = ctx;
  no_view.view = nullptr;
  // Hudi: the clean's boundary passed the replacecommit: archive it.
  auto hudi = plan_archive(cleaned, s, no_view).value();
  CHECK(std::any_of(hudi.archived.begin(), hudi.archived.end(), [&](const Instant& i) { return i.requested == r; }));
  // lakegc: f1's file is still on storage: the replacecommit stays.
  auto lake = plan_archive(cleaned, s, ctx).value();
  CHECK(std::none_of(lake.archived.begin(), lake.archived.end(), [&](const Instant& i) { return i.requested == r; }));
  CHECK(std::any_of(lake.kept.begin(), lake.kept.end(), [&](const ArchiveKept& k) {
    return k.instant.requested == r &&
           std::find(k.reasons.begin(), k.reasons.end(), ArchiveStop::replaced_files_on_storage) != k.reasons.end();
  }));
}

TEST_CASE("archive: a keep.max below keep.min fails as Hudi's run fails") {
  Tl tl;
  tl.commits(1, 4);
  ArchiveSettings s = keep(6, 3);
  auto p = plan_archive(tl.md(), s, {});
  CHECK(absl::IsFailedPrecondition(p.status()));
  CHECK(std::string(message_of(p.status())).find("hoodie.keep.max.commits=3") != std::string::npos);
}

TEST_CASE("archive config: Hudi's keys, defaults and errors") {
  auto d = config::archive_from_properties({}).value();
  CHECK(d.min_commits == 20);
  CHECK(d.max_commits == 30);
  CHECK(!d.beyond_savepoint);
  CHECK(d.compaction_max_delta_commits == 5);
  CHECK(d.cleaner_policy == CleanerPolicyKind::keep_latest_commits);
  CHECK(d.cleaner_commits_retained == 10);
  auto s = config::archive_from_properties({{"hoodie.keep.min.commits", "2"},
                                            {"hoodie.keep.max.commits", "3"},
                                            {"hoodie.archive.beyond.savepoint", "true"},
                                            {"hoodie.clean.policy", "KEEP_LATEST_BY_HOURS"},
                                            {"hoodie.clean.hours.retained", "6"},
                                            {"hoodie.compact.inline.trigger.strategy", "TIME_ELAPSED"},
                                            {"spark.executor.memory", "4g"}})
               .value();
  CHECK(s.min_commits == 2);
  CHECK(s.max_commits == 3);
  CHECK(s.beyond_savepoint);
  CHECK(s.cleaner_policy == CleanerPolicyKind::keep_latest_by_hours);
  CHECK(s.cleaner_hours_retained == 6);
  CHECK(s.compaction_trigger == CompactionTrigger::time_elapsed);
  auto err = [](config::Properties p) {
    auto r = config::archive_from_properties(p);
    REQUIRE(!r.ok());
    return std::string(message_of(r.status()));
  };
  CHECK(err({{"hoodie.keep.min.comits", "2"}}).starts_with("hoodie.keep.min.comits: unknown archival key"));
  CHECK(err({{"hoodie.archive.beyond.savepoints", "true"}}).find("unknown archival key") != std::string::npos);
  CHECK(err({{"hoodie.keep.min.commits", "x"}}).starts_with("hoodie.keep.min.commits=x"));
  CHECK(err({{"hoodie.keep.min.commits", "5"}, {"hoodie.keep.max.commits", "5"}}).find("Increase") !=
        std::string::npos);
  CHECK(err({{"hoodie.archive.beyond.savepoint", "yes"}}).starts_with("hoodie.archive.beyond.savepoint=yes"));
  CHECK(err({{"hoodie.compact.inline.trigger.strategy", "num_commits"}}).find("NUM_AND_TIME") != std::string::npos);
  CHECK(err({{"hoodie.clean.polcy", "x"}}).find("unknown cleaning key") != std::string::npos);
  // max <= min is Hudi's error only under KEEP_LATEST_COMMITS.
  CHECK(config::archive_from_properties({{"hoodie.keep.min.commits", "5"},
                                         {"hoodie.keep.max.commits", "5"},
                                         {"hoodie.clean.policy", "KEEP_LATEST_FILE_VERSIONS"}})
            .ok());
}

}  // namespace lakegc::tests::archive_test
