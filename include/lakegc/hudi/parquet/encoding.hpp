// File: lakegc/hudi/parquet/encoding.hpp
// -----------------------------------------------------------------------------
// The value encodings of the Parquet subset:
//
//   RLE / bit-packed hybrid  definition levels and dictionary indices: runs,
//                            each a varint header; an even header is
//                            (count << 1) followed by the value in
//                            ceil(width / 8) bytes LE; an odd header is
//                            (groups << 1 | 1) followed by groups * 8 values
//                            of `width` bits, packed LSB first.
//   PLAIN                    INT32 (4 bytes LE), INT64 (8 bytes LE),
//                            BYTE_ARRAY (a 4-byte LE length, then the bytes)
//
// The writer writes runs only, never bit-packed groups (valid, and what a
// column of nulls and values in blocks needs).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <boost/endian/conversion.hpp>
#include <fmt/format.h>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/byte_cursor.hpp"

namespace lakegc::hudi::parquet {

/// Decodes `n` values of `width` bits (0 to 32) of the hybrid encoding.
[[nodiscard]] inline Status decode_hybrid(byte_cursor& in, int width, std::size_t n, std::vector<std::uint32_t>& out,
                                          std::string_view what) {
  if (width < 0 || width > 32) return in.error_here(fmt::format("{}: bit width {}", what, width));
  out.clear();
  out.reserve(n);
  const std::size_t value_bytes = static_cast<std::size_t>((width + 7) / 8);
  while (out.size() < n) {
    std::uint64_t header = 0;
    LAKEGC_RETURN_IF_ERROR(read_uvarint(in, header, what));
    if ((header & 1U) == 0) {
      const std::uint64_t count = header >> 1;
      std::string_view b;
      LAKEGC_RETURN_IF_ERROR(in.take(value_bytes, b, what));
      std::uint32_t v = 0;
      for (std::size_t i = 0; i < value_bytes; ++i)
        v |= static_cast<std::uint32_t>(static_cast<std::uint8_t>(b[i])) << (8 * i);
      if (width < 32 && (v >> width) != 0)
        return in.error_here(fmt::format("{}: a run value wider than {} bits", what, width));
      if (count == 0) return in.error_here(fmt::format("{}: an empty run", what));
      const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(count, n - out.size()));
      out.insert(out.end(), take, v);
    } else {
      const std::uint64_t groups = header >> 1;
      if (groups == 0) return in.error_here(fmt::format("{}: an empty bit-packed run", what));
      if (groups > in.remaining() + 1)
        return in.error_here(fmt::format("{}: {} bit-packed groups run past the end", what, groups));
      const std::size_t bytes = static_cast<std::size_t>(groups) * static_cast<std::size_t>(width);
      std::string_view b;
      LAKEGC_RETURN_IF_ERROR(in.take(bytes, b, what));
      const std::size_t count = static_cast<std::size_t>(groups) * 8;
      for (std::size_t i = 0; i < count && out.size() < n; ++i) {
        std::uint64_t v = 0;
        const std::size_t first_bit = i * static_cast<std::size_t>(width);
        for (int k = 0; k < width; ++k) {
          const std::size_t bit = first_bit + static_cast<std::size_t>(k);
          if ((static_cast<std::uint8_t>(b[bit / 8]) >> (bit % 8)) & 1U) v |= std::uint64_t{1} << k;
        }
        out.push_back(static_cast<std::uint32_t>(v));
      }
    }
  }
  return Status();
}

/// Encodes `values` (each below 2^width) as hybrid runs.
inline void encode_hybrid_runs(const std::vector<std::uint32_t>& values, int width, std::string& out) {
  const std::size_t value_bytes = static_cast<std::size_t>((width + 7) / 8);
  std::size_t i = 0;
  while (i < values.size()) {
    std::size_t j = i;
    while (j < values.size() && values[j] == values[i]) ++j;
    put_uvarint(out, static_cast<std::uint64_t>(j - i) << 1);
    for (std::size_t k = 0; k < value_bytes; ++k) out += static_cast<char>((values[i] >> (8 * k)) & 0xffU);
    i = j;
  }
}

/// Little-endian fixed-width integers of PLAIN.
template <class T>
[[nodiscard]] Status read_le(byte_cursor& in, T& out, std::string_view what) {
  std::string_view b;
  LAKEGC_RETURN_IF_ERROR(in.take(sizeof(T), b, what));
  out = boost::endian::endian_load<T, sizeof(T), boost::endian::order::little>(
      reinterpret_cast<const unsigned char*>(b.data()));
  return Status();
}

template <class T>
void put_le(std::string& out, T value) {
  unsigned char b[sizeof(T)];
  boost::endian::endian_store<T, sizeof(T), boost::endian::order::little>(b, value);
  out.append(reinterpret_cast<const char*>(b), sizeof(T));
}

/// One PLAIN BYTE_ARRAY value.
[[nodiscard]] inline Status read_plain_bytes(byte_cursor& in, std::string_view& out, std::string_view what) {
  std::uint32_t n = 0;
  LAKEGC_RETURN_IF_ERROR(read_le(in, n, what));
  return in.take(n, out, what);
}

inline void put_plain_bytes(std::string& out, std::string_view v) {
  put_le(out, static_cast<std::uint32_t>(v.size()));
  out.append(v);
}

}  // namespace lakegc::hudi::parquet
