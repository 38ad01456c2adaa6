// File: lakegc/hudi/parquet/write.hpp
// -----------------------------------------------------------------------------
// Writes a flat Parquet file (parquet/column.hpp) that parquet-java reads:
// one row group; per column one chunk of DATA_PAGE (version 1) pages of at
// most `page_bytes` raw value bytes each, values PLAIN, definition levels
// RLE (optional columns; repetition levels declared BIT_PACKED and absent,
// as parquet-java's v1 writer declares them), every page compressed with
// the codec (GZIP by default, Hudi's default for its LSM timeline) and
// carrying its CRC32; the footer with the schema, the column metadata
// parquet-java needs (type, encodings, path, codec, counts, sizes, data
// page offset), the caller's key-value metadata and `created_by`. No
// dictionary, statistics or page indexes: optional in the format, and
// Hudi's timeline readers read every row without filters.
#pragma once

#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/parquet/column.hpp"
#include "lakegc/hudi/parquet/compression.hpp"
#include "lakegc/hudi/parquet/encoding.hpp"
#include "lakegc/hudi/parquet/format.hpp"
#include "lakegc/hudi/parquet/read.hpp"

namespace lakegc::hudi::parquet {

struct write_options {
  std::int32_t codec = static_cast<std::int32_t>(codec::gzip);
  /// Raw value bytes per page (parquet-java's default page size, 1 MiB).
  std::size_t page_bytes = 1024 * 1024;
  std::vector<std::pair<std::string, std::optional<std::string>>> key_value;
  std::string created_by = "lakegc";
  /// The schema's root (parquet-avro names it after the record's full name).
  std::string root_name = "schema";
};

namespace detail {

[[nodiscard]] inline Status write_page(std::string& file, const std::vector<std::uint32_t>* levels,
                                       const std::string& values, std::size_t n, const write_options& o,
                                       column_meta& m) {
  std::string raw;
  if (levels != nullptr) {
    std::string encoded;
    encode_hybrid_runs(*levels, 1, encoded);
    put_le(raw, static_cast<std::uint32_t>(encoded.size()));
    raw += encoded;
  }
  raw += values;
  if (raw.size() > static_cast<std::size_t>(max_page_bytes)) {
    return absl::InvalidArgumentError(fmt::format("a page of {} bytes (a value larger than 1 GiB?)", raw.size()));
  }
  LAKEGC_ASSIGN_OR_RETURN(std::string stored, compress(o.codec, raw));
  page_header h;
  h.type = static_cast<std::int32_t>(page_type::data);
  h.uncompressed_size = static_cast<std::int32_t>(raw.size());
  h.compressed_size = static_cast<std::int32_t>(stored.size());
  h.crc = static_cast<std::int32_t>(
      crc32(0L, reinterpret_cast<const Bytef*>(stored.data()), static_cast<uInt>(stored.size())));
  data_page_header d;
  d.num_values = static_cast<std::int32_t>(n);
  d.encoding = encoding::plain;
  d.definition_level_encoding = encoding::rle;
  d.repetition_level_encoding = encoding::bit_packed;
  h.data = d;
  std::string header;
  encode_page_header(h, header);
  m.total_uncompressed_size += static_cast<std::int64_t>(header.size() + raw.size());
  m.total_compressed_size += static_cast<std::int64_t>(header.size() + stored.size());
  file += header;
  file += stored;
  return Status();
}

}  // namespace detail

/// The bytes of a Parquet file holding `columns` (all of one length).
[[nodiscard]] inline StatusOr<std::string> write_file(const std::vector<column>& columns, const write_options& o = {}) {
  if (columns.empty()) return absl::InvalidArgumentError("a Parquet file needs a column");
  const std::size_t rows = columns[0].rows();
  file_metadata meta;
  meta.version = 1;
  meta.num_rows = static_cast<std::int64_t>(rows);
  meta.key_value = o.key_value;
  meta.created_by = o.created_by;
  schema_element root;
  root.name = o.root_name;
  root.num_children = static_cast<std::int32_t>(columns.size());
  meta.schema.push_back(root);
  row_group g;
  g.num_rows = static_cast<std::int64_t>(rows);
  std::string file(magic);
  g.file_offset = static_cast<std::int64_t>(file.size());
  std::int64_t compressed_total = 0;
  for (const column& c : columns) {
    if (c.rows() != rows) {
      return absl::InvalidArgumentError(
          fmt::format("column '{}' has {} rows, '{}' {}", c.name, c.rows(), columns[0].name, rows));
    }
    if (c.type != physical::byte_array && c.type != physical::int32 && c.type != physical::int64) {
      return absl::InvalidArgumentError(fmt::format("column '{}': type {} is outside the subset lakegc writes", c.name,
                                                    physical_name(static_cast<std::int32_t>(c.type))));
    }
    schema_element e;
    e.type = static_cast<std::int32_t>(c.type);
    e.repetition = static_cast<std::int32_t>(c.optional ? repetition::optional : repetition::required);
    e.name = c.name;
    if (c.utf8) {
      e.converted_type = 0;
      e.logical_string = true;
    }
    meta.schema.push_back(e);

    column_meta m;
    m.type = e.type.value();
    m.encodings = {encoding::plain, encoding::rle, encoding::bit_packed};
    m.path = {c.name};
    m.codec = o.codec;
    m.num_values = static_cast<std::int64_t>(rows);
    m.data_page_offset = static_cast<std::int64_t>(file.size());
    if (rows == 0) {
      g.columns.push_back({std::nullopt, m.data_page_offset, std::move(m)});
      continue;
    }
    std::vector<std::uint32_t> levels;
    std::string values;
    std::size_t in_page = 0;
    for (std::size_t r = 0; r < rows; ++r) {
      bool present = true;
      if (c.type == physical::byte_array) {
        present = c.bytes[r].has_value();
        if (present) put_plain_bytes(values, *c.bytes[r]);
      } else {
        present = c.ints[r].has_value();
        if (present && c.type == physical::int32) {
          const std::int64_t v = *c.ints[r];
          if (v < INT32_MIN || v > INT32_MAX) {
            return absl::InvalidArgumentError(fmt::format("column '{}', row {}: {} is not an INT32", c.name, r, v));
          }
          put_le(values, static_cast<std::int32_t>(v));
        } else if (present) {
          put_le(values, *c.ints[r]);
        }
      }
      if (!present && !c.optional) {
        return absl::InvalidArgumentError(fmt::format("column '{}' is required: row {} is null", c.name, r));
      }
      levels.push_back(present ? 1U : 0U);
      ++in_page;
      if (values.size() >= o.page_bytes || r + 1 == rows) {
        LAKEGC_RETURN_IF_ERROR(detail::write_page(file, c.optional ? &levels : nullptr, values, in_page, o, m));
        levels.clear();
        values.clear();
        in_page = 0;
      }
    }
    column_chunk cc;
    cc.file_offset = m.data_page_offset;
    compressed_total += m.total_compressed_size;
    g.total_byte_size += m.total_uncompressed_size;
    cc.meta = std::move(m);
    g.columns.push_back(std::move(cc));
  }
  g.total_compressed_size = compressed_total;
  // parquet-java writes no row group for no rows.
  if (rows > 0) meta.row_groups.push_back(std::move(g));
  std::string footer;
  encode_file_metadata(meta, footer);
  file += footer;
  put_le(file, static_cast<std::uint32_t>(footer.size()));
  file += magic;
  return file;
}

}  // namespace lakegc::hudi::parquet
