// File: lakegc/hudi/log/read_blocks.hpp
// -----------------------------------------------------------------------------
// Reads the blocks of a Hudi log file (layout: block.hpp), treating damage
// as HoodieLogFileReader does:
//
//  * A block is taken only if its framing holds: its size fits in the file,
//    the reverse pointer at its end equals size + 6, and it is followed by
//    the next magic or by the end of the file (fewer than 6 bytes left).
//    Otherwise the region from after its magic to the next magic (or the end
//    of the file) is one CORRUPT block, and reading goes on from there. This
//    is how a writer that crashed mid-append leaves a file, and Hudi's
//    readers skip such blocks.
//  * A file that does not start with the magic, and trailing bytes too short
//    to be a magic, are also corrupt blocks here (Hudi throws on the first
//    and silently ignores the second; a reader that skips corrupt blocks
//    does what Hudi does, and nothing is hidden from one that does not).
//  * A block whose framing holds but whose inside is inconsistent (a header
//    entry or the content running past the block, an unknown block type or
//    header key, parts that do not add up to the size) is an error: Hudi
//    fails on it too, and guessing could drop records.
//
// Every length is checked before it is used; nothing is allocated from a
// length that the bytes do not back. Errors are DataLoss naming the file and
// the byte offset; log format version 0 (pre-0.5 Hudi, no block type) and
// versions past 1 are Unimplemented.
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
#include "lakegc/hudi/log/block.hpp"

namespace lakegc::hudi::log {

namespace detail {

/// Offset of the next magic at or after `from`, or the file's size.
inline std::size_t next_magic(std::string_view file, std::size_t from) {
  const auto at = file.find(magic, from);
  return at == std::string_view::npos ? file.size() : at;
}

inline log_block corrupt_block(std::string_view file, std::size_t magic_at, std::size_t content_from, std::size_t end,
                               std::string reason) {
  log_block b;
  b.type = block_type::corrupt;
  b.offset = magic_at;
  b.size = end - magic_at;
  b.content_offset = content_from;
  b.content.assign(file.substr(content_from, end - content_from));
  b.corrupt_reason = std::move(reason);
  return b;
}

/// Why the block whose size field ends at `after_size` is not framed as
/// Hudi writes blocks, or "" when it is.
inline std::string framing_problem(std::string_view file, std::size_t after_size, std::int64_t size) {
  const std::size_t left = file.size() - after_size;
  if (size < 8 || static_cast<std::uint64_t>(size) > left) {
    return fmt::format("block size {} does not fit in the {} bytes left in the file", size, left);
  }
  const std::size_t end = after_size + static_cast<std::size_t>(size);
  std::int64_t reverse = 0;
  byte_cursor tail(file.substr(end - 8, 8), end - 8);
  (void)tail.read_be64(reverse, "reverse pointer");
  if (reverse != size + static_cast<std::int64_t>(magic.size())) {
    return fmt::format("reverse pointer {} at byte {} does not match block size {} + {}", reverse, end - 8, size,
                       magic.size());
  }
  if (file.size() - end >= magic.size() && file.substr(end, magic.size()) != magic) {
    return fmt::format("no magic after the block's end at byte {}", end);
  }
  return std::string();
}

/// Reads a header or footer map: int32 count, then (ordinal, length, bytes).
template <class Key>
[[nodiscard]] Status read_metadata(byte_cursor& in, std::map<Key, std::string>& out, std::string_view what,
                                   std::int32_t known_keys) {
  const std::size_t at = in.offset();
  std::int32_t count = 0;
  LAKEGC_RETURN_IF_ERROR(in.read_be32(count, what));
  // Each entry takes at least 8 bytes: a count past that is damage.
  if (count < 0 || static_cast<std::uint64_t>(count) > in.remaining() / 8) {
    return absl::DataLossError(fmt::format("{} entry count {} at byte {} does not fit in the block", what, count, at));
  }
  for (std::int32_t i = 0; i < count; ++i) {
    const std::size_t entry_at = in.offset();
    std::int32_t ordinal = 0;
    std::int32_t length = 0;
    LAKEGC_RETURN_IF_ERROR(in.read_be32(ordinal, what));
    LAKEGC_RETURN_IF_ERROR(in.read_be32(length, what));
    if (ordinal < 0 || (known_keys >= 0 && ordinal >= known_keys)) {
      return absl::DataLossError(fmt::format("{} key {} at byte {} is not one Hudi defines", what, ordinal, entry_at));
    }
    if (length < 0) {
      return absl::DataLossError(fmt::format("{} entry at byte {} has negative length {}", what, entry_at, length));
    }
    std::string_view value;
    LAKEGC_RETURN_IF_ERROR(in.take(static_cast<std::size_t>(length), value, what));
    out[static_cast<Key>(ordinal)] = std::string(value);
  }
  return Status();
}

/// Parses the inside of a block whose framing holds. `magic_at` is where its
/// magic starts; the block spans [magic_at, end).
[[nodiscard]] inline Status parse_block(std::string_view file, std::size_t magic_at, std::size_t end, log_block& b) {
  const std::size_t body_at = magic_at + magic.size() + 8;
  byte_cursor in(file.substr(body_at, end - body_at), body_at);
  b.offset = magic_at;
  b.size = end - magic_at;
  std::int32_t version = 0;
  LAKEGC_RETURN_IF_ERROR(in.read_be32(version, "log format version"));
  if (version != format_version) {
    return absl::UnimplementedError(
        fmt::format("block at byte {}: log format version {} is not supported (Hudi has written version {} since 0.5)",
                    magic_at, version, format_version));
  }
  std::int32_t type = 0;
  const std::size_t type_at = in.offset();
  LAKEGC_RETURN_IF_ERROR(in.read_be32(type, "block type"));
  if (type < 0 || type >= block_type_count) {
    return absl::DataLossError(fmt::format("block type {} at byte {} is not one Hudi defines", type, type_at));
  }
  b.type = static_cast<block_type>(type);
  LAKEGC_RETURN_IF_ERROR(read_metadata(in, b.header, "header", header_key_count));
  std::int64_t content_length = 0;
  const std::size_t length_at = in.offset();
  LAKEGC_RETURN_IF_ERROR(in.read_be64(content_length, "content length"));
  if (content_length < 0 || static_cast<std::uint64_t>(content_length) > in.remaining()) {
    return absl::DataLossError(fmt::format("content length {} at byte {} runs past the block's end at byte {}",
                                           content_length, length_at, end));
  }
  b.content_offset = in.offset();
  std::string_view content;
  LAKEGC_RETURN_IF_ERROR(in.take(static_cast<std::size_t>(content_length), content, "content"));
  b.content.assign(content);
  // FooterMetadataType has no values, so no ordinal is known; entries are
  // kept by ordinal rather than refused.
  LAKEGC_RETURN_IF_ERROR(read_metadata(in, b.footer, "footer", -1));
  LAKEGC_RETURN_IF_ERROR(in.skip(8, "reverse pointer"));
  if (!in.at_end()) {
    return absl::DataLossError(
        fmt::format("block at byte {}: {} bytes between its reverse pointer and its end", magic_at, in.remaining()));
  }
  return Status();
}

}  // namespace detail

/// The blocks of the log file `bytes`, in file order. Errors are prefixed
/// with `file_name_for_errors`.
[[nodiscard]] inline StatusOr<std::vector<log_block>> read_blocks(std::string_view bytes,
                                                                  std::string_view file_name_for_errors) {
  std::vector<log_block> out;
  std::size_t pos = 0;
  while (pos < bytes.size()) {
    if (bytes.size() - pos < magic.size() || bytes.substr(pos, magic.size()) != magic) {
      // Only at the start of the file or for a short tail: after a block
      // the framing check saw the next magic.
      const bool tail = bytes.size() - pos < magic.size();
      const std::size_t end = tail ? bytes.size() : detail::next_magic(bytes, pos);
      out.push_back(
          detail::corrupt_block(bytes, pos, pos, end,
                                tail ? fmt::format("{} bytes at the end are too short for a block", bytes.size() - pos)
                                     : std::string("no magic where a block starts")));
      pos = end;
      continue;
    }
    const std::size_t after_magic = pos + magic.size();
    std::int64_t size = 0;
    byte_cursor size_field(bytes.substr(after_magic), after_magic);
    std::string problem;
    if (!size_field.read_be64(size, "block size").ok()) {
      problem = "truncated in the block size";
    } else {
      problem = detail::framing_problem(bytes, after_magic + 8, size);
    }
    if (!problem.empty()) {
      // As HoodieLogFileReader.createCorruptBlock: from after the magic to
      // the next magic.
      const std::size_t end = detail::next_magic(bytes, after_magic);
      out.push_back(detail::corrupt_block(bytes, pos, after_magic, end, std::move(problem)));
      pos = end;
      continue;
    }
    const std::size_t end = after_magic + 8 + static_cast<std::size_t>(size);
    log_block b;
    const Status st = detail::parse_block(bytes, pos, end, b);
    if (!st.ok()) return annotate(st, file_name_for_errors);
    out.push_back(std::move(b));
    pos = end;
  }
  return out;
}

}  // namespace lakegc::hudi::log
