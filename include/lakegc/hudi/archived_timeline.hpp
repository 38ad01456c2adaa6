// File: lakegc/hudi/archived_timeline.hpp
// -----------------------------------------------------------------------------
// Reads a layout-1 table's archived timeline: the instants Hudi's archiver
// (TimelineArchiverV1) moved out of `.hoodie/` into
// `.hoodie/<hoodie.archivelog.folder>/` (default `archived`).
//
// Each archive file `.commits_.archive.<N>_<writeToken>` is a Hudi log file
// (log/read_blocks.hpp) of AVRO_DATA_BLOCKs whose records are
// HoodieArchivedMetaEntry, one per instant file archived:
//
//   commitTime           the instant's requested time
//   actionType           commit, deltacommit, clean, rollback, ...
//   actionState          REQUESTED, INFLIGHT or COMPLETED (absent before 0.9:
//                        then only completed instants were archived)
//   stateTransitionTime  completion time, where the archiver knew it
//   hoodieCommitMetadata / hoodieReplaceCommitMetadata / hoodieCleanMetadata /
//   ...                  the instant file's content, converted to Avro
//
// Files are read in archive-number order (oldest first), as
// ArchivedTimelineLoaderV1 does in reverse. Corrupt blocks, which a crashed
// archiver leaves, are skipped and counted, as Hudi skips them; other block
// types than Avro data are ignored, as Hudi ignores them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/instant.hpp"
#include "lakegc/core/instant_time.hpp"
#include "lakegc/core/status.hpp"
#include "lakegc/hudi/avro/datum.hpp"
#include "lakegc/hudi/log/avro_data_block.hpp"
#include "lakegc/hudi/log/read_blocks.hpp"
#include "lakegc/hudi/metadata.hpp"
#include "lakegc/hudi/metadata_codec.hpp"
#include "lakegc/hudi/table_properties.hpp"
#include "lakegc/storage/path.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc::hudi {

/// One archived instant file.
struct archived_instant {
  InstantTime requested;
  Action action = Action::commit;
  State state = State::completed;
  /// stateTransitionTime: when the instant reached `state`, if recorded.
  std::optional<InstantTime> completed;
  /// The whole HoodieArchivedMetaEntry, for fields not decoded here.
  avro::datum entry;
};

struct archived_timeline {
  std::vector<archived_instant> instants;  ///< in archive order
  /// Commit metadata of the archived completed commits, deltacommits and
  /// replacecommits, by requested time.
  std::map<InstantTime, CommitMetadata> commits;
  std::vector<std::string> files;  ///< archive files read, oldest first
  std::size_t corrupt_blocks = 0;
};

namespace detail {

/// The archive folder of a layout-1 table, relative to the table root.
[[nodiscard]] inline StatusOr<std::string> archive_folder(const TableProperties& props) {
  std::string sub = "archived";
  if (const auto it = props.raw.find("hoodie.archivelog.folder"); it != props.raw.end() && !it->second.empty()) {
    sub = it->second;
  }
  // The name comes from the file: keep it inside .hoodie.
  if (!lakegc::detail::check_relative_path(sub, "hoodie.archivelog.folder").ok()) {
    return absl::InvalidArgumentError(
        fmt::format("hoodie.archivelog.folder '{}' is not a folder name relative to .hoodie", sub));
  }
  return ".hoodie/" + sub;
}

/// N of `.commits_.archive.N_<token>`, or nullopt for other names.
inline std::optional<std::uint64_t> archive_number(std::string_view name) {
  constexpr std::string_view prefix = ".commits_.archive.";
  if (!name.starts_with(prefix)) return std::nullopt;
  name.remove_prefix(prefix.size());
  std::uint64_t n = 0;
  std::size_t digits = 0;
  while (digits < name.size() && digits < 18 && name[digits] >= '0' && name[digits] <= '9') {
    n = n * 10 + static_cast<std::uint64_t>(name[digits] - '0');
    ++digits;
  }
  if (digits == 0) return std::nullopt;
  return n;
}

[[nodiscard]] inline StatusOr<State> archived_state(const avro::datum& state) {
  if (state.is_null()) return State::completed;  // before Hudi 0.9
  const auto s = state.as_string();
  if (s == "REQUESTED") return State::requested;
  if (s == "INFLIGHT") return State::inflight;
  if (s == "COMPLETED") return State::completed;
  return absl::DataLossError(
      fmt::format("actionState '{}' is not REQUESTED, INFLIGHT or COMPLETED", s.value_or(state.kind_name())));
}

[[nodiscard]] inline Status add_entry(const avro::datum& e, archived_timeline& out) {
  const auto commit_time = e.field("commitTime").as_string();
  const auto action_type = e.field("actionType").as_string();
  if (!commit_time || !action_type) return absl::DataLossError("an entry without commitTime or actionType");
  archived_instant i;
  LAKEGC_ASSIGN_OR_RETURN(i.requested, InstantTime::parse(*commit_time));
  LAKEGC_ASSIGN_OR_RETURN(i.action, parse_action(*action_type));
  LAKEGC_ASSIGN_OR_RETURN(i.state, archived_state(e.field("actionState")));
  if (const auto t = e.field("stateTransitionTime").as_string(); t && !t->empty()) {
    LAKEGC_ASSIGN_OR_RETURN(i.completed, InstantTime::parse(*t));
  }
  if (i.state == State::completed && is_commit_action(i.action)) {
    const avro::datum* m = &e.field("hoodieCommitMetadata");
    if (m->is_null()) m = &e.field("hoodieReplaceCommitMetadata");
    if (!m->is_null()) {
      CommitMetadata cm;
      LAKEGC_RETURN_IF_ERROR(annotate(decode_commit_node(*m, cm), "commit metadata"));
      out.commits[i.requested] = std::move(cm);
    }
  }
  i.entry = e;
  out.instants.push_back(std::move(i));
  return Status();
}

/// The archive files of `dir` by archive number (paths relative to the
/// table root); none when the folder does not exist.
template <Storage S>
[[nodiscard]] StatusOr<std::vector<std::pair<std::uint64_t, std::string>>> list_archive_files(S& storage,
                                                                                              const std::string& dir) {
  std::vector<std::pair<std::uint64_t, std::string>> files;
  ListOptions opts;
  opts.recursive = false;
  const Status listed = storage.list(
      dir,
      [&](const FileEntry& e) {
        const auto slash = e.path.rfind('/');
        const std::string_view name = slash == std::string_view::npos ? e.path : e.path.substr(slash + 1);
        if (const auto n = archive_number(name)) files.emplace_back(*n, std::string(e.path));
      },
      opts);
  if (absl::IsNotFound(listed)) return files;
  if (!listed.ok()) return annotate(listed, fmt::format("listing {}", dir));
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace detail

/// Reads the archived timeline of the layout-1 table rooted at `storage`.
/// A table without an archive folder has an empty one.
template <Storage S>
[[nodiscard]] StatusOr<archived_timeline> read_archived_timeline(S& storage, const TableProperties& props) {
  if (props.layout != TimelineLayout::v1) {
    return absl::FailedPreconditionError(
        "the archived timeline of layout 2 is the LSM history (hudi/lsm_timeline.hpp reads it); this reads layout "
        "1's archive log");
  }
  LAKEGC_ASSIGN_OR_RETURN(std::string dir, detail::archive_folder(props));
  LAKEGC_ASSIGN_OR_RETURN(const auto files, detail::list_archive_files(storage, dir));
  archived_timeline out;

  for (const auto& [number, path] : files) {
    LAKEGC_ASSIGN_OR_RETURN(std::string bytes, storage.read(path));
    LAKEGC_ASSIGN_OR_RETURN(auto blocks, log::read_blocks(bytes, path));
    for (const auto& b : blocks) {
      if (b.is_corrupt()) {
        ++out.corrupt_blocks;
        continue;
      }
      if (b.type != log::block_type::avro_data) continue;
      LAKEGC_ASSIGN_OR_RETURN(auto records, log::decode_avro_records(b, path));
      for (std::size_t r = 0; r < records.size(); ++r) {
        const Status st = detail::add_entry(records[r], out);
        if (!st.ok()) return annotate(st, fmt::format("{}: AVRO_DATA_BLOCK at byte {}, record {}", path, b.offset, r));
      }
    }
    out.files.push_back(path);
  }
  return out;
}

}  // namespace lakegc::hudi
