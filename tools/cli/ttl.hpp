// File: tools/cli/ttl.hpp
// -----------------------------------------------------------------------------
// `lakegc ttl TABLE [--execute]`: Hudi's partition TTL. A dry run prints the
// plan (as `lakegc plan ttl`); --execute writes the replacecommit
// DELETE_PARTITION Hudi's TTL service writes (hudi/ttl_execute.hpp), under
// the table lock, and deletes nothing: the cleaner removes the replaced file
// groups and the emptied partitions later.
//
// Refused before any change (exit 1): what `clean --execute` refuses (no
// lock and no --no-concurrent-writers, a table version past 9, a bootstrap
// table), a metadata table lakegc cannot keep in step (record_index,
// secondary or expression indexes: hudi/metadata_table/delete_partition_update.hpp),
// and a pending DELETE_PARTITION replacecommit with later instants (Hudi's
// writers roll it back). With a metadata table, its deltacommit for the
// replacecommit is written before the replacecommit completes.
//
// JSON shape (--execute):
//   {"table", "lock", "executed": bool, "resumed": bool, "instant", "completion": <instant> | null,
//    "unchanged_because": [...], "partition_to_replace_file_ids": {"<partition>": ["<file id>", ...]},
//    "files_written": [...], "metadata_table_partitions_updated": [...], "plan": {<plan ttl --json fields>}}
#pragma once

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "lakegc/exec/clean_service.hpp"
#include "lakegc/exec/table_lock.hpp"
#include "lakegc/hudi/metadata_table/delete_partition_update.hpp"
#include "lakegc/hudi/ttl_execute.hpp"
#include "lakegc/storage/crash_storage.hpp"
#include "plan_ttl.hpp"
#include "table_command.hpp"

namespace lakegc::cli {

inline constexpr std::string_view kTtlHelp =
    R"(usage: lakegc ttl TABLE [--execute] [--conf KEY=VALUE ...] [--props FILE] [--now INSTANT]
                  [--json] [--no-concurrent-writers]

Runs Hudi's partition TTL. Without --execute, prints the plan (the partitions
that expired, as `lakegc plan ttl` does). With --execute, writes the
replacecommit Hudi's TTL service writes (operation DELETE_PARTITION: requested,
inflight, completed) at the TTL instant, replacing every file group of each
expired partition, under the table lock. TTL deletes no file: the cleaner
(`lakegc clean --execute` or Hudi's) removes the replaced files, then the
emptied partitions. Nothing is written when nothing expired, or when a pending
compaction or clustering touches an expired partition (Hudi's run does nothing
then either).

With a metadata table, its deltacommit for the replacecommit (the partition
list; partition_stats of the expired partitions deleted) is written first, as
Hudi's commit does.

Refused (nothing written): metadata tables with record_index, a secondary or an
expression index (their records need the dropped rows: run Hudi's TTL), no
lock configured without --no-concurrent-writers, table versions past 9,
bootstrap tables, and a pending DELETE_PARTITION replacecommit followed by other
instants. A run that crashed leaves a pending replacecommit as the newest
instant: the next run completes it.

options:
  --execute               write the replacecommit (default: print the plan)
  --no-concurrent-writers no writer runs on the table now: go without a lock
  --props FILE, --conf KEY=VALUE
                          hoodie.partition.ttl.* (`lakegc plan ttl --help`) and
                          hoodie.write.lock.* keys
  --now INSTANT           the TTL instant (the replacecommit's time), after every
                          instant of the timeline; default: now
  --json                  machine-readable output (shape in tools/cli/ttl.hpp)
  -h, --help              this help

exit codes: 0 success, 1 refused, 2 bad usage or bad input
)";

namespace detail {

inline std::string ttl_execution_text(const hudi::TtlExecution& e, const std::string& lock,
                                      const std::vector<std::string>& mdt_updated) {
  std::string out;
  if (!e.unchanged_because.empty()) {
    for (const auto& why : e.unchanged_because) appendln(out, "nothing written: {}", why);
  } else {
    std::size_t groups = 0;
    for (const auto& [p, ids] : e.commit.partition_to_replace_file_ids) groups += ids.size();
    appendln(out, "{}replacecommit {} (DELETE_PARTITION) completed{}: {} file group{} replaced in {} partition{}",
             e.resumed ? "resumed: " : "", e.instant,
             e.completion ? fmt::format(" at {}", *e.completion) : std::string(), groups, groups == 1 ? "" : "s",
             e.commit.partition_to_replace_file_ids.size(),
             e.commit.partition_to_replace_file_ids.size() == 1 ? "" : "s");
    for (const auto& [p, ids] : e.commit.partition_to_replace_file_ids) {
      appendln(out, "  {}: {}", partition_label(p),
               ids.empty() ? std::string("(no file group)") : fmt::format("{}", fmt::join(ids, ", ")));
    }
    appendln(out, "no file was deleted: the cleaner removes the replaced file groups, then the emptied partitions");
    if (!mdt_updated.empty()) appendln(out, "metadata table: {} updated", fmt::join(mdt_updated, ", "));
  }
  appendln(out, "lock: {}", lock);
  return out;
}

inline std::string ttl_execution_json(const std::string& table, const hudi::TtlExecution& e, const TtlPlan& plan,
                                      const std::string& lock, const std::vector<std::string>& mdt_updated) {
  json_writer j;
  j.begin_object();
  j.key("table").value(table);
  j.key("lock").value(lock);
  j.key("executed").value(e.unchanged_because.empty());
  j.key("resumed").value(e.resumed);
  j.key("instant").value(e.instant.str());
  j.key("completion").value(e.completion ? std::optional<std::string>(e.completion->str()) : std::nullopt);
  j.key("unchanged_because").strings(e.unchanged_because);
  j.key("partition_to_replace_file_ids").begin_object();
  for (const auto& [p, ids] : e.commit.partition_to_replace_file_ids) j.key(p).strings(ids);
  j.end_object();
  j.key("files_written").strings(e.files_written);
  j.key("metadata_table_partitions_updated").strings(mdt_updated);
  j.key("plan").begin_object();
  write_ttl_fields(j, plan);
  j.end_object();
  j.end_object();
  return j.str();
}

}  // namespace detail

inline int run_ttl(std::span<const std::string> args) {
  constexpr std::string_view command = "ttl";
  auto a = parse_args(args, {"--json", "--execute", "--no-concurrent-writers"}, {"--conf", "--props", "--now"});
  if (!a.ok()) return detail::usage_error(command, message_of(a.status()));
  if (a->help) {
    detail::print_out(std::string(kTtlHelp));
    return exit_ok;
  }
  config::Properties props;
  if (auto stop = detail::read_settings(command, *a, config::ttl_from_properties, props)) return *stop;
  std::optional<InstantTime> now;
  if (auto stop = detail::read_now(command, *a, now)) return *stop;
  auto table = open_table(a->positional[0]);
  if (!table.ok()) return detail::input_error(table.status());
  if (!a->flag("--execute")) {
    if (!now) now = InstantTime::from_epoch_ms(detail::wall_clock_ms(), (*table)->metadata.timezone);
    auto report = plan_ttl_report(**table, props, *now, listing_progress::wanted());
    if (!report.ok()) return detail::input_error(report.status());
    detail::print_out(a->flag("--json") ? ttl_json(*report) : ttl_text(*report));
    return exit_ok;
  }

  auto refuse = [&](std::string_view why) {
    fmt::print(stderr, "lakegc ttl: refusing to run TTL on {}: {}\n", a->positional[0], why);
    return exit_refused;
  };
  if (auto why = detail::execute_refusal(**table)) return refuse(*why);
  const hudi::TableProperties& tprops = (*table)->journal->properties();
  std::unique_ptr<detail::LockedTable> locked;
  if (auto stop = detail::lock_table(**table, props, *a, refuse, locked)) return *stop;
  auto& storage = locked->storage;
  const TableMetadata& meta = (*table)->metadata;
  auto resume = hudi::resume_instant(storage, tprops, meta);
  if (!resume.ok()) return refuse(message_of(resume.status()));
  InstantTime instant;
  if (*resume) {
    instant = **resume;
  } else if (now) {
    if (const Instant* done = meta.timeline.find(*now);
        done != nullptr && done->is_completed() && done->action == Action::replacecommit) {
      // A rerun of a run that completed (e.g. one that crashed after its last change).
      const std::string why = fmt::format("replacecommit {} is already completed: nothing to do", *now);
      if (a->flag("--json")) {
        json_writer j;
        j.begin_object().key("table").value((*table)->path).key("executed").value(false);
        j.key("unchanged_because").strings({why}).end_object();
        detail::print_out(j.str());
      } else {
        detail::print_out(why + '\n');
      }
      return exit_ok;
    }
    if (!meta.timeline.empty() && !(meta.timeline.instants().back().requested < *now)) {
      return detail::usage_error(command, fmt::format("--now {}: the TTL instant must be after the newest instant {}",
                                                      *now, meta.timeline.instants().back().requested));
    }
    instant = *now;
  } else {
    instant = allocate_instant(meta, detail::wall_clock_ms());
  }
  TableView view;
  auto report = plan_ttl_report(**table, props, instant, listing_progress::wanted(), &view);
  if (!report.ok()) return detail::input_error(report.status());
  auto schema = hudi::latest_write_schema(storage, tprops, meta.timeline);
  if (!schema.ok()) return detail::input_error(schema.status());
  // The metadata table: checked before anything is written, its deltacommit
  // written before the replacecommit completes
  // (hudi/metadata_table/delete_partition_update.hpp).
  std::vector<std::string> mdt_updated;
  hudi::BeforeReplaceCompletes before_complete;
  std::optional<hudi::metadata_table::delete_partition_inputs> mdt_inputs;
  if (!hudi::metadata_table::metadata_partitions_to_update(tprops).empty() && report->plan.noop_reasons.empty() &&
      !report->plan.expired.empty()) {
    auto inputs = hudi::metadata_table::check_delete_partition_update(storage, tprops, meta.timeline, (*table)->path,
                                                                      instant, *schema, props);
    if (!inputs.ok()) return refuse(fmt::format("{}; nothing was written", message_of(inputs.status())));
    mdt_inputs = std::move(*inputs);
    before_complete = [&](const InstantTime& t, const hudi::DeletePartitionCommit& c) -> Status {
      std::vector<std::string> dropped;
      for (const auto& [p, ids] : c.partition_to_replace_file_ids) dropped.push_back(p);
      auto w = hudi::metadata_table::write_delete_partition_deltacommit(storage, tprops, (*table)->path, t, dropped,
                                                                        *mdt_inputs, detail::wall_clock_ms);
      if (!w.ok()) return w.status();
      mdt_updated = w->partitions;
      return Status();
    };
  }
  auto done = hudi::execute_ttl(storage, tprops, meta, view, report->plan, std::move(*schema), detail::wall_clock_ms,
                                before_complete);
  if (!done.ok()) return detail::input_error(done.status());
  if (Status st = locked->hold->release(); !st.ok()) return detail::input_error(st);
  const std::string lock_text = detail::lock_text(locked->lock);
  if (a->flag("--json")) {
    detail::print_out(detail::ttl_execution_json((*table)->path, *done, report->plan, lock_text, mdt_updated));
  } else {
    detail::print_out(ttl_text(*report, "executed") + '\n' + detail::ttl_execution_text(*done, lock_text, mdt_updated));
  }
  return exit_ok;
}

}  // namespace lakegc::cli
