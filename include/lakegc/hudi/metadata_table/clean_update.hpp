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
//   <mdt>/files/<log file>                                 clean_records.hpp
//   <mdt>/.hoodie/<t>.deltacommit  |  <mdt>/.hoodie/timeline/<t>_<c>.deltacommit
//
// then the data table's `<t>.clean` completes. Until it does, Hudi's readers
// skip the metadata deltacommit (a block of an instant pending on the data
// timeline is not valid, HoodieTableMetadataUtil.getValidInstantTimestamps).
//
// The log file (HoodieWriteHandle.createLogWriter, HoodieLogFormat.WriterBuilder):
//  * table version 8 and later: `.files-0000-0_<t>.log.1_1-0-1`, named by the
//    deltacommit, version 1;
//  * table version 6: named by the base instant of the file group's latest
//    slice, `.files-0000-0_<base>.log.<N+1>_<token of log N>` where N is the
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
// a log file of this instant that lakegc wrote (its HFile block has the
// `lakegc.writer` file-info entry, clean_records.hpp) is kept,
// the missing instant files are written, and a completed deltacommit is
// left as it is. A metadata instant at the clean's time that lakegc did not
// write, any other pending metadata instant except a deltacommit of a data
// write still in flight, any metadata instant after the clean, and a
// `files` partition that does not read are refused before anything is
// deleted (check_clean_update).
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
#include "lakegc/hudi/metadata_table/deltacommit_metadata.hpp"
#include "lakegc/hudi/metadata_table/files_partition.hpp"
#include "lakegc/hudi/subfolder_storage.hpp"
#include "lakegc/hudi/table_properties.hpp"
#include "lakegc/plan/clean_plan.hpp"
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

/// A log file of the `files` file group and its blocks.
struct files_log {
  std::string name;
  LogFileName parsed;
  std::string bytes;
  std::vector<log::log_block> blocks;
};

template <Storage S>
[[nodiscard]] StatusOr<std::vector<files_log>> list_files_logs(S& mdt, std::string_view mdt_path) {
  std::vector<files_log> out;
  Status bad;
  LAKEGC_RETURN_IF_ERROR(annotate(mdt.list(files_partition_name,
                                           [&](const FileEntry& e) {
                                             const auto slash = e.path.rfind('/');
                                             const std::string_view name = e.path.substr(slash + 1);
                                             if (name.empty() || name.front() != '.') return;
                                             auto parsed = parse_log_file_name(name);
                                             if (!parsed.ok() || parsed->file_id != files_file_group) return;
                                             out.push_back({std::string(name), std::move(*parsed), {}, {}});
                                           }),
                                  fmt::format("{}/{}", mdt_path, files_partition_name)));
  for (files_log& f : out) {
    const std::string rel = fmt::format("{}/{}", files_partition_name, f.name);
    auto read = mdt.read(rel);
    if (!read.ok()) return annotate(read.status(), fmt::format("{}/{}", mdt_path, rel));
    f.bytes = std::move(*read);
    LAKEGC_ASSIGN_OR_RETURN(f.blocks, log::read_blocks(f.bytes, fmt::format("{}/{}", mdt_path, rel)));
  }
  return out;
}

/// Whether `f` holds a block of `instant`; InvalidArgument-free answer.
inline bool has_block_of(const files_log& f, std::string_view instant) {
  return std::any_of(f.blocks.begin(), f.blocks.end(),
                     [&](const log::log_block& b) { return !b.is_corrupt() && b.instant_time() == instant; });
}

/// A log file lakegc wrote for `instant`: every block is of that instant,
/// an HFile data block carrying lakegc's file-info mark or a delete block,
/// and at least one is marked.
inline bool written_by_lakegc(const files_log& f, std::string_view instant) {
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

}  // namespace detail

/// Whether lakegc can complete cleans on the metadata table of the table at
/// `storage` (properties `props`, data timeline `data`, named `base_path`
/// in messages): FailedPrecondition naming the reason if not. The cleans it
/// may complete are the pending cleans on `data` and a new one requested
/// at or after `new_clean_floor`. Nothing is written.
template <Storage S>
[[nodiscard]] Status check_clean_update(S& storage, const TableProperties& props, const Timeline& data,
                                        std::string_view base_path, const InstantTime& new_clean_floor) {
  const std::vector<std::string> partitions = metadata_partitions_to_update(props);
  if (std::find(partitions.begin(), partitions.end(), files_partition_name) == partitions.end()) {
    return detail::refused(fmt::format("the metadata table has no '{}' partition among {} (lakegc updates that one)",
                                       files_partition_name, fmt::join(partitions, ", ")));
  }
  for (const std::string& p : partitions) {
    if (clean_support_of(p) == clean_support::refused) {
      return detail::refused(fmt::format(
          "metadata-table partition '{}' gets records on every clean in Hudi, which lakegc does not write", p));
    }
  }
  subfolder_storage<S> mdt(storage, std::string(folder));
  const std::string mdt_path = fmt::format("{}/{}", base_path, folder);
  auto cannot_read = [&](const Status& st) {
    return detail::refused(fmt::format("the metadata table cannot be read: {}", message_of(st)));
  };
  auto j = hudi::journal<subfolder_storage<S>>::open(mdt, mdt_path);
  if (!j.ok()) return cannot_read(j.status());
  auto timeline = j->load_timeline();
  if (!timeline.ok()) return cannot_read(timeline.status());
  for (const Instant& i : timeline->instants()) {
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
  // Every pending clean's metadata instant, if any, must be lakegc's own.
  auto logs = detail::list_files_logs(mdt, mdt_path);
  if (!logs.ok()) return cannot_read(logs.status());
  for (const Instant* c : data.cleans()) {
    if (c->is_completed() || timeline->find(c->requested) == nullptr) continue;
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
  return Status();
}

/// What write_clean_deltacommit did.
struct clean_update {
  std::string log_file;  ///< relative to the metadata table; "" if none
  std::uint64_t log_size = 0;
  bool already_completed = false;  ///< a rerun found the deltacommit completed
};

/// Writes the metadata table's deltacommit for clean `t` with metadata `m`
/// (see the top of this file) in the metadata table of the table at
/// `storage` with properties `props`; `now_ms` is the clock for a layout-2
/// completion time. Call it after check_clean_update said yes.
template <Storage S>
[[nodiscard]] StatusOr<clean_update> write_clean_deltacommit(S& storage, const TableProperties& props,
                                                             std::string_view base_path, const InstantTime& t,
                                                             const lakegc::CompletedClean& m,
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

  const clean_records records = records_for_clean(m);
  LAKEGC_ASSIGN_OR_RETURN(std::string bytes, clean_log_bytes(records, t.str()));

  LAKEGC_ASSIGN_OR_RETURN(std::vector<detail::files_log> logs, detail::list_files_logs(mdt, mdt_path));
  const detail::files_log* mine = nullptr;
  for (const auto& f : logs) {
    if (!detail::has_block_of(f, t.str())) continue;
    if (!detail::written_by_lakegc(f, t.str()) || mine != nullptr) {
      return absl::FailedPreconditionError(
          fmt::format("{}: {}/{}/{} holds blocks of this instant that lakegc did not write", where, mdt_path,
                      files_partition_name, f.name));
    }
    mine = &f;
  }
  clean_update out;
  if (existing != nullptr && existing->is_completed()) {
    // A rerun after the metadata deltacommit completed: nothing to add.
    out.already_completed = true;
    if (mine != nullptr) {
      out.log_file = fmt::format("{}/{}", files_partition_name, mine->name);
      out.log_size = mine->bytes.size();
    }
    return out;
  }

  files_log_write w;
  w.file_id = std::string(files_file_group);
  w.upserts = records.upserts.size();
  w.deletes = records.deleted_keys.size();
  std::optional<LogFileName> name;
  if (props.version >= 8) {
    w.prev_commit = t.str();
    name = LogFileName{std::string(files_file_group), t, "log", "1", std::string(unknown_write_token)};
  } else {
    // The group's latest slice (a pending metadata compaction was refused).
    auto viewed = load_view(mdt, md);
    if (!viewed.ok()) return annotate(viewed.status(), where);
    const TableView& view = *viewed;
    const FileSlice* latest = nullptr;
    const Partition* files = nullptr;
    for (const Partition& p : view.partitions()) {
      if (p.path != files_partition_name) continue;
      files = &p;
      for (const FileGroup& g : view.groups_of(p)) {
        if (view.file_id(g) == files_file_group && !view.slices_of(g).empty()) latest = &view.slices_of(g).front();
      }
    }
    if (latest == nullptr) {
      return absl::FailedPreconditionError(
          fmt::format("{}: {}/{} has no file group {}", where, mdt_path, files_partition_name, files_file_group));
    }
    w.prev_commit = latest->base_instant.str();
    if (latest->base_file != kNoFile) w.base_file = std::string(view.file_name(latest->base_file));
    (void)files;
    std::vector<const detail::files_log*> of_slice;
    for (const auto& f : logs) {
      if (f.parsed.instant == latest->base_instant && &f != mine) of_slice.push_back(&f);
    }
    std::sort(of_slice.begin(), of_slice.end(),
              [](const auto* a, const auto* b) { return a->parsed.version_number() > b->parsed.version_number(); });
    for (const auto* f : of_slice) w.log_files.push_back(f->name);
    if (!bytes.empty()) {
      if (of_slice.empty()) {
        name = LogFileName{std::string(files_file_group), latest->base_instant, "log", "1",
                           std::string(unknown_write_token)};
      } else {
        const LogFileName& newest = of_slice.front()->parsed;
        name = LogFileName{std::string(files_file_group), latest->base_instant, "log",
                           std::to_string(newest.version_number() + 1), newest.write_token};
      }
    }
  }
  if (mine != nullptr) {
    if (mine->bytes != bytes) {
      return absl::FailedPreconditionError(fmt::format("{}: {}/{}/{} holds other records than this clean's", where,
                                                       mdt_path, files_partition_name, mine->name));
    }
    name = mine->parsed;
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
  }

  // requested -> inflight -> log file -> completed, as Hudi's
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
    inflight = deltacommit_json(w, /*completed=*/false);
  } else {
    LAKEGC_ASSIGN_OR_RETURN(inflight, deltacommit_avro(w, /*completed=*/false));
  }
  LAKEGC_RETURN_IF_ERROR(put(fmt::format("{}/{}.deltacommit.inflight", dir, t), inflight));
  if (name && mine == nullptr) {
    LAKEGC_RETURN_IF_ERROR(put(fmt::format("{}/{}", files_partition_name, w.file_name), bytes));
  }
  std::string completed;
  std::string rel;
  if (layout1) {
    completed = deltacommit_json(w, /*completed=*/true);
    rel = fmt::format("{}/{}.deltacommit", dir, t);
  } else {
    LAKEGC_ASSIGN_OR_RETURN(completed, deltacommit_avro(w, /*completed=*/true));
    InstantTime done = InstantTime::from_epoch_ms(now_ms(), props.timezone);
    if (!(t < done)) {
      auto ms = t.to_epoch_ms(props.timezone);
      done = InstantTime::from_epoch_ms((ms.ok() ? *ms : now_ms()) + 1, props.timezone);
    }
    rel = fmt::format("{}/{}_{}.deltacommit", dir, t, done);
  }
  LAKEGC_RETURN_IF_ERROR(put(rel, completed));
  if (name) {
    out.log_file = fmt::format("{}/{}", files_partition_name, w.file_name);
    out.log_size = w.size;
  }
  return out;
}

}  // namespace lakegc::hudi::metadata_table
