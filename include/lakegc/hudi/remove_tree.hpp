// File: lakegc/hudi/remove_tree.hpp
// -----------------------------------------------------------------------------
// Deletes a folder of the table and everything below it (the markers of one
// instant, `.hoodie/.temp/<instant>/`): its files, then its folders deepest
// first, empty ones too (a crash may have emptied them). A path already gone
// counts as deleted.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/table_location.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc::hudi {

/// Removes `dir` and all below it; false when `dir` does not exist. Errors
/// name the path as `where` displays it.
template <Storage S>
[[nodiscard]] StatusOr<bool> remove_tree(S& st, const TableLocation& where, const std::string& dir) {
  std::vector<std::string> files;
  std::set<std::string> dirs{dir};
  ListOptions opts;
  // Sees every folder, empty ones too.
  opts.skip_dir = [&](std::string_view d) {
    dirs.insert(std::string(d));
    return false;
  };
  const Status listed = st.list(
      dir, [&](const FileEntry& e) { files.emplace_back(std::string(e.path)); }, opts);
  if (absl::IsNotFound(listed)) return false;
  LAKEGC_RETURN_IF_ERROR(annotate(listed, fmt::format("listing {}", where.display(dir))));
  for (const std::string& f : files) {
    if (Status rm = st.remove(f); !rm.ok() && !absl::IsNotFound(rm)) return annotate(rm, where.display(f));
  }
  for (auto it = dirs.rbegin(); it != dirs.rend(); ++it) {
    if (Status rm = st.remove(*it); !rm.ok() && !absl::IsNotFound(rm)) return annotate(rm, where.display(*it));
  }
  return true;
}

}  // namespace lakegc::hudi
