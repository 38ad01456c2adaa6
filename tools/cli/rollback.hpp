// File: tools/cli/rollback.hpp
// -----------------------------------------------------------------------------
// `lakegc rollback TABLE [--execute]`: the failed writes Hudi's
// rollbackFailedWrites would roll back now, and (with --execute) rolling
// them back as it does, under the table lock (hudi/rollback_service.hpp,
// docs/hudi-rollback.md). Dry run by default.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <optional>
#include <span>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "args.hpp"
#include "lakegc/core/json_writer.hpp"
#include "lakegc/hudi/lock.hpp"
#include "lakegc/hudi/metadata_table/rollback_update.hpp"
#include "lakegc/hudi/rollback_service.hpp"
#include "lakegc/storage/crash_storage.hpp"
#include "table.hpp"
#include "table_command.hpp"

namespace lakegc::cli {

inline constexpr std::string_view kRollbackHelp =
    R"(usage: lakegc rollback TABLE [--execute] [--conf KEY=VALUE ...] [--props FILE]
                       [--now INSTANT] [--no-concurrent-writers] [--json]

Rolls back failed writes as Hudi's rollbackFailedWrites does: pending
rollbacks are finished first from their own plans, then each failed write the
policy names, newest first: a rollback plan (`.rollback.requested`, the files
its markers name), `.rollback.inflight`, the files deleted, its markers and
heartbeat, the failed instant's own timeline files removed, the completed
`.rollback`. Without --execute nothing changes: the plan is printed.

The policy comes from the write config your writers use:
  hoodie.clean.failed.writes.policy=EAGER (default) | LAZY | NEVER
  hoodie.client.heartbeat.interval_in_ms=60000, hoodie.client.heartbeat.tolerable.misses=2
  hoodie.write.concurrency.mode (a multi-writer mode makes the policy LAZY)
  hoodie.rollback.using.markers=true (false: the files named with the instant
  that no completed instant wrote)
LAZY rolls back a write whose heartbeat (.hoodie/.heartbeat/<instant>) is older
than interval x misses (or missing); EAGER every pending write.

The table lock and --no-concurrent-writers: as for `lakegc clean`.

With a metadata table, kept in step as Hudi's metadata writer does, before the
data table's rollback completes: in table versions 8 and 9 a failed write that
got as far as its metadata-table deltacommit has that deltacommit rolled back
there too (the same rollback instant, listing-based), and one that never
reached it (the usual failed write) leaves it as it is; in table version 6
every rollback writes a metadata deltacommit listing its rollback log files,
then rolls back a completed metadata deltacommit of the failed write at the
rollback instant + "006" (rollback command blocks after its logs).

Table version 6: a log file of an earlier slice that a failed deltacommit
appended to is kept (it holds committed blocks too), and its file group gets a
new log file holding a rollback command block, as Hudi's rollback writes.

Refused (exit 1, nothing changed, the reason named): a metadata-table
deltacommit of a failed write that completed before the metadata table's latest
compaction (Hudi refuses it too), an unreadable metadata table, EAGER rollback of
a write with completed commits after it and no heartbeat file (Hudi refuses it
too), a bootstrap table, a table version above 9, a lock it cannot take.

options:
  --execute               carry the rollback out (default: print the plan)
  --no-concurrent-writers no writer runs on the table now: roll back without a lock
  --props FILE, --conf KEY=VALUE
                          the write config (as for `lakegc plan clean`)
  --now INSTANT           take rollback instants as if the clock read INSTANT; a
                          heartbeat counts as expired only if it is at both
                          INSTANT and the wall clock (a later --now never
                          rolls back a live writer)
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
      for (const auto& f : a.files)
        out += fmt::format("  delete {} ({} bytes)\n", join_path(f.partition, f.name), f.size);
      for (const auto& f : a.kept_files) {
        out += fmt::format("  keep   {} (a log file it appended to: a rollback block goes after it)\n",
                           join_path(f.partition, f.name));
      }
      if (r.in_metadata_table.contains(a.instant)) {
        out += fmt::format("  and its deltacommit {} in the metadata table, rolled back there too\n", a.instant);
      }
    }
    if (r.pending.empty() && r.plan.rollbacks.empty()) out += "nothing to roll back\n";
  }
  for (const hudi::RolledBack& d : r.done) {
    out += fmt::format("rolled back {} {} as rollback {}{}: {} file(s) deleted ({} bytes), {} already gone\n",
                       d.failed.action, d.failed.commit_time, d.rollback_instant, d.resumed ? " (resumed)" : "",
                       d.tally.files_deleted, d.tally.bytes_deleted, d.tally.files_already_gone);
    for (const hudi::RollbackLogFile& f : d.rollback_log_files) {
      out += fmt::format("  rollback block {}{}\n", f.path, f.reused ? " (written by the interrupted run)" : "");
    }
    if (const auto& mdt = d.metadata_table.rollback) {
      std::size_t files = 0;
      std::size_t blocks = 0;
      for (const auto& [p, pm] : mdt->partition_metadata) {
        files += pm.success_delete_files.size();
        blocks += pm.rollback_log_files.size();
      }
      out += fmt::format(
          "  and in the metadata table: its deltacommit {} rolled back as rollback {} ({} file(s) deleted{})\n",
          d.failed.commit_time, mdt->start_rollback_time, files,
          blocks == 0 ? std::string() : fmt::format(", {} rollback block(s)", blocks));
    }
    if (const auto& dc = d.metadata_table.deltacommit) {
      out += fmt::format("  and in the metadata table: deltacommit {} ({} log file(s))\n", *dc,
                         d.metadata_table.deltacommit_logs.size());
    }
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
  // Why --execute refuses (a dry run still shows the plan), or null.
  if (r.refusal) {
    j.key("refusal").value(*r.refusal);
  } else {
    j.key("refusal").null();
  }
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
    j.key("in_metadata_table").value(r.in_metadata_table.contains(a.instant));
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
    // Version 6: the new log files holding rollback command blocks.
    j.key("rollback_log_files").begin_array();
    for (const hudi::RollbackLogFile& f : d.rollback_log_files) j.value(f.path);
    j.end_array();
    // What the metadata table got: the rollback of its deltacommit of the
    // failed write (version 8+; version 6 when it had completed), and in
    // version 6 a deltacommit at the rollback instant; null when nothing.
    if (d.metadata_table.empty()) {
      j.key("metadata_table").null();
    } else {
      j.key("metadata_table").begin_object();
      if (const auto& mdt = d.metadata_table.rollback) {
        j.key("rollback_instant").value(mdt->start_rollback_time);
        j.key("deleted").begin_array();
        for (const auto& [p, pm] : mdt->partition_metadata) {
          for (const auto& f : pm.success_delete_files) j.value(f);
        }
        j.end_array();
        // Version 6: the log files holding its rollback blocks.
        j.key("rollback_log_files").begin_array();
        for (const auto& [p, pm] : mdt->partition_metadata) {
          for (const auto& [f, size] : pm.rollback_log_files) j.value(f);
        }
        j.end_array();
      }
      if (const auto& dc = d.metadata_table.deltacommit) {
        j.key("deltacommit").value(dc->str());
        j.key("logs").begin_array();
        for (const auto& f : d.metadata_table.deltacommit_logs) j.value(f);
        j.end_array();
      }
      j.end_object();
    }
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

// hoodie.rollback.using.markers (true unless "false"), checked with the
// failed-writes keys before the table is opened.
[[nodiscard]] inline StatusOr<bool> using_markers(const config::Properties& props) {
  LAKEGC_RETURN_IF_ERROR(config::write_maintenance_from_properties(props).status());
  const auto it = props.find("hoodie.rollback.using.markers");
  if (it == props.end()) return true;
  if (it->second != "true" && it->second != "false") {
    return absl::InvalidArgumentError(
        fmt::format("hoodie.rollback.using.markers={}: expected true or false", it->second));
  }
  return it->second == "true";
}

/// The options `rollback` and clean's LAZY step give the service, from the
/// write config (checked by using_markers before the table opened).
[[nodiscard]] inline StatusOr<hudi::RollbackServiceOptions> service_options(const config::Properties& props,
                                                                            const TableLock* lock, std::int64_t now) {
  auto wm = config::write_maintenance_from_properties(props);
  if (!wm.ok()) return wm.status();
  auto markers = using_markers(props);
  if (!markers.ok()) return markers.status();
  hudi::RollbackServiceOptions o;
  o.rollback = wm->effective_rollback();
  o.use_markers = *markers;
  o.lock = lock;
  o.plan_now_ms = now;
  // A heartbeat is judged at the earlier of --now and the wall clock: it is
  // expired only if it is at both (see RollbackServiceOptions).
  o.heartbeat_now_ms = std::min(now, detail::wall_clock_ms());
  return o;
}

inline bool has_metadata_table(const Table& table) {
  return !table.journal->properties().metadata_partitions.empty() ||
         table.storage->stat(".hoodie/metadata/.hoodie/hoodie.properties").ok();
}

/// Keeps the metadata table in step with every rollback the service makes:
/// Hudi's finishRollback hands the rollback to the metadata writer, which
/// rolls back its own deltacommit of the failed write, if it has one
/// (metadata_table/rollback_update.hpp). `base_path` is the table's
/// absolute path, which the metadata table's rollback plans carry.
template <class S>
void keep_metadata_table_in_step(hudi::RollbackServiceOptions& o, S& storage, const Table& table,
                                 const std::string& base_path) {
  if (!has_metadata_table(table)) return;
  std::function<std::int64_t()> now_ms = o.now_ms ? o.now_ms : std::function<std::int64_t()>(detail::wall_clock_ms);
  const hudi::TableProperties props = table.journal->properties();
  o.metadata_update = [&storage, props, base_path, now_ms](const InstantTime& failed, const InstantTime& rollback,
                                                           const hudi::RollbackMetadataRecord& m) {
    return hudi::metadata_table::roll_back_in_metadata_table(storage, props, base_path, failed, rollback, m, now_ms);
  };
}

/// The service's plan, with the metadata-table check both commands share
/// (check_rollback_update): where the metadata table's deltacommit of a
/// failed write cannot be rolled back as Hudi does, the plan is a refusal.
template <class S>
[[nodiscard]] StatusOr<hudi::RollbackRunReport> checked_plan(hudi::rollback_service<S>& service, S& storage,
                                                             const Table& table) {
  auto planned = service.plan();
  if (!planned.ok() || planned->refusal || !has_metadata_table(table)) return planned;
  std::vector<InstantTime> failed;
  for (const auto& ra : planned->plan.rollbacks) failed.push_back(ra.instant);
  for (const auto& [t, plan] : planned->pending) {
    if (auto f = InstantTime::parse(plan.instant_to_rollback->commit_time); f.ok()) failed.push_back(*f);
  }
  auto reached = hudi::metadata_table::check_rollback_update(storage, table.journal->properties(), table.path, failed);
  if (reached.ok()) {
    planned->in_metadata_table = std::move(*reached);
  } else {
    planned->refusal = std::string(message_of(reached.status()));
  }
  return planned;
}

/// What `clean --execute` rolled back first, or why it must not start.
struct RollbackBeforeClean {
  std::vector<hudi::RolledBack> done;
  std::optional<std::string> refusal;  ///< nothing was changed
};

/// Hudi's clean rolls back failed writes first when the failed-writes policy
/// is LAZY (CleanerUtils.rollbackFailedWrites, before the clean is planned):
/// the writes whose heartbeat expired, exactly as `lakegc rollback --execute`
/// rolls them back. EAGER and NEVER leave that to the writers. Where the
/// rollback would be refused the clean is refused too: a clean planned over
/// a timeline Hudi would have rolled back first is not Hudi's clean.
template <class S>
[[nodiscard]] StatusOr<RollbackBeforeClean> rollback_before_clean(hudi::journal<S>& journal, S& storage,
                                                                  const Table& table, const config::Properties& props,
                                                                  const TableLock* lock, std::int64_t now) {
  LAKEGC_ASSIGN_OR_RETURN(auto options, service_options(props, lock, now));
  RollbackBeforeClean out;
  if (options.rollback.policy != FailedWritesPolicy::lazy) return out;
  keep_metadata_table_in_step(options, storage, table, journal.base_path());
  hudi::rollback_service<S> service(journal, options);
  LAKEGC_ASSIGN_OR_RETURN(auto planned, checked_plan(service, storage, table));
  if (planned.refusal) {
    out.refusal = fmt::format(
        "the LAZY failed-writes policy rolls back failed writes before a clean, and that "
        "rollback is refused: {}",
        *planned.refusal);
    return out;
  }
  if (planned.pending.empty() && planned.plan.rollbacks.empty()) return out;
  LAKEGC_ASSIGN_OR_RETURN(auto report, service.execute());
  if (report.refusal) {
    out.refusal = fmt::format("the rollback of failed writes before the clean is refused: {}", *report.refusal);
  }
  out.done = std::move(report.done);
  return out;
}

}  // namespace rollback_cli

/// `lakegc rollback ...` (the words after the command name).
inline int run_rollback(std::span<const std::string> args) {
  constexpr std::string_view command = "rollback";
  auto a = parse_args(args, {"--json", "--execute", "--no-concurrent-writers"}, {"--conf", "--props", "--now"});
  if (!a.ok()) return detail::usage_error(command, message_of(a.status()));
  if (a->help) {
    detail::print_out(std::string(kRollbackHelp));
    return exit_ok;
  }
  config::Properties props;
  if (auto stop = detail::read_settings(command, *a, rollback_cli::using_markers, props)) return *stop;
  std::optional<InstantTime> now_flag;
  if (auto stop = detail::read_now(command, *a, now_flag)) return *stop;
  auto table = open_table(a->positional[0]);
  if (!table.ok()) return detail::input_error(table.status());
  std::int64_t now = 0;
  if (auto stop = detail::now_in(command, now_flag, **table, now)) return *stop;
  const bool execute = a->flag("--execute");
  auto refuse = [&](const std::string& why) {
    fmt::print(stderr, "lakegc rollback: refusing to roll back {}: {}\n", a->positional[0], why);
    return exit_refused;
  };
  if (execute) {
    if (auto why = detail::execute_refusal(**table)) return refuse(*why);
  }
  // Plans carry absolute paths, as Hudi's do: a Hudi writer that finishes
  // a pending rollback resolves them from its own working directory.
  const std::string abs_path = detail::absolute_path_of(**table);
  auto lock_settings = hudi::lock_settings(props, abs_path);
  if (!lock_settings.ok()) return detail::input_error(lock_settings.status());

  // Every change goes through a crash_storage (LAKEGC_CRASH_AFTER_MUTATIONS).
  crash_storage<posix_storage> storage(*(*table)->storage, detail::crash_budget(), [] { std::_Exit(86); });
  auto journal = hudi::journal<crash_storage<posix_storage>>::open(storage, abs_path);
  if (!journal.ok()) return detail::input_error(journal.status());
  std::optional<TableLock> lock;
  if (execute) {
    if (auto stop = detail::choose_lock(storage, *lock_settings, *a, refuse, lock)) return *stop;
  }
  auto o = rollback_cli::service_options(props, lock ? &*lock : nullptr, now);
  if (!o.ok()) return detail::input_error(o.status());
  rollback_cli::keep_metadata_table_in_step(*o, storage, **table, abs_path);
  hudi::rollback_service<crash_storage<posix_storage>> service(*journal, *o);
  auto planned = rollback_cli::checked_plan(service, storage, **table);
  if (!planned.ok()) return detail::input_error(planned.status());
  if (execute && planned->refusal) return refuse(*planned->refusal + "; nothing was changed");
  StatusOr<hudi::RollbackRunReport> report = execute ? service.execute() : std::move(planned);
  if (!report.ok()) {
    fmt::print(stderr, "lakegc rollback: {}\n", message_of(report.status()));
    return lock && absl::IsFailedPrecondition(report.status()) ? exit_refused : exit_bad_input;
  }
  if (execute && report->refusal) return refuse(*report->refusal + "; nothing was changed");
  const std::string lock_text = execute ? detail::lock_text(lock) : std::string("none (dry run)");
  if (a->flag("--json")) {
    detail::print_out(rollback_cli::json_of((*table)->path, *report, execute, o->rollback.policy, lock_text) + "\n");
  } else {
    std::string t = rollback_cli::text_of(*report, execute, o->rollback.policy);
    if (!execute && report->refusal) t += fmt::format("--execute would refuse: {}\n", *report->refusal);
    if (execute) t += fmt::format("lock: {}\n", lock_text);
    detail::print_out(t);
  }
  return exit_ok;
}

}  // namespace lakegc::cli
