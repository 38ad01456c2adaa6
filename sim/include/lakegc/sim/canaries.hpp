// File: lakegc/sim/canaries.hpp
// -----------------------------------------------------------------------------
// Canaries: policies known to be unsafe. A checker that never fails proves
// nothing, so the canary test runs each of these through the simulator and
// asserts that a violation is found within a bounded number of seeds
// (TigerBeetle's `canary` fuzzer does the same for its harness).
//
// * hours_8584: KEEP_LATEST_BY_HOURS as Hudi had it before 0.14.1 (issue
//   8584): the newest slice before the boundary is deleted, so a query
//   pinned just before the boundary loses its files. Built by wrapping the
//   real rule and flipping Retention::keep_newest_before_boundary.
// * no_pending_guard: KEEP_LATEST_COMMITS without
//   guard::pending_table_services (the ECTR clamp goes with it): a pending
//   compaction's input slice can be deleted.
// * no_savepoint_guard: KEEP_LATEST_COMMITS without guard::savepoints:
//   savepointed files can be deleted.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "lakegc/policy/cleaning.hpp"
#include "lakegc/sim/any_policy.hpp"
#include "lakegc/sim/swarm.hpp"

namespace lakegc::sim {

/// A retention rule that answers like `R` but drops the newest slice before
/// the boundary: the pre-0.14.1 behaviour of KEEP_LATEST_BY_HOURS.
template <RetentionRule R>
struct drops_newest_before_boundary {
  static constexpr bool is_retention_rule = true;
  R rule;
  static std::string hudi_name() { return R::hudi_name(); }
  Retention retention(const RetentionContext& ctx) const {
    Retention r = rule.retention(ctx);
    r.keep_newest_before_boundary = false;
    return r;
  }
};

enum class Canary : std::uint8_t { none, hours_8584, no_pending_guard, no_savepoint_guard };

inline constexpr std::array<Canary, 3> kCanaries = {Canary::hours_8584, Canary::no_pending_guard,
                                                    Canary::no_savepoint_guard};

constexpr std::string_view to_string(Canary c) noexcept {
  switch (c) {
    case Canary::none: return "none";
    case Canary::hours_8584: return "hours-8584";
    case Canary::no_pending_guard: return "no-pending-guard";
    case Canary::no_savepoint_guard: return "no-savepoint-guard";
  }
  return "?";
}

inline std::optional<Canary> parse_canary(std::string_view s) {
  for (Canary c : {Canary::none, Canary::hours_8584, Canary::no_pending_guard, Canary::no_savepoint_guard}) {
    if (to_string(c) == s) return c;
  }
  return std::nullopt;
}

/// Makes sure the hazard a canary attacks exists in its runs: a pending
/// compaction (MOR with compaction on) for the pending-guard canary,
/// savepoints for the savepoint canary. Everything else stays as the seed
/// drew it.
inline void focus_swarm(Canary c, SwarmConfig& s) {
  if (c == Canary::no_pending_guard) {
    s.type = TableType::mor;
    s.compaction = true;
  }
  if (c == Canary::no_savepoint_guard) s.savepoints = true;
}

/// The canary policy, with the swarm's knobs (commits retained, hours).
inline any_policy make_canary_policy(Canary c, std::uint32_t commits, std::uint32_t hours) {
  switch (c) {
    case Canary::hours_8584:
      return any_policy(cleaning(drops_newest_before_boundary<keep_by_hours>{keep_by_hours{hours}}, guard::savepoints,
                                 guard::pending_table_services, scope::incremental),
                        fmt::format("canary hours-8584 (KEEP_LATEST_BY_HOURS h={} dropping the newest slice "
                                    "before the boundary)",
                                    hours));
    case Canary::no_pending_guard:
      return any_policy(
          cleaning(keep_latest_commits{commits}, guard::savepoints, unguarded, scope::incremental),
          fmt::format("canary no-pending-guard (KEEP_LATEST_COMMITS n={} without pending_table_services)", commits));
    case Canary::no_savepoint_guard:
      return any_policy(
          cleaning(keep_latest_commits{commits}, guard::pending_table_services, unguarded, scope::incremental),
          fmt::format("canary no-savepoint-guard (KEEP_LATEST_COMMITS n={} without savepoints)", commits));
    case Canary::none: break;
  }
  return any_policy(default_cleaning());
}

}  // namespace lakegc::sim
