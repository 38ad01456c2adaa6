// File: lakegc/plan/plan_rollback.hpp
// -----------------------------------------------------------------------------
// Failed-write rollback (docs/hudi-rules.md §11): which pending writes
// to roll back, and which files each created.
//
// * Candidates are pending commit, deltacommit and replacecommit instants;
//   compaction, log compaction and clustering are never rolled back here
//   (their own services re-attempt them). In layout 1 a pending
//   replacecommit may be a clustering, which the timeline name does not
//   tell: lakegc leaves those alone.
// * EAGER rolls back every candidate but the write starting now; LAZY only
//   those whose heartbeat expired (now - last beat > interval x tolerable
//   misses, 60 s x 2 by default; no heartbeat counts as expired); NEVER
//   nothing.
// * An instant that is only requested wrote nothing: its rollback deletes
//   nothing (its instant goes).
// * Markers name the files a write created, so no listing is needed; an
//   inflight write without markers falls back to the uncommitted files of
//   the view whose name carries its instant.
// * Layout 1 (table version 6) names a log file by its slice's base
//   instant, not by the write that made it: a log file whose base instant
//   is the failed write's began a file group of that write and is deleted
//   (MarkerBasedRollbackStrategy.createRollbackRequestForAppend); a log
//   file of an earlier slice is kept (readers skip its blocks of an
//   uncommitted instant) and is what Hudi's rollback then writes a rollback
//   command block for (hudi::rollback_service does; the storage-neutral
//   executor only reports it).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lakegc/core/file_name.hpp"
#include "lakegc/core/table_metadata.hpp"
#include "lakegc/core/table_view.hpp"

namespace lakegc {

enum class FailedWritesPolicy : std::uint8_t { eager, lazy, never };

struct RollbackOptions {
  FailedWritesPolicy policy = FailedWritesPolicy::eager;
  std::int64_t heartbeat_interval_ms = 60'000;
  std::int64_t tolerable_misses = 2;
  /// EAGER: the write that is starting (never rolled back).
  std::optional<InstantTime> current_write;
};

struct RollbackAction {
  InstantTime instant;
  Action action = Action::commit;
  std::vector<WrittenFile> files;  // to delete
  /// Layout-1 log files of earlier slices the write appended blocks to: kept.
  std::vector<WrittenFile> kept_files;
  std::string reason;
};

struct RollbackPlan {
  std::vector<RollbackAction> rollbacks;  // newest first
  std::vector<InstantTime> alive;         // pending writes left alone
};

inline RollbackPlan plan_rollback(const TableMetadata& md, const RollbackOptions& options, std::int64_t now_ms,
                                  const TableView* view = nullptr) {
  RollbackPlan plan;
  if (options.policy == FailedWritesPolicy::never) return plan;
  const auto pending = md.timeline.pending();
  for (auto it = pending.rbegin(); it != pending.rend(); ++it) {
    const Instant& i = **it;
    if (!is_commit_action(i.action)) continue;
    if (i.action == Action::replacecommit && md.layout == TimelineLayout::v1) continue;
    if (options.current_write && i.requested == *options.current_write) continue;
    std::string reason;
    if (options.policy == FailedWritesPolicy::lazy) {
      const auto hb = md.heartbeats.find(i.requested);
      const std::int64_t last = hb == md.heartbeats.end() ? 0 : hb->second;
      if (now_ms - last <= options.heartbeat_interval_ms * options.tolerable_misses) {
        plan.alive.push_back(i.requested);
        continue;
      }
      reason = hb == md.heartbeats.end() ? "no heartbeat" : fmt::format("heartbeat expired {} ms ago", now_ms - last);
    } else {
      reason = "eager: another write is starting";
    }
    RollbackAction a;
    a.instant = i.requested;
    a.action = i.action;
    a.reason = std::move(reason);
    std::vector<WrittenFile> files;
    if (i.state == State::requested) {
      // Only requested: the write never started, so it wrote nothing
      // (Hudi's rollback plan for a requested instant is empty). Files
      // named with its instant belong to no one it knows of.
    } else if (auto m = md.markers.find(i.requested); m != md.markers.end()) {
      files = m->second;
    } else if (view != nullptr) {
      for (const UncommittedFile& u : view->uncommitted_files()) {
        if (u.instant == i.requested) {
          files.push_back(
              {view->partitions()[u.partition].path, std::string(view->file_name(u.file)), view->file_size(u.file)});
        }
      }
    }
    for (auto& f : files) {
      bool earlier_slice = false;
      if (md.layout == TimelineLayout::v1 && !f.name.empty() && f.name.front() == '.') {
        // A log name that does not parse is kept too: what it holds is unknown.
        auto log = parse_log_file_name(f.name);
        earlier_slice = !log.ok() || log->instant != i.requested;
      }
      (earlier_slice ? a.kept_files : a.files).push_back(std::move(f));
    }
    plan.rollbacks.push_back(std::move(a));
  }
  return plan;
}

}  // namespace lakegc
