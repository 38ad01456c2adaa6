// File: lakegc/sim/stats.hpp
// -----------------------------------------------------------------------------
// What one run measured: work done, storage held over time, and how queries
// fared against the promise. Integers only (averages are computed when
// printing), so runs compare exactly.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace lakegc::sim {

/// Query-duration buckets for "X% of Y-hour queries would fail".
inline constexpr std::array<std::int64_t, 4> kQueryBucketMinutes = {15, 60, 180, 480};
inline constexpr std::array<std::string_view, 5> kQueryBucketNames = {"<=15m", "<=1h", "<=3h", "<=8h", ">8h"};

constexpr std::size_t query_bucket(std::int64_t duration_ms) noexcept {
  for (std::size_t i = 0; i < kQueryBucketMinutes.size(); ++i) {
    if (duration_ms <= kQueryBucketMinutes[i] * 60'000) return i;
  }
  return kQueryBucketMinutes.size();
}

struct QueryStats {
  std::uint64_t started = 0;
  std::uint64_t ok = 0;
  /// The snapshot was already outside the promise, and damaged, when the
  /// query began (time travel too far back).
  std::uint64_t failed_at_start = 0;
  /// The query outlived the promise: a clean removed a file it still had to
  /// read, after its snapshot left the promise.
  std::uint64_t failed_during = 0;
  std::uint64_t violated = 0;

  QueryStats& operator+=(const QueryStats& o) {
    started += o.started;
    ok += o.ok;
    failed_at_start += o.failed_at_start;
    failed_during += o.failed_during;
    violated += o.violated;
    return *this;
  }
};

struct RunStats {
  std::uint64_t events = 0;
  std::uint64_t commits = 0;
  std::uint64_t writes_aborted = 0;  // optimistic-concurrency conflicts
  std::uint64_t writes_crashed = 0;  // fault: writer died before commit
  std::uint64_t writes_failed = 0;   // fault: a storage call failed mid-write
  std::uint64_t files_written = 0;
  std::uint64_t bytes_written = 0;
  std::uint64_t clean_runs = 0;
  std::uint64_t cleans_executed = 0;
  std::uint64_t clean_errors = 0;  // runs that failed under an injected fault
  std::uint64_t files_deleted = 0;
  std::uint64_t bytes_deleted = 0;
  std::uint64_t compactions = 0;
  std::uint64_t clusterings = 0;
  std::uint64_t savepoints = 0;
  std::uint64_t archivals = 0;
  std::uint64_t instants_archived = 0;  // commits, cleans and rollbacks moved to the archive
  /// Archiver runs a library-gap bound stopped, per gap (a), (b), (c), (d)
  /// (archiver.hpp).
  std::array<std::uint64_t, 4> archival_gap_holds{};
  /// Sweeps whose snapshot's oldest active instant is not a write (an old
  /// clean or rollback archival left behind): the hazard of issue 11.
  std::uint64_t sweeps_non_write_oldest = 0;
  std::uint64_t ttl_drops = 0;               // DELETE_PARTITION replacecommits the TTL service completed
  std::uint64_t ttl_partitions_dropped = 0;  // partitions they dropped
  std::uint64_t ttl_blocked = 0;             // TTL runs a pending compaction or clustering made a no-op
  std::uint64_t ttl_failed = 0;              // TTL runs plan_ttl refused (as Hudi's run fails)
  std::uint64_t faults_armed = 0;
  std::uint64_t read_retries = 0;  // a read hit an injected storage failure
  std::uint64_t i6_waived = 0;
  // The liveness phase could make no commit, so a commit-count trigger kept
  // the cleaner from planning at quiescence and I6 was not judged.
  bool i6_not_judged = false;
  std::uint64_t sweeps_begun = 0;    // orphan sweeps that took their metadata snapshot
  std::uint64_t sweeps = 0;          // orphan sweeps that listed, planned and deleted
  std::uint64_t sweeps_refused = 0;  // refused by the longest-write guard
  std::uint64_t sweeps_forced = 0;   // forced past the guard: tight cutoff, or the final sweep at quiescence
  std::uint64_t orphans_deleted = 0;
  std::uint64_t rollbacks = 0;               // failed writes rolled back (plan_rollback)
  std::uint64_t rollback_files_deleted = 0;  // files their markers named, deleted
  std::uint64_t orphan_bytes_deleted = 0;    // left behind after a truncated listing (see check_convergence)
  std::array<QueryStats, kQueryBucketNames.size()> queries{};
  /// Queries still running when the run ended (counted ok, never judged).
  std::uint64_t queries_unfinished = 0;
  /// Replayed commits (SwarmConfig::cadence) not written: every writer busy.
  std::uint64_t cadence_skipped = 0;
  /// Snapshots the oracle served from its cache, and those it resolved.
  std::uint64_t snapshot_cache_hits = 0;
  std::uint64_t snapshots_resolved = 0;
  // Storage held: KiB x milliseconds, integrated over the run.
  std::uint64_t kib_ms = 0;
  std::int64_t span_ms = 0;
  std::uint64_t peak_bytes = 0;
  std::uint64_t final_bytes = 0;

  QueryStats all_queries() const {
    QueryStats q;
    for (const auto& b : queries) q += b;
    return q;
  }
  std::uint64_t average_bytes() const {
    return span_ms > 0 ? kib_ms / static_cast<std::uint64_t>(span_ms) * 1024 : final_bytes;
  }
};

}  // namespace lakegc::sim
