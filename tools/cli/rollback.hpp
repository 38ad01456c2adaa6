// File: tools/cli/rollback.hpp
// -----------------------------------------------------------------------------
// `lakegc rollback TABLE [--execute]`: the failed writes Hudi's
// rollbackFailedWrites would roll back now, and (with --execute) rolling
// them back as it does, under the table lock (hudi/rollback_service.hpp,
// docs/hudi-rollback.md). Dry run by default.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "args.hpp"
#include "lakegc/core/json_writer.hpp"
#include "lakegc/hudi/lock.hpp"
#include "lakegc/hudi/rollback_service.hpp"
#include "lakegc/storage/crash_storage.hpp"
#include "table.hpp"

namespace lakegc::cli {

inline constexpr std::string_view kRollbackHelp =
    R"(usage: lakegc rollback TABLE [--execute] [--conf KEY=VALUE ...] [--props FILE]
                       [--now INSTANT] [--no-concurrent-writers] [--json]

Rolls back failed writes as Hudi's rollbackFailedWrites does: pending
rollbacks are finished first from their own plans, then each failed write the
policy names, newest first: a rollback plan (`.rollback.requested`, the files
its markers name), `.rollback.inflight`, the files deleted, the failed
instant's own timeline files removed, the completed `.rollback`, then its
markers and heartbeat. Without --execute nothing changes: the plan is printed.

The policy comes from the write config your writers use:
  hoodie.clean.failed.writes.policy=EAGER (default) | LAZY | NEVER
  hoodie.client.heartbeat.interval_in_ms=60000, hoodie.client.heartbeat.tolerable.misses=2
  hoodie.write.concurrency.mode (a multi-writer mode makes the policy LAZY)
  hoodie.rollback.using.markers=true (false: the files named with the instant
  that no completed instant wrote)
LAZY rolls back a write whose heartbeat (.hoodie/.heartbeat/<instant>) is older
than interval x misses (or missing); EAGER every pending write.

The table lock and --no-concurrent-writers: as for `lakegc clean`.

Refused (exit 1, nothing changed, the reason named): a table with a metadata
table (lakegc does not write the metadata table's rollback records yet), table
version 6 log files a failed deltacommit appended to (Hudi appends a rollback
command block), EAGER rollback of a write with completed commits after it and
no heartbeat file (Hudi refuses it too), a bootstrap table, a table version
above 9, a lock it cannot take.

options:
  --execute               carry the rollback out (default: print the plan)
  --no-concurrent-writers no writer runs on the table now: roll back without a lock
  --props FILE, --conf KEY=VALUE
                          the write config (as for `lakegc plan clean`)
  --now INSTANT           judge heartbeats as if the clock read INSTANT
  --json                  machine-readable output
  -h, --help              this help

exit codes: 0 success, 1 refused, 2 bad usage or bad input
)";

namespace rollback_cli {

inline std::string_view policy_name(FailedWritesPolicy p) {
  switch (p) {
    case FailedWritesPolicy::eager: return "EAGER";
    case FailedWritesPolicy::lazy: return "LAZY";
    case FailedWritesPolicy::never: return "NEVER";
  }
  return "?";
}

inline std::string text_of(const hudi::RollbackRunReport& r, bool executed, FailedWritesPolicy policy) {
  std::string out;
  out += fmt::format("failed-writes policy: {}\n", policy_name(policy));
  if (!executed) {
    for (const auto& [t, plan] : r.pending) {
      std::size_t files = 0;
      for (const auto& q : plan.requests) files += q.files_to_be_deleted.size();
      out += fmt::format("pending rollback {} of {} {}: finished first from its plan ({} file(s))\n", t,
                         plan.instant_to_rollback->action, plan.instant_to_rollback->commit_time, files);
    }
    for (const RollbackAction& a : r.plan.rollbacks) {
      std::uint64_t bytes = 0;
      for (const auto& f : a.files) bytes += f.size;
      out += fmt::format("roll back {} {} ({}): {} file(s), {} bytes\n", to_string(a.action), a.instant, a.reason,
                         a.files.size(), bytes);
      for (const auto& f : a.files) out += fmt::format("  delete {} ({} bytes)\n", join_path(f.partition, f.name), f.size);
      for (const auto& f : a.kept_files) {
        out += fmt::format("  keep   {} (a log file it appended to)\n", join_path(f.partition, f.name));
      }
    }
    if (r.pending.empty() && r.plan.rollbacks.empty()) out += "nothing to roll back\n";
  }
  for (const hudi::RolledBack& d : r.done) {
    out += fmt::format("rolled back {} {} as rollback {}{}: {} file(s) deleted ({} bytes), {} already gone\n",
                       d.failed.action, d.failed.commit_time, d.rollback_instant, d.resumed ? " (resumed)" : "",
                       d.tally.files_deleted, d.tally.bytes_deleted, d.tally.files_already_gone);
  }
  if (executed && r.done.empty()) out += "nothing to roll back\n";
  for (const auto& [t, why] : r.left_alone) out += fmt::format("left alone: {}: {}\n", t, why);
  return out;
}

inline std::string json_of(const std::string& table, const hudi::RollbackRunReport& r, bool executed,
                           FailedWritesPolicy policy, const std::string& lock) {
  json_writer j;
  j.begin_object();
  j.key("table").value(table);
  j.key("executed").value(executed);
  j.key("policy").value(policy_name(policy));
  j.key("lock").value(lock);
  j.key("pending_rollbacks").begin_array();
  for (const auto& [t, plan] : r.pending) {
    j.begin_object();
    j.key("rollback_instant").value(t.str());
    j.key("instant").value(plan.instant_to_rollback->commit_time);
    j.key("action").value(plan.instant_to_rollback->action);
    j.key("files").begin_array();
    for (const auto& q : plan.requests) {
      for (const auto& f : q.files_to_be_deleted) j.value(f);
    }
    j.end_array();
    j.end_object();
  }
  j.end_array();
  j.key("rollbacks").begin_array();
  for (const RollbackAction& a : r.plan.rollbacks) {
    j.begin_object();
    j.key("instant").value(a.instant.str());
    j.key("action").value(to_string(a.action));
    j.key("reason").value(a.reason);
    j.key("files").begin_array();
    for (const auto& f : a.files) {
      j.begin_object();
      j.key("partition").value(f.partition);
      j.key("name").value(f.name);
      j.key("size").value(f.size);
      j.end_object();
    }
    j.end_array();
    j.key("kept_files").begin_array();
    for (const auto& f : a.kept_files) j.value(join_path(f.partition, f.name));
    j.end_array();
    j.end_object();
  }
  j.end_array();
  j.key("done").begin_array();
  for (const hudi::RolledBack& d : r.done) {
    j.begin_object();
    j.key("rollback_instant").value(d.rollback_instant.str());
    j.key("instant").value(d.failed.commit_time);
    j.key("action").value(d.failed.action);
    j.key("resumed").value(d.resumed);
    j.key("files_deleted").value(d.tally.files_deleted);
    j.key("files_already_gone").value(d.tally.files_already_gone);
    j.key("bytes_deleted").value(d.tally.bytes_deleted);
    j.key("deleted").begin_array();
    for (const auto& [p, pm] : d.metadata.partition_metadata) {
      for (const auto& f : pm.success_delete_files) j.value(f);
    }
    j.end_array();
    j.end_object();
  }
  j.end_array();
  j.key("left_alone").begin_array();
  for (const auto& [t, why] : r.left_alone) {
    j.begin_object();
    j.key("instant").value(t.str());
    j.key("why").value(why);
    j.end_object();
  }
  j.end_array();
  j.end_object();
  return j.str();
}

inline int usage_error(std::string_view message) {
  fmt::print(stderr, "lakegc rollback: {}\nsee `lakegc rollback --help`\n", message);
  return exit_bad_input;
}

inline int input_error(const Status& st) {
  fmt::print(stderr, "lakegc: {}\n", message_of(st));
  return exit_bad_input;
}

}  // namespace rollback_cli

/// `lakegc rollback ...`; `props` is the merged --props/--conf config and
/// `crash_after` the crash-test budget (LAKEGC_CRASH_AFTER_MUTATIONS).
inline int run_rollback(const ParsedArgs& a, const config::Properties& props, std::optional<std::uint64_t> crash_after,
                        std::int64_t wall_now_ms) {
  using namespace rollback_cli;
  if (a.positional.size() != 1) return usage_error("expected exactly one TABLE");
  auto wm = config::write_maintenance_from_properties(props);
  if (!wm.ok()) return input_error(wm.status());
  bool use_markers = true;
  if (auto it = props.find("hoodie.rollback.using.markers"); it != props.end()) {
    if (it->second != "true" && it->second != "false") {
      return input_error(absl::InvalidArgumentError(
          fmt::format("hoodie.rollback.using.markers={}: expected true or false", it->second)));
    }
    use_markers = it->second == "true";
  }
  auto table = open_table(a.positional[0]);
  if (!table.ok()) return input_error(table.status());
  const bool execute = a.flag("--execute");
  auto refuse = [&](const std::string& why) {
    fmt::print(stderr, "lakegc rollback: refusing to roll back {}: {}\n", a.positional[0], why);
    return exit_refused;
  };
  std::int64_t now = wall_now_ms;
  if (const std::string* t = a.last("--now")) {
    auto instant = InstantTime::parse(*t);
    if (!instant.ok()) return usage_error(fmt::format("--now: {}", message_of(instant.status())));
    auto ms = instant->to_epoch_ms((*table)->metadata.timezone);
    if (!ms.ok()) return usage_error(fmt::format("--now: {}", message_of(ms.status())));
    now = *ms;
  }
  const hudi::TableProperties& tp = (*table)->journal->properties();
  if (execute) {
    if (tp.version > 9) return refuse(fmt::format("table version {} is newer than lakegc knows (9); nothing was changed", tp.version));
    if (tp.bootstrap_base_path) return refuse("a bootstrap table: lakegc does not roll back bootstrap writes; nothing was changed");
    const bool has_mdt = !tp.metadata_partitions.empty() ||
                         (*table)->storage->stat(".hoodie/metadata/.hoodie/hoodie.properties").ok();
    if (has_mdt) {
      return refuse(fmt::format(
          "the table has a metadata table (hoodie.table.metadata.partitions={}): Hudi records a rollback's deleted "
          "files in its files partition and rolls back the failed instant's metadata deltacommit, which lakegc does "
          "not write yet; nothing was changed (run Hudi's rollback)",
          fmt::join(tp.metadata_partitions, ",")));
    }
  }
  auto lock_settings = hudi::lock_settings(props, std::filesystem::absolute((*table)->path).lexically_normal().string());
  if (!lock_settings.ok()) return input_error(lock_settings.status());

  crash_storage<posix_storage> storage(*(*table)->storage, crash_after, [] { std::_Exit(86); });
  auto journal = hudi::journal<crash_storage<posix_storage>>::open(storage, (*table)->path);
  if (!journal.ok()) return input_error(journal.status());
  std::optional<TableLock> lock;
  if (execute) {
    if (lock_settings->kind == hudi::LockProviderKind::file_system) {
      lock = hudi::file_system_lock(storage, *lock_settings);
    } else if (!a.flag("--no-concurrent-writers")) {
      return refuse(lock_settings->kind == hudi::LockProviderKind::other
                        ? fmt::format("hoodie.write.lock.provider={} is a lock lakegc cannot take; pass "
                                      "--no-concurrent-writers if no writer is running",
                                      lock_settings->provider_class)
                        : std::string("no table lock is configured (hoodie.write.lock.provider); give the write "
                                      "config your writers use, or pass --no-concurrent-writers if no writer is "
                                      "running"));
    }
  }
  hudi::RollbackServiceOptions o;
  o.rollback = wm->effective_rollback();
  o.use_markers = use_markers;
  o.lock = lock ? &*lock : nullptr;
  o.plan_now_ms = now;
  hudi::rollback_service<crash_storage<posix_storage>> service(*journal, o);
  auto planned = service.plan();
  if (!planned.ok()) return input_error(planned.status());
  if (execute && planned->refusal) return refuse(*planned->refusal + "; nothing was changed");
  StatusOr<hudi::RollbackRunReport> report = execute ? service.execute() : std::move(planned);
  if (!report.ok()) {
    fmt::print(stderr, "lakegc rollback: {}\n", message_of(report.status()));
    return lock && absl::IsFailedPrecondition(report.status()) ? exit_refused : exit_bad_input;
  }
  if (execute && report->refusal) return refuse(*report->refusal + "; nothing was changed");
  const std::string lock_text =
      !execute ? std::string("none (dry run)")
               : lock ? lock->description : std::string("none (--no-concurrent-writers)");
  if (a.flag("--json")) {
    std::string j = json_of((*table)->path, *report, execute, o.rollback.policy, lock_text);
    j += '\n';
    std::fwrite(j.data(), 1, j.size(), stdout);
  } else {
    std::string t = text_of(*report, execute, o.rollback.policy);
    if (!execute && report->refusal) t += fmt::format("--execute would refuse: {}\n", *report->refusal);
    if (execute) t += fmt::format("lock: {}\n", lock_text);
    std::fwrite(t.data(), 1, t.size(), stdout);
  }
  std::fflush(stdout);
  return exit_ok;
}

}  // namespace lakegc::cli
