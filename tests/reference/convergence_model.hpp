// File: tests/reference/convergence_model.hpp
// -----------------------------------------------------------------------------
// What a cleaning policy keeps once the table is quiet, as a second,
// independent statement of the cleaning rules: the other half of the spec
// lakegc's planner is checked against (reference_planner.hpp is the first).
//
// The reference planner answers "what does one clean delete" for the three
// Hudi rules and the two built-in guards, from the timeline alone. This
// model answers "what must be left after cleaning has converged" for any
// decision a CleaningPolicy makes (boundary, versions, any_of / all_of),
// with what the reference planner does not cover: reader leases, user
// guards, the boundary pulled back to a replacecommit whose replaced files
// such a guard keeps, and layout-2 logs of uncertain slice. The simulator's
// I6 check (sim/include/lakegc/sim/invariants/convergence.hpp) holds the
// planner, the incremental scope and the executor together to it after a
// whole run.
//
// Written from docs/hudi-rules.md §5 (slices of a live group), §6
// (replaced groups and the guarded-replace clamp), §3 (which slice a
// snapshot reads, uncertain logs) and §10 (savepoints), without calling
// plan_clean, plan_partition or any of the planner's helpers: it reads the
// slices of a TableView and the decision the policy made
// (CleanDecision::retention), and recomputes every keep from them. The
// boundary itself is the policy's (its retention rule is not what this
// model checks; the reference planner checks the three built-in ones).
//
// Depends on the library's data types only, never on the simulator, so the
// simulator and the property tests can both use it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "lakegc/core/table_view.hpp"
#include "lakegc/plan/plan_clean.hpp"
#include "lakegc/policy/cleaning.hpp"

namespace lakegc::reference {

/// `required`: files of the slices the policy keeps. `allowed`: those, plus
/// slices the policy neither keeps nor deletes yet: the older slices of a
/// group replaced at or after the boundary (the planner leaves a replaced
/// group alone until its replace is before the boundary, but earlier cleans
/// may have trimmed it while it was live), and uncertain layout-2 logs
/// while a slice they may belong to stays.
struct KeptFiles {
  std::set<std::string> required;
  std::set<std::string> allowed;
};

/// What `policy`, having decided `decision`, keeps of the table `v` while
/// readers hold `leases` (sorted, unique).
template <CleaningPolicy P>
KeptFiles convergence_model(const TableView& v, const CleanDecision& decision, const P& policy,
                            const std::vector<InstantTime>& leases) {
  CleanDecision d = decision;
  Retention& r = d.retention;
  const bool boundary = r.has_boundary;
  const bool versions = r.versions.has_value();
  // Whether a guard other than savepoints keeps slice i of g (newest first).
  auto other_guard = [&](const Partition& part, const FileGroup& g, std::span<const FileSlice> slices, std::size_t i) {
    const FileSlice& s = slices[i];
    if (d.guards.pending_table_services) {
      // A pending compaction reads every slice from its base on.
      if (g.pending_compaction_base && s.base_instant >= *g.pending_compaction_base) return true;
      // A pending write's markers name one of the slice's files.
      bool pending_write = s.base_file != kNoFile && v.pending_write(s.base_file);
      for (auto f : v.logs_of(s)) pending_write = pending_write || v.pending_write(f);
      if (pending_write) return true;
    }
    if (d.guards.reader_leases) {
      for (const InstantTime& l : leases) {
        if (g.replaced_by && *g.replaced_by <= l) continue;  // not in that snapshot
        // The snapshot at l reads the newest slice keyed at or before l.
        std::size_t read = 0;
        while (read < slices.size() && l < slices[read].base_instant) ++read;
        if (read == i) return true;
      }
    }
    return static_cast<bool>(policy.user_guards_protect(SliceGuardContext{v, part, g, s}));
  };
  // The boundary never passes a replacecommit whose replaced files such a
  // guard keeps (Hudi's archiver would archive it and revive the group).
  for (bool moved = boundary; moved;) {
    moved = false;
    if (!r.ectr) break;
    for (const Partition& part : v.partitions()) {
      for (const FileGroup& g : v.groups_of(part)) {
        if (!g.replaced_by || !(*g.replaced_by < *r.ectr)) continue;
        const auto slices = v.slices_of(g);
        for (std::size_t i = 0; i < slices.size(); ++i) {
          if (other_guard(part, g, slices, i)) {
            r.ectr = g.replaced_by;
            moved = true;
            break;
          }
        }
      }
    }
  }
  KeptFiles out;
  for (const Partition& part : v.partitions()) {
    for (const FileGroup& g : v.groups_of(part)) {
      const auto slices = v.slices_of(g);
      auto guarded = [&](std::size_t i) {
        const FileSlice& s = slices[i];
        if (d.guards.savepoints) {
          if (s.base_file != kNoFile && v.is_savepointed(v.file_name(s.base_file))) return true;
          for (auto f : v.logs_of(s)) {
            if (v.is_savepointed(v.file_name(f))) return true;
          }
        }
        return other_guard(part, g, slices, i);
      };
      // Per slice: does the boundary rule keep it (as if the group were
      // live)? the version rule?
      std::vector<bool> keep_b(slices.size(), true), keep_v(slices.size(), true);
      if (boundary && r.ectr) {
        bool newest_before_seen = false;
        for (std::size_t i = 0; i < slices.size(); ++i) {
          const bool before = slices[i].base_instant < *r.ectr;
          const bool newest_before = before && !newest_before_seen;
          if (before) newest_before_seen = true;
          keep_b[i] = i == 0 || !before || (newest_before && r.keep_newest_before_boundary);
        }
      }
      if (versions) {
        std::uint32_t k = *r.versions;
        const bool pending = d.guards.pending_table_services && g.pending_compaction_base.has_value();
        if (pending && k > 0) --k;
        std::uint32_t seen = 0;
        for (std::size_t i = 0; i < slices.size(); ++i) {
          if (pending && slices[i].base_instant >= *g.pending_compaction_base) continue;
          keep_v[i] = seen++ < k;
        }
      }
      // A replaced group goes whole once its replace is before the boundary
      // (at once under a version rule); until then it stays as it is.
      const bool replaced_goes =
          g.replaced_by && (!boundary || (r.ectr && *g.replaced_by < *r.ectr) || (versions && !r.keep_if_either));
      const bool replaced_waits = g.replaced_by && !replaced_goes;
      bool any_newer_kept = false;
      for (std::size_t i = 0; i < slices.size(); ++i) {
        bool keep;
        if (boundary && versions) {
          keep = r.keep_if_either ? (keep_b[i] || keep_v[i]) : (keep_b[i] && keep_v[i]);
        } else if (boundary) {
          keep = keep_b[i];
        } else if (versions) {
          keep = keep_v[i];
        } else {
          keep = true;  // no rule keeps nothing from deletion but replaced groups go
        }
        if (replaced_goes) keep = false;
        const bool kept = keep || guarded(i);
        // A layout-2 log whose slice is uncertain (its archived deltacommit's
        // completion time unknown) may belong to this slice or any newer
        // one: it may stay while any of them stays, and must stay while its
        // own does. (A clean that ran while the deltacommit was still
        // active knew its slice and may have deleted it with that slice.)
        any_newer_kept = any_newer_kept || kept;
        const FileSlice& s = slices[i];
        auto keep_file = [&](std::string f, bool required) {
          if (required) out.required.insert(f);
          out.allowed.insert(std::move(f));
        };
        if (kept || replaced_waits) {
          if (s.base_file != kNoFile) keep_file(v.file_path(part, s.base_file), kept);
        }
        for (auto f : v.logs_of(s)) {
          const bool may_stay = kept || replaced_waits || (v.completion_unknown(f) && any_newer_kept);
          if (may_stay) keep_file(v.file_path(part, f), kept);
        }
      }
    }
  }
  return out;
}

}  // namespace lakegc::reference
