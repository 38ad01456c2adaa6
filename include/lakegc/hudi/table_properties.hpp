// File: lakegc/hudi/table_properties.hpp
// -----------------------------------------------------------------------------
// The facts of `.hoodie/hoodie.properties` that a reader or cleaner needs
// (docs/hudi-formats.md, "hoodie.properties"): table type and version, timeline layout and
// folder, the timezone instant times are written in, partition fields,
// hive-style partitioning, the metadata table's partitions and the base
// file format.
//
// The file is a Java properties file (`\:` and `\=` escapes inside values),
// read with config::parse_properties. Absent keys take Hudi's defaults; a
// present key with a value lakegc does not know is an error naming the file
// and the key, never a guess: a table type or layout read wrongly changes
// which files look committed.
//
// The cleaner's settings (`hoodie.clean.*`) are writer configuration and are
// never in this file; they come from the user (lakegc::config).
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/instant_time.hpp"
#include "lakegc/core/timeline.hpp"
#include "lakegc/policy/config.hpp"
#include "lakegc/storage/path.hpp"

namespace lakegc::hudi {

enum class TableType : std::uint8_t { copy_on_write, merge_on_read };

constexpr std::string_view to_string(TableType t) noexcept {
  return t == TableType::copy_on_write ? "COPY_ON_WRITE" : "MERGE_ON_READ";
}

/// Where hoodie.properties lives, relative to the table root.
inline constexpr std::string_view kPropertiesPath = ".hoodie/hoodie.properties";

/// The table versions this reader knows. Versions 0-5 predate the corpus
/// (and layout 0 renamed instant files); 10 and later may change formats.
inline constexpr int kMinTableVersion = 1;
inline constexpr int kMaxTableVersion = 9;

struct TableProperties {
  std::string name;      ///< hoodie.table.name
  std::string database;  ///< hoodie.database.name, "" when absent
  TableType type = TableType::copy_on_write;
  int version = 0;  ///< hoodie.table.version
  TimelineLayout layout = TimelineLayout::v1;
  /// Timeline folder relative to the table root: `.hoodie` (layout 1) or
  /// `.hoodie/<hoodie.timeline.path>` (layout 2, default `timeline`).
  std::string timeline_dir = ".hoodie";
  TimelineTimezone timezone = TimelineTimezone::local;
  /// hoodie.table.partition.fields, without CustomKeyGenerator's `:type`.
  std::vector<std::string> partition_fields;
  bool hive_style_partitioning = false;
  /// hoodie.table.metadata.partitions: the metadata table is usable for
  /// file listing only when `files` is among them.
  std::vector<std::string> metadata_partitions;
  std::string base_file_format = "PARQUET";  ///< upper case, as Hudi writes it
  /// hoodie.bootstrap.base.path: the table was bootstrapped from another.
  std::optional<std::string> bootstrap_base_path;
  /// Every key as read, for callers that need more.
  config::Properties raw;

  bool partitioned() const noexcept { return !partition_fields.empty(); }
};

namespace detail {

inline std::vector<std::string> split_list(std::string_view s) {
  std::vector<std::string> out;
  while (!s.empty()) {
    const auto comma = s.find(',');
    std::string_view item = s.substr(0, comma);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (!item.empty()) out.emplace_back(item);
    if (comma == std::string_view::npos) break;
    s.remove_prefix(comma + 1);
  }
  return out;
}

inline std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

}  // namespace detail

/// Reads hoodie.properties text. `source` names the file in errors.
[[nodiscard]] inline StatusOr<TableProperties> parse_table_properties(std::string_view text, std::string_view source) {
  LAKEGC_ASSIGN_OR_RETURN(config::Properties props, config::parse_properties(text, source));
  auto bad = [&](std::string_view key, std::string_view value, std::string_view expected) {
    return absl::InvalidArgumentError(fmt::format("{}: {}={}: expected {}", source, key, value, expected));
  };
  auto get = [&](const std::string& key) -> const std::string* {
    auto it = props.find(key);
    return it == props.end() ? nullptr : &it->second;
  };
  auto read_int = [&](const std::string& key, const std::string& value, int& out) -> Status {
    const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), out);
    if (ec != std::errc() || ptr != value.data() + value.size()) return bad(key, value, "a whole number");
    return Status();
  };

  TableProperties p;
  if (const auto* v = get("hoodie.table.name")) p.name = *v;
  if (const auto* v = get("hoodie.database.name")) p.database = *v;

  // HoodieTableConfig's default type is COPY_ON_WRITE.
  if (const auto* v = get("hoodie.table.type")) {
    const std::string t = detail::upper(*v);
    if (t == "COPY_ON_WRITE") {
      p.type = TableType::copy_on_write;
    } else if (t == "MERGE_ON_READ") {
      p.type = TableType::merge_on_read;
    } else {
      return bad("hoodie.table.type", *v, "COPY_ON_WRITE or MERGE_ON_READ");
    }
  }

  // Tables written before versioning (Hudi 0.5) carry no version: Hudi
  // reads them as version 0, which lakegc does not support.
  if (const auto* v = get("hoodie.table.version")) {
    LAKEGC_RETURN_IF_ERROR(read_int("hoodie.table.version", *v, p.version));
  }
  if (p.version < kMinTableVersion || p.version > kMaxTableVersion) {
    return absl::FailedPreconditionError(
        fmt::format("{}: hoodie.table.version={}: lakegc reads table versions {} to {}", source,
                    get("hoodie.table.version") != nullptr ? *get("hoodie.table.version") : std::string("(absent)"),
                    kMinTableVersion, kMaxTableVersion));
  }

  // Layout: the key if present, else 2 from table version 8 on (hudi-rs
  // builder.rs, Hudi's TimelineLayoutVersion).
  int layout = p.version >= 8 ? 2 : 1;
  if (const auto* v = get("hoodie.timeline.layout.version")) {
    LAKEGC_RETURN_IF_ERROR(read_int("hoodie.timeline.layout.version", *v, layout));
  }
  if (layout == 0) {
    return absl::FailedPreconditionError(fmt::format(
        "{}: hoodie.timeline.layout.version=0: timelines written before Hudi 0.5.1 (renamed instant files) are "
        "not supported",
        source));
  }
  if (layout != 1 && layout != 2) {
    return bad("hoodie.timeline.layout.version", std::to_string(layout), "1 or 2");
  }
  if (layout == 2 && p.version < 8) {
    return absl::FailedPreconditionError(fmt::format(
        "{}: hoodie.timeline.layout.version=2 with hoodie.table.version={}: layout 2 needs table version 8 or later",
        source, p.version));
  }
  p.layout = layout == 2 ? TimelineLayout::v2 : TimelineLayout::v1;
  if (p.layout == TimelineLayout::v2) {
    std::string sub = "timeline";
    if (const auto* v = get("hoodie.timeline.path"); v != nullptr && !v->empty()) sub = *v;
    // The folder name comes from the file: keep it inside .hoodie.
    if (!lakegc::detail::check_relative_path(sub, "hoodie.timeline.path").ok()) {
      return bad("hoodie.timeline.path", sub, "a folder name relative to .hoodie");
    }
    p.timeline_dir = ".hoodie/" + sub;
  }

  if (const auto* v = get("hoodie.table.timeline.timezone")) {
    const std::string tz = detail::upper(*v);
    if (tz == "UTC") {
      p.timezone = TimelineTimezone::utc;
    } else if (tz == "LOCAL") {
      p.timezone = TimelineTimezone::local;
    } else {
      return bad("hoodie.table.timeline.timezone", *v, "LOCAL or UTC");
    }
  }

  if (const auto* v = get("hoodie.table.partition.fields")) {
    for (std::string f : detail::split_list(*v)) {
      // CustomKeyGenerator writes `field:SIMPLE` / `field:TIMESTAMP`.
      if (const auto colon = f.find(':'); colon != std::string::npos) f.resize(colon);
      p.partition_fields.push_back(std::move(f));
    }
  }
  if (const auto* v = get("hoodie.datasource.write.hive_style_partitioning")) {
    if (*v == "true") {
      p.hive_style_partitioning = true;
    } else if (*v != "false") {
      return bad("hoodie.datasource.write.hive_style_partitioning", *v, "true or false");
    }
  }
  if (const auto* v = get("hoodie.table.metadata.partitions")) p.metadata_partitions = detail::split_list(*v);
  if (const auto* v = get("hoodie.table.base.file.format"); v != nullptr && !v->empty()) {
    p.base_file_format = detail::upper(*v);
  }
  if (const auto* v = get("hoodie.bootstrap.base.path"); v != nullptr && !v->empty()) p.bootstrap_base_path = *v;
  p.raw = std::move(props);
  return p;
}

}  // namespace lakegc::hudi
