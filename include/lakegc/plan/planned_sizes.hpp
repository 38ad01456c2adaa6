// File: lakegc/plan/planned_sizes.hpp
// -----------------------------------------------------------------------------
// Sizes of the files a clean plan deletes, for a plan made from a view
// listed without attributes (load_view's FileSizes::not_needed). Planning
// reads names only; a size is only reported (the plan's bytes, the
// executor's bytes deleted). A stat per listed file was most of a POSIX
// listing's time; this makes a stat per planned file instead, and a steady
// table deletes a small part of its files per clean.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include <absl/status/status.h>

#include "lakegc/core/status.hpp"
#include "lakegc/plan/clean_plan.hpp"
#include "lakegc/storage/path.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc {

/// Gives every planned file whose size is FileEntry::kUnknownSize its size
/// from `storage.stat`. A file gone since the listing gets size 0 (its
/// deletion frees nothing; the executor counts it as already gone). Returns
/// the number of stats made; any other stat error is returned, naming the
/// file.
template <ReadableStorage S>
[[nodiscard]] StatusOr<std::size_t> stat_unknown_sizes(S& storage, CleanPlan& plan) {
  // In chunks: a plan may hold millions of files, and each answer carries
  // its path.
  constexpr std::size_t kChunk = 4096;
  std::vector<PlannedDelete*> unknown;
  std::vector<std::string> paths;
  std::size_t stats = 0;
  auto flush = [&]() -> Status {
    std::vector<StatusOr<FileInfo>> infos;
    // A storage that can stat many files at once (posix_storage walks to a
    // partition once for all its files) does.
    if constexpr (requires { storage.stat_batch(std::span<const std::string>(paths)); }) {
      infos = storage.stat_batch(std::span<const std::string>(paths));
    } else {
      infos.reserve(paths.size());
      for (const std::string& p : paths) infos.push_back(storage.stat(p));
    }
    for (std::size_t i = 0; i < unknown.size(); ++i) {
      if (infos[i].ok()) {
        unknown[i]->size = infos[i]->size;
      } else if (absl::IsNotFound(infos[i].status())) {
        unknown[i]->size = 0;
      } else {
        return annotate(infos[i].status(), "reading the size of planned file " + paths[i]);
      }
    }
    stats += unknown.size();
    unknown.clear();
    paths.clear();
    return Status();
  };
  for (auto& [partition, files] : plan.files_per_partition) {
    for (PlannedDelete& f : files) {
      if (f.size != FileEntry::kUnknownSize) continue;
      unknown.push_back(&f);
      paths.push_back(join_path(partition, f.name.view()));
      if (paths.size() == kChunk) LAKEGC_RETURN_IF_ERROR(flush());
    }
  }
  LAKEGC_RETURN_IF_ERROR(flush());
  return stats;
}

}  // namespace lakegc
