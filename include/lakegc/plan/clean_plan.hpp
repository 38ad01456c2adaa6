// File: lakegc/plan/clean_plan.hpp
// -----------------------------------------------------------------------------
// A clean plan and the metadata of an executed clean: plain, sorted data
// with Hudi's fields and meanings (docs/hudi-rules.md §9), so the same
// input gives the same plan byte for byte and a plan can be written as a
// HoodieCleanerPlan.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <absl/strings/ascii.h>
#include <absl/strings/str_split.h>
#include <fmt/format.h>

#include "lakegc/core/instant_time.hpp"
#include "lakegc/core/status.hpp"
#include "lakegc/plan/planned_delete.hpp"
#include "lakegc/plan/planned_files.hpp"
#include "lakegc/storage/path.hpp"

namespace lakegc {

/// extraMetadata key: partitions where a reader lease kept a slice this
/// clean would otherwise have deleted, '\n'-joined. The next incremental
/// clean scans them again: nothing else would bring it back to them once
/// the lease is released (found by the simulator's convergence check, I6).
inline constexpr std::string_view kLeaseVetoedPartitionsKey = "lakegc.lease.vetoed.partitions";

/// extraMetadata key: partitions this clean skipped because their listing
/// lacked files the metadata proves exist (listing_check.hpp),
/// '\n'-joined. The next incremental clean scans them again.
inline constexpr std::string_view kListingSkippedPartitionsKey = "lakegc.listing.skipped.partitions";

/// The '\n'-joined partitions recorded under `key`, if any.
inline std::vector<std::string> partitions_recorded_under(const std::map<std::string, std::string>& extra_metadata,
                                                          std::string_view key) {
  const auto it = extra_metadata.find(std::string(key));
  if (it == extra_metadata.end()) return {};
  return absl::StrSplit(it->second, '\n', absl::SkipEmpty());
}

/// extraMetadata key under which Hudi records, comma-separated, the
/// savepoints a clean saw.
inline constexpr std::string_view kSavepointedTimestampsKey = "savepointed_timestamps";

/// The savepoints recorded under kSavepointedTimestampsKey. One rule for every
/// journal: an entry that is not an instant is an error naming `where` (a
/// savepoint read as nothing would let the files it keeps go).
[[nodiscard]] inline StatusOr<std::vector<InstantTime>> savepointed_timestamps_of(
    const std::map<std::string, std::string>& extra_metadata, std::string_view where) {
  std::vector<InstantTime> out;
  const auto it = extra_metadata.find(std::string(kSavepointedTimestampsKey));
  if (it == extra_metadata.end()) return out;
  for (absl::string_view item : absl::StrSplit(it->second, ',', absl::SkipWhitespace())) {
    const absl::string_view trimmed = absl::StripAsciiWhitespace(item);
    auto t = InstantTime::parse(std::string_view(trimmed.data(), trimmed.size()));
    if (!t.ok()) {
      return annotate(t.status(), fmt::format("{}: extraMetadata[\"{}\"]", where, kSavepointedTimestampsKey));
    }
    out.push_back(*t);
  }
  return out;
}

/// The partitions recorded under kLeaseVetoedPartitionsKey, if any.
inline std::vector<std::string> lease_vetoed_partitions_of(const std::map<std::string, std::string>& extra_metadata) {
  return partitions_recorded_under(extra_metadata, kLeaseVetoedPartitionsKey);
}

/// A partition a clean skipped because its listing is not trusted, and the
/// first file that shows it (listing_check.hpp).
struct ListingGap {
  std::string partition;
  std::string file;    // name, inside the partition
  std::string reason;  // a sentence for people
  friend bool operator==(const ListingGap&, const ListingGap&) = default;
};

struct CleanPlan {
  /// Requested time of the earliest commit to retain, or none (file-version
  /// policies, or nothing to clean).
  std::optional<InstantTime> earliest_instant_to_retain;
  /// Requested time of the commit that completed last when planning.
  std::optional<InstantTime> last_completed_commit_timestamp;
  std::string policy;
  /// Partition path -> files to delete, sorted by name (Hudi's
  /// filePathsToBeDeletedPerPartition).
  PlannedFiles files_per_partition;
  /// Partitions emptied by replacement, sorted.
  std::vector<std::string> partitions_to_be_deleted;
  /// Hudi's extraMetadata; "savepointed_timestamps" = comma-joined savepoints.
  std::map<std::string, std::string> extra_metadata;
  /// An empty plan persisted on purpose to move the incremental anchor.
  bool empty_clean = false;
  /// Partitions not planned this run because their listing lacked files the
  /// metadata proves exist. Not part of Hudi's plan: reported, and recorded
  /// as paths under kListingSkippedPartitionsKey for the next clean.
  std::vector<ListingGap> skipped_partitions;

  bool has_work() const noexcept { return !partitions_to_be_deleted.empty() || files_per_partition.file_count() > 0; }
  std::size_t file_count() const noexcept { return files_per_partition.file_count(); }
  std::uint64_t bytes() const {
    std::uint64_t n = 0;
    for (const auto& [p, files] : files_per_partition) {
      for (const auto& f : files) n += f.size;
    }
    return n;
  }
  friend bool operator==(const CleanPlan&, const CleanPlan&) = default;
};

}  // namespace lakegc
