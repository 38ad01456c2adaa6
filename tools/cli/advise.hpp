// File: tools/cli/advise.hpp
// -----------------------------------------------------------------------------
// `lakegc advise`: the retention a table needs for the longest query it
// must survive (plus a recovery horizon), from its own commit cadence
// (plan/advise.hpp), with what each choice keeps and would reclaim now
// (each recommended policy planned on the table, dry run), and, when the
// table's current settings are given, the longest query they protect.
//
// JSON shape (docs/cli-json.md):
//   {"window_ms", "window",
//    "cadence": {"commits", "median_ms", "p95_ms", "max_gap_ms", "longest_write_ms"},
//    "recommendations": [{"policy", "retained", "config": {...}, "reason", "warning",
//                         "bytes_kept", "bytes_reclaimable"}],
//    "current": {"policy", "retained", "protects_ms", "protects", "summary",
//                "bytes_kept", "bytes_reclaimable"} | null,
//    "notes": [...]}
#pragma once

#include <string>
#include <vector>

#include "lakegc/core/json_writer.hpp"
#include "lakegc/plan/advise.hpp"
#include "lakegc/plan/plan_clean.hpp"
#include "lakegc/policy/config.hpp"
#include "table.hpp"
#include "text.hpp"

namespace lakegc::cli {

inline constexpr std::string_view kAdviseHelp =
    R"(usage: lakegc advise TABLE --longest-query DURATION [--recovery DURATION]
                     [--props FILE] [--conf KEY=VALUE ...] [--json]

The retention the table needs so that a query up to DURATION long (plus the
recovery horizon: time travel and rollback you want to keep) never meets a
missing file, from the table's own commit cadence: the worst case its history
shows, not the average (a burst of commits shrinks the time N commits cover).
For each policy: the setting, the hoodie.* lines to paste, what it keeps and
what a clean under it would reclaim now. With --props/--conf, the table's
current settings too, and the longest query they protect. Nothing is changed.

options:
  --longest-query DURATION  e.g. 30m, 5h, 1h30m (required)
  --recovery DURATION       extra time travel / rollback horizon (default 0s)
  --props FILE, --conf KEY=VALUE
                            the table's current cleaning settings (as for `plan clean`)
  --json                    machine-readable output (shape in docs/cli-json.md)
  -h, --help                this help

exit codes: 0 success, 2 bad usage or bad input
)";

struct AdviseReport {
  std::string path;
  Advice advice;
  std::optional<Protection> current;
  std::optional<std::uint64_t> current_bytes_kept;
  std::optional<std::uint64_t> current_bytes_reclaimable;
};

namespace detail {

// Bytes every slice of the view holds.
inline std::uint64_t view_bytes(const TableView& v) {
  std::uint64_t n = 0;
  for (const FileGroup& g : v.groups()) {
    for (const FileSlice& s : v.slices_of(g)) {
      if (s.base_file != kNoFile) n += v.file_size(s.base_file);
      for (auto f : v.logs_of(s)) n += v.file_size(f);
    }
  }
  return n;
}

// The runtime policy for one recommendation's hoodie.* lines.
[[nodiscard]] inline StatusOr<config::runtime_cleaning_policy> policy_of(
    const std::map<std::string, std::string>& lines) {
  config::Properties props(lines.begin(), lines.end());
  props["hoodie.clean.incremental.enabled"] = "false";  // the cost of the policy, not of one incremental window
  return config::from_properties(props);
}

}  // namespace detail

/// Builds the report: advice from the metadata, then each policy planned on
/// the table for its cost.
[[nodiscard]] inline StatusOr<AdviseReport> advise_report(Table& table, const AdviseOptions& o,
                                                          const std::optional<config::Properties>& current,
                                                          std::int64_t now_ms, bool show_progress = false) {
  AdviseReport r;
  r.path = table.path;
  const TableMetadata& md = table.metadata;
  r.advice = advise(md, o);
  LAKEGC_ASSIGN_OR_RETURN(TableView view, list_view(table, md, show_progress));
  const std::uint64_t total = detail::view_bytes(view);
  const CleanContext ctx{now_ms, {}};
  auto cost = [&](const config::runtime_cleaning_policy& p) -> StatusOr<std::uint64_t> {
    LAKEGC_ASSIGN_OR_RETURN(CleanPlan plan, plan_clean(view, md, p, ctx));
    return plan.bytes();
  };
  for (Recommendation& rec : r.advice.recommendations) {
    LAKEGC_ASSIGN_OR_RETURN(auto p, detail::policy_of(rec.config));
    LAKEGC_ASSIGN_OR_RETURN(std::uint64_t reclaimable, cost(p));
    rec.bytes_reclaimable = reclaimable;
    rec.bytes_kept = total - std::min(total, reclaimable);
  }
  if (current) {
    LAKEGC_ASSIGN_OR_RETURN(auto p, config::from_properties(*current));
    const auto [name, retained] = std::visit(
        [](const auto& rule) -> std::pair<std::string, std::uint32_t> {
          using R = std::decay_t<decltype(rule)>;
          if constexpr (std::is_same_v<R, keep_latest_commits>)
            return {R::hudi_name(), rule.commits};
          else if constexpr (std::is_same_v<R, keep_by_hours>)
            return {R::hudi_name(), rule.hours};
          else
            return {R::hudi_name(), rule.versions};
        },
        p.rule());
    r.current = protection_of(md, name, retained);
    LAKEGC_ASSIGN_OR_RETURN(std::uint64_t reclaimable, cost(p));
    r.current_bytes_reclaimable = reclaimable;
    r.current_bytes_kept = total - std::min(total, reclaimable);
  }
  return r;
}

inline std::string advise_json(const AdviseReport& r) {
  const Advice& a = r.advice;
  json_writer w;
  w.begin_object();
  w.key("window_ms").value(a.window_ms);
  w.key("window").value(format_duration_ms(a.window_ms));
  w.key("cadence").begin_object();
  w.key("commits").value(static_cast<std::uint64_t>(a.cadence.commits));
  w.key("median_ms").value(a.cadence.median_gap_ms);
  w.key("p95_ms").value(a.cadence.p95_gap_ms);
  w.key("max_gap_ms").value(a.cadence.max_gap_ms);
  w.key("longest_write_ms").value(a.cadence.longest_write_ms);
  w.end_object();
  w.key("recommendations").begin_array();
  for (const Recommendation& rec : a.recommendations) {
    w.begin_object();
    w.key("policy").value(rec.policy);
    w.key("retained").value(static_cast<std::uint64_t>(rec.retained));
    w.key("config").begin_object();
    for (const auto& [k, v] : rec.config) w.key(k).value(v);
    w.end_object();
    w.key("reason").value(rec.reason);
    w.key("warning").value(rec.warning.empty() ? std::optional<std::string>() : std::optional(rec.warning));
    w.key("bytes_kept").value(rec.bytes_kept.value_or(0));
    w.key("bytes_reclaimable").value(rec.bytes_reclaimable.value_or(0));
    w.end_object();
  }
  w.end_array();
  if (r.current) {
    w.key("current").begin_object();
    w.key("policy").value(r.current->policy);
    w.key("retained").value(static_cast<std::uint64_t>(r.current->retained));
    if (r.current->protects_ms) {
      w.key("protects_ms").value(*r.current->protects_ms);
      w.key("protects").value(format_duration_ms(*r.current->protects_ms));
    } else {
      w.key("protects_ms").null();
      w.key("protects").null();
    }
    w.key("summary").value(r.current->summary);
    w.key("bytes_kept").value(r.current_bytes_kept.value_or(0));
    w.key("bytes_reclaimable").value(r.current_bytes_reclaimable.value_or(0));
    w.end_object();
  } else {
    w.key("current").null();
  }
  w.key("notes").strings(a.notes);
  w.end_object();
  return w.str();
}

inline std::string advise_text(const AdviseReport& r) {
  const Advice& a = r.advice;
  std::string out;
  appendln(out, "retention for {}: queries up to {} must survive", r.path, format_duration_ms(a.window_ms));
  appendln(out, "  cadence: {} commits, median gap {}, 95th percentile {}, longest gap {}, longest write {}",
           a.cadence.commits, format_duration_ms(a.cadence.median_gap_ms), format_duration_ms(a.cadence.p95_gap_ms),
           format_duration_ms(a.cadence.max_gap_ms), format_duration_ms(a.cadence.longest_write_ms));
  out += '\n';
  appendln(out, "  {:<26} {:>8}  {:>11}  {:>11}", "policy", "retained", "keeps", "reclaims now");
  for (const Recommendation& rec : a.recommendations) {
    appendln(out, "  {:<26} {:>8}  {:>11}  {:>11}", rec.policy, rec.retained, human_bytes(rec.bytes_kept.value_or(0)),
             human_bytes(rec.bytes_reclaimable.value_or(0)));
  }
  out += '\n';
  for (const Recommendation& rec : a.recommendations) {
    appendln(out, "{}: {}", rec.policy, rec.reason);
    if (!rec.warning.empty()) appendln(out, "  warning: {}", rec.warning);
    for (const auto& [k, v] : rec.config) appendln(out, "  {}={}", k, v);
  }
  if (r.current) {
    out += '\n';
    appendln(out, "current settings: {} {}: keeps {}, reclaims {} now", r.current->policy, r.current->retained,
             human_bytes(r.current_bytes_kept.value_or(0)), human_bytes(r.current_bytes_reclaimable.value_or(0)));
    appendln(out, "  {}", r.current->summary);
  }
  for (const std::string& n : a.notes) appendln(out, "note: {}", n);
  return out;
}

}  // namespace lakegc::cli
