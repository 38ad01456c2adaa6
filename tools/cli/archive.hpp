// File: tools/cli/archive.hpp
// -----------------------------------------------------------------------------
// `lakegc archive TABLE [--execute]`: Hudi's timeline archival. A dry run
// prints the plan (as `lakegc plan archive`); --execute carries it out under
// the table lock: on a layout-1 table as TimelineArchiverV1 does
// (hudi/archive_execute.hpp: the archived instants' files appended as
// HoodieArchivedMetaEntry records to a new archive log file), on a layout-2
// table as TimelineArchiverV2 does (archive_lsm.hpp,
// hudi/archive_execute_lsm.hpp: one record per instant in a new data file of
// the LSM history, its manifest and version file, then the history's
// compaction and clean); then the instant files are deleted from the active
// timeline, pending states first.
//
// Refused before any change (exit 1): what `clean --execute` refuses (no
// lock and no --no-concurrent-writers, a table version past 9, a bootstrap
// table), a plan with an undecidable bound (the metadata table's timeline or
// the last clean's plan unreadable: Hudi's run fails there), an instant
// whose content cannot be converted (layout 1), and an LSM history lakegc
// cannot read (layout 2: a data file outside its Parquet subset, a damaged
// manifest; named).
//
// JSON shape (--execute, layout 1; layout 2: archive_lsm.hpp):
//   {"table", "lock", "executed": bool, "archived": [{"requested", "action", "state"}],
//    "resumed": ["<instant>", ...],   (archived by a crashed run, its files deleted now)
//    "entries": [{"file", "requested", "action", "state"}], "entries_written": N,
//    "entries_already_archived": N, "archive_files_written": [...], "markers_deleted": [...],
//    "instant_files_deleted": [...], "plan": {<plan archive --json fields>}}
#pragma once

#include <algorithm>
#include <memory>
#include <vector>
#include <optional>
#include <span>
#include <string>

#include "lakegc/core/json_writer.hpp"
#include "archive_lsm.hpp"
#include "lakegc/hudi/archive_execute.hpp"
#include "plan_archive.hpp"
#include "table_command.hpp"

namespace lakegc::cli {

inline constexpr std::string_view kArchiveHelp =
    R"(usage: lakegc archive TABLE [--execute] [--conf KEY=VALUE ...] [--props FILE] [--json]
                      [--no-concurrent-writers]

Runs Hudi's timeline archival. Without --execute, prints the plan (the instants
Hudi's archiver would move out of the active timeline now, as `lakegc plan
archive` does). With --execute, does what Hudi 1.2's archiver does, under the
table lock:
  layout 1 (table version 6 and older; TimelineArchiverV1): every file of each
    archived instant (requested, inflight, completed) becomes a
    HoodieArchivedMetaEntry in a new archive log file
    .hoodie/archived/.commits_.archive.N_1-0-1 (hoodie.archivelog.folder);
  layout 2 (table versions 8 and 9; TimelineArchiverV2): each archived instant
    becomes one HoodieLSMTimelineInstant record (its completed file and plan as
    they are) in a new Parquet data file <first>_<last>_0.parquet of the LSM
    history .hoodie/timeline/history/, with a new manifest and _version_;
then the instants' leftover markers are deleted, and their files removed from
the active timeline: requested and inflight files first, completed ones oldest
first. Layout 2 then compacts the history as Hudi does: a layer with
hoodie.timeline.compaction.batch.size (10) files is merged into one file of the
next layer, and snapshots beyond hoodie.timeline.manifest.retained.versions (3)
are cleaned. Nothing is written to the metadata table (Hudi writes nothing
there for archival either). A rerun after a crash finishes the job without
archiving an instant twice.

Refused (exit 1, nothing changed): a metadata table or last clean plan lakegc
cannot read (Hudi's run fails there), an instant whose content lakegc cannot
convert (named), an LSM history lakegc cannot read (a data file outside the
Parquet subset it reads, a damaged manifest: named), no lock configured without
--no-concurrent-writers, table versions past 9, bootstrap tables.

options:
  --execute               archive (default: print the plan)
  --no-concurrent-writers no writer runs on the table now: go without a lock
  --props FILE, --conf KEY=VALUE
                          hoodie.keep.*, hoodie.archive.*, hoodie.commits.archival.batch,
                          hoodie.timeline.compaction.*, hoodie.timeline.manifest.retained.versions
                          (`lakegc plan archive --help`) and hoodie.write.lock.* keys
  --json                  machine-readable output (shape in tools/cli/archive.hpp)
  -h, --help              this help

exit codes: 0 success, 1 refused, 2 bad usage or bad input
)";

namespace detail {

inline std::string archive_execution_text(const std::vector<Instant>& resumed, const hudi::ArchiveExecution& e,
                                          const std::string& lock) {
  std::string out;
  for (const Instant& i : resumed) {
    appendln(out, "resumed: {} {} was archived by a run that stopped before deleting all its files", i.requested,
             to_string(i.action));
  }
  if (e.entries.empty()) {
    appendln(out, "nothing archived: the plan archives no instant");
  } else {
    appendln(out, "archived {} instant file(s): {} entr{} written to {}{}", e.entries.size(), e.entries_written,
             e.entries_written == 1 ? "y" : "ies",
             e.archive_files_written.empty() ? std::string("no new file")
                                             : fmt::format("{}", fmt::join(e.archive_files_written, ", ")),
             e.entries_already_archived == 0
                 ? std::string()
                 : fmt::format(" ({} already in the archive from an earlier run)", e.entries_already_archived));
    append_active_deletions(out, e.markers_deleted, e.instant_files_deleted);
  }
  appendln(out, "lock: {}", lock);
  return out;
}

inline std::string archive_execution_json(const ArchiveReport& r, const std::vector<Instant>& resumed,
                                          const hudi::ArchiveExecution& e, const std::string& lock) {
  json_writer j;
  j.begin_object();
  j.key("table").value(r.path);
  j.key("lock").value(lock);
  j.key("executed").value(!e.entries.empty());
  write_archived_and_resumed(j, r.plan, resumed);
  j.key("entries").begin_array();
  for (const hudi::ArchiveEntry& x : e.entries) {
    j.begin_object();
    j.key("file").value(x.file);
    j.key("requested").value(x.requested.str());
    j.key("action").value(to_string(x.action));
    j.key("state").value(to_string(x.state));
    j.end_object();
  }
  j.end_array();
  j.key("entries_written").value(static_cast<std::uint64_t>(e.entries_written));
  j.key("entries_already_archived").value(static_cast<std::uint64_t>(e.entries_already_archived));
  j.key("archive_files_written").strings(e.archive_files_written);
  j.key("markers_deleted").strings(e.markers_deleted);
  j.key("instant_files_deleted").strings(e.instant_files_deleted);
  j.key("plan").begin_object();
  write_archive_fields(j, r);
  j.end_object();
  j.end_object();
  return j.str();
}

// Bounds the plan could not decide: Hudi's run fails where lakegc keeps everything.
inline std::optional<std::string> undecided(const ArchivePlan& p) {
  for (const auto& b : p.bounds) {
    if (b.rule == ArchiveStop::metadata_unreadable || b.rule == ArchiveStop::clean_plan_unreadable) {
      return fmt::format("the plan cannot decide: {} ({}); Hudi's archiver fails on such a table", to_string(b.rule),
                         b.why);
    }
  }
  return std::nullopt;
}

}  // namespace detail

inline int run_archive(std::span<const std::string> args) {
  constexpr std::string_view command = "archive";
  auto a = parse_args(args, {"--json", "--execute", "--no-concurrent-writers"}, {"--conf", "--props"});
  if (!a.ok()) return detail::usage_error(command, message_of(a.status()));
  if (a->help) {
    detail::print_out(std::string(kArchiveHelp));
    return exit_ok;
  }
  config::Properties props;
  if (auto stop = detail::read_settings(command, *a, config::archive_from_properties, props)) return *stop;
  auto table = open_table(a->positional[0]);
  if (!table.ok()) return detail::input_error(table.status());
  if (!a->flag("--execute")) {
    auto report = plan_archive_report(**table, props, listing_progress::wanted());
    if (!report.ok()) return detail::input_error(report.status());
    detail::print_out(a->flag("--json") ? archive_json(*report) : archive_text(*report));
    return exit_ok;
  }

  auto refuse = [&](std::string_view why) {
    fmt::print(stderr, "lakegc archive: refusing to archive {}: {}\n", a->positional[0], why);
    return exit_refused;
  };
  if (auto why = detail::execute_refusal(**table)) return refuse(*why);
  const hudi::TableProperties& tprops = (*table)->journal->properties();
  auto settings = config::archive_from_properties(props);
  if (!settings.ok()) return detail::input_error(settings.status());
  std::unique_ptr<detail::LockedTable> locked;
  if (auto stop = detail::lock_table(**table, props, *a, refuse, locked)) return *stop;
  auto& storage = locked->storage;
  // Under the lock: the plan on the timeline as it is now.
  auto report = plan_archive_report(**table, props, listing_progress::wanted());
  if (!report.ok()) return detail::input_error(report.status());
  if (auto why = detail::undecided(report->plan)) return refuse(*why);
  if (tprops.layout == TimelineLayout::v2) {
    return detail::execute_lsm_archive(
        storage, tprops, **table, *report, *settings, a->flag("--json"), refuse,
        [&] { return locked->hold->release(); }, detail::lock_text(locked->lock));
  }
  const auto where = hudi::TableLocation::of((*table)->path);
  // A crashed run's instants first: archived, their files not all deleted.
  auto archive = hudi::read_archived_timeline(storage, tprops);
  if (!archive.ok()) return detail::input_error(archive.status());
  const std::vector<Instant> resumed = hudi::interrupted_archival(*archive, (*table)->metadata.timeline);
  std::vector<Instant> instants = resumed;
  for (const Instant& i : report->plan.archived) {
    if (std::none_of(resumed.begin(), resumed.end(), [&](const Instant& r) { return r.requested == i.requested; }))
      instants.push_back(i);
  }
  std::sort(instants.begin(), instants.end(),
            [](const Instant& x, const Instant& y) { return x.requested < y.requested; });
  // Every entry converted before anything changes.
  auto entries = hudi::archive_entries(storage, tprops, where, instants);
  if (!entries.ok()) return refuse(fmt::format("{}; nothing was changed", message_of(entries.status())));
  hudi::ArchiveWriteOptions o;
  o.batch = settings->archival_batch;
  auto done = hudi::execute_archive(storage, tprops, where, std::move(*entries), o);
  if (!done.ok()) return detail::input_error(done.status());
  if (Status st = locked->hold->release(); !st.ok()) return detail::input_error(st);
  const std::string lock_text = detail::lock_text(locked->lock);
  if (a->flag("--json")) {
    detail::print_out(detail::archive_execution_json(*report, resumed, *done, lock_text));
  } else {
    detail::print_out(archive_text(*report, true) + '\n' + detail::archive_execution_text(resumed, *done, lock_text));
  }
  return exit_ok;
}

}  // namespace lakegc::cli
