// File: lakegc/sim/checkers.hpp
// -----------------------------------------------------------------------------
// The invariant checks that look at the whole table, in the order each
// actor runs them. Each invariant has its own header in invariants/, which
// opens with what it does and does not verify:
//
//   invariants/retention.hpp      I2: promised snapshots stay readable; pending services' inputs exist
//   invariants/orphan_cutoff.hpp  I3: nothing deletes a file of a write in flight; the sweep only orphans
//   invariants/no_loss.hpp        I4: the latest snapshot is readable, and exact after archival
//   invariants/savepoints.hpp     I5: no file of an existing savepoint is deleted
//   invariants/convergence.hpp    I6: at quiescence storage holds what the policy keeps; old orphans are gone
//
// The per-query check I1 lives with the readers (reader.hpp), I7 and I8
// with the cleaner (cleaner.hpp), I9 with the sweep driver (lakegc_sim.cpp).
// Every check stops at its first violation: a run reports the first broken
// invariant, and the ones after it may only be its consequences.
#pragma once

#include <map>

#include "lakegc/sim/invariants/convergence.hpp"
#include "lakegc/sim/invariants/no_loss.hpp"
#include "lakegc/sim/invariants/orphan_cutoff.hpp"
#include "lakegc/sim/invariants/retention.hpp"
#include "lakegc/sim/invariants/savepoints.hpp"

namespace lakegc::sim {

/// After cleans removed files (`removed_by`: clean instant -> files): I4,
/// then I2 (each clean against its own promise), I5, and pending services'
/// inputs.
inline void check_after_clean(Table& t, const std::map<InstantTime, FileMap>& removed_by) {
  if (removed_by.empty()) return;
  auto md = detail::load_for_check(t);
  if (!md) return;
  const FileMap present = t.data_files();
  bool error = false;
  if (!detail::latest_readable(t, *md, present, "cleaner", nullptr, &error) || error) return;
  if (!check_clean_promises(t, *md, present, removed_by)) return;
  if (!check_savepoints_present(t, present, "cleaner")) return;
  check_service_inputs_present(t, present);
}

/// After the orphan sweep (snapshot taken at `since_ms`) removed files: I3
/// first (no file of a write in flight), then I4 (the latest snapshot) and
/// I5 (savepoints), then I3 again: every removed file must have been an
/// orphan (the sweep promises nothing and may take nothing committed), and
/// finally what the cleaner also answers to: pending services' inputs and
/// I2, the promise standing now.
inline void check_after_sweep(Table& t, const FileMap& removed, const Promise& promise, std::int64_t since_ms) {
  if (removed.empty()) return;
  if (!check_orphan_cutoff(t, removed, "sweeper", since_ms)) return;
  auto md = detail::load_for_check(t);
  if (!md) return;
  const FileMap present = t.data_files();
  bool error = false;
  if (!detail::latest_readable(t, *md, present, "sweeper", &removed, &error) || error) return;
  if (!check_savepoints_not_removed(t, removed, "sweeper")) return;
  if (!check_only_orphans_removed(t, removed, "sweeper")) return;
  if (!check_service_inputs_not_removed(t, removed, "sweeper")) return;
  check_promise_after_sweep(t, *md, present, removed, promise);
}

/// At the end of a run: I4 exactly (the latest snapshot from storage
/// equals the oracle's), then I5.
inline void check_latest_and_savepoints(Table& t) {
  if (!check_latest_exact(t, "checker")) return;
  check_savepoints_present(t, t.data_files(), "checker");
}

}  // namespace lakegc::sim
