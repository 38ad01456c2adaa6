// File: lakegc/exec/delete_tally.hpp
// -----------------------------------------------------------------------------
// One rule for every executor that removes files: a file removed counts with
// its bytes, a file already gone counts as success (a retry after a crash,
// or another process got there first), anything else is an error naming the
// path, and the caller stops.
#pragma once

#include <cstdint>
#include <string_view>

#include <fmt/format.h>

#include "lakegc/core/status.hpp"

namespace lakegc {

struct DeleteTally {
  std::uint64_t files_deleted = 0;
  std::uint64_t files_already_gone = 0;
  std::uint64_t bytes_deleted = 0;

  /// Records the result of removing `path` (`size` bytes). Returns OK for a
  /// removal or NotFound, else the error with `what` and the path.
  [[nodiscard]] Status record(const Status& removed, std::string_view path, std::uint64_t size, std::string_view what) {
    if (removed.ok()) {
      ++files_deleted;
      bytes_deleted += size;
      return absl::OkStatus();
    }
    if (absl::IsNotFound(removed)) {
      ++files_already_gone;
      return absl::OkStatus();
    }
    return annotate(removed, fmt::format("{}: deleting '{}'", what, path));
  }
};

}  // namespace lakegc
