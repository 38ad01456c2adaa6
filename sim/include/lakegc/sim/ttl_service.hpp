// File: lakegc/sim/ttl_service.hpp
// -----------------------------------------------------------------------------
// The partition TTL service: the library's plan_ttl on the table as Hudi
// reads it, then, as Hudi's TTL executor (SparkPartitionTTLActionExecutor ->
// the delete-partition executor) does, one replacecommit with operation
// DELETE_PARTITION at the TTL instant (requested, inflight, completed,
// through memory_journal) whose replaced file groups are every group of the
// latest slices of each expired partition (getAllExistingFileIds: groups
// not replaced, with a committed slice). Nothing is deleted here: the
// cleaner removes the replaced groups' files once its boundary passes the
// replacecommit, and the partition once it is empty (partitionsToBeDeleted).
//
// * Settings from the swarm (SwarmConfig::ttl): KEEP_BY_TIME or
//   KEEP_BY_CREATION_TIME (read_partition_creation_times reads the
//   partitions' `.hoodie_partition_metadata`, whose commitTime the table's
//   first write into a partition set), days.retain 1-2,
//   max.delete.partitions (a cap of 1 or 2 in half of the swarms: the rest
//   drains over later runs).
// * KEEP_BY_TIME ages a partition by its newest base instant, not its
//   newest log (Hudi's rule, plan_ttl): log-only updates do not keep a MOR
//   partition alive. A documented choice, not a canary.
// * Blocked (Hudi: DeletePartitionUtils.checkForPendingTableServiceActions):
//   a pending compaction of a group in an expired partition
//   (TtlPlan::blocking_table_services), or a pending clustering of one (the
//   simulator knows its groups exactly; plan_ttl lists pending clusterings
//   as possibly blocking). The run then writes nothing and is counted.
//   CANARY ttl-ignores-pending-compaction (TtlKnobs::ignore_pending_services)
//   drops the partition anyway; a clustering that completes afterwards
//   writes the dropped rows back into a live group of the dropped partition
//   (I4, check_latest_exact: Oracle::ttl_dropped and derive).
// * Writers: a write in flight that touches a dropped group conflicts with
//   the replacecommit (Writers::record_commit; Hudi's conflict resolution
//   counts replaced file ids) and is abandoned; an insert later re-creates
//   the partition (a new file group and its partition metadata).
// * After each drop, check_ttl_drop: the latest snapshot lost exactly the
//   files of the expired partitions (I4 excepts them and nothing else), and
//   check_latest_exact.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "lakegc/core/load_view.hpp"
#include "lakegc/plan/partition_creation.hpp"
#include "lakegc/plan/plan_ttl.hpp"
#include "lakegc/sim/checkers.hpp"
#include "lakegc/sim/table.hpp"
#include "lakegc/sim/writer.hpp"

namespace lakegc::sim {

/// The swarm's TTL settings in the library's form.
inline TtlSettings ttl_settings(const TtlKnobs& k) {
  TtlSettings s;
  s.strategy = k.by_creation_time ? TtlStrategy::keep_by_creation_time : TtlStrategy::keep_by_time;
  s.days_retain = k.days;
  s.max_delete_partitions = k.max_delete;
  return s;
}

/// I4 for a drop: the latest snapshot before the replacecommit minus the
/// files of the expired partitions is exactly the snapshot after it.
inline bool check_ttl_drop(Table& t, const std::vector<SnapshotFile>& before, const std::set<std::string>& expired,
                           const InstantTime& replacecommit) {
  auto md = t.load();
  if (!md.ok()) return false;
  auto after = resolve_snapshot(t.storage, *md, replacecommit);
  if (!after.ok()) {
    t.unexpected("ttl", "resolving the snapshot after the drop", after.status());
    return false;
  }
  std::set<std::string> now;
  for (const SnapshotFile& f : *after) now.insert(f.path());
  for (const SnapshotFile& f : before) {
    const bool dropped = expired.contains(f.partition);
    if (dropped == now.contains(f.path())) {
      t.violation(Invariant::I4_no_loss, "ttl", f.path(), replacecommit,
                  dropped ? "a file of an expired partition still reads after the DELETE_PARTITION replacecommit"
                          : "the DELETE_PARTITION replacecommit dropped a file of a partition that did not expire");
      return false;
    }
  }
  return true;
}

class TtlService {
 public:
  TtlService(Table& t, Writers& writers) : t_(t), writers_(writers) {}

  /// One TTL run. Returns true when it dropped partitions.
  bool run() {
    if (!t_.swarm.ttl.on) return false;
    auto md = t_.load();
    if (!md.ok()) return false;
    auto view = load_view(t_.storage, *md);
    if (!view.ok()) return false;  // an injected listing failure: Hudi's run fails too
    PartitionCreationTimes creation;
    TtlContext ctx;
    ctx.ttl_instant = t_.next_instant();
    if (t_.swarm.ttl.by_creation_time) {
      std::vector<std::string> paths;
      for (const Partition& p : view->partitions()) paths.push_back(p.path);
      auto read = read_partition_creation_times(t_.storage, paths);
      if (!read.ok()) return false;
      creation = std::move(*read);
      ctx.creation = &creation;
    }
    auto plan = plan_ttl(*view, *md, ttl_settings(t_.swarm.ttl), ctx);
    if (!plan.ok()) {
      // Hudi's run fails as well (e.g. a partition without metadata).
      ++t_.stats.ttl_failed;
      t_.event("ttl", "run failed: {}", message_of(plan.status()));
      return false;
    }
    if (plan->expired.empty()) return false;
    const std::set<std::string> expired(plan->expired.begin(), plan->expired.end());
    std::vector<std::string> blockers;
    for (const InstantTime& c : plan->blocking_table_services) blockers.push_back(fmt::format("compaction {}", c));
    for (const auto& [key, g] : t_.groups) {
      if (g.clustering && expired.contains(std::string(lakegc::detail::split_parent(key).first))) {
        blockers.push_back(fmt::format("clustering {}", *g.clustering));
      }
    }
    if (!blockers.empty()) {
      if (!t_.swarm.ttl.ignore_pending_services) {
        ++t_.stats.ttl_blocked;
        t_.event("ttl", "{} expired partition(s), run is a no-op: pending {} (checkForPendingTableServiceActions)",
                 plan->expired.size(), blockers.front());
        return false;
      }
      t_.event("ttl", "CANARY: drops partitions with pending {}", blockers.front());
    }

    // The replacecommit: every group with a latest slice, not replaced.
    CommitInfo info;
    std::vector<std::string> group_keys;
    for (const Partition& p : view->partitions()) {
      if (!expired.contains(p.path)) continue;
      for (const FileGroup& g : view->groups_of(p)) {
        if (g.replaced_by || g.slice_count == 0) continue;
        info.replaced.push_back({p.path, std::string(view->file_id(g))});
        group_keys.push_back(Table::group_key(p.path, view->file_id(g)));
      }
      info.partitions_written.push_back(p.path);
    }
    const auto commits = md->timeline.completed_commits();
    std::vector<SnapshotFile> before;
    if (!commits.empty()) {
      auto latest = resolve_snapshot(t_.storage, *md, commits.back()->requested);
      if (!latest.ok()) return false;
      before = std::move(*latest);
    }
    const InstantTime r = ctx.ttl_instant;
    if (Status st = t_.journal.begin(r, Action::replacecommit); !st.ok()) {
      t_.unexpected("ttl", "journal.begin", st);
      return false;
    }
    (void)t_.journal.set_inflight(r);
    const InstantTime completion = t_.next_instant();
    if (Status st = t_.journal.complete(r, completion, std::move(info)); !st.ok()) {
      t_.unexpected("ttl", "journal.complete", st);
      return false;
    }
    t_.oracle.bump();
    std::vector<std::string> dropped;
    for (const SnapshotFile& f : before) {
      if (expired.contains(f.partition)) dropped.push_back(f.path());
    }
    t_.oracle.ttl_dropped(dropped);
    writers_.record_commit(r, group_keys);
    ++t_.stats.ttl_drops;
    t_.stats.ttl_partitions_dropped += expired.size();
    t_.event("ttl", "DELETE_PARTITION replacecommit {} completed {}: {} partition(s) ({}), {} file group(s){}", r,
             completion, expired.size(), plan->expired.front(), group_keys.size(),
             plan->expired_total > plan->expired.size() ? fmt::format("; {} more expired, past max.delete.partitions",
                                                                      plan->expired_total - plan->expired.size())
                                                        : std::string());
    if (check_ttl_drop(t_, before, expired, r)) check_latest_exact(t_, "ttl");
    return true;
  }

 private:
  Table& t_;
  Writers& writers_;
};

}  // namespace lakegc::sim
