// File: lakegc/hudi/parquet/read.hpp
// -----------------------------------------------------------------------------
// Reads a flat Parquet file (parquet/column.hpp) into columns: the subset
// parquet-java (1.13, as Hudi 1.2 on Spark 3.5 bundles it) writes for
// Hudi's LSM timeline records. Everything else is refused with an error
// naming the file and what lies outside the subset; nothing is guessed.
//
// The subset:
//   * `PAR1` ... footer, footer length, `PAR1` (no encryption);
//   * a schema of primitive REQUIRED or OPTIONAL columns under the root
//     (no groups, no repeated fields); the columns read are BYTE_ARRAY,
//     INT32 or INT64 (other columns are left unread, as a projection);
//   * any number of row groups, each column chunk in this file;
//   * pages: DATA_PAGE (version 1) and at most one DICTIONARY_PAGE before
//     them; definition levels RLE (the hybrid, with its 4-byte length),
//     no repetition levels; values PLAIN, or PLAIN_DICTIONARY /
//     RLE_DICTIONARY indices into the dictionary page (PLAIN), which is
//     what parquet-java's v1 writer produces, falling back from the
//     dictionary to PLAIN when values are too many or all distinct;
//   * codecs UNCOMPRESSED and GZIP (parquet/compression.hpp); a page CRC,
//     when written, is checked.
// Not in the subset (refused): DATA_PAGE_V2, the DELTA_* and
// BYTE_STREAM_SPLIT encodings, other codecs, nested or repeated columns,
// column chunks in other files, encrypted files.
//
// Limits against damaged input: at most `max_rows` rows (4,194,304 by
// default; an LSM timeline file holds one row per archived instant), pages
// of at most 1 GiB uncompressed.
#pragma once

#include <zlib.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/byte_cursor.hpp"
#include "lakegc/hudi/parquet/column.hpp"
#include "lakegc/hudi/parquet/compression.hpp"
#include "lakegc/hudi/parquet/encoding.hpp"
#include "lakegc/hudi/parquet/format.hpp"

namespace lakegc::hudi::parquet {

inline constexpr std::string_view magic = "PAR1";

struct read_options {
  /// Columns to read, by name; empty reads every column.
  std::vector<std::string> columns;
  std::int64_t max_rows = std::int64_t{1} << 22;
};

struct file_contents {
  file_metadata meta;
  std::vector<column> columns;  ///< the columns read, in schema order
  std::int64_t rows = 0;

  /// The column named `name`, if it was read.
  const column* find(std::string_view name) const {
    for (const column& c : columns) {
      if (c.name == name) return &c;
    }
    return nullptr;
  }
  /// The value of key `key` of the footer's key-value metadata.
  std::optional<std::string> key_value(std::string_view key) const {
    for (const auto& [k, v] : meta.key_value) {
      if (k == key) return v;
    }
    return std::nullopt;
  }
};

namespace detail {

inline constexpr std::int64_t max_page_bytes = std::int64_t{1} << 30;

[[nodiscard]] inline Status outside(std::string_view where, std::string_view what) {
  return absl::UnimplementedError(fmt::format("{}: {}: outside the Parquet subset lakegc reads", where, what));
}

/// Reads `n` PLAIN values of `c`'s type into `out` (strings for BYTE_ARRAY,
/// integers otherwise).
[[nodiscard]] inline Status read_plain(byte_cursor& in, physical t, std::size_t n,
                                       std::vector<std::string_view>& strings, std::vector<std::int64_t>& ints,
                                       std::string_view what) {
  for (std::size_t i = 0; i < n; ++i) {
    if (t == physical::byte_array) {
      std::string_view v;
      LAKEGC_RETURN_IF_ERROR(read_plain_bytes(in, v, what));
      strings.push_back(v);
    } else if (t == physical::int32) {
      std::int32_t v = 0;
      LAKEGC_RETURN_IF_ERROR(read_le(in, v, what));
      ints.push_back(v);
    } else {
      std::int64_t v = 0;
      LAKEGC_RETURN_IF_ERROR(read_le(in, v, what));
      ints.push_back(v);
    }
  }
  return Status();
}

/// The pages of one column chunk, appended to `out`.
class chunk_reader {
 public:
  chunk_reader(std::string_view file, const column_meta& m, column& out, std::string where)
      : file_(file), m_(m), out_(out), where_(std::move(where)) {}

  [[nodiscard]] Status read(std::int64_t rows) {
    if (m_.num_values != rows) {
      return absl::DataLossError(fmt::format("{}: {} values in a row group of {} rows (a flat column has one per row)",
                                             where_, m_.num_values, rows));
    }
    LAKEGC_RETURN_IF_ERROR(check_codec(m_.codec, where_));
    for (const std::int32_t e : m_.encodings) {
      if (e != encoding::plain && e != encoding::plain_dictionary && e != encoding::rle && e != encoding::bit_packed &&
          e != encoding::rle_dictionary) {
        return outside(where_, fmt::format("encoding {}", encoding_name(e)));
      }
    }
    std::int64_t start = m_.data_page_offset;
    if (m_.dictionary_page_offset && *m_.dictionary_page_offset > 0 && *m_.dictionary_page_offset < start) {
      start = *m_.dictionary_page_offset;
    }
    const std::int64_t end_of_data = static_cast<std::int64_t>(file_.size()) - 8;
    if (start < 4 || m_.total_compressed_size < 0 || start > end_of_data ||
        m_.total_compressed_size > end_of_data - start) {
      return absl::DataLossError(fmt::format("{}: the column chunk at byte {} of {} bytes is outside the file", where_,
                                             start, m_.total_compressed_size));
    }
    byte_cursor in(file_.substr(static_cast<std::size_t>(start), static_cast<std::size_t>(m_.total_compressed_size)),
                   static_cast<std::size_t>(start));
    std::int64_t values = 0;
    while (values < rows) {
      if (in.at_end()) {
        return absl::DataLossError(
            fmt::format("{}: the column chunk ends after {} of its {} values", where_, values, rows));
      }
      const std::size_t at = in.offset();
      const std::string page_where = fmt::format("{}, page at byte {}", where_, at);
      LAKEGC_ASSIGN_OR_RETURN(page_header h, decode_page_header(in, page_where));
      if (h.compressed_size < 0 || h.uncompressed_size < 0 || h.uncompressed_size > max_page_bytes) {
        return absl::DataLossError(
            fmt::format("{}: page sizes {} / {}", page_where, h.compressed_size, h.uncompressed_size));
      }
      std::string_view stored;
      LAKEGC_RETURN_IF_ERROR(in.take(static_cast<std::size_t>(h.compressed_size), stored, page_where));
      if (h.crc) {
        const auto crc = static_cast<std::uint32_t>(
            crc32(0L, reinterpret_cast<const Bytef*>(stored.data()), static_cast<uInt>(stored.size())));
        if (static_cast<std::int32_t>(crc) != *h.crc) {
          return absl::DataLossError(fmt::format("{}: page CRC {:08x}, the bytes give {:08x}", page_where,
                                                 static_cast<std::uint32_t>(*h.crc), crc));
        }
      }
      switch (static_cast<page_type>(h.type)) {
        case page_type::dictionary: {
          if (!h.dictionary)
            return absl::DataLossError(fmt::format("{}: a dictionary page without its header", page_where));
          if (have_dictionary_ || values > 0) return outside(page_where, "a dictionary page after the first page");
          if (h.dictionary->encoding != encoding::plain && h.dictionary->encoding != encoding::plain_dictionary) {
            return outside(page_where, fmt::format("dictionary encoding {}", encoding_name(h.dictionary->encoding)));
          }
          if (h.dictionary->num_values < 0)
            return absl::DataLossError(fmt::format("{}: {} dictionary values", page_where, h.dictionary->num_values));
          LAKEGC_ASSIGN_OR_RETURN(
              dictionary_page_,
              decompress(m_.codec, stored, static_cast<std::size_t>(h.uncompressed_size), page_where));
          byte_cursor d(dictionary_page_);
          if (static_cast<std::size_t>(h.dictionary->num_values) > dictionary_page_.size() + 1) {
            return absl::DataLossError(fmt::format("{}: {} dictionary values in {} bytes", page_where,
                                                   h.dictionary->num_values, dictionary_page_.size()));
          }
          LAKEGC_RETURN_IF_ERROR(read_plain(d, static_cast<physical>(m_.type),
                                            static_cast<std::size_t>(h.dictionary->num_values), dict_strings_,
                                            dict_ints_, page_where));
          have_dictionary_ = true;
          break;
        }
        case page_type::data: {
          if (!h.data) return absl::DataLossError(fmt::format("{}: a data page without its header", page_where));
          if (h.data->num_values < 0 || h.data->num_values > rows - values) {
            return absl::DataLossError(fmt::format("{}: {} values where {} are left in the chunk", page_where,
                                                   h.data->num_values, rows - values));
          }
          LAKEGC_ASSIGN_OR_RETURN(
              std::string page,
              decompress(m_.codec, stored, static_cast<std::size_t>(h.uncompressed_size), page_where));
          LAKEGC_RETURN_IF_ERROR(read_data_page(*h.data, page, at, page_where));
          values += h.data->num_values;
          break;
        }
        case page_type::index: break;  // never read, as parquet-java skips it
        case page_type::data_v2: return outside(page_where, "a DATA_PAGE_V2");
        default: return absl::DataLossError(fmt::format("{}: page type {}", page_where, h.type));
      }
    }
    return Status();
  }

 private:
  [[nodiscard]] Status read_data_page(const data_page_header& h, const std::string& page, std::size_t at,
                                      const std::string& where) {
    byte_cursor in(page, 0);
    const auto n = static_cast<std::size_t>(h.num_values);
    std::vector<std::uint32_t> defined;
    std::size_t present = n;
    if (out_.optional) {
      if (h.definition_level_encoding != encoding::rle) {
        return outside(where, fmt::format("definition levels in {}", encoding_name(h.definition_level_encoding)));
      }
      std::uint32_t length = 0;
      LAKEGC_RETURN_IF_ERROR(read_le(in, length, where));
      std::string_view levels;
      LAKEGC_RETURN_IF_ERROR(in.take(length, levels, fmt::format("{}: definition levels", where)));
      byte_cursor lv(levels, at);
      LAKEGC_RETURN_IF_ERROR(decode_hybrid(lv, 1, n, defined, fmt::format("{}: definition levels", where)));
      present = static_cast<std::size_t>(std::count(defined.begin(), defined.end(), 1U));
    }
    std::vector<std::string_view> strings;
    std::vector<std::int64_t> ints;
    const auto t = static_cast<physical>(m_.type);
    if (h.encoding == encoding::plain) {
      // Each value takes at least one byte: a count past the page is damage.
      if (present > in.remaining())
        return absl::DataLossError(fmt::format("{}: {} values in {} bytes", where, present, in.remaining()));
      LAKEGC_RETURN_IF_ERROR(read_plain(in, t, present, strings, ints, where));
    } else if (h.encoding == encoding::plain_dictionary || h.encoding == encoding::rle_dictionary) {
      if (!have_dictionary_)
        return absl::DataLossError(fmt::format("{}: dictionary indices without a dictionary page", where));
      std::vector<std::uint32_t> idx;
      if (present > 0) {
        std::uint8_t width = 0;
        LAKEGC_RETURN_IF_ERROR(in.read_u8(width, where));
        LAKEGC_RETURN_IF_ERROR(decode_hybrid(in, width, present, idx, fmt::format("{}: dictionary indices", where)));
      }
      const std::size_t dict_size = t == physical::byte_array ? dict_strings_.size() : dict_ints_.size();
      for (const std::uint32_t i : idx) {
        if (i >= dict_size)
          return absl::DataLossError(fmt::format("{}: index {} into a dictionary of {}", where, i, dict_size));
        if (t == physical::byte_array) {
          strings.push_back(dict_strings_[i]);
        } else {
          ints.push_back(dict_ints_[i]);
        }
      }
    } else {
      return outside(where, fmt::format("values in {}", encoding_name(h.encoding)));
    }
    std::size_t next = 0;
    for (std::size_t row = 0; row < n; ++row) {
      const bool is_null = out_.optional && defined[row] == 0;
      if (t == physical::byte_array) {
        out_.bytes.push_back(is_null ? std::nullopt : std::optional<std::string>(std::string(strings[next])));
      } else {
        out_.ints.push_back(is_null ? std::nullopt : std::optional<std::int64_t>(ints[next]));
      }
      next += is_null ? 0 : 1;
    }
    return Status();
  }

  std::string_view file_;
  const column_meta& m_;
  column& out_;
  std::string where_;
  bool have_dictionary_ = false;
  std::string dictionary_page_;
  std::vector<std::string_view> dict_strings_;
  std::vector<std::int64_t> dict_ints_;
};

}  // namespace detail

/// Reads the flat Parquet file `file` (its bytes); `where` names it in
/// errors.
[[nodiscard]] inline StatusOr<file_contents> read_file(std::string_view file, std::string_view where,
                                                       const read_options& o = {}) {
  if (file.size() < 12 || file.substr(0, 4) != magic) {
    if (file.size() >= 4 && file.substr(file.size() - 4) == "PARE") {
      return detail::outside(where, "an encrypted footer (PARE)");
    }
    return absl::DataLossError(fmt::format("{}: not a Parquet file (no PAR1 at the start)", where));
  }
  if (file.substr(file.size() - 4) != magic) {
    if (file.substr(file.size() - 4) == "PARE") return detail::outside(where, "an encrypted footer (PARE)");
    return absl::DataLossError(fmt::format("{}: not a whole Parquet file (no PAR1 at the end: truncated?)", where));
  }
  std::uint32_t footer_len = 0;
  {
    byte_cursor tail(file.substr(file.size() - 8, 4), file.size() - 8);
    LAKEGC_RETURN_IF_ERROR(read_le(tail, footer_len, where));
  }
  if (footer_len > file.size() - 12) {
    return absl::DataLossError(
        fmt::format("{}: a footer of {} bytes in a file of {} bytes", where, footer_len, file.size()));
  }
  const std::size_t footer_at = file.size() - 8 - footer_len;
  file_contents out;
  LAKEGC_ASSIGN_OR_RETURN(out.meta, decode_file_metadata(file.substr(footer_at, footer_len), footer_at, where));
  const file_metadata& m = out.meta;
  if (m.encrypted) return detail::outside(where, "encryption");
  if (m.schema.empty() || m.schema[0].type)
    return absl::DataLossError(fmt::format("{}: the schema has no root", where));
  const std::size_t leaves = m.schema.size() - 1;
  if (m.schema[0].num_children.value_or(-1) != static_cast<std::int32_t>(leaves)) {
    return detail::outside(where, "a nested schema (the root's children are not all its leaves)");
  }
  for (std::size_t i = 1; i < m.schema.size(); ++i) {
    const schema_element& e = m.schema[i];
    if (!e.type || e.num_children.value_or(0) != 0)
      return detail::outside(where, fmt::format("group column '{}'", e.name));
    if (e.repetition.value_or(0) == static_cast<std::int32_t>(repetition::repeated) ||
        (e.repetition && *e.repetition != 0 && *e.repetition != 1)) {
      return detail::outside(where, fmt::format("repeated column '{}'", e.name));
    }
  }
  if (m.num_rows < 0 || m.num_rows > o.max_rows) {
    return absl::ResourceExhaustedError(
        fmt::format("{}: {} rows (lakegc reads at most {} from one file)", where, m.num_rows, o.max_rows));
  }
  // The columns to read, in schema order.
  std::vector<std::size_t> wanted;
  for (std::size_t i = 1; i < m.schema.size(); ++i) {
    if (!o.columns.empty() && std::find(o.columns.begin(), o.columns.end(), m.schema[i].name) == o.columns.end()) {
      continue;
    }
    const schema_element& e = m.schema[i];
    const auto t = static_cast<physical>(*e.type);
    if (t != physical::byte_array && t != physical::int32 && t != physical::int64) {
      return detail::outside(where, fmt::format("column '{}' of type {}", e.name, physical_name(*e.type)));
    }
    wanted.push_back(i);
    column c;
    c.name = e.name;
    c.type = t;
    c.optional = e.repetition.value_or(0) == static_cast<std::int32_t>(repetition::optional);
    c.utf8 = e.converted_type == 0 || e.logical_string;
    out.columns.push_back(std::move(c));
  }
  std::int64_t rows = 0;
  for (std::size_t g = 0; g < m.row_groups.size(); ++g) {
    const row_group& rg = m.row_groups[g];
    if (rg.columns.size() != leaves) {
      return absl::DataLossError(
          fmt::format("{}: row group {} has {} column chunks for {} columns", where, g, rg.columns.size(), leaves));
    }
    if (rg.num_rows < 0 || rg.num_rows > m.num_rows - rows) {
      return absl::DataLossError(
          fmt::format("{}: row group {} of {} rows in a file of {}", where, g, rg.num_rows, m.num_rows));
    }
    // Every chunk's metadata must match its schema column, read or not: a
    // projection must not accept a file whose schema and chunks disagree
    // (a renamed schema column would otherwise read as an absent one).
    for (std::size_t leaf = 0; leaf < leaves; ++leaf) {
      const column_chunk& cc = rg.columns[leaf];
      const schema_element& e = m.schema[leaf + 1];
      const std::string chunk_where = fmt::format("{}: column '{}', row group {}", where, e.name, g);
      if (cc.file_path)
        return detail::outside(chunk_where, fmt::format("a column chunk in another file ({})", *cc.file_path));
      if (!cc.meta) return absl::DataLossError(fmt::format("{}: no column metadata", chunk_where));
      if (cc.meta->type != *e.type) {
        return absl::DataLossError(fmt::format("{}: chunk type {} where the schema says {}", chunk_where,
                                               physical_name(cc.meta->type), physical_name(*e.type)));
      }
      if (cc.meta->path.size() != 1 || cc.meta->path[0] != e.name) {
        return absl::DataLossError(fmt::format("{}: the chunk's path is not the column's", chunk_where));
      }
    }
    for (std::size_t k = 0; k < wanted.size(); ++k) {
      const column_chunk& cc = rg.columns[wanted[k] - 1];
      const std::string chunk_where = fmt::format("{}: column '{}', row group {}", where, out.columns[k].name, g);
      detail::chunk_reader r(file, *cc.meta, out.columns[k], chunk_where);
      LAKEGC_RETURN_IF_ERROR(r.read(rg.num_rows));
    }
    rows += rg.num_rows;
  }
  if (rows != m.num_rows) {
    return absl::DataLossError(
        fmt::format("{}: its row groups hold {} rows, the footer says {}", where, rows, m.num_rows));
  }
  out.rows = rows;
  return out;
}

}  // namespace lakegc::hudi::parquet
