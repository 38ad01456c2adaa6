// File: lakegc/plan/plan_ttl.hpp
// -----------------------------------------------------------------------------
// plan_ttl: a pure function from a TableView, the table's metadata, TTL
// settings and the TTL instant to the partitions Hudi's partition TTL would
// delete. No I/O: KEEP_BY_CREATION_TIME's partition metadata is read before
// (partition_creation.hpp).
//
// Hudi's algorithm (hudi-client-common table/action/ttl/strategy/, master):
//
// * Nothing expires when days.retain <= 0, when the active timeline has no
//   completed instant (of any action), or when the table has no partition
//   fields (KeepByTimeStrategy.getExpiredPartitionPaths; the creation-time
//   strategy inherits it). lakegc names every such reason.
// * Candidates: partition.selected verbatim (split on ","), else every
//   partition. Hudi lists them from the metadata table sorted, which is the
//   view's path order; from a file-system listing its order is that
//   listing's.
// * KEEP_BY_TIME: a partition's reference time is the newest base instant
//   among getLatestFileSlicesBeforeOrOn(partition, ttlInstant, true): per
//   file group not replaced at or before the TTL instant, the newest slice
//   keyed at or before it, a pending compaction's (empty) slice included.
//   Logs do not change a slice's base instant, so log-only updates do not
//   extend a partition's life. A partition with no such slice is skipped.
// * KEEP_BY_CREATION_TIME: the commitTime of `.hoodie_partition_metadata`.
//   The issue says "absent: not expired"; Hudi's source disagrees and wins:
//   readFromFS throws a HoodieException (a RuntimeException that
//   readPartitionCreatedCommitTime, catching only IOException, lets through)
//   when no partition metadata file can be read, and a file without
//   commitTime fails Option.of(null); either way the whole run fails. So
//   does plan_ttl, naming the partition.
// * Expired: ttl_expiry.hpp (Hudi's string arithmetic, in the timeline's zone).
// * The cap: KEEP_BY_TIME collects reference times with Collectors.toMap
//   (a HashMap) and applies Stream.limit(max.delete.partitions) over that
//   map's order, so a capped run deletes the first expired partitions in
//   Java HashMap order (java_hash_order.hpp), not the oldest ones; the
//   creation-time strategy filters the candidate list in order: a selected
//   list's order, else the order Hudi lists partitions in (a file-system
//   listing goes directory by directory in readdir order; the interop suite
//   saw Hudi take us/d1 where the sorted order starts with eu/d1), which
//   lakegc cannot know: a capped creation-time run over every partition is
//   reported with order_exact false and the reason. The rest drains over
//   later runs.
// * A pending compaction or log compaction on an expired partition makes
//   Hudi's run a no-op (DeletePartitionUtils.checkForPendingTableServiceActions,
//   caught by the TTL executor): reported in blocking_table_services. So
//   does a pending clustering of a file group there; lakegc does not read
//   clustering plans' file groups yet, so pending clusterings are listed as
//   possibly blocking.
#pragma once

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "lakegc/core/table_metadata.hpp"
#include "lakegc/core/table_view.hpp"
#include "lakegc/plan/java_hash_order.hpp"
#include "lakegc/plan/partition_creation.hpp"
#include "lakegc/plan/ttl_expiry.hpp"
#include "lakegc/policy/ttl_config.hpp"

namespace lakegc {

struct TtlContext {
  /// The instant Hudi's TTL run would create (its replacecommit's time):
  /// now, in the table's timeline timezone.
  InstantTime ttl_instant;
  /// KEEP_BY_CREATION_TIME only: each candidate's partition metadata.
  const PartitionCreationTimes* creation = nullptr;
};

enum class TtlVerdict : std::uint8_t {
  expired,           ///< this run deletes it
  expired_over_cap,  ///< expired, past max.delete.partitions: a later run deletes it
  not_expired,
  no_file_slices,  ///< KEEP_BY_TIME: no latest slice (empty, or every group replaced): skipped
};

constexpr std::string_view to_string(TtlVerdict v) noexcept {
  switch (v) {
    case TtlVerdict::expired: return "expired";
    case TtlVerdict::expired_over_cap: return "expired_over_cap";
    case TtlVerdict::not_expired: return "not_expired";
    case TtlVerdict::no_file_slices: return "no_file_slices";
  }
  return "?";
}

struct TtlPartition {
  std::string partition;
  TtlVerdict verdict = TtlVerdict::not_expired;
  /// The newest base instant (KEEP_BY_TIME) or the commitTime
  /// (KEEP_BY_CREATION_TIME), as Hudi reads it.
  std::optional<std::string> reference;
  /// reference + retention, as Hudi computes it: the partition expires once
  /// the TTL instant sorts after this.
  std::optional<std::string> expires_after;
  /// TTL instant minus reference, when the reference is a date.
  std::optional<std::int64_t> age_ms;
  /// A selected partition that has no partition directory on storage.
  bool on_storage = true;
  /// For such a partition, the existing one it probably meant (hive style).
  std::optional<std::string> probably_meant;
};

struct TtlPlan {
  TtlStrategy strategy = TtlStrategy::keep_by_time;
  std::int32_t days_retain = -1;
  std::uint32_t max_delete_partitions = 0;
  InstantTime ttl_instant;
  /// Why Hudi's run expires nothing before looking at any partition.
  std::vector<std::string> noop_reasons;
  /// Every candidate, in the order Hudi evaluates and caps them.
  std::vector<TtlPartition> partitions;
  /// The partitions this run deletes, in that order.
  std::vector<std::string> expired;
  /// Expired partitions in all, this run's and later runs'.
  std::size_t expired_total = 0;
  /// False when the cap cut the expired partitions in an order lakegc could
  /// not reproduce exactly; order_note says why.
  bool order_exact = true;
  std::string order_note;
  /// Pending compactions / log compactions on an expired partition: Hudi's
  /// run is then a no-op.
  std::vector<InstantTime> blocking_table_services;
  /// Pending clusterings (or replacecommits): they block the run if they
  /// touch an expired partition, which lakegc cannot tell yet.
  std::vector<InstantTime> pending_clusterings;
  std::vector<std::string> warnings;
};

namespace detail {

// The newest base instant among the latest slices at or before `t` of the
// groups not replaced at or before `t` (getLatestFileSlicesBeforeOrOn with
// pending compactions included, then max of getBaseInstantTime).
inline std::optional<InstantTime> ttl_last_commit_time(const TableView& v, const Partition& p, const InstantTime& t) {
  std::optional<InstantTime> newest;
  for (const FileGroup& g : v.groups_of(p)) {
    if (g.replaced_by && *g.replaced_by <= t) continue;
    for (const FileSlice& s : v.slices_of(g)) {  // newest first
      if (s.base_instant <= t) {
        if (!newest || *newest < s.base_instant) newest = s.base_instant;
        break;
      }
    }
  }
  return newest;
}

// The commitTime Hudi's KEEP_BY_CREATION_TIME reads, or the error its run fails with.
[[nodiscard]] inline StatusOr<std::string> ttl_creation_time(const PartitionCreationTimes* creation,
                                                             const std::string& partition) {
  const PartitionCreationRecord* rec = nullptr;
  if (creation != nullptr) {
    if (auto it = creation->find(partition); it != creation->end()) rec = &it->second;
  }
  if (rec == nullptr || rec->kind == PartitionCreationRecord::Kind::absent) {
    return absl::FailedPreconditionError(fmt::format(
        "partition '{}': no .hoodie_partition_metadata; Hudi's KEEP_BY_CREATION_TIME run fails on it (\"Unable to "
        "read any partition meta file\")",
        partition));
  }
  if (rec->kind == PartitionCreationRecord::Kind::base_format) {
    return absl::UnimplementedError(fmt::format(
        "partition '{}': its partition metadata is in base-file format (.parquet/.orc), which lakegc cannot read yet",
        partition));
  }
  if (!rec->commit_time) {
    return absl::FailedPreconditionError(fmt::format(
        "partition '{}': .hoodie_partition_metadata has no commitTime; Hudi's KEEP_BY_CREATION_TIME run fails on it",
        partition));
  }
  return *rec->commit_time;
}

// "2026-01-01" -> "event_date=2026-01-01" when that partition exists: the
// segments of an existing path with their "name=" prefixes removed.
inline std::optional<std::string> hive_style_match(const TableView& v, std::string_view wanted) {
  for (const Partition& p : v.partitions()) {
    std::string stripped;
    std::string_view rest = p.path;
    while (true) {
      const auto slash = rest.find('/');
      std::string_view segment = rest.substr(0, slash);
      if (const auto eq = segment.find('='); eq != std::string_view::npos) segment.remove_prefix(eq + 1);
      stripped += segment;
      if (slash == std::string_view::npos) break;
      stripped += '/';
      rest.remove_prefix(slash + 1);
    }
    if (stripped == wanted && p.path != wanted) return p.path;
  }
  return std::nullopt;
}

}  // namespace detail

[[nodiscard]] inline StatusOr<TtlPlan> plan_ttl(const TableView& view, const TableMetadata& md,
                                                const TtlSettings& settings, const TtlContext& ctx) {
  TtlPlan plan;
  plan.strategy = settings.strategy;
  plan.days_retain = settings.days_retain;
  plan.max_delete_partitions = settings.max_delete_partitions;
  plan.ttl_instant = ctx.ttl_instant;

  if (settings.days_retain <= 0) {
    plan.noop_reasons.push_back(fmt::format(
        "hoodie.partition.ttl.strategy.days.retain={}: nothing expires while it is <= 0 (Hudi's default is -1)",
        settings.days_retain));
  }
  const auto instants = md.timeline.instants();
  if (std::none_of(instants.begin(), instants.end(), [](const Instant& i) { return i.is_completed(); })) {
    plan.noop_reasons.emplace_back("the active timeline has no completed instant");
  }
  if (!md.partitioned)
    plan.noop_reasons.emplace_back("the table is not partitioned (no hoodie.table.partition.fields)");
  if (!plan.noop_reasons.empty()) return plan;

  std::map<std::string, const Partition*, std::less<>> on_storage;
  for (const Partition& p : view.partitions()) on_storage.emplace(p.path, &p);
  std::vector<std::string> candidates;
  if (settings.selected) {
    candidates = *settings.selected;
  } else {
    for (const Partition& p : view.partitions()) candidates.push_back(p.path);
  }

  const std::int64_t ttl_ms = static_cast<std::int64_t>(settings.days_retain) * 86'400'000;
  const auto now_ms = ctx.ttl_instant.to_epoch_ms(md.timezone);
  std::vector<TtlPartition> evaluated;
  evaluated.reserve(candidates.size());
  std::vector<bool> expired(candidates.size(), false);
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    TtlPartition tp;
    tp.partition = candidates[i];
    const auto found = on_storage.find(tp.partition);
    if (found == on_storage.end()) {
      tp.on_storage = false;
      tp.probably_meant = detail::hive_style_match(view, tp.partition);
    }
    if (settings.strategy == TtlStrategy::keep_by_time) {
      const auto newest = found == on_storage.end()
                              ? std::nullopt
                              : detail::ttl_last_commit_time(view, *found->second, ctx.ttl_instant);
      if (newest) tp.reference = newest->str();
    } else {
      LAKEGC_ASSIGN_OR_RETURN(tp.reference, detail::ttl_creation_time(ctx.creation, tp.partition));
    }
    if (!tp.reference) {
      tp.verdict = TtlVerdict::no_file_slices;
    } else {
      auto expires = ttl::instant_plus_millis(*tp.reference, ttl_ms, md.timezone);
      if (!expires.ok()) return annotate(expires.status(), fmt::format("partition '{}'", tp.partition));
      tp.expires_after = *expires;
      expired[i] = ttl::fix_instant_time_compatibility(ctx.ttl_instant.str()) > *expires;
      tp.verdict = expired[i] ? TtlVerdict::expired : TtlVerdict::not_expired;
      if (auto ref = InstantTime::parse(*tp.reference); ref.ok() && now_ms.ok()) {
        if (auto ref_ms = ref->to_epoch_ms(md.timezone); ref_ms.ok()) tp.age_ms = *now_ms - *ref_ms;
      }
      if (expires->starts_with('+')) {
        plan.warnings.push_back(fmt::format(
            "partition '{}' expires after {}: past year 9999 Hudi writes the year with a '+', which sorts before "
            "every instant, so the partition counts as expired (lower days.retain)",
            tp.partition, *expires));
      }
    }
    evaluated.push_back(std::move(tp));
  }

  std::vector<std::size_t> order(candidates.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (settings.strategy == TtlStrategy::keep_by_time) {
    JavaHashMapOrder hashed = java_hash_map_order(candidates);
    order = std::move(hashed.order);
    plan.order_exact = hashed.exact;
    if (!hashed.exact) plan.order_note = "Java HashMap order with a tree bin";
  }
  for (std::size_t i : order) {
    TtlPartition& tp = evaluated[i];
    if (expired[i]) {
      ++plan.expired_total;
      if (plan.expired.size() < settings.max_delete_partitions) {
        plan.expired.push_back(tp.partition);
      } else {
        tp.verdict = TtlVerdict::expired_over_cap;
      }
    }
    plan.partitions.push_back(std::move(tp));
  }
  if (settings.strategy == TtlStrategy::keep_by_creation_time && !settings.selected &&
      plan.expired_total > plan.expired.size() && !plan.expired.empty()) {
    plan.order_exact = false;
    plan.order_note =
        "KEEP_BY_CREATION_TIME takes the first expired partitions in the order Hudi lists them (readdir order, or "
        "the metadata table's), not the sorted order lakegc shows";
  }
  if (plan.expired_total > 0 && settings.max_delete_partitions == 0) {
    plan.warnings.emplace_back("hoodie.partition.ttl.strategy.max.delete.partitions=0: every run deletes nothing");
  }

  const std::set<std::string_view> doomed(plan.expired.begin(), plan.expired.end());
  std::set<InstantTime> blocking;
  for (const PendingCompactionSlice& op : md.pending_compactions) {
    const Instant* i = md.timeline.find(op.compaction_instant);
    if (i != nullptr && i->is_pending() && doomed.contains(op.partition)) blocking.insert(op.compaction_instant);
  }
  plan.blocking_table_services.assign(blocking.begin(), blocking.end());
  if (!plan.expired.empty()) {
    for (const Instant* i : md.timeline.pending()) {
      if (i->action == Action::clustering || i->action == Action::replacecommit) {
        plan.pending_clusterings.push_back(i->requested);
      }
    }
  }
  return plan;
}

}  // namespace lakegc
