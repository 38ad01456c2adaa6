// Property: on random tables, plan_clean makes exactly the plan of the naive
// reference planner (tests/reference/reference_planner.hpp), field by field.
#include <doctest/doctest.h>

#include <sstream>

#include "scenario.hpp"

namespace lakegc::tests::reference_test {

using namespace lakegc;
using namespace lakegc::testing;
using namespace lakegc::testing::prop;

namespace {

// How often the generated cases reach each branch, so a generator that
// stops producing interesting tables fails a test instead of making the
// property pass vacuously.
struct Coverage {
  int cases = 0;
  int with_work = 0;
  int replaced_deleted = 0;
  int partition_deleted = 0;
  int incremental = 0;
  int incremental_subset = 0;
  int fallback = 0;
  int empty_clean = 0;
  int pending_compaction = 0;
  int savepoints = 0;
  int compaction_over_history = 0;  // a pending compaction with older slices below it
};

std::ostream& operator<<(std::ostream& os, const Coverage& c) {
  return os << "cases=" << c.cases << " with work=" << c.with_work << " replaced groups deleted=" << c.replaced_deleted
            << " partitions deleted=" << c.partition_deleted << " incremental=" << c.incremental << " (narrowed "
            << c.incremental_subset << ") fallbacks=" << c.fallback << " empty cleans=" << c.empty_clean
            << " pending compactions=" << c.pending_compaction << " savepoints=" << c.savepoints
            << " compactions over older slices=" << c.compaction_over_history;
}

/// The property; tallies what each passing case exercised into `cov`.
auto matches_reference(Coverage& cov) {
  return [&cov] {
    const Case c = draw_case(/*guarded=*/false);
    const Built b(c);
    CleanScope scope;
    const CleanPlan lib = library_plan(b.view, b.md, c.policy, b.now_ms, &scope);
    const CleanPlan ref = reference::plan(b.view, b.md, c.policy, b.now_ms);
    if (!(lib == ref)) {
      RC_FAIL("plans differ\nlibrary:\n" + describe(lib) + "reference:\n" + describe(ref) + "table:\n" +
              describe(b.md, b.view));
    }
    ++cov.cases;
    cov.with_work += lib.has_work();
    cov.partition_deleted += !lib.partitions_to_be_deleted.empty();
    cov.empty_clean += lib.empty_clean;
    cov.incremental += scope.kind == ScanKind::incremental;
    cov.incremental_subset += scope.kind == ScanKind::incremental && !scope.partitions.empty() &&
                              scope.partitions.size() < b.view.partitions().size();
    cov.fallback += !scope.fallback_reason.empty();
    cov.pending_compaction += !b.md.pending_compactions.empty();
    cov.savepoints += !b.md.savepoints.empty();
    bool replaced = false;
    for (const auto& [p, files] : lib.files_per_partition) {
      for (const auto& f : files) replaced = replaced || f.reason == DeleteReason::replaced_group;
    }
    cov.replaced_deleted += replaced;
    bool history = false;
    for (const FileGroup& g : b.view.groups()) {
      const auto slices = b.view.slices_of(g);
      history = history || (g.pending_compaction_base && slices.back().base_instant < *g.pending_compaction_base);
    }
    cov.compaction_over_history += history;
  };
}

}  // namespace

TEST_CASE("property: plan_clean equals the reference planner") {
  Coverage cov;
  rc_check("plan_clean == reference::plan", matches_reference(cov));
  MESSAGE(cov);
}

TEST_CASE("the generated tables reach every branch of the planner") {
  // A fixed seed, so the tally is the same on every run: it checks the
  // generator, and the comparison runs on 300 more cases meanwhile.
  Coverage cov;
  rc::detail::TestMetadata metadata;
  metadata.id = "plan_clean == reference::plan (coverage run)";
  metadata.description = metadata.id;
  rc::detail::TestParams params;
  params.seed = 20240601;
  params.maxSuccess = 300;
  const auto result = rc::detail::checkTestable(matches_reference(cov), metadata, params);
  std::ostringstream os;
  rc::detail::printResultMessage(result, os);
  REQUIRE_MESSAGE(result.is<rc::detail::SuccessResult>(), os.str());
  INFO(cov);
  CHECK(cov.cases == 300);
  CHECK(cov.with_work * 4 >= cov.cases);
  CHECK(cov.replaced_deleted * 10 >= cov.cases);
  CHECK(cov.partition_deleted >= 5);
  CHECK(cov.incremental * 20 >= cov.cases);
  CHECK(cov.incremental_subset >= 5);
  CHECK(cov.fallback * 10 >= cov.cases);
  CHECK(cov.empty_clean >= 5);
  CHECK(cov.pending_compaction * 10 >= cov.cases);
  CHECK(cov.savepoints * 10 >= cov.cases);
  CHECK(cov.compaction_over_history >= 10);
}

}  // namespace lakegc::tests::reference_test
