// File: lakegc/hudi/avro/debug_string.hpp
// -----------------------------------------------------------------------------
// A JSON-like rendering of a datum for diagnostics and test failure messages
// (records and maps as objects, bytes as escaped strings). Not a JSON
// encoder: bytes outside printable ASCII are shown as \u00XX per byte.
#pragma once

#include <string>
#include <string_view>

#include <fmt/format.h>

#include "lakegc/hudi/avro/datum.hpp"

namespace lakegc::hudi::avro {

namespace detail {

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
    case datum::kind::null: out += "null"; return;
    case datum::kind::boolean: out += *d.as_bool() ? "true" : "false"; return;
    case datum::kind::int32:
    case datum::kind::int64: out += fmt::format("{}", *d.as_int()); return;
    case datum::kind::float32:
    case datum::kind::float64: out += fmt::format("{}", *d.as_double()); return;
    case datum::kind::string: quote(*d.as_string()); return;
    case datum::kind::bytes:
    case datum::kind::fixed: quote(*d.as_bytes()); return;
    case datum::kind::enum_symbol: quote(*d.as_symbol()); return;
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
    case datum::kind::union_of:  // never a datum's type
      out += "?";
      return;
  }
}

}  // namespace detail

inline std::string to_debug_string(const datum& d) {
  std::string out;
  detail::append_debug_string(d, out);
  return out;
}

}  // namespace lakegc::hudi::avro
