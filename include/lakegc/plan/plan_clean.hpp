// File: lakegc/plan/plan_clean.hpp
// -----------------------------------------------------------------------------
// plan_clean: a pure function from a TableView, the table's metadata, a
// cleaning policy and a context (time, reader leases) to a CleanPlan. No I/O.
//
// Per file group (docs/hudi-rules.md §4 to §6):
//
// * boundary rules keep the latest slice and the newest slice before the
//   boundary (the one a query pinned just before the boundary reads), and
//   delete a slice only if its base instant is strictly before the boundary;
// * version rules keep the newest N slices; with a pending compaction the
//   slices it needs count as one of them;
// * a slice goes as a unit: base file and every log file (CDC logs too);
// * replaced file groups go whole once their replacecommit is before the
//   boundary (at once under version rules);
// * guards then veto: savepointed slices (base or any log named by a
//   savepoint), slices at or after a pending compaction's base instant,
//   slices holding a file a pending write's markers name (the write may be
//   running and appending to it; Hudi, listing through its metadata table,
//   never sees such a file), slices a leased snapshot reads, and user
//   guards.
//
// Before a partition is planned its listing is checked against the
// metadata (listing_check.hpp): one that lacks files the metadata proves
// exist is skipped and reported (CleanPlan::skipped_partitions).
//
// Partitions are independent: plan_partition() plans one, so a job can run
// partitions on a thread pool or shard them across machines.
#pragma once

#include <algorithm>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <absl/strings/str_join.h>

#include "lakegc/core/name_prefix_key.hpp"
#include "lakegc/plan/clean_plan.hpp"
#include "lakegc/plan/clean_scope.hpp"
#include "lakegc/plan/clean_verdict.hpp"
#include "lakegc/plan/index_order.hpp"
#include "lakegc/plan/listing_check.hpp"
#include "lakegc/policy/cleaning.hpp"

namespace lakegc {

/// Planning inputs that are not table state.
struct CleanContext {
  std::int64_t now_ms = 0;
  /// Snapshots that readers hold (guard::reader_leases).
  std::vector<InstantTime> leases;
};

/// The part of a policy's decision that every partition shares.
struct CleanDecision {
  Retention retention;
  GuardFlags guards;
  ScopeSettings settings;
  std::string policy_name;
};

template <CleaningPolicy P>
CleanDecision decide_clean(const TableMetadata& md, const P& policy, const CleanContext& ctx) {
  CleanDecision d;
  d.guards = policy.guards();
  d.settings = policy.scope();
  d.policy_name = policy.name();
  RetentionContext rc{md, ctx.now_ms, d.settings.max_commits_to_clean, d.guards.pending_table_services};
  d.retention = policy.retention(rc);
  return d;
}

namespace detail {

// A file of the slice is named by a pending write's markers: the write
// created it or appends to it and may still be running. (This flag and the
// next are gathered from the slice's files when the view is built.)
inline bool slice_has_pending_write(const FileSlice& s) { return s.pending_write != 0; }

// A savepoint names the slice's base file or one of its logs.
inline bool slice_savepointed(const FileSlice& s) { return s.savepointed != 0; }

// Index of the slice a snapshot at `t` reads in a group (newest first), or -1.
inline std::ptrdiff_t slice_read_at(std::span<const FileSlice> slices, const InstantTime& t) {
  for (std::size_t i = 0; i < slices.size(); ++i) {
    if (slices[i].base_instant <= t) return static_cast<std::ptrdiff_t>(i);
  }
  return -1;
}

}  // namespace detail

/// What planning one partition decided besides its files (which
/// plan_partition appends to the plan's PlannedFiles): whether the
/// partition itself goes.
struct PartitionPlan {
  bool delete_partition = false;
  /// A reader lease kept a slice the decision would delete.
  bool lease_vetoed = false;
  /// The earliest replacecommit (requested time) whose replaced files the
  /// boundary would delete but a guard other than savepoints kept (a
  /// pending compaction, a reader lease, a user guard). plan_clean keeps the
  /// boundary from passing it: Hudi's archiver archives a replacecommit
  /// once the last clean's earliest instant to retain has passed it, and
  /// the replaced group would then read as live again (duplicates).
  std::optional<InstantTime> guarded_replace;
};

/// Which guards keep a slice: a bit set of these.
inline constexpr unsigned kNotGuarded = 0;
inline constexpr unsigned kGuardSavepoint = 1;
inline constexpr unsigned kGuardPendingCompaction = 2;
inline constexpr unsigned kGuardLease = 4;
inline constexpr unsigned kGuardUser = 8;
inline constexpr unsigned kGuardPendingWrite = 16;

namespace detail {

// A file the plan deletes, before it is appended to the plan: the files of
// a partition are collected, sorted by name, and only then appended, each
// once into a run of exactly the right size (sorting and growing a vector
// of planned files moved every name several times; callgrind put
// emit_group and the sort at a third of plan_partition).
struct PickedFile {
  std::string_view name;
  std::uint32_t file = 0;
  DeleteReason reason = DeleteReason::older_than_boundary;
  InstantTime slice;
};

// A name's sort key: its first eight bytes as a number, and its index.
using NameKey = std::pair<std::uint64_t, std::uint32_t>;

// Sorts `keys` to the order of `files` by name (keys[k].second indexes
// `files`).
inline void sort_by_name(const std::vector<PickedFile>& files, std::vector<NameKey>& keys) {
  keys.clear();
  for (std::uint32_t i = 0; i < files.size(); ++i) keys.emplace_back(name_prefix_key(files[i].name), i);
  std::sort(keys.begin(), keys.end(), [&](const NameKey& a, const NameKey& b) {
    if (a.first != b.first) return a.first < b.first;
    const int c = files[a.second].name.compare(files[b.second].name);
    return c != 0 ? c < 0 : a.second < b.second;  // equal names keep their order: deterministic
  });
}

// A slice's verdict in plan_partition's per-slice scratch: kept, or
// deleted for a reason (the reason + 1). One byte per slice, so a group's
// verdicts are reset with one fill, not one per field.
inline constexpr std::uint8_t kSliceKept = 0;
constexpr std::uint8_t slice_deleted_for(DeleteReason r) noexcept { return static_cast<std::uint8_t>(r) + 1; }
constexpr DeleteReason slice_delete_reason(std::uint8_t verdict) noexcept {
  return static_cast<DeleteReason>(verdict - 1);
}

// Emits the files of a deleted slice `s`. A log whose slice is uncertain
// (TableView::completion_unknown) can belong to its slice or any newer one,
// so it goes only when every slice from the newest down to its own goes
// (`all_newer_deleted`, this one included).
inline void emit_slice(const TableView& v, const FileSlice& s, DeleteReason why, bool all_newer_deleted,
                       std::vector<PickedFile>& out) {
  // Names are looked up later, all at once (append_planned_deletes).
  if (s.base_file != kNoFile) {
    v.prefetch_file(s.base_file);
    out.push_back({std::string_view(), s.base_file, why, s.base_instant});
  }
  const bool keep_uncertain = !all_newer_deleted && v.completion_unknown_count() != 0;
  for (auto f : v.logs_of(s)) {
    if (keep_uncertain && v.completion_unknown(f)) continue;
    v.prefetch_file(f);
    out.push_back({std::string_view(), f, why, s.base_instant});
  }
}

// Emits the deleted slices of one group: slice i (newest first) goes when
// verdicts[i] is not kSliceKept.
inline void emit_group(const TableView& v, std::span<const FileSlice> slices, const std::vector<std::uint8_t>& verdicts,
                       std::vector<PickedFile>& out) {
  bool all_newer_deleted = true;
  for (std::size_t i = 0; i < slices.size(); ++i) {
    const bool deleted = verdicts[i] != kSliceKept;
    all_newer_deleted = all_newer_deleted && deleted;
    if (deleted) emit_slice(v, slices[i], slice_delete_reason(verdicts[i]), all_newer_deleted, out);
  }
}

// Under boundary rules alone, the first slice (newest first, instants
// strictly decreasing) the rules delete: the first older than the boundary,
// or the one after it when the newest before the boundary is kept, and
// never the latest. Every slice from there on is deleted unless a guard
// keeps it. Always at least 1; slices.size() when the rules delete none
// (a group always has a slice). The one statement of the boundary rule:
// the one-pass path and the verdict loop of plan_partition both use it.
inline std::size_t first_deleted_by_boundary(std::span<const FileSlice> slices, const InstantTime& ectr,
                                             bool keep_newest_before_boundary) {
  std::size_t i = 0;
  while (i < slices.size() && !(slices[i].base_instant < ectr)) ++i;
  if (i < slices.size() && keep_newest_before_boundary) ++i;
  return std::max<std::size_t>(i, 1);
}

// Appends the picked files to `part`'s in the plan, sorted by name (`order`
// and `keys` are scratch).
inline void append_planned_deletes(const TableView& v, const Partition& part, std::vector<PickedFile>& picked,
                                   IndexOrder& order, std::vector<NameKey>& keys, PlannedFiles& into) {
  if (picked.empty()) return;
  // The plan's names stay in the view's text, which the plan keeps alive.
  into.hold(v.name_owner());
  const std::span<PlannedDelete> out = into.append_held(part.path, picked.size());
  auto put = [&](std::size_t at, const PickedFile& p) {
    out[at] = PlannedDelete{v.file_name(p.file), v.file_size(p.file), p.reason, p.slice};
  };
  if (part.files_in_name_order) {
    // Listed in name order (every real listing): file indices ascend with
    // names, so the order never reads a name, and the names' text is never
    // touched (the plan refers to it). The file records are the only
    // misses left: independent loads in the loop below, which the CPU
    // overlaps.
    const auto& by_file = order.ascending(picked.size(), [&](std::size_t i) { return picked[i].file; });
    for (std::size_t at = 0; at < by_file.size(); ++at) put(at, picked[by_file[at]]);
    return;
  }
  // Each name is a cache miss on a large view (its file record). In this
  // loop of independent loads the CPU overlaps them; made in emit_group,
  // between each group's other work, they were a fifth of planning at 1M
  // slices (bench/README.md).
  // The text is the next miss (the sort reads each name's first bytes):
  // asked for here, it arrives while the later lookups run.
  for (PickedFile& p : picked) {
    p.name = v.file_name(p.file);
    __builtin_prefetch(p.name.data());
  }
  sort_by_name(picked, keys);
  for (std::size_t at = 0; at < keys.size(); ++at) put(at, picked[keys[at].second]);
}

// Under boundary rules alone, whether a live group (slices newest first,
// instants strictly decreasing) has any slice the rules would delete: one
// older than the boundary that is neither the latest slice nor, when kept,
// the newest before the boundary. Those slices are a suffix, so the answer
// is in the oldest (or second-oldest) slice; most groups of a table have
// nothing to delete and cost one comparison.
inline bool boundary_may_delete(std::span<const FileSlice> slices, const InstantTime& ectr,
                                bool keep_newest_before_boundary) {
  if (slices.size() < 2) return false;
  const FileSlice& probe = keep_newest_before_boundary ? slices[slices.size() - 2] : slices.back();
  return probe.base_instant < ectr;
}

// The KeepReason bits of a set of guards (kGuard* bits).
inline std::uint32_t keep_reasons_of(unsigned guards) {
  std::uint32_t out = 0;
  if (guards & kGuardSavepoint) out |= kKeepSavepoint;
  if (guards & kGuardPendingCompaction) out |= kKeepPendingCompaction;
  if (guards & kGuardLease) out |= kKeepLeased;
  if (guards & kGuardUser) out |= kKeepUserGuard;
  if (guards & kGuardPendingWrite) out |= kKeepPendingWrite;
  return out;
}

// Hands one verdict per slice of a group to `sink` (verdicts[i] and keep[i]
// as plan_partition decided them).
inline void report_group(const TableView& v, const Partition& part, const FileGroup& g,
                         const std::vector<std::uint8_t>& verdicts, const std::vector<std::uint32_t>& keep,
                         const VerdictSink& sink) {
  const auto slices = v.slices_of(g);
  bool all_newer_deleted = true;
  for (std::size_t i = 0; i < slices.size(); ++i) {
    const bool deleted = verdicts[i] != kSliceKept;
    all_newer_deleted = all_newer_deleted && deleted;
    SliceVerdict verdict{&part, &g, &slices[i], std::nullopt, 0, 0};
    if (deleted) {
      verdict.deleted = slice_delete_reason(verdicts[i]);
      if (!all_newer_deleted) {
        for (auto f : v.logs_of(slices[i])) verdict.uncertain_logs_kept += v.completion_unknown(f) ? 1 : 0;
      }
    } else {
      verdict.kept = keep[i];
    }
    sink(verdict);
  }
}

}  // namespace detail

/// Buffers plan_partition reuses from one group and one partition to the
/// next: per-slice verdicts, the picked files and their order. One per
/// thread. Allocated for every partition they were a few thousand heap
/// blocks of many sizes per plan, and glibc's malloc spent more time
/// sorting the freed ones into its large bins than the planner spent
/// planning (bench/README.md, "A plan's files in blocks").
struct PartitionScratch {
  std::vector<std::uint8_t> verdicts;  // per slice: detail::kSliceKept or detail::slice_deleted_for
  std::vector<std::uint32_t> keep;     // KeepReason bits per slice, with a sink only
  std::vector<detail::PickedFile> picked;
  IndexOrder file_order;
  std::vector<detail::NameKey> name_keys;
};

/// Plans one partition: appends the files the decision deletes to
/// `files` (as `part.path`'s, sorted by name) and returns the rest of what
/// it decided. `files` must not hold `part.path` already.
template <CleaningPolicy P>
PartitionPlan plan_partition(const TableView& v, const Partition& part, const CleanDecision& d, const P& policy,
                             const CleanContext& ctx, bool table_partitioned, PlannedFiles& files,
                             PartitionScratch& scratch, const VerdictSink* sink = nullptr) {
  PartitionPlan out;
  const Retention& r = d.retention;
  const bool boundary = r.has_boundary;
  const bool versions = r.versions.has_value();
  std::vector<std::uint8_t>& verdicts = scratch.verdicts;
  std::vector<std::uint32_t>& keep = scratch.keep;
  std::vector<detail::PickedFile>& picked = scratch.picked;
  picked.clear();
  bool replaced_fully_deleted = true;
  bool any_live = false;

  auto guarded_by = [&](const FileGroup& g, std::span<const FileSlice> slices, std::size_t i) -> unsigned {
    const FileSlice& s = slices[i];
    unsigned by = kNotGuarded;
    if (d.guards.savepoints && detail::slice_savepointed(s)) by |= kGuardSavepoint;
    if (d.guards.pending_table_services && g.pending_compaction_base && s.base_instant >= *g.pending_compaction_base) {
      by |= kGuardPendingCompaction;
    }
    if (d.guards.pending_table_services && detail::slice_has_pending_write(s)) by |= kGuardPendingWrite;
    if (d.guards.reader_leases) {
      for (const InstantTime& lease : ctx.leases) {
        if (g.replaced_by && *g.replaced_by <= lease) continue;  // not in that snapshot
        if (detail::slice_read_at(slices, lease) == static_cast<std::ptrdiff_t>(i)) {
          by |= kGuardLease;
          break;
        }
      }
    }
    if (policy.user_guards_protect(SliceGuardContext{v, part, g, s})) by |= kGuardUser;
    return by;
  };

  for (const FileGroup& g : v.groups_of(part)) {
    const auto slices = v.slices_of(g);
    if (g.replaced_by) {
      verdicts.assign(slices.size(), detail::kSliceKept);
      const bool by_boundary = boundary && r.ectr && *g.replaced_by < *r.ectr;
      const bool eligible =
          boundary && versions ? (r.keep_if_either ? by_boundary : true) : (boundary ? by_boundary : true);
      if (sink != nullptr) keep.assign(slices.size(), 0);
      for (std::size_t i = 0; i < slices.size(); ++i) {
        const unsigned by = eligible ? guarded_by(g, slices, i) : kNotGuarded;
        if (sink != nullptr) {
          if (!eligible) keep[i] |= kKeepReplacedNotYet;
          keep[i] |= detail::keep_reasons_of(eligible ? by : guarded_by(g, slices, i));
        }
        if (by & kGuardLease) out.lease_vetoed = true;
        if (eligible && by == kNotGuarded) {
          verdicts[i] = detail::slice_deleted_for(DeleteReason::replaced_group);
          continue;
        }
        replaced_fully_deleted = false;
        if (by_boundary && (by & ~kGuardSavepoint) != 0 &&
            (!out.guarded_replace || *g.replaced_by < *out.guarded_replace)) {
          out.guarded_replace = g.replaced_by;
        }
      }
      detail::emit_group(v, slices, verdicts, picked);
      if (sink != nullptr) detail::report_group(v, part, g, verdicts, keep, *sink);
      continue;
    }
    any_live = true;
    // Boundary rules alone, nothing older than the boundary to delete: the
    // group adds nothing (guards veto only candidates), so skip its
    // per-slice work. With a sink every slice still gets its verdict below.
    if (sink == nullptr && boundary && !versions &&
        (!r.ectr || !detail::boundary_may_delete(slices, *r.ectr, r.keep_newest_before_boundary))) {
      continue;
    }
    if (sink == nullptr && boundary && !versions) {
      // Boundary rules alone (r.ectr is set: checked above): the deleted
      // slices are a suffix, decided and emitted in one pass over it,
      // without the per-slice verdicts (three walks of a touched group's
      // slices were most of an incremental plan, bench/README.md). The
      // same decisions as the loop below; the latest slice stays, so no
      // uncertain log goes (emit_slice).
      const std::size_t first = detail::first_deleted_by_boundary(slices, *r.ectr, r.keep_newest_before_boundary);
      for (std::size_t i = first; i < slices.size(); ++i) {
        const unsigned by = guarded_by(g, slices, i);
        if (by & kGuardLease) out.lease_vetoed = true;
        if (by != kNotGuarded) continue;
        detail::emit_slice(v, slices[i], DeleteReason::older_than_boundary, false, picked);
      }
      continue;
    }
    verdicts.assign(slices.size(), detail::kSliceKept);
    if (sink != nullptr) keep.assign(slices.size(), 0);
    // Where the boundary rule's deleted suffix starts (none: slices.size()).
    const std::size_t boundary_deletes_from =
        boundary && r.ectr ? detail::first_deleted_by_boundary(slices, *r.ectr, r.keep_newest_before_boundary)
                           : slices.size();
    const bool compacting = d.guards.pending_table_services && g.pending_compaction_base.has_value();
    std::uint32_t versions_kept = versions ? *r.versions : 0;
    if (compacting && versions_kept > 0) --versions_kept;  // the slices being compacted count as one version
    std::uint32_t versions_seen = 0;
    for (std::size_t i = 0; i < slices.size(); ++i) {
      const bool before_boundary = boundary && r.ectr && slices[i].base_instant < *r.ectr;
      const bool del_b = i >= boundary_deletes_from;
      // Only the reasons a sink reports need it: the newest slice before the
      // boundary, just ahead of the deleted suffix.
      const bool newest_kept = r.keep_newest_before_boundary && before_boundary && i + 1 == boundary_deletes_from;
      const bool in_compaction = compacting && slices[i].base_instant >= *g.pending_compaction_base;
      const bool del_v = versions && !in_compaction && versions_seen++ >= versions_kept;
      if (sink != nullptr) {
        // Why the slice would stay by the rules alone, and which guards keep it.
        std::uint32_t& kept = keep[i];
        if (i == 0) kept |= kKeepLatest;
        if (boundary && !r.ectr) kept |= kKeepNoBoundary;
        if (boundary && r.ectr && !before_boundary) kept |= kKeepInsideWindow;
        if (boundary && r.ectr && newest_kept) kept |= kKeepNewestBeforeBoundary;
        if (versions && !del_v && !in_compaction) kept |= kKeepWithinVersions;
        kept |= detail::keep_reasons_of(guarded_by(g, slices, i));
      }
      bool d_i;
      if (boundary && versions) {
        d_i = r.keep_if_either ? (del_b && del_v) : (del_b || del_v);
      } else {
        d_i = boundary ? del_b : del_v;
      }
      if (!d_i) continue;
      const unsigned by = guarded_by(g, slices, i);
      if (by & kGuardLease) out.lease_vetoed = true;
      if (by != kNotGuarded) continue;
      verdicts[i] = detail::slice_deleted_for(boundary && !versions ? DeleteReason::older_than_boundary
                                              : !boundary           ? DeleteReason::beyond_versions
                                              : del_b               ? DeleteReason::older_than_boundary
                                                                    : DeleteReason::beyond_versions);
    }
    detail::emit_group(v, slices, verdicts, picked);
    if (sink != nullptr) detail::report_group(v, part, g, verdicts, keep, *sink);
  }
  detail::append_planned_deletes(v, part, picked, scratch.file_order, scratch.name_keys, files);

  // A partition goes only when replacement emptied it: no live group, a raw
  // listing agrees (files of in-flight writes keep it), nothing replaced at
  // or after the boundary, and every replaced file in it goes in this plan.
  // lakegc also requires that something was replaced here, so a partition a
  // writer has just created (metadata file only) is never removed; Hudi
  // would remove it.
  const bool replaced_before_boundary =
      !boundary || !r.ectr ? !boundary : (part.last_replace && *part.last_replace < *r.ectr);
  out.delete_partition = table_partitioned && !part.path.empty() && !any_live && !part.raw_has_unreplaced_files &&
                         part.last_replace.has_value() && replaced_fully_deleted && replaced_before_boundary;
  return out;
}

/// A plan's table-wide fields, before any partition is planned: policy,
/// earliest instant to retain, last completed commit, and the savepoints
/// that existed (extraMetadata "savepointed_timestamps", which the next
/// incremental clean compares against).
inline CleanPlan plan_header(const TableMetadata& md, const CleanDecision& d) {
  CleanPlan plan;
  plan.policy = d.policy_name;
  plan.earliest_instant_to_retain = d.retention.has_boundary ? d.retention.ectr : std::nullopt;
  plan.last_completed_commit_timestamp = md.timeline.last_completed_commit();
  if (md.partitioned && !md.savepoints.empty()) {
    std::vector<std::string> sp;
    for (const auto& s : md.savepoints) sp.push_back(s.instant.str());
    plan.extra_metadata[std::string(kSavepointedTimestampsKey)] = absl::StrJoin(sp, ",");
  }
  return plan;
}

/// Plans a clean. Errors only for invalid policy settings (a bad partition
/// regex); an empty plan is a normal answer.
template <CleaningPolicy P>
[[nodiscard]] StatusOr<CleanPlan> plan_clean(const TableView& v, const TableMetadata& md, const P& policy,
                                             const CleanContext& ctx, CleanScope* scope_out = nullptr,
                                             const VerdictSink* verdicts = nullptr) {
  CleanDecision d = decide_clean(md, policy, ctx);
  CleanPlan plan;
  CleanScope scope;
  std::vector<std::string> lease_vetoed;
  PartitionScratch scratch;
  // Plans with the decision's boundary; if a guard (other than savepoints,
  // which Hudi's archiver itself respects) kept the files of a group
  // replaced before the boundary, the boundary comes back to that
  // replacecommit and the table is planned again. The boundary only moves
  // back, so this ends; it runs twice only when a guard holds replaced files.
  for (;;) {
    plan = plan_header(md, d);
    LAKEGC_ASSIGN_OR_RETURN(scope, compute_clean_scope(v, md, d.retention, d.settings));
    lease_vetoed.clear();
    // A partition whose listing lacks files the metadata proves exist is
    // not planned from it (listing_check.hpp): reported, and planned again
    // by the next clean.
    plan.skipped_partitions = find_listing_gaps(v, md, scope.partitions);
    std::set<std::string> skipped;
    for (const ListingGap& g : plan.skipped_partitions) skipped.insert(g.partition);
    std::optional<InstantTime> guarded_replace;
    for (std::uint32_t pi : scope.partitions) {
      const Partition& part = v.partitions()[pi];
      if (skipped.contains(part.path)) continue;
      const PartitionPlan pp =
          plan_partition(v, part, d, policy, ctx, md.partitioned, plan.files_per_partition, scratch);
      if (pp.delete_partition) plan.partitions_to_be_deleted.push_back(part.path);
      if (pp.lease_vetoed) lease_vetoed.push_back(part.path);
      if (pp.guarded_replace && (!guarded_replace || *pp.guarded_replace < *guarded_replace)) {
        guarded_replace = pp.guarded_replace;
      }
    }
    const auto& ectr = d.retention.ectr;
    if (!d.retention.clamp_to_guarded_replaces) break;  // only the simulator's canary turns this off
    if (!guarded_replace || !d.retention.has_boundary || !ectr || !(*guarded_replace < *ectr)) break;
    d.retention.ectr = guarded_replace;
  }
  if (verdicts != nullptr) {
    // The verdicts of the final pass: scanned partitions planned again with
    // the sink (plan_partition is pure, so the plan is the same), the
    // others with why they were not looked at.
    std::set<std::string> skipped;
    for (const ListingGap& g : plan.skipped_partitions) skipped.insert(g.partition);
    for (std::uint32_t pi = 0; pi < v.partitions().size(); ++pi) {
      const Partition& part = v.partitions()[pi];
      const bool scanned = std::binary_search(scope.partitions.begin(), scope.partitions.end(), pi);
      if (scanned && !skipped.contains(part.path)) {
        PlannedFiles again;
        (void)plan_partition(v, part, d, policy, ctx, md.partitioned, again, scratch, verdicts);
        continue;
      }
      const std::uint32_t why = skipped.contains(part.path)    ? kKeepListingGap
                                : scope.kind == ScanKind::none ? kKeepNoBoundary
                                                               : kKeepNotInScope;
      for (const FileGroup& g : v.groups_of(part)) {
        for (const FileSlice& s : v.slices_of(g)) (*verdicts)(SliceVerdict{&part, &g, &s, std::nullopt, why, 0});
      }
    }
  }
  if (!lease_vetoed.empty())
    plan.extra_metadata[std::string(kLeaseVetoedPartitionsKey)] = absl::StrJoin(lease_vetoed, "\n");
  if (!plan.skipped_partitions.empty()) {
    plan.extra_metadata[std::string(kListingSkippedPartitionsKey)] = absl::StrJoin(
        plan.skipped_partitions, "\n", [](std::string* out, const ListingGap& g) { out->append(g.partition); });
  }

  // Empty clean (Hudi 1.2): on an append-only table nothing is ever
  // deletable, so without a clean instant the incremental anchor would never
  // move and, once archived, every clean would scan everything (6953, 17844).
  if (!plan.has_work() && d.settings.incremental && d.settings.empty_clean_interval_hours &&
      plan.earliest_instant_to_retain) {
    const auto& prev = md.last_completed_clean;
    bool due = !prev.has_value();
    if (prev) {
      auto prev_ms = prev->instant.to_epoch_ms(md.timezone);
      due = !prev_ms.ok() ||
            ctx.now_ms - *prev_ms > static_cast<std::int64_t>(*d.settings.empty_clean_interval_hours) * 3'600'000;
      // Never move the anchor backwards.
      if (prev->earliest_commit_to_retain && *prev->earliest_commit_to_retain > *plan.earliest_instant_to_retain) {
        plan.earliest_instant_to_retain = prev->earliest_commit_to_retain;
      }
    }
    plan.empty_clean = due;
  }
  if (scope_out != nullptr) *scope_out = std::move(scope);
  return plan;
}

/// The retention rule's boundary when plan_clean held `plan`'s earliest
/// instant to retain back before it (at a replacecommit whose replaced files
/// a guard kept: see plan_clean); nullopt when the plan keeps the rule's own
/// boundary. Derived from the decision rather than recorded in CleanPlan so
/// that the plan stays exactly Hudi's HoodieCleanerPlan. Operators ask why
/// lakegc keeps more than Hudi's KEEP_LATEST_BY_HOURS would: this says.
template <CleaningPolicy P>
[[nodiscard]] std::optional<InstantTime> boundary_held_from(const TableMetadata& md, const P& policy,
                                                            const CleanContext& ctx, const CleanPlan& plan) {
  const CleanDecision d = decide_clean(md, policy, ctx);
  if (!d.retention.has_boundary || !d.retention.ectr || !plan.earliest_instant_to_retain) return std::nullopt;
  if (!(*plan.earliest_instant_to_retain < *d.retention.ectr)) return std::nullopt;
  return d.retention.ectr;
}

}  // namespace lakegc
