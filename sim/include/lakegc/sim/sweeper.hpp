// File: lakegc/sim/sweeper.hpp
// -----------------------------------------------------------------------------
// The orphan sweeper: lakegc's orphan sweep (plan_orphans.hpp,
// orphan_executor.hpp) as a job sweeping a big table runs it, in two phases:
//
// * begin (T0): load the table's metadata (the snapshot the sweep plans
//   with);
// * finish (T0 + listing duration, minutes to tens of minutes later): list
//   storage as it is now, plan with the T0 snapshot (OrphanSweep::make / add
//   / finish) and delete the orphans (delete_orphans).
//
// What keeps it safe: files of writes pending at T0 are protected by their
// pending instant and markers; files of writes that began after T0 are
// younger than the listing, so a cutoff longer than the longest listing
// never reaches them. The swarm's cutoff is always longer than the listing.
// Usually it is also longer than the longest write, and a sweep the
// library's longest-write guard refuses is counted (stats.sweeps_refused).
// In a "tight" swarm (SweeperKnobs::tight) the cutoff is shorter than some
// writes on purpose and the sweep forces past the guard (stats
// .sweeps_forced): the guard is defence in depth against sweeps that cannot
// see in-flight writes, and forcing it is how the simulator tests the
// stronger claim that pending instants and markers alone protect them (the
// orphans-ignore-markers canary removes exactly those and is caught).
//
// A finish called late (the fuzzer and the RapidCheck driver call the
// operations in any order) lists as the listing would have at T0 + listing:
// files written after that are not seen, and ages are taken then. Deleting
// later is safe: a file that old at that moment was written before T0 by a
// write that was not pending at T0, so nothing can reference it later.
//
// Every sweep is checked (checkers.hpp): I3 for each deleted file, then I4,
// I5, service inputs and I2 against the promise standing now, and every
// deleted file must be an orphan; I7: what delete_orphans reports is what
// left storage. Deleted orphans leave the oracle's orphan set, so the
// archiver (which holds archival back for orphans) can move on.
//
// The snapshot is lakegc's (Table::load_as_lakegc): where the swarm says
// lakegc cannot read the archive, it has no archived completion times.
//
// Canaries (SweeperKnobs::flaw, set only by canaries.hpp; the snapshot
// transformations are in sweep_flaws.hpp): short_cutoff sweeps with a
// one-minute cutoff, forced; ignore_markers plans with a snapshot whose
// pending write instants and markers were removed; all_actions_start plans
// with a snapshot whose timeline starts at its oldest instant of any action
// (an old clean or rollback presented as a write).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lakegc/exec/orphan_executor.hpp"
#include "lakegc/plan/plan_orphans.hpp"
#include "lakegc/sim/checkers.hpp"
#include "lakegc/sim/sweep_flaws.hpp"
#include "lakegc/sim/table.hpp"

namespace lakegc::sim {

class Sweeper {
 public:
  explicit Sweeper(Table& t) : t_(t) {}

  bool in_progress() const noexcept { return snapshot_.has_value(); }
  std::int64_t cutoff_ms() const noexcept {
    return t_.swarm.sweeper.flaw == SweepFlaw::short_cutoff ? kMinute : t_.swarm.sweeper.cutoff_ms;
  }

  /// Phase one: the metadata snapshot. False when a sweep is in progress or
  /// the journal cannot be read.
  bool begin() {
    if (snapshot_) return false;
    auto md = t_.load_as_lakegc();
    if (!md.ok()) {
      t_.unexpected("sweeper", "journal.load", md.status());
      return false;
    }
    if (!md->timeline.instants().empty() && !is_write_action(md->timeline.instants().front().action)) {
      ++t_.stats.sweeps_non_write_oldest;
    }
    if (t_.swarm.sweeper.flaw == SweepFlaw::ignore_markers) blind(*md);
    if (t_.swarm.sweeper.flaw == SweepFlaw::all_actions_start && start_at_any_action(*md)) {
      t_.event("sweeper", "CANARY: the snapshot's timeline starts at {} (not a write)",
               md->timeline.instants().front().requested);
    }
    snapshot_ = std::move(*md);
    begun_ms_ = t_.now();
    ++t_.stats.sweeps_begun;
    t_.event("sweeper", "sweep begins: metadata snapshot of {} instant(s)", snapshot_->timeline.instants().size());
    return true;
  }

  /// Phase two: list, plan with the snapshot, delete. `quiescent` (the
  /// liveness phase's final sweep: no write, compaction or clustering in
  /// flight) forces past the longest-write guard if it refuses. Returns true
  /// when it deleted files.
  bool finish(bool quiescent = false) {
    if (!snapshot_) return false;
    const TableMetadata md = std::move(*snapshot_);
    snapshot_.reset();
    const std::int64_t listed_ms = std::min(t_.now(), begun_ms_ + t_.swarm.sweeper.listing_ms);
    last_listed_ms_ = listed_ms;
    OrphanOptions options;
    options.older_than_ms = cutoff_ms();
    options.force = t_.swarm.sweeper.flaw == SweepFlaw::short_cutoff;
    options.metadata_read_ms = begun_ms_;  // heartbeats as the snapshot saw them
    auto sweep = OrphanSweep::make(md, options, listed_ms);
    if (!sweep.ok() && !options.force && (t_.swarm.sweeper.tight || quiescent)) {
      ++t_.stats.sweeps_forced;
      t_.event("sweeper", "{}: forcing past the guard ({})", quiescent ? "quiescent" : "tight cutoff",
               message_of(sweep.status()));
      options.force = true;
      sweep = OrphanSweep::make(md, options, listed_ms);
    }
    if (!sweep.ok()) {
      ++t_.stats.sweeps_refused;
      t_.event("sweeper", "sweep refused: {}", message_of(sweep.status()));
      return false;
    }
    // The listing as it stood at listed_ms.
    Status st = t_.storage.list(
        "",
        [&](const FileEntry& e) {
          if (e.mtime_ms <= listed_ms) sweep->add(e.path, e.size, e.mtime_ms);
        },
        ListOptions{true, [](std::string_view dir) { return dir == ".hoodie"; }});
    if (!st.ok()) {
      t_.unexpected("sweeper", "list", st);
      return false;
    }
    auto finished = std::move(*sweep).finish();
    if (!finished.ok()) {
      t_.unexpected("sweeper", "finish", finished.status());
      return false;
    }
    const OrphanPlan plan = std::move(*finished);

    const FileMap before = t_.data_files();
    auto outcome = delete_orphans(t_.storage, plan);
    const FileMap after = t_.data_files();
    std::uint64_t removed_bytes = 0;
    const FileMap removed = record_removed(
        t_, before, after, Deletion{InstantTime(), kNoPromise, t_.elapsed(), Deleter::sweep}, &removed_bytes);
    ++t_.stats.sweeps;
    t_.stats.orphans_deleted += removed.size();
    t_.stats.orphan_bytes_deleted += removed_bytes;
    std::string names;
    for (const auto& [path, size] : removed) names += " " + path;
    std::string guards;
    for (const OrphanGuard& g : plan.guards) guards += fmt::format(" [guard {}: {}]", g.scope, g.reason);
    t_.event("sweeper", "sweep listed at +{}s: {} listed, {} too young, {} kept{}; deleted {} file(s):{}",
             (listed_ms - begun_ms_) / 1000, plan.listed, plan.too_young.size(), plan.kept, guards, removed.size(),
             names);
    if (!outcome.ok()) {
      t_.unexpected("sweeper", "delete_orphans", outcome.status());
    } else if (outcome->files_deleted != removed.size() || outcome->bytes_deleted != removed_bytes) {
      t_.violation(Invariant::I7_accounting, "sweeper", {}, {},
                   fmt::format("the sweep reported {} file(s) / {} bytes deleted, storage lost {} / {}",
                               outcome->files_deleted, outcome->bytes_deleted, removed.size(), removed_bytes));
    }
    check_after_sweep(t_, removed, promise_ != nullptr ? *promise_ : Promise{}, begun_ms_);
    for (const auto& [path, size] : removed) t_.oracle.orphan_deleted(path);
    return !removed.empty();
  }

  /// The promise the sweep's deletions are checked against (the cleaner's
  /// current one); set by the World.
  void watch_promise(const Promise* p) noexcept { promise_ = p; }
  /// When the last finished sweep listed.
  std::int64_t last_listed_ms() const noexcept { return last_listed_ms_; }

 private:
  Table& t_;
  std::optional<TableMetadata> snapshot_;
  std::int64_t begun_ms_ = 0;
  std::int64_t last_listed_ms_ = 0;
  const Promise* promise_ = nullptr;
};

}  // namespace lakegc::sim
