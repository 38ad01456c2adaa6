// File: lakegc/sim/checkers.hpp
// -----------------------------------------------------------------------------
// Invariant checks that look at the whole table (the per-query check I1
// lives with the readers, I7 and I8 with the cleaner, I9 with the sweep).
//
// * I2 retention: after a clean deleted files, every snapshot its promise
//   covers is fully readable. Resolving every promised snapshot after every
//   clean would cost a view per snapshot (hundreds under an hours rule), so
//   the check resolves exactly (Timeline::as_of, the reader's code) the
//   snapshots that can contain a deleted file: those whose read range
//   [slice key, next slice key) in the oracle's full view holds a deleted
//   base file (any earlier snapshot too, for a deleted log, which an as-of
//   view can attach to an older slice), plus the promise's edges (the
//   newest snapshot before the boundary, the latest, every lease), always.
// * I4 no loss: the latest snapshot is fully readable.
// * I5 savepoints: every file of every existing savepoint exists.
// * Pending services' inputs exist (promised whatever the policy).
// * I6 convergence: at quiescence, storage holds exactly what the policy
//   keeps (convergence_model below) plus pending writes' files; orphans of
//   abandoned writes and speculative duplicates are excluded (the orphan
//   sweep's job: the I3 hook).
#pragma once

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "lakegc/core/load_view.hpp"
#include "lakegc/plan/plan_clean.hpp"
#include "lakegc/plan/plan_orphans.hpp"
#include "lakegc/sim/table.hpp"

namespace lakegc::sim {

using FileMap = std::map<std::string, std::uint64_t>;

/// The files of `before` missing from `after`, each recorded in the oracle
/// as deleted by `by`; `bytes` gets their total size.
inline FileMap record_removed(Table& t, const FileMap& before, const FileMap& after, const Deletion& by,
                              std::uint64_t* bytes) {
  FileMap removed;
  *bytes = 0;
  for (const auto& [path, size] : before) {
    if (after.contains(path)) continue;
    removed.emplace(path, size);
    *bytes += size;
    t.oracle.record_deletion(path, by);
  }
  return removed;
}

namespace detail {

// First ideal file of the snapshot at `at` missing from `present` (and, if
// `among` is given, listed in it), or "".
inline std::string first_missing(Table& t, const TableMetadata& md, const InstantTime& at, const FileMap& present,
                                 bool* error, const FileMap* among = nullptr) {
  auto ideal = t.oracle.snapshot(md, at);
  if (!ideal.ok()) {
    t.unexpected("checker", "oracle snapshot", ideal.status());
    *error = true;
    return {};
  }
  for (const SnapshotFile& f : **ideal) {
    std::string p = f.path();
    if (!present.contains(p) && (among == nullptr || among->contains(p))) return p;
  }
  return {};
}

// Snapshots (among `promised`) whose content can include a file of `removed`.
inline std::set<InstantTime> snapshots_touching(Table& t, const TableMetadata& md, const FileMap& removed,
                                                const std::vector<InstantTime>& promised) {
  std::set<InstantTime> out;
  auto view = load_view(t.oracle.shadow(), md);
  if (!view.ok()) {
    out.insert(promised.begin(), promised.end());
    return out;
  }
  std::set<InstantTime> pending_compactions;
  for (const auto& op : md.pending_compactions) pending_compactions.insert(op.compaction_instant);
  auto add_range = [&](std::optional<InstantTime> from, std::optional<InstantTime> to) {
    auto lo = from ? std::lower_bound(promised.begin(), promised.end(), *from) : promised.begin();
    auto hi = to ? std::lower_bound(promised.begin(), promised.end(), *to) : promised.end();
    for (auto it = lo; it < hi; ++it) out.insert(*it);
  };
  std::size_t found = 0;
  for (const Partition& p : view->partitions()) {
    for (const FileGroup& g : view->groups_of(p)) {
      const auto slices = view->slices_of(g);  // newest first
      for (std::size_t i = 0; i < slices.size(); ++i) {
        // Exclusive end of the range of snapshots that read slice i: the
        // next newer slice, skipping empty pending-compaction slices (a
        // query there reads slice i as well).
        std::optional<InstantTime> end;
        for (std::size_t j = i; j-- > 0;) {
          const FileSlice& newer = slices[j];
          if (newer.base_file == kNoFile && pending_compactions.contains(newer.base_instant)) continue;
          end = newer.base_instant;
          break;
        }
        const FileSlice& s = slices[i];
        if (s.base_file != kNoFile && removed.contains(view->file_path(p, s.base_file))) {
          add_range(s.base_instant, end);
          ++found;
        }
        for (auto f : view->logs_of(s)) {
          if (removed.contains(view->file_path(p, f))) {
            add_range(std::nullopt, end);
            ++found;
          }
        }
      }
    }
  }
  if (found < removed.size()) out.insert(promised.begin(), promised.end());  // not placed: check them all
  return out;
}

// The table's metadata for a check; a load that fails is recorded as an
// unexpected error (the checks never run on a guess).
inline std::optional<TableMetadata> load_for_check(Table& t) {
  auto md = t.load();
  if (!md.ok()) {
    t.unexpected("checker", "journal.load", md.status());
    return std::nullopt;
  }
  return std::move(*md);
}

// I4: the latest snapshot is fully readable (counting only files of
// `among`, when given); otherwise records the violation against `actor`,
// naming who deleted the missing file, and returns false.
inline bool latest_readable(Table& t, const TableMetadata& md, const FileMap& present, std::string_view actor,
                            const FileMap* among, bool* error) {
  const auto commits = md.timeline.completed_commits();
  if (commits.empty()) return true;
  const InstantTime latest = commits.back()->requested;
  const std::string f = first_missing(t, md, latest, present, error, among);
  if (f.empty()) return true;
  const Deletion* d = t.oracle.deletion(f);
  t.violation(Invariant::I4_no_loss, std::string(actor), f, latest,
              fmt::format("the latest snapshot lost a file{}", d ? fmt::format(" (deleted by {})", d->by()) : std::string()));
  return false;
}

}  // namespace detail

/// I4, exactly: the latest snapshot as Hudi resolves it from the real
/// storage equals the oracle's. A missing file is lost data; a file the
/// oracle's snapshot does not hold is one Hudi now reads that it must not:
/// a replaced file group read as live again (duplicate rows), as happens
/// when archival drops the replacecommit of a group whose files are still
/// on storage. Run after archival (and at the end of a run). False and a
/// violation against `actor` when broken.
inline bool check_latest_exact(Table& t, std::string_view actor) {
  auto md = detail::load_for_check(t);
  if (!md) return false;
  const auto commits = md->timeline.completed_commits();
  if (commits.empty()) return true;
  const InstantTime latest = commits.back()->requested;
  const FileMap present = t.data_files();
  bool error = false;
  if (!detail::latest_readable(t, *md, present, actor, nullptr, &error)) return false;
  if (error) return false;
  auto ideal = t.oracle.snapshot(*md, latest);
  auto real = resolve_snapshot(t.storage, *md, latest);
  if (!ideal.ok() || !real.ok()) {
    t.unexpected("checker", "resolving the latest snapshot", ideal.ok() ? real.status() : ideal.status());
    return false;
  }
  std::set<std::string> expected;
  for (const SnapshotFile& f : **ideal) expected.insert(f.path());
  for (const SnapshotFile& f : *real) {
    if (expected.contains(f.path())) continue;
    t.violation(Invariant::I4_no_loss, std::string(actor), f.path(), latest,
                "the latest snapshot reads a file it must not (a replaced file group read as live again: "
                "duplicate rows)");
    return false;
  }
  return true;
}

/// I2, I4, I5 and pending-service inputs after cleans removed files:
/// `removed_by` maps each clean instant to the files it removed. Each clean
/// answers for its own deletions against its own promise (a later clean's
/// promise may be narrower than an earlier one's, and that is allowed).
inline void check_after_clean(Table& t, const std::map<InstantTime, FileMap>& removed_by) {
  if (removed_by.empty()) return;
  auto md = detail::load_for_check(t);
  if (!md) return;
  const FileMap present = t.data_files();
  bool error = false;

  // I4: the latest snapshot.
  if (!detail::latest_readable(t, *md, present, "cleaner", nullptr, &error)) return;

  // I2: the promised snapshots that can contain a removed file.
  for (const auto& [clean, removed] : removed_by) {
    const std::size_t pi = t.oracle.promise_of(clean);
    if (pi == kNoPromise) continue;
    const Promise& p = t.oracle.promise(pi);
    const std::vector<InstantTime> promised = promised_snapshots(p, md->timeline);
    std::set<InstantTime> check = detail::snapshots_touching(t, *md, removed, promised);
    for (const std::optional<InstantTime>& edge : {p.newest_before, p.latest, p.ectr}) {
      if (edge && std::binary_search(promised.begin(), promised.end(), *edge)) check.insert(*edge);
    }
    for (const InstantTime& l : p.leases) {
      if (md->timeline.is_completed_commit(l)) check.insert(l);
    }
    for (const InstantTime& s : check) {
      // Only this clean's deletions count here: earlier ones were judged
      // against their own promises.
      if (auto f = detail::first_missing(t, *md, s, present, &error, &removed); !f.empty()) {
        t.violation(Invariant::I2_retention, "cleaner", f, s,
                    fmt::format("clean {} deleted a file of snapshot {}, which it promised ({})", clean, s,
                                p.describe()));
        return;
      }
      if (error) return;
    }
  }

  // I5: savepointed files.
  for (const auto& [sp, paths] : t.oracle.savepoints()) {
    for (const std::string& f : paths) {
      if (present.contains(f)) continue;
      const Deletion* d = t.oracle.deletion(f);
      t.violation(Invariant::I5_savepoints, "cleaner", f, sp,
                  fmt::format("a file of savepoint {} was deleted{}", sp,
                              d ? fmt::format(" by {}", d->by()) : std::string()));
      return;
    }
  }

  // Pending services' inputs.
  for (const auto& [instant, input] : t.oracle.services()) {
    for (const SnapshotFile& f : input.files) {
      const std::string path = f.path();
      if (present.contains(path)) continue;
      const Deletion* d = t.oracle.deletion(path);
      t.violation(Invariant::I2_retention, input.actor, path, instant,
                  fmt::format("an input of pending {} {} was deleted{}", input.actor, instant,
                              d ? fmt::format(" by {}", d->by()) : std::string()));
      return;
    }
  }
}

/// What a policy keeps, as code (hudi-semantics.md sections 1.3, 2, 5, 6),
/// over the oracle's full view. Written from the spec, not from the
/// planner, so convergence (I6) checks the planner, the incremental scope
/// and the executor together.
///
/// `required`: files of the slices the policy keeps. `allowed`: those, plus
/// slices the policy neither keeps nor deletes yet: the older slices of a
/// group replaced at or after the boundary (the planner leaves a replaced
/// group alone until its replace is before the boundary, but earlier cleans
/// may have trimmed it while it was live).
struct KeptFiles {
  std::set<std::string> required;
  std::set<std::string> allowed;
};

template <CleaningPolicy P>
KeptFiles convergence_model(const TableView& v, const CleanDecision& decision, const P& policy,
                            const std::vector<InstantTime>& leases) {
  CleanDecision d = decision;
  Retention& r = d.retention;
  const bool boundary = r.has_boundary;
  const bool versions = r.versions.has_value();
  // Whether a guard other than savepoints keeps slice i of g.
  auto other_guard = [&](const Partition& part, const FileGroup& g, std::span<const FileSlice> slices, std::size_t i) {
    const FileSlice& s = slices[i];
    if (d.guards.pending_table_services && g.pending_compaction_base && s.base_instant >= *g.pending_compaction_base) {
      return true;
    }
    if (d.guards.pending_table_services && lakegc::detail::slice_has_pending_write(v, s)) return true;
    if (d.guards.reader_leases) {
      for (const InstantTime& l : leases) {
        if (g.replaced_by && *g.replaced_by <= l) continue;
        if (lakegc::detail::slice_read_at(slices, l) == static_cast<std::ptrdiff_t>(i)) return true;
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

/// I6 at quiescence: storage (orphans and duplicates aside) holds what the
/// policy keeps under `d`, plus pending writes' files, and nothing else.
/// Files an incremental clean may have missed because its listing was
/// silently truncated (a fault incremental cleaning cannot recover from) are
/// counted as waived instead of reported.
inline void check_convergence(Table& t, const CleanDecision& d) {
  // The metadata the cleaner plans with: where lakegc cannot read the
  // archive, a layout-2 log of an archived deltacommit has an uncertain
  // slice, and the policy keeps it as such (convergence_model).
  auto md = t.load_as_lakegc();
  if (!md.ok()) return;
  auto view = load_view(t.oracle.shadow(), *md);
  if (!view.ok()) {
    t.unexpected("checker", "shadow view", view.status());
    return;
  }
  KeptFiles kept = convergence_model(*view, d, t.policy, t.lease_list());
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
    t.violation(Invariant::I6_convergence, "cleaner", path, d.retention.ectr.value_or(InstantTime()),
                fmt::format("deleted although the policy keeps it{}",
                            del ? fmt::format(" ({})", del->by()) : std::string()));
    return;
  }
}

/// I3 orphan cutoff: no file of a pending, live write (oracle: begun and
/// neither committed, abandoned nor crashed) is ever deleted, by the orphan
/// sweep (`actor` "sweeper") or anyone else. The cleaner never plans
/// uncommitted files, so for it this holds by construction; the sweep
/// relies on pending instants, markers and a cutoff longer than its
/// listing. A sweep runs from its metadata snapshot (`since_ms`) to its
/// listing, so for it a write in flight at any moment of that span counts:
/// one that committed meanwhile (a writer's, or a compaction's or
/// clustering's output) is still a write the sweep must not touch.
/// Orphans (files of abandoned or crashed writes, speculative duplicates)
/// are fair game.
inline void check_orphan_cutoff(Table& t, const FileMap& removed, std::string_view actor = "cleaner",
                                std::optional<std::int64_t> since_ms = std::nullopt) {
  for (const auto& [instant, paths] : t.oracle.pending_writes()) {
    for (const std::string& p : paths) {
      if (removed.contains(p) && !t.oracle.is_orphan(p)) {
        t.violation(Invariant::I3_orphan_cutoff, std::string(actor), p, instant,
                    fmt::format("a file of write {}, still pending and alive, was deleted", instant));
        return;
      }
    }
  }
  if (!since_ms) return;
  for (const auto& [instant, w] : t.oracle.committed_writes()) {
    if (w.at_ms < *since_ms) continue;
    for (const std::string& p : w.paths) {
      if (removed.contains(p) && !t.oracle.is_orphan(p)) {
        t.violation(Invariant::I3_orphan_cutoff, std::string(actor), p, instant,
                    fmt::format("a file of write {}, in flight when the sweep took its metadata snapshot or begun "
                                "after it, and committed during the sweep, was deleted",
                                instant));
        return;
      }
    }
  }
}

/// After the orphan sweep (snapshot taken at `since_ms`) removed files: I3
/// first (no file of a write in flight), then I4 (the latest snapshot) and
/// I5 (savepoints), then I3 again: every removed file must have been an
/// orphan (the sweep promises nothing and may take nothing committed), and
/// finally what the cleaner also answers to: pending services' inputs and
/// I2, the promise standing now.
inline void check_after_sweep(Table& t, const FileMap& removed, const Promise& promise, std::int64_t since_ms) {
  if (removed.empty()) return;
  const std::size_t before = t.violations.size();
  check_orphan_cutoff(t, removed, "sweeper", since_ms);
  if (t.violations.size() != before) return;
  auto md = detail::load_for_check(t);
  if (!md) return;
  const FileMap present = t.data_files();
  bool error = false;
  if (!detail::latest_readable(t, *md, present, "sweeper", &removed, &error)) return;
  if (error) return;
  for (const auto& [sp, paths] : t.oracle.savepoints()) {
    for (const std::string& f : paths) {
      if (removed.contains(f)) {
        t.violation(Invariant::I5_savepoints, "sweeper", f, sp,
                    fmt::format("the orphan sweep deleted a file of savepoint {}", sp));
        return;
      }
    }
  }
  // I3: the sweep deletes nothing but orphans.
  for (const auto& [path, size] : removed) {
    if (t.oracle.is_orphan(path)) continue;
    t.violation(Invariant::I3_orphan_cutoff, "sweeper", path, {},
                "the orphan sweep deleted a file that is not an orphan (a committed write's file)");
    return;
  }
  for (const auto& [instant, input] : t.oracle.services()) {
    for (const SnapshotFile& f : input.files) {
      if (removed.contains(f.path())) {
        t.violation(Invariant::I2_retention, "sweeper", f.path(), instant,
                    fmt::format("the orphan sweep deleted an input of pending {} {}", input.actor, instant));
        return;
      }
    }
  }
  const std::vector<InstantTime> promised = promised_snapshots(promise, md->timeline);
  for (const InstantTime& s : detail::snapshots_touching(t, *md, removed, promised)) {
    if (auto f = detail::first_missing(t, *md, s, present, &error, &removed); !f.empty()) {
      t.violation(Invariant::I2_retention, "sweeper", f, s,
                  fmt::format("the orphan sweep deleted a file of promised snapshot {} ({})", s, promise.describe()));
      return;
    }
    if (error) return;
  }
}

/// I6 for the sweeper, at quiescence after a final sweep at `listed_ms`
/// with cutoff `cutoff_ms` against `md`: every orphan at least that old is
/// gone, except those the sweep leaves alone by design (plan_orphans.hpp):
/// layout-1 log files (named by their slice's base instant) and files of
/// instants older than the orphan horizon (plan_orphans.hpp orphan_horizon: a
/// write that failed before the table's first surviving write instant
/// looks archived).
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
      const auto slash = p.rfind('/');
      const std::string_view name = slash == std::string::npos ? std::string_view(p) : std::string_view(p).substr(slash + 1);
      if (md.layout == TimelineLayout::v1 && parse_log_file_name(name).ok()) continue;
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

namespace lakegc::sim {

/// I2 for a promise as it stands now: its edges and up to `sample` other
/// promised snapshots, evenly spaced, resolved exactly.
inline void check_promise_now(Table& t, const Promise& p, std::size_t sample) {
  auto md = t.load();
  if (!md.ok()) return;
  const FileMap present = t.data_files();
  const std::vector<InstantTime> promised = promised_snapshots(p, md->timeline);
  std::set<InstantTime> check;
  for (const std::optional<InstantTime>& edge : {p.newest_before, p.latest, p.ectr}) {
    if (edge && std::binary_search(promised.begin(), promised.end(), *edge)) check.insert(*edge);
  }
  for (const InstantTime& l : p.leases) {
    if (std::binary_search(promised.begin(), promised.end(), l)) check.insert(l);
  }
  const std::size_t step = promised.size() / std::max<std::size_t>(sample, 1) + 1;
  for (std::size_t i = 0; i < promised.size(); i += step) check.insert(promised[i]);
  for (const InstantTime& s : check) {
    auto ideal = t.oracle.snapshot(*md, s);
    if (!ideal.ok()) {
      t.unexpected("checker", "oracle snapshot", ideal.status());
      return;
    }
    for (const SnapshotFile& f : **ideal) {
      const std::string path = f.path();
      if (present.contains(path)) continue;
      // Judged against the promise of the clean that deleted it: a snapshot
      // may have been damaged before it entered the promise (a lease taken
      // on an old snapshot).
      const Deletion* d = t.oracle.deletion(path);
      if (d != nullptr && d->promise != kNoPromise && !t.oracle.promise(d->promise).covers(s)) continue;
      t.violation(Invariant::I2_retention, "checker", path, s,
                  fmt::format("promised snapshot {} is not fully readable{} (promise: {})", s,
                              d ? fmt::format("; {} deleted the file", d->by()) : std::string(), p.describe()));
      return;
    }
  }
}

}  // namespace lakegc::sim
