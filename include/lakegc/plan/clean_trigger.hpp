// File: lakegc/plan/clean_trigger.hpp
// -----------------------------------------------------------------------------
// Whether a clean is due (docs/hudi-rules.md §8): Hudi schedules one only
// after `hoodie.clean.trigger.max.commits` (default 1) commits completed
// after the last clean's lastCompletedCommitTimestamp (all completed commits
// when no clean has completed). Before that there is no plan at all, so the
// service and the tool's dry run both ask this one function.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "lakegc/core/table_metadata.hpp"
#include "lakegc/policy/scope.hpp"

namespace lakegc {

/// Commits completed after the last clean's view of the table.
inline std::size_t commits_since_last_clean(const TableMetadata& md) {
  std::size_t n = 0;
  const auto& prev = md.last_completed_clean;
  for (const Instant* c : md.timeline.completed_commits()) {
    if (!prev || !prev->last_completed_commit || c->requested > *prev->last_completed_commit) ++n;
  }
  return n;
}

/// Why no clean is due now, or nothing when one is.
inline std::optional<std::string> clean_not_due(const TableMetadata& md, const ScopeSettings& settings) {
  const std::size_t n = commits_since_last_clean(md);
  const std::uint32_t needed = std::max<std::uint32_t>(settings.trigger_max_commits, 1);
  if (n >= needed) return std::nullopt;
  return fmt::format("{} new commit(s) since the last clean; the trigger needs {}", n, needed);
}

}  // namespace lakegc
