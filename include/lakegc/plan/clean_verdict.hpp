// File: lakegc/plan/clean_verdict.hpp
// -----------------------------------------------------------------------------
// The planner explains itself: for every slice it looks at, plan_clean can
// hand a verdict to a sink: deleted (and why), or kept (and every reason
// that keeps it). The tool prints these verdicts; nothing else restates the
// cleaning rules to explain a plan, so an explanation cannot drift from
// what the planner did.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lakegc/core/table_view.hpp"
#include "lakegc/plan/clean_plan.hpp"

namespace lakegc {

/// Why a slice stays: a bit set of these.
enum KeepReason : std::uint32_t {
  kKeepLatest = 1u << 0,                ///< the latest slice of a live group
  kKeepInsideWindow = 1u << 1,          ///< its base instant is at or after the boundary
  kKeepNewestBeforeBoundary = 1u << 2,  ///< the slice a query pinned just before the boundary reads
  kKeepWithinVersions = 1u << 3,        ///< among the newest N versions
  kKeepNoBoundary = 1u << 4,            ///< no earliest commit to retain yet
  kKeepReplacedNotYet = 1u << 5,        ///< a replaced group whose replacecommit is not before the boundary
  kKeepSavepoint = 1u << 6,             ///< a savepoint names one of its files
  kKeepPendingCompaction = 1u << 7,     ///< at or after a pending compaction's base instant
  kKeepLeased = 1u << 8,                ///< a leased snapshot reads it
  kKeepUserGuard = 1u << 9,             ///< a user-written guard keeps it
  kKeepPendingWrite = 1u << 10,         ///< a pending write's markers name one of its files
  kKeepNotInScope = 1u << 11,           ///< its partition is not in this clean's scope
  kKeepListingGap = 1u << 12,           ///< its partition's listing is incomplete: skipped
};

/// The wording of each reason (part of `lakegc plan clean --json`).
inline std::vector<std::string> keep_reason_names(std::uint32_t reasons, std::optional<std::uint32_t> versions) {
  std::vector<std::string> out;
  auto add = [&](KeepReason r, std::string_view name) {
    if ((reasons & r) != 0) out.emplace_back(name);
  };
  add(kKeepLatest, "latest slice");
  add(kKeepInsideWindow, "inside the retention window");
  add(kKeepNewestBeforeBoundary, "newest slice before the boundary");
  if ((reasons & kKeepWithinVersions) != 0 && versions) {
    out.push_back(fmt::format("within the newest {} version{}", *versions, *versions == 1 ? "" : "s"));
  }
  add(kKeepNoBoundary, "no earliest commit to retain yet");
  add(kKeepReplacedNotYet, "replaced group, replacecommit not before the boundary");
  add(kKeepSavepoint, "savepoint");
  add(kKeepPendingCompaction, "pending compaction");
  add(kKeepLeased, "read by a leased snapshot");
  add(kKeepUserGuard, "kept by a guard");
  add(kKeepPendingWrite, "a pending write's markers name its files");
  add(kKeepNotInScope, "partition not in this incremental clean's scope");
  add(kKeepListingGap, "partition skipped: its listing lacks files the metadata proves exist");
  return out;
}

/// One slice, as the planner decided it.
struct SliceVerdict {
  const Partition* partition = nullptr;
  const FileGroup* group = nullptr;
  const FileSlice* slice = nullptr;
  /// Set when the slice goes (its files are in the plan).
  std::optional<DeleteReason> deleted;
  /// Why it stays (0 when it goes).
  std::uint32_t kept = 0;
  /// Logs of a deleted slice kept because their slice is uncertain
  /// (TableView::completion_unknown).
  std::uint32_t uncertain_logs_kept = 0;
};

using VerdictSink = std::function<void(const SliceVerdict&)>;

}  // namespace lakegc
