// File: lakegc/hudi/metadata_table/index_definitions.hpp
// -----------------------------------------------------------------------------
// The index definitions of a Hudi 1.x table: the JSON file that
// `hoodie.table.index.defs.path` names (relative to the table root, usually
// `.hoodie/.index_defs/index.json`), HoodieIndexMetadata:
//
//   {"indexDefinitions": {"column_stats": {"indexName": "column_stats",
//      "indexType": "column_stats", "sourceFields": ["_hoodie_commit_time", ...],
//      "indexOptions": {}, "version": "V2"}, ...}}
//
// What lakegc takes from it: an index's version (V1 or V2), which decides the
// column types column_stats indexes (HoodieTableMetadataUtil.
// existingIndexVersionOrDefault), and its source fields, against which the
// columns lakegc computes are checked (columns_to_index.hpp). Without the
// key or the file, there are no definitions (older tables).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <simdjson.h>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/table_properties.hpp"
#include "lakegc/storage/path.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc::hudi::metadata_table {

/// HoodieIndexVersion.
enum class index_version : int { v1 = 1, v2 = 2 };

struct index_definition {
  std::string name;
  std::string type;
  std::vector<std::string> source_fields;
  std::optional<index_version> version;  ///< absent in some table-version-8 files
};

/// Index name -> definition.
using index_definitions = std::map<std::string, index_definition, std::less<>>;

/// Parses HoodieIndexMetadata JSON; `where` names the file in errors.
[[nodiscard]] inline StatusOr<index_definitions> parse_index_definitions(std::string_view json,
                                                                         std::string_view where) {
  auto bad = [&](std::string_view what) { return absl::InvalidArgumentError(fmt::format("{}: {}", where, what)); };
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(json.data(), json.size()).get(root) != simdjson::SUCCESS) return bad("not JSON");
  simdjson::dom::object defs;
  if (root["indexDefinitions"].get(defs) != simdjson::SUCCESS) return bad("no 'indexDefinitions' object");
  index_definitions out;
  for (auto [key, value] : defs) {
    index_definition d;
    d.name = std::string(key);
    std::string_view s;
    if (value["indexType"].get(s) == simdjson::SUCCESS) d.type = std::string(s);
    simdjson::dom::array fields;
    if (value["sourceFields"].get(fields) == simdjson::SUCCESS) {
      for (simdjson::dom::element f : fields) {
        if (f.get(s) != simdjson::SUCCESS) return bad(fmt::format("index '{}': a source field is not a string", key));
        d.source_fields.emplace_back(s);
      }
    }
    simdjson::dom::element v;
    if (value["version"].get(v) == simdjson::SUCCESS && !v.is_null()) {
      if (v.get(s) != simdjson::SUCCESS || (s != "V1" && s != "V2")) {
        return bad(fmt::format("index '{}': version is not V1 or V2", key));
      }
      d.version = s == "V1" ? index_version::v1 : index_version::v2;
    }
    out.emplace(d.name, std::move(d));
  }
  return out;
}

/// The table's index definitions: none when hoodie.properties names no
/// definitions file or the file is absent (HoodieTableMetaClient.getIndexMetadata).
template <Storage S>
[[nodiscard]] StatusOr<index_definitions> read_index_definitions(S& storage, const TableProperties& props) {
  const auto it = props.raw.find("hoodie.table.index.defs.path");
  if (it == props.raw.end() || it->second.empty()) return index_definitions{};
  const std::string& rel = it->second;
  LAKEGC_RETURN_IF_ERROR(lakegc::detail::check_relative_path(rel, "hoodie.table.index.defs.path"));
  auto bytes = storage.read(rel);
  if (!bytes.ok()) {
    if (absl::IsNotFound(bytes.status())) return index_definitions{};
    return annotate(bytes.status(), rel);
  }
  return parse_index_definitions(*bytes, rel);
}

/// HoodieTableMetadataUtil.existingIndexVersionOrDefault for column_stats
/// (whose definition, or else partition_stats', gives the version) and for
/// bloom_filters (always V1 by default). Defaults by table version:
/// column_stats and partition_stats V2 from table version 9, V1 before.
inline index_version index_version_of(const index_definitions& defs, std::string_view partition, int table_version) {
  auto defined = [&](std::string_view name) -> std::optional<index_version> {
    const auto it = defs.find(name);
    return it == defs.end() ? std::nullopt : it->second.version;
  };
  if (partition == "column_stats" || partition == "partition_stats") {
    const std::string_view other = partition == "column_stats" ? "partition_stats" : "column_stats";
    if (auto v = defined(partition)) return *v;
    if (auto v = defined(other)) return *v;
    return table_version >= 9 ? index_version::v2 : index_version::v1;
  }
  if (auto v = defined(partition)) return *v;
  return index_version::v1;
}

}  // namespace lakegc::hudi::metadata_table
