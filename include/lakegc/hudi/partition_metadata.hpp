// File: lakegc/hudi/partition_metadata.hpp
// -----------------------------------------------------------------------------
// `<partition>/.hoodie_partition_metadata`: the text properties file Hudi
// writes when it creates a partition (commitTime, partitionDepth).
#pragma once

#include <charconv>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

#include <fmt/format.h>

#include "lakegc/core/file_name.hpp"
#include "lakegc/core/instant_time.hpp"
#include "lakegc/core/load_view.hpp"
#include "lakegc/hudi/table_location.hpp"
#include "lakegc/policy/config.hpp"
#include "lakegc/storage/path.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc::hudi {

/// `.hoodie_partition_metadata` of one partition.
struct PartitionMetadata {
  std::optional<InstantTime> commit_time;  ///< commitTime: the instant that created it
  std::optional<int> depth;                ///< partitionDepth: directory levels below the root
};

/// Reads `<partition>/.hoodie_partition_metadata` (properties:
/// commitTime, partitionDepth). Errors name the file.
template <ReadableStorage S>
[[nodiscard]] StatusOr<PartitionMetadata> read_partition_metadata(S& storage, const TableLocation& table,
                                                                  std::string_view partition) {
  const std::string rel = join_path(partition, kPartitionMetadataFile);
  const std::string where = table.display(rel);
  LAKEGC_ASSIGN_OR_RETURN(std::string bytes, read_table_file(storage, table, rel));
  LAKEGC_ASSIGN_OR_RETURN(config::Properties props, config::parse_properties(bytes, where));
  PartitionMetadata out;
  if (auto it = props.find("commitTime"); it != props.end()) {
    LAKEGC_ASSIGN_OR_RETURN(out.commit_time, parse_instant_field(it->second, where, "commitTime"));
  }
  if (auto it = props.find("partitionDepth"); it != props.end()) {
    int depth = 0;
    const std::string& v = it->second;
    const auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), depth);
    if (ec != std::errc() || ptr != v.data() + v.size() || depth < 0) {
      return absl::InvalidArgumentError(fmt::format("{}: partitionDepth={}: expected a whole number >= 0", where, v));
    }
    out.depth = depth;
  }
  return out;
}

}  // namespace lakegc::hudi
