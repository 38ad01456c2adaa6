// File: lakegc/hudi/empty_clean_repair.hpp
// -----------------------------------------------------------------------------
// Hudi's repair of a clean that crashed while it completed
// (CleanPlanActionExecutor.requestClean, docs/hudi-rules.md §9).
//
// On a local or HDFS file system a crash while the completed clean file is
// written leaves it with 0 bytes: the clean looks completed, but Hudi cannot
// read it (its archiver and incremental planner fail on it). When Hudi next
// schedules a clean (the trigger met), it repairs the newest completed
// clean while that one is empty:
//
//   1. the 0-byte completed file is deleted (the clean is pending again);
//   2. if its `.clean.requested` plan reads, that plan is scheduled again as
//      the new clean, at a new instant; the clean's own pending files stay,
//      so the run then finishes both from the same plan (files already gone
//      count as deleted);
//   3. if the plan is empty too, its inflight and requested files are
//      deleted and the clean before it is looked at the same way.
//
// A plan that is neither readable nor empty is an error (Hudi: "Failed to
// parse cleaner plan"), as is any other damaged file: nothing is changed
// past the first error.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/instant_time.hpp"
#include "lakegc/core/timeline.hpp"
#include "lakegc/core/status.hpp"
#include "lakegc/hudi/clean_instants.hpp"
#include "lakegc/hudi/table_location.hpp"
#include "lakegc/hudi/table_properties.hpp"
#include "lakegc/hudi/timeline_listing.hpp"
#include "lakegc/plan/clean_plan.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc::hudi {

/// What the repair found (a dry run) or did.
struct EmptyCleanRepair {
  /// Completed cleans whose 0-byte file is (to be) deleted, newest first.
  std::vector<InstantTime> emptied;
  /// Of those, the cleans whose plan was empty too: requested and inflight
  /// deleted, the clean gone from the timeline.
  std::vector<InstantTime> dropped;
  /// The clean whose plan is scheduled again, and that plan.
  std::optional<std::pair<InstantTime, CleanPlan>> replan;

  bool needed() const { return !emptied.empty(); }
};

namespace empty_clean_detail {

// The completed clean files of the timeline, newest first.
inline std::vector<const TimelineFile*> completed_cleans(const std::vector<TimelineFile>& files) {
  std::vector<const TimelineFile*> out;
  for (const TimelineFile& f : files) {
    if (f.parsed.action == Action::clean && f.parsed.state == State::completed) out.push_back(&f);
  }
  std::sort(out.begin(), out.end(),
            [](const TimelineFile* a, const TimelineFile* b) { return b->parsed.requested < a->parsed.requested; });
  return out;
}

inline const TimelineFile* file_of(const std::vector<TimelineFile>& files, const InstantTime& t, State s) {
  for (const TimelineFile& f : files) {
    if (f.parsed.action == Action::clean && f.parsed.state == s && f.parsed.requested == t) return &f;
  }
  return nullptr;
}

}  // namespace empty_clean_detail

/// `timeline` as the repair `r` leaves it, before the replanned clean is
/// requested: each emptied clean pending again, each dropped one gone. What
/// the checks that must pass before the repair changes anything look at.
[[nodiscard]] inline StatusOr<Timeline> as_repaired(const Timeline& timeline, const EmptyCleanRepair& r) {
  std::vector<Instant> out;
  for (Instant i : timeline.instants()) {
    auto named = [&](const std::vector<InstantTime>& ts) {
      return i.action == Action::clean && std::find(ts.begin(), ts.end(), i.requested) != ts.end();
    };
    if (named(r.dropped)) continue;
    if (named(r.emptied)) {
      i.state = State::inflight;
      i.completed.reset();
    }
    out.push_back(std::move(i));
  }
  return Timeline::make(std::move(out));
}

/// Hudi's repair, carried out when `execute` (else only reported). The
/// caller holds the table lock and then schedules `replan` at a new instant.
template <Storage S>
[[nodiscard]] StatusOr<EmptyCleanRepair> repair_empty_completed_cleans(S& storage, const TableProperties& props,
                                                                       const TableLocation& table, bool execute) {
  using namespace empty_clean_detail;
  LAKEGC_ASSIGN_OR_RETURN(std::vector<TimelineFile> files, list_timeline_files(storage, props, table));
  EmptyCleanRepair out;
  auto remove = [&](const std::string& name) -> Status {
    if (!execute) return Status();
    const std::string rel = props.timeline_dir + "/" + name;
    const Status st = storage.remove(rel);
    if (absl::IsNotFound(st)) return Status();
    return annotate(st, fmt::format("deleting {}", table.display(rel)));
  };
  for (const TimelineFile* completed : completed_cleans(files)) {
    if (completed->size != 0) break;  // the newest readable clean ends the repair
    const InstantTime t = completed->parsed.requested;
    out.emptied.push_back(t);
    LAKEGC_RETURN_IF_ERROR(remove(completed->name));
    const TimelineFile* requested = file_of(files, t, State::requested);
    if (requested != nullptr && requested->size != 0) {
      auto plan = read_clean_plan(storage, props, table, t);
      if (!plan.ok()) {
        return annotate(plan.status(), fmt::format("repairing the 0-byte completed clean {} (Hudi fails the same way: "
                                                   "\"Failed to parse cleaner plan\")",
                                                   t));
      }
      out.replan.emplace(t, std::move(*plan));
      return out;
    }
    // No plan to run again: the clean leaves the timeline.
    out.dropped.push_back(t);
    if (const TimelineFile* inflight = file_of(files, t, State::inflight)) {
      LAKEGC_RETURN_IF_ERROR(remove(inflight->name));
    }
    if (requested != nullptr) LAKEGC_RETURN_IF_ERROR(remove(requested->name));
  }
  return out;
}

}  // namespace lakegc::hudi
