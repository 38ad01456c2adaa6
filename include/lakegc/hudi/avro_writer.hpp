// File: lakegc/hudi/avro_writer.hpp
// -----------------------------------------------------------------------------
// Writes clean instants (HoodieCleanerPlan for `.clean.requested` /
// `.clean.inflight`, HoodieCleanMetadata for the completed `.clean`) as Avro
// object container files with Hudi's own schemas, so that Hudi can read the
// cleans lakegc performs and keeps its timeline consistent.
//
// The datum is encoded by Avro C (generic value API, `avro_value_write` into
// a memory buffer); the container around it is written here. Avro C's
// `avro_file_writer_*` is not used because (a) it cannot write a datum larger
// than its block buffer (a plan listing many thousands of absolute paths
// easily is), and (b) it seeds the C library's global rand() with time(NULL)
// to make its sync marker, which makes output bytes nondeterministic and
// disturbs any other rand() user. Here the sync marker is a hash of the
// datum, so equal inputs give byte-identical files.
//
// Layout written (Avro 1.x spec, "Object Container Files"): "Obj\x01", the
// header map {avro.schema, avro.codec = "null"}, a 16-byte sync marker, then
// one block holding the single record, followed by the sync marker. This is
// what Hudi's TimelineMetadataUtils writes with DataFileWriter.
#pragma once

#include <avro.h>
#include <fmt/format.h>

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/avro_reader.hpp"
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

inline Status avro_write_error(std::string_view what) {
  return absl::InternalError(lakegc::detail::to_absl(fmt::format("Avro C failed {}: {}", what, avro_strerror())));
}

/// Thin checked wrappers over the Avro C generic value setters. Each names
/// the field it was writing when Avro C fails.
class value_builder {
 public:
  static Status field(avro_value_t& record, const char* name, avro_value_t& out) {
    if (avro_value_get_by_name(&record, name, &out, nullptr) != 0) {
      return avro_write_error(fmt::format("to find field {}", name));
    }
    return Status();
  }
  /// Selects union branch `index` of `u` (the schemas here put null first,
  /// except `version`, which is ["int","null"]).
  static Status branch(avro_value_t& u, int index, avro_value_t& out) {
    if (avro_value_set_branch(&u, index, &out) != 0) return avro_write_error("to select a union branch");
    return Status();
  }
  static Status set_null_branch(avro_value_t& u, int null_index) {
    avro_value_t b;
    LAKEGC_RETURN_IF_ERROR(branch(u, null_index, b));
    if (avro_value_set_null(&b) != 0) return avro_write_error("to write null");
    return Status();
  }
  static Status string(avro_value_t& v, const std::string& s) {
    // The size passed includes the terminating NUL, which std::string keeps.
    if (avro_value_set_string_len(&v, s.c_str(), s.size() + 1) != 0) return avro_write_error("to write a string");
    return Status();
  }
  static Status string_field(avro_value_t& record, const char* name, const std::string& s) {
    avro_value_t f;
    LAKEGC_RETURN_IF_ERROR(field(record, name, f));
    return string(f, s);
  }
  static Status string_array(avro_value_t& arr, const std::vector<std::string>& items) {
    for (const auto& s : items) {
      avro_value_t e;
      if (avro_value_append(&arr, &e, nullptr) != 0) return avro_write_error("to append to an array");
      LAKEGC_RETURN_IF_ERROR(string(e, s));
    }
    return Status();
  }
  static Status map_entry(avro_value_t& map, const std::string& key, avro_value_t& out) {
    if (avro_value_add(&map, key.c_str(), &out, nullptr, nullptr) != 0) return avro_write_error("to add a map entry");
    return Status();
  }
  static Status string_map(avro_value_t& map, const std::map<std::string, std::string>& m) {
    for (const auto& [k, v] : m) {
      avro_value_t e;
      LAKEGC_RETURN_IF_ERROR(map_entry(map, k, e));
      LAKEGC_RETURN_IF_ERROR(string(e, v));
    }
    return Status();
  }
  static Status string_list_map(avro_value_t& map, const std::map<std::string, std::vector<std::string>>& m) {
    for (const auto& [k, v] : m) {
      avro_value_t e;
      LAKEGC_RETURN_IF_ERROR(map_entry(map, k, e));
      LAKEGC_RETURN_IF_ERROR(string_array(e, v));
    }
    return Status();
  }
  /// A ["null", map<string>] field holding `m` (an empty map, not null:
  /// Hudi's own writers never leave these null, and some of its readers
  /// iterate them without a null check).
  static Status nullable_string_map_field(avro_value_t& record, const char* name,
                                          const std::map<std::string, std::string>& m) {
    avro_value_t f, b;
    LAKEGC_RETURN_IF_ERROR(field(record, name, f));
    LAKEGC_RETURN_IF_ERROR(branch(f, 1, b));
    return string_map(b, m);
  }
  /// The ["int","null"] `version` field.
  static Status version_field(avro_value_t& record, int version) {
    avro_value_t f, b;
    LAKEGC_RETURN_IF_ERROR(field(record, "version", f));
    LAKEGC_RETURN_IF_ERROR(branch(f, 0, b));
    if (avro_value_set_int(&b, version) != 0) return avro_write_error("to write version");
    return Status();
  }
};

/// Appends an Avro long (zig-zag varint).
inline void put_long(std::string& out, std::int64_t v) {
  auto n = (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
  while (n >= 0x80) {
    out += static_cast<char>((n & 0x7f) | 0x80);
    n >>= 7;
  }
  out += static_cast<char>(n);
}
inline void put_bytes(std::string& out, std::string_view s) {
  put_long(out, static_cast<std::int64_t>(s.size()));
  out += s;
}

/// 16 bytes derived from the datum (FNV-1a, then splitmix64 finalisers):
/// deterministic, and different for different contents as Avro intends.
inline std::string sync_marker_for(std::string_view datum_bytes) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : datum_bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  auto mix = [](std::uint64_t z) {
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  std::string out;
  std::uint64_t a = mix(h);
  std::uint64_t b = mix(a);
  for (int i = 0; i < 8; ++i) out += static_cast<char>((a >> (8 * i)) & 0xff);
  for (int i = 0; i < 8; ++i) out += static_cast<char>((b >> (8 * i)) & 0xff);
  return out;
}

/// Parses `schema_json`, lets `fill` set the record's fields, encodes the
/// record with Avro C and wraps it in a one-block object container.
template <class Fill>
StatusOr<std::string> encode_single_record(std::string_view schema_json, Fill&& fill) {
  auto schema = avro::detail::cached_schema(schema_json);
  if (!schema.ok()) {
    return absl::InternalError(
        lakegc::detail::to_absl(fmt::format("built-in Avro schema does not parse: {}", message_of(schema.status()))));
  }
  avro::detail::generic_value value;
  LAKEGC_RETURN_IF_ERROR(value.init(**schema));
  LAKEGC_RETURN_IF_ERROR(fill(*value.get()));

  std::size_t size = 0;
  if (avro_value_sizeof(value.get(), &size) != 0) return avro_write_error("to size the record");
  std::string datum_bytes(size, '\0');
  {
    avro_writer_t w = avro_writer_memory(datum_bytes.data(), static_cast<std::int64_t>(datum_bytes.size()));
    if (w == nullptr) return absl::InternalError("Avro C cannot allocate a memory writer");
    const int rc = avro_value_write(w, value.get());
    const std::int64_t written = avro_writer_tell(w);
    avro_writer_free(w);
    if (rc != 0) return avro_write_error("to encode the record");
    if (written != static_cast<std::int64_t>(size)) {
      return absl::InternalError(
          lakegc::detail::to_absl(fmt::format("Avro C wrote {} bytes for a record it sized at {}", written, size)));
    }
  }

  const std::string sync = sync_marker_for(datum_bytes);
  std::string out;
  out.reserve(datum_bytes.size() + schema_json.size() + 64);
  out += avro::detail::ocf_magic;
  put_long(out, 2);  // header map: one block of two entries
  put_bytes(out, "avro.schema");
  put_bytes(out, schema_json);
  put_bytes(out, "avro.codec");
  put_bytes(out, "null");
  put_long(out, 0);  // end of header map
  out += sync;
  put_long(out, 1);  // one object in the block
  put_long(out, static_cast<std::int64_t>(datum_bytes.size()));
  out += datum_bytes;
  out += sync;
  return out;
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
inline StatusOr<std::string> encode_cleaner_plan(const CleanerPlan& plan) {
  if (plan.version != 1 && plan.version != 2) {
    return absl::InvalidArgumentError(
        lakegc::detail::to_absl(fmt::format("encode_cleaner_plan: version must be 1 or 2, not {}", plan.version)));
  }
  if (plan.earliest_instant_to_retain && plan.earliest_instant_to_retain_action.empty()) {
    return absl::InvalidArgumentError(
        "encode_cleaner_plan: earliest_instant_to_retain is set but earliest_instant_to_retain_action is empty; "
        "Hudi's CleanActionExecutor needs the action of that instant (e.g. \"commit\")");
  }
  using vb = detail::value_builder;
  return detail::encode_single_record(schemas::cleaner_plan, [&](avro_value_t& rec) -> Status {
    avro_value_t f, b, e;
    LAKEGC_RETURN_IF_ERROR(vb::field(rec, "earliestInstantToRetain", f));
    if (plan.earliest_instant_to_retain) {
      LAKEGC_RETURN_IF_ERROR(vb::branch(f, 1, b));
      LAKEGC_RETURN_IF_ERROR(vb::string_field(b, "timestamp", *plan.earliest_instant_to_retain));
      LAKEGC_RETURN_IF_ERROR(vb::string_field(b, "action", plan.earliest_instant_to_retain_action));
      LAKEGC_RETURN_IF_ERROR(vb::string_field(b, "state",
                                              plan.earliest_instant_to_retain_state.empty()
                                                  ? std::string("COMPLETED")
                                                  : plan.earliest_instant_to_retain_state));
    } else {
      LAKEGC_RETURN_IF_ERROR(vb::set_null_branch(f, 0));
    }
    LAKEGC_RETURN_IF_ERROR(vb::string_field(rec, "lastCompletedCommitTimestamp", plan.last_completed_commit_timestamp));
    LAKEGC_RETURN_IF_ERROR(vb::string_field(rec, "policy", plan.policy));
    LAKEGC_RETURN_IF_ERROR(vb::version_field(rec, plan.version));

    LAKEGC_RETURN_IF_ERROR(vb::field(rec, "filesToBeDeletedPerPartition", f));
    LAKEGC_RETURN_IF_ERROR(vb::branch(f, 1, b));
    LAKEGC_RETURN_IF_ERROR(vb::field(rec, "filePathsToBeDeletedPerPartition", e));
    if (plan.version == 1) {
      LAKEGC_RETURN_IF_ERROR(vb::string_list_map(b, plan.file_paths_to_delete_per_partition));
      LAKEGC_RETURN_IF_ERROR(vb::set_null_branch(e, 0));
    } else {
      // filesToBeDeletedPerPartition stays an empty map (deprecated).
      avro_value_t paths;
      LAKEGC_RETURN_IF_ERROR(vb::branch(e, 1, paths));
      for (const auto& [partition, files] : plan.file_paths_to_delete_per_partition) {
        avro_value_t list;
        LAKEGC_RETURN_IF_ERROR(vb::map_entry(paths, partition, list));
        for (const auto& path : files) {
          avro_value_t info, fp, fpb, boot, bootb;
          if (avro_value_append(&list, &info, nullptr) != 0) return detail::avro_write_error("to append a file info");
          LAKEGC_RETURN_IF_ERROR(vb::field(info, "filePath", fp));
          LAKEGC_RETURN_IF_ERROR(vb::branch(fp, 1, fpb));
          LAKEGC_RETURN_IF_ERROR(vb::string(fpb, path));
          LAKEGC_RETURN_IF_ERROR(vb::field(info, "isBootstrapBaseFile", boot));
          LAKEGC_RETURN_IF_ERROR(vb::branch(boot, 1, bootb));
          if (avro_value_set_boolean(&bootb, 0) != 0) return detail::avro_write_error("to write isBootstrapBaseFile");
        }
      }
    }
    LAKEGC_RETURN_IF_ERROR(vb::field(rec, "partitionsToBeDeleted", f));
    LAKEGC_RETURN_IF_ERROR(vb::branch(f, 1, b));
    LAKEGC_RETURN_IF_ERROR(vb::string_array(b, plan.partitions_to_be_deleted));
    return vb::nullable_string_map_field(rec, "extraMetadata", plan.extra_metadata);
  });
}

/// Encodes clean metadata as Hudi writes the completed `.clean`.
/// bootstrapPartitionMetadata is written as an empty map.
///
/// InvalidArgument when total_files_deleted does not fit Avro's int, or
/// `version` is not 1 or 2.
inline StatusOr<std::string> encode_clean_metadata(const CleanMetadata& meta) {
  if (meta.total_files_deleted < 0 || meta.total_files_deleted > std::numeric_limits<std::int32_t>::max()) {
    return absl::InvalidArgumentError(lakegc::detail::to_absl(fmt::format(
        "encode_clean_metadata: total_files_deleted {} does not fit the schema's int", meta.total_files_deleted)));
  }
  if (meta.version != 1 && meta.version != 2) {
    return absl::InvalidArgumentError(
        lakegc::detail::to_absl(fmt::format("encode_clean_metadata: version must be 1 or 2, not {}", meta.version)));
  }
  using vb = detail::value_builder;
  return detail::encode_single_record(schemas::clean_metadata, [&](avro_value_t& rec) -> Status {
    avro_value_t f, b;
    LAKEGC_RETURN_IF_ERROR(vb::string_field(rec, "startCleanTime", meta.start_clean_time));
    LAKEGC_RETURN_IF_ERROR(vb::field(rec, "timeTakenInMillis", f));
    if (avro_value_set_long(&f, meta.time_taken_ms) != 0) return detail::avro_write_error("to write timeTakenInMillis");
    LAKEGC_RETURN_IF_ERROR(vb::field(rec, "totalFilesDeleted", f));
    if (avro_value_set_int(&f, static_cast<std::int32_t>(meta.total_files_deleted)) != 0) {
      return detail::avro_write_error("to write totalFilesDeleted");
    }
    LAKEGC_RETURN_IF_ERROR(vb::string_field(rec, "earliestCommitToRetain", meta.earliest_commit_to_retain));
    LAKEGC_RETURN_IF_ERROR(vb::string_field(rec, "lastCompletedCommitTimestamp", meta.last_completed_commit_timestamp));
    LAKEGC_RETURN_IF_ERROR(vb::field(rec, "partitionMetadata", f));
    for (const auto& [partition, pm] : meta.partition_metadata) {
      avro_value_t p, d;
      LAKEGC_RETURN_IF_ERROR(vb::map_entry(f, partition, p));
      LAKEGC_RETURN_IF_ERROR(vb::string_field(p, "partitionPath", pm.partition_path));
      LAKEGC_RETURN_IF_ERROR(vb::string_field(p, "policy", pm.policy));
      LAKEGC_RETURN_IF_ERROR(vb::field(p, "deletePathPatterns", d));
      LAKEGC_RETURN_IF_ERROR(vb::string_array(d, pm.delete_path_patterns));
      LAKEGC_RETURN_IF_ERROR(vb::field(p, "successDeleteFiles", d));
      LAKEGC_RETURN_IF_ERROR(vb::string_array(d, pm.success_delete_files));
      LAKEGC_RETURN_IF_ERROR(vb::field(p, "failedDeleteFiles", d));
      LAKEGC_RETURN_IF_ERROR(vb::string_array(d, pm.failed_delete_files));
      avro_value_t del, delb;
      LAKEGC_RETURN_IF_ERROR(vb::field(p, "isPartitionDeleted", del));
      LAKEGC_RETURN_IF_ERROR(vb::branch(del, 1, delb));
      if (avro_value_set_boolean(&delb, pm.is_partition_deleted ? 1 : 0) != 0) {
        return detail::avro_write_error("to write isPartitionDeleted");
      }
    }
    LAKEGC_RETURN_IF_ERROR(vb::version_field(rec, meta.version));
    LAKEGC_RETURN_IF_ERROR(vb::field(rec, "bootstrapPartitionMetadata", f));
    LAKEGC_RETURN_IF_ERROR(vb::branch(f, 1, b));  // empty map
    return vb::nullable_string_map_field(rec, "extraMetadata", meta.extra_metadata);
  });
}

}  // namespace lakegc::hudi
