// File: lakegc/exec/orphan_executor.hpp
// -----------------------------------------------------------------------------
// Deletes the orphans of a plan, and nothing else. A plan a guard stopped
// deletes nothing; a missing file counts as deleted; any other failure stops
// and returns the error.
#pragma once

#include "lakegc/exec/delete_tally.hpp"
#include "lakegc/plan/plan_orphans.hpp"

namespace lakegc {

using OrphanOutcome = DeleteTally;

template <Storage S>
[[nodiscard]] StatusOr<OrphanOutcome> delete_orphans(S& storage, const OrphanPlan& plan) {
  OrphanOutcome out;
  if (plan.stopped) return out;
  for (const OrphanFile& f : plan.orphans) {
    LAKEGC_RETURN_IF_ERROR(out.record(storage.remove(f.path), f.path, f.size, "orphan sweep"));
  }
  return out;
}

}  // namespace lakegc
