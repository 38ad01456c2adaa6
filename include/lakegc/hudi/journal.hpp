// File: lakegc/hudi/journal.hpp
// -----------------------------------------------------------------------------
// hudi::journal<Storage>: a real Hudi table's timeline as a lakegc Journal.
//
// open() reads `.hoodie/hoodie.properties` through a Storage rooted at the
// table. load() lists the timeline folder (`.hoodie/` in layout 1,
// `.hoodie/timeline/` in layout 2), folds the instant files into a Timeline
// and reads every non-empty instant file with the decoder its name calls
// for, filling TableMetadata:
//
//   completed commit / deltacommit / replacecommit -> commits (partitions
//       written, files written with their sizes, replaced file groups)
//   completed savepoint                             -> savepoints (file names)
//   pending compaction / log compaction plan        -> pending_compactions
//   newest completed clean                          -> last_completed_clean
//
// Files lakegc does not depend on (in-flight copies, rollback and restore
// plans, indexing) are still checked to be empty, JSON or a readable Avro
// container: a damaged timeline is an error naming the file, never an empty
// answer, because an instant read as "nothing" makes its files look
// unreferenced.
//
// The clean transitions write, through Storage::write_if_absent only:
//   request_clean  -> `<t>.clean.requested`  (Avro HoodieCleanerPlan)
//   start_clean    -> `<t>.clean.inflight`   (layout 1: a copy of the plan,
//                                             as Hudi 0.x does; layout 2: empty)
//   complete_clean -> `<t>.clean` (layout 1) or `<t>_<completion>.clean`
//                     (layout 2)              (Avro HoodieCleanMetadata)
// Hudi writes absolute paths into a plan; lakegc writes the table-relative
// path prefixed with the base path the journal was opened with, and reads
// back absolute, prefixed, relative and bare-name (version 1) paths alike.
#pragma once

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <simdjson.h>

#include "lakegc/core/file_name.hpp"
#include "lakegc/core/load_view.hpp"
#include "lakegc/core/table_metadata.hpp"
#include "lakegc/exec/journal.hpp"
#include "lakegc/hudi/avro_reader.hpp"
#include "lakegc/hudi/avro_writer.hpp"
#include "lakegc/hudi/in_flight.hpp"
#include "lakegc/hudi/metadata_codec.hpp"
#include "lakegc/hudi/table_properties.hpp"
#include "lakegc/hudi/timeline_file_name.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc::hudi {

struct JournalOptions {
  /// Wall clock (epoch milliseconds) for the completion time of cleans this
  /// journal completes in layout 2. Empty: the system clock.
  std::function<std::int64_t()> now_ms;
};

/// One file of the timeline folder that names an instant.
struct TimelineFile {
  std::string name;
  TimelineFileName parsed;
  std::uint64_t size = 0;
  std::int64_t mtime_ms = 0;
};

/// `.hoodie_partition_metadata` of one partition.
struct PartitionMetadata {
  std::optional<InstantTime> commit_time;  ///< commitTime: the instant that created it
  std::optional<int> depth;                ///< partitionDepth: directory levels below the root
};

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

[[nodiscard]] inline StatusOr<InstantTime> parse_instant_field(std::string_view value, std::string_view file,
                                                 std::string_view field) {
  auto t = InstantTime::parse(value);
  if (!t.ok()) return annotate(t.status(), fmt::format("{}: {}", file, field));
  return *t;
}

/// CommitInfo of one completed write from its decoded metadata.
inline CommitInfo commit_info_of(const CommitMetadata& m) {
  CommitInfo info;
  std::set<std::string> parts;
  for (const WriteStat& ws : m.write_stats) {
    parts.insert(ws.partition_path);
    if (ws.path.empty()) continue;  // in-flight stats of new inserts have no path
    info.files.push_back({ws.partition_path, hudi::detail::file_name_of(ws.path), ws.file_size_bytes});
  }
  info.partitions_written.assign(parts.begin(), parts.end());
  for (const auto& [partition, ids] : m.partition_to_replace_file_ids) {
    for (const auto& id : ids) info.replaced.push_back({partition, id});
  }
  return info;
}

}  // namespace detail

template <Storage S>
class journal {
 public:
  /// Opens the table whose root `storage` is rooted at. `base_path` is how
  /// the caller names that root (a directory or a URI); it prefixes file
  /// paths written into clean plans and names files in errors.
  [[nodiscard]] static StatusOr<journal> open(S& storage, std::string base_path, JournalOptions options = {}) {
    while (base_path.size() > 1 && base_path.back() == '/') base_path.pop_back();
    journal j(storage, std::move(base_path), std::move(options));
    const std::string where = j.display(kPropertiesPath);
    auto bytes = storage.read(kPropertiesPath);
    if (!bytes.ok()) {
      if (absl::IsNotFound(bytes.status())) {
        return absl::NotFoundError(
            fmt::format("{}: not found: '{}' is not a Hudi table (a table root holds .hoodie/hoodie.properties)", where,
                        j.base_path_.empty() ? std::string(".") : j.base_path_));
      }
      return annotate(bytes.status(), where);
    }
    LAKEGC_ASSIGN_OR_RETURN(j.props_, parse_table_properties(*bytes, where));
    return j;
  }

  const TableProperties& properties() const noexcept { return props_; }
  const std::string& base_path() const noexcept { return base_path_; }
  S& storage() noexcept { return *storage_; }

  /// `base_path/rel`, how errors name a file of the table.
  std::string display(std::string_view rel) const {
    if (base_path_.empty()) return std::string(rel);
    if (base_path_ == "/") return "/" + std::string(rel);
    return fmt::format("{}/{}", base_path_, rel);
  }

  /// The instant files of the timeline folder in listing order. Other names
  /// (hoodie.properties, .crc files, folders) are skipped; an instant file
  /// with an unknown action or state is an error naming it.
  [[nodiscard]] StatusOr<std::vector<TimelineFile>> list_timeline() {
    std::vector<TimelineFile> out;
    Status bad;
    ListOptions opts;
    opts.recursive = false;
    const std::string& dir = props_.timeline_dir;
    const Status st = storage_->list(
        dir,
        [&](const FileEntry& e) {
          if (!bad.ok()) return;
          const auto slash = e.path.rfind('/');
          const std::string_view name = slash == std::string_view::npos ? e.path : e.path.substr(slash + 1);
          if (!looks_like_instant_file(name)) return;
          auto parsed = parse_timeline_file_name(name);
          if (!parsed.ok()) {
            bad = absl::InvalidArgumentError(fmt::format("{}: {}", display(e.path), message_of(parsed.status())));
            return;
          }
          if (props_.layout == TimelineLayout::v1 && parsed->completed) {
            bad = absl::InvalidArgumentError(fmt::format(
                "{}: a completion time in the name, but hoodie.properties says timeline layout 1", display(e.path)));
            return;
          }
          out.push_back({std::string(name), *parsed, e.size, e.mtime_ms});
        },
        opts);
    // Object stores have no empty folders: a layout-2 table with no instant
    // yet has no `.hoodie/timeline/`. An empty timeline commits no file, so
    // reading it as empty can only make a plan smaller.
    if (absl::IsNotFound(st)) return out;
    if (!st.ok()) return annotate(st, fmt::format("listing {}", display(dir)));
    LAKEGC_RETURN_IF_ERROR(bad);
    return out;
  }

  /// The Timeline the files make, without reading any content.
  [[nodiscard]] StatusOr<Timeline> load_timeline() {
    LAKEGC_ASSIGN_OR_RETURN(auto files, list_timeline());
    return make_timeline(files);
  }

  // --- Journal ---------------------------------------------------------------

  [[nodiscard]] StatusOr<TableMetadata> load() {
    LAKEGC_ASSIGN_OR_RETURN(auto files, list_timeline());
    TableMetadata md;
    LAKEGC_ASSIGN_OR_RETURN(md.timeline, make_timeline(files));
    md.timezone = props_.timezone;
    md.layout = props_.layout;
    md.partitioned = props_.partitioned();
    // Writes in flight: their heartbeats (LAZY rollback) and markers (what
    // rollback deletes and the orphan sweep keeps). Leftover markers of
    // completed or rolled-back instants mean nothing and are not read.
    LAKEGC_ASSIGN_OR_RETURN(md.heartbeats, load_heartbeats(*storage_));
    for (const Instant* i : md.timeline.pending()) {
      if (!is_write_action(i->action)) continue;
      LAKEGC_ASSIGN_OR_RETURN(auto markers, load_markers(*storage_, i->requested));
      if (!markers.empty()) md.markers[i->requested] = std::move(markers);
    }

    // Pending compaction plans are required: their guard protects slices.
    std::set<InstantTime> plans_needed;
    for (const Instant* i : md.timeline.pending()) {
      if (i->action == Action::compaction || i->action == Action::logcompaction) plans_needed.insert(i->requested);
    }
    std::optional<std::pair<InstantTime, std::string>> last_clean;  // requested, display path

    for (const TimelineFile& f : files) {
      const std::string rel = fmt::format("{}/{}", props_.timeline_dir, f.name);
      const std::string where = display(rel);
      LAKEGC_ASSIGN_OR_RETURN(std::string bytes, read_file(rel));
      const Instant* inst = md.timeline.find(f.parsed.requested);
      const bool is_final = f.parsed.state == State::completed;
      switch (detail::kind_of(f.parsed)) {
        case detail::file_kind::commit_metadata: {
          LAKEGC_ASSIGN_OR_RETURN(CommitMetadata m, decode_commit_metadata(bytes, where));
          if (is_final && inst != nullptr && inst->is_completed()) {
            md.commits[f.parsed.requested] = detail::commit_info_of(m);
          }
          break;
        }
        case detail::file_kind::clustering_plan:
          LAKEGC_RETURN_IF_ERROR(decode_clustering_plan(bytes, where).status());
          break;
        case detail::file_kind::compaction_plan: {
          LAKEGC_ASSIGN_OR_RETURN(CompactionPlan plan, decode_compaction_plan(bytes, where));
          if (plans_needed.erase(f.parsed.requested) == 0) break;  // completed since
          for (const auto& op : plan.operations) {
            LAKEGC_ASSIGN_OR_RETURN(InstantTime base,
                                    detail::parse_instant_field(op.base_instant, where, "baseInstantTime"));
            md.pending_compactions.push_back({f.parsed.requested, op.partition_path, op.file_id, base});
          }
          break;
        }
        case detail::file_kind::cleaner_plan: LAKEGC_RETURN_IF_ERROR(decode_cleaner_plan(bytes, where).status()); break;
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
                      display(props_.timeline_dir), t));
    }
    if (last_clean) {
      LAKEGC_ASSIGN_OR_RETURN(md.last_completed_clean, read_clean_record(last_clean->first, last_clean->second));
    }
    return md;
  }

  [[nodiscard]] Status request_clean(const InstantTime& t, const CleanPlan& plan) {
    LAKEGC_ASSIGN_OR_RETURN(Timeline tl, load_timeline());
    if (const Instant* i = tl.find(t)) {
      return absl::AlreadyExistsError(fmt::format("{}: instant {} is already on the timeline ({})",
                                                  display(props_.timeline_dir), t, to_string(i->action)));
    }
    CleanerPlan hp;
    if (plan.earliest_instant_to_retain) {
      hp.earliest_instant_to_retain = plan.earliest_instant_to_retain->str();
      // Hudi rebuilds a HoodieInstant from the action; an instant that is
      // no longer on the timeline (archived) was a commit as far as any
      // reader of this plan can tell.
      const Instant* e = tl.find(*plan.earliest_instant_to_retain);
      hp.earliest_instant_to_retain_action = e != nullptr ? std::string(to_string(e->action)) : "commit";
      hp.earliest_instant_to_retain_state = "COMPLETED";
    }
    hp.last_completed_commit_timestamp =
        plan.last_completed_commit_timestamp ? plan.last_completed_commit_timestamp->str() : std::string();
    hp.policy = plan.policy;
    for (const auto& [partition, files] : plan.files_per_partition) {
      auto& paths = hp.file_paths_to_delete_per_partition[partition];
      for (const auto& f : files) paths.push_back(display(join_path(partition, f.name)));
    }
    hp.partitions_to_be_deleted = plan.partitions_to_be_deleted;
    hp.extra_metadata = plan.extra_metadata;
    hp.version = 2;
    const std::string rel = instant_path(t, "clean.requested");
    auto bytes = encode_cleaner_plan(hp);
    if (!bytes.ok()) return annotate(bytes.status(), display(rel));
    return annotate(storage_->write_if_absent(rel, *bytes), display(rel));
  }

  [[nodiscard]] StatusOr<CleanPlan> read_clean_plan(const InstantTime& t) {
    const std::string rel = instant_path(t, "clean.requested");
    const std::string where = display(rel);
    LAKEGC_ASSIGN_OR_RETURN(std::string bytes, read_file(rel));
    LAKEGC_ASSIGN_OR_RETURN(CleanerPlan hp, decode_cleaner_plan(bytes, where));
    CleanPlan plan;
    if (hp.earliest_instant_to_retain) {
      LAKEGC_ASSIGN_OR_RETURN(
          plan.earliest_instant_to_retain,
          detail::parse_instant_field(*hp.earliest_instant_to_retain, where, "earliestInstantToRetain.timestamp"));
    }
    if (!hp.last_completed_commit_timestamp.empty()) {
      LAKEGC_ASSIGN_OR_RETURN(
          plan.last_completed_commit_timestamp,
          detail::parse_instant_field(hp.last_completed_commit_timestamp, where, "lastCompletedCommitTimestamp"));
    }
    plan.policy = hp.policy;
    // The reason is not part of Hudi's plan; the policy tells the usual one.
    const DeleteReason reason =
        plan.earliest_instant_to_retain ? DeleteReason::older_than_boundary : DeleteReason::beyond_versions;
    for (const auto& [partition, paths] : hp.file_paths_to_delete_per_partition) {
      std::vector<PlannedDelete> files;
      for (const auto& path : paths) {
        LAKEGC_ASSIGN_OR_RETURN(std::string name, name_in_partition(partition, path, where));
        PlannedDelete d;
        d.reason = reason;
        // Sizes are not in the plan either; the executor only reports them.
        if (auto info = storage_->stat(join_path(partition, name)); info.ok()) d.size = info->size;
        if (auto parsed = parse_data_file_name(name); parsed.ok()) {
          d.slice = std::visit([](const auto& n) { return n.instant; }, *parsed);
        }
        d.name = std::move(name);
        files.push_back(std::move(d));
      }
      std::sort(files.begin(), files.end(),
                [](const PlannedDelete& a, const PlannedDelete& b) { return a.name < b.name; });
      if (!files.empty()) plan.files_per_partition[partition] = std::move(files);
    }
    plan.partitions_to_be_deleted = hp.partitions_to_be_deleted;
    std::sort(plan.partitions_to_be_deleted.begin(), plan.partitions_to_be_deleted.end());
    plan.extra_metadata = hp.extra_metadata;
    return plan;
  }

  [[nodiscard]] Status start_clean(const InstantTime& t) {
    const std::string requested = instant_path(t, "clean.requested");
    LAKEGC_ASSIGN_OR_RETURN(std::string plan_bytes, read_file(requested));
    LAKEGC_RETURN_IF_ERROR(refuse_if_completed(t));
    const std::string rel = instant_path(t, "clean.inflight");
    // Layout 1: Hudi 0.x copies the plan into the in-flight file; 1.x
    // writes it empty and always re-reads the plan from `.requested`.
    const std::string_view bytes =
        props_.layout == TimelineLayout::v1 ? std::string_view(plan_bytes) : std::string_view();
    const Status st = storage_->write_if_absent(rel, bytes);
    if (absl::IsAlreadyExists(st)) return Status();  // already inflight: idempotent
    return annotate(st, display(rel));
  }

  [[nodiscard]] Status complete_clean(const InstantTime& t, const lakegc::CompletedClean& m) {
    const std::string inflight = instant_path(t, "clean.inflight");
    if (auto info = storage_->stat(inflight); !info.ok()) {
      if (absl::IsNotFound(info.status())) {
        return absl::FailedPreconditionError(fmt::format("{}: clean {} is not in flight", display(inflight), t));
      }
      return annotate(info.status(), display(inflight));
    }
    LAKEGC_RETURN_IF_ERROR(refuse_if_completed(t));
    hudi::CleanMetadata hm;
    hm.start_clean_time = t.str();
    hm.time_taken_ms = m.time_taken_ms;
    hm.total_files_deleted = static_cast<std::int64_t>(m.total_files_deleted);
    hm.earliest_commit_to_retain = m.earliest_commit_to_retain ? m.earliest_commit_to_retain->str() : std::string();
    hm.last_completed_commit_timestamp =
        m.last_completed_commit_timestamp ? m.last_completed_commit_timestamp->str() : std::string();
    for (const auto& [partition, r] : m.partitions) {
      CleanPartitionMetadata pm;
      pm.partition_path = partition;
      pm.policy = m.policy;
      // deletePathPatterns lists what the plan asked to delete here.
      pm.delete_path_patterns = r.success;
      pm.success_delete_files = r.success;
      pm.is_partition_deleted = r.partition_deleted;
      hm.partition_metadata[partition] = std::move(pm);
    }
    hm.extra_metadata = m.extra_metadata;
    hm.version = 2;
    std::string rel;
    if (props_.layout == TimelineLayout::v1) {
      rel = instant_path(t, "clean");
    } else {
      InstantTime done = InstantTime::from_epoch_ms(now_ms(), props_.timezone);
      if (!(t < done)) {
        // A clock behind the instant: completion must still follow it.
        auto ms = t.to_epoch_ms(props_.timezone);
        done = InstantTime::from_epoch_ms((ms.ok() ? *ms : now_ms()) + 1, props_.timezone);
      }
      rel = fmt::format("{}/{}_{}.clean", props_.timeline_dir, t, done);
    }
    auto bytes = encode_clean_metadata(hm);
    if (!bytes.ok()) return annotate(bytes.status(), display(rel));
    return annotate(storage_->write_if_absent(rel, *bytes), display(rel));
  }

  // --- partitions -------------------------------------------------------------

  /// Reads `<partition>/.hoodie_partition_metadata` (properties:
  /// commitTime, partitionDepth). Errors name the file.
  [[nodiscard]] StatusOr<PartitionMetadata> read_partition_metadata(std::string_view partition) {
    const std::string rel = join_path(partition, kPartitionMetadataFile);
    const std::string where = display(rel);
    LAKEGC_ASSIGN_OR_RETURN(std::string bytes, read_file(rel));
    LAKEGC_ASSIGN_OR_RETURN(config::Properties props, config::parse_properties(bytes, where));
    PartitionMetadata out;
    if (auto it = props.find("commitTime"); it != props.end()) {
      LAKEGC_ASSIGN_OR_RETURN(out.commit_time, detail::parse_instant_field(it->second, where, "commitTime"));
    }
    if (auto it = props.find("partitionDepth"); it != props.end()) {
      int depth = 0;
      const std::string& v = it->second;
      const auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), depth);
      if (ec != std::errc() || ptr != v.data() + v.size() || depth < 0) {
        return absl::InvalidArgumentError(fmt::format("{}: partitionDepth={}: expected a whole number >= 0", where, v));
      }
      out.depth = depth;
    }
    return out;
  }

 private:
  journal(S& storage, std::string base_path, JournalOptions options)
      : storage_(&storage), base_path_(std::move(base_path)), options_(std::move(options)) {}

  std::int64_t now_ms() const {
    if (options_.now_ms) return options_.now_ms();
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
  }

  std::string instant_path(const InstantTime& t, std::string_view suffix) const {
    return fmt::format("{}/{}.{}", props_.timeline_dir, t, suffix);
  }

  [[nodiscard]] StatusOr<std::string> read_file(const std::string& rel) {
    auto bytes = storage_->read(rel);
    if (!bytes.ok()) return annotate(bytes.status(), display(rel));
    return bytes;
  }

  [[nodiscard]] StatusOr<Timeline> make_timeline(const std::vector<TimelineFile>& files) const {
    std::vector<TimelineFileName> names;
    names.reserve(files.size());
    for (const auto& f : files) names.push_back(f.parsed);
    std::vector<Instant> instants = fold_timeline_files(names);
    if (props_.layout == TimelineLayout::v2) {
      // A completed file without "_<completion>" in a layout-2 folder is a
      // legacy instant of an upgraded table: Hudi takes its completion time
      // from the file's modification time.
      for (const auto& f : files) {
        if (f.parsed.state != State::completed || f.parsed.completed) continue;
        for (Instant& i : instants) {
          const bool same_instant = i.requested == f.parsed.requested &&
                                    (i.action == Action::savepoint) == (f.parsed.action == Action::savepoint);
          if (same_instant && i.is_completed() && !i.completed) {
            i.completed = InstantTime::from_epoch_ms(f.mtime_ms, props_.timezone);
          }
        }
      }
    }
    auto tl = Timeline::make(std::move(instants));
    if (!tl.ok()) return annotate(tl.status(), display(props_.timeline_dir));
    return tl;
  }

  [[nodiscard]] Status refuse_if_completed(const InstantTime& t) {
    LAKEGC_ASSIGN_OR_RETURN(auto files, list_timeline());
    for (const auto& f : files) {
      if (f.parsed.requested == t && f.parsed.action == Action::clean && f.parsed.state == State::completed) {
        return absl::FailedPreconditionError(
            fmt::format("{}: clean {} is already completed", display(props_.timeline_dir + "/" + f.name), t));
      }
    }
    return Status();
  }

  [[nodiscard]] StatusOr<CleanRecord> read_clean_record(const InstantTime& t, const std::string& rel) {
    const std::string where = display(rel);
    LAKEGC_ASSIGN_OR_RETURN(std::string bytes, read_file(rel));
    LAKEGC_ASSIGN_OR_RETURN(hudi::CleanMetadata m, decode_clean_metadata(bytes, where));
    CleanRecord r;
    r.instant = t;
    // Hudi writes "" when the clean had no boundary (file versions).
    if (!m.earliest_commit_to_retain.empty()) {
      LAKEGC_ASSIGN_OR_RETURN(
          r.earliest_commit_to_retain,
          detail::parse_instant_field(m.earliest_commit_to_retain, where, "earliestCommitToRetain"));
    }
    if (!m.last_completed_commit_timestamp.empty()) {
      LAKEGC_ASSIGN_OR_RETURN(
          r.last_completed_commit,
          detail::parse_instant_field(m.last_completed_commit_timestamp, where, "lastCompletedCommitTimestamp"));
    }
    if (auto it = m.extra_metadata.find("savepointed_timestamps"); it != m.extra_metadata.end()) {
      for (const std::string& s : hudi::detail::split_list(it->second)) {
        LAKEGC_ASSIGN_OR_RETURN(InstantTime sp,
                                detail::parse_instant_field(s, where, "extraMetadata[\"savepointed_timestamps\"]"));
        r.savepointed_timestamps.push_back(sp);
      }
    }
    r.lease_vetoed_partitions = lease_vetoed_partitions_of(m.extra_metadata);
    r.listing_skipped_partitions = partitions_recorded_under(m.extra_metadata, kListingSkippedPartitionsKey);
    return r;
  }

  // The name of the file a plan path points at inside `partition`: bare
  // names (version 1 plans), paths relative to the table, paths under our
  // base path, and absolute paths or URIs from the machine that wrote the
  // plan, whose folder must end with the partition.
  [[nodiscard]] StatusOr<std::string> name_in_partition(std::string_view partition, std::string_view path,
                                          std::string_view where) const {
    auto refuse = [&](std::string_view why) {
      return absl::InvalidArgumentError(
          fmt::format("{}: filePathsToBeDeletedPerPartition[\"{}\"]: path '{}' {}", where, partition, path, why));
    };
    const auto slash = path.rfind('/');
    const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
    if (name.empty() || name == "." || name == "..") return refuse("does not name a file");
    if (slash == std::string_view::npos) return std::string(name);
    const std::string_view dir = path.substr(0, slash);
    const std::string prefix = base_path_.empty() ? std::string() : base_path_ + "/";
    std::string_view rel_dir;
    bool known_dir = false;
    if (!prefix.empty() && path.substr(0, prefix.size()) == prefix) {
      const std::string_view rel = path.substr(prefix.size());
      const auto rel_slash = rel.rfind('/');
      rel_dir = rel_slash == std::string_view::npos ? std::string_view() : rel.substr(0, rel_slash);
      known_dir = true;
    } else if (path.front() != '/' && path.find(':') == std::string_view::npos) {
      rel_dir = dir;  // relative to the table root
      known_dir = true;
    }
    if (known_dir) {
      if (rel_dir != partition) return refuse("is not in that partition");
      return std::string(name);
    }
    // Foreign absolute path: only its tail can be checked.
    if (!partition.empty()) {
      const bool tail = dir.size() > partition.size() && dir.substr(dir.size() - partition.size()) == partition &&
                        dir[dir.size() - partition.size() - 1] == '/';
      if (!tail) return refuse("is not in that partition");
    }
    return std::string(name);
  }

  S* storage_;
  std::string base_path_;
  JournalOptions options_;
  TableProperties props_;
};

}  // namespace lakegc::hudi
