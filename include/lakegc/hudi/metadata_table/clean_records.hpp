// File: lakegc/hudi/metadata_table/clean_records.hpp
// -----------------------------------------------------------------------------
// The metadata-table records of a clean, as Hudi 1.2.0 makes them
// (HoodieTableMetadataUtil.convertMetadataToFilesPartitionRecords with
// HoodieMetadataPayload.createPartitionFilesRecord / createPartitionListRecord;
// log_records.hpp writes them).
//
//  * per partition of the clean metadata: a `files` record keyed by the
//    partition ("." for the root partition) listing every name in its
//    deletePathPatterns as {size 0, isDeleted true};
//  * a partition the clean deleted gets no such record but a deletion of its
//    key (a payload without a record, which HoodieAppendHandle writes to a
//    DELETE_BLOCK), and one `__all_partitions__` record lists the deleted
//    partitions with isDeleted true.
//
// Index partitions (the clean overload of convertMetadataToRecords in
// 1.2.0): `column_stats` gets the deletion of the key of every (file of
// deletePathPatterns, column to index) pair, `bloom_filters` of the key of
// every base file of deletePathPatterns (index_keys.hpp); both are payloads
// whose isDeleted flag makes HoodieMetadataPayload.getInsertValue empty, so
// HoodieAppendHandle writes them as DELETE_BLOCK entries, not records.
// Expression indexes get records too (clean_support_of below: lakegc
// refuses those tables); record_index, secondary indexes and partition_stats
// get none.
#pragma once

#include <algorithm>
#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lakegc/core/file_name.hpp"
#include "lakegc/core/instant_time.hpp"
#include "lakegc/exec/completed_clean.hpp"
#include "lakegc/hudi/avro/datum.hpp"
#include "lakegc/hudi/metadata_table/files_record.hpp"
#include "lakegc/hudi/metadata_table/index_keys.hpp"
#include "lakegc/hudi/metadata_table/log_records.hpp"

namespace lakegc::hudi::metadata_table {

/// MetadataPartitionType by partition path, as the clean overload of
/// HoodieTableMetadataUtil.convertMetadataToRecords treats it (Hudi 1.2.0).
/// A partition lakegc does not know is refused.
inline update_support clean_support_of(std::string_view partition) {
  if (partition == files_partition_name || partition == column_stats_partition_name ||
      partition == bloom_filters_partition_name) {
    return update_support::records_written;
  }
  if (partition == "record_index" || partition == partition_stats_partition_name ||
      partition.starts_with("secondary_index_")) {
    return update_support::no_records;
  }
  // expr_index_*: records of deleted files per the index definition.
  return update_support::refused;
}

/// What a clean writes to the metadata table, per partition that gets anything.
struct clean_records {
  std::vector<partition_records> partitions;
  std::size_t files_deleted = 0;
};

/// The metadata-table partitions a clean writes to and what their records
/// need beyond the clean itself.
struct clean_record_inputs {
  /// The partitions of the table's metadata table that get records on a
  /// clean (`files` first), of `update_support::records_written`.
  std::vector<std::string> partitions = {"files"};
  /// column_stats: the columns whose statistics a clean deletes (columns_to_index.hpp).
  std::vector<std::string> stats_columns;
  /// Pending cleans whose metadata deltacommit Hudi wrote (or whose rollback
  /// in the metadata table is pending): that deltacommit is rolled back in
  /// the metadata table and written again, as Hudi's commitInternal does.
  std::set<InstantTime> roll_back_first;

  bool has(std::string_view partition) const {
    return std::find(partitions.begin(), partitions.end(), partition) != partitions.end();
  }
};

namespace detail {

/// FSUtils.isBaseFile: a base file name with a base-file format's extension.
inline bool is_base_file_name(std::string_view name) {
  const auto b = lakegc::detail::scan_base_file_name(name);
  return b &&
         (b->extension == "parquet" || b->extension == "hfile" || b->extension == "orc" || b->extension == "lance");
}

}  // namespace detail

/// The records Hudi writes to the metadata table for clean `m`.
inline clean_records records_for_clean(const lakegc::CompletedClean& m, const clean_record_inputs& inputs = {}) {
  clean_records out;
  partition_records files{std::string(files_partition_name), {}, {}};
  partition_records stats{std::string(column_stats_partition_name), {}, {}};
  partition_records blooms{std::string(bloom_filters_partition_name), {}, {}};
  std::vector<std::pair<std::string, file_entry>> deleted_partitions;
  for (const auto& [partition, r] : m.partitions) {
    // deletePathPatterns: what the plan asked to delete here (journal.hpp).
    if (r.partition_deleted) {
      files.deleted_keys.push_back(files_key_of(partition));
      deleted_partitions.emplace_back(files_key_of(partition), file_entry{0, true});
    } else {
      std::vector<std::pair<std::string, file_entry>> entries;
      for (const std::string& name : r.success) entries.emplace_back(name, file_entry{0, true});
      files.upserts.emplace_back(files_key_of(partition),
                                 detail::metadata_record(files_key_of(partition), file_list_type, entries));
    }
    for (const std::string& name : r.success) {
      for (const std::string& column : inputs.stats_columns) {
        stats.deleted_keys.push_back(column_stats_key(partition, name, column));
      }
      if (detail::is_base_file_name(name)) blooms.deleted_keys.push_back(bloom_filter_key(partition, name));
    }
    out.files_deleted += r.success.size();
  }
  if (!deleted_partitions.empty()) {
    files.upserts.emplace_back(
        std::string(all_partitions_key),
        detail::metadata_record(std::string(all_partitions_key), partition_list_type, deleted_partitions));
  }
  out.partitions.push_back(std::move(files));
  if (inputs.has(column_stats_partition_name) && !stats.deleted_keys.empty())
    out.partitions.push_back(std::move(stats));
  if (inputs.has(bloom_filters_partition_name) && !blooms.deleted_keys.empty()) {
    out.partitions.push_back(std::move(blooms));
  }
  return out;
}

}  // namespace lakegc::hudi::metadata_table
