// File: lakegc/hudi/hfile/compression.hpp
// -----------------------------------------------------------------------------
// HFile block compression. The codec is one per file, named by the
// trailer's compression_codec field with HBase's Compression.Algorithm ids
// (hudi-io's CompressionCodec keeps them). Hudi's metadata table writes its
// HFiles with GZ by default: every HFile of the corpus's v8 table, base
// files and log blocks alike, is gzip.
// NONE and GZ are read (GZ through zlib, a Debian package); the others are
// Unimplemented, naming the codec.
#pragma once

#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "lakegc/core/status.hpp"

namespace lakegc::hudi::hfile {

/// HBase Compression.Algorithm ids.
enum class codec : std::uint32_t { lzo = 0, gz = 1, none = 2, snappy = 3, lz4 = 4, bzip2 = 5, zstd = 6 };

inline std::string_view codec_name(codec c) noexcept {
  switch (c) {
    case codec::lzo: return "lzo";
    case codec::gz: return "gz";
    case codec::none: return "none";
    case codec::snappy: return "snappy";
    case codec::lz4: return "lz4";
    case codec::bzip2: return "bz2";
    case codec::zstd: return "zstd";
  }
  return "?";
}

/// Inflates `compressed` (one or more gzip members, as Hadoop's GzipCodec
/// writes them; zlib streams are accepted too) into exactly `size` bytes.
/// `where` names the block in errors.
[[nodiscard]] inline StatusOr<std::string> gunzip(std::string_view compressed, std::size_t size,
                                                  std::string_view where) {
  // Deflate expands at most ~1032:1; a larger claim is damage, and is
  // refused before `size` bytes are allocated.
  if (size > compressed.size() * 1032 + 1024) {
    return absl::DataLossError(fmt::format("{}: {} compressed bytes cannot inflate to the {} bytes its header claims",
                                           where, compressed.size(), size));
  }
  std::string out(size, '\0');
  z_stream z{};
  if (inflateInit2(&z, 15 + 32) != Z_OK) return absl::InternalError("zlib: inflateInit2 failed");
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  z.avail_in = static_cast<uInt>(compressed.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  int rc = Z_OK;
  for (;;) {
    rc = inflate(&z, Z_NO_FLUSH);
    if (rc == Z_STREAM_END && z.avail_in > 0 && z.avail_out > 0) {
      // Another gzip member follows.
      if (inflateReset(&z) != Z_OK) break;
      continue;
    }
    if (rc != Z_OK) break;
    if (z.avail_in == 0 || z.avail_out == 0) break;
  }
  const std::size_t produced = out.size() - z.avail_out;
  const std::size_t left_in = z.avail_in;
  const char* msg = z.msg;
  inflateEnd(&z);
  if (rc != Z_STREAM_END) {
    return absl::DataLossError(fmt::format("{}: gzip data is damaged or truncated after {} of {} bytes ({})", where,
                                           produced, size, msg != nullptr ? msg : "no end of stream"));
  }
  if (produced != size) {
    return absl::DataLossError(
        fmt::format("{}: gzip data inflates to {} bytes, its header says {}", where, produced, size));
  }
  if (left_in != 0) {
    return absl::DataLossError(fmt::format("{}: {} bytes left over after the gzip data", where, left_in));
  }
  return out;
}

}  // namespace lakegc::hudi::hfile
