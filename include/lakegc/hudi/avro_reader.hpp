// File: lakegc/hudi/avro_reader.hpp
// -----------------------------------------------------------------------------
// Decodes Avro object container files (OCF) into a small generic value tree
// (`lakegc::hudi::avro::datum`). Hudi writes every non-JSON timeline file
// (clean plans, rollback metadata, compaction plans, and all commit metadata
// from table version 8 on) as an OCF with the writer schema embedded in the
// header, so no .avsc file is needed to read them.
//
// Fields are looked up by NAME, and an absent field reads as null: Hudi adds
// fields to its schemas over time (e.g. `lastCompletedCommitTimestamp`,
// `extraMetadata`), and one reader must handle files from every version.
// Unions are resolved to the branch that was written.
//
// Who does what, and why:
//  * The OCF framing (magic, header map, sync markers, block counts and sizes)
//    is parsed here, with every length checked against the input. Avro C's
//    `avro_file_reader_fp` is not used: in Avro C 1.11 it mallocs whatever
//    block size the file claims, ignores codec errors, leaks on its error
//    paths, and cannot open a container that holds no block.
//  * Before Avro C sees a block, `detail::validate_datum` walks the bytes
//    against the writer schema and checks every length, index, varint and
//    nesting depth. Avro C 1.11.1 trusts lengths from the data (a string
//    length of -1 makes it allocate 2^63 bytes, or write before its buffer),
//    so without this pass a damaged file could crash the process. The pass
//    also caps the number of array/map elements at the block size, which
//    bounds memory and time for arrays of zero-byte items (e.g. nulls).
//  * Avro C then parses the schema (`avro_schema_from_json_length`; parsed
//    schemas are cached per thread, see cached_schema) and decodes each
//    record into an `avro_value_t` (generic API) from memory
//    (`avro_reader_memory`), which is converted into a `datum`.
//  * Only the `null` codec is accepted. Hudi never compresses timeline files
//    (TimelineMetadataUtils creates its DataFileWriter without a codec), and
//    a compressed block could not be validated before Avro C decodes it.
//
// Errors: bytes that are not an OCF at all are InvalidArgument; an OCF that is
// truncated or damaged is DataLoss; a codec other than null is Unimplemented.
// Messages say what was wrong and where (byte offset).
#pragma once

#include <avro.h>
#include <fmt/format.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lakegc/core/status.hpp"

namespace lakegc::hudi::avro {

/// A decoded Avro value: null, boolean, int, long, float, double, string,
/// bytes, fixed, enum symbol, array, map or record. Unions do not appear: a
/// union decodes to the value of the branch that was written.
class datum {
 public:
  enum class kind : std::uint8_t {
    null,
    boolean,
    int32,
    int64,
    float32,
    float64,
    string,
    bytes,
    fixed,
    enum_symbol,
    array,
    map,
    record,
  };

  /// A null datum.
  datum() = default;

  static datum make_bool(bool v) {
    datum d(kind::boolean);
    d.bool_ = v;
    return d;
  }
  static datum make_int(std::int32_t v) {
    datum d(kind::int32);
    d.int_ = v;
    return d;
  }
  static datum make_long(std::int64_t v) {
    datum d(kind::int64);
    d.int_ = v;
    return d;
  }
  static datum make_float(float v) {
    datum d(kind::float32);
    d.real_ = v;
    return d;
  }
  static datum make_double(double v) {
    datum d(kind::float64);
    d.real_ = v;
    return d;
  }
  static datum make_string(std::string v) {
    datum d(kind::string);
    d.text_ = std::move(v);
    return d;
  }
  static datum make_bytes(std::string v) {
    datum d(kind::bytes);
    d.text_ = std::move(v);
    return d;
  }
  static datum make_fixed(std::string name, std::string v) {
    datum d(kind::fixed);
    d.name_ = std::move(name);
    d.text_ = std::move(v);
    return d;
  }
  static datum make_enum(std::string name, std::string symbol) {
    datum d(kind::enum_symbol);
    d.name_ = std::move(name);
    d.text_ = std::move(symbol);
    return d;
  }
  static datum make_array() { return datum(kind::array); }
  static datum make_map() { return datum(kind::map); }
  /// A record; `full_name` is the schema's name with its namespace.
  static datum make_record(std::string full_name) {
    datum d(kind::record);
    d.name_ = std::move(full_name);
    return d;
  }

  /// Appends an element to an array.
  void append(datum element) { children_.push_back(std::move(element)); }
  /// Adds a map entry or a record field (in order).
  void add(std::string key, datum value) {
    keys_.push_back(std::move(key));
    children_.push_back(std::move(value));
  }

  kind type() const noexcept { return kind_; }
  bool is_null() const noexcept { return kind_ == kind::null; }
  bool is_record() const noexcept { return kind_ == kind::record; }
  bool is_map() const noexcept { return kind_ == kind::map; }
  bool is_array() const noexcept { return kind_ == kind::array; }

  /// The Avro name of this datum's type, for error messages ("string", "map", ...).
  std::string_view kind_name() const noexcept { return name_of(kind_); }
  static std::string_view name_of(kind k) noexcept {
    switch (k) {
      case kind::null:
        return "null";
      case kind::boolean:
        return "boolean";
      case kind::int32:
        return "int";
      case kind::int64:
        return "long";
      case kind::float32:
        return "float";
      case kind::float64:
        return "double";
      case kind::string:
        return "string";
      case kind::bytes:
        return "bytes";
      case kind::fixed:
        return "fixed";
      case kind::enum_symbol:
        return "enum";
      case kind::array:
        return "array";
      case kind::map:
        return "map";
      case kind::record:
        return "record";
    }
    return "?";
  }

  std::optional<bool> as_bool() const {
    if (kind_ != kind::boolean) return std::nullopt;
    return bool_;
  }
  /// int or long.
  std::optional<std::int64_t> as_int() const {
    if (kind_ != kind::int32 && kind_ != kind::int64) return std::nullopt;
    return int_;
  }
  /// float or double.
  std::optional<double> as_double() const {
    if (kind_ != kind::float32 && kind_ != kind::float64) return std::nullopt;
    return real_;
  }
  /// A string (not bytes, not an enum symbol).
  std::optional<std::string_view> as_string() const {
    if (kind_ != kind::string) return std::nullopt;
    return std::string_view(text_);
  }
  /// bytes or fixed.
  std::optional<std::string_view> as_bytes() const {
    if (kind_ != kind::bytes && kind_ != kind::fixed) return std::nullopt;
    return std::string_view(text_);
  }
  std::optional<std::string_view> as_symbol() const {
    if (kind_ != kind::enum_symbol) return std::nullopt;
    return std::string_view(text_);
  }
  /// Full schema name of a record, enum or fixed; empty otherwise.
  std::string_view type_name() const noexcept { return name_; }

  /// Number of elements (array), entries (map) or fields (record).
  std::size_t size() const noexcept { return children_.size(); }
  /// Array elements, map values or record field values, in order.
  const std::vector<datum>& elements() const noexcept { return children_; }
  /// Map keys or record field names, parallel to elements().
  const std::vector<std::string>& keys() const noexcept { return keys_; }

  /// The record field `name`, or a null datum when this is not a record or
  /// the writer's schema has no such field (schema evolution).
  const datum& field(std::string_view name) const {
    if (kind_ == kind::record) {
      for (std::size_t i = 0; i < keys_.size(); ++i) {
        if (keys_[i] == name) return children_[i];
      }
    }
    return null_datum();
  }
  bool has_field(std::string_view name) const {
    if (kind_ != kind::record) return false;
    for (const auto& k : keys_) {
      if (k == name) return true;
    }
    return false;
  }

  /// Calls f(key, value) for each map entry; false when this is not a map.
  template <class F>
  bool for_each_entry(F&& f) const {
    if (kind_ != kind::map) return false;
    for (std::size_t i = 0; i < keys_.size(); ++i) f(std::string_view(keys_[i]), children_[i]);
    return true;
  }
  /// Calls f(element) for each array element; false when this is not an array.
  template <class F>
  bool for_each_element(F&& f) const {
    if (kind_ != kind::array) return false;
    for (const auto& c : children_) f(c);
    return true;
  }

  friend bool operator==(const datum&, const datum&) = default;

 private:
  explicit datum(kind k) : kind_(k) {}
  static const datum& null_datum() {
    static const datum d;
    return d;
  }

  kind kind_ = kind::null;
  bool bool_ = false;
  std::int64_t int_ = 0;
  double real_ = 0;
  std::string text_;  // string, bytes, fixed or enum symbol
  std::string name_;  // schema name of a record, enum or fixed
  std::vector<datum> children_;
  std::vector<std::string> keys_;
};

/// A JSON-like rendering of `d` for diagnostics and test failure messages
/// (records and maps as objects, bytes as escaped strings).
inline std::string to_debug_string(const datum& d);

/// The decoded contents of an object container file.
struct container {
  std::string schema_json;  ///< writer schema, as embedded in the header
  std::string codec;        ///< always "null" (see file comment)
  std::vector<datum> records;
};

namespace detail {

inline constexpr std::string_view ocf_magic{"Obj\x01", 4};
/// Nesting limit for records/arrays/maps/unions in one value. Hudi's deepest
/// timeline schema (HoodieRequestedReplaceMetadata) nests about a dozen
/// levels; the limit keeps recursion (ours and Avro C's) bounded on
/// recursive schemas.
inline constexpr int max_depth = 64;

inline Status data_loss(std::string_view what) { return absl::DataLossError(lakegc::detail::to_absl(what)); }

/// Bounds-checked reader over the input bytes.
class byte_reader {
 public:
  explicit byte_reader(std::string_view bytes) : data_(bytes) {}
  std::size_t offset() const noexcept { return pos_; }
  std::size_t remaining() const noexcept { return data_.size() - pos_; }
  bool at_end() const noexcept { return pos_ == data_.size(); }

  /// An Avro long (zig-zag varint, at most 10 bytes).
  Status read_long(std::int64_t& out, std::string_view what) {
    const std::size_t start = pos_;
    std::uint64_t value = 0;
    for (int shift = 0; shift <= 63; shift += 7) {
      if (pos_ >= data_.size()) {
        return data_loss(fmt::format("truncated at byte {} reading {}", start, what));
      }
      const auto b = static_cast<unsigned char>(data_[pos_++]);
      // The 10th byte may only carry the 64th bit.
      if (shift == 63 && (b & 0xfeU) != 0) break;
      value |= static_cast<std::uint64_t>(b & 0x7fU) << shift;
      if ((b & 0x80U) == 0) {
        out = static_cast<std::int64_t>((value >> 1) ^ (std::uint64_t{0} - (value & 1U)));
        return Status();
      }
    }
    return data_loss(fmt::format("invalid varint at byte {} reading {}", start, what));
  }

  /// `n` raw bytes.
  Status read_bytes(std::size_t n, std::string_view& out, std::string_view what) {
    if (n > remaining()) {
      return data_loss(
          fmt::format("truncated at byte {} reading {} ({} bytes needed, {} left)", pos_, what, n, remaining()));
    }
    out = data_.substr(pos_, n);
    pos_ += n;
    return Status();
  }

  /// An Avro string or bytes value: a long length, then the bytes.
  Status read_length_prefixed(std::string_view& out, std::string_view what) {
    const std::size_t start = pos_;
    std::int64_t len = 0;
    LAKEGC_RETURN_IF_ERROR(read_long(len, what));
    if (len < 0) return data_loss(fmt::format("negative length {} at byte {} reading {}", len, start, what));
    if (static_cast<std::uint64_t>(len) > remaining()) {
      return data_loss(fmt::format("length {} at byte {} reading {} runs past the end ({} bytes left)", len, start,
                                   what, remaining()));
    }
    return read_bytes(static_cast<std::size_t>(len), out, what);
  }

 private:
  std::string_view data_;
  std::size_t pos_ = 0;
};

/// The framing of an OCF: header fields and the raw bytes of each block.
struct ocf_layout {
  std::string_view schema_json;
  std::string_view codec = "null";
  struct block {
    std::int64_t count = 0;
    std::size_t offset = 0;  // of the block's data, for messages
    std::string_view data;
  };
  std::vector<block> blocks;
};

/// Parses the container framing. Checks the magic, the header metadata map,
/// that every block's size fits in the input and that each block is followed
/// by the header's sync marker.
inline Status parse_ocf_layout(std::string_view bytes, ocf_layout& out) {
  if (bytes.size() < ocf_magic.size() || bytes.substr(0, ocf_magic.size()) != ocf_magic) {
    return absl::InvalidArgumentError("not an Avro object container (no Obj\\x01 magic)");
  }
  byte_reader in(bytes.substr(ocf_magic.size()));
  const std::size_t base = ocf_magic.size();  // offsets in messages are file offsets
  bool have_schema = false;
  // Header metadata: map<bytes> written as blocks of entries, ending with 0.
  for (;;) {
    std::int64_t count = 0;
    LAKEGC_RETURN_IF_ERROR(annotate(in.read_long(count, "header map block count"), "header"));
    if (count == 0) break;
    if (count < 0) {
      // A negative count is followed by the block's size in bytes.
      if (count == INT64_MIN) return data_loss("header: invalid map block count");
      count = -count;
      std::int64_t size = 0;
      LAKEGC_RETURN_IF_ERROR(annotate(in.read_long(size, "header map block size"), "header"));
    }
    for (std::int64_t i = 0; i < count; ++i) {
      std::string_view key;
      std::string_view value;
      LAKEGC_RETURN_IF_ERROR(annotate(in.read_length_prefixed(key, "header key"), "header"));
      LAKEGC_RETURN_IF_ERROR(annotate(in.read_length_prefixed(value, "header value"), "header"));
      // Later entries win, as in Avro Java and Avro C.
      if (key == "avro.schema") {
        out.schema_json = value;
        have_schema = true;
      } else if (key == "avro.codec") {
        out.codec = value;
      }
    }
  }
  if (!have_schema) return data_loss("header has no avro.schema entry");
  if (out.codec != "null") {
    return absl::UnimplementedError(
        fmt::format("codec '{}' is not supported (Hudi timeline files use the null codec)", out.codec));
  }
  std::string_view sync;
  LAKEGC_RETURN_IF_ERROR(annotate(in.read_bytes(16, sync, "sync marker"), "header"));

  while (!in.at_end()) {
    const std::size_t block_start = base + in.offset();
    std::int64_t count = 0;
    std::int64_t size = 0;
    LAKEGC_RETURN_IF_ERROR(in.read_long(count, "block object count"));
    LAKEGC_RETURN_IF_ERROR(in.read_long(size, "block size"));
    if (count < 0) return data_loss(fmt::format("block at byte {}: negative object count {}", block_start, count));
    if (size < 0) return data_loss(fmt::format("block at byte {}: negative size {}", block_start, size));
    if (static_cast<std::uint64_t>(size) > in.remaining()) {
      return data_loss(fmt::format("block at byte {}: size {} runs past the end of the file ({} bytes left)",
                                   block_start, size, in.remaining()));
    }
    ocf_layout::block b;
    b.count = count;
    b.offset = base + in.offset();
    LAKEGC_RETURN_IF_ERROR(in.read_bytes(static_cast<std::size_t>(size), b.data, "block data"));
    std::string_view block_sync;
    LAKEGC_RETURN_IF_ERROR(in.read_bytes(16, block_sync, "block sync marker"));
    if (block_sync != sync) {
      return data_loss(fmt::format("block at byte {}: sync marker does not match the header's", block_start));
    }
    out.blocks.push_back(b);
  }
  return Status();
}

/// Follows named-type references (Avro C represents them as links).
inline avro_schema_t resolve_link(avro_schema_t s) {
  // A link always points at a named type, never at another link, but loop
  // defensively with a bound.
  for (int i = 0; i < 8 && s != nullptr && is_avro_link(s); ++i) s = avro_schema_link_target(s);
  return s;
}

/// State for validate_datum: the bytes of one block and the element budget.
struct validate_state {
  byte_reader in;
  std::int64_t element_budget;  // array/map elements and records left
};

inline Status validate_blocks(avro_schema_t s, validate_state& st, int depth, bool is_map);

/// Checks that the bytes at `st.in` encode one value of schema `s`, with
/// every length and index in range. Nothing is allocated from lengths read.
inline Status validate_datum(avro_schema_t s, validate_state& st, int depth) {
  if (depth > max_depth) return data_loss(fmt::format("value nested deeper than {} levels", max_depth));
  s = resolve_link(s);
  if (s == nullptr) return data_loss("schema has an unresolved named type");
  std::string_view skipped;
  std::int64_t n = 0;
  switch (avro_typeof(s)) {
    case AVRO_NULL:
      return Status();
    case AVRO_BOOLEAN: {
      const std::size_t at = st.in.offset();
      LAKEGC_RETURN_IF_ERROR(st.in.read_bytes(1, skipped, "boolean"));
      if (skipped[0] != 0 && skipped[0] != 1) return data_loss(fmt::format("invalid boolean byte at offset {}", at));
      return Status();
    }
    case AVRO_INT32:
      LAKEGC_RETURN_IF_ERROR(st.in.read_long(n, "int"));
      if (n < INT32_MIN || n > INT32_MAX) return data_loss(fmt::format("int value {} out of range", n));
      return Status();
    case AVRO_INT64:
      return st.in.read_long(n, "long");
    case AVRO_FLOAT:
      return st.in.read_bytes(4, skipped, "float");
    case AVRO_DOUBLE:
      return st.in.read_bytes(8, skipped, "double");
    case AVRO_STRING:
      return st.in.read_length_prefixed(skipped, "string");
    case AVRO_BYTES:
      return st.in.read_length_prefixed(skipped, "bytes");
    case AVRO_FIXED: {
      const std::int64_t size = avro_schema_fixed_size(s);
      if (size < 0) return data_loss("fixed type has a negative size");
      if (static_cast<std::uint64_t>(size) > st.in.remaining()) {
        return data_loss(fmt::format("truncated at offset {} reading fixed({})", st.in.offset(), size));
      }
      return st.in.read_bytes(static_cast<std::size_t>(size), skipped, "fixed");
    }
    case AVRO_ENUM: {
      const std::size_t at = st.in.offset();
      LAKEGC_RETURN_IF_ERROR(st.in.read_long(n, "enum index"));
      if (n < 0 || n >= avro_schema_enum_number_of_symbols(s)) {
        return data_loss(fmt::format("enum index {} at offset {} out of range", n, at));
      }
      return Status();
    }
    case AVRO_UNION: {
      const std::size_t at = st.in.offset();
      LAKEGC_RETURN_IF_ERROR(st.in.read_long(n, "union branch"));
      if (n < 0 || static_cast<std::uint64_t>(n) >= avro_schema_union_size(s)) {
        return data_loss(fmt::format("union branch {} at offset {} out of range", n, at));
      }
      avro_schema_t branch = avro_schema_union_branch(s, static_cast<int>(n));
      if (branch == nullptr) return data_loss("union branch missing from schema");
      return validate_datum(branch, st, depth + 1);
    }
    case AVRO_RECORD: {
      const std::size_t fields = avro_schema_record_size(s);
      for (std::size_t i = 0; i < fields; ++i) {
        avro_schema_t f = avro_schema_record_field_get_by_index(s, static_cast<int>(i));
        if (f == nullptr) return data_loss("record field missing from schema");
        LAKEGC_RETURN_IF_ERROR(validate_datum(f, st, depth + 1));
      }
      return Status();
    }
    case AVRO_ARRAY:
      return validate_blocks(s, st, depth, false);
    case AVRO_MAP:
      return validate_blocks(s, st, depth, true);
    case AVRO_LINK:
      break;
  }
  return data_loss("schema has a type this reader does not know");
}

/// Arrays and maps: blocks of `count` items, ending with a 0 count; a negative
/// count is followed by the block's byte size.
inline Status validate_blocks(avro_schema_t s, validate_state& st, int depth, bool is_map) {
  avro_schema_t item = is_map ? avro_schema_map_values(s) : avro_schema_array_items(s);
  if (item == nullptr) return data_loss("array/map schema has no item type");
  const std::string_view what = is_map ? "map block count" : "array block count";
  for (;;) {
    const std::size_t at = st.in.offset();
    std::int64_t count = 0;
    LAKEGC_RETURN_IF_ERROR(st.in.read_long(count, what));
    if (count == 0) return Status();
    if (count < 0) {
      if (count == INT64_MIN) return data_loss(fmt::format("invalid {} at offset {}", what, at));
      count = -count;
      std::int64_t size = 0;
      LAKEGC_RETURN_IF_ERROR(st.in.read_long(size, "array/map block size"));
      if (size < 0) return data_loss(fmt::format("negative array/map block size at offset {}", at));
    }
    // Every element a real writer emits takes at least one byte except items
    // of zero-byte types; the budget (the block's size) bounds both.
    if (count > st.element_budget) {
      return data_loss(fmt::format("{} of {} at offset {} exceeds what the block can hold", what, count, at));
    }
    st.element_budget -= count;
    for (std::int64_t i = 0; i < count; ++i) {
      if (is_map) {
        std::string_view key;
        LAKEGC_RETURN_IF_ERROR(st.in.read_length_prefixed(key, "map key"));
      }
      LAKEGC_RETURN_IF_ERROR(validate_datum(item, st, depth + 1));
    }
  }
}

/// A writer schema parsed by Avro C, with the generic value class for it.
class parsed_schema {
 public:
  parsed_schema() = default;
  ~parsed_schema() {
    if (iface_ != nullptr) avro_value_iface_decref(iface_);
    if (schema_ != nullptr) avro_schema_decref(schema_);
  }
  parsed_schema(const parsed_schema&) = delete;
  parsed_schema& operator=(const parsed_schema&) = delete;

  /// Parses `json` (no NUL terminator needed: Avro C takes the length).
  static StatusOr<std::shared_ptr<const parsed_schema>> parse(std::string_view json) {
    auto p = std::make_shared<parsed_schema>();
    avro_schema_t raw = nullptr;
    // On failure Avro C 1.11 leaves `raw` pointing at a schema it has
    // already freed, so it is only taken on success.
    if (avro_schema_from_json_length(json.data(), json.size(), &raw) != 0 || raw == nullptr) {
      return data_loss(avro_strerror());
    }
    p->schema_ = raw;
    p->iface_ = avro_generic_class_from_schema(raw);
    if (p->iface_ == nullptr) return data_loss(fmt::format("Avro C cannot build a value class: {}", avro_strerror()));
    return std::shared_ptr<const parsed_schema>(std::move(p));
  }

  avro_schema_t schema() const noexcept { return schema_; }
  avro_value_iface_t* iface() const noexcept { return iface_; }

 private:
  avro_schema_t schema_ = nullptr;
  avro_value_iface_t* iface_ = nullptr;
};

/// parsed_schema::parse with a small per-thread cache keyed by the schema
/// text. Hudi embeds the same schema in every file it writes with one
/// version, and Avro C takes 0.3-1 ms to parse one (HoodieCommitMetadata's is
/// ~6 KB), far more than decoding the record itself; a v8 timeline of
/// thousands of commits would spend seconds re-parsing it.
inline StatusOr<std::shared_ptr<const parsed_schema>> cached_schema(std::string_view json) {
  struct entry {
    std::string json;
    std::shared_ptr<const parsed_schema> schema;
  };
  constexpr std::size_t capacity = 16;
  thread_local std::vector<entry> cache;
  for (const auto& e : cache) {
    if (e.json == json) return e.schema;
  }
  LAKEGC_ASSIGN_OR_RETURN(auto parsed, parsed_schema::parse(json));
  if (cache.size() >= capacity) cache.erase(cache.begin());
  cache.push_back(entry{std::string(json), parsed});
  return parsed;
}

/// Owns one generic value of a parsed_schema's class.
class generic_value {
 public:
  generic_value() = default;
  ~generic_value() {
    if (have_value_) avro_value_decref(&value_);
  }
  generic_value(const generic_value&) = delete;
  generic_value& operator=(const generic_value&) = delete;

  Status init(const parsed_schema& schema) {
    if (avro_generic_value_new(schema.iface(), &value_) != 0) {
      return absl::InternalError(fmt::format("Avro C cannot allocate a value: {}", avro_strerror()));
    }
    have_value_ = true;
    return Status();
  }
  avro_value_t* get() noexcept { return &value_; }

 private:
  avro_value_t value_{};
  bool have_value_ = false;
};

/// Owns an avro_reader_t / avro_writer_t.
class reader_handle {
 public:
  explicit reader_handle(avro_reader_t r) : r_(r) {}
  ~reader_handle() {
    if (r_ != nullptr) avro_reader_free(r_);
  }
  reader_handle(const reader_handle&) = delete;
  reader_handle& operator=(const reader_handle&) = delete;
  avro_reader_t get() const noexcept { return r_; }

 private:
  avro_reader_t r_;
};

inline std::string schema_full_name(avro_schema_t s) {
  const char* ns = avro_schema_namespace(s);
  const char* name = avro_schema_name(s);
  std::string out;
  if (ns != nullptr && *ns != '\0') {
    out = ns;
    out += '.';
  }
  if (name != nullptr) out += name;
  return out;
}

inline Status avro_c_error(std::string_view what) { return data_loss(fmt::format("{}: {}", what, avro_strerror())); }

/// Converts an Avro C value (already validated) into a datum.
inline Status to_datum(avro_value_t& v, datum& out, int depth) {
  if (depth > max_depth) return data_loss("value nested too deeply");
  const avro_type_t type = avro_value_get_type(&v);
  switch (type) {
    case AVRO_NULL:
      out = datum();
      return Status();
    case AVRO_BOOLEAN: {
      int b = 0;
      if (avro_value_get_boolean(&v, &b) != 0) return avro_c_error("reading boolean");
      out = datum::make_bool(b != 0);
      return Status();
    }
    case AVRO_INT32: {
      std::int32_t i = 0;
      if (avro_value_get_int(&v, &i) != 0) return avro_c_error("reading int");
      out = datum::make_int(i);
      return Status();
    }
    case AVRO_INT64: {
      std::int64_t i = 0;
      if (avro_value_get_long(&v, &i) != 0) return avro_c_error("reading long");
      out = datum::make_long(i);
      return Status();
    }
    case AVRO_FLOAT: {
      float f = 0;
      if (avro_value_get_float(&v, &f) != 0) return avro_c_error("reading float");
      out = datum::make_float(f);
      return Status();
    }
    case AVRO_DOUBLE: {
      double d = 0;
      if (avro_value_get_double(&v, &d) != 0) return avro_c_error("reading double");
      out = datum::make_double(d);
      return Status();
    }
    case AVRO_STRING: {
      const char* p = nullptr;
      std::size_t size = 0;
      if (avro_value_get_string(&v, &p, &size) != 0) return avro_c_error("reading string");
      // Avro C counts the terminating NUL in `size`.
      out = datum::make_string(p == nullptr || size == 0 ? std::string() : std::string(p, size - 1));
      return Status();
    }
    case AVRO_BYTES: {
      const void* p = nullptr;
      std::size_t size = 0;
      if (avro_value_get_bytes(&v, &p, &size) != 0) return avro_c_error("reading bytes");
      out = datum::make_bytes(p == nullptr ? std::string() : std::string(static_cast<const char*>(p), size));
      return Status();
    }
    case AVRO_FIXED: {
      const void* p = nullptr;
      std::size_t size = 0;
      if (avro_value_get_fixed(&v, &p, &size) != 0) return avro_c_error("reading fixed");
      out = datum::make_fixed(schema_full_name(avro_value_get_schema(&v)),
                              p == nullptr ? std::string() : std::string(static_cast<const char*>(p), size));
      return Status();
    }
    case AVRO_ENUM: {
      int index = 0;
      if (avro_value_get_enum(&v, &index) != 0) return avro_c_error("reading enum");
      avro_schema_t s = avro_value_get_schema(&v);
      const char* symbol = s == nullptr ? nullptr : avro_schema_enum_get(s, index);
      if (symbol == nullptr) return data_loss(fmt::format("enum index {} has no symbol", index));
      out = datum::make_enum(schema_full_name(s), symbol);
      return Status();
    }
    case AVRO_UNION: {
      avro_value_t branch;
      if (avro_value_get_current_branch(&v, &branch) != 0) return avro_c_error("reading union");
      return to_datum(branch, out, depth + 1);
    }
    case AVRO_ARRAY:
    case AVRO_MAP:
    case AVRO_RECORD: {
      std::size_t size = 0;
      if (avro_value_get_size(&v, &size) != 0) return avro_c_error("reading size");
      if (type == AVRO_ARRAY) {
        out = datum::make_array();
      } else if (type == AVRO_MAP) {
        out = datum::make_map();
      } else {
        out = datum::make_record(schema_full_name(avro_value_get_schema(&v)));
      }
      for (std::size_t i = 0; i < size; ++i) {
        avro_value_t child;
        const char* name = nullptr;
        if (avro_value_get_by_index(&v, i, &child, &name) != 0) return avro_c_error("reading element");
        datum c;
        LAKEGC_RETURN_IF_ERROR(to_datum(child, c, depth + 1));
        if (type == AVRO_ARRAY) {
          out.append(std::move(c));
        } else {
          out.add(name == nullptr ? std::string() : std::string(name), std::move(c));
        }
      }
      return Status();
    }
    case AVRO_LINK:
      break;
  }
  return data_loss("value of an unknown Avro type");
}

/// read_container without the file-name context.
inline StatusOr<container> read_container_bare(std::string_view bytes) {
  ocf_layout layout;
  LAKEGC_RETURN_IF_ERROR(parse_ocf_layout(bytes, layout));

  auto parsed = cached_schema(layout.schema_json);
  if (!parsed.ok()) return annotate(parsed.status(), "cannot parse the embedded writer schema");
  const parsed_schema& schema = **parsed;

  container out;
  out.schema_json.assign(layout.schema_json);
  out.codec.assign(layout.codec);
  if (layout.blocks.empty()) return out;

  generic_value value;
  LAKEGC_RETURN_IF_ERROR(value.init(schema));
  reader_handle reader(avro_reader_memory(nullptr, 0));
  if (reader.get() == nullptr) return absl::InternalError("Avro C cannot allocate a memory reader");

  for (std::size_t b = 0; b < layout.blocks.size(); ++b) {
    const auto& block = layout.blocks[b];
    // Validate the whole block before Avro C decodes any of it.
    validate_state st{byte_reader(block.data), static_cast<std::int64_t>(block.data.size()) + 1};
    for (std::int64_t i = 0; i < block.count; ++i) {
      if (st.element_budget <= 0) {
        return data_loss(fmt::format("block at byte {}: object count {} exceeds what the block can hold", block.offset,
                                     block.count));
      }
      --st.element_budget;
      LAKEGC_RETURN_IF_ERROR(annotate(validate_datum(schema.schema(), st, 0),
                                      fmt::format("block at byte {}, object {}", block.offset, i)));
    }
    if (!st.in.at_end()) {
      return data_loss(fmt::format("block at byte {}: {} bytes left over after {} objects", block.offset,
                                   st.in.remaining(), block.count));
    }
    avro_reader_memory_set_source(reader.get(), block.data.data(), static_cast<std::int64_t>(block.data.size()));
    for (std::int64_t i = 0; i < block.count; ++i) {
      if (avro_value_reset(value.get()) != 0 || avro_value_read(reader.get(), value.get()) != 0) {
        return avro_c_error(fmt::format("block at byte {}, object {}: Avro C cannot decode it", block.offset, i));
      }
      datum d;
      LAKEGC_RETURN_IF_ERROR(to_datum(*value.get(), d, 0));
      out.records.push_back(std::move(d));
    }
  }
  return out;
}

inline void append_debug_string(const datum& d, std::string& out) {
  auto quote = [&out](std::string_view s) {
    out += '"';
    for (const char c : s) {
      const auto u = static_cast<unsigned char>(c);
      if (c == '"' || c == '\\') {
        out += '\\';
        out += c;
      } else if (u < 0x20 || u >= 0x7f) {
        out += fmt::format("\\u{:04x}", u);
      } else {
        out += c;
      }
    }
    out += '"';
  };
  switch (d.type()) {
    case datum::kind::null:
      out += "null";
      return;
    case datum::kind::boolean:
      out += *d.as_bool() ? "true" : "false";
      return;
    case datum::kind::int32:
    case datum::kind::int64:
      out += fmt::format("{}", *d.as_int());
      return;
    case datum::kind::float32:
    case datum::kind::float64:
      out += fmt::format("{}", *d.as_double());
      return;
    case datum::kind::string:
      quote(*d.as_string());
      return;
    case datum::kind::bytes:
    case datum::kind::fixed:
      quote(*d.as_bytes());
      return;
    case datum::kind::enum_symbol:
      quote(*d.as_symbol());
      return;
    case datum::kind::array: {
      out += '[';
      bool first = true;
      for (const auto& e : d.elements()) {
        if (!first) out += ',';
        first = false;
        append_debug_string(e, out);
      }
      out += ']';
      return;
    }
    case datum::kind::map:
    case datum::kind::record: {
      out += '{';
      for (std::size_t i = 0; i < d.size(); ++i) {
        if (i != 0) out += ',';
        quote(d.keys()[i]);
        out += ':';
        append_debug_string(d.elements()[i], out);
      }
      out += '}';
      return;
    }
  }
}

}  // namespace detail

inline std::string to_debug_string(const datum& d) {
  std::string out;
  detail::append_debug_string(d, out);
  return out;
}

/// True when `bytes` starts with the OCF magic `Obj\x01`.
inline bool is_object_container(std::string_view bytes) noexcept {
  return bytes.size() >= detail::ocf_magic.size() && bytes.substr(0, detail::ocf_magic.size()) == detail::ocf_magic;
}

/// Decodes every record of the object container file `bytes`. Errors name
/// `file_name_for_errors`: "<file>: expected Avro object container: <why>".
inline StatusOr<container> read_container(std::string_view bytes, std::string_view file_name_for_errors) {
  auto c = detail::read_container_bare(bytes);
  if (!c.ok()) return annotate(c.status(), fmt::format("{}: expected Avro object container", file_name_for_errors));
  return c;
}

/// The first record of an object container file, as Hudi reads timeline
/// files (TimelineMetadataUtils takes the first record). A container with no
/// record is DataLoss.
inline StatusOr<datum> read_first_record(std::string_view bytes, std::string_view file_name_for_errors) {
  LAKEGC_ASSIGN_OR_RETURN(auto c, read_container(bytes, file_name_for_errors));
  if (c.records.empty()) {
    return absl::DataLossError(lakegc::detail::to_absl(
        fmt::format("{}: expected Avro object container: it holds no record", file_name_for_errors)));
  }
  return std::move(c.records.front());
}

}  // namespace lakegc::hudi::avro
