// File: lakegc/hudi/log/avro_data_block.hpp
// -----------------------------------------------------------------------------
// The content of an AVRO_DATA_BLOCK (and of a CDC_DATA_BLOCK, which Hudi
// encodes the same way: HoodieCDCDataBlock extends HoodieAvroDataBlock), as
// HoodieAvroDataBlock.serializeRecords writes it:
//
//   int32 content version (HoodieLogBlock.version, 3 since Hudi 0.10)
//   int32 record count
//   per record: int32 length, the record in Avro binary
//
// with the writer schema in the block's SCHEMA header. Versions 1 to 3 all
// have the record count (HoodieAvroDataBlockVersion.hasRecordCount); the
// schema-in-content layout of log format version 0 is not read (read_blocks
// refuses version 0 blocks).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/avro/datum.hpp"
#include "lakegc/hudi/avro/decode.hpp"
#include "lakegc/hudi/avro/encode.hpp"
#include "lakegc/hudi/avro/schema.hpp"
#include "lakegc/hudi/byte_cursor.hpp"
#include "lakegc/hudi/log/block.hpp"

namespace lakegc::hudi::log {

/// HoodieLogBlock.version: the content version Hudi writes into data and
/// delete blocks.
inline constexpr std::int32_t content_version = 3;

/// The two int32s every data and delete block's content starts with: the
/// content version, then a record count (data) or a byte length (delete).
[[nodiscard]] inline Status read_content_head(byte_cursor& in, std::int32_t& version, std::int32_t& second,
                                              std::string_view second_what) {
  LAKEGC_RETURN_IF_ERROR(in.read_be32(version, "content version"));
  return in.read_be32(second, second_what);
}

/// The writer schema of a data block, from its SCHEMA header.
[[nodiscard]] inline StatusOr<std::shared_ptr<const avro::schema>> block_schema(const log_block& b) {
  const auto json = b.get(header_key::schema);
  if (!json) {
    return absl::DataLossError(fmt::format("{} at byte {} has no SCHEMA header", block_type_name(b.type), b.offset));
  }
  auto s = avro::cached_schema(*json);
  if (!s.ok()) {
    return annotate(s.status(),
                    fmt::format("{} at byte {}: its SCHEMA header does not parse", block_type_name(b.type), b.offset));
  }
  return s;
}

/// The records of an AVRO_DATA_BLOCK or CDC_DATA_BLOCK.
[[nodiscard]] inline StatusOr<std::vector<avro::datum>> decode_avro_records(const log_block& b,
                                                                            std::string_view file_name_for_errors) {
  auto fail = [&](const Status& st) {
    return annotate(st, fmt::format("{}: {} at byte {}", file_name_for_errors, block_type_name(b.type), b.offset));
  };
  if (b.type != block_type::avro_data && b.type != block_type::cdc_data) {
    return fail(absl::InvalidArgumentError("not an Avro data block"));
  }
  auto schema = block_schema(b);
  if (!schema.ok()) return annotate(schema.status(), file_name_for_errors);
  byte_cursor in(b.content, b.content_offset);
  std::int32_t version = 0;
  std::int32_t count = 0;
  Status st = read_content_head(in, version, count, "record count");
  if (!st.ok()) return fail(st);
  if (version < 1 || version > content_version) {
    return fail(absl::UnimplementedError(fmt::format("content version {} is not one Hudi writes", version)));
  }
  // Each record takes at least its 4-byte length.
  if (count < 0 || static_cast<std::uint64_t>(count) > in.remaining() / 4) {
    return fail(in.error_here(fmt::format("record count {} does not fit in the content", count)));
  }
  std::vector<avro::datum> records;
  records.reserve(static_cast<std::size_t>(count));
  for (std::int32_t i = 0; i < count; ++i) {
    std::int32_t length = 0;
    if (st = in.read_be32(length, "record length"); !st.ok()) return fail(st);
    if (length < 0) return fail(in.error_here(fmt::format("negative record length {}", length)));
    const std::size_t at = in.offset();
    std::string_view bytes;
    if (st = in.take(static_cast<std::size_t>(length), bytes, "record"); !st.ok()) return fail(st);
    auto d = avro::decode_single_value(**schema, bytes, at);
    if (!d.ok()) return fail(annotate(d.status(), fmt::format("record {}", i)));
    records.push_back(std::move(*d));
  }
  if (!in.at_end())
    return fail(in.error_here(fmt::format("{} bytes left over after {} records", in.remaining(), count)));
  return records;
}

/// The content of an Avro data block holding `records`, each encoded
/// against `schema`.
[[nodiscard]] inline StatusOr<std::string> encode_avro_records(const avro::schema& schema,
                                                               std::span<const avro::datum> records) {
  std::string out;
  put_be<std::int32_t>(out, content_version);
  put_be<std::int32_t>(out, static_cast<std::int32_t>(records.size()));
  std::string record;
  for (std::size_t i = 0; i < records.size(); ++i) {
    record.clear();
    const Status st = avro::encode_value(schema, records[i], record);
    if (!st.ok()) return annotate(st, fmt::format("record {}", i));
    put_be<std::int32_t>(out, static_cast<std::int32_t>(record.size()));
    out += record;
  }
  return out;
}

/// An AVRO_DATA_BLOCK of `records` written by `instant_time` with writer
/// schema `schema_json` (INSTANT_TIME and SCHEMA headers, as
/// HoodieAppendHandle writes them), plus `extra_header` entries.
[[nodiscard]] inline StatusOr<log_block> make_avro_data_block(std::string_view schema_json,
                                                              std::span<const avro::datum> records,
                                                              std::string_view instant_time,
                                                              std::map<header_key, std::string> extra_header = {}) {
  LAKEGC_ASSIGN_OR_RETURN(auto schema, avro::cached_schema(schema_json));
  log_block b;
  b.type = block_type::avro_data;
  b.header = std::move(extra_header);
  b.header[header_key::instant_time] = std::string(instant_time);
  b.header[header_key::schema] = std::string(schema_json);
  LAKEGC_ASSIGN_OR_RETURN(b.content, encode_avro_records(*schema, records));
  return b;
}

}  // namespace lakegc::hudi::log
