// File: lakegc/hudi/parquet/format.hpp
// -----------------------------------------------------------------------------
// The Parquet footer and page headers (parquet-format's parquet.thrift, in
// Thrift's compact protocol: parquet/thrift_compact.hpp), as far as the
// files of Hudi's LSM timeline use them, decoded and encoded field by field.
//
// A Parquet file is `PAR1`, the column chunks (each a sequence of pages,
// every page a PageHeader followed by its bytes), the footer (FileMetaData),
// the footer's length (4 bytes LE) and `PAR1`. Fields this subset does not
// use (statistics, encoding stats, page and column indexes, sorting
// columns, bloom filters) are skipped when read and not written.
//
// Thrift ids and enum values below are parquet.thrift's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/parquet/thrift_compact.hpp"

namespace lakegc::hudi::parquet {

/// parquet.thrift Type.
enum class physical : std::int32_t {
  boolean = 0,
  int32 = 1,
  int64 = 2,
  int96 = 3,
  float32 = 4,
  float64 = 5,
  byte_array = 6,
  fixed_len_byte_array = 7
};

inline std::string_view physical_name(std::int32_t t) noexcept {
  switch (static_cast<physical>(t)) {
    case physical::boolean: return "BOOLEAN";
    case physical::int32: return "INT32";
    case physical::int64: return "INT64";
    case physical::int96: return "INT96";
    case physical::float32: return "FLOAT";
    case physical::float64: return "DOUBLE";
    case physical::byte_array: return "BYTE_ARRAY";
    case physical::fixed_len_byte_array: return "FIXED_LEN_BYTE_ARRAY";
  }
  return "unknown";
}

/// parquet.thrift FieldRepetitionType.
enum class repetition : std::int32_t { required = 0, optional = 1, repeated = 2 };

/// parquet.thrift Encoding (the values this subset names).
namespace encoding {
inline constexpr std::int32_t plain = 0;
inline constexpr std::int32_t plain_dictionary = 2;
inline constexpr std::int32_t rle = 3;
inline constexpr std::int32_t bit_packed = 4;
inline constexpr std::int32_t rle_dictionary = 8;
}  // namespace encoding

inline std::string_view encoding_name(std::int32_t e) noexcept {
  switch (e) {
    case 0: return "PLAIN";
    case 2: return "PLAIN_DICTIONARY";
    case 3: return "RLE";
    case 4: return "BIT_PACKED";
    case 5: return "DELTA_BINARY_PACKED";
    case 6: return "DELTA_LENGTH_BYTE_ARRAY";
    case 7: return "DELTA_BYTE_ARRAY";
    case 8: return "RLE_DICTIONARY";
    case 9: return "BYTE_STREAM_SPLIT";
    default: return "unknown";
  }
}

/// parquet.thrift CompressionCodec.
enum class codec : std::int32_t {
  uncompressed = 0,
  snappy = 1,
  gzip = 2,
  lzo = 3,
  brotli = 4,
  lz4 = 5,
  zstd = 6,
  lz4_raw = 7
};

inline std::string_view codec_name(std::int32_t c) noexcept {
  switch (static_cast<codec>(c)) {
    case codec::uncompressed: return "UNCOMPRESSED";
    case codec::snappy: return "SNAPPY";
    case codec::gzip: return "GZIP";
    case codec::lzo: return "LZO";
    case codec::brotli: return "BROTLI";
    case codec::lz4: return "LZ4";
    case codec::zstd: return "ZSTD";
    case codec::lz4_raw: return "LZ4_RAW";
  }
  return "unknown";
}

/// parquet.thrift PageType.
enum class page_type : std::int32_t { data = 0, index = 1, dictionary = 2, data_v2 = 3 };

struct schema_element {
  std::optional<std::int32_t> type;  ///< physical; absent for a group
  std::optional<std::int32_t> repetition;
  std::string name;
  std::optional<std::int32_t> num_children;
  std::optional<std::int32_t> converted_type;  ///< 0 = UTF8
  bool logical_string = false;                 ///< LogicalType STRING
};

struct column_meta {
  std::int32_t type = 0;
  std::vector<std::int32_t> encodings;
  std::vector<std::string> path;
  std::int32_t codec = 0;
  std::int64_t num_values = 0;
  std::int64_t total_uncompressed_size = 0;
  std::int64_t total_compressed_size = 0;
  std::int64_t data_page_offset = 0;
  std::optional<std::int64_t> dictionary_page_offset;
};

struct column_chunk {
  std::optional<std::string> file_path;
  std::int64_t file_offset = 0;
  std::optional<column_meta> meta;
};

struct row_group {
  std::vector<column_chunk> columns;
  std::int64_t total_byte_size = 0;
  std::int64_t num_rows = 0;
  std::optional<std::int64_t> file_offset;
  std::optional<std::int64_t> total_compressed_size;
};

struct file_metadata {
  std::int32_t version = 1;
  std::vector<schema_element> schema;
  std::int64_t num_rows = 0;
  std::vector<row_group> row_groups;
  std::vector<std::pair<std::string, std::optional<std::string>>> key_value;
  std::optional<std::string> created_by;
  bool encrypted = false;  ///< encryption_algorithm present
};

struct data_page_header {
  std::int32_t num_values = 0;
  std::int32_t encoding = 0;
  std::int32_t definition_level_encoding = 0;
  std::int32_t repetition_level_encoding = 0;
};

struct dictionary_page_header {
  std::int32_t num_values = 0;
  std::int32_t encoding = 0;
};

struct page_header {
  std::int32_t type = 0;
  std::int32_t uncompressed_size = 0;
  std::int32_t compressed_size = 0;
  std::optional<std::int32_t> crc;
  std::optional<data_page_header> data;
  std::optional<dictionary_page_header> dictionary;
};

namespace detail {

/// Thrift's "required" fields: `seen` bit i for field id i.
[[nodiscard]] inline Status require(std::uint32_t seen, std::uint32_t needed, std::string_view record,
                                    std::string_view what) {
  for (int id = 1; id < 32; ++id) {
    if ((needed & (1U << id)) != 0 && (seen & (1U << id)) == 0) {
      return absl::DataLossError(fmt::format("{}: {} lacks its required field {}", what, record, id));
    }
  }
  return Status();
}

inline std::uint32_t bit(std::int16_t id) { return id > 0 && id < 32 ? 1U << id : 0U; }

[[nodiscard]] inline Status read_schema_element(thrift::reader& r, schema_element& e, std::string_view what) {
  std::uint32_t seen = 0;
  LAKEGC_RETURN_IF_ERROR(r.read_struct([&](const thrift::field& f) -> Status {
    seen |= bit(f.id);
    std::int32_t v = 0;
    switch (f.id) {
      case 1:
        LAKEGC_RETURN_IF_ERROR(r.read_i32(f, v));
        e.type = v;
        return Status();
      case 3:
        LAKEGC_RETURN_IF_ERROR(r.read_i32(f, v));
        e.repetition = v;
        return Status();
      case 4: return r.read_string(f, e.name);
      case 5:
        LAKEGC_RETURN_IF_ERROR(r.read_i32(f, v));
        e.num_children = v;
        return Status();
      case 6:
        LAKEGC_RETURN_IF_ERROR(r.read_i32(f, v));
        e.converted_type = v;
        return Status();
      case 10:
        if (f.t != thrift::type::structure) return r.wrong(f, "struct");
        return r.read_struct([&](const thrift::field& u) {
          if (u.id == 1) e.logical_string = true;  // LogicalType.STRING
          return r.skip(u.t);
        });
      default: return r.skip(f.t);
    }
  }));
  return require(seen, bit(4), "SchemaElement", what);
}

[[nodiscard]] inline Status read_column_meta(thrift::reader& r, column_meta& m, std::string_view what) {
  std::uint32_t seen = 0;
  LAKEGC_RETURN_IF_ERROR(r.read_struct([&](const thrift::field& f) -> Status {
    seen |= bit(f.id);
    switch (f.id) {
      case 1: return r.read_i32(f, m.type);
      case 2:
        return r.read_list(f, [&](thrift::type t) {
          std::int32_t e = 0;
          LAKEGC_RETURN_IF_ERROR(r.read_i32_element(t, e));
          m.encodings.push_back(e);
          return Status();
        });
      case 3:
        return r.read_list(f, [&](thrift::type t) {
          std::string_view s;
          LAKEGC_RETURN_IF_ERROR(r.read_binary_element(t, s));
          m.path.emplace_back(s);
          return Status();
        });
      case 4: return r.read_i32(f, m.codec);
      case 5: return r.read_i64(f, m.num_values);
      case 6: return r.read_i64(f, m.total_uncompressed_size);
      case 7: return r.read_i64(f, m.total_compressed_size);
      case 9: return r.read_i64(f, m.data_page_offset);
      case 11: {
        std::int64_t v = 0;
        LAKEGC_RETURN_IF_ERROR(r.read_i64(f, v));
        m.dictionary_page_offset = v;
        return Status();
      }
      default: return r.skip(f.t);
    }
  }));
  return require(seen, bit(1) | bit(2) | bit(3) | bit(4) | bit(5) | bit(6) | bit(7) | bit(9), "ColumnMetaData", what);
}

[[nodiscard]] inline Status read_column_chunk(thrift::reader& r, column_chunk& c, std::string_view what) {
  std::uint32_t seen = 0;
  LAKEGC_RETURN_IF_ERROR(r.read_struct([&](const thrift::field& f) -> Status {
    seen |= bit(f.id);
    switch (f.id) {
      case 1: {
        std::string s;
        LAKEGC_RETURN_IF_ERROR(r.read_string(f, s));
        c.file_path = std::move(s);
        return Status();
      }
      case 2: return r.read_i64(f, c.file_offset);
      case 3:
        if (f.t != thrift::type::structure) return r.wrong(f, "struct");
        c.meta.emplace();
        return read_column_meta(r, *c.meta, what);
      default: return r.skip(f.t);
    }
  }));
  return require(seen, bit(2), "ColumnChunk", what);
}

[[nodiscard]] inline Status read_row_group(thrift::reader& r, row_group& g, std::string_view what) {
  std::uint32_t seen = 0;
  LAKEGC_RETURN_IF_ERROR(r.read_struct([&](const thrift::field& f) -> Status {
    seen |= bit(f.id);
    std::int64_t v = 0;
    switch (f.id) {
      case 1:
        return r.read_list(f, [&](thrift::type t) {
          if (t != thrift::type::structure)
            return absl::DataLossError(fmt::format("{}: a column chunk is not a struct", what));
          g.columns.emplace_back();
          return read_column_chunk(r, g.columns.back(), what);
        });
      case 2: return r.read_i64(f, g.total_byte_size);
      case 3: return r.read_i64(f, g.num_rows);
      case 5:
        LAKEGC_RETURN_IF_ERROR(r.read_i64(f, v));
        g.file_offset = v;
        return Status();
      case 6:
        LAKEGC_RETURN_IF_ERROR(r.read_i64(f, v));
        g.total_compressed_size = v;
        return Status();
      default: return r.skip(f.t);
    }
  }));
  return require(seen, bit(1) | bit(2) | bit(3), "RowGroup", what);
}

}  // namespace detail

/// Decodes a FileMetaData (the footer). `what` names the file in errors.
[[nodiscard]] inline StatusOr<file_metadata> decode_file_metadata(std::string_view bytes, std::size_t file_offset,
                                                                  std::string_view what) {
  byte_cursor in(bytes, file_offset);
  const std::string label = fmt::format("{}: the footer", what);
  thrift::reader r(in, label);
  file_metadata m;
  std::uint32_t seen = 0;
  LAKEGC_RETURN_IF_ERROR(r.read_struct([&](const thrift::field& f) -> Status {
    seen |= detail::bit(f.id);
    switch (f.id) {
      case 1: return r.read_i32(f, m.version);
      case 2:
        return r.read_list(f, [&](thrift::type t) {
          if (t != thrift::type::structure)
            return absl::DataLossError(fmt::format("{}: a schema element is not a struct", label));
          m.schema.emplace_back();
          return detail::read_schema_element(r, m.schema.back(), label);
        });
      case 3: return r.read_i64(f, m.num_rows);
      case 4:
        return r.read_list(f, [&](thrift::type t) {
          if (t != thrift::type::structure)
            return absl::DataLossError(fmt::format("{}: a row group is not a struct", label));
          m.row_groups.emplace_back();
          return detail::read_row_group(r, m.row_groups.back(), label);
        });
      case 5:
        return r.read_list(f, [&](thrift::type t) -> Status {
          if (t != thrift::type::structure)
            return absl::DataLossError(fmt::format("{}: a key-value entry is not a struct", label));
          std::string key;
          std::optional<std::string> value;
          std::uint32_t kv_seen = 0;
          LAKEGC_RETURN_IF_ERROR(r.read_struct([&](const thrift::field& k) -> Status {
            kv_seen |= detail::bit(k.id);
            if (k.id == 1) return r.read_string(k, key);
            if (k.id == 2) {
              std::string s;
              LAKEGC_RETURN_IF_ERROR(r.read_string(k, s));
              value = std::move(s);
              return Status();
            }
            return r.skip(k.t);
          }));
          LAKEGC_RETURN_IF_ERROR(detail::require(kv_seen, detail::bit(1), "KeyValue", label));
          m.key_value.emplace_back(std::move(key), std::move(value));
          return Status();
        });
      case 6: {
        std::string s;
        LAKEGC_RETURN_IF_ERROR(r.read_string(f, s));
        m.created_by = std::move(s);
        return Status();
      }
      case 8: m.encrypted = true; return r.skip(f.t);
      default: return r.skip(f.t);
    }
  }));
  LAKEGC_RETURN_IF_ERROR(
      detail::require(seen, detail::bit(1) | detail::bit(2) | detail::bit(3) | detail::bit(4), "FileMetaData", label));
  return m;
}

/// Decodes the PageHeader at the cursor.
[[nodiscard]] inline StatusOr<page_header> decode_page_header(byte_cursor& in, std::string_view what) {
  thrift::reader r(in, what);
  page_header h;
  std::uint32_t seen = 0;
  LAKEGC_RETURN_IF_ERROR(r.read_struct([&](const thrift::field& f) -> Status {
    seen |= detail::bit(f.id);
    switch (f.id) {
      case 1: return r.read_i32(f, h.type);
      case 2: return r.read_i32(f, h.uncompressed_size);
      case 3: return r.read_i32(f, h.compressed_size);
      case 4: {
        std::int32_t v = 0;
        LAKEGC_RETURN_IF_ERROR(r.read_i32(f, v));
        h.crc = v;
        return Status();
      }
      case 5: {
        if (f.t != thrift::type::structure) return r.wrong(f, "struct");
        data_page_header d;
        std::uint32_t d_seen = 0;
        LAKEGC_RETURN_IF_ERROR(r.read_struct([&](const thrift::field& g) -> Status {
          d_seen |= detail::bit(g.id);
          switch (g.id) {
            case 1: return r.read_i32(g, d.num_values);
            case 2: return r.read_i32(g, d.encoding);
            case 3: return r.read_i32(g, d.definition_level_encoding);
            case 4: return r.read_i32(g, d.repetition_level_encoding);
            default: return r.skip(g.t);
          }
        }));
        LAKEGC_RETURN_IF_ERROR(detail::require(
            d_seen, detail::bit(1) | detail::bit(2) | detail::bit(3) | detail::bit(4), "DataPageHeader", what));
        h.data = d;
        return Status();
      }
      case 7: {
        if (f.t != thrift::type::structure) return r.wrong(f, "struct");
        dictionary_page_header d;
        std::uint32_t d_seen = 0;
        LAKEGC_RETURN_IF_ERROR(r.read_struct([&](const thrift::field& g) -> Status {
          d_seen |= detail::bit(g.id);
          switch (g.id) {
            case 1: return r.read_i32(g, d.num_values);
            case 2: return r.read_i32(g, d.encoding);
            default: return r.skip(g.t);
          }
        }));
        LAKEGC_RETURN_IF_ERROR(detail::require(d_seen, detail::bit(1) | detail::bit(2), "DictionaryPageHeader", what));
        h.dictionary = d;
        return Status();
      }
      default: return r.skip(f.t);
    }
  }));
  LAKEGC_RETURN_IF_ERROR(detail::require(seen, detail::bit(1) | detail::bit(2) | detail::bit(3), "PageHeader", what));
  return h;
}

// --- Encoding ----------------------------------------------------------------

inline void encode_page_header(const page_header& h, std::string& out) {
  thrift::writer w(out);
  w.begin_struct();
  w.field_i32(1, h.type);
  w.field_i32(2, h.uncompressed_size);
  w.field_i32(3, h.compressed_size);
  if (h.crc) w.field_i32(4, *h.crc);
  if (h.data) {
    w.field_struct(5);
    w.field_i32(1, h.data->num_values);
    w.field_i32(2, h.data->encoding);
    w.field_i32(3, h.data->definition_level_encoding);
    w.field_i32(4, h.data->repetition_level_encoding);
    w.end_struct();
  }
  if (h.dictionary) {
    w.field_struct(7);
    w.field_i32(1, h.dictionary->num_values);
    w.field_i32(2, h.dictionary->encoding);
    w.end_struct();
  }
  w.end_struct();
}

inline void encode_file_metadata(const file_metadata& m, std::string& out) {
  thrift::writer w(out);
  w.begin_struct();
  w.field_i32(1, m.version);
  w.field_list(2, thrift::type::structure, m.schema.size());
  for (const schema_element& e : m.schema) {
    w.begin_struct();
    if (e.type) w.field_i32(1, *e.type);
    if (e.repetition) w.field_i32(3, *e.repetition);
    w.field_binary(4, e.name);
    if (e.num_children) w.field_i32(5, *e.num_children);
    if (e.converted_type) w.field_i32(6, *e.converted_type);
    if (e.logical_string) {
      w.field_struct(10);
      w.field_struct(1);  // StringType {}
      w.end_struct();
      w.end_struct();
    }
    w.end_struct();
  }
  w.field_i64(3, m.num_rows);
  w.field_list(4, thrift::type::structure, m.row_groups.size());
  for (const row_group& g : m.row_groups) {
    w.begin_struct();
    w.field_list(1, thrift::type::structure, g.columns.size());
    for (const column_chunk& c : g.columns) {
      w.begin_struct();
      if (c.file_path) w.field_binary(1, *c.file_path);
      w.field_i64(2, c.file_offset);
      if (c.meta) {
        const column_meta& cm = *c.meta;
        w.field_struct(3);
        w.field_i32(1, cm.type);
        w.field_list(2, thrift::type::i32, cm.encodings.size());
        for (const std::int32_t e : cm.encodings) w.element_i32(e);
        w.field_list(3, thrift::type::binary, cm.path.size());
        for (const std::string& p : cm.path) w.element_binary(p);
        w.field_i32(4, cm.codec);
        w.field_i64(5, cm.num_values);
        w.field_i64(6, cm.total_uncompressed_size);
        w.field_i64(7, cm.total_compressed_size);
        w.field_i64(9, cm.data_page_offset);
        if (cm.dictionary_page_offset) w.field_i64(11, *cm.dictionary_page_offset);
        w.end_struct();
      }
      w.end_struct();
    }
    w.field_i64(2, g.total_byte_size);
    w.field_i64(3, g.num_rows);
    if (g.file_offset) w.field_i64(5, *g.file_offset);
    if (g.total_compressed_size) w.field_i64(6, *g.total_compressed_size);
    w.end_struct();
  }
  if (!m.key_value.empty()) {
    w.field_list(5, thrift::type::structure, m.key_value.size());
    for (const auto& [k, v] : m.key_value) {
      w.begin_struct();
      w.field_binary(1, k);
      if (v) w.field_binary(2, *v);
      w.end_struct();
    }
  }
  if (m.created_by) w.field_binary(6, *m.created_by);
  w.end_struct();
}

}  // namespace lakegc::hudi::parquet
