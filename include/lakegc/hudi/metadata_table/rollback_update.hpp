// File: lakegc/hudi/metadata_table/rollback_update.hpp
// -----------------------------------------------------------------------------
// What a data-table rollback does to the metadata table in Hudi 1.2
// (HoodieBackedTableMetadataWriter.update(HoodieRollbackMetadata, instant),
// docs/hudi-rollback.md): if the metadata table's timeline has a
// deltacommit at the failed instant's time (the write got as far as its
// metadata commit, the data table's commit did not follow), that
// deltacommit is rolled back in the metadata table by its own write client,
// with the data table's rollback instant as its rollback instant:
// listing-based (the metadata table never rolls back by markers), a
// completed deltacommit un-published first, its files (every partition's
// log files named with it) deleted, its instant files removed, the
// metadata table's rollback completed. Otherwise nothing is written ("The
// commit to rollback is not found in MDT"): a write's files reach the
// `files` partition only with its metadata commit.
//
// check_rollback_update runs before any change and refuses where Hudi
// would throw or lakegc cannot follow: an unreadable metadata table; a
// completed deltacommit that completed before the metadata table's latest
// compaction (validateRollback: its records are in base files now); a
// metadata table of table version 6 (its listing-based rollback appends
// rollback blocks). roll_back_in_metadata_table is the step itself, run
// by the data table's rollback (RollbackServiceOptions::metadata_update)
// under the data table's lock, before the failed instant's own files go.
#pragma once

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/instant_time.hpp"
#include "lakegc/hudi/journal.hpp"
#include "lakegc/hudi/metadata_table/files_partition.hpp"
#include "lakegc/hudi/rollback_service.hpp"
#include "lakegc/hudi/subfolder_storage.hpp"

namespace lakegc::hudi::metadata_table {

/// The failed writes among `failed` (data-table instants) whose
/// deltacommit in the metadata table under `base_path` their rollback rolls
/// back too, when every one can be kept in step as Hudi does
/// (FailedPrecondition naming why otherwise). `storage` is rooted at the
/// data table.
template <Storage S>
[[nodiscard]] StatusOr<std::set<InstantTime>> check_rollback_update(S& storage, const std::string& base_path,
                                                                    const std::vector<InstantTime>& failed) {
  std::set<InstantTime> reached;
  if (failed.empty()) return reached;
  subfolder_storage<S> mdt(storage, std::string(folder));
  const std::string mdt_path = fmt::format("{}/{}", base_path, folder);
  auto refused = [](const std::string& why) { return absl::FailedPreconditionError(why); };
  auto j = hudi::journal<subfolder_storage<S>>::open(mdt, mdt_path);
  if (!j.ok()) return refused(fmt::format("the metadata table cannot be read: {}", message_of(j.status())));
  auto timeline = j->load_timeline();
  if (!timeline.ok()) {
    return refused(fmt::format("the metadata table cannot be read: {}", message_of(timeline.status())));
  }
  // CompactionUtils.getDeltaCommitsSinceLatestCompaction: the last
  // completed commit (a compaction) of the metadata table's timeline.
  const Instant* compaction = nullptr;
  for (const Instant& i : timeline->instants()) {
    if (i.action == Action::commit && i.is_completed()) compaction = &i;
  }
  for (const InstantTime& t : failed) {
    const Instant* dc = nullptr;
    for (const Instant& i : timeline->instants()) {
      if (i.requested == t && i.action == Action::deltacommit) dc = &i;
    }
    if (dc == nullptr) continue;  // never reached the metadata table
    reached.insert(t);
    if (j->properties().version < 8 && dc->state != State::requested) {
      return refused(fmt::format(
          "the metadata table (table version {}) has a deltacommit {} ({}) of the failed write: Hudi rolls it back "
          "there with rollback command blocks, which lakegc does not write",
          j->properties().version, t, to_string(dc->state)));
    }
    if (dc->is_completed() && compaction != nullptr && t.str().size() == compaction->requested.str().size() &&
        !(compaction->requested < dc->completion_or_requested())) {
      return refused(fmt::format(
          "the metadata table's deltacommit {} of the failed write completed before its latest compaction {}: "
          "Hudi refuses that rollback too (\"Commit being rolled back {} is earlier than the latest compaction\"); "
          "restore the table instead",
          t, compaction->requested, t));
    }
  }
  return reached;
}

/// Rolls back the metadata table's deltacommit at `failed` with rollback
/// instant `rollback` (the data table's), or finishes a pending rollback of
/// it; nullopt when the metadata table has neither. The caller holds the
/// data table's lock, which covers this step as it covers Hudi's.
template <Storage S>
[[nodiscard]] StatusOr<std::optional<RollbackMetadataRecord>> roll_back_in_metadata_table(
    S& storage, const std::string& base_path, const InstantTime& failed, const InstantTime& rollback,
    std::function<std::int64_t()> now_ms) {
  subfolder_storage<S> mdt(storage, std::string(folder));
  LAKEGC_ASSIGN_OR_RETURN(auto j,
                          (hudi::journal<subfolder_storage<S>>::open(mdt, fmt::format("{}/{}", base_path, folder))));
  RollbackServiceOptions o;
  o.use_markers = false;       // the metadata table's write config: withRollbackUsingMarkers(false)
  o.remove_heartbeat = false;  // its write client's rollback leaves heartbeats to rollbackFailedWrites
  o.now_ms = std::move(now_ms);
  rollback_service<subfolder_storage<S>> service(j, std::move(o));
  LAKEGC_ASSIGN_OR_RETURN(std::optional<RolledBack> done,
                          service.rollback_instant(failed, Action::deltacommit, rollback));
  if (!done) return std::optional<RollbackMetadataRecord>();
  return std::optional<RollbackMetadataRecord>(std::move(done->metadata));
}

}  // namespace lakegc::hudi::metadata_table
