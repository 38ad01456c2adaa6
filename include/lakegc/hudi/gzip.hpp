// File: lakegc/hudi/gzip.hpp
// -----------------------------------------------------------------------------
// gzip through zlib (a Debian package), as Hadoop's GzipCodec and
// parquet-java's GZIP codec write it: HFile blocks of the metadata table and
// the pages of Hudi's LSM timeline files.
#pragma once

#include <zlib.h>

#include <cstddef>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "lakegc/core/status.hpp"

namespace lakegc::hudi {

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

/// Standard gzip, as Hadoop's GzipCodec writes it (read back by gunzip).
[[nodiscard]] inline StatusOr<std::string> gzip(std::string_view data) {
  z_stream z{};
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    return absl::InternalError("zlib: deflateInit2 failed");
  }
  std::string out(deflateBound(&z, static_cast<uLong>(data.size())) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&z, Z_FINISH);
  const std::size_t produced = out.size() - z.avail_out;
  deflateEnd(&z);
  if (rc != Z_STREAM_END) return absl::InternalError("zlib: deflate did not finish");
  out.resize(produced);
  return out;
}

}  // namespace lakegc::hudi
