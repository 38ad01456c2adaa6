// The simulator's archiver (sim/include/lakegc/sim/archiver.hpp) archives by
// Hudi's rules per layout (TimelineArchiverV1/V2, ArchivalUtils,
// ClusteringUtils.getEarliestInstantToRetainForClustering), on hand-written
// timelines; the library gaps it stands in for are pinned by seeds that
// fail without its gap bounds; the two canaries it serves have controls.
#include <doctest/doctest.h>

#include "lakegc/sim/simulation.hpp"
#include "sim_fixture.hpp"

namespace lakegc::tests::archiver_test {

using namespace lakegc;
using namespace lakegc::sim;
using namespace lakegc::sim::testing;

namespace {

SwarmConfig archiving_swarm(TimelineLayout layout) {
  SwarmConfig s = quiet_swarm();
  s.layout = layout;
  s.archiver = true;
  s.archive_min_commits = 2;
  s.archive_max_commits = 3;
  return s;
}

// A table written instant by instant through the World's journal.
struct Hand {
  explicit Hand(TimelineLayout layout, any_policy policy = commits_policy(100))
      : w(archiving_swarm(layout), std::move(policy), Rng(1)) {}
  World w;

  InstantTime next() {
    w.advance(kMinute);
    return w.table.next_instant();
  }
  InstantTime commit(Action action = Action::commit, std::vector<ReplacedGroup> replaced = {}) {
    const InstantTime t = next();
    REQUIRE(w.table.journal.begin(t, action).ok());
    CommitInfo info;
    info.replaced = std::move(replaced);
    REQUIRE(w.table.journal.complete(t, w.table.next_instant(), std::move(info)).ok());
    return t;
  }
  InstantTime pending() {
    const InstantTime t = next();
    REQUIRE(w.table.journal.begin(t, Action::commit).ok());
    return t;
  }
  InstantTime clean(std::optional<InstantTime> ectr, std::vector<InstantTime> savepoints = {}) {
    const InstantTime t = next();
    // The plan and the metadata agree, as the cleaner writes them (Hudi's
    // archiver reads the plan).
    std::string sp;
    for (const InstantTime& s : savepoints) sp += (sp.empty() ? "" : ",") + s.str();
    CleanPlan plan;
    plan.earliest_instant_to_retain = ectr;
    if (!sp.empty()) plan.extra_metadata["savepointed_timestamps"] = sp;
    REQUIRE(w.table.journal.request_clean(t, plan).ok());
    REQUIRE(w.table.journal.start_clean(t).ok());
    CompletedClean m;
    m.start_clean_time = t;
    m.earliest_commit_to_retain = ectr;
    if (!sp.empty()) m.extra_metadata["savepointed_timestamps"] = sp;
    REQUIRE(w.table.journal.complete_clean(t, m).ok());
    return t;
  }
  // A failed write rolled back: a completed rollback instant is recorded.
  InstantTime rollback() {
    const InstantTime t = pending();
    REQUIRE(w.table.journal.rollback(t).ok());
    const auto md = w.table.load().value();
    return md.timeline.instants().back().requested;
  }
  TableMetadata md() { return w.table.load().value(); }
  ArchivalDecision decide() { return w.archiver.decide(md()); }
};

std::vector<InstantTime> ts(std::initializer_list<InstantTime> l) { return l; }

}  // namespace

TEST_CASE("a rollback records a completed rollback instant") {
  Hand h(TimelineLayout::v2);
  h.commit();
  const InstantTime r = h.rollback();
  const Instant* i = h.md().timeline.find(r);
  REQUIRE(i != nullptr);
  CHECK(i->action == Action::rollback);
  CHECK(i->is_completed());
}

TEST_CASE("layout 1 archives cleans and rollbacks by their own count, whatever happens to commits") {
  for (const TimelineLayout layout : {TimelineLayout::v1, TimelineLayout::v2}) {
    CAPTURE(static_cast<int>(layout));
    Hand h(layout);
    const InstantTime c1 = h.commit();
    h.pending();  // holds every commit: the newest one before it (c1) stays
    std::vector<InstantTime> cleans, rollbacks;
    for (int i = 0; i < 5; ++i) {
      cleans.push_back(h.clean(c1));
      rollbacks.push_back(h.rollback());
    }
    for (int i = 0; i < 4; ++i) h.commit();
    const ArchivalDecision d = h.decide();
    CHECK(d.commits.empty());
    if (layout == TimelineLayout::v1) {
      // 5 of each > keep.max 3: all but the newest keep.min 2.
      CHECK(d.others == ts({cleans[0], rollbacks[0], cleans[1], rollbacks[1], cleans[2], rollbacks[2]}));
    } else {
      CHECK(d.others.empty());  // layout 2 archives them only behind archived commits
    }
  }
}

TEST_CASE(
    "layout 2 archives cleans and rollbacks older than the newest archived commit; the rest can predate "
    "every write") {
  Hand h(TimelineLayout::v2);
  const InstantTime c1 = h.commit();
  const InstantTime k1 = h.clean(c1);
  const InstantTime c2 = h.commit();
  const InstantTime r1 = h.rollback();
  const InstantTime c3 = h.commit();
  const InstantTime c4 = h.commit();
  const InstantTime k2 = h.clean(c1);  // after c4: not behind an archived commit
  const InstantTime c5 = h.commit();
  h.commit();
  const ArchivalDecision d = h.decide();
  CHECK(d.commits == ts({c1, c2, c3, c4}));  // 6 > keep.max 3: up to 6 - keep.min 2
  CHECK(d.others == ts({k1, r1}));
  REQUIRE(h.w.archive());
  const TableMetadata md = h.md();
  CHECK(md.timeline.instants().front().requested == k2);
  CHECK(md.timeline.write_start() == c5);
  CHECK(md.timeline.is_before_write_start(k2));
}

TEST_CASE("savepoint and indexing instants are never archived; archival stops at the savepointed commit") {
  Hand h(TimelineLayout::v1);
  const InstantTime c1 = h.commit();
  const InstantTime c2 = h.commit();
  const InstantTime sp = h.next();
  REQUIRE(h.w.table.journal.savepoint(sp, sp, {}).ok());
  h.w.table.oracle.savepointed(sp, c2, {});
  const InstantTime idx = h.next();
  REQUIRE(h.w.table.journal.begin(idx, Action::indexing).ok());
  REQUIRE(h.w.table.journal.complete(idx, idx, CommitInfo{}).ok());
  for (int i = 0; i < 4; ++i) h.commit();
  const ArchivalDecision d = h.decide();
  CHECK(d.commits == ts({c1}));
  CHECK(d.why.starts_with("first savepointed commit"));
  REQUIRE(h.w.archive());
  const TableMetadata md = h.md();
  CHECK(md.timeline.find(sp) != nullptr);
  CHECK(md.timeline.find(idx) != nullptr);
}

TEST_CASE("the newest commit before the earliest pending write stays") {
  Hand h(TimelineLayout::v2);
  const InstantTime c1 = h.commit();
  const InstantTime c2 = h.commit();
  h.pending();
  for (int i = 0; i < 4; ++i) h.commit();
  const ArchivalDecision d = h.decide();
  CHECK(d.commits == ts({c1}));
  CHECK(d.why == "plan_archive: pending_write");
  (void)c2;
}

TEST_CASE("the first replacecommit at or after the last clean's earliest instant to retain stays") {
  auto table = [](Hand& h, InstantTime* r1, InstantTime* c3, InstantTime* r2, InstantTime* c5) {
    h.commit();
    *r1 = h.commit(Action::replacecommit, {{"p", "a"}});
    *c3 = h.commit();
    *r2 = h.commit(Action::replacecommit, {{"p", "b"}});
    *c5 = h.commit();
    for (int i = 0; i < 3; ++i) h.commit();
  };
  InstantTime r1, c3, r2, c5;
  {
    Hand h(TimelineLayout::v2);
    table(h, &r1, &c3, &r2, &c5);
    // No completed clean: the first replacecommit stays.
    CHECK(h.decide().commits.size() == 1);
    h.clean(c3);
    ArchivalDecision d = h.decide();
    CHECK(d.commits.back() < r2);
    CHECK(d.commits.size() == 3);  // c1, r1, c3
    h.clean(c5);                   // past every replacecommit: keep.min decides
    CHECK(h.decide().commits.size() == 6);
    // Under a version rule (no earliest instant to retain), the clean
    // instant is the lower bound: every replacecommit is before it.
    h.clean(std::nullopt);
    CHECK(h.decide().commits.size() == 6);
  }
  {
    // A savepoint the clean recorded, earlier than a completed replacecommit
    // before the clean's earliest instant to retain: the replacecommits at
    // or after the savepointed commit stay (a deleted savepoint's replaced
    // files may not be cleaned yet).
    Hand h(TimelineLayout::v2);
    table(h, &r1, &c3, &r2, &c5);
    const InstantTime sp = h.next();
    h.w.table.oracle.savepointed(sp, c3, {});
    h.clean(c5, {sp});
    const ArchivalDecision d = h.decide();
    REQUIRE_FALSE(d.commits.empty());
    CHECK(d.commits.back() < r2);
  }
}

TEST_CASE("I6: after archival the active timeline is bounded by keep.max or what the bounds hold back") {
  Hand h(TimelineLayout::v2);
  h.commit();
  const InstantTime r = h.commit(Action::replacecommit, {{"p", "a"}});
  for (int i = 0; i < 6; ++i) h.commit();
  // Not archived yet: 8 commits, keep.max 3, the replacecommit (no clean)
  // holds 7 back.
  check_timeline_bounded(h.w.table, h.decide(), h.md());
  REQUIRE_FALSE(h.w.table.violations.empty());
  CHECK(h.w.table.violations.front().invariant == Invariant::I6_convergence);
  h.w.table.violations.clear();
  REQUIRE(h.w.archive());
  const ArchivalDecision d = h.decide();
  CHECK(d.held_from == r);
  check_timeline_bounded(h.w.table, d, h.md());
  CHECK(h.w.table.violations.empty());
  CHECK(h.md().timeline.completed_commits().size() == 7);
}

TEST_CASE("keep.min rises with the cleaner's retention, as ArchivalUtils raises it") {
  Hand h(TimelineLayout::v2, commits_policy(3));
  for (int i = 0; i < 8; ++i) h.commit();
  const ArchivalDecision d = h.decide();
  // The policy's earliest commit to retain is the 6th: 2 commits after it,
  // plus 2.
  CHECK(d.min_keep == 4);
  CHECK(d.max_keep == 5);
  CHECK(d.commits.size() == 4);
}

namespace {
// The clamped policy the replace-unclamped canary breaks.
any_policy clamped_lease_policy() {
  return any_policy(cleaning(keep_latest_commits{2}, guard::savepoints, guard::pending_table_services,
                             guard::reader_leases, scope::incremental));
}
}  // namespace

TEST_CASE(
    "library gaps: these seeds need the archiver's gap bounds (remove a bound once the library closes its "
    "gap and its seeds pass with it off)") {
  struct Pin {
    std::uint64_t seed;
    std::uint8_t gap;   // archiver_gaps_off bit
    bool canary_swarm;  // replace-unclamped's focused swarm with the clamped policy
  };
  // (a) a savepoint of a commit taken while a clustering requested before it
  // was pending; (b) a version rule with a lease (or a savepoint deleted
  // since) on a replaced group; (c) a clean whose truncated listing hid a
  // replaced group's files.
  const Pin pins[] = {{122, 1, false}, {874, 1, false}, {192, 2, false}, {417, 2, false}, {35, 4, true}};
  for (const Pin& pin : pins) {
    CAPTURE(pin.seed);
    CAPTURE(static_cast<int>(pin.gap));
    RunOptions o;
    o.seed = pin.seed;
    if (pin.canary_swarm) {
      o.canary = Canary::replace_unclamped;
      o.custom_policy = clamped_lease_policy();
    }
    const auto ok = run_seed(o).value();
    CHECK(ok.ok());
    const std::size_t k = pin.gap == 1 ? 0 : pin.gap == 2 ? 1 : 2;
    CHECK(ok.stats.archival_gap_holds[k] > 0);
    o.adjust_swarm = [&](SwarmConfig& s) { s.archiver_gaps_off = pin.gap; };
    const auto strict = run_seed(o).value();
    REQUIRE_FALSE(strict.ok());
    const Violation& v = strict.violations.front();
    CHECK(v.invariant == Invariant::I4_no_loss);
    CHECK(v.actor == "archiver");
    CHECK(v.detail.find("duplicate rows") != std::string::npos);
    // lakegc's own archiver (plan_archive given the listing: its
    // replaced_files_on_storage bound) closes the gap without the bound.
    o.adjust_swarm = [&](SwarmConfig& s) {
      s.archiver_gaps_off = pin.gap;
      s.archive_with_listing = true;
    };
    CHECK(run_seed(o).value().ok());
  }
}

TEST_CASE("canary controls: the focused swarms of the archival canaries hold without the flaw") {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    CAPTURE(seed);
    RunOptions o;
    o.seed = seed;
    // replace-unclamped's swarm with the same policy, clamp on.
    o.canary = Canary::replace_unclamped;
    o.custom_policy = clamped_lease_policy();
    auto r = run_seed(o).value();
    CHECK_MESSAGE(r.ok(), "seed ", seed, ": ",
                  (r.violations.empty() ? std::string() : r.violations.front().describe()));
    // orphans-all-actions-start's swarm with the real snapshot.
    o.canary = Canary::orphans_all_actions_start;
    o.custom_policy.reset();
    o.adjust_swarm = [](SwarmConfig& s) { s.sweeper.flaw = SweepFlaw::none; };
    r = run_seed(o).value();
    CHECK_MESSAGE(r.ok(), "seed ", seed, ": ",
                  (r.violations.empty() ? std::string() : r.violations.front().describe()));
    // archive-ignores-replaced-groups' swarm (gap bounds off) with
    // plan_archive's clustering bound.
    if (seed > 6) continue;
    o.canary = Canary::archive_ignores_replaced_groups;
    o.adjust_swarm = [](SwarmConfig& s) { s.archive_ignores_replaced_groups = false; };
    r = run_seed(o).value();
    CHECK_MESSAGE(r.ok(), "seed ", seed, ": ",
                  (r.violations.empty() ? std::string() : r.violations.front().describe()));
    CHECK(r.stats.archivals > 0);
  }
}

}  // namespace lakegc::tests::archiver_test
