// File: lakegc/hudi/metadata_table/clean_update.hpp
// -----------------------------------------------------------------------------
// Keeping the metadata table in step with a clean, as Hudi's
// CleanActionExecutor.runClean does: after the deletes and before the data
// table's clean completes (under the table lock), the metadata table gets a
// deltacommit at the clean's own instant time with the clean's records
// (HoodieBackedTableMetadataWriter.update(HoodieCleanMetadata, instant)):
// clean_records.hpp says which, deltacommit_write.hpp how they are written.
//
// A pending clean whose deltacommit the metadata table already holds (its
// first attempt got that far) is finished as commitInternal finishes it:
// that deltacommit is rolled back in the metadata table at a new instant and
// written again from scratch. lakegc's own deltacommit is finished instead
// (the records are the same).
//
// check_clean_update refuses, before anything is deleted: a metadata-table
// partition Hudi writes clean records to that lakegc does not (an
// expression index), an index partition still being built, column
// statistics whose columns lakegc cannot tell (index_columns.hpp), in a
// version-6 metadata table a pending clean's deltacommit Hudi wrote that did
// not complete (the rollback's command blocks go after the logs a completed
// one names) or a metadata instant after a pending clean, any other pending
// metadata instant except a deltacommit of a data
// write still in flight or a rollback of a pending clean's deltacommit, any
// metadata instant after the new clean, and a `files` partition that does
// not read.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/instant_time.hpp"
#include "lakegc/core/load_view.hpp"
#include "lakegc/core/status.hpp"
#include "lakegc/core/timeline.hpp"
#include "lakegc/exec/clean_service.hpp"
#include "lakegc/exec/completed_clean.hpp"
#include "lakegc/hudi/journal.hpp"
#include "lakegc/hudi/metadata_table/clean_records.hpp"
#include "lakegc/hudi/metadata_table/deltacommit_write.hpp"
#include "lakegc/hudi/metadata_table/files_partition.hpp"
#include "lakegc/hudi/metadata_table/index_columns.hpp"
#include "lakegc/hudi/metadata_table/rollback_update.hpp"
#include "lakegc/hudi/rollback_records.hpp"
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
  const int mdt_version = j->properties().version;
  auto pending_clean = [&](const InstantTime& t) {
    const Instant* d = data.find(t);
    return d != nullptr && d->action == Action::clean && d->is_pending();
  };
  // A metadata rollback of a pending clean's deltacommit left pending (a run
  // that crashed inside it): finished from its plan before that clean's
  // deltacommit is written again.
  std::set<InstantTime> resumed;
  for (const Instant* r : timeline.pending()) {
    if (r->action != Action::rollback) continue;
    const std::string rel = fmt::format("{}/{}.rollback.requested", j->properties().timeline_dir, r->requested);
    auto bytes = mdt.read(rel);
    if (!bytes.ok()) return cannot_read(annotate(bytes.status(), j->display(rel)));
    auto plan = decode_rollback_plan(*bytes, j->display(rel));
    if (!plan.ok()) return cannot_read(plan.status());
    if (!plan->instant_to_rollback) continue;
    auto target = InstantTime::parse(plan->instant_to_rollback->commit_time);
    if (!target.ok() || !pending_clean(*target)) continue;
    resumed.insert(r->requested);
    inputs.roll_back_first.insert(*target);
  }
  LAKEGC_RETURN_IF_ERROR(check_metadata_instants(
      timeline, data, new_clean_floor, [](const Instant& d) { return d.action == Action::clean; }, resumed));
  auto view = load_view(mdt, *md);
  if (!view.ok()) return cannot_read(view.status());
  LAKEGC_RETURN_IF_ERROR(check_file_groups(*view, inputs.partitions));
  // A pending clean's metadata deltacommit that lakegc wrote is finished
  // (deltacommit_write.hpp); one Hudi wrote (its `files` log, which every
  // clean with a partition writes, says whose it is) is rolled back in the
  // metadata table and written again, as Hudi's commitInternal does.
  auto logs = detail::list_partition_logs(mdt, mdt_path, files_partition_name);
  if (!logs.ok()) return cannot_read(logs.status());
  for (const Instant* c : data.cleans()) {
    if (c->is_completed()) continue;
    if (mdt_version < 8) {
      // Version 6 appends the clean's records to the newest log, behind
      // the blocks of every later instant (write_metadata_deltacommit).
      for (const Instant& i : timeline.instants()) {
        if (c->requested < i.requested && i.action != Action::rollback) {
          return detail::refused(fmt::format(
              "the metadata table (table version {}) has {} {} after pending clean {}, whose records lakegc "
              "would append behind it; finish that clean with Hudi",
              mdt_version, to_string(i.action), i.requested, c->requested));
        }
      }
    }
    // No validateRollback here (Hudi runs it for a data-table rollback
    // only): a deltacommit the metadata table compacted since is rolled back
    // too, its records staying in the compacted base file, and the new log
    // of the same records lands in the latest slice. One whose log files the
    // metadata table's cleaner removed since is left completed: its records
    // are all in the base file, the state Hudi's rewrite reaches as well.
    const Instant* dc = timeline.find(c->requested);
    if (dc == nullptr) continue;
    for (const auto& f : *logs) {
      if (!detail::has_block_of(f, c->requested.str()) || detail::written_by_lakegc(f, c->requested.str())) continue;
      // Version 6 keeps a rolled-back try's log behind its rollback block.
      if (mdt_version < 8 && detail::rolled_back_later(*logs, f, c->requested.str())) continue;
      if (mdt_version < 8 && !dc->is_completed() && !inputs.roll_back_first.contains(c->requested)) {
        // Hudi's version-6 listing rollback names the logs to put rollback
        // blocks after from the deltacommit's completed metadata only.
        return detail::refused(
            fmt::format("the metadata table (table version {}) has a {} deltacommit for pending clean {} that "
                        "lakegc did not write ({}): a version-6 rollback of it needs the logs a completed one "
                        "names; finish that clean with Hudi",
                        mdt_version, to_string(dc->state), c->requested, f.name));
      }
      inputs.roll_back_first.insert(c->requested);
      break;
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
  std::optional<InstantTime> rolled_back_by;
  if (inputs.roll_back_first.contains(t)) {
    // commitInternal: the metadata table already holds `t` (the clean's
    // first attempt got that far), so its write client rolls `t` back at a
    // new instant from the clock (in the data table's timezone, which the
    // metadata table's writer shares) and writes the deltacommit from scratch.
    subfolder_storage<S> mdt(storage, std::string(folder));
    LAKEGC_ASSIGN_OR_RETURN(auto j,
                            (hudi::journal<subfolder_storage<S>>::open(mdt, fmt::format("{}/{}", base_path, folder))));
    LAKEGC_ASSIGN_OR_RETURN(TableMetadata md, j.load());
    md.timezone = props.timezone;
    LAKEGC_ASSIGN_OR_RETURN(
        std::optional<RolledBack> done,
        roll_back_metadata_deltacommit(storage, std::string(base_path), t, allocate_instant(md, now_ms()), now_ms));
    if (done) rolled_back_by = done->rollback_instant;
  }
  const clean_records records = records_for_clean(m, inputs);
  LAKEGC_ASSIGN_OR_RETURN(metadata_update out, write_metadata_deltacommit(storage, props, base_path, t,
                                                                          records.partitions, "clean", now_ms));
  out.rolled_back_by = rolled_back_by;
  return out;
}

}  // namespace lakegc::hudi::metadata_table
