// File: tools/cli/plan.hpp
// -----------------------------------------------------------------------------
// `lakegc plan clean`: the clean plan lakegc's planner makes for a table
// under a user's cleaning configuration (Hudi's `hoodie.clean.*` keys, as
// passed to Spark), with the reason each file may go, why each retained
// slice's instant stays, and the bytes a clean would reclaim. Read-only.
//
// JSON shape (stable; field names of Hudi's HoodieCleanerPlan where they
// exist, documented in docs/cli-json.md):
//   {"plan": null | {"earliestInstantToRetain": "<instant>" | null,
//             "lastCompletedCommitTimestamp": "<instant>" | "",
//             "policy": "KEEP_LATEST_COMMITS",
//             "filePathsToBeDeletedPerPartition": {"<partition>": ["<path relative to the table root>"]},
//             "partitionsToBeDeleted": [...], "extraMetadata": {...}},
//    "not_due": "<why no clean is scheduled>" | null,    (plan is null then)
//    "skipped_partitions": [{"partition", "file", "reason"}],
//    "reasons": {"scope": {"kind", "fallback_reason"},
//                "files": {"<path>": {"reason", "slice", "size_bytes"}},
//                "retained": {"<instant>": ["<why it stays>", ...]},
//                "pending_cleans": [...],
//                "boundary_held": null | {"rule_boundary", "held_at", "why"}},
//    "bytes_reclaimable": N}
#pragma once

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "lakegc/plan/clean_trigger.hpp"
#include "lakegc/plan/plan_clean.hpp"
#include "lakegc/plan/planned_sizes.hpp"
#include "lakegc/policy/config.hpp"
#include "lakegc/core/json_writer.hpp"
#include "table.hpp"
#include "text.hpp"

namespace lakegc::cli {

struct PlanReport {
  std::string path;
  std::string policy;  ///< e.g. "KEEP_LATEST_COMMITS (10 commits retained)"
  CleanPlan plan;
  CleanScope scope;
  /// Base instant of each slice the plan keeps -> why it stays.
  std::map<InstantTime, std::set<std::string>> retained;
  /// Cleans requested or in flight: Hudi finishes them before planning anew.
  std::vector<InstantTime> pending_cleans;
  /// Why no clean is due (hoodie.clean.trigger.max.commits): then, as in
  /// Hudi, there is no plan.
  std::optional<std::string> not_due;
  /// The retention rule's boundary, when the plan's earliest instant to
  /// retain was held back before it at a guarded replacecommit.
  std::optional<InstantTime> boundary_held_from;
  /// How the sizes of planned files were found (the listing gives none):
  /// base files from commit metadata, the rest a stat each.
  PlannedSizes sizes;
};

/// Why a boundary is held (JSON `reasons.boundary_held.why`, text note).
inline constexpr std::string_view kBoundaryHeldWhy =
    "a guard (a pending write's files, a pending table service, a reader lease) keeps files of file groups this "
    "replacecommit replaced; the boundary stays at it so that Hudi's archiver, which archives replacecommits "
    "older than the last clean's earliest instant to retain, cannot make those groups live again";

/// A one-line description of a runtime policy.
inline std::string describe(const config::runtime_cleaning_policy& p) {
  return std::visit(
      [](const auto& r) -> std::string {
        using R = std::decay_t<decltype(r)>;
        if constexpr (std::is_same_v<R, keep_latest_commits>) {
          return fmt::format("{} ({} commit{} retained)", R::hudi_name(), r.commits, r.commits == 1 ? "" : "s");
        } else if constexpr (std::is_same_v<R, keep_latest_file_versions>) {
          return fmt::format("{} ({} file version{} retained)", R::hudi_name(), r.versions, r.versions == 1 ? "" : "s");
        } else {
          return fmt::format("{} ({} hour{} retained)", R::hudi_name(), r.hours, r.hours == 1 ? "" : "s");
        }
      },
      p.rule());
}

/// Plans a clean of an opened table under `props`, as of wall-clock
/// `now_ms` (which only KEEP_LATEST_BY_HOURS reads).
[[nodiscard]] inline StatusOr<PlanReport> plan_clean_report(Table& table, const config::Properties& props,
                                                            std::int64_t now_ms, bool show_progress = false) {
  LAKEGC_ASSIGN_OR_RETURN(config::runtime_cleaning_policy policy, config::from_properties(props));
  PlanReport r;
  r.path = table.path;
  r.policy = describe(policy);
  const TableMetadata& md = table.metadata;
  for (const Instant* c : md.timeline.cleans()) {
    if (c->is_pending()) r.pending_cleans.push_back(c->requested);
  }
  r.not_due = clean_not_due(md, policy.scope());
  if (r.not_due) return r;
  // Names only: the sizes of the files the plan deletes are found below,
  // from commit metadata or a stat per planned file, not one per listed file.
  LAKEGC_ASSIGN_OR_RETURN(TableView view, list_view(table, md, show_progress, FileSizes::not_needed));
  CleanContext ctx;
  ctx.now_ms = now_ms;
  // Why each kept slice stays: the planner's own verdicts.
  const auto versions = decide_clean(md, policy, ctx).retention.versions;
  const VerdictSink why = [&](const SliceVerdict& sv) {
    if (sv.deleted) return;
    auto& reasons = r.retained[sv.slice->base_instant];
    for (std::string& name : keep_reason_names(sv.kept, versions)) reasons.insert(std::move(name));
  };
  LAKEGC_ASSIGN_OR_RETURN(r.plan, plan_clean(view, md, policy, ctx, &r.scope, &why));
  LAKEGC_ASSIGN_OR_RETURN(r.sizes, fill_planned_sizes(*table.storage, r.plan, md));
  r.boundary_held_from = boundary_held_from(md, policy, ctx, r.plan);
  return r;
}

/// Writes the report's JSON document (docs/cli-json.md) to `w`.
inline void write_plan_json(json_writer& w, const PlanReport& r) {
  const CleanPlan& p = r.plan;
  w.begin_object();
  if (r.not_due) {
    w.key("plan").null();
    w.key("not_due").value(*r.not_due);
    w.key("skipped_partitions").begin_array();
    w.end_array();
    w.key("bytes_reclaimable").value(std::uint64_t{0});
    w.end_object();
    return;
  }
  w.key("plan").begin_object();
  w.key("earliestInstantToRetain").value(detail::instant_or_null(p.earliest_instant_to_retain));
  w.key("lastCompletedCommitTimestamp")
      .value(p.last_completed_commit_timestamp ? p.last_completed_commit_timestamp->str() : std::string());
  w.key("policy").value(p.policy);
  w.key("filePathsToBeDeletedPerPartition").begin_object();
  for (const auto& [partition, files] : p.files_per_partition) {
    w.key(partition).begin_array();
    for (const auto& f : files) w.value(join_path(partition, f.name));
    w.end_array();
  }
  w.end_object();
  w.key("partitionsToBeDeleted").strings(p.partitions_to_be_deleted);
  w.key("extraMetadata").begin_object();
  for (const auto& [k, v] : p.extra_metadata) w.key(k).value(v);
  w.end_object();
  w.end_object();
  w.key("not_due").null();

  w.key("skipped_partitions").begin_array();
  for (const ListingGap& g : p.skipped_partitions) {
    w.begin_object();
    w.key("partition").value(g.partition);
    w.key("file").value(g.file);
    w.key("reason").value(g.reason);
    w.end_object();
  }
  w.end_array();

  w.key("reasons").begin_object();
  w.key("scope").begin_object();
  w.key("kind").value(to_string(r.scope.kind));
  w.key("fallback_reason")
      .value(r.scope.fallback_reason.empty() ? std::optional<std::string>() : std::optional(r.scope.fallback_reason));
  w.end_object();
  w.key("files").begin_object();
  for (const auto& [partition, files] : p.files_per_partition) {
    for (const auto& f : files) {
      w.key(join_path(partition, f.name)).begin_object();
      w.key("reason").value(to_string(f.reason));
      w.key("slice").value(f.slice.str());
      w.key("size_bytes").value(f.size);
      w.end_object();
    }
  }
  w.end_object();
  w.key("retained").begin_object();
  for (const auto& [instant, why] : r.retained) {
    w.key(instant.str()).begin_array();
    for (const auto& s : why) w.value(s);
    w.end_array();
  }
  w.end_object();
  w.key("pending_cleans").begin_array();
  for (const auto& t : r.pending_cleans) w.value(t.str());
  w.end_array();
  if (r.boundary_held_from) {
    w.key("boundary_held").begin_object();
    w.key("rule_boundary").value(r.boundary_held_from->str());
    w.key("held_at").value(p.earliest_instant_to_retain->str());
    w.key("why").value(std::string(kBoundaryHeldWhy));
    w.end_object();
  } else {
    w.key("boundary_held").null();
  }
  w.end_object();
  w.key("bytes_reclaimable").value(p.bytes());
  w.end_object();
}

/// The report's JSON document as a string.
inline std::string plan_json(const PlanReport& r) {
  json_writer w;
  write_plan_json(w, r);
  return std::move(w).take();
}

inline std::string plan_text(const PlanReport& r) {
  const CleanPlan& p = r.plan;
  std::string out;
  if (r.not_due) {
    appendln(out, "no clean is due for {} under {}: {}", r.path, r.policy, *r.not_due);
    appendln(out, "(Hudi schedules no clean before then; --conf hoodie.clean.trigger.max.commits=1 plans one anyway)");
    return out;
  }
  appendln(out, "clean plan for {} under {} (dry run: nothing is deleted)", r.path, r.policy);
  appendln(out, "  earliest commit to retain: {}; last completed commit: {}",
           p.earliest_instant_to_retain ? p.earliest_instant_to_retain->str() : std::string("none"),
           p.last_completed_commit_timestamp ? p.last_completed_commit_timestamp->str() : std::string("none"));
  appendln(out, "  partitions scanned: {} ({} scan{})", r.scope.partitions.size(), to_string(r.scope.kind),
           r.scope.fallback_reason.empty() ? std::string() : "; " + r.scope.fallback_reason);
  for (const auto& t : r.pending_cleans) {
    appendln(out, "  note: clean {} is pending; Hudi finishes it before scheduling another", t);
  }
  if (r.boundary_held_from) {
    appendln(out, "  note: the policy's boundary {} is held back at replacecommit {}: {}", *r.boundary_held_from,
             *p.earliest_instant_to_retain, kBoundaryHeldWhy);
  }
  for (const ListingGap& g : p.skipped_partitions) {
    appendln(out, "  skipped partition {}: {}; it is planned again by the next clean", partition_label(g.partition),
             g.reason);
  }
  out += '\n';
  if (!p.has_work()) {
    appendln(out, "nothing to delete");
  } else {
    appendln(out, "delete {} files, {} reclaimable:", p.file_count(), human_bytes(p.bytes()));
    for (const auto& [partition, files] : p.files_per_partition) {
      for (const auto& f : files) {
        appendln(out, "  {}  ({}, slice {}, {})", join_path(partition, f.name), to_string(f.reason), f.slice,
                 human_bytes(f.size));
      }
    }
    for (const auto& part : p.partitions_to_be_deleted) appendln(out, "  partition {} (emptied by replacement)", part);
  }
  out += '\n';
  appendln(out, "retained instants (base instants of the slices kept):");
  for (const auto& [instant, why] : r.retained) {
    std::string reasons;
    for (const auto& s : why) reasons += (reasons.empty() ? "" : "; ") + s;
    appendln(out, "  {}  {}", instant, reasons);
  }
  return out;
}

}  // namespace lakegc::cli
