// File: lakegc/hudi/avro/encode.hpp
// -----------------------------------------------------------------------------
// Encodes a datum in Avro binary against a schema: the inverse of
// decode.hpp, used by every writer of the Hudi adapter (clean instants, log
// blocks, archived timeline entries).
//
// The datum is checked against the schema as it is written: a record field
// is looked up by name (an absent field is null, so it must be nullable),
// an int must fit 32 bits, an enum symbol must be one of the schema's, a
// fixed must have its size. A union is written as its first branch that
// takes the datum's kind (for records, enums and fixed: the branch of the
// same full name), so a datum never says which branch it is.
//
// Arrays and maps are written as one block of all their items followed by
// the end marker, as Avro Java's BinaryEncoder does; Avro binary encoding is
// otherwise canonical, so equal datums give equal bytes.
//
// Errors are InvalidArgument and name the path of the offending value
// ("HoodieCleanerPlan.policy: expected string, found null").
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/avro/binary.hpp"
#include "lakegc/hudi/avro/datum.hpp"
#include "lakegc/hudi/avro/schema.hpp"

namespace lakegc::hudi::avro {

namespace detail {

class value_encoder {
 public:
  value_encoder(const schema& s, std::string& out) : schema_(s), out_(out) {}

  [[nodiscard]] Status encode(std::uint32_t index, const datum& d, int depth) {
    if (depth > max_depth) {
      return absl::InvalidArgumentError(fmt::format("value nested deeper than {} levels", max_depth));
    }
    const schema_node& node = schema_.node(index);
    if (node.kind == type::union_of) return encode_union(node, d, depth);
    if (!takes(node, d, /*exact=*/false)) return mismatch(node, d);
    switch (node.kind) {
      case type::null: return Status();
      case type::boolean: out_ += *d.as_bool() ? '\x01' : '\x00'; return Status();
      case type::int32:
      case type::int64: put_long(out_, *d.as_int()); return Status();
      case type::float32: put_float(out_, static_cast<float>(*d.as_double())); return Status();
      case type::float64: put_double(out_, *d.as_double()); return Status();
      case type::string: put_bytes(out_, *d.as_string()); return Status();
      case type::bytes:
      case type::fixed: {
        const std::string_view b = *d.as_bytes();
        if (node.kind == type::bytes) {
          put_bytes(out_, b);
        } else {
          out_ += b;
        }
        return Status();
      }
      case type::enum_symbol:
        for (std::size_t i = 0; i < node.names.size(); ++i) {
          if (node.names[i] == *d.as_symbol()) {
            put_long(out_, static_cast<std::int64_t>(i));
            return Status();
          }
        }
        return absl::InvalidArgumentError(fmt::format("'{}' is not a symbol of enum '{}'", *d.as_symbol(), node.name));
      case type::array:
      case type::map: {
        if (d.size() != 0) put_long(out_, static_cast<std::int64_t>(d.size()));
        for (std::size_t i = 0; i < d.size(); ++i) {
          if (node.kind == type::map) put_bytes(out_, d.keys()[i]);
          const Status st = encode(node.children[0], d.elements()[i], depth + 1);
          if (!st.ok()) {
            return annotate(st, node.kind == type::map ? fmt::format("[\"{}\"]", d.keys()[i]) : fmt::format("[{}]", i));
          }
        }
        put_long(out_, 0);
        return Status();
      }
      case type::record:
        for (std::size_t i = 0; i < node.children.size(); ++i) {
          const Status st = encode(node.children[i], d.field(node.names[i]), depth + 1);
          if (!st.ok()) return annotate(st, fmt::format("{}.{}", short_name(node.name), node.names[i]));
        }
        return Status();
      case type::union_of: break;
    }
    return absl::InternalError("unreachable: unknown schema node");
  }

 private:
  static std::string_view short_name(std::string_view full) {
    const auto dot = full.rfind('.');
    return dot == std::string_view::npos ? full : full.substr(dot + 1);
  }

  /// Whether `node` (not a union) can hold `d`. `exact` asks for the same
  /// kind; otherwise int and long, and float and double, take each other.
  static bool takes(const schema_node& node, const datum& d, bool exact) {
    using k = datum::kind;
    const k dk = d.type();
    const bool named_ok = d.type_name().empty() || d.type_name() == node.name;
    switch (node.kind) {
      case type::null: return dk == k::null;
      case type::boolean: return dk == k::boolean;
      case type::int32:
        if (dk == k::int32) return true;
        return !exact && dk == k::int64 && *d.as_int() >= std::numeric_limits<std::int32_t>::min() &&
               *d.as_int() <= std::numeric_limits<std::int32_t>::max();
      case type::int64: return dk == k::int64 || (!exact && dk == k::int32);
      case type::float32: return dk == k::float32 || (!exact && dk == k::float64);
      case type::float64: return dk == k::float64 || (!exact && dk == k::float32);
      case type::string: return dk == k::string;
      case type::bytes: return dk == k::bytes;
      case type::fixed: return dk == k::fixed && named_ok && d.as_bytes()->size() == node.size;
      case type::enum_symbol: return dk == k::enum_symbol && named_ok;
      case type::array: return dk == k::array;
      case type::map: return dk == k::map;
      case type::record: return dk == k::record && named_ok;
      case type::union_of: return false;
    }
    return false;
  }

  [[nodiscard]] Status encode_union(const schema_node& u, const datum& d, int depth) {
    for (const bool exact : {true, false}) {
      for (std::size_t b = 0; b < u.children.size(); ++b) {
        if (!takes(schema_.node(u.children[b]), d, exact)) continue;
        put_long(out_, static_cast<std::int64_t>(b));
        return encode(u.children[b], d, depth + 1);
      }
    }
    std::string branches;
    for (const auto c : u.children) {
      if (!branches.empty()) branches += ", ";
      const schema_node& n = schema_.node(c);
      branches += n.name.empty() ? std::string(type_name(n.kind)) : n.name;
    }
    return absl::InvalidArgumentError(
        fmt::format("no branch of the union [{}] takes a {}{}", branches, d.kind_name(),
                    d.type_name().empty() ? std::string() : fmt::format(" {}", d.type_name())));
  }

  [[nodiscard]] static Status mismatch(const schema_node& node, const datum& d) {
    std::string expected(type_name(node.kind));
    if (!node.name.empty()) expected += " " + node.name;
    if (node.kind == type::fixed) expected += fmt::format(" of {} bytes", node.size);
    std::string found(d.kind_name());
    if (!d.type_name().empty()) found += " " + std::string(d.type_name());
    return absl::InvalidArgumentError(fmt::format("expected {}, found {}", expected, found));
  }

  const schema& schema_;
  std::string& out_;
};

}  // namespace detail

/// Appends the Avro binary encoding of `d` as a value of `s`'s root type.
[[nodiscard]] inline Status encode_value(const schema& s, const datum& d, std::string& out) {
  return detail::value_encoder(s, out).encode(s.root_index(), d, 0);
}

/// The Avro binary encoding of `d` as a value of `s`'s root type.
[[nodiscard]] inline StatusOr<std::string> encode(const schema& s, const datum& d) {
  std::string out;
  LAKEGC_RETURN_IF_ERROR(encode_value(s, d, out));
  return out;
}

}  // namespace lakegc::hudi::avro
