// File: tests/reference/reference_planner.hpp
// -----------------------------------------------------------------------------
// A naive reference for lakegc's clean planner, for property tests.
//
// Written from docs/hudi-rules.md §3 to §9 and lakegc's documented
// deviations, without calling plan_clean, plan_partition,
// compute_clean_scope or any retention rule of the library: it reads only
// the slices of a TableView and the plain data of TableMetadata, and
// recomputes everything else (completed commits, pending instants,
// replaced groups, pending compactions, savepoints) from the timeline and
// the commit metadata. It is slow on purpose: every question is answered
// by a fresh linear scan, so each rule reads like its sentence in the
// design document.
//
// Covered: KEEP_LATEST_COMMITS (pending-instant clamp, cap per run),
// KEEP_LATEST_FILE_VERSIONS (one version fewer under a pending compaction),
// KEEP_LATEST_BY_HOURS, the savepoint and pending-table-service guards,
// replaced file groups, partition deletion, full scans (with the partition
// filter) and incremental scans with their fallbacks, empty cleans.
// Not covered: any_of / all_of, reader leases, user guards.
//
// lakegc's documented deviations from Hudi, followed here:
// * KEEP_LATEST_COMMITS: the boundary is the earlier of the requested-order
//   candidate and the smallest requested time among the last N commits by
//   completion order (retention.hpp);
// * a partition is deleted only if something in it was replaced
//   (last_replace) and every replaced file in it is deleted by this plan
//   (plan_clean.hpp);
// * the pending-table-service guard also protects slices of replaced
//   groups (Hudi has no such check there; it only matters when a replaced
//   group is under compaction, which Hudi's writers never produce);
// * empty cleans never move the anchor backwards, and the plan reports the
//   previous boundary whenever that rule applies, due or not;
// * a layout-2 log of an archived deltacommit whose completion time is not
//   known (TableView::completion_unknown) is deleted only together with
//   every slice from its own to the newest;
// * a replaced group older than the boundary whose files a guard other than
//   savepoints keeps pulls the boundary back to its replacecommit;
// * KEEP_LATEST_COMMITS with 0 commits retained never cleans (as Hudi);
// * the pending-table-service guard also keeps a slice holding a file a
//   pending write's markers name;
// * an incremental scan also covers commits requested before the previous
//   boundary that completed after the previous clean (keep_by_hours does
//   not clamp its boundary to pending writes, so such a commit falls in no
//   window), and the partitions where a reader lease kept a slice the
//   previous clean would have deleted; such a commit already archived
//   (its partitions unknown) makes the scan full.
//
// CANARY: Policy::drop_newest_before_boundary removes the rule "keep the
// newest slice before the boundary" (the pre-0.14.1 KEEP_LATEST_BY_HOURS,
// Hudi issue 8584). It exists only so a test can prove that the property
// checks catch that bug; never set it elsewhere.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "lakegc/core/file_name.hpp"
#include "lakegc/core/table_metadata.hpp"
#include "lakegc/core/table_view.hpp"
#include "lakegc/plan/clean_plan.hpp"

namespace lakegc::reference {

enum class Rule { keep_latest_commits, keep_latest_file_versions, keep_by_hours };

struct Policy {
  Rule rule = Rule::keep_latest_commits;
  /// Commits retained, file versions retained or hours retained.
  std::uint32_t count = 10;
  bool savepoint_guard = true;
  bool pending_guard = true;
  bool incremental = false;
  std::vector<std::string> selected_partitions;
  std::string partition_regex;
  std::uint64_t max_commits_to_clean = 0;  // 0: no cap
  std::optional<std::uint32_t> empty_clean_interval_hours;
  /// CANARY only (see the file comment).
  bool drop_newest_before_boundary = false;
};

namespace detail {

inline const char* rule_name(Rule r) {
  switch (r) {
    case Rule::keep_latest_commits: return "KEEP_LATEST_COMMITS";
    case Rule::keep_latest_file_versions: return "KEEP_LATEST_FILE_VERSIONS";
    case Rule::keep_by_hours: return "KEEP_LATEST_BY_HOURS";
  }
  return "?";
}

inline bool is_commit(Action a) {
  return a == Action::commit || a == Action::deltacommit || a == Action::replacecommit;
}

/// Completed commit, deltacommit and replacecommit instants, by requested time.
inline std::vector<Instant> completed_commits(const Timeline& tl) {
  std::vector<Instant> out;
  for (const Instant& i : tl.instants()) {
    if (i.state == State::completed && is_commit(i.action)) out.push_back(i);
  }
  std::sort(out.begin(), out.end(), [](const Instant& a, const Instant& b) { return a.requested < b.requested; });
  return out;
}

/// The earliest requested time of a pending write or table service.
inline std::optional<InstantTime> earliest_pending_write(const Timeline& tl) {
  std::optional<InstantTime> out;
  for (const Instant& i : tl.instants()) {
    if (i.state == State::completed) continue;
    const bool write = is_commit(i.action) || i.action == Action::compaction || i.action == Action::logcompaction ||
                       i.action == Action::clustering;
    if (write && (!out || i.requested < *out)) out = i.requested;
  }
  return out;
}

/// The time an instant completed, or its requested time if unknown.
inline InstantTime completion_time(const Instant& i) { return i.completed ? *i.completed : i.requested; }

/// hoodie.clean.max.commits.to.clean: the boundary may advance at most
/// `cap` completed commits past the previous clean's boundary.
inline std::optional<InstantTime> apply_cap(const TableMetadata& md, const Policy& p, std::optional<InstantTime> ectr) {
  if (!ectr || p.max_commits_to_clean == 0) return ectr;
  if (!md.last_completed_clean || !md.last_completed_clean->earliest_commit_to_retain) return ectr;
  const InstantTime prev = *md.last_completed_clean->earliest_commit_to_retain;
  const std::vector<Instant> commits = completed_commits(md.timeline);
  // Position of the previous boundary: the first commit at or after it.
  std::size_t from = 0;
  while (from < commits.size() && commits[from].requested < prev) ++from;
  const std::uint64_t target = from + p.max_commits_to_clean;
  if (target >= commits.size()) return ectr;
  const InstantTime capped = commits[static_cast<std::size_t>(target)].requested;
  return capped < *ectr ? capped : *ectr;
}

/// KEEP_LATEST_COMMITS boundary (docs/hudi-rules.md §4 plus lakegc's
/// completion-order deviation).
inline std::optional<InstantTime> commits_boundary(const TableMetadata& md, const Policy& p) {
  const std::vector<Instant> commits = completed_commits(md.timeline);
  const std::size_t n = p.count;
  if (n == 0) return std::nullopt;  // 0 retained: never clean (Hudi)
  if (commits.size() <= n) return std::nullopt;
  InstantTime cand = commits[commits.size() - n].requested;
  // The last n commits by completion time (ties: later requested time last).
  std::vector<Instant> by_completion = commits;
  std::sort(by_completion.begin(), by_completion.end(), [](const Instant& a, const Instant& b) {
    if (completion_time(a) != completion_time(b)) return completion_time(a) < completion_time(b);
    return a.requested < b.requested;
  });
  for (std::size_t i = by_completion.size() - n; i < by_completion.size(); ++i) {
    if (by_completion[i].requested < cand) cand = by_completion[i].requested;
  }
  if (p.pending_guard) {
    const auto pending = earliest_pending_write(md.timeline);
    if (pending && *pending < cand) {
      // The last completed commit requested before the pending one.
      std::optional<InstantTime> clamped;
      for (const Instant& c : commits) {
        if (c.requested < *pending) clamped = c.requested;
      }
      if (!clamped) return std::nullopt;
      cand = *clamped;
    }
  }
  return apply_cap(md, p, cand);
}

/// KEEP_LATEST_BY_HOURS boundary (section 3): the first completed commit
/// requested at or after now - hours.
inline std::optional<InstantTime> hours_boundary(const TableMetadata& md, const Policy& p, std::int64_t now_ms) {
  const InstantTime cutoff =
      InstantTime::from_epoch_ms(now_ms - static_cast<std::int64_t>(p.count) * 3'600'000, md.timezone);
  for (const Instant& c : completed_commits(md.timeline)) {
    if (c.requested >= cutoff) return apply_cap(md, p, c.requested);
  }
  return std::nullopt;
}

using GroupKey = std::pair<std::string, std::string>;  // partition, file id

/// Replaced groups from completed replacecommits (the later replace wins).
inline std::map<GroupKey, InstantTime> replaced_groups(const TableMetadata& md) {
  std::map<GroupKey, InstantTime> out;
  for (const auto& [t, info] : md.commits) {
    const Instant* i = md.timeline.find(t);
    if (i == nullptr || i->state != State::completed || i->action != Action::replacecommit) continue;
    for (const ReplacedGroup& r : info.replaced) {
      GroupKey key{r.partition, r.file_id};
      auto it = out.find(key);
      if (it == out.end() || it->second < t) out[key] = t;
    }
  }
  return out;
}

/// Earliest base instant under a pending compaction or log compaction, per group.
inline std::map<GroupKey, InstantTime> pending_compaction_bases(const TableMetadata& md) {
  std::map<GroupKey, InstantTime> out;
  for (const PendingCompactionSlice& op : md.pending_compactions) {
    const Instant* i = md.timeline.find(op.compaction_instant);
    if (i == nullptr || i->state == State::completed) continue;
    GroupKey key{op.partition, op.file_id};
    auto it = out.find(key);
    if (it == out.end() || op.base_instant < it->second) out[key] = op.base_instant;
  }
  return out;
}

inline std::set<std::string> savepointed_names(const TableMetadata& md) {
  std::set<std::string> out;
  for (const SavepointInfo& s : md.savepoints) {
    for (const FileRef f : s.files) out.emplace(f.name);
  }
  return out;
}

inline std::string file_id_of(std::string_view name) {
  auto parsed = parse_data_file_name(name);
  if (!parsed.ok()) return {};
  if (const auto* b = std::get_if<BaseFileName>(&*parsed)) return b->file_id;
  return std::get<LogFileName>(*parsed).file_id;
}

/// The partitions to scan, as paths, or nothing when no boundary exists yet.
inline std::vector<std::string> partitions_to_scan(const TableView& v, const TableMetadata& md, const Policy& p,
                                                   const std::optional<InstantTime>& ectr) {
  const bool boundary_rule = p.rule != Rule::keep_latest_file_versions;
  std::vector<std::string> all;
  for (const Partition& part : v.partitions()) all.push_back(part.path);
  if (boundary_rule && !ectr) return {};

  if (boundary_rule && p.incremental) {
    // Usable previous clean: exists, recorded a boundary, that boundary is
    // not older than every commit still on the timeline, and every
    // savepoint it recorded still exists.
    bool usable = md.last_completed_clean.has_value() && md.last_completed_clean->earliest_commit_to_retain.has_value();
    if (usable) {
      const InstantTime prev = *md.last_completed_clean->earliest_commit_to_retain;
      const std::vector<Instant> commits = completed_commits(md.timeline);
      if (commits.empty() || prev < commits.front().requested) usable = false;
      for (const InstantTime& sp : md.last_completed_clean->savepointed_timestamps) {
        bool found = false;
        for (const SavepointInfo& s : md.savepoints) found = found || s.instant == sp;
        if (!found) usable = false;
      }
      // A late commit (below) already archived: its partitions are unknown.
      for (const auto& [requested, completed] : md.archived_completions) {
        if (requested < prev && md.last_completed_clean->instant < completed) usable = false;
      }
    }
    if (usable) {
      const CleanRecord& prev = *md.last_completed_clean;
      const InstantTime from = *prev.earliest_commit_to_retain;
      std::set<std::string> touched;
      for (const auto& [t, info] : md.commits) {
        const Instant* i = md.timeline.find(t);
        if (i == nullptr || i->state != State::completed || !is_commit(i->action)) continue;
        // The window [previous boundary, new boundary); and, before it, a
        // commit that completed after the previous clean (it was still
        // running then, so no earlier window saw it). Only where the
        // completion time is known.
        const bool in_window = !(t < from) && t < *ectr;
        const bool late = t < from && i->completed && prev.instant < *i->completed;
        if (!in_window && !late) continue;
        for (const std::string& w : info.partitions_written) touched.insert(w);
        for (const ReplacedGroup& r : info.replaced) touched.insert(r.partition);
      }
      // Partitions where a reader lease kept a slice the previous clean
      // would have deleted.
      for (const std::string& part : prev.lease_vetoed_partitions) touched.insert(part);
      for (const std::string& part : prev.listing_skipped_partitions) touched.insert(part);
      std::vector<std::string> out;
      for (const std::string& path : all) {
        if (touched.contains(path)) out.push_back(path);
      }
      return out;
    }
  }

  std::vector<std::string> out;
  if (!p.selected_partitions.empty()) {
    for (const std::string& path : all) {
      if (std::find(p.selected_partitions.begin(), p.selected_partitions.end(), path) != p.selected_partitions.end()) {
        out.push_back(path);
      }
    }
  } else if (!p.partition_regex.empty()) {
    const std::regex re(p.partition_regex);
    for (const std::string& path : all) {
      if (std::regex_match(path, re)) out.push_back(path);
    }
  } else {
    out = all;
  }
  return out;
}

}  // namespace detail

/// The plan lakegc should make for `v` and `md` under `p` at `now_ms`.
inline CleanPlan plan(const TableView& v, const TableMetadata& md, const Policy& p, std::int64_t now_ms) {
  using namespace detail;
  CleanPlan out;
  out.policy = rule_name(p.rule);

  // 1. The boundary (earliest commit to retain), or none.
  std::optional<InstantTime> ectr;
  if (p.rule == Rule::keep_latest_commits) ectr = commits_boundary(md, p);
  if (p.rule == Rule::keep_by_hours) ectr = hours_boundary(md, p, now_ms);
  const bool boundary_rule = p.rule != Rule::keep_latest_file_versions;
  out.earliest_instant_to_retain = ectr;

  // 2. Plan fields that do not depend on files.
  {
    std::optional<Instant> last;
    for (const Instant& c : completed_commits(md.timeline)) {
      if (!last || completion_time(*last) < completion_time(c) ||
          (completion_time(*last) == completion_time(c) && last->requested < c.requested)) {
        last = c;
      }
    }
    if (last) out.last_completed_commit_timestamp = last->requested;
  }
  if (md.partitioned && !md.savepoints.empty()) {
    std::vector<InstantTime> sps;
    for (const SavepointInfo& s : md.savepoints) sps.push_back(s.instant);
    std::sort(sps.begin(), sps.end());
    std::string joined;
    for (const InstantTime& s : sps) joined += (joined.empty() ? "" : ",") + s.str();
    out.extra_metadata["savepointed_timestamps"] = joined;
  }

  const auto replaced = replaced_groups(md);
  const auto pending = pending_compaction_bases(md);
  const auto savepointed = savepointed_names(md);
  std::set<GroupKey> pending_write_files;  // partition, name
  for (const auto& [t, files] : md.markers) {
    const Instant* i = md.timeline.find(t);
    if (i == nullptr || i->state == State::completed) continue;
    for (const WrittenFile& f : files) pending_write_files.insert({f.partition, f.name});
  }

  // 3. Each scanned partition, group by group, slice by slice. A replaced
  // group older than the boundary whose files the pending-compaction guard
  // keeps pulls the boundary back to its replacecommit (Hudi's archiver
  // would otherwise archive the replacecommit and revive the group): then
  // everything is planned again with that boundary.
  for (;;) {
    std::optional<InstantTime> guarded_replace;
    out.files_per_partition.clear();
    out.partitions_to_be_deleted.clear();
    out.earliest_instant_to_retain = ectr;
    for (const std::string& path : partitions_to_scan(v, md, p, ectr)) {
      const Partition* part = nullptr;
      for (const Partition& candidate : v.partitions()) {
        if (candidate.path == path) part = &candidate;
      }
      std::vector<PlannedDelete> files;
      bool any_live_group = false;
      bool every_replaced_file_deleted = true;

      for (const FileGroup& g : v.groups_of(*part)) {
        const GroupKey key{path, std::string(v.file_id(g))};
        const auto slices = v.slices_of(g);  // newest first
        const auto pending_it = pending.find(key);
        const std::optional<InstantTime> pending_base =
            pending_it == pending.end() ? std::nullopt : std::optional(pending_it->second);

        auto names_of = [&](const FileSlice& s) {
          std::vector<std::pair<std::string, std::uint64_t>> names;
          if (s.base_file != kNoFile)
            names.emplace_back(std::string(v.file_name(s.base_file)), v.file_size(s.base_file));
          for (std::uint32_t f : v.logs_of(s)) names.emplace_back(std::string(v.file_name(f)), v.file_size(f));
          return names;
        };
        auto savepoint_kept = [&](const FileSlice& s) {
          if (!p.savepoint_guard) return false;
          for (const auto& [name, size] : names_of(s)) {
            if (savepointed.contains(name)) return true;
          }
          return false;
        };
        auto compaction_kept = [&](const FileSlice& s) {
          if (!p.pending_guard) return false;
          if (pending_base && !(s.base_instant < *pending_base)) return true;
          // A file a pending write's markers name: the write may be running.
          for (const auto& [name, size] : names_of(s)) {
            if (pending_write_files.contains(GroupKey{path, name})) return true;
          }
          return false;
        };
        auto guarded = [&](const FileSlice& s) { return savepoint_kept(s) || compaction_kept(s); };
        // Slices of this group to delete, by base instant, with the reason.
        std::map<InstantTime, DeleteReason> doomed;
        auto emit = [&](const FileSlice& s, DeleteReason why) { doomed.emplace(s.base_instant, why); };
        // Emits the doomed slices' files. A log with an uncertain slice (an
        // archived deltacommit whose completion time is unknown) may belong
        // to its slice or any newer one: it goes only if all of those go.
        auto flush = [&]() {
          bool all_newer_doomed = true;
          for (const FileSlice& s : slices) {  // newest first
            const auto it = doomed.find(s.base_instant);
            all_newer_doomed = all_newer_doomed && it != doomed.end();
            if (it == doomed.end()) continue;
            if (s.base_file != kNoFile) {
              files.push_back({v.file_name(s.base_file), v.file_size(s.base_file), it->second, s.base_instant});
            }
            for (std::uint32_t f : v.logs_of(s)) {
              if (v.completion_unknown(f) && !all_newer_doomed) continue;
              files.push_back({v.file_name(f), v.file_size(f), it->second, s.base_instant});
            }
          }
        };

        if (const auto r = replaced.find(key); r != replaced.end()) {
          // A replaced group goes whole once its replacecommit is before the
          // boundary; at once under file versions.
          const bool eligible = boundary_rule ? (ectr && r->second < *ectr) : true;
          for (const FileSlice& s : slices) {
            if (eligible && !guarded(s)) {
              emit(s, DeleteReason::replaced_group);
            } else {
              every_replaced_file_deleted = false;
              if (boundary_rule && eligible && compaction_kept(s) &&
                  (!guarded_replace || r->second < *guarded_replace)) {
                guarded_replace = r->second;
              }
            }
          }
          flush();
          continue;
        }
        any_live_group = true;

        if (boundary_rule) {
          // Keep the latest slice and the newest slice before the boundary;
          // delete any other slice older than the boundary.
          // (A pointer, not an optional<InstantTime>: GCC 12 at -O1 warns
          // that the optional's payload may be used uninitialized.)
          const InstantTime* newest_before = nullptr;
          for (const FileSlice& s : slices) {
            if (s.base_instant < *ectr && (newest_before == nullptr || *newest_before < s.base_instant)) {
              newest_before = &s.base_instant;
            }
          }
          if (p.drop_newest_before_boundary) newest_before = nullptr;  // CANARY (issue 8584)
          InstantTime latest = slices[0].base_instant;
          for (const FileSlice& s : slices) latest = std::max(latest, s.base_instant);
          for (const FileSlice& s : slices) {
            if (s.base_instant == latest) continue;
            if (newest_before != nullptr && s.base_instant == *newest_before) continue;
            if (!(s.base_instant < *ectr)) continue;
            if (guarded(s)) continue;
            emit(s, DeleteReason::older_than_boundary);
          }
          flush();
        } else {
          // Keep the newest K slices; the slices a pending compaction needs
          // are not counted but count as one version.
          std::uint32_t keep = std::max<std::uint32_t>(p.count, 1);
          const bool compacting = p.pending_guard && pending_base.has_value();
          if (compacting) --keep;
          std::uint32_t kept = 0;
          for (const FileSlice& s : slices) {  // newest first
            if (compacting && !(s.base_instant < *pending_base)) continue;
            if (kept < keep) {
              ++kept;
              continue;
            }
            if (guarded(s)) continue;
            emit(s, DeleteReason::beyond_versions);
          }
          flush();
        }
      }

      std::sort(files.begin(), files.end(),
                [](const PlannedDelete& a, const PlannedDelete& b) { return a.name < b.name; });
      out.files_per_partition.add(path, files);

      // 4. Partition deletion: only a partition emptied by replacement.
      bool raw_listing_has_live_files = any_live_group;
      for (const UncommittedFile& u : v.uncommitted_files()) {
        if (v.partitions()[u.partition].path != path) continue;
        if (!replaced.contains(GroupKey{path, file_id_of(v.file_name(u.file))})) raw_listing_has_live_files = true;
      }
      std::optional<InstantTime> last_replace;
      for (const auto& [k, t] : replaced) {
        if (k.first == path && (!last_replace || *last_replace < t)) last_replace = t;
      }
      const bool replace_before_boundary = boundary_rule ? (ectr && last_replace && *last_replace < *ectr) : true;
      if (md.partitioned && !path.empty() && !raw_listing_has_live_files && last_replace &&
          every_replaced_file_deleted && replace_before_boundary) {
        out.partitions_to_be_deleted.push_back(path);
      }
    }
    if (!guarded_replace || !(*guarded_replace < *ectr)) break;
    ectr = guarded_replace;
  }

  // 5. Empty clean (Hudi 1.2): persist an empty plan now and then so the
  // incremental anchor keeps moving on append-only tables.
  if (!out.has_work() && boundary_rule && p.incremental && p.empty_clean_interval_hours && ectr) {
    const auto& prev = md.last_completed_clean;
    bool due = true;
    if (prev) {
      const auto prev_ms = prev->instant.to_epoch_ms(md.timezone);
      due = !prev_ms.ok() || now_ms - *prev_ms > static_cast<std::int64_t>(*p.empty_clean_interval_hours) * 3'600'000;
      if (prev->earliest_commit_to_retain && *ectr < *prev->earliest_commit_to_retain) {
        out.earliest_instant_to_retain = prev->earliest_commit_to_retain;
      }
    }
    out.empty_clean = due;
  }
  return out;
}

}  // namespace lakegc::reference
