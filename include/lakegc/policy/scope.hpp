// File: lakegc/policy/scope.hpp
// -----------------------------------------------------------------------------
// Scopes say which partitions a clean looks at and when it runs:
//
// * scope::incremental: only partitions written or replaced by commits
//   requested in [previous boundary, new boundary), falling back to a full
//   scan when there is no usable previous clean, its boundary is empty or
//   archived, or a savepoint it recorded is gone (docs/hudi-rules.md §7).
// * scope::partition_filter{selected, regex}: a full scan restricted to some
//   partitions; `selected` wins over `regex` (hoodie.clean.partition.filter.*).
// * scope::max_commits_to_clean{n}: how far one run may move the boundary
//   (hoodie.clean.max.commits.to.clean), so a long backlog drains over runs.
// * scope::empty_clean_interval{hours}: commit an empty clean every so often
//   so append-only tables keep their incremental anchor moving
//   (hoodie.write.empty.clean.interval.hours).
// * scope::trigger_max_commits{n}: schedule a clean only after n new commits
//   (hoodie.clean.trigger.max.commits).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lakegc {

namespace scope {
struct incremental_t {
  static constexpr bool is_scope = true;
};
inline constexpr incremental_t incremental{};

struct partition_filter {
  static constexpr bool is_scope = true;
  std::vector<std::string> selected;
  std::string regex;
};

struct max_commits_to_clean {
  static constexpr bool is_scope = true;
  std::uint64_t commits = 0;
};

struct empty_clean_interval {
  static constexpr bool is_scope = true;
  std::uint32_t hours = 0;
};

struct trigger_max_commits {
  static constexpr bool is_scope = true;
  std::uint32_t commits = 1;
};
}  // namespace scope

/// A policy's scopes, flattened for the planner.
struct ScopeSettings {
  bool incremental = false;
  std::vector<std::string> selected_partitions;
  std::string partition_regex;
  std::uint64_t max_commits_to_clean = 0;  // 0: unlimited
  std::optional<std::uint32_t> empty_clean_interval_hours;
  std::uint32_t trigger_max_commits = 1;
  /// hoodie.clean.multiple.enabled (false since Hudi 0.15): schedule a new
  /// clean while another is pending. When false, a run that finishes a
  /// pending clean schedules no other.
  bool allow_multiple_cleans = false;
};

}  // namespace lakegc
