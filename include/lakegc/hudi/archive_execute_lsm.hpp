// File: lakegc/hudi/archive_execute_lsm.hpp
// -----------------------------------------------------------------------------
// Executes a timeline archival plan (plan/plan_archive.hpp) on a layout-2
// table (table versions 8 and 9) as Hudi 1.2.0's TimelineArchiverV2 does,
// under the caller's table lock:
//
// 1. One ActiveAction per archived instant: every file of the instant on the
//    active timeline (grouped by requested time and comparable action:
//    compaction with commit, log compaction with deltacommit, clustering
//    with replacecommit), in requested-time order, each made into one
//    HoodieLSMTimelineInstant record (MetadataConversionUtils.createLSMTimelineInstant):
//      instantTime     the requested time
//      completionTime  the completed file's completion time
//      action          the completed file's action
//      metadata        the completed file's bytes as they are; none if empty
//      plan            by the action of the pending file (the requested one,
//                      else the inflight one): clean: that file's bytes (an
//                      empty one too); replacecommit, clustering: the
//                      requested file's bytes if not empty, replaced by the
//                      inflight file's if not empty; compaction, log
//                      compaction: the requested file's bytes; others none
//      version         1
//    An instant without a completed file is refused (Hudi: "The instants to
//    archive must be completed"). Nothing is converted: layout 2 keeps the
//    instant files' own bytes.
// 2. Per instant, its markers folder `.hoodie/.temp/<instant>` deleted
//    (deleteAnyLeftOverMarkers, the write's pre-write callback).
// 3. The records written as one layer-0 data file of the LSM history, the
//    manifest and `_version_` updated (hudi/lsm_timeline_writer.hpp).
// 4. The instant files deleted: every requested and inflight file first,
//    then the completed ones oldest first (deleteArchivedActions; HUDI-7207).
// 5. The LSM history compacted and cleaned (compactAndClean).
// Nothing is written to the metadata table (the native table format's
// archive hook does nothing).
//
// Beyond Hudi, for crash recovery (as the layout-1 executor): instants
// already in the LSM history (same instant time and action) are not written
// again, and the caller adds to the plan every instant a crashed run
// archived but did not finish deleting (interrupted_lsm_archival), so a
// rerun finishes the deletes; steps 3 and 5 finish a crashed write,
// compaction or clean (hudi/lsm_timeline_writer.hpp).
#pragma once

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/instant.hpp"
#include "lakegc/core/instant_time.hpp"
#include "lakegc/core/status.hpp"
#include "lakegc/core/timeline.hpp"
#include "lakegc/hudi/lsm_instant.hpp"
#include "lakegc/hudi/lsm_timeline.hpp"
#include "lakegc/hudi/lsm_timeline_writer.hpp"
#include "lakegc/hudi/remove_tree.hpp"
#include "lakegc/hudi/table_location.hpp"
#include "lakegc/hudi/table_properties.hpp"
#include "lakegc/hudi/timeline_listing.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc::hudi {

/// One archived instant: its files on the active timeline and its record.
struct LsmArchiveAction {
  InstantTime requested;
  Action action = Action::commit;   ///< the completed file's action
  std::vector<TimelineFile> files;  ///< requested, inflight, completed
  lsm_instant record;
};

struct LsmArchiveExecution {
  std::vector<LsmArchiveAction> actions;  ///< requested-time order
  std::size_t records_written = 0;
  std::size_t records_already_archived = 0;
  std::vector<std::string> markers_deleted;
  LsmChanges lsm;
  std::vector<std::string> instant_files_deleted;  ///< in deletion order
};

namespace detail {

/// InstantComparatorV2.getComparableAction.
constexpr Action lsm_comparable_action(Action a) noexcept {
  switch (a) {
    case Action::compaction: return Action::commit;
    case Action::logcompaction: return Action::deltacommit;
    case Action::clustering: return Action::replacecommit;
    default: return a;
  }
}

}  // namespace detail

/// The archived actions of the `archived` instants (plan_archive's, in
/// requested-time order), records built, nothing changed.
template <ReadableStorage S>
[[nodiscard]] StatusOr<std::vector<LsmArchiveAction>> lsm_archive_actions(S& storage, const TableProperties& props,
                                                                          const TableLocation& loc,
                                                                          const std::vector<Instant>& archived) {
  if (props.layout != TimelineLayout::v2) {
    return absl::FailedPreconditionError("the LSM history is layout 2's archive; this table has layout 1");
  }
  LAKEGC_ASSIGN_OR_RETURN(std::vector<TimelineFile> files, list_timeline_files(storage, props, loc));
  LAKEGC_ASSIGN_OR_RETURN(const Timeline timeline, fold_timeline(files, props, loc));
  using key = std::tuple<InstantTime, Action>;
  std::vector<key> wanted;
  for (const Instant& i : archived) wanted.emplace_back(i.requested, detail::lsm_comparable_action(i.action));
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  auto read = [&](const TimelineFile& f) {
    return read_table_file(storage, loc, fmt::format("{}/{}", props.timeline_dir, f.name));
  };
  std::vector<LsmArchiveAction> out;
  for (const auto& [t, comparable] : wanted) {
    LsmArchiveAction a;
    a.requested = t;
    for (const TimelineFile& f : files) {
      if (f.parsed.requested == t && detail::lsm_comparable_action(f.parsed.action) == comparable) a.files.push_back(f);
    }
    std::stable_sort(a.files.begin(), a.files.end(),
                     [](const TimelineFile& x, const TimelineFile& y) { return x.parsed.state < y.parsed.state; });
    const TimelineFile* requested = nullptr;
    const TimelineFile* inflight = nullptr;
    const TimelineFile* completed = nullptr;
    for (const TimelineFile& f : a.files) {
      if (f.parsed.state == State::requested) requested = &f;
      if (f.parsed.state == State::inflight) inflight = &f;
      // Of several completed files (cleans may have two), the latest to complete.
      if (f.parsed.state == State::completed &&
          (completed == nullptr || completed->parsed.completed < f.parsed.completed)) {
        completed = &f;
      }
    }
    if (completed == nullptr) {
      return absl::FailedPreconditionError(
          fmt::format("{}: instant {} {} has no completed file; Hudi's archiver refuses it (\"The instants to archive "
                      "must be completed\")",
                      loc.display(props.timeline_dir), t, to_string(comparable)));
    }
    a.action = completed->parsed.action;
    lsm_instant& r = a.record;
    r.instant_time = t.str();
    const Instant* active = timeline.find(t);
    // The completion time as the timeline folds it (a legacy file's from its mtime).
    std::optional<InstantTime> completion = completed->parsed.completed;
    if (!completion && active != nullptr && active->is_completed()) completion = active->completed;
    if (!completion) {
      return absl::FailedPreconditionError(fmt::format(
          "{}: no completion time", loc.display(fmt::format("{}/{}", props.timeline_dir, completed->name))));
    }
    r.completion_time = completion->str();
    r.action = std::string(to_string(a.action));
    LAKEGC_ASSIGN_OR_RETURN(std::string metadata, read(*completed));
    if (!metadata.empty()) r.metadata = std::move(metadata);
    const TimelineFile* pending = requested != nullptr ? requested : inflight;
    if (pending != nullptr) {
      switch (pending->parsed.action) {
        case Action::clean: {
          LAKEGC_ASSIGN_OR_RETURN(std::string plan, read(*pending));
          r.plan = std::move(plan);
          break;
        }
        case Action::replacecommit:
        case Action::clustering:
          for (const TimelineFile* f : {requested, inflight}) {
            if (f == nullptr) continue;
            LAKEGC_ASSIGN_OR_RETURN(std::string plan, read(*f));
            if (!plan.empty()) r.plan = std::move(plan);
          }
          break;
        case Action::compaction:
        case Action::logcompaction:
          if (requested != nullptr) {
            LAKEGC_ASSIGN_OR_RETURN(std::string plan, read(*requested));
            r.plan = std::move(plan);
          }
          break;
        default: break;
      }
    }
    out.push_back(std::move(a));
  }
  return out;
}

/// Instants a crashed run archived into the LSM history but did not finish
/// deleting: completed on the active timeline and archived with the same
/// instant time and completed action. The next run deletes their files.
[[nodiscard]] inline std::vector<Instant> interrupted_lsm_archival(const lsm_timeline& archive,
                                                                   const Timeline& active) {
  std::vector<Instant> out;
  for (const Instant& i : active.instants()) {
    if (!i.is_completed()) continue;
    const lsm_instant* r = archive.find(i.requested.str());
    if (r != nullptr && r->action == to_string(i.action)) out.push_back(i);
  }
  return out;
}

/// Archives `actions` (lsm_archive_actions of the plan's instants; see the
/// top of this file). The caller holds the table lock and planned on the
/// timeline as it is under that lock.
template <Storage S>
[[nodiscard]] StatusOr<LsmArchiveExecution> execute_lsm_archive(S& storage, const TableProperties& props,
                                                                const TableLocation& loc,
                                                                std::vector<LsmArchiveAction> actions,
                                                                const LsmWriterOptions& o = {}) {
  LsmArchiveExecution out;
  out.actions = std::move(actions);
  lsm_writer<S> writer(storage, props, loc, o);
  LAKEGC_RETURN_IF_ERROR(writer.check_options());
  if (out.actions.empty()) {
    // Nothing to archive: finish what a crashed run left in the history.
    LAKEGC_RETURN_IF_ERROR(writer.compact_and_clean(out.lsm));
    return out;
  }
  LAKEGC_ASSIGN_OR_RETURN(const lsm_timeline already, read_lsm_timeline(storage, props, loc));
  std::vector<lsm_instant> records;
  for (const LsmArchiveAction& a : out.actions) {
    const lsm_instant* r = already.find(a.record.instant_time);
    if (r != nullptr && r->action == a.record.action) {
      ++out.records_already_archived;
    } else {
      records.push_back(a.record);
    }
  }
  // deleteAnyLeftOverMarkers, per instant (before its record is written).
  for (const LsmArchiveAction& a : out.actions) {
    const std::string markers = fmt::format(".hoodie/.temp/{}", a.requested);
    LAKEGC_ASSIGN_OR_RETURN(bool removed, remove_tree(storage, loc, markers));
    if (removed) out.markers_deleted.push_back(markers);
  }
  if (!records.empty()) {
    LAKEGC_RETURN_IF_ERROR(writer.write(records, out.lsm));
    out.records_written = records.size();
  }
  // deleteArchivedActions: pending files first, then completed ones oldest first.
  for (const bool completed : {false, true}) {
    for (const LsmArchiveAction& a : out.actions) {
      for (const TimelineFile& f : a.files) {
        if ((f.parsed.state == State::completed) != completed) continue;
        const std::string rel = fmt::format("{}/{}", props.timeline_dir, f.name);
        const Status st = storage.remove(rel);
        if (!st.ok() && !absl::IsNotFound(st)) return annotate(st, loc.display(rel));
        out.instant_files_deleted.push_back(rel);
      }
    }
  }
  LAKEGC_RETURN_IF_ERROR(writer.compact_and_clean(out.lsm));
  return out;
}

}  // namespace lakegc::hudi
