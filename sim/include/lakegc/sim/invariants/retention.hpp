// File: lakegc/sim/invariants/retention.hpp
// -----------------------------------------------------------------------------
// I2 retention: every snapshot a clean promised (promise.hpp) stays fully
// readable, and every pending table service finds its input.
//
// Verifies, against the oracle's ideal content of each snapshot:
//
// * check_clean_promises: after cleans removed files, each clean answers
//   for its own deletions against its own promise (a later clean's promise
//   may be narrower than an earlier one's, and that is allowed). Resolving
//   every promised snapshot after every clean would cost a view per
//   snapshot (hundreds under an hours rule), so it resolves exactly
//   (Timeline::as_of, the reader's code, docs/hudi-rules.md §3) the
//   snapshots that can contain a deleted file (detail::snapshots_touching),
//   plus the promise's edges (the newest snapshot before the boundary, the
//   latest, the boundary, every lease), always.
// * check_promise_after_sweep: the same for the orphan sweep's deletions
//   against the promise standing now (the sweep promises nothing itself).
// * check_service_inputs_present / _not_removed: the input slices of every
//   pending compaction and clustering exist (promised whatever the policy).
// * check_promise_now: the promise standing at the end of a run, its edges
//   and an even sample of its snapshots.
//
// Does not verify snapshots outside the promise (a query that outlives the
// promise is an expected failure, counted by the readers), the latest
// snapshot on its own (I4), or what a running query reads (I1, reader.hpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lakegc/sim/invariants/common.hpp"
#include "lakegc/sim/promise.hpp"

namespace lakegc::sim {

namespace detail {

// The first snapshot of `check` (in order) missing a file of `removed`,
// with that file; nothing when all are readable or a resolution failed
// (`*error`, recorded as unexpected).
inline std::optional<std::pair<InstantTime, std::string>> first_damaged(Table& t, const TableMetadata& md,
                                                                        const FileMap& present, const FileMap& removed,
                                                                        const std::set<InstantTime>& check,
                                                                        bool* error) {
  for (const InstantTime& s : check) {
    if (auto f = first_missing(t, md, s, present, error, &removed); !f.empty()) return std::pair{s, std::move(f)};
    if (*error) return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace detail

/// I2 after cleans removed files: `removed_by` maps each clean instant to
/// the files it removed. False (a violation, or an unexpected error) when
/// a promised snapshot lost one of them.
inline bool check_clean_promises(Table& t, const TableMetadata& md, const FileMap& present,
                                 const std::map<InstantTime, FileMap>& removed_by) {
  bool error = false;
  for (const auto& [clean, removed] : removed_by) {
    const std::size_t pi = t.oracle.promise_of(clean);
    if (pi == kNoPromise) continue;
    const Promise& p = t.oracle.promise(pi);
    const std::vector<InstantTime> promised = promised_snapshots(p, md.timeline);
    std::set<InstantTime> check = detail::snapshots_touching(t, md, removed, promised);
    for (const std::optional<InstantTime>& edge : {p.newest_before, p.latest, p.ectr}) {
      if (edge && std::binary_search(promised.begin(), promised.end(), *edge)) check.insert(*edge);
    }
    for (const InstantTime& l : p.leases) {
      if (md.timeline.is_completed_commit(l)) check.insert(l);
    }
    // Only this clean's deletions count here: earlier ones were judged
    // against their own promises.
    if (auto broken = detail::first_damaged(t, md, present, removed, check, &error)) {
      const auto& [s, f] = *broken;
      t.violation(
          Invariant::I2_retention, "cleaner", f, s,
          fmt::format("clean {} deleted a file of snapshot {}, which it promised ({})", clean, s, p.describe()));
      return false;
    }
    if (error) return false;
  }
  return true;
}

/// I2 after the orphan sweep removed files: no snapshot of `promise` (the
/// cleaner's, standing now) lost one of them.
inline bool check_promise_after_sweep(Table& t, const TableMetadata& md, const FileMap& present, const FileMap& removed,
                                      const Promise& promise) {
  const std::vector<InstantTime> promised = promised_snapshots(promise, md.timeline);
  bool error = false;
  if (auto broken = detail::first_damaged(t, md, present, removed, detail::snapshots_touching(t, md, removed, promised),
                                          &error)) {
    const auto& [s, f] = *broken;
    t.violation(Invariant::I2_retention, "sweeper", f, s,
                fmt::format("the orphan sweep deleted a file of promised snapshot {} ({})", s, promise.describe()));
    return false;
  }
  return !error;
}

/// Every input file of every pending table service is on storage
/// (`present`); the violation is the service's, naming who deleted it.
inline bool check_service_inputs_present(Table& t, const FileMap& present) {
  for (const auto& [instant, input] : t.oracle.services()) {
    for (const SnapshotFile& f : input.files) {
      const std::string path = f.path();
      if (present.contains(path)) continue;
      const Deletion* d = t.oracle.deletion(path);
      t.violation(Invariant::I2_retention, input.actor, path, instant,
                  fmt::format("an input of pending {} {} was deleted{}", input.actor, instant,
                              d ? fmt::format(" by {}", d->by()) : std::string()));
      return false;
    }
  }
  return true;
}

/// No input file of a pending table service is among what the orphan sweep
/// removed; the violation is `actor`'s.
inline bool check_service_inputs_not_removed(Table& t, const FileMap& removed, std::string_view actor) {
  for (const auto& [instant, input] : t.oracle.services()) {
    for (const SnapshotFile& f : input.files) {
      if (removed.contains(f.path())) {
        t.violation(Invariant::I2_retention, std::string(actor), f.path(), instant,
                    fmt::format("the orphan sweep deleted an input of pending {} {}", input.actor, instant));
        return false;
      }
    }
  }
  return true;
}

/// I2 for a promise as it stands now: its edges and up to `sample` other
/// promised snapshots, evenly spaced, resolved exactly.
inline void check_promise_now(Table& t, const Promise& p, std::size_t sample) {
  auto md = t.load();
  if (!md.ok()) return;
  const FileMap present = t.data_files();
  const std::vector<InstantTime> promised = promised_snapshots(p, md->timeline);
  std::set<InstantTime> check;
  for (const std::optional<InstantTime>& edge : {p.newest_before, p.latest, p.ectr}) {
    if (edge && std::binary_search(promised.begin(), promised.end(), *edge)) check.insert(*edge);
  }
  for (const InstantTime& l : p.leases) {
    if (std::binary_search(promised.begin(), promised.end(), l)) check.insert(l);
  }
  const std::size_t step = promised.size() / std::max<std::size_t>(sample, 1) + 1;
  for (std::size_t i = 0; i < promised.size(); i += step) check.insert(promised[i]);
  for (const InstantTime& s : check) {
    auto ideal = t.oracle.snapshot(*md, s);
    if (!ideal.ok()) {
      t.unexpected("checker", "oracle snapshot", ideal.status());
      return;
    }
    for (const SnapshotFile& f : **ideal) {
      const std::string path = f.path();
      if (present.contains(path)) continue;
      // Judged against the promise of the clean that deleted it: a snapshot
      // may have been damaged before it entered the promise (a lease taken
      // on an old snapshot).
      const Deletion* d = t.oracle.deletion(path);
      if (d != nullptr && d->promise != kNoPromise && !t.oracle.promise(d->promise).covers(s)) continue;
      t.violation(Invariant::I2_retention, "checker", path, s,
                  fmt::format("promised snapshot {} is not fully readable{} (promise: {})", s,
                              d ? fmt::format("; {} deleted the file", d->by()) : std::string(), p.describe()));
      return;
    }
  }
}

}  // namespace lakegc::sim
