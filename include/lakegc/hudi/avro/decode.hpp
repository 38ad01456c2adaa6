// File: lakegc/hudi/avro/decode.hpp
// -----------------------------------------------------------------------------
// Decodes Avro binary values into datums, checking the bytes as it walks
// them: one pass both validates and builds the value.
//
// Nothing is allocated from a length before the bytes it claims are known
// to be there (a string length of -1 or 2^62 is an error, not an
// allocation), every index is checked against the schema (union branch,
// enum symbol), nesting is bounded by max_depth, and the number of array
// and map elements is bounded by an element budget (see decode_value), so
// an array of 2^62 nulls written in ten bytes is refused instead of looping.
//
// Errors are DataLoss and name what was being read and the byte offset in
// the file.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/avro/binary.hpp"
#include "lakegc/hudi/avro/datum.hpp"
#include "lakegc/hudi/avro/schema.hpp"
#include "lakegc/hudi/byte_cursor.hpp"

namespace lakegc::hudi::avro {

namespace detail {

class value_decoder {
 public:
  value_decoder(const schema& s, byte_cursor& in, std::int64_t& element_budget)
      : schema_(s), in_(in), budget_(element_budget) {}

  [[nodiscard]] Status decode(std::uint32_t index, datum& out, int depth) {
    if (depth > max_depth) {
      return absl::DataLossError(fmt::format("value nested deeper than {} levels", max_depth));
    }
    const schema_node& node = schema_.node(index);
    switch (node.kind) {
      case type::null: out = datum(); return Status();
      case type::boolean: {
        const std::size_t at = in_.offset();
        std::uint8_t b = 0;
        LAKEGC_RETURN_IF_ERROR(in_.read_u8(b, "boolean"));
        if (b > 1) return absl::DataLossError(fmt::format("invalid boolean byte at offset {}", at));
        out = datum::make_bool(b == 1);
        return Status();
      }
      case type::int32: {
        std::int32_t i = 0;
        LAKEGC_RETURN_IF_ERROR(read_int(in_, i, "int"));
        out = datum::make_int(i);
        return Status();
      }
      case type::int64: {
        std::int64_t l = 0;
        LAKEGC_RETURN_IF_ERROR(read_long(in_, l, "long"));
        out = datum::make_long(l);
        return Status();
      }
      case type::float32: {
        float f = 0;
        LAKEGC_RETURN_IF_ERROR(read_float(in_, f, "float"));
        out = datum::make_float(f);
        return Status();
      }
      case type::float64: {
        double d = 0;
        LAKEGC_RETURN_IF_ERROR(read_double(in_, d, "double"));
        out = datum::make_double(d);
        return Status();
      }
      case type::string:
      case type::bytes: {
        const bool is_string = node.kind == type::string;
        std::string_view s;
        LAKEGC_RETURN_IF_ERROR(read_length_prefixed(in_, s, is_string ? "string" : "bytes"));
        out = is_string ? datum::make_string(std::string(s)) : datum::make_bytes(std::string(s));
        return Status();
      }
      case type::fixed: {
        if (node.size > in_.remaining()) {
          return absl::DataLossError(fmt::format("truncated at offset {} reading fixed({})", in_.offset(), node.size));
        }
        std::string_view s;
        LAKEGC_RETURN_IF_ERROR(in_.take(static_cast<std::size_t>(node.size), s, "fixed"));
        out = datum::make_fixed(node.name, std::string(s));
        return Status();
      }
      case type::enum_symbol: {
        const std::size_t at = in_.offset();
        std::int64_t n = 0;
        LAKEGC_RETURN_IF_ERROR(read_long(in_, n, "enum index"));
        if (n < 0 || static_cast<std::uint64_t>(n) >= node.names.size()) {
          return absl::DataLossError(fmt::format("enum index {} at offset {} out of range", n, at));
        }
        out = datum::make_enum(node.name, node.names[static_cast<std::size_t>(n)]);
        return Status();
      }
      case type::union_of: {
        const std::size_t at = in_.offset();
        std::int64_t n = 0;
        LAKEGC_RETURN_IF_ERROR(read_long(in_, n, "union branch"));
        if (n < 0 || static_cast<std::uint64_t>(n) >= node.children.size()) {
          return absl::DataLossError(fmt::format("union branch {} at offset {} out of range", n, at));
        }
        return decode(node.children[static_cast<std::size_t>(n)], out, depth + 1);
      }
      case type::record: {
        out = datum::make_record(node.name);
        for (std::size_t i = 0; i < node.children.size(); ++i) {
          datum field;
          LAKEGC_RETURN_IF_ERROR(decode(node.children[i], field, depth + 1));
          out.add(node.names[i], std::move(field));
        }
        return Status();
      }
      case type::array:
      case type::map: return decode_blocks(node, out, depth);
    }
    return absl::DataLossError("schema has a type this reader does not know");
  }

 private:
  /// Arrays and maps: blocks of `count` items, ending with a 0 count; a
  /// negative count is followed by the block's byte size.
  [[nodiscard]] Status decode_blocks(const schema_node& node, datum& out, int depth) {
    const bool is_map = node.kind == type::map;
    const std::string_view what = is_map ? "map block count" : "array block count";
    out = is_map ? datum::make_map() : datum::make_array();
    for (;;) {
      const std::size_t at = in_.offset();
      std::int64_t count = 0;
      LAKEGC_RETURN_IF_ERROR(read_long(in_, count, what));
      if (count == 0) return Status();
      if (count < 0) {
        if (count == INT64_MIN) return absl::DataLossError(fmt::format("invalid {} at offset {}", what, at));
        count = -count;
        std::int64_t size = 0;
        LAKEGC_RETURN_IF_ERROR(read_long(in_, size, "array/map block size"));
        if (size < 0) return absl::DataLossError(fmt::format("negative array/map block size at offset {}", at));
      }
      // Every element a real writer emits takes at least one byte except
      // items of zero-byte types; the budget bounds both.
      if (count > budget_) {
        return absl::DataLossError(
            fmt::format("{} of {} at offset {} exceeds what the block can hold", what, count, at));
      }
      budget_ -= count;
      for (std::int64_t i = 0; i < count; ++i) {
        datum item;
        if (is_map) {
          std::string_view key;
          LAKEGC_RETURN_IF_ERROR(read_length_prefixed(in_, key, "map key"));
          LAKEGC_RETURN_IF_ERROR(decode(node.children[0], item, depth + 1));
          out.add(std::string(key), std::move(item));
        } else {
          LAKEGC_RETURN_IF_ERROR(decode(node.children[0], item, depth + 1));
          out.append(std::move(item));
        }
      }
    }
  }

  const schema& schema_;
  byte_cursor& in_;
  std::int64_t& budget_;
};

}  // namespace detail

/// Decodes one value of `s`'s root type from `in`.
///
/// `element_budget` is how many array and map elements (and top-level
/// values) may still be decoded from the bytes `in` came from; each decoded
/// element takes one. Start it at the byte size of the input plus one: a
/// real writer spends at least one byte per element, except for elements of
/// zero-byte types (null, empty records), whose count this caps.
[[nodiscard]] inline Status decode_value(const schema& s, byte_cursor& in, std::int64_t& element_budget, datum& out) {
  return detail::value_decoder(s, in, element_budget).decode(s.root_index(), out, 0);
}

/// Decodes `bytes`, which start at `file_offset` in their file, as exactly
/// one value of `s`: bytes left over mean the writer used another schema,
/// and are DataLoss rather than ignored.
[[nodiscard]] inline StatusOr<datum> decode_single_value(const schema& s, std::string_view bytes,
                                                         std::size_t file_offset) {
  byte_cursor in(bytes, file_offset);
  std::int64_t budget = static_cast<std::int64_t>(bytes.size()) + 1;
  datum out;
  LAKEGC_RETURN_IF_ERROR(decode_value(s, in, budget, out));
  if (!in.at_end()) {
    return absl::DataLossError(
        fmt::format("value at byte {}: {} bytes left over after it", file_offset, in.remaining()));
  }
  return out;
}

}  // namespace lakegc::hudi::avro
