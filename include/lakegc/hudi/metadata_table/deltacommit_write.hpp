// File: lakegc/hudi/metadata_table/deltacommit_write.hpp
// -----------------------------------------------------------------------------
// Writing one deltacommit into the metadata table, as Hudi 1.2.0's metadata
// writer does for an action on the data table (a clean, a DELETE_PARTITION
// replacecommit): before the data-table instant completes (under the table
// lock), the metadata table gets a deltacommit at that instant's own time
// (HoodieBackedTableMetadataWriter.update -> commitInternal):
//
//   <mdt>/.hoodie[/timeline]/<t>.deltacommit.requested    0 bytes
//   <mdt>/.hoodie[/timeline]/<t>.deltacommit.inflight     workload profile
//   <mdt>/<partition>/<log file>, per file group with records (log_records.hpp)
//   <mdt>/.hoodie/<t>.deltacommit  |  <mdt>/.hoodie/timeline/<t>_<c>.deltacommit
//
// then the data table's instant completes. Until it does, Hudi's readers
// skip the metadata deltacommit (a block of an instant pending on the data
// timeline is not valid, HoodieTableMetadataUtil.getValidInstantTimestamps).
//
// A record goes to the file group |hashCode(key)| % n of the n file groups
// of its partition sorted by file id (index_keys.hpp), as Hudi's
// tagRecordsWithLocation sends it. The log files
// (HoodieWriteHandle.createLogWriter, HoodieLogFormat.WriterBuilder):
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
// instant): Hudi, re-running the action, rolls the metadata instant back and
// writes it again (commitInternal). lakegc finishes it instead: the rerun
// writes the same records, so a log file of this instant with exactly the
// bytes lakegc writes for it is kept, the missing files are written, and a
// completed deltacommit is left as it is.
//
// Not written: markers for the log files (Hudi writes
// `.hoodie/.temp/<t>/<partition>/<log>.marker.APPEND`; without them Hudi's
// marker-based rollback of a half-written lakegc deltacommit removes
// nothing, and the kept blocks hold the same records Hudi writes again), and
// the metadata table's own table services (its compaction, clean and
// archival run with the next Hudi write).
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <span>
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
#include "lakegc/hudi/metadata_table/deltacommit_metadata.hpp"
#include "lakegc/hudi/metadata_table/files_record.hpp"
#include "lakegc/hudi/rollback_log_block.hpp"
#include "lakegc/hudi/metadata_table/index_keys.hpp"
#include "lakegc/hudi/metadata_table/log_records.hpp"
#include "lakegc/hudi/subfolder_storage.hpp"
#include "lakegc/hudi/table_properties.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc::hudi::metadata_table {

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

/// Whether the blocks of `instant` in `f` are rolled back: a rollback
/// command block targeting it follows them, later in `f` or in a later log
/// of the same slice among `logs` (table version 6, where a metadata
/// deltacommit rolled back and written again leaves its old blocks behind a
/// rollback block; the log scan reads only what follows that block).
inline bool rolled_back_later(std::span<const partition_log> logs, const partition_log& f, std::string_view instant) {
  auto targets = [&](const log::log_block& b) {
    return b.type == log::block_type::command && b.get(log::header_key::target_instant_time) == instant;
  };
  std::size_t last_of_instant = 0;
  for (std::size_t k = 0; k < f.blocks.size(); ++k) {
    if (f.blocks[k].instant_time() == instant && f.blocks[k].type != log::block_type::command) last_of_instant = k;
  }
  for (std::size_t k = last_of_instant + 1; k < f.blocks.size(); ++k) {
    if (targets(f.blocks[k])) return true;
  }
  for (const partition_log& g : logs) {
    if (g.parsed.file_id != f.parsed.file_id || g.parsed.instant != f.parsed.instant ||
        g.parsed.version_number() <= f.parsed.version_number()) {
      continue;
    }
    if (std::any_of(g.blocks.begin(), g.blocks.end(), targets)) return true;
  }
  return false;
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

}  // namespace detail

/// Whether the metadata table's timeline `timeline` lets lakegc write a
/// deltacommit at or after `floor` for an action on data timeline `data`:
/// every metadata instant is before `floor`, except one at the time of a
/// pending data instant lakegc is finishing (`finishing`); a pending one is
/// a deltacommit of such an instant or of a data write still in flight, or
/// a rollback among `resumed_rollbacks` (one the caller finishes). A
/// completed rollback may be anywhere: it carries no records, and Hudi's
/// metadata writer writes a deltacommit at the instant it just rolled back,
/// before the rollback's own time (commitInternal).
[[nodiscard]] inline Status check_metadata_instants(const Timeline& timeline, const Timeline& data,
                                                    const InstantTime& floor,
                                                    const std::function<bool(const Instant&)>& finishing,
                                                    const std::set<InstantTime>& resumed_rollbacks = {}) {
  for (const Instant& i : timeline.instants()) {
    if (i.action == Action::rollback && (i.is_completed() || resumed_rollbacks.contains(i.requested))) continue;
    const Instant* d = data.find(i.requested);
    const bool finished_here = d != nullptr && d->is_pending() && finishing(*d);
    if (!finished_here && !(i.requested < floor)) {
      return detail::refused(
          fmt::format("metadata-table instant {} ({} {}) is not before the instant lakegc would write ({} or later)",
                      i.requested, to_string(i.action), to_string(i.state), floor));
    }
    if (i.is_completed()) continue;
    const bool write_in_flight = d != nullptr && d->is_pending() && is_write_action(d->action);
    if (i.action != Action::deltacommit || !(finished_here || write_in_flight)) {
      return detail::refused(
          fmt::format("the metadata table has a pending {} {} ({}) lakegc does not know how to "
                      "continue; run a Hudi writer first",
                      to_string(i.action), i.requested, to_string(i.state)));
    }
  }
  return Status();
}

/// Whether every partition of `partitions` has a file group in the
/// metadata table's view `view`.
[[nodiscard]] inline Status check_file_groups(const TableView& view, const std::vector<std::string>& partitions) {
  for (const std::string& p : partitions) {
    if (detail::latest_slices_of(view, p).empty()) {
      return detail::refused(fmt::format("metadata-table partition '{}' has no file group to write to", p));
    }
  }
  return Status();
}

/// A metadata-table partition being built (hoodie.table.metadata.partitions.inflight)
/// among `partitions`: Hudi's writers update it too, lakegc refuses it.
[[nodiscard]] inline Status check_not_being_built(const TableProperties& props,
                                                  const std::vector<std::string>& partitions) {
  for (const std::string& p : partitions) {
    if (std::find(props.metadata_partitions.begin(), props.metadata_partitions.end(), p) ==
        props.metadata_partitions.end()) {
      return detail::refused(fmt::format(
          "metadata-table partition '{}' is being built (hoodie.table.metadata.partitions.inflight); let Hudi "
          "finish it first",
          p));
    }
  }
  return Status();
}

/// One log file write_metadata_deltacommit wrote (or found written by a
/// crashed run), relative to the metadata table.
struct written_log {
  std::string path;
  std::uint64_t size = 0;
};

/// What write_metadata_deltacommit did.
struct metadata_update {
  std::vector<written_log> logs;  ///< per file group with records
  /// The metadata-table partitions that got records.
  std::vector<std::string> partitions;
  bool already_completed = false;  ///< a rerun found the deltacommit completed
  /// The metadata table's rollback of a deltacommit at this instant that
  /// Hudi wrote, made before it was written again (clean_update.hpp).
  std::optional<InstantTime> rolled_back_by;
};

/// Writes the metadata table's deltacommit `t` holding `records` (see the
/// top of this file) in the metadata table of the table at `storage` with
/// properties `props`, for the data-table action `mark` (lakegc's file-info
/// entry); `now_ms` is the clock for a layout-2 completion time. `records`
/// names `files` first: its file group gets a write stat even without
/// records, as Hudi's workload profile names it.
template <Storage S>
[[nodiscard]] StatusOr<metadata_update> write_metadata_deltacommit(S& storage, const TableProperties& props,
                                                                   std::string_view base_path, const InstantTime& t,
                                                                   std::span<const partition_records> records,
                                                                   std::string_view mark,
                                                                   const std::function<std::int64_t()>& now_ms) {
  subfolder_storage<S> mdt(storage, std::string(folder));
  const std::string mdt_path = fmt::format("{}/{}", base_path, folder);
  const std::string where = fmt::format("metadata table deltacommit {}", t);
  LAKEGC_ASSIGN_OR_RETURN(auto j, (hudi::journal<subfolder_storage<S>>::open(mdt, mdt_path)));
  auto loaded = j.load();
  if (!loaded.ok()) return annotate(loaded.status(), where);
  TableMetadata md = std::move(*loaded);
  const TableProperties& mp = j.properties();
  // Later metadata instants: a rollback carries no records. From table
  // version 8 the log file is named by `t` itself, and Hudi's metadata
  // writer writes an instant whenever its data-table action completes, later
  // ones or not (a pending clean finished late; commitInternal writing again
  // the deltacommit it just rolled back). Version 6 appends to the newest
  // log of the latest slice, behind the later instants' blocks: refused.
  for (const Instant& i : md.timeline.instants()) {
    if (t < i.requested && i.action != Action::rollback && mp.version < 8) {
      return absl::FailedPreconditionError(
          fmt::format("{}: the metadata table has a later instant, {} {}", where, to_string(i.action), i.requested));
    }
  }
  if (mp.version < 8) {
    // A version-6 rollback in the metadata table writes rollback blocks
    // under APPEND markers; the ones a crash left go with its next write.
    LAKEGC_RETURN_IF_ERROR(annotate(remove_completed_rollback_markers(mdt, j.location(), md.timeline), where));
  }
  const Instant* existing = md.timeline.find(t);
  if (existing != nullptr && existing->action != Action::deltacommit) {
    return absl::FailedPreconditionError(
        fmt::format("{}: the metadata table has a {} at that time", where, to_string(existing->action)));
  }
  auto viewed = load_view(mdt, md);
  if (!viewed.ok()) return annotate(viewed.status(), where);
  const TableView& view = *viewed;

  metadata_update out;
  struct planned_log {
    log_write w;
    std::string bytes;
    bool already_written = false;
  };
  std::vector<planned_log> planned;
  for (const partition_records& pr : records) {
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
      LAKEGC_ASSIGN_OR_RETURN(std::string bytes, log_bytes(pr.partition, upserts[g], deletes[g], t.str(), mark));
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
        if (props.version < 8 && detail::rolled_back_later(logs, f, t.str())) continue;  // an earlier try
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
