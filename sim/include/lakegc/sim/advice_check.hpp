// File: lakegc/sim/advice_check.hpp
// -----------------------------------------------------------------------------
// The advice check (issue 19): does the retention lakegc::advise
// recommends (include/lakegc/plan/advise.hpp) keep every query up to the
// longest one readable, at a given commit cadence, and is it the least
// that does?
//
// check_advice replays a cadence (cadence.hpp: a synthetic one, a table's
// timeline, a file) in swarms whose readers run latest-snapshot queries up
// to the longest query (half of them exactly that long), and runs each
// policy over the same seeds:
//
// * the recommendation: KEEP_LATEST_COMMITS n and KEEP_LATEST_BY_HOURS h,
//   from advise() over the cadence as the simulator replays it
//   (replay_metadata). It is confirmed when no query met a missing file on
//   any seed;
// * one commit fewer (n - 1) and one hour less (h - 1): the recommendation
//   is the least that works when some query did.
//
// What the replay keeps from the seed's swarm: table layout, partitions,
// file groups and how writes touch them, reader arrivals, the cleaner
// (inline or asynchronous, incremental or not, its trigger), savepoints,
// archival, the orphan sweep. What it fixes: Copy-on-Write (Merge-on-Read
// without compaction reclaims nothing, and compactions and clusterings are
// commits that would change the cadence), no faults (they only ever keep
// more), no time travel (a query older than the latest snapshot outlives
// any promise by design), no reader leases (they would keep every query's
// files), the writers the cadence needs, and runs at least three windows
// long. Queries still running when a run ends are not judged. Every
// invariant is checked as in any run: a violation is reported apart from
// the queries, as a library bug, not as a retention that is too short.
//
// KEEP_LATEST_FILE_VERSIONS is not replayed: it gives no time guarantee,
// and what it needs depends on which file groups the writes update, which a
// cadence does not carry.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <absl/time/time.h>
#include <fmt/format.h>

#include "lakegc/core/duration.hpp"
#include "lakegc/plan/advise.hpp"
#include "lakegc/sim/cadence.hpp"
#include "lakegc/sim/report.hpp"
#include "lakegc/sim/simulation.hpp"

namespace lakegc::sim {

struct AdviceCheckOptions {
  CommitCadence cadence;
  absl::Duration longest_query = absl::Hours(1);
  std::uint64_t seeds = 100;
  std::uint64_t first_seed = 1;
  /// Check this policy (hoodie.* properties, KEEP_LATEST_COMMITS or
  /// KEEP_LATEST_BY_HOURS) and the one with one commit fewer or one hour
  /// less, instead of the recommendations.
  std::optional<config::Properties> policy;
  /// Event budget of one run's safety phase.
  std::uint64_t max_events = 200'000;
  /// Receives every trace line of every run (replaying one seed).
  Trace::Sink trace;
};

/// One policy over every seed.
struct AdviceTrial {
  std::string policy;  // KEEP_LATEST_COMMITS or KEEP_LATEST_BY_HOURS
  std::uint32_t retained = 0;
  /// The setting under check (recommended or given); false: one less.
  bool checked = true;
  std::uint64_t seeds = 0;
  /// Seeds where a query met a missing file.
  std::uint64_t seeds_failed = 0;
  /// Seeds where an invariant broke (a library bug, whatever the retention).
  std::uint64_t seeds_violated = 0;
  /// Queries that started and finished within their run, and of those the
  /// ones that met a missing file.
  std::uint64_t queries = 0;
  std::uint64_t queries_failed = 0;
  std::optional<std::uint64_t> first_failed_seed;
  /// The first violation's report, with its replay command.
  std::string first_violation;

  std::string label() const {
    const std::string unit = policy == "KEEP_LATEST_BY_HOURS" ? "h" : "";
    return fmt::format("{} {}{} ({})", policy, retained, unit,
                       checked                            ? "recommended"
                       : policy == "KEEP_LATEST_BY_HOURS" ? "one hour less"
                                                          : "one commit fewer");
  }
};

struct AdviceCheck {
  /// lakegc::advise over the cadence as replayed.
  Advice advice;
  std::string cadence_source;
  std::int64_t longest_query_ms = 0;
  std::uint64_t first_seed = 1;
  std::vector<AdviceTrial> trials;

  const AdviceTrial* trial(std::string_view policy, bool checked) const {
    for (const AdviceTrial& t : trials) {
      if (t.policy == policy && t.checked == checked) return &t;
    }
    return nullptr;
  }
  /// Every checked setting held on every seed (no query failed, no
  /// invariant broke), and every one-less setting failed on some seed.
  bool confirmed() const {
    for (const AdviceTrial& t : trials) {
      if (t.seeds_violated > 0) return false;
      if (t.checked ? t.seeds_failed > 0 : t.seeds_failed == 0) return false;
    }
    return !trials.empty();
  }

  std::string format() const {
    std::string out = fmt::format("advice check: replaying {}, queries up to {}, seeds {}..{}\n", cadence_source,
                                  format_duration_ms(longest_query_ms), first_seed,
                                  first_seed + (trials.empty() ? 0 : trials.front().seeds) - 1);
    for (const Recommendation& r : advice.recommendations) {
      if (r.policy == "KEEP_LATEST_FILE_VERSIONS") {
        out += fmt::format(
            "  advise: {} not replayed (no time guarantee; what it needs depends on which file groups "
            "the writes update)\n",
            r.policy);
      } else {
        out += fmt::format("  advise: {} {} ({})\n", r.policy, r.retained, r.reason);
      }
    }
    out += fmt::format("{:<44} {:>6} {:>13} {:>8} {:>13} {:>11}\n", "policy", "seeds", "failed seeds", "queries",
                       "missing file", "violations");
    for (const AdviceTrial& t : trials) {
      out += fmt::format("{:<44} {:>6} {:>13} {:>8} {:>13} {:>11}\n", t.label(), t.seeds, t.seeds_failed, t.queries,
                         t.queries_failed, t.seeds_violated);
    }
    for (const AdviceTrial& t : trials) {
      if (!t.checked && t.first_failed_seed) {
        out += fmt::format("  {}: first failing seed {}\n", t.label(), *t.first_failed_seed);
      }
      if (!t.first_violation.empty()) out += fmt::format("  {}: first violation\n{}", t.label(), t.first_violation);
    }
    out += confirmed() ? "confirmed: every checked setting held on every seed, and one less failed on some seed\n"
                       : "NOT confirmed\n";
    return out;
  }
};

namespace detail {

// The swarm of an advice check (see the header).
inline void replay_swarm(SwarmConfig& s, const std::shared_ptr<const CommitCadence>& cadence,
                         std::int64_t longest_query_ms) {
  s.type = TableType::cow;
  s.compaction = false;
  s.clustering = false;
  s.writers = static_cast<std::uint32_t>(std::min<std::size_t>(cadence->writers(), 8));
  s.eager_rollback = false;
  s.faults = FaultKnobs{};
  // No partition TTL: its replacecommits are commits the replayed cadence
  // does not have, and KEEP_LATEST_COMMITS counts them (n commits then
  // span less time than the advice computed).
  s.ttl = TtlKnobs{};
  s.time_travel_percent = 0;
  s.query_max_ms = longest_query_ms;
  s.query_at_max_percent = 50;
  s.policy.reader_leases = false;
  s.duration_ms = std::max(s.duration_ms, 3 * longest_query_ms);
  s.cadence = cadence;
}

// The longest a run of a check lasts: what replay_metadata must cover.
inline std::int64_t replay_span_ms(std::int64_t longest_query_ms) {
  return std::max<std::int64_t>(24 * kHour, 3 * longest_query_ms) + longest_query_ms + kHour;
}

// "KEEP_LATEST_COMMITS" / "KEEP_LATEST_BY_HOURS" and the count of a given
// policy's properties.
[[nodiscard]] inline StatusOr<std::pair<std::string, std::uint32_t>> rule_of(const config::Properties& props) {
  LAKEGC_ASSIGN_OR_RETURN(auto p, config::from_properties(props));
  std::optional<std::pair<std::string, std::uint32_t>> out;
  std::visit(
      [&](const auto& r) {
        using R = std::decay_t<decltype(r)>;
        if constexpr (std::is_same_v<R, keep_latest_commits>) out = std::pair{std::string(R::hudi_name()), r.commits};
        if constexpr (std::is_same_v<R, keep_by_hours>) out = std::pair{std::string(R::hudi_name()), r.hours};
      },
      p.rule());
  if (!out) {
    return absl::InvalidArgumentError(
        "the advice check replays KEEP_LATEST_COMMITS and KEEP_LATEST_BY_HOURS only (KEEP_LATEST_FILE_VERSIONS gives "
        "no time guarantee)");
  }
  return *out;
}

}  // namespace detail

/// Runs one trial: `policy` with `retained` (or, when `props` is given,
/// those properties) over every seed of `o`.
[[nodiscard]] inline StatusOr<AdviceTrial> run_advice_trial(const AdviceCheckOptions& o,
                                                            const std::shared_ptr<const CommitCadence>& cadence,
                                                            const std::string& policy, std::uint32_t retained,
                                                            bool checked,
                                                            const std::optional<config::Properties>& props) {
  AdviceTrial t;
  t.policy = policy;
  t.retained = retained;
  t.checked = checked;
  const std::int64_t longest = absl::ToInt64Milliseconds(o.longest_query);
  for (std::uint64_t seed = o.first_seed; seed < o.first_seed + o.seeds; ++seed) {
    RunOptions ro;
    ro.seed = seed;
    ro.max_events = o.max_events;
    ro.policy = props;
    ro.trace_sink = o.trace;
    ro.adjust_swarm = [&](SwarmConfig& s) {
      detail::replay_swarm(s, cadence, longest);
      s.policy.rule = policy == "KEEP_LATEST_BY_HOURS" ? RuleKind::hours : RuleKind::commits;
      (policy == "KEEP_LATEST_BY_HOURS" ? s.policy.hours : s.policy.commits) = retained;
    };
    LAKEGC_ASSIGN_OR_RETURN(RunResult r, run_seed(ro));
    ++t.seeds;
    const QueryStats q = r.stats.all_queries();
    const std::uint64_t failed = q.failed_at_start + q.failed_during;
    t.queries += q.started - std::min(q.started, r.stats.queries_unfinished);
    t.queries_failed += failed;
    if (failed > 0) {
      ++t.seeds_failed;
      if (!t.first_failed_seed) t.first_failed_seed = seed;
    }
    if (!r.ok()) {
      ++t.seeds_violated;
      if (t.first_violation.empty()) {
        t.first_violation = format_failure(r, fmt::format("seed {} of the advice check ({})", seed, t.label()));
      }
    }
  }
  return t;
}

/// The advice check (see the header). Errors: an empty cadence, a policy
/// the check cannot replay.
[[nodiscard]] inline StatusOr<AdviceCheck> check_advice(const AdviceCheckOptions& o) {
  if (o.cadence.empty()) return absl::InvalidArgumentError("the advice check needs a cadence with commits");
  const auto cadence = std::make_shared<const CommitCadence>(o.cadence);
  AdviceCheck out;
  out.cadence_source = o.cadence.source;
  out.longest_query_ms = absl::ToInt64Milliseconds(o.longest_query);
  out.first_seed = o.first_seed;
  AdviseOptions ao;
  ao.longest_query = o.longest_query;
  out.advice = advise(replay_metadata(o.cadence, Table::kEpochMs, detail::replay_span_ms(out.longest_query_ms)), ao);

  // (policy, retained, checked, properties)
  struct Plan {
    std::string policy;
    std::uint32_t retained;
    bool checked;
    std::optional<config::Properties> props;
  };
  std::vector<Plan> plans;
  auto with_one_less = [&](const std::string& policy, std::uint32_t n, const std::optional<config::Properties>& props) {
    plans.push_back({policy, n, true, props});
    if (n <= 1) return;  // 0 commits retained never cleans; 0 hours is no window
    std::optional<config::Properties> less = props;
    if (less)
      (*less)[policy == "KEEP_LATEST_BY_HOURS" ? "hoodie.clean.hours.retained" : "hoodie.clean.commits.retained"] =
          std::to_string(n - 1);
    plans.push_back({policy, n - 1, false, less});
  };
  if (o.policy) {
    LAKEGC_ASSIGN_OR_RETURN(auto rule, detail::rule_of(*o.policy));
    config::Properties props = *o.policy;
    // The count under its current key (the legacy hoodie.cleaner.* spelling included) is replaced by the canonical one.
    props.erase("hoodie.cleaner.commits.retained");
    props.erase("hoodie.cleaner.hours.retained");
    props[rule.first == "KEEP_LATEST_BY_HOURS" ? "hoodie.clean.hours.retained" : "hoodie.clean.commits.retained"] =
        std::to_string(rule.second);
    with_one_less(rule.first, rule.second, props);
  } else {
    for (const Recommendation& r : out.advice.recommendations) {
      if (r.policy == "KEEP_LATEST_COMMITS" || r.policy == "KEEP_LATEST_BY_HOURS") {
        with_one_less(r.policy, r.retained, std::nullopt);
      }
    }
  }
  for (const Plan& p : plans) {
    LAKEGC_ASSIGN_OR_RETURN(AdviceTrial t, run_advice_trial(o, cadence, p.policy, p.retained, p.checked, p.props));
    out.trials.push_back(std::move(t));
  }
  return out;
}

}  // namespace lakegc::sim
