// File: lakegc/core/named_files_index.hpp
// -----------------------------------------------------------------------------
// The files commit metadata names (CommitInfo::files), by partition. The
// listing check (plan/listing_check.hpp) runs before every clean plan over
// the files named in the partitions it plans; without an index it reads
// every file every commit on the active timeline names, which on a table of
// 10M slices is most of an incremental plan at 1% of partitions. A journal
// builds the index once per load (TableMetadata::named_files); a planner
// that finds none, or one that no longer fits the commits, builds its own.
//
// The index refers to files by position: commit ordinal (in the order of
// TableMetadata::commits) and index into that commit's files. A "shape"
// hash of every commit's key and file count tells a stale index from a
// fresh one; find_listing_gaps also checks each file it reads is in the
// run's partition. Not caught: a file's partition renamed in place after
// indexing (nothing in lakegc edits loaded metadata; index again if you do).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <absl/container/flat_hash_map.h>
#include <absl/hash/hash.h>

#include "lakegc/core/instant_time.hpp"
#include "lakegc/core/table_metadata.hpp"

namespace lakegc {

struct NamedFilesIndex {
  /// Files [begin, end) of the commit with ordinal `commit` are all in one
  /// partition. A commit names its files partition by partition, so a
  /// partition has about one run per commit that wrote it.
  struct Run {
    std::uint32_t commit;
    std::uint32_t begin;
    std::uint32_t end;
  };
  /// Partition path -> its runs, in commit order and file order.
  absl::flat_hash_map<std::string, std::vector<Run>> by_partition;
  std::uint64_t shape = 0;  // commits_shape() of the commits indexed
};

/// A hash of every commit's key and number of named files: an index built
/// from commits of another shape is stale.
inline std::uint64_t commits_shape(const std::map<InstantTime, CommitInfo>& commits) {
  std::uint64_t h = commits.size();
  for (const auto& [t, info] : commits) h = absl::HashOf(h, t, info.files.size());
  return h;
}

inline std::shared_ptr<const NamedFilesIndex> index_named_files(const std::map<InstantTime, CommitInfo>& commits) {
  auto index = std::make_shared<NamedFilesIndex>();
  std::uint32_t ordinal = 0;
  for (const auto& [t, info] : commits) {
    const auto& files = info.files;
    for (std::size_t begin = 0; begin < files.size();) {
      std::size_t end = begin + 1;
      while (end < files.size() && files.partition_index(end) == files.partition_index(begin)) ++end;
      const std::string_view partition = files[begin].partition;
      index->by_partition[absl::string_view(partition.data(), partition.size())].push_back(
          {ordinal, static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(end)});
      begin = end;
    }
    ++ordinal;
  }
  index->shape = commits_shape(commits);
  return index;
}

/// The journal's index of md's named files when it was built from these
/// commits; otherwise one built now, which `own` keeps alive.
inline const NamedFilesIndex& current_named_files(const TableMetadata& md,
                                                  std::shared_ptr<const NamedFilesIndex>& own) {
  const NamedFilesIndex* index = md.named_files.get();
  if (index != nullptr && index->shape == commits_shape(md.commits)) return *index;
  own = index_named_files(md.commits);
  return *own;
}

}  // namespace lakegc
