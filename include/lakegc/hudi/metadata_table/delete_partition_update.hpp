// File: lakegc/hudi/metadata_table/delete_partition_update.hpp
// -----------------------------------------------------------------------------
// Keeping the metadata table in step with a replacecommit of operation
// DELETE_PARTITION (partition TTL, `lakegc ttl --execute`), as Hudi 1.2.0's
// metadata writer does for any commit (HoodieBackedTableMetadataWriter.update(
// HoodieCommitMetadata) -> HoodieMetadataWriteUtils.convertMetadataToRecords):
// a deltacommit at the replacecommit's instant, written before it completes
// (deltacommit_write.hpp), holding
//
//  * `files`: the partition-list record `__all_partitions__` listing the
//    partitions the commit added: none (it has no write stats), so an
//    empty list, which merges into the existing record as no change. The
//    dropped partitions stay listed until the cleaner has removed their
//    files and the partitions themselves (clean_records.hpp);
//  * `partition_stats`: the deletion of the key of every (dropped partition,
//    indexed column) pair (convertMetadataToPartitionStatRecords with
//    isDeletePartition: stub statistics flagged deleted, so DELETE_BLOCK
//    entries), the columns by Hudi's rule from the commit's own writer
//    schema (none when it has no schema);
//  * `column_stats`, `bloom_filters`: nothing (their records come from write
//    stats, and the commit has none);
//  * `record_index` and secondary indexes get the deletion of every record
//    key of the dropped partitions, which only a reader of the data files
//    knows, and expression indexes their own records: refused.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/instant_time.hpp"
#include "lakegc/core/load_view.hpp"
#include "lakegc/core/status.hpp"
#include "lakegc/core/timeline.hpp"
#include "lakegc/hudi/journal.hpp"
#include "lakegc/hudi/metadata_table/deltacommit_write.hpp"
#include "lakegc/hudi/metadata_table/files_partition.hpp"
#include "lakegc/hudi/metadata_table/index_columns.hpp"
#include "lakegc/hudi/metadata_table/index_keys.hpp"
#include "lakegc/hudi/metadata_table/log_records.hpp"
#include "lakegc/hudi/subfolder_storage.hpp"
#include "lakegc/hudi/table_properties.hpp"
#include "lakegc/policy/config.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc::hudi::metadata_table {

/// What a metadata-table partition needs for a DELETE_PARTITION replacecommit.
inline update_support delete_partition_support_of(std::string_view partition) {
  if (partition == files_partition_name || partition == partition_stats_partition_name) {
    return update_support::records_written;
  }
  if (partition == column_stats_partition_name || partition == bloom_filters_partition_name) {
    return update_support::no_records;
  }
  // record_index, secondary_index_*: every record key of the dropped
  // partitions; expr_index_*: its own records.
  return update_support::refused;
}

/// What the records of a DELETE_PARTITION deltacommit need beyond the
/// dropped partitions.
struct delete_partition_inputs {
  /// The partitions that get records (`files` first).
  std::vector<std::string> partitions = {std::string(files_partition_name)};
  /// partition_stats: the columns whose partition statistics are deleted.
  std::vector<std::string> partition_stats_columns;
};

/// The records Hudi writes to the metadata table for a DELETE_PARTITION
/// replacecommit dropping `dropped`.
inline std::vector<partition_records> records_for_delete_partition(const std::vector<std::string>& dropped,
                                                                   const delete_partition_inputs& inputs) {
  std::vector<partition_records> out;
  partition_records files{std::string(files_partition_name), {}, {}};
  files.upserts.emplace_back(std::string(all_partitions_key),
                             detail::metadata_record(std::string(all_partitions_key), partition_list_type, {}));
  out.push_back(std::move(files));
  const bool stats = std::find(inputs.partitions.begin(), inputs.partitions.end(), partition_stats_partition_name) !=
                     inputs.partitions.end();
  if (stats && !dropped.empty() && !inputs.partition_stats_columns.empty()) {
    partition_records ps{std::string(partition_stats_partition_name), {}, {}};
    for (const std::string& p : dropped) {
      for (const std::string& c : inputs.partition_stats_columns) ps.deleted_keys.push_back(partition_stats_key(p, c));
    }
    out.push_back(std::move(ps));
  }
  return out;
}

/// Whether lakegc can write the metadata deltacommit of a DELETE_PARTITION
/// replacecommit at `t` on the table at `storage` (properties `props`, data
/// timeline `data`, named `base_path` in messages), whose completed file will
/// carry writer schema `schema`, given the writer configuration
/// `writer_config`: FailedPrecondition naming the reason if not, else what
/// the records need. `t` is after every data instant, or the pending
/// replacecommit lakegc is finishing. Nothing is written.
template <Storage S>
[[nodiscard]] StatusOr<delete_partition_inputs> check_delete_partition_update(
    S& storage, const TableProperties& props, const Timeline& data, std::string_view base_path, const InstantTime& t,
    std::string schema, const config::Properties& writer_config = {}) {
  const std::vector<std::string> partitions = metadata_partitions_to_update(props);
  if (std::find(partitions.begin(), partitions.end(), files_partition_name) == partitions.end()) {
    return detail::refused(fmt::format("the metadata table has no '{}' partition among {} (lakegc updates that one)",
                                       files_partition_name, fmt::join(partitions, ", ")));
  }
  delete_partition_inputs inputs;
  for (const std::string& p : partitions) {
    if (delete_partition_support_of(p) == update_support::refused) {
      return detail::refused(
          fmt::format("metadata-table partition '{}' gets records of the dropped partitions' rows in Hudi, "
                      "which only a reader of the data files can write",
                      p));
    }
    if (delete_partition_support_of(p) == update_support::records_written && p != files_partition_name) {
      inputs.partitions.push_back(p);
    }
  }
  LAKEGC_RETURN_IF_ERROR(check_not_being_built(props, inputs.partitions));
  if (std::find(inputs.partitions.begin(), inputs.partitions.end(), partition_stats_partition_name) !=
      inputs.partitions.end()) {
    LAKEGC_ASSIGN_OR_RETURN(
        inputs.partition_stats_columns,
        stats_columns_of(storage, props, data, partition_stats_partition_name, std::move(schema), writer_config));
  }
  subfolder_storage<S> mdt(storage, std::string(folder));
  const std::string mdt_path = fmt::format("{}/{}", base_path, folder);
  auto cannot_read = [&](const Status& st) {
    return detail::refused(fmt::format("the metadata table cannot be read: {}", message_of(st)));
  };
  auto j = hudi::journal<subfolder_storage<S>>::open(mdt, mdt_path);
  if (!j.ok()) return cannot_read(j.status());
  auto md = j->load();
  if (!md.ok()) return cannot_read(md.status());
  LAKEGC_RETURN_IF_ERROR(check_metadata_instants(
      md->timeline, data, t, [&](const Instant& d) { return d.requested == t && d.action == Action::replacecommit; }));
  auto view = load_view(mdt, *md);
  if (!view.ok()) return cannot_read(view.status());
  LAKEGC_RETURN_IF_ERROR(check_file_groups(*view, inputs.partitions));
  auto state = files_partition_state(storage, data, base_path);
  if (!state.ok()) return cannot_read(state.status());
  return inputs;
}

/// Writes the metadata table's deltacommit for the DELETE_PARTITION
/// replacecommit `t` dropping `dropped`; `inputs` is what
/// check_delete_partition_update returned.
template <Storage S>
[[nodiscard]] StatusOr<metadata_update> write_delete_partition_deltacommit(
    S& storage, const TableProperties& props, std::string_view base_path, const InstantTime& t,
    const std::vector<std::string>& dropped, const delete_partition_inputs& inputs,
    const std::function<std::int64_t()>& now_ms) {
  const std::vector<partition_records> records = records_for_delete_partition(dropped, inputs);
  return write_metadata_deltacommit(storage, props, base_path, t, records, "delete_partition", now_ms);
}

}  // namespace lakegc::hudi::metadata_table
