// libFuzzer target: the input bytes are a schedule.
//
// The first 24 bytes, hashed into a seed, draw the swarm configuration
// (table type, layout, partitions, services, faults, the policy and its
// knobs) as `lakegc-sim --seed` would; every following pair of bytes is one step: which actor acts (a
// writer begins or commits, a query starts or reads, a compaction or
// clustering is scheduled or completes, a savepoint is taken or dropped, the
// cleaner or archiver runs, a fault is armed, time passes, a write writes
// its next file, the orphan sweep takes its snapshot or lists and deletes)
// and its argument.
// So the fuzzer, not the PRNG, chooses the interleavings. Choices inside a
// step (which file groups a write touches, ...) come from a PRNG seeded by
// the input, so one input is one deterministic run.
//
// The invariants are the simulator's (I1-I8; I3 whenever the swarm draws
// the orphan sweeper):
// a violation prints the seedless replay (the input file) and aborts, which
// libFuzzer reports as a crash and the replay test as a failure.
//
// Build for real fuzzing with clang: meson setup -Dfuzzing_engine=libfuzzer
// (adds -fsanitize=fuzzer,address). With g++ the same file links with
// replay_main.cpp, which runs the seed corpus in the test command.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>

#include <fmt/format.h>

#include "lakegc/sim/report.hpp"
#include "lakegc/sim/world.hpp"

namespace {

using namespace lakegc::sim;

constexpr std::size_t kSwarmBytes = 24;
constexpr std::size_t kMaxSteps = 512;

std::uint64_t fnv1a(std::span<const std::uint8_t> bytes) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (std::uint8_t b : bytes) {
    h ^= b;
    h *= 0x100000001b3ULL;
  }
  return h;
}

void step(World& w, std::uint8_t op, std::uint8_t arg) {
  w.advance(1000);
  switch (op % 19) {
    case 0:
    case 1: w.write_begin(arg % 3); break;
    case 2:
    case 3: w.write_finish(arg % 3); break;
    case 4: w.reader_start((1 + arg) * kMinute); break;
    case 5: {
      const auto ids = w.readers.running_ids();
      if (!ids.empty()) w.reader_read(ids[arg % ids.size()], 1 + arg % 4);
      break;
    }
    case 6: w.compaction_schedule(); break;
    case 7: w.compaction_complete(); break;
    case 8: w.clustering_schedule(); break;
    case 9: w.clustering_complete(); break;
    case 10: (arg & 1) ? w.savepoint_take() : w.savepoint_remove(0); break;
    case 11:
    case 12: w.clean(); break;
    case 13: w.archive(); break;
    case 14: w.arm_fault(); break;
    case 15: w.advance(static_cast<std::int64_t>(arg) * kMinute); break;
    case 16: w.write_progress(arg % 3); break;
    case 17: w.sweep_begin(); break;
    default: w.sweep_finish(); break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> input(data, size);
  const auto header = input.first(std::min(size, kSwarmBytes));
  // The header is hashed into a seed, so every field of the swarm varies
  // with it. (Reading the header as raw PRNG output gave 3 draws of 8 bytes:
  // every later swarm field came out 0, i.e. the lowest of its range.)
  Rng swarm_rng(fnv1a(header));
  SwarmConfig swarm = draw_swarm(swarm_rng);
  swarm.max_groups = std::min<std::uint32_t>(swarm.max_groups, 8);  // small tables: deep schedules
  auto policy = policy_from_properties(policy_properties(swarm.policy));
  if (!policy.ok()) return 0;
  World w(swarm, *policy, Rng(fnv1a(input)));
  w.trace().keep_tail(40);  // a failure prints the events that led to it
  const auto body = size > kSwarmBytes ? input.subspan(kSwarmBytes) : std::span<const std::uint8_t>();
  for (std::size_t i = 0; i + 1 < body.size() && i / 2 < kMaxSteps && !w.failed(); i += 2)
    step(w, body[i], body[i + 1]);
  if (!w.failed()) w.finish();
  if (std::getenv("LAKEGC_FUZZ_VERBOSE") != nullptr) {  // corpus maintenance: what an input exercises
    fmt::print(stderr, "{}", format_stats(w.table.stats));
  }
  if (w.failed()) {
    fmt::print(stderr, "schedule_fuzzer: {}\npolicy: {}\n{}", w.table.violations.front().describe(), policy->label(),
               describe(swarm));
    fmt::print(stderr, "last events:\n{}", w.trace().tail());
    std::abort();
  }
  return 0;
}
