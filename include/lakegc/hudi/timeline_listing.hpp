// File: lakegc/hudi/timeline_listing.hpp
// -----------------------------------------------------------------------------
// The timeline folder (`.hoodie/` in layout 1, `.hoodie/timeline/` in layout
// 2) listed, and its instant files folded into a Timeline, without reading
// any content.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/status.hpp"
#include "lakegc/core/timeline.hpp"
#include "lakegc/hudi/table_location.hpp"
#include "lakegc/hudi/table_properties.hpp"
#include "lakegc/hudi/timeline_file_name.hpp"
#include "lakegc/storage/path.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc::hudi {

/// One file of the timeline folder that names an instant.
struct TimelineFile {
  std::string name;
  TimelineFileName parsed;
  /// FileEntry::kUnknownSize / kUnknownMtime when listed for folding only
  /// and the fold does not need them (timeline_attributes).
  std::uint64_t size = 0;
  std::int64_t mtime_ms = 0;
};

/// Which timeline files a listing learns the size and mtime of.
enum class timeline_attributes {
  every_file,   ///< archival (v1 archived entries take completion times from mtimes) and the tools
  for_folding,  ///< only the files fold_timeline reads an mtime of: layout-2 legacy completed files
};

/// True for a file whose modification time is its instant's completion time
/// (fold_timeline): a completed file without "_<completion>" in a layout-2
/// folder, a legacy instant of an upgraded table.
inline bool completion_from_mtime(const TableProperties& props, const TimelineFileName& f) noexcept {
  return props.layout == TimelineLayout::v2 && f.state == State::completed && !f.completed;
}

/// The instant files of the timeline folder in listing order. Other names
/// (hoodie.properties, .crc files, folders) are skipped; an instant file
/// with an unknown action or state is an error naming it.
// for_folding lists names only and stats the few files whose mtime the fold
// needs: the journal loads a timeline of 30,000 files before every plan, and
// a stat per file was a fifth of that on a local disk.
template <ReadableStorage S>
[[nodiscard]] StatusOr<std::vector<TimelineFile>> list_timeline_files(
    S& storage, const TableProperties& props, const TableLocation& table,
    timeline_attributes attributes = timeline_attributes::every_file) {
  std::vector<TimelineFile> out;
  Status bad;
  ListOptions opts;
  opts.recursive = false;
  opts.attributes = attributes == timeline_attributes::every_file;
  const std::string& dir = props.timeline_dir;
  const Status st = storage.list(
      dir,
      [&](const FileEntry& e) {
        if (!bad.ok()) return;
        const auto slash = e.path.rfind('/');
        const std::string_view name = slash == std::string_view::npos ? e.path : e.path.substr(slash + 1);
        if (!looks_like_instant_file(name)) return;
        auto parsed = parse_timeline_file_name(name);
        if (!parsed.ok()) {
          bad = absl::InvalidArgumentError(fmt::format("{}: {}", table.display(e.path), message_of(parsed.status())));
          return;
        }
        if (props.layout == TimelineLayout::v1 && parsed->completed) {
          bad = absl::InvalidArgumentError(
              fmt::format("{}: a completion time in the name, but hoodie.properties says timeline layout 1",
                          table.display(e.path)));
          return;
        }
        out.push_back({std::string(name), *parsed, e.size, e.mtime_ms});
      },
      opts);
  // Object stores have no empty folders: a layout-2 table with no instant
  // yet has no `.hoodie/timeline/`. An empty timeline commits no file, so
  // reading it as empty can only make a plan smaller.
  if (absl::IsNotFound(st)) return out;
  if (!st.ok()) return annotate(st, fmt::format("listing {}", table.display(dir)));
  LAKEGC_RETURN_IF_ERROR(bad);
  if (opts.attributes) return out;
  std::size_t kept = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    TimelineFile& f = out[i];
    if (completion_from_mtime(props, f.parsed)) {
      const std::string rel = join_path(dir, f.name);
      auto info = storage.stat(rel);
      // Gone since the listing: as a listing that stats skips a file deleted
      // between readdir and stat.
      if (absl::IsNotFound(info.status())) continue;
      if (!info.ok()) return annotate(info.status(), table.display(rel));
      f.size = info->size;
      f.mtime_ms = info->mtime_ms;
    }
    if (kept != i) out[kept] = std::move(f);
    ++kept;
  }
  out.resize(kept);
  return out;
}

/// The Timeline the files make.
[[nodiscard]] inline StatusOr<Timeline> fold_timeline(const std::vector<TimelineFile>& files,
                                                      const TableProperties& props, const TableLocation& table) {
  std::vector<TimelineFileName> names;
  names.reserve(files.size());
  for (const auto& f : files) names.push_back(f.parsed);
  std::vector<Instant> instants = fold_timeline_files(names);
  if (props.layout == TimelineLayout::v2) {
    // A completed file without "_<completion>" in a layout-2 folder is a
    // legacy instant of an upgraded table: Hudi takes its completion time
    // from the file's modification time.
    for (const auto& f : files) {
      if (!completion_from_mtime(props, f.parsed)) continue;
      for (Instant& i : instants) {
        const bool same_instant = i.requested == f.parsed.requested &&
                                  (i.action == Action::savepoint) == (f.parsed.action == Action::savepoint);
        if (same_instant && i.is_completed() && !i.completed) {
          i.completed = InstantTime::from_epoch_ms(f.mtime_ms, props.timezone);
        }
      }
    }
  }
  auto tl = Timeline::make(std::move(instants));
  if (!tl.ok()) return annotate(tl.status(), table.display(props.timeline_dir));
  return tl;
}

/// The Timeline of the folder as it is now.
template <ReadableStorage S>
[[nodiscard]] StatusOr<Timeline> load_timeline(S& storage, const TableProperties& props, const TableLocation& table) {
  LAKEGC_ASSIGN_OR_RETURN(auto files, list_timeline_files(storage, props, table, timeline_attributes::for_folding));
  return fold_timeline(files, props, table);
}

/// `<timeline dir>/<t>.<suffix>`: an instant file in layout 1, or a pending
/// one in either layout.
inline std::string instant_path(const TableProperties& props, const InstantTime& t, std::string_view suffix) {
  return fmt::format("{}/{}.{}", props.timeline_dir, t, suffix);
}

}  // namespace lakegc::hudi
