// File: lakegc/hudi/hfile/protobuf.hpp
// -----------------------------------------------------------------------------
// The little of the protocol-buffers wire format an HFile needs: its trailer
// (TrailerProto) and file info (InfoProto) are protobuf messages, written
// length-delimited (a varint byte count, then the message). A field is a
// varint key (field number << 3 | wire type), then a varint (type 0), 8
// bytes (1), a varint length and bytes (2) or 4 bytes (5). Unknown fields
// are skipped, as protobuf readers do.
//
// Why not libprotobuf: two messages of a dozen scalar fields do not justify
// a code generator in the build, and this reader checks every length
// against the input like the rest of the adapter.
#pragma once

#include <cstdint>
#include <string_view>

#include <fmt/format.h>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/byte_cursor.hpp"

namespace lakegc::hudi::hfile::protobuf {

/// An unsigned varint (at most 10 bytes).
[[nodiscard]] inline Status read_varint(byte_cursor& in, std::uint64_t& out, std::string_view what) {
  return read_uvarint(in, out, what);
}

/// A length-delimited byte string.
[[nodiscard]] inline Status read_delimited(byte_cursor& in, std::string_view& out, std::string_view what) {
  std::uint64_t n = 0;
  LAKEGC_RETURN_IF_ERROR(read_varint(in, n, what));
  if (n > in.remaining()) {
    return absl::DataLossError(
        fmt::format("{} of {} bytes at byte {} runs past the end ({} left)", what, n, in.offset(), in.remaining()));
  }
  return in.take(static_cast<std::size_t>(n), out, what);
}

/// One field of a message: its number, and its value as a varint or bytes.
struct field {
  std::uint32_t number = 0;
  std::uint32_t wire_type = 0;
  std::uint64_t varint = 0;  ///< wire type 0
  std::string_view bytes;    ///< wire type 2 (and the raw bytes of 1 and 5)
};

/// Calls `f(const field&)` for each field of the message `message`, which
/// starts at `file_offset`; `f` returns a Status.
template <class F>
[[nodiscard]] Status for_each_field(std::string_view message, std::size_t file_offset, std::string_view what, F&& f) {
  byte_cursor in(message, file_offset);
  while (!in.at_end()) {
    const std::size_t at = in.offset();
    std::uint64_t key = 0;
    LAKEGC_RETURN_IF_ERROR(read_varint(in, key, what));
    field fl;
    fl.number = static_cast<std::uint32_t>(key >> 3);
    fl.wire_type = static_cast<std::uint32_t>(key & 7U);
    switch (fl.wire_type) {
      case 0: LAKEGC_RETURN_IF_ERROR(read_varint(in, fl.varint, what)); break;
      case 1: LAKEGC_RETURN_IF_ERROR(in.take(8, fl.bytes, what)); break;
      case 2: LAKEGC_RETURN_IF_ERROR(read_delimited(in, fl.bytes, what)); break;
      case 5: LAKEGC_RETURN_IF_ERROR(in.take(4, fl.bytes, what)); break;
      default:
        return absl::DataLossError(
            fmt::format("{}: field {} at byte {} has wire type {}, which protobuf does not define", what, fl.number, at,
                        fl.wire_type));
    }
    LAKEGC_RETURN_IF_ERROR(f(fl));
  }
  return Status();
}

}  // namespace lakegc::hudi::hfile::protobuf
