// File: lakegc/hudi/hfile/compression.hpp
// -----------------------------------------------------------------------------
// HFile block compression. The codec is one per file, named by the
// trailer's compression_codec field with HBase's Compression.Algorithm ids
// (hudi-io's CompressionCodec keeps them). Hudi's metadata table writes its
// HFiles with GZ by default: every HFile of the corpus's v8 table, base
// files and log blocks alike, is gzip.
// NONE and GZ are read (GZ through hudi/gzip.hpp); the others are
// Unimplemented, naming the codec.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/gzip.hpp"

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

using hudi::gunzip;

}  // namespace lakegc::hudi::hfile
