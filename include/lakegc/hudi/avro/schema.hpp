// File: lakegc/hudi/avro/schema.hpp
// -----------------------------------------------------------------------------
// Avro schemas parsed from their JSON text (Avro 1.x spec, "Schema
// Declaration") into a flat graph that the decoder and the encoder walk.
//
// Why lakegc parses schemas itself instead of asking Avro C: a writer
// schema comes from the file being read, so it is untrusted input, and Avro
// C 1.11.1 is not safe on bad input. Its avro_schema_from_json_length leaks
// the partly built schema when it fails (a schema that defines a named type
// twice leaks 1284 bytes per call, found by fuzzing), and after reading the
// schema Avro C was only used to walk it. Parsing here is ~200 lines over
// simdjson (already a dependency), errors name what is wrong, memory is
// owned by one vector, and nesting is bounded.
//
// Nodes refer to each other by index into schema::nodes(), so a recursive
// schema (a record with a field of its own type) is a graph with no
// pointers and no reference counts. The eight primitive types are nodes
// 0..7 of every schema.
//
// Rules (as Avro Java, which writes every schema lakegc reads):
//  * A name is resolved in the enclosing namespace, then as written (a type
//    of the null namespace); a name with a dot is a full name. A type must be
//    defined before it is referred to, except that a record's fields may
//    refer to the record itself.
//  * Defining the same full name twice is an error naming the type (Java:
//    "Can't redefine"), and so is a record with two fields of one name.
//  * Attributes other than the ones a type needs (doc, default, aliases,
//    order, logicalType, avro.java.string, ...) are ignored: a logical type
//    decodes as its underlying type.
//  * Names are not checked against Avro's identifier grammar: Hudi itself
//    reads schemas of old archived commits with that check off.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <simdjson.h>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/avro/type.hpp"

namespace lakegc::hudi::avro {

/// Nesting limit for records, arrays, maps and unions, both in a schema and
/// in a value. Hudi's deepest timeline schema (HoodieRequestedReplaceMetadata)
/// nests about a dozen levels; the limit bounds recursion on hostile input.
inline constexpr int max_depth = 64;

/// One node of a schema graph.
struct schema_node {
  type kind = type::null;
  /// Full name (namespace.name) of a record, enum or fixed.
  std::string name;
  /// Field names of a record, symbols of an enum.
  std::vector<std::string> names;
  /// Field types of a record, branches of a union, the item type of an array
  /// or the value type of a map (one element): indices into schema::nodes().
  std::vector<std::uint32_t> children;
  /// Size in bytes of a fixed.
  std::uint64_t size = 0;
};

class schema {
 public:
  /// Parses the JSON text of a schema. Errors are DataLoss: a schema comes
  /// from the file it describes, and a bad one means a damaged file.
  [[nodiscard]] static StatusOr<schema> parse(std::string_view json);

  const schema_node& root() const noexcept { return nodes_[root_]; }
  std::uint32_t root_index() const noexcept { return root_; }
  const schema_node& node(std::uint32_t i) const noexcept { return nodes_[i]; }
  std::size_t node_count() const noexcept { return nodes_.size(); }

  /// The node of the named type `full_name`, if the schema defines it.
  std::optional<std::uint32_t> find(std::string_view full_name) const {
    const auto it = named_.find(full_name);
    if (it == named_.end()) return std::nullopt;
    return it->second;
  }

 private:
  friend class schema_parser;
  std::vector<schema_node> nodes_;
  std::map<std::string, std::uint32_t, std::less<>> named_;
  std::uint32_t root_ = 0;
};

/// Builds a schema from simdjson's DOM. Not for direct use: schema::parse.
class schema_parser {
 public:
  [[nodiscard]] static StatusOr<schema> run(std::string_view json) {
    thread_local simdjson::dom::parser json_parser;
    simdjson::dom::element root;
    if (const auto err = json_parser.parse(json.data(), json.size()).get(root); err != simdjson::SUCCESS) {
      return absl::DataLossError(fmt::format("the schema is not JSON: {}", simdjson::error_message(err)));
    }
    schema_parser p;
    for (type t : primitives) p.out_.nodes_.push_back(schema_node{t, {}, {}, {}, 0});
    LAKEGC_ASSIGN_OR_RETURN(p.out_.root_, p.parse_type(root, "", 0));
    return std::move(p.out_);
  }

 private:
  static constexpr type primitives[] = {type::null,    type::boolean, type::int32,  type::int64,
                                        type::float32, type::float64, type::string, type::bytes};

  static std::optional<std::uint32_t> primitive_index(std::string_view name) {
    for (std::uint32_t i = 0; i < std::size(primitives); ++i) {
      if (type_name(primitives[i]) == name) return i;
    }
    return std::nullopt;
  }

  [[nodiscard]] static Status bad(std::string_view what) { return absl::DataLossError(std::string(what)); }

  static std::string qualify(std::string_view name, std::string_view ns) {
    if (name.find('.') != std::string_view::npos || ns.empty()) return std::string(name);
    return fmt::format("{}.{}", ns, name);
  }

  [[nodiscard]] StatusOr<std::uint32_t> resolve(std::string_view name, std::string_view ns) const {
    if (auto p = primitive_index(name)) return *p;
    if (auto i = out_.find(qualify(name, ns))) return *i;
    if (auto i = out_.find(name)) return *i;
    return bad(fmt::format("unknown type '{}' (a named type must be defined before it is used)", name));
  }

  /// Adds a named node, refusing a second definition of its full name.
  [[nodiscard]] StatusOr<std::uint32_t> define(schema_node node) {
    if (primitive_index(node.name)) return bad(fmt::format("a named type may not be called '{}'", node.name));
    if (out_.find(node.name)) {
      return bad(fmt::format("the schema defines the named type '{}' twice", node.name));
    }
    const auto index = static_cast<std::uint32_t>(out_.nodes_.size());
    out_.named_.emplace(node.name, index);
    out_.nodes_.push_back(std::move(node));
    return index;
  }

  std::uint32_t add(schema_node node) {
    out_.nodes_.push_back(std::move(node));
    return static_cast<std::uint32_t>(out_.nodes_.size() - 1);
  }

  [[nodiscard]] static StatusOr<std::string_view> string_member(simdjson::dom::object obj, std::string_view key,
                                                                std::string_view of) {
    std::string_view s;
    if (obj[key].get_string().get(s) != simdjson::SUCCESS || s.empty()) {
      return bad(fmt::format("{} has no \"{}\" string", of, key));
    }
    return s;
  }

  /// Full name and namespace of a record, enum or fixed declaration.
  [[nodiscard]] static StatusOr<std::pair<std::string, std::string>> full_name_of(simdjson::dom::object obj,
                                                                                  std::string_view enclosing_ns,
                                                                                  std::string_view kind) {
    LAKEGC_ASSIGN_OR_RETURN(std::string_view name, string_member(obj, "name", kind));
    std::string_view ns = enclosing_ns;
    std::string_view declared;
    if (obj["namespace"].get_string().get(declared) == simdjson::SUCCESS) ns = declared;
    std::string full = qualify(name, ns);
    const auto dot = full.rfind('.');
    std::string own_ns = dot == std::string::npos ? std::string() : full.substr(0, dot);
    return std::pair{std::move(full), std::move(own_ns)};
  }

  [[nodiscard]] StatusOr<std::uint32_t> parse_type(simdjson::dom::element e, std::string_view ns, int depth) {
    if (depth > max_depth) return bad(fmt::format("the schema nests deeper than {} levels", max_depth));
    std::string_view name;
    if (e.get_string().get(name) == simdjson::SUCCESS) return resolve(name, ns);
    simdjson::dom::array branches;
    if (e.get_array().get(branches) == simdjson::SUCCESS) {
      schema_node u{type::union_of, {}, {}, {}, 0};
      for (simdjson::dom::element b : branches) {
        LAKEGC_ASSIGN_OR_RETURN(std::uint32_t child, parse_type(b, ns, depth + 1));
        u.children.push_back(child);
      }
      if (u.children.empty()) return bad("a union has no branch");
      return add(std::move(u));
    }
    simdjson::dom::object obj;
    if (e.get_object().get(obj) != simdjson::SUCCESS) return bad("a type is neither a name, a union nor an object");
    simdjson::dom::element type_member;
    if (obj["type"].get(type_member) != simdjson::SUCCESS) return bad("a type object has no \"type\"");
    std::string_view kind;
    // {"type": {...}} or {"type": [...]}: the type is the member itself.
    if (type_member.get_string().get(kind) != simdjson::SUCCESS) return parse_type(type_member, ns, depth + 1);

    if (kind == "record" || kind == "error") {
      LAKEGC_ASSIGN_OR_RETURN(auto names, full_name_of(obj, ns, "a record"));
      simdjson::dom::array fields;
      if (obj["fields"].get_array().get(fields) != simdjson::SUCCESS) {
        return bad(fmt::format("record '{}' has no \"fields\" array", names.first));
      }
      // Defined before its fields are read, so a field may refer to it.
      LAKEGC_ASSIGN_OR_RETURN(std::uint32_t self, define(schema_node{type::record, names.first, {}, {}, 0}));
      for (simdjson::dom::element f : fields) {
        simdjson::dom::object field;
        if (f.get_object().get(field) != simdjson::SUCCESS) {
          return bad(fmt::format("record '{}' has a field that is not an object", names.first));
        }
        LAKEGC_ASSIGN_OR_RETURN(std::string_view field_name,
                                string_member(field, "name", fmt::format("a field of record '{}'", names.first)));
        simdjson::dom::element field_type;
        if (field["type"].get(field_type) != simdjson::SUCCESS) {
          return bad(fmt::format("field '{}' of record '{}' has no \"type\"", field_name, names.first));
        }
        auto child = parse_type(field_type, names.second, depth + 1);
        if (!child.ok()) return annotate(child.status(), fmt::format("{}.{}", names.first, field_name));
        // parse_type may have grown nodes_: index again.
        out_.nodes_[self].names.emplace_back(field_name);
        out_.nodes_[self].children.push_back(*child);
      }
      // Checked once all fields are read, as Avro Java's setFields does, so
      // a type defined twice inside them is reported as that.
      const auto& field_names = out_.nodes_[self].names;
      for (std::size_t i = 0; i < field_names.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j) {
          if (field_names[i] == field_names[j]) {
            return bad(fmt::format("record '{}' has two fields named '{}'", names.first, field_names[i]));
          }
        }
      }
      return self;
    }
    if (kind == "enum") {
      LAKEGC_ASSIGN_OR_RETURN(auto names, full_name_of(obj, ns, "an enum"));
      simdjson::dom::array symbols;
      if (obj["symbols"].get_array().get(symbols) != simdjson::SUCCESS) {
        return bad(fmt::format("enum '{}' has no \"symbols\" array", names.first));
      }
      schema_node node{type::enum_symbol, names.first, {}, {}, 0};
      for (simdjson::dom::element s : symbols) {
        std::string_view symbol;
        if (s.get_string().get(symbol) != simdjson::SUCCESS) {
          return bad(fmt::format("enum '{}' has a symbol that is not a string", names.first));
        }
        node.names.emplace_back(symbol);
      }
      return define(std::move(node));
    }
    if (kind == "fixed") {
      LAKEGC_ASSIGN_OR_RETURN(auto names, full_name_of(obj, ns, "a fixed"));
      std::uint64_t size = 0;
      if (obj["size"].get_uint64().get(size) != simdjson::SUCCESS) {
        return bad(fmt::format("fixed '{}' has no non-negative integer \"size\"", names.first));
      }
      return define(schema_node{type::fixed, names.first, {}, {}, size});
    }
    if (kind == "array" || kind == "map") {
      const bool is_map = kind == "map";
      simdjson::dom::element item;
      if (obj[is_map ? "values" : "items"].get(item) != simdjson::SUCCESS) {
        return bad(fmt::format("{} has no \"{}\"", kind, is_map ? "values" : "items"));
      }
      LAKEGC_ASSIGN_OR_RETURN(std::uint32_t child, parse_type(item, ns, depth + 1));
      return add(schema_node{is_map ? type::map : type::array, {}, {}, {child}, 0});
    }
    // A primitive with attributes ({"type":"string","avro.java.string":...},
    // a logical type), or {"type":"SomeNamedType"}.
    return resolve(kind, ns);
  }

  schema out_;
};

[[nodiscard]] inline StatusOr<schema> schema::parse(std::string_view json) { return schema_parser::run(json); }

/// schema::parse with a small per-thread cache keyed by the schema text.
/// Hudi embeds the same schema in every file it writes with one version
/// (HoodieCommitMetadata's is ~6 KB), and a v8 timeline holds thousands of
/// such files; parsing once per distinct text keeps loading linear in the
/// bytes of records, not of schemas.
[[nodiscard]] inline StatusOr<std::shared_ptr<const schema>> cached_schema(std::string_view json) {
  struct entry {
    std::string json;
    std::shared_ptr<const schema> parsed;
  };
  constexpr std::size_t capacity = 16;
  thread_local std::vector<entry> cache;
  for (const auto& e : cache) {
    if (e.json == json) return e.parsed;
  }
  LAKEGC_ASSIGN_OR_RETURN(schema parsed, schema::parse(json));
  auto shared = std::make_shared<const schema>(std::move(parsed));
  if (cache.size() >= capacity) cache.erase(cache.begin());
  cache.push_back(entry{std::string(json), shared});
  return shared;
}

}  // namespace lakegc::hudi::avro
