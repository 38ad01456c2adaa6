// The spec model behind I6 and the I2 check after a clean: they must
// accept a correct table and reject a damaged one.
#include <doctest/doctest.h>

#include <algorithm>

#include "lakegc/sim/checkers.hpp"
#include "sim_fixture.hpp"

namespace lakegc::tests::checkers_test {

using namespace lakegc;
using namespace lakegc::sim;
using namespace lakegc::sim::testing;
using lakegc::reference::convergence_model;  // tests/reference/convergence_model.hpp, behind I6
using lakegc::reference::KeptFiles;

namespace {
std::set<std::string> names(const std::set<std::string>& paths) {
  std::set<std::string> out;
  for (const auto& p : paths) out.insert(p.substr(p.rfind('/') + 1));
  return out;
}
CleanDecision boundary_at(int m) {
  CleanDecision d;
  d.retention.has_boundary = true;
  d.retention.ectr = minute(m);
  d.guards = GuardFlags{true, true, false};
  return d;
}
}  // namespace

TEST_CASE("the boundary model keeps the latest, the newest before the boundary and everything after it") {
  MiniTable t;
  std::vector<std::string> a;
  for (int m : {1, 2, 3, 4, 5}) {
    a.push_back(t.base("a", minute(m)));
    t.commit(m, {a.back()});
  }
  const TableMetadata md = t.md();
  const TableView v = load_view(t.storage, md).value();
  const auto policy = cleaning(keep_latest_commits{2}, guard::savepoints, guard::pending_table_services);
  const KeptFiles kept = convergence_model(v, boundary_at(4), policy, {});
  CHECK(names(kept.required) == std::set<std::string>{a[2], a[3], a[4]});
  CHECK(kept.allowed == kept.required);

  CleanDecision versions;
  versions.retention.versions = 2;
  CHECK(names(convergence_model(v, versions, policy, {}).required) == std::set<std::string>{a[3], a[4]});
}

TEST_CASE("a group replaced at or after the boundary may keep its old slices, not require them") {
  MiniTable t;
  const auto a1 = t.base("a", minute(1));
  t.commit(1, {a1});
  const auto a2 = t.base("a", minute(2));
  t.commit(2, {a2});
  const auto a3 = t.base("a", minute(3));
  t.commit(3, {a3});
  const auto b5 = t.base("b", minute(5));
  t.commit(5, {b5}, Action::replacecommit, {{"p", "a"}});
  const TableMetadata md = t.md();
  const TableView v = load_view(t.storage, md).value();
  const auto policy = cleaning(keep_latest_commits{2}, guard::savepoints, guard::pending_table_services);
  KeptFiles kept = convergence_model(v, boundary_at(3), policy, {});
  CHECK(names(kept.required) == std::set<std::string>{a2, a3, b5});
  CHECK(names(kept.allowed) == std::set<std::string>{a1, a2, a3, b5});
  // Once the replace is before the boundary, the group goes whole.
  kept = convergence_model(v, boundary_at(6), policy, {});
  CHECK(names(kept.required) == std::set<std::string>{b5});
}

TEST_CASE("the checks report a promised file that a clean deleted") {
  World w(quiet_swarm(), any_policy(cleaning(keep_latest_commits{1}, guard::savepoints, guard::pending_table_services)),
          Rng(5));
  for (int i = 0; i < 4; ++i) {
    w.advance(10 * kMinute);
    REQUIRE(w.write_begin(0));
    w.advance(1000);
    REQUIRE(w.write_finish(0));
  }
  w.advance(kMinute);
  w.clean();
  REQUIRE_FALSE(w.failed());
  // Pretend the clean had also deleted the latest snapshot's base file.
  auto md = w.table.load().value();
  const InstantTime latest = md.timeline.completed_commits().back()->requested;
  const auto files = resolve_snapshot(w.table.storage, md, latest).value();
  REQUIRE_FALSE(files.empty());
  const std::string victim = files.front().path();
  REQUIRE(w.table.storage.remove(victim).ok());
  const InstantTime clean = md.timeline.cleans().empty() ? latest : md.timeline.cleans().back()->requested;
  w.table.oracle.record_deletion(victim, Deletion{clean, w.table.oracle.promise_of(clean), 0});
  check_after_clean(w.table, {{clean, {{victim, files.front().size}}}});
  REQUIRE(w.failed());
  CHECK(w.table.violations.front().invariant == Invariant::I4_no_loss);
  CHECK(w.table.violations.front().file == victim);
}

}  // namespace lakegc::tests::checkers_test
