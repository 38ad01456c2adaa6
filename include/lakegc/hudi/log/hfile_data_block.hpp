// File: lakegc/hudi/log/hfile_data_block.hpp
// -----------------------------------------------------------------------------
// The content of an HFILE_DATA_BLOCK: a whole HFile (hfile/read_hfile.hpp)
// whose cells are the block's records keyed by record key, written by
// HFileUtils.serializeRecordsToLogBlock. The metadata table writes every
// log block of its partitions this way. The writer schema is the block's
// SCHEMA header (the embedded HFile repeats it in its file info).
//
// Written (make_hfile_data_block) as Hudi writes one: records sorted by key,
// each encoded with the writer schema after its key field is set to ""
// (the key is the HFile row; HFileUtils.serializeRecord), the schema in the
// file info under "schema", gzip blocks (hfile/write_hfile.hpp).
#pragma once

#include <algorithm>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/hfile/avro_records.hpp"
#include "lakegc/hudi/hfile/read_hfile.hpp"
#include "lakegc/hudi/hfile/write_hfile.hpp"
#include "lakegc/hudi/log/avro_data_block.hpp"
#include "lakegc/hudi/log/block.hpp"

namespace lakegc::hudi::log {

/// The records of an HFILE_DATA_BLOCK, keyed by record key.
[[nodiscard]] inline StatusOr<std::vector<hfile::keyed_record>> decode_hfile_records(
    const log_block& b, std::string_view file_name_for_errors) {
  const std::string where = fmt::format("{}: HFILE_DATA_BLOCK at byte {}", file_name_for_errors, b.offset);
  if (b.type != block_type::hfile_data) return absl::InvalidArgumentError(fmt::format("{}: not an HFile block", where));
  auto schema = block_schema(b);
  if (!schema.ok()) return annotate(schema.status(), file_name_for_errors);
  // Offsets inside the embedded HFile are relative to the block's content.
  LAKEGC_ASSIGN_OR_RETURN(
      hfile::hfile_contents contents,
      hfile::read_hfile(b.content, fmt::format("{} (content at byte {})", where, b.content_offset)));
  return hfile::avro_records(contents, **schema, where);
}

/// An HFILE_DATA_BLOCK of `records` (key, record whose `key_field` holds
/// the key) written by `instant_time` with writer schema `schema_json`.
[[nodiscard]] inline StatusOr<log_block> make_hfile_data_block(
    std::string_view schema_json, std::span<const std::pair<std::string, avro::datum>> records,
    std::string_view instant_time, std::string_view key_field = "key",
    std::map<std::string, std::string> extra_file_info = {}) {
  LAKEGC_ASSIGN_OR_RETURN(auto schema, avro::cached_schema(schema_json));
  std::vector<std::pair<std::string, std::string>> cells;
  cells.reserve(records.size());
  for (const auto& [key, record] : records) {
    // HFileUtils.serializeRecord: the key field is emptied, the row is the key.
    avro::datum stripped = avro::datum::make_record(std::string(record.type_name()));
    for (std::size_t i = 0; i < record.size(); ++i) {
      stripped.add(record.keys()[i],
                   record.keys()[i] == key_field ? avro::datum::make_string("") : record.elements()[i]);
    }
    std::string value;
    const Status st = avro::encode_value(*schema, stripped, value);
    if (!st.ok()) return annotate(st, fmt::format("record '{}'", key));
    cells.emplace_back(key, std::move(value));
  }
  std::sort(cells.begin(), cells.end());
  extra_file_info["schema"] = std::string(schema_json);
  LAKEGC_ASSIGN_OR_RETURN(std::string content, hfile::write_hfile(cells, extra_file_info));
  log_block b;
  b.type = block_type::hfile_data;
  b.header[header_key::instant_time] = std::string(instant_time);
  b.header[header_key::schema] = std::string(schema_json);
  b.content = std::move(content);
  return b;
}

}  // namespace lakegc::hudi::log
