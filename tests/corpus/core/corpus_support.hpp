// Loads a corpus table by names only (timeline file names + data-file
// listing), without reading any instant metadata: what the foundation
// issue's view test needs. Uses std::filesystem directly so it checks the
// core model independently of the storage adapters.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "lakegc/core/table_view.hpp"
#include "lakegc/hudi/timeline_file_name.hpp"

namespace lakegc::testing {

struct NamedTable {
  Timeline timeline;
  TimelineLayout layout = TimelineLayout::v1;
  std::vector<std::pair<std::string, std::string>> data_files;  // (partition, name)
  std::vector<std::string> partitions;
};

inline NamedTable load_by_names(const std::filesystem::path& root) {
  namespace fs = std::filesystem;
  NamedTable t;
  const bool v2 = fs::is_directory(root / ".hoodie" / "timeline");
  t.layout = v2 ? TimelineLayout::v2 : TimelineLayout::v1;
  const fs::path tdir = v2 ? root / ".hoodie" / "timeline" : root / ".hoodie";
  std::vector<hudi::TimelineFileName> files;
  for (const auto& e : fs::directory_iterator(tdir)) {
    if (!e.is_regular_file()) continue;
    const std::string name = e.path().filename().string();
    if (!hudi::looks_like_instant_file(name)) continue;
    files.push_back(hudi::parse_timeline_file_name(name).value());
  }
  t.timeline = Timeline::make(hudi::fold_timeline_files(files)).value();
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    const auto rel = fs::relative(it->path(), root);
    if (it->is_directory() && rel == ".hoodie") {
      it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file()) continue;
    std::string part = rel.parent_path().generic_string();
    const std::string name = rel.filename().string();
    if (name == ".hoodie_partition_metadata") {
      t.partitions.push_back(part);
    } else {
      t.data_files.emplace_back(part, name);
    }
  }
  std::sort(t.data_files.begin(), t.data_files.end());
  std::sort(t.partitions.begin(), t.partitions.end());
  return t;
}

inline TableView build_view(const NamedTable& t, const Timeline& timeline) {
  TableViewBuilder b(timeline, t.layout);
  for (const auto& p : t.partitions) b.add_partition(p);
  for (const auto& [p, n] : t.data_files) b.add_file(p, n, 0);
  return std::move(b).build();
}

}  // namespace lakegc::testing
