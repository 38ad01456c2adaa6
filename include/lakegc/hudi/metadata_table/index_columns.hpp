// File: lakegc/hudi/metadata_table/index_columns.hpp
// -----------------------------------------------------------------------------
// The columns of a table whose statistics the metadata table keeps
// (column_stats per file, partition_stats per partition): Hudi's rule
// (columns_to_index.hpp) applied to a table on storage, with its index
// definitions (index_definitions.hpp), hoodie.properties and the writer
// configuration the user gave.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/status.hpp"
#include "lakegc/core/timeline.hpp"
#include "lakegc/hudi/metadata_table/columns_to_index.hpp"
#include "lakegc/hudi/metadata_table/index_definitions.hpp"
#include "lakegc/hudi/metadata_table/log_records.hpp"
#include "lakegc/hudi/table_properties.hpp"
#include "lakegc/policy/config.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc::hudi::metadata_table {

/// The columns of `partition` (column_stats or partition_stats) that an
/// action deletes the statistics of on this table, by Hudi's rule
/// (columns_to_index.hpp), with the table schema `schema` (a clean: the
/// table's, table_schema(); a commit: its own writer schema), checked
/// against the columns the table's column_stats index definition lists.
/// FailedPrecondition naming the reason when lakegc cannot tell.
template <Storage S>
[[nodiscard]] StatusOr<std::vector<std::string>> stats_columns_of(S& storage, const TableProperties& props,
                                                                  const Timeline& data, std::string_view partition,
                                                                  std::string schema,
                                                                  const config::Properties& writer_config) {
  auto refused = [](std::string why) { return absl::FailedPreconditionError(std::move(why)); };
  LAKEGC_ASSIGN_OR_RETURN(index_definitions defs, read_index_definitions(storage, props));
  column_stats_table table;
  table.version = index_version_of(defs, partition, props.version);
  table.schema = std::move(schema);
  const bool stats = partition == column_stats_partition_name;
  // partition_stats of a commit without a writer schema: Hudi writes none.
  if (table.schema.empty() && !stats) return std::vector<std::string>{};
  if (table.schema.empty() && data.completed_commits().size() > 0) {
    return refused(
        "the column_stats partition's columns derive from the table schema, and no completed write names one "
        "(Hudi would read it from a data file's footer, which lakegc does not read)");
  }
  if (auto it = props.raw.find("hoodie.populate.meta.fields"); it != props.raw.end()) {
    table.populate_meta_fields = it->second != "false";
  }
  // TableSchemaResolver appends dropped partition columns; a commit's own
  // writer schema (partition_stats) is taken as it is.
  if (auto it = props.raw.find("hoodie.datasource.write.drop.partition.columns");
      stats && it != props.raw.end() && it->second == "true") {
    table.appended_partition_columns = props.partition_fields;
  }
  LAKEGC_ASSIGN_OR_RETURN(column_stats_settings settings, column_stats_settings_of(writer_config));
  auto columns = columns_to_index(table, settings);
  if (!columns.ok()) return refused(fmt::format("{}: {}", partition, message_of(columns.status())));
  // Both indexes take their columns from the same writer settings, which the
  // column_stats definition records.
  if (auto it = defs.find(column_stats_partition_name); it != defs.end() && !it->second.source_fields.empty()) {
    const std::set<std::string> defined(it->second.source_fields.begin(), it->second.source_fields.end());
    const std::set<std::string> computed(columns->begin(), columns->end());
    if (defined != computed) {
      return refused(fmt::format(
          "{}: the table's column_stats index definition lists the columns [{}], the writer settings lakegc was "
          "given index [{}]; pass the writer's hoodie.metadata.index.column.stats.* settings with --conf",
          partition, fmt::join(defined, ", "), fmt::join(computed, ", ")));
    }
  }
  return *columns;
}

}  // namespace lakegc::hudi::metadata_table
