// File: tools/cli/archive_lsm.hpp
// -----------------------------------------------------------------------------
// `lakegc archive --execute` on a layout-2 table (table versions 8 and 9):
// the plan carried out as Hudi 1.2's TimelineArchiverV2 does
// (hudi/archive_execute_lsm.hpp), with its text and JSON output.
//
// JSON shape (--execute, layout 2):
//   {"table", "lock", "executed": bool, "layout": 2,
//    "archived": [{"requested", "action", "state"}],   (the plan's)
//    "resumed": ["<instant>", ...],   (archived by a crashed run, its files deleted now)
//    "records": [{"instant_time", "completion_time", "action", "metadata_bytes", "plan_bytes"}],
//    "records_written": N, "records_already_archived": N,
//    "lsm": {"data_file": "<name>" | null, "data_file_already_committed": bool,
//            "compactions": [{"sources": [...], "target"}], "manifests_written": [...],
//            "version_file_restored": bool, "cleaned": [...]},
//    "markers_deleted": [...], "instant_files_deleted": [...],
//    "plan": {<plan archive --json fields>}}
#pragma once

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "lakegc/core/json_writer.hpp"
#include "lakegc/hudi/archive_execute_lsm.hpp"
#include "plan_archive.hpp"
#include "table_command.hpp"
#include "text.hpp"

namespace lakegc::cli::detail {

inline hudi::LsmWriterOptions lsm_writer_options(const ArchiveSettings& s) {
  hudi::LsmWriterOptions o;
  o.compaction_batch = s.timeline_compaction_batch;
  o.compaction_max_bytes = s.timeline_compaction_max_bytes;
  o.manifest_retained_versions = s.timeline_manifest_retained_versions;
  return o;
}

inline std::string lsm_execution_text(const std::vector<Instant>& resumed, const hudi::LsmArchiveExecution& e,
                                      const std::string& history, const std::string& lock) {
  std::string out;
  for (const Instant& i : resumed) {
    appendln(out, "resumed: {} {} was archived by a run that stopped before deleting all its files", i.requested,
             to_string(i.action));
  }
  const hudi::LsmChanges& l = e.lsm;
  if (e.actions.empty()) {
    appendln(out, "nothing archived: the plan archives no instant");
  } else {
    appendln(out, "archived {} instant(s) into the LSM history {}: {} record(s) written{}", e.actions.size(), history,
             e.records_written,
             e.records_already_archived == 0
                 ? std::string()
                 : fmt::format(" ({} already there from an earlier run)", e.records_already_archived));
    if (l.data_file) {
      appendln(out, "  data file {}{}", *l.data_file,
               l.data_file_already_committed ? " (already in the latest manifest)" : "");
    }
    append_active_deletions(out, e.markers_deleted, e.instant_files_deleted);
  }
  for (const auto& c : l.compactions) {
    appendln(out, "LSM compaction: {} file(s) -> {}", c.sources.size(), c.target);
  }
  if (!l.manifests_written.empty()) {
    appendln(out, "manifests written: {}; _version_ points at the last", fmt::join(l.manifests_written, ", "));
  }
  if (l.version_file_restored) appendln(out, "_version_ written again (a crashed run had deleted it)");
  if (!l.cleaned.empty()) appendln(out, "LSM clean deleted: {}", fmt::join(l.cleaned, ", "));
  appendln(out, "lock: {}", lock);
  return out;
}

inline std::string lsm_execution_json(const ArchiveReport& r, const std::vector<Instant>& resumed,
                                      const hudi::LsmArchiveExecution& e, const std::string& lock) {
  json_writer j;
  j.begin_object();
  j.key("table").value(r.path);
  j.key("lock").value(lock);
  j.key("executed").value(!e.actions.empty());
  j.key("layout").value(std::uint64_t{2});
  write_archived_and_resumed(j, r.plan, resumed);
  j.key("records").begin_array();
  for (const hudi::LsmArchiveAction& a : e.actions) {
    const hudi::lsm_instant& x = a.record;
    j.begin_object();
    j.key("instant_time").value(x.instant_time);
    j.key("completion_time").value(x.completion_time.value_or(""));
    j.key("action").value(x.action);
    j.key("metadata_bytes");
    if (x.metadata) {
      j.value(static_cast<std::uint64_t>(x.metadata->size()));
    } else {
      j.null();
    }
    j.key("plan_bytes");
    if (x.plan) {
      j.value(static_cast<std::uint64_t>(x.plan->size()));
    } else {
      j.null();
    }
    j.end_object();
  }
  j.end_array();
  j.key("records_written").value(static_cast<std::uint64_t>(e.records_written));
  j.key("records_already_archived").value(static_cast<std::uint64_t>(e.records_already_archived));
  const hudi::LsmChanges& l = e.lsm;
  j.key("lsm").begin_object();
  j.key("data_file");
  if (l.data_file) {
    j.value(*l.data_file);
  } else {
    j.null();
  }
  j.key("data_file_already_committed").value(l.data_file_already_committed);
  j.key("compactions").begin_array();
  for (const auto& c : l.compactions) {
    j.begin_object();
    j.key("sources").strings(c.sources);
    j.key("target").value(c.target);
    j.end_object();
  }
  j.end_array();
  j.key("manifests_written").strings(l.manifests_written);
  j.key("version_file_restored").value(l.version_file_restored);
  j.key("cleaned").strings(l.cleaned);
  j.end_object();
  j.key("markers_deleted").strings(e.markers_deleted);
  j.key("instant_files_deleted").strings(e.instant_files_deleted);
  j.key("plan").begin_object();
  write_archive_fields(j, r);
  j.end_object();
  j.end_object();
  return j.str();
}

/// Layout 2 under the lock: the crashed run's instants and the plan's,
/// archived into the LSM history. Returns the exit code.
template <typename Storage, typename Refuse>
int execute_lsm_archive(Storage& storage, const hudi::TableProperties& tprops, const Table& table,
                        const ArchiveReport& report, const ArchiveSettings& settings, bool json, Refuse refuse,
                        const std::function<Status()>& release, const std::string& lock_text) {
  const auto where = hudi::TableLocation::of(table.path);
  auto archive = hudi::read_lsm_timeline(storage, tprops, where);
  if (!archive.ok()) {
    return refuse(
        fmt::format("the LSM history cannot be read ({}); nothing was changed", message_of(archive.status())));
  }
  const std::vector<Instant> resumed = hudi::interrupted_lsm_archival(*archive, table.metadata.timeline);
  std::vector<Instant> instants = resumed;
  for (const Instant& i : report.plan.archived) {
    if (std::none_of(resumed.begin(), resumed.end(), [&](const Instant& r) { return r.requested == i.requested; }))
      instants.push_back(i);
  }
  std::sort(instants.begin(), instants.end(),
            [](const Instant& x, const Instant& y) { return x.requested < y.requested; });
  auto actions = hudi::lsm_archive_actions(storage, tprops, where, instants);
  if (!actions.ok()) return refuse(fmt::format("{}; nothing was changed", message_of(actions.status())));
  auto done = hudi::execute_lsm_archive(storage, tprops, where, std::move(*actions), lsm_writer_options(settings));
  if (!done.ok()) return input_error(done.status());
  if (Status st = release(); !st.ok()) return input_error(st);
  if (json) {
    print_out(lsm_execution_json(report, resumed, *done, lock_text));
  } else {
    const auto folder = hudi::lsm_history_folder(tprops);
    print_out(archive_text(report, true) + '\n' +
              lsm_execution_text(resumed, *done, folder.ok() ? *folder : std::string("?"), lock_text));
  }
  return exit_ok;
}

}  // namespace lakegc::cli::detail
