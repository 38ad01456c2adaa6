// File: lakegc/hudi/rollback_service.hpp
// -----------------------------------------------------------------------------
// Failed-write rollback on a real Hudi table, as Hudi 1.2's
// BaseHoodieTableServiceClient.rollbackFailedWrites does it
// (docs/hudi-rollback.md):
//
// 1. Pending rollbacks (a `.rollback.requested`, maybe `.inflight`) are
//    finished first, each from its own persisted plan, whoever wrote it.
// 2. The failed writes the policy names (plan_rollback: EAGER, LAZY by
//    heartbeat, NEVER) are rolled back newest first, each:
//      under the lock: a rollback instant later than every instant, its
//        HoodieRollbackPlan written as `<r>.rollback.requested`
//        (BaseRollbackPlanActionExecutor.requestRollback; an instant that
//        is only requested gets an empty plan);
//      `<r>.rollback.inflight` (empty), then the plan's files deleted
//        (a missing file counts as deleted, as in RollbackHelper);
//      its markers folder and its heartbeat file deleted (Hudi does this
//        after completing; before is what makes every crash resumable);
//      under the lock: the failed instant's own files deleted, inflight
//        first, then requested (deleteInflightAndRequestedInstant), then the
//        completed `.rollback` written (HoodieRollbackMetadata).
//    A crash after any step leaves a pending rollback, which step 1 of the
//    next run finishes with the same plan.
// 3. Marker-based planning (hoodie.rollback.using.markers, default true):
//    the files are the markers' (plan_rollback). With markers off, the
//    uncommitted files named with the instant (the listing fallback).
//
// 4. Table version 6: a log file of an earlier slice that a failed
//    deltacommit appended blocks to is kept, and the file group gets a new
//    log file holding a rollback command block (rollback_log_block.hpp;
//    the plan's logBlocksToBeDeleted, one request per file group; the
//    metadata's rollbackLogFiles and logFilesFromFailedCommit).
//
// 5. Rolling back one named instant (rollback_instant): what the metadata
//    table's write client does when the data table rolls a write back
//    (metadata_table/rollback_update.hpp): any state, a completed one
//    un-published first (revertToInflight), the files listed as
//    ListingBasedRollbackStrategy lists them; in table version 6 a
//    completed deltacommit's logs of earlier slices get rollback blocks.
//
// The metadata table: the caller's metadata_update hook runs where Hudi's
// finishRollback writes the table metadata (metadata_table/rollback_update.hpp). What it will not do (the caller refuses before any change):
// EAGER rollback of an instant with completed commits after it and no
// heartbeat file (Hudi's validateRollbackCommitSequence throws there); a
// kept log file whose name does not say its file group.
#pragma once

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/file_name.hpp"
#include "lakegc/core/load_view.hpp"
#include "lakegc/exec/clean_service.hpp"
#include "lakegc/exec/delete_tally.hpp"
#include "lakegc/exec/table_lock.hpp"
#include "lakegc/hudi/in_flight.hpp"
#include "lakegc/hudi/journal.hpp"
#include "lakegc/hudi/remove_tree.hpp"
#include "lakegc/hudi/rollback_log_block.hpp"
#include "lakegc/hudi/rollback_records.hpp"
#include "lakegc/plan/plan_rollback.hpp"

namespace lakegc::hudi {

/// What a rollback did to the table's metadata table (metadata_update).
struct MetadataTableRollbackUpdate {
  /// Table version 8 and later: the metadata table's rollback of its
  /// deltacommit at the failed instant (the write had reached it).
  std::optional<RollbackMetadataRecord> rollback;
  /// Table version 6: the metadata table's deltacommit at the rollback
  /// instant, and the log files it wrote (metadata-table relative).
  std::optional<InstantTime> deltacommit;
  std::vector<std::string> deltacommit_logs;

  bool empty() const noexcept { return !rollback && !deltacommit; }
};

struct RollbackServiceOptions {
  RollbackOptions rollback;
  /// hoodie.rollback.using.markers
  bool use_markers = true;
  const TableLock* lock = nullptr;
  /// Wall clock for rollback instants, completion times and timings.
  std::function<std::int64_t()> now_ms;
  /// The clock new rollback instants are taken from (--now, else the wall
  /// clock), as for a clean; LAZY expiry too, unless heartbeat_now_ms is set.
  std::int64_t plan_now_ms = 0;
  /// The clock LAZY heartbeat expiry is judged by, if not plan_now_ms. The
  /// tool sets it to the earlier of --now and the wall clock: a heartbeat
  /// file's time is the writer's wall clock, and a --now ahead of it must not
  /// make a live writer's heartbeat look expired (its write rolled back
  /// under it).
  std::optional<std::int64_t> heartbeat_now_ms;
  /// Delete the failed write's heartbeat file: the data table's
  /// rollbackFailedWrites does, the metadata table's rollback does not.
  bool remove_heartbeat = true;
  /// Hudi's writeTableMetadata step of finishRollback: called under the
  /// lock once the files are deleted, before the failed instant's own
  /// files go, with the failed instant, the rollback instant and the
  /// rollback's metadata. Returns what it did to the metadata table.
  std::function<StatusOr<MetadataTableRollbackUpdate>(const InstantTime&, const InstantTime&,
                                                      const RollbackMetadataRecord&)>
      metadata_update;
};

/// One rollback carried out (or finished) by this run.
struct RolledBack {
  InstantTime rollback_instant;
  InstantInfo failed;
  bool resumed = false;  ///< a pending rollback finished from its plan
  RollbackMetadataRecord metadata;
  DeleteTally tally;
  /// Version 6: the log files holding this rollback's command blocks.
  std::vector<RollbackLogFile> rollback_log_files;
  /// What the metadata table got (metadata_update).
  MetadataTableRollbackUpdate metadata_table;
};

/// What a run would do (dry run) or did.
struct RollbackRunReport {
  std::vector<RolledBack> done;
  /// Pending rollbacks found (finished first when executing).
  std::vector<std::pair<InstantTime, RollbackPlanRecord>> pending;
  RollbackPlan plan;  ///< the failed writes the policy names, newest first
  /// Instants left alone, with why.
  std::vector<std::pair<InstantTime, std::string>> left_alone;
  /// Why execution must not start, if so (nothing was changed).
  std::optional<std::string> refusal;
  /// Failed writes whose metadata-table deltacommit is rolled back too
  /// (filled by the caller that checks the metadata table).
  std::set<InstantTime> in_metadata_table;
};

namespace rollback_detail {

inline std::string pending_instant_file(const TableProperties& p, const InstantTime& t, Action a, State s) {
  if (a == Action::commit && s == State::inflight) return fmt::format("{}/{}.inflight", p.timeline_dir, t);
  return fmt::format("{}/{}.{}.{}", p.timeline_dir, t, to_string(a), s == State::inflight ? "inflight" : "requested");
}

/// The completed instant's file (`<t>.<action>` in layout 1,
/// `<t>_<completion>.<action>` in layout 2).
inline std::string completed_instant_file(const TableProperties& p, const Instant& i) {
  if (p.layout == TimelineLayout::v1 || !i.completed) {
    return fmt::format("{}/{}.{}", p.timeline_dir, i.requested, to_string(i.action));
  }
  return fmt::format("{}/{}_{}.{}", p.timeline_dir, i.requested, *i.completed, to_string(i.action));
}

inline std::optional<std::string> file_id_of(std::string_view name) {
  auto parsed = parse_data_file_name(name);
  if (!parsed.ok()) return std::nullopt;
  return std::visit([](const auto& n) { return n.file_id; }, *parsed);
}

/// The table-relative path of a plan's absolute path in `partition`: its
/// last component under the partition (Hudi writes absolute URIs of the
/// machine that planned, e.g. file:/opt/...).
[[nodiscard]] inline StatusOr<std::string> relative_path(std::string_view partition, std::string_view path,
                                                         std::string_view where) {
  const auto slash = path.rfind('/');
  const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  const std::string_view dir = slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
  const bool in_partition =
      partition.empty() || dir == partition ||
      (dir.size() > partition.size() && dir.ends_with(partition) && dir[dir.size() - partition.size() - 1] == '/');
  if (name.empty() || name == "." || name == ".." || !in_partition) {
    return absl::InvalidArgumentError(
        fmt::format("{}: path '{}' is not a file of partition '{}'", where, path, partition));
  }
  return join_path(partition, name);
}

/// How Hudi names a file it has just written in rollback metadata
/// (StoragePathInfo.getPath(): qualified, `file:/...` on a local disk).
inline std::string qualified_path(const std::string& display) {
  return display.starts_with('/') ? "file:" + display : display;
}

}  // namespace rollback_detail

template <Storage S>
class rollback_service {
 public:
  rollback_service(journal<S>& j, RollbackServiceOptions options) : j_(&j), o_(std::move(options)) {
    if (!o_.now_ms) {
      o_.now_ms = [] {
        return std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::system_clock::now().time_since_epoch())
            .count();
      };
    }
  }

  /// The dry run: what execute() would do now.
  [[nodiscard]] StatusOr<RollbackRunReport> plan() {
    RollbackRunReport r;
    LAKEGC_ASSIGN_OR_RETURN(TableMetadata md, j_->load());
    LAKEGC_RETURN_IF_ERROR(fill(md, r));
    return r;
  }

  /// Finishes pending rollbacks, then rolls back the failed writes.
  [[nodiscard]] StatusOr<RollbackRunReport> execute() {
    RollbackRunReport r;
    LAKEGC_ASSIGN_OR_RETURN(TableMetadata md, j_->load());
    LAKEGC_RETURN_IF_ERROR(fill(md, r));
    if (r.refusal) return r;
    if (j_->properties().version < 8) {
      // Markers of version-6 rollback blocks a crash left after their
      // rollback completed.
      LAKEGC_RETURN_IF_ERROR(remove_completed_rollback_markers(j_->storage(), j_->location(), md.timeline));
    }
    for (const auto& [t, plan] : r.pending) {
      LAKEGC_ASSIGN_OR_RETURN(RolledBack done, run_one(t, plan, /*resumed=*/true));
      r.done.push_back(std::move(done));
    }
    for (const RollbackAction& a : r.plan.rollbacks) {
      // Scheduling under the lock: the timeline read again, the instant
      // still pending, the rollback instant after every instant.
      InstantTime rt;
      RollbackPlanRecord plan;
      {
        TableLockHold hold(o_.lock);
        LAKEGC_RETURN_IF_ERROR(annotate(hold.status(), "taking the table lock to schedule a rollback"));
        LAKEGC_ASSIGN_OR_RETURN(Timeline tl, j_->load_timeline());
        const Instant* i = tl.find(a.instant);
        if (i == nullptr || i->is_completed()) continue;  // completed or rolled back meanwhile
        TableMetadata now_md;
        now_md.timeline = tl;
        now_md.timezone = j_->properties().timezone;
        rt = allocate_instant(now_md, o_.plan_now_ms);
        plan = hudi_plan(a, i->state);
        const std::string rel = fmt::format("{}/{}.rollback.requested", j_->properties().timeline_dir, rt);
        LAKEGC_ASSIGN_OR_RETURN(std::string bytes, encode_rollback_plan(plan));
        LAKEGC_RETURN_IF_ERROR(annotate(j_->storage().write_if_absent(rel, bytes), j_->display(rel)));
        LAKEGC_RETURN_IF_ERROR(annotate(hold.release(), "releasing the table lock after scheduling"));
      }
      LAKEGC_ASSIGN_OR_RETURN(RolledBack done, run_one(rt, plan, /*resumed=*/false));
      r.done.push_back(std::move(done));
    }
    return r;
  }

  /// Rolls back the `action` instant at `instant`, in whatever state, with
  /// rollback instant `rt`, as the write client's rollback(commit,
  /// rollbackTime) does for the metadata table: a pending rollback of it is
  /// finished from its own plan (getPendingRollbackInfo), even where the
  /// instant's files are already gone (a crash between the two steps of
  /// ours); otherwise a listing-based plan is requested at `rt` and run. No
  /// lock is taken here: the caller holds the one that covers the step.
  /// nullopt when the timeline has neither (nothing to roll back).
  [[nodiscard]] StatusOr<std::optional<RolledBack>> rollback_instant(const InstantTime& instant, Action action,
                                                                     const InstantTime& rt) {
    LAKEGC_ASSIGN_OR_RETURN(TableMetadata md, j_->load());
    RollbackRunReport pending;
    LAKEGC_RETURN_IF_ERROR(read_pending_rollbacks(md, pending));
    for (const auto& [t, plan] : pending.pending) {
      if (plan.instant_to_rollback->commit_time == instant.str()) {
        LAKEGC_ASSIGN_OR_RETURN(RolledBack done, run_one(t, plan, /*resumed=*/true));
        return std::optional<RolledBack>(std::move(done));
      }
    }
    const Instant* target = nullptr;
    for (const Instant& i : md.timeline.instants()) {
      if (i.requested == instant && i.action == action) target = &i;
    }
    if (target == nullptr) return std::optional<RolledBack>();
    LAKEGC_ASSIGN_OR_RETURN(RollbackPlanRecord plan, listing_plan(md, *target));
    const std::string rel = fmt::format("{}/{}.rollback.requested", j_->properties().timeline_dir, rt);
    LAKEGC_ASSIGN_OR_RETURN(std::string bytes, encode_rollback_plan(plan));
    LAKEGC_RETURN_IF_ERROR(annotate(j_->storage().write_if_absent(rel, bytes), j_->display(rel)));
    LAKEGC_ASSIGN_OR_RETURN(RolledBack done, run_one(rt, plan, /*resumed=*/false));
    return std::optional<RolledBack>(std::move(done));
  }

 private:
  // The report's plan part, shared by plan() and execute().
  [[nodiscard]] Status fill(const TableMetadata& md, RollbackRunReport& r) {
    const TableProperties& p = j_->properties();
    LAKEGC_RETURN_IF_ERROR(read_pending_rollbacks(md, r));
    std::set<InstantTime> being_rolled_back;
    for (const auto& [t, plan] : r.pending) {
      if (auto f = InstantTime::parse(plan.instant_to_rollback->commit_time); f.ok()) being_rolled_back.insert(*f);
    }
    std::optional<TableView> view;
    if (!o_.use_markers) {
      LAKEGC_ASSIGN_OR_RETURN(view, load_view(j_->storage(), md));
    }
    RollbackPlan planned =
        plan_rollback(md, o_.rollback, o_.heartbeat_now_ms.value_or(o_.plan_now_ms), view ? &*view : nullptr);
    for (RollbackAction& a : planned.rollbacks) {
      if (being_rolled_back.contains(a.instant)) continue;  // its pending rollback finishes it
      for (const WrittenFile& f : a.kept_files) {
        if (!parse_log_file_name(f.name).ok()) {
          r.refusal = fmt::format(
              "{} {} appended to '{}', whose name does not say its file group and slice; lakegc cannot write its "
              "rollback block (run Hudi's rollback)",
              to_string(a.action), a.instant, join_path(f.partition, f.name));
        }
      }
      if (!o_.use_markers && p.version < 8 && p.type == TableType::merge_on_read && a.action == Action::deltacommit) {
        // Without markers nothing names the logs of earlier slices it
        // appended to (version 6 log names carry no write instant); Hudi's
        // listing strategy reads them from the inflight commit metadata
        // (getRollbackRequestToAppendForVersionSix) and writes their
        // rollback blocks. Rolling back without those blocks would let the
        // failed blocks read as committed once the instant is archived.
        r.refusal = fmt::format(
            "deltacommit {}: a listing-based rollback (hoodie.rollback.using.markers=false) in table version 6 "
            "cannot see the log files it appended to, whose rollback blocks Hudi writes from the inflight commit "
            "metadata; lakegc does not (use the markers, or run Hudi's rollback)",
            a.instant);
      }
      if (o_.rollback.policy == FailedWritesPolicy::eager && !md.heartbeats.contains(a.instant)) {
        for (const Instant& later : md.timeline.instants()) {
          if (later.is_completed() && is_write_action(later.action) && a.instant < later.requested) {
            r.refusal = fmt::format(
                "{} {} has completed commits after it ({}) and no heartbeat file; Hudi's EAGER rollback refuses "
                "that (\"Found commits after time\", validateRollbackCommitSequence)",
                to_string(a.action), a.instant, later.requested);
            break;
          }
        }
      }
      // Markers carry no sizes; the report shows what is on storage.
      for (auto* files : {&a.files, &a.kept_files}) {
        for (WrittenFile& f : *files) {
          if (auto info = j_->storage().stat(join_path(f.partition, f.name)); info.ok()) f.size = info->size;
        }
      }
      r.plan.rollbacks.push_back(std::move(a));
    }
    for (const InstantTime& t : planned.alive) {
      r.left_alone.emplace_back(t, "its writer's heartbeat is alive (LAZY)");
    }
    for (const Instant* i : md.timeline.pending()) {
      if (i->action == Action::compaction || i->action == Action::logcompaction || i->action == Action::clustering) {
        r.left_alone.emplace_back(i->requested,
                                  fmt::format("a pending {}: its own service re-attempts it", to_string(i->action)));
      } else if (i->action == Action::replacecommit && md.layout == TimelineLayout::v1) {
        r.left_alone.emplace_back(i->requested,
                                  "a pending replacecommit in layout 1 may be a clustering: left to Hudi");
      }
    }
    return Status();
  }

  // The ListingBasedRollbackStrategy plan for `i`: the files named with the
  // instant (a base file's instant; a log file's, which is its deltacommit
  // from table version 8 on and its slice's base instant before), from a
  // completed instant's commit metadata or else from a listing of the table
  // outside `.hoodie` (version 6 MOR lists always), one delete request per
  // file with file id and base instant empty; an instant only requested
  // gets an empty plan. Version 6 MOR deltacommits add the logs of earlier
  // slices they appended to (version6_append_requests).
  [[nodiscard]] StatusOr<RollbackPlanRecord> listing_plan(const TableMetadata& md, const Instant& i) {
    const TableProperties& p = j_->properties();
    RollbackPlanRecord plan;
    plan.instant_to_rollback = InstantInfo{i.requested.str(), std::string(to_string(i.action))};
    if (i.state == State::requested) return plan;
    const bool v6_deltacommit = p.version < 8 && p.type == TableType::merge_on_read && i.action == Action::deltacommit;
    auto c = md.commits.find(i.requested);
    if (p.version < 8 && !(v6_deltacommit && i.is_completed() && c != md.commits.end())) {
      return absl::FailedPreconditionError(fmt::format(
          "{} {} ({}): a listing-based rollback in table version {} appends rollback blocks to the logs it wrote "
          "to, named only in a completed deltacommit's metadata; lakegc rolls back only those",
          to_string(i.action), i.requested, to_string(i.state), p.version));
    }
    auto named_with_instant = [&](std::string_view name) {
      const auto n = scan_data_file_name(name);
      return n && n->instant == i.requested;
    };
    std::vector<WrittenFile> files;
    if (i.is_completed() && c != md.commits.end() && !v6_deltacommit) {
      for (const FileRef f : c->second.files) {
        if (named_with_instant(f.name)) files.push_back(f.owned());
      }
    } else {
      ListOptions o;
      o.skip_dir = [](std::string_view d) { return d == ".hoodie" || d.ends_with("/.hoodie"); };
      LAKEGC_RETURN_IF_ERROR(j_->storage().list(
          "",
          [&](const FileEntry& e) {
            const std::string_view path = e.path;
            const auto slash = path.rfind('/');
            const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
            if (named_with_instant(name)) {
              files.push_back(
                  WrittenFile{std::string(slash == std::string_view::npos ? std::string_view() : path.substr(0, slash)),
                              std::string(name), static_cast<std::uint64_t>(e.size)});
            }
          },
          o));
      std::sort(files.begin(), files.end(), [](const WrittenFile& a, const WrittenFile& b) {
        return std::tie(a.partition, a.name) < std::tie(b.partition, b.name);
      });
    }
    for (const WrittenFile& f : files) {
      RollbackRequest q;
      q.partition_path = f.partition;
      q.file_id = "";
      q.latest_base_instant = "";
      q.files_to_be_deleted = {j_->display(join_path(f.partition, f.name))};
      plan.requests.push_back(std::move(q));
    }
    if (v6_deltacommit) {
      LAKEGC_ASSIGN_OR_RETURN(std::vector<RollbackRequest> appends, version6_append_requests(i, c->second));
      for (RollbackRequest& q : appends) plan.requests.push_back(std::move(q));
    }
    return plan;
  }

  // ListingBasedRollbackStrategy.getRollbackRequestToAppendForVersionSix for
  // the completed version-6 deltacommit `i` with commit metadata `c`: one
  // request per log file it wrote into a slice whose base instant is before
  // it (logBlocksToBeDeleted: the log's full path -> its size, 1 when
  // empty), which the executor answers with a rollback block. Hudi takes
  // the slice from the file system view (the file group's latest slice on
  // or before `i`, pending compactions included) and skips write stats
  // without prevCommit (inserts); a version-6 log file is named by the slice
  // it sits in, which is that latest slice when `i` wrote it, and a log file
  // whose slice `i` began is deleted by the listing above instead. Used for
  // metadata-table deltacommits, whose every write stat is an update of an
  // existing file group (UPSERT_PREPPED, tagged with its location).
  [[nodiscard]] StatusOr<std::vector<RollbackRequest>> version6_append_requests(const Instant& i,
                                                                                const CommitInfo& c) const {
    std::vector<RollbackRequest> out;
    for (const FileRef f : c.files) {
      auto log = parse_log_file_name(f.name);
      if (!log.ok() || !(log->instant < i.requested)) {
        if (log.ok() && i.requested < log->instant) {
          return absl::FailedPreconditionError(fmt::format(
              "deltacommit {} wrote '{}', of a slice that begins after it (Hudi: \"Log-file base-instant could not "
              "be less than the instant being rolled back\")",
              i.requested, join_path(f.partition, f.name)));
        }
        continue;  // a base file or a log beginning its slice: the listing deletes it
      }
      RollbackRequest q;
      q.partition_path = f.partition;
      q.file_id = log->file_id;
      q.latest_base_instant = log->instant.str();
      q.log_blocks_to_be_deleted[j_->display(join_path(f.partition, f.name))] =
          f.size > 0 ? static_cast<std::int64_t>(f.size) : 1;
      out.push_back(std::move(q));
    }
    return out;
  }

  // The pending rollbacks of commit actions, each with its plan, into
  // `r.pending`; those of other actions into `r.left_alone`.
  [[nodiscard]] Status read_pending_rollbacks(const TableMetadata& md, RollbackRunReport& r) {
    const TableProperties& p = j_->properties();
    for (const Instant* i : md.timeline.pending()) {
      if (i->action != Action::rollback) continue;
      const std::string rel = fmt::format("{}/{}.rollback.requested", p.timeline_dir, i->requested);
      auto bytes = j_->storage().read(rel);
      if (!bytes.ok()) return annotate(bytes.status(), j_->display(rel));
      LAKEGC_ASSIGN_OR_RETURN(RollbackPlanRecord plan, decode_rollback_plan(*bytes, j_->display(rel)));
      if (!plan.instant_to_rollback) {
        return absl::InvalidArgumentError(fmt::format("{}: the plan names no instantToRollback", j_->display(rel)));
      }
      auto action = parse_action(plan.instant_to_rollback->action);
      if (!action.ok() || !is_commit_action(*action)) {
        // Compaction and clustering rollbacks belong to their own services.
        r.left_alone.emplace_back(i->requested,
                                  fmt::format("a pending rollback of {} {}: left to Hudi's table "
                                              "services",
                                              plan.instant_to_rollback->action, plan.instant_to_rollback->commit_time));
        continue;
      }
      r.pending.emplace_back(i->requested, std::move(plan));
    }
    return Status();
  }

  // BaseRollbackPlanActionExecutor.requestRollback with the marker-based
  // strategy (MarkerBasedRollbackStrategy.getRollbackRequests): one request
  // per file to delete; in version 6 a log file the write began a file
  // group with has empty file id and base instant, and the logs of earlier
  // slices make one logBlocksToBeDeleted request per file group (name ->
  // size; a log that is gone, an empty request), as
  // RollbackUtils.groupRollbackRequestsBasedOnFileGroup leaves them.
  RollbackPlanRecord hudi_plan(const RollbackAction& a, State state) const {
    RollbackPlanRecord plan;
    plan.instant_to_rollback = InstantInfo{a.instant.str(), std::string(to_string(a.action))};
    if (state == State::requested) return plan;
    const bool v6 = j_->properties().version < 8;
    for (const WrittenFile& f : a.files) {
      const bool began_group_with_log = v6 && f.name.starts_with('.');
      RollbackRequest q;
      q.partition_path = f.partition;
      q.file_id = began_group_with_log ? "" : rollback_detail::file_id_of(f.name).value_or("");
      q.latest_base_instant = began_group_with_log ? "" : a.instant.str();
      q.files_to_be_deleted = {j_->display(join_path(f.partition, f.name))};
      plan.requests.push_back(std::move(q));
    }
    std::map<std::pair<std::string, std::string>, std::size_t> groups;
    for (const WrittenFile& f : a.kept_files) {
      auto log = parse_log_file_name(f.name);
      if (!log.ok()) continue;  // refused by fill()
      RollbackRequest q;
      q.partition_path = f.partition;
      q.file_id = log->file_id;
      q.latest_base_instant = log->instant.str();
      auto info = j_->storage().stat(join_path(f.partition, f.name));
      if (!info.ok()) {
        plan.requests.push_back(std::move(q));
        continue;
      }
      auto [it, added] = groups.try_emplace({f.partition, log->file_id}, plan.requests.size());
      if (added) plan.requests.push_back(std::move(q));
      plan.requests[it->second].log_blocks_to_be_deleted[f.name] = static_cast<std::int64_t>(info->size);
    }
    return plan;
  }

  // Executes the rollback `rt` from its plan: the steps after scheduling.
  [[nodiscard]] StatusOr<RolledBack> run_one(const InstantTime& rt, const RollbackPlanRecord& plan, bool resumed) {
    const TableProperties& p = j_->properties();
    S& st = j_->storage();
    RolledBack out;
    out.rollback_instant = rt;
    out.failed = *plan.instant_to_rollback;
    out.resumed = resumed;
    const std::string what = fmt::format("rollback {} of {}", rt, out.failed.commit_time);
    auto failed_or = InstantTime::parse(out.failed.commit_time);
    if (!failed_or.ok()) return annotate(failed_or.status(), what + ": instantToRollback.commitTime");
    auto action_or = parse_action(out.failed.action);
    if (!action_or.ok()) return annotate(action_or.status(), what + ": instantToRollback.action");
    const InstantTime failed = *failed_or;
    const Action failed_action = *action_or;
    const std::string inflight = fmt::format("{}/{}.rollback.inflight", p.timeline_dir, rt);
    if (Status s = st.write_if_absent(inflight, ""); !s.ok() && !absl::IsAlreadyExists(s)) {
      return annotate(s, j_->display(inflight));
    }
    const std::int64_t started = o_.now_ms();
    // Un-publishing a completed instant (revertToInflight, the metadata
    // table's case) goes first: readers stop seeing it before its files go.
    {
      LAKEGC_ASSIGN_OR_RETURN(Timeline tl, j_->load_timeline());
      for (const Instant& i : tl.instants()) {
        if (i.requested != failed || i.action != failed_action || !i.is_completed()) continue;
        const std::string rel = rollback_detail::completed_instant_file(p, i);
        if (Status rm = st.remove(rel); !rm.ok() && !absl::IsNotFound(rm)) return annotate(rm, j_->display(rel));
      }
    }
    RollbackMetadataRecord& m = out.metadata;
    m.start_rollback_time = rt.str();
    m.commits_rollback = {out.failed.commit_time};
    m.instants_rollback = {out.failed};
    std::optional<std::string> last_instant;  // read once, when a rollback block needs it
    for (const RollbackRequest& q : plan.requests) {
      RollbackPartitionRecord& pm = m.partition_metadata[q.partition_path];
      pm.partition_path = q.partition_path;
      // RollbackHelperV1: files to delete win over log blocks in one request.
      if (q.files_to_be_deleted.empty() && !q.log_blocks_to_be_deleted.empty()) {
        if (p.version >= 8) {
          return absl::FailedPreconditionError(
              fmt::format("{}: the plan asks for rollback blocks in partition '{}', which table version {} never has "
                          "(Hudi refuses: log files use CREATE markers there); nothing was changed",
                          what, q.partition_path, p.version));
        }
        auto base = InstantTime::parse(q.latest_base_instant.value_or(""));
        if (!base.ok()) return annotate(base.status(), what + ": latestBaseInstant of a logBlocksToBeDeleted request");
        if (!last_instant) {
          LAKEGC_ASSIGN_OR_RETURN(Timeline tl, j_->load_timeline());
          last_instant = rt.str();
          for (const Instant& i : tl.instants()) last_instant = std::max(*last_instant, i.requested.str());
        }
        LAKEGC_ASSIGN_OR_RETURN(
            RollbackLogFile lf,
            write_rollback_log_block(st, rt, failed, *last_instant, q.partition_path, q.file_id.value_or(""), *base));
        pm.rollback_log_files[rollback_detail::qualified_path(j_->display(lf.path))] =
            static_cast<std::int64_t>(lf.size);
        pm.log_files_from_failed_commit.insert(q.log_blocks_to_be_deleted.begin(), q.log_blocks_to_be_deleted.end());
        out.rollback_log_files.push_back(std::move(lf));
        continue;
      }
      for (const std::string& path : q.files_to_be_deleted) {
        LAKEGC_ASSIGN_OR_RETURN(std::string rel, rollback_detail::relative_path(q.partition_path, path, what));
        std::uint64_t size = 0;
        if (auto info = st.stat(rel); info.ok()) size = info->size;
        LAKEGC_RETURN_IF_ERROR(out.tally.record(st.remove(rel), rel, size, what));
        pm.success_delete_files.push_back(path);  // deleted or already gone: both success in Hudi
      }
    }
    m.total_files_deleted = 0;
    for (const auto& [k, pm] : m.partition_metadata) {
      m.total_files_deleted += static_cast<std::int64_t>(pm.success_delete_files.size());
    }
    m.time_taken_ms = o_.now_ms() - started;
    // Markers and heartbeat go before the rollback completes (Hudi deletes
    // them after): the persisted plan no longer needs the markers, and a
    // crash then leaves a pending rollback that the next run finishes,
    // never a completed rollback with leftovers no run would look at.
    LAKEGC_RETURN_IF_ERROR(remove_tree(fmt::format("{}/{}", kMarkerDir, failed)));
    if (o_.remove_heartbeat) {
      const std::string hb = fmt::format("{}/{}", kHeartbeatDir, failed);
      if (Status rm = st.remove(hb); !rm.ok() && !absl::IsNotFound(rm)) return annotate(rm, j_->display(hb));
    }
    {
      TableLockHold hold(o_.lock);
      LAKEGC_RETURN_IF_ERROR(annotate(hold.status(), "taking the table lock to complete a rollback"));
      if (o_.metadata_update) {
        LAKEGC_ASSIGN_OR_RETURN(out.metadata_table, o_.metadata_update(failed, rt, m));
      }
      for (const State s : {State::inflight, State::requested}) {
        const std::string rel = rollback_detail::pending_instant_file(p, failed, failed_action, s);
        if (Status rm = st.remove(rel); !rm.ok() && !absl::IsNotFound(rm)) return annotate(rm, j_->display(rel));
      }
      std::string rel;
      if (p.layout == TimelineLayout::v1) {
        rel = fmt::format("{}/{}.rollback", p.timeline_dir, rt);
      } else {
        InstantTime done = InstantTime::from_epoch_ms(o_.now_ms(), p.timezone);
        if (!(rt < done)) {
          auto ms = rt.to_epoch_ms(p.timezone);
          done = InstantTime::from_epoch_ms((ms.ok() ? *ms : o_.now_ms()) + 1, p.timezone);
        }
        rel = fmt::format("{}/{}_{}.rollback", p.timeline_dir, rt, done);
      }
      LAKEGC_ASSIGN_OR_RETURN(std::string bytes, encode_rollback_metadata(m));
      LAKEGC_RETURN_IF_ERROR(annotate(st.write_if_absent(rel, bytes), j_->display(rel)));
      LAKEGC_RETURN_IF_ERROR(annotate(hold.release(), "releasing the table lock after a rollback"));
    }
    // The rollback's own markers (of its rollback blocks), as Hudi deletes
    // them once a version-6 MOR rollback completes.
    if (!out.rollback_log_files.empty()) {
      LAKEGC_RETURN_IF_ERROR(remove_tree(fmt::format("{}/{}", kMarkerDir, rt)));
    }
    return out;
  }

  // Deletes a folder and everything below it (the markers of one write).
  [[nodiscard]] Status remove_tree(const std::string& dir) {
    return hudi::remove_tree(j_->storage(), j_->location(), dir).status();
  }

  journal<S>* j_;
  RollbackServiceOptions o_;
};

}  // namespace lakegc::hudi
