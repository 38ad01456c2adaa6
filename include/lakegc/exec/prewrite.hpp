// File: lakegc/exec/prewrite.hpp
// -----------------------------------------------------------------------------
// before_write: what a Hudi writer does before it starts write `starting`
// (policy/write_maintenance.hpp has the settings):
//
// 1. failed-write rollback: EAGER always (every other pending write),
//    LAZY only when the pre-write policy asks for it (expired heartbeats),
//    NEVER not at all; compactions and clusterings are never candidates.
//    Under a multi-writer concurrency mode the policy is LAZY whatever the
//    settings say (WriteMaintenance::failed_writes_policy);
// 2. a clean with the given policy when the pre-write policy is CLEAN
//    (Hudi 1.2: "full clean incl. failed-write rollback before each write").
//
// `starting` is the write about to begin (already requested, as in Hudi);
// it is never rolled back. EAGER cannot tell a slow writer from a dead one:
// that is its documented trade-off, and why OCC deployments use LAZY.
#pragma once

#include <optional>

#include "lakegc/exec/clean_service.hpp"
#include "lakegc/exec/rollback_executor.hpp"
#include "lakegc/policy/write_maintenance.hpp"

namespace lakegc {

struct PrewriteReport {
  RollbackPlan rollback_plan;
  RollbackOutcome rollback;
  std::optional<CleanRunReport> clean;
};

template <Storage S, RollbackJournal J, CleaningPolicy P>
[[nodiscard]] StatusOr<PrewriteReport> before_write(S& storage, J& journal, const P& policy,
                                                    const WriteMaintenance& settings, const InstantTime& starting,
                                                    const CleanContext& ctx) {
  PrewriteReport report;
  const FailedWritesPolicy failed_writes = settings.failed_writes_policy();  // LAZY under multi-writer modes
  const bool roll_back = failed_writes == FailedWritesPolicy::eager ||
                         (failed_writes == FailedWritesPolicy::lazy && settings.prewrite != PrewritePolicy::none);
  if (roll_back) {
    LAKEGC_ASSIGN_OR_RETURN(TableMetadata md, journal.load());
    RollbackOptions options = settings.effective_rollback();
    options.current_write = starting;
    report.rollback_plan = plan_rollback(md, options, ctx.now_ms);
    LAKEGC_ASSIGN_OR_RETURN(report.rollback, execute_rollback(storage, journal, report.rollback_plan));
  }
  if (settings.prewrite == PrewritePolicy::clean) {
    LAKEGC_ASSIGN_OR_RETURN(report.clean, run_clean(storage, journal, policy, ctx));
  }
  return report;
}

}  // namespace lakegc
