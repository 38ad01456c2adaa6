// File: lakegc/hudi/avro/binary.hpp
// -----------------------------------------------------------------------------
// Avro's binary encoding of primitive values (Avro 1.x spec, "Binary
// Encoding"), read through a byte_cursor and written to a std::string:
// int and long as zig-zag varints, float and double as little-endian IEEE
// 754, string and bytes as a long length then the bytes.
//
// Reading never trusts a length: a negative length, or one that runs past
// the end, is DataLoss before anything is allocated.
#pragma once

#include <bit>
#include <cstdint>
#include <string>
#include <string_view>

#include <boost/endian/conversion.hpp>
#include <fmt/format.h>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/byte_cursor.hpp"

namespace lakegc::hudi::avro {

/// An Avro long (zig-zag varint, at most 10 bytes).
[[nodiscard]] inline Status read_long(byte_cursor& in, std::int64_t& out, std::string_view what) {
  const std::size_t start = in.offset();
  std::uint64_t value = 0;
  for (int shift = 0; shift <= 63; shift += 7) {
    std::uint8_t b = 0;
    if (in.at_end()) return absl::DataLossError(fmt::format("truncated at byte {} reading {}", start, what));
    LAKEGC_RETURN_IF_ERROR(in.read_u8(b, what));
    // The 10th byte may only carry the 64th bit.
    if (shift == 63 && (b & 0xfeU) != 0) break;
    value |= static_cast<std::uint64_t>(b & 0x7fU) << shift;
    if ((b & 0x80U) == 0) {
      out = static_cast<std::int64_t>((value >> 1) ^ (std::uint64_t{0} - (value & 1U)));
      return Status();
    }
  }
  return absl::DataLossError(fmt::format("invalid varint at byte {} reading {}", start, what));
}

/// An Avro int: a long that must fit 32 bits.
[[nodiscard]] inline Status read_int(byte_cursor& in, std::int32_t& out, std::string_view what) {
  std::int64_t n = 0;
  LAKEGC_RETURN_IF_ERROR(read_long(in, n, what));
  if (n < INT32_MIN || n > INT32_MAX) return absl::DataLossError(fmt::format("int value {} out of range", n));
  out = static_cast<std::int32_t>(n);
  return Status();
}

/// An Avro string or bytes value: a long length, then the bytes.
[[nodiscard]] inline Status read_length_prefixed(byte_cursor& in, std::string_view& out, std::string_view what) {
  const std::size_t start = in.offset();
  std::int64_t len = 0;
  LAKEGC_RETURN_IF_ERROR(read_long(in, len, what));
  if (len < 0) return absl::DataLossError(fmt::format("negative length {} at byte {} reading {}", len, start, what));
  if (static_cast<std::uint64_t>(len) > in.remaining()) {
    return absl::DataLossError(fmt::format("length {} at byte {} reading {} runs past the end ({} bytes left)", len,
                                           start, what, in.remaining()));
  }
  return in.take(static_cast<std::size_t>(len), out, what);
}

[[nodiscard]] inline Status read_float(byte_cursor& in, float& out, std::string_view what) {
  std::string_view b;
  LAKEGC_RETURN_IF_ERROR(in.take(4, b, what));
  out = std::bit_cast<float>(boost::endian::endian_load<std::uint32_t, 4, boost::endian::order::little>(
      reinterpret_cast<const unsigned char*>(b.data())));
  return Status();
}

[[nodiscard]] inline Status read_double(byte_cursor& in, double& out, std::string_view what) {
  std::string_view b;
  LAKEGC_RETURN_IF_ERROR(in.take(8, b, what));
  out = std::bit_cast<double>(boost::endian::endian_load<std::uint64_t, 8, boost::endian::order::little>(
      reinterpret_cast<const unsigned char*>(b.data())));
  return Status();
}

/// Appends an Avro long (zig-zag varint); also how an int is written.
inline void put_long(std::string& out, std::int64_t v) {
  auto n = (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
  while (n >= 0x80) {
    out += static_cast<char>((n & 0x7f) | 0x80);
    n >>= 7;
  }
  out += static_cast<char>(n);
}

/// Appends an Avro string or bytes value.
inline void put_bytes(std::string& out, std::string_view s) {
  put_long(out, static_cast<std::int64_t>(s.size()));
  out += s;
}

inline void put_float(std::string& out, float v) {
  unsigned char b[4];
  boost::endian::endian_store<std::uint32_t, 4, boost::endian::order::little>(b, std::bit_cast<std::uint32_t>(v));
  out.append(reinterpret_cast<const char*>(b), 4);
}

inline void put_double(std::string& out, double v) {
  unsigned char b[8];
  boost::endian::endian_store<std::uint64_t, 8, boost::endian::order::little>(b, std::bit_cast<std::uint64_t>(v));
  out.append(reinterpret_cast<const char*>(b), 8);
}

}  // namespace lakegc::hudi::avro
