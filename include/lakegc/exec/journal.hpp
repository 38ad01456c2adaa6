// File: lakegc/exec/journal.hpp
// -----------------------------------------------------------------------------
// Journal concept: how a table format records its timeline.
//
// A type J models Journal when, for `J j`, `InstantTime t`, `CleanPlan p` and
// `CompletedClean m`:
//
//   1. `j.load()` returns StatusOr<TableMetadata>: the timeline and the
//      metadata the planners need. A piece of metadata that cannot be read
//      is an error, never an empty answer (an empty answer makes files look
//      unreferenced).
//   2. `j.request_clean(t, p)` persists the plan as a requested clean at t,
//      before anything is deleted (AlreadyExists if t is taken).
//   3. `j.read_clean_plan(t)` returns the persisted plan of a pending clean:
//      the executor always re-reads it, so a crash loses nothing.
//   4. `j.start_clean(t)` moves it requested -> inflight; idempotent for an
//      inflight clean.
//   5. `j.complete_clean(t, m)` moves it inflight -> completed with its
//      metadata.
//
// Laws: a pending clean is only ever finished, never rolled back; `load()`
// after `complete_clean` shows the clean completed and its metadata as the
// last completed clean.
//
// Models: memory_journal (the simulator), hudi::journal (real tables).
// Minimal complete definition: the five members above.
#pragma once

#include <concepts>

#include "lakegc/core/table_metadata.hpp"
#include "lakegc/exec/completed_clean.hpp"
#include "lakegc/plan/clean_plan.hpp"

namespace lakegc {

template <typename J>
concept Journal = requires(J& j, const InstantTime& t, const CleanPlan& p, const CompletedClean& m) {
  { j.load() } -> std::same_as<StatusOr<TableMetadata>>;
  { j.request_clean(t, p) } -> std::same_as<Status>;
  { j.read_clean_plan(t) } -> std::same_as<StatusOr<CleanPlan>>;
  { j.start_clean(t) } -> std::same_as<Status>;
  { j.complete_clean(t, m) } -> std::same_as<Status>;
};

/// The CleanRecord that incremental cleaning reads from a clean's metadata
/// (hudi::journal reads the same fields from Hudi's form, by the same rules).
[[nodiscard]] inline StatusOr<CleanRecord> clean_record_of(const CompletedClean& m, std::string_view where) {
  CleanRecord r;
  r.instant = m.start_clean_time;
  r.earliest_commit_to_retain = m.earliest_commit_to_retain;
  r.last_completed_commit = m.last_completed_commit_timestamp;
  r.lease_vetoed_partitions = lease_vetoed_partitions_of(m.extra_metadata);
  r.listing_skipped_partitions = partitions_recorded_under(m.extra_metadata, kListingSkippedPartitionsKey);
  LAKEGC_ASSIGN_OR_RETURN(r.savepointed_timestamps, savepointed_timestamps_of(m.extra_metadata, where));
  return r;
}

}  // namespace lakegc
