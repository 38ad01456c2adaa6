// File: lakegc/sim/invariants/savepoints.hpp
// -----------------------------------------------------------------------------
// I5 savepoints: no file of an existing savepoint is ever deleted.
//
// Verifies the files the oracle recorded for each savepoint when it was
// taken (the latest slices as of the savepointed commit, base and log
// files, docs/hudi-rules.md §10): after a clean (and at the end of a run)
// every one is on storage; after an orphan sweep none is among what it
// deleted.
//
// Does not verify that a savepoint's snapshot is readable as a whole (a
// savepoint names files, not a snapshot; I2 covers promised snapshots), nor
// files of a savepoint that has been deleted since.
#pragma once

#include <string>
#include <string_view>

#include "lakegc/sim/invariants/common.hpp"

namespace lakegc::sim {

/// Every file of every existing savepoint is on storage (`present`).
/// False, with a violation against `actor` naming who deleted the file,
/// when one is missing.
inline bool check_savepoints_present(Table& t, const FileMap& present, std::string_view actor) {
  for (const auto& [sp, paths] : t.oracle.savepoints()) {
    for (const std::string& f : paths) {
      if (present.contains(f)) continue;
      const Deletion* d = t.oracle.deletion(f);
      t.violation(
          Invariant::I5_savepoints, std::string(actor), f, sp,
          fmt::format("a file of savepoint {} was deleted{}", sp, d ? fmt::format(" by {}", d->by()) : std::string()));
      return false;
    }
  }
  return true;
}

/// No file of an existing savepoint is among the files the orphan sweep
/// removed. False, with a violation against `actor`, otherwise.
inline bool check_savepoints_not_removed(Table& t, const FileMap& removed, std::string_view actor) {
  for (const auto& [sp, paths] : t.oracle.savepoints()) {
    for (const std::string& f : paths) {
      if (removed.contains(f)) {
        t.violation(Invariant::I5_savepoints, std::string(actor), f, sp,
                    fmt::format("the orphan sweep deleted a file of savepoint {}", sp));
        return false;
      }
    }
  }
  return true;
}

}  // namespace lakegc::sim
