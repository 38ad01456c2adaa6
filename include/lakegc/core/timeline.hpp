// File: lakegc/core/timeline.hpp
// -----------------------------------------------------------------------------
// The active timeline of a table: instants sorted by requested time (their
// identity), with the views the planners use. A Timeline is immutable once
// made; views are computed on construction and returned as spans of indices
// or pointers into the sorted instant array.
#pragma once

#include <algorithm>
#include <optional>
#include <span>
#include <vector>

#include "lakegc/core/instant.hpp"
#include "lakegc/core/status.hpp"

namespace lakegc {

/// Hudi timeline layout: 1 for table versions up to 7 (`.hoodie/`, log files
/// named by base instant), 2 for version 8 and later (`.hoodie/timeline/`,
/// completion times in names, log files named by their deltacommit).
enum class TimelineLayout : std::uint8_t { v1 = 1, v2 = 2 };

class Timeline {
 public:
  Timeline() = default;

  /// Sorts `instants` by requested time. Instant times are unique, with one
  /// exception: a savepoint instant carries the time of the commit it
  /// savepoints (`T.commit` and `T.savepoint`), and sorts right after it.
  /// Any other two instants at one time are an error naming it: Hudi
  /// allocates instant times uniquely, so a duplicate means corrupt input.
  [[nodiscard]] static StatusOr<Timeline> make(std::vector<Instant> instants) {
    auto savepoint_last = [](const Instant& i) { return i.action == Action::savepoint; };
    std::sort(instants.begin(), instants.end(), [&](const Instant& a, const Instant& b) {
      if (a.requested != b.requested) return a.requested < b.requested;
      return !savepoint_last(a) && savepoint_last(b);
    });
    for (std::size_t i = 1; i < instants.size(); ++i) {
      const Instant& prev = instants[i - 1];
      const Instant& cur = instants[i];
      if (cur.requested != prev.requested) continue;
      if (savepoint_last(cur) && !savepoint_last(prev)) continue;
      return absl::InvalidArgumentError(fmt::format("timeline has two instants at {}: {} and {}", cur.requested,
                                                    to_string(prev.action), to_string(cur.action)));
    }
    Timeline t;
    t.instants_ = std::move(instants);
    t.index();
    return t;
  }

  std::span<const Instant> instants() const noexcept { return instants_; }
  bool empty() const noexcept { return instants_.empty(); }
  std::size_t size() const noexcept { return instants_.size(); }

  /// Completed commit, deltacommit and replacecommit instants (compactions
  /// and clusterings that completed included), in requested-time order.
  std::span<const Instant* const> completed_commits() const noexcept { return completed_commits_; }
  /// The same instants ordered by completion time (requested time breaks
  /// ties and stands in where completion is unknown).
  std::span<const Instant* const> completed_commits_by_completion() const noexcept {
    return completed_commits_by_completion_;
  }
  /// Requested or inflight instants of any action.
  std::span<const Instant* const> pending() const noexcept { return pending_; }
  /// Pending writes and table services (commit, deltacommit, replacecommit,
  /// compaction, log compaction, clustering): what clamps the cleaner.
  std::span<const Instant* const> pending_writes() const noexcept { return pending_writes_; }
  std::span<const Instant* const> savepoints() const noexcept { return savepoints_; }
  /// Clean instants in any state.
  std::span<const Instant* const> cleans() const noexcept { return cleans_; }

  /// The instant requested at `t`, if any (the savepointed commit, not its
  /// savepoint, when both are at `t`).
  const Instant* find(const InstantTime& t) const noexcept {
    auto it = std::lower_bound(instants_.begin(), instants_.end(), t,
                               [](const Instant& i, const InstantTime& v) { return i.requested < v; });
    return it != instants_.end() && it->requested == t ? &*it : nullptr;
  }

  /// True when `t` is a completed write (commit, deltacommit, replacecommit).
  bool is_completed_commit(const InstantTime& t) const noexcept {
    const Instant* i = find(t);
    return i != nullptr && i->is_completed() && is_commit_action(i->action);
  }

  /// The start of the write timeline: the first requested time, in any
  /// state, among write instants (commit, deltacommit, replacecommit,
  /// compaction, log compaction, clustering). This is Hudi's
  /// `getWriteTimeline().firstInstant()`, the start that
  /// `containsOrBeforeTimelineStarts` compares against: clean, rollback,
  /// savepoint, restore and indexing instants do not count, because Hudi
  /// archives cleans and rollbacks by their own count (layout 1) and never
  /// archives the last three, so on a long-lived table they often predate
  /// every active commit. A data file whose instant is older than this start
  /// was written by an archived commit and is committed.
  ///
  /// The one definition of "the timeline starts here": the view's
  /// committed-slice filter, layout-2 log attachment, the orphan sweep,
  /// rollback and the simulator's oracle all ask this function.
  std::optional<InstantTime> write_start() const noexcept { return write_start_; }

  /// True when `t` is older than the write timeline's start: an instant
  /// archived (or never on this timeline), whose files count as committed.
  bool is_before_write_start(const InstantTime& t) const noexcept { return write_start_ && t < *write_start_; }

  /// The start of the timeline Hudi's file-system view is built on: the
  /// first completed write instant or pending (log) compaction (the view's
  /// timeline holds completed instants and pending compactions only). Hudi
  /// 0.x (layout 1) reads a file older than this as committed even when a
  /// pending write came before it; layout 2 also drops files whose instant
  /// is not completed (filterUncommittedFiles), so only layout 1 needs it.
  std::optional<InstantTime> view_start() const noexcept {
    for (const Instant* w : writes_) {
      if (w->is_completed() || w->action == Action::compaction || w->action == Action::logcompaction) {
        return w->requested;
      }
    }
    return std::nullopt;
  }

  /// The first write instant that is not a savepointed commit. Archival
  /// stops at a savepoint unless `hoodie.archive.beyond.savepoint` is set;
  /// with it, savepointed commits stay active while the commits after them
  /// are archived, leaving holes. Below this horizon an instant missing
  /// from the active timeline may have been archived, so its files are not
  /// known to be uncommitted (the orphan sweep keeps them). Equals
  /// write_start() on a timeline without savepoints.
  std::optional<InstantTime> archive_horizon() const noexcept {
    for (const Instant* w : writes_) {
      const bool savepointed = std::binary_search(savepoint_times_.begin(), savepoint_times_.end(), w->requested);
      if (!savepointed) return w->requested;
    }
    return std::nullopt;
  }

  /// The requested time of the commit that completed last (Hudi's
  /// lastCompletedCommitTimestamp: the end of a completion-ordered timeline,
  /// which need not be the largest requested time).
  std::optional<InstantTime> last_completed_commit() const noexcept {
    if (completed_commits_by_completion_.empty()) return std::nullopt;
    return completed_commits_by_completion_.back()->requested;
  }

  /// The timeline as it stood for a reader at `t`: instants requested at or
  /// before `t`, in their current state.
  Timeline as_of(const InstantTime& t) const {
    std::vector<Instant> kept;
    for (const Instant& i : instants_) {
      if (i.requested <= t) kept.push_back(i);
    }
    Timeline out;
    out.instants_ = std::move(kept);
    out.index();
    return out;
  }

  Timeline(const Timeline& o) : instants_(o.instants_) { index(); }
  Timeline& operator=(const Timeline& o) {
    if (this != &o) {
      instants_ = o.instants_;
      index();
    }
    return *this;
  }
  Timeline(Timeline&&) noexcept = default;
  Timeline& operator=(Timeline&&) noexcept = default;

 private:
  void index() {
    completed_commits_.clear();
    pending_.clear();
    pending_writes_.clear();
    savepoints_.clear();
    cleans_.clear();
    writes_.clear();
    savepoint_times_.clear();
    write_start_.reset();
    for (const Instant& i : instants_) {
      if (is_write_action(i.action)) {
        writes_.push_back(&i);
        if (!write_start_) write_start_ = i.requested;
      }
      if (i.is_completed() && is_commit_action(i.action)) completed_commits_.push_back(&i);
      if (i.is_pending()) pending_.push_back(&i);
      if (i.is_pending() && is_write_action(i.action)) pending_writes_.push_back(&i);
      if (i.is_completed() && i.action == Action::savepoint) savepoints_.push_back(&i);
      if (i.action == Action::clean) cleans_.push_back(&i);
      if (i.action == Action::savepoint) savepoint_times_.push_back(i.requested);
    }
    completed_commits_by_completion_ = completed_commits_;
    std::stable_sort(
        completed_commits_by_completion_.begin(), completed_commits_by_completion_.end(),
        [](const Instant* a, const Instant* b) { return a->completion_or_requested() < b->completion_or_requested(); });
  }

  std::vector<Instant> instants_;
  std::vector<const Instant*> completed_commits_;
  std::vector<const Instant*> completed_commits_by_completion_;
  std::vector<const Instant*> pending_;
  std::vector<const Instant*> pending_writes_;
  std::vector<const Instant*> savepoints_;
  std::vector<const Instant*> cleans_;
  std::vector<const Instant*> writes_;        // write instants in any state
  std::vector<InstantTime> savepoint_times_;  // savepoint instants in any state, ascending
  std::optional<InstantTime> write_start_;
};

}  // namespace lakegc
