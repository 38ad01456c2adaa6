// File: lakegc/sim/verify.hpp
// -----------------------------------------------------------------------------
// lakegc::sim::verify: property-based verification of a cleaning policy a user
// composed (with lakegc::cleaning, their own retention rule or guard, or
// any type modelling CleaningPolicy). It runs the deterministic simulator
// over many seeds against that policy -- concurrent writers, long readers,
// compaction, clustering, savepoints, archival and injected faults -- and
// returns the first counterexample: the seed, the swarm it drew, and the
// first violated invariant with its file, instant and actor.
//
//     auto policy = lakegc::cleaning(lakegc::keep_latest_commits{5},
//                                    lakegc::guard::savepoints,
//                                    lakegc::guard::pending_table_services,
//                                    my_guard{});
//     lakegc::sim::VerifyOptions options;
//     options.seeds = 200;
//     auto result = lakegc::sim::verify(policy, options);
//     if (!result.ok()) fmt::print("{}", result.counterexample->report);
//
// A counterexample replays exactly: pass its seed as `first_seed` with
// `seeds = 1` and a `trace` sink to see every event.
//
// In a Meson project: dependency('lakegc-sim') (the simulator's headers,
// with the library's and the convergence model's); installed, pkg-config
// lakegc-sim.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "lakegc/sim/report.hpp"
#include "lakegc/sim/simulation.hpp"

namespace lakegc::sim {

struct VerifyOptions {
  std::uint64_t seeds = 100;
  std::uint64_t first_seed = 1;
  /// Event budget of one run's safety phase.
  std::uint64_t max_events = 200'000;
  /// Adjusts each drawn swarm configuration (e.g. only MOR tables).
  std::function<void(SwarmConfig&)> swarm;
  /// Receives every trace line (replaying one seed).
  std::function<void(std::string_view)> trace;
};

struct Counterexample {
  std::uint64_t seed = 0;
  SwarmConfig swarm;
  Violation violation;
  /// The whole failure report (seed, swarm, violation, how to replay).
  std::string report;
};

struct VerifyResult {
  std::uint64_t seeds_run = 0;
  std::optional<Counterexample> counterexample;
  /// Query outcomes and storage over every run (for "X% of queries fail").
  SweepSummary summary;
  bool ok() const noexcept { return !counterexample.has_value(); }
};

template <CleaningPolicy P>
VerifyResult verify(const P& policy, const VerifyOptions& options = {}) {
  VerifyResult out;
  const any_policy erased(policy, "user policy " + std::string(policy.name()));
  for (std::uint64_t seed = options.first_seed; seed < options.first_seed + options.seeds; ++seed) {
    RunOptions ro;
    ro.seed = seed;
    ro.custom_policy = erased;
    ro.adjust_swarm = options.swarm;
    ro.max_events = options.max_events;
    ro.trace_sink = options.trace;
    auto r = run_seed(ro);
    if (!r.ok()) continue;  // only a bad --policy fails here, and there is none
    ++out.seeds_run;
    out.summary.add(*r);
    if (!r->ok()) {
      Counterexample c;
      c.seed = seed;
      c.swarm = r->swarm;
      c.violation = r->violations.front();
      c.report = format_failure(
          *r, fmt::format("lakegc::sim::verify(policy, options) with options.first_seed = {}, options.seeds = 1 and "
                          "options.trace set",
                          seed));
      out.counterexample = std::move(c);
      break;
    }
  }
  return out;
}

}  // namespace lakegc::sim
