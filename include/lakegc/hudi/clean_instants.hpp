// File: lakegc/hudi/clean_instants.hpp
// -----------------------------------------------------------------------------
// A clean's instant files, written through Storage::write_if_absent only:
//   request_clean  -> `<t>.clean.requested`  (Avro HoodieCleanerPlan)
//   start_clean    -> `<t>.clean.inflight`   (layout 1: a copy of the plan,
//                                             as Hudi 0.x does; layout 2: empty)
//   complete_clean -> `<t>.clean` (layout 1) or `<t>_<completion>.clean`
//                     (layout 2)              (Avro HoodieCleanMetadata)
// Hudi writes absolute paths into a plan; lakegc writes the table-relative
// path prefixed with the base path it was given, and reads back absolute,
// prefixed, relative and bare-name (version 1) paths alike (plan_paths.hpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/file_name.hpp"
#include "lakegc/exec/completed_clean.hpp"
#include "lakegc/hudi/avro_writer.hpp"
#include "lakegc/hudi/metadata_codec.hpp"
#include "lakegc/hudi/plan_paths.hpp"
#include "lakegc/hudi/table_location.hpp"
#include "lakegc/hudi/table_properties.hpp"
#include "lakegc/hudi/timeline_listing.hpp"
#include "lakegc/plan/clean_plan.hpp"
#include "lakegc/storage/path.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc::hudi {

/// FailedPrecondition when clean `t` already has its completed file.
template <ReadableStorage S>
[[nodiscard]] Status refuse_if_completed(S& storage, const TableProperties& props, const TableLocation& table,
                                         const InstantTime& t) {
  LAKEGC_ASSIGN_OR_RETURN(auto files, list_timeline_files(storage, props, table));
  for (const auto& f : files) {
    if (f.parsed.requested == t && f.parsed.action == Action::clean && f.parsed.state == State::completed) {
      return absl::FailedPreconditionError(
          fmt::format("{}: clean {} is already completed", table.display(props.timeline_dir + "/" + f.name), t));
    }
  }
  return Status();
}

/// `<t>.clean.requested`: the plan as Avro HoodieCleanerPlan, paths under the base path.
template <Storage S>
[[nodiscard]] Status request_clean(S& storage, const TableProperties& props, const TableLocation& table,
                                   const InstantTime& t, const CleanPlan& plan) {
  LAKEGC_ASSIGN_OR_RETURN(Timeline tl, load_timeline(storage, props, table));
  if (const Instant* i = tl.find(t)) {
    return absl::AlreadyExistsError(fmt::format("{}: instant {} is already on the timeline ({})",
                                                table.display(props.timeline_dir), t, to_string(i->action)));
  }
  CleanerPlan hp;
  if (plan.earliest_instant_to_retain) {
    hp.earliest_instant_to_retain = plan.earliest_instant_to_retain->str();
    // Hudi rebuilds a HoodieInstant from the action; an instant that is
    // no longer on the timeline (archived) was a commit as far as any
    // reader of this plan can tell.
    const Instant* e = tl.find(*plan.earliest_instant_to_retain);
    hp.earliest_instant_to_retain_action = e != nullptr ? std::string(to_string(e->action)) : "commit";
    hp.earliest_instant_to_retain_state = "COMPLETED";
  }
  hp.last_completed_commit_timestamp =
      plan.last_completed_commit_timestamp ? plan.last_completed_commit_timestamp->str() : std::string();
  hp.policy = plan.policy;
  for (const auto& [partition, files] : plan.files_per_partition) {
    auto& paths = hp.file_paths_to_delete_per_partition[std::string(partition)];
    for (const auto& f : files) paths.push_back(table.display(join_path(partition, f.name)));
  }
  hp.partitions_to_be_deleted = plan.partitions_to_be_deleted;
  hp.extra_metadata = plan.extra_metadata;
  hp.version = 2;
  const std::string rel = instant_path(props, t, "clean.requested");
  auto bytes = encode_cleaner_plan(hp);
  if (!bytes.ok()) return annotate(bytes.status(), table.display(rel));
  return annotate(storage.write_if_absent(rel, *bytes), table.display(rel));
}

/// The plan of clean `t`, read back from `<t>.clean.requested` (any writer's).
template <ReadableStorage S>
[[nodiscard]] StatusOr<CleanPlan> read_clean_plan(S& storage, const TableProperties& props, const TableLocation& table,
                                                  const InstantTime& t) {
  const std::string rel = instant_path(props, t, "clean.requested");
  const std::string where = table.display(rel);
  LAKEGC_ASSIGN_OR_RETURN(std::string bytes, read_table_file(storage, table, rel));
  LAKEGC_ASSIGN_OR_RETURN(CleanerPlan hp, decode_cleaner_plan(bytes, where));
  CleanPlan plan;
  if (hp.earliest_instant_to_retain) {
    LAKEGC_ASSIGN_OR_RETURN(plan.earliest_instant_to_retain, parse_instant_field(*hp.earliest_instant_to_retain, where,
                                                                                 "earliestInstantToRetain.timestamp"));
  }
  if (!hp.last_completed_commit_timestamp.empty()) {
    LAKEGC_ASSIGN_OR_RETURN(
        plan.last_completed_commit_timestamp,
        parse_instant_field(hp.last_completed_commit_timestamp, where, "lastCompletedCommitTimestamp"));
  }
  plan.policy = hp.policy;
  // The reason is not part of Hudi's plan; the policy tells the usual one.
  const DeleteReason reason =
      plan.earliest_instant_to_retain ? DeleteReason::older_than_boundary : DeleteReason::beyond_versions;
  for (const auto& [partition, paths] : hp.file_paths_to_delete_per_partition) {
    // The names' text, until add() copies it into the plan (reserved: a
    // moved std::string may move its characters).
    std::vector<std::string> names;
    names.reserve(paths.size());
    std::vector<PlannedDelete> files;
    for (const auto& path : paths) {
      LAKEGC_ASSIGN_OR_RETURN(std::string name, name_in_partition(table, partition, path, where));
      PlannedDelete d;
      d.reason = reason;
      // Sizes are not in the plan either; the executor only reports them.
      if (auto info = storage.stat(join_path(partition, name)); info.ok()) d.size = info->size;
      if (auto parsed = parse_data_file_name(name); parsed.ok()) {
        d.slice = std::visit([](const auto& n) { return n.instant; }, *parsed);
      }
      d.name = names.emplace_back(std::move(name));
      files.push_back(d);
    }
    std::sort(files.begin(), files.end(),
              [](const PlannedDelete& a, const PlannedDelete& b) { return a.name < b.name; });
    plan.files_per_partition.add(partition, files);
  }
  plan.partitions_to_be_deleted = hp.partitions_to_be_deleted;
  std::sort(plan.partitions_to_be_deleted.begin(), plan.partitions_to_be_deleted.end());
  plan.extra_metadata = hp.extra_metadata;
  return plan;
}

/// `<t>.clean.inflight` (layout 1: a copy of the plan, as Hudi 0.x does; layout 2: empty).
template <Storage S>
[[nodiscard]] Status start_clean(S& storage, const TableProperties& props, const TableLocation& table,
                                 const InstantTime& t) {
  const std::string requested = instant_path(props, t, "clean.requested");
  LAKEGC_ASSIGN_OR_RETURN(std::string plan_bytes, read_table_file(storage, table, requested));
  LAKEGC_RETURN_IF_ERROR(refuse_if_completed(storage, props, table, t));
  const std::string rel = instant_path(props, t, "clean.inflight");
  // Layout 1: Hudi 0.x copies the plan into the in-flight file; 1.x
  // writes it empty and always re-reads the plan from `.requested`.
  const std::string_view bytes = props.layout == TimelineLayout::v1 ? std::string_view(plan_bytes) : std::string_view();
  const Status st = storage.write_if_absent(rel, bytes);
  if (absl::IsAlreadyExists(st)) return Status();  // already inflight: idempotent
  return annotate(st, table.display(rel));
}

/// The completed clean (Avro HoodieCleanMetadata): `<t>.clean` in layout 1,
/// `<t>_<completion>.clean` in layout 2, completed at `now_ms` (epoch
/// milliseconds; moved past `t` when a clock is behind it).
template <Storage S>
[[nodiscard]] Status complete_clean(S& storage, const TableProperties& props, const TableLocation& table,
                                    const InstantTime& t, const lakegc::CompletedClean& m, std::int64_t now_ms) {
  const std::string inflight = instant_path(props, t, "clean.inflight");
  if (auto info = storage.stat(inflight); !info.ok()) {
    if (absl::IsNotFound(info.status())) {
      return absl::FailedPreconditionError(fmt::format("{}: clean {} is not in flight", table.display(inflight), t));
    }
    return annotate(info.status(), table.display(inflight));
  }
  LAKEGC_RETURN_IF_ERROR(refuse_if_completed(storage, props, table, t));
  hudi::CleanMetadata hm;
  hm.start_clean_time = t.str();
  hm.time_taken_ms = m.time_taken_ms;
  hm.total_files_deleted = static_cast<std::int64_t>(m.total_files_deleted);
  hm.earliest_commit_to_retain = m.earliest_commit_to_retain ? m.earliest_commit_to_retain->str() : std::string();
  hm.last_completed_commit_timestamp =
      m.last_completed_commit_timestamp ? m.last_completed_commit_timestamp->str() : std::string();
  for (const auto& [partition, r] : m.partitions) {
    CleanPartitionMetadata pm;
    pm.partition_path = partition;
    pm.policy = m.policy;
    // deletePathPatterns lists what the plan asked to delete here.
    pm.delete_path_patterns = r.success;
    pm.success_delete_files = r.success;
    pm.is_partition_deleted = r.partition_deleted;
    hm.partition_metadata[partition] = std::move(pm);
  }
  hm.extra_metadata = m.extra_metadata;
  hm.version = 2;
  std::string rel;
  if (props.layout == TimelineLayout::v1) {
    rel = instant_path(props, t, "clean");
  } else {
    InstantTime done = InstantTime::from_epoch_ms(now_ms, props.timezone);
    if (!(t < done)) {
      // A clock behind the instant: completion must still follow it.
      auto ms = t.to_epoch_ms(props.timezone);
      done = InstantTime::from_epoch_ms((ms.ok() ? *ms : now_ms) + 1, props.timezone);
    }
    rel = fmt::format("{}/{}_{}.clean", props.timeline_dir, t, done);
  }
  auto bytes = encode_clean_metadata(hm);
  if (!bytes.ok()) return annotate(bytes.status(), table.display(rel));
  return annotate(storage.write_if_absent(rel, *bytes), table.display(rel));
}

}  // namespace lakegc::hudi
