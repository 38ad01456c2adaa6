// File: lakegc/hudi/metadata_table/rollback_update.hpp
// -----------------------------------------------------------------------------
// What a data-table rollback does to the metadata table in Hudi 1.2
// (docs/hudi-rollback.md), run by the data table's rollback
// (RollbackServiceOptions::metadata_update) under the data table's lock,
// once the files are deleted and before the failed instant's own files go:
//
// * Table version 8 and later
//   (HoodieBackedTableMetadataWriter.update(HoodieRollbackMetadata, t)): if
//   the metadata table's timeline has a deltacommit at the failed instant's
//   time (the write got as far as its metadata commit, the data table's
//   commit did not follow), that deltacommit is rolled back in the metadata
//   table by its own write client, with the data table's rollback instant
//   as its rollback instant: listing-based (the metadata table never rolls
//   back by markers), a completed deltacommit un-published first, its files
//   (every partition's log files named with it) deleted, its instant files
//   removed, the metadata table's rollback completed. Otherwise nothing is
//   written ("The commit to rollback is not found in MDT").
// * Table version 6 (HoodieBackedTableMetadataWriterTableVersionSix): every
//   rollback gets a metadata deltacommit at the rollback instant whose
//   `files` records add the log files the rollback wrote (rollback command
//   blocks) and the failed write's log files it kept
//   (convertMetadataToRollbackRecords); deleted files are not recorded (a
//   failed write's files were never listed). Then, if the metadata table
//   has a *completed* deltacommit of the failed write, its write client
//   rolls that back at the rollback instant + "006" (listing-based, version
//   6: every log of an earlier slice the deltacommit appended to gets a
//   rollback command block; rollback_service.hpp). A pending one is left
//   to the metadata table's own next write, as Hudi leaves it.
//
// check_rollback_update runs before any change and refuses where Hudi
// would throw or lakegc cannot follow: an unreadable metadata table; a
// completed deltacommit that completed before the metadata table's latest
// compaction (validateRollback, and in version 6 validateRollbackVersionSix
// comparing instant times: its records are in base files now); a version-6
// metadata table without a `files` partition.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/instant_time.hpp"
#include "lakegc/core/timeline.hpp"
#include "lakegc/hudi/journal.hpp"
#include "lakegc/hudi/metadata_table/deltacommit_write.hpp"
#include "lakegc/hudi/metadata_table/files_partition.hpp"
#include "lakegc/hudi/metadata_table/log_records.hpp"
#include "lakegc/hudi/rollback_service.hpp"
#include "lakegc/hudi/subfolder_storage.hpp"

namespace lakegc::hudi::metadata_table {

/// Hudi's validateRollback for the metadata table's deltacommit `dc` on its
/// timeline `timeline` (`what` says whose it is, for the message): a
/// completed deltacommit that completed before the metadata table's latest
/// compaction cannot be rolled back (its records are in base files now).
[[nodiscard]] inline Status check_not_compacted(const Timeline& timeline, const Instant& dc, std::string_view what) {
  // CompactionUtils.getDeltaCommitsSinceLatestCompaction: the last
  // completed commit (a compaction) of the metadata table's timeline.
  const Instant* compaction = nullptr;
  for (const Instant& i : timeline.instants()) {
    if (i.action == Action::commit && i.is_completed()) compaction = &i;
  }
  const InstantTime& t = dc.requested;
  if (dc.is_completed() && compaction != nullptr && t.str().size() == compaction->requested.str().size() &&
      !(compaction->requested < dc.completion_or_requested())) {
    return absl::FailedPreconditionError(fmt::format(
        "the metadata table's deltacommit {} {} completed before its latest compaction {}: "
        "Hudi refuses that rollback too (\"Commit being rolled back {} is earlier than the latest compaction\"); "
        "restore the table instead",
        t, what, compaction->requested, t));
  }
  return Status();
}

/// Hudi's validateRollbackVersionSix for the metadata table's completed
/// deltacommit `dc` on its timeline `timeline`: refused when its instant
/// time is not after the latest completed compaction's (instant times
/// compared as text, suffixes included, as Hudi's compareTimestamps does).
[[nodiscard]] inline Status check_not_compacted_v6(const Timeline& timeline, const Instant& dc, std::string_view what) {
  const Instant* compaction = nullptr;
  for (const Instant& i : timeline.instants()) {
    if (i.action == Action::commit && i.is_completed()) compaction = &i;
  }
  if (compaction != nullptr && dc.requested.str() <= compaction->requested.str()) {
    return absl::FailedPreconditionError(fmt::format(
        "the metadata table's deltacommit {} {} is not after its latest compaction {}: Hudi refuses that rollback "
        "too (\"Commit being rolled back {} is earlier than the latest compaction\"); restore the table instead",
        dc.requested, what, compaction->requested, dc.requested));
  }
  return Status();
}

/// The instant at which a version-6 metadata table rolls back its
/// deltacommit of a data-table write rolled back at `rollback`
/// (createRollbackTimestamp: the rollback instant with suffix "006").
[[nodiscard]] inline StatusOr<InstantTime> metadata_rollback_instant_v6(const InstantTime& rollback) {
  return InstantTime::parse(rollback.str() + "006");
}

/// The failed writes among `failed` (data-table instants) whose
/// deltacommit in the metadata table under `base_path` their rollback rolls
/// back too, when every one can be kept in step as Hudi does
/// (FailedPrecondition naming why otherwise). `storage` is rooted at the
/// data table, whose properties are `props`.
template <Storage S>
[[nodiscard]] StatusOr<std::set<InstantTime>> check_rollback_update(S& storage, const TableProperties& props,
                                                                    const std::string& base_path,
                                                                    const std::vector<InstantTime>& failed) {
  std::set<InstantTime> reached;
  if (failed.empty()) return reached;
  if (props.version < 8) {
    const std::vector<std::string> partitions = metadata_partitions_to_update(props);
    if (std::find(partitions.begin(), partitions.end(), files_partition_name) == partitions.end()) {
      return absl::FailedPreconditionError(
          fmt::format("the metadata table has no '{}' partition among {}, where Hudi records a rollback's log files",
                      files_partition_name, fmt::join(partitions, ", ")));
    }
  }
  subfolder_storage<S> mdt(storage, std::string(folder));
  const std::string mdt_path = fmt::format("{}/{}", base_path, folder);
  auto refused = [](const std::string& why) { return absl::FailedPreconditionError(why); };
  auto j = hudi::journal<subfolder_storage<S>>::open(mdt, mdt_path);
  if (!j.ok()) return refused(fmt::format("the metadata table cannot be read: {}", message_of(j.status())));
  auto timeline = j->load_timeline();
  if (!timeline.ok()) {
    return refused(fmt::format("the metadata table cannot be read: {}", message_of(timeline.status())));
  }
  for (const InstantTime& t : failed) {
    const Instant* dc = nullptr;
    for (const Instant& i : timeline->instants()) {
      if (i.requested == t && i.action == Action::deltacommit) dc = &i;
    }
    if (dc == nullptr) continue;  // never reached the metadata table
    if (j->properties().version < 8) {
      // Version 6 rolls back only a completed one (containsInstant of the
      // completed instant); a pending one is the metadata table's own
      // failed write, which its next write rolls back.
      if (!dc->is_completed()) continue;
      LAKEGC_RETURN_IF_ERROR(check_not_compacted_v6(*timeline, *dc, "of the failed write"));
      reached.insert(t);
      continue;
    }
    LAKEGC_RETURN_IF_ERROR(check_not_compacted(*timeline, *dc, "of the failed write"));
    reached.insert(t);
  }
  return reached;
}

/// The `files` records of a table-version-6 rollback `m`
/// (HoodieTableMetadataUtil.convertMetadataToRollbackRecords): per partition
/// with rollback log files, those and the failed write's log files it kept
/// as present files (by name; the larger size where a name is in both).
inline partition_records rollback_files_records(const RollbackMetadataRecord& m) {
  partition_records files{std::string(files_partition_name), {}, {}};
  for (const auto& [key, pm] : m.partition_metadata) {
    if (pm.rollback_log_files.empty()) continue;
    std::map<std::string, std::uint64_t> sizes;
    for (const auto* logs : {&pm.rollback_log_files, &pm.log_files_from_failed_commit}) {
      for (const auto& [path, size] : *logs) {
        const auto slash = path.rfind('/');
        std::uint64_t& s = sizes[slash == std::string::npos ? path : path.substr(slash + 1)];
        s = std::max(s, static_cast<std::uint64_t>(std::max<std::int64_t>(size, 0)));
      }
    }
    std::vector<std::pair<std::string, file_entry>> entries;
    for (const auto& [name, size] : sizes) entries.emplace_back(name, file_entry{size, false});
    files.upserts.emplace_back(files_key_of(pm.partition_path),
                               detail::metadata_record(files_key_of(pm.partition_path), file_list_type, entries));
  }
  return files;
}

/// Rolls back the metadata table's deltacommit at `t` (in whatever state)
/// with rollback instant `rollback`, as the metadata table's own write client
/// does: listing-based, a completed deltacommit un-published first, a
/// pending rollback of `t` finished from its own plan instead; in table
/// version 6 only a completed deltacommit (rollback blocks after the logs
/// its metadata names). `storage` is rooted at the data table named `base_path`; the
/// caller holds the data table's lock. nullopt when the metadata table has
/// neither.
template <Storage S>
[[nodiscard]] StatusOr<std::optional<RolledBack>> roll_back_metadata_deltacommit(
    S& storage, const std::string& base_path, const InstantTime& t, const InstantTime& rollback,
    const std::function<std::int64_t()>& now_ms) {
  subfolder_storage<S> mdt(storage, std::string(folder));
  LAKEGC_ASSIGN_OR_RETURN(auto j,
                          (hudi::journal<subfolder_storage<S>>::open(mdt, fmt::format("{}/{}", base_path, folder))));
  RollbackServiceOptions o;
  o.use_markers = false;       // the metadata table's write config: withRollbackUsingMarkers(false)
  o.remove_heartbeat = false;  // its write client's rollback leaves heartbeats to rollbackFailedWrites
  o.now_ms = now_ms;
  rollback_service<subfolder_storage<S>> service(j, std::move(o));
  return service.rollback_instant(t, Action::deltacommit, rollback);
}

/// Keeps the metadata table of the table at `storage` (properties `props`,
/// named `base_path`) in step with the rollback `rollback` of `failed`, whose
/// metadata is `m` (see the top of this file). The caller holds the data
/// table's lock, which covers this step as it covers Hudi's.
template <Storage S>
[[nodiscard]] StatusOr<MetadataTableRollbackUpdate> roll_back_in_metadata_table(
    S& storage, const TableProperties& props, const std::string& base_path, const InstantTime& failed,
    const InstantTime& rollback, const RollbackMetadataRecord& m, const std::function<std::int64_t()>& now_ms) {
  MetadataTableRollbackUpdate out;
  if (props.version < 8) {
    const std::vector<partition_records> records = {rollback_files_records(m)};
    LAKEGC_ASSIGN_OR_RETURN(metadata_update done, write_metadata_deltacommit(storage, props, base_path, rollback,
                                                                             records, "rollback", now_ms));
    out.deltacommit = rollback;
    for (const written_log& l : done.logs) out.deltacommit_logs.push_back(l.path);
    // Then the failed write's completed deltacommit, if it reached the
    // metadata table; a rerun finds it un-published and the metadata
    // table's rollback pending at the same instant, and resumes that.
    LAKEGC_ASSIGN_OR_RETURN(const InstantTime mdt_rollback, metadata_rollback_instant_v6(rollback));
    subfolder_storage<S> mdt(storage, std::string(folder));
    LAKEGC_ASSIGN_OR_RETURN(auto j,
                            (hudi::journal<subfolder_storage<S>>::open(mdt, fmt::format("{}/{}", base_path, folder))));
    LAKEGC_ASSIGN_OR_RETURN(Timeline timeline, j.load_timeline());
    const Instant* resumable = timeline.find(mdt_rollback);
    bool completed_dc = false;
    for (const Instant& i : timeline.instants()) {
      completed_dc |= i.requested == failed && i.action == Action::deltacommit && i.is_completed();
    }
    if (completed_dc || (resumable != nullptr && resumable->action == Action::rollback && resumable->is_pending())) {
      LAKEGC_ASSIGN_OR_RETURN(std::optional<RolledBack> rolled,
                              roll_back_metadata_deltacommit(storage, base_path, failed, mdt_rollback, now_ms));
      if (rolled) out.rollback = std::move(rolled->metadata);
    }
    return out;
  }
  LAKEGC_ASSIGN_OR_RETURN(std::optional<RolledBack> done,
                          roll_back_metadata_deltacommit(storage, base_path, failed, rollback, now_ms));
  if (done) out.rollback = std::move(done->metadata);
  return out;
}

}  // namespace lakegc::hudi::metadata_table
