// File: tools/cli/inspect.hpp
// -----------------------------------------------------------------------------
// `lakegc inspect`: a table's facts, its timeline, and per partition the
// file groups with their slices (base file, log files), replaced groups
// marked, as of the latest instant or a time-travel instant.
//
// JSON shape (stable; documented in docs/cli-json.md):
//   {"table": {...},
//    "timeline": [{"requested", "completed", "action", "state"}],
//    "partitions": [{"path", "commit_time", "file_groups": [{"file_id",
//       "replaced_by", "pending_compaction_base", "slices": [{"base_instant",
//       "base_file", "log_files": [...], "size_bytes"}]}],
//       "uncommitted_files": [...],
//       "uncertain_log_files": [...],      layout 2: archived deltacommit, slice unknown
//       "listing_gap": {"file", "reason"} | null}],
//    "archived_timeline": null                    (layout 1)
//      | {"folder", "version", "files": [...], "error": "<why unreadable>" | null,
//         "instants": [{"requested", "completed", "action", "metadata_bytes", "plan_bytes"}]}}
//                                                 (layout 2: the LSM history's latest snapshot)
// The root partition of a non-partitioned table has path "".
#pragma once

#include <map>
#include <optional>
#include <string>

#include "table.hpp"
#include "lakegc/core/json_writer.hpp"
#include "lakegc/hudi/lsm_timeline.hpp"
#include "lakegc/plan/listing_check.hpp"
#include "text.hpp"

namespace lakegc::cli {

struct InspectReport {
  std::string path;
  hudi::TableProperties properties;
  std::optional<InstantTime> as_of;
  TableMetadata metadata;  ///< as of `as_of` when set
  TableView view;
  std::map<std::string, hudi::PartitionMetadata> partitions;  ///< by path; absent when unreadable
  /// Partitions whose listing lacks files the metadata proves exist.
  std::map<std::string, ListingGap> listing_gaps;
  /// Layout 2: the archived timeline (LSM history), or why it cannot be read.
  std::optional<StatusOr<hudi::lsm_timeline>> archived;
};

/// Builds the report for an opened table.
[[nodiscard]] inline StatusOr<InspectReport> inspect(Table& table, std::optional<InstantTime> as_of,
                                                     bool show_progress = false) {
  InspectReport r;
  r.path = table.path;
  r.properties = table.journal->properties();
  r.as_of = as_of;
  r.metadata = as_of ? metadata_as_of(table.metadata, *as_of) : table.metadata;
  LAKEGC_ASSIGN_OR_RETURN(r.view, list_view(table, r.metadata, show_progress));
  std::vector<std::uint32_t> all(r.view.partitions().size());
  for (std::uint32_t i = 0; i < all.size(); ++i) all[i] = i;
  for (ListingGap& g : find_listing_gaps(r.view, r.metadata, all)) r.listing_gaps.emplace(g.partition, std::move(g));
  for (const Partition& p : r.view.partitions()) {
    auto pm = table.journal->read_partition_metadata(p.path);
    // `.hoodie_partition_metadata.parquet` / `.orc` marks are not read.
    if (!pm.ok() && absl::IsNotFound(pm.status())) continue;
    if (!pm.ok()) return pm.status();
    r.partitions[p.path] = *pm;
  }
  if (r.properties.layout == TimelineLayout::v2) {
    r.archived = hudi::read_lsm_timeline(*table.storage, r.properties, hudi::TableLocation::of(table.path),
                                         hudi::lsm_columns::all);
  }
  return r;
}

namespace detail {

inline std::uint64_t slice_bytes(const TableView& v, const FileSlice& s) {
  std::uint64_t n = s.base_file == kNoFile ? 0 : v.file_size(s.base_file);
  for (auto f : v.logs_of(s)) n += v.file_size(f);
  return n;
}

}  // namespace detail

/// Writes the report's JSON document to `w` (which may print it as it goes:
/// `inspect --json` of a million-file table is hundreds of megabytes).
inline void write_inspect_json(json_writer& w, const InspectReport& r) {
  const auto& p = r.properties;
  const auto& tl = r.metadata.timeline;
  w.begin_object();
  w.key("table").begin_object();
  w.key("name").value(p.name);
  w.key("path").value(r.path);
  w.key("type").value(to_string(p.type));
  w.key("version").value(p.version);
  w.key("timeline_layout").value(static_cast<int>(p.layout));
  w.key("timezone").value(p.timezone == TimelineTimezone::utc ? "UTC" : "LOCAL");
  w.key("partition_fields").strings(p.partition_fields);
  w.key("hive_style_partitioning").value(p.hive_style_partitioning);
  w.key("base_file_format").value(p.base_file_format);
  w.key("metadata_table_partitions").strings(p.metadata_partitions);
  w.key("as_of").value(detail::instant_or_null(r.as_of));
  w.key("completed_commits").value(static_cast<std::uint64_t>(tl.completed_commits().size()));
  w.key("latest_completed_commit")
      .value(tl.completed_commits().empty()
                 ? std::optional<std::string>()
                 : std::optional<std::string>(tl.completed_commits().back()->requested.str()));
  w.end_object();

  w.key("timeline").begin_array();
  for (const Instant& i : tl.instants()) {
    w.begin_object();
    w.key("requested").value(i.requested.str());
    w.key("completed").value(detail::instant_or_null(i.completed));
    w.key("action").value(to_string(i.action));
    w.key("state").value(to_string(i.state));
    w.end_object();
  }
  w.end_array();

  const TableView& v = r.view;
  w.key("partitions").begin_array();
  for (const Partition& part : v.partitions()) {
    w.begin_object();
    w.key("path").value(part.path);
    std::optional<std::string> created;
    if (auto it = r.partitions.find(part.path); it != r.partitions.end())
      created = detail::instant_or_null(it->second.commit_time);
    w.key("commit_time").value(created);
    w.key("file_groups").begin_array();
    for (const FileGroup& g : v.groups_of(part)) {
      w.begin_object();
      w.key("file_id").value(v.file_id(g));
      w.key("replaced_by").value(detail::instant_or_null(g.replaced_by));
      w.key("pending_compaction_base").value(detail::instant_or_null(g.pending_compaction_base));
      w.key("slices").begin_array();
      for (const FileSlice& s : v.slices_of(g)) {
        w.begin_object();
        w.key("base_instant").value(s.base_instant.str());
        if (s.base_file == kNoFile) {
          w.key("base_file").null();
        } else {
          w.key("base_file").value(v.file_name(s.base_file));
        }
        w.key("log_files").begin_array();
        for (auto f : v.logs_of(s)) w.value(v.file_name(f));
        w.end_array();
        w.key("size_bytes").value(detail::slice_bytes(v, s));
        w.end_object();
      }
      w.end_array();
      w.end_object();
    }
    w.end_array();
    w.key("uncommitted_files").begin_array();
    for (const UncommittedFile& u : v.uncommitted_files()) {
      if (&v.partitions()[u.partition] == &part) w.value(v.file_name(u.file));
    }
    w.end_array();
    w.key("uncertain_log_files").begin_array();
    for (const FileGroup& g : v.groups_of(part)) {
      for (const FileSlice& s : v.slices_of(g)) {
        for (auto f : v.logs_of(s)) {
          if (v.completion_unknown(f)) w.value(v.file_name(f));
        }
      }
    }
    w.end_array();
    if (auto gap = r.listing_gaps.find(part.path); gap != r.listing_gaps.end()) {
      w.key("listing_gap").begin_object();
      w.key("file").value(gap->second.file);
      w.key("reason").value(gap->second.reason);
      w.end_object();
    } else {
      w.key("listing_gap").null();
    }
    w.end_object();
  }
  w.end_array();
  w.key("archived_timeline");
  if (!r.archived) {
    w.null();
  } else {
    const auto folder = hudi::lsm_history_folder(p);
    w.begin_object();
    w.key("folder").value(folder.ok() ? *folder : std::string());
    if (r.archived->ok()) {
      const hudi::lsm_timeline& a = **r.archived;
      w.key("version").value(static_cast<std::int64_t>(a.snapshot.version));
      w.key("files").begin_array();
      for (const auto& f : a.snapshot.manifest.files) w.value(f.name);
      w.end_array();
      w.key("error").null();
      w.key("instants").begin_array();
      for (const hudi::lsm_instant& i : a.instants) {
        w.begin_object();
        w.key("requested").value(i.instant_time);
        w.key("completed").value(i.completion_time);
        w.key("action").value(i.action);
        w.key("metadata_bytes");
        i.metadata ? w.value(static_cast<std::uint64_t>(i.metadata->size())) : w.null();
        w.key("plan_bytes");
        i.plan ? w.value(static_cast<std::uint64_t>(i.plan->size())) : w.null();
        w.end_object();
      }
      w.end_array();
    } else {
      w.key("version").null();
      w.key("files").begin_array().end_array();
      w.key("error").value(std::string(message_of(r.archived->status())));
      w.key("instants").begin_array().end_array();
    }
    w.end_object();
  }
  w.end_object();
}

/// The report's JSON document as a string.
inline std::string inspect_json(const InspectReport& r) {
  json_writer w;
  write_inspect_json(w, r);
  return std::move(w).take();
}

inline std::string inspect_text(const InspectReport& r) {
  const auto& p = r.properties;
  const auto& tl = r.metadata.timeline;
  const TableView& v = r.view;
  std::string out;
  appendln(out, "table {} at {}", p.name.empty() ? std::string("(unnamed)") : p.name, r.path);
  appendln(out, "  {}, table version {}, timeline layout {}, timezone {}", to_string(p.type), p.version,
           static_cast<int>(p.layout), p.timezone == TimelineTimezone::utc ? "UTC" : "LOCAL");
  appendln(out, "  partition fields: {}; hive-style: {}; base files: {}; metadata table: {}",
           join_or_dash(p.partition_fields), p.hive_style_partitioning ? "yes" : "no", p.base_file_format,
           join_or_dash(p.metadata_partitions));
  if (r.as_of) appendln(out, "  as of {} (instants requested at or before it)", *r.as_of);
  out += '\n';
  appendln(out, "timeline: {} instants, {} completed commits", tl.size(), tl.completed_commits().size());
  for (const Instant& i : tl.instants()) {
    appendln(out, "  {}  {:<17}  {:<13}  {:<9}", i.requested, i.completed ? i.completed->str() : std::string("-"),
             to_string(i.action), to_string(i.state));
  }
  if (r.archived) {
    if (r.archived->ok()) {
      const hudi::lsm_timeline& a = **r.archived;
      appendln(out, "archived timeline (LSM history): {} instant(s) in {} file(s), snapshot version {}",
               a.instants.size(), a.snapshot.manifest.files.size(), a.snapshot.version);
    } else {
      appendln(out, "archived timeline (LSM history): cannot be read: {}", message_of(r.archived->status()));
      appendln(out, "  logs of archived deltacommits keep an uncertain slice until it can be read");
    }
  }
  out += '\n';
  appendln(out, "partitions: {}", v.partitions().size());
  for (const Partition& part : v.partitions()) {
    std::string created;
    if (auto it = r.partitions.find(part.path); it != r.partitions.end() && it->second.commit_time) {
      created = fmt::format(" (created {})", *it->second.commit_time);
    }
    appendln(out, "  {}{}", partition_label(part.path), created);
    for (const FileGroup& g : v.groups_of(part)) {
      std::string notes;
      if (g.replaced_by) notes += fmt::format(", replaced by {}", *g.replaced_by);
      if (g.pending_compaction_base)
        notes += fmt::format(", pending compaction of slice {}", *g.pending_compaction_base);
      appendln(out, "    file group {}{}", v.file_id(g), notes);
      for (const FileSlice& s : v.slices_of(g)) {
        appendln(out, "      slice {}  {}  ({}){}", s.base_instant,
                 s.base_file == kNoFile ? std::string("(no base file)") : std::string(v.file_name(s.base_file)),
                 human_bytes(detail::slice_bytes(v, s)),
                 s.log_count ? fmt::format(", {} log file(s)", s.log_count) : "");
        for (auto f : v.logs_of(s)) {
          appendln(out, "        log {}{}", v.file_name(f),
                   v.completion_unknown(f) ? "  (uncertain slice: its deltacommit is archived and the LSM history "
                                             "gives no completion time for it; kept until every slice it may belong "
                                             "to goes)"
                                           : "");
        }
      }
    }
    for (const UncommittedFile& u : v.uncommitted_files()) {
      if (&v.partitions()[u.partition] == &part)
        appendln(out, "    uncommitted {} (instant {})", v.file_name(u.file), u.instant);
    }
    if (auto gap = r.listing_gaps.find(part.path); gap != r.listing_gaps.end()) {
      appendln(out, "    warning: {}; `plan clean` skips this partition until a listing is complete",
               gap->second.reason);
    }
  }
  return out;
}

}  // namespace lakegc::cli
