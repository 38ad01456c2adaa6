// File: lakegc/hudi/lsm_timeline_writer.hpp
// -----------------------------------------------------------------------------
// Writes layout 2's LSM history (hudi/lsm_timeline.hpp) as Hudi 1.2.0's
// LSMTimelineWriter does, step for step, under the caller's table lock:
//
// write(records)       the records (one per archived instant, requested-time
//                      order) as data file `<first>_<last>_0.parquet`. If
//                      that file exists: listed by the latest manifest, the
//                      run that wrote it got that far, and nothing is
//                      written (Hudi: "Skip archiving for the redundant
//                      file"); else it is a crashed write's leftover, deleted
//                      and written again. Then update_manifest.
// update_manifest      the latest manifest without the files removed, plus
//                      the file added (its length from storage), as
//                      `manifest_<N+1>` (1 for the first; a leftover of that
//                      name deleted first), then `_version_` deleted and
//                      written with N+1. A reader between the two falls back
//                      to the newest manifest.
// compact_and_clean    universal compaction, layer by layer from 0: when a
//                      layer holds at least hoodie.timeline.compaction.batch.size
//                      (10) files, the oldest consecutive ones (by name, at
//                      most the batch, while their total stays within
//                      hoodie.timeline.compaction.target.file.max.bytes,
//                      1000 MiB; at least 2) are merged, rows in file order,
//                      into `<min>_<max>_<layer+1>.parquet` (a leftover of
//                      that name deleted first) and the manifest updated
//                      (sources out, merged file in); then the next layer.
//                      Then the clean: with more manifest versions than
//                      hoodie.timeline.manifest.retained.versions (3) plus
//                      the compactions just made, every manifest of an older
//                      version is deleted, then every data file no kept
//                      version lists.
//
// Beyond Hudi, so that a crashed run is finished by the next one to the same
// end state: (a) the compactions "just made" are the trailing versions whose
// manifest added a file of layer 1 or more (in an uninterrupted run, the
// ones this run made: the same number Hudi counts), so a rerun after a crash
// inside compaction or clean keeps what the uninterrupted run keeps; (b) a
// `_version_` a crash left deleted is written again (Hudi's readers fall
// back to the newest manifest until its next archival does it); (c) a
// retained-versions setting below 1 is refused: Hudi's clean would then
// delete every manifest and data file, the whole archived timeline.
//
// Every file deleted from the history folder goes with its Hadoop checksum
// (`.<name>.crc`, which Hudi's local and HDFS file systems write beside
// each file), the checksum first; a leftover checksum of a file about to be
// written is deleted first: Hadoop would check the new file against it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/lsm_instant.hpp"
#include "lakegc/hudi/lsm_timeline.hpp"
#include "lakegc/hudi/table_location.hpp"
#include "lakegc/hudi/table_properties.hpp"
#include "lakegc/storage/path.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc::hudi {

/// HoodieArchivalConfig's LSM keys, with Hudi 1.2.0's defaults.
struct LsmWriterOptions {
  std::int32_t compaction_batch = 10;              ///< hoodie.timeline.compaction.batch.size
  std::int64_t compaction_max_bytes = 1048576000;  ///< hoodie.timeline.compaction.target.file.max.bytes
  std::int32_t manifest_retained_versions = 3;     ///< hoodie.timeline.manifest.retained.versions
};

/// What a writer changed, in order.
struct LsmChanges {
  std::optional<std::string> data_file;      ///< the layer-0 file written
  bool data_file_already_committed = false;  ///< it existed, listed by the latest manifest
  struct compaction {
    std::vector<std::string> sources;
    std::string target;
  };
  std::vector<compaction> compactions;
  std::vector<std::string> manifests_written;  ///< names, in order
  bool version_file_restored = false;
  std::vector<std::string> cleaned;  ///< manifests, then data files, deleted by the clean
};

namespace detail {

inline std::string checksum_path(std::string_view folder, std::string_view name) {
  return fmt::format("{}/{}", folder, hadoop_checksum_name(name));
}

}  // namespace detail

template <Storage S>
class lsm_writer {
 public:
  lsm_writer(S& storage, const TableProperties& props, const TableLocation& table, LsmWriterOptions o)
      : storage_(storage), props_(props), table_(table), o_(o) {}

  [[nodiscard]] Status check_options() const {
    if (o_.manifest_retained_versions < 1) {
      return absl::InvalidArgumentError(
          fmt::format("hoodie.timeline.manifest.retained.versions={}: with fewer than 1 Hudi's LSM clean deletes every "
                      "manifest and data file of the archived timeline; lakegc refuses it",
                      o_.manifest_retained_versions));
    }
    return Status();
  }

  /// LSMTimelineWriter.write, given the records.
  [[nodiscard]] Status write(const std::vector<lsm_instant>& records, LsmChanges& changes) {
    LAKEGC_RETURN_IF_ERROR(check_options());
    if (records.empty()) return absl::InvalidArgumentError("The instant actions to write should not be empty");
    LAKEGC_ASSIGN_OR_RETURN(const std::string folder, lsm_history_folder(props_));
    const std::string name = lsm_data_file_name(records.front().instant_time, records.back().instant_time, 0);
    const std::string path = fmt::format("{}/{}", folder, name);
    LAKEGC_ASSIGN_OR_RETURN(const bool exists, exists_(path));
    if (exists) {
      LAKEGC_ASSIGN_OR_RETURN(lsm_snapshot s, read_lsm_snapshot(storage_, props_, table_));
      const bool committed = std::any_of(s.manifest.files.begin(), s.manifest.files.end(),
                                         [&](const lsm_file_entry& f) { return f.name == name; });
      if (committed) {
        changes.data_file = name;
        changes.data_file_already_committed = true;
        return restore_version_file(s, changes);
      }
      LAKEGC_RETURN_IF_ERROR(remove_(folder, name));
    }
    LAKEGC_ASSIGN_OR_RETURN(const std::string bytes, encode_lsm_file(records));
    LAKEGC_RETURN_IF_ERROR(create_(folder, name, bytes));
    changes.data_file = name;
    return update_manifest({}, name, changes);
  }

  /// LSMTimelineWriter.updateManifest.
  [[nodiscard]] Status update_manifest(const std::vector<std::string>& remove, const std::string& add,
                                       LsmChanges& changes) {
    LAKEGC_ASSIGN_OR_RETURN(lsm_snapshot s, read_lsm_snapshot(storage_, props_, table_));
    lsm_manifest next;
    for (const lsm_file_entry& f : s.manifest.files) {
      if (std::find(remove.begin(), remove.end(), f.name) == remove.end()) next.files.push_back(f);
    }
    const std::string add_path = fmt::format("{}/{}", s.folder, add);
    auto info = storage_.stat(add_path);
    if (!info.ok()) return annotate(info.status(), table_.display(add_path));
    next.files.push_back({add, static_cast<std::int64_t>(info->size)});
    const std::int32_t version = s.version < 0 ? 1 : s.version + 1;
    const std::string manifest = lsm_manifest_name(version);
    LAKEGC_ASSIGN_OR_RETURN(const bool leftover, exists_(fmt::format("{}/{}", s.folder, manifest)));
    if (leftover) LAKEGC_RETURN_IF_ERROR(remove_(s.folder, manifest));
    LAKEGC_RETURN_IF_ERROR(create_(s.folder, manifest, format_lsm_manifest(next)));
    changes.manifests_written.push_back(manifest);
    return write_version_file(s.folder, version);
  }

  /// LSMTimelineWriter.compactAndClean.
  [[nodiscard]] Status compact_and_clean(LsmChanges& changes) {
    LAKEGC_RETURN_IF_ERROR(check_options());
    LAKEGC_ASSIGN_OR_RETURN(lsm_snapshot s, read_lsm_snapshot(storage_, props_, table_));
    LAKEGC_RETURN_IF_ERROR(restore_version_file(s, changes));
    // Hudi adds each merged file to its in-memory manifest and looks at the
    // next layer; the sources stay in it but belong to the layer below.
    std::vector<lsm_file_entry> files = s.manifest.files;
    for (int layer = 0; layer < 10; ++layer) {
      LAKEGC_ASSIGN_OR_RETURN(const std::optional<std::string> merged, compact_layer(s.folder, files, layer, changes));
      if (!merged) break;
      const std::string merged_path = fmt::format("{}/{}", s.folder, *merged);
      auto info = storage_.stat(merged_path);
      if (!info.ok()) return annotate(info.status(), table_.display(merged_path));
      files.push_back({*merged, static_cast<std::int64_t>(info->size)});
    }
    return clean(changes);
  }

  /// The sources compact_layer would merge at `layer` of `files`, if any
  /// (doCompact's trigger and getCandidateFiles).
  std::vector<std::string> compaction_candidates(std::vector<lsm_file_entry> files, int layer) const {
    std::vector<lsm_file_entry> in_layer;
    for (const lsm_file_entry& f : files) {
      const auto n = parse_lsm_file_name(f.name);
      // LSMTimeline.getFileLayer: 0 for a name that does not match.
      if ((n ? n->layer : 0) == layer) in_layer.push_back(f);
    }
    std::vector<std::string> candidates;
    if (static_cast<std::int64_t>(in_layer.size()) < o_.compaction_batch) return candidates;
    std::sort(in_layer.begin(), in_layer.end(),
              [](const lsm_file_entry& a, const lsm_file_entry& b) { return a.name < b.name; });
    std::int64_t total = 0;
    for (const lsm_file_entry& f : in_layer) {
      total += f.length;
      candidates.push_back(f.name);
      if (static_cast<std::int64_t>(candidates.size()) >= o_.compaction_batch) break;
      if (total <= o_.compaction_max_bytes) continue;
      if (candidates.size() >= 2) break;
      total = 0;
      candidates.clear();
    }
    if (candidates.size() < 2) candidates.clear();
    return candidates;
  }

 private:
  [[nodiscard]] StatusOr<std::optional<std::string>> compact_layer(const std::string& folder,
                                                                   const std::vector<lsm_file_entry>& files, int layer,
                                                                   LsmChanges& changes) {
    const std::vector<std::string> sources = compaction_candidates(files, layer);
    if (sources.empty()) return std::optional<std::string>();
    // LSMTimelineWriter.compactedFileName: min of the mins, max of the maxes,
    // the first source's layer plus one.
    std::string lo, hi;
    int first_layer = 0;
    for (std::size_t k = 0; k < sources.size(); ++k) {
      const auto n = parse_lsm_file_name(sources[k]);
      if (!n)
        return absl::DataLossError(
            fmt::format("{}: not an LSM data file name", table_.display(folder + "/" + sources[k])));
      if (k == 0) first_layer = n->layer;
      if (lo.empty() || n->min_instant < lo) lo = n->min_instant;
      if (hi.empty() || n->max_instant > hi) hi = n->max_instant;
    }
    if (first_layer + 1 > 9) {
      return absl::FailedPreconditionError(
          fmt::format("{}: compacting layer {} would make a layer-10 file, whose name Hudi's LSMTimeline cannot parse",
                      table_.display(folder), first_layer));
    }
    const std::string target = lsm_data_file_name(lo, hi, first_layer + 1);
    std::vector<lsm_instant> rows;
    for (const std::string& src : sources) {
      LAKEGC_ASSIGN_OR_RETURN(auto part, read_lsm_data_file(storage_, table_, folder, src, lsm_columns::all));
      for (lsm_instant& r : part) rows.push_back(std::move(r));
    }
    LAKEGC_ASSIGN_OR_RETURN(const bool leftover, exists_(fmt::format("{}/{}", folder, target)));
    if (leftover) LAKEGC_RETURN_IF_ERROR(remove_(folder, target));
    LAKEGC_ASSIGN_OR_RETURN(const std::string bytes, encode_lsm_file(rows));
    LAKEGC_RETURN_IF_ERROR(create_(folder, target, bytes));
    changes.compactions.push_back({sources, target});
    LAKEGC_RETURN_IF_ERROR(update_manifest(sources, target, changes));
    return std::optional<std::string>(target);
  }

  /// The compactions the latest versions record: trailing versions whose
  /// manifest added a file of layer 1 or more to the version before.
  [[nodiscard]] StatusOr<int> trailing_compactions(const lsm_snapshot& s) {
    int n = 0;
    auto read_manifest = [&](std::int32_t v) -> StatusOr<std::optional<lsm_manifest>> {
      const std::string path = fmt::format("{}/{}", s.folder, lsm_manifest_name(v));
      auto text = storage_.read(path);
      if (absl::IsNotFound(text.status())) return std::optional<lsm_manifest>();
      if (!text.ok()) return annotate(text.status(), table_.display(path));
      LAKEGC_ASSIGN_OR_RETURN(lsm_manifest m, parse_lsm_manifest(*text, table_.display(path)));
      return std::optional<lsm_manifest>(std::move(m));
    };
    std::optional<lsm_manifest> newer = s.manifest;
    for (std::int32_t v = s.version; v > 1; --v) {
      LAKEGC_ASSIGN_OR_RETURN(std::optional<lsm_manifest> older, read_manifest(v - 1));
      if (!older) break;
      bool compacted = false;
      for (const lsm_file_entry& f : newer->files) {
        const bool is_new = std::none_of(older->files.begin(), older->files.end(),
                                         [&](const lsm_file_entry& g) { return g.name == f.name; });
        const auto name = parse_lsm_file_name(f.name);
        if (is_new && name && name->layer > 0) compacted = true;
      }
      if (!compacted) break;
      ++n;
      newer = std::move(older);
    }
    return n;
  }

  /// LSMTimelineWriter.clean.
  [[nodiscard]] Status clean(LsmChanges& changes) {
    LAKEGC_ASSIGN_OR_RETURN(lsm_snapshot s, read_lsm_snapshot(storage_, props_, table_));
    if (s.version < 0) return Status();
    LAKEGC_ASSIGN_OR_RETURN(const int compacted, trailing_compactions(s));
    const std::size_t keep =
        static_cast<std::size_t>(o_.manifest_retained_versions) + static_cast<std::size_t>(compacted);
    std::vector<std::int32_t> versions = s.versions;
    if (versions.size() <= keep) return Status();
    std::sort(versions.rbegin(), versions.rend());
    const std::set<std::int32_t> kept(versions.begin(), versions.begin() + static_cast<std::ptrdiff_t>(keep));
    std::set<std::string> files_kept;
    for (const std::int32_t v : kept) {
      const std::string path = fmt::format("{}/{}", s.folder, lsm_manifest_name(v));
      LAKEGC_ASSIGN_OR_RETURN(std::string text, read_table_file(storage_, table_, path));
      LAKEGC_ASSIGN_OR_RETURN(lsm_manifest m, parse_lsm_manifest(text, table_.display(path)));
      for (const lsm_file_entry& f : m.files) files_kept.insert(f.name);
    }
    // Manifests first, then data files (a reader of a kept version never
    // meets a missing file).
    std::vector<std::string> manifests;
    ListOptions opts;
    opts.recursive = false;
    LAKEGC_RETURN_IF_ERROR(annotate(storage_.list(
                                        s.folder,
                                        [&](const FileEntry& e) {
                                          const std::string_view name = detail::base_name(e.path);
                                          const auto v = lsm_manifest_version(name);
                                          if (v && !kept.contains(*v)) manifests.emplace_back(name);
                                        },
                                        opts),
                                    fmt::format("listing {}", table_.display(s.folder))));
    for (const std::string& m : manifests) {
      LAKEGC_RETURN_IF_ERROR(remove_(s.folder, m));
      changes.cleaned.push_back(m);
    }
    for (const std::string& f : s.data_files) {
      if (files_kept.contains(f)) continue;
      LAKEGC_RETURN_IF_ERROR(remove_(s.folder, f));
      changes.cleaned.push_back(f);
    }
    return Status();
  }

  /// Beyond Hudi: `_version_` deleted by a crash between the two steps of
  /// its update, written again with the newest version.
  [[nodiscard]] Status restore_version_file(const lsm_snapshot& s, LsmChanges& changes) {
    if (s.version < 0 || s.from_version_file) return Status();
    LAKEGC_ASSIGN_OR_RETURN(const bool present, exists_(fmt::format("{}/{}", s.folder, kLsmVersionFile)));
    // Present but unreadable: Hudi's next manifest update replaces it; so does ours.
    if (present) return Status();
    LAKEGC_RETURN_IF_ERROR(create_(s.folder, std::string(kLsmVersionFile), std::to_string(s.version)));
    changes.version_file_restored = true;
    return Status();
  }

  [[nodiscard]] Status write_version_file(const std::string& folder, std::int32_t version) {
    LAKEGC_RETURN_IF_ERROR(remove_(folder, std::string(kLsmVersionFile)));
    return create_(folder, std::string(kLsmVersionFile), std::to_string(version));
  }

  [[nodiscard]] StatusOr<bool> exists_(const std::string& path) {
    auto info = storage_.stat(path);
    if (info.ok()) return true;
    if (absl::IsNotFound(info.status())) return false;
    return annotate(info.status(), table_.display(path));
  }

  /// Deletes `folder/name` and its checksum (checksum first); gone counts as deleted.
  [[nodiscard]] Status remove_(const std::string& folder, const std::string& name) {
    for (const std::string& p : {detail::checksum_path(folder, name), fmt::format("{}/{}", folder, name)}) {
      LAKEGC_ASSIGN_OR_RETURN(const bool there, exists_(p));
      if (!there) continue;
      if (Status rm = storage_.remove(p); !rm.ok() && !absl::IsNotFound(rm)) return annotate(rm, table_.display(p));
    }
    return Status();
  }

  /// Creates `folder/name`, after deleting a leftover checksum of that name.
  [[nodiscard]] Status create_(const std::string& folder, const std::string& name, std::string_view bytes) {
    const std::string crc = detail::checksum_path(folder, name);
    LAKEGC_ASSIGN_OR_RETURN(const bool stale, exists_(crc));
    if (stale) {
      if (Status rm = storage_.remove(crc); !rm.ok() && !absl::IsNotFound(rm)) return annotate(rm, table_.display(crc));
    }
    const std::string path = fmt::format("{}/{}", folder, name);
    return annotate(storage_.write_if_absent(path, bytes), table_.display(path));
  }

  S& storage_;
  const TableProperties& props_;
  const TableLocation& table_;
  LsmWriterOptions o_;
};

}  // namespace lakegc::hudi
