// File: lakegc/hudi/byte_cursor.hpp
// -----------------------------------------------------------------------------
// A bounds-checked read position in a byte string, shared by every binary
// reader of the Hudi adapter (Avro values and containers, log blocks, HFile
// blocks). Every read checks the length first and fails with DataLoss
// naming what it was reading and the byte offset, so a truncated or damaged
// file is an error, never a read past the end.
//
// Offsets in messages are positions in the file, not in the slice being
// read: a cursor over a part of a file (one log block, one HFile block)
// is made with the offset at which that part starts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <boost/endian/conversion.hpp>
#include <fmt/format.h>

#include "lakegc/core/status.hpp"

namespace lakegc::hudi {

class byte_cursor {
 public:
  /// A cursor over `bytes`, whose first byte is at `file_offset` in the file.
  explicit byte_cursor(std::string_view bytes, std::size_t file_offset = 0) noexcept
      : data_(bytes), base_(file_offset) {}

  /// Position in the file of the next byte.
  std::size_t offset() const noexcept { return base_ + pos_; }
  /// Position relative to the start of this cursor's bytes.
  std::size_t position() const noexcept { return pos_; }
  std::size_t remaining() const noexcept { return data_.size() - pos_; }
  bool at_end() const noexcept { return pos_ == data_.size(); }
  /// The bytes not read yet.
  std::string_view rest() const noexcept { return data_.substr(pos_); }

  /// DataLoss "<message> at byte <offset>": for checks callers make on what
  /// they read, so every error of a reader has one shape.
  [[nodiscard]] Status error_here(std::string_view message) const {
    return absl::DataLossError(fmt::format("{} at byte {}", message, offset()));
  }

  /// The next `n` bytes.
  [[nodiscard]] Status take(std::size_t n, std::string_view& out, std::string_view what) {
    if (n > remaining()) {
      return absl::DataLossError(
          fmt::format("truncated at byte {} reading {} ({} bytes needed, {} left)", offset(), what, n, remaining()));
    }
    out = data_.substr(pos_, n);
    pos_ += n;
    return Status();
  }
  [[nodiscard]] Status skip(std::size_t n, std::string_view what) {
    std::string_view ignored;
    return take(n, ignored, what);
  }

  /// One byte.
  [[nodiscard]] Status read_u8(std::uint8_t& out, std::string_view what) {
    std::string_view b;
    LAKEGC_RETURN_IF_ERROR(take(1, b, what));
    out = static_cast<std::uint8_t>(b[0]);
    return Status();
  }

  /// Big-endian integers, as Java's DataOutput writes them.
  [[nodiscard]] Status read_be16(std::int16_t& out, std::string_view what) { return read_be(out, what); }
  [[nodiscard]] Status read_be32(std::int32_t& out, std::string_view what) { return read_be(out, what); }
  [[nodiscard]] Status read_be64(std::int64_t& out, std::string_view what) { return read_be(out, what); }

 private:
  template <class T>
  [[nodiscard]] Status read_be(T& out, std::string_view what) {
    std::string_view b;
    LAKEGC_RETURN_IF_ERROR(take(sizeof(T), b, what));
    out = boost::endian::endian_load<T, sizeof(T), boost::endian::order::big>(
        reinterpret_cast<const unsigned char*>(b.data()));
    return Status();
  }

  std::string_view data_;
  std::size_t base_ = 0;
  std::size_t pos_ = 0;
};

/// An unsigned LEB128 varint (at most 10 bytes), as protocol buffers and
/// Thrift's compact protocol write them.
[[nodiscard]] inline Status read_uvarint(byte_cursor& in, std::uint64_t& out, std::string_view what) {
  const std::size_t start = in.offset();
  out = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    std::uint8_t b = 0;
    LAKEGC_RETURN_IF_ERROR(in.read_u8(b, what));
    out |= static_cast<std::uint64_t>(b & 0x7fU) << shift;
    if ((b & 0x80U) == 0) return Status();
  }
  return absl::DataLossError(fmt::format("invalid varint at byte {} reading {}", start, what));
}

/// Appends an unsigned LEB128 varint.
inline void put_uvarint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7fU) | 0x80U);
    v >>= 7;
  }
  out += static_cast<char>(v);
}

/// Appends big-endian integers, as Java's DataOutput writes them.
template <class T>
void put_be(std::string& out, T value) {
  unsigned char b[sizeof(T)];
  boost::endian::endian_store<T, sizeof(T), boost::endian::order::big>(b, value);
  out.append(reinterpret_cast<const char*>(b), sizeof(T));
}

}  // namespace lakegc::hudi
