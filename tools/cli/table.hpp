// File: tools/cli/table.hpp
// -----------------------------------------------------------------------------
// Opening a table named on the command line: a posix_storage rooted at it,
// a hudi::journal over that storage, the timeline metadata, and the data
// file listing (with progress on stderr when it takes long and stderr is a
// terminal, so piped output stays clean).
#pragma once

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <system_error>
#include <vector>

#include <fmt/format.h>
#include <unistd.h>

#include "lakegc/core/load_view.hpp"
#include "lakegc/hudi/journal.hpp"
#include "lakegc/storage/posix_storage.hpp"

namespace lakegc::cli {

/// Prints "listing: N files" on stderr while a listing runs, from one
/// second in, at most five times a second, and only to a terminal.
class listing_progress {
 public:
  explicit listing_progress(bool enabled) : enabled_(enabled), start_(clock::now()), last_(start_) {}
  listing_progress(const listing_progress&) = delete;
  listing_progress& operator=(const listing_progress&) = delete;
  ~listing_progress() {
    if (shown_) std::fputs("\r\033[K", stderr);
  }

  void file_seen() {
    ++files_;
    if (!enabled_ || (files_ & 0xFF) != 0) return;  // look at the clock every 256 files
    const auto now = clock::now();
    if (now - start_ < std::chrono::seconds(1) || now - last_ < std::chrono::milliseconds(200)) return;
    last_ = now;
    shown_ = true;
    fmt::print(stderr, "\rlisting: {} files", files_);
    std::fflush(stderr);
  }

  /// True when progress should be drawn: stderr is a terminal.
  static bool wanted() { return ::isatty(STDERR_FILENO) == 1; }

 private:
  using clock = std::chrono::steady_clock;
  bool enabled_;
  clock::time_point start_;
  clock::time_point last_;
  std::uint64_t files_ = 0;
  bool shown_ = false;
};

/// A Storage that forwards to another and reports each listed file.
template <Storage S>
class progress_storage {
 public:
  progress_storage(S& inner, listing_progress& progress) : inner_(&inner), progress_(&progress) {}

  template <typename Visitor>
  [[nodiscard]] Status list(std::string_view dir, Visitor&& visit, const ListOptions& options = {}) {
    return inner_->list(
        dir,
        [&](const FileEntry& e) {
          progress_->file_seen();
          visit(e);
        },
        options);
  }
  [[nodiscard]] StatusOr<FileInfo> stat(std::string_view path) { return inner_->stat(path); }
  [[nodiscard]] StatusOr<std::string> read(std::string_view path) { return inner_->read(path); }
  [[nodiscard]] Status write_if_absent(std::string_view path, std::string_view bytes) {
    return inner_->write_if_absent(path, bytes);
  }
  [[nodiscard]] Status remove(std::string_view path) { return inner_->remove(path); }
  std::vector<Status> remove_batch(std::span<const std::string> paths) { return inner_->remove_batch(paths); }

 private:
  S* inner_;
  listing_progress* progress_;
};

namespace detail {
/// An instant's text, or nothing (JSON null).
inline std::optional<std::string> instant_or_null(const std::optional<InstantTime>& t) {
  if (!t) return std::nullopt;
  return t->str();
}
}  // namespace detail

/// A table opened from a path, with its timeline metadata loaded.
struct Table {
  std::string path;
  std::unique_ptr<posix_storage> storage;
  std::optional<hudi::journal<posix_storage>> journal;
  TableMetadata metadata;
};

/// Opens the table at `path` and loads its timeline. Errors name the path
/// or the file that is wrong.
[[nodiscard]] inline StatusOr<std::unique_ptr<Table>> open_table(const std::string& path) {
  if (path.empty()) return absl::InvalidArgumentError("TABLE: an empty path");
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec && ec != std::errc::no_such_file_or_directory) {
    // ELOOP from a symbolic link loop, EACCES, ...
    return absl::InvalidArgumentError(fmt::format("{}: cannot open the table: {}", path, ec.message()));
  }
  if (!std::filesystem::exists(status)) {
    return absl::NotFoundError(fmt::format("{}: no such directory", path));
  }
  if (!std::filesystem::is_directory(status)) {
    return absl::InvalidArgumentError(
        fmt::format("{}: is a file, not a table directory (expected the folder that holds .hoodie/)", path));
  }
  auto table = std::make_unique<Table>();
  table->path = path;
  LAKEGC_ASSIGN_OR_RETURN(posix_storage storage, posix_storage::open(path));
  table->storage = std::make_unique<posix_storage>(std::move(storage));
  LAKEGC_ASSIGN_OR_RETURN(auto journal, hudi::journal<posix_storage>::open(*table->storage, path));
  table->journal.emplace(std::move(journal));
  LAKEGC_ASSIGN_OR_RETURN(table->metadata, table->journal->load());
  return table;
}

/// The metadata as a reader at `as_of` saw it: instants requested at or
/// before it (their metadata filtered by the same timeline when the view
/// is built), so later replacecommits and compactions do not apply.
inline TableMetadata metadata_as_of(const TableMetadata& md, const InstantTime& as_of) {
  TableMetadata out = md;
  out.timeline = md.timeline.as_of(as_of);
  return out;
}

/// Lists the table's data files into a view against `md`.
[[nodiscard]] inline StatusOr<TableView> list_view(Table& table, const TableMetadata& md, bool show_progress,
                                                   FileSizes sizes = FileSizes::from_listing) {
  listing_progress progress(show_progress);
  progress_storage<posix_storage> storage(*table.storage, progress);
  return load_view(storage, md, sizes);
}

}  // namespace lakegc::cli
