// File: tests/property/canary_check.hpp
// -----------------------------------------------------------------------------
// Runs a property as a canary (or its control): with fixed parameters, so it
// is caught within a bounded number of cases, the same way every run,
// whatever RC_PARAMS says, and with a silent listener, so the expected
// failure does not reach RapidCheck's end-of-run "properties had failures"
// summary. The caller asserts on the result: a FailureResult for a canary,
// a SuccessResult for its control.
#pragma once

#include <cstdint>
#include <string>

#include <rapidcheck.h>

namespace lakegc::testing {

template <typename Testable>
rc::detail::TestResult check_canary(const std::string& id, std::uint64_t seed, int cases, Testable&& property) {
  rc::detail::TestMetadata metadata;
  metadata.id = id;
  metadata.description = id;
  rc::detail::TestParams params;
  params.seed = seed;
  params.maxSuccess = cases;
  params.maxSize = 100;
  params.maxDiscardRatio = 10;
  params.disableShrinking = true;  // only "caught or not" matters here
  struct Silent : rc::detail::TestListener {
    void onTestCaseFinished(const rc::detail::CaseDescription&) override {}
    void onShrinkTried(const rc::detail::CaseDescription&, bool) override {}
    void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}
  } silent;
  return rc::detail::checkTestable(std::forward<Testable>(property), metadata, params, silent);
}

}  // namespace lakegc::testing
