// RapidCheck state machine over the simulator's World: each command is one
// actor step (a writer begins, writes its next file or commits, a query
// starts or reads, a compaction or clustering is scheduled or completes, a
// savepoint is taken or dropped, the cleaner or archiver runs, the orphan
// sweep snapshots or lists and deletes, a fault is armed, time passes)
// on a small table, and after every step every invariant must hold. A
// failure shrinks to a minimal command sequence.
//
// The commands carry their own random salt: the World reseeds its PRNG
// with it before the step, so a command behaves the same whatever was
// removed before it while shrinking.
#include <doctest/doctest.h>

#include <memory>
#include <ostream>
#include <sstream>

#include <rapidcheck.h>
#include <rapidcheck/state.h>

#include "lakegc/sim/canaries.hpp"
#include "lakegc/sim/world.hpp"
#include "rc_doctest.hpp"

namespace lakegc::tests::schedule_state_test {

using namespace lakegc;
using namespace lakegc::sim;

namespace {

enum class Op : int {
  write_begin,
  write_finish,
  query_start,
  query_read,
  compaction_schedule,
  compaction_complete,
  clustering_schedule,
  clustering_complete,
  savepoint_take,
  savepoint_remove,
  clean,
  archive,
  arm_clean_crash,
  arm_storage_failure,
  advance,
  write_progress,
  sweep_begin,
  sweep_finish,
};
constexpr int kOps = static_cast<int>(Op::sweep_finish) + 1;
constexpr const char* kOpNames[kOps] = {"write_begin",
                                        "write_finish",
                                        "query_start",
                                        "query_read",
                                        "compaction_schedule",
                                        "compaction_complete",
                                        "clustering_schedule",
                                        "clustering_complete",
                                        "savepoint_take",
                                        "savepoint_remove",
                                        "clean",
                                        "archive",
                                        "arm_clean_crash",
                                        "arm_storage_failure",
                                        "advance",
                                        "write_progress",
                                        "sweep_begin",
                                        "sweep_finish"};

struct Model {};  // the World is its own model: the checkers are the oracle

struct Step : rc::state::Command<Model, World> {
  Op op;
  std::uint32_t arg;
  std::uint64_t salt;

  // Writes and cleans dominate, so schedules build history worth cleaning.
  static rc::Gen<Op> op_gen() {
    return rc::gen::weightedElement<Op>({{16, Op::write_begin},
                                         {16, Op::write_finish},
                                         {5, Op::query_start},
                                         {5, Op::query_read},
                                         {4, Op::compaction_schedule},
                                         {4, Op::compaction_complete},
                                         {2, Op::clustering_schedule},
                                         {2, Op::clustering_complete},
                                         {2, Op::savepoint_take},
                                         {1, Op::savepoint_remove},
                                         {10, Op::clean},
                                         {2, Op::archive},
                                         {1, Op::arm_clean_crash},
                                         {1, Op::arm_storage_failure},
                                         {6, Op::advance},
                                         {4, Op::write_progress},
                                         {2, Op::sweep_begin},
                                         {2, Op::sweep_finish}});
  }

  Step() : op(*op_gen()), arg(*rc::gen::inRange<std::uint32_t>(0, 240)), salt(*rc::gen::arbitrary<std::uint64_t>()) {}

  void run(const Model&, World& w) const override {
    w.rng().reseed(salt);
    w.advance(1000);
    switch (op) {
      case Op::write_begin: w.write_begin(arg % 2); break;
      case Op::write_finish: w.write_finish(arg % 2); break;
      case Op::query_start: w.reader_start((1 + arg) * kMinute); break;
      case Op::query_read: {
        const auto ids = w.readers.running_ids();
        if (!ids.empty()) w.reader_read(ids[arg % ids.size()], 1 + arg % 4);
        break;
      }
      case Op::compaction_schedule: w.compaction_schedule(); break;
      case Op::compaction_complete: w.compaction_complete(); break;
      case Op::clustering_schedule: w.clustering_schedule(); break;
      case Op::clustering_complete: w.clustering_complete(); break;
      case Op::savepoint_take: w.savepoint_take(); break;
      case Op::savepoint_remove: w.savepoint_remove(0); break;
      case Op::clean: w.clean(); break;
      case Op::archive: w.archive(); break;
      case Op::arm_clean_crash: w.table.armed.clean_crash = true; break;
      case Op::arm_storage_failure: w.table.armed.clean_failure = true; break;
      case Op::advance: w.advance(static_cast<std::int64_t>(arg) * kMinute); break;
      case Op::write_progress: w.write_progress(arg % 2); break;
      case Op::sweep_begin: w.sweep_begin(); break;
      case Op::sweep_finish: w.sweep_finish(); break;
    }
    if (w.failed()) RC_FAIL(w.table.violations.front().describe() + "\ntrace:\n" + w.trace().tail());
  }

  void show(std::ostream& os) const override { os << kOpNames[static_cast<int>(op)] << "(" << arg << ")"; }
};

/// A small table: every actor present, faults on (the commands arm them).
SwarmConfig small_swarm(bool mor, bool layout2, std::uint32_t partitions) {
  SwarmConfig s;
  s.type = mor ? TableType::mor : TableType::cow;
  s.layout = layout2 ? TimelineLayout::v2 : TimelineLayout::v1;
  s.partitions = partitions;
  s.max_groups = 5;
  s.writers = 2;
  s.update_fanout = 2;
  s.insert_percent = 40;
  s.time_travel_percent = 50;
  s.compaction = mor;
  s.clustering = true;
  s.savepoints = true;
  s.max_savepoints = 2;
  s.cleaner = CleanerMode::async;
  s.archiver = true;
  s.archive_min_commits = 4;
  s.archive_max_commits = 6;
  s.faults.on = true;
  // A tight orphan sweep: the cutoff only outlasts the listing, so pending
  // instants and markers alone protect in-flight writes.
  s.sweeper.on = true;
  s.sweeper.listing_ms = 5 * kMinute;
  s.sweeper.cutoff_ms = 20 * kMinute;
  s.sweeper.tight = true;
  return s;
}

/// Runs one generated schedule against `policy` and the liveness phase,
/// with the archiver's library-gap bounds `gaps_off` turned off.
void run_schedule(const any_policy& policy, std::uint8_t gaps_off = 0) {
  const bool mor = *rc::gen::arbitrary<bool>();
  const bool layout2 = *rc::gen::arbitrary<bool>();
  const auto partitions = *rc::gen::inRange<std::uint32_t>(1, 3);
  SwarmConfig swarm = small_swarm(mor, layout2, partitions);
  swarm.archiver_gaps_off = gaps_off;
  World w(swarm, policy, Rng(1));
  // The end of the event trace goes into the failure message (a shrunk
  // schedule's trace is short).
  w.trace().keep_tail(200);
  // Up to a few hundred steps: cleaning needs some history to act on.
  const auto steps = *rc::gen::scale(4.0, rc::state::gen::commands(Model{}, rc::state::gen::execOneOfWithArgs<Step>()));
  rc::state::runAll(steps, Model{}, w);
  // How much a schedule exercised (shown as RapidCheck's distribution).
  const auto& st = w.table.stats;
  RC_TAG(st.commits == 0  ? "no commit"
         : st.commits < 5 ? "1-4 commits"
                          : "5+ commits",
         st.files_deleted == 0 ? "nothing cleaned" : "files cleaned");
  w.finish();
  if (w.failed()) RC_FAIL("liveness phase: " + w.table.violations.front().describe() + "\ntrace:\n" + w.trace().tail());
}

}  // namespace

TEST_CASE("random schedules of writers, readers, services and cleans hold every invariant") {
  lakegc::testing::rc_check("KEEP_LATEST_COMMITS, incremental", [] {
    const auto n = *rc::gen::inRange<std::uint32_t>(1, 5);
    run_schedule(any_policy(
        cleaning(keep_latest_commits{n}, guard::savepoints, guard::pending_table_services, scope::incremental)));
  });
  lakegc::testing::rc_check("KEEP_LATEST_FILE_VERSIONS with reader leases", [] {
    const auto k = *rc::gen::inRange<std::uint32_t>(1, 4);
    run_schedule(any_policy(cleaning(keep_latest_file_versions{k}, guard::savepoints, guard::pending_table_services,
                                     guard::reader_leases)));
  });
  lakegc::testing::rc_check("KEEP_LATEST_BY_HOURS, incremental", [] {
    const auto h = *rc::gen::inRange<std::uint32_t>(1, 3);
    run_schedule(
        any_policy(cleaning(keep_by_hours{h}, guard::savepoints, guard::pending_table_services, scope::incremental)));
  });
}

TEST_CASE("canary: a policy without the savepoint guard fails, with a shrunk schedule") {
  rc::detail::TestMetadata metadata;
  metadata.id = "canary no-savepoint-guard";
  metadata.description = metadata.id;
  lakegc::testing::pin_rapidcheck_seed();
  rc::detail::configuration();
  const auto result = rc::detail::checkTestable(
      [] { run_schedule(any_policy(cleaning(keep_latest_commits{1}, guard::pending_table_services, unguarded))); },
      metadata);
  REQUIRE(result.template is<rc::detail::FailureResult>());
  const auto failure = result.template get<rc::detail::FailureResult>();
  std::ostringstream os;
  rc::detail::printResultMessage(result, os);
  MESSAGE(os.str());
  CHECK(failure.description.find("I5 savepoints") != std::string::npos);
}

TEST_CASE("library gap (d): the schedule that found it fails without the archiver's bound and holds with it") {
  // RapidCheck seed 17482845876541130812 shrinks, under KEEP_LATEST_BY_HOURS
  // h=1, to: a clustering pending while a clean's boundary passes its
  // requested time, completing afterwards; Hudi's archiver then archives the
  // replacecommit with the replaced files still on storage (archiver.hpp,
  // gap (d)). Remove the bound, and this pin, once the library closes it.
  rc::detail::TestMetadata metadata;
  metadata.id = "KEEP_LATEST_BY_HOURS, incremental";
  metadata.description = metadata.id;
  rc::detail::TestParams params;
  params.seed = 17482845876541130812ULL;
  params.disableShrinking = true;
  auto property = [](std::uint8_t gaps_off) {
    return [gaps_off] {
      const auto h = *rc::gen::inRange<std::uint32_t>(1, 3);
      run_schedule(
          any_policy(cleaning(keep_by_hours{h}, guard::savepoints, guard::pending_table_services, scope::incremental)),
          gaps_off);
    };
  };
  const auto without = rc::detail::checkTestable(property(8), metadata, params);
  REQUIRE(without.template is<rc::detail::FailureResult>());
  const auto failure = without.template get<rc::detail::FailureResult>();
  CHECK(failure.description.find("I4 no loss") != std::string::npos);
  CHECK(failure.description.find("by archiver") != std::string::npos);
  const auto with = rc::detail::checkTestable(property(0), metadata, params);
  CHECK(with.template is<rc::detail::SuccessResult>());
}

}  // namespace lakegc::tests::schedule_state_test
