// File: tools/cli/commands.hpp
// -----------------------------------------------------------------------------
// The `lakegc` commands: parse the words after the program name, run, print
// (results on stdout, errors on stderr) and return the exit code:
//   0  success
//   1  refusal (e.g. `clean --execute` on a table whose metadata table has
//      a partition lakegc cannot update, or without a lock it can take)
//   2  bad usage or bad input (unknown option, not a table, a damaged
//      timeline file, an invalid cleaning key)
#pragma once

#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "advise.hpp"
#include "archive.hpp"
#include "args.hpp"
#include "lakegc/exec/clean_report.hpp"
#include "lakegc/hudi/empty_clean_repair.hpp"
#include "lakegc/hudi/lock.hpp"
#include "lakegc/hudi/metadata_table/clean_update.hpp"
#include "lakegc/storage/crash_storage.hpp"
#include "inspect.hpp"
#include "orphans.hpp"
#include "plan.hpp"
#include "plan_archive.hpp"
#include "plan_ttl.hpp"
#include "rollback.hpp"
#include "table_command.hpp"
#include "ttl.hpp"

namespace lakegc::cli {

inline constexpr std::string_view kMainHelp = R"(lakegc: what an Apache Hudi table may delete, and why

usage: lakegc <command> [options]

commands:
  inspect TABLE        table facts, timeline, and per partition the file groups
                       with their slices (replaced groups marked)
  plan clean TABLE     the clean plan under a cleaning policy, with the reason each
                       file may go and why each retained instant stays (dry run)
  plan ttl TABLE       the partitions Hudi's partition TTL would delete, with each
                       one's age, and why the others stay (dry run)
  plan archive TABLE   the instants Hudi's timeline archiver would archive, and
                       why the others stay (dry run)
  clean TABLE          clean as Hudi's cleaner would (dry run unless --execute),
                       under the table lock
  orphans TABLE        files no table state ever referenced (dry run unless
                       --execute)
  rollback TABLE       roll back failed writes as Hudi does (dry run unless
                       --execute), under the table lock
  ttl TABLE            partition TTL as Hudi runs it (dry run unless --execute): a
                       replacecommit DELETE_PARTITION for the expired partitions
  archive TABLE        timeline archival as Hudi runs it (dry run unless --execute;
                       layout 2 writes the LSM history), under the table lock
  advise TABLE         the retention the table needs for its longest query,
                       from its own commit cadence, with what each choice costs

Every command reads a local table folder (the one holding .hoodie/); only
`clean --execute`, `rollback --execute`, `ttl --execute`, `archive --execute` and `orphans --execute` change it. `lakegc <command> --help` lists a command's options.

exit codes: 0 success, 1 findings or refusal, 2 bad usage or bad input
)";

inline constexpr std::string_view kInspectHelp = R"(usage: lakegc inspect TABLE [--as-of INSTANT] [--json]

Shows the table's facts (type, version, timeline layout, partitioning), its
timeline, and per partition the file groups with their file slices (base file,
log files); groups replaced by a completed replacecommit are marked.

options:
  --as-of INSTANT   the table as a reader at INSTANT (yyyyMMddHHmmss[SSS]) saw it:
                    only instants requested at or before it count
  --json            machine-readable output (shape in docs/cli-json.md)
  -h, --help        this help

exit codes: 0 success, 2 bad usage or bad input
)";

inline constexpr std::string_view kPlanHelp = R"(usage: lakegc plan clean|ttl|archive TABLE [options]

subcommands:
  clean   the clean plan under a cleaning policy (`lakegc plan clean --help`)
  ttl     the partitions partition TTL would delete (`lakegc plan ttl --help`)
  archive the instants timeline archival would archive (`lakegc plan archive --help`)
)";

inline constexpr std::string_view kPlanCleanHelp =
    R"(usage: lakegc plan clean TABLE [--conf KEY=VALUE ...] [--props FILE] [--json]

Plans a clean with Hudi's cleaning rules and prints, for every file, the reason
it may go, for every retained instant why it stays, and the bytes a clean
would reclaim. Nothing is deleted.

The policy comes from Hudi's keys, as you pass them to Spark:
  hoodie.clean.policy=KEEP_LATEST_COMMITS | KEEP_LATEST_FILE_VERSIONS | KEEP_LATEST_BY_HOURS
  hoodie.clean.commits.retained=10, hoodie.clean.fileversions.retained=3,
  hoodie.clean.hours.retained=24, hoodie.clean.incremental.enabled, ...
  (legacy hoodie.cleaner.* spellings too). Keys outside hoodie.clean* are ignored,
  so a whole Spark or Hudi config file can be passed; an unknown hoodie.clean* key
  is an error.

options:
  --props FILE       a Java properties file (spark-defaults.conf style works too);
                     may be repeated, later files win
  --conf KEY=VALUE   one setting; may be repeated; wins over --props
  --now INSTANT      plan as if the clock read INSTANT (KEEP_LATEST_BY_HOURS only)
  --json             machine-readable output (shape in docs/cli-json.md)
  -h, --help         this help

exit codes: 0 success, 2 bad usage or bad input
)";

inline constexpr std::string_view kCleanHelp =
    R"(usage: lakegc clean TABLE [--execute] [--conf KEY=VALUE ...] [--props FILE]
                    [--now INSTANT] [--no-concurrent-writers] [--json]

Cleans the table as Hudi's cleaner would: pending cleans are finished first
(a run that finishes one schedules no other unless hoodie.clean.multiple.enabled),
then, if the trigger is met, a clean is planned, persisted as a requested
clean, and executed: requested -> inflight -> completed, in the table's
timeline layout. Without --execute nothing changes: the plan is printed, as
`lakegc plan clean` prints it.

The table lock: give the write config your writers use (--props/--conf). With
hoodie.write.lock.provider=org.apache.hudi.client.transaction.lock.FileSystemBasedLockProvider
lakegc takes that lock (hoodie.write.lock.filesystem.path, default
TABLE/.hoodie/lock) to schedule and to complete the clean, as Hudi does.
Any other provider, or none: lakegc refuses unless --no-concurrent-writers
says that no writer is running.

With a metadata table, each clean's deletions are recorded in its `files`
partition (a deltacommit at the clean's instant) before the clean completes,
as Hudi does.

With hoodie.clean.failed.writes.policy=LAZY (or a multi-writer concurrency
mode), failed writes whose heartbeat expired are rolled back first, as Hudi's
clean does and as `lakegc rollback --execute` does; a rollback lakegc would
refuse makes it refuse the clean (nothing changed).

Refused (exit 1, nothing deleted, the reason named): a metadata-table
partition Hudi updates on clean that lakegc does not (expression indexes),
a pending metadata-table instant lakegc cannot continue, a files partition
it cannot read, a pending or 0-byte clean whose deltacommit Hudi wrote into a
table-version-6 metadata table that has later instants or where that
deltacommit did not complete, a bootstrap table, a table version above 9, a
lock it cannot take.

A pending clean whose metadata deltacommit Hudi already wrote (a clean that
crashed after that step, or a 0-byte completed clean repaired) has that
deltacommit rolled back in the metadata table and written again, as Hudi's
metadata writer does (table version 6: a rollback command block after it).

options:
  --execute               carry the clean out (default: print the plan)
  --no-concurrent-writers no writer runs on the table now: clean without a lock
  --props FILE, --conf KEY=VALUE, --now INSTANT, --json
                          as for `lakegc plan clean`
  --dry-run               the default; accepted for scripts written for 0.1
  -h, --help              this help

exit codes: 0 success, 1 refused, 2 bad usage or bad input
)";

namespace detail {

inline std::vector<std::string> instant_strings(const std::vector<InstantTime>& ts) {
  std::vector<std::string> out;
  for (const InstantTime& t : ts) out.push_back(t.str());
  return out;
}

// The repair of 0-byte completed cleans before `clean --execute` plans: an
// exit code where the run must stop (a refusal), else what was repaired.
template <class S, class J, class P, class Refuse>
[[nodiscard]] StatusOr<std::variant<int, hudi::EmptyCleanRepair>> repair_empty_cleans(
    S& storage, J& journal, const P& policy, const config::Properties& writer_config, std::string_view base_path,
    const TableLock* lock, std::int64_t now, Refuse refuse) {
  LAKEGC_ASSIGN_OR_RETURN(
      auto found, hudi::repair_empty_completed_cleans(storage, journal.properties(), journal.location(), false));
  if (!found.needed()) return found;
  LAKEGC_ASSIGN_OR_RETURN(TableMetadata md, journal.load());
  if (clean_not_due(md, policy.scope())) return hudi::EmptyCleanRepair{};  // Hudi repairs only when it schedules
  if (!hudi::metadata_table::metadata_partitions_to_update(journal.properties()).empty()) {
    // The repaired clean's metadata deltacommit is rolled back there and
    // written again when the clean finishes (clean_update.hpp): checked
    // now, before the repair changes anything.
    const auto why = [&](std::string_view reason) {
      return refuse(
          fmt::format("the completed clean {} is a 0-byte file (a clean that crashed while completing): "
                      "{}; nothing was changed (run Hudi's cleaner)",
                      found.emptied.front(), reason));
    };
    LAKEGC_ASSIGN_OR_RETURN(Timeline repaired, hudi::as_repaired(md.timeline, found));
    auto inputs = hudi::metadata_table::check_clean_update(storage, journal.properties(), repaired, base_path,
                                                           allocate_instant(md, now), writer_config);
    if (!inputs.ok()) return why(message_of(inputs.status()));
  }
  TableLockHold hold(lock);
  if (!hold.status().ok()) return refuse(fmt::format("taking the table lock: {}", message_of(hold.status())));
  LAKEGC_ASSIGN_OR_RETURN(md, journal.load());
  if (clean_not_due(md, policy.scope())) return hudi::EmptyCleanRepair{};
  LAKEGC_ASSIGN_OR_RETURN(auto done,
                          hudi::repair_empty_completed_cleans(storage, journal.properties(), journal.location(), true));
  if (done.replan) {
    LAKEGC_ASSIGN_OR_RETURN(md, journal.load());
    LAKEGC_RETURN_IF_ERROR(journal.request_clean(allocate_instant(md, now), done.replan->second));
  }
  LAKEGC_RETURN_IF_ERROR(annotate(hold.release(), "releasing the table lock after the repair"));
  return done;
}

// The steps `clean --execute` takes before it plans (a LAZY rollback of
// expired failed writes, the repair of a 0-byte completed clean), as the
// dry run reports them: one line each.
[[nodiscard]] inline StatusOr<std::vector<std::string>> clean_execute_first(Table& table,
                                                                            const config::Properties& props,
                                                                            std::int64_t now) {
  std::vector<std::string> out;
  LAKEGC_ASSIGN_OR_RETURN(auto options, rollback_cli::service_options(props, nullptr, now));
  if (options.rollback.policy == FailedWritesPolicy::lazy) {
    hudi::rollback_service<posix_storage> service(*table.journal, options);
    LAKEGC_ASSIGN_OR_RETURN(auto planned, rollback_cli::checked_plan(service, *table.storage, table));
    for (const auto& [t, plan] : planned.pending) {
      out.push_back(fmt::format("finish the pending rollback {} of {} (LAZY failed-writes policy)", t,
                                plan.instant_to_rollback->commit_time));
    }
    for (const RollbackAction& ra : planned.plan.rollbacks) {
      out.push_back(fmt::format("roll back the failed write {} {} ({}; LAZY failed-writes policy)",
                                to_string(ra.action), ra.instant, ra.reason));
    }
    if (planned.refusal) out.push_back(fmt::format("refuse: {}", *planned.refusal));
  }
  LAKEGC_ASSIGN_OR_RETURN(auto repair, hudi::repair_empty_completed_cleans(*table.storage, table.journal->properties(),
                                                                           table.journal->location(), false));
  for (const InstantTime& t : repair.emptied) {
    out.push_back(fmt::format("repair the 0-byte completed clean {} if a clean is due ({})", t,
                              repair.replan && repair.replan->first == t ? "its plan is scheduled again"
                                                                         : "its plan is empty: the clean is removed"));
  }
  return out;
}

// plan clean and clean --dry-run share this.
inline int run_plan(std::string_view command, const ParsedArgs& a) {
  config::Properties props;
  if (auto stop = read_settings(command, a, config::from_properties, props)) return *stop;
  std::optional<InstantTime> now;
  if (auto stop = read_now(command, a, now)) return *stop;
  auto table = open_table(a.positional[0]);
  if (!table.ok()) return input_error(table.status());
  std::int64_t now_ms = 0;
  if (auto stop = now_in(command, now, **table, now_ms)) return *stop;
  auto report = plan_clean_report(**table, props, now_ms, listing_progress::wanted());
  if (!report.ok()) return input_error(report.status());
  if (a.flag("--json")) {
    print_json([&](json_writer& w) { write_plan_json(w, *report); });
  } else {
    print_out(plan_text(*report));
  }
  if (command == "clean") {
    // What `clean --execute` does before it plans, which the plan above
    // does not show (on stderr with --json, so stdout stays one document).
    auto first = clean_execute_first(**table, props, now_ms);
    if (!first.ok()) return input_error(first.status());
    for (const std::string& line : *first) {
      fmt::print(a.flag("--json") ? stderr : stdout, "--execute would first {}\n", line);
    }
  }
  return exit_ok;
}

// plan ttl: the TTL instant is --now, or now in the table's timezone.
inline int run_plan_ttl(const ParsedArgs& a) {
  constexpr std::string_view command = "plan ttl";
  config::Properties props;
  if (auto stop = read_settings(command, a, config::ttl_from_properties, props)) return *stop;
  std::optional<InstantTime> now;
  if (auto stop = read_now(command, a, now)) return *stop;
  auto table = open_table(a.positional[0]);
  if (!table.ok()) return input_error(table.status());
  if (!now) now = InstantTime::from_epoch_ms(wall_clock_ms(), (*table)->metadata.timezone);
  auto report = plan_ttl_report(**table, props, *now, listing_progress::wanted());
  if (!report.ok()) return input_error(report.status());
  print_out(a.flag("--json") ? ttl_json(*report) : ttl_text(*report));
  return exit_ok;
}

// plan archive: no clock; the timeline decides.
inline int run_plan_archive(const ParsedArgs& a) {
  constexpr std::string_view command = "plan archive";
  config::Properties props;
  if (auto stop = read_settings(command, a, config::archive_from_properties, props)) return *stop;
  auto table = open_table(a.positional[0]);
  if (!table.ok()) return input_error(table.status());
  auto report = plan_archive_report(**table, props, listing_progress::wanted());
  if (!report.ok()) return input_error(report.status());
  print_out(a.flag("--json") ? archive_json(*report) : archive_text(*report));
  return exit_ok;
}

}  // namespace detail

inline int run_inspect(std::span<const std::string> args) {
  auto a = parse_args(args, {"--json"}, {"--as-of"});
  if (!a.ok()) return detail::usage_error("inspect", message_of(a.status()));
  if (a->help) {
    detail::print_out(std::string(kInspectHelp));
    return exit_ok;
  }
  if (a->positional.size() != 1) return detail::usage_error("inspect", "expected exactly one TABLE");
  std::optional<InstantTime> as_of;
  if (const std::string* t = a->last("--as-of")) {
    auto parsed = InstantTime::parse(*t);
    if (!parsed.ok()) return detail::usage_error("inspect", fmt::format("--as-of: {}", message_of(parsed.status())));
    as_of = *parsed;
  }
  auto table = open_table(a->positional[0]);
  if (!table.ok()) return detail::input_error(table.status());
  auto report = inspect(**table, as_of, listing_progress::wanted());
  if (!report.ok()) return detail::input_error(report.status());
  if (a->flag("--json")) {
    detail::print_json([&](json_writer& w) { write_inspect_json(w, *report); });
  } else {
    detail::print_out(inspect_text(*report));
  }
  return exit_ok;
}

inline int run_plan_command(std::span<const std::string> args) {
  if (args.empty()) {
    std::fputs(kPlanHelp.data(), stderr);
    return exit_bad_input;
  }
  if (args[0] == "-h" || args[0] == "--help") {
    detail::print_out(std::string(kPlanHelp));
    return exit_ok;
  }
  if (args[0] == "ttl") {
    auto a = parse_args(args.subspan(1), {"--json"}, {"--conf", "--props", "--now"});
    if (!a.ok()) return detail::usage_error("plan ttl", message_of(a.status()));
    if (a->help) {
      detail::print_out(std::string(kPlanTtlHelp));
      return exit_ok;
    }
    return detail::run_plan_ttl(*a);
  }
  if (args[0] == "archive") {
    auto a = parse_args(args.subspan(1), {"--json"}, {"--conf", "--props"});
    if (!a.ok()) return detail::usage_error("plan archive", message_of(a.status()));
    if (a->help) {
      detail::print_out(std::string(kPlanArchiveHelp));
      return exit_ok;
    }
    return detail::run_plan_archive(*a);
  }
  if (args[0] != "clean")
    return detail::usage_error("plan", fmt::format("unknown plan '{}' (expected: clean, ttl or archive)", args[0]));
  auto a = parse_args(args.subspan(1), {"--json"}, {"--conf", "--props", "--now"});
  if (!a.ok()) return detail::usage_error("plan clean", message_of(a.status()));
  if (a->help) {
    detail::print_out(std::string(kPlanCleanHelp));
    return exit_ok;
  }
  return detail::run_plan("plan clean", *a);
}

inline int run_clean(std::span<const std::string> args) {
  auto a =
      parse_args(args, {"--json", "--dry-run", "--execute", "--no-concurrent-writers"}, {"--conf", "--props", "--now"});
  if (!a.ok()) return detail::usage_error("clean", message_of(a.status()));
  if (a->help) {
    detail::print_out(std::string(kCleanHelp));
    return exit_ok;
  }
  if (!a->flag("--execute")) return detail::run_plan("clean", *a);
  if (a->flag("--dry-run")) return detail::usage_error("clean", "--dry-run and --execute contradict each other");
  config::Properties props;
  if (auto stop = detail::read_settings("clean", *a, config::from_properties, props)) return *stop;
  auto policy = config::from_properties(props);
  if (!policy.ok()) return detail::input_error(policy.status());
  std::optional<InstantTime> now_flag;
  if (auto stop = detail::read_now("clean", *a, now_flag)) return *stop;
  auto table = open_table(a->positional[0]);
  if (!table.ok()) return detail::input_error(table.status());
  auto lock_settings = hudi::lock_settings(props, detail::absolute_path_of(**table));
  if (!lock_settings.ok()) return detail::input_error(lock_settings.status());
  auto refuse = [&](const std::string& why) {
    fmt::print(stderr, "lakegc clean: refusing to clean {}: {}\n", a->positional[0], why);
    return exit_refused;
  };
  if (auto why = detail::execute_refusal(**table)) return refuse(*why);

  // Every change goes through a crash_storage: the crash tests set
  // LAKEGC_CRASH_AFTER_MUTATIONS=N to end the process after the N-th change.
  crash_storage<posix_storage> storage(*(*table)->storage, detail::crash_budget(), [] { std::_Exit(86); });
  // Plans carry the absolute path, as Hudi's do.
  auto journal = hudi::journal<crash_storage<posix_storage>>::open(storage, detail::absolute_path_of(**table));
  if (!journal.ok()) return detail::input_error(journal.status());

  std::optional<TableLock> lock;
  if (auto stop = detail::choose_lock(storage, *lock_settings, *a, refuse, lock)) return *stop;
  std::int64_t now = 0;
  if (auto stop = detail::now_in("clean", now_flag, **table, now)) return *stop;
  ExecuteOptions options;
  if (lock) options.lock = &*lock;
  CleanContext ctx;
  ctx.now_ms = now;
  // With the LAZY failed-writes policy Hudi's clean first rolls back the
  // failed writes whose heartbeat expired: the same rollback as `lakegc
  // rollback --execute` (tools/cli/rollback.hpp).
  auto rolled_back =
      rollback_cli::rollback_before_clean(*journal, storage, **table, props, lock ? &*lock : nullptr, now);
  if (!rolled_back.ok()) return detail::input_error(rolled_back.status());
  if (rolled_back->refusal) return refuse(*rolled_back->refusal + "; nothing was changed");
  // A clean that crashed while completing left a 0-byte completed file:
  // when a clean is due, Hudi's scheduling deletes it and schedules its plan
  // again, under the lock (hudi/empty_clean_repair.hpp); so does lakegc.
  auto repaired = detail::repair_empty_cleans(storage, *journal, *policy, props, (*table)->path,
                                              lock ? &*lock : nullptr, now, refuse);
  if (!repaired.ok()) return detail::input_error(repaired.status());
  if (std::holds_alternative<int>(*repaired)) return std::get<int>(*repaired);
  const hudi::EmptyCleanRepair& repair = std::get<hudi::EmptyCleanRepair>(*repaired);
  // The metadata table: checked before anything is deleted, written before
  // each clean completes (hudi/metadata_table/clean_update.hpp).
  std::vector<std::string> mdt_updated;
  // Metadata deltacommits Hudi wrote for a pending clean: (the clean, the
  // metadata table's rollback of it) before lakegc wrote them again.
  std::vector<std::pair<InstantTime, InstantTime>> mdt_rolled_back;
  std::optional<hudi::metadata_table::clean_record_inputs> mdt_inputs;
  const hudi::TableProperties& props_of_table = journal->properties();
  if (!hudi::metadata_table::metadata_partitions_to_update(props_of_table).empty()) {
    auto timeline = journal->load_timeline();
    if (!timeline.ok()) return detail::input_error(timeline.status());
    // A rollback just written is on the timeline the clean instant follows.
    auto now_md = rolled_back->done.empty() ? StatusOr<TableMetadata>((*table)->metadata) : journal->load();
    if (!now_md.ok()) return detail::input_error(now_md.status());
    const InstantTime floor = allocate_instant(*now_md, now);
    auto inputs =
        hudi::metadata_table::check_clean_update(storage, props_of_table, *timeline, (*table)->path, floor, props);
    if (!inputs.ok()) {
      return refuse(fmt::format("{}; nothing was deleted (run Hudi's cleaner)", message_of(inputs.status())));
    }
    mdt_inputs = std::move(*inputs);
    options.before_complete = [&](const InstantTime& t, const CompletedClean& m) -> Status {
      auto done = hudi::metadata_table::write_clean_deltacommit(storage, props_of_table, (*table)->path, t, m,
                                                                *mdt_inputs, detail::wall_clock_ms);
      if (!done.ok()) return done.status();
      if (done->rolled_back_by) mdt_rolled_back.emplace_back(t, *done->rolled_back_by);
      for (const std::string& p : done->partitions) {
        if (std::find(mdt_updated.begin(), mdt_updated.end(), p) == mdt_updated.end()) mdt_updated.push_back(p);
      }
      return Status();
    };
  }
  auto report = lakegc::run_clean(storage, *journal, *policy, ctx, options);
  if (!report.ok()) {
    const bool lock_failed = lock && absl::IsFailedPrecondition(report.status());
    fmt::print(stderr, "lakegc clean: {}\n", message_of(report.status()));
    return lock_failed ? exit_refused : exit_bad_input;
  }
  const std::string lock_text = detail::lock_text(lock);
  if (a->flag("--json")) {
    json_writer j;
    j.begin_object();
    j.key("table").value((*table)->path);
    j.key("lock").value(lock_text);
    j.key("metadata_table_partitions_updated").strings(mdt_updated);
    j.key("metadata_table_rollbacks").begin_array();
    for (const auto& [clean, rollback] : mdt_rolled_back) {
      j.begin_object();
      j.key("clean").value(clean.str());
      j.key("rollback_instant").value(rollback.str());
      j.end_object();
    }
    j.end_array();
    if (mdt_inputs && !mdt_inputs->stats_columns.empty()) {
      j.key("column_stats_columns").strings(mdt_inputs->stats_columns);
    }
    j.key("empty_cleans_repaired").strings(detail::instant_strings(repair.emptied));
    if (repair.replan) {
      j.key("replanned_clean").value(repair.replan->first.str());
    } else {
      j.key("replanned_clean").null();
    }
    j.key("failed_writes_rolled_back").begin_array();
    for (const hudi::RolledBack& d : rolled_back->done) {
      j.begin_object();
      j.key("instant").value(d.failed.commit_time);
      j.key("action").value(d.failed.action);
      j.key("rollback_instant").value(d.rollback_instant.str());
      j.key("files_deleted").value(d.tally.files_deleted);
      j.end_object();
    }
    j.end_array();
    write_json_fields(j, *report);
    j.end_object();
    detail::print_out(j.str());
  } else {
    std::string first;
    for (const InstantTime& t : repair.emptied) {
      first += fmt::format("repaired the 0-byte completed clean {} (a clean that crashed while completing): {}\n", t,
                           repair.replan && repair.replan->first == t ? "its plan is scheduled again, as Hudi does"
                                                                      : "its plan was empty, the clean is removed");
    }
    for (const hudi::RolledBack& d : rolled_back->done) {
      first += fmt::format("rolled back failed write {} {} first (LAZY) as rollback {}: {} file(s) deleted\n",
                           d.failed.action, d.failed.commit_time, d.rollback_instant, d.tally.files_deleted);
    }
    for (const auto& [clean, rollback] : mdt_rolled_back) {
      first += fmt::format(
          "metadata table: the deltacommit Hudi wrote for clean {} rolled back there as rollback {} and written "
          "again, as Hudi's metadata writer does\n",
          clean, rollback);
    }
    detail::print_out(fmt::format("{}{}lock: {}\n{}", first, to_text(*report), lock_text,
                                  mdt_updated.empty()
                                      ? std::string()
                                      : fmt::format("metadata table: {} updated\n", fmt::join(mdt_updated, ", "))));
  }
  return exit_ok;
}

inline int run_advise(std::span<const std::string> args) {
  auto a = parse_args(args, {"--json"}, {"--longest-query", "--recovery", "--conf", "--props"});
  if (!a.ok()) return detail::usage_error("advise", message_of(a.status()));
  if (a->help) {
    detail::print_out(std::string(kAdviseHelp));
    return exit_ok;
  }
  if (a->positional.size() != 1) return detail::usage_error("advise", "expected exactly one TABLE");
  AdviseOptions o;
  const std::string* q = a->last("--longest-query");
  if (q == nullptr) return detail::usage_error("advise", "--longest-query DURATION is required (e.g. 5h)");
  auto longest = parse_duration(*q, "--longest-query");
  if (!longest.ok()) return detail::usage_error("advise", message_of(longest.status()));
  o.longest_query = *longest;
  if (const std::string* rec = a->last("--recovery")) {
    auto d = parse_duration(*rec, "--recovery");
    if (!d.ok()) return detail::usage_error("advise", message_of(d.status()));
    o.recovery = *d;
  }
  std::optional<config::Properties> current;
  if (!a->all("--props").empty() || !a->all("--conf").empty()) {
    auto props = detail::gather_properties(*a);
    if (!props.ok()) return detail::input_error(props.status());
    if (auto policy = config::from_properties(*props); !policy.ok()) return detail::input_error(policy.status());
    current = std::move(*props);
  }
  auto table = open_table(a->positional[0]);
  if (!table.ok()) return detail::input_error(table.status());
  auto report = advise_report(**table, o, current, detail::wall_clock_ms(), listing_progress::wanted());
  if (!report.ok()) return detail::input_error(report.status());
  detail::print_out(a->flag("--json") ? advise_json(*report) : advise_text(*report));
  return exit_ok;
}

/// The whole tool: `args` are the words after the program name.
inline int run(std::span<const std::string> args) {
  if (args.empty()) {
    std::fputs(kMainHelp.data(), stderr);
    return exit_bad_input;
  }
  const std::string& cmd = args[0];
  const auto rest = args.subspan(1);
  if (cmd == "-h" || cmd == "--help" || cmd == "help") {
    detail::print_out(std::string(kMainHelp));
    return exit_ok;
  }
  if (cmd == "inspect") return run_inspect(rest);
  if (cmd == "plan") return run_plan_command(rest);
  if (cmd == "clean") return run_clean(rest);
  if (cmd == "orphans") return run_orphans(rest);
  if (cmd == "rollback") return run_rollback(rest);
  if (cmd == "advise") return run_advise(rest);
  if (cmd == "ttl") return run_ttl(rest);
  if (cmd == "archive") return run_archive(rest);
  fmt::print(stderr, "lakegc: unknown command '{}'\nsee `lakegc --help`\n", cmd);
  return exit_bad_input;
}

}  // namespace lakegc::cli
