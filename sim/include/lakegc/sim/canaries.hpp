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
// * replace_unclamped: KEEP_LATEST_COMMITS with reader leases whose
//   boundary passes a replacecommit whose replaced files a guard (a lease)
//   kept: Retention::clamp_to_guarded_replaces = false, via a wrapping rule
//   (ignores_guarded_replaces). Hudi's archiver (archiver.hpp) then
//   archives the replacecommit, since the last clean's earliest instant to
//   retain has passed it, and the replaced group, whose files are still on
//   storage, reads as live again: duplicates in the latest snapshot (I4,
//   checked exactly after every archival).
//
// Two more attack the orphan sweep (sweeper.hpp) rather than the cleaning
// policy, which stays the swarm's; they live entirely in the simulator
// (SweeperKnobs::flaw), the library has no unsafe knob for them:
//
// * orphans_short_cutoff: a one-minute cutoff, forced past the
//   longest-write guard, so shorter than the sweep's own listing. A write
//   that began after the sweep took its metadata snapshot is unknown to it
//   (plan_orphans takes its files for a failed write's), and its first
//   files are older than a minute when the listing reaches them: I3.
// * orphans_ignore_markers: the sweep's snapshot loses pending write
//   instants and markers (a sweep that cannot see in-flight writes, like
//   orphan removal in formats without markers). The swarm is tight (cutoff
//   only longer than the listing, forced past the guard, as tight swarms
//   do) and has writes that outlast the cutoff: the first file of such a
//   write is deleted while it runs: I3. The same swarm with the real
//   snapshot is safe (tight sweeper swarms in every sweep).
//
// * orphans_all_actions_start: the sweep's snapshot starts the timeline at
//   its oldest instant of any action (sweep_flaws.hpp), as lakegc did
//   before issue 11. Archival leaves old clean and rollback instants behind
//   (archiver.hpp), so the files of archived commits, committed data and
//   often the only slice of a live group, look like a failed write's: the
//   latest snapshot loses a file (I4), or a file of a write in flight
//   during the sweep goes (I3).
//
// And one attacks failed-write rollback:
//
// * rollback_eager: EAGER rollback at the start of every write while other
//   writers run (Hudi's EAGER policy with concurrent writers, the reason
//   OCC deployments must use LAZY): a live write's files, named by its
//   markers, are deleted: I3.
//
// And one attacks partition TTL (ttl_service.hpp):
//
// * ttl_ignores_pending_compaction: the TTL run drops expired partitions
//   although a pending compaction or clustering touches them (Hudi's
//   DeletePartitionUtils.checkForPendingTableServiceActions makes such a run
//   a no-op). A compaction that completes afterwards writes into a dropped
//   group, which stays replaced: nothing reads it, and lakegc's cleaner keeps
//   its inputs (guard::pending_table_services covers replaced groups too,
//   where Hudi's CleanPlanner.getReplacedFilesEligibleToClean does not look
//   at pending compactions), so no invariant sees it. A clustering that
//   completes afterwards makes a live group of the dropped rows in the
//   dropped partition: I4 (check_latest_exact: rows a TTL replacecommit
//   dropped read again); or, when the cleaner's boundary passes the
//   replacecommit first, the cleaner deletes the clustering's input (a
//   pending clustering's input in a replaced group is not guarded, in lakegc
//   as in Hudi): I2 after that clean (pending services' inputs), or I1 when
//   the clustering finds it gone. Its swarm has both services pending on the
//   cold partition when the gap ends.
//
// And one attacks archival (archiver.hpp), the cleaning policy staying the
// swarm's:
//
// * archive_ignores_replaced_groups (Hudi issue 6938): the archiver passes
//   the first replacecommit or clustering instant not yet behind the last
//   clean's earliest instant to retain (plan_archive's clustering bound
//   dropped, the library-gap bounds off). The cleaner has not removed the
//   replaced groups' files yet, so once the replacecommit is archived they
//   read as live again: duplicates, I4 (check_latest_exact, after every
//   archival). Its swarm clusters and archives often.
//
// The sweep and rollback canaries, and replace_unclamped, must be caught
// for the right reason (expected_invariants): the first violation is I3
// (I4 or I3 for orphans_all_actions_start; I4 for replace_unclamped; I4 or
// I2 or I1 for ttl_ignores_pending_compaction; I4 for
// archive_ignores_replaced_groups).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lakegc/policy/cleaning.hpp"
#include "lakegc/sim/any_policy.hpp"
#include "lakegc/sim/swarm.hpp"
#include "lakegc/sim/violation.hpp"

namespace lakegc::sim {

/// A retention rule that answers like `R` with one of Retention's safety
/// flags turned off: the canaries' unsafe rules.
template <RetentionRule R, bool Retention::*Flag>
struct with_flag_off {
  static constexpr bool is_retention_rule = true;
  R rule;
  static std::string hudi_name() { return R::hudi_name(); }
  Retention retention(const RetentionContext& ctx) const {
    Retention r = rule.retention(ctx);
    r.*Flag = false;
    return r;
  }
};

/// Answers like `R` but drops the newest slice before the boundary: the
/// pre-0.14.1 behaviour of KEEP_LATEST_BY_HOURS.
template <RetentionRule R>
using drops_newest_before_boundary = with_flag_off<R, &Retention::keep_newest_before_boundary>;

/// Answers like `R` but lets the boundary pass a replacecommit whose
/// replaced files a guard kept (plan_clean's clamp at guarded
/// replacecommits off).
template <RetentionRule R>
using ignores_guarded_replaces = with_flag_off<R, &Retention::clamp_to_guarded_replaces>;

enum class Canary : std::uint8_t {
  none,
  hours_8584,
  no_pending_guard,
  no_savepoint_guard,
  orphans_short_cutoff,
  orphans_ignore_markers,
  rollback_eager,
  orphans_all_actions_start,
  replace_unclamped,
  ttl_ignores_pending_compaction,
  archive_ignores_replaced_groups,
};

inline constexpr std::array<Canary, 10> kCanaries = {Canary::hours_8584,
                                                     Canary::no_pending_guard,
                                                     Canary::no_savepoint_guard,
                                                     Canary::orphans_short_cutoff,
                                                     Canary::orphans_ignore_markers,
                                                     Canary::rollback_eager,
                                                     Canary::orphans_all_actions_start,
                                                     Canary::replace_unclamped,
                                                     Canary::ttl_ignores_pending_compaction,
                                                     Canary::archive_ignores_replaced_groups};

/// Canaries that break the orphan sweep or rollback, not the cleaning
/// policy: their runs keep the swarm's policy.
constexpr bool keeps_swarm_policy(Canary c) noexcept {
  return c == Canary::orphans_short_cutoff || c == Canary::orphans_ignore_markers || c == Canary::rollback_eager ||
         c == Canary::orphans_all_actions_start || c == Canary::ttl_ignores_pending_compaction ||
         c == Canary::archive_ignores_replaced_groups;
}

constexpr std::string_view to_string(Canary c) noexcept {
  switch (c) {
    case Canary::none: return "none";
    case Canary::hours_8584: return "hours-8584";
    case Canary::no_pending_guard: return "no-pending-guard";
    case Canary::no_savepoint_guard: return "no-savepoint-guard";
    case Canary::orphans_short_cutoff: return "orphans-short-cutoff";
    case Canary::orphans_ignore_markers: return "orphans-ignore-markers";
    case Canary::rollback_eager: return "rollback-eager";
    case Canary::orphans_all_actions_start: return "orphans-all-actions-start";
    case Canary::replace_unclamped: return "replace-unclamped";
    case Canary::ttl_ignores_pending_compaction: return "ttl-ignores-pending-compaction";
    case Canary::archive_ignores_replaced_groups: return "archive-ignores-replaced-groups";
  }
  return "?";
}

/// The invariants one of which a canary must break first; empty when any
/// violation counts.
inline std::vector<Invariant> expected_invariants(Canary c) {
  switch (c) {
    case Canary::orphans_short_cutoff:
    case Canary::orphans_ignore_markers:
    case Canary::rollback_eager: return {Invariant::I3_orphan_cutoff};
    case Canary::orphans_all_actions_start: return {Invariant::I4_no_loss, Invariant::I3_orphan_cutoff};
    case Canary::replace_unclamped:
    case Canary::archive_ignores_replaced_groups: return {Invariant::I4_no_loss};
    case Canary::ttl_ignores_pending_compaction:
      return {Invariant::I4_no_loss, Invariant::I2_retention, Invariant::I1_reader_isolation};
    default: return {};
  }
}

/// Whether `first`, the first violation of a run of canary `c`, is one it
/// must break.
inline bool caught_for_the_right_reason(Canary c, Invariant first) {
  const auto expected = expected_invariants(c);
  return expected.empty() || std::find(expected.begin(), expected.end(), first) != expected.end();
}

/// "I4 no loss or I3 orphan cutoff", for messages.
inline std::string expected_text(Canary c) {
  std::string out;
  for (const Invariant i : expected_invariants(c)) {
    if (!out.empty()) out += " or ";
    out += to_string(i);
  }
  return out;
}

inline std::optional<Canary> parse_canary(std::string_view s) {
  if (to_string(Canary::none) == s) return Canary::none;
  for (Canary c : kCanaries) {
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
  if (c == Canary::rollback_eager) {
    s.eager_rollback = true;
    s.writers = std::max<std::uint32_t>(s.writers, 2);  // a rollback needs another writer running
  }
  if (c == Canary::orphans_short_cutoff) {
    s.sweeper.on = true;
    s.sweeper.flaw = SweepFlaw::short_cutoff;
  }
  if (c == Canary::orphans_ignore_markers) {
    s.sweeper.on = true;
    s.sweeper.flaw = SweepFlaw::ignore_markers;
    if (!s.sweeper.tight) {  // tight, as a third of the swarms draw it
      s.sweeper.tight = true;
      s.sweeper.cutoff_ms = s.sweeper.listing_ms + 5 * kMinute + (s.sweeper.cutoff_ms % (25 * kMinute));
    }
    // Writes that can outlast the cutoff (a third of the swarms draw long ones).
    s.write_duration_ms = std::max(s.write_duration_ms, s.sweeper.cutoff_ms + 30 * kMinute);
  }
  if (c == Canary::orphans_all_actions_start) {
    // Archival that leaves non-write instants behind, and sweeps after it.
    s.sweeper.on = true;
    s.sweeper.flaw = SweepFlaw::all_actions_start;
    s.indexing = true;  // a never-archived instant: the hazard in layout 2 as well
    s.archiver = true;
    s.archive_interval_ms = std::min<std::int64_t>(s.archive_interval_ms, kHour);
    s.archive_min_commits = std::min<std::uint32_t>(s.archive_min_commits, 6);
    s.archive_max_commits = s.archive_min_commits + 2;
  }
  if (c == Canary::ttl_ignores_pending_compaction) {
    // A cold partition with groups to compact and cluster, both services
    // left pending by the history (World::write_history) and outlasting
    // the first TTL run after the gap.
    s.ttl.on = true;
    s.ttl.ignore_pending_services = true;
    s.ttl.cold = 1;
    s.ttl.history_commits = std::max<std::uint32_t>(s.ttl.history_commits, 6);
    s.ttl.interval_ms = std::min<std::int64_t>(s.ttl.interval_ms, 30 * kMinute);
    s.insert_percent = std::max<std::uint32_t>(s.insert_percent, 50);
    s.max_groups = std::max<std::uint32_t>(s.max_groups, 8);
    s.type = TableType::mor;
    s.compaction = true;
    s.compaction_duration_ms = std::max<std::int64_t>(s.compaction_duration_ms, 3 * kHour);
    s.clustering = true;
    s.clustering_duration_ms = std::max<std::int64_t>(s.clustering_duration_ms, 3 * kHour);
  }
  if (c == Canary::archive_ignores_replaced_groups) {
    s.archive_ignores_replaced_groups = true;
    s.archiver_gaps_off = kAllGapsOff;
    s.clustering = true;
    s.clustering_interval_ms = std::min<std::int64_t>(s.clustering_interval_ms, 90 * kMinute);
    s.archiver = true;
    s.archive_interval_ms = std::min<std::int64_t>(s.archive_interval_ms, kHour);
    s.archive_min_commits = std::min<std::uint32_t>(s.archive_min_commits, 6);
    s.archive_max_commits = s.archive_min_commits + 2;
  }
  if (c == Canary::replace_unclamped) {
    // Replaced groups whose files a lease keeps past the boundary, then
    // archival: clustering often, long time-travel queries (the canary's
    // policy leases their snapshots), archival soon after.
    s.clustering = true;
    s.clustering_interval_ms = std::min<std::int64_t>(s.clustering_interval_ms, 90 * kMinute);
    s.time_travel_percent = std::max<std::uint32_t>(s.time_travel_percent, 50);
    s.query_max_ms = std::max<std::int64_t>(s.query_max_ms, 6 * kHour);
    s.reader_interval_ms = std::min<std::int64_t>(s.reader_interval_ms, 20 * kMinute);
    s.archiver = true;
    s.archive_interval_ms = std::min<std::int64_t>(s.archive_interval_ms, kHour);
    s.archive_min_commits = std::min<std::uint32_t>(s.archive_min_commits, 6);
    s.archive_max_commits = s.archive_min_commits + 2;
  }
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
    case Canary::replace_unclamped:
      return any_policy(
          cleaning(ignores_guarded_replaces<keep_latest_commits>{keep_latest_commits{commits}}, guard::savepoints,
                   guard::pending_table_services, guard::reader_leases, scope::incremental),
          fmt::format("canary replace-unclamped (KEEP_LATEST_COMMITS n={} with reader leases, boundary not "
                      "clamped at guarded replacecommits)",
                      commits));
    case Canary::orphans_short_cutoff:
    case Canary::orphans_ignore_markers:
    case Canary::orphans_all_actions_start:
    case Canary::rollback_eager:
    case Canary::ttl_ignores_pending_compaction:
    case Canary::archive_ignores_replaced_groups:  // not a policy canary: run_seed keeps the swarm's policy
    case Canary::none: break;
  }
  return any_policy(default_cleaning());
}

}  // namespace lakegc::sim
