// File: lakegc/hudi/metadata_table/clean_update.hpp
// -----------------------------------------------------------------------------
// Keeping the metadata table in step with a clean, as Hudi's
// CleanActionExecutor.runClean does: after the deletes and before the data
// table's clean completes (under the table lock), the metadata table gets a
// deltacommit at the clean's own instant time with the clean's records
// (HoodieBackedTableMetadataWriter.update(HoodieCleanMetadata, instant)):
// clean_records.hpp says which, deltacommit_write.hpp how they are written.
//
// check_clean_update refuses, before anything is deleted: a metadata-table
// partition Hudi writes clean records to that lakegc does not (an
// expression index), an index partition still being built, column
// statistics whose columns lakegc cannot tell (index_columns.hpp), a
// metadata instant at the clean's time that lakegc did not write, any other
// pending metadata instant except a deltacommit of a data write still in
// flight, any metadata instant after the clean, and a `files` partition that
// does not read.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/instant_time.hpp"
#include "lakegc/core/load_view.hpp"
#include "lakegc/core/status.hpp"
#include "lakegc/core/timeline.hpp"
#include "lakegc/exec/completed_clean.hpp"
#include "lakegc/hudi/journal.hpp"
#include "lakegc/hudi/metadata_table/clean_records.hpp"
#include "lakegc/hudi/metadata_table/deltacommit_write.hpp"
#include "lakegc/hudi/metadata_table/files_partition.hpp"
#include "lakegc/hudi/metadata_table/index_columns.hpp"
#include "lakegc/hudi/subfolder_storage.hpp"
#include "lakegc/hudi/table_properties.hpp"
#include "lakegc/hudi/write_schema.hpp"
#include "lakegc/policy/config.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc::hudi::metadata_table {

/// Whether lakegc can complete cleans on the metadata table of the table at
/// `storage` (properties `props`, data timeline `data`, named `base_path`
/// in messages), given the writer configuration `writer_config` (the
/// cleaning settings the user gave): FailedPrecondition naming the reason if
/// not, else what the clean's metadata records need. The cleans it may
/// complete are the pending cleans on `data` and a new one requested at or
/// after `new_clean_floor`. Nothing is written.
template <Storage S>
[[nodiscard]] StatusOr<clean_record_inputs> check_clean_update(S& storage, const TableProperties& props,
                                                               const Timeline& data, std::string_view base_path,
                                                               const InstantTime& new_clean_floor,
                                                               const config::Properties& writer_config = {}) {
  const std::vector<std::string> partitions = metadata_partitions_to_update(props);
  if (std::find(partitions.begin(), partitions.end(), files_partition_name) == partitions.end()) {
    return detail::refused(fmt::format("the metadata table has no '{}' partition among {} (lakegc updates that one)",
                                       files_partition_name, fmt::join(partitions, ", ")));
  }
  clean_record_inputs inputs;
  for (const std::string& p : partitions) {
    if (clean_support_of(p) == update_support::refused) {
      return detail::refused(fmt::format(
          "metadata-table partition '{}' gets records on every clean in Hudi, which lakegc does not write", p));
    }
    if (clean_support_of(p) == update_support::records_written && p != files_partition_name) {
      inputs.partitions.push_back(p);
    }
  }
  LAKEGC_RETURN_IF_ERROR(check_not_being_built(props, inputs.partitions));
  if (inputs.has(column_stats_partition_name)) {
    LAKEGC_ASSIGN_OR_RETURN(std::string schema, table_schema(storage, props, data));
    LAKEGC_ASSIGN_OR_RETURN(inputs.stats_columns, stats_columns_of(storage, props, data, column_stats_partition_name,
                                                                   std::move(schema), writer_config));
  }
  subfolder_storage<S> mdt(storage, std::string(folder));
  const std::string mdt_path = fmt::format("{}/{}", base_path, folder);
  auto cannot_read = [&](const Status& st) {
    return detail::refused(fmt::format("the metadata table cannot be read: {}", message_of(st)));
  };
  auto j = hudi::journal<subfolder_storage<S>>::open(mdt, mdt_path);
  if (!j.ok()) return cannot_read(j.status());
  auto md = j->load();
  if (!md.ok()) return cannot_read(md.status());
  const Timeline& timeline = md->timeline;
  LAKEGC_RETURN_IF_ERROR(check_metadata_instants(timeline, data, new_clean_floor,
                                                 [](const Instant& d) { return d.action == Action::clean; }));
  auto view = load_view(mdt, *md);
  if (!view.ok()) return cannot_read(view.status());
  LAKEGC_RETURN_IF_ERROR(check_file_groups(*view, inputs.partitions));
  // Every pending clean's metadata instant, if any, must be lakegc's own
  // (its `files` log, which every clean with a partition writes, says so).
  auto logs = detail::list_partition_logs(mdt, mdt_path, files_partition_name);
  if (!logs.ok()) return cannot_read(logs.status());
  for (const Instant* c : data.cleans()) {
    if (c->is_completed() || timeline.find(c->requested) == nullptr) continue;
    for (const auto& f : *logs) {
      if (detail::has_block_of(f, c->requested.str()) && !detail::written_by_lakegc(f, c->requested.str())) {
        return detail::refused(
            fmt::format("the metadata table has a deltacommit for pending clean {} that lakegc did "
                        "not write ({}); finish that clean with Hudi",
                        c->requested, f.name));
      }
    }
  }
  auto state = files_partition_state(storage, data, base_path);
  if (!state.ok()) return cannot_read(state.status());
  return inputs;
}

/// Writes the metadata table's deltacommit for clean `t` with metadata `m`
/// in the metadata table of the table at `storage` with properties `props`;
/// `inputs` is what check_clean_update returned, `now_ms` the clock for a
/// layout-2 completion time.
template <Storage S>
[[nodiscard]] StatusOr<metadata_update> write_clean_deltacommit(S& storage, const TableProperties& props,
                                                                std::string_view base_path, const InstantTime& t,
                                                                const lakegc::CompletedClean& m,
                                                                const clean_record_inputs& inputs,
                                                                const std::function<std::int64_t()>& now_ms) {
  const clean_records records = records_for_clean(m, inputs);
  return write_metadata_deltacommit(storage, props, base_path, t, records.partitions, "clean", now_ms);
}

}  // namespace lakegc::hudi::metadata_table
