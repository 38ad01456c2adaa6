// File: lakegc/plan/archive_keep_counts.hpp
// -----------------------------------------------------------------------------
// How many commits Hudi's archiver keeps: hoodie.keep.min.commits and
// hoodie.keep.max.commits, raised so that archival never passes what the
// cleaner still needs (ArchivalUtils.getMinAndMaxInstantsToKeep, Hudi 1.2.0).
//
// The cleaner's earliest commit to retain is recomputed here as
// ArchivalUtils does it, which is not the clean planner's computation:
//
// * CleanerUtils.getEarliestCommitToRetain over the active timeline's
//   commits timeline (commit, deltacommit, replacecommit, clustering in any
//   state), with no previous clean and no max.commits.to.clean cap;
// * KEEP_LATEST_COMMITS n: the n-th completed commit from the end (requested
//   order), or, when a pending commit/deltacommit/replacecommit/clustering
//   comes before it, the last completed commit before that pending one
//   (none: no earliest commit, no raise). Pending compactions do not count;
// * KEEP_LATEST_BY_HOURS h: the first completed commit requested at or after
//   the newest completed commit's requested time minus h hours. Hudi parses
//   and formats that time in the JVM's zone (parseDateFromInstantTime,
//   formatDate: ZoneId.systemDefault()), not the table's; so does lakegc
//   (TimelineTimezone::local), the clock is never read;
// * KEEP_LATEST_FILE_VERSIONS: none.
//
// Then, when keep.min < (completed commits after that commit) + 2, keep.min
// becomes that number and keep.max rises by as much.
#pragma once

#include <cstdint>
#include <optional>

#include "lakegc/core/table_metadata.hpp"
#include "lakegc/policy/archive_config.hpp"

namespace lakegc {

struct ArchiveKeepCounts {
  std::int32_t min_keep = 0;
  std::int32_t max_keep = 0;
  /// The cleaner's earliest commit to retain as ArchivalUtils computes it.
  std::optional<InstantTime> cleaner_ectr;
  /// Completed commits after it, plus 2: what keep.min must reach.
  std::optional<std::int64_t> needed_by_cleaner;
  bool raised = false;
};

namespace detail {

// Hudi's commitsTimeline actions (BaseTimelineV1/V2.getCommitsTimeline).
inline bool in_commits_timeline(Action a) noexcept {
  return a == Action::commit || a == Action::deltacommit || a == Action::replacecommit || a == Action::clustering;
}

inline std::optional<InstantTime> archival_cleaner_ectr(const TableMetadata& md, const ArchiveSettings& s) {
  const auto completed = md.timeline.completed_commits();
  if (s.cleaner_policy == CleanerPolicyKind::keep_latest_commits) {
    const std::size_t n = s.cleaner_commits_retained;
    if (completed.size() <= n) return std::nullopt;
    const Instant* nth = completed[completed.size() - n];
    const Instant* pending = nullptr;
    for (const Instant& i : md.timeline.instants()) {
      if (i.is_pending() && in_commits_timeline(i.action)) {
        pending = &i;
        break;
      }
    }
    if (pending == nullptr || nth->requested <= pending->requested) return nth->requested;
    std::optional<InstantTime> before;
    for (const Instant* c : completed) {
      if (c->requested < pending->requested) before = c->requested;
    }
    return before;
  }
  if (s.cleaner_policy == CleanerPolicyKind::keep_latest_by_hours) {
    if (completed.empty()) return std::nullopt;  // Hudi uses Instant.now(); nothing to archive then
    auto latest_ms = completed.back()->requested.to_epoch_ms(TimelineTimezone::local);
    if (!latest_ms.ok()) return std::nullopt;  // Hudi: ParseException caught, no earliest commit
    const InstantTime cutoff = InstantTime::from_epoch_ms(
        *latest_ms - static_cast<std::int64_t>(s.cleaner_hours_retained) * 3'600'000, TimelineTimezone::local);
    for (const Instant* c : completed) {
      if (!(c->requested < cutoff)) return c->requested;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace detail

inline ArchiveKeepCounts archive_keep_counts(const TableMetadata& md, const ArchiveSettings& s) {
  ArchiveKeepCounts k;
  k.min_keep = s.min_commits;
  k.max_keep = s.max_commits;
  k.cleaner_ectr = detail::archival_cleaner_ectr(md, s);
  if (!k.cleaner_ectr) return k;
  std::int64_t after = 0;
  for (const Instant* c : md.timeline.completed_commits()) after += *k.cleaner_ectr < c->requested ? 1 : 0;
  k.needed_by_cleaner = after + 2;
  if (s.min_commits < *k.needed_by_cleaner) {
    k.max_keep = static_cast<std::int32_t>(*k.needed_by_cleaner + s.max_commits - s.min_commits);
    k.min_keep = static_cast<std::int32_t>(*k.needed_by_cleaner);
    k.raised = true;
  }
  return k;
}

}  // namespace lakegc
