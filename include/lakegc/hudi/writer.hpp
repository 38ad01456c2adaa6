// File: lakegc/hudi/writer.hpp
// -----------------------------------------------------------------------------
// hudi::table_writer<Storage>: writes small Hudi tables in timeline layout 1
// (table version 6, what Hudi 0.14/0.15 writes) through any Storage, for the
// demo and for tests that need a table on disk without Spark.
//
// What it writes is what Hudi's readers look for (docs/hudi-rules.md §1-§2,
// docs/hudi-formats.md "Instant files"):
//   .hoodie/hoodie.properties                 table config, with the checksum
//                                             Hudi verifies (CRC32 of "<db>.<name>")
//   <partition>/.hoodie_partition_metadata    commitTime, partitionDepth
//   .hoodie/<t>.commit.requested              0 bytes  (deltacommit: .deltacommit.requested)
//   .hoodie/<t>.inflight                      JSON HoodieCommitMetadata without stats
//                                             (deltacommit: .deltacommit.inflight)
//   .hoodie/<t>.commit                        JSON HoodieCommitMetadata with
//                                             partitionToWriteStats (.deltacommit)
// Data files get the caller's bytes: nothing here reads them, so tests may
// use any placeholder content. Names follow the base and log grammars; log
// files are named by their slice's base instant, as in table version 6.
//
// Every file is created with write_if_absent, so a writer never overwrites
// an instant; the instants a caller passes must be new and increasing.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/crc.hpp>
#include <fmt/format.h>

#include "lakegc/core/file_name.hpp"
#include "lakegc/core/json_writer.hpp"
#include "lakegc/core/load_view.hpp"
#include "lakegc/hudi/table_properties.hpp"
#include "lakegc/policy/config.hpp"
#include "lakegc/storage/path.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc::hudi {

struct TableConfig {
  std::string name = "lakegc_table";
  std::string database = "default";
  TableType type = TableType::copy_on_write;
  /// Empty: a non-partitioned table (files in the root).
  std::vector<std::string> partition_fields;
  bool hive_style_partitioning = true;
  /// Instant times of this table are written in this zone.
  TimelineTimezone timezone = TimelineTimezone::utc;
  std::string record_key = "id";
};

namespace detail {

/// CRC-32 (IEEE 802.3), as java.util.zip.CRC32 computes it.
inline std::uint32_t crc32(std::string_view data) {
  boost::crc_32_type crc;
  crc.process_bytes(data.data(), data.size());
  return crc.checksum();
}

using lakegc::json_quote;

}  // namespace detail

template <Storage S>
class table_writer {
 public:
  /// Creates the table: writes `.hoodie/hoodie.properties`. AlreadyExists
  /// when the storage already holds a table.
  [[nodiscard]] static StatusOr<table_writer> create(S& storage, TableConfig config) {
    table_writer w(storage, std::move(config));
    LAKEGC_RETURN_IF_ERROR(storage.write_if_absent(kPropertiesPath, w.properties_text()));
    return w;
  }

  const TableConfig& config() const noexcept { return config_; }

  /// `<uuid>-0`: a file id in Hudi's shape, derived from `n`.
  static std::string file_id(std::uint64_t n) {
    return fmt::format("{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}-0", static_cast<std::uint32_t>(n * 2654435761U),
                       static_cast<unsigned>((n >> 16) & 0xFFFFU), static_cast<unsigned>(n & 0xFFFU),
                       static_cast<unsigned>((n >> 4) & 0xFFFU), n);
  }

  /// Starts a write at `t`: a commit on Copy-on-Write tables, a deltacommit
  /// on Merge-on-Read ones. Writes the requested and in-flight files.
  [[nodiscard]] Status start(const InstantTime& t) {
    if (writes_.contains(t)) return absl::AlreadyExistsError(fmt::format("write {} already started", t));
    const bool cow = config_.type == TableType::copy_on_write;
    LAKEGC_RETURN_IF_ERROR(put(fmt::format(".hoodie/{}.{}.requested", t, action()), ""));
    const std::string inflight =
        cow ? fmt::format(".hoodie/{}.inflight", t) : fmt::format(".hoodie/{}.deltacommit.inflight", t);
    LAKEGC_RETURN_IF_ERROR(put(inflight, metadata_json({}, "UPSERT")));
    writes_[t] = {};
    return Status();
  }

  /// Writes a base file of group `file_id` in `partition` for the write at
  /// `t` (a new slice of that group). Returns the file name.
  [[nodiscard]] StatusOr<std::string> write_base_file(const InstantTime& t, std::string_view partition,
                                                      std::string_view file_id, std::string_view bytes) {
    LAKEGC_ASSIGN_OR_RETURN(Write * w, pending(t));
    LAKEGC_RETURN_IF_ERROR(ensure_partition(partition, t));
    BaseFileName name{std::string(file_id), token(*w), t, "parquet"};
    const std::string file = format_file_name(name);
    Stat s = stat_of(partition, file_id, file, bytes);
    LAKEGC_RETURN_IF_ERROR(put(s.path, bytes));
    auto& g = groups_[{s.partition, s.file_id}];
    s.prev_commit = g.base ? g.base->str() : "null";
    g.base = t;
    g.base_file = file;
    g.log_version = 0;
    w->stats.push_back(std::move(s));
    return file;
  }

  /// Merge-on-Read: appends a log file to the current slice of group
  /// `file_id` (named by the slice's base instant, as table version 6
  /// does). Returns the file name.
  [[nodiscard]] StatusOr<std::string> write_log_file(const InstantTime& t, std::string_view partition,
                                                     std::string_view file_id, std::string_view bytes) {
    if (config_.type != TableType::merge_on_read) {
      return absl::FailedPreconditionError("write_log_file: Copy-on-Write tables have no log files");
    }
    LAKEGC_ASSIGN_OR_RETURN(Write * w, pending(t));
    auto it = groups_.find({std::string(partition), std::string(file_id)});
    if (it == groups_.end() || !it->second.base) {
      return absl::FailedPreconditionError(
          fmt::format("write_log_file: group {}/{} has no base file to append to", partition, file_id));
    }
    LAKEGC_RETURN_IF_ERROR(ensure_partition(partition, t));
    Group& g = it->second;
    LogFileName name;
    name.file_id = std::string(file_id);
    name.instant = *g.base;
    name.version = std::to_string(++g.log_version);
    name.write_token = token(*w);
    const std::string file = format_file_name(name);
    Stat s = stat_of(partition, file_id, file, bytes);
    LAKEGC_RETURN_IF_ERROR(put(s.path, bytes));
    s.prev_commit = g.base->str();
    s.log = true;
    s.base_file = g.base_file;
    s.log_version = g.log_version;
    w->stats.push_back(std::move(s));
    return file;
  }

  /// Completes the write at `t`: `.commit` / `.deltacommit` with the write
  /// stats of every file it wrote.
  [[nodiscard]] Status complete(const InstantTime& t, std::string_view operation_type = "UPSERT") {
    LAKEGC_ASSIGN_OR_RETURN(Write * w, pending(t));
    LAKEGC_RETURN_IF_ERROR(put(fmt::format(".hoodie/{}.{}", t, action()), metadata_json(w->stats, operation_type)));
    writes_.erase(t);
    ++completed_stages_;
    return Status();
  }

 private:
  struct Stat {
    std::string partition, file_id, path, prev_commit, base_file;
    std::uint64_t size = 0;
    bool log = false;
    int log_version = 0;
  };
  struct Write {
    std::vector<Stat> stats;
  };
  /// The write stat every data file starts with: where it is and its size.
  static Stat stat_of(std::string_view partition, std::string_view file_id, std::string_view file,
                      std::string_view bytes) {
    Stat s;
    s.partition = std::string(partition);
    s.file_id = std::string(file_id);
    s.path = join_path(partition, file);
    s.size = bytes.size();
    return s;
  }
  struct Group {
    std::optional<InstantTime> base;
    std::string base_file;
    int log_version = 0;
  };

  table_writer(S& storage, TableConfig config) : storage_(&storage), config_(std::move(config)) {}

  std::string_view action() const { return config_.type == TableType::copy_on_write ? "commit" : "deltacommit"; }

  [[nodiscard]] Status put(const std::string& path, std::string_view bytes) {
    return annotate(storage_->write_if_absent(path, bytes), fmt::format("writing {}", path));
  }

  [[nodiscard]] StatusOr<Write*> pending(const InstantTime& t) {
    auto it = writes_.find(t);
    if (it == writes_.end()) return absl::FailedPreconditionError(fmt::format("no write in progress at {}", t));
    return &it->second;
  }

  // Write tokens are <taskPartitionId>-<stageId>-<taskAttemptId>.
  std::string token(const Write& w) {
    ++attempt_;
    return fmt::format("{}-{}-{}", w.stats.size(), writes_.size() + completed_stages_, attempt_);
  }

  [[nodiscard]] Status ensure_partition(std::string_view partition, const InstantTime& t) {
    const std::string path = join_path(partition, kPartitionMetadataFile);
    auto st = storage_->stat(path);
    if (st.ok()) return Status();
    if (!absl::IsNotFound(st.status())) return st.status();
    std::size_t depth = partition.empty() ? 0 : 1;
    for (const char c : partition) depth += c == '/' ? 1 : 0;
    return put(path, fmt::format("#partition metadata\ncommitTime={}\npartitionDepth={}\n", t, depth));
  }

  std::string properties_text() const {
    std::string partition_fields;
    for (const auto& f : config_.partition_fields) {
      if (!partition_fields.empty()) partition_fields += ',';
      partition_fields += f;
    }
    const bool partitioned = !config_.partition_fields.empty();
    const std::string keygen = !partitioned                           ? "NonpartitionedKeyGenerator"
                               : config_.partition_fields.size() == 1 ? "SimpleKeyGenerator"
                                                                      : "ComplexKeyGenerator";
    std::vector<std::pair<std::string, std::string>> kv = {
        {"hoodie.table.name", config_.name},
        {"hoodie.database.name", config_.database},
        {"hoodie.table.type", std::string(to_string(config_.type))},
        {"hoodie.table.version", "6"},
        {"hoodie.timeline.layout.version", "1"},
        {"hoodie.archivelog.folder", "archived"},
        {"hoodie.table.base.file.format", "PARQUET"},
        {"hoodie.table.recordkey.fields", config_.record_key},
        {"hoodie.table.keygenerator.class", "org.apache.hudi.keygen." + keygen},
        {"hoodie.table.timeline.timezone", config_.timezone == TimelineTimezone::utc ? "UTC" : "LOCAL"},
        {"hoodie.datasource.write.hive_style_partitioning", config_.hive_style_partitioning ? "true" : "false"},
        {"hoodie.datasource.write.partitionpath.urlencode", "false"},
        {"hoodie.populate.meta.fields", "true"},
        {"hoodie.table.checksum", std::to_string(detail::crc32(fmt::format("{}.{}", config_.database, config_.name)))},
    };
    if (partitioned) kv.emplace_back("hoodie.table.partition.fields", partition_fields);
    std::string out = "#Properties saved by lakegc\n";
    for (const auto& [k, v] : kv) out += fmt::format("{}={}\n", k, config::properties_escape(v, /*key=*/false));
    return out;
  }

  // Jackson's pretty-printed HoodieCommitMetadata (HoodieDeltaWriteStat
  // fields for log files), the shape Hudi 0.14 writes.
  std::string metadata_json(const std::vector<Stat>& stats, std::string_view operation_type) const {
    std::map<std::string, std::vector<const Stat*>> by_partition;
    for (const Stat& s : stats) by_partition[s.partition].push_back(&s);
    std::string out = "{\n  \"partitionToWriteStats\" : {";
    bool first_p = true;
    for (const auto& [partition, list] : by_partition) {
      out += first_p ? "\n" : ",\n";
      first_p = false;
      out += fmt::format("    {} : [ ", detail::json_quote(partition));
      bool first_s = true;
      for (const Stat* s : list) {
        if (!first_s) out += ", ";
        first_s = false;
        out += "{\n";
        out += fmt::format("      \"fileId\" : {},\n", detail::json_quote(s->file_id));
        out += fmt::format("      \"path\" : {},\n", detail::json_quote(s->path));
        out += fmt::format("      \"prevCommit\" : {},\n", detail::json_quote(s->prev_commit));
        out += "      \"numWrites\" : 1,\n      \"numDeletes\" : 0,\n      \"numUpdateWrites\" : 0,\n";
        out += "      \"numInserts\" : 1,\n";
        out += fmt::format("      \"totalWriteBytes\" : {},\n", s->size);
        out += "      \"totalWriteErrors\" : 0,\n      \"tempPath\" : null,\n";
        out += fmt::format("      \"partitionPath\" : {},\n", detail::json_quote(s->partition));
        out += fmt::format("      \"fileSizeInBytes\" : {}", s->size);
        if (s->log) {
          out += fmt::format(",\n      \"logVersion\" : {},\n      \"logOffset\" : 0,\n", s->log_version);
          out += fmt::format("      \"baseFile\" : {},\n", detail::json_quote(s->base_file));
          const auto slash = s->path.rfind('/');
          const std::string name = slash == std::string::npos ? s->path : s->path.substr(slash + 1);
          out += fmt::format("      \"logFiles\" : [ {} ]", detail::json_quote(name));
        }
        out += "\n    }";
      }
      out += " ]";
    }
    out += by_partition.empty() ? "},\n" : "\n  },\n";
    out += "  \"compacted\" : false,\n";
    const std::string schema = fmt::format(
        R"({{"type":"record","name":"{}_record","namespace":"hoodie.{}","fields":[{{"name":"{}","type":"string"}}]}})",
        config_.name, config_.name, config_.record_key);
    out += fmt::format("  \"extraMetadata\" : {{\n    \"schema\" : {}\n  }},\n", detail::json_quote(schema));
    out += fmt::format("  \"operationType\" : {}\n}}", detail::json_quote(operation_type));
    return out;
  }

  S* storage_;
  TableConfig config_;
  std::map<InstantTime, Write> writes_;
  std::map<std::pair<std::string, std::string>, Group> groups_;
  std::uint64_t attempt_ = 0;
  std::uint64_t completed_stages_ = 0;
};

}  // namespace lakegc::hudi
