// File: lakegc/core/load_view.hpp
// -----------------------------------------------------------------------------
// Builds a TableView from a Storage listing and a table's metadata: the one
// place that joins what is on storage with what the timeline says.
//
// Partitions are the directories holding `.hoodie_partition_metadata` (the
// root for a non-partitioned table); their depth differs from the number of
// partition fields, so the tree is walked, `.hoodie/` excluded. The listing
// is streamed into the builder.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "lakegc/core/bytes.hpp"
#include "lakegc/core/table_metadata.hpp"
#include "lakegc/core/table_view.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc {

inline constexpr std::string_view kPartitionMetadataFile = ".hoodie_partition_metadata";
/// The extensions of its base-file-format forms (written when
/// hoodie.partition.metafile.use.base.format is on).
inline constexpr std::array<std::string_view, 2> kPartitionMetadataExtensions = {".parquet", ".orc"};

/// True for `.hoodie_partition_metadata` and its `.parquet` / `.orc` forms.
inline bool is_partition_metadata_file(std::string_view name) {
  return name.substr(0, kPartitionMetadataFile.size()) == kPartitionMetadataFile;
}

/// The directory a table listing skips: the timeline and everything Hudi
/// keeps beside it (markers, the metadata table), not data.
inline bool is_timeline_dir(std::string_view dir) { return dir == ".hoodie"; }

/// Feeds the builder one listed file (its path relative to the table
/// root): a partition's metadata file declares its directory a partition,
/// anything else is offered as a data file.
inline void add_listed_file(TableViewBuilder& b, std::string_view path, std::uint64_t size) {
  const auto slash = detail::last_slash(path);
  const std::string_view dir = slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
  const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  if (is_partition_metadata_file(name)) {
    b.add_partition(dir);
  } else {
    b.add_file(dir, name, size);
  }
}

/// Feeds the builder the names of the files savepoints list. Before the
/// listing, so that the builder marks each listed file as it takes it
/// (TableViewBuilder::add_savepointed_file).
inline void add_savepointed_files(TableViewBuilder& b, const TableMetadata& md) {
  std::size_t savepointed = 0;
  for (const auto& sp : md.savepoints) savepointed += sp.files.size();
  b.reserve_savepointed_files(savepointed);
  for (const auto& sp : md.savepoints) {
    for (const auto& f : sp.files) b.add_savepointed_file(f.name);
  }
}

/// Feeds the builder what the metadata knows of writes and table
/// services: replaced groups of completed replacecommits, pending
/// compaction operations, the files commit metadata names, the completion
/// times of archived instants, and the files pending writes' markers name.
inline void add_write_metadata(TableViewBuilder& b, const TableMetadata& md) {
  std::size_t named_files = 0;  // an upper bound: pending commits' files are not added
  for (const auto& [t, info] : md.commits) named_files += info.files.size();
  b.reserve_committed_files(named_files);
  for (const auto& [t, info] : md.commits) {
    const Instant* i = md.timeline.find(t);
    if (i == nullptr || !i->is_completed()) continue;
    if (i->action == Action::replacecommit) {
      for (const auto& r : info.replaced) b.add_replaced(r.partition, r.file_id, t);
    }
    for (const auto& f : info.files) b.add_committed_file(f.name);
  }
  for (const auto& op : md.pending_compactions) {
    const Instant* i = md.timeline.find(op.compaction_instant);
    if (i != nullptr && i->is_pending()) {
      b.add_pending_compaction(op.partition, op.file_id, op.base_instant, op.compaction_instant);
    }
  }
  for (const auto& [requested, completed] : md.archived_completions) b.add_archived_completion(requested, completed);
  for (const auto& [t, files] : md.markers) {
    const Instant* i = md.timeline.find(t);
    if (i == nullptr || !i->is_pending()) continue;
    for (const auto& f : files) b.add_pending_write_file(f.partition, f.name);
  }
}

/// Feeds the builder everything the metadata knows (add_savepointed_files
/// and add_write_metadata), in any order with the listing.
inline void add_metadata(TableViewBuilder& b, const TableMetadata& md) {
  add_write_metadata(b, md);
  add_savepointed_files(b, md);
}

/// Whether a view needs each file's size from the listing. Slices, groups
/// and every planning decision come from names alone; sizes are only
/// reported. With `not_needed` a POSIX listing makes no stat per file (most
/// of its time) and TableView::file_size may be FileEntry::kUnknownSize;
/// a clean plan then asks for the sizes of the files it deletes
/// (plan/planned_sizes.hpp).
enum class FileSizes { from_listing, not_needed };

/// Lists `storage` (skipping `.hoodie/`) and builds the view against
/// `timeline` (pass md.timeline, or an as-of view of it).
template <Storage S>
[[nodiscard]] StatusOr<TableView> load_view(S& storage, const TableMetadata& md, const Timeline& timeline,
                                            FileSizes sizes = FileSizes::from_listing) {
  TableViewBuilder b(timeline, md.layout);
  b.require_declared_partitions();
  add_savepointed_files(b, md);
  ListOptions opts;
  opts.skip_dir = is_timeline_dir;
  opts.attributes = sizes == FileSizes::from_listing;
  Status st = storage.list(
      "", [&](const FileEntry& e) { add_listed_file(b, e.path, e.size); }, opts);
  if (!st.ok()) return annotate(st, "listing the table");
  add_write_metadata(b, md);
  return std::move(b).build();
}

template <Storage S>
[[nodiscard]] StatusOr<TableView> load_view(S& storage, const TableMetadata& md,
                                            FileSizes sizes = FileSizes::from_listing) {
  return load_view(storage, md, md.timeline, sizes);
}

}  // namespace lakegc
