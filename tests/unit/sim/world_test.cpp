// The World's actors and the whole-run entry points: commits, conflicts,
// readers, replay, canaries and lakegc::sim::verify.
#include <doctest/doctest.h>

#include "lakegc/sim/simulation.hpp"
#include "lakegc/sim/verify.hpp"
#include "sim_fixture.hpp"

namespace lakegc::tests::world_test {

using namespace lakegc;
using namespace lakegc::sim;
using namespace lakegc::sim::testing;

namespace {
void write(World& w, std::size_t writer = 0) {
  w.advance(10 * kMinute);
  REQUIRE(w.write_begin(writer));
  w.advance(1000);
  w.write_finish(writer);
}
}  // namespace

TEST_CASE("writers commit, the cleaner trims old versions, and the run holds every invariant") {
  World w(quiet_swarm(), commits_policy(2), Rng(1));
  for (int i = 0; i < 6; ++i) write(w);
  CHECK(w.table.stats.commits == 6);
  const auto before = w.table.data_files().size();
  w.advance(kMinute);
  CHECK(w.clean());
  CHECK(w.table.data_files().size() < before);
  w.finish();
  CHECK_FALSE(w.failed());
  CHECK(w.table.stats.files_deleted > 0);
}

TEST_CASE("a write that overlaps one committed after it began is abandoned and leaves orphans") {
  SwarmConfig s = quiet_swarm();
  s.writers = 2;
  s.max_groups = 1;
  World w(s, commits_policy(3), Rng(2));
  write(w);  // creates the only group
  w.advance(kMinute);
  REQUIRE(w.write_begin(0));
  REQUIRE(w.write_begin(1));
  w.advance(1000);
  CHECK(w.write_finish(1));
  CHECK_FALSE(w.write_finish(0));
  CHECK(w.table.stats.writes_aborted == 1);
  CHECK(w.table.oracle.orphans().size() == 1);
  w.finish();
  CHECK_FALSE(w.failed());
}

TEST_CASE("a query whose files vanish without a clean is reported") {
  World w(quiet_swarm(), commits_policy(2), Rng(3));
  for (int i = 0; i < 3; ++i) write(w);
  auto id = w.reader_start(kHour);
  REQUIRE(id.has_value());
  // Something other than the cleaner removes the table's files.
  for (const auto& [path, size] : w.table.data_files()) REQUIRE(w.table.storage.remove(path).ok());
  w.advance(kHour);
  w.reader_read(*id, 100);
  REQUIRE(w.failed());
  CHECK(w.table.violations.front().invariant == Invariant::I1_reader_isolation);
  CHECK(w.table.violations.front().actor == Readers::name(*id));
}

TEST_CASE("a seed replays exactly, and its report names the replay command") {
  RunOptions o;
  o.seed = 11;
  const auto a = run_seed(o).value();
  const auto b = run_seed(o).value();
  CHECK(a.trace_hash == b.trace_hash);
  CHECK(a.stats.events == b.stats.events);
  CHECK(a.swarm.duration_ms == b.swarm.duration_ms);
  o.seed = 12;
  CHECK(run_seed(o).value().trace_hash != a.trace_hash);
  const std::string report = format_failure(a, "lakegc-sim --seed 11 --trace");
  CHECK(report.find("SEED=11") != std::string::npos);
  CHECK(report.find("replay: lakegc-sim --seed 11 --trace") != std::string::npos);
}

TEST_CASE("--policy properties replace the swarm's policy; bad ones are refused") {
  RunOptions o;
  o.seed = 3;
  o.policy = parse_policy_flag("hoodie.clean.policy=KEEP_LATEST_COMMITS,hoodie.clean.commits.retained=4").value();
  const auto r = run_seed(o).value();
  CHECK(r.policy_label.find("KEEP_LATEST_COMMITS n=4") == 0);
  CHECK(r.ok());
  o.policy = parse_policy_flag("hoodie.clean.commits.retained=zero").value();
  CHECK_FALSE(run_seed(o).ok());
  CHECK_FALSE(parse_policy_flag("novalue").ok());
}

TEST_CASE("the oracle's snapshot cache agrees with a fresh resolution in every swarm kind") {
  // The oracle keeps its snapshots across data files of pending writes
  // (may_change_snapshots); with verification every cache hit is resolved
  // again, and a difference is a violation of the run.
  const std::vector<std::function<void(SwarmConfig&)>> kinds = {
      nullptr,
      [](SwarmConfig& s) {
        s.type = TableType::mor;
        s.layout = TimelineLayout::v1;
      },
      [](SwarmConfig& s) {
        s.type = TableType::mor;
        s.layout = TimelineLayout::v2;
      },
  };
  std::uint64_t hits_checked = 0;
  for (const auto& kind : kinds) {
    for (std::uint64_t seed = 1; seed <= 15; ++seed) {
      RunOptions o;
      o.seed = seed;
      o.adjust_swarm = kind;
      o.verify_oracle_cache = true;
      const auto r = run_seed(o).value();
      CHECK_MESSAGE(r.ok(), "seed ", seed, ": ", r.ok() ? std::string() : r.violations.front().describe());
      hits_checked += r.stats.snapshot_cache_hits;
    }
  }
  CHECK(hits_checked > 100);  // the verification ran
}

TEST_CASE("Table::load shares one load until the journal changes, and every change makes a new one") {
  World w(quiet_swarm(), commits_policy(2), Rng(1));
  const auto first = w.table.load();
  REQUIRE(first.ok());
  CHECK(&*w.table.load() == &*first);  // nothing changed: the same load
  memory_journal& j = w.table.journal;
  const InstantTime t1 = minute(1), t2 = minute(2), t3 = minute(3), sp = minute(4);
  const std::vector<std::pair<std::string, std::function<void()>>> changes = {
      {"begin", [&] { REQUIRE(j.begin(t1, Action::commit).ok()); }},
      {"set_inflight", [&] { REQUIRE(j.set_inflight(t1).ok()); }},
      {"heartbeat", [&] { REQUIRE(j.heartbeat(t1, 5).ok()); }},
      {"add_marker",
       [&] {
         REQUIRE(j.add_marker(t1, WrittenFile{"p", "f.parquet", 1}).ok());
       }},
      {"complete", [&] { REQUIRE(j.complete(t1, t1, CommitInfo{}).ok()); }},
      {"savepoint", [&] { REQUIRE(j.savepoint(sp, sp, {}).ok()); }},
      {"remove_savepoint", [&] { REQUIRE(j.remove_savepoint(sp).ok()); }},
      {"schedule_compaction", [&] { REQUIRE(j.schedule_compaction(t2, {}).ok()); }},
      {"remove_pending", [&] { REQUIRE(j.remove_pending(t2).ok()); }},
      {"archive", [&] { j.archive({t1}); }},
      {"set_archive_readable", [&] { j.set_archive_readable(false); }},
      {"request_clean", [&] { REQUIRE(j.request_clean(t3, CleanPlan{}).ok()); }},
      {"start_clean", [&] { REQUIRE(j.start_clean(t3).ok()); }},
      {"fail_loads", [&] { j.fail_loads(absl::DataLossError("unreadable")); }},
      {"fail_loads(none)", [&] { j.fail_loads(std::nullopt); }},
  };
  for (const auto& [name, change] : changes) {
    CAPTURE(name);
    const auto before = w.table.load();
    const std::uint64_t generation = j.generation();
    change();
    CHECK(j.generation() > generation);
    const auto after = w.table.load();
    CHECK(&after.status() != &before.status());  // a new load, not the shared one
  }
  // An earlier load keeps the metadata of its time.
  CHECK(first->timeline.find(t1) == nullptr);
  CHECK(w.table.load()->timeline.find(t3) != nullptr);
}

TEST_CASE("every canary is caught within a bounded number of seeds, for the right reason") {
  for (Canary c : kCanaries) {
    std::optional<RunResult> caught;
    for (std::uint64_t seed = 1; seed <= 60 && !caught; ++seed) {
      RunOptions o;
      o.seed = seed;
      o.canary = c;
      auto r = run_seed(o).value();
      if (!r.ok()) caught = std::move(r);
    }
    CHECK_MESSAGE(caught.has_value(), "canary ", std::string(to_string(c)), " not caught in 60 seeds");
    if (caught) {
      CHECK_MESSAGE(caught_for_the_right_reason(c, caught->violations.front().invariant), "canary ",
                    std::string(to_string(c)), " (expected ", expected_text(c),
                    "): ", caught->violations.front().describe());
    }
  }
}

TEST_CASE("verify: the default policy holds, an unguarded one yields a replayable counterexample") {
  VerifyOptions options;
  options.seeds = 10;
  CHECK(verify(default_cleaning(), options).ok());

  options.seeds = 40;
  options.swarm = [](SwarmConfig& s) { s.savepoints = true; };
  const auto unsafe = cleaning(keep_latest_commits{2}, guard::pending_table_services, unguarded);
  const auto r = verify(unsafe, options);
  REQUIRE_FALSE(r.ok());
  CHECK(r.counterexample->violation.invariant == Invariant::I5_savepoints);
  // Replaying the seed alone finds the same violation.
  options.first_seed = r.counterexample->seed;
  options.seeds = 1;
  std::uint64_t lines = 0;
  options.trace = [&](std::string_view) { ++lines; };
  const auto again = verify(unsafe, options);
  REQUIRE_FALSE(again.ok());
  CHECK(again.counterexample->violation.file == r.counterexample->violation.file);
  CHECK(lines > 0);
}

}  // namespace lakegc::tests::world_test
