// File: lakegc/hudi/avro/container.hpp
// -----------------------------------------------------------------------------
// The framing of an Avro object container file (Avro 1.x spec, "Object
// Container Files"), read and written here for every Avro file lakegc
// handles:
//
//   "Obj\x01"  header map {avro.schema, avro.codec, ...}  16-byte sync marker
//   then blocks: object count (long), byte size (long), the objects' bytes,
//   the sync marker again.
//
// Reading checks the magic, the header map, that every block's size fits in
// the input and that each block is followed by the header's sync marker;
// what the blocks hold is decode.hpp's job. Only the `null` codec is
// accepted: Hudi never compresses timeline files (TimelineMetadataUtils
// creates its DataFileWriter without a codec), and a codec lakegc cannot
// decompress must be refused rather than misread (Unimplemented).
//
// Writing makes the file Hudi's TimelineMetadataUtils makes: the header
// {avro.schema, avro.codec = "null"}, one block of all records. The sync
// marker is derived from the block's bytes (SHA-1, as a name-based UUID), so
// equal input gives byte-identical files; Avro only needs it to be unlikely
// to occur in the data, and Avro C's own writer would seed the C library's
// global rand() with time(NULL) to make one.
//
// Errors: bytes that are not a container are InvalidArgument; a truncated or
// damaged one is DataLoss; messages give the byte offset.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <boost/uuid/name_generator_sha1.hpp>
#include <boost/uuid/uuid.hpp>
#include <fmt/format.h>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/avro/binary.hpp"
#include "lakegc/hudi/byte_cursor.hpp"

namespace lakegc::hudi::avro {

inline constexpr std::string_view container_magic{"Obj\x01", 4};
inline constexpr std::size_t sync_marker_size = 16;

/// True when `bytes` starts with the container magic `Obj\x01`.
inline bool is_object_container(std::string_view bytes) noexcept {
  return bytes.substr(0, container_magic.size()) == container_magic;
}

/// The framing of a container: its header fields and each block's bytes.
struct container_layout {
  std::string_view schema_json;
  std::string_view codec = "null";
  struct block {
    std::int64_t count = 0;
    std::size_t offset = 0;  ///< of the block's data in the file
    std::string_view data;
  };
  std::vector<block> blocks;
};

/// Parses the framing of the container `bytes`.
[[nodiscard]] inline Status parse_container_layout(std::string_view bytes, container_layout& out) {
  if (!is_object_container(bytes)) {
    return absl::InvalidArgumentError("not an Avro object container (no Obj\\x01 magic)");
  }
  byte_cursor in(bytes.substr(container_magic.size()), container_magic.size());
  bool have_schema = false;
  // Header metadata: map<bytes> written as blocks of entries, ending with 0.
  for (;;) {
    std::int64_t count = 0;
    LAKEGC_RETURN_IF_ERROR(annotate(read_long(in, count, "header map block count"), "header"));
    if (count == 0) break;
    if (count < 0) {
      // A negative count is followed by the block's size in bytes.
      if (count == INT64_MIN) return absl::DataLossError("header: invalid map block count");
      count = -count;
      std::int64_t size = 0;
      LAKEGC_RETURN_IF_ERROR(annotate(read_long(in, size, "header map block size"), "header"));
    }
    for (std::int64_t i = 0; i < count; ++i) {
      std::string_view key;
      std::string_view value;
      LAKEGC_RETURN_IF_ERROR(annotate(read_length_prefixed(in, key, "header key"), "header"));
      LAKEGC_RETURN_IF_ERROR(annotate(read_length_prefixed(in, value, "header value"), "header"));
      // Later entries win, as in Avro Java and Avro C.
      if (key == "avro.schema") {
        out.schema_json = value;
        have_schema = true;
      } else if (key == "avro.codec") {
        out.codec = value;
      }
    }
  }
  if (!have_schema) return absl::DataLossError("header has no avro.schema entry");
  if (out.codec != "null") {
    return absl::UnimplementedError(
        fmt::format("codec '{}' is not supported (Hudi timeline files use the null codec)", out.codec));
  }
  std::string_view sync;
  LAKEGC_RETURN_IF_ERROR(annotate(in.take(sync_marker_size, sync, "sync marker"), "header"));

  while (!in.at_end()) {
    const std::size_t block_start = in.offset();
    std::int64_t count = 0;
    std::int64_t size = 0;
    LAKEGC_RETURN_IF_ERROR(read_long(in, count, "block object count"));
    LAKEGC_RETURN_IF_ERROR(read_long(in, size, "block size"));
    if (count < 0) {
      return absl::DataLossError(fmt::format("block at byte {}: negative object count {}", block_start, count));
    }
    if (size < 0) return absl::DataLossError(fmt::format("block at byte {}: negative size {}", block_start, size));
    if (static_cast<std::uint64_t>(size) > in.remaining()) {
      return absl::DataLossError(fmt::format("block at byte {}: size {} runs past the end of the file ({} bytes left)",
                                             block_start, size, in.remaining()));
    }
    container_layout::block b;
    b.count = count;
    b.offset = in.offset();
    LAKEGC_RETURN_IF_ERROR(in.take(static_cast<std::size_t>(size), b.data, "block data"));
    std::string_view block_sync;
    LAKEGC_RETURN_IF_ERROR(in.take(sync_marker_size, block_sync, "block sync marker"));
    if (block_sync != sync) {
      return absl::DataLossError(fmt::format("block at byte {}: sync marker does not match the header's", block_start));
    }
    out.blocks.push_back(b);
  }
  return Status();
}

/// 16 bytes derived from `block_data`: deterministic, and different for
/// different contents as Avro intends.
inline std::string sync_marker_for(std::string_view block_data) {
  const boost::uuids::name_generator_sha1 gen(boost::uuids::uuid{});
  const boost::uuids::uuid u = gen(block_data.data(), block_data.size());
  return std::string(reinterpret_cast<const char*>(u.data), sync_marker_size);
}

/// Appends a container header: the magic, the header map {avro.schema,
/// avro.codec} and the sync marker.
inline void put_container_header(std::string& out, std::string_view schema_json, std::string_view sync,
                                 std::string_view codec = "null") {
  out += container_magic;
  put_long(out, 2);  // header map: one block of two entries
  put_bytes(out, "avro.schema");
  put_bytes(out, schema_json);
  put_bytes(out, "avro.codec");
  put_bytes(out, codec);
  put_long(out, 0);  // end of header map
  out += sync;
}

/// Appends a block of `count` objects whose encoded bytes are `data`.
inline void put_container_block(std::string& out, std::int64_t count, std::string_view data, std::string_view sync) {
  put_long(out, count);
  put_long(out, static_cast<std::int64_t>(data.size()));
  out += data;
  out += sync;
}

/// A container holding `encoded_records` (each the Avro binary of one value
/// of `schema_json`) in one block; with no record, a header only.
inline std::string write_container(std::string_view schema_json, std::span<const std::string> encoded_records) {
  std::string data;
  for (const auto& r : encoded_records) data += r;
  const std::string sync = sync_marker_for(data);
  std::string out;
  out.reserve(data.size() + schema_json.size() + 64);
  put_container_header(out, schema_json, sync);
  if (!encoded_records.empty()) {
    put_container_block(out, static_cast<std::int64_t>(encoded_records.size()), data, sync);
  }
  return out;
}

/// write_container for one record.
inline std::string write_container(std::string_view schema_json, const std::string& encoded_record) {
  return write_container(schema_json, std::span<const std::string>(&encoded_record, 1));
}

}  // namespace lakegc::hudi::avro
