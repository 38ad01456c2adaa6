// File: lakegc/hudi/parquet/thrift_compact.hpp
// -----------------------------------------------------------------------------
// Thrift's compact protocol, the encoding of every Parquet footer and page
// header (parquet-format's parquet.thrift), as far as Parquet uses it:
//
//   field header  one byte: the field id as a delta from the previous field
//                 of the same struct (high nibble, 1-15) and the type (low
//                 nibble); delta 0 means a zigzag varint i16 id follows.
//                 A 0 byte ends the struct. Booleans live in the type
//                 nibble (1 true, 2 false).
//   i16, i32, i64 zigzag varints; byte: one byte; double: 8 bytes LE
//   binary        a varint length, then the bytes
//   list, set     one byte: size (high nibble, 15 = a varint size follows)
//                 and element type; then the elements (a bool is one byte)
//   map           a varint size, then (if not 0) one byte of key and value
//                 types, then the pairs
//   struct        fields, then the 0 byte
//
// Readers skip fields they do not know, as Thrift readers do, to a nesting
// depth of 64 (more is damage: a Parquet footer nests four deep). Every
// length is checked against the input before anything is allocated.
//
// Why by hand: Debian 12 packages Apache Thrift's C++ library, but Parquet's
// generated classes are not packaged, and generating them would add the
// Thrift compiler to the build for a dozen structs read field by field.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/byte_cursor.hpp"

namespace lakegc::hudi::parquet::thrift {

/// The compact protocol's type nibbles.
enum class type : std::uint8_t {
  stop = 0,
  bool_true = 1,
  bool_false = 2,
  i8 = 3,
  i16 = 4,
  i32 = 5,
  i64 = 6,
  f64 = 7,
  binary = 8,
  list = 9,
  set = 10,
  map = 11,
  structure = 12,
};

inline constexpr int max_depth = 64;

inline std::string_view type_name(type t) noexcept {
  switch (t) {
    case type::stop: return "stop";
    case type::bool_true:
    case type::bool_false: return "bool";
    case type::i8: return "byte";
    case type::i16: return "i16";
    case type::i32: return "i32";
    case type::i64: return "i64";
    case type::f64: return "double";
    case type::binary: return "binary";
    case type::list: return "list";
    case type::set: return "set";
    case type::map: return "map";
    case type::structure: return "struct";
  }
  return "?";
}

/// One field header.
struct field {
  std::int16_t id = 0;
  type t = type::stop;
};

inline constexpr std::int64_t unzigzag(std::uint64_t v) noexcept {
  return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
}
inline constexpr std::uint64_t zigzag(std::int64_t v) noexcept {
  return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}

/// Reads compact-protocol values from a cursor. `what` names the structure
/// being read (e.g. "the footer of <file>") in errors.
class reader {
 public:
  reader(byte_cursor& in, std::string_view what) : in_(in), what_(what) {}

  byte_cursor& cursor() noexcept { return in_; }

  /// Calls `on_field(const field&)` for each field of the struct at the
  /// cursor; `on_field` reads the value (read_* or skip) and returns a
  /// Status. Ends after the struct's stop byte.
  template <class F>
  [[nodiscard]] Status read_struct(F&& on_field) {
    if (++depth_ > max_depth) return in_.error_here(fmt::format("{}: structs nested deeper than {}", what_, max_depth));
    std::int16_t last = 0;
    for (;;) {
      std::uint8_t b = 0;
      LAKEGC_RETURN_IF_ERROR(in_.read_u8(b, what_));
      if (b == 0) break;
      field f;
      const auto nibble = static_cast<std::uint8_t>(b & 0x0fU);
      if (nibble > static_cast<std::uint8_t>(type::structure)) {
        return in_.error_here(fmt::format("{}: field type {} is not a Thrift compact type", what_, nibble));
      }
      f.t = static_cast<type>(nibble);
      if (f.t == type::stop) return in_.error_here(fmt::format("{}: a field header of type stop", what_));
      const int delta = b >> 4;
      if (delta != 0) {
        f.id = static_cast<std::int16_t>(last + delta);
      } else {
        std::int64_t id = 0;
        LAKEGC_RETURN_IF_ERROR(read_zigzag(id));
        if (id < INT16_MIN || id > INT16_MAX) return in_.error_here(fmt::format("{}: field id {}", what_, id));
        f.id = static_cast<std::int16_t>(id);
      }
      last = f.id;
      pending_bool_ = f.t == type::bool_true ? 1 : f.t == type::bool_false ? 0 : -1;
      LAKEGC_RETURN_IF_ERROR(on_field(static_cast<const field&>(f)));
    }
    --depth_;
    return Status();
  }

  [[nodiscard]] Status read_i32(const field& f, std::int32_t& out) {
    std::int64_t v = 0;
    LAKEGC_RETURN_IF_ERROR(read_int(f.t, v));
    if (v < INT32_MIN || v > INT32_MAX)
      return in_.error_here(fmt::format("{}: field {} overflows an i32", what_, f.id));
    out = static_cast<std::int32_t>(v);
    return Status();
  }
  [[nodiscard]] Status read_i64(const field& f, std::int64_t& out) { return read_int(f.t, out); }
  [[nodiscard]] Status read_binary(const field& f, std::string_view& out) {
    LAKEGC_RETURN_IF_ERROR(expect(f, type::binary));
    return read_binary_value(out);
  }
  [[nodiscard]] Status read_string(const field& f, std::string& out) {
    std::string_view v;
    LAKEGC_RETURN_IF_ERROR(read_binary(f, v));
    out.assign(v);
    return Status();
  }
  [[nodiscard]] Status read_bool(const field& f, bool& out) {
    if (pending_bool_ < 0 || (f.t != type::bool_true && f.t != type::bool_false)) return wrong(f, "bool");
    out = pending_bool_ == 1;
    pending_bool_ = -1;
    return Status();
  }

  /// A list (or set) field: calls `on_element(type)` `size` times; each call
  /// reads one element of that type (read_*_element, read_struct, skip).
  template <class F>
  [[nodiscard]] Status read_list(const field& f, F&& on_element) {
    if (f.t != type::list && f.t != type::set) return wrong(f, "list");
    return read_list_value(on_element);
  }

  [[nodiscard]] Status read_i32_element(type t, std::int32_t& out) {
    field f;
    f.t = t;
    return read_i32(f, out);
  }
  [[nodiscard]] Status read_binary_element(type t, std::string_view& out) {
    if (t != type::binary)
      return in_.error_here(fmt::format("{}: a list of {} where binary was expected", what_, type_name(t)));
    return read_binary_value(out);
  }

  /// Skips one value of type `t` (a field's value or a list element).
  [[nodiscard]] Status skip(type t) {
    if (depth_ >= max_depth) return in_.error_here(fmt::format("{}: values nested deeper than {}", what_, max_depth));
    switch (t) {
      case type::bool_true:
      case type::bool_false:
        // In a struct the value was the header; a list element is a byte.
        if (pending_bool_ >= 0) {
          pending_bool_ = -1;
          return Status();
        }
        return in_.skip(1, what_);
      case type::i8: return in_.skip(1, what_);
      case type::i16:
      case type::i32:
      case type::i64: {
        std::uint64_t ignored = 0;
        return read_uvarint(in_, ignored, what_);
      }
      case type::f64: return in_.skip(8, what_);
      case type::binary: {
        std::string_view ignored;
        return read_binary_value(ignored);
      }
      case type::list:
      case type::set: return read_list_value([&](type e) { return skip(e); });
      case type::map: {
        std::uint64_t n = 0;
        LAKEGC_RETURN_IF_ERROR(read_uvarint(in_, n, what_));
        if (n == 0) return Status();
        if (n > in_.remaining())
          return in_.error_here(fmt::format("{}: a map of {} entries runs past the end", what_, n));
        std::uint8_t kv = 0;
        LAKEGC_RETURN_IF_ERROR(in_.read_u8(kv, what_));
        LAKEGC_ASSIGN_OR_RETURN(const type k, element_type(static_cast<std::uint8_t>(kv >> 4)));
        LAKEGC_ASSIGN_OR_RETURN(const type v, element_type(static_cast<std::uint8_t>(kv & 0x0fU)));
        ++depth_;
        for (std::uint64_t i = 0; i < n; ++i) {
          LAKEGC_RETURN_IF_ERROR(skip(k));
          LAKEGC_RETURN_IF_ERROR(skip(v));
        }
        --depth_;
        return Status();
      }
      case type::structure: return read_struct([&](const field& f) { return skip(f.t); });
      case type::stop: break;
    }
    return in_.error_here(fmt::format("{}: cannot skip a value of type {}", what_, type_name(t)));
  }

  /// An error for a field of an unexpected type.
  [[nodiscard]] Status wrong(const field& f, std::string_view expected) const {
    return in_.error_here(
        fmt::format("{}: field {} is a {} where Parquet's schema has a {}", what_, f.id, type_name(f.t), expected));
  }

 private:
  [[nodiscard]] Status expect(const field& f, type t) const { return f.t == t ? Status() : wrong(f, type_name(t)); }

  [[nodiscard]] Status read_zigzag(std::int64_t& out) {
    std::uint64_t v = 0;
    LAKEGC_RETURN_IF_ERROR(read_uvarint(in_, v, what_));
    out = unzigzag(v);
    return Status();
  }

  [[nodiscard]] Status read_int(type t, std::int64_t& out) {
    if (t == type::i8) {
      std::uint8_t b = 0;
      LAKEGC_RETURN_IF_ERROR(in_.read_u8(b, what_));
      out = static_cast<std::int8_t>(b);
      return Status();
    }
    if (t != type::i16 && t != type::i32 && t != type::i64) {
      return in_.error_here(fmt::format("{}: a {} where an integer was expected", what_, type_name(t)));
    }
    return read_zigzag(out);
  }

  [[nodiscard]] Status read_binary_value(std::string_view& out) {
    std::uint64_t n = 0;
    LAKEGC_RETURN_IF_ERROR(read_uvarint(in_, n, what_));
    if (n > in_.remaining()) {
      return in_.error_here(
          fmt::format("{}: a binary of {} bytes runs past the end ({} left)", what_, n, in_.remaining()));
    }
    return in_.take(static_cast<std::size_t>(n), out, what_);
  }

  [[nodiscard]] StatusOr<type> element_type(std::uint8_t nibble) const {
    if (nibble == 0 || nibble > static_cast<std::uint8_t>(type::structure)) {
      return in_.error_here(fmt::format("{}: element type {} is not a Thrift compact type", what_, nibble));
    }
    return static_cast<type>(nibble);
  }

  template <class F>
  [[nodiscard]] Status read_list_value(F&& on_element) {
    std::uint8_t h = 0;
    LAKEGC_RETURN_IF_ERROR(in_.read_u8(h, what_));
    LAKEGC_ASSIGN_OR_RETURN(const type e, element_type(static_cast<std::uint8_t>(h & 0x0fU)));
    std::uint64_t n = h >> 4;
    if (n == 15) LAKEGC_RETURN_IF_ERROR(read_uvarint(in_, n, what_));
    // Every element takes at least one byte.
    if (n > in_.remaining())
      return in_.error_here(fmt::format("{}: a list of {} elements runs past the end", what_, n));
    ++depth_;
    const int saved = pending_bool_;
    pending_bool_ = -1;
    for (std::uint64_t i = 0; i < n; ++i) LAKEGC_RETURN_IF_ERROR(on_element(e));
    pending_bool_ = saved;
    --depth_;
    return Status();
  }

  byte_cursor& in_;
  std::string_view what_;
  int depth_ = 0;
  int pending_bool_ = -1;
};

/// Writes compact-protocol values. Fields must be written in increasing id
/// order within a struct (as Thrift's generated writers do).
class writer {
 public:
  explicit writer(std::string& out) : out_(out) {}

  void begin_struct() { last_.push_back(0); }
  void end_struct() {
    out_ += '\0';
    last_.pop_back();
  }

  void field_i32(std::int16_t id, std::int32_t v) {
    header(id, type::i32);
    put_uvarint(out_, zigzag(v));
  }
  void field_i64(std::int16_t id, std::int64_t v) {
    header(id, type::i64);
    put_uvarint(out_, zigzag(v));
  }
  void field_binary(std::int16_t id, std::string_view v) {
    header(id, type::binary);
    binary(v);
  }
  void field_bool(std::int16_t id, bool v) { header(id, v ? type::bool_true : type::bool_false); }
  /// A struct field; write its fields, then end_struct().
  void field_struct(std::int16_t id) {
    header(id, type::structure);
    begin_struct();
  }
  /// A list field of `n` elements of type `element`; write them next.
  void field_list(std::int16_t id, type element, std::size_t n) {
    header(id, type::list);
    if (n < 15) {
      out_ += static_cast<char>((n << 4) | static_cast<std::uint8_t>(element));
    } else {
      out_ += static_cast<char>(0xf0U | static_cast<std::uint8_t>(element));
      put_uvarint(out_, n);
    }
  }
  void element_i32(std::int32_t v) { put_uvarint(out_, zigzag(v)); }
  void element_binary(std::string_view v) { binary(v); }

 private:
  void header(std::int16_t id, type t) {
    const int delta = id - last_.back();
    if (delta > 0 && delta <= 15) {
      out_ += static_cast<char>((delta << 4) | static_cast<int>(t));
    } else {
      out_ += static_cast<char>(t);
      put_uvarint(out_, zigzag(id));
    }
    last_.back() = id;
  }
  void binary(std::string_view v) {
    put_uvarint(out_, v.size());
    out_.append(v);
  }

  std::string& out_;
  std::vector<std::int16_t> last_;
};

}  // namespace lakegc::hudi::parquet::thrift
