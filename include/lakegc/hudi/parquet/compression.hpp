// File: lakegc/hudi/parquet/compression.hpp
// -----------------------------------------------------------------------------
// Page compression of the Parquet subset. Hudi's LSM timeline files are
// written with hoodie.parquet.compression.codec, whose default is GZIP:
// every file Hudi 1.2 wrote in the interop suite is GZIP. UNCOMPRESSED and
// GZIP (zlib) are read and written; another codec (SNAPPY, ZSTD, ... when a
// table sets the key) is refused naming it, so its files count as unread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/gzip.hpp"
#include "lakegc/hudi/parquet/format.hpp"

namespace lakegc::hudi::parquet {

[[nodiscard]] inline Status check_codec(std::int32_t c, std::string_view where) {
  if (c == static_cast<std::int32_t>(codec::uncompressed) || c == static_cast<std::int32_t>(codec::gzip)) {
    return Status();
  }
  return absl::UnimplementedError(
      fmt::format("{}: compression codec {} ({}) is outside the Parquet subset lakegc reads (UNCOMPRESSED, GZIP)",
                  where, codec_name(c), c));
}

/// The page bytes `stored` uncompressed, exactly `size` bytes.
[[nodiscard]] inline StatusOr<std::string> decompress(std::int32_t c, std::string_view stored, std::size_t size,
                                                      std::string_view where) {
  LAKEGC_RETURN_IF_ERROR(check_codec(c, where));
  if (c == static_cast<std::int32_t>(codec::gzip)) return gunzip(stored, size, where);
  if (stored.size() != size) {
    return absl::DataLossError(
        fmt::format("{}: an uncompressed page of {} bytes whose header says {}", where, stored.size(), size));
  }
  return std::string(stored);
}

[[nodiscard]] inline StatusOr<std::string> compress(std::int32_t c, std::string_view page) {
  LAKEGC_RETURN_IF_ERROR(check_codec(c, "writing a page"));
  if (c == static_cast<std::int32_t>(codec::gzip)) return gzip(page);
  return std::string(page);
}

}  // namespace lakegc::hudi::parquet
