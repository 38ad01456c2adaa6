// File: lakegc/core/table_metadata.hpp
// -----------------------------------------------------------------------------
// What a Journal loads from a table's timeline for the planners, beside the
// Timeline itself: per completed write, the partitions it wrote and the file
// groups it replaced; savepoints and the files they name; pending compaction
// operations; the previous completed clean; pending cleans and their plans.
// Plain data: the Hudi loader and the simulator's memory journal fill it the
// same way.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lakegc/core/file_list.hpp"
#include "lakegc/core/timeline.hpp"

namespace lakegc {

struct NamedFilesIndex;  // core/named_files_index.hpp

struct ReplacedGroup {
  std::string partition;
  std::string file_id;
  friend bool operator==(const ReplacedGroup&, const ReplacedGroup&) = default;
};

/// Metadata of one completed (or in-flight) write instant.
struct CommitInfo {
  std::vector<std::string> partitions_written;  // sorted, unique
  std::vector<ReplacedGroup> replaced;          // replacecommits only
  FileList files;                               // files the write created
};

struct SavepointInfo {
  InstantTime instant;
  FileList files;  // latest slices' files as of the savepoint
};

/// A file slice that a pending compaction or log compaction will compact: one
/// operation of its plan (Hudi's record of it is hudi::CompactionOperation).
struct PendingCompactionSlice {
  InstantTime compaction_instant;
  std::string partition;
  std::string file_id;
  InstantTime base_instant;  // the slice being compacted
};

/// The facts of the last completed clean that incremental cleaning and
/// scheduling depend on.
struct CleanRecord {
  InstantTime instant;
  /// Empty when the clean ran under KEEP_LATEST_FILE_VERSIONS (Hudi writes
  /// earliestCommitToRetain = "").
  std::optional<InstantTime> earliest_commit_to_retain;
  std::optional<InstantTime> last_completed_commit;
  std::vector<InstantTime> savepointed_timestamps;
  /// Partitions where a reader lease vetoed a deletion (extraMetadata
  /// "lakegc.lease.vetoed.partitions"): the next incremental clean rescans them.
  std::vector<std::string> lease_vetoed_partitions;
  /// Partitions it skipped because their listing was incomplete (extraMetadata
  /// "lakegc.listing.skipped.partitions"): the next incremental clean rescans them.
  std::vector<std::string> listing_skipped_partitions;
};

struct TableMetadata {
  Timeline timeline;
  TimelineTimezone timezone = TimelineTimezone::utc;
  TimelineLayout layout = TimelineLayout::v2;
  bool partitioned = true;
  /// Completed write instants (and pending ones whose metadata could be
  /// read), keyed by requested time.
  std::map<InstantTime, CommitInfo> commits;
  std::vector<SavepointInfo> savepoints;
  std::vector<PendingCompactionSlice> pending_compactions;
  std::optional<CleanRecord> last_completed_clean;
  /// Files each pending write says it created (Hudi's markers under
  /// `.hoodie/.temp/<instant>/`), so rollback needs no listing.
  std::map<InstantTime, std::vector<WrittenFile>> markers;
  /// Last heartbeat of each write that keeps one (`.hoodie/.heartbeat/<instant>`
  /// mtime, epoch ms). A pending write without an entry has no heartbeat.
  std::map<InstantTime, std::int64_t> heartbeats;
  /// Completion times of archived write instants (requested -> completed),
  /// where the journal can read the table's archive. Layout 2 attaches a
  /// log file by its deltacommit's completion time; without an entry here a
  /// log of an archived deltacommit has an uncertain slice (TableView's
  /// completion_unknown) and is kept until every slice it could belong to
  /// goes.
  std::map<InstantTime, InstantTime> archived_completions;
  /// Why the table's archive could not be read, when it could not (then
  /// archived_completions is empty and such logs keep their uncertain slice).
  std::optional<std::string> archive_unreadable;
  /// `commits`' named files by partition, built by the journal once per
  /// load (index_named_files). Optional: a planner that finds none, or one
  /// built from other commits, indexes for itself.
  std::shared_ptr<const NamedFilesIndex> named_files;
};

}  // namespace lakegc
