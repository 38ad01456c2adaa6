// File: lakegc/hudi/hfile/read_hfile.hpp
// -----------------------------------------------------------------------------
// Reads every key/value cell of an HFile (version 3), the format of the
// metadata table's base files and of the content of its HFILE_DATA_BLOCKs.
// Hudi 1.0 writes them with HBase's writer (comparator
// HoodieHBaseKVComparator, CRC32C checksums); later versions with
// hudi-io's HFileWriterImpl (NULL checksums); both read the same here.
//
//   [ data blocks (and, in big files, leaf index and bloom blocks) ]
//   [ meta blocks ]                              e.g. the bloom filter
//   [ load-on-open: root data index, meta index, file info ]
//   [ trailer: 4096 bytes, "TRABLK\"$" + TrailerProto, version in the last 4 ]
//
// A data block holds cells back to back: int32 key length, int32 value
// length, the key (int16 row length, row, byte family length, family,
// qualifier, int64 timestamp, byte type), the value, and the MVCC version
// as a Hadoop variable-length long (0 for Hudi: one byte). Hudi stores the
// record key as the row and the record, in Avro binary, as the value.
//
// Every cell is read by walking the data section in order, rather than
// seeking through the index: the cells, their count (the trailer's
// entry_count) and the data blocks the root index names must all agree, or
// the file is damaged. Errors are DataLoss naming the file and byte offset.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/byte_cursor.hpp"
#include "lakegc/hudi/hfile/block.hpp"
#include "lakegc/hudi/hfile/compression.hpp"
#include "lakegc/hudi/hfile/protobuf.hpp"

namespace lakegc::hudi::hfile {

inline constexpr std::size_t trailer_size = 4096;

/// TrailerProto, with the version from the file's last four bytes.
struct trailer {
  int major_version = 0;
  int minor_version = 0;
  std::uint64_t file_info_offset = 0;
  std::uint64_t load_on_open_offset = 0;
  std::uint64_t uncompressed_data_index_size = 0;
  std::uint64_t total_uncompressed_bytes = 0;
  std::uint32_t data_index_count = 0;
  std::uint32_t meta_index_count = 0;
  std::uint64_t entry_count = 0;
  std::uint32_t data_index_levels = 1;
  std::uint64_t first_data_block_offset = 0;
  std::uint64_t last_data_block_offset = 0;
  std::string comparator;
  codec compression = codec::none;
};

/// One key/value cell.
struct cell {
  std::string key;  ///< the row: Hudi's record key
  std::string value;
};

struct hfile_contents {
  trailer info;
  /// File info entries (hfile.LASTKEY, Hudi's "schema", ...).
  std::map<std::string, std::string, std::less<>> file_info;
  /// Checksum type of the data blocks (0 NULL, 1 CRC32, 2 CRC32C), or of
  /// the file info block when there is no data block.
  std::uint8_t checksum_type = 0;
  /// Meta block names (e.g. "bloomFilter"), in index order.
  std::vector<std::string> meta_blocks;
  std::vector<cell> cells;
};

namespace detail {

/// Hadoop WritableUtils.readVLong, how HFile writes index key lengths and
/// MVCC versions: one byte for -112..127, else a length byte then
/// big-endian bytes.
[[nodiscard]] inline Status read_hadoop_vlong(byte_cursor& in, std::int64_t& out, std::string_view what) {
  std::uint8_t first_byte = 0;
  LAKEGC_RETURN_IF_ERROR(in.read_u8(first_byte, what));
  const auto first = static_cast<std::int8_t>(first_byte);
  if (first >= -112) {
    out = first;
    return Status();
  }
  const int len = first < -120 ? -119 - first : -111 - first;  // bytes including the first
  std::uint64_t v = 0;
  for (int i = 0; i < len - 1; ++i) {
    std::uint8_t b = 0;
    LAKEGC_RETURN_IF_ERROR(in.read_u8(b, what));
    v = (v << 8) | b;
  }
  const bool negative = first < -120;
  out = negative ? static_cast<std::int64_t>(~v) : static_cast<std::int64_t>(v);
  return Status();
}

[[nodiscard]] inline StatusOr<trailer> read_trailer(std::string_view file) {
  if (file.size() < trailer_size) {
    return absl::DataLossError(
        fmt::format("{} bytes are too few for an HFile (its trailer alone is {})", file.size(), trailer_size));
  }
  trailer t;
  const std::size_t at = file.size() - trailer_size;
  const auto* tail = reinterpret_cast<const unsigned char*>(file.data() + file.size() - 4);
  t.minor_version = tail[0];
  t.major_version = (tail[1] << 16) | (tail[2] << 8) | tail[3];
  if (t.major_version != 3) {
    return absl::UnimplementedError(
        fmt::format("HFile version {}.{} is not supported (Hudi writes 3)", t.major_version, t.minor_version));
  }
  byte_cursor in(file.substr(at, trailer_size - 4), at);
  std::string_view magic;
  LAKEGC_RETURN_IF_ERROR(in.take(8, magic, "trailer magic"));
  if (magic != block_magics[static_cast<std::size_t>(block_kind::trailer)]) {
    return absl::DataLossError(fmt::format("no trailer magic at byte {}", at));
  }
  std::string_view message;
  LAKEGC_RETURN_IF_ERROR(protobuf::read_delimited(in, message, "TrailerProto"));
  const std::size_t message_at = in.offset() - message.size();
  std::uint64_t codec_id = static_cast<std::uint64_t>(codec::none);
  LAKEGC_RETURN_IF_ERROR(protobuf::for_each_field(message, message_at, "TrailerProto", [&](const protobuf::field& f) {
    switch (f.number) {
      case 1: t.file_info_offset = f.varint; break;
      case 2: t.load_on_open_offset = f.varint; break;
      case 3: t.uncompressed_data_index_size = f.varint; break;
      case 4: t.total_uncompressed_bytes = f.varint; break;
      case 5: t.data_index_count = static_cast<std::uint32_t>(f.varint); break;
      case 6: t.meta_index_count = static_cast<std::uint32_t>(f.varint); break;
      case 7: t.entry_count = f.varint; break;
      case 8: t.data_index_levels = static_cast<std::uint32_t>(f.varint); break;
      case 9: t.first_data_block_offset = f.varint; break;
      case 10: t.last_data_block_offset = f.varint; break;
      case 11: t.comparator.assign(f.bytes); break;
      case 12: codec_id = f.varint; break;
      case 13: return absl::UnimplementedError("the HFile is encrypted");
      default: break;
    }
    return Status();
  }));
  if (codec_id > static_cast<std::uint64_t>(codec::zstd)) {
    return absl::DataLossError(fmt::format("trailer: compression codec {} is not one HBase defines", codec_id));
  }
  t.compression = static_cast<codec>(codec_id);
  // An HFile without cells has no data block; HBase writes its data block
  // offsets as -1 then.
  const bool has_data = t.data_index_count > 0;
  if (t.load_on_open_offset > at || (has_data && (t.first_data_block_offset > t.last_data_block_offset ||
                                                  t.last_data_block_offset >= t.load_on_open_offset))) {
    return absl::DataLossError(fmt::format("trailer at byte {}: its section offsets are out of order", at));
  }
  return t;
}

/// Entries of a root index block: (offset, size, key).
struct index_entry {
  std::int64_t offset = 0;
  std::int32_t size = 0;
  std::string key;
};

[[nodiscard]] inline StatusOr<std::vector<index_entry>> read_root_index(const block& b, std::uint32_t count) {
  byte_cursor in(b.payload);
  std::vector<index_entry> out;
  // Each entry takes at least 13 bytes.
  if (count > b.payload.size() / 13) {
    return absl::DataLossError(
        fmt::format("root index block at byte {}: {} entries do not fit in it", b.offset, count));
  }
  for (std::uint32_t i = 0; i < count; ++i) {
    index_entry e;
    std::int64_t key_length = 0;
    std::string_view key;
    Status st = in.read_be64(e.offset, "index entry offset");
    if (st.ok()) st = in.read_be32(e.size, "index entry size");
    if (st.ok()) st = read_hadoop_vlong(in, key_length, "index key length");
    if (st.ok() && (key_length < 0 || static_cast<std::uint64_t>(key_length) > in.remaining())) {
      st = absl::DataLossError(fmt::format("index key length {} runs past the block", key_length));
    }
    if (st.ok()) st = in.take(static_cast<std::size_t>(key_length), key, "index key");
    if (!st.ok()) return annotate(st, fmt::format("root index block at byte {}, entry {}", b.offset, i));
    e.key.assign(key);
    out.push_back(std::move(e));
  }
  return out;
}

[[nodiscard]] inline Status read_file_info(const block& b, std::map<std::string, std::string, std::less<>>& out) {
  byte_cursor in(b.payload);
  std::string_view pb_magic;
  LAKEGC_RETURN_IF_ERROR(in.take(4, pb_magic, "file info magic"));
  if (pb_magic != "PBUF")
    return absl::DataLossError(fmt::format("file info block at byte {} has no PBUF magic", b.offset));
  std::string_view message;
  LAKEGC_RETURN_IF_ERROR(protobuf::read_delimited(in, message, "InfoProto"));
  return protobuf::for_each_field(message, 0, "InfoProto", [&](const protobuf::field& entry) -> Status {
    if (entry.number != 1 || entry.wire_type != 2) return Status();
    std::string_view first;
    std::string_view second;
    LAKEGC_RETURN_IF_ERROR(protobuf::for_each_field(entry.bytes, 0, "BytesBytesPair", [&](const protobuf::field& f) {
      if (f.number == 1) first = f.bytes;
      if (f.number == 2) second = f.bytes;
      return Status();
    }));
    out[std::string(first)] = std::string(second);
    return Status();
  });
}

/// Appends the cells of the data block `b` to `out`.
[[nodiscard]] inline Status read_cells(const block& b, std::vector<cell>& out) {
  byte_cursor in(b.payload);
  while (!in.at_end()) {
    const std::size_t at = in.position();
    std::int32_t key_length = 0;
    std::int32_t value_length = 0;
    std::int16_t row_length = 0;
    Status st = in.read_be32(key_length, "cell key length");
    if (st.ok()) st = in.read_be32(value_length, "cell value length");
    if (st.ok() && (key_length < 12 || value_length < 0)) {
      st = absl::DataLossError(fmt::format("key length {} or value length {} is impossible", key_length, value_length));
    }
    std::string_view key;
    std::string_view value;
    if (st.ok()) st = in.take(static_cast<std::size_t>(key_length), key, "cell key");
    if (st.ok()) st = in.take(static_cast<std::size_t>(value_length), value, "cell value");
    std::int64_t mvcc = 0;
    if (st.ok()) st = read_hadoop_vlong(in, mvcc, "cell MVCC version");
    if (st.ok()) {
      byte_cursor k(key);
      st = k.read_be16(row_length, "row length");
      // row, family length (1), timestamp (8), type (1) at least.
      if (st.ok() && (row_length < 0 || static_cast<std::size_t>(row_length) + 12 > key.size())) {
        st = absl::DataLossError(fmt::format("row length {} does not fit the key of {} bytes", row_length, key.size()));
      }
    }
    if (!st.ok()) {
      return annotate(st, fmt::format("data block at byte {}, cell at payload byte {}", b.offset, at));
    }
    out.push_back({std::string(key.substr(2, static_cast<std::size_t>(row_length))), std::string(value)});
  }
  return Status();
}

}  // namespace detail

/// Every cell of the HFile `bytes`, with its trailer, file info and meta
/// block names. Errors are prefixed with `file_name_for_errors`.
[[nodiscard]] inline StatusOr<hfile_contents> read_hfile(std::string_view bytes,
                                                         std::string_view file_name_for_errors) {
  auto fail = [&](const Status& st) { return annotate(st, fmt::format("{}: HFile", file_name_for_errors)); };
  hfile_contents out;
  auto t = detail::read_trailer(bytes);
  if (!t.ok()) return fail(t.status());
  out.info = std::move(*t);
  const trailer& info = out.info;
  const std::size_t trailer_at = bytes.size() - trailer_size;

  // Load-on-open: root data index, meta index, file info.
  std::size_t pos = static_cast<std::size_t>(info.load_on_open_offset);
  auto root = read_block(bytes, pos, trailer_at, info.compression);
  if (!root.ok()) return fail(root.status());
  if (root->kind != block_kind::root_index) {
    return fail(absl::DataLossError(fmt::format("expected the root data index at byte {}", pos)));
  }
  auto data_index = detail::read_root_index(*root, info.data_index_count);
  if (!data_index.ok()) return fail(data_index.status());
  pos += root->on_disk_size;
  auto meta = read_block(bytes, pos, trailer_at, info.compression);
  if (!meta.ok()) return fail(meta.status());
  if (meta->kind != block_kind::root_index) {
    return fail(absl::DataLossError(fmt::format("expected the meta index at byte {}", pos)));
  }
  auto meta_index = detail::read_root_index(*meta, info.meta_index_count);
  if (!meta_index.ok()) return fail(meta_index.status());
  // Meta blocks (the bloom filter) are not used, but are read so that their
  // checksums are verified: every byte of the file before the trailer is
  // then covered by a check.
  for (auto& e : *meta_index) {
    if (e.offset < 0 || e.size < 0 ||
        static_cast<std::uint64_t>(e.offset) + static_cast<std::uint64_t>(e.size) > info.load_on_open_offset) {
      return fail(absl::DataLossError(
          fmt::format("meta block '{}' at byte {} ({} bytes) lies outside the data section", e.key, e.offset, e.size)));
    }
    const auto start = static_cast<std::size_t>(e.offset);
    auto mb = read_block(bytes, start, start + static_cast<std::size_t>(e.size), info.compression);
    if (!mb.ok()) return fail(mb.status());
    if (mb->kind != block_kind::meta) {
      return fail(absl::DataLossError(fmt::format("expected meta block '{}' at byte {}", e.key, start)));
    }
    out.meta_blocks.push_back(std::move(e.key));
  }
  pos += meta->on_disk_size;
  auto file_info = read_block(bytes, pos, trailer_at, info.compression);
  if (!file_info.ok()) return fail(file_info.status());
  if (file_info->kind != block_kind::file_info) {
    return fail(absl::DataLossError(fmt::format("expected the file info block at byte {}", pos)));
  }
  if (const Status st = detail::read_file_info(*file_info, out.file_info); !st.ok()) return fail(st);
  out.checksum_type = file_info->checksum_type;

  // The data section, in order.
  std::vector<std::size_t> data_blocks;
  if (info.data_index_count > 0) {
    pos = static_cast<std::size_t>(info.first_data_block_offset);
    while (pos <= info.last_data_block_offset) {
      auto b = read_block(bytes, pos, static_cast<std::size_t>(info.load_on_open_offset), info.compression);
      if (!b.ok()) return fail(b.status());
      if (b->kind == block_kind::data) {
        data_blocks.push_back(pos);
        out.checksum_type = b->checksum_type;
        if (const Status st = detail::read_cells(*b, out.cells); !st.ok()) return fail(st);
      } else if (b->kind == block_kind::encoded_data) {
        return fail(absl::UnimplementedError(
            fmt::format("data block at byte {} uses a data block encoding, which Hudi never writes", pos)));
      }
      pos += b->on_disk_size;
    }
  }
  if (out.cells.size() != info.entry_count) {
    return fail(absl::DataLossError(
        fmt::format("the data blocks hold {} cells, the trailer says {}", out.cells.size(), info.entry_count)));
  }
  if (info.data_index_levels == 1) {
    bool agree = data_index->size() == data_blocks.size();
    for (std::size_t i = 0; agree && i < data_blocks.size(); ++i) {
      agree = (*data_index)[i].offset == static_cast<std::int64_t>(data_blocks[i]);
    }
    if (!agree) {
      return fail(absl::DataLossError(fmt::format("the root index names {} data blocks, the data section holds {}",
                                                  data_index->size(), data_blocks.size())));
    }
  }
  return out;
}

}  // namespace lakegc::hudi::hfile
