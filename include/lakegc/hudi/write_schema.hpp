// File: lakegc/hudi/write_schema.hpp
// -----------------------------------------------------------------------------
// The table's schema as Hudi's TableSchemaResolver finds it: the
// extraMetadata["schema"] of the newest completed write (commit, deltacommit,
// replacecommit, clustering; by requested time) that has a non-empty one,
// else hoodie.table.create.schema of hoodie.properties. (Hudi's last resort,
// the schema of a data file's footer, is not read: lakegc reads no Parquet.)
//
// Two users: the TTL replacecommit carries the write schema as Hudi's does,
// and the metadata table's column_stats columns derive from the schema.
#pragma once

#include <string>

#include <fmt/format.h>
#include <simdjson.h>

#include "lakegc/core/status.hpp"
#include "lakegc/core/timeline.hpp"
#include "lakegc/hudi/avro/read.hpp"
#include "lakegc/hudi/metadata_codec.hpp"
#include "lakegc/hudi/table_properties.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc::hudi {

/// extraMetadata["schema"] of the newest completed write that has one; ""
/// when none has. A completed write whose file is gone is passed over (an
/// archival may have moved it); one that cannot be read is an error naming
/// the file.
template <Storage S>
[[nodiscard]] StatusOr<std::string> latest_write_schema(S& storage, const TableProperties& p,
                                                        const Timeline& timeline) {
  const auto instants = timeline.instants();
  for (auto it = instants.rbegin(); it != instants.rend(); ++it) {
    const Instant& i = *it;
    if (!i.is_completed() || !is_commit_action(i.action)) continue;
    const std::string rel =
        p.layout == TimelineLayout::v2 && i.completed
            ? fmt::format("{}/{}_{}.{}", p.timeline_dir, i.requested, *i.completed, to_string(i.action))
            : fmt::format("{}/{}.{}", p.timeline_dir, i.requested, to_string(i.action));
    auto bytes = storage.read(rel);
    if (!bytes.ok()) {
      if (absl::IsNotFound(bytes.status())) continue;
      return annotate(bytes.status(), rel);
    }
    std::string schema;
    switch (detect_encoding(*bytes)) {
      case encoding::avro: {
        LAKEGC_ASSIGN_OR_RETURN(avro::datum d, avro::read_first_record(*bytes, rel));
        d.field("extraMetadata").for_each_entry([&](std::string_view k, const avro::datum& v) {
          if (k == "schema" && v.as_string()) schema = std::string(*v.as_string());
        });
        break;
      }
      case encoding::json: {
        simdjson::dom::parser parser;
        simdjson::dom::element root;
        if (parser.parse(bytes->data(), bytes->size()).get(root) != simdjson::SUCCESS) {
          return absl::InvalidArgumentError(fmt::format("{}: not JSON", rel));
        }
        std::string_view value;
        if (root["extraMetadata"]["schema"].get(value) == simdjson::SUCCESS) schema = std::string(value);
        break;
      }
      default:
        if (bytes->empty()) continue;  // Hudi reads an empty commit file as empty metadata
        return absl::InvalidArgumentError(fmt::format("{}: neither JSON nor Avro", rel));
    }
    if (!schema.empty()) return schema;
  }
  return std::string();
}

/// TableSchemaResolver's schema without its data-file fallback: the latest
/// write schema, else hoodie.table.create.schema, else "".
template <Storage S>
[[nodiscard]] StatusOr<std::string> table_schema(S& storage, const TableProperties& p, const Timeline& timeline) {
  LAKEGC_ASSIGN_OR_RETURN(std::string schema, latest_write_schema(storage, p, timeline));
  if (!schema.empty()) return schema;
  if (auto it = p.raw.find("hoodie.table.create.schema"); it != p.raw.end()) return it->second;
  return std::string();
}

}  // namespace lakegc::hudi
