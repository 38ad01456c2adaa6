#include <doctest/doctest.h>

#include "../clean/clean_fixture.hpp"
#include "lakegc/exec/prewrite.hpp"
#include "lakegc/exec/rollback_executor.hpp"

namespace lakegc::tests::rollback_test {

using namespace lakegc;
using namespace lakegc::testing;

namespace {
const Slot kA{"p", "fa-0"};

struct Pending {
  InstantTime instant;
  CommitInfo info;
};

Pending start_write(TestTable& t, const Slot& s, bool markers = true) {
  Pending p;
  p.instant = t.begin_commit({s}, &p.info);
  if (markers) {
    for (const auto& f : p.info.files) REQUIRE(t.journal.add_marker(p.instant, f.owned()).ok());
  }
  return p;
}
}  // namespace

TEST_CASE("EAGER rolls back every other pending write; compactions are never candidates") {
  TestTable t;
  const InstantTime c = t.commit({kA});
  const Pending a = start_write(t, Slot{"p", "fb-0"});
  t.schedule_compaction({kA}, {c});
  const Pending b = start_write(t, Slot{"p", "fc-0"});
  RollbackOptions opts;
  opts.current_write = b.instant;
  const RollbackPlan plan = plan_rollback(t.md(), opts, t.now);
  REQUIRE(plan.rollbacks.size() == 1);
  CHECK(plan.rollbacks[0].instant == a.instant);
  CHECK(plan.rollbacks[0].files == a.info.files);
  auto out = execute_rollback(t.storage, t.journal, plan);
  REQUIRE(out.ok());
  CHECK(out->files_deleted == 1);
  CHECK_FALSE(t.exists("p", a.info.files[0].name));
  CHECK(t.exists("p", b.info.files[0].name));
  CHECK(t.md().timeline.find(a.instant) == nullptr);
}

TEST_CASE("LAZY rolls back only writes whose heartbeat expired; no heartbeat counts as expired") {
  TestTable t;
  t.commit({kA});
  const Pending alive = start_write(t, Slot{"p", "fb-0"});
  const Pending dead = start_write(t, Slot{"p", "fc-0"});
  const Pending silent = start_write(t, Slot{"p", "fd-0"});
  REQUIRE(t.journal.heartbeat(alive.instant, t.now).ok());
  REQUIRE(t.journal.heartbeat(dead.instant, t.now - 121'000).ok());
  RollbackOptions opts;
  opts.policy = FailedWritesPolicy::lazy;
  const RollbackPlan plan = plan_rollback(t.md(), opts, t.now);
  REQUIRE(plan.rollbacks.size() == 2);
  CHECK(plan.rollbacks[0].instant == silent.instant);  // newest first
  CHECK(plan.rollbacks[0].reason == "no heartbeat");
  CHECK(plan.rollbacks[1].instant == dead.instant);
  CHECK(plan.alive == std::vector<InstantTime>{alive.instant});
  // 120 s exactly is still alive (expired means strictly more than interval x misses).
  REQUIRE(t.journal.heartbeat(dead.instant, t.now - 120'000).ok());
  CHECK(plan_rollback(t.md(), opts, t.now).rollbacks.size() == 1);
}

TEST_CASE("NEVER rolls back nothing") {
  TestTable t;
  start_write(t, kA);
  RollbackOptions opts;
  opts.policy = FailedWritesPolicy::never;
  CHECK(plan_rollback(t.md(), opts, t.now).rollbacks.empty());
}

TEST_CASE("without markers the view's uncommitted files of that instant are used") {
  TestTable t;
  t.commit({kA});
  const Pending p = start_write(t, Slot{"p", "fb-0"}, /*markers=*/false);
  const TableMetadata md = t.md();
  const TableView view = load_view(t.storage, md).value();
  const RollbackPlan plan = plan_rollback(md, {}, t.now, &view);
  REQUIRE(plan.rollbacks.size() == 1);
  REQUIRE(plan.rollbacks[0].files.size() == 1);
  CHECK(plan.rollbacks[0].files[0].name == p.info.files[0].name);
}

TEST_CASE("layout-1 logs appended by a failed deltacommit are kept, not deleted") {
  TestTable t(TimelineLayout::v1);
  const InstantTime base = t.commit({kA}, Action::deltacommit);
  const InstantTime failed = t.tick();
  REQUIRE(t.journal.begin(failed, Action::deltacommit).ok());
  REQUIRE(t.journal.set_inflight(failed).ok());
  const WrittenFile log{"p", t.log_name("fa-0", base), 10};
  REQUIRE(t.storage.put_sized(join_path("p", log.name), 10).ok());
  REQUIRE(t.journal.add_marker(failed, log).ok());
  const RollbackPlan plan = plan_rollback(t.md(), {}, t.now);
  REQUIRE(plan.rollbacks.size() == 1);
  CHECK(plan.rollbacks[0].files.empty());
  CHECK(plan.rollbacks[0].kept_files.size() == 1);
}

TEST_CASE("a layout-1 log file named with the failed instant began a group of that write: deleted") {
  TestTable t(TimelineLayout::v1);
  t.commit({kA}, Action::deltacommit);
  const InstantTime failed = t.tick();
  REQUIRE(t.journal.begin(failed, Action::deltacommit).ok());
  REQUIRE(t.journal.set_inflight(failed).ok());
  const WrittenFile log{"p", t.log_name("fn-0", failed), 10};
  REQUIRE(t.storage.put_sized(join_path("p", log.name), 10).ok());
  REQUIRE(t.journal.add_marker(failed, log).ok());
  const RollbackPlan plan = plan_rollback(t.md(), {}, t.now);
  REQUIRE(plan.rollbacks.size() == 1);
  REQUIRE(plan.rollbacks[0].files.size() == 1);
  CHECK(plan.rollbacks[0].files[0].name == log.name);
  CHECK(plan.rollbacks[0].kept_files.empty());
}

TEST_CASE("a rollback interrupted after its deletes is finished by the next run") {
  TestTable t;
  t.commit({kA});
  const Pending a = start_write(t, Slot{"p", "fb-0"});
  RollbackPlan plan = plan_rollback(t.md(), {}, t.now);
  REQUIRE(t.storage.remove(join_path("p", a.info.files[0].name)).ok());  // deletes happened, then a crash
  plan = plan_rollback(t.md(), {}, t.now);
  auto out = execute_rollback(t.storage, t.journal, plan);
  REQUIRE(out.ok());
  CHECK(out->files_already_gone == 1);
  CHECK(out->instants_rolled_back == 1);
}

TEST_CASE("write maintenance settings: Hudi's defaults, every key, and bad values naming the key") {
  auto defaults = config::write_maintenance_from_properties({});
  REQUIRE(defaults.ok());
  CHECK(defaults->prewrite == PrewritePolicy::none);
  CHECK(defaults->rollback.policy == FailedWritesPolicy::eager);
  CHECK(defaults->rollback.heartbeat_interval_ms == 60'000);
  CHECK(defaults->rollback.tolerable_misses == 2);

  auto set = config::write_maintenance_from_properties({{"hoodie.cleaner.policy.failed.writes", "LAZY"},
                                                        {"hoodie.client.heartbeat.interval_in_ms", "5000"},
                                                        {"hoodie.client.heartbeat.tolerable.misses", "0"},
                                                        {"hoodie.prewrite.cleaner.policy", "ROLLBACK_FAILED_WRITES"}});
  REQUIRE(set.ok());
  CHECK(set->rollback.policy == FailedWritesPolicy::lazy);
  CHECK(set->rollback.heartbeat_interval_ms == 5000);
  CHECK(set->rollback.tolerable_misses == 0);
  CHECK(set->prewrite == PrewritePolicy::rollback_failed_writes);

  for (const auto& [key, value] :
       std::vector<std::pair<std::string, std::string>>{{"hoodie.clean.failed.writes.policy", "SOMETIMES"},
                                                        {"hoodie.client.heartbeat.interval_in_ms", "0"},
                                                        {"hoodie.client.heartbeat.tolerable.misses", "-1"},
                                                        {"hoodie.prewrite.cleaner.policy", "clean"}}) {
    auto bad = config::write_maintenance_from_properties({{key, value}});
    REQUIRE_FALSE(bad.ok());
    CHECK_MESSAGE(std::string(message_of(bad.status())).starts_with(key + "=" + value), message_of(bad.status()));
  }
}

TEST_CASE("before_write: EAGER rolls back other pending writes whatever the pre-write policy") {
  TestTable t;
  t.commit({kA});
  const Pending failed = start_write(t, Slot{"p", "fb-0"});
  const Pending starting = start_write(t, Slot{"p", "fc-0"});
  WriteMaintenance settings;  // EAGER, pre-write NONE
  auto r = before_write(t.storage, t.journal, default_cleaning(), settings, starting.instant, CleanContext{t.now, {}});
  REQUIRE(r.ok());
  CHECK(r->rollback.instants_rolled_back == 1);
  CHECK_FALSE(t.exists("p", failed.info.files[0].name));
  CHECK(t.exists("p", starting.info.files[0].name));
  CHECK_FALSE(r->clean.has_value());
}

TEST_CASE("before_write: LAZY rolls back expired writes only when the pre-write policy asks; CLEAN also cleans") {
  auto run = [](PrewritePolicy prewrite) {
    TestTable t;
    for (int i = 0; i < 4; ++i) t.commit({kA});
    const Pending expired = start_write(t, Slot{"p", "fb-0"});
    const Pending alive = start_write(t, Slot{"p", "fd-0"});
    const Pending starting = start_write(t, Slot{"p", "fc-0"});
    REQUIRE(t.journal.heartbeat(alive.instant, t.now).ok());  // beating now
    WriteMaintenance settings;
    settings.rollback.policy = FailedWritesPolicy::lazy;
    settings.prewrite = prewrite;
    auto policy = cleaning(keep_latest_commits{1}, guard::savepoints, guard::pending_table_services);
    auto r = before_write(t.storage, t.journal, policy, settings, starting.instant, CleanContext{t.now, {}});
    REQUIRE(r.ok());
    CHECK(t.exists("p", alive.info.files[0].name));
    CHECK(t.exists("p", starting.info.files[0].name));
    return std::tuple{r->rollback.instants_rolled_back, t.exists("p", expired.info.files[0].name),
                      r->clean ? r->clean->files_deleted() : 0};
  };
  CHECK(run(PrewritePolicy::none) == std::tuple{std::uint64_t{0}, true, std::uint64_t{0}});
  CHECK(run(PrewritePolicy::rollback_failed_writes) == std::tuple{std::uint64_t{1}, false, std::uint64_t{0}});
  // CLEAN: rollback, then a clean. Pending writes hold the boundary at the
  // earliest of them, so KEEP_LATEST_COMMITS=1 still deletes the two
  // oldest of the four committed slices.
  CHECK(run(PrewritePolicy::clean) == std::tuple{std::uint64_t{1}, false, std::uint64_t{2}});
}

TEST_CASE("issue 11: rollback of an instant that is only requested deletes nothing") {
  TestTable t;
  t.commit({kA});
  // Requested, never started: it wrote nothing. A file that carries its
  // instant time (copied in by hand, or another writer's) is not its own.
  const InstantTime requested = t.tick();
  REQUIRE(t.journal.begin(requested, Action::commit).ok());
  const std::string stray = fmt::format("fs-0_0-1-1_{}.parquet", requested);
  REQUIRE(t.storage.put_sized(join_path("p", stray), 10).ok());
  REQUIRE(t.journal.add_marker(requested, {"p", stray, 10}).ok());
  const TableMetadata md = t.md();
  const TableView view = load_view(t.storage, md).value();
  const RollbackPlan plan = plan_rollback(md, {}, t.now, &view);
  REQUIRE(plan.rollbacks.size() == 1);
  CHECK(plan.rollbacks[0].files.empty());
  auto out = execute_rollback(t.storage, t.journal, plan);
  REQUIRE(out.ok());
  CHECK(t.exists("p", stray));
  CHECK(out->instants_rolled_back == 1);
  // Inflight without markers: the fallback to the view's files of that
  // instant applies.
  CommitInfo info;
  const InstantTime inflight = t.begin_commit({Slot{"p", "fi-0"}}, &info);
  const TableMetadata md2 = t.md();
  const TableView view2 = load_view(t.storage, md2).value();
  const RollbackPlan plan2 = plan_rollback(md2, {}, t.now, &view2);
  REQUIRE(plan2.rollbacks.size() == 1);
  CHECK(plan2.rollbacks[0].instant == inflight);
  REQUIRE(plan2.rollbacks[0].files.size() == 1);
  CHECK(plan2.rollbacks[0].files[0].name == info.files[0].name);
}

TEST_CASE("issue 11: a multi-writer concurrency mode forces LAZY failed-write rollback") {
  for (const std::string mode :
       {"OPTIMISTIC_CONCURRENCY_CONTROL", "NON_BLOCKING_CONCURRENCY_CONTROL", "optimistic_concurrency_control"}) {
    for (const std::string policy : {"EAGER", "NEVER", "LAZY"}) {
      CAPTURE(mode);
      CAPTURE(policy);
      auto s = config::write_maintenance_from_properties(
          {{"hoodie.write.concurrency.mode", mode}, {"hoodie.clean.failed.writes.policy", policy}});
      REQUIRE(s.ok());
      CHECK(s->rollback.policy == FailedWritesPolicy::lazy);
      CHECK(s->failed_writes_policy() == FailedWritesPolicy::lazy);
    }
  }
  auto single = config::write_maintenance_from_properties({{"hoodie.write.concurrency.mode", "SINGLE_WRITER"}});
  REQUIRE(single.ok());
  CHECK(single->rollback.policy == FailedWritesPolicy::eager);
  auto bad = config::write_maintenance_from_properties({{"hoodie.write.concurrency.mode", "MANY"}});
  REQUIRE_FALSE(bad.ok());
  CHECK(std::string(message_of(bad.status())).starts_with("hoodie.write.concurrency.mode=MANY"));

  // before_write under OCC with EAGER asked for in code: another writer's
  // running commit (heartbeat alive) is not rolled back.
  TestTable t;
  t.commit({kA});
  const Pending other = start_write(t, Slot{"p", "fo-0"});
  const Pending starting = start_write(t, Slot{"p", "fc-0"});
  REQUIRE(t.journal.heartbeat(other.instant, t.now).ok());
  WriteMaintenance settings;
  settings.rollback.policy = FailedWritesPolicy::eager;
  settings.concurrency = ConcurrencyMode::optimistic;
  settings.prewrite = PrewritePolicy::rollback_failed_writes;
  auto r = before_write(t.storage, t.journal, default_cleaning(), settings, starting.instant, CleanContext{t.now, {}});
  REQUIRE(r.ok());
  CHECK(r->rollback.instants_rolled_back == 0);
  CHECK(t.exists("p", other.info.files[0].name));
}

}  // namespace lakegc::tests::rollback_test
