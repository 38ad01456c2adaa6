// File: lakegc/sim/invariants/convergence.hpp
// -----------------------------------------------------------------------------
// I6 convergence: once the table is quiet, cleaning and the orphan sweep
// have done their work, no more and no less.
//
// Verifies, at quiescence (World::finish: faults off, writes and services
// finished, one more commit and clean):
//
// * check_convergence: storage holds exactly what the policy keeps under
//   its last decision plus pending writes' files. What it keeps comes from
//   the spec the planner is checked against, not from the planner:
//   reference::convergence_model (tests/reference/convergence_model.hpp,
//   docs/hudi-rules.md §5, §6, §10), over the oracle's full view of every
//   file ever written, with the metadata lakegc's cleaner plans with (where
//   lakegc cannot read the archive, a layout-2 log of an archived
//   deltacommit has an uncertain slice, §3). So the planner, the
//   incremental scope (§7) and the executor are checked together, and a
//   file left behind is as much a failure as a file deleted too soon.
// * check_orphans_swept: after a final sweep past the cutoff, every orphan
//   at least that old is gone, except what the sweep leaves alone by design
//   (§12).
//
// Does not verify safety (I1-I5 do), orphans and speculative duplicates in
// check_convergence (the sweep's job), or files an incremental clean could
// not see because its listing was silently truncated (a fault incremental
// cleaning cannot recover from: counted as waived, RunStats::i6_waived).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "reference/convergence_model.hpp"
#include "lakegc/plan/plan_clean.hpp"
#include "lakegc/plan/plan_orphans.hpp"
#include "lakegc/sim/invariants/common.hpp"
#include "lakegc/storage/path.hpp"

namespace lakegc::sim {

/// I6 at quiescence for the cleaner (see the header), under its last
/// decision `d`.
inline void check_convergence(Table& t, const CleanDecision& d) {
  auto md = t.load_as_lakegc();
  if (!md.ok()) return;
  auto view = load_view(t.oracle.shadow(), *md);
  if (!view.ok()) {
    t.unexpected("checker", "shadow view", view.status());
    return;
  }
  reference::KeptFiles kept = reference::convergence_model(*view, d, t.policy, t.lease_list());
  for (const auto& [instant, paths] : t.oracle.pending_writes()) {
    kept.required.insert(paths.begin(), paths.end());
    kept.allowed.insert(paths.begin(), paths.end());
  }
  const FileMap present = t.data_files();
  auto excluded = [&](const std::string& p) { return t.oracle.is_orphan(p) || t.oracle.is_duplicate(p); };
  for (const auto& [path, size] : present) {
    if (excluded(path) || kept.allowed.contains(path)) continue;
    if (t.oracle.missed_by_short_listing(path)) {
      ++t.stats.i6_waived;
      continue;
    }
    t.violation(Invariant::I6_convergence, "cleaner", path, d.retention.ectr.value_or(InstantTime()),
                fmt::format("left behind at quiescence: the policy ({}) does not keep it", d.policy_name));
    return;
  }
  for (const std::string& path : kept.required) {
    if (excluded(path) || present.contains(path)) continue;
    const Deletion* del = t.oracle.deletion(path);
    t.violation(
        Invariant::I6_convergence, "cleaner", path, d.retention.ectr.value_or(InstantTime()),
        fmt::format("deleted although the policy keeps it{}", del ? fmt::format(" ({})", del->by()) : std::string()));
    return;
  }
}

/// I6 for the sweeper, at quiescence after a final sweep at `listed_ms`
/// with cutoff `cutoff_ms` against `md`: every orphan at least that old is
/// gone, except those the sweep leaves alone by design (plan_orphans.hpp,
/// docs/hudi-rules.md §12): layout-1 log files (named by their slice's
/// base instant) and files of instants older than the orphan horizon
/// (plan_orphans.hpp orphan_horizon: a write that failed before the
/// table's first surviving write instant looks archived).
///
/// Nor a speculative duplicate whose named sibling the cleaner has deleted:
/// it is then the only base file of its slice, Hudi's view reads it, and it
/// is the cleaner's (the sweep keeps every file the view shows in a slice).
inline void check_orphans_swept(Table& t, const TableMetadata& md, std::int64_t listed_ms, std::int64_t cutoff_ms) {
  const auto start = orphan_horizon(md);
  std::map<std::string, std::int64_t> mtimes;
  t.storage.for_each_file([&](const FileEntry& e) { mtimes.emplace(std::string(e.path), e.mtime_ms); });
  std::set<std::string> in_slices;
  if (auto view = load_view(t.storage, md); view.ok()) {
    for (const Partition& p : view->partitions()) {
      for (const FileGroup& g : view->groups_of(p)) {
        for (const FileSlice& s : view->slices_of(g)) {
          if (s.base_file != kNoFile) in_slices.insert(view->file_path(p, s.base_file));
          for (auto f : view->logs_of(s)) in_slices.insert(view->file_path(p, f));
        }
      }
    }
  }
  for (const auto& [instant, paths] : t.oracle.orphans()) {
    if (!start || instant < *start) continue;
    for (const std::string& p : paths) {
      const auto it = mtimes.find(p);
      if (it == mtimes.end()) continue;
      if (md.layout == TimelineLayout::v1 && parse_log_file_name(lakegc::detail::split_parent(p).second).ok()) continue;
      if (in_slices.contains(p)) continue;
      if (listed_ms - it->second < cutoff_ms) continue;
      t.violation(Invariant::I6_convergence, "sweeper", p, instant,
                  fmt::format("an orphan of write {} older than the cutoff ({} min) is left at quiescence", instant,
                              cutoff_ms / 60'000));
      return;
    }
  }
}

}  // namespace lakegc::sim
