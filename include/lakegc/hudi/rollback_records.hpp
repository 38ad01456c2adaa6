// File: lakegc/hudi/rollback_records.hpp
// -----------------------------------------------------------------------------
// The two records of a rollback instant, as Hudi writes them
// (docs/hudi-rollback.md):
//
//   `<t>.rollback.requested`   HoodieRollbackPlan: the instant to roll back
//                              (HoodieInstantInfo) and one HoodieRollbackRequest
//                              per file (table version 8+) or per file group
//                              (version 6): partitionPath, fileId,
//                              latestBaseInstant, filesToBeDeleted (absolute
//                              paths), logBlocksToBeDeleted (version 6 only)
//   `<t>.rollback.inflight`    empty
//   `<t>.rollback` (layout 1) / `<t>_<completion>.rollback` (layout 2)
//                              HoodieRollbackMetadata: startRollbackTime (the
//                              rollback's own instant), timeTakenInMillis,
//                              totalFilesDeleted, commitsRollback, per
//                              partition the success/failed deletes and the
//                              log files written/rolled back, version 1,
//                              instantsRollback
//
// The schemas are the ones Hudi 0.14-1.2 embed in these files (taken from a
// rollback written by Hudi, `avro.java.string` attributes included), so a
// file lakegc writes carries the same schema text as Hudi's own.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "lakegc/hudi/avro_writer.hpp"
#include "lakegc/hudi/metadata_codec.hpp"

namespace lakegc::hudi {

namespace schemas {

inline constexpr std::string_view rollback_plan =
    R"({"type":"record","name":"HoodieRollbackPlan","namespace":"org.apache.hudi.avro.model","fields":[)"
    R"({"name":"instantToRollback","type":["null",{"type":"record","name":"HoodieInstantInfo","fields":[)"
    R"({"name":"commitTime","type":{"type":"string","avro.java.string":"String"}},)"
    R"({"name":"action","type":{"type":"string","avro.java.string":"String"}}]}],)"
    R"("doc":"Hoodie instant that needs to be rolled back","default":null},)"
    R"({"name":"RollbackRequests","type":["null",{"type":"array","items":{"type":"record",)"
    R"("name":"HoodieRollbackRequest","fields":[)"
    R"({"name":"partitionPath","type":{"type":"string","avro.java.string":"String"}},)"
    R"({"name":"fileId","type":["null",{"type":"string","avro.java.string":"String"}],"default":null},)"
    R"({"name":"latestBaseInstant","type":["null",{"type":"string","avro.java.string":"String"}],"default":null},)"
    R"({"name":"filesToBeDeleted","type":{"type":"array","items":{"type":"string","avro.java.string":"String"},)"
    R"("default":[]},"default":[]},)"
    R"({"name":"logBlocksToBeDeleted","type":["null",{"type":"map","values":"long","avro.java.string":"String"}],)"
    R"("default":null}]}}],"default":null},)"
    R"({"name":"version","type":["int","null"],"default":1}]})";

inline constexpr std::string_view rollback_metadata =
    R"({"type":"record","name":"HoodieRollbackMetadata","namespace":"org.apache.hudi.avro.model","fields":[)"
    R"({"name":"startRollbackTime","type":{"type":"string","avro.java.string":"String"}},)"
    R"({"name":"timeTakenInMillis","type":"long"},)"
    R"({"name":"totalFilesDeleted","type":"int"},)"
    R"({"name":"commitsRollback","type":{"type":"array","items":{"type":"string","avro.java.string":"String"}}},)"
    R"({"name":"partitionMetadata","type":{"type":"map","values":{"type":"record",)"
    R"("name":"HoodieRollbackPartitionMetadata","fields":[)"
    R"({"name":"partitionPath","type":{"type":"string","avro.java.string":"String"}},)"
    R"({"name":"successDeleteFiles","type":{"type":"array","items":{"type":"string","avro.java.string":"String"}}},)"
    R"({"name":"failedDeleteFiles","type":{"type":"array","items":{"type":"string","avro.java.string":"String"}}},)"
    R"({"name":"rollbackLogFiles","type":["null",{"type":"map","values":"long","avro.java.string":"String"}],)"
    R"("default":null},)"
    R"({"name":"logFilesFromFailedCommit","type":["null",{"type":"map","values":"long","avro.java.string":"String"}],)"
    R"("default":null}]},"avro.java.string":"String"}},)"
    R"({"name":"version","type":["int","null"],"default":1},)"
    R"({"name":"instantsRollback","type":{"type":"array","items":{"type":"record","name":"HoodieInstantInfo",)"
    R"("fields":[{"name":"commitTime","type":{"type":"string","avro.java.string":"String"}},)"
    R"({"name":"action","type":{"type":"string","avro.java.string":"String"}}]},"default":[]},"default":[]}]})";

}  // namespace schemas

/// HoodieInstantInfo.
struct InstantInfo {
  std::string commit_time;
  std::string action;
  friend bool operator==(const InstantInfo&, const InstantInfo&) = default;
};

/// HoodieRollbackRequest.
struct RollbackRequest {
  std::string partition_path;
  std::optional<std::string> file_id;
  std::optional<std::string> latest_base_instant;
  std::vector<std::string> files_to_be_deleted;  ///< absolute paths
  /// Version 6 only: log file -> size, to receive a rollback command block.
  /// Written as a map always (null reads as empty), as Hudi writes it.
  std::map<std::string, std::int64_t> log_blocks_to_be_deleted;
  friend bool operator==(const RollbackRequest&, const RollbackRequest&) = default;
};

/// HoodieRollbackPlan (`.rollback.requested`).
struct RollbackPlanRecord {
  std::optional<InstantInfo> instant_to_rollback;
  std::vector<RollbackRequest> requests;
  int version = 1;
  friend bool operator==(const RollbackPlanRecord&, const RollbackPlanRecord&) = default;
};

/// HoodieRollbackPartitionMetadata.
struct RollbackPartitionRecord {
  std::string partition_path;
  std::vector<std::string> success_delete_files, failed_delete_files;
  std::map<std::string, std::int64_t> rollback_log_files;
  std::map<std::string, std::int64_t> log_files_from_failed_commit;
  friend bool operator==(const RollbackPartitionRecord&, const RollbackPartitionRecord&) = default;
};

/// HoodieRollbackMetadata (the completed `.rollback`), every field.
struct RollbackMetadataRecord {
  std::string start_rollback_time;
  std::int64_t time_taken_ms = -1;
  std::int64_t total_files_deleted = 0;
  std::vector<std::string> commits_rollback;
  std::map<std::string, RollbackPartitionRecord> partition_metadata;
  int version = 1;
  std::vector<InstantInfo> instants_rollback;
  friend bool operator==(const RollbackMetadataRecord&, const RollbackMetadataRecord&) = default;
};

namespace detail {

inline avro::datum instant_info_datum(const InstantInfo& i) {
  avro::datum d = avro::datum::make_record("org.apache.hudi.avro.model.HoodieInstantInfo");
  d.add("commitTime", string_datum(i.commit_time));
  d.add("action", string_datum(i.action));
  return d;
}

inline avro::datum long_map_datum(const std::map<std::string, std::int64_t>& m) {
  avro::datum out = avro::datum::make_map();
  for (const auto& [k, v] : m) out.add(k, avro::datum::make_long(v));
  return out;
}

template <class Node>
[[nodiscard]] Status read_instant_info(const Node& n, std::string_view where, InstantInfo& out) {
  if (!n.is_record()) return shape_error(where, "HoodieInstantInfo record", n.kind_name());
  LAKEGC_RETURN_IF_ERROR(
      read_required_string(n.field("commitTime"), fmt::format("{}.commitTime", where), out.commit_time));
  return read_required_string(n.field("action"), fmt::format("{}.action", where), out.action);
}

/// map<string, long>; null reads as empty.
template <class Node>
[[nodiscard]] Status read_long_map(const Node& n, std::string_view where, std::map<std::string, std::int64_t>& out) {
  out.clear();
  return each_entry(n, where, [&](std::string_view k, const auto& v) -> Status {
    const auto i = v.as_int();
    if (!i) return shape_error(fmt::format("{}[\"{}\"]", where, k), "long", v.kind_name());
    out[std::string(k)] = *i;
    return Status();
  });
}

template <class Node>
[[nodiscard]] Status read_optional_string(const Node& n, std::string_view where, std::optional<std::string>& out) {
  out.reset();
  if (n.is_null()) return Status();
  std::string s;
  LAKEGC_RETURN_IF_ERROR(read_string(n, where, s));
  out = std::move(s);
  return Status();
}

}  // namespace detail

/// Encodes a rollback plan as Hudi writes `.rollback.requested`.
[[nodiscard]] inline StatusOr<std::string> encode_rollback_plan(const RollbackPlanRecord& plan) {
  using avro::datum;
  using detail::string_datum;
  datum rec = datum::make_record("org.apache.hudi.avro.model.HoodieRollbackPlan");
  if (plan.instant_to_rollback) rec.add("instantToRollback", detail::instant_info_datum(*plan.instant_to_rollback));
  datum requests = datum::make_array();
  for (const RollbackRequest& r : plan.requests) {
    datum d = datum::make_record("org.apache.hudi.avro.model.HoodieRollbackRequest");
    d.add("partitionPath", string_datum(r.partition_path));
    if (r.file_id) d.add("fileId", string_datum(*r.file_id));
    if (r.latest_base_instant) d.add("latestBaseInstant", string_datum(*r.latest_base_instant));
    d.add("filesToBeDeleted", detail::string_array(r.files_to_be_deleted));
    d.add("logBlocksToBeDeleted", detail::long_map_datum(r.log_blocks_to_be_deleted));
    requests.append(std::move(d));
  }
  rec.add("RollbackRequests", std::move(requests));
  rec.add("version", datum::make_int(plan.version));
  return detail::encode_single_record(schemas::rollback_plan, rec);
}

/// Encodes rollback metadata as Hudi writes the completed `.rollback`.
[[nodiscard]] inline StatusOr<std::string> encode_rollback_metadata(const RollbackMetadataRecord& meta) {
  if (meta.total_files_deleted < 0 || meta.total_files_deleted > std::numeric_limits<std::int32_t>::max()) {
    return absl::InvalidArgumentError(fmt::format(
        "encode_rollback_metadata: total_files_deleted {} does not fit the schema's int", meta.total_files_deleted));
  }
  using avro::datum;
  using detail::string_datum;
  datum rec = datum::make_record("org.apache.hudi.avro.model.HoodieRollbackMetadata");
  rec.add("startRollbackTime", string_datum(meta.start_rollback_time));
  rec.add("timeTakenInMillis", datum::make_long(meta.time_taken_ms));
  rec.add("totalFilesDeleted", datum::make_int(static_cast<std::int32_t>(meta.total_files_deleted)));
  rec.add("commitsRollback", detail::string_array(meta.commits_rollback));
  datum partitions = datum::make_map();
  for (const auto& [partition, pm] : meta.partition_metadata) {
    datum p = datum::make_record("org.apache.hudi.avro.model.HoodieRollbackPartitionMetadata");
    p.add("partitionPath", string_datum(pm.partition_path));
    p.add("successDeleteFiles", detail::string_array(pm.success_delete_files));
    p.add("failedDeleteFiles", detail::string_array(pm.failed_delete_files));
    p.add("rollbackLogFiles", detail::long_map_datum(pm.rollback_log_files));
    p.add("logFilesFromFailedCommit", detail::long_map_datum(pm.log_files_from_failed_commit));
    partitions.add(partition, std::move(p));
  }
  rec.add("partitionMetadata", std::move(partitions));
  rec.add("version", datum::make_int(meta.version));
  datum instants = datum::make_array();
  for (const InstantInfo& i : meta.instants_rollback) instants.append(detail::instant_info_datum(i));
  rec.add("instantsRollback", std::move(instants));
  return detail::encode_single_record(schemas::rollback_metadata, rec);
}

/// Decodes `.rollback.requested`. Errors name the file and the field.
[[nodiscard]] inline StatusOr<RollbackPlanRecord> decode_rollback_plan(std::string_view bytes, std::string_view file) {
  LAKEGC_ASSIGN_OR_RETURN(auto d, detail::read_avro_record(bytes, file, {"HoodieRollbackPlan"}));
  RollbackPlanRecord out;
  const Status st = [&]() -> Status {
    if (!d.field("instantToRollback").is_null()) {
      InstantInfo i;
      LAKEGC_RETURN_IF_ERROR(detail::read_instant_info(d.field("instantToRollback"), "instantToRollback", i));
      out.instant_to_rollback = std::move(i);
    }
    std::int64_t version = 1;
    LAKEGC_RETURN_IF_ERROR(detail::read_int(d.field("version"), "version", version, 1));
    out.version = static_cast<int>(version);
    return detail::each_element(
        d.field("RollbackRequests"), "RollbackRequests", [&](std::size_t i, const avro::datum& r) -> Status {
          const std::string w = fmt::format("RollbackRequests[{}]", i);
          if (!r.is_record()) return detail::shape_error(w, "HoodieRollbackRequest record", r.kind_name());
          RollbackRequest q;
          LAKEGC_RETURN_IF_ERROR(
              detail::read_required_string(r.field("partitionPath"), w + ".partitionPath", q.partition_path));
          LAKEGC_RETURN_IF_ERROR(detail::read_optional_string(r.field("fileId"), w + ".fileId", q.file_id));
          LAKEGC_RETURN_IF_ERROR(detail::read_optional_string(r.field("latestBaseInstant"), w + ".latestBaseInstant",
                                                              q.latest_base_instant));
          LAKEGC_RETURN_IF_ERROR(
              detail::read_string_list(r.field("filesToBeDeleted"), w + ".filesToBeDeleted", q.files_to_be_deleted));
          LAKEGC_RETURN_IF_ERROR(detail::read_long_map(r.field("logBlocksToBeDeleted"), w + ".logBlocksToBeDeleted",
                                                       q.log_blocks_to_be_deleted));
          out.requests.push_back(std::move(q));
          return Status();
        });
  }();
  return detail::with_context(st, std::move(out), file, "Avro HoodieRollbackPlan");
}

/// Decodes a completed `.rollback`, every field.
[[nodiscard]] inline StatusOr<RollbackMetadataRecord> decode_rollback_metadata_record(std::string_view bytes,
                                                                                      std::string_view file) {
  LAKEGC_ASSIGN_OR_RETURN(auto d, detail::read_avro_record(bytes, file, {"HoodieRollbackMetadata"}));
  RollbackMetadataRecord out;
  const Status st = [&]() -> Status {
    LAKEGC_RETURN_IF_ERROR(
        detail::read_required_string(d.field("startRollbackTime"), "startRollbackTime", out.start_rollback_time));
    LAKEGC_RETURN_IF_ERROR(detail::read_int(d.field("timeTakenInMillis"), "timeTakenInMillis", out.time_taken_ms, -1));
    LAKEGC_RETURN_IF_ERROR(
        detail::read_int(d.field("totalFilesDeleted"), "totalFilesDeleted", out.total_files_deleted, 0));
    // A rollback that does not say what it rolled back cannot tell the
    // journal which instants are gone: refused, never read as "nothing".
    if (d.field("commitsRollback").is_null()) {
      return detail::shape_error("commitsRollback", "array of instants", "null or nothing");
    }
    LAKEGC_RETURN_IF_ERROR(
        detail::read_string_list(d.field("commitsRollback"), "commitsRollback", out.commits_rollback));
    std::int64_t version = 1;
    LAKEGC_RETURN_IF_ERROR(detail::read_int(d.field("version"), "version", version, 1));
    out.version = static_cast<int>(version);
    LAKEGC_RETURN_IF_ERROR(detail::each_element(
        d.field("instantsRollback"), "instantsRollback", [&](std::size_t i, const avro::datum& e) -> Status {
          InstantInfo info;
          LAKEGC_RETURN_IF_ERROR(detail::read_instant_info(e, fmt::format("instantsRollback[{}]", i), info));
          out.instants_rollback.push_back(std::move(info));
          return Status();
        }));
    return detail::each_entry(
        d.field("partitionMetadata"), "partitionMetadata",
        [&](std::string_view partition, const avro::datum& pm) -> Status {
          const std::string w = fmt::format("partitionMetadata[\"{}\"]", partition);
          if (!pm.is_record()) return detail::shape_error(w, "HoodieRollbackPartitionMetadata record", pm.kind_name());
          RollbackPartitionRecord p;
          LAKEGC_RETURN_IF_ERROR(
              detail::read_required_string(pm.field("partitionPath"), w + ".partitionPath", p.partition_path));
          LAKEGC_RETURN_IF_ERROR(detail::read_string_list(pm.field("successDeleteFiles"), w + ".successDeleteFiles",
                                                          p.success_delete_files));
          LAKEGC_RETURN_IF_ERROR(
              detail::read_string_list(pm.field("failedDeleteFiles"), w + ".failedDeleteFiles", p.failed_delete_files));
          LAKEGC_RETURN_IF_ERROR(
              detail::read_long_map(pm.field("rollbackLogFiles"), w + ".rollbackLogFiles", p.rollback_log_files));
          LAKEGC_RETURN_IF_ERROR(detail::read_long_map(
              pm.field("logFilesFromFailedCommit"), w + ".logFilesFromFailedCommit", p.log_files_from_failed_commit));
          out.partition_metadata[std::string(partition)] = std::move(p);
          return Status();
        });
  }();
  return detail::with_context(st, std::move(out), file, "Avro HoodieRollbackMetadata");
}

/// What hudi::journal::load needs of a completed rollback (the instants it
/// rolled back and the files it deleted): a projection of the full record, so
/// the file has one decoder and one set of rules.
[[nodiscard]] inline StatusOr<RollbackMetadata> decode_rollback_metadata(std::string_view bytes,
                                                                         std::string_view file) {
  LAKEGC_ASSIGN_OR_RETURN(auto full, decode_rollback_metadata_record(bytes, file));
  RollbackMetadata out;
  out.commits_rollback = std::move(full.commits_rollback);
  for (auto& [partition, pm] : full.partition_metadata) {
    out.success_delete_files.insert_or_assign(partition, std::move(pm.success_delete_files));
  }
  return out;
}

}  // namespace lakegc::hudi
