// File: lakegc/hudi/metadata.hpp
// -----------------------------------------------------------------------------
// Plain structs for the parts of Hudi timeline files that table maintenance
// needs. They are decoded by lakegc/hudi/metadata_codec.hpp (JSON or Avro) and,
// for cleaning, encoded by lakegc/hudi/avro_writer.hpp.
//
// Conventions:
//  * Instants are the requested time, as the digit string Hudi writes.
//  * Paths are kept as Hudi wrote them (relative to the table base path in
//    write stats; absolute URIs in v2 clean plans and rollback metadata),
//    except where a field says "file name".
//  * Fields absent from an older schema version hold their default value.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lakegc::hudi {

/// One HoodieWriteStat (or HoodieDeltaWriteStat) of a commit.
struct WriteStat {
  std::string partition_path;  ///< the partitionToWriteStats key ("" when not partitioned)
  std::string file_id;         ///< "" in some in-flight stats (new inserts)
  std::string path;            ///< relative to the base path; "" when Hudi wrote null
  std::uint64_t file_size_bytes = 0;
  std::string prev_commit;             ///< "" for a new file group (Hudi writes the string "null")
  std::string base_file;               ///< MOR log writes: the slice's base file name, "" if none
  std::vector<std::string> log_files;  ///< MOR log writes: log file names

  friend bool operator==(const WriteStat&, const WriteStat&) = default;
};

/// HoodieCommitMetadata / HoodieReplaceCommitMetadata (commit, deltacommit,
/// replacecommit and their in-flight files).
struct CommitMetadata {
  /// Flattened over partitionToWriteStats, in partition-key order then file order.
  std::vector<WriteStat> write_stats;
  /// partition -> file ids replaced (replacecommit only).
  std::map<std::string, std::vector<std::string>> partition_to_replace_file_ids;
  std::string operation_type;  ///< e.g. "UPSERT", "INSERT_OVERWRITE", "CLUSTER"; "" when absent
  bool compacted = false;      ///< true for the commit that completes a compaction

  friend bool operator==(const CommitMetadata&, const CommitMetadata&) = default;
};

/// One HoodieCompactionOperation of a compaction plan.
struct CompactionOperation {
  std::string partition_path;
  std::string file_id;
  std::string base_instant;                   ///< baseInstantTime
  std::string data_file_name;                 ///< file name of dataFilePath; "" for a log-only slice
  std::vector<std::string> delta_file_names;  ///< file names of deltaFilePaths

  friend bool operator==(const CompactionOperation&, const CompactionOperation&) = default;
};

/// HoodieCompactionPlan (`.compaction.requested`).
struct CompactionPlan {
  std::vector<CompactionOperation> operations;

  friend bool operator==(const CompactionPlan&, const CompactionPlan&) = default;
};

/// The file groups a clustering plan (HoodieRequestedReplaceMetadata) reads.
struct ClusteringPlan {
  /// (partition, fileId) of every input slice, in plan order.
  std::vector<std::pair<std::string, std::string>> input_file_groups;

  friend bool operator==(const ClusteringPlan&, const ClusteringPlan&) = default;
};

/// HoodieSavepointMetadata.
struct SavepointMetadata {
  std::string savepointed_by, comments;
  std::int64_t savepointed_at = 0;
  /// partition -> savepointed data file NAMES.
  std::map<std::string, std::vector<std::string>> partition_files;

  friend bool operator==(const SavepointMetadata&, const SavepointMetadata&) = default;
};

/// HoodieCleanerPlan (`.clean.requested`, `.clean.inflight`).
struct CleanerPlan {
  /// Requested time of the earliest instant to retain; nullopt when the plan has none.
  std::optional<std::string> earliest_instant_to_retain;
  std::string last_completed_commit_timestamp, policy;
  /// partition -> files, as written: absolute paths in version 2 plans
  /// (filePathsToBeDeletedPerPartition[].filePath), file names in version 1
  /// plans (filesToBeDeletedPerPartition).
  std::map<std::string, std::vector<std::string>> file_paths_to_delete_per_partition;
  std::vector<std::string> partitions_to_be_deleted;
  std::map<std::string, std::string> extra_metadata;
  int version = 2;
  /// Action and state of the earliest instant to retain (HoodieActionInstant).
  /// Hudi reads only the timestamp for cleaning decisions, but
  /// CleanActionExecutor rebuilds a HoodieInstant from all three, so a plan
  /// we write must carry a valid state ("COMPLETED", written when empty) and
  /// a non-empty action (e.g. "commit", "deltacommit").
  std::string earliest_instant_to_retain_action;
  std::string earliest_instant_to_retain_state;

  friend bool operator==(const CleanerPlan&, const CleanerPlan&) = default;
};

/// HoodieCleanPartitionMetadata.
struct CleanPartitionMetadata {
  std::string partition_path, policy;
  /// File names for normal files; full paths for bootstrap base files.
  std::vector<std::string> delete_path_patterns, success_delete_files, failed_delete_files;
  bool is_partition_deleted = false;

  friend bool operator==(const CleanPartitionMetadata&, const CleanPartitionMetadata&) = default;
};

/// HoodieCleanMetadata (completed `.clean`).
struct CleanMetadata {
  std::string start_clean_time;
  std::int64_t time_taken_ms = -1;
  std::int64_t total_files_deleted = 0;
  std::string earliest_commit_to_retain, last_completed_commit_timestamp;
  std::map<std::string, CleanPartitionMetadata> partition_metadata;
  std::map<std::string, std::string> extra_metadata;
  int version = 2;

  friend bool operator==(const CleanMetadata&, const CleanMetadata&) = default;
};

/// HoodieRollbackMetadata (completed `.rollback`).
struct RollbackMetadata {
  std::vector<std::string> commits_rollback;
  /// partition -> deleted files, as written (Hudi writes full paths).
  std::map<std::string, std::vector<std::string>> success_delete_files;

  friend bool operator==(const RollbackMetadata&, const RollbackMetadata&) = default;
};

}  // namespace lakegc::hudi
