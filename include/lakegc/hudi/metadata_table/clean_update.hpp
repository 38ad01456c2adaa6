// File: lakegc/hudi/metadata_table/clean_update.hpp
// -----------------------------------------------------------------------------
// Keeping the metadata table in step with a clean, as Hudi's
// CleanActionExecutor.runClean does: after the deletes and before the data
// table's clean completes (under the table lock), the metadata table gets a
// deltacommit at the clean's own instant time with the clean's records
// (HoodieBackedTableMetadataWriter.update(HoodieCleanMetadata, instant) ->
// commitInternal):
//
//   <mdt>/.hoodie[/timeline]/<t>.deltacommit.requested    0 bytes
//   <mdt>/.hoodie[/timeline]/<t>.deltacommit.inflight     workload profile
//   <mdt>/<partition>/<log file>, per file group with records (clean_records.hpp)
//   <mdt>/.hoodie/<t>.deltacommit  |  <mdt>/.hoodie/timeline/<t>_<c>.deltacommit
//
// then the data table's `<t>.clean` completes. Until it does, Hudi's readers
// skip the metadata deltacommit (a block of an instant pending on the data
// timeline is not valid, HoodieTableMetadataUtil.getValidInstantTimestamps).
//
// The partitions: `files` always; `column_stats` and `bloom_filters` when
// the table has them (their records are deletions of the deleted files'
// keys). A record goes to the file group |hashCode(key)| % n of the n file
// groups of its partition sorted by file id (index_keys.hpp), as Hudi's
// tagRecordsWithLocation sends it.
//
// The log files (HoodieWriteHandle.createLogWriter, HoodieLogFormat.WriterBuilder):
//  * table version 8 and later: `.<file id>_<t>.log.1_1-0-1`, named by the
//    deltacommit, version 1;
//  * table version 6: named by the base instant of the file group's latest
//    slice, `.<file id>_<base>.log.<N+1>_<token of log N>` where N is the
//    newest log version of that base instant on storage (the writer opens
//    the latest log file, finds it exists and rolls over keeping its token),
//    or `.log.1_1-0-1` when there is none.
// `1-0-1` is HoodieLogFormat.UNKNOWN_WRITE_TOKEN, Hudi's token for a writer
// outside a Spark task.
//
// Recovery (a run that ended between the metadata deltacommit and the data
// table's clean): Hudi, re-running the clean, rolls the metadata instant
// back and writes it again (commitInternal). lakegc finishes it instead: the
// rerun re-executes the same persisted plan, so the records are the same;
// a log file of this instant with exactly the bytes lakegc writes for it is
// kept (the `files` one also carries the `lakegc.writer` file-info entry,
// clean_records.hpp, by which a pending clean's deltacommit is known as
// lakegc's before its records are), the missing files are written, and a
// completed deltacommit is left as it is. A metadata instant at the clean's time that lakegc did not
// write, any other pending metadata instant except a deltacommit of a data
// write still in flight, any metadata instant after the clean, and a
// `files` partition that does not read are refused before anything is
// deleted (check_clean_update), as are metadata partitions being built, an
// expression index, and column statistics whose columns lakegc cannot tell
// (columns_to_index.hpp).
//
// Not written: markers for the log file (Hudi writes
// `.hoodie/.temp/<t>/files/<log>.marker.APPEND`; without them Hudi's
// marker-based rollback of a half-written lakegc deltacommit removes nothing,
// and the kept block holds the same records Hudi writes again), and the
// metadata table's own table services (its compaction, clean and archival
// run with the next Hudi write).
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/file_name.hpp"
#include "lakegc/core/instant_time.hpp"
#include "lakegc/core/load_view.hpp"
#include "lakegc/core/status.hpp"
#include "lakegc/core/timeline.hpp"
#include "lakegc/hudi/journal.hpp"
#include "lakegc/hudi/log/read_blocks.hpp"
#include "lakegc/hudi/metadata_table/clean_records.hpp"
#include "lakegc/hudi/metadata_table/columns_to_index.hpp"
#include "lakegc/hudi/metadata_table/deltacommit_metadata.hpp"
#include "lakegc/hudi/metadata_table/files_partition.hpp"
#include "lakegc/hudi/metadata_table/index_definitions.hpp"
#include "lakegc/hudi/metadata_table/index_keys.hpp"
#include "lakegc/hudi/subfolder_storage.hpp"
#include "lakegc/hudi/table_properties.hpp"
#include "lakegc/hudi/write_schema.hpp"
#include "lakegc/plan/clean_plan.hpp"
#include "lakegc/policy/config.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc::hudi::metadata_table {

inline constexpr std::string_view files_file_group = "files-0000-0";
/// HoodieLogFormat.UNKNOWN_WRITE_TOKEN.
inline constexpr std::string_view unknown_write_token = "1-0-1";

/// The metadata-table partitions of a table: completed and being built
/// (hoodie.table.metadata.partitions.inflight: Hudi's writers update those
/// too, HoodieBackedTableMetadataWriter.getMetadataPartitionsToUpdate).
inline std::vector<std::string> metadata_partitions_to_update(const TableProperties& p) {
  std::vector<std::string> out = p.metadata_partitions;
  if (auto it = p.raw.find("hoodie.table.metadata.partitions.inflight"); it != p.raw.end()) {
    for (auto& s : hudi::detail::split_list(it->second)) {
      if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(std::move(s));
    }
  }
  return out;
}

namespace detail {

/// A log file of a metadata-table partition and its blocks.
struct partition_log {
  std::string name;
  LogFileName parsed;
  std::string bytes;
  std::vector<log::log_block> blocks;
};

/// The log files of `partition` of the metadata table (of file `file_id`
/// only, when given), read.
template <Storage S>
[[nodiscard]] StatusOr<std::vector<partition_log>> list_partition_logs(S& mdt, std::string_view mdt_path,
                                                                       std::string_view partition,
                                                                       std::string_view file_id = {}) {
  std::vector<partition_log> out;
  LAKEGC_RETURN_IF_ERROR(annotate(mdt.list(partition,
                                           [&](const FileEntry& e) {
                                             const auto slash = e.path.rfind('/');
                                             const std::string_view name = e.path.substr(slash + 1);
                                             if (name.empty() || name.front() != '.') return;
                                             auto parsed = parse_log_file_name(name);
                                             if (!parsed.ok()) return;
                                             if (!file_id.empty() && parsed->file_id != file_id) return;
                                             out.push_back({std::string(name), std::move(*parsed), {}, {}});
                                           }),
                                  fmt::format("{}/{}", mdt_path, partition)));
  for (partition_log& f : out) {
    const std::string rel = fmt::format("{}/{}", partition, f.name);
    auto read = mdt.read(rel);
    if (!read.ok()) return annotate(read.status(), fmt::format("{}/{}", mdt_path, rel));
    f.bytes = std::move(*read);
    LAKEGC_ASSIGN_OR_RETURN(f.blocks, log::read_blocks(f.bytes, fmt::format("{}/{}", mdt_path, rel)));
  }
  return out;
}

/// Whether `f` holds a block of `instant`; InvalidArgument-free answer.
inline bool has_block_of(const partition_log& f, std::string_view instant) {
  return std::any_of(f.blocks.begin(), f.blocks.end(),
                     [&](const log::log_block& b) { return !b.is_corrupt() && b.instant_time() == instant; });
}

/// A `files` log file lakegc wrote for `instant`: every block is of that
/// instant, an HFile data block carrying lakegc's file-info mark or a
/// delete block, and at least one is marked.
inline bool written_by_lakegc(const partition_log& f, std::string_view instant) {
  bool marked = false;
  for (const log::log_block& b : f.blocks) {
    if (b.instant_time() != instant) return false;
    if (b.type == log::block_type::delete_keys) continue;
    if (b.type != log::block_type::hfile_data) return false;
    auto contents = hfile::read_hfile(b.content, f.name);
    if (!contents.ok() || !contents->file_info.contains(lakegc_writer_key)) return false;
    marked = true;
  }
  return marked;
}

[[nodiscard]] inline Status refused(std::string why) { return absl::FailedPreconditionError(std::move(why)); }

/// A file group of a metadata-table partition and its latest slice.
struct latest_slice {
  std::string file_id;
  InstantTime base_instant;
  std::string base_file;  ///< "" when the slice has none
};

/// The file groups of metadata-table partition `partition` in `view`,
/// sorted by file id (getPartitionLatestFileSlices), each with its latest slice.
inline std::vector<latest_slice> latest_slices_of(const TableView& view, std::string_view partition) {
  std::vector<latest_slice> out;
  for (const Partition& p : view.partitions()) {
    if (p.path != partition) continue;
    for (const FileGroup& g : view.groups_of(p)) {
      if (view.slices_of(g).empty()) continue;
      const FileSlice& s = view.slices_of(g).front();
      out.push_back({std::string(view.file_id(g)), s.base_instant,
                     s.base_file != kNoFile ? std::string(view.file_name(s.base_file)) : std::string()});
    }
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.file_id < b.file_id; });
  return out;
}

/// The columns of column_stats a clean deletes on this table, by Hudi's rule,
/// checked against the columns the table's index definition lists.
template <Storage S>
[[nodiscard]] StatusOr<std::vector<std::string>> stats_columns_of(S& storage, const TableProperties& props,
                                                                  const Timeline& data,
                                                                  const config::Properties& writer_config) {
  LAKEGC_ASSIGN_OR_RETURN(index_definitions defs, read_index_definitions(storage, props));
  column_stats_table table;
  table.version = index_version_of(defs, column_stats_partition_name, props.version);
  LAKEGC_ASSIGN_OR_RETURN(table.schema, table_schema(storage, props, data));
  if (table.schema.empty() && data.completed_commits().size() > 0) {
    return refused(
        "the column_stats partition's columns derive from the table schema, and no completed write names one "
        "(Hudi would read it from a data file's footer, which lakegc does not read)");
  }
  if (auto it = props.raw.find("hoodie.populate.meta.fields"); it != props.raw.end()) {
    table.populate_meta_fields = it->second != "false";
  }
  if (auto it = props.raw.find("hoodie.datasource.write.drop.partition.columns");
      it != props.raw.end() && it->second == "true") {
    table.appended_partition_columns = props.partition_fields;
  }
  LAKEGC_ASSIGN_OR_RETURN(column_stats_settings settings, column_stats_settings_of(writer_config));
  auto columns = columns_to_index(table, settings);
  if (!columns.ok()) return refused(fmt::format("column_stats: {}", message_of(columns.status())));
  if (auto it = defs.find(column_stats_partition_name); it != defs.end() && !it->second.source_fields.empty()) {
    const std::set<std::string> defined(it->second.source_fields.begin(), it->second.source_fields.end());
    const std::set<std::string> computed(columns->begin(), columns->end());
    if (defined != computed) {
      return refused(fmt::format(
          "column_stats: the table's index definition lists the columns [{}], the writer settings lakegc was "
          "given index [{}]; pass the writer's hoodie.metadata.index.column.stats.* settings with --conf",
          fmt::join(defined, ", "), fmt::join(computed, ", ")));
    }
  }
  return *columns;
}

}  // namespace detail

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
  const auto& completed = props.metadata_partitions;
  for (const std::string& p : partitions) {
    if (clean_support_of(p) == clean_support::refused) {
      return detail::refused(fmt::format(
          "metadata-table partition '{}' gets records on every clean in Hudi, which lakegc does not write", p));
    }
    if (clean_support_of(p) != clean_support::records_written || p == files_partition_name) continue;
    if (std::find(completed.begin(), completed.end(), p) == completed.end()) {
      return detail::refused(fmt::format(
          "metadata-table partition '{}' is being built (hoodie.table.metadata.partitions.inflight); let Hudi "
          "finish it first",
          p));
    }
    inputs.partitions.push_back(p);
  }
  if (inputs.has(column_stats_partition_name)) {
    LAKEGC_ASSIGN_OR_RETURN(inputs.stats_columns, detail::stats_columns_of(storage, props, data, writer_config));
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
  for (const Instant& i : timeline.instants()) {
    const Instant* d = data.find(i.requested);
    const bool pending_clean = d != nullptr && d->action == Action::clean && d->is_pending();
    if (!pending_clean && !(i.requested < new_clean_floor)) {
      return detail::refused(
          fmt::format("metadata-table instant {} ({} {}) is not before the clean lakegc would "
                      "schedule ({} or later)",
                      i.requested, to_string(i.action), to_string(i.state), new_clean_floor));
    }
    if (i.is_completed()) continue;
    const bool write_in_flight = d != nullptr && d->is_pending() && is_write_action(d->action);
    if (i.action != Action::deltacommit || !(pending_clean || write_in_flight)) {
      return detail::refused(
          fmt::format("the metadata table has a pending {} {} ({}) lakegc does not know how to "
                      "continue; run a Hudi writer first",
                      to_string(i.action), i.requested, to_string(i.state)));
    }
  }
  auto view = load_view(mdt, *md);
  if (!view.ok()) return cannot_read(view.status());
  for (const std::string& p : inputs.partitions) {
    if (detail::latest_slices_of(*view, p).empty()) {
      return detail::refused(fmt::format("metadata-table partition '{}' has no file group to write to", p));
    }
  }
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

/// One log file write_clean_deltacommit wrote (or found written by a
/// crashed run), relative to the metadata table.
struct written_log {
  std::string path;
  std::uint64_t size = 0;
};

/// What write_clean_deltacommit did.
struct clean_update {
  std::vector<written_log> logs;  ///< per file group with records
  /// The metadata-table partitions that got records.
  std::vector<std::string> partitions;
  bool already_completed = false;  ///< a rerun found the deltacommit completed
};

/// Writes the metadata table's deltacommit for clean `t` with metadata `m`
/// (see the top of this file) in the metadata table of the table at
/// `storage` with properties `props`; `inputs` is what check_clean_update
/// returned, `now_ms` the clock for a layout-2 completion time.
template <Storage S>
[[nodiscard]] StatusOr<clean_update> write_clean_deltacommit(S& storage, const TableProperties& props,
                                                             std::string_view base_path, const InstantTime& t,
                                                             const lakegc::CompletedClean& m,
                                                             const clean_record_inputs& inputs,
                                                             const std::function<std::int64_t()>& now_ms) {
  subfolder_storage<S> mdt(storage, std::string(folder));
  const std::string mdt_path = fmt::format("{}/{}", base_path, folder);
  const std::string where = fmt::format("metadata table deltacommit {}", t);
  LAKEGC_ASSIGN_OR_RETURN(auto j, (hudi::journal<subfolder_storage<S>>::open(mdt, mdt_path)));
  auto loaded = j.load();
  if (!loaded.ok()) return annotate(loaded.status(), where);
  TableMetadata md = std::move(*loaded);
  const TableProperties& mp = j.properties();
  for (const Instant& i : md.timeline.instants()) {
    if (t < i.requested) {
      return absl::FailedPreconditionError(
          fmt::format("{}: the metadata table has a later instant, {} {}", where, to_string(i.action), i.requested));
    }
  }
  const Instant* existing = md.timeline.find(t);
  if (existing != nullptr && existing->action != Action::deltacommit) {
    return absl::FailedPreconditionError(
        fmt::format("{}: the metadata table has a {} at that time", where, to_string(existing->action)));
  }
  auto viewed = load_view(mdt, md);
  if (!viewed.ok()) return annotate(viewed.status(), where);
  const TableView& view = *viewed;

  const clean_records records = records_for_clean(m, inputs);
  clean_update out;
  struct planned_log {
    log_write w;
    std::string bytes;
    bool already_written = false;
  };
  std::vector<planned_log> planned;
  for (const partition_records& pr : records.partitions) {
    const std::vector<detail::latest_slice> groups = detail::latest_slices_of(view, pr.partition);
    if (groups.empty()) {
      return absl::FailedPreconditionError(fmt::format("{}: {}/{} has no file group", where, mdt_path, pr.partition));
    }
    std::vector<std::vector<std::pair<std::string, avro::datum>>> upserts(groups.size());
    std::vector<std::vector<std::string>> deletes(groups.size());
    for (const auto& u : pr.upserts) upserts[file_group_index_of(u.first, groups.size())].push_back(u);
    for (const auto& k : pr.deleted_keys) deletes[file_group_index_of(k, groups.size())].push_back(k);
    LAKEGC_ASSIGN_OR_RETURN(std::vector<detail::partition_log> logs,
                            detail::list_partition_logs(mdt, mdt_path, pr.partition));
    out.partitions.push_back(pr.partition);
    for (std::size_t g = 0; g < groups.size(); ++g) {
      const detail::latest_slice& slice = groups[g];
      // `files` always gets its write stat (Hudi's workload profile names
      // its file group even for a clean without records).
      if (upserts[g].empty() && deletes[g].empty() && pr.partition != files_partition_name) continue;
      LAKEGC_ASSIGN_OR_RETURN(std::string bytes, clean_log_bytes(pr.partition, upserts[g], deletes[g], t.str()));
      planned_log pl;
      log_write& w = pl.w;
      w.partition = pr.partition;
      w.file_id = slice.file_id;
      w.upserts = upserts[g].size();
      w.deletes = deletes[g].size();
      w.slice_base_instant = slice.base_instant.str();
      const detail::partition_log* mine = nullptr;
      for (const auto& f : logs) {
        if (f.parsed.file_id != slice.file_id || !detail::has_block_of(f, t.str())) continue;
        if (f.bytes != bytes || mine != nullptr) {
          return absl::FailedPreconditionError(fmt::format(
              "{}: {}/{}/{} holds blocks of this instant that are not this clean's records as lakegc writes them",
              where, mdt_path, pr.partition, f.name));
        }
        mine = &f;
      }
      std::optional<LogFileName> name;
      if (props.version >= 8) {
        w.prev_commit = t.str();
        name = LogFileName{slice.file_id, t, "log", "1", std::string(unknown_write_token)};
      } else {
        w.prev_commit = slice.base_instant.str();
        w.base_file = slice.base_file;
        std::vector<const detail::partition_log*> of_slice;
        for (const auto& f : logs) {
          if (f.parsed.file_id == slice.file_id && f.parsed.instant == slice.base_instant && &f != mine) {
            of_slice.push_back(&f);
          }
        }
        std::sort(of_slice.begin(), of_slice.end(),
                  [](const auto* a, const auto* b) { return a->parsed.version_number() > b->parsed.version_number(); });
        for (const auto* f : of_slice) w.log_files.push_back(f->name);
        if (of_slice.empty()) {
          name = LogFileName{slice.file_id, slice.base_instant, "log", "1", std::string(unknown_write_token)};
        } else {
          const LogFileName& newest = of_slice.front()->parsed;
          name = LogFileName{slice.file_id, slice.base_instant, "log", std::to_string(newest.version_number() + 1),
                             newest.write_token};
        }
      }
      if (mine != nullptr) {
        name = mine->parsed;
        pl.already_written = true;
      }
      if (bytes.empty()) name.reset();
      if (name) {
        w.file_name = format_file_name(*name);
        w.log_version = static_cast<std::int32_t>(name->version_number());
        w.size = bytes.size();
        if (props.version < 8) {
          w.log_files.push_back(w.file_name);
        } else {
          w.log_files = {w.file_name};
        }
        out.logs.push_back({fmt::format("{}/{}", pr.partition, w.file_name), w.size});
      }
      pl.bytes = std::move(bytes);
      planned.push_back(std::move(pl));
    }
  }
  if (existing != nullptr && existing->is_completed()) {
    // A rerun after the metadata deltacommit completed: nothing to add.
    out.already_completed = true;
    return out;
  }
  std::vector<log_write> writes;
  writes.reserve(planned.size());
  for (const planned_log& pl : planned) writes.push_back(pl.w);

  // requested -> inflight -> log files -> completed, as Hudi's
  // startCommitForMetadataTable, upsertPreppedRecords and commit do.
  auto put = [&](const std::string& rel, std::string_view content) -> Status {
    const Status st = mdt.write_if_absent(rel, content);
    if (absl::IsAlreadyExists(st)) return Status();
    return annotate(st, fmt::format("{}/{}", mdt_path, rel));
  };
  const bool layout1 = mp.layout == TimelineLayout::v1;
  const std::string dir = mp.timeline_dir;
  LAKEGC_RETURN_IF_ERROR(put(fmt::format("{}/{}.deltacommit.requested", dir, t), ""));
  std::string inflight;
  if (layout1) {
    inflight = deltacommit_json(writes, /*completed=*/false);
  } else {
    LAKEGC_ASSIGN_OR_RETURN(inflight, deltacommit_avro(writes, /*completed=*/false));
  }
  LAKEGC_RETURN_IF_ERROR(put(fmt::format("{}/{}.deltacommit.inflight", dir, t), inflight));
  for (const planned_log& pl : planned) {
    if (pl.w.file_name.empty() || pl.already_written) continue;
    LAKEGC_RETURN_IF_ERROR(put(fmt::format("{}/{}", pl.w.partition, pl.w.file_name), pl.bytes));
  }
  std::string completed;
  std::string rel;
  if (layout1) {
    completed = deltacommit_json(writes, /*completed=*/true);
    rel = fmt::format("{}/{}.deltacommit", dir, t);
  } else {
    LAKEGC_ASSIGN_OR_RETURN(completed, deltacommit_avro(writes, /*completed=*/true));
    InstantTime done = InstantTime::from_epoch_ms(now_ms(), props.timezone);
    if (!(t < done)) {
      auto ms = t.to_epoch_ms(props.timezone);
      done = InstantTime::from_epoch_ms((ms.ok() ? *ms : now_ms()) + 1, props.timezone);
    }
    rel = fmt::format("{}/{}_{}.deltacommit", dir, t, done);
  }
  LAKEGC_RETURN_IF_ERROR(put(rel, completed));
  return out;
}

}  // namespace lakegc::hudi::metadata_table
