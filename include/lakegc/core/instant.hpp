// File: lakegc/core/instant.hpp
// -----------------------------------------------------------------------------
// One entry of a table's timeline: an action at a requested time, in a state,
// with a completion time once completed.
//
// Completed compactions and log compactions carry the action they complete
// as (commit, deltacommit) and completed clusterings are replacecommits, as
// in Hudi: the timeline shows what the instant *is* now.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "lakegc/core/instant_time.hpp"
#include "lakegc/core/status.hpp"

namespace lakegc {

enum class Action : std::uint8_t {
  commit,
  deltacommit,
  replacecommit,
  clustering,
  compaction,
  logcompaction,
  clean,
  rollback,
  savepoint,
  restore,
  indexing,
  schemacommit,
};

enum class State : std::uint8_t { requested, inflight, completed };

namespace detail {
inline constexpr std::array<std::string_view, 12> kActionNames = {
    "commit", "deltacommit", "replacecommit", "clustering", "compaction", "logcompaction",
    "clean",  "rollback",    "savepoint",     "restore",    "indexing",   "schemacommit"};
inline constexpr std::array<std::string_view, 3> kStateNames = {"requested", "inflight", "completed"};
}  // namespace detail

constexpr std::string_view to_string(Action a) noexcept { return detail::kActionNames[static_cast<int>(a)]; }
constexpr std::string_view to_string(State s) noexcept { return detail::kStateNames[static_cast<int>(s)]; }

/// Parses a timeline action name ("commit", "deltacommit", ...).
[[nodiscard]] inline StatusOr<Action> parse_action(std::string_view name) {
  for (std::size_t i = 0; i < detail::kActionNames.size(); ++i) {
    if (detail::kActionNames[i] == name) return static_cast<Action>(i);
  }
  return absl::InvalidArgumentError(fmt::format("unknown timeline action '{}'", name));
}

/// Actions that write data files and count as "commits" for retention once
/// completed (Hudi's commitsTimeline: commit, deltacommit, replacecommit).
constexpr bool is_commit_action(Action a) noexcept {
  return a == Action::commit || a == Action::deltacommit || a == Action::replacecommit;
}

/// Actions of Hudi's write timeline, pending or not: the commit actions plus
/// the table services that write files (compaction, log compaction,
/// clustering). Their pending instants clamp the cleaner's boundary.
constexpr bool is_write_action(Action a) noexcept {
  return is_commit_action(a) || a == Action::compaction || a == Action::logcompaction || a == Action::clustering;
}

struct Instant {
  InstantTime requested;
  /// Completion time: set for completed instants of layout-2 timelines (and
  /// layout-1 ones when the loader knows it); empty otherwise.
  std::optional<InstantTime> completed;
  Action action = Action::commit;
  State state = State::requested;

  constexpr bool is_completed() const noexcept { return state == State::completed; }
  constexpr bool is_pending() const noexcept { return state != State::completed; }
  /// The time this instant completed, or its requested time where the
  /// timeline does not record completion (layout 1 orders by requested time).
  InstantTime completion_or_requested() const noexcept { return completed.value_or(requested); }

  friend bool operator==(const Instant&, const Instant&) = default;
};

}  // namespace lakegc

template <>
struct fmt::formatter<lakegc::Instant> : fmt::formatter<std::string_view> {
  template <typename FormatContext>
  auto format(const lakegc::Instant& i, FormatContext& ctx) const {
    std::string s = fmt::format("{}{}.{} [{}]", i.requested, i.completed ? "_" + i.completed->str() : std::string(),
                                lakegc::to_string(i.action), lakegc::to_string(i.state));
    return fmt::formatter<std::string_view>::format(s, ctx);
  }
};
