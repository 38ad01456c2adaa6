// File: lakegc/hudi/log/block.hpp
// -----------------------------------------------------------------------------
// One block of a Hudi log file, as HoodieLogFormatWriter writes it (Hudi
// 0.14 to 1.2, log format version 1 = HoodieLogFormat.INLINE_LOG_FORMAT_VERSION;
// every integer big-endian, as Java's DataOutputStream writes it):
//
//   magic "#HUDI#"                      6 bytes
//   block size                          int64: bytes from after this field to
//                                        the end of the block
//   log format version                  int32 (1)
//   block type                          int32, HoodieLogBlockType ordinal
//   header                              int32 count, then per entry: int32
//                                        HeaderMetadataType ordinal, int32
//                                        length, UTF-8 bytes
//   content length                      int64
//   content                             the block type's encoding
//   footer                              like the header (FooterMetadataType
//                                        has no values: always count 0)
//   reverse pointer                     int64: everything written for the
//                                        block, magic included (= size + 6)
//
// The enums are serialized as ordinals, so their order here is Hudi's
// (HoodieLogBlock.HoodieLogBlockType and HeaderMetadataType) and must never
// change.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace lakegc::hudi::log {

inline constexpr std::string_view magic{"#HUDI#"};
/// HoodieLogFormat.INLINE_LOG_FORMAT_VERSION: what every writer since Hudi
/// 0.x puts in each block.
inline constexpr std::int32_t format_version = 1;

/// HoodieLogBlock.HoodieLogBlockType.
enum class block_type : std::int32_t {
  command = 0,       ///< COMMAND_BLOCK: a rollback of an earlier instant's blocks
  delete_keys = 1,   ///< DELETE_BLOCK: record keys deleted
  corrupt = 2,       ///< CORRUPT_BLOCK: never written; what a damaged region reads as
  avro_data = 3,     ///< AVRO_DATA_BLOCK: records in Avro binary
  hfile_data = 4,    ///< HFILE_DATA_BLOCK: an HFile of records (metadata table)
  parquet_data = 5,  ///< PARQUET_DATA_BLOCK: a Parquet file of records
  cdc_data = 6,      ///< CDC_DATA_BLOCK: change records, encoded as an Avro data block
};
inline constexpr std::int32_t block_type_count = 7;

/// HoodieLogBlock.HeaderMetadataType.
enum class header_key : std::int32_t {
  instant_time = 0,           ///< the instant that wrote the block
  target_instant_time = 1,    ///< command blocks: the instant rolled back
  schema = 2,                 ///< data blocks: the writer schema (JSON)
  command_block_type = 3,     ///< command blocks: "0" = ROLLBACK_BLOCK
  compacted_block_times = 4,  ///< log compaction: the instants merged into this block (table version 5+)
  record_positions = 5,       ///< base64 of a Roaring bitmap of record positions (6+)
  block_identifier = 6,       ///< retries of a Spark task (6+)
  is_partial = 7,             ///< partial updates (8+)
  base_file_instant_time_of_record_positions = 8,  ///< (8+)
  version = 9,  ///< native log files of table version 10 (after Hudi 1.2); not written by this library
};
inline constexpr std::int32_t header_key_count = 10;

/// HoodieCommandBlock.HoodieCommandBlockTypeEnum.
enum class command_type : std::int32_t { rollback = 0 };

inline std::string_view block_type_name(block_type t) noexcept {
  switch (t) {
    case block_type::command: return "COMMAND_BLOCK";
    case block_type::delete_keys: return "DELETE_BLOCK";
    case block_type::corrupt: return "CORRUPT_BLOCK";
    case block_type::avro_data: return "AVRO_DATA_BLOCK";
    case block_type::hfile_data: return "HFILE_DATA_BLOCK";
    case block_type::parquet_data: return "PARQUET_DATA_BLOCK";
    case block_type::cdc_data: return "CDC_DATA_BLOCK";
  }
  return "?";
}

inline std::string_view header_key_name(header_key k) noexcept {
  switch (k) {
    case header_key::instant_time: return "INSTANT_TIME";
    case header_key::target_instant_time: return "TARGET_INSTANT_TIME";
    case header_key::schema: return "SCHEMA";
    case header_key::command_block_type: return "COMMAND_BLOCK_TYPE";
    case header_key::compacted_block_times: return "COMPACTED_BLOCK_TIMES";
    case header_key::record_positions: return "RECORD_POSITIONS";
    case header_key::block_identifier: return "BLOCK_IDENTIFIER";
    case header_key::is_partial: return "IS_PARTIAL";
    case header_key::base_file_instant_time_of_record_positions: return "BASE_FILE_INSTANT_TIME_OF_RECORD_POSITIONS";
    case header_key::version: return "VERSION";
  }
  return "?";
}

/// A block as read from a log file, or to be written to one.
struct log_block {
  block_type type = block_type::corrupt;
  std::map<header_key, std::string> header;
  /// Footer entries by ordinal (Hudi defines none; kept if present).
  std::map<std::int32_t, std::string> footer;
  /// The block's content: for a corrupt block, the damaged bytes.
  std::string content;

  // Where the block is in its file (set by the reader).
  std::size_t offset = 0;          ///< of the magic
  std::size_t size = 0;            ///< bytes from the magic to the end of the block
  std::size_t content_offset = 0;  ///< of the first content byte
  /// For a corrupt block: why the reader could not take it as a block.
  std::string corrupt_reason;

  bool is_corrupt() const noexcept { return type == block_type::corrupt; }

  /// The header value for `k`, if present.
  std::optional<std::string_view> get(header_key k) const {
    const auto it = header.find(k);
    if (it == header.end()) return std::nullopt;
    return std::string_view(it->second);
  }
  /// INSTANT_TIME, or "" when absent.
  std::string_view instant_time() const { return get(header_key::instant_time).value_or(""); }

  friend bool operator==(const log_block&, const log_block&) = default;
};

}  // namespace lakegc::hudi::log
