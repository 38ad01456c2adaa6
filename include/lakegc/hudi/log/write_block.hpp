// File: lakegc/hudi/log/write_block.hpp
// -----------------------------------------------------------------------------
// Frames a block as HoodieLogFormatWriter.appendBlocks does (layout:
// block.hpp): magic, block size, log format version 1, type ordinal,
// header, content length, content, footer, reverse pointer. A log file is
// these blocks one after another; appending a block to a file is writing
// its bytes at the end.
//
// Header entries are written in ordinal order. Hudi keeps them in a
// HashMap keyed by the enum, whose order follows the enum constants'
// identity hash codes and so differs between JVM runs; readers look entries
// up by key, so any order is Hudi's layout.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/byte_cursor.hpp"
#include "lakegc/hudi/log/block.hpp"

namespace lakegc::hudi::log {

namespace detail {

template <class Key>
void put_metadata(std::string& out, const std::map<Key, std::string>& entries) {
  put_be<std::int32_t>(out, static_cast<std::int32_t>(entries.size()));
  for (const auto& [key, value] : entries) {
    put_be<std::int32_t>(out, static_cast<std::int32_t>(key));
    put_be<std::int32_t>(out, static_cast<std::int32_t>(value.size()));
    out += value;
  }
}

}  // namespace detail

/// The bytes of `b` (type, header, footer and content; its offsets are
/// ignored). InvalidArgument for a corrupt block, which is never written,
/// and for a block past Hudi's 2 GiB limit (HUDI-2655: Hudi reads block
/// sizes as Java ints).
[[nodiscard]] inline StatusOr<std::string> encode_block(const log_block& b) {
  if (b.type == block_type::corrupt) {
    return absl::InvalidArgumentError("a CORRUPT_BLOCK is what a reader makes of damage; it is never written");
  }
  std::string header;
  detail::put_metadata(header, b.header);
  std::string footer;
  detail::put_metadata(footer, b.footer);
  // HoodieLogFormatWriter.getLogBlockLength: everything after the size field.
  const std::uint64_t size = 4 + 4 + header.size() + 8 + b.content.size() + footer.size() + 8;
  if (size + magic.size() + 8 >= static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max())) {
    return absl::InvalidArgumentError(
        fmt::format("a {} of {} bytes is past the 2 GiB Hudi can read", block_type_name(b.type), size));
  }
  std::string out;
  out.reserve(magic.size() + 8 + size);
  out += magic;
  put_be<std::int64_t>(out, static_cast<std::int64_t>(size));
  put_be<std::int32_t>(out, format_version);
  put_be<std::int32_t>(out, static_cast<std::int32_t>(b.type));
  out += header;
  put_be<std::int64_t>(out, static_cast<std::int64_t>(b.content.size()));
  out += b.content;
  out += footer;
  // The reverse pointer: everything written for the block so far.
  put_be<std::int64_t>(out, static_cast<std::int64_t>(out.size()));
  return out;
}

}  // namespace lakegc::hudi::log
