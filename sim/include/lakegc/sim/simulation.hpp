// File: lakegc/sim/simulation.hpp
// -----------------------------------------------------------------------------
// run_seed: one deterministic run. The seed is expanded (splitmix64) into
// two streams: one draws the swarm configuration, the other drives the
// world, so the swarm does not shift when the workload does. The event loop
// then runs every actor at its swarm cadence in virtual time until the
// swarm's duration (or the event budget) is spent, and the World's liveness
// phase closes the run.
//
// Replaying a seed replays the run exactly: same swarm, same events in the
// same order, same trace hash (I9).
#pragma once

#include <cstdint>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "lakegc/sim/canaries.hpp"
#include "lakegc/sim/scheduler.hpp"
#include "lakegc/sim/world.hpp"

namespace lakegc::sim {

struct RunOptions {
  std::uint64_t seed = 1;
  /// Replace the swarm's policy by a canary (known unsafe).
  Canary canary = Canary::none;
  /// Replace the swarm's policy (`--policy`, hoodie.* properties).
  std::optional<config::Properties> policy;
  /// Replace the swarm's policy by a user-composed one (lakegc::sim::verify).
  std::optional<any_policy> custom_policy;
  /// Adjusts each drawn swarm (e.g. force MOR tables).
  std::function<void(SwarmConfig&)> adjust_swarm;
  /// Every trace line goes here when set (`--trace`).
  Trace::Sink trace_sink;
  /// Stop the safety phase after this many events.
  std::uint64_t max_events = 200'000;
  /// Resolve every snapshot the oracle serves from its cache again and
  /// report a difference (tests of the cache; slower).
  bool verify_oracle_cache = false;
};

struct RunResult {
  std::uint64_t seed = 0;
  SwarmConfig swarm;
  std::string policy_label;
  /// The row of sweep summaries: the rule family, or the label of a
  /// user-composed policy.
  std::string family;
  std::vector<Violation> violations;
  RunStats stats;
  std::uint64_t trace_hash = 0;
  bool ok() const noexcept { return violations.empty(); }
};

/// The two streams of a seed.
inline std::pair<std::uint64_t, std::uint64_t> split_seed(std::uint64_t seed) {
  std::uint64_t s = seed;
  const std::uint64_t a = splitmix64(s);
  const std::uint64_t b = splitmix64(s);
  return {a, b};
}

/// The policy a run tests, and its family for summaries.
[[nodiscard]] inline StatusOr<std::pair<any_policy, std::string>> policy_for(const RunOptions& o,
                                                                             const SwarmConfig& swarm) {
  if (o.custom_policy) return std::pair{*o.custom_policy, o.custom_policy->label()};
  if (o.canary != Canary::none && !keeps_swarm_policy(o.canary)) {
    return std::pair{make_canary_policy(o.canary, swarm.policy.commits, swarm.policy.hours),
                     fmt::format("canary {}", to_string(o.canary))};
  }
  const config::Properties props = o.policy ? *o.policy : policy_properties(swarm.policy);
  LAKEGC_ASSIGN_OR_RETURN(any_policy p, policy_from_properties(props));
  if (keeps_swarm_policy(o.canary)) {  // the swarm's policy; the sweep or rollback is the canary
    any_policy q = p.relabeled(fmt::format("{} + canary {}", p.label(), to_string(o.canary)));
    return std::pair{std::move(q), fmt::format("canary {}", to_string(o.canary))};
  }
  std::string family = o.policy ? p.label() : p.name();
  return std::pair{std::move(p), std::move(family)};
}

/// The cleaner's settings Hudi's archiver would read (hoodie.clean.*) for
/// the run's policy; none for a user-composed one.
inline std::optional<ArchiveSettings> archive_settings_for(const RunOptions& o, const SwarmConfig& swarm) {
  if (o.custom_policy) return std::nullopt;
  config::Properties props = o.policy ? *o.policy : policy_properties(swarm.policy);
  if (o.canary != Canary::none && !keeps_swarm_policy(o.canary)) {
    PolicyKnobs k = swarm.policy;
    k.rule = o.canary == Canary::hours_8584 ? RuleKind::hours : RuleKind::commits;
    props = policy_properties(k);
  }
  auto s = config::archive_from_properties(props);
  if (!s.ok()) return std::nullopt;
  return *s;
}

namespace detail {

// Schedules every actor of `w` on `s` at the swarm's cadences.
class Driver {
 public:
  Driver(World& w, Scheduler& s, std::int64_t end_ms) : w_(w), s_(s), sw_(w.table.swarm), end_ms_(end_ms) {}

  void start() {
    if (sw_.cadence && !sw_.cadence->empty()) {
      // A replayed cadence: its commits, from a commit this seed picks.
      next_commit_ = rng().index(sw_.cadence->size());
      w_.table.event("world", "replaying {} from commit {}", sw_.cadence->source, next_commit_);
      s_.after(sw_.cadence->gaps_ms[next_commit_], [this] { replayed_write(); });
    } else {
      for (std::size_t i = 0; i < w_.writers.count(); ++i) {
        s_.after(static_cast<std::int64_t>(rng().uniform(0, static_cast<std::uint64_t>(sw_.write_interval_ms))),
                 [this, i] { write_begin(i); });
      }
    }
    s_.after(jitter(sw_.reader_interval_ms), [this] { reader_arrives(); });
    if (sw_.compaction) s_.after(jitter(sw_.compaction_interval_ms), [this] { compaction(); });
    if (sw_.clustering) s_.after(jitter(sw_.clustering_interval_ms), [this] { clustering(); });
    if (sw_.savepoints) s_.after(jitter(sw_.savepoint_interval_ms), [this] { savepoint(); });
    if (sw_.indexing) s_.after(jitter(sw_.indexing_interval_ms), [this] { indexing(); });
    if (sw_.cleaner == CleanerMode::async) s_.after(jitter(sw_.clean_interval_ms), [this] { clean(); });
    if (sw_.archiver) s_.after(jitter(sw_.archive_interval_ms), [this] { archive(); });
    if (sw_.faults.on) s_.after(jitter(sw_.faults.interval_ms), [this] { fault(); });
    if (sw_.sweeper.on) s_.after(jitter(sw_.sweeper.interval_ms), [this] { sweep(); });
    if (sw_.ttl.on) {
      s_.after(jitter(sw_.ttl.interval_ms), [this] { ttl(); });
      // Services the history left pending complete in the run.
      if (w_.compactor.pending()) s_.after(jitter(sw_.compaction_duration_ms), [this] { compaction_end(); });
      if (w_.clusterer.pending()) s_.after(jitter(sw_.clustering_duration_ms), [this] { clustering_end(); });
    }
  }

 private:
  Rng& rng() { return w_.rng(); }
  // Uniform in [mean/2, 3*mean/2]: cadences wander, so actors interleave
  // differently from seed to seed.
  std::int64_t jitter(std::int64_t mean) {
    const std::int64_t m = std::max<std::int64_t>(mean, 2);
    return rng().uniform_i64(m / 2, m + m / 2);
  }
  bool open() const { return s_.now() < end_ms_; }

  void write_begin(std::size_t i) {
    if (!open()) return;
    if (w_.write_begin(i)) {
      const std::int64_t d = rng().uniform_i64(1000, std::max<std::int64_t>(sw_.write_duration_ms, 1000));
      write_progress(i, d);
      s_.after(d, [this, i] { write_end(i); });
    } else {
      s_.after(jitter(sw_.write_interval_ms), [this, i] { write_begin(i); });
    }
  }
  // Progress steps spread writer i's other files over the write's duration
  // `d` and refresh its heartbeat (one more step per 10 minutes, at most 8).
  void write_progress(std::size_t i, std::int64_t d) {
    const std::int64_t n =
        std::min<std::int64_t>(static_cast<std::int64_t>(w_.writers.remaining(i)) + d / (10 * kMinute), 8);
    for (std::int64_t j = 1; j <= n; ++j) s_.after(d * j / (n + 1), [this, i] { w_.write_progress(i); });
  }
  void write_end(std::size_t i) {
    w_.write_finish(i);
    s_.after(jitter(sw_.write_interval_ms), [this, i] { write_begin(i); });
  }
  // The next commit of the replayed cadence: an idle writer begins it and
  // finishes it its duration later; the commit after it begins its gap
  // later. With every writer busy the commit is skipped (counted).
  void replayed_write() {
    if (!open()) return;
    const CommitCadence& c = *sw_.cadence;
    const std::size_t k = next_commit_;
    next_commit_ = (k + 1) % c.size();
    std::size_t i = 0;
    while (i < w_.writers.count() && w_.writers.busy(i)) ++i;
    if (i == w_.writers.count()) {
      ++w_.table.stats.cadence_skipped;
      w_.table.event("world", "replayed commit {} skipped: every writer is busy", k);
    } else if (w_.write_begin(i)) {
      write_progress(i, c.durations_ms[k]);
      s_.after(c.durations_ms[k], [this, i] { w_.write_finish(i); });
    }
    s_.after(c.gaps_ms[next_commit_], [this] { replayed_write(); });
  }
  void reader_arrives() {
    if (!open()) return;
    const std::int64_t longest = std::max<std::int64_t>(sw_.query_max_ms, 60'000);
    const bool at_max = sw_.query_at_max_percent > 0 && rng().chance(sw_.query_at_max_percent, 100);
    const std::int64_t duration = at_max ? longest : rng().uniform_i64(30'000, longest);
    if (auto id = w_.reader_start(duration)) {
      const std::size_t files = w_.readers.files_of(*id);
      const std::size_t steps = std::clamp<std::size_t>(files, 1, 4);
      const std::size_t per = (files + steps - 1) / steps;
      for (std::size_t k = 1; k <= steps; ++k) {
        const std::int64_t at = duration * static_cast<std::int64_t>(k) / static_cast<std::int64_t>(steps);
        const bool last = k == steps;
        s_.after(at, [this, id = *id, per, last] { reader_read(id, last ? SIZE_MAX : per, last); });
      }
    }
    s_.after(jitter(sw_.reader_interval_ms), [this] { reader_arrives(); });
  }
  void reader_read(std::uint64_t id, std::size_t n, bool last) {
    // The last step reads whatever is left; if an injected failure stopped
    // it, it retries a minute later.
    if (w_.reader_read(id, n) && last) s_.after(kMinute, [this, id, n] { reader_read(id, n, true); });
  }
  void compaction() {
    if (!open()) return;
    if (w_.compaction_schedule()) {
      s_.after(rng().uniform_i64(kMinute, std::max(sw_.compaction_duration_ms, kMinute)), [this] { compaction_end(); });
    }
    s_.after(jitter(sw_.compaction_interval_ms), [this] { compaction(); });
  }
  void compaction_end() {
    if (!w_.compaction_complete() && w_.compactor.pending()) s_.after(kMinute, [this] { compaction_end(); });
  }
  void clustering() {
    if (!open()) return;
    if (w_.clustering_schedule()) {
      s_.after(rng().uniform_i64(kMinute, std::max(sw_.clustering_duration_ms, kMinute)), [this] { clustering_end(); });
    }
    s_.after(jitter(sw_.clustering_interval_ms), [this] { clustering(); });
  }
  void clustering_end() {
    if (!w_.clustering_complete() && w_.clusterer.pending()) s_.after(kMinute, [this] { clustering_end(); });
  }
  void savepoint() {
    if (!open()) return;
    w_.savepoint_remove(sw_.savepoint_lifetime_ms);
    w_.savepoint_take();
    s_.after(jitter(sw_.savepoint_interval_ms), [this] { savepoint(); });
  }
  void indexing() {
    if (!open()) return;
    w_.index_build();
    s_.after(jitter(sw_.indexing_interval_ms), [this] { indexing(); });
  }
  void clean() {
    if (!open()) return;
    w_.clean();
    s_.after(jitter(sw_.clean_interval_ms), [this] { clean(); });
  }
  void archive() {
    if (!open()) return;
    w_.archive();
    s_.after(jitter(sw_.archive_interval_ms), [this] { archive(); });
  }
  void sweep() {
    if (!open()) return;
    if (w_.sweep_begin()) {
      const std::int64_t l = std::max<std::int64_t>(sw_.sweeper.listing_ms, 2000);
      s_.after(rng().uniform_i64(l / 2, l), [this] { w_.sweep_finish(); });
    }
    s_.after(jitter(sw_.sweeper.interval_ms), [this] { sweep(); });
  }
  void ttl() {
    if (!open()) return;
    w_.ttl_run();
    s_.after(jitter(sw_.ttl.interval_ms), [this] { ttl(); });
  }
  void fault() {
    if (!open()) return;
    w_.arm_fault();
    s_.after(jitter(sw_.faults.interval_ms), [this] { fault(); });
  }

  World& w_;
  Scheduler& s_;
  const SwarmConfig& sw_;
  std::int64_t end_ms_;
  std::size_t next_commit_ = 0;  // of a replayed cadence
};

}  // namespace detail

/// Runs one seed. Errors only for an invalid --policy.
[[nodiscard]] inline StatusOr<RunResult> run_seed(const RunOptions& o) {
  const auto [swarm_stream, world_stream] = split_seed(o.seed);
  Rng swarm_rng(swarm_stream);
  SwarmConfig swarm = draw_swarm(swarm_rng);
  focus_swarm(o.canary, swarm);
  if (o.adjust_swarm) o.adjust_swarm(swarm);
  LAKEGC_ASSIGN_OR_RETURN(auto chosen, policy_for(o, swarm));
  RunResult result;
  result.seed = o.seed;
  result.swarm = swarm;
  result.policy_label = chosen.first.label();
  result.family = chosen.second;

  World world(swarm, std::move(chosen.first), Rng(world_stream));
  if (o.trace_sink) world.trace().set_sink(o.trace_sink);
  world.table.oracle.verify_cache(o.verify_oracle_cache);
  world.table.event("world", "seed {} policy {}", o.seed, result.policy_label);
  world.table.archive_settings = archive_settings_for(o, swarm);
  world.write_history();
  Scheduler sched(world.clock());
  const std::int64_t end_ms = world.clock().now_ms + swarm.duration_ms;
  detail::Driver driver(world, sched, end_ms);
  driver.start();
  while (!sched.empty() && sched.next_time() <= end_ms && sched.executed() < o.max_events && !world.failed()) {
    world.table.sample_storage();
    sched.run_next();
  }
  world.table.sample_storage();
  if (!world.failed()) world.finish();
  result.stats = world.table.stats;
  result.stats.events = sched.executed();
  result.stats.snapshot_cache_hits = world.table.oracle.cache_hits();
  result.stats.snapshots_resolved = world.table.oracle.snapshots_resolved();
  result.violations = world.table.violations;
  // The trace hash covers every event line; the PRNG digest catches a run
  // that drew a different number of values without printing differently.
  result.trace_hash = world.trace().hash() ^ (world.rng().digest() * kGoldenGamma);
  return result;
}

}  // namespace lakegc::sim
