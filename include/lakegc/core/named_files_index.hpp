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
// The same for the other things the check needs per partition: the groups
// completed replacecommits name (CommitInfo::replaced) and the pending
// compactions' operations (TableMetadata::pending_compactions). Without
// them the check looked up the partition of every one of the table's
// (about 10k pending operations on a 10M-slice table).
//
// The index refers to entries by position: commit ordinal (in the order of
// TableMetadata::commits) and index into that commit's files or replaced
// groups, or index into pending_compactions. A "shape" hash of every
// commit's key and counts, and of the number of pending operations, tells
// a stale index from a fresh one; find_listing_gaps also checks each entry
// it reads is in the partition it was indexed under. Not caught: an entry's
// partition renamed in place after indexing (nothing in lakegc edits loaded
// metadata; index again if you do).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <absl/container/flat_hash_map.h>
#include <absl/hash/hash.h>

#include "lakegc/core/instant_time.hpp"
#include "lakegc/core/status.hpp"
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
  /// Partition path -> runs of CommitInfo::replaced (begin, end index
  /// that list), in commit order.
  absl::flat_hash_map<std::string, std::vector<Run>> replaced_by_partition;
  /// Partition path -> indices into TableMetadata::pending_compactions.
  absl::flat_hash_map<std::string, std::vector<std::uint32_t>> pending_by_partition;
  std::uint64_t shape = 0;  // metadata_shape() of what was indexed
};

/// A hash of every commit's key, number of named files and of replaced
/// groups, and of the number of pending operations: an index built from
/// metadata of another shape is stale.
inline std::uint64_t metadata_shape(const std::map<InstantTime, CommitInfo>& commits,
                                    std::span<const PendingCompactionSlice> pending) {
  std::uint64_t h = absl::HashOf(commits.size(), pending.size());
  for (const auto& [t, info] : commits) h = absl::HashOf(h, t, info.files.size(), info.replaced.size());
  return h;
}

/// Indexes `commits` and `pending` (a TableMetadata's commits and
/// pending_compactions).
inline std::shared_ptr<const NamedFilesIndex> index_named_files(const std::map<InstantTime, CommitInfo>& commits,
                                                                std::span<const PendingCompactionSlice> pending) {
  auto index = std::make_shared<NamedFilesIndex>();
  std::uint32_t ordinal = 0;
  for (const auto& [t, info] : commits) {
    const auto& replaced = info.replaced;
    for (std::size_t begin = 0; begin < replaced.size();) {
      std::size_t end = begin + 1;
      while (end < replaced.size() && replaced[end].partition == replaced[begin].partition) ++end;
      index->replaced_by_partition[detail::to_absl(replaced[begin].partition)].push_back(
          {ordinal, static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(end)});
      begin = end;
    }
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
  for (std::uint32_t k = 0; k < pending.size(); ++k) {
    index->pending_by_partition[detail::to_absl(pending[k].partition)].push_back(k);
  }
  index->shape = metadata_shape(commits, pending);
  return index;
}

inline std::shared_ptr<const NamedFilesIndex> index_named_files(const TableMetadata& md) {
  return index_named_files(md.commits, md.pending_compactions);
}

/// The journal's index of md when it was built from metadata of md's
/// shape; otherwise one built now, which `own` keeps alive.
inline const NamedFilesIndex& current_named_files(const TableMetadata& md,
                                                  std::shared_ptr<const NamedFilesIndex>& own) {
  const NamedFilesIndex* index = md.named_files.get();
  if (index != nullptr && index->shape == metadata_shape(md.commits, md.pending_compactions)) return *index;
  own = index_named_files(md);
  return *own;
}

}  // namespace lakegc
