// File: lakegc/hudi/metadata_table/files_partition.hpp
// -----------------------------------------------------------------------------
// files_partition_state: what the metadata table's `files` partition says
// is on storage, the listing Hudi's readers use instead of listing the
// table (hoodie.metadata.enable, on by default since 0.11). A cleaner that
// deletes files must keep that listing in step, and must first know what it
// says.
//
// The metadata table (`.hoodie/metadata/`) is a Merge-on-Read Hudi table of
// its own, read here with the same journal and view code as any table
// (through a subfolder_storage), so its file slices follow Hudi's rules
// (layout-2 logs attached by completion time, pending compactions). For each
// file group of its `files` partition:
//
//  1. the latest file slice that has a base file, plus the logs of the
//     newer slices a pending compaction opened (Hudi's
//     getLatestMergedFileSlicesBeforeOrOn);
//  2. the log blocks are scanned in order (log_scan.hpp), keeping those of
//     valid instants: completed on the metadata table's timeline (or older
//     than it, i.e. archived), and not pending on the data table's timeline
//     (the metadata table commits before the data table does, so a write
//     that failed between the two leaves a completed metadata deltacommit
//     that readers must ignore; HoodieTableMetadataUtil.getValidInstantTimestamps);
//  3. log records of one key are merged oldest first, then merged over the
//     base file's record (files_record.hpp: Hudi's two-stage merge);
//  4. a partition's files are the entries left with isDeleted = false, and
//     the table's partitions those of `__all_partitions__`.
//
// Skipped blocks (corrupt, of failed writes, rolled back) are reported with
// the result: Hudi skips them too, but a caller about to delete files on
// the strength of this listing may want to refuse instead.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/instant_time.hpp"
#include "lakegc/core/load_view.hpp"
#include "lakegc/core/status.hpp"
#include "lakegc/core/timeline.hpp"
#include "lakegc/hudi/hfile/avro_records.hpp"
#include "lakegc/hudi/journal.hpp"
#include "lakegc/hudi/metadata_table/files_record.hpp"
#include "lakegc/hudi/metadata_table/log_scan.hpp"
#include "lakegc/hudi/subfolder_storage.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc::hudi::metadata_table {

struct files_partition {
  /// Partition path ("" for the root partition) -> file name -> size.
  std::map<std::string, std::map<std::string, std::uint64_t>> files;
  /// The partitions `__all_partitions__` lists as present.
  std::set<std::string> partitions;

  /// What was read, relative to the metadata table's root.
  std::vector<std::string> base_files;
  std::vector<std::string> log_files;
  std::size_t corrupt_blocks = 0;
  std::size_t invalid_instant_blocks = 0;
  std::size_t rolled_back_blocks = 0;
  /// One line per log block that was skipped, and why.
  std::vector<std::string> skipped_blocks;
};

namespace detail {

/// A partition path as a files-partition key names it.
inline std::string partition_of_key(std::string_view key) {
  return key == non_partitioned_key ? std::string() : std::string(key);
}

/// Whether the metadata table's readers take a block of `instant`.
struct valid_instants {
  const Timeline& metadata;
  const Timeline& data;
  std::optional<InstantTime> metadata_start;

  bool operator()(std::string_view instant) const {
    auto t = InstantTime::parse(instant);
    if (!t.ok()) return false;
    if (const Instant* i = metadata.find(*t)) {
      if (i->is_pending()) return false;
    } else if (!metadata_start || !(*t < *metadata_start)) {
      return false;  // neither on the timeline nor archived
    }
    const Instant* d = data.find(*t);
    return d == nullptr || d->is_completed();
  }
};

/// Base file and log files (oldest first) of the merged latest slice of `g`.
inline std::pair<std::optional<std::string>, std::vector<std::string>> merged_latest_slice(const TableView& view,
                                                                                           const Partition& p,
                                                                                           const FileGroup& g) {
  std::optional<std::string> base;
  std::vector<std::vector<std::string>> logs_newest_first;
  for (const FileSlice& s : view.slices_of(g)) {
    std::vector<std::string> logs;
    for (const std::uint32_t f : view.logs_of(s)) logs.push_back(view.file_path(p, f));
    logs_newest_first.push_back(std::move(logs));
    if (s.base_file != kNoFile) {
      base = view.file_path(p, s.base_file);
      break;
    }
  }
  std::vector<std::string> logs;
  for (auto it = logs_newest_first.rbegin(); it != logs_newest_first.rend(); ++it) {
    logs.insert(logs.end(), it->begin(), it->end());
  }
  return {std::move(base), std::move(logs)};
}

}  // namespace detail

/// The state of the `files` partition of the metadata table of the table
/// rooted at `storage`, whose (data) timeline is `data_timeline`.
/// `base_path_for_errors` names the table in errors. NotFound when the
/// table has no metadata table or it has no `files` partition.
template <Storage S>
[[nodiscard]] StatusOr<files_partition> files_partition_state(S& storage, const Timeline& data_timeline,
                                                              std::string_view base_path_for_errors = "") {
  subfolder_storage<S> mdt(storage, std::string(folder));
  const std::string mdt_path =
      base_path_for_errors.empty() ? std::string(folder) : fmt::format("{}/{}", base_path_for_errors, folder);
  LAKEGC_ASSIGN_OR_RETURN(auto journal, (hudi::journal<subfolder_storage<S>>::open(mdt, mdt_path)));
  LAKEGC_ASSIGN_OR_RETURN(TableMetadata md, journal.load());
  LAKEGC_ASSIGN_OR_RETURN(TableView view, load_view(mdt, md));

  const Partition* files = nullptr;
  for (const Partition& p : view.partitions()) {
    if (p.path == files_partition_name) files = &p;
  }
  if (files == nullptr) {
    return absl::NotFoundError(
        fmt::format("{}: the metadata table has no '{}' partition", mdt_path, files_partition_name));
  }

  detail::valid_instants valid{md.timeline, data_timeline, std::nullopt};
  if (!md.timeline.empty()) valid.metadata_start = md.timeline.instants().front().requested;

  files_partition out;
  std::map<std::string, files_payload> merged;  // key -> state after base + logs
  for (const FileGroup& g : view.groups_of(*files)) {
    auto [base, logs] = detail::merged_latest_slice(view, *files, g);
    std::map<std::string, files_payload> base_records;
    if (base) {
      LAKEGC_ASSIGN_OR_RETURN(std::string bytes, mdt.read(*base));
      const std::string where = fmt::format("{}/{}", mdt_path, *base);
      LAKEGC_ASSIGN_OR_RETURN(auto records, hfile::read_avro_hfile(bytes, where));
      for (const auto& r : records) {
        LAKEGC_ASSIGN_OR_RETURN(files_payload payload,
                                decode_files_record(r.record, fmt::format("{}: key '{}'", where, r.key)));
        base_records[r.key] = std::move(payload);
      }
      out.base_files.push_back(*base);
    }
    LAKEGC_ASSIGN_OR_RETURN(log_scan scan, scan_logs(mdt, logs, valid));
    out.log_files.insert(out.log_files.end(), logs.begin(), logs.end());
    out.corrupt_blocks += scan.corrupt_blocks;
    out.invalid_instant_blocks += scan.invalid_instant_blocks;
    out.rolled_back_blocks += scan.rolled_back_blocks;
    out.skipped_blocks.insert(out.skipped_blocks.end(), scan.skipped.begin(), scan.skipped.end());

    // Stage 1: the log records of each key, oldest first.
    std::map<std::string, files_payload> from_logs;
    for (const log_record& r : scan.records) {
      files_payload payload;
      if (r.record) {
        LAKEGC_ASSIGN_OR_RETURN(
            payload, decode_files_record(*r.record, fmt::format("{}: log record of key '{}'", mdt_path, r.key)));
      } else {
        payload.deleted_record = true;
      }
      const auto it = from_logs.find(r.key);
      if (it == from_logs.end()) {
        from_logs.emplace(r.key, std::move(payload));
      } else {
        LAKEGC_ASSIGN_OR_RETURN(it->second, combine(std::move(it->second), payload, r.key));
      }
    }
    // Stage 2: the logs' result over the base file's record.
    for (auto& [key, payload] : from_logs) {
      const auto it = base_records.find(key);
      if (it == base_records.end()) {
        base_records.emplace(key, std::move(payload));
      } else {
        LAKEGC_ASSIGN_OR_RETURN(it->second, combine(std::move(it->second), payload, key));
      }
    }
    for (auto& [key, payload] : base_records) merged[key] = std::move(payload);
  }

  for (const auto& [key, payload] : merged) {
    if (payload.deleted_record) continue;
    if (key == all_partitions_key) {
      for (const auto& [name, entry] : payload.entries) {
        if (!entry.deleted) out.partitions.insert(detail::partition_of_key(name));
      }
      continue;
    }
    auto& files_of = out.files[detail::partition_of_key(key)];
    for (const auto& [name, entry] : payload.entries) {
      if (!entry.deleted) files_of[name] = entry.size;
    }
  }
  return out;
}

/// files_partition_state of the table `table` was opened on.
template <Storage S>
[[nodiscard]] StatusOr<files_partition> files_partition_state(journal<S>& table) {
  LAKEGC_ASSIGN_OR_RETURN(Timeline timeline, table.load_timeline());
  return files_partition_state(table.storage(), timeline, table.base_path());
}

}  // namespace lakegc::hudi::metadata_table
