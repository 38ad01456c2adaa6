// File: lakegc/sim/sweep_flaws.hpp
// -----------------------------------------------------------------------------
// Orphan sweeps that are unsafe on purpose, as transformations of the
// metadata snapshot the sweep plans with: the library keeps no unsafe knob
// for them. The simulator's sweep canaries (SweeperKnobs::flaw) and the
// orphan-sweep property's canary (tests/property/orphans/) use them.
//
// * blind: pending write instants and markers are gone from the snapshot (a
//   sweep that cannot see in-flight writes, like orphan removal in formats
//   without markers);
// * start_at_any_action: the timeline starts at its oldest instant of any
//   action, the rule lakegc had before issue 11. Hudi archives clean and
//   rollback instants by their own rules (layout 1: by their own count;
//   layout 2: those older than the last archived commit) and never archives
//   savepoint, restore or indexing instants, so on a long-lived table the
//   oldest instant is often not a write: a sweep that starts the timeline
//   there takes the files of archived commits (committed data, some of them
//   the only slice of a live file group) for a failed write's. The oldest
//   instant is presented to the library as a completed write (without
//   metadata), which is exactly what "the first instant of any action is
//   the start" means to Timeline::write_start().
#pragma once

#include <vector>

#include "lakegc/core/table_metadata.hpp"

namespace lakegc::sim {

/// Canary orphans-ignore-markers: the snapshot no longer shows in-flight
/// writes (pending commit/deltacommit/replacecommit instants and every
/// marker are removed).
inline void blind(TableMetadata& md) {
  std::vector<Instant> kept;
  for (const Instant& i : md.timeline.instants()) {
    if (i.is_pending() && is_commit_action(i.action)) continue;
    kept.push_back(i);
  }
  if (auto tl = Timeline::make(std::move(kept)); tl.ok()) md.timeline = std::move(*tl);
  md.markers.clear();
}

/// Canary orphans-all-actions-start: the snapshot's oldest instant, when it
/// is not a write instant, is presented as a completed commit, so the write
/// timeline starts at the timeline's first instant of any action. Returns
/// whether the start moved back.
inline bool start_at_any_action(TableMetadata& md) {
  const auto all = md.timeline.instants();
  if (all.empty() || is_write_action(all.front().action)) return false;
  std::vector<Instant> instants(all.begin(), all.end());
  Instant& first = instants.front();
  first.action = Action::commit;
  first.state = State::completed;
  if (!first.completed) first.completed = first.requested;
  auto tl = Timeline::make(std::move(instants));
  if (!tl.ok()) return false;
  md.timeline = std::move(*tl);
  return true;
}

}  // namespace lakegc::sim
