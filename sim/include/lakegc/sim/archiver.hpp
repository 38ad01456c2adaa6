// File: lakegc/sim/archiver.hpp
// -----------------------------------------------------------------------------
// The archiver moves old completed instants out of the active timeline
// (memory_journal::archive) as Hudi's archiver would: its decision is the
// library's plan_archive (plan_archive.hpp states Hudi's rules per layout,
// from TimelineArchiverV1 / TimelineArchiverV2, ArchivalUtils and
// ClusteringUtils), called without the file listing, so without lakegc's
// own replaced_files_on_storage bound: the simulator's archiver is as
// unsafe as Hudi's, no more careful. What keeps tables readable after it
// runs is the library's cleaning (notably plan_clean's clamp at guarded
// replacecommits), and the checks after every archival (I4, exactly: the
// latest snapshot neither loses a file nor reads a replaced group again).
//
// What the simulator gives plan_archive: keep.min / keep.max from the swarm,
// the cleaner's hoodie.clean.* settings of the run's policy (so keep counts
// rise as ArchivalUtils raises them: KEEP_LATEST_BY_HOURS is measured from
// the newest commit, not from now; a policy composed in C++ has no such
// settings, and the policy's own earliest commit to retain raises them
// instead), the last clean's plan (its earliest instant to retain, and its
// savepoints mapped to the commits they savepoint, as Hudi records them), a
// compaction trigger by time (the simulator schedules compaction by time,
// so the MOR compaction window does not apply) and no metadata table.
//
// Savepoint, restore and indexing instants are never archived (memory_journal
// refuses them too). So swarms grow tables whose oldest active instants are
// cleans, rollbacks and indexing instants (the indexer, world.hpp) older
// than every write: the orphan sweep must take the start of the write
// timeline, not of the timeline (the orphans-all-actions-start canary).
//
// The simulator's own bounds cut the commits plan_archive archives (and, in
// layout 2, the cleans and rollbacks after the last one left):
//
// * the first savepointed commit: Hudi gives a savepoint its commit's
//   time, the simulator's savepoints have times of their own
//   (savepointer.hpp), so plan_archive's savepoint bound sits at the
//   savepoint's later instant;
// * orphans of abandoned writes (a write rolled back with its files left
//   on storage; Hudi's rollback deletes them by markers). Once the write
//   timeline starts after an orphan's instant, Hudi's view (and lakegc's)
//   takes its base files and layout-2 logs for committed data, so the
//   newest completed commit before the earliest orphan still on storage
//   stays active until the orphan sweep deletes it (I3 judges the sweep).
//   Layout-1 log orphans do not hold archival: a layout-1 log is named by
//   its slice's base instant, whichever write appended it, so the
//   timeline's start does not change what it is.
//
// CANARY archive-ignores-replaced-groups (SwarmConfig::
// archive_ignores_replaced_groups, Hudi issue 6938): the commits only
// plan_archive's clustering bound kept are archived too.
//
// After the liveness phase's archival, check_timeline_bounded (I6) bounds
// the active timeline by keep.max and what the bounds hold back.
//
// Four more bounds stand in for library gaps, where neither Hudi's
// archiver nor lakegc's cleaning keeps a replaced group from reading as
// live again (all found by this archiver; SwarmConfig::archiver_gaps_off,
// lakegc-sim --strict-archiver, turns them off to reproduce, and
// tests/unit/sim/archiver_test.cpp pins seeds that need them):
//
// (a) a savepoint taken while a clustering was pending names files of a
//     group that clustering replaces; the replacecommit is requested before
//     the savepointed commit, so archival (which stops only at the
//     savepointed commit) archives it while the savepoint keeps the files
//     (or after the savepoint is deleted, before a clean removes them: the
//     bound also looks at the savepoints the last clean recorded).
//     plan_clean does not clamp at replacecommits whose files only a
//     savepoint keeps, and Hudi's guard for deleted savepoints covers only
//     replacecommits after the savepoint;
// (b) under a version rule (KEEP_LATEST_FILE_VERSIONS) a guard (a reader
//     lease, or a savepoint deleted since) keeps a replaced group's files:
//     Hudi's archiver retains only replacecommits at or after the last
//     clean instant (and skips its deleted-savepoint guard under this
//     policy), and a plan without a boundary has no earliest instant to
//     retain to clamp;
// (c) a clean planned from a silently truncated listing that did not show a
//     replaced group's files: its boundary passes the replacecommit with
//     the files still on storage (listing_check.hpp checks live groups
//     only). Rare: none in the default swarms' first 1500 seeds, several in
//     the replace-unclamped canary's swarms with the clamped policy;
// (d) a clustering still pending when a clean's boundary passed its
//     requested time (KEEP_LATEST_BY_HOURS does not stop at pending
//     instants, and no empty clean is written by default) completes
//     afterwards: its replaced groups wait for the next clean whose boundary
//     passes the replacecommit, but Hudi's clustering bound looks only at
//     replacecommits at or after the last clean's earliest instant to
//     retain, so archival takes the replacecommit first. Found by the
//     RapidCheck schedule property (tests/property/sim).
//
// The archiver stops before such a replacecommit while its replaced files
// are on storage (stats.archival_gap_holds counts, per case, the runs such a
// bound was the one that stopped commit archival).
//
// Hudi has no notion of reader leases, and the archiver ignores them: a
// lease that keeps a replaced group's files is the cleaner's to honour, by
// keeping its earliest instant to retain at or before that replacecommit
// (plan_clean's clamp), so that the rule above retains it.
#pragma once

#include <algorithm>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <absl/strings/str_join.h>

#include "lakegc/core/file_name.hpp"
#include "lakegc/core/load_view.hpp"
#include "lakegc/plan/plan_archive.hpp"
#include "lakegc/sim/checkers.hpp"
#include "lakegc/sim/table.hpp"

namespace lakegc::sim {

/// What one archival run archives, and why commits stopped where they did.
struct ArchivalDecision {
  std::vector<InstantTime> commits;  // completed commit-timeline instants, ascending
  std::vector<InstantTime> others;   // completed clean and rollback instants, ascending
  std::uint32_t min_keep = 0;        // keep.min / keep.max after ArchivalUtils' adjustment
  std::uint32_t max_keep = 0;
  std::string why;  // the bound that stopped commit archival
  char gap = 0;     // 'a'..'d': a library-gap bound (see the header) stopped it
  /// The earliest bound in force (plan_archive's and the simulator's): no
  /// commit at or after it is archived.
  std::optional<InstantTime> held_from;
};

/// I6, the timeline's part: after the liveness phase's archival, the
/// active timeline holds at most max(keep.max, H) completed commits, where
/// keep.max is as ArchivalUtils raised it and H counts the commits at or
/// after the earliest bound in force (ArchivalDecision::held_from; at
/// quiescence no write is pending, so what holds commits back is the
/// clustering bound, a savepoint, an orphan or a library-gap bound). One
/// archival run leaves max(keep.min, H) of more than keep.max commits, so
/// this holds after a single run. In layout 1 the cleans and rollbacks are
/// at most keep.max each (archived by their own count); in layout 2 none
/// is older than the oldest active commit while commits were archived.
inline void check_timeline_bounded(Table& t, const ArchivalDecision& d, const TableMetadata& md) {
  const auto commits = md.timeline.completed_commits();
  std::size_t held = 0;
  for (const Instant* c : commits) held += d.held_from && !(c->requested < *d.held_from) ? 1 : 0;
  const std::size_t limit = std::max<std::size_t>(d.max_keep, held);
  if (commits.size() > limit) {
    t.violation(Invariant::I6_convergence, "archiver", {}, commits.front()->requested,
                fmt::format("the active timeline holds {} completed commits after the final archival, more than "
                            "keep.max={} or the {} at or after the earliest bound {}",
                            commits.size(), d.max_keep, held, d.held_from ? d.held_from->str() : std::string("-")));
    return;
  }
  if (md.layout != TimelineLayout::v1) return;
  for (const Action a : {Action::clean, Action::rollback}) {
    std::size_t n = 0;
    for (const Instant& i : md.timeline.instants()) n += i.action == a && i.is_completed() ? 1 : 0;
    if (n > d.max_keep) {
      t.violation(Invariant::I6_convergence, "archiver", {}, {},
                  fmt::format("layout 1: {} completed {} instants after the final archival, more than keep.max={}", n,
                              to_string(a), d.max_keep));
      return;
    }
  }
}

class Archiver {
 public:
  explicit Archiver(Table& t) : t_(t) {}

  /// Hudi's decision for the table `md` (the truth: Hudi's archiver reads
  /// its own timeline): the library's plan_archive with Hudi's rules (no
  /// file listing, so without lakegc's replaced_files_on_storage bound),
  /// then the simulator's own bounds, each cutting the commits it archives
  /// (and, in layout 2, the cleans and rollbacks that follow them).
  ArchivalDecision decide(const TableMetadata& md) const {
    ArchivalDecision d;
    ArchiveSettings s = t_.archive_settings.value_or(ArchiveSettings{});
    s.min_commits = static_cast<std::int32_t>(t_.swarm.archive_min_commits);
    s.max_commits = static_cast<std::int32_t>(std::max(t_.swarm.archive_max_commits, t_.swarm.archive_min_commits + 1));
    // The simulator schedules compaction by time and has no metadata table.
    s.compaction_trigger = CompactionTrigger::time_elapsed;
    s.metadata_enabled = false;
    const bool boundary_rule = t_.policy.retention(RetentionContext{md, t_.now()}).has_boundary;
    if (!t_.archive_settings) user_policy_keep_counts(md, s);
    ArchiveContext ctx;
    ctx.merge_on_read = t_.swarm.type == TableType::mor;
    ArchiveCleanPlanFacts facts;
    if (md.last_completed_clean) {
      if (auto plan = t_.journal.read_clean_plan(md.last_completed_clean->instant); plan.ok()) {
        facts.clean = md.last_completed_clean->instant;
        if (plan->earliest_instant_to_retain)
          facts.earliest_instant_to_retain = plan->earliest_instant_to_retain->str();
        // Hudi records the savepointed commits' times; the simulator's
        // savepoints have times of their own (savepointer.hpp).
        std::vector<std::string> commits;
        for (const InstantTime& sp : md.last_completed_clean->savepointed_timestamps)
          commits.push_back(t_.oracle.savepointed_commit(sp).str());
        if (!commits.empty()) facts.savepointed_timestamps = absl::StrJoin(commits, ",");
        ctx.last_clean_plan = &facts;
      }
    }
    std::optional<TableView> view;
    if (t_.swarm.archive_with_listing) {
      auto listed = load_view(t_.storage, md);
      if (!listed.ok()) {
        d.why = "listing failed";
        return d;
      }
      view = std::move(*listed);
      ctx.view = &*view;
    }
    auto plan = plan_archive(md, s, ctx);
    if (!plan.ok()) {
      d.why = std::string(message_of(plan.status()));
      return d;
    }
    d.min_keep = static_cast<std::uint32_t>(plan->keep.min_keep);
    d.max_keep = static_cast<std::uint32_t>(plan->keep.max_keep);
    for (const Instant& i : plan->archived) (is_commit_action(i.action) ? d.commits : d.others).push_back(i.requested);
    d.why = why_commits_stop(*plan, d);
    if (t_.swarm.archive_ignores_replaced_groups) ignore_clustering_bound(*plan, d);

    // The simulator's bounds.
    std::optional<InstantTime> bound;
    const char* reason = nullptr;
    auto lower = [&](const std::optional<InstantTime>& t, const char* r) {
      if (t && (!bound || *t < *bound)) {
        bound = t;
        reason = r;
      }
    };
    lower(savepoint_bound(md), "first savepointed commit (the simulator's savepoints have times of their own)");
    lower(orphan_bound(md), "orphans of an abandoned write (sim only: the orphan sweep's to delete)");
    const bool commits_due = plan->completed_commits > static_cast<std::size_t>(plan->keep.max_keep);
    if (t_.swarm.archiver_gaps_off != kAllGapsOff && commits_due) {
      char which = 0;
      const auto gap = library_gap_bound(md, boundary_rule, t_.swarm.archiver_gaps_off, &which);
      lower(gap, which == 'a'   ? "LIBRARY GAP (a): replaced files a savepoint of a later commit keeps"
                 : which == 'b' ? "LIBRARY GAP (b): replaced files a guard keeps under a version rule"
                 : which == 'c'
                     ? "LIBRARY GAP (c): replaced files a truncated listing hid from a clean"
                     : "LIBRARY GAP (d): replaced files of a clustering that completed after a clean passed it");
      if (gap && bound == gap && !d.commits.empty() && !(d.commits.back() < *gap)) d.gap = which;
    }
    d.held_from = bound;
    for (const ArchiveBound& b : plan->bounds) {
      if (t_.swarm.archive_ignores_replaced_groups && b.rule == ArchiveStop::clustering) continue;
      if (b.at && (!d.held_from || *b.at < *d.held_from)) d.held_from = b.at;
    }
    if (bound && !d.commits.empty() && !(d.commits.back() < *bound)) {
      std::erase_if(d.commits, [&](const InstantTime& c) { return !(c < *bound); });
      d.why = reason;
      if (md.layout != TimelineLayout::v1) {
        // Layout 2: cleans and rollbacks follow the last archived commit.
        std::erase_if(d.others, [&](const InstantTime& o) { return d.commits.empty() || !(o < d.commits.back()); });
      }
    }
    return d;
  }

  /// One archival run. Returns true when it archived anything.
  bool run() {
    auto md = t_.load();
    if (!md.ok()) return false;
    const ArchivalDecision d = decide(*md);
    if (d.gap) ++t_.stats.archival_gap_holds[static_cast<std::size_t>(d.gap - 'a')];
    if (d.commits.empty() && d.others.empty()) return false;
    t_.oracle.forget_replaced(*md, d.commits);
    std::vector<InstantTime> all = d.commits;
    all.insert(all.end(), d.others.begin(), d.others.end());
    t_.journal.archive(all);
    t_.oracle.bump();
    ++t_.stats.archivals;
    t_.stats.instants_archived += all.size();
    t_.event("archiver", "archived {} commit(s){} and {} clean/rollback instant(s){}; keep {}..{} (commits stop: {})",
             d.commits.size(),
             d.commits.empty() ? std::string() : fmt::format(" {}..{}", d.commits.front(), d.commits.back()),
             d.others.size(), d.others.empty() ? std::string() : fmt::format(" from {}", d.others.front()), d.min_keep,
             d.max_keep, d.why);
    check_latest_exact(t_, "archiver");
    return true;
  }

 private:
  // A policy composed by the user (lakegc::sim::verify) has no Hudi
  // configuration for ArchivalUtils.getMinAndMaxInstantsToKeep to read:
  // keep.min rises to the commits after the policy's own earliest commit
  // to retain plus two, keep.max with it. plan_archive is told the cleaner
  // keeps file versions (version rules) or more commits than the table has
  // (boundary rules, for the clustering bound's savepoint rule), so that it
  // raises nothing itself.
  void user_policy_keep_counts(const TableMetadata& md, ArchiveSettings& s) const {
    const Retention r = t_.policy.retention(RetentionContext{md, t_.now()});
    s.cleaner_policy =
        r.has_boundary ? CleanerPolicyKind::keep_latest_commits : CleanerPolicyKind::keep_latest_file_versions;
    s.cleaner_commits_retained = std::numeric_limits<std::uint32_t>::max();
    if (!r.has_boundary || !r.ectr) return;
    std::int32_t after = 0;
    for (const Instant* c : md.timeline.completed_commits()) after += *r.ectr < c->requested ? 1 : 0;
    if (s.min_commits < after + 2) {
      s.max_commits = after + 2 + (s.max_commits - s.min_commits);
      s.min_commits = after + 2;
    }
  }

  // CANARY archive-ignores-replaced-groups (Hudi issue 6938): the commits
  // the clustering bound alone kept are archived as well, in order, up to
  // the first one another rule keeps.
  static void ignore_clustering_bound(const ArchivePlan& plan, ArchivalDecision& d) {
    std::vector<const ArchiveKept*> kept;
    for (const ArchiveKept& k : plan.kept) {
      if (is_commit_action(k.instant.action)) kept.push_back(&k);
    }
    for (const ArchiveKept* k : kept) {
      if (!d.commits.empty() && k->instant.requested < d.commits.back()) continue;
      if (k->reasons != std::vector<ArchiveStop>{ArchiveStop::clustering}) break;
      d.commits.push_back(k->instant.requested);
      d.why = "CANARY: the clustering bound ignored";
    }
  }

  // The reason plan_archive's commits stop: the first rule that keeps the
  // oldest commit it leaves.
  static std::string why_commits_stop(const ArchivePlan& plan, const ArchivalDecision& d) {
    for (const ArchiveKept& k : plan.kept) {
      if (!is_commit_action(k.instant.action) || k.reasons.empty()) continue;
      if (!d.commits.empty() && k.instant.requested < d.commits.back()) continue;
      return fmt::format("plan_archive: {}", to_string(k.reasons.front()));
    }
    return d.commits.empty() && plan.kept.empty() ? "keep.max.commits not exceeded" : "keep.min.commits";
  }

  // The library-gap bounds (see the header): the earliest completed
  // replacecommit whose replaced group still has files on storage and
  // (a) a savepoint of a later commit, existing or recorded by the last
  // clean, names some of them; or (b) the policy has no boundary rule; or
  // (c) some of them were on storage when a clean planned from a silently
  // truncated listing; or (d) the replacecommit completed after the last
  // clean, whose boundary had passed its requested time. `which` gets the
  // case.
  std::optional<InstantTime> library_gap_bound(const TableMetadata& md, bool boundary_rule, std::uint8_t off,
                                               char* which) const {
    const bool a = (off & 1) == 0, b = (off & 2) == 0, c = (off & 4) == 0, dd = (off & 8) == 0;
    // (d): replacecommits that completed after the last clean was planned
    // with a boundary past their requested time.
    const auto& clean = md.last_completed_clean;
    auto completed_after_clean_passed = [&](const InstantTime& replace) {
      if (!dd || !clean || !clean->earliest_commit_to_retain || !(replace < *clean->earliest_commit_to_retain)) {
        return false;
      }
      const Instant* i = md.timeline.find(replace);
      return i != nullptr && i->completed && clean->instant < *i->completed;
    };
    auto view = load_view(t_.storage, md);
    if (!view.ok()) return std::nullopt;
    std::vector<InstantTime> savepoints;
    for (const SavepointInfo& sp : md.savepoints) savepoints.push_back(sp.instant);
    if (md.last_completed_clean) {
      for (const InstantTime& sp : md.last_completed_clean->savepointed_timestamps) savepoints.push_back(sp);
    }
    std::optional<InstantTime> out;
    for (const Partition& p : view->partitions()) {
      for (const FileGroup& g : view->groups_of(p)) {
        if (!g.replaced_by || (out && !(*g.replaced_by < *out))) continue;
        std::set<std::string> files;
        for (const FileSlice& s : view->slices_of(g)) {
          if (s.base_file != kNoFile) files.insert(view->file_path(p, s.base_file));
          for (auto l : view->logs_of(s)) files.insert(view->file_path(p, l));
        }
        char gap = b && !boundary_rule ? 'b' : 0;
        for (const InstantTime& sp : savepoints) {
          if (!a || gap || !(*g.replaced_by < t_.oracle.savepointed_commit(sp))) continue;
          for (const std::string& f : t_.oracle.savepointed_files(sp)) {
            if (files.contains(f)) gap = 'a';
          }
        }
        for (const std::string& f : files) {
          if (c && !gap && t_.oracle.present_at_truncated_listing(f)) gap = 'c';
        }
        if (!gap && !files.empty() && completed_after_clean_passed(*g.replaced_by)) gap = 'd';
        if (gap) {
          out = g.replaced_by;
          *which = gap;
        }
      }
    }
    return out;
  }

  // Archival stops at the first savepointed commit.
  std::optional<InstantTime> savepoint_bound(const TableMetadata& md) const {
    std::optional<InstantTime> first;
    for (const Instant* s : md.timeline.savepoints()) {
      const InstantTime c = t_.oracle.savepointed_commit(s->requested);
      if (!first || c < *first) first = c;
    }
    return first;
  }

  // The simulator's own bound (see the header): the newest completed commit
  // before the earliest orphan still on storage stays active. Layout-1 logs
  // do not count.
  std::optional<InstantTime> orphan_bound(const TableMetadata& md) const {
    const auto present = t_.data_files();
    for (const auto& [instant, paths] : t_.oracle.orphans()) {
      const bool holds = std::any_of(paths.begin(), paths.end(), [&](const std::string& p) {
        if (!present.contains(p)) return false;
        if (md.layout != TimelineLayout::v1) return true;
        return !parse_log_file_name(lakegc::detail::split_parent(p).second).ok();
      });
      if (!holds) continue;
      std::optional<InstantTime> keep;
      for (const Instant* c : md.timeline.completed_commits()) {
        if (c->requested < instant) keep = c->requested;
      }
      // No commit before it: nothing may be archived.
      if (!keep && !md.timeline.completed_commits().empty()) keep = md.timeline.completed_commits().front()->requested;
      return keep;
    }
    return std::nullopt;
  }

  Table& t_;
};

}  // namespace lakegc::sim
