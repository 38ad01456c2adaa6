// Canary: the retention check of safety_test.cpp must be able to fail. The
// reference planner with the "keep the newest slice before the boundary"
// rule removed is the KEEP_LATEST_BY_HOURS of Hudi before 0.14.1 (issue
// 8584: long queries died on files the cleaner had just deleted). The same
// property run against it must find a counterexample; the test passes when
// it does. The reference with the rule in place is the control: it passes,
// so the failure is the rule's doing, not the harness's.
#include <doctest/doctest.h>

#include "../canary_check.hpp"
#include "properties.hpp"
#include "scenario.hpp"

namespace lakegc::tests::canary_test {

using namespace lakegc;
using namespace lakegc::testing;
using namespace lakegc::testing::prop;

namespace {

rc::detail::TestResult check_reference(bool canary) {
  auto property = [canary] {
    Case c = draw_case(/*guarded=*/false);
    RC_PRE(c.policy.rule != reference::Rule::keep_latest_file_versions);
    c.policy.drop_newest_before_boundary = canary;
    const Built b(c);
    const CleanPlan plan = reference::plan(b.view, b.md, c.policy, b.now_ms);
    if (auto bad = retention_violation(b.view, b.md, plan)) RC_FAIL(*bad);
  };
  return check_canary(canary ? "canary: issue 8584 planner" : "canary control", 8584, 300, property);
}

}  // namespace

TEST_CASE("canary: the retention property catches the planner of Hudi issue 8584") {
  const auto result = check_reference(/*canary=*/true);
  REQUIRE_MESSAGE(result.is<rc::detail::FailureResult>(),
                  "the retention check missed a planner that drops the "
                  "newest slice before the boundary");
  const auto failure = result.get<rc::detail::FailureResult>();
  CHECK(failure.description.find("retention broken") != std::string::npos);
  MESSAGE("caught after " << failure.numSuccess << " passing cases: " << failure.description);
}

TEST_CASE("canary control: the same property passes for the reference planner") {
  const auto result = check_reference(/*canary=*/false);
  std::ostringstream os;
  rc::detail::printResultMessage(result, os);
  CHECK_MESSAGE(result.is<rc::detail::SuccessResult>(), os.str());
}

}  // namespace lakegc::tests::canary_test
