// File: lakegc/exec/clean_service.hpp
// -----------------------------------------------------------------------------
// run_clean: one run of the cleaner service, as Hudi's clean() does it
// (docs/hudi-rules.md §8 and §9):
//
// 1. finish every pending clean, oldest first, from its persisted plan;
// 2. schedule a new clean only if no clean is pending and enough commits
//    landed since the last one (hoodie.clean.trigger.max.commits);
// 3. plan; persist the plan as a requested clean only if it has work, or is
//    an allowed empty clean; execute it.
#pragma once

#include <algorithm>
#include <vector>

#include "lakegc/core/load_view.hpp"
#include "lakegc/exec/clean_executor.hpp"
#include "lakegc/plan/clean_trigger.hpp"
#include "lakegc/plan/plan_clean.hpp"
#include "lakegc/plan/planned_sizes.hpp"

namespace lakegc {

struct CleanRunReport {
  std::vector<CleanOutcome> finished_pending;  // cleans a crash had left pending
  std::optional<CleanOutcome> executed;        // the clean this run planned
  std::optional<CleanPlan> plan;               // what was planned (even if not persisted)
  CleanScope scope;
  /// Why nothing was scheduled, if so.
  std::string skipped_reason;

  std::uint64_t files_deleted() const {
    std::uint64_t n = executed ? executed->files_deleted : 0;
    for (const auto& o : finished_pending) n += o.files_deleted;
    return n;
  }
  std::uint64_t bytes_deleted() const {
    std::uint64_t n = executed ? executed->bytes_deleted : 0;
    for (const auto& o : finished_pending) n += o.bytes_deleted;
    return n;
  }
};

/// A clean instant time after every instant on the timeline: `now` in the
/// table's timezone, or one millisecond past the newest instant.
inline InstantTime allocate_instant(const TableMetadata& md, std::int64_t now_ms) {
  InstantTime t = InstantTime::from_epoch_ms(now_ms, md.timezone);
  if (!md.timeline.empty() && !(md.timeline.instants().back().requested < t)) {
    auto last = md.timeline.instants().back().requested.to_epoch_ms(md.timezone);
    t = InstantTime::from_epoch_ms((last.ok() ? *last : now_ms) + 1, md.timezone);
  }
  return t;
}

/// Finishes pending cleans. Returns what each did.
template <Storage S, Journal J>
[[nodiscard]] StatusOr<std::vector<CleanOutcome>> finish_pending_cleans(S& storage, J& journal, const TableMetadata& md,
                                                                        const ExecuteOptions& options = {}) {
  std::vector<CleanOutcome> done;
  for (const Instant* c : md.timeline.cleans()) {
    if (c->is_completed()) continue;
    LAKEGC_ASSIGN_OR_RETURN(CleanPlan plan, journal.read_clean_plan(c->requested));
    LAKEGC_ASSIGN_OR_RETURN(CleanOutcome o, execute_clean(storage, journal, c->requested, plan, options));
    done.push_back(std::move(o));
  }
  return done;
}

template <Storage S, Journal J, CleaningPolicy P>
[[nodiscard]] StatusOr<CleanRunReport> run_clean(S& storage, J& journal, const P& policy, const CleanContext& ctx,
                                                 const ExecuteOptions& options = {}) {
  CleanRunReport report;
  LAKEGC_ASSIGN_OR_RETURN(TableMetadata md, journal.load());
  LAKEGC_ASSIGN_OR_RETURN(report.finished_pending, finish_pending_cleans(storage, journal, md, options));
  if (!report.finished_pending.empty()) {
    // Hudi schedules a new clean only when none was pending, unless
    // hoodie.clean.multiple.enabled (docs/hudi-rules.md §8).
    if (!policy.scope().allow_multiple_cleans) {
      report.skipped_reason =
          "a pending clean was finished; no other is scheduled in the same run "
          "(hoodie.clean.multiple.enabled=false)";
      return report;
    }
    LAKEGC_ASSIGN_OR_RETURN(md, journal.load());
  }

  // Scheduling is a state change: under the table's lock the timeline is
  // read again, the plan made, and the instant time allocated later than
  // every instant on it, before the requested plan is written.
  TableLockHold hold(options.lock);
  LAKEGC_RETURN_IF_ERROR(annotate(hold.status(), "taking the table lock to schedule a clean"));
  if (options.lock != nullptr) {
    LAKEGC_ASSIGN_OR_RETURN(md, journal.load());
  }
  // Enough new commits since the last clean's view of the table.
  if (auto not_due = clean_not_due(md, policy.scope())) {
    report.skipped_reason = std::move(*not_due);
    return report;
  }

  // Names only; then the sizes of planned files: from commit metadata, or a
  // stat each (planned_sizes.hpp).
  LAKEGC_ASSIGN_OR_RETURN(TableView view, load_view(storage, md, FileSizes::not_needed));
  LAKEGC_ASSIGN_OR_RETURN(CleanPlan plan, plan_clean(view, md, policy, ctx, &report.scope));
  LAKEGC_RETURN_IF_ERROR(fill_planned_sizes(storage, plan, md).status());
  report.plan = plan;
  if (!plan.has_work() && !plan.empty_clean) {
    report.skipped_reason = "nothing to clean";
    return report;
  }
  const InstantTime instant = allocate_instant(md, ctx.now_ms);
  LAKEGC_RETURN_IF_ERROR(journal.request_clean(instant, plan));
  LAKEGC_RETURN_IF_ERROR(annotate(hold.release(), "releasing the table lock after scheduling"));
  LAKEGC_ASSIGN_OR_RETURN(CleanOutcome o, execute_clean(storage, journal, instant, plan, options));
  report.executed = std::move(o);
  return report;
}

}  // namespace lakegc
