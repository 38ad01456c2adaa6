// File: lakegc/sim/invariants/orphan_cutoff.hpp
// -----------------------------------------------------------------------------
// I3 orphan cutoff: nothing deletes a file of a write that is still in
// flight, and the orphan sweep deletes nothing but orphans.
//
// Verifies, for every file a clean, failed-write rollback or the orphan
// sweep removed, against the oracle's record of writes:
//
// * check_orphan_cutoff: the file belongs to no write that is pending and
//   alive (begun, neither committed, abandoned nor crashed); for a sweep
//   (its metadata snapshot taken at `since_ms`), to no write that was in
//   flight at any moment from the snapshot to the listing and committed
//   meanwhile (a writer's, or a compaction's or clustering's output). The
//   rules the sweep relies on are docs/hudi-rules.md §11 and §12: pending
//   instants, markers and a cutoff longer than its listing.
// * check_only_orphans_removed: every file the sweep removed is an orphan
//   (a file of an abandoned, crashed or rolled-back write, or a
//   speculative duplicate); the sweep promises nothing, so it may take
//   nothing committed.
//
// Does not verify that every orphan is eventually deleted (I6, in
// convergence.hpp), nor anything about committed snapshots (I1, I2, I4).
// The cleaner never plans uncommitted files, so for it this holds by
// construction; it is checked anyway.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "lakegc/sim/invariants/common.hpp"

namespace lakegc::sim {

/// I3 for the files `actor` removed (see the header). False, with a
/// violation, when one belongs to a write in flight.
inline bool check_orphan_cutoff(Table& t, const FileMap& removed, std::string_view actor = "cleaner",
                                std::optional<std::int64_t> since_ms = std::nullopt) {
  for (const auto& [instant, paths] : t.oracle.pending_writes()) {
    for (const std::string& p : paths) {
      if (removed.contains(p) && !t.oracle.is_orphan(p)) {
        t.violation(Invariant::I3_orphan_cutoff, std::string(actor), p, instant,
                    fmt::format("a file of write {}, still pending and alive, was deleted", instant));
        return false;
      }
    }
  }
  if (!since_ms) return true;
  for (const auto& [instant, w] : t.oracle.committed_writes()) {
    if (w.at_ms < *since_ms) continue;
    for (const std::string& p : w.paths) {
      if (removed.contains(p) && !t.oracle.is_orphan(p)) {
        t.violation(Invariant::I3_orphan_cutoff, std::string(actor), p, instant,
                    fmt::format("a file of write {}, in flight when the sweep took its metadata snapshot or begun "
                                "after it, and committed during the sweep, was deleted",
                                instant));
        return false;
      }
    }
  }
  return true;
}

/// I3 for the orphan sweep: every file it removed is an orphan. False, with
/// a violation against `actor`, otherwise.
inline bool check_only_orphans_removed(Table& t, const FileMap& removed, std::string_view actor) {
  for (const auto& [path, size] : removed) {
    if (t.oracle.is_orphan(path)) continue;
    t.violation(Invariant::I3_orphan_cutoff, std::string(actor), path, {},
                "the orphan sweep deleted a file that is not an orphan (a committed write's file)");
    return false;
  }
  return true;
}

}  // namespace lakegc::sim
