// File: tests/reference/hudi_file_system_view.hpp
// -----------------------------------------------------------------------------
// A naive reference model of Hudi's file-system view, for property tests:
// which listed data files Hudi shows in some committed file slice. Written
// from Hudi's sources (apache/hudi master), rule by rule, without calling
// TableView, load_view, Timeline's derived queries or lakegc's file-name
// grammar: it reads only plain data (the active timeline's instants, the
// archive's completion times, the pending compaction plans, the listing).
//
// * AbstractTableFileSystemView: the view's timeline is the active
//   timeline's completed instants plus pending compactions
//   (FileSystemViewManager: filterCompletedAndCompactionInstants), then its
//   write timeline (refreshTimeline: getWriteTimeline: commit, deltacommit,
//   compaction, logcompaction, replacecommit, clustering). buildFileGroups
//   groups the listing by file id, adds base files (a later one with the
//   same instant replaces the earlier: addBaseFile), then an empty slice at
//   a pending compaction's instant (addNewFileSliceAtInstant), then log
//   files in HoodieLogFile order (file id, delta commit time, version, write
//   token).
// * HoodieFileGroup.getBaseInstantTime (a log's slice): no slice yet, its
//   own delta commit time; otherwise the completion time of its delta
//   commit (CompletionTimeQueryView): the newest slice keyed at or before
//   it, or its own delta commit time if none; no completion time (pending,
//   or unknown), the newest slice.
// * HoodieFileGroup.isFileSliceCommitted: the slice key is at or before the
//   view timeline's last instant, and the timeline contains it or it is
//   before the timeline starts (containsOrBeforeTimelineStarts; the first
//   instant that is not a savepoint: the write timeline holds none). An
//   empty view timeline has no committed slices (getAllFileSlices).
// * Files of a committed slice that a query reads: table version 8 and up
//   (timeline layout 2), filterUncommittedFiles drops the base file and the
//   logs whose instant is not completed (CompletionTimeQueryView.isCompleted:
//   completed on the active timeline, or before the first instant of the
//   active write timeline in any state); older tables (layout 1),
//   filterBaseFileAfterPendingCompaction drops only a base file at a pending
//   compaction's instant.
// * CompletionTimeQueryViewV2.getCompletionTime: completed active instants
//   (any action) by requested time; an instant at or after the active
//   timeline's first instant (any action) with none is pending; an older
//   one reads the archive (LSM history), absent there is unknown (pending).
//   CompletionTimeQueryViewV1: completed active instants; an instant before
//   the first write instant is archived and completed at its own time.
//
// Replaced file groups are kept: the cleaner reads their slices
// (getAllFileGroups), only latest-snapshot queries skip them.
//
// Two base files of one group at one instant (a speculative duplicate): the
// view keeps whichever the listing gives last, so which one Hudi shows
// depends on listing order; the model reports the pair as an alternative
// (one of them is shown).
#pragma once

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "lakegc/core/instant.hpp"
#include "lakegc/core/instant_time.hpp"

namespace lakegc::reference::hudi {

struct ActiveInstant {
  InstantTime requested;
  std::optional<InstantTime> completed;  // completion time, when completed
  Action action = Action::commit;
  bool is_completed = false;
};

struct ListedFile {
  std::string partition;
  std::string name;
};

struct ViewInput {
  bool table_version_8 = true;  // timeline layout 2
  std::vector<ActiveInstant> active;
  /// The archive's completion times of archived instants (Hudi reads them;
  /// lakegc may not).
  std::map<InstantTime, InstantTime> archived_completion;
  /// Pending compaction plans: (partition, file id) -> compaction instant.
  std::map<std::pair<std::string, std::string>, InstantTime> pending_compaction;
  std::vector<ListedFile> listing;  // in listing order
};

struct Slice {
  InstantTime key;
  std::vector<std::string> base_candidates;               // names listed at this key, in listing order (the last wins)
  std::vector<std::pair<std::string, InstantTime>> logs;  // name, delta commit time
};

struct Group {
  std::string partition;
  std::string file_id;
  std::map<InstantTime, Slice> slices;  // by key
};

/// What Hudi shows: files certainly shown, and sets of which one is shown.
struct Shown {
  std::set<std::string> files;                   // partition/name
  std::vector<std::vector<std::string>> one_of;  // partition/name alternatives
};

namespace detail {

inline bool write_action(Action a) {
  return a == Action::commit || a == Action::deltacommit || a == Action::compaction || a == Action::logcompaction ||
         a == Action::replacecommit || a == Action::clustering;
}

struct BaseName {
  std::string file_id, write_token;
  InstantTime instant;
};
struct LogName {
  std::string file_id;
  InstantTime delta_commit;
  long version = 0;
  std::string write_token;
};

// FSUtils: a base file is <fileId>_<writeToken>_<instantTime>.<ext>.
inline std::optional<BaseName> parse_base(const std::string& name) {
  if (name.empty() || name.front() == '.') return std::nullopt;
  const auto dot = name.find('.');
  if (dot == std::string::npos) return std::nullopt;
  const std::string stem = name.substr(0, dot);
  const auto a = stem.find('_');
  const auto b = stem.rfind('_');
  if (a == std::string::npos || a == b) return std::nullopt;
  auto t = InstantTime::parse(stem.substr(b + 1));
  if (!t.ok()) return std::nullopt;
  return BaseName{stem.substr(0, a), stem.substr(a + 1, b - a - 1), *t};
}

// FSUtils LOG_FILE_PATTERN: .<fileId>_<deltaCommitTime>.log.<version>_<writeToken>.
inline std::optional<LogName> parse_log(const std::string& name) {
  if (name.size() < 2 || name.front() != '.') return std::nullopt;
  const auto log = name.find(".log.");
  if (log == std::string::npos) return std::nullopt;
  const std::string head = name.substr(1, log - 1);
  const auto us = head.rfind('_');
  if (us == std::string::npos) return std::nullopt;
  auto t = InstantTime::parse(head.substr(us + 1));
  if (!t.ok()) return std::nullopt;
  const std::string tail = name.substr(log + 5);
  const auto us2 = tail.find('_');
  LogName out{head.substr(0, us), *t, 0, us2 == std::string::npos ? std::string() : tail.substr(us2 + 1)};
  try {
    out.version = std::stol(tail.substr(0, us2));
  } catch (...) {
    return std::nullopt;
  }
  return out;
}

}  // namespace detail

/// Hudi's file groups over the listing, with every slice (committed or not).
class View {
 public:
  explicit View(const ViewInput& in) : in_(in) {
    for (const ActiveInstant& i : in.active) {
      if (!first_active_ || i.requested < *first_active_) first_active_ = i.requested;
      if (detail::write_action(i.action) && (!first_write_ || i.requested < *first_write_)) first_write_ = i.requested;
      if (i.is_completed) completion_[i.requested] = i.completed.value_or(i.requested);
      // The view's timeline: completed instants and pending compactions, then its write timeline.
      const bool visible = i.is_completed || i.action == Action::compaction;
      if (visible && detail::write_action(i.action)) {
        visible_.insert(i.requested);
      }
    }
    build();
  }

  const std::vector<Group>& groups() const { return groups_; }

  /// HoodieFileGroup.isFileSliceCommitted.
  bool committed(const InstantTime& key) const {
    if (visible_.empty()) return false;
    if (*visible_.rbegin() < key) return false;
    return visible_.contains(key) || key < *visible_.begin();
  }

  /// The first instant of the view's write timeline (completed writes and
  /// pending compactions): where isBeforeTimelineStarts starts.
  std::optional<InstantTime> visible_start() const {
    return visible_.empty() ? std::nullopt : std::optional<InstantTime>(*visible_.begin());
  }
  /// The first write instant of the active timeline in any state.
  std::optional<InstantTime> write_start_any_state() const { return first_write_; }

  /// CompletionTimeQueryView.isCompleted.
  bool completed(const InstantTime& t) const { return completion_.contains(t) || (first_write_ && t < *first_write_); }

  /// CompletionTimeQueryView.getCompletionTime.
  std::optional<InstantTime> completion_time(const InstantTime& t) const {
    if (auto it = completion_.find(t); it != completion_.end()) return it->second;
    if (in_.table_version_8) {
      if (!first_active_ || !(t < *first_active_)) return std::nullopt;  // pending
      if (auto a = in_.archived_completion.find(t); a != in_.archived_completion.end()) return a->second;
      return std::nullopt;
    }
    if (first_write_ && t < *first_write_) return t;  // archived: completed at its own time
    return std::nullopt;
  }

  /// The files Hudi shows in some committed slice.
  Shown shown() const {
    Shown out;
    for (const Group& g : groups_) {
      const auto pc = in_.pending_compaction.find({g.partition, g.file_id});
      for (const auto& [key, s] : g.slices) {
        if (!committed(key)) continue;
        bool base_shown = !s.base_candidates.empty();
        if (in_.table_version_8) {
          base_shown = base_shown && completed(key);
        } else if (pc != in_.pending_compaction.end() && pc->second == key) {
          base_shown = false;
        }
        if (base_shown) {
          if (s.base_candidates.size() == 1) {
            out.files.insert(g.partition + "/" + s.base_candidates.front());
          } else {
            std::vector<std::string> alt;
            for (const auto& n : s.base_candidates) alt.push_back(g.partition + "/" + n);
            out.one_of.push_back(std::move(alt));
          }
        }
        for (const auto& [name, delta] : s.logs) {
          if (in_.table_version_8 && !completed(delta)) continue;
          out.files.insert(g.partition + "/" + name);
        }
      }
    }
    return out;
  }

 private:
  void build() {
    struct Build {
      Group g;
      std::vector<detail::LogName> logs;
      std::vector<std::string> log_names;
    };
    std::map<std::pair<std::string, std::string>, Build> by_id;
    for (const ListedFile& f : in_.listing) {
      if (auto b = detail::parse_base(f.name)) {
        Build& gb = by_id[{f.partition, b->file_id}];
        gb.g.partition = f.partition;
        gb.g.file_id = b->file_id;
        Slice& s = gb.g.slices[b->instant];
        s.key = b->instant;
        s.base_candidates.push_back(f.name);
      } else if (auto l = detail::parse_log(f.name)) {
        Build& gb = by_id[{f.partition, l->file_id}];
        gb.g.partition = f.partition;
        gb.g.file_id = l->file_id;
        gb.logs.push_back(*l);
        gb.log_names.push_back(f.name);
      }
    }
    for (auto& [id, gb] : by_id) {
      if (auto pc = in_.pending_compaction.find(id); pc != in_.pending_compaction.end()) {
        Slice& s = gb.g.slices[pc->second];
        s.key = pc->second;
      }
      std::vector<std::size_t> order(gb.logs.size());
      for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const auto& x = gb.logs[a];
        const auto& y = gb.logs[b];
        if (x.delta_commit != y.delta_commit) return x.delta_commit < y.delta_commit;
        if (x.version != y.version) return x.version < y.version;
        return x.write_token < y.write_token;
      });
      for (std::size_t i : order) {
        const detail::LogName& l = gb.logs[i];
        const InstantTime key = slice_of(gb.g, l.delta_commit);
        Slice& s = gb.g.slices[key];
        s.key = key;
        s.logs.emplace_back(gb.log_names[i], l.delta_commit);
      }
      groups_.push_back(std::move(gb.g));
    }
  }

  // HoodieFileGroup.getBaseInstantTime.
  InstantTime slice_of(const Group& g, const InstantTime& delta) const {
    if (g.slices.empty()) return delta;
    const auto completion = completion_time(delta);
    if (!completion) return g.slices.rbegin()->first;
    for (auto it = g.slices.rbegin(); it != g.slices.rend(); ++it) {
      if (!(*completion < it->first)) return it->first;
    }
    return delta;
  }

  const ViewInput& in_;
  std::optional<InstantTime> first_active_;
  std::optional<InstantTime> first_write_;
  std::map<InstantTime, InstantTime> completion_;
  std::set<InstantTime> visible_;
  std::vector<Group> groups_;
};

}  // namespace lakegc::reference::hudi
