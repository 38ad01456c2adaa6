// File: lakegc/exec/clean_executor.hpp
// -----------------------------------------------------------------------------
// Carries out a persisted clean plan: requested -> inflight -> completed.
//
// * Rolls forward only. A pending clean is always finished from its plan,
//   never rolled back; running a finished plan again deletes nothing more.
// * A file that is already gone counts as deleted (Hudi PR 18034: otherwise
//   the same files are re-planned forever).
// * A delete that fails while the file still exists leaves the clean
//   inflight and returns the error (HUDI-7655), so the next run retries.
// * Only paths the plan names are touched, and every path is checked to be
//   relative and inside the table root before the storage sees it.
// * A partition in partitionsToBeDeleted loses its partition metadata file
//   and directory only when nothing else is left in it: lakegc never deletes
//   a file the plan does not name (Hudi deletes the directory recursively).
#pragma once

#include <algorithm>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "lakegc/core/load_view.hpp"
#include "lakegc/exec/journal.hpp"
#include "lakegc/exec/table_lock.hpp"
#include "lakegc/storage/path.hpp"

namespace lakegc {

struct CleanProgress {
  std::size_t files_done = 0;
  std::size_t files_total = 0;
};

struct ExecuteOptions {
  /// Paths per remove_batch call.
  std::size_t batch_size = 1000;
  /// Called after each batch.
  std::function<void(const CleanProgress&)> progress;
  /// The table's lock, held while a clean is scheduled and while it is
  /// completed (exec/table_lock.hpp); none when no other writer can run.
  const TableLock* lock = nullptr;
  /// Called under the lock after the deletes, just before the clean
  /// completes, with its metadata: where a table format records the clean
  /// elsewhere first (Hudi's metadata table: CleanActionExecutor.runClean
  /// writes it before completing the clean; hudi/metadata_table/clean_update.hpp).
  /// An error leaves the clean inflight, so the next run finishes it.
  std::function<Status(const InstantTime&, const CompletedClean&)> before_complete;
};

/// What one executed clean did.
struct CleanOutcome {
  InstantTime instant;
  std::uint64_t files_deleted = 0;       // removed by this run
  std::uint64_t files_already_gone = 0;  // counted as success
  std::uint64_t bytes_deleted = 0;       // planned sizes of the files removed by this run
  std::uint64_t partitions_deleted = 0;
  CompletedClean metadata;
};

template <Storage S, Journal J>
[[nodiscard]] StatusOr<CleanOutcome> execute_clean(S& storage, J& journal, const InstantTime& instant,
                                                   const CleanPlan& plan, const ExecuteOptions& options = {}) {
  CleanOutcome out;
  out.instant = instant;
  // Check every path before the first delete (and before the clean goes
  // inflight): a plan naming one path outside the root deletes nothing.
  for (const auto& [partition, files] : plan.files_per_partition) {
    for (const PlannedDelete& f : files) {
      // A planned file is a name inside its partition, never a path: with
      // the root partition "", `.hoodie/hoodie.properties` would otherwise
      // pass the root check.
      if (f.name.find('/') != std::string_view::npos) {
        return absl::InvalidArgumentError(
            fmt::format("clean {}: partition '{}' names '{}', a path, not a file name", instant, partition, f.name));
      }
      LAKEGC_RETURN_IF_ERROR(
          detail::check_relative_path(join_path(partition, f.name), fmt::format("clean {}", instant)));
    }
  }
  for (const std::string& partition : plan.partitions_to_be_deleted) {
    LAKEGC_RETURN_IF_ERROR(detail::check_relative_path(partition, fmt::format("clean {}", instant)));
  }
  LAKEGC_RETURN_IF_ERROR(annotate(journal.start_clean(instant), fmt::format("clean {}", instant)));

  CompletedClean& md = out.metadata;
  md.start_clean_time = instant;
  md.earliest_commit_to_retain = plan.earliest_instant_to_retain;
  md.last_completed_commit_timestamp = plan.last_completed_commit_timestamp;
  md.policy = plan.policy;
  md.extra_metadata = plan.extra_metadata;

  CleanProgress progress;
  progress.files_total = plan.file_count();
  std::vector<std::string> batch;
  std::vector<const PlannedDelete*> batch_files;
  const std::size_t batch_size = std::max<std::size_t>(options.batch_size, 1);

  for (const auto& [partition, files] : plan.files_per_partition) {
    CleanPartitionResult& result = md.partitions[std::string(partition)];
    for (std::size_t start = 0; start < files.size(); start += batch_size) {
      batch.clear();
      batch_files.clear();
      for (std::size_t i = start; i < std::min(files.size(), start + batch_size); ++i) {
        std::string path = join_path(partition, files[i].name);
        if (Status st = detail::check_relative_path(path, fmt::format("clean {}", instant)); !st.ok()) {
          return st;
        }
        batch.push_back(std::move(path));
        batch_files.push_back(&files[i]);
      }
      const std::vector<Status> statuses = storage.remove_batch(batch);
      for (std::size_t i = 0; i < batch.size(); ++i) {
        const Status& st = statuses[i];
        if (st.ok()) {
          ++out.files_deleted;
          out.bytes_deleted += batch_files[i]->size;
          result.success.push_back(std::string(batch_files[i]->name));
        } else if (absl::IsNotFound(st)) {
          ++out.files_already_gone;
          result.success.push_back(std::string(batch_files[i]->name));
        } else {
          // Did it go anyway? Only a file that is still there fails the clean.
          auto still = storage.stat(batch[i]);
          if (!still.ok() && absl::IsNotFound(still.status())) {
            ++out.files_already_gone;
            result.success.push_back(std::string(batch_files[i]->name));
            continue;
          }
          return annotate(st,
                          fmt::format("clean {} could not delete '{}' (the clean stays inflight)", instant, batch[i]));
        }
      }
      progress.files_done += batch.size();
      if (options.progress) options.progress(progress);
    }
  }

  for (const std::string& partition : plan.partitions_to_be_deleted) {
    // Remove the partition only when the plan emptied it.
    bool other_files = false;
    std::vector<std::string> markers;
    ListOptions opts;
    opts.recursive = true;
    Status st = storage.list(
        partition,
        [&](const FileEntry& e) {
          const auto slash = e.path.rfind('/');
          const std::string_view name = slash == std::string_view::npos ? e.path : e.path.substr(slash + 1);
          const std::string_view dir = slash == std::string_view::npos ? std::string_view() : e.path.substr(0, slash);
          if (dir == partition && is_partition_metadata_file(name)) {
            markers.emplace_back(e.path);
          } else {
            other_files = true;
          }
        },
        opts);
    CleanPartitionResult& result = md.partitions[partition];
    if (absl::IsNotFound(st)) {
      result.partition_deleted = true;  // already gone
      continue;
    }
    LAKEGC_RETURN_IF_ERROR(annotate(st, fmt::format("clean {}: listing partition '{}'", instant, partition)));
    if (other_files) continue;
    // The partition metadata file also by the names it can have: a listing
    // cut short (paginated, eventually consistent) that shows nothing must
    // not leave it behind a partition this clean reports deleted (the
    // simulator's seed 7417; Hudi deletes the directory recursively).
    for (std::size_t form = 0; form <= kPartitionMetadataExtensions.size(); ++form) {
      std::string path = join_path(partition, kPartitionMetadataFile);
      if (form > 0) path += kPartitionMetadataExtensions[form - 1];
      if (std::find(markers.begin(), markers.end(), path) == markers.end() && storage.stat(path).ok()) {
        markers.push_back(std::move(path));
      }
    }
    for (const std::string& m : markers) {
      Status rm = storage.remove(m);
      if (!rm.ok() && !absl::IsNotFound(rm)) return annotate(rm, fmt::format("clean {}", instant));
    }
    (void)storage.remove(partition);  // the empty directory, where directories exist
    result.partition_deleted = true;
    ++out.partitions_deleted;
  }

  for (const auto& [p, r] : md.partitions) md.total_files_deleted += r.success.size();
  md.bytes_deleted = out.bytes_deleted;
  // Completing is a state change: under the table's lock, as Hudi does.
  TableLockHold hold(options.lock);
  LAKEGC_RETURN_IF_ERROR(annotate(hold.status(), fmt::format("clean {}: taking the table lock to complete", instant)));
  if (options.before_complete) {
    LAKEGC_RETURN_IF_ERROR(
        annotate(options.before_complete(instant, md), fmt::format("clean {} (the clean stays inflight)", instant)));
  }
  LAKEGC_RETURN_IF_ERROR(annotate(journal.complete_clean(instant, md), fmt::format("clean {}", instant)));
  LAKEGC_RETURN_IF_ERROR(annotate(hold.release(), fmt::format("clean {}: releasing the table lock", instant)));
  return out;
}

}  // namespace lakegc
