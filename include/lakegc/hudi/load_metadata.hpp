// File: lakegc/hudi/load_metadata.hpp
// -----------------------------------------------------------------------------
// A Hudi table's TableMetadata from its timeline: every non-empty instant
// file is read with the decoder its name calls for:
//
//   completed commit / deltacommit / replacecommit -> commits (partitions
//       written, files written with their sizes, replaced file groups)
//   completed savepoint                             -> savepoints (file names)
//   pending compaction / log compaction plan        -> pending_compactions
//   newest completed clean                          -> last_completed_clean
//
// plus the heartbeats and markers of writes in flight, and, in layout 2, the
// completion times of archived write instants from the LSM history
// (hudi/lsm_timeline.hpp: instant times, completion times and actions
// only): Hudi's view attaches a log of an archived deltacommit by them. An
// LSM history lakegc cannot read is no error: archive_unreadable says why,
// and such logs keep their uncertain slice (kept until every slice they may
// belong to goes). Files lakegc does not
// depend on (in-flight copies, rollback and restore plans, indexing) are
// still checked to be empty, JSON or a readable Avro container: a damaged
// timeline is an error naming the file, never an empty answer, because an
// instant read as "nothing" makes its files look unreferenced.
#pragma once

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <simdjson.h>

#include "lakegc/core/load_view.hpp"
#include "lakegc/core/named_files_index.hpp"
#include "lakegc/core/table_metadata.hpp"
#include "lakegc/hudi/avro_reader.hpp"
#include "lakegc/hudi/in_flight.hpp"
#include "lakegc/hudi/lsm_timeline.hpp"
#include "lakegc/hudi/metadata_codec.hpp"
#include "lakegc/hudi/rollback_records.hpp"
#include "lakegc/hudi/table_location.hpp"
#include "lakegc/hudi/table_properties.hpp"
#include "lakegc/hudi/timeline_listing.hpp"
#include "lakegc/plan/clean_plan.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc::hudi {

namespace detail {

/// Which decoder an instant file needs, from its action and state.
enum class file_kind : std::uint8_t {
  commit_metadata,     // commit, deltacommit, replacecommit (completed or in flight)
  clustering_plan,     // replacecommit.requested, clustering.requested
  compaction_plan,     // compaction.requested, logcompaction.requested
  cleaner_plan,        // clean.requested
  clean_metadata,      // completed clean
  rollback_metadata,   // completed rollback
  savepoint_metadata,  // completed savepoint
  other,               // not depended on: empty, JSON or Avro accepted
};

inline file_kind kind_of(const TimelineFileName& f) {
  const bool completed = f.state == State::completed;
  const bool requested = f.state == State::requested;
  switch (f.action) {
    case Action::commit:
    case Action::deltacommit:
      // Requested writes are empty files; nothing reads them.
      return requested ? file_kind::other : file_kind::commit_metadata;
    case Action::replacecommit: return requested ? file_kind::clustering_plan : file_kind::commit_metadata;
    case Action::clustering: return requested ? file_kind::clustering_plan : file_kind::other;
    case Action::compaction:
    case Action::logcompaction: return requested ? file_kind::compaction_plan : file_kind::other;
    case Action::clean:
      return completed ? file_kind::clean_metadata : requested ? file_kind::cleaner_plan : file_kind::other;
    case Action::rollback: return completed ? file_kind::rollback_metadata : file_kind::other;
    case Action::savepoint: return completed ? file_kind::savepoint_metadata : file_kind::other;
    default: return file_kind::other;
  }
}

/// A file lakegc does not read must still be intact: empty, parseable JSON,
/// or an Avro container whose first record decodes.
[[nodiscard]] inline Status check_intact(std::string_view bytes, std::string_view file) {
  switch (detect_encoding(bytes)) {
    case encoding::empty: return Status();
    case encoding::avro: return avro::read_first_record(bytes, file).status();
    case encoding::json: {
      thread_local simdjson::dom::parser parser;
      simdjson::dom::element root;
      if (const auto err = parser.parse(bytes.data(), bytes.size()).get(root); err != simdjson::SUCCESS) {
        return absl::DataLossError(fmt::format("{}: expected JSON: {}", file, simdjson::error_message(err)));
      }
      return Status();
    }
    case encoding::unknown: break;
  }
  return absl::InvalidArgumentError(
      fmt::format("{}: expected an empty file, JSON or an Avro object container (Obj\\x01)", file));
}

/// CommitInfo of one write from the bytes of its commit file, errors as
/// decode_commit_metadata's.
// Built straight from the parsed document: a layout-1 timeline holds tens of
// thousands of commits, each naming every file it wrote, and of each write
// stat the journal keeps the partition, the file name and the size. Copying
// every stat into a WriteStat of six strings first, to drop four of them,
// was most of what loading spent after parsing.
[[nodiscard]] inline StatusOr<CommitInfo> decode_commit_info(std::string_view bytes, std::string_view where) {
  CommitInfo info;
  CommitMetadata rest;  // every field but the write stats
  auto& parts = info.partitions_written;
  LAKEGC_RETURN_IF_ERROR(
      decode_commit_metadata_into(bytes, where, rest, [&](std::string_view partition, const write_stat_view& ws) {
        // Stats arrive in partition-key order, each key once.
        if (parts.empty() || parts.back() != partition) parts.emplace_back(partition);
        if (ws.path.empty()) return;  // in-flight stats of new inserts have no path
        const auto slash = ws.path.find_last_of('/');
        const std::string_view name = slash == std::string_view::npos ? ws.path : ws.path.substr(slash + 1);
        info.files.push_back({partition, name, ws.file_size_bytes});
      }));
  for (auto& [partition, ids] : rest.partition_to_replace_file_ids) {
    for (auto& id : ids) info.replaced.push_back({partition, std::move(id)});
  }
  return info;
}

/// The completion times of the archived write instants of a layout-2 table
/// (TableMetadata::archived_completions), or why they cannot be read.
template <class S>
[[nodiscard]] StatusOr<std::map<InstantTime, InstantTime>> archived_write_completions(S& storage,
                                                                                      const TableProperties& props,
                                                                                      const TableLocation& table) {
  LAKEGC_ASSIGN_OR_RETURN(lsm_timeline lsm, read_lsm_timeline(storage, props, table, lsm_columns::times_and_actions));
  std::map<InstantTime, InstantTime> out;
  for (const lsm_instant& i : lsm.instants) {
    auto action = parse_action(i.action);
    if (!action.ok() || !is_write_action(*action)) continue;
    auto requested = InstantTime::parse(i.instant_time);
    auto completed = InstantTime::parse(i.completion_or_instant_time());
    if (!requested.ok() || !completed.ok()) {
      return absl::DataLossError(fmt::format("{}: archived instant '{}' completed '{}': not instant times",
                                             table.display(lsm.snapshot.folder), i.instant_time,
                                             i.completion_or_instant_time()));
    }
    out.emplace(*requested, *completed);
  }
  return out;
}

}  // namespace detail

/// The facts of a completed clean that incremental cleaning depends on.
template <ReadableStorage S>
[[nodiscard]] StatusOr<CleanRecord> read_clean_record(S& storage, const TableLocation& table, const InstantTime& t,
                                                      const std::string& rel) {
  const std::string where = table.display(rel);
  LAKEGC_ASSIGN_OR_RETURN(std::string bytes, read_table_file(storage, table, rel));
  LAKEGC_ASSIGN_OR_RETURN(hudi::CleanMetadata m, decode_clean_metadata(bytes, where));
  CleanRecord r;
  r.instant = t;
  // Hudi writes "" when the clean had no boundary (file versions).
  if (!m.earliest_commit_to_retain.empty()) {
    LAKEGC_ASSIGN_OR_RETURN(r.earliest_commit_to_retain,
                            parse_instant_field(m.earliest_commit_to_retain, where, "earliestCommitToRetain"));
  }
  if (!m.last_completed_commit_timestamp.empty()) {
    LAKEGC_ASSIGN_OR_RETURN(r.last_completed_commit, parse_instant_field(m.last_completed_commit_timestamp, where,
                                                                         "lastCompletedCommitTimestamp"));
  }
  LAKEGC_ASSIGN_OR_RETURN(r.savepointed_timestamps, savepointed_timestamps_of(m.extra_metadata, where));
  r.lease_vetoed_partitions = lease_vetoed_partitions_of(m.extra_metadata);
  r.listing_skipped_partitions = partitions_recorded_under(m.extra_metadata, kListingSkippedPartitionsKey);
  return r;
}

template <ReadableStorage S>
[[nodiscard]] StatusOr<TableMetadata> load_table_metadata(S& storage, const TableProperties& props,
                                                          const TableLocation& table) {
  LAKEGC_ASSIGN_OR_RETURN(auto files, list_timeline_files(storage, props, table, timeline_attributes::for_folding));
  TableMetadata md;
  LAKEGC_ASSIGN_OR_RETURN(md.timeline, fold_timeline(files, props, table));
  md.timezone = props.timezone;
  md.layout = props.layout;
  md.partitioned = props.partitioned();
  // Writes in flight: their heartbeats (LAZY rollback) and markers (what
  // rollback deletes and the orphan sweep keeps). Leftover markers of
  // completed or rolled-back instants mean nothing and are not read.
  LAKEGC_ASSIGN_OR_RETURN(md.heartbeats, load_heartbeats(storage));
  for (const Instant* i : md.timeline.pending()) {
    if (!is_write_action(i->action)) continue;
    LAKEGC_ASSIGN_OR_RETURN(auto markers, load_markers(storage, i->requested));
    if (!markers.empty()) md.markers[i->requested] = std::move(markers);
  }

  // Pending compaction plans are required: their guard protects slices.
  std::set<InstantTime> plans_needed;
  for (const Instant* i : md.timeline.pending()) {
    if (i->action == Action::compaction || i->action == Action::logcompaction) plans_needed.insert(i->requested);
  }
  std::optional<std::pair<InstantTime, std::string>> last_clean;  // requested, display path

  // Each file's path and how errors name it: the folder's part once, the
  // name appended per file (formatting both per file was a twentieth of a
  // load).
  std::string rel = props.timeline_dir + '/';
  std::string where = table.display(rel);
  const std::size_t rel_folder = rel.size();
  const std::size_t where_folder = where.size();
  for (const TimelineFile& f : files) {
    rel.resize(rel_folder);
    rel += f.name;
    where.resize(where_folder);
    where += f.name;
    LAKEGC_ASSIGN_OR_RETURN(std::string bytes, read_table_file(storage, table, rel));
    const Instant* inst = md.timeline.find(f.parsed.requested);
    const bool is_final = f.parsed.state == State::completed;
    switch (detail::kind_of(f.parsed)) {
      case detail::file_kind::commit_metadata: {
        LAKEGC_ASSIGN_OR_RETURN(CommitInfo info, detail::decode_commit_info(bytes, where));
        if (is_final && inst != nullptr && inst->is_completed()) md.commits[f.parsed.requested] = std::move(info);
        break;
      }
      case detail::file_kind::clustering_plan:
        LAKEGC_RETURN_IF_ERROR(decode_clustering_plan(bytes, where).status());
        break;
      case detail::file_kind::compaction_plan: {
        LAKEGC_ASSIGN_OR_RETURN(CompactionPlan plan, decode_compaction_plan(bytes, where));
        if (plans_needed.erase(f.parsed.requested) == 0) break;  // completed since
        for (const auto& op : plan.operations) {
          LAKEGC_ASSIGN_OR_RETURN(InstantTime base, parse_instant_field(op.base_instant, where, "baseInstantTime"));
          md.pending_compactions.push_back({f.parsed.requested, op.partition_path, op.file_id, base});
        }
        break;
      }
      case detail::file_kind::cleaner_plan:
        // A 0-byte plan is a crash while the clean was requested. Under a
        // 0-byte completed clean Hudi's scheduling removes it
        // (hudi/empty_clean_repair.hpp); a pending clean with it fails when
        // its plan is read to finish it (read_clean_plan), as in Hudi.
        if (bytes.empty()) break;
        LAKEGC_RETURN_IF_ERROR(decode_cleaner_plan(bytes, where).status());
        break;
      case detail::file_kind::clean_metadata: {
        // A 0-byte completed clean is a clean that crashed while
        // completing (local and HDFS file systems); Hudi re-runs its
        // plan. It anchors nothing, so the next clean scans everything.
        if (bytes.empty()) break;
        LAKEGC_RETURN_IF_ERROR(decode_clean_metadata(bytes, where).status());
        if (!last_clean || last_clean->first < f.parsed.requested) last_clean.emplace(f.parsed.requested, rel);
        break;
      }
      case detail::file_kind::rollback_metadata:
        LAKEGC_RETURN_IF_ERROR(decode_rollback_metadata(bytes, where).status());
        break;
      case detail::file_kind::savepoint_metadata: {
        LAKEGC_ASSIGN_OR_RETURN(SavepointMetadata sp, decode_savepoint_metadata(bytes, where));
        SavepointInfo info;
        info.instant = f.parsed.requested;
        for (const auto& [partition, names] : sp.partition_files) {
          for (const auto& n : names) info.files.push_back({partition, n, 0});
        }
        md.savepoints.push_back(std::move(info));
        break;
      }
      case detail::file_kind::other: LAKEGC_RETURN_IF_ERROR(detail::check_intact(bytes, where)); break;
    }
  }
  if (!plans_needed.empty()) {
    const InstantTime t = *plans_needed.begin();
    return absl::DataLossError(
        fmt::format("{}: pending compaction {} has no .requested plan; its guard cannot be applied",
                    table.display(props.timeline_dir), t));
  }
  if (last_clean) {
    LAKEGC_ASSIGN_OR_RETURN(md.last_completed_clean,
                            read_clean_record(storage, table, last_clean->first, last_clean->second));
  }
  if (props.layout == TimelineLayout::v2) {
    auto archived = detail::archived_write_completions(storage, props, table);
    if (archived.ok()) {
      md.archived_completions = std::move(*archived);
    } else {
      md.archive_unreadable = std::string(message_of(archived.status()));
    }
  }
  // Once per load, so that every plan from it reads only the named files
  // of the partitions it plans.
  md.named_files = index_named_files(md);
  return md;
}

}  // namespace lakegc::hudi
