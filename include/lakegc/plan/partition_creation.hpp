// File: lakegc/plan/partition_creation.hpp
// -----------------------------------------------------------------------------
// What KEEP_BY_CREATION_TIME reads per partition: the `commitTime` of its
// `.hoodie_partition_metadata`, read from storage before planning so that
// plan_ttl stays a pure function.
//
// Hudi (HoodiePartitionMetadata.readFromFS) reads the text properties file
// first, then the base-file-format forms (`.hoodie_partition_metadata.parquet`
// / `.orc`, written with hoodie.partition.metafile.use.base.format). The
// commitTime is kept as the raw text: Hudi compares strings, and a special
// value such as "0" is not an instant lakegc's InstantTime would parse.
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>

#include "lakegc/core/load_view.hpp"
#include "lakegc/policy/config.hpp"
#include "lakegc/storage/path.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc {

struct PartitionCreationRecord {
  enum class Kind : std::uint8_t {
    text,         ///< `.hoodie_partition_metadata` (properties)
    base_format,  ///< only a `.parquet` / `.orc` form, which lakegc cannot read yet
    absent,       ///< no partition metadata file at all
  };
  Kind kind = Kind::absent;
  /// The commitTime property of a text file, when it has one.
  std::optional<std::string> commit_time;
};

/// Per partition path.
using PartitionCreationTimes = std::map<std::string, PartitionCreationRecord>;

/// Reads the partition metadata of each of `partitions`. Storage errors
/// other than a missing file are returned, naming the file.
template <Storage S>
[[nodiscard]] StatusOr<PartitionCreationTimes> read_partition_creation_times(S& storage,
                                                                             std::span<const std::string> partitions) {
  PartitionCreationTimes out;
  for (const std::string& p : partitions) {
    if (out.contains(p)) continue;
    PartitionCreationRecord rec;
    const std::string text_path = join_path(p, kPartitionMetadataFile);
    auto bytes = storage.read(text_path);
    if (bytes.ok()) {
      LAKEGC_ASSIGN_OR_RETURN(config::Properties props, config::parse_properties(*bytes, text_path));
      rec.kind = PartitionCreationRecord::Kind::text;
      if (auto it = props.find("commitTime"); it != props.end()) rec.commit_time = it->second;
    } else if (!absl::IsNotFound(bytes.status())) {
      return bytes.status();
    } else {
      for (std::string_view ext : kPartitionMetadataExtensions) {
        if (storage.stat(join_path(p, std::string(kPartitionMetadataFile) + std::string(ext))).ok()) {
          rec.kind = PartitionCreationRecord::Kind::base_format;
          break;
        }
      }
    }
    out.emplace(p, std::move(rec));
  }
  return out;
}

}  // namespace lakegc
