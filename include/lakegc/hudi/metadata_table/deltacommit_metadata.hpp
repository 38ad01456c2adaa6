// File: lakegc/hudi/metadata_table/deltacommit_metadata.hpp
// -----------------------------------------------------------------------------
// The commit metadata of a metadata-table deltacommit that appended one log
// file to each of some file groups (of `files`, `column_stats`,
// `bloom_filters`), in the encoding of the table version: JSON in timeline
// layout 1 (table version 6), Avro HoodieCommitMetadata in layout 2
// (versions 8 and 9). Shaped as Hudi 1.2.0 writes them (compared with the
// metadata tables of tables Hudi wrote):
//
//  * `.deltacommit.inflight`: the workload profile
//    (BaseCommitActionExecutor.saveWorkloadProfileMetadataToInflight): per
//    metadata-table partition, an empty stat for inserts and one per updated
//    file group with the base instant of its latest slice as prevCommit and
//    its record count as numUpdateWrites;
//  * completed: per log file one HoodieDeltaWriteStat (path, sizes, log
//    version, offset 0, base file, the slice's log files), the write schema
//    in extraMetadata["schema"], operationType UPSERT_PREPPED.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lakegc/core/json_writer.hpp"
#include "lakegc/core/status.hpp"
#include "lakegc/hudi/avro/container.hpp"
#include "lakegc/hudi/avro/datum.hpp"
#include "lakegc/hudi/avro/encode.hpp"
#include "lakegc/hudi/avro/schema.hpp"
#include "lakegc/hudi/metadata_table/schemas.hpp"

namespace lakegc::hudi::metadata_table {

/// What one deltacommit wrote to one file group of the metadata table.
struct log_write {
  std::string partition = "files";  ///< the metadata-table partition
  std::string file_id = "files-0000-0";
  /// The log file's name; empty when the deltacommit wrote none (a clean
  /// with no partition: Hudi opens no append handle).
  std::string file_name;
  /// Table version 6: the base instant of the slice appended to (the log
  /// is named by it); 8 and later: the deltacommit itself.
  std::string prev_commit;
  /// The base instant of the file group's latest slice: the inflight's
  /// prevCommit in every version.
  std::string slice_base_instant;
  /// Version 6: the slice's base file name, or ""; 8 and later: "".
  std::string base_file;
  /// Version 6: the slice's log files newest first, then this one; 8 and
  /// later: this one.
  std::vector<std::string> log_files;
  std::int32_t log_version = 1;
  std::uint64_t size = 0;
  std::uint64_t upserts = 0;
  std::uint64_t deletes = 0;
};

namespace detail {

inline void json_stat_counts(json_writer& j, std::uint64_t writes, std::uint64_t deletes, std::uint64_t updates,
                             std::uint64_t bytes) {
  j.key("numWrites").value(writes).key("numDeletes").value(deletes).key("numUpdateWrites").value(updates);
  j.key("numInserts").value(std::uint64_t{0}).key("totalWriteBytes").value(bytes);
  j.key("totalWriteErrors").value(std::uint64_t{0});
  for (const char* k :
       {"totalLogRecords", "totalLogFilesCompacted", "totalLogSizeCompacted", "totalUpdatedRecordsCompacted",
        "totalLogBlocks", "totalCorruptLogBlock", "totalRollbackBlocks", "totalLogReadTimeMs"}) {
    j.key(k).value(std::uint64_t{0});
  }
}

}  // namespace detail

namespace detail {

/// The partitions of `writes`, each once, in order of first appearance.
inline std::vector<std::string_view> partitions_of(std::span<const log_write> writes) {
  std::vector<std::string_view> out;
  for (const log_write& w : writes) {
    if (std::find(out.begin(), out.end(), w.partition) == out.end()) out.push_back(w.partition);
  }
  return out;
}

}  // namespace detail

/// Layout 1 (JSON). `completed` false: the inflight's workload profile.
inline std::string deltacommit_json(std::span<const log_write> writes, bool completed) {
  json_writer j;
  j.begin_object();
  j.key("partitionToWriteStats").begin_object();
  for (std::string_view partition : detail::partitions_of(writes)) {
    const bool any_file = std::any_of(writes.begin(), writes.end(), [&](const log_write& w) {
      return w.partition == partition && !w.file_name.empty();
    });
    if (completed && !any_file) continue;
    j.key(partition).begin_array();
    if (!completed) {
      j.begin_object();
      j.key("fileId").value("").key("path").null().key("prevCommit").value("null");
      detail::json_stat_counts(j, 0, 0, 0, 0);
      j.key("partitionPath").null().key("fileSizeInBytes").value(std::uint64_t{0});
      j.end_object();
    }
    for (const log_write& w : writes) {
      if (w.partition != partition) continue;
      if (!completed) {
        j.begin_object();
        j.key("fileId").value(w.file_id).key("path").null().key("prevCommit").value(w.slice_base_instant);
        detail::json_stat_counts(j, 0, 0, w.upserts + w.deletes, 0);
        j.key("partitionPath").null().key("fileSizeInBytes").value(std::uint64_t{0});
        j.end_object();
        continue;
      }
      if (w.file_name.empty()) continue;
      j.begin_object();
      j.key("fileId").value(w.file_id);
      j.key("path").value(w.partition + "/" + w.file_name);
      j.key("prevCommit").value(w.prev_commit);
      detail::json_stat_counts(j, w.upserts, w.deletes, w.upserts, w.size);
      j.key("partitionPath").value(w.partition);
      j.key("fileSizeInBytes").value(w.size);
      j.key("tempPath").null().key("cdcStats").null().key("minEventTime").null().key("maxEventTime").null();
      j.key("prevBaseFile").null();
      j.key("runtimeStats").begin_object();
      j.key("totalScanTime").value(std::uint64_t{0}).key("totalUpsertTime").value(std::uint64_t{0});
      j.key("totalCreateTime").value(std::uint64_t{0});
      j.end_object();
      j.key("logVersion").value(static_cast<std::int64_t>(w.log_version));
      j.key("logOffset").value(std::uint64_t{0});
      j.key("baseFile").value(w.base_file);
      j.key("logFiles").strings(w.log_files);
      j.end_object();
    }
    j.end_array();
  }
  j.end_object();
  j.key("compacted").value(false);
  j.key("extraMetadata").begin_object();
  if (completed) j.key("schema").value(schemas::metadata_record);
  j.end_object();
  j.key("operationType").value("UPSERT_PREPPED");
  j.end_object();
  return j.str();
}

namespace detail {

inline avro::datum long_datum(std::uint64_t v) { return avro::datum::make_long(static_cast<std::int64_t>(v)); }

inline avro::datum write_stat(std::string_view file_id, std::optional<std::string_view> path,
                              std::string_view prev_commit, std::uint64_t writes, std::uint64_t deletes,
                              std::uint64_t updates, std::uint64_t bytes) {
  avro::datum s = avro::datum::make_record("org.apache.hudi.avro.model.HoodieWriteStat");
  s.add("fileId", avro::datum::make_string(std::string(file_id)));
  if (path) s.add("path", avro::datum::make_string(std::string(*path)));
  s.add("prevCommit", avro::datum::make_string(std::string(prev_commit)));
  s.add("numWrites", long_datum(writes));
  s.add("numDeletes", long_datum(deletes));
  s.add("numUpdateWrites", long_datum(updates));
  s.add("totalWriteBytes", long_datum(bytes));
  s.add("totalWriteErrors", long_datum(0));
  s.add("numInserts", long_datum(0));
  for (const char* k :
       {"totalLogRecords", "totalUpdatedRecordsCompacted", "totalLogBlocks", "totalCorruptLogBlock",
        "totalRollbackBlocks", "totalLogFilesCompacted", "totalLogReadTimeMs", "totalLogSizeCompacted", "numUpdates"}) {
    s.add(k, long_datum(0));
  }
  s.add("fileSizeInBytes", long_datum(path ? bytes : 0));
  return s;
}

}  // namespace detail

/// Layout 2 (Avro HoodieCommitMetadata in an object container).
[[nodiscard]] inline StatusOr<std::string> deltacommit_avro(std::span<const log_write> writes, bool completed) {
  avro::datum by_partition = avro::datum::make_map();
  for (std::string_view partition : detail::partitions_of(writes)) {
    avro::datum stats = avro::datum::make_array();
    if (!completed) stats.append(detail::write_stat("", std::nullopt, "null", 0, 0, 0, 0));
    for (const log_write& w : writes) {
      if (w.partition != partition) continue;
      if (!completed) {
        stats.append(detail::write_stat(w.file_id, std::nullopt, w.slice_base_instant, 0, 0, w.upserts + w.deletes, 0));
        continue;
      }
      if (w.file_name.empty()) continue;
      avro::datum s = detail::write_stat(w.file_id, w.partition + "/" + w.file_name, w.prev_commit, w.upserts,
                                         w.deletes, w.upserts, w.size);
      s.add("partitionPath", avro::datum::make_string(w.partition));
      s.add("logVersion", avro::datum::make_int(w.log_version));
      s.add("logOffset", detail::long_datum(0));
      s.add("baseFile", avro::datum::make_string(w.base_file));
      avro::datum logs = avro::datum::make_array();
      for (const auto& l : w.log_files) logs.append(avro::datum::make_string(l));
      s.add("logFiles", std::move(logs));
      avro::datum rt = avro::datum::make_record("org.apache.hudi.avro.model.HoodieRuntimeStats");
      for (const char* k : {"totalScanTime", "totalCreateTime", "totalUpsertTime"}) rt.add(k, detail::long_datum(0));
      s.add("runtimeStats", std::move(rt));
      stats.append(std::move(s));
    }
    if (stats.size() > 0) by_partition.add(std::string(partition), std::move(stats));
  }
  avro::datum m = avro::datum::make_record("org.apache.hudi.avro.model.HoodieCommitMetadata");
  m.add("partitionToWriteStats", std::move(by_partition));
  m.add("compacted", avro::datum::make_bool(false));
  avro::datum extra = avro::datum::make_map();
  if (completed) extra.add("schema", avro::datum::make_string(std::string(schemas::metadata_record)));
  m.add("extraMetadata", std::move(extra));
  m.add("operationType", avro::datum::make_string("UPSERT_PREPPED"));
  LAKEGC_ASSIGN_OR_RETURN(auto schema, avro::cached_schema(schemas::commit_metadata));
  LAKEGC_ASSIGN_OR_RETURN(std::string record, avro::encode(*schema, m));
  return avro::write_container(schemas::commit_metadata, record);
}

}  // namespace lakegc::hudi::metadata_table
