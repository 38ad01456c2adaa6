// File: lakegc/exec/completed_clean.hpp
// -----------------------------------------------------------------------------
// What a completed clean records: lakegc's form of Hudi's HoodieCleanMetadata
// (the journal writes it in Hudi's form, hudi::CleanMetadata).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "lakegc/core/instant_time.hpp"

namespace lakegc {

/// One partition of a completed clean. A delete that fails stops the clean
/// (the error is returned, the clean stays inflight and the next run finishes
/// its plan), so there is no list of failed deletes: Hudi's
/// failedDeleteFiles is written empty.
struct CleanPartitionResult {
  std::vector<std::string> success;  // names deleted (or already gone)
  bool partition_deleted = false;
  friend bool operator==(const CleanPartitionResult&, const CleanPartitionResult&) = default;
};

/// A completed clean, as lakegc records it.
struct CompletedClean {
  InstantTime start_clean_time;  // the clean instant's requested time
  std::int64_t time_taken_ms = -1;
  std::uint64_t total_files_deleted = 0;
  std::uint64_t bytes_deleted = 0;
  /// "" (none) under file-version policies, as Hudi writes it.
  std::optional<InstantTime> earliest_commit_to_retain;
  std::optional<InstantTime> last_completed_commit_timestamp;
  std::string policy;
  std::map<std::string, CleanPartitionResult> partitions;
  std::map<std::string, std::string> extra_metadata;
  friend bool operator==(const CompletedClean&, const CompletedClean&) = default;
};

}  // namespace lakegc
