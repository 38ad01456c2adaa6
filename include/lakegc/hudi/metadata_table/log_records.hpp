// File: lakegc/hudi/metadata_table/log_records.hpp
// -----------------------------------------------------------------------------
// What one metadata-table deltacommit writes to one partition of the
// metadata table (partition_records), and the bytes of the log file that
// holds it in one file group, as Hudi 1.2.0's HoodieAppendHandle writes it.
//
// Per file group that gets anything: one HFILE_DATA_BLOCK with the upserts,
// sorted by key, then, if keys are deleted, one DELETE_BLOCK
// (appendDataAndDeleteBlocks writes data before deletes; the data block type
// is HFILE_DATA_BLOCK because the metadata table's base format is HFile,
// pickLogDataBlockFormat), both with the INSTANT_TIME and SCHEMA headers.
// Hudi's metadata reader looks keys up in the HFile
// (HoodieHFileDataBlock.lookupRecords): an AVRO_DATA_BLOCK there fails with
// "Point lookups are not supported by this Data block type", as the interop
// suite showed. A deleted key is a payload whose getInsertValue is empty (a
// deleted partition of `files`, a flagged-deleted column statistic or bloom
// filter), written as a delete record with the metadata partition's path and
// the payload's default ordering value, IntWrapper{0}.
//
// lakegc's HFile carries one file-info entry of its own, `lakegc.writer`
// (the data-table action it wrote for), which readers ignore and by which a
// rerun knows a log file of a pending instant as lakegc's.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/avro/datum.hpp"
#include "lakegc/hudi/log/delete_block.hpp"
#include "lakegc/hudi/log/hfile_data_block.hpp"
#include "lakegc/hudi/log/write_block.hpp"
#include "lakegc/hudi/metadata_table/files_record.hpp"
#include "lakegc/hudi/metadata_table/schemas.hpp"

namespace lakegc::hudi::metadata_table {

/// What a metadata-table partition needs when lakegc completes an action
/// on the data table.
enum class update_support {
  records_written,  ///< lakegc writes their records
  no_records,       ///< Hudi writes no record for the action here
  refused,          ///< Hudi writes records lakegc does not: lakegc refuses the table
};

inline constexpr std::string_view column_stats_partition_name = "column_stats";
inline constexpr std::string_view bloom_filters_partition_name = "bloom_filters";
inline constexpr std::string_view partition_stats_partition_name = "partition_stats";

/// HoodieTableMetadataUtil.getPartitionIdentifierForFilesPartition.
inline std::string files_key_of(std::string_view partition) {
  return partition.empty() ? std::string(non_partitioned_key) : std::string(partition);
}

/// What one metadata-table partition gets from one deltacommit.
struct partition_records {
  std::string partition;  ///< the metadata-table partition
  /// HoodieMetadataRecords by key (`files`: the files records and `__all_partitions__`).
  std::vector<std::pair<std::string, avro::datum>> upserts;
  std::vector<std::string> deleted_keys;
};

namespace detail {

/// A HoodieMetadataRecord of the `files` partition (file_list_type) or
/// `__all_partitions__` (partition_list_type).
inline avro::datum metadata_record(std::string key, std::int32_t type,
                                   const std::vector<std::pair<std::string, file_entry>>& entries) {
  avro::datum r = avro::datum::make_record("org.apache.hudi.avro.model.HoodieMetadataRecord");
  r.add("key", avro::datum::make_string(std::move(key)));
  r.add("type", avro::datum::make_int(type));
  avro::datum m = avro::datum::make_map();
  for (const auto& [name, e] : entries) {
    avro::datum info = avro::datum::make_record("org.apache.hudi.avro.model.HoodieMetadataFileInfo");
    info.add("size", avro::datum::make_long(static_cast<std::int64_t>(e.size)));
    info.add("isDeleted", avro::datum::make_bool(e.deleted));
    m.add(name, std::move(info));
  }
  r.add("filesystemMetadata", std::move(m));
  return r;
}

}  // namespace detail

/// The HFile file-info entry that marks a log block lakegc wrote.
inline constexpr std::string_view lakegc_writer_key = "lakegc.writer";

/// The bytes of the log file holding `upserts` and `deleted_keys` of
/// metadata-table partition `partition`, written by `instant` for the data
/// table's action `mark` (the value of lakegc's file-info entry). Empty
/// when there is nothing to write (Hudi then opens no log file).
[[nodiscard]] inline StatusOr<std::string> log_bytes(std::string_view partition,
                                                     std::span<const std::pair<std::string, avro::datum>> upserts,
                                                     std::span<const std::string> deleted_keys,
                                                     std::string_view instant, std::string_view mark) {
  const std::string schema = schemas::metadata_record_with_meta_fields();
  std::string out;
  if (!upserts.empty()) {
    LAKEGC_ASSIGN_OR_RETURN(log::log_block data,
                            log::make_hfile_data_block(schema, upserts, instant, "key",
                                                       {{std::string(lakegc_writer_key), std::string(mark)}}));
    LAKEGC_ASSIGN_OR_RETURN(std::string bytes, log::encode_block(data));
    out += bytes;
  }
  if (!deleted_keys.empty()) {
    std::vector<log::delete_record> deletes;
    deletes.reserve(deleted_keys.size());
    for (const std::string& key : deleted_keys) {
      log::delete_record d;
      d.record_key = key;
      d.partition_path = std::string(partition);  // MetadataPartitionType's partition path
      // HoodieRecordPayload.getOrderingValue's default, 0, wrapped.
      avro::datum zero = avro::datum::make_record("org.apache.hudi.avro.model.IntWrapper");
      zero.add("value", avro::datum::make_int(0));
      d.ordering_value = std::move(zero);
      deletes.push_back(std::move(d));
    }
    LAKEGC_ASSIGN_OR_RETURN(log::log_block del,
                            log::make_delete_block(deletes, instant, {{log::header_key::schema, schema}}));
    LAKEGC_ASSIGN_OR_RETURN(std::string bytes, log::encode_block(del));
    out += bytes;
  }
  return out;
}

}  // namespace lakegc::hudi::metadata_table
