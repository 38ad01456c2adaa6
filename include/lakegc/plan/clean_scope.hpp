// File: lakegc/plan/clean_scope.hpp
// -----------------------------------------------------------------------------
// Which partitions a clean scans (docs/hudi-rules.md §7):
//
//   boundary absent                       -> nothing
//   incremental, and the previous clean   -> partitions written or replaced
//   is usable (it has a boundary, that       by completed commits requested in
//   boundary is not archived, every          [previous boundary, new boundary)
//   savepoint it recorded still exists,
//   and no commit requested before that
//   boundary that completed after that
//   clean has been archived)
//   otherwise                             -> every partition, narrowed by the
//                                            partition filter if any
//
// incremental_blocker() names the first reason a clean cannot be incremental.
//
// The incremental windows tile the timeline, so each partition is rescanned
// when an older slice in it can have become deletable. Two cases fall
// outside every window and are added (both found by the simulator's
// convergence check, I6): a commit the hours boundary passed while it was
// still running (that rule does not wait for pending writes), once it has
// completed; and partitions where a reader lease kept a slice the previous
// clean would have deleted, or that it skipped for an incomplete listing
// (both recorded in its extraMetadata).
#pragma once

#include <algorithm>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/table_metadata.hpp"
#include "lakegc/core/table_view.hpp"
#include "lakegc/policy/retention.hpp"
#include "lakegc/policy/scope.hpp"

namespace lakegc {

enum class ScanKind : std::uint8_t { none, incremental, full };

constexpr std::string_view to_string(ScanKind k) noexcept {
  return k == ScanKind::none ? "none" : k == ScanKind::incremental ? "incremental" : "full";
}

struct CleanScope {
  ScanKind kind = ScanKind::none;
  /// Why a full scan was chosen where incremental was asked for.
  std::string fallback_reason;
  /// Indices into view.partitions(), ascending.
  std::vector<std::uint32_t> partitions;
};

/// Whether the previous clean can anchor an incremental clean; the reason
/// when it cannot.
inline std::optional<std::string> incremental_blocker(const TableMetadata& md) {
  const auto& prev = md.last_completed_clean;
  if (!prev) return "no completed clean";
  if (!prev->earliest_commit_to_retain) return "previous clean has no earliest commit to retain";
  const auto commits = md.timeline.completed_commits();
  if (commits.empty() || *prev->earliest_commit_to_retain < commits.front()->requested) {
    return "previous clean's earliest commit to retain is archived";
  }
  for (const InstantTime& sp : prev->savepointed_timestamps) {
    const bool still = std::any_of(md.savepoints.begin(), md.savepoints.end(),
                                   [&](const SavepointInfo& s) { return s.instant == sp; });
    if (!still) return "a savepoint recorded by the previous clean was deleted";
  }
  // A commit requested before the previous boundary that completed after the
  // previous clean is scanned by the next incremental clean (below), from its
  // commit metadata. Archived before that clean, it took its partitions with
  // it: only a full scan is sure to revisit them (found by the schedule_fast
  // fuzzer, I6: a compaction that completed after a clean and was archived
  // before the next one left its superseded slice behind for good). Where
  // the archive cannot be read such a commit is missed, as in Hudi.
  const InstantTime& from = *prev->earliest_commit_to_retain;
  for (auto it = md.archived_completions.begin(); it != md.archived_completions.end() && it->first < from; ++it) {
    if (prev->instant < it->second) {
      return fmt::format("commit {} completed after the previous clean and is archived: its partitions are unknown",
                         it->first.str());
    }
  }
  return std::nullopt;
}

/// Computes the partitions to scan. An invalid partition regex is an error
/// naming it.
[[nodiscard]] inline StatusOr<CleanScope> compute_clean_scope(const TableView& view, const TableMetadata& md,
                                                              const Retention& retention,
                                                              const ScopeSettings& settings) {
  CleanScope scope;
  const bool boundary_only = retention.has_boundary && !retention.versions;
  if (boundary_only && !retention.ectr) return scope;  // nothing to clean yet

  auto index_of = [&](const std::string& path) -> std::optional<std::uint32_t> {
    const auto parts = view.partitions();
    auto it = std::lower_bound(parts.begin(), parts.end(), path,
                               [](const Partition& p, const std::string& v) { return p.path < v; });
    if (it == parts.end() || it->path != path) return std::nullopt;
    return static_cast<std::uint32_t>(it - parts.begin());
  };

  if (settings.incremental && boundary_only) {
    auto blocker = incremental_blocker(md);
    if (!blocker) {
      scope.kind = ScanKind::incremental;
      const InstantTime from = *md.last_completed_clean->earliest_commit_to_retain;
      const InstantTime to = *retention.ectr;
      std::set<std::uint32_t> picked;
      auto pick_partitions_of = [&](const CommitInfo& c) {
        for (const auto& p : c.partitions_written) {
          if (auto i = index_of(p)) picked.insert(*i);
        }
        for (const auto& r : c.replaced) {
          if (auto i = index_of(r.partition)) picked.insert(*i);
        }
      };
      // Partitions where a reader lease kept what the previous clean would
      // have deleted: no commit in the window need bring the clean back
      // there once the lease is released.
      for (const auto& p : md.last_completed_clean->lease_vetoed_partitions) {
        if (auto i = index_of(p)) picked.insert(*i);
      }
      // Partitions the previous clean skipped because their listing was
      // incomplete (listing_check.hpp): planned again now.
      for (const auto& p : md.last_completed_clean->listing_skipped_partitions) {
        if (auto i = index_of(p)) picked.insert(*i);
      }
      // A commit requested before the previous boundary that completed after
      // the previous clean falls in no window: keep_by_hours does not clamp
      // its boundary to pending writes, so the boundary can pass a write,
      // compaction or clustering that is still running (found by the
      // simulator's convergence check, I6). Scan its partitions now. Needs
      // completion times (layout 2); without them such a commit is missed,
      // as in Hudi.
      const InstantTime& prev_clean = md.last_completed_clean->instant;
      for (auto it = md.commits.begin(); it != md.commits.end() && it->first < from; ++it) {
        const Instant* i = md.timeline.find(it->first);
        if (i == nullptr || !i->is_completed() || !is_commit_action(i->action) || !i->completed) continue;
        if (prev_clean < *i->completed) pick_partitions_of(it->second);
      }
      for (auto it = md.commits.lower_bound(from); it != md.commits.end() && it->first < to; ++it) {
        if (md.timeline.is_completed_commit(it->first)) pick_partitions_of(it->second);
      }
      scope.partitions.assign(picked.begin(), picked.end());
      return scope;
    }
    scope.fallback_reason = *blocker;
  }

  scope.kind = ScanKind::full;
  const auto parts = view.partitions();
  if (!settings.selected_partitions.empty()) {
    std::set<std::uint32_t> picked;
    for (const auto& p : settings.selected_partitions) {
      if (auto i = index_of(p)) picked.insert(*i);
    }
    scope.partitions.assign(picked.begin(), picked.end());
  } else if (!settings.partition_regex.empty()) {
    std::regex re;
    try {
      re = std::regex(settings.partition_regex);
    } catch (const std::regex_error& e) {
      return absl::InvalidArgumentError(fmt::format("hoodie.clean.partition.filter.regex: invalid regex '{}': {}",
                                                    settings.partition_regex, e.what()));
    }
    for (std::uint32_t i = 0; i < parts.size(); ++i) {
      if (std::regex_match(parts[i].path, re)) scope.partitions.push_back(i);
    }
  } else {
    for (std::uint32_t i = 0; i < parts.size(); ++i) scope.partitions.push_back(i);
  }
  return scope;
}

}  // namespace lakegc
