// File: lakegc/hudi/hfile/block.hpp
// -----------------------------------------------------------------------------
// One block of an HFile (version 3, as HBase's writer and hudi-io's
// HFileWriterImpl write it):
//
//   header, 33 bytes (big-endian):
//     magic                        8 bytes, the block type ("DATABLK*", ...)
//     onDiskSizeWithoutHeader      int32: compressed payload + checksums
//     uncompressedSizeWithoutHeader int32: the payload once decompressed
//     prevBlockOffset              int64
//     checksumType                 byte: 0 NULL, 1 CRC32, 2 CRC32C
//     bytesPerChecksum             int32
//     onDiskDataSizeWithHeader     int32: header + compressed payload
//   payload, compressed with the file's codec
//   checksums: one int32 per bytesPerChecksum bytes of header + payload
//
// read_block checks every size against the file, verifies the checksums
// (hudi-io's own reader skips them; a block that fails them is damaged, and
// reading it would misreport the table), decompresses, and returns the
// payload.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <boost/crc.hpp>
#include <fmt/format.h>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/byte_cursor.hpp"
#include "lakegc/hudi/hfile/compression.hpp"

namespace lakegc::hudi::hfile {

inline constexpr std::size_t block_header_size = 33;

/// HBase BlockType, by magic.
enum class block_kind : std::uint8_t {
  data,
  encoded_data,
  leaf_index,
  bloom_chunk,
  meta,
  intermediate_index,
  root_index,
  file_info,
  general_bloom_meta,
  delete_family_bloom_meta,
  trailer,
  index_v1,
};

inline constexpr std::array<std::string_view, 12> block_magics = {"DATABLK*", "DATABLKE", "IDXLEAF2",  "BLMFBLK2",
                                                                  "METABLKc", "IDXINTE2", "IDXROOT2",  "FILEINF2",
                                                                  "BLMFMET2", "DFBLMET2", "TRABLK\"$", "IDXBLK)+"};

inline std::string_view block_kind_name(block_kind k) noexcept { return block_magics[static_cast<std::size_t>(k)]; }

struct block {
  block_kind kind = block_kind::data;
  std::size_t offset = 0;          ///< of the header in the file
  std::size_t on_disk_size = 0;    ///< header + payload + checksums
  std::uint8_t checksum_type = 0;  ///< 0 NULL, 1 CRC32, 2 CRC32C
  /// The decompressed payload. Offsets into it are not file offsets when
  /// the file is compressed; messages name the block's offset and the
  /// position in the payload.
  std::string payload;
};

namespace detail {

using crc32c_type = boost::crc_optimal<32, 0x1EDC6F41, 0xFFFFFFFF, 0xFFFFFFFF, true, true>;

inline std::uint32_t checksum_of(std::uint8_t type, std::string_view chunk) {
  if (type == 1) {
    boost::crc_32_type crc;
    crc.process_bytes(chunk.data(), chunk.size());
    return crc.checksum();
  }
  crc32c_type crc;
  crc.process_bytes(chunk.data(), chunk.size());
  return crc.checksum();
}

}  // namespace detail

/// Reads the block whose header starts at `offset`, which must end at or
/// before `limit` (the end of the section it belongs to).
[[nodiscard]] inline StatusOr<block> read_block(std::string_view file, std::size_t offset, std::size_t limit, codec c) {
  if (offset > limit || limit > file.size()) {
    return absl::DataLossError(fmt::format("block offset {} is outside the file ({} bytes)", offset, file.size()));
  }
  byte_cursor in(file.substr(offset, limit - offset), offset);
  std::string_view magic;
  LAKEGC_RETURN_IF_ERROR(in.take(8, magic, "block magic"));
  block b;
  b.offset = offset;
  bool known = false;
  for (std::size_t i = 0; i < block_magics.size(); ++i) {
    if (block_magics[i] == magic) {
      b.kind = static_cast<block_kind>(i);
      known = true;
    }
  }
  if (!known) return absl::DataLossError(fmt::format("no HFile block magic at byte {}", offset));
  std::int32_t on_disk_without_header = 0;
  std::int32_t uncompressed = 0;
  std::int64_t previous = 0;
  std::uint8_t checksum_type = 0;
  std::int32_t bytes_per_checksum = 0;
  std::int32_t data_with_header = 0;
  LAKEGC_RETURN_IF_ERROR(in.read_be32(on_disk_without_header, "onDiskSizeWithoutHeader"));
  LAKEGC_RETURN_IF_ERROR(in.read_be32(uncompressed, "uncompressedSizeWithoutHeader"));
  LAKEGC_RETURN_IF_ERROR(in.read_be64(previous, "prevBlockOffset"));
  LAKEGC_RETURN_IF_ERROR(in.read_u8(checksum_type, "checksumType"));
  LAKEGC_RETURN_IF_ERROR(in.read_be32(bytes_per_checksum, "bytesPerChecksum"));
  LAKEGC_RETURN_IF_ERROR(in.read_be32(data_with_header, "onDiskDataSizeWithHeader"));
  const auto where = [&] { return fmt::format("{} block at byte {}", block_kind_name(b.kind), offset); };
  if (on_disk_without_header < 0 || static_cast<std::size_t>(on_disk_without_header) > in.remaining()) {
    return absl::DataLossError(fmt::format("{}: on-disk size {} runs past the end of its section ({} bytes left)",
                                           where(), on_disk_without_header, in.remaining()));
  }
  b.on_disk_size = block_header_size + static_cast<std::size_t>(on_disk_without_header);
  if (data_with_header < static_cast<std::int32_t>(block_header_size) ||
      static_cast<std::size_t>(data_with_header) > b.on_disk_size) {
    return absl::DataLossError(fmt::format("{}: data size with header {} is outside [{}, {}]", where(),
                                           data_with_header, block_header_size, b.on_disk_size));
  }
  if (uncompressed < 0) return absl::DataLossError(fmt::format("{}: negative uncompressed size", where()));
  b.checksum_type = checksum_type;
  if (checksum_type > 2) {
    return absl::DataLossError(fmt::format("{}: checksum type {} is not one HBase defines", where(), checksum_type));
  }
  if (bytes_per_checksum <= 0) {
    return absl::DataLossError(fmt::format("{}: bytes per checksum {} is not positive", where(), bytes_per_checksum));
  }
  const std::string_view checked = file.substr(offset, static_cast<std::size_t>(data_with_header));
  const std::size_t chunk = static_cast<std::size_t>(bytes_per_checksum);
  const std::size_t chunks = (checked.size() + chunk - 1) / chunk;
  if (b.on_disk_size - checked.size() != chunks * 4) {
    return absl::DataLossError(fmt::format("{}: {} checksum bytes, but {} chunks of {} bytes need {}", where(),
                                           b.on_disk_size - checked.size(), chunks, chunk, chunks * 4));
  }
  if (checksum_type != 0) {
    byte_cursor sums(file.substr(offset + checked.size(), chunks * 4), offset + checked.size());
    for (std::size_t i = 0; i < chunks; ++i) {
      std::int32_t stored = 0;
      LAKEGC_RETURN_IF_ERROR(sums.read_be32(stored, "checksum"));
      const std::uint32_t actual = detail::checksum_of(checksum_type, checked.substr(i * chunk, chunk));
      if (static_cast<std::uint32_t>(stored) != actual) {
        return absl::DataLossError(fmt::format(
            "{}: checksum of bytes {} to {} does not match ({:08x}, stored {:08x})", where(), offset + i * chunk,
            offset + std::min(checked.size(), (i + 1) * chunk), actual, static_cast<std::uint32_t>(stored)));
      }
    }
  }
  const std::string_view stored_payload = checked.substr(block_header_size);
  switch (c) {
    case codec::none:
      if (stored_payload.size() != static_cast<std::size_t>(uncompressed)) {
        return absl::DataLossError(
            fmt::format("{}: uncompressed size {} but {} payload bytes", where(), uncompressed, stored_payload.size()));
      }
      b.payload.assign(stored_payload);
      return b;
    case codec::gz: {
      LAKEGC_ASSIGN_OR_RETURN(b.payload, gunzip(stored_payload, static_cast<std::size_t>(uncompressed), where()));
      return b;
    }
    default:
      return absl::UnimplementedError(
          fmt::format("{}: HFile compression '{}' is not supported (none and gz are)", where(), codec_name(c)));
  }
}

}  // namespace lakegc::hudi::hfile
