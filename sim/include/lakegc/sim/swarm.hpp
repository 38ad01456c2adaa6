// File: lakegc/sim/swarm.hpp
// -----------------------------------------------------------------------------
// Swarm configuration: the seed picks which actors and faults exist and
// their knobs, so one sweep covers many different worlds (FoundationDB's
// setRandomConfig, TigerBeetle's options_swarm). Every field is printed with
// the seed, and drawing it consumes its own PRNG stream, so the same seed
// gives the same world whatever the policy under test.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "lakegc/core/timeline.hpp"
#include "lakegc/policy/config.hpp"
#include "lakegc/sim/any_policy.hpp"
#include "lakegc/sim/cadence.hpp"
#include "lakegc/sim/prng.hpp"

namespace lakegc::sim {

inline constexpr std::int64_t kMinute = 60'000;
inline constexpr std::int64_t kHour = 60 * kMinute;

enum class TableType : std::uint8_t { cow, mor };
enum class RuleKind : std::uint8_t { commits, hours, versions };
enum class CleanerMode : std::uint8_t { inline_after_commit, async };

struct PolicyKnobs {
  RuleKind rule = RuleKind::commits;
  std::uint32_t commits = 10;  // KEEP_LATEST_COMMITS
  std::uint32_t hours = 4;     // KEEP_LATEST_BY_HOURS
  std::uint32_t versions = 3;  // KEEP_LATEST_FILE_VERSIONS
  bool incremental = true;
  bool reader_leases = false;
  /// hoodie.clean.trigger.max.commits: clean every N commits.
  std::uint32_t trigger_commits = 1;
};

struct FaultKnobs {
  bool on = false;
  bool writer_crash = false;         // a writer dies before commit; its write is rolled back later
  bool duplicate_files = false;      // speculative duplicate base files (another write token)
  bool storage_failures = false;     // memory_storage::fail_next on list/stat/write/remove
  bool truncated_listings = false;   // a silently short (or empty) listing
  bool cleaner_crash = false;        // the cleaner dies between two executor steps
  std::int64_t interval_ms = kHour;  // mean time between armed faults
};

/// A sweep that is unsafe on purpose: the orphan-sweep canaries
/// (canaries.hpp). Lives in the simulator only: the library has no such knob.
enum class SweepFlaw : std::uint8_t {
  none,
  /// The cutoff is one minute, forced past the longest-write guard.
  short_cutoff,
  /// The sweep's metadata snapshot loses pending write instants and markers.
  ignore_markers,
  /// The sweep's snapshot starts the timeline at its oldest instant of any
  /// action (its oldest clean or rollback is presented as a write), the
  /// rule lakegc had before issue 11.
  all_actions_start,
};

/// The orphan sweeper (sweeper.hpp): plan_orphans + delete_orphans, in two
/// phases (metadata snapshot, then the listing `listing_ms` later).
struct SweeperKnobs {
  bool on = false;
  std::int64_t interval_ms = 2 * kHour;    // mean time between sweeps
  std::int64_t listing_ms = 10 * kMinute;  // longest listing (each sweep draws up to this)
  std::int64_t cutoff_ms = 6 * kHour;      // OrphanOptions::older_than_ms
  /// The cutoff is only longer than the listing, not than the longest write:
  /// pending instants and markers alone must protect in-flight writes, so
  /// the sweep forces past the longest-write guard (see sweeper.hpp).
  bool tight = false;
  SweepFlaw flaw = SweepFlaw::none;
};

/// Partition TTL (ttl_service.hpp): the library's plan_ttl, then a
/// DELETE_PARTITION replacecommit for the expired partitions. Hudi's
/// retention is in whole days and a run lasts 6-24 hours, so a TTL swarm's
/// table has a history: `cold` extra partitions written by `history_commits`
/// commits before a quiet gap of `days` days (and a few hours) in which no
/// actor runs; after it, writers update only the hot partitions and insert
/// into a cold one (dropped or not: a late insert re-creates a dropped
/// partition, as in Hudi) with `late_insert_percent` chance.
struct TtlKnobs {
  bool on = false;
  /// KEEP_BY_CREATION_TIME (the partition metadata's commitTime) instead of
  /// KEEP_BY_TIME (the newest base instant).
  bool by_creation_time = false;
  std::int32_t days = 1;                  // hoodie.partition.ttl.strategy.days.retain
  std::uint32_t max_delete = 1000;        // hoodie.partition.ttl.strategy.max.delete.partitions
  std::int64_t interval_ms = 2 * kHour;   // mean time between TTL runs
  std::uint32_t cold = 1;                 // partitions written only before the gap
  std::uint32_t history_commits = 4;      // commits into them before the gap
  std::int64_t gap_ms = 26 * kHour;       // the quiet gap (days plus a few hours)
  std::uint32_t late_insert_percent = 5;  // an insert goes to a cold partition
  /// CANARY ttl-ignores-pending-compaction: the TTL run does not stop at
  /// pending compactions or clusterings of the expired partitions.
  bool ignore_pending_services = false;
};

/// SwarmConfig::archiver_gaps_off with every library-gap bound off.
inline constexpr std::uint8_t kAllGapsOff = 15;

struct SwarmConfig {
  // Table.
  TableType type = TableType::cow;
  TimelineLayout layout = TimelineLayout::v2;
  std::uint32_t partitions = 2;
  std::uint32_t max_groups = 16;
  // Writers.
  std::uint32_t writers = 1;
  /// CANARY rollback-eager (canaries.hpp): failed-write rollback is EAGER at
  /// the start of every write, with other writers running.
  bool eager_rollback = false;
  std::int64_t write_interval_ms = 20 * kMinute;  // mean idle time between writes, per writer
  std::int64_t write_duration_ms = 2 * kMinute;   // max time a write stays in flight
  std::uint32_t update_fanout = 2;                // max file groups touched by one write
  std::uint32_t insert_percent = 30;              // chance a write also creates a file group
  // Readers.
  std::int64_t reader_interval_ms = 30 * kMinute;  // mean time between queries
  std::int64_t query_max_ms = 2 * kHour;           // longest query
  std::uint32_t time_travel_percent = 30;
  // Services.
  bool compaction = false;  // MOR only
  std::int64_t compaction_interval_ms = kHour;
  std::int64_t compaction_duration_ms = 10 * kMinute;
  bool clustering = false;
  std::int64_t clustering_interval_ms = 3 * kHour;
  std::int64_t clustering_duration_ms = 10 * kMinute;
  /// An indexer (Hudi's async metadata-table indexing) now and then records
  /// a completed indexing instant: Hudi never archives those, so after
  /// archival one is older than every write instant, in either layout.
  bool indexing = false;
  std::int64_t indexing_interval_ms = 6 * kHour;
  bool savepoints = false;
  std::int64_t savepoint_interval_ms = 4 * kHour;
  std::int64_t savepoint_lifetime_ms = 6 * kHour;
  std::uint32_t max_savepoints = 2;
  CleanerMode cleaner = CleanerMode::inline_after_commit;
  std::int64_t clean_interval_ms = 30 * kMinute;
  bool archiver = true;
  std::int64_t archive_interval_ms = 2 * kHour;
  std::uint32_t archive_min_commits = 12;  // hoodie.keep.min.commits
  std::uint32_t archive_max_commits = 20;  // hoodie.keep.max.commits
  /// Whether lakegc's journal (the cleaner's and the sweep's) reads the
  /// table's archive: the completion times of archived instants
  /// (memory_journal::set_archive_readable). Without them, a layout-2 log
  /// of an archived deltacommit has an uncertain slice
  /// (TableView::completion_unknown). Hudi's own readers, writers and
  /// services, and the oracle, always read the truth.
  bool archive_readable = true;
  /// Library-gap bounds of the archiver (archiver.hpp) turned off, one bit
  /// per gap: 1 (a), 2 (b), 4 (c), 8 (d). 0 in swarms; lakegc-sim
  /// --strict-archiver turns them all off (kAllGapsOff: Hudi's rules and
  /// the orphan bound only) to reproduce the gaps.
  std::uint8_t archiver_gaps_off = 0;
  /// CANARY archive-ignores-replaced-groups (canaries.hpp): the archiver
  /// passes the first replacecommit not yet behind the last clean's
  /// earliest instant to retain (Hudi issue 6938).
  bool archive_ignores_replaced_groups = false;
  /// lakegc-sim --lakegc-archiver: plan_archive gets the file listing, so
  /// lakegc's replaced_files_on_storage bound is on (lakegc's archiver
  /// rather than Hudi's). Never drawn.
  bool archive_with_listing = false;
  // Orphan sweeper.
  SweeperKnobs sweeper;
  // Partition TTL.
  TtlKnobs ttl;
  // Faults and length.
  FaultKnobs faults;
  std::int64_t duration_ms = 12 * kHour;
  // The policy under test (unless --policy or a canary replaces it).
  PolicyKnobs policy;
  // Replay (the advice check, advice_check.hpp). Never drawn, so every
  // seed's swarm stays as it was; only that mode sets them.
  /// Writers commit at these intervals instead of their own cadence.
  std::shared_ptr<const CommitCadence> cadence;
  /// The share of queries that run exactly query_max_ms (the others are
  /// drawn up to it, as always).
  std::uint32_t query_at_max_percent = 0;
};

/// Draws a swarm configuration. Ranges are sized so one seed simulates in
/// well under half a second (the test sweep runs hundreds).
inline SwarmConfig draw_swarm(Rng& rng) {
  SwarmConfig s;
  s.type = rng.chance(1, 2) ? TableType::mor : TableType::cow;
  s.layout = rng.chance(1, 2) ? TimelineLayout::v2 : TimelineLayout::v1;
  s.partitions = static_cast<std::uint32_t>(rng.uniform(1, 4));
  s.max_groups = static_cast<std::uint32_t>(rng.uniform(4, 24));
  s.writers = static_cast<std::uint32_t>(rng.uniform(1, 3));
  s.write_interval_ms = rng.uniform_i64(5, 40) * kMinute;
  s.write_duration_ms = rng.chance(1, 3) ? rng.uniform_i64(10, 90) * kMinute : rng.uniform_i64(5, 120) * 1000;
  s.update_fanout = static_cast<std::uint32_t>(rng.uniform(1, 4));
  s.insert_percent = static_cast<std::uint32_t>(rng.uniform(10, 50));
  s.reader_interval_ms = rng.uniform_i64(5, 60) * kMinute;
  s.query_max_ms = rng.uniform_i64(1, 8) * kHour;
  s.time_travel_percent = static_cast<std::uint32_t>(rng.uniform(0, 60));
  s.compaction = s.type == TableType::mor && rng.chance(3, 4);
  s.compaction_interval_ms = rng.uniform_i64(20, 180) * kMinute;
  s.compaction_duration_ms = rng.uniform_i64(1, 90) * kMinute;
  s.clustering = rng.chance(1, 2);
  s.clustering_interval_ms = rng.uniform_i64(60, 360) * kMinute;
  s.clustering_duration_ms = rng.uniform_i64(1, 45) * kMinute;
  s.savepoints = rng.chance(1, 2);
  s.savepoint_interval_ms = rng.uniform_i64(1, 8) * kHour;
  s.savepoint_lifetime_ms = rng.uniform_i64(1, 12) * kHour;
  s.max_savepoints = static_cast<std::uint32_t>(rng.uniform(1, 3));
  s.cleaner = rng.chance(1, 2) ? CleanerMode::inline_after_commit : CleanerMode::async;
  s.clean_interval_ms = rng.uniform_i64(10, 120) * kMinute;
  s.archiver = rng.chance(3, 4);
  s.archive_interval_ms = rng.uniform_i64(1, 4) * kHour;
  s.archive_min_commits = static_cast<std::uint32_t>(rng.uniform(8, 20));
  s.archive_max_commits = s.archive_min_commits + static_cast<std::uint32_t>(rng.uniform(4, 16));
  s.faults.on = rng.chance(1, 2);
  s.faults.writer_crash = rng.chance(1, 2);
  s.faults.duplicate_files = rng.chance(1, 2);
  s.faults.storage_failures = rng.chance(1, 2);
  s.faults.truncated_listings = rng.chance(1, 2);
  s.faults.cleaner_crash = rng.chance(1, 2);
  s.faults.interval_ms = rng.uniform_i64(20, 180) * kMinute;
  s.duration_ms = rng.uniform_i64(6, 24) * kHour;
  const auto rule = rng.uniform(0, 2);
  s.policy.rule = rule == 0 ? RuleKind::commits : rule == 1 ? RuleKind::hours : RuleKind::versions;
  s.policy.commits = static_cast<std::uint32_t>(rng.uniform(1, 12));
  s.policy.hours = static_cast<std::uint32_t>(rng.uniform(1, 8));
  s.policy.versions = static_cast<std::uint32_t>(rng.uniform(1, 4));
  s.policy.incremental = rng.chance(1, 2) && s.policy.rule != RuleKind::versions;
  s.policy.reader_leases = rng.chance(1, 4);
  s.policy.trigger_commits = rng.chance(2, 3) ? 1 : static_cast<std::uint32_t>(rng.uniform(2, 4));
  // The sweeper, drawn last so the fields above stay what they were. Its
  // cutoff is always longer than its longest listing (the bound the sweep's
  // safety rests on: files of a write that began after the metadata snapshot
  // are younger than the listing). Usually it is also longer than the
  // longest thing that can stay pending (write, compaction, clustering,
  // plus a margin); in "tight" swarms it is not, and writes can outlast it.
  s.sweeper.on = rng.chance(1, 2);
  s.sweeper.interval_ms = rng.uniform_i64(30, 240) * kMinute;
  s.sweeper.listing_ms = rng.uniform_i64(1, 30) * kMinute;
  s.sweeper.tight = rng.chance(1, 3);
  const std::int64_t longest = std::max({s.write_duration_ms, s.compaction_duration_ms, s.clustering_duration_ms});
  s.sweeper.cutoff_ms = s.sweeper.tight ? s.sweeper.listing_ms + rng.uniform_i64(5, 30) * kMinute
                                        : s.sweeper.listing_ms + longest + rng.uniform_i64(30, 360) * kMinute;
  // Drawn after the sweeper, for the same reason: in a third of the
  // layout-2 swarms lakegc cannot read the archive.
  const bool archive_unreadable = rng.chance(1, 3);
  s.archive_readable = !(s.layout == TimelineLayout::v2 && archive_unreadable);
  s.indexing = rng.chance(1, 4);
  s.indexing_interval_ms = rng.uniform_i64(2, 12) * kHour;
  // Partition TTL, drawn last: a quarter of the swarms.
  s.ttl.on = rng.chance(1, 4);
  s.ttl.by_creation_time = rng.chance(1, 3);
  s.ttl.days = static_cast<std::int32_t>(rng.uniform(1, 2));
  s.ttl.max_delete = rng.chance(1, 2) ? 1000 : static_cast<std::uint32_t>(rng.uniform(1, 2));
  s.ttl.interval_ms = rng.uniform_i64(1, 6) * kHour;
  s.ttl.cold = static_cast<std::uint32_t>(rng.uniform(1, 3));
  s.ttl.history_commits = static_cast<std::uint32_t>(rng.uniform(2, 8));
  s.ttl.gap_ms = s.ttl.days * 24 * kHour + rng.uniform_i64(1, 6) * kHour;
  s.ttl.late_insert_percent = static_cast<std::uint32_t>(rng.uniform(0, 10));
  return s;
}

/// The swarm's policy as `hoodie.*` properties (the same form as --policy).
inline config::Properties policy_properties(const PolicyKnobs& k) {
  config::Properties p;
  switch (k.rule) {
    case RuleKind::commits:
      p["hoodie.clean.policy"] = "KEEP_LATEST_COMMITS";
      p["hoodie.clean.commits.retained"] = std::to_string(k.commits);
      break;
    case RuleKind::hours:
      p["hoodie.clean.policy"] = "KEEP_LATEST_BY_HOURS";
      p["hoodie.clean.hours.retained"] = std::to_string(k.hours);
      break;
    case RuleKind::versions:
      p["hoodie.clean.policy"] = "KEEP_LATEST_FILE_VERSIONS";
      p["hoodie.clean.fileversions.retained"] = std::to_string(k.versions);
      break;
  }
  p["hoodie.clean.incremental.enabled"] = k.incremental ? "true" : "false";
  if (k.reader_leases) p["lakegc.clean.reader.leases"] = "true";
  if (k.trigger_commits > 1) p["hoodie.clean.trigger.max.commits"] = std::to_string(k.trigger_commits);
  return p;
}

/// Parses `k=v,k=v` (the --policy flag) into properties.
[[nodiscard]] inline StatusOr<config::Properties> parse_policy_flag(std::string_view text) {
  config::Properties p;
  while (!text.empty()) {
    const auto comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    if (!item.empty()) {
      const auto eq = item.find('=');
      if (eq == std::string_view::npos || eq == 0) {
        return absl::InvalidArgumentError(fmt::format("--policy: '{}' is not key=value", item));
      }
      p[std::string(item.substr(0, eq))] = std::string(item.substr(eq + 1));
    }
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return p;
}

/// `k=v,k=v` for properties (reports and replay commands).
inline std::string format_properties(const config::Properties& p) {
  std::string out;
  for (const auto& [k, v] : p) {
    if (!out.empty()) out += ',';
    out += k + "=" + v;
  }
  return out;
}

/// A policy from properties, labelled for reports.
[[nodiscard]] inline StatusOr<any_policy> policy_from_properties(const config::Properties& props) {
  LAKEGC_ASSIGN_OR_RETURN(auto runtime, config::from_properties(props));
  std::string label = runtime.name();
  std::visit(
      [&](const auto& r) {
        using R = std::decay_t<decltype(r)>;
        if constexpr (std::is_same_v<R, keep_latest_commits>) label += fmt::format(" n={}", r.commits);
        if constexpr (std::is_same_v<R, keep_by_hours>) label += fmt::format(" h={}", r.hours);
        if constexpr (std::is_same_v<R, keep_latest_file_versions>) label += fmt::format(" k={}", r.versions);
      },
      runtime.rule());
  if (runtime.scope().incremental) label += " incremental";
  if (runtime.guards().reader_leases) label += " leases";
  if (runtime.scope().trigger_max_commits > 1)
    label += fmt::format(" every {} commits", runtime.scope().trigger_max_commits);
  return any_policy(std::move(runtime), std::move(label));
}

/// The family a policy belongs to in sweep summaries.
constexpr std::string_view to_string(RuleKind k) noexcept {
  return k == RuleKind::commits ? "KEEP_LATEST_COMMITS"
         : k == RuleKind::hours ? "KEEP_LATEST_BY_HOURS"
                                : "KEEP_LATEST_FILE_VERSIONS";
}

inline std::string describe(const SwarmConfig& s) {
  auto mins = [](std::int64_t ms) { return ms / kMinute; };
  std::string out;
  out += fmt::format("  table     : {} layout={} partitions={} max_groups={}\n",
                     s.type == TableType::mor ? "MOR" : "COW", static_cast<int>(s.layout), s.partitions, s.max_groups);
  out += fmt::format("  writers   : {} every ~{}min, in flight up to {}s, fanout {}, inserts {}%{}\n", s.writers,
                     mins(s.write_interval_ms), s.write_duration_ms / 1000, s.update_fanout, s.insert_percent,
                     s.eager_rollback ? ", CANARY eager rollback" : "");
  out += fmt::format(
      "  readers   : every ~{}min, queries up to {}min{}, time travel {}%\n", mins(s.reader_interval_ms),
      mins(s.query_max_ms),
      s.query_at_max_percent > 0 ? fmt::format(" ({}% exactly that long)", s.query_at_max_percent) : std::string(),
      s.time_travel_percent);
  if (s.cadence) out += fmt::format("  cadence   : replaying {}\n", s.cadence->source);
  out += fmt::format("  services  : compaction={} (every {}min, {}min) clustering={} (every {}min, {}min)\n",
                     s.compaction, mins(s.compaction_interval_ms), mins(s.compaction_duration_ms), s.clustering,
                     mins(s.clustering_interval_ms), mins(s.clustering_duration_ms));
  if (s.indexing) out += fmt::format("              indexing every ~{}min\n", mins(s.indexing_interval_ms));
  out += fmt::format(
      "              savepoints={} (every {}min, kept {}min, max {}) cleaner={} archiver={} "
      "(every {}min, keep {}..{} commits{})\n",
      s.savepoints, mins(s.savepoint_interval_ms), mins(s.savepoint_lifetime_ms), s.max_savepoints,
      s.cleaner == CleanerMode::inline_after_commit ? std::string("inline")
                                                    : fmt::format("async every {}min", mins(s.clean_interval_ms)),
      s.archiver, mins(s.archive_interval_ms), s.archive_min_commits, s.archive_max_commits,
      std::string(s.archive_readable ? "" : ", archive unreadable by lakegc") +
          (s.archive_ignores_replaced_groups ? ", CANARY ignores replaced groups" : ""));
  out += fmt::format("  sweeper   : {}", s.sweeper.on ? "on" : "off");
  if (s.sweeper.on) {
    out += fmt::format(" (every ~{}min, listing up to {}min, cutoff {}min{}{})", mins(s.sweeper.interval_ms),
                       mins(s.sweeper.listing_ms), mins(s.sweeper.cutoff_ms), s.sweeper.tight ? ", tight" : "",
                       s.sweeper.flaw == SweepFlaw::short_cutoff        ? ", CANARY short cutoff"
                       : s.sweeper.flaw == SweepFlaw::ignore_markers    ? ", CANARY ignores markers"
                       : s.sweeper.flaw == SweepFlaw::all_actions_start ? ", CANARY timeline starts at any action"
                                                                        : "");
  }
  if (s.ttl.on) {
    out += fmt::format(
        "\n  ttl       : {} days={} max.delete={} every ~{}min; {} cold partition(s), {} history commit(s), gap "
        "{}min, late inserts {}%{}",
        s.ttl.by_creation_time ? "KEEP_BY_CREATION_TIME" : "KEEP_BY_TIME", s.ttl.days, s.ttl.max_delete,
        mins(s.ttl.interval_ms), s.ttl.cold, s.ttl.history_commits, mins(s.ttl.gap_ms), s.ttl.late_insert_percent,
        s.ttl.ignore_pending_services ? ", CANARY ignores pending services" : "");
  }
  out += fmt::format("\n  faults    : {}", s.faults.on ? "on" : "off");
  if (s.faults.on) {
    out += fmt::format(
        " (every ~{}min:{}{}{}{}{})", mins(s.faults.interval_ms), s.faults.writer_crash ? " writer-crash" : "",
        s.faults.duplicate_files ? " duplicate-files" : "", s.faults.storage_failures ? " storage-failures" : "",
        s.faults.truncated_listings ? " truncated-listings" : "", s.faults.cleaner_crash ? " cleaner-crash" : "");
  }
  out += fmt::format("\n  duration  : {}min simulated\n", mins(s.duration_ms));
  return out;
}

}  // namespace lakegc::sim
