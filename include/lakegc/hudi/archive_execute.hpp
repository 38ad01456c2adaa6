// File: lakegc/hudi/archive_execute.hpp
// -----------------------------------------------------------------------------
// Executes a timeline archival plan (plan/plan_archive.hpp) on a layout-1
// table as Hudi 1.2's TimelineArchiverV1.archiveIfRequired does, under the
// caller's table lock:
//
// 1. The instant files of every archived instant (requested, inflight,
//    completed: the raw timeline grouped by requested time and comparable
//    action, so a compaction's `.compaction.requested` and `.inflight` go
//    with its `.commit`), in requested-time order, each converted to a
//    HoodieArchivedMetaEntry as MetadataConversionUtils.createMetaWrapper
//    does: commitTime, actionType (the file's own action), actionState,
//    stateTransitionTime (the file's modification time in the process's
//    zone: Hudi 1.x's InstantGeneratorV1 completion time, for every state),
//    version null, and the action's metadata field:
//      clean        completed: hoodieCleanMetadata (the Avro file);
//                   requested and inflight: hoodieCleanerPlan (of
//                   `.clean.requested`, CleanerUtils.getCleanerPlan)
//      commit, deltacommit (any state): hoodieCommitMetadata, the JSON file
//                   converted field by field into Hudi's Avro record
//                   (convertCommitMetadataToAvro: Jackson by name); an empty
//                   file or one without operationType (UNKNOWN) has none
//      replacecommit completed: hoodieReplaceCommitMetadata (JSON);
//                   inflight: HoodieInflightReplaceMetadata (JSON, if any);
//                   requested: hoodieRequestedReplaceMetadata (Avro)
//      rollback     completed: hoodieRollbackMetadata; others none
//      compaction, logcompaction requested: hoodieCompactionPlan
//    Every conversion happens before anything is changed: an instant whose
//    content cannot be converted (an unknown action, a plan or clean record
//    of a version Hudi would migrate, a JSON field of the wrong type) stops
//    the run with nothing changed, as Hudi's run fails
//    (hoodie.fail.on.timeline.archiving=true).
// 2. The markers folder `.hoodie/.temp/<instant>` of each archived instant
//    deleted (deleteAnyLeftOverMarkers).
// 3. One new archive log file `<archive folder>/.commits_.archive.<N+1>_<token>`
//    (N and the write token of the newest archive file; `1_1-0-1` for the
//    first), as Hudi 1.x's HoodieLogFormatWriter writes one per run: it
//    never appends to an existing file. One AVRO_DATA_BLOCK (log format
//    version 1, content version 3, only the SCHEMA header: Hudi's
//    HoodieArchivedMetaEntry schema text) per hoodie.commits.archival.batch
//    entries; a file past 512 MiB rolls over to the next version. The file
//    is written whole with write_if_absent: a reader never sees part of it.
// 4. The instant files deleted, in Hudi's order (deleteArchivedInstants):
//    every requested and inflight file first, then the completed files
//    oldest first (HUDI-7207). A crash in between leaves completed instants
//    with fewer files, never a completed instant that looks pending (which
//    the next writer would roll back as a failed write), and no hole before
//    a remaining completed instant.
//
// Beyond Hudi, for crash recovery: entries already in the archive (same
// commitTime, actionType and actionState; a run that crashed after step 3)
// are not written again, so a rerun finishes the deletes without
// duplicating the archive. Archival writes nothing to the metadata table
// (Hudi's native table format's archive() hook does nothing).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <simdjson.h>

#include "lakegc/core/instant.hpp"
#include "lakegc/core/instant_time.hpp"
#include "lakegc/core/status.hpp"
#include "lakegc/core/timeline.hpp"
#include "lakegc/hudi/archived_entry_schema.hpp"
#include "lakegc/hudi/archived_timeline.hpp"
#include "lakegc/hudi/avro/datum.hpp"
#include "lakegc/hudi/avro/encode.hpp"
#include "lakegc/hudi/avro/read.hpp"
#include "lakegc/hudi/avro/schema.hpp"
#include "lakegc/hudi/log/avro_data_block.hpp"
#include "lakegc/hudi/log/write_block.hpp"
#include "lakegc/hudi/remove_tree.hpp"
#include "lakegc/hudi/table_location.hpp"
#include "lakegc/hudi/table_properties.hpp"
#include "lakegc/hudi/timeline_listing.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc::hudi {

struct ArchiveWriteOptions {
  /// hoodie.commits.archival.batch: entries per AVRO_DATA_BLOCK.
  std::int32_t batch = 10;
  /// HoodieLogFormat.Writer.DEFAULT_SIZE_THRESHOLD: a file past this rolls over.
  std::uint64_t rollover_bytes = 512ULL * 1024 * 1024;
};

/// One instant file and its archived entry.
struct ArchiveEntry {
  std::string file;  ///< the instant file's name in the timeline folder
  InstantTime requested;
  Action action = Action::commit;  ///< the file's own action (compaction, not commit)
  State state = State::completed;
  avro::datum entry;  ///< HoodieArchivedMetaEntry
};

struct ArchiveExecution {
  std::vector<ArchiveEntry> entries;  ///< every file of the archived instants, in archive order
  std::vector<std::string> archive_files_written;
  std::size_t entries_written = 0;
  std::size_t entries_already_archived = 0;
  std::vector<std::string> markers_deleted;
  std::vector<std::string> instant_files_deleted;  ///< in deletion order
};

namespace detail {

/// InstantComparatorV1.getComparableAction: compaction sorts and groups with
/// commit, log compaction with deltacommit, clustering with replacecommit.
constexpr Action comparable_action(Action a) noexcept {
  switch (a) {
    case Action::compaction: return Action::commit;
    case Action::logcompaction: return Action::deltacommit;
    case Action::clustering: return Action::replacecommit;
    default: return a;
  }
}

inline std::string_view state_name(State s) noexcept {
  switch (s) {
    case State::requested: return "REQUESTED";
    case State::inflight: return "INFLIGHT";
    case State::completed: return "COMPLETED";
  }
  return "?";
}

[[nodiscard]] inline const avro::schema& archived_entry_schema() {
  static const std::shared_ptr<const avro::schema> s = [] {
    auto parsed = avro::cached_schema(kArchivedMetaEntrySchema);
    return parsed.ok() ? *parsed : nullptr;
  }();
  return *s;
}

inline std::string_view json_kind(const simdjson::dom::element& e) {
  switch (e.type()) {
    case simdjson::dom::element_type::ARRAY: return "array";
    case simdjson::dom::element_type::OBJECT: return "object";
    case simdjson::dom::element_type::INT64:
    case simdjson::dom::element_type::UINT64: return "integer";
    case simdjson::dom::element_type::DOUBLE: return "floating-point number";
    case simdjson::dom::element_type::STRING: return "string";
    case simdjson::dom::element_type::BOOL: return "boolean";
    case simdjson::dom::element_type::NULL_VALUE: return "null";
  }
  return "?";
}

// A JSON value (the serialized POJO of Hudi's commit metadata) as a value of
// schema node `index`, as Jackson's convertValue fills Hudi's Avro class:
// record fields by name, an absent or null field null, a number or boolean
// taken by a string field as its text.
class json_to_avro {
 public:
  explicit json_to_avro(const avro::schema& s) : s_(s) {}

  [[nodiscard]] Status convert(std::uint32_t index, const simdjson::dom::element* e, avro::datum& out,
                               int depth) const {
    if (depth > avro::max_depth) return absl::InvalidArgumentError("JSON nested too deep");
    const avro::schema_node& n = s_.node(index);
    const bool is_null = e == nullptr || e->is_null();
    if (n.kind == avro::type::union_of) {
      for (const auto c : n.children) {
        if (is_null == (s_.node(c).kind == avro::type::null)) {
          if (is_null) {
            out = avro::datum();
            return Status();
          }
          return convert(c, e, out, depth + 1);
        }
      }
      return absl::InvalidArgumentError(
          fmt::format("a {} where the schema has no branch for it", is_null ? "null" : json_kind(*e)));
    }
    if (is_null) {
      if (n.kind == avro::type::null) {
        out = avro::datum();
        return Status();
      }
      return absl::InvalidArgumentError(fmt::format("null where Hudi's schema needs a {}", avro::type_name(n.kind)));
    }
    const simdjson::dom::element& v = *e;
    auto wrong = [&] {
      return absl::InvalidArgumentError(fmt::format("expected {}, found {}", avro::type_name(n.kind), json_kind(v)));
    };
    switch (n.kind) {
      case avro::type::boolean: {
        bool b = false;
        if (v.get_bool().get(b) != simdjson::SUCCESS) return wrong();
        out = avro::datum::make_bool(b);
        return Status();
      }
      case avro::type::int32:
      case avro::type::int64: {
        std::int64_t i = 0;
        if (v.get_int64().get(i) != simdjson::SUCCESS) return wrong();
        if (n.kind == avro::type::int32 && (i < INT32_MIN || i > INT32_MAX)) {
          return absl::InvalidArgumentError(fmt::format("{} does not fit an int", i));
        }
        out = n.kind == avro::type::int32 ? avro::datum::make_int(static_cast<std::int32_t>(i))
                                          : avro::datum::make_long(i);
        return Status();
      }
      case avro::type::float32:
      case avro::type::float64: {
        double d = 0;
        if (v.get_double().get(d) != simdjson::SUCCESS) return wrong();
        out = n.kind == avro::type::float32 ? avro::datum::make_float(static_cast<float>(d))
                                            : avro::datum::make_double(d);
        return Status();
      }
      case avro::type::string: {
        std::string_view sv;
        if (v.get_string().get(sv) == simdjson::SUCCESS) {
          out = avro::datum::make_string(std::string(sv));
          return Status();
        }
        if (v.is_int64() || v.is_uint64() || v.is_bool()) {
          out = avro::datum::make_string(simdjson::minify(v));
          return Status();
        }
        return wrong();
      }
      case avro::type::array: {
        simdjson::dom::array a;
        if (v.get_array().get(a) != simdjson::SUCCESS) return wrong();
        out = avro::datum::make_array();
        std::size_t i = 0;
        for (simdjson::dom::element item : a) {
          avro::datum d;
          LAKEGC_RETURN_IF_ERROR(annotate(convert(n.children[0], &item, d, depth + 1), fmt::format("[{}]", i++)));
          out.append(std::move(d));
        }
        return Status();
      }
      case avro::type::map: {
        simdjson::dom::object o;
        if (v.get_object().get(o) != simdjson::SUCCESS) return wrong();
        out = avro::datum::make_map();
        for (auto field : o) {
          avro::datum d;
          simdjson::dom::element value = field.value;
          LAKEGC_RETURN_IF_ERROR(
              annotate(convert(n.children[0], &value, d, depth + 1), fmt::format("[\"{}\"]", field.key)));
          out.add(std::string(field.key), std::move(d));
        }
        return Status();
      }
      case avro::type::record: {
        simdjson::dom::object o;
        if (v.get_object().get(o) != simdjson::SUCCESS) return wrong();
        out = avro::datum::make_record(n.name);
        for (std::size_t f = 0; f < n.names.size(); ++f) {
          simdjson::dom::element value;
          const bool present = o[n.names[f]].get(value) == simdjson::SUCCESS;
          avro::datum d;
          LAKEGC_RETURN_IF_ERROR(
              annotate(convert(n.children[f], present ? &value : nullptr, d, depth + 1), n.names[f]));
          out.add(n.names[f], std::move(d));
        }
        return Status();
      }
      default: return absl::InvalidArgumentError(fmt::format("Hudi's schema has a {} here", avro::type_name(n.kind)));
    }
  }

 private:
  const avro::schema& s_;
};

// MetadataConversionUtils.getCommitMetadata + convertCommitMetadataToAvro:
// the JSON commit file as Hudi's Avro record `record` (HoodieCommitMetadata
// or HoodieReplaceCommitMetadata); none for an empty file or one whose
// operationType is absent or UNKNOWN (Hudi's default instance).
[[nodiscard]] inline StatusOr<std::optional<avro::datum>> commit_metadata_entry(std::string_view bytes,
                                                                                std::string_view record) {
  if (bytes.find_first_not_of(" \t\r\n") == std::string_view::npos) return std::optional<avro::datum>();
  const avro::schema& s = archived_entry_schema();
  const auto node = s.find(fmt::format("org.apache.hudi.avro.model.{}", record));
  if (!node) return absl::InternalError(fmt::format("the archived entry schema has no {}", record));
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (auto err = parser.parse(bytes.data(), bytes.size()).get(root); err != simdjson::SUCCESS) {
    return absl::InvalidArgumentError(fmt::format("not JSON commit metadata: {}", simdjson::error_message(err)));
  }
  simdjson::dom::element op;
  if (root.is_object() && root["operationType"].get(op) == simdjson::SUCCESS) {
    std::string_view name;
    if (op.get_string().get(name) == simdjson::SUCCESS && name == "UNKNOWN") return std::optional<avro::datum>();
  } else {
    return std::optional<avro::datum>();
  }
  avro::datum out;
  LAKEGC_RETURN_IF_ERROR(annotate(json_to_avro(s).convert(*node, &root, out, 0), record));
  return std::optional<avro::datum>(std::move(out));
}

// An Avro instant file's record (clean metadata, cleaner plan, compaction
// plan, rollback metadata, requested replace metadata); none for an empty
// file (createMetaWrapperForEmptyInstant). `latest_version`: the version
// Hudi's migrator reads without converting (other versions are refused).
[[nodiscard]] inline StatusOr<std::optional<avro::datum>> avro_file_entry(std::string_view bytes,
                                                                          std::string_view where,
                                                                          std::optional<std::int64_t> latest_version) {
  if (bytes.empty()) return std::optional<avro::datum>();
  LAKEGC_ASSIGN_OR_RETURN(avro::datum d, avro::read_first_record(bytes, where));
  if (latest_version) {
    const auto v = d.field("version").as_int();
    if (v != latest_version) {
      return absl::FailedPreconditionError(
          fmt::format("{}: {} version {}: Hudi migrates it to version {} before archiving it, which lakegc does not",
                      where, d.type_name(), v ? fmt::format("{}", *v) : std::string("null"), *latest_version));
    }
  }
  return std::optional<avro::datum>(std::move(d));
}

inline std::string timeline_file_path(const TableProperties& props, std::string_view name) {
  return fmt::format("{}/{}", props.timeline_dir, name);
}

// createMetaWrapper for one instant file.
template <ReadableStorage S>
[[nodiscard]] StatusOr<avro::datum> convert_instant_file(S& storage, const TableProperties& props,
                                                         const TableLocation& loc, const TimelineFile& f) {
  const std::string rel = timeline_file_path(props, f.name);
  const std::string where = loc.display(rel);
  const Action a = f.parsed.action;
  const State st = f.parsed.state;
  auto read = [&](const std::string& path) { return read_table_file(storage, loc, path); };
  std::optional<avro::datum> metadata;
  std::string_view field;
  switch (a) {
    case Action::clean: {
      // CleanerUtils.getCleanerPlan reads the requested file for both pending states.
      const std::string path = st == State::completed
                                   ? rel
                                   : timeline_file_path(props, fmt::format("{}.clean.requested", f.parsed.requested));
      auto bytes = read(path);
      if (!bytes.ok() && absl::IsNotFound(bytes.status()) && path != rel && f.size == 0) {
        // The requested file is gone (a crashed run deleted it) and this one is
        // empty: Hudi's createMetaWrapperForEmptyInstant, an entry without a plan.
        field = "hoodieCleanerPlan";
        break;
      }
      if (!bytes.ok()) return bytes.status();
      LAKEGC_ASSIGN_OR_RETURN(metadata, avro_file_entry(*bytes, loc.display(path), 2));
      field = st == State::completed ? "hoodieCleanMetadata" : "hoodieCleanerPlan";
      break;
    }
    case Action::commit:
    case Action::deltacommit: {
      LAKEGC_ASSIGN_OR_RETURN(std::string bytes, read(rel));
      auto m = commit_metadata_entry(bytes, "HoodieCommitMetadata");
      if (!m.ok()) return annotate(m.status(), where);
      metadata = std::move(*m);
      field = "hoodieCommitMetadata";
      break;
    }
    case Action::replacecommit:
    case Action::clustering: {
      LAKEGC_ASSIGN_OR_RETURN(std::string bytes, read(rel));
      if (st == State::requested) {
        LAKEGC_ASSIGN_OR_RETURN(metadata, avro_file_entry(bytes, where, std::nullopt));
        field = "hoodieRequestedReplaceMetadata";
      } else {
        auto m = commit_metadata_entry(bytes,
                                       st == State::completed ? "HoodieReplaceCommitMetadata" : "HoodieCommitMetadata");
        if (!m.ok()) return annotate(m.status(), where);
        metadata = std::move(*m);
        field = st == State::completed ? "hoodieReplaceCommitMetadata" : "HoodieInflightReplaceMetadata";
      }
      break;
    }
    case Action::rollback:
      if (st == State::completed) {
        LAKEGC_ASSIGN_OR_RETURN(std::string bytes, read(rel));
        LAKEGC_ASSIGN_OR_RETURN(metadata, avro_file_entry(bytes, where, std::nullopt));
        field = "hoodieRollbackMetadata";
      }
      break;
    case Action::compaction:
    case Action::logcompaction:
      if (st == State::requested) {
        LAKEGC_ASSIGN_OR_RETURN(std::string bytes, read(rel));
        LAKEGC_ASSIGN_OR_RETURN(metadata, avro_file_entry(bytes, where, 2));
        field = "hoodieCompactionPlan";
      }
      break;
    default:
      return absl::FailedPreconditionError(fmt::format(
          "{}: a {} instant is never archived (Hudi: \"Action not fully supported yet\")", where, to_string(a)));
  }
  const avro::schema& s = archived_entry_schema();
  avro::datum e = avro::datum::make_record("org.apache.hudi.avro.model.HoodieArchivedMetaEntry");
  for (const std::string& name : s.root().names) {
    if (name == "commitTime") {
      e.add(name, avro::datum::make_string(f.parsed.requested.str()));
    } else if (name == "actionType") {
      e.add(name, avro::datum::make_string(std::string(to_string(a))));
    } else if (name == "actionState") {
      e.add(name, avro::datum::make_string(std::string(state_name(st))));
    } else if (name == "stateTransitionTime") {
      e.add(name, avro::datum::make_string(InstantTime::from_epoch_ms(f.mtime_ms, TimelineTimezone::local).str()));
    } else if (metadata && name == field) {
      e.add(name, std::move(*metadata));
    } else {
      e.add(name, avro::datum());
    }
  }
  // Checked now, before anything is written: a record Hudi's schema cannot take.
  std::string probe;
  if (Status ok = avro::encode_value(s, e, probe); !ok.ok()) {
    return annotate(ok, fmt::format("{}: its content does not fit Hudi's HoodieArchivedMetaEntry", where));
  }
  return e;
}

// (version, write token) of `.commits_.archive.<version>_<token>`.
inline std::optional<std::pair<std::uint64_t, std::string>> archive_version(std::string_view name) {
  const auto n = hudi::detail::archive_number(name);
  if (!n) return std::nullopt;
  const auto underscore = name.find('_', std::string_view(".commits_.archive.").size());
  return std::pair{*n, underscore == std::string_view::npos ? std::string() : std::string(name.substr(underscore + 1))};
}

}  // namespace detail

/// Every instant file of the `archived` instants (requested-time order, as
/// plan_archive gives them), each converted to its archived entry, in the
/// order Hudi archives them. Reads only.
template <ReadableStorage S>
[[nodiscard]] StatusOr<std::vector<ArchiveEntry>> archive_entries(S& storage, const TableProperties& props,
                                                                  const TableLocation& loc,
                                                                  const std::vector<Instant>& archived) {
  if (props.layout != TimelineLayout::v1) {
    return absl::FailedPreconditionError(
        "layout 2 archives into the LSM history, which hudi/archive_execute_lsm.hpp writes; this is layout 1's "
        "archive log");
  }
  LAKEGC_ASSIGN_OR_RETURN(std::vector<TimelineFile> files, list_timeline_files(storage, props, loc));
  using key = std::tuple<InstantTime, Action>;
  std::vector<key> wanted;
  for (const Instant& i : archived) wanted.emplace_back(i.requested, detail::comparable_action(i.action));
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  std::vector<ArchiveEntry> out;
  for (const auto& [t, action] : wanted) {
    std::vector<const TimelineFile*> group;
    for (const TimelineFile& f : files) {
      if (f.parsed.requested == t && detail::comparable_action(f.parsed.action) == action) group.push_back(&f);
    }
    std::stable_sort(group.begin(), group.end(),
                     [](const TimelineFile* a, const TimelineFile* b) { return a->parsed.state < b->parsed.state; });
    for (const TimelineFile* f : group) {
      LAKEGC_ASSIGN_OR_RETURN(avro::datum e, detail::convert_instant_file(storage, props, loc, *f));
      out.push_back({f->name, t, f->parsed.action, f->parsed.state, std::move(e)});
    }
  }
  return out;
}

/// Instants a crashed run archived but did not finish deleting: completed on
/// the active timeline and archived in the completed state (an instant's
/// entries are written in one file, so all of it is in the archive). The
/// next run deletes their files, as the crashed one would have.
[[nodiscard]] inline std::vector<Instant> interrupted_archival(const archived_timeline& archive,
                                                               const Timeline& active) {
  std::set<std::pair<InstantTime, Action>> done;
  for (const archived_instant& i : archive.instants) {
    if (i.state == State::completed) done.emplace(i.requested, detail::comparable_action(i.action));
  }
  std::vector<Instant> out;
  for (const Instant& i : active.instants()) {
    if (i.is_completed() && done.contains({i.requested, detail::comparable_action(i.action)})) out.push_back(i);
  }
  return out;
}

/// The bytes of archive log files holding `entries`: blocks of `batch`
/// entries, a new file once one passes the rollover size.
[[nodiscard]] inline StatusOr<std::vector<std::string>> encode_archive_files(const std::vector<avro::datum>& entries,
                                                                             const ArchiveWriteOptions& o) {
  std::vector<std::string> files;
  if (entries.empty()) return files;
  files.emplace_back();
  const std::size_t batch = static_cast<std::size_t>(std::max<std::int32_t>(1, o.batch));
  for (std::size_t at = 0; at < entries.size(); at += batch) {
    const std::size_t n = std::min(batch, entries.size() - at);
    log::log_block b;
    b.type = log::block_type::avro_data;
    b.header[log::header_key::schema] = std::string(kArchivedMetaEntrySchema);
    LAKEGC_ASSIGN_OR_RETURN(b.content, log::encode_avro_records(detail::archived_entry_schema(),
                                                                std::span<const avro::datum>(&entries[at], n)));
    LAKEGC_ASSIGN_OR_RETURN(std::string bytes, log::encode_block(b));
    files.back() += bytes;
    // HoodieLogFormatWriter.rolloverIfNeeded, after each block.
    if (files.back().size() > o.rollover_bytes && at + n < entries.size()) files.emplace_back();
  }
  return files;
}

/// Archives `entries` (archive_entries() of the plan's instants; see the top
/// of this file). The caller holds the table lock and planned on the
/// timeline as it is under that lock. Nothing is changed before the archive
/// log is encoded whole.
template <Storage S>
[[nodiscard]] StatusOr<ArchiveExecution> execute_archive(S& storage, const TableProperties& props,
                                                         const TableLocation& loc, std::vector<ArchiveEntry> entries,
                                                         const ArchiveWriteOptions& o = {}) {
  ArchiveExecution out;
  out.entries = std::move(entries);
  if (out.entries.empty()) return out;
  LAKEGC_ASSIGN_OR_RETURN(const std::string dir, hudi::detail::archive_folder(props));
  LAKEGC_ASSIGN_OR_RETURN(archived_timeline already, read_archived_timeline(storage, props));
  std::set<std::tuple<InstantTime, Action, State>> present;
  for (const archived_instant& i : already.instants) present.emplace(i.requested, i.action, i.state);
  std::vector<avro::datum> to_write;
  for (const ArchiveEntry& e : out.entries) {
    if (present.contains({e.requested, e.action, e.state})) {
      ++out.entries_already_archived;
    } else {
      to_write.push_back(e.entry);
    }
  }
  LAKEGC_ASSIGN_OR_RETURN(std::vector<std::string> bytes, encode_archive_files(to_write, o));

  // deleteAnyLeftOverMarkers, per archived instant.
  std::set<InstantTime> instants;
  for (const ArchiveEntry& e : out.entries) instants.insert(e.requested);
  for (const InstantTime& t : instants) {
    const std::string markers = fmt::format(".hoodie/.temp/{}", t);
    LAKEGC_ASSIGN_OR_RETURN(bool removed, remove_tree(storage, loc, markers));
    if (removed) out.markers_deleted.push_back(markers);
  }

  // The next archive file version after the newest (FSUtils.getLatestLogVersion, then rollOver).
  std::uint64_t version = 0;
  std::string token = "1-0-1";
  LAKEGC_ASSIGN_OR_RETURN(const auto existing, hudi::detail::list_archive_files(storage, dir));
  for (const auto& [number, path] : existing) {
    const auto v = detail::archive_version(path.substr(path.rfind('/') + 1));
    if (v && (v->first > version || (v->first == version && v->second > token))) {
      version = v->first;
      if (!v->second.empty()) token = v->second;
    }
  }
  for (const std::string& file : bytes) {
    for (;;) {
      ++version;
      const std::string path = fmt::format("{}/.commits_.archive.{}_{}", dir, version, token);
      const Status st = storage.write_if_absent(path, file);
      if (absl::IsAlreadyExists(st)) continue;  // FileAlreadyExistsException: roll over
      LAKEGC_RETURN_IF_ERROR(annotate(st, loc.display(path)));
      out.archive_files_written.push_back(path);
      break;
    }
  }
  out.entries_written = to_write.size();

  // deleteArchivedInstants: pending files first, then completed ones oldest first.
  for (const bool completed : {false, true}) {
    for (const ArchiveEntry& e : out.entries) {
      if ((e.state == State::completed) != completed) continue;
      const std::string rel = detail::timeline_file_path(props, e.file);
      const Status st = storage.remove(rel);
      if (!st.ok() && !absl::IsNotFound(st)) return annotate(st, loc.display(rel));
      out.instant_files_deleted.push_back(rel);
    }
  }
  return out;
}

}  // namespace lakegc::hudi
