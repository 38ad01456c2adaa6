// File: tools/cli/plan_ttl.hpp
// -----------------------------------------------------------------------------
// `lakegc plan ttl`: the partitions Hudi's partition TTL would delete from a
// table under a user's `hoodie.partition.ttl.*` keys, with each one's
// reference time, age and verdict, and why every other partition stays.
// Read-only; `lakegc ttl --execute` (ttl.hpp) carries the plan out.
//
// JSON shape:
//   {"table": "<path>", "strategy": "KEEP_BY_TIME" | "KEEP_BY_CREATION_TIME",
//    "days_retain": N, "max_delete_partitions": N, "ttl_instant": "<instant>",
//    "noop_reasons": ["<why nothing expires>", ...],
//    "expired": ["<partition this run deletes>", ...],  (Hudi's order)
//    "expired_total": N, "order_exact": true, "order_note": "<why not exact>" | "",
//    "partitions": [{"partition", "verdict": "expired" | "expired_over_cap" | "not_expired" | "no_file_slices",
//                    "reference": "<instant>" | null, "expires_after": "<instant>" | null,
//                    "age_ms": N | null, "on_storage": bool, "probably_meant": "<partition>" | null}],
//    "blocking_table_services": [...], "pending_clusterings": [...], "warnings": [...]}
#pragma once

#include <optional>
#include <string>

#include "lakegc/core/json_writer.hpp"
#include "lakegc/plan/partition_creation.hpp"
#include "lakegc/plan/plan_ttl.hpp"
#include "lakegc/policy/ttl_config.hpp"
#include "table.hpp"
#include "text.hpp"

namespace lakegc::cli {

inline constexpr std::string_view kPlanTtlHelp =
    R"(usage: lakegc plan ttl TABLE [--conf KEY=VALUE ...] [--props FILE] [--now INSTANT] [--json]

Plans Hudi's partition TTL and prints the partitions it would delete, each with
its reference time, its age and the instant after which it expired, and every
other partition with the reason it stays. Nothing is changed: `lakegc ttl
--execute` carries the plan out.

The settings come from Hudi's keys, as you pass them to Spark:
  hoodie.partition.ttl.management.strategy.type=KEEP_BY_TIME | KEEP_BY_CREATION_TIME
  hoodie.partition.ttl.strategy.class (Hudi's two built-in classes only)
  hoodie.partition.ttl.strategy.days.retain=-1 (nothing expires while <= 0)
  hoodie.partition.ttl.strategy.partition.selected=p1,p2 (default: every partition)
  hoodie.partition.ttl.strategy.max.delete.partitions=1000 (per run; the rest waits)
  hoodie.partition.ttl.inline, hoodie.partition.ttl.strategy.stats.max.parallelism
An unknown hoodie.partition.ttl.* key is an error; other keys are ignored.

options:
  --props FILE       a Java properties file; may be repeated, later files win
  --conf KEY=VALUE   one setting; may be repeated; wins over --props
  --now INSTANT      plan as if Hudi's TTL run started at INSTANT (its replacecommit
                     time, yyyyMMddHHmmss[SSS] in the table's timeline timezone)
  --json             machine-readable output (shape in tools/cli/plan_ttl.hpp)
  -h, --help         this help

exit codes: 0 success, 2 bad usage or bad input (also where Hudi's run fails)
)";

struct TtlReport {
  std::string path;
  TtlPlan plan;
};

/// Plans TTL for an opened table as of `ttl_instant`.
[[nodiscard]] inline StatusOr<TtlReport> plan_ttl_report(Table& table, const config::Properties& props,
                                                         const InstantTime& ttl_instant, bool show_progress = false,
                                                         TableView* view_out = nullptr) {
  LAKEGC_ASSIGN_OR_RETURN(TtlSettings settings, config::ttl_from_properties(props));
  const TableMetadata& md = table.metadata;
  LAKEGC_ASSIGN_OR_RETURN(TableView view, list_view(table, md, show_progress));
  PartitionCreationTimes creation;
  if (settings.strategy == TtlStrategy::keep_by_creation_time) {
    std::vector<std::string> candidates;
    if (settings.selected) {
      candidates = *settings.selected;
    } else {
      for (const Partition& p : view.partitions()) candidates.push_back(p.path);
    }
    LAKEGC_ASSIGN_OR_RETURN(creation, read_partition_creation_times(*table.storage, candidates));
  }
  TtlReport r;
  r.path = table.path;
  LAKEGC_ASSIGN_OR_RETURN(r.plan, plan_ttl(view, md, settings, TtlContext{ttl_instant, &creation}));
  if (view_out != nullptr) *view_out = std::move(view);
  return r;
}

namespace detail {

inline std::string days_text(std::int64_t ms) {
  return fmt::format("{:.1f} days", static_cast<double>(ms) / 86'400'000.0);
}

inline std::string ttl_partition_line(const TtlPlan& p, const TtlPartition& tp) {
  const std::string_view ref_name = p.strategy == TtlStrategy::keep_by_time ? "last commit" : "created";
  std::string line = fmt::format("  {}  ", partition_label(tp.partition));
  switch (tp.verdict) {
    case TtlVerdict::expired: line += "expired: "; break;
    case TtlVerdict::expired_over_cap: line += "expired, past the per-run cap (a later run deletes it): "; break;
    case TtlVerdict::not_expired: line += "not expired: "; break;
    case TtlVerdict::no_file_slices: line += "skipped: no file slices"; break;
  }
  if (tp.reference) {
    line += fmt::format("{} {}", ref_name, *tp.reference);
    if (tp.age_ms) line += fmt::format(", age {}", days_text(*tp.age_ms));
    if (tp.expires_after) line += fmt::format(", expires after {}", *tp.expires_after);
  }
  if (!tp.on_storage) {
    line += tp.probably_meant ? fmt::format(" (not on storage; did you mean {}?)", *tp.probably_meant)
                              : std::string(" (not on storage)");
  }
  return line;
}

}  // namespace detail

inline std::string ttl_text(const TtlReport& r, std::string_view mode = "dry run: nothing is deleted") {
  const TtlPlan& p = r.plan;
  std::string out;
  appendln(out, "partition TTL plan for {} under {}, {} day{} retained ({})", r.path, to_string(p.strategy),
           p.days_retain, p.days_retain == 1 ? "" : "s", mode);
  appendln(out, "  TTL instant: {}; at most {} partitions per run", p.ttl_instant, p.max_delete_partitions);
  for (const auto& why : p.noop_reasons) appendln(out, "  nothing expires: {}", why);
  for (const auto& w : p.warnings) appendln(out, "  warning: {}", w);
  for (const auto& t : p.blocking_table_services) {
    appendln(out,
             "  blocked: pending compaction {} touches an expired partition; Hudi's run deletes nothing until it "
             "completes",
             t);
  }
  for (const auto& t : p.pending_clusterings) {
    appendln(out,
             "  note: pending clustering/replacecommit {}: if it touches an expired partition Hudi's run deletes "
             "nothing (lakegc does not read its file groups yet)",
             t);
  }
  if (!p.order_exact) {
    appendln(out, "  note: which partitions a capped run takes may differ from Hudi's ({})", p.order_note);
  }
  out += '\n';
  if (!p.noop_reasons.empty()) return out;
  if (p.expired.empty()) {
    appendln(out, "nothing expires");
  } else {
    appendln(out, "delete {} partition{} (of {} expired):", p.expired.size(), p.expired.size() == 1 ? "" : "s",
             p.expired_total);
  }
  for (const auto& tp : p.partitions) {
    if (tp.verdict == TtlVerdict::expired) out += detail::ttl_partition_line(p, tp) + '\n';
  }
  out += '\n';
  appendln(out, "kept:");
  bool any_kept = false;
  for (const auto& tp : p.partitions) {
    if (tp.verdict == TtlVerdict::expired) continue;
    out += detail::ttl_partition_line(p, tp) + '\n';
    any_kept = true;
  }
  if (!any_kept) appendln(out, "  (none)");
  return out;
}

/// The plan's fields, into an open object.
inline void write_ttl_fields(json_writer& w, const TtlPlan& p) {
  w.key("strategy").value(to_string(p.strategy));
  w.key("days_retain").value(static_cast<std::int64_t>(p.days_retain));
  w.key("max_delete_partitions").value(static_cast<std::uint64_t>(p.max_delete_partitions));
  w.key("ttl_instant").value(p.ttl_instant.str());
  w.key("noop_reasons").strings(p.noop_reasons);
  w.key("expired").strings(p.expired);
  w.key("expired_total").value(static_cast<std::uint64_t>(p.expired_total));
  w.key("order_exact").value(p.order_exact);
  w.key("order_note").value(p.order_note);
  w.key("partitions").begin_array();
  for (const auto& tp : p.partitions) {
    w.begin_object();
    w.key("partition").value(tp.partition);
    w.key("verdict").value(to_string(tp.verdict));
    w.key("reference").value(tp.reference);
    w.key("expires_after").value(tp.expires_after);
    w.key("age_ms");
    if (tp.age_ms) {
      w.value(*tp.age_ms);
    } else {
      w.null();
    }
    w.key("on_storage").value(tp.on_storage);
    w.key("probably_meant").value(tp.probably_meant);
    w.end_object();
  }
  w.end_array();
  w.key("blocking_table_services").begin_array();
  for (const auto& t : p.blocking_table_services) w.value(t.str());
  w.end_array();
  w.key("pending_clusterings").begin_array();
  for (const auto& t : p.pending_clusterings) w.value(t.str());
  w.end_array();
  w.key("warnings").strings(p.warnings);
}

inline std::string ttl_json(const TtlReport& r) {
  json_writer w;
  w.begin_object();
  w.key("table").value(r.path);
  write_ttl_fields(w, r.plan);
  w.end_object();
  return w.str();
}

}  // namespace lakegc::cli
