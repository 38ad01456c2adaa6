// File: lakegc/policy/archive_config.hpp
// -----------------------------------------------------------------------------
// The settings Hudi's timeline archiver reads, from Hudi's keys, with Hudi's
// defaults (HoodieArchivalConfig, HoodieCompactionConfig, HoodieWriteConfig;
// Hudi 1.2.0):
//
//   hoodie.keep.min.commits                      20
//   hoodie.keep.max.commits                      30
//   hoodie.archive.beyond.savepoint              false
//   hoodie.commits.archival.batch                10 (records per archive block: writing only)
//   hoodie.archive.limit.instants                none (layout 1: at most this many instants per run)
//   hoodie.archive.block.on.latest.clean.ectr    false (layout 1 only, since 1.2.0)
//   hoodie.metadata.enable                       true (the metadata-table bound applies only with it)
//   hoodie.table.services.enabled                true (false: archive() does nothing)
//   hoodie.metaserver.enabled                    false (true: nothing is archived)
//   hoodie.compact.inline.trigger.strategy       NUM_COMMITS (the MOR compaction window applies
//                                                under NUM_COMMITS and NUM_AND_TIME)
//   hoodie.compact.inline.max.delta.commits      5
//   hoodie.clean.* / hoodie.cleaner.*            the cleaner's policy and retained count: archival
//                                                keeps what the cleaner still needs (ArchivalUtils)
//   hoodie.timeline.compaction.batch.size        10 (layout 2: LSM files per compaction; writing only)
//   hoodie.timeline.compaction.target.file.max.bytes  1048576000 (layout 2: writing only)
//   hoodie.timeline.manifest.retained.versions   3 (layout 2: LSM snapshots kept; writing only;
//                                                below 1 refused: Hudi's clean would then delete
//                                                the whole archived timeline)
//
// Hudi checks hoodie.keep.max.commits > hoodie.keep.min.commits only under
// KEEP_LATEST_COMMITS (HoodieWriteConfig.validate); lakegc refuses the same
// configuration with Hudi's message. Under the other policies a max below
// the min is accepted by Hudi and only fails a run whose Stream.limit goes
// negative; plan_archive reports that failure when it happens.
//
// Refused, naming the key: an unknown `hoodie.archive.*` or `hoodie.keep.*`
// key (a typo would silently mean "the default"), a value that is not a
// Java int / boolean / CompactionTriggerStrategy name, and every error of
// the cleaning keys (config::from_properties). Other keys are ignored, so a
// whole Spark config can be passed.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "lakegc/policy/config.hpp"

namespace lakegc {

/// Hudi's CompactionTriggerStrategy.
enum class CompactionTrigger : std::uint8_t {
  num_commits,
  num_commits_after_last_request,
  time_elapsed,
  num_or_time,
  num_and_time
};

constexpr std::string_view to_string(CompactionTrigger t) noexcept {
  switch (t) {
    case CompactionTrigger::num_commits: return "NUM_COMMITS";
    case CompactionTrigger::num_commits_after_last_request: return "NUM_COMMITS_AFTER_LAST_REQUEST";
    case CompactionTrigger::time_elapsed: return "TIME_ELAPSED";
    case CompactionTrigger::num_or_time: return "NUM_OR_TIME";
    case CompactionTrigger::num_and_time: return "NUM_AND_TIME";
  }
  return "?";
}

/// The cleaner's policy as ArchivalUtils.getMinAndMaxInstantsToKeep reads it.
enum class CleanerPolicyKind : std::uint8_t { keep_latest_commits, keep_latest_file_versions, keep_latest_by_hours };

constexpr std::string_view to_string(CleanerPolicyKind p) noexcept {
  switch (p) {
    case CleanerPolicyKind::keep_latest_commits: return "KEEP_LATEST_COMMITS";
    case CleanerPolicyKind::keep_latest_file_versions: return "KEEP_LATEST_FILE_VERSIONS";
    case CleanerPolicyKind::keep_latest_by_hours: return "KEEP_LATEST_BY_HOURS";
  }
  return "?";
}

struct ArchiveSettings {
  std::int32_t min_commits = 20;
  std::int32_t max_commits = 30;
  bool beyond_savepoint = false;
  std::int32_t archival_batch = 10;
  std::optional<std::int64_t> limit_instants;
  bool block_on_clean_ectr = false;
  bool metadata_enabled = true;
  bool table_services_enabled = true;
  bool metaserver_enabled = false;
  CompactionTrigger compaction_trigger = CompactionTrigger::num_commits;
  std::int32_t compaction_max_delta_commits = 5;
  CleanerPolicyKind cleaner_policy = CleanerPolicyKind::keep_latest_commits;
  std::uint32_t cleaner_commits_retained = 10;
  std::uint32_t cleaner_hours_retained = 24;
  std::int32_t timeline_compaction_batch = 10;
  std::int64_t timeline_compaction_max_bytes = 1048576000;
  std::int32_t timeline_manifest_retained_versions = 3;
};

namespace config {

namespace detail {

inline const std::set<std::string>& known_archive_keys() {
  static const std::set<std::string> keys = {
      "hoodie.keep.min.commits", "hoodie.keep.max.commits", "hoodie.archive.beyond.savepoint",
      "hoodie.archive.limit.instants", "hoodie.archive.block.on.latest.clean.ectr",
      // Accepted with no effect on which instants a run archives:
      "hoodie.archive.automatic", "hoodie.archive.async", "hoodie.archive.delete.parallelism",
      // Hudi 0.x archive-file merging, permanently off in 1.x (TimelineArchiverV1):
      "hoodie.archive.merge.enable", "hoodie.archive.merge.files.batch.size",
      "hoodie.archive.merge.small.file.limit.bytes"};
  return keys;
}

}  // namespace detail

/// Reads the archiver's settings from Hudi properties; other keys are ignored.
[[nodiscard]] inline StatusOr<ArchiveSettings> archive_from_properties(const Properties& props) {
  for (const auto& [k, v] : props) {
    const bool archive_key = k.starts_with("hoodie.archive.") || k.starts_with("hoodie.keep.");
    if (archive_key && !detail::known_archive_keys().contains(k)) {
      return absl::InvalidArgumentError(
          fmt::format("{}: unknown archival key (see hoodie.keep.* and hoodie.archive.* in the README)", k));
    }
  }
  LAKEGC_ASSIGN_OR_RETURN(runtime_cleaning_policy cleaner, from_properties(props));
  ArchiveSettings s;
  std::visit(
      [&](const auto& r) {
        using R = std::decay_t<decltype(r)>;
        if constexpr (std::is_same_v<R, keep_latest_commits>) {
          s.cleaner_policy = CleanerPolicyKind::keep_latest_commits;
          s.cleaner_commits_retained = r.commits;
        } else if constexpr (std::is_same_v<R, keep_by_hours>) {
          s.cleaner_policy = CleanerPolicyKind::keep_latest_by_hours;
          s.cleaner_hours_retained = r.hours;
        } else {
          s.cleaner_policy = CleanerPolicyKind::keep_latest_file_versions;
        }
      },
      cleaner.rule());

  detail::KeyLookup keys{props, {}};
  constexpr auto int_min = std::numeric_limits<std::int32_t>::min();
  constexpr auto int_max = std::numeric_limits<std::int32_t>::max();
  auto java_int = [&](const char* key, std::int32_t& out, std::int64_t lo, std::string_view expected) -> Status {
    if (auto kv = keys.get(key)) {
      LAKEGC_ASSIGN_OR_RETURN(auto n, detail::parse_int(*kv, lo, expected, int_max));
      out = static_cast<std::int32_t>(n);
    }
    return Status();
  };
  auto java_bool = [&](const char* key, bool& out) -> Status {
    if (auto kv = keys.get(key)) {
      LAKEGC_ASSIGN_OR_RETURN(out, detail::parse_bool(*kv));
    }
    return Status();
  };
  LAKEGC_RETURN_IF_ERROR(java_int("hoodie.keep.min.commits", s.min_commits, int_min, "a whole number (a Java int)"));
  LAKEGC_RETURN_IF_ERROR(java_int("hoodie.keep.max.commits", s.max_commits, int_min, "a whole number (a Java int)"));
  LAKEGC_RETURN_IF_ERROR(java_int("hoodie.commits.archival.batch", s.archival_batch, 1, "a whole number >= 1"));
  LAKEGC_RETURN_IF_ERROR(java_int("hoodie.compact.inline.max.delta.commits", s.compaction_max_delta_commits, 1,
                                  "a whole number >= 1 (Hudi's MOR compaction window fails on 0 or less)"));
  LAKEGC_RETURN_IF_ERROR(java_int("hoodie.timeline.compaction.batch.size", s.timeline_compaction_batch, int_min,
                                  "a whole number (a Java int)"));
  LAKEGC_RETURN_IF_ERROR(java_int("hoodie.timeline.manifest.retained.versions", s.timeline_manifest_retained_versions,
                                  1,
                                  "a whole number >= 1 (with 0 Hudi's LSM clean deletes the whole archived timeline)"));
  if (auto kv = keys.get("hoodie.timeline.compaction.target.file.max.bytes")) {
    LAKEGC_ASSIGN_OR_RETURN(
        s.timeline_compaction_max_bytes,
        detail::parse_int(*kv, std::numeric_limits<std::int64_t>::min(), "a whole number (a Java long)",
                          std::numeric_limits<std::int64_t>::max()));
  }
  if (auto kv = keys.get("hoodie.archive.limit.instants")) {
    LAKEGC_ASSIGN_OR_RETURN(s.limit_instants,
                            detail::parse_int(*kv, 0,
                                              "a whole number >= 0 (a Java long; Stream.limit refuses "
                                              "a negative one)",
                                              std::numeric_limits<std::int64_t>::max()));
  }
  LAKEGC_RETURN_IF_ERROR(java_bool("hoodie.archive.beyond.savepoint", s.beyond_savepoint));
  LAKEGC_RETURN_IF_ERROR(java_bool("hoodie.archive.block.on.latest.clean.ectr", s.block_on_clean_ectr));
  LAKEGC_RETURN_IF_ERROR(java_bool("hoodie.metadata.enable", s.metadata_enabled));
  LAKEGC_RETURN_IF_ERROR(java_bool("hoodie.table.services.enabled", s.table_services_enabled));
  LAKEGC_RETURN_IF_ERROR(java_bool("hoodie.metaserver.enabled", s.metaserver_enabled));
  for (const char* k : {"hoodie.archive.automatic", "hoodie.archive.async", "hoodie.archive.merge.enable"}) {
    bool ignored = false;
    LAKEGC_RETURN_IF_ERROR(java_bool(k, ignored));
  }
  if (auto kv = keys.get("hoodie.compact.inline.trigger.strategy")) {
    // CompactionTriggerStrategy.valueOf: exact, case-sensitive names.
    bool found = false;
    for (auto t : {CompactionTrigger::num_commits, CompactionTrigger::num_commits_after_last_request,
                   CompactionTrigger::time_elapsed, CompactionTrigger::num_or_time, CompactionTrigger::num_and_time}) {
      if (kv->second == to_string(t)) {
        s.compaction_trigger = t;
        found = true;
      }
    }
    if (!found) {
      return absl::InvalidArgumentError(fmt::format(
          "{}={}: expected NUM_COMMITS, NUM_COMMITS_AFTER_LAST_REQUEST, TIME_ELAPSED, NUM_OR_TIME or NUM_AND_TIME",
          kv->first, kv->second));
    }
  }
  if (s.cleaner_policy == CleanerPolicyKind::keep_latest_commits && s.max_commits <= s.min_commits) {
    // HoodieWriteConfig.validate, with Hudi's words.
    return absl::InvalidArgumentError(
        fmt::format("hoodie.keep.max.commits={}: Increase hoodie.keep.max.commits={} to be greater than "
                    "hoodie.keep.min.commits={} (Hudi refuses this configuration under KEEP_LATEST_COMMITS)",
                    s.max_commits, s.max_commits, s.min_commits));
  }
  return s;
}

}  // namespace config
}  // namespace lakegc
