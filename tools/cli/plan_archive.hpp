// File: tools/cli/plan_archive.hpp
// -----------------------------------------------------------------------------
// `lakegc plan archive`: the instants Hudi's timeline archiver would move out
// of the active timeline now, under a user's hoodie.keep.* / hoodie.archive.*
// keys (and the cleaner's, which raise the keep counts), and for every
// instant the count rule alone would archive but that stays, why. Read-only:
// `lakegc archive --execute` (archive.hpp) carries the plan out.
//
// Besides the timeline it reads what Hudi's archiver reads: the last
// completed clean's plan (`.clean.requested`), the metadata table's timeline
// (`.hoodie/metadata/.hoodie/`) for its latest compaction, layout-1 instant
// files' modification times, and the file listing (lakegc's own bound:
// replaced file groups with files still on storage).
//
// JSON shape (`archived` compares with `tests/interop/hudi plan-archive`):
//   {"table": "<path>", "layout": 1 | 2, "table_type": "COPY_ON_WRITE" | "MERGE_ON_READ",
//    "keep_min_commits": N, "keep_max_commits": N,          (configured)
//    "min_commits_to_keep": N, "max_commits_to_keep": N,    (after ArchivalUtils' adjustment)
//    "cleaner_earliest_commit_to_retain": "<instant>" | null, "completed_commits": N,
//    "noop_reasons": [...],
//    "archived": [{"requested", "action", "state"}],        (requested-time order)
//    "kept": [{"requested", "action", "state", "reasons": ["pending_write", ...]}],
//    "bounds": [{"rule", "instant": "<instant>" | null, "why"}], "notes": [...]}
#pragma once

#include <algorithm>
#include <optional>
#include <string>

#include "lakegc/core/json_writer.hpp"
#include "lakegc/hudi/metadata_codec.hpp"
#include "lakegc/hudi/subfolder_storage.hpp"
#include "lakegc/plan/plan_archive.hpp"
#include "lakegc/policy/archive_config.hpp"
#include "table.hpp"
#include "text.hpp"

namespace lakegc::cli {

inline constexpr std::string_view kPlanArchiveHelp =
    R"(usage: lakegc plan archive TABLE [--conf KEY=VALUE ...] [--props FILE] [--json]

Plans Hudi's timeline archival and prints the instants it would move out of the
active timeline now, the keep counts after the cleaner's adjustment, the bounds
in force, and every instant the count rule alone would archive but that stays,
with the reason. Nothing is changed (`lakegc archive --execute` archives).

The settings come from Hudi's keys, as you pass them to Spark:
  hoodie.keep.min.commits=20, hoodie.keep.max.commits=30
  hoodie.archive.beyond.savepoint=false
  hoodie.archive.limit.instants, hoodie.archive.block.on.latest.clean.ectr (layout 1)
  hoodie.commits.archival.batch=10 (layout 1, writing only)
  hoodie.timeline.compaction.batch.size=10, hoodie.timeline.compaction.target.file.max.bytes,
  hoodie.timeline.manifest.retained.versions=3 (layout 2's LSM history, writing only)
  hoodie.compact.inline.trigger.strategy=NUM_COMMITS, hoodie.compact.inline.max.delta.commits=5
  hoodie.metadata.enable=true, hoodie.table.services.enabled=true
  hoodie.clean.policy and its retained count (archival keeps what the cleaner needs)
An unknown hoodie.keep.*, hoodie.archive.* or hoodie.clean* key is an error;
other keys are ignored.

options:
  --props FILE       a Java properties file; may be repeated, later files win
  --conf KEY=VALUE   one setting; may be repeated; wins over --props
  --json             machine-readable output (shape in tools/cli/plan_archive.hpp)
  -h, --help         this help

exit codes: 0 success, 2 bad usage or bad input (also where Hudi's run fails)
)";

struct ArchiveReport {
  std::string path;
  bool merge_on_read = false;
  ArchivePlan plan;
  ArchiveSettings settings;
};

namespace detail {

/// The active-timeline side of an executed archival, as both layouts'
/// `archive --execute` print it: markers removed, then the instant files.
inline void append_active_deletions(std::string& out, const std::vector<std::string>& markers_deleted,
                                    const std::vector<std::string>& instant_files_deleted) {
  for (const std::string& m : markers_deleted) appendln(out, "  markers deleted: {}", m);
  appendln(out, "deleted from the active timeline ({} file(s), pending states first):", instant_files_deleted.size());
  for (const std::string& f : instant_files_deleted) appendln(out, "  {}", f);
}

/// `"archived": [{"requested", "action", "state"}]` (the plan's) and
/// `"resumed": ["<instant>"]`, as both layouts' `archive --execute --json` write them.
inline void write_archived_and_resumed(json_writer& j, const ArchivePlan& plan, const std::vector<Instant>& resumed) {
  j.key("archived").begin_array();
  for (const Instant& i : plan.archived) {
    j.begin_object();
    j.key("requested").value(i.requested.str());
    j.key("action").value(to_string(i.action));
    j.key("state").value(to_string(i.state));
    j.end_object();
  }
  j.end_array();
  j.key("resumed").begin_array();
  for (const Instant& i : resumed) j.value(i.requested.str());
  j.end_array();
}

// The metadata table's latest completed compaction
// (HoodieBackedTableMetadata.getLatestCompactionTime: the last completed
// commit/replacecommit of its active timeline), from file names only.
inline ArchiveMetadataTable read_metadata_table(Table& table) {
  ArchiveMetadataTable out;
  hudi::subfolder_storage<posix_storage> sub(*table.storage, ".hoodie/metadata");
  auto j = hudi::journal<hudi::subfolder_storage<posix_storage>>::open(sub, table.path + "/.hoodie/metadata");
  if (!j.ok()) {
    out.unreadable = std::string(message_of(j.status()));
    return out;
  }
  auto tl = j->load_timeline();
  if (!tl.ok()) {
    out.unreadable = std::string(message_of(tl.status()));
    return out;
  }
  for (const Instant& i : tl->instants()) {
    const bool compaction_like =
        i.action == Action::commit || i.action == Action::replacecommit || i.action == Action::clustering;
    if (compaction_like && i.is_completed()) out.latest_compaction = i.requested;
  }
  return out;
}

// Layout 1: the modification time of each instant's newest file (the one
// of its current state), formatted in the JVM's zone, as Hudi 1.x's
// InstantGeneratorV1 makes it the instant's completion time.
[[nodiscard]] inline StatusOr<std::map<InstantTime, InstantTime>> layout1_modification_times(Table& table) {
  std::map<InstantTime, InstantTime> out;
  LAKEGC_ASSIGN_OR_RETURN(auto files, table.journal->list_timeline());
  for (const auto& f : files) {
    if (f.parsed.action == Action::savepoint) continue;
    const Instant* i = table.metadata.timeline.find(f.parsed.requested);
    if (i == nullptr || i->action == Action::savepoint || f.parsed.state != i->state) continue;
    out[i->requested] = InstantTime::from_epoch_ms(f.mtime_ms, TimelineTimezone::local);
  }
  return out;
}

}  // namespace detail

/// Plans archival for an opened table.
[[nodiscard]] inline StatusOr<ArchiveReport> plan_archive_report(Table& table, const config::Properties& props,
                                                                 bool show_progress = false) {
  ArchiveReport r;
  r.path = table.path;
  LAKEGC_ASSIGN_OR_RETURN(r.settings, config::archive_from_properties(props));
  const TableMetadata& md = table.metadata;
  const hudi::TableProperties& tp = table.journal->properties();
  r.merge_on_read = tp.type == hudi::TableType::merge_on_read;
  ArchiveContext ctx;
  ctx.merge_on_read = r.merge_on_read;
  const auto& parts = tp.metadata_partitions;
  if (std::find(parts.begin(), parts.end(), "files") != parts.end())
    ctx.metadata_table = detail::read_metadata_table(table);

  const Instant* last_clean = nullptr;
  for (const Instant* c : md.timeline.cleans()) {
    if (c->is_completed()) last_clean = c;
  }
  ArchiveCleanPlanFacts facts;
  if (last_clean != nullptr) {
    const std::string rel = fmt::format("{}/{}.clean.requested", tp.timeline_dir, last_clean->requested);
    const std::string where = table.journal->display(rel);
    auto bytes = table.storage->read(rel);
    auto plan = bytes.ok() ? hudi::decode_cleaner_plan(*bytes, where) : StatusOr<hudi::CleanerPlan>(bytes.status());
    if (plan.ok()) {
      facts.clean = last_clean->requested;
      facts.earliest_instant_to_retain = plan->earliest_instant_to_retain;
      if (auto it = plan->extra_metadata.find(std::string(kSavepointedTimestampsKey));
          it != plan->extra_metadata.end()) {
        facts.savepointed_timestamps = it->second;
      }
      ctx.last_clean_plan = &facts;
    } else {
      ctx.clean_plan_error = fmt::format("{}: {}", where, message_of(plan.status()));
    }
  }
  if (md.layout == TimelineLayout::v1) {
    LAKEGC_ASSIGN_OR_RETURN(ctx.layout1_modified, detail::layout1_modification_times(table));
  }
  LAKEGC_ASSIGN_OR_RETURN(TableView view, list_view(table, md, show_progress));
  ctx.view = &view;
  LAKEGC_ASSIGN_OR_RETURN(r.plan, plan_archive(md, r.settings, ctx));
  return r;
}

namespace detail {

inline std::string instant_label(const Instant& i) {
  return fmt::format("{} {} ({})", i.requested, to_string(i.action), to_string(i.state));
}

inline std::string reasons_text(const std::vector<ArchiveStop>& rs) {
  std::vector<std::string> names;
  for (ArchiveStop s : rs) names.emplace_back(to_string(s));
  return names.empty() ? std::string("-") : fmt::format("{}", fmt::join(names, ", "));
}

}  // namespace detail

/// The plan as text; `executed` for the plan `lakegc archive --execute` carried out.
inline std::string archive_text(const ArchiveReport& r, bool executed = false) {
  const ArchivePlan& p = r.plan;
  const ArchiveSettings& s = r.settings;
  std::string out;
  appendln(out, "timeline archival plan for {} (layout {}, {}; {})", r.path, static_cast<int>(p.layout),
           r.merge_on_read ? "MERGE_ON_READ" : "COPY_ON_WRITE", executed ? "executed" : "dry run: nothing is archived");
  appendln(out, "  keep: hoodie.keep.min.commits={} hoodie.keep.max.commits={}{}", s.min_commits, s.max_commits,
           p.keep.raised
               ? fmt::format(" -> {}..{} (the cleaner's earliest commit to retain {} needs {})", p.keep.min_keep,
                             p.keep.max_keep, *p.keep.cleaner_ectr, *p.keep.needed_by_cleaner)
               : std::string());
  appendln(out, "  {} completed commit(s) on the active timeline", p.completed_commits);
  for (const auto& why : p.noop_reasons) appendln(out, "  nothing is archived: {}", why);
  for (const auto& b : p.bounds) {
    appendln(out, "  bound {}: {}{}", to_string(b.rule),
             b.at ? fmt::format("nothing at or after {}: ", *b.at) : "nothing: ", b.why);
  }
  for (const auto& n : p.notes) appendln(out, "  note: {}", n);
  out += '\n';
  if (p.archived.empty()) {
    appendln(out, "archive nothing");
  } else {
    appendln(out, "archive {} instant(s):", p.archived.size());
    for (const Instant& i : p.archived) appendln(out, "  {}", detail::instant_label(i));
  }
  if (!p.kept.empty()) {
    out += '\n';
    appendln(out, "kept (the count rule alone would archive them):");
    for (const auto& k : p.kept)
      appendln(out, "  {}: {}", detail::instant_label(k.instant), detail::reasons_text(k.reasons));
  }
  return out;
}

/// The fields of `plan archive --json`, into an open object.
inline void write_archive_fields(json_writer& w, const ArchiveReport& r) {
  const ArchivePlan& p = r.plan;
  auto instant_fields = [&](const Instant& i) {
    w.key("requested").value(i.requested.str());
    w.key("action").value(to_string(i.action));
    w.key("state").value(to_string(i.state));
  };
  w.key("table").value(r.path);
  w.key("layout").value(static_cast<std::int64_t>(p.layout));
  w.key("table_type").value(r.merge_on_read ? "MERGE_ON_READ" : "COPY_ON_WRITE");
  w.key("keep_min_commits").value(static_cast<std::int64_t>(r.settings.min_commits));
  w.key("keep_max_commits").value(static_cast<std::int64_t>(r.settings.max_commits));
  w.key("min_commits_to_keep").value(static_cast<std::int64_t>(p.keep.min_keep));
  w.key("max_commits_to_keep").value(static_cast<std::int64_t>(p.keep.max_keep));
  w.key("cleaner_earliest_commit_to_retain").value(detail::instant_or_null(p.keep.cleaner_ectr));
  w.key("completed_commits").value(static_cast<std::uint64_t>(p.completed_commits));
  w.key("noop_reasons").strings(p.noop_reasons);
  w.key("archived").begin_array();
  for (const Instant& i : p.archived) {
    w.begin_object();
    instant_fields(i);
    w.end_object();
  }
  w.end_array();
  w.key("kept").begin_array();
  for (const auto& k : p.kept) {
    w.begin_object();
    instant_fields(k.instant);
    std::vector<std::string> names;
    for (ArchiveStop s : k.reasons) names.emplace_back(to_string(s));
    w.key("reasons").strings(names);
    w.end_object();
  }
  w.end_array();
  w.key("bounds").begin_array();
  for (const auto& b : p.bounds) {
    w.begin_object();
    w.key("rule").value(to_string(b.rule));
    w.key("instant").value(detail::instant_or_null(b.at));
    w.key("why").value(b.why);
    w.end_object();
  }
  w.end_array();
  w.key("notes").strings(p.notes);
}

inline std::string archive_json(const ArchiveReport& r) {
  json_writer w;
  w.begin_object();
  write_archive_fields(w, r);
  w.end_object();
  return w.str();
}

}  // namespace lakegc::cli
