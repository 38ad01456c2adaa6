// File: lakegc/sim/archiver.hpp
// -----------------------------------------------------------------------------
// The archiver moves old completed instants out of the active timeline
// (memory_journal::archive_before). It must never archive what views still
// need, so it stops at the earliest of:
//
// * the newest completed commit before the last clean's earliest commit to
//   retain: the promise covers that snapshot, and a snapshot can only be
//   resolved (time travel) while its instant is active;
// * the earliest savepoint;
// * the earliest pending instant (Hudi never archives past one);
// * the earliest completed replacecommit whose replaced groups still have
//   files: archiving it would make them live again (Hudi 6938);
// * the newest commit before the earliest orphan still on storage: once the
//   timeline starts after an orphan's (rolled back) instant, its files count
//   as committed. Removing orphans is the orphan sweep's job (I3); until it
//   runs, they hold archival back;
// * the earliest leased snapshot;
//
// and within that keeps between archive_min_commits and archive_max_commits
// completed commits (Hudi's hoodie.keep.min/max.commits).
#pragma once

#include <algorithm>
#include <optional>

#include "lakegc/core/load_view.hpp"
#include "lakegc/sim/table.hpp"

namespace lakegc::sim {

class Archiver {
 public:
  explicit Archiver(Table& t) : t_(t) {}

  /// The instant before which archival may go, or nothing. `why` names the
  /// binding constraint.
  std::optional<InstantTime> bound(const TableMetadata& md, std::string* why) {
    const auto& clean = md.last_completed_clean;
    if (!clean || !clean->earliest_commit_to_retain) {
      *why = "no completed clean with an earliest commit to retain";
      return std::nullopt;
    }
    std::optional<InstantTime> b;
    for (const Instant* c : md.timeline.completed_commits()) {
      if (c->requested < *clean->earliest_commit_to_retain) b = c->requested;
    }
    if (!b) {
      *why = "nothing before the last clean's boundary";
      return std::nullopt;
    }
    *why = "newest snapshot before the last clean's boundary";
    auto lower = [&](const InstantTime& t, const char* reason) {
      if (t < *b) {
        b = t;
        *why = reason;
      }
    };
    for (const Instant* s : md.timeline.savepoints()) lower(s->requested, "earliest savepoint");
    if (!md.timeline.pending().empty()) lower(md.timeline.pending().front()->requested, "earliest pending instant");
    if (auto view = load_view(t_.storage, md); view.ok()) {
      for (const FileGroup& g : view->groups()) {
        if (g.replaced_by) lower(*g.replaced_by, "replacecommit whose replaced groups still have files");
      }
    } else {
      *why = "listing failed";
      return std::nullopt;
    }
    // An orphan's instant left the timeline with its rollback, so stopping
    // "before" it is not enough: some instant at or before it must stay
    // active, or it would fall before the timeline's start and count as
    // committed. Keep the newest completed commit before it.
    const auto present = t_.data_files();
    for (const auto& [instant, paths] : t_.oracle.orphans()) {
      const bool any = std::any_of(paths.begin(), paths.end(), [&](const std::string& p) { return present.contains(p); });
      if (!any) continue;
      std::optional<InstantTime> keep;
      for (const Instant* c : md.timeline.completed_commits()) {
        if (c->requested < instant) keep = c->requested;
      }
      if (!keep) {
        *why = "orphan files of an abandoned write before every commit";
        return std::nullopt;
      }
      lower(*keep, "orphan files of an abandoned write (I3: orphan sweep)");
      break;
    }
    if (!t_.leases.empty()) lower(*t_.leases.begin(), "leased snapshot");
    return b;
  }

  /// Archives if more than archive_max_commits completed commits are active.
  bool run() {
    auto md = t_.load();
    if (!md.ok()) return false;
    const auto commits = md->timeline.completed_commits();
    if (commits.size() <= t_.swarm.archive_max_commits) return false;
    std::string why;
    auto b = bound(*md, &why);
    if (!b) return false;
    // Keep at least archive_min_commits.
    const InstantTime keep_from = commits[commits.size() - t_.swarm.archive_min_commits]->requested;
    if (keep_from < *b) {
      b = keep_from;
      why = "keep.min.commits";
    }
    if (!(commits.front()->requested < *b)) return false;
    t_.oracle.forget_replaced_before(*md, *b);
    t_.journal.archive_before(*b);
    t_.oracle.bump();
    ++t_.stats.archivals;
    t_.event("archiver", "archived instants before {} (bound: {})", *b, why);
    return true;
  }

 private:
  Table& t_;
};

}  // namespace lakegc::sim
