// Benchmark 5 of issue 7: the deterministic simulator at the default swarm.
//
//   sim/seeds:K    lakegc::sim::run_seed for seeds 1..K, as `lakegc-sim
//                  --seeds K` runs them (swarm drawn per seed, default event
//                  budget): events per second and seeds per minute
//
// One block of K seeds per iteration: seeds differ a lot in cost, so the
// same block every time is what makes runs comparable.
#include <benchmark/benchmark.h>

#include "common.hpp"
#include "lakegc/sim/simulation.hpp"

using namespace lakegc;
using namespace lakegc::bench;

namespace {

void BM_sim(benchmark::State& st, std::uint64_t seeds) {
  std::uint64_t events = 0, failed = 0;
  for (auto _ : st) {
    for (std::uint64_t s = 1; s <= seeds; ++s) {
      sim::RunOptions o;
      o.seed = s;
      auto r = sim::run_seed(o);
      if (!r.ok()) {
        st.SkipWithError(std::string(message_of(r.status())).c_str());
        return;
      }
      events += r->stats.events;
      failed += r->ok() ? 0 : 1;
    }
  }
  st.counters["events_per_second"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
  st.counters["seeds_per_minute"] =
      benchmark::Counter(60.0 * static_cast<double>(seeds), benchmark::Counter::kIsIterationInvariantRate);
  st.counters["events_per_seed"] = static_cast<double>(events) / static_cast<double>(seeds * st.iterations());
  st.counters["failed_seeds"] = static_cast<double>(failed);
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = take_args(argc, argv, {"seeds"});
  const std::uint64_t seeds = std::stoull(args.get("seeds", args.smoke ? "2" : "100"));
  auto* b = benchmark::RegisterBenchmark(fmt::format("sim/seeds:{}", seeds).c_str(), BM_sim, seeds);
  b->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);
  return run_registered(argc, argv);
}
