// The orphan sweeper (sim/include/lakegc/sim/sweeper.hpp) in hand-driven
// worlds: the two-phase sweep keeps in-flight writes' files under a safe
// cutoff, deletes orphans, and each sweep canary is caught by I3.
#include <doctest/doctest.h>

#include "lakegc/sim/simulation.hpp"
#include "sim_fixture.hpp"

namespace lakegc::tests::sweeper_test {

using namespace lakegc;
using namespace lakegc::sim;
using namespace lakegc::sim::testing;

namespace {
SwarmConfig sweeper_swarm(SweepFlaw flaw = SweepFlaw::none) {
  SwarmConfig s = quiet_swarm();
  s.sweeper.on = true;
  s.sweeper.listing_ms = 10 * kMinute;
  s.sweeper.cutoff_ms = 30 * kMinute;
  s.sweeper.tight = true;
  s.sweeper.flaw = flaw;
  return s;
}
void write(World& w, std::size_t writer = 0) {
  w.advance(10 * kMinute);
  REQUIRE(w.write_begin(writer));
  w.advance(1000);
  w.write_finish(writer);
}
// Paths of the pending write's files (the oracle's).
std::vector<std::string> pending_files(World& w) {
  std::vector<std::string> out;
  for (const auto& [t, paths] : w.table.oracle.pending_writes()) out.insert(out.end(), paths.begin(), paths.end());
  return out;
}
}  // namespace

TEST_CASE("writers record a marker and a heartbeat for every pending write") {
  World w(sweeper_swarm(), commits_policy(3), Rng(1));
  write(w);
  w.advance(kMinute);
  REQUIRE(w.write_begin(0));
  const auto md = w.table.load().value();
  REQUIRE(md.timeline.pending().size() == 1);
  const InstantTime t = md.timeline.pending().front()->requested;
  REQUIRE(md.markers.contains(t));
  CHECK(md.markers.at(t).size() == pending_files(w).size());
  REQUIRE(md.heartbeats.contains(t));
  CHECK(md.heartbeats.at(t) == w.table.now());
  w.advance(kMinute);
  w.write_progress(0);
  CHECK(w.table.load().value().heartbeats.at(t) == w.table.now());
  CHECK(w.write_finish(0));
  CHECK_FALSE(w.table.load().value().markers.contains(t));  // a finished write's markers go
}

TEST_CASE("a sweep begun before a write starts keeps the write's files under a cutoff longer than its listing") {
  World w(sweeper_swarm(), commits_policy(3), Rng(2));
  write(w);
  w.advance(kMinute);
  REQUIRE(w.sweep_begin());
  w.advance(kMinute);
  REQUIRE(w.write_begin(0));  // unknown to the sweep's snapshot
  const auto files = pending_files(w);
  REQUIRE_FALSE(files.empty());
  w.advance(9 * kMinute);
  w.sweep_finish();
  CHECK_FALSE(w.failed());
  for (const auto& f : files) CHECK(w.table.data_files().contains(f));
  CHECK(w.table.stats.sweeps == 1);
  CHECK(w.table.stats.orphans_deleted == 0);
  CHECK(w.write_finish(0));
  w.finish();
  CHECK_FALSE(w.failed());
}

TEST_CASE("canary orphans-short-cutoff: the same sweep with a one-minute cutoff deletes the write's files (I3)") {
  World w(sweeper_swarm(SweepFlaw::short_cutoff), commits_policy(3), Rng(2));
  write(w);
  w.advance(kMinute);
  REQUIRE(w.sweep_begin());
  w.advance(kMinute);
  REQUIRE(w.write_begin(0));
  const auto files = pending_files(w);
  w.advance(9 * kMinute);
  w.sweep_finish();
  REQUIRE(w.failed());
  const Violation& v = w.table.violations.front();
  CHECK(v.invariant == Invariant::I3_orphan_cutoff);
  CHECK(v.actor == "sweeper");
  CHECK(std::find(files.begin(), files.end(), v.file) != files.end());
}

TEST_CASE("a write that outlasts a tight cutoff is protected by its pending instant; without it (canary) it is not") {
  for (const SweepFlaw flaw : {SweepFlaw::none, SweepFlaw::ignore_markers}) {
    CAPTURE(static_cast<int>(flaw));
    World w(sweeper_swarm(flaw), commits_policy(3), Rng(3));
    write(w);
    w.advance(kMinute);
    REQUIRE(w.write_begin(0));
    const auto files = pending_files(w);
    w.advance(40 * kMinute);  // the write has run longer than the 30-minute cutoff
    REQUIRE(w.sweep_begin());
    w.advance(10 * kMinute);
    w.sweep_finish();
    if (flaw == SweepFlaw::none) {
      CHECK_FALSE(w.failed());
      for (const auto& f : files) CHECK(w.table.data_files().contains(f));
      CHECK(w.table.stats.sweeps_forced == 1);  // the longest-write guard refused; tight sweeps force
      CHECK(w.write_finish(0));
      w.finish();
      CHECK_FALSE(w.failed());
    } else {
      REQUIRE(w.failed());
      CHECK(w.table.violations.front().invariant == Invariant::I3_orphan_cutoff);
      CHECK(w.table.violations.front().actor == "sweeper");
    }
  }
}

TEST_CASE("orphans of an abandoned write are swept by the liveness phase's final sweep") {
  SwarmConfig s = sweeper_swarm();
  s.writers = 2;
  s.max_groups = 1;
  World w(s, commits_policy(3), Rng(4));
  write(w);
  w.advance(kMinute);
  REQUIRE(w.write_begin(0));
  REQUIRE(w.write_begin(1));
  w.advance(1000);
  CHECK(w.write_finish(1));
  CHECK_FALSE(w.write_finish(0));  // conflict: its files are orphans
  std::vector<std::string> orphans;
  for (const auto& [t, paths] : w.table.oracle.orphans()) orphans.insert(orphans.end(), paths.begin(), paths.end());
  REQUIRE_FALSE(orphans.empty());
  // Too young for a sweep now.
  REQUIRE(w.sweep_begin());
  w.advance(5 * kMinute);
  CHECK_FALSE(w.sweep_finish());
  for (const auto& f : orphans) CHECK(w.table.data_files().contains(f));
  w.finish();
  CHECK_FALSE(w.failed());
  for (const auto& f : orphans) CHECK_FALSE(w.table.data_files().contains(f));
  CHECK(w.table.oracle.orphans().empty());
  CHECK(w.table.stats.orphans_deleted == orphans.size());
}

TEST_CASE("the ignore-markers canary's swarms hold every invariant with the real snapshot") {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    RunOptions o;
    o.seed = seed;
    o.canary = Canary::orphans_ignore_markers;  // its focused swarm: tight cutoff, writes outlasting it
    o.adjust_swarm = [](SwarmConfig& s) { s.sweeper.flaw = SweepFlaw::none; };
    const auto r = run_seed(o).value();
    CHECK_MESSAGE(r.ok(), "seed ", seed, ": ", r.violations.empty() ? std::string() : r.violations.front().describe());
  }
}

namespace {
// A completed commit written straight through the World's journal: `files`
// (base file names) in the table's first partition.
InstantTime commit_files(World& w, const std::vector<std::string>& fids) {
  w.advance(10 * kMinute);
  const InstantTime t = w.table.next_instant();
  REQUIRE(w.table.journal.begin(t, Action::commit).ok());
  CommitInfo info;
  const std::string& p = w.table.partitions.front();
  info.partitions_written = {p};
  for (const auto& fid : fids) {
    const std::string name = w.table.base_name(fid, t);
    REQUIRE(w.table.put(p, name, 100).ok());
    info.files.push_back({p, name, 100});
  }
  REQUIRE(w.table.journal.complete(t, w.table.next_instant(), std::move(info)).ok());
  w.table.oracle.bump();
  return t;
}
}  // namespace

TEST_CASE(
    "canary orphans-all-actions-start: with an old clean left by archival, a sweep that starts the timeline "
    "there deletes the only slice of a live group (I4); the real sweep keeps it") {
  for (const SweepFlaw flaw : {SweepFlaw::none, SweepFlaw::all_actions_start}) {
    CAPTURE(static_cast<int>(flaw));
    SwarmConfig s = sweeper_swarm(flaw);
    s.layout = TimelineLayout::v1;
    s.archiver = true;
    s.archive_min_commits = 2;
    s.archive_max_commits = 3;
    World w(s, commits_policy(1), Rng(5));
    commit_files(w, {"a"});
    for (int i = 0; i < 3; ++i) commit_files(w, {"b"});
    w.advance(kMinute);
    REQUIRE(w.clean());                                  // deletes b's first version: a clean instant
    const InstantTime c5 = commit_files(w, {"b", "c"});  // c: a new group, its only slice
    commit_files(w, {"b"});
    commit_files(w, {"b"});
    REQUIRE(w.archive());  // commits up to c5 go; the clean (fewer than keep.max) stays
    const TableMetadata md = w.table.load().value();
    REQUIRE(md.timeline.instants().front().action == Action::clean);
    REQUIRE(md.timeline.is_before_write_start(c5));
    REQUIRE(md.timeline.is_before_write_start(md.timeline.instants().front().requested));
    w.advance(2 * kHour);  // every file is older than the cutoff
    REQUIRE(w.sweep_begin());
    w.advance(10 * kMinute);
    w.sweep_finish();
    if (flaw == SweepFlaw::none) {
      CHECK_FALSE(w.failed());
      w.finish();
      CHECK_FALSE(w.failed());
    } else {
      REQUIRE(w.failed());
      const Violation& v = w.table.violations.front();
      CHECK(v.invariant == Invariant::I4_no_loss);
      CHECK(v.actor == "sweeper");
      CHECK(v.file.find("/c_") != std::string::npos);
    }
  }
}

}  // namespace lakegc::tests::sweeper_test
