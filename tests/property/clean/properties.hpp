// File: tests/property/clean/properties.hpp
// -----------------------------------------------------------------------------
// The invariants a clean plan must keep, as functions that return the first
// violation (or nothing), so the same check serves a property of the
// library and the canary that proves the check can fail.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/table_metadata.hpp"
#include "lakegc/core/table_view.hpp"
#include "lakegc/plan/clean_plan.hpp"

namespace lakegc::testing::prop {

/// Where a listed file sits in the view.
struct SliceRef {
  const Partition* partition;
  const FileGroup* group;
  std::size_t slice;  // index into slices_of(group), newest first
};

inline std::map<std::pair<std::string, std::string>, SliceRef> index_files(const TableView& v) {
  std::map<std::pair<std::string, std::string>, SliceRef> out;
  for (const Partition& p : v.partitions()) {
    for (const FileGroup& g : v.groups_of(p)) {
      const auto slices = v.slices_of(g);
      for (std::size_t i = 0; i < slices.size(); ++i) {
        if (slices[i].base_file != kNoFile) out[{p.path, std::string(v.file_name(slices[i].base_file))}] = {&p, &g, i};
        for (auto f : v.logs_of(slices[i])) out[{p.path, std::string(v.file_name(f))}] = {&p, &g, i};
      }
    }
  }
  return out;
}

inline std::vector<std::string> slice_files(const TableView& v, const FileSlice& s) {
  std::vector<std::string> out;
  if (s.base_file != kNoFile) out.emplace_back(v.file_name(s.base_file));
  for (auto f : v.logs_of(s)) out.emplace_back(v.file_name(f));
  return out;
}

/// With both built-in guards on, a plan never deletes: a file no committed
/// slice owns (in-flight or failed writes belong to rollback), part of a
/// slice (slices go whole, logs included), the latest slice of a live
/// group, a slice a savepoint names, or a slice at or after the base
/// instant of a pending compaction.
inline std::optional<std::string> safety_violation(const TableView& v, const TableMetadata& md, const CleanPlan& plan) {
  const auto index = index_files(v);
  std::set<std::pair<std::string, std::string>> planned;
  for (const auto& [part, files] : plan.files_per_partition) {
    for (const auto& f : files) planned.emplace(part, std::string(f.name));
  }
  std::set<std::string> savepointed;
  for (const auto& sp : md.savepoints) {
    for (const auto& f : sp.files) savepointed.emplace(f.name);
  }
  for (const auto& file : planned) {
    const auto it = index.find(file);
    if (it == index.end()) {
      return fmt::format("plan deletes {}/{}, which no committed slice owns", file.first, file.second);
    }
    const SliceRef& ref = it->second;
    const FileSlice& s = v.slices_of(*ref.group)[ref.slice];
    const std::string where = fmt::format("{}/{} slice {}", file.first, v.file_id(*ref.group), s.base_instant.str());
    for (const std::string& other : slice_files(v, s)) {
      if (!planned.contains({file.first, other})) return fmt::format("plan deletes part of {}: not {}", where, other);
      if (savepointed.contains(other)) return fmt::format("plan deletes {}, savepointed by {}", where, other);
    }
    if (ref.slice == 0 && !ref.group->replaced_by) return fmt::format("plan deletes the latest slice {}", where);
    for (const PendingCompactionSlice& op : md.pending_compactions) {
      const Instant* i = md.timeline.find(op.compaction_instant);
      if (i == nullptr || i->is_completed()) continue;
      if (op.partition == file.first && op.file_id == v.file_id(*ref.group) && !(s.base_instant < op.base_instant)) {
        return fmt::format("plan deletes {}, needed by the compaction pending at {} (base {})", where,
                           op.compaction_instant.str(), op.base_instant.str());
      }
    }
  }
  return std::nullopt;
}

/// The promise of a boundary rule (docs/hudi-rules.md §5, "effective
/// retention"): every snapshot read at an instant at or after the boundary,
/// and the read pinned just before it, finds all its files. In each live
/// group a read at t reads the newest slice with base instant <= t.
inline std::optional<std::string> retention_violation(const TableView& v, const TableMetadata& md,
                                                      const CleanPlan& plan) {
  if (!plan.earliest_instant_to_retain || !plan.has_work()) return std::nullopt;
  const InstantTime ectr = *plan.earliest_instant_to_retain;
  std::set<std::pair<std::string, std::string>> planned;
  for (const auto& [part, files] : plan.files_per_partition) {
    for (const auto& f : files) planned.emplace(part, std::string(f.name));
  }
  // Read points: just before the boundary, and every completed commit at
  // or after it.
  std::vector<std::pair<InstantTime, bool>> reads{{ectr, /*strictly_before=*/true}};
  for (const Instant* c : md.timeline.completed_commits()) {
    if (!(c->requested < ectr)) reads.push_back({c->requested, false});
  }
  for (const Partition& p : v.partitions()) {
    for (const FileGroup& g : v.groups_of(p)) {
      if (g.replaced_by) continue;
      const auto slices = v.slices_of(g);
      for (const auto& [t, before] : reads) {
        for (const FileSlice& s : slices) {  // newest first: the first match is the one read
          if (before ? !(s.base_instant < t) : t < s.base_instant) continue;
          for (const std::string& f : slice_files(v, s)) {
            if (planned.contains({p.path, f})) {
              return fmt::format("retention broken: a read {} {} needs {}/{} (slice {}), which the plan deletes",
                                 before ? "just before" : "at", t.str(), p.path, f, s.base_instant.str());
            }
          }
          break;
        }
      }
    }
  }
  return std::nullopt;
}

}  // namespace lakegc::testing::prop
