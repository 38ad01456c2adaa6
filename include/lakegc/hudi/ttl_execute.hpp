// File: lakegc/hudi/ttl_execute.hpp
// -----------------------------------------------------------------------------
// Executes a partition TTL plan on a real table as Hudi's TTL service does
// (SparkPartitionTTLActionExecutor -> SparkDeletePartitionCommitActionExecutor):
// one replacecommit with operation DELETE_PARTITION at the TTL instant,
// requested -> inflight -> completed (delete_partition_commit.hpp), whose
// partitionToReplaceFileIds names every file group of the latest slices of
// each expired partition (getAllExistingFileIds: the groups not replaced).
// Nothing is deleted: the cleaner removes the replaced groups' files later,
// and the partition itself once it is empty (partitionsToBeDeleted).
//
// Blocked runs change nothing (DeletePartitionUtils.checkForPendingTableServiceActions):
// a pending compaction or log compaction of a group in an expired partition,
// or a pending clustering reading one. Hudi's run then leaves its requested
// replacecommit behind (the next writer rolls it back); lakegc writes no file
// at all, nor when nothing expired.
//
// Every file is written with write_if_absent, so a rerun after a crash
// completes the same instant: resume_instant() finds lakegc's own pending
// DELETE_PARTITION replacecommit when it is the newest instant (no writer
// has run since, so a plan at that instant is the plan it was written for).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <simdjson.h>

#include "lakegc/core/table_metadata.hpp"
#include "lakegc/core/table_view.hpp"
#include "lakegc/hudi/avro/read.hpp"
#include "lakegc/hudi/delete_partition_commit.hpp"
#include "lakegc/hudi/metadata_codec.hpp"
#include "lakegc/hudi/table_properties.hpp"
#include "lakegc/hudi/write_schema.hpp"
#include "lakegc/plan/plan_ttl.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc::hudi {

struct TtlExecution {
  InstantTime instant;
  /// Layout 2: the completion time in the completed file's name.
  std::optional<InstantTime> completion;
  DeletePartitionCommit commit;
  /// Why nothing was written (nothing expired, or the pending table services
  /// that block the run); empty when the replacecommit was written.
  std::vector<std::string> unchanged_because;
  /// A crashed run's pending replacecommit was completed.
  bool resumed = false;
  std::vector<std::string> files_written;
};

inline std::string instant_file(const TableProperties& p, const InstantTime& t, Action a, std::string_view state) {
  return state.empty() ? fmt::format("{}/{}.{}", p.timeline_dir, t, to_string(a))
                       : fmt::format("{}/{}.{}.{}", p.timeline_dir, t, to_string(a), state);
}

/// Whether `bytes` (a `.replacecommit.requested`) is a DELETE_PARTITION request.
[[nodiscard]] inline StatusOr<bool> is_delete_partition_request(std::string_view bytes, std::string_view file) {
  if (bytes.empty()) return false;
  LAKEGC_ASSIGN_OR_RETURN(avro::datum d, avro::read_first_record(bytes, file));
  const auto op = d.field("operationType").as_string();
  return op && *op == kDeletePartitionOperation;
}

/// The pending DELETE_PARTITION replacecommit a crashed run left, when it is
/// the newest instant; an error when one exists with instants after it (a
/// writer ran since and Hudi's writers roll such a write back: lakegc
/// leaves that to them).
template <Storage S>
[[nodiscard]] StatusOr<std::optional<InstantTime>> resume_instant(S& storage, const TableProperties& p,
                                                                  const TableMetadata& md) {
  for (const Instant* i : md.timeline.pending()) {
    if (i->action != Action::replacecommit) continue;
    const std::string req = instant_file(p, i->requested, Action::replacecommit, "requested");
    auto bytes = storage.read(req);
    if (!bytes.ok()) {
      if (absl::IsNotFound(bytes.status())) continue;  // inflight only: not ours
      return annotate(bytes.status(), req);
    }
    LAKEGC_ASSIGN_OR_RETURN(bool ours, is_delete_partition_request(*bytes, req));
    if (!ours) continue;
    if (!(md.timeline.instants().back().requested == i->requested)) {
      return absl::FailedPreconditionError(fmt::format(
          "{}: a pending DELETE_PARTITION replacecommit (a TTL or delete_partition run that did not finish) with "
          "later instants on the timeline; Hudi's next writer rolls it back (rollbackFailedWrites), as "
          "`lakegc rollback --execute` does in timeline layout 2: roll it back first",
          req));
    }
    return std::optional<InstantTime>(i->requested);
  }
  return std::optional<InstantTime>();
}

/// The file groups Hudi's getAllExistingFileIds names for `partition`: those
/// with a latest slice that no replacecommit replaced.
inline std::vector<std::string> existing_file_ids(const TableView& v, std::string_view partition) {
  std::set<std::string> ids;
  for (const Partition& p : v.partitions()) {
    if (p.path != partition) continue;
    for (const FileGroup& g : v.groups_of(p)) {
      if (g.replaced_by || g.slice_count == 0) continue;
      ids.emplace(v.file_id(g));
    }
  }
  return {ids.begin(), ids.end()};
}

/// The pending table services that block deleting the plan's partitions,
/// each as a sentence.
template <Storage S>
[[nodiscard]] StatusOr<std::vector<std::string>> ttl_blockers(S& storage, const TableProperties& p,
                                                              const TableMetadata& md, const TtlPlan& plan) {
  std::vector<std::string> out;
  for (const InstantTime& t : plan.blocking_table_services) {
    out.push_back(fmt::format("pending compaction {} touches an expired partition", t));
  }
  const std::set<std::string_view> doomed(plan.expired.begin(), plan.expired.end());
  for (const InstantTime& t : plan.pending_clusterings) {
    const Instant* i = md.timeline.find(t);
    if (i == nullptr) continue;
    const std::string req = instant_file(p, t, i->action, "requested");
    auto bytes = storage.read(req);
    if (!bytes.ok()) {
      if (absl::IsNotFound(bytes.status())) continue;  // no plan: nothing reads a group
      return annotate(bytes.status(), req);
    }
    LAKEGC_ASSIGN_OR_RETURN(ClusteringPlan cp, decode_clustering_plan(*bytes, req));
    for (const auto& [partition, file_id] : cp.input_file_groups) {
      if (doomed.contains(partition)) {
        out.push_back(
            fmt::format("pending clustering {} reads file group {} of expired partition {}", t, file_id, partition));
        break;
      }
    }
  }
  return out;
}

/// Called after the inflight replacecommit is written and before it
/// completes, with the instant and the commit: where a table's metadata table
/// gets its deltacommit for the replacecommit, as Hudi's commit writes it.
using BeforeReplaceCompletes = std::function<Status(const InstantTime&, const DeletePartitionCommit&)>;

/// Writes the replacecommit for `plan` at `plan.ttl_instant` (which must be
/// after every instant, or the pending instant resume_instant() returned).
/// `now_ms`: the wall clock, for the completion time in layout 2.
template <Storage S>
[[nodiscard]] StatusOr<TtlExecution> execute_ttl(S& storage, const TableProperties& p, const TableMetadata& md,
                                                 const TableView& view, const TtlPlan& plan, std::string schema,
                                                 const std::function<std::int64_t()>& now_ms,
                                                 const BeforeReplaceCompletes& before_complete = {}) {
  TtlExecution out;
  out.instant = plan.ttl_instant;
  if (!plan.noop_reasons.empty()) {
    out.unchanged_because = plan.noop_reasons;
    return out;
  }
  if (plan.expired.empty()) {
    out.unchanged_because.emplace_back("no partition expired");
    return out;
  }
  LAKEGC_ASSIGN_OR_RETURN(out.unchanged_because, ttl_blockers(storage, p, md, plan));
  if (!out.unchanged_because.empty()) return out;
  for (const std::string& partition : plan.expired) {
    out.commit.partition_to_replace_file_ids[partition] = existing_file_ids(view, partition);
  }
  out.commit.schema = std::move(schema);

  const InstantTime& t = plan.ttl_instant;
  const Instant* existing = md.timeline.find(t);
  if (existing != nullptr && existing->is_completed()) {
    return absl::FailedPreconditionError(fmt::format("{}: instant {} is already completed", p.timeline_dir, t));
  }
  out.resumed = existing != nullptr;
  auto write = [&](const std::string& rel, const StatusOr<std::string>& bytes) -> Status {
    if (!bytes.ok()) return bytes.status();
    Status st = storage.write_if_absent(rel, *bytes);
    if (absl::IsAlreadyExists(st)) return Status();  // a crashed run's file: the same content
    if (!st.ok()) return annotate(st, rel);
    out.files_written.push_back(rel);
    return Status();
  };
  // Encoded before anything is written: a refusal (a name that is not
  // UTF-8) must not leave a pending replacecommit behind.
  const StatusOr<std::string> completed = delete_partition_completed(p.layout, out.commit);
  LAKEGC_RETURN_IF_ERROR(completed.status());
  LAKEGC_RETURN_IF_ERROR(write(instant_file(p, t, Action::replacecommit, "requested"), delete_partition_requested()));
  LAKEGC_RETURN_IF_ERROR(
      write(instant_file(p, t, Action::replacecommit, "inflight"), delete_partition_inflight(p.layout)));
  if (before_complete) LAKEGC_RETURN_IF_ERROR(before_complete(t, out.commit));
  std::string done = instant_file(p, t, Action::replacecommit, "");
  if (p.layout == TimelineLayout::v2) {
    InstantTime c = InstantTime::from_epoch_ms(now_ms(), p.timezone);
    if (!(t < c)) {
      auto ms = t.to_epoch_ms(p.timezone);
      c = InstantTime::from_epoch_ms((ms.ok() ? *ms : now_ms()) + 1, p.timezone);
    }
    out.completion = c;
    done = fmt::format("{}/{}_{}.replacecommit", p.timeline_dir, t, c);
  }
  LAKEGC_RETURN_IF_ERROR(write(done, completed));
  return out;
}

}  // namespace lakegc::hudi
