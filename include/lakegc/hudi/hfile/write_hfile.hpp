// File: lakegc/hudi/hfile/write_hfile.hpp
// -----------------------------------------------------------------------------
// Writes an HFile (version 3) as Hudi's own writer does (hudi-io
// HFileWriterImpl, Hudi 1.1+), the layout read_hfile.hpp reads:
//
//   data blocks      "DATABLK*", cells in key order, a new block when the next
//                    cell would pass the block size (1 MiB for log blocks,
//                    HFileUtils.DEFAULT_BLOCK_SIZE_FOR_LOG_FILE)
//   root data index  "IDXROOT2": per data block its offset, on-disk size and
//                    first key (int16 length + row, as HFileRootIndexBlock)
//   meta index       "IDXROOT2", empty (Hudi writes no meta block in a log block)
//   file info        "FILEINF2": "PBUF", a delimited InfoProto of name/value pairs
//   trailer          4096 bytes: "TRABLK\"$", a delimited TrailerProto, zeros,
//                    the version (major 3, minor 0) in the last 4 bytes
//
// Every block has the 33-byte header, its payload compressed with the file's
// codec (gzip, Hudi's default hoodie.hfile.compression.algorithm=GZ, or
// none), and checksum type NULL with zero checksum bytes, one int per 16 KiB
// of header + payload: what HFileBlock.serialize writes (Hudi's writer only
// supports NULL checksums; its reader and HBase's accept them).
//
// A cell is HBase's KeyValue: int32 key length, int32 value length, int16
// row length, row, family length 0, timestamp Long.MAX_VALUE, type 4 (Put),
// the value, and MVCC version 0 (one vlong byte).
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <zlib.h>

#include <fmt/format.h>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/byte_cursor.hpp"
#include "lakegc/hudi/hfile/block.hpp"
#include "lakegc/hudi/hfile/compression.hpp"

namespace lakegc::hudi::hfile {

struct hfile_write_options {
  codec compression = codec::gz;
  std::size_t block_size = 1024 * 1024;
  /// hfile.CREATE_TIME_TS (Hudi: the writer's clock; fixed here so that equal
  /// input gives equal bytes).
  std::int64_t creation_time_ms = 0;
};

namespace detail {

inline constexpr std::string_view comparator_class = "org.apache.hudi.io.storage.HoodieHBaseKVComparator";
inline constexpr std::int32_t bytes_per_checksum = 16 * 1024;

inline void put_varint(std::string& out, std::uint64_t v) { put_uvarint(out, v); }

inline void put_pb_varint(std::string& out, int field, std::uint64_t v) {
  put_varint(out, static_cast<std::uint64_t>(field) << 3);
  put_varint(out, v);
}

inline void put_pb_bytes(std::string& out, int field, std::string_view bytes) {
  put_varint(out, (static_cast<std::uint64_t>(field) << 3) | 2);
  put_varint(out, bytes.size());
  out += bytes;
}

/// Hadoop WritableUtils.writeVInt (index key lengths).
inline void put_hadoop_vint(std::string& out, std::int64_t v) {
  if (v >= -112 && v <= 127) {
    out += static_cast<char>(v);
    return;
  }
  int len = -112;
  if (v < 0) {
    v = ~v;
    len = -120;
  }
  for (std::int64_t tmp = v; tmp != 0; tmp >>= 8) --len;
  out += static_cast<char>(len);
  const int bytes = len < -120 ? -(len + 120) : -(len + 112);
  for (int i = bytes; i > 0; --i) out += static_cast<char>((v >> ((i - 1) * 8)) & 0xff);
}

/// A block: header, payload (compressed), NULL checksums.
[[nodiscard]] inline StatusOr<std::string> serialize_block(block_kind kind, std::string_view payload, codec c,
                                                           std::int64_t previous_offset) {
  std::string stored;
  if (c == codec::gz) {
    LAKEGC_ASSIGN_OR_RETURN(stored, gzip(payload));
  } else if (c == codec::none) {
    stored.assign(payload);
  } else {
    return absl::InvalidArgumentError(fmt::format("cannot write HFile codec {}", codec_name(c)));
  }
  const std::int64_t with_header = static_cast<std::int64_t>(block_header_size + stored.size());
  const std::int64_t checksum_bytes = (with_header + bytes_per_checksum - 1) / bytes_per_checksum * 4;
  if (with_header + checksum_bytes > std::numeric_limits<std::int32_t>::max()) {
    return absl::InvalidArgumentError("an HFile block past 2 GiB");
  }
  std::string out;
  out += block_magics[static_cast<std::size_t>(kind)];
  put_be<std::int32_t>(out, static_cast<std::int32_t>(stored.size() + checksum_bytes));
  put_be<std::int32_t>(out, static_cast<std::int32_t>(payload.size()));
  put_be<std::int64_t>(out, previous_offset);
  out += static_cast<char>(0);  // ChecksumType.NULL
  put_be<std::int32_t>(out, bytes_per_checksum);
  put_be<std::int32_t>(out, static_cast<std::int32_t>(with_header));
  out += stored;
  out.append(static_cast<std::size_t>(checksum_bytes), '\0');
  return out;
}

inline void put_cell(std::string& out, std::string_view key, std::string_view value) {
  put_be<std::int32_t>(out, static_cast<std::int32_t>(key.size() + 2 + 1 + 8 + 1));
  put_be<std::int32_t>(out, static_cast<std::int32_t>(value.size()));
  put_be<std::int16_t>(out, static_cast<std::int16_t>(key.size()));
  out += key;
  out += static_cast<char>(0);                                          // family length
  put_be<std::int64_t>(out, std::numeric_limits<std::int64_t>::max());  // HConstants.LATEST_TIMESTAMP
  out += static_cast<char>(4);                                          // KeyValue.Type.Put
  out += value;
  out += static_cast<char>(0);  // MVCC version 0
}

}  // namespace detail

/// An HFile of `cells` (key, value), which must be in strictly increasing
/// key order (HFileUtils.serializeRecordsToLogBlock refuses duplicates),
/// with `file_info` entries added to the writer's own (MAX_MEMSTORE_TS_KEY,
/// LASTKEY, AVG_KEY_LEN, CREATE_TIME_TS, AVG_VALUE_LEN, KEY_VALUE_VERSION).
[[nodiscard]] inline StatusOr<std::string> write_hfile(std::span<const std::pair<std::string, std::string>> cells,
                                                       const std::map<std::string, std::string>& file_info,
                                                       const hfile_write_options& options = {}) {
  for (std::size_t i = 1; i < cells.size(); ++i) {
    if (!(cells[i - 1].first < cells[i].first)) {
      return absl::InvalidArgumentError(
          fmt::format("HFile keys must increase: '{}' follows '{}'", cells[i].first, cells[i - 1].first));
    }
  }
  for (const auto& [k, v] : cells) {
    if (k.size() > static_cast<std::size_t>(std::numeric_limits<std::int16_t>::max())) {
      return absl::InvalidArgumentError("an HFile key longer than 32767 bytes");
    }
  }
  constexpr std::size_t extra_per_cell = 21;  // HFileWriterImpl.EXTRA_BYTES_PER_DATA_ENTRY
  std::string out;
  struct index_entry {
    std::int64_t offset;
    std::int32_t size;
    std::string first_key;
  };
  std::vector<index_entry> index;
  std::int64_t previous = -1;
  std::uint64_t uncompressed_total = 0;
  std::uint64_t key_bytes = 0;
  std::uint64_t value_bytes = 0;
  std::string payload;
  std::string first_key;
  std::size_t in_block = 0;
  auto flush = [&]() -> Status {
    if (payload.empty()) return Status();
    const auto offset = static_cast<std::int64_t>(out.size());
    LAKEGC_ASSIGN_OR_RETURN(std::string b,
                            detail::serialize_block(block_kind::data, payload, options.compression, previous));
    index.push_back({offset, static_cast<std::int32_t>(b.size()), first_key});
    previous = offset;
    out += b;
    payload.clear();
    in_block = 0;
    return Status();
  };
  for (const auto& [key, value] : cells) {
    if (!payload.empty() && in_block + key.size() + value.size() + extra_per_cell > options.block_size) {
      LAKEGC_RETURN_IF_ERROR(flush());
    }
    if (payload.empty()) first_key = key;
    detail::put_cell(payload, key, value);
    in_block += key.size() + value.size() + extra_per_cell;
    uncompressed_total += key.size() + value.size() + extra_per_cell;
    key_bytes += key.size();
    value_bytes += value.size();
  }
  const std::int64_t first_data = index.empty() && payload.empty() ? -1 : 0;
  LAKEGC_RETURN_IF_ERROR(flush());
  const std::int64_t last_data = index.empty() ? 0 : index.back().offset;

  // Load-on-open: root data index, (empty) meta index, file info.
  const auto load_on_open = static_cast<std::int64_t>(out.size());
  std::string root;
  for (const auto& e : index) {
    put_be<std::int64_t>(root, e.offset);
    put_be<std::int32_t>(root, e.size);
    detail::put_hadoop_vint(root, static_cast<std::int64_t>(e.first_key.size() + 2));
    put_be<std::int16_t>(root, static_cast<std::int16_t>(e.first_key.size()));
    root += e.first_key;
  }
  LAKEGC_ASSIGN_OR_RETURN(std::string root_block,
                          detail::serialize_block(block_kind::root_index, root, options.compression, -1));
  out += root_block;
  LAKEGC_ASSIGN_OR_RETURN(std::string meta_block,
                          detail::serialize_block(block_kind::root_index, "", options.compression, -1));
  out += meta_block;

  std::map<std::string, std::string> info = file_info;
  auto be64 = [](std::int64_t v) {
    std::string s;
    put_be<std::int64_t>(s, v);
    return s;
  };
  auto be32 = [](std::int32_t v) {
    std::string s;
    put_be<std::int32_t>(s, v);
    return s;
  };
  const std::uint64_t n = cells.size();
  info["MAX_MEMSTORE_TS_KEY"] = be64(0);  // HFileInfo.MAX_MVCC_TS_KEY (no "hfile." prefix)
  std::string last_key;
  if (!cells.empty()) {
    put_be<std::int16_t>(last_key, static_cast<std::int16_t>(cells.back().first.size()));
    last_key += cells.back().first;
  }
  info["hfile.LASTKEY"] = last_key;
  info["hfile.AVG_KEY_LEN"] = be32(n == 0 ? 0 : static_cast<std::int32_t>(key_bytes / n));
  info["hfile.CREATE_TIME_TS"] = be64(options.creation_time_ms);
  info["hfile.AVG_VALUE_LEN"] = be32(n == 0 ? 0 : static_cast<std::int32_t>(value_bytes / n));
  info["KEY_VALUE_VERSION"] = be32(1);  // KEY_VALUE_VERSION_WITH_MVCC_TS
  std::string proto;
  for (const auto& [k, v] : info) {
    std::string pair;
    detail::put_pb_bytes(pair, 1, k);
    detail::put_pb_bytes(pair, 2, v);
    detail::put_pb_bytes(proto, 1, pair);
  }
  std::string info_payload = "PBUF";
  detail::put_varint(info_payload, proto.size());
  info_payload += proto;
  const auto file_info_offset = static_cast<std::int64_t>(out.size());
  LAKEGC_ASSIGN_OR_RETURN(std::string info_block,
                          detail::serialize_block(block_kind::file_info, info_payload, options.compression, -1));
  out += info_block;

  std::string t;
  detail::put_pb_varint(t, 1, static_cast<std::uint64_t>(file_info_offset));
  detail::put_pb_varint(t, 2, static_cast<std::uint64_t>(load_on_open));
  detail::put_pb_varint(t, 3, uncompressed_total);  // as HFileWriterImpl sets it
  detail::put_pb_varint(t, 5, index.size());
  detail::put_pb_varint(t, 6, 0);
  detail::put_pb_varint(t, 7, n);
  detail::put_pb_varint(t, 8, 1);
  detail::put_pb_varint(t, 9, static_cast<std::uint64_t>(first_data));
  detail::put_pb_varint(t, 10, static_cast<std::uint64_t>(last_data));
  detail::put_pb_bytes(t, 11, detail::comparator_class);
  detail::put_pb_varint(t, 12, static_cast<std::uint64_t>(options.compression));
  std::string trailer(block_magics[static_cast<std::size_t>(block_kind::trailer)]);
  detail::put_varint(trailer, t.size());
  trailer += t;
  constexpr std::size_t trailer_size = 4096;
  if (trailer.size() > trailer_size - 4) return absl::InternalError("HFile trailer too large");
  trailer.resize(trailer_size - 1, '\0');
  trailer += static_cast<char>(3);  // major version 3, minor 0
  out += trailer;
  return out;
}

}  // namespace lakegc::hudi::hfile
