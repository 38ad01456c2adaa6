// The simulator's partition TTL service (sim/include/lakegc/sim/ttl_service.hpp):
// it drops what plan_ttl expired and the cleaner then removes it; the drop
// check fails a drop that took too much or too little; I4 still fails for a
// file lost outside the dropped partitions; the canary's swarm holds with
// Hudi's blocking rule.
#include <doctest/doctest.h>

#include "lakegc/sim/simulation.hpp"
#include "lakegc/sim/ttl_service.hpp"
#include "sim_fixture.hpp"

namespace lakegc::tests::ttl_test {
using namespace lakegc;
using namespace lakegc::sim;
using namespace lakegc::sim::testing;

namespace {

SwarmConfig ttl_swarm() {
  SwarmConfig s = quiet_swarm();
  s.ttl.on = true;
  s.ttl.days = 1;
  s.ttl.cold = 1;
  s.ttl.history_commits = 3;
  s.ttl.gap_ms = 26 * kHour;
  s.ttl.late_insert_percent = 0;
  return s;
}

// A TTL world past its history, with two commits into the hot partition.
struct TtlWorld {
  World w{ttl_swarm(), commits_policy(1), Rng(7)};
  TtlWorld() {
    w.write_history();
    for (int i = 0; i < 2; ++i) commit();
  }
  void commit() {
    w.advance(kMinute);
    REQUIRE(w.write_begin(0));
    w.advance(1000);
    REQUIRE(w.write_finish(0));
  }
  std::size_t files_in(const std::string& partition) const {
    std::size_t n = 0;
    for (const auto& [path, size] : w.table.data_files()) n += path.starts_with(partition + "/") ? 1 : 0;
    return n;
  }
};

const std::string kCold = "dt=2023-10-01";
const std::string kHot = "dt=2023-11-14";

}  // namespace

TEST_CASE("the TTL service drops the partition plan_ttl expired; the cleaner then removes its files") {
  TtlWorld tw;
  World& w = tw.w;
  REQUIRE(tw.files_in(kCold) > 0);
  REQUIRE(w.ttl_run());
  CHECK(w.table.stats.ttl_drops == 1);
  CHECK(w.table.stats.ttl_partitions_dropped == 1);
  CHECK(w.table.violations.empty());
  CHECK_FALSE(w.ttl_run());  // nothing left to expire
  // The files stay until the cleaner's boundary passes the replacecommit.
  CHECK(tw.files_in(kCold) > 0);
  for (int i = 0; i < 2; ++i) {
    tw.commit();
    w.clean();
  }
  CHECK(tw.files_in(kCold) == 0);
  CHECK_FALSE(w.table.storage.stat(join_path(kCold, kPartitionMetadataFile)).ok());  // the partition went too
  CHECK(tw.files_in(kHot) > 0);
  CHECK(w.table.violations.empty());
  check_latest_and_savepoints(w.table);
  CHECK(w.table.violations.empty());
}

TEST_CASE("a write whose partition metadata cannot be written fails whole, as Hudi's task does") {
  // Found by schedule_fast: the failure armed for the write was consumed by
  // the partition metadata and ignored, so the data file landed in a
  // partition no reader lists, while the oracle's shadow had the metadata.
  World w{ttl_swarm(), commits_policy(1), Rng(7)};
  w.write_history();
  const std::string meta = join_path(kHot, kPartitionMetadataFile);
  const auto hot_files = [&] {
    std::size_t n = 0;
    for (const auto& [path, size] : w.table.data_files()) n += path.starts_with(kHot + "/") ? 1 : 0;
    return n;
  };
  REQUIRE_FALSE(w.table.storage.stat(meta).ok());  // the first write after the history creates it
  w.table.faults_enabled = true;
  w.table.armed.write_failure = true;
  w.advance(kMinute);
  CHECK_FALSE(w.write_begin(0));
  CHECK_FALSE(w.table.storage.stat(meta).ok());
  CHECK(hot_files() == 0);
  w.table.faults_enabled = false;
  w.advance(kMinute);
  REQUIRE(w.write_begin(0));
  w.advance(1000);
  REQUIRE(w.write_finish(0));
  CHECK(w.table.storage.stat(meta).ok());
  CHECK(hot_files() > 0);
  // The latest snapshot, read from storage, is the oracle's.
  w.reader_start(kMinute);
  CHECK_FALSE(w.failed());
}

TEST_CASE("the drop check fails a replacecommit that took a partition that did not expire") {
  TtlWorld tw;
  Table& t = tw.w.table;
  const auto md = t.load().value();
  const InstantTime latest = md.timeline.completed_commits().back()->requested;
  const auto before = resolve_snapshot(t.storage, md, latest).value();
  auto view = load_view(t.storage, md).value();
  CommitInfo info;
  for (const Partition& p : view.partitions()) {
    for (const FileGroup& g : view.groups_of(p)) info.replaced.push_back({p.path, std::string(view.file_id(g))});
  }
  const InstantTime r = t.next_instant();
  REQUIRE(t.journal.begin(r, Action::replacecommit).ok());
  REQUIRE(t.journal.complete(r, t.next_instant(), std::move(info)).ok());
  t.oracle.bump();
  // Only the cold partition expired: the hot one's files must still read.
  CHECK_FALSE(check_ttl_drop(t, before, {kCold}, r));
  REQUIRE_FALSE(t.violations.empty());
  CHECK(t.violations.front().invariant == Invariant::I4_no_loss);
  CHECK(t.violations.front().detail.find("did not expire") != std::string::npos);
}

TEST_CASE("I4 excepts the dropped partition and nothing else: a file lost elsewhere still fails") {
  TtlWorld tw;
  World& w = tw.w;
  REQUIRE(w.ttl_run());
  std::string hot_file;
  for (const auto& [path, size] : w.table.data_files()) {
    if (path.starts_with(kHot + "/")) hot_file = path;
  }
  REQUIRE_FALSE(hot_file.empty());
  // The newest hot file is in the latest snapshot; losing it is data loss.
  REQUIRE(w.table.storage.remove(hot_file).ok());
  check_latest_and_savepoints(w.table);
  REQUIRE_FALSE(w.table.violations.empty());
  CHECK(w.table.violations.front().invariant == Invariant::I4_no_loss);
}

TEST_CASE("the TTL canary's swarm holds with Hudi's rule: its runs are blocked while services are pending") {
  std::uint64_t blocked = 0;
  std::uint64_t drops = 0;
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    RunOptions o;
    o.seed = seed;
    o.canary = Canary::ttl_ignores_pending_compaction;
    o.adjust_swarm = [](SwarmConfig& s) { s.ttl.ignore_pending_services = false; };
    const auto r = run_seed(o).value();
    CAPTURE(seed);
    CHECK(r.ok());
    blocked += r.stats.ttl_blocked;
    drops += r.stats.ttl_drops;
  }
  CHECK(blocked > 0);
  CHECK(drops > 0);
}

}  // namespace lakegc::tests::ttl_test
