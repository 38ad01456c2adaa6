// File: lakegc/hudi/avro_writer.hpp
// -----------------------------------------------------------------------------
// Writes clean instants (HoodieCleanerPlan for `.clean.requested` /
// `.clean.inflight`, HoodieCleanMetadata for the completed `.clean`) as Avro
// object container files with Hudi's own schemas, so that Hudi can read the
// cleans lakegc performs and keeps its timeline consistent.
//
// Each record is built as a datum, encoded against Hudi's schema
// (avro/encode.hpp, which checks the datum against it) and framed as a
// one-block object container (avro/container.hpp): what Hudi's
// TimelineMetadataUtils writes with DataFileWriter. There is no size limit
// (Avro C's file writer capped a record at its 16 KiB block buffer, and a
// plan listing thousands of absolute paths is larger), and equal input
// gives byte-identical files.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/avro/container.hpp"
#include "lakegc/hudi/avro/datum.hpp"
#include "lakegc/hudi/avro/encode.hpp"
#include "lakegc/hudi/avro/schema.hpp"
#include "lakegc/hudi/metadata.hpp"

namespace lakegc::hudi {

namespace schemas {

/// HoodieCleanerPlan, from apache/hudi
/// hudi-common/src/main/avro/HoodieCleanerPlan.avsc (commit ac3ae4a66fa8),
/// which also defines HoodieActionInstant and HoodieCleanFileInfo inline.
/// Written as Avro Java's Schema.toString() renders it: the `/** */` comment
/// of the .avsc (which Avro C's JSON parser rejects) is dropped, and the
/// stray "default" inside the extraMetadata map type is left out.
inline constexpr std::string_view cleaner_plan =
    R"({"type":"record","name":"HoodieCleanerPlan","namespace":"org.apache.hudi.avro.model","fields":[)"
    R"({"name":"earliestInstantToRetain","type":["null",{"type":"record","name":"HoodieActionInstant","fields":[)"
    R"({"name":"timestamp","type":"string"},{"name":"action","type":"string"},{"name":"state","type":"string"}]}],)"
    R"("default":null},)"
    R"({"name":"lastCompletedCommitTimestamp","type":"string","default":""},)"
    R"({"name":"policy","type":"string"},)"
    R"({"name":"filesToBeDeletedPerPartition","type":["null",{"type":"map","values":{"type":"array","items":"string"}}],)"
    R"("default":null},)"
    R"({"name":"version","type":["int","null"],"default":1},)"
    R"({"name":"filePathsToBeDeletedPerPartition","type":["null",{"type":"map","values":{"type":"array","items":)"
    R"({"type":"record","name":"HoodieCleanFileInfo","fields":[)"
    R"({"name":"filePath","type":["null","string"],"default":null},)"
    R"({"name":"isBootstrapBaseFile","type":["null","boolean"],"default":null}]}}}],)"
    R"("doc":"This field replaces the field filesToBeDeletedPerPartition","default":null},)"
    R"({"name":"partitionsToBeDeleted","type":["null",{"type":"array","items":"string"}],)"
    R"("doc":"partitions to be deleted","default":null},)"
    R"({"name":"extraMetadata","type":["null",{"type":"map","values":"string"}],"default":null}]})";

/// HoodieCleanMetadata, from apache/hudi
/// hudi-common/src/main/avro/HoodieCleanMetadata.avsc (commit 826de7789d55),
/// with HoodieCleanPartitionMetadata
/// (hudi-common/src/main/avro/HoodieCleanPartitionMetadata.avsc, commit
/// 655551e567ab) defined inline at its first use, as Schema.toString() does;
/// the .avsc files refer to it by name only, resolved by Hudi's build.
inline constexpr std::string_view clean_metadata =
    R"({"type":"record","name":"HoodieCleanMetadata","namespace":"org.apache.hudi.avro.model","fields":[)"
    R"({"name":"startCleanTime","type":"string"},)"
    R"({"name":"timeTakenInMillis","type":"long"},)"
    R"({"name":"totalFilesDeleted","type":"int"},)"
    R"({"name":"earliestCommitToRetain","type":"string"},)"
    R"({"name":"lastCompletedCommitTimestamp","type":"string","default":""},)"
    R"({"name":"partitionMetadata","type":{"type":"map","values":)"
    R"({"type":"record","name":"HoodieCleanPartitionMetadata","fields":[)"
    R"({"name":"partitionPath","type":"string"},)"
    R"({"name":"policy","type":"string"},)"
    R"({"name":"deletePathPatterns","type":{"type":"array","items":"string"}},)"
    R"({"name":"successDeleteFiles","type":{"type":"array","items":"string"}},)"
    R"({"name":"failedDeleteFiles","type":{"type":"array","items":"string"}},)"
    R"({"name":"isPartitionDeleted","type":["null","boolean"],"default":null}]}}},)"
    R"({"name":"version","type":["int","null"],"default":1},)"
    R"({"name":"bootstrapPartitionMetadata","type":["null",{"type":"map","values":"HoodieCleanPartitionMetadata"}],)"
    R"("default":null},)"
    R"({"name":"extraMetadata","type":["null",{"type":"map","values":"string"}],"default":null}]})";

}  // namespace schemas

namespace detail {

using avro::datum;

inline datum string_datum(std::string s) { return datum::make_string(std::move(s)); }

inline datum string_array(const std::vector<std::string>& items) {
  datum a = datum::make_array();
  for (const auto& s : items) a.append(string_datum(s));
  return a;
}

inline datum string_map(const std::map<std::string, std::string>& m) {
  datum out = datum::make_map();
  for (const auto& [k, v] : m) out.add(k, string_datum(v));
  return out;
}

inline datum string_list_map(const std::map<std::string, std::vector<std::string>>& m) {
  datum out = datum::make_map();
  for (const auto& [k, v] : m) out.add(k, string_array(v));
  return out;
}

/// Encodes `record` against the built-in schema `schema_json` and frames it
/// as a one-record container. A failure is Internal: the schemas and the
/// datums built from them are lakegc's own.
[[nodiscard]] inline StatusOr<std::string> encode_single_record(std::string_view schema_json, const datum& record) {
  auto schema = avro::cached_schema(schema_json);
  if (!schema.ok()) {
    return absl::InternalError(fmt::format("built-in Avro schema does not parse: {}", message_of(schema.status())));
  }
  auto bytes = avro::encode(**schema, record);
  if (!bytes.ok()) {
    return absl::InternalError(fmt::format("record does not fit its schema: {}", message_of(bytes.status())));
  }
  return avro::write_container(schema_json, *bytes);
}

}  // namespace detail

/// Encodes a cleaner plan as Hudi writes `.clean.requested` and
/// `.clean.inflight`. Version 2 plans (the current format) put the paths in
/// filePathsToBeDeletedPerPartition as {filePath, isBootstrapBaseFile=false}
/// and leave the deprecated filesToBeDeletedPerPartition present but empty;
/// version 1 plans put them (file names) in filesToBeDeletedPerPartition and
/// leave filePathsToBeDeletedPerPartition null. partitionsToBeDeleted and
/// extraMetadata are written even when empty.
///
/// InvalidArgument when `version` is not 1 or 2, or when
/// earliest_instant_to_retain is set without an action (Hudi rebuilds a
/// HoodieInstant from it). An empty state is written as "COMPLETED".
[[nodiscard]] inline StatusOr<std::string> encode_cleaner_plan(const CleanerPlan& plan) {
  if (plan.version != 1 && plan.version != 2) {
    return absl::InvalidArgumentError(
        lakegc::detail::to_absl(fmt::format("encode_cleaner_plan: version must be 1 or 2, not {}", plan.version)));
  }
  if (plan.earliest_instant_to_retain && plan.earliest_instant_to_retain_action.empty()) {
    return absl::InvalidArgumentError(
        "encode_cleaner_plan: earliest_instant_to_retain is set but earliest_instant_to_retain_action is empty; "
        "Hudi's CleanActionExecutor needs the action of that instant (e.g. \"commit\")");
  }
  using detail::datum;
  using detail::string_datum;
  datum rec = datum::make_record("org.apache.hudi.avro.model.HoodieCleanerPlan");
  if (plan.earliest_instant_to_retain) {
    datum instant = datum::make_record("org.apache.hudi.avro.model.HoodieActionInstant");
    instant.add("timestamp", string_datum(*plan.earliest_instant_to_retain));
    instant.add("action", string_datum(plan.earliest_instant_to_retain_action));
    instant.add("state",
                string_datum(plan.earliest_instant_to_retain_state.empty() ? std::string("COMPLETED")
                                                                           : plan.earliest_instant_to_retain_state));
    rec.add("earliestInstantToRetain", std::move(instant));
  }
  rec.add("lastCompletedCommitTimestamp", string_datum(plan.last_completed_commit_timestamp));
  rec.add("policy", string_datum(plan.policy));
  rec.add("version", datum::make_int(plan.version));
  if (plan.version == 1) {
    rec.add("filesToBeDeletedPerPartition", detail::string_list_map(plan.file_paths_to_delete_per_partition));
    // filePathsToBeDeletedPerPartition stays null.
  } else {
    // filesToBeDeletedPerPartition stays an empty map (deprecated).
    rec.add("filesToBeDeletedPerPartition", datum::make_map());
    datum paths = datum::make_map();
    for (const auto& [partition, files] : plan.file_paths_to_delete_per_partition) {
      datum list = datum::make_array();
      for (const auto& path : files) {
        datum info = datum::make_record("org.apache.hudi.avro.model.HoodieCleanFileInfo");
        info.add("filePath", string_datum(path));
        info.add("isBootstrapBaseFile", datum::make_bool(false));
        list.append(std::move(info));
      }
      paths.add(partition, std::move(list));
    }
    rec.add("filePathsToBeDeletedPerPartition", std::move(paths));
  }
  rec.add("partitionsToBeDeleted", detail::string_array(plan.partitions_to_be_deleted));
  // An empty map, not null: Hudi's own writers never leave it null, and
  // some of its readers iterate it without a null check.
  rec.add("extraMetadata", detail::string_map(plan.extra_metadata));
  return detail::encode_single_record(schemas::cleaner_plan, rec);
}

/// Encodes clean metadata as Hudi writes the completed `.clean`.
/// bootstrapPartitionMetadata is written as an empty map.
///
/// InvalidArgument when total_files_deleted does not fit Avro's int, or
/// `version` is not 1 or 2.
[[nodiscard]] inline StatusOr<std::string> encode_clean_metadata(const CleanMetadata& meta) {
  if (meta.total_files_deleted < 0 || meta.total_files_deleted > std::numeric_limits<std::int32_t>::max()) {
    return absl::InvalidArgumentError(lakegc::detail::to_absl(fmt::format(
        "encode_clean_metadata: total_files_deleted {} does not fit the schema's int", meta.total_files_deleted)));
  }
  if (meta.version != 1 && meta.version != 2) {
    return absl::InvalidArgumentError(
        lakegc::detail::to_absl(fmt::format("encode_clean_metadata: version must be 1 or 2, not {}", meta.version)));
  }
  using detail::datum;
  using detail::string_datum;
  datum rec = datum::make_record("org.apache.hudi.avro.model.HoodieCleanMetadata");
  rec.add("startCleanTime", string_datum(meta.start_clean_time));
  rec.add("timeTakenInMillis", datum::make_long(meta.time_taken_ms));
  rec.add("totalFilesDeleted", datum::make_int(static_cast<std::int32_t>(meta.total_files_deleted)));
  rec.add("earliestCommitToRetain", string_datum(meta.earliest_commit_to_retain));
  rec.add("lastCompletedCommitTimestamp", string_datum(meta.last_completed_commit_timestamp));
  datum partitions = datum::make_map();
  for (const auto& [partition, pm] : meta.partition_metadata) {
    datum p = datum::make_record("org.apache.hudi.avro.model.HoodieCleanPartitionMetadata");
    p.add("partitionPath", string_datum(pm.partition_path));
    p.add("policy", string_datum(pm.policy));
    p.add("deletePathPatterns", detail::string_array(pm.delete_path_patterns));
    p.add("successDeleteFiles", detail::string_array(pm.success_delete_files));
    p.add("failedDeleteFiles", detail::string_array(pm.failed_delete_files));
    p.add("isPartitionDeleted", datum::make_bool(pm.is_partition_deleted));
    partitions.add(partition, std::move(p));
  }
  rec.add("partitionMetadata", std::move(partitions));
  rec.add("version", datum::make_int(meta.version));
  rec.add("bootstrapPartitionMetadata", datum::make_map());
  rec.add("extraMetadata", detail::string_map(meta.extra_metadata));
  return detail::encode_single_record(schemas::clean_metadata, rec);
}

}  // namespace lakegc::hudi
