// File: tools/cli/orphans.hpp
// -----------------------------------------------------------------------------
// `lakegc orphans TABLE`: the orphan sweep over a local table, from a listing
// or an object-store inventory; a dry run unless --execute. Executing is
// allowed on a real Hudi table because orphans are, by definition, unknown
// to the table's metadata.
#pragma once

#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <absl/time/time.h>
#include <fmt/format.h>

#include "args.hpp"
#include "lakegc/core/json_writer.hpp"
#include "lakegc/exec/orphan_executor.hpp"
#include "lakegc/plan/inventory.hpp"
#include "table.hpp"
#include "table_command.hpp"

namespace lakegc::cli {

inline constexpr std::string_view kOrphansHelp =
    R"(usage: lakegc orphans TABLE [--older-than 3d] [--inventory FILE [--location URI]
                      [--prefix-mismatch error|ignore|delete]] [--force] [--json] [--execute]

Lists data files that no table state ever referenced (outputs of failed or
killed writes, speculative duplicates) and, with --execute, deletes those older
than the cutoff. Guards stop the sweep instead of guessing: unreadable
metadata, another table's .hoodie/ inside the location, an empty listing of a
partition that holds live file groups, a cutoff shorter than the longest write
(completed writes, and pending writes whose heartbeat is alive). A pending
write whose heartbeat expired is reported as a stale write: its files are kept
until it is rolled back. Files of instants the table may have archived, and
every file the table's view shows in a slice, are never orphans.

options:
  --older-than AGE        only files at least this old: 3d, 12h, 1h30m, 90s (default 3d)
  --inventory FILE        read an inventory (CSV or JSON lines of path, size,
                          modification time) instead of listing the table
  --location URI          the table location as the inventory names it
                          (default: the table's absolute path)
  --prefix-mismatch MODE  inventory entries outside the location: error (default),
                          ignore, or delete (compare paths without scheme/authority)
  --force                 allow a cutoff shorter than the longest write
  --execute               delete the orphans (default: dry run)
  --json                  machine-readable output
  -h, --help              this help

exit codes: 0 nothing to do or deleted, 1 orphans found (dry run) or a guard
stopped the sweep, 2 bad usage or bad input
)";

namespace detail {

inline std::string iso8601(std::int64_t ms) {
  return absl::FormatTime("%Y-%m-%dT%H:%M:%E3SZ", absl::FromUnixMillis(ms), absl::UTCTimeZone());
}

// What to do about a failed write the sweep found.
inline std::string stale_write_hint(const StaleWrite& w) {
  return fmt::format(
      "roll it back (Hudi's clean with hoodie.clean.failed.writes.policy=LAZY does, or the next write with EAGER); "
      "until then the sweep keeps what {} wrote",
      w.instant);
}

inline void orphan_files_json(json_writer& j, const std::vector<OrphanFile>& files) {
  j.begin_array();
  for (const auto& f : files) {
    j.begin_object();
    j.key("path").value(f.path);
    j.key("size").value(static_cast<std::uint64_t>(f.size));
    j.key("mtime").value(iso8601(f.mtime_ms));
    j.end_object();
  }
  j.end_array();
}

}  // namespace detail

inline std::string orphans_json(const OrphanPlan& plan, const std::optional<OrphanOutcome>& done) {
  json_writer j;
  j.begin_object();
  j.key("orphans");
  detail::orphan_files_json(j, plan.orphans);
  j.key("too_young");
  detail::orphan_files_json(j, plan.too_young);
  j.key("guards").begin_array();
  for (const auto& g : plan.guards) {
    j.begin_object();
    j.key("partition").value(g.scope);
    j.key("reason").value(g.reason);
    j.end_object();
  }
  j.end_array();
  j.key("stale_writes").begin_array();
  for (const StaleWrite& w : plan.stale_writes) {
    j.begin_object();
    j.key("instant").value(w.instant.str());
    j.key("action").value(to_string(w.action));
    j.key("age_ms").value(w.age_ms);
    j.key("age").value(format_duration_ms(w.age_ms));
    if (w.last_heartbeat_ms) {
      j.key("last_heartbeat").value(detail::iso8601(*w.last_heartbeat_ms));
    } else {
      j.key("last_heartbeat").null();
    }
    j.key("hint").value(detail::stale_write_hint(w));
    j.end_object();
  }
  j.end_array();
  j.key("bytes").value(static_cast<std::uint64_t>(plan.bytes));
  j.key("executed").value(done.has_value());
  if (done) {
    j.key("files_deleted").value(static_cast<std::uint64_t>(done->files_deleted));
    j.key("files_already_gone").value(static_cast<std::uint64_t>(done->files_already_gone));
    j.key("bytes_deleted").value(static_cast<std::uint64_t>(done->bytes_deleted));
  }
  j.end_object();
  return j.str();
}

inline std::string orphans_text(const OrphanPlan& plan, const std::optional<OrphanOutcome>& done) {
  std::string out;
  for (const auto& g : plan.guards) {
    out += fmt::format("guard{}: {}\n", g.scope.empty() ? "" : fmt::format(" ({})", g.scope), g.reason);
  }
  for (const StaleWrite& w : plan.stale_writes) {
    out += fmt::format("stale write {} ({}), {} old, {}: its files are kept; {}\n", w.instant, to_string(w.action),
                       format_duration_ms(w.age_ms),
                       w.last_heartbeat_ms ? "heartbeat stopped at " + detail::iso8601(*w.last_heartbeat_ms)
                                           : std::string("no heartbeat"),
                       detail::stale_write_hint(w));
  }
  for (const auto& f : plan.orphans) {
    out += fmt::format("orphan     {}  {} bytes  {}\n", f.path, f.size, detail::iso8601(f.mtime_ms));
  }
  for (const auto& f : plan.too_young) {
    out += fmt::format("too young  {}  {} bytes  {}\n", f.path, f.size, detail::iso8601(f.mtime_ms));
  }
  out += fmt::format("{} orphan(s), {} bytes; {} too young; {} listed, {} referenced, {} kept, {} not data files\n",
                     plan.orphans.size(), plan.bytes, plan.too_young.size(), plan.listed, plan.referenced, plan.kept,
                     plan.not_data_files);
  if (done) {
    out += fmt::format("deleted {} file(s), {} bytes ({} already gone)\n", done->files_deleted, done->bytes_deleted,
                       done->files_already_gone);
  } else if (!plan.orphans.empty()) {
    out += "dry run: nothing deleted (pass --execute to delete)\n";
  }
  return out;
}

inline int run_orphans(std::span<const std::string> args) {
  auto usage = [](std::string_view m) { return detail::usage_error("orphans", m); };
  const auto bad_input = detail::input_error;
  auto a = parse_args(args, {"--json", "--execute", "--force"},
                      {"--older-than", "--inventory", "--location", "--prefix-mismatch"});
  if (!a.ok()) return usage(message_of(a.status()));
  if (a->help) {
    detail::print_out(std::string(kOrphansHelp));
    return exit_ok;
  }
  if (a->positional.size() != 1) return usage("expected exactly one TABLE");
  OrphanOptions options;
  if (const std::string* age = a->last("--older-than")) {
    auto ms = parse_duration(*age, "--older-than");
    if (!ms.ok()) return usage(message_of(ms.status()));
    options.older_than_ms = absl::ToInt64Milliseconds(*ms);
  }
  options.force = a->flag("--force");
  InventoryOptions inv_options;
  if (const std::string* m = a->last("--prefix-mismatch")) {
    if (*m == "error")
      inv_options.prefix_mismatch = PrefixMismatchMode::error;
    else if (*m == "ignore")
      inv_options.prefix_mismatch = PrefixMismatchMode::ignore;
    else if (*m == "delete")
      inv_options.prefix_mismatch = PrefixMismatchMode::delete_;
    else
      return usage(fmt::format("--prefix-mismatch '{}': expected error, ignore or delete", *m));
  }
  auto table = open_table(a->positional[0]);
  if (!table.ok()) return bad_input(table.status());
  const std::int64_t now = absl::ToUnixMillis(absl::Now());

  StatusOr<OrphanPlan> plan = absl::UnknownError("unset");
  if (const std::string* inv = a->last("--inventory")) {
    std::ifstream in(*inv, std::ios::binary);
    if (!in) return bad_input(absl::NotFoundError(fmt::format("{}: cannot read the inventory", *inv)));
    std::stringstream text;
    text << in.rdbuf();
    const std::string location = a->last("--location") ? *a->last("--location") : detail::absolute_path_of(**table);
    auto sweep = OrphanSweep::make((*table)->metadata, options, now);
    if (!sweep.ok()) return bad_input(sweep.status());
    InventoryMatcher matcher(location, inv_options);
    Status st = read_inventory(text.str(), *inv, matcher,
                               [&](const InventoryEntry& e) { sweep->add(e.path, e.size, e.mtime_ms); });
    if (!st.ok()) return bad_input(st);
    plan = std::move(*sweep).finish();
  } else {
    plan = plan_orphans(*(*table)->storage, (*table)->metadata, options, now);
  }
  if (!plan.ok()) return bad_input(plan.status());

  std::optional<OrphanOutcome> done;
  if (a->flag("--execute") && !plan->stopped) {
    auto out = delete_orphans(*(*table)->storage, *plan);
    if (!out.ok()) return bad_input(out.status());
    done = *out;
  }
  const std::string text = a->flag("--json") ? orphans_json(*plan, done) : orphans_text(*plan, done);
  detail::print_out(text);
  if (plan->stopped) return exit_refused;
  if (!done && !plan->orphans.empty()) return exit_refused;  // findings
  return exit_ok;
}

}  // namespace lakegc::cli
