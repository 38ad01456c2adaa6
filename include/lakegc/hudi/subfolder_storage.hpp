// File: lakegc/hudi/subfolder_storage.hpp
// -----------------------------------------------------------------------------
// subfolder_storage<S>: a Storage rooted at a folder of another Storage.
// Hudi's metadata table is a Hudi table of its own at `.hoodie/metadata/`
// of the data table; seen through a subfolder_storage it is read by the
// same journal and view code as any table, with no second copy of the
// timeline or file-slice rules.
//
// Every path is checked (detail::check_relative_path) before the prefix is
// added, so `..` cannot climb out of the folder; the inner storage checks
// the joined path again. Listed paths have the prefix removed.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lakegc/core/status.hpp"
#include "lakegc/storage/path.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc::hudi {

template <Storage S>
class subfolder_storage {
 public:
  /// `folder` is relative to `inner`'s root, e.g. ".hoodie/metadata".
  subfolder_storage(S& inner, std::string folder) : inner_(&inner), folder_(std::move(folder)) {}

  const std::string& folder() const noexcept { return folder_; }

  template <typename Visitor>
  [[nodiscard]] Status list(std::string_view dir, Visitor&& visit, const ListOptions& options = {}) {
    LAKEGC_RETURN_IF_ERROR(lakegc::detail::check_relative_path(dir, "list", /*allow_root=*/true));
    const std::size_t strip = folder_.size() + 1;
    ListOptions inner_options;
    inner_options.recursive = options.recursive;
    inner_options.attributes = options.attributes;
    if (options.skip_dir) {
      inner_options.skip_dir = [&options, strip](std::string_view d) {
        return d.size() >= strip && options.skip_dir(d.substr(strip));
      };
    }
    return inner_->list(
        inner_path(dir),
        [&](const FileEntry& e) {
          visit(FileEntry{e.path.substr(strip), e.size, e.mtime_ms});
        },
        inner_options);
  }

  [[nodiscard]] StatusOr<FileInfo> stat(std::string_view path) {
    LAKEGC_RETURN_IF_ERROR(lakegc::detail::check_relative_path(path, "stat"));
    LAKEGC_ASSIGN_OR_RETURN(FileInfo info, inner_->stat(inner_path(path)));
    info.path = std::string(path);
    return info;
  }

  [[nodiscard]] StatusOr<std::string> read(std::string_view path) {
    LAKEGC_RETURN_IF_ERROR(lakegc::detail::check_relative_path(path, "read"));
    return inner_->read(inner_path(path));
  }

  [[nodiscard]] Status write_if_absent(std::string_view path, std::string_view bytes) {
    LAKEGC_RETURN_IF_ERROR(lakegc::detail::check_relative_path(path, "write_if_absent"));
    return inner_->write_if_absent(inner_path(path), bytes);
  }

  [[nodiscard]] Status remove(std::string_view path) {
    LAKEGC_RETURN_IF_ERROR(lakegc::detail::check_relative_path(path, "remove"));
    return inner_->remove(inner_path(path));
  }

  std::vector<Status> remove_batch(std::span<const std::string> paths) {
    std::vector<Status> out(paths.size());
    std::vector<std::string> inner_paths;
    std::vector<std::size_t> which;
    for (std::size_t i = 0; i < paths.size(); ++i) {
      out[i] = lakegc::detail::check_relative_path(paths[i], "remove_batch");
      if (!out[i].ok()) continue;
      inner_paths.push_back(inner_path(paths[i]));
      which.push_back(i);
    }
    const std::vector<Status> done = inner_->remove_batch(inner_paths);
    for (std::size_t j = 0; j < which.size() && j < done.size(); ++j) out[which[j]] = done[j];
    return out;
  }

 private:
  std::string inner_path(std::string_view path) const {
    if (path.empty()) return folder_;
    std::string p = folder_;
    p += '/';
    p += path;
    return p;
  }

  S* inner_;
  std::string folder_;
};

}  // namespace lakegc::hudi
