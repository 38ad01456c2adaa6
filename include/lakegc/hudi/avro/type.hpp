// File: lakegc/hudi/avro/type.hpp
// -----------------------------------------------------------------------------
// The Avro types, shared by schemas (schema.hpp, where a node may be a
// union) and decoded values (datum.hpp, where a union never appears: a
// union decodes to the branch that was written).
#pragma once

#include <cstdint>
#include <string_view>

namespace lakegc::hudi::avro {

enum class type : std::uint8_t {
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
  union_of,  ///< schemas only
};

/// The Avro name of a type, for messages ("string", "record", ...).
constexpr std::string_view type_name(type t) noexcept {
  switch (t) {
    case type::null: return "null";
    case type::boolean: return "boolean";
    case type::int32: return "int";
    case type::int64: return "long";
    case type::float32: return "float";
    case type::float64: return "double";
    case type::string: return "string";
    case type::bytes: return "bytes";
    case type::fixed: return "fixed";
    case type::enum_symbol: return "enum";
    case type::array: return "array";
    case type::map: return "map";
    case type::record: return "record";
    case type::union_of: return "union";
  }
  return "?";
}

}  // namespace lakegc::hudi::avro
