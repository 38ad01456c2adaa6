// File: lakegc/sim/report.hpp
// -----------------------------------------------------------------------------
// What a user reads: a failing seed's report (seed, swarm, first violated
// invariant with file, instant and actor, the replay command), and the
// sweep summary per policy family: storage held over time, bytes reclaimed,
// expected query failures by query length, violations.
//
// Floating point appears only here, in printing; no decision depends on it.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "lakegc/sim/simulation.hpp"

namespace lakegc::sim {

inline std::string mib(std::uint64_t bytes) { return fmt::format("{:.1f}", static_cast<double>(bytes) / (1 << 20)); }

inline std::string percent(std::uint64_t part, std::uint64_t whole) {
  if (whole == 0) return "-";
  return fmt::format("{:.1f}%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

/// The value of MALLOC_PERTURB_ (Meson sets a random one per test), printed
/// with the seed so a replay can use the same.
inline std::string malloc_perturb() {
  const char* v = std::getenv("MALLOC_PERTURB_");
  return v ? v : "unset";
}

/// The header every run report starts with.
inline std::string format_header(const RunResult& r) {
  return fmt::format("SEED={} MALLOC_PERTURB_={} policy: {}\n{}", r.seed, malloc_perturb(), r.policy_label,
                     describe(r.swarm));
}

/// A failing seed: what broke, where, and how to replay it.
inline std::string format_failure(const RunResult& r, std::string_view replay) {
  std::string out = fmt::format("FAIL {}", format_header(r));
  if (!r.violations.empty()) {
    const Violation& v = r.violations.front();
    out += fmt::format("  first violation: {}\n", to_string(v.invariant));
    out += fmt::format("    actor   : {}\n", v.actor);
    if (!v.file.empty()) out += fmt::format("    file    : {}\n", v.file);
    if (v.instant.valid()) out += fmt::format("    instant : {}\n", v.instant);
    out += fmt::format("    at      : t=+{}ms\n    detail  : {}\n", v.time_ms, v.detail);
    if (r.violations.size() > 1) out += fmt::format("  ({} more violation(s) after it)\n", r.violations.size() - 1);
  }
  out += fmt::format("  replay: {}\n", replay);
  return out;
}

/// One run's numbers (single-seed mode).
inline std::string format_stats(const RunStats& s) {
  const QueryStats q = s.all_queries();
  std::string out = fmt::format(
      "  events {} | commits {} (aborted {}, crashed {}, failed {}) | compactions {} clusterings {} savepoints {} "
      "archivals {} ({} instants; held at library gaps a/b/c/d: {}/{}/{}/{})\n",
      s.events, s.commits, s.writes_aborted, s.writes_crashed, s.writes_failed, s.compactions, s.clusterings,
      s.savepoints, s.archivals, s.instants_archived, s.archival_gap_holds[0], s.archival_gap_holds[1],
      s.archival_gap_holds[2], s.archival_gap_holds[3]);
  if (s.ttl_drops + s.ttl_blocked + s.ttl_failed > 0) {
    out += fmt::format("  ttl: {} drop(s) of {} partition(s), {} run(s) blocked by pending services, {} failed\n",
                       s.ttl_drops, s.ttl_partitions_dropped, s.ttl_blocked, s.ttl_failed);
  }
  out += fmt::format(
      "  cleaner: {} run(s), {} executed, {} failed under faults; deleted {} file(s), {} MiB | faults armed {}\n",
      s.clean_runs, s.cleans_executed, s.clean_errors, s.files_deleted, mib(s.bytes_deleted), s.faults_armed);
  if (s.sweeps_begun > 0) {
    out += fmt::format(
        "  sweeper: {} sweep(s) begun, {} finished, {} refused by the longest-write guard, {} forced "
        "(tight cutoff, or the final sweep at quiescence); deleted {} orphan(s), {} MiB; {} snapshot(s) "
        "whose oldest instant is not a write\n",
        s.sweeps_begun, s.sweeps, s.sweeps_refused, s.sweeps_forced, s.orphans_deleted, mib(s.orphan_bytes_deleted),
        s.sweeps_non_write_oldest);
  }
  if (s.rollbacks > 0) {
    out += fmt::format("  rollback: {} write(s) rolled back, {} file(s) deleted by their markers\n", s.rollbacks,
                       s.rollback_files_deleted);
  }
  out += fmt::format("  storage: written {} MiB, held on average {} MiB, peak {} MiB, final {} MiB\n",
                     mib(s.bytes_written), mib(s.average_bytes()), mib(s.peak_bytes), mib(s.final_bytes));
  out += fmt::format(
      "  queries: {} started, {} ok, {} failed at start (time travel past the promise), {} outlived "
      "the promise, {} violated\n",
      q.started, q.ok, q.failed_at_start, q.failed_during, q.violated);
  if (s.i6_waived > 0) {
    out += fmt::format(
        "  I6: {} file(s) left behind by incremental cleans that planned from a truncated listing "
        "(waived: only a full scan recovers them)\n",
        s.i6_waived);
  }
  if (s.i6_not_judged) {
    out += "  I6: not judged: no writer could commit at quiescence, so the cleaner's trigger never fired\n";
  }
  return out;
}

class SweepSummary {
 public:
  void add(const RunResult& r) {
    Row& row = rows_[r.family];
    ++row.seeds;
    if (!r.ok()) ++row.failed_seeds;
    row.events += r.stats.events;
    row.avg_bytes_sum += r.stats.average_bytes();
    row.peak_bytes = std::max(row.peak_bytes, r.stats.peak_bytes);
    row.written += r.stats.bytes_written;
    row.reclaimed += r.stats.bytes_deleted;
    if (r.stats.i6_waived > 0) ++row.waived_seeds;
    if (r.stats.i6_not_judged) ++row.not_judged_seeds;
    for (std::size_t i = 0; i < row.queries.size(); ++i) row.queries[i] += r.stats.queries[i];
    for (const Violation& v : r.violations) ++row.by_invariant[std::string(to_string(v.invariant))];
    sweeps_ += r.stats.sweeps_begun;
    sweeps_non_write_oldest_ += r.stats.sweeps_non_write_oldest;
    if (r.stats.sweeps_non_write_oldest > 0) ++seeds_non_write_oldest_;
    for (std::size_t i = 0; i < gap_holds_.size(); ++i) gap_holds_[i] += r.stats.archival_gap_holds[i];
    if (r.swarm.ttl.on) ++ttl_seeds_;
    ttl_drops_ += r.stats.ttl_drops;
    ttl_partitions_ += r.stats.ttl_partitions_dropped;
    ttl_blocked_ += r.stats.ttl_blocked;
  }

  std::uint64_t seeds() const {
    std::uint64_t n = 0;
    for (const auto& [k, r] : rows_) n += r.seeds;
    return n;
  }
  std::uint64_t failed_seeds() const {
    std::uint64_t n = 0;
    for (const auto& [k, r] : rows_) n += r.failed_seeds;
    return n;
  }
  std::uint64_t events() const {
    std::uint64_t n = 0;
    for (const auto& [k, r] : rows_) n += r.events;
    return n;
  }

  /// The table, one row per policy family, then per-family query failures.
  std::string format() const {
    std::size_t w = 8;
    for (const auto& [name, r] : rows_) w = std::max(w, name.size());
    std::string out = fmt::format("{:<{}} {:>6} {:>9} {:>9} {:>10} {:>10} {:>8} {:>9} {:>10}\n", "policy", w, "seeds",
                                  "held MiB", "peak MiB", "written", "reclaimed", "queries", "expected", "violations");
    for (const auto& [name, r] : rows_) {
      QueryStats q;
      for (const auto& b : r.queries) q += b;
      out +=
          fmt::format("{:<{}} {:>6} {:>9} {:>9} {:>10} {:>10} {:>8} {:>9} {:>10}\n", name, w, r.seeds,
                      mib(r.seeds ? r.avg_bytes_sum / r.seeds : 0), mib(r.peak_bytes), mib(r.written), mib(r.reclaimed),
                      q.started, percent(q.failed_during + q.failed_at_start, q.started), r.failed_seeds);
    }
    out += "held: storage held on average over a run (MiB); expected: queries that failed without a broken promise\n";
    out += fmt::format(
        "orphan sweeps: {} snapshot(s), {} of them (in {} seed(s)) with a non-write oldest instant; "
        "archiver runs held at library gaps a/b/c/d: {}/{}/{}/{}\n",
        sweeps_, sweeps_non_write_oldest_, seeds_non_write_oldest_, gap_holds_[0], gap_holds_[1], gap_holds_[2],
        gap_holds_[3]);
    out += fmt::format(
        "partition TTL: {} seed(s), {} DELETE_PARTITION replacecommit(s) dropping {} partition(s), {} run(s) "
        "blocked by a pending compaction or clustering\n",
        ttl_seeds_, ttl_drops_, ttl_partitions_, ttl_blocked_);
    out += "queries outliving the promise, by query length (failed / judged):\n";
    for (const auto& [name, r] : rows_) {
      out += fmt::format("  {:<{}}", name, w);
      for (std::size_t i = 0; i < r.queries.size(); ++i) {
        const QueryStats& b = r.queries[i];
        out += fmt::format(" {} {}", kQueryBucketNames[i], percent(b.failed_during, b.started - b.failed_at_start));
      }
      out += '\n';
    }
    for (const auto& [name, r] : rows_) {
      if (r.waived_seeds > 0) {
        out += fmt::format(
            "  {:<{}} I6 waived in {} seed(s): files missed by incremental cleans that planned from a "
            "truncated listing\n",
            name, w, r.waived_seeds);
      }
      if (r.not_judged_seeds > 0) {
        out += fmt::format(
            "  {:<{}} I6 not judged in {} seed(s): no writer could commit at quiescence, so the cleaner's "
            "trigger never fired\n",
            name, w, r.not_judged_seeds);
      }
    }
    bool any = false;
    for (const auto& [name, r] : rows_) {
      for (const auto& [inv, n] : r.by_invariant) {
        if (!any) out += "violations by invariant:\n";
        any = true;
        out += fmt::format("  {:<{}} {}: {}\n", name, w, inv, n);
      }
    }
    return out;
  }

  /// "with <policy> at your cadence, X% of Y queries would fail", for a
  /// sweep of one policy.
  std::string user_sentence(std::string_view policy_label) const {
    std::array<QueryStats, kQueryBucketNames.size()> all{};
    for (const auto& [name, r] : rows_) {
      for (std::size_t i = 0; i < all.size(); ++i) all[i] += r.queries[i];
    }
    std::string out;
    for (std::size_t i = 0; i < all.size(); ++i) {
      const std::uint64_t judged = all[i].started - all[i].failed_at_start;
      if (judged == 0) continue;
      out += fmt::format("with {} at this cadence, {} of {} queries would fail ({} of {})\n", policy_label,
                         percent(all[i].failed_during, judged), kQueryBucketNames[i], all[i].failed_during, judged);
    }
    return out;
  }

 private:
  struct Row {
    std::uint64_t seeds = 0;
    std::uint64_t failed_seeds = 0;
    std::uint64_t events = 0;
    std::uint64_t avg_bytes_sum = 0;
    std::uint64_t peak_bytes = 0;
    std::uint64_t written = 0;
    std::uint64_t reclaimed = 0;
    std::uint64_t waived_seeds = 0;
    std::uint64_t not_judged_seeds = 0;
    std::array<QueryStats, kQueryBucketNames.size()> queries{};
    std::map<std::string, std::uint64_t> by_invariant;
  };
  std::map<std::string, Row> rows_;
  std::uint64_t sweeps_ = 0;
  std::uint64_t sweeps_non_write_oldest_ = 0;
  std::uint64_t seeds_non_write_oldest_ = 0;
  std::array<std::uint64_t, 4> gap_holds_{};
  std::uint64_t ttl_seeds_ = 0;
  std::uint64_t ttl_drops_ = 0;
  std::uint64_t ttl_partitions_ = 0;
  std::uint64_t ttl_blocked_ = 0;
};

}  // namespace lakegc::sim
