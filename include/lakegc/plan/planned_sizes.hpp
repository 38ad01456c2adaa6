// File: lakegc/plan/planned_sizes.hpp
// -----------------------------------------------------------------------------
// Sizes of the files a clean plan deletes, for a plan made from a view
// listed without attributes (load_view's FileSizes::not_needed). Planning
// reads names only; a size is only reported (the plan's bytes, the
// executor's bytes deleted), never decides anything. A stat per listed file
// was most of a POSIX listing's time; a plan first takes the sizes of base
// files from the commit metadata that names them (sizes_from_commits), then
// makes a stat per planned file still unknown (stat_unknown_sizes).
//
// Why commit metadata may be trusted for base files and not for logs: a
// base file is written once, under a name no other write reuses, and the
// write stat that names it records its size once closed (Hudi's
// fileSizeInBytes). A log file of a table of version 6 or older may be
// appended to by later delta commits, so the size a commit recorded can be
// stale; logs are always stat'ed. The tool's corpus test
// (tests/corpus/tool/plan_corpus_test.cpp) checks these sizes against a
// listing's on every real Spark-written table it is given.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <absl/status/status.h>

#include "lakegc/core/file_name.hpp"
#include "lakegc/core/name_hash.hpp"
#include "lakegc/core/named_files_index.hpp"
#include "lakegc/core/status.hpp"
#include "lakegc/core/table_metadata.hpp"
#include "lakegc/plan/clean_plan.hpp"
#include "lakegc/storage/path.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc {

/// Gives every planned base file whose size is FileEntry::kUnknownSize the
/// size the completed commit that wrote it recorded (see the file comment;
/// log files are left alone). Returns the number of sizes filled in.
inline std::size_t sizes_from_commits(CleanPlan& plan, const TableMetadata& md) {
  std::shared_ptr<const NamedFilesIndex> own;
  const NamedFilesIndex& index = current_named_files(md, own);
  std::vector<const CommitInfo*> by_ordinal;
  by_ordinal.reserve(md.commits.size());
  for (const auto& [t, info] : md.commits) by_ordinal.push_back(&info);

  std::size_t filled = 0;
  NameViewMap<std::uint64_t> sizes;  // base file name -> size, one partition
  for (const auto& [partition, files] : plan.files_per_partition) {
    const auto runs = index.by_partition.find(absl::string_view(partition.data(), partition.size()));
    if (runs == index.by_partition.end()) continue;
    sizes.clear();
    for (const NamedFilesIndex::Run& run : runs->second) {
      if (run.commit >= by_ordinal.size()) continue;
      const FileList& named = by_ordinal[run.commit]->files;
      for (std::size_t i = run.begin; i < run.end && i < named.size(); ++i) {
        // An index that does not fit is ignored file by file: a size left
        // unknown is asked of the storage.
        if (named[i].partition != partition) continue;
        sizes.insert_or_assign(std::string_view(named[i].name), named[i].size);
      }
    }
    for (PlannedDelete& f : files) {
      if (f.size != FileEntry::kUnknownSize) continue;
      const std::string_view name = f.name;
      const auto parsed = scan_data_file_name(name);
      if (!parsed || parsed->is_log) continue;
      if (const auto it = sizes.find(name); it != sizes.end()) {
        f.size = it->second;
        ++filled;
      }
    }
  }
  return filled;
}

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
  for (const auto& [partition, files] : plan.files_per_partition) {
    for (PlannedDelete& f : files) {
      if (f.size != FileEntry::kUnknownSize) continue;
      unknown.push_back(&f);
      paths.push_back(join_path(partition, f.name));
      if (paths.size() == kChunk) LAKEGC_RETURN_IF_ERROR(flush());
    }
  }
  LAKEGC_RETURN_IF_ERROR(flush());
  return stats;
}

/// How the sizes of a plan's files were found.
struct PlannedSizes {
  std::size_t from_commits = 0;  // base files, from the commit that wrote them
  std::size_t stats = 0;         // a stat each
};

/// sizes_from_commits, then stat_unknown_sizes for the rest.
template <ReadableStorage S>
[[nodiscard]] StatusOr<PlannedSizes> fill_planned_sizes(S& storage, CleanPlan& plan, const TableMetadata& md) {
  PlannedSizes out;
  out.from_commits = sizes_from_commits(plan, md);
  LAKEGC_ASSIGN_OR_RETURN(out.stats, stat_unknown_sizes(storage, plan));
  return out;
}

}  // namespace lakegc
