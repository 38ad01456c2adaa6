// File: tests/support/rc_doctest.hpp
// -----------------------------------------------------------------------------
// RapidCheck inside doctest. Debian 12's librapidcheck-dev predates upstream's
// extras/doctest adapter, so this is the small equivalent, modelled on the
// shipped rapidcheck/catch.h: run the property with an id (so RapidCheck
// prints a `RC_PARAMS="reproduce=..."` line that jumps straight to the
// minimal counterexample) and report a failure through doctest.
#pragma once

#include <cstdlib>
#include <sstream>
#include <string>

#include <doctest/doctest.h>
#include <rapidcheck.h>

namespace lakegc::testing {

/// Checks `property` with RapidCheck; a failure becomes a doctest failure
/// carrying the counterexample and the replay parameters.
/// RapidCheck draws a fresh random seed per process unless RC_PARAMS names
/// one, which would make the test command's verdict differ run to run. The
/// test command uses this fixed seed (added to whatever else RC_PARAMS
/// says, such as the suites' max_success); `RC_PARAMS=seed=N` explores
/// others, and a failure prints the `reproduce=` string that replays it.
inline constexpr const char* kDefaultRcSeed = "seed=20261201";

inline void pin_rapidcheck_seed() {
  const char* given = std::getenv("RC_PARAMS");
  const std::string params = given == nullptr ? std::string() : std::string(given);
  if (params.find("seed=") != std::string::npos || params.find("reproduce=") != std::string::npos) return;
  ::setenv("RC_PARAMS", (params.empty() ? std::string(kDefaultRcSeed) : params + " " + kDefaultRcSeed).c_str(), 1);
}

template <typename Testable>
void rc_check(const std::string& description, Testable&& property) {
  pin_rapidcheck_seed();
  rc::detail::TestMetadata metadata;
  metadata.id = description;
  metadata.description = description;
  rc::detail::configuration();  // load RC_PARAMS first, as rc::check does
  const auto result = rc::detail::checkTestable(std::forward<Testable>(property), metadata);
  if (result.template is<rc::detail::SuccessResult>()) {
    const auto success = result.template get<rc::detail::SuccessResult>();
    if (!success.distribution.empty()) {
      std::ostringstream os;
      rc::detail::printResultMessage(result, os);
      MESSAGE(os.str());
    }
    return;
  }
  std::ostringstream os;
  rc::detail::printResultMessage(result, os);
  const std::string message = description + "\n" + os.str();
  FAIL_CHECK(message);
}

}  // namespace lakegc::testing
