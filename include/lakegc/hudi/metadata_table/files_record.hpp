// File: lakegc/hudi/metadata_table/files_record.hpp
// -----------------------------------------------------------------------------
// Records of the metadata table's `files` partition (HoodieMetadataRecord
// with `type` 1 or 2, HoodieMetadataPayload in Hudi) and how two versions of
// one key merge.
//
//   key "__all_partitions__", type 1: filesystemMetadata lists the table's
//       partitions (size 0), a deleted partition with isDeleted = true;
//   key <partition>, type 2: filesystemMetadata maps each file name of the
//       partition to {size, isDeleted}; the table's root partition is ".".
//
// Merging (HoodieMetadataPayload.preCombine and
// HoodieTableMetadataUtil.combineFileSystemMetadata): a deleted key (a
// delete-block record) replaces what came before, and a later record
// replaces a deletion. Otherwise the newer record's entries are merged into
// the older's: a new file is added (a deletion of a file the older record
// does not list is kept as a tombstone, for the merge with the base file
// that comes later); a deletion of a listed file removes it; a file listed
// by both keeps the larger size, since a log file only grows.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/avro/datum.hpp"

namespace lakegc::hudi::metadata_table {

/// MetadataPartitionType record types of the files partition.
inline constexpr std::int32_t partition_list_type = 1;
inline constexpr std::int32_t file_list_type = 2;
/// Where the metadata table lives in its data table.
inline constexpr std::string_view folder = ".hoodie/metadata";
/// The `files` partition's folder in the metadata table.
inline constexpr std::string_view files_partition_name = "files";
/// HoodieTableMetadata.RECORDKEY_PARTITION_LIST.
inline constexpr std::string_view all_partitions_key = "__all_partitions__";
/// HoodieTableMetadata.NON_PARTITIONED_NAME: the key of the root partition.
inline constexpr std::string_view non_partitioned_key = ".";

struct file_entry {
  std::uint64_t size = 0;
  bool deleted = false;

  friend bool operator==(const file_entry&, const file_entry&) = default;
};

/// One version of one key of the files partition.
struct files_payload {
  /// The key was deleted (a DELETE_BLOCK record).
  bool deleted_record = false;
  std::int32_t type = 0;
  std::map<std::string, file_entry> entries;

  friend bool operator==(const files_payload&, const files_payload&) = default;
};

/// Decodes one HoodieMetadataRecord of the files partition. `where` names
/// the record in errors.
[[nodiscard]] inline StatusOr<files_payload> decode_files_record(const avro::datum& record, std::string_view where) {
  auto bad = [&](std::string_view why) { return absl::DataLossError(fmt::format("{}: {}", where, why)); };
  if (!record.is_record()) return bad(fmt::format("expected a HoodieMetadataRecord, found {}", record.kind_name()));
  files_payload out;
  const auto type = record.field("type").as_int();
  if (!type) return bad("no int \"type\"");
  if (*type != partition_list_type && *type != file_list_type) {
    return bad(fmt::format("record type {} does not belong in the files partition", *type));
  }
  out.type = static_cast<std::int32_t>(*type);
  const avro::datum& fs = record.field("filesystemMetadata");
  if (fs.is_null()) return out;
  if (!fs.is_map()) return bad(fmt::format("filesystemMetadata is a {}, not a map", fs.kind_name()));
  Status st;
  fs.for_each_entry([&](std::string_view name, const avro::datum& info) {
    if (!st.ok()) return;
    const auto size = info.field("size").as_int();
    const auto deleted = info.field("isDeleted").as_bool();
    if (!size || *size < 0 || !deleted) {
      st = bad(fmt::format("filesystemMetadata[\"{}\"] is not {{size >= 0, isDeleted}}", name));
      return;
    }
    out.entries[std::string(name)] = {static_cast<std::uint64_t>(*size), *deleted};
  });
  LAKEGC_RETURN_IF_ERROR(st);
  return out;
}

/// `newer` merged over `older`, as Hudi's preCombine does.
[[nodiscard]] inline StatusOr<files_payload> combine(files_payload older, const files_payload& newer,
                                                     std::string_view key) {
  if (newer.deleted_record || older.deleted_record) return newer;
  if (older.type != newer.type) {
    return absl::DataLossError(
        fmt::format("key '{}': a record of type {} follows one of type {}", key, newer.type, older.type));
  }
  for (const auto& [name, entry] : newer.entries) {
    const auto it = older.entries.find(name);
    if (it == older.entries.end()) {
      older.entries.emplace(name, entry);
    } else if (entry.deleted) {
      // Deleted twice: keep the tombstone, as Hudi does.
      if (it->second.deleted) continue;
      older.entries.erase(it);
    } else {
      it->second = {std::max(it->second.size, entry.size), false};
    }
  }
  return older;
}

}  // namespace lakegc::hudi::metadata_table
