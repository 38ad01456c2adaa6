// File: lakegc/plan/plan_archive.hpp
// -----------------------------------------------------------------------------
// plan_archive: a pure function from a table's timeline metadata, the
// archiver's settings and a few facts read beside the timeline (the last
// clean's plan, the metadata table's latest compaction, layout-1 file
// modification times, optionally the file listing) to the instants Hudi's
// timeline archiver would move out of the active timeline now, and for
// every instant its count rule would archive but that stays, why.
//
// Hudi's rules (Hudi 1.2.0: TimelineArchiverV1 for timeline layouts 0-1,
// TimelineArchiverV2 for layout 2, ArchivalUtils, ClusteringUtils,
// CompactionUtils; docs/hudi-archival.md says it in prose):
//
// * Commits (completed commit, deltacommit, replacecommit instants,
//   compactions and clusterings that completed included) are archived only
//   while more than keep.max are active, oldest first, at most
//   (count - keep.min) of them (keep counts: archive_keep_counts.hpp), and
//   none at or after any of these bounds:
//   - pending_write: the newest completed commit before the earliest pending
//     write-timeline instant (commit, deltacommit, replacecommit, compaction,
//     log compaction, clustering), or that pending instant itself;
//   - compaction_window (MOR tables, compaction trigger NUM_COMMITS or
//     NUM_AND_TIME): the latest completed compaction while fewer than
//     max.delta.commits deltacommits "came after it" (by completion time;
//     layout 1 takes the file's modification time as the completion time of
//     every instant, pending ones included), else the deltacommit that keeps
//     max.delta.commits - 1 after it (CompactionUtils
//     .getEarliestInstantToRetainForCompaction). Log compactions complete as
//     deltacommits and count as such; pending ones are pending writes;
//   - clustering: the first replacecommit or clustering instant (any state)
//     at or after the last completed clean's earliest instant to retain,
//     read from that clean's *plan*; at or after the earliest savepoint the
//     plan recorded when a completed replacecommit lies between it and that
//     instant (not under KEEP_LATEST_FILE_VERSIONS); at or after the clean
//     itself when the plan has no earliest instant; with no completed clean,
//     the first replacecommit or clustering instant;
//   - metadata_compaction (tables with a metadata table and
//     hoodie.metadata.enable): layout 1 archives no instant (commits, cleans
//     and rollbacks alike) requested at or after the metadata table's latest
//     completed compaction; layout 2 no commit at or after the first commit
//     that completed after it. No compaction yet: nothing is archived;
//   - savepoint: the first completed savepoint's commit, or, with
//     hoodie.archive.beyond.savepoint, only the savepointed commits
//     themselves stay (holes);
//   - clean_ectr (layout 1, hoodie.archive.block.on.latest.clean.ectr): the
//     first completed commit at or after the last completed clean's earliest
//     commit to retain (from its metadata).
// * Cleans and rollbacks (completed): layout 1 archives each action by its
//   own count (more than keep.max: all but the newest keep.min), whatever
//   happens to commits; layout 2 those requested before the newest commit
//   it archives. Layout 1 applies hoodie.archive.limit.instants (oldest
//   first) to the whole list.
// * Savepoint, restore, indexing and schemacommit instants, and every
//   pending instant, are never archived.
//
// Where lakegc keeps more (each a reason in the plan):
// * replaced_files_on_storage (with the file listing): no commit at or after
//   a completed replacecommit whose replaced file groups still have files on
//   storage. Archiving that replacecommit would make those groups read as
//   live again (duplicates) and the cleaner would never remove them; Hudi's
//   clustering bound misses such groups when a clean passed the
//   replacecommit without deleting them (a savepoint, a partition filter, a
//   capped or KEEP_LATEST_BY_HOURS clean; the simulator's library gaps).
// * metadata_unreadable: a metadata table whose timeline lakegc could not
//   read keeps everything (Hudi fails such a run).
// * clean_plan_unreadable: the last clean's plan unreadable: the clustering
//   bound is the first replacecommit/clustering, as with no clean (Hudi
//   fails such a run).
#pragma once

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "lakegc/core/table_metadata.hpp"
#include "lakegc/core/table_view.hpp"
#include "lakegc/plan/archive_keep_counts.hpp"
#include "lakegc/policy/archive_config.hpp"
#include "lakegc/policy/ttl_config.hpp"  // config::detail::java_split_commas

namespace lakegc {

/// What stops an instant that the count rule alone would archive.
enum class ArchiveStop : std::uint8_t {
  pending_write,
  compaction_window,
  clustering,
  metadata_compaction,
  metadata_unreadable,
  savepoint,
  clean_ectr,
  replaced_files_on_storage,
  clean_plan_unreadable,
  limit_instants,
  after_last_archived_commit,  ///< layout 2: cleans and rollbacks follow the commits
};

constexpr std::string_view to_string(ArchiveStop s) noexcept {
  switch (s) {
    case ArchiveStop::pending_write: return "pending_write";
    case ArchiveStop::compaction_window: return "compaction_window";
    case ArchiveStop::clustering: return "clustering";
    case ArchiveStop::metadata_compaction: return "metadata_compaction";
    case ArchiveStop::metadata_unreadable: return "metadata_unreadable";
    case ArchiveStop::savepoint: return "savepoint";
    case ArchiveStop::clean_ectr: return "clean_ectr";
    case ArchiveStop::replaced_files_on_storage: return "replaced_files_on_storage";
    case ArchiveStop::clean_plan_unreadable: return "clean_plan_unreadable";
    case ArchiveStop::limit_instants: return "limit_instants";
    case ArchiveStop::after_last_archived_commit: return "after_last_archived_commit";
  }
  return "?";
}

/// The facts of the last completed clean's plan (`<t>.clean.requested`,
/// HoodieCleanerPlan) that Hudi's clustering bound reads.
struct ArchiveCleanPlanFacts {
  InstantTime clean;
  /// earliestInstantToRetain.timestamp as written ("" or absent: none).
  std::optional<std::string> earliest_instant_to_retain;
  /// extraMetadata["savepointed_timestamps"] as written (comma-separated).
  std::optional<std::string> savepointed_timestamps;
};

/// The metadata table's state as the archiver reads it.
struct ArchiveMetadataTable {
  /// Empty when lakegc could read the metadata table's timeline.
  std::optional<std::string> unreadable;
  /// Requested time of its latest completed commit/replacecommit (its
  /// compactions); none: never compacted.
  std::optional<InstantTime> latest_compaction;
};

struct ArchiveContext {
  bool merge_on_read = false;
  /// Set when hoodie.properties lists the metadata table's `files` partition.
  std::optional<ArchiveMetadataTable> metadata_table;
  /// The last completed clean's plan; null with a completed clean means it
  /// could not be read (`clean_plan_error` says why).
  const ArchiveCleanPlanFacts* last_clean_plan = nullptr;
  std::string clean_plan_error;
  /// Layout 1: per instant (requested time; savepoints excluded) the
  /// modification time of its newest file, formatted in the JVM's zone:
  /// Hudi 1.x's completion time for layout-1 instants (InstantGeneratorV1).
  /// Missing entries: the requested time stands in.
  std::map<InstantTime, InstantTime> layout1_modified;
  /// The file listing: enables the replaced_files_on_storage bound.
  const TableView* view = nullptr;
};

struct ArchiveBound {
  ArchiveStop rule = ArchiveStop::pending_write;
  /// Nothing at or after this instant is archived (none: nothing at all).
  std::optional<InstantTime> at;
  std::string why;
};

struct ArchiveKept {
  Instant instant;
  std::vector<ArchiveStop> reasons;
};

struct ArchivePlan {
  TimelineLayout layout = TimelineLayout::v2;
  ArchiveKeepCounts keep;
  std::size_t completed_commits = 0;
  /// Why the run archives nothing before any rule is looked at.
  std::vector<std::string> noop_reasons;
  /// Instants to archive, in requested-time order, each with its current
  /// action and state (what Hudi's active timeline shows).
  std::vector<Instant> archived;
  /// Instants the count rule alone would archive that stay, with every
  /// reason that keeps them.
  std::vector<ArchiveKept> kept;
  /// The bounds in force on this table.
  std::vector<ArchiveBound> bounds;
  std::vector<std::string> notes;
};

namespace detail {

inline bool is_replace_or_clustering(Action a) noexcept {
  return a == Action::replacecommit || a == Action::clustering;
}

// findInstantsModifiedAfterByCompletionTime(t): pending instants requested
// after t, completed ones that completed after t (not t itself).
inline bool modified_after(const Instant& i, const InstantTime& t, const ArchiveContext& ctx, TimelineLayout layout) {
  std::optional<InstantTime> completion;
  if (layout == TimelineLayout::v1) {
    auto it = ctx.layout1_modified.find(i.requested);
    completion = it != ctx.layout1_modified.end() ? it->second : i.requested;
  } else if (i.is_completed()) {
    completion = i.completion_or_requested();
  }
  if (!completion) return t < i.requested;
  return t < *completion && i.requested != t;
}

inline std::optional<ArchiveBound> pending_write_bound(const TableMetadata& md) {
  const auto pending = md.timeline.pending_writes();
  if (pending.empty()) return std::nullopt;
  const Instant* first = pending.front();
  std::optional<InstantTime> before;
  for (const Instant* c : md.timeline.completed_commits()) {
    if (c->requested < first->requested) before = c->requested;
  }
  ArchiveBound b{ArchiveStop::pending_write, before ? before : first->requested, {}};
  b.why = before ? fmt::format("the newest completed commit before the earliest pending {} {}",
                               to_string(first->action), first->requested)
                 : fmt::format("the earliest pending {} (no completed commit before it)", to_string(first->action));
  return b;
}

inline std::optional<ArchiveBound> compaction_bound(const TableMetadata& md, const ArchiveSettings& s,
                                                    const ArchiveContext& ctx) {
  if (!ctx.merge_on_read) return std::nullopt;
  if (s.compaction_trigger != CompactionTrigger::num_commits &&
      s.compaction_trigger != CompactionTrigger::num_and_time) {
    return std::nullopt;
  }
  const Instant* last_compaction = nullptr;
  std::vector<const Instant*> deltas;
  for (const Instant& i : md.timeline.instants()) {
    if (i.action == Action::commit && i.is_completed()) last_compaction = &i;
    if (i.action == Action::deltacommit) deltas.push_back(&i);
  }
  std::vector<const Instant*> since;
  const Instant* anchor = nullptr;
  if (last_compaction != nullptr) {
    anchor = last_compaction;
    for (const Instant* d : deltas) {
      if (modified_after(*d, last_compaction->requested, ctx, md.layout)) since.push_back(d);
    }
  } else if (!deltas.empty()) {
    anchor = deltas.front();
    since = deltas;
  } else {
    return std::nullopt;
  }
  const auto max = static_cast<std::size_t>(s.compaction_max_delta_commits);
  ArchiveBound b{ArchiveStop::compaction_window, {}, {}};
  if (since.size() < max) {
    b.at = anchor->requested;
    b.why = fmt::format(
        "{} deltacommit(s) since {} {}, fewer than hoodie.compact.inline.max.delta.commits={}: the "
        "compaction trigger still counts them",
        since.size(), last_compaction ? "the latest compaction" : "the first deltacommit", anchor->requested, max);
  } else {
    b.at = since[since.size() - max]->requested;
    b.why = fmt::format(
        "the deltacommit that keeps {} more after it for the compaction trigger "
        "(hoodie.compact.inline.max.delta.commits={})",
        max - 1, max);
  }
  return b;
}

// Hudi's String.split(","), trailing empties dropped, then sorted: the first.
inline std::string earliest_savepoint_text(const std::string& joined) {
  const std::vector<std::string> parts = config::detail::java_split_commas(joined);
  if (parts.empty()) return {};
  return *std::min_element(parts.begin(), parts.end());
}

inline std::optional<ArchiveBound> clustering_bound(const TableMetadata& md, const ArchiveSettings& s,
                                                    const ArchiveContext& ctx, std::vector<std::string>& notes) {
  std::vector<const Instant*> replaces;
  for (const Instant& i : md.timeline.instants()) {
    if (is_replace_or_clustering(i.action)) replaces.push_back(&i);
  }
  if (replaces.empty()) return std::nullopt;
  const Instant* last_clean = nullptr;
  for (const Instant* c : md.timeline.cleans()) {
    if (c->is_completed()) last_clean = c;
  }
  ArchiveBound b{ArchiveStop::clustering, replaces.front()->requested, {}};
  if (last_clean == nullptr) {
    b.why = fmt::format("the first {} (no completed clean yet)", to_string(replaces.front()->action));
    return b;
  }
  const ArchiveCleanPlanFacts* plan = ctx.last_clean_plan;
  if (plan == nullptr || plan->clean != last_clean->requested) {
    b.rule = ArchiveStop::clean_plan_unreadable;
    b.why = fmt::format("the first {}: the plan of the last clean {} could not be read{}{}",
                        to_string(replaces.front()->action), last_clean->requested,
                        ctx.clean_plan_error.empty() ? "" : ": ", ctx.clean_plan_error);
    notes.push_back(fmt::format("keeps more: {} (Hudi's archiver fails on it)", b.why));
    return b;
  }
  const std::string ectr = plan->earliest_instant_to_retain.value_or("");
  const std::string sp = plan->savepointed_timestamps ? earliest_savepoint_text(*plan->savepointed_timestamps) : "";
  std::string lower;
  std::string from;
  // getEarliestReplacedSavepointInClean (string comparisons, as Hudi's).
  if (s.cleaner_policy != CleanerPolicyKind::keep_latest_file_versions && !ectr.empty() && !sp.empty() && ectr > sp) {
    for (const Instant* c : md.timeline.completed_commits()) {
      const std::string t = c->requested.str();
      if (c->action == Action::replacecommit && sp <= t && t <= ectr) {
        lower = sp;
        from = fmt::format(
            "the earliest savepoint {} the last clean {} recorded (a replacecommit lies between it and "
            "the clean's earliest instant to retain {})",
            sp, last_clean->requested, ectr);
        break;
      }
    }
  }
  if (lower.empty() && !ectr.empty()) {
    lower = ectr;
    from = fmt::format("the last clean {}'s earliest instant to retain {}", last_clean->requested, ectr);
  }
  if (lower.empty()) {
    lower = last_clean->requested.str();
    from = fmt::format("the last clean {} (its plan has no earliest instant to retain)", last_clean->requested);
  }
  for (const Instant* r : replaces) {
    if (r->requested.str() >= lower) {
      b.at = r->requested;
      b.why = fmt::format("the first {} at or after {}", to_string(r->action), from);
      return b;
    }
  }
  return std::nullopt;
}

inline std::optional<ArchiveBound> clean_ectr_bound(const TableMetadata& md, std::vector<std::string>& notes) {
  const Instant* last_clean = nullptr;
  for (const Instant* c : md.timeline.cleans()) {
    if (c->is_completed()) last_clean = c;
  }
  if (last_clean == nullptr) return std::nullopt;
  ArchiveBound b{ArchiveStop::clean_ectr, {}, {}};
  if (!md.last_completed_clean || md.last_completed_clean->instant != last_clean->requested) {
    b.why = fmt::format("the metadata of the last clean {} could not be read (Hudi's archiver fails on it)",
                        last_clean->requested);
    notes.push_back("keeps more: " + b.why);
    return b;
  }
  const auto& ectr = md.last_completed_clean->earliest_commit_to_retain;
  if (!ectr) return std::nullopt;
  for (const Instant* c : md.timeline.completed_commits()) {
    if (!(c->requested < *ectr)) {
      b.at = c->requested;
      b.why = fmt::format(
          "the first commit at or after the last clean {}'s earliest commit to retain {} "
          "(hoodie.archive.block.on.latest.clean.ectr)",
          last_clean->requested, *ectr);
      return b;
    }
  }
  return std::nullopt;
}

inline std::optional<ArchiveBound> replaced_files_bound(const TableMetadata& md, const TableView& view) {
  std::optional<InstantTime> first;
  std::string where;
  for (const Partition& p : view.partitions()) {
    for (const FileGroup& g : view.groups_of(p)) {
      if (!g.replaced_by || (first && !(*g.replaced_by < *first))) continue;
      bool has_files = false;
      for (const FileSlice& sl : view.slices_of(g)) {
        if (sl.base_file != kNoFile || !view.logs_of(sl).empty()) has_files = true;
      }
      if (has_files && md.timeline.is_completed_commit(*g.replaced_by)) {
        first = g.replaced_by;
        where = p.path.empty() ? std::string(view.file_id(g)) : fmt::format("{}/{}", p.path, view.file_id(g));
      }
    }
  }
  if (!first) return std::nullopt;
  return ArchiveBound{ArchiveStop::replaced_files_on_storage, first,
                      fmt::format("replacecommit {} replaced file group {}, whose files are still on storage: "
                                  "archived, the group would read as live again",
                                  *first, where)};
}

inline std::optional<ArchiveBound> metadata_bound_v2(const TableMetadata& md, const ArchiveMetadataTable& mdt,
                                                     const ArchiveContext& ctx) {
  ArchiveBound b{ArchiveStop::metadata_compaction, {}, {}};
  if (mdt.unreadable) {
    b.rule = ArchiveStop::metadata_unreadable;
    b.why = fmt::format("the metadata table could not be read: {}", *mdt.unreadable);
    return b;
  }
  if (!mdt.latest_compaction) {
    b.why = "the metadata table has no completed compaction yet";
    return b;
  }
  for (const Instant* c : md.timeline.completed_commits()) {
    if (modified_after(*c, *mdt.latest_compaction, ctx, md.layout)) {
      b.at = c->requested;
      b.why = fmt::format("the first commit that completed after the metadata table's latest compaction {}",
                          *mdt.latest_compaction);
      return b;
    }
  }
  return std::nullopt;
}

}  // namespace detail

[[nodiscard]] inline StatusOr<ArchivePlan> plan_archive(const TableMetadata& md, const ArchiveSettings& s,
                                                        const ArchiveContext& ctx) {
  ArchivePlan plan;
  plan.layout = md.layout;
  plan.keep = archive_keep_counts(md, s);
  const auto commits = md.timeline.completed_commits();
  plan.completed_commits = commits.size();
  if (!s.table_services_enabled)
    plan.noop_reasons.emplace_back("hoodie.table.services.enabled=false: archive() does nothing");
  if (s.metaserver_enabled)
    plan.noop_reasons.emplace_back("hoodie.metaserver.enabled=true: the metaserver keeps the timeline");
  if (!plan.noop_reasons.empty()) return plan;

  const std::int64_t count = static_cast<std::int64_t>(commits.size());
  const std::int64_t min_keep = plan.keep.min_keep;
  const std::int64_t max_keep = plan.keep.max_keep;
  const bool v1 = md.layout == TimelineLayout::v1;
  const bool commits_due = count > max_keep && count > 0;
  if (commits_due && count - min_keep < 0) {
    return absl::FailedPreconditionError(fmt::format(
        "hoodie.keep.max.commits={} is below hoodie.keep.min.commits={} ({} and {} after the cleaner's adjustment): "
        "with {} commits Hudi's archiver fails (Stream.limit({}))",
        s.max_commits, s.min_commits, max_keep, min_keep, count, count - min_keep));
  }

  // Bounds in force.
  std::vector<ArchiveBound> bounds;
  auto add = [&](std::optional<ArchiveBound> b) {
    if (b) bounds.push_back(std::move(*b));
  };
  add(detail::pending_write_bound(md));
  add(detail::compaction_bound(md, s, ctx));
  add(detail::clustering_bound(md, s, ctx, plan.notes));
  if (v1 && s.block_on_clean_ectr) add(detail::clean_ectr_bound(md, plan.notes));
  if (ctx.view != nullptr) add(detail::replaced_files_bound(md, *ctx.view));
  const bool mdt_applies = s.metadata_enabled && ctx.metadata_table.has_value();
  std::optional<ArchiveBound> mdt_bound;
  if (mdt_applies) {
    const ArchiveMetadataTable& mdt = *ctx.metadata_table;
    if (v1) {
      ArchiveBound b{ArchiveStop::metadata_compaction, mdt.latest_compaction, {}};
      if (mdt.unreadable) {
        b.rule = ArchiveStop::metadata_unreadable;
        b.at.reset();
        b.why = fmt::format("the metadata table could not be read: {}", *mdt.unreadable);
      } else if (!mdt.latest_compaction) {
        b.why = "the metadata table has no completed compaction yet";
      } else {
        b.why = fmt::format("the metadata table's latest compaction {}", *mdt.latest_compaction);
      }
      mdt_bound = b;
    } else {
      mdt_bound = detail::metadata_bound_v2(md, mdt, ctx);
      add(mdt_bound);
    }
    if (mdt_bound && mdt_bound->rule == ArchiveStop::metadata_unreadable) {
      plan.notes.push_back("keeps more: " + mdt_bound->why + " (Hudi's archiver fails on it)");
    }
  }
  std::set<InstantTime> savepointed;
  std::optional<InstantTime> first_savepoint;
  for (const Instant* sp : md.timeline.savepoints()) {
    savepointed.insert(sp->requested);
    if (!first_savepoint || sp->requested < *first_savepoint) first_savepoint = sp->requested;
  }
  if (first_savepoint) {
    plan.bounds.push_back({ArchiveStop::savepoint, s.beyond_savepoint ? std::nullopt : first_savepoint,
                           s.beyond_savepoint ? "savepointed commits stay (hoodie.archive.beyond.savepoint)"
                                              : fmt::format("the first savepoint, of commit {}", *first_savepoint)});
  }
  for (const auto& b : bounds) plan.bounds.push_back(b);
  if (v1 && mdt_bound) plan.bounds.push_back(*mdt_bound);

  auto stops_at = [](const ArchiveBound& b, const InstantTime& t) { return !b.at || !(t < *b.at); };
  auto savepoint_stops = [&](const InstantTime& t) {
    return s.beyond_savepoint ? savepointed.contains(t) : (first_savepoint && !(t < *first_savepoint));
  };

  // Commits.
  std::vector<const Instant*> commit_list;
  if (commits_due) {
    for (const Instant* c : commits) {
      if (static_cast<std::int64_t>(commit_list.size()) >= count - min_keep) break;
      if (savepoint_stops(c->requested)) {
        if (s.beyond_savepoint) continue;
        break;
      }
      if (std::any_of(bounds.begin(), bounds.end(), [&](const ArchiveBound& b) { return stops_at(b, c->requested); })) {
        break;
      }
      commit_list.push_back(c);
    }
  }
  // Cleans and rollbacks.
  std::vector<const Instant*> other_list;
  for (const Action a : {Action::clean, Action::rollback}) {
    std::vector<const Instant*> done;
    for (const Instant& i : md.timeline.instants()) {
      if (i.action == a && i.is_completed()) done.push_back(&i);
    }
    if (v1) {
      const auto n = static_cast<std::int64_t>(done.size());
      if (n > max_keep) {
        if (n - min_keep < 0) {
          return absl::FailedPreconditionError(fmt::format(
              "hoodie.keep.max.commits={} is below hoodie.keep.min.commits={}: with {} {} instants Hudi's archiver "
              "fails (subList(0, {}))",
              s.max_commits, s.min_commits, n, to_string(a), n - min_keep));
        }
        other_list.insert(other_list.end(), done.begin(), done.begin() + (n - min_keep));
      }
    } else if (!commit_list.empty()) {
      for (const Instant* i : done) {
        if (i->requested < commit_list.back()->requested) other_list.push_back(i);
      }
    }
  }
  std::vector<const Instant*> all = commit_list;
  all.insert(all.end(), other_list.begin(), other_list.end());
  std::vector<const Instant*> dropped_by_mdt;
  if (v1 && mdt_bound && !all.empty()) {
    std::vector<const Instant*> kept_in;
    for (const Instant* i : all) (stops_at(*mdt_bound, i->requested) ? dropped_by_mdt : kept_in).push_back(i);
    all = std::move(kept_in);
  }
  std::sort(all.begin(), all.end(), [](const Instant* a, const Instant* b) { return a->requested < b->requested; });
  std::set<const Instant*> over_limit;
  if (v1 && s.limit_instants && static_cast<std::int64_t>(all.size()) > *s.limit_instants) {
    for (std::size_t i = static_cast<std::size_t>(*s.limit_instants); i < all.size(); ++i) over_limit.insert(all[i]);
    all.resize(static_cast<std::size_t>(*s.limit_instants));
  }
  for (const Instant* i : all) plan.archived.push_back(*i);

  // Verdicts: what the count rule alone would archive, and why it stays.
  std::set<InstantTime> archived_set;
  for (const Instant& i : plan.archived) archived_set.insert(i.requested);
  std::vector<const Instant*> candidates;
  if (commits_due) {
    for (std::int64_t k = 0; k < count - min_keep; ++k) candidates.push_back(commits[static_cast<std::size_t>(k)]);
  }
  const InstantTime* last_candidate_commit = candidates.empty() ? nullptr : &candidates.back()->requested;
  for (const Action a : {Action::clean, Action::rollback}) {
    std::vector<const Instant*> done;
    for (const Instant& i : md.timeline.instants()) {
      if (i.action == a && i.is_completed()) done.push_back(&i);
    }
    const auto n = static_cast<std::int64_t>(done.size());
    if (v1 && n > max_keep) candidates.insert(candidates.end(), done.begin(), done.begin() + (n - min_keep));
    if (!v1 && last_candidate_commit != nullptr) {
      for (const Instant* i : done) {
        if (i->requested < *last_candidate_commit) candidates.push_back(i);
      }
    }
  }
  std::sort(candidates.begin(), candidates.end(),
            [](const Instant* a, const Instant* b) { return a->requested < b->requested; });
  for (const Instant* c : candidates) {
    if (archived_set.contains(c->requested)) continue;
    ArchiveKept k{*c, {}};
    const bool is_commit = is_commit_action(c->action);
    if (is_commit) {
      if (savepoint_stops(c->requested)) k.reasons.push_back(ArchiveStop::savepoint);
      for (const auto& b : bounds) {
        if (stops_at(b, c->requested)) k.reasons.push_back(b.rule);
      }
    } else if (!v1) {
      k.reasons.push_back(ArchiveStop::after_last_archived_commit);
    }
    if (std::find(dropped_by_mdt.begin(), dropped_by_mdt.end(), c) != dropped_by_mdt.end() ||
        (v1 && mdt_bound && stops_at(*mdt_bound, c->requested) && is_commit)) {
      k.reasons.push_back(mdt_bound->rule);
    }
    if (over_limit.contains(c)) k.reasons.push_back(ArchiveStop::limit_instants);
    std::sort(k.reasons.begin(), k.reasons.end());
    k.reasons.erase(std::unique(k.reasons.begin(), k.reasons.end()), k.reasons.end());
    plan.kept.push_back(std::move(k));
  }
  if (!commits_due) {
    plan.notes.push_back(
        fmt::format("{} completed commit(s), not more than hoodie.keep.max.commits={}{}: no commit is "
                    "due",
                    count, max_keep, plan.keep.raised ? " (raised for the cleaner)" : ""));
  }
  return plan;
}

}  // namespace lakegc
