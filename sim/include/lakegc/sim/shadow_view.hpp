// File: lakegc/sim/shadow_view.hpp
// -----------------------------------------------------------------------------
// ShadowView: the oracle's views of its shadow storage, from one
// TableViewBuilder kept across snapshot resolutions.
//
// The oracle resolves thousands of snapshots per sweep, each a view of the
// shadow as of an instant; building each from a fresh listing (every name
// scanned, every file group hashed again) was most of the oracle's time.
// But the listing only feeds the builder files (the timeline an instant's
// view is built against is read at build time), and the shadow only gains
// files between resolutions. So the builder keeps the listing part: files
// the oracle tells of are added to it, the metadata part is replaced per
// resolution (TableViewBuilder::clear_metadata), and each view comes from
// the non-destructive build(const Timeline&).
//
// Any other change (a file removed: forget_replaced, orphan_deleted; a file
// put behind the oracle's back) shows as memory_storage::changes() moving
// further than the files told of, and the builder is made again from a
// listing, as load_view makes it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lakegc/core/load_view.hpp"
#include "lakegc/storage/memory_storage.hpp"

namespace lakegc::sim {

class ShadowView {
 public:
  explicit ShadowView(memory_storage& shadow) : shadow_(&shadow) {}

  /// `path` was created in the shadow with `size` bytes.
  void added(std::string path, std::uint64_t size) { added_.emplace_back(std::move(path), size); }

  /// What load_view(shadow, md, timeline) gives, up to the order of the
  /// view's files (which nothing reads: a snapshot sorts its files).
  [[nodiscard]] StatusOr<TableView> view(const TableMetadata& md, const Timeline& timeline) {
    LAKEGC_RETURN_IF_ERROR(sync(md.layout));
    add_metadata(*builder_, md);
    TableView v = builder_->build(timeline);
    // The builder keeps md's names as views: dropped before md may go.
    builder_->clear_metadata();
    return v;
  }

 private:
  // Brings the builder's listing part up to the shadow as it stands.
  [[nodiscard]] Status sync(TimelineLayout layout) {
    const bool told_all = shadow_->changes() == synced_changes_ + added_.size();
    if (builder_ && layout_ == layout && told_all) {
      for (const auto& [path, size] : added_) {
        if (!in_skipped_dir(path)) add_listed_file(*builder_, path, size);
      }
    } else {
      builder_.emplace(unused_timeline_, layout);
      layout_ = layout;
      builder_->require_declared_partitions();
      ListOptions opts;
      opts.skip_dir = is_timeline_dir;
      Status st = shadow_->list(
          "", [&](const FileEntry& e) { add_listed_file(*builder_, e.path, e.size); }, opts);
      if (!st.ok()) {
        builder_.reset();
        return annotate(st, "listing the shadow storage");
      }
    }
    added_.clear();
    synced_changes_ = shadow_->changes();
    return Status();
  }

  // Whether the listing skips the directory `path` lies in (or one above).
  static bool in_skipped_dir(std::string_view path) {
    for (auto slash = path.find('/'); slash != std::string_view::npos; slash = path.find('/', slash + 1)) {
      if (is_timeline_dir(path.substr(0, slash))) return true;
    }
    return false;
  }

  memory_storage* shadow_;
  // Only build() && reads the timeline given at construction; this
  // builder is only built with build(const Timeline&).
  Timeline unused_timeline_;
  std::optional<TableViewBuilder> builder_;
  TimelineLayout layout_ = TimelineLayout::v1;
  std::uint64_t synced_changes_ = 0;
  std::vector<std::pair<std::string, std::uint64_t>> added_;  // since synced_changes_
};

}  // namespace lakegc::sim
