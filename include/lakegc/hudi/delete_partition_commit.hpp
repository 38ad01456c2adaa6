// File: lakegc/hudi/delete_partition_commit.hpp
// -----------------------------------------------------------------------------
// The three files of a replacecommit with operation DELETE_PARTITION, as
// Hudi 1.2.0's partition TTL writes them (BaseHoodieTableServiceClient.
// startDeletePartitionCommit, SparkDeletePartitionCommitActionExecutor,
// compared with the files of Hudi's own TTL and delete_partition runs in the
// interop suite):
//
//  * `<t>.replacecommit.requested`, every table version: Avro
//    HoodieRequestedReplaceMetadata {operationType: "DELETE_PARTITION",
//    clusteringPlan: null, extraMetadata: {}, version: 1};
//  * `<t>.replacecommit.inflight`: the empty workload profile
//    (saveWorkloadProfileMetadataToInflight): no write stats, operationType
//    DELETE_PARTITION; JSON in layout 1, Avro HoodieCommitMetadata in layout 2
//    (version left null, as Hudi leaves it);
//  * completed: no write stats, partitionToReplaceFileIds naming every file
//    group of the latest slices of each deleted partition, the table's write
//    schema in extraMetadata["schema"] when the caller has one; JSON in layout
//    1, Avro HoodieReplaceCommitMetadata in layout 2.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <simdjson.h>

#include "lakegc/core/json_writer.hpp"
#include "lakegc/core/status.hpp"
#include "lakegc/core/timeline.hpp"
#include "lakegc/hudi/avro/container.hpp"
#include "lakegc/hudi/avro/datum.hpp"
#include "lakegc/hudi/avro/encode.hpp"
#include "lakegc/hudi/avro/schema.hpp"
#include "lakegc/hudi/avro_writer.hpp"
#include "lakegc/hudi/metadata_table/schemas.hpp"
#include "lakegc/hudi/replace_schemas.hpp"

namespace lakegc::hudi {

inline constexpr std::string_view kDeletePartitionOperation = "DELETE_PARTITION";

struct DeletePartitionCommit {
  /// partition -> file ids replaced, in Hudi's partitionToReplaceFileIds.
  std::map<std::string, std::vector<std::string>> partition_to_replace_file_ids;
  /// extraMetadata["schema"]; empty: none written.
  std::string schema;
};

namespace detail {

[[nodiscard]] inline StatusOr<std::string> encode_one(std::string_view schema_json, const avro::datum& d) {
  LAKEGC_ASSIGN_OR_RETURN(auto schema, avro::cached_schema(schema_json));
  LAKEGC_ASSIGN_OR_RETURN(std::string record, avro::encode(*schema, d));
  return avro::write_container(schema_json, record);
}

}  // namespace detail

/// `<t>.replacecommit.requested` (Avro in every table version).
[[nodiscard]] inline StatusOr<std::string> delete_partition_requested() {
  avro::datum m = avro::datum::make_record("org.apache.hudi.avro.model.HoodieRequestedReplaceMetadata");
  m.add("operationType", avro::datum::make_string(std::string(kDeletePartitionOperation)));
  m.add("extraMetadata", avro::datum::make_map());
  m.add("version", avro::datum::make_int(1));
  return detail::encode_one(schemas::requested_replace_metadata, m);
}

/// `<t>.replacecommit.inflight`.
[[nodiscard]] inline StatusOr<std::string> delete_partition_inflight(TimelineLayout layout) {
  if (layout == TimelineLayout::v1) {
    json_writer j;
    j.begin_object();
    j.key("partitionToWriteStats").begin_object().end_object();
    j.key("compacted").value(false);
    j.key("extraMetadata").begin_object().end_object();
    j.key("operationType").value(kDeletePartitionOperation);
    j.end_object();
    return j.str();
  }
  avro::datum m = avro::datum::make_record("org.apache.hudi.avro.model.HoodieCommitMetadata");
  m.add("partitionToWriteStats", avro::datum::make_map());
  m.add("compacted", avro::datum::make_bool(false));
  m.add("extraMetadata", avro::datum::make_map());
  m.add("operationType", avro::datum::make_string(std::string(kDeletePartitionOperation)));
  return detail::encode_one(metadata_table::schemas::commit_metadata, m);
}

/// The completed replacecommit. InvalidArgument when a partition path or
/// file id is not UTF-8 (a directory name may be any bytes): neither Hudi's
/// JSON nor its Avro strings can carry it, and Hudi would read another name.
[[nodiscard]] inline StatusOr<std::string> delete_partition_completed(TimelineLayout layout,
                                                                      const DeletePartitionCommit& c) {
  // Found by the commit_metadata fuzz target's round trip: a name that is
  // not UTF-8 was written as is, and the layout-1 file was not JSON.
  const auto not_utf8 = [](std::string_view what, std::string_view s) -> Status {
    if (simdjson::validate_utf8(s.data(), s.size())) return Status();
    return absl::InvalidArgumentError(
        fmt::format("delete_partition_completed: {} is not UTF-8, which a replacecommit cannot hold", what));
  };
  for (const auto& [p, ids] : c.partition_to_replace_file_ids) {
    LAKEGC_RETURN_IF_ERROR(not_utf8(fmt::format("partition path '{}'", p), p));
    for (const auto& id : ids) LAKEGC_RETURN_IF_ERROR(not_utf8(fmt::format("file id '{}'", id), id));
  }
  LAKEGC_RETURN_IF_ERROR(not_utf8("the schema", c.schema));
  std::map<std::string, std::string> extra;
  if (!c.schema.empty()) extra.emplace("schema", c.schema);
  if (layout == TimelineLayout::v1) {
    json_writer j;
    j.begin_object();
    j.key("partitionToWriteStats").begin_object().end_object();
    j.key("compacted").value(false);
    j.key("extraMetadata").begin_object();
    for (const auto& [k, v] : extra) j.key(k).value(v);
    j.end_object();
    j.key("operationType").value(kDeletePartitionOperation);
    j.key("partitionToReplaceFileIds").begin_object();
    for (const auto& [p, ids] : c.partition_to_replace_file_ids) j.key(p).strings(ids);
    j.end_object();
    j.end_object();
    return j.str();
  }
  avro::datum m = avro::datum::make_record("org.apache.hudi.avro.model.HoodieReplaceCommitMetadata");
  m.add("partitionToWriteStats", avro::datum::make_map());
  m.add("compacted", avro::datum::make_bool(false));
  m.add("extraMetadata", detail::string_map(extra));
  m.add("operationType", avro::datum::make_string(std::string(kDeletePartitionOperation)));
  m.add("partitionToReplaceFileIds", detail::string_list_map(c.partition_to_replace_file_ids));
  return detail::encode_one(schemas::replace_commit_metadata, m);
}

}  // namespace lakegc::hudi
