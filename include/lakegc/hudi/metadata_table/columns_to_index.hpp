// File: lakegc/hudi/metadata_table/columns_to_index.hpp
// -----------------------------------------------------------------------------
// The columns whose statistics the metadata table's column_stats partition
// keeps for each data file, by Hudi 1.2.0's rule
// (HoodieTableMetadataUtil.getColumnsToIndex): a clean deletes the record
// of every (deleted file, column) pair, so lakegc must name the same columns
// or leave statistics of deleted files behind.
//
//  1. `_hoodie_commit_time`, `_hoodie_record_key`, `_hoodie_partition_path`,
//     always, when the table populates meta fields (hoodie.populate.meta.fields,
//     default true);
//  2. then, if `hoodie.metadata.index.column.stats.column.list` is set, its
//     columns (meta columns left out) that the table schema has (dotted
//     names reach into nested records) and whose type is supported;
//     otherwise the first `hoodie.metadata.index.column.stats.max.columns.to.index`
//     (32) top-level fields of the table schema, meta columns left out, whose
//     type is supported.
//
// The table schema is the `schema` of the newest completed write that has
// one, else hoodie.table.create.schema (TableSchemaResolver), with the
// partition columns appended when hoodie.datasource.write.drop.partition.columns
// is set. Supported types (isColumnTypeSupported), after dropping `null`
// from a union: index version V2 takes every type but record, map, array,
// enum and Hudi's variant, blob and vector; V1 also refuses decimals with
// precision + (15 - scale) > 30 or scale > 15, and, when the writer merges
// records as Spark rows, bytes, fixed and decimals.
//
// Which record type the writer uses is its
// hoodie.write.record.merge.custom.implementation.classes: none means Avro.
// When it is set, lakegc cannot tell, and answers only when the answer is
// the same either way (refusing otherwise, naming the column).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <simdjson.h>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/metadata_table/index_definitions.hpp"
#include "lakegc/hudi/table_properties.hpp"
#include "lakegc/policy/config.hpp"

namespace lakegc::hudi::metadata_table {

/// HoodieSchemaType, as far as the column-type rule looks at it.
enum class schema_type : std::uint8_t {
  record,
  enum_type,
  array,
  map,
  union_type,
  fixed,
  string,
  bytes,
  int32,
  int64,
  float32,
  float64,
  boolean,
  decimal,
  time,
  timestamp,
  date,
  uuid,
  variant,
  blob,
  vector,
  null,
};

/// A field's type as the rule sees it: the type, and a decimal's precision and scale.
struct column_type {
  schema_type type = schema_type::null;
  std::int64_t precision = 0;
  std::int64_t scale = 0;
};

/// What the writer's configuration says about column statistics.
struct column_stats_settings {
  std::vector<std::string> column_list;  ///< hoodie.metadata.index.column.stats.column.list
  std::int64_t max_columns = 32;         ///< hoodie.metadata.index.column.stats.max.columns.to.index
  /// hoodie.write.record.merge.custom.implementation.classes is set: the
  /// record type may be Spark's rather than Avro's.
  bool record_type_unknown = false;
};

/// The meta columns column_stats always indexes.
inline constexpr std::array<std::string_view, 3> always_indexed_meta_columns = {
    "_hoodie_commit_time", "_hoodie_record_key", "_hoodie_partition_path"};

/// HoodieRecord.HOODIE_META_COLUMNS_WITH_OPERATION.
inline bool is_meta_column(std::string_view name) {
  return name == "_hoodie_commit_time" || name == "_hoodie_commit_seqno" || name == "_hoodie_record_key" ||
         name == "_hoodie_partition_path" || name == "_hoodie_file_name" || name == "_hoodie_operation";
}

[[nodiscard]] inline StatusOr<column_stats_settings> column_stats_settings_of(const config::Properties& props) {
  column_stats_settings s;
  if (auto it = props.find("hoodie.metadata.index.column.stats.column.list"); it != props.end()) {
    s.column_list = hudi::detail::split_list(it->second);
  }
  if (auto it = props.find("hoodie.metadata.index.column.stats.max.columns.to.index"); it != props.end()) {
    LAKEGC_ASSIGN_OR_RETURN(s.max_columns, config::detail::parse_int(*it, 0, "a count of columns", INT32_MAX));
  }
  for (const char* k :
       {"hoodie.write.record.merge.custom.implementation.classes", "hoodie.datasource.write.record.merger.impls"}) {
    if (auto it = props.find(k); it != props.end() && !hudi::detail::split_list(it->second).empty()) {
      s.record_type_unknown = true;
    }
  }
  return s;
}

namespace detail {

/// Avro's named types of a schema by full and by simple name, so that a
/// field whose type is a name can be classified.
class schema_names {
 public:
  void add(std::string_view name, std::string_view ns, simdjson::dom::element def) {
    const std::string full =
        name.find('.') != std::string_view::npos || ns.empty() ? std::string(name) : fmt::format("{}.{}", ns, name);
    defs_.emplace(full, def);
    const auto dot = full.rfind('.');
    defs_.emplace(dot == std::string::npos ? full : full.substr(dot + 1), def);
  }
  std::optional<simdjson::dom::element> find(std::string_view name) const {
    const auto it = defs_.find(std::string(name));
    if (it == defs_.end()) return std::nullopt;
    return it->second;
  }

 private:
  std::map<std::string, simdjson::dom::element> defs_;
};

inline void collect_names(simdjson::dom::element e, std::string_view ns, schema_names& names, int depth = 0) {
  if (depth > 64) return;
  simdjson::dom::array arr;
  if (e.get(arr) == simdjson::SUCCESS) {
    for (simdjson::dom::element x : arr) collect_names(x, ns, names, depth + 1);
    return;
  }
  simdjson::dom::object o;
  if (e.get(o) != simdjson::SUCCESS) return;
  std::string_view type;
  std::string_view name;
  std::string_view inner_ns = ns;
  if (o["namespace"].get(inner_ns) != simdjson::SUCCESS) inner_ns = ns;
  if (o["type"].get(type) == simdjson::SUCCESS &&
      (type == "record" || type == "enum" || type == "fixed" || type == "error") &&
      o["name"].get(name) == simdjson::SUCCESS) {
    names.add(name, inner_ns, e);
    const auto dot = name.rfind('.');
    if (dot != std::string_view::npos) inner_ns = name.substr(0, dot);
  }
  simdjson::dom::element child;
  if (o["type"].get(child) == simdjson::SUCCESS && !child.is_string()) collect_names(child, inner_ns, names, depth + 1);
  for (const char* k : {"items", "values"}) {
    if (o[k].get(child) == simdjson::SUCCESS) collect_names(child, inner_ns, names, depth + 1);
  }
  simdjson::dom::array fields;
  if (o["fields"].get(fields) == simdjson::SUCCESS) {
    for (simdjson::dom::element f : fields) {
      if (f["type"].get(child) == simdjson::SUCCESS) collect_names(child, inner_ns, names, depth + 1);
    }
  }
}

inline std::optional<schema_type> primitive_type(std::string_view t) {
  static const std::map<std::string_view, schema_type> primitives = {
      {"null", schema_type::null},    {"boolean", schema_type::boolean}, {"int", schema_type::int32},
      {"long", schema_type::int64},   {"float", schema_type::float32},   {"double", schema_type::float64},
      {"bytes", schema_type::bytes},  {"string", schema_type::string},   {"record", schema_type::record},
      {"error", schema_type::record}, {"enum", schema_type::enum_type},  {"array", schema_type::array},
      {"map", schema_type::map},      {"fixed", schema_type::fixed}};
  const auto it = primitives.find(t);
  if (it == primitives.end()) return std::nullopt;
  return it->second;
}

/// HoodieSchemaType.fromAvro of a schema node (after resolving names), with
/// Avro's rule that a logical type on the wrong base type is ignored.
[[nodiscard]] inline StatusOr<column_type> classify(simdjson::dom::element e, const schema_names& names,
                                                    std::string_view where, int depth = 0) {
  if (depth > 64) return absl::InvalidArgumentError(fmt::format("{}: schema nested too deeply", where));
  std::string_view s;
  if (e.get(s) == simdjson::SUCCESS) {
    if (auto p = primitive_type(s)) return column_type{*p};
    if (auto def = names.find(s)) return classify(*def, names, where, depth + 1);
    return absl::InvalidArgumentError(fmt::format("{}: unknown type '{}'", where, s));
  }
  simdjson::dom::array arr;
  if (e.get(arr) == simdjson::SUCCESS) return column_type{schema_type::union_type};
  simdjson::dom::object o;
  if (e.get(o) != simdjson::SUCCESS) return absl::InvalidArgumentError(fmt::format("{}: not a schema", where));
  simdjson::dom::element inner;
  if (o["type"].get(inner) != simdjson::SUCCESS) {
    return absl::InvalidArgumentError(fmt::format("{}: a schema without 'type'", where));
  }
  column_type base;
  if (inner.get(s) == simdjson::SUCCESS) {
    if (auto p = primitive_type(s)) {
      base.type = *p;
    } else {
      LAKEGC_ASSIGN_OR_RETURN(base, classify(inner, names, where, depth + 1));
    }
  } else {
    LAKEGC_ASSIGN_OR_RETURN(base, classify(inner, names, where, depth + 1));
  }
  std::string_view logical;
  if (o["logicalType"].get(logical) != simdjson::SUCCESS) return base;
  const schema_type b = base.type;
  if (logical == "decimal" && (b == schema_type::bytes || b == schema_type::fixed)) {
    std::int64_t precision = 0;
    std::int64_t scale = 0;
    if (o["precision"].get(precision) != simdjson::SUCCESS || precision <= 0) return base;  // Avro ignores it
    if (o["scale"].get(scale) != simdjson::SUCCESS) scale = 0;
    if (scale < 0 || scale > precision) return base;
    return column_type{schema_type::decimal, precision, scale};
  }
  if ((logical == "time-millis" && b == schema_type::int32) || (logical == "time-micros" && b == schema_type::int64)) {
    return column_type{schema_type::time};
  }
  if ((logical == "timestamp-millis" || logical == "timestamp-micros" || logical == "local-timestamp-millis" ||
       logical == "local-timestamp-micros") &&
      b == schema_type::int64) {
    return column_type{schema_type::timestamp};
  }
  if (logical == "date" && b == schema_type::int32) return column_type{schema_type::date};
  if (logical == "uuid" && b == schema_type::string) return column_type{schema_type::uuid};
  if (logical == "variant" && b == schema_type::record) return column_type{schema_type::variant};
  if (logical == "blob" && b == schema_type::record) return column_type{schema_type::blob};
  if (logical == "vector" && b == schema_type::fixed) return column_type{schema_type::vector};
  return base;
}

/// A field's type with `null` dropped from a union of it and one other type
/// (HoodieSchema.getNonNullType).
[[nodiscard]] inline StatusOr<column_type> non_null_type(simdjson::dom::element type, const schema_names& names,
                                                         std::string_view where) {
  simdjson::dom::array arr;
  if (type.get(arr) == simdjson::SUCCESS) {
    std::vector<simdjson::dom::element> others;
    for (simdjson::dom::element t : arr) {
      std::string_view s;
      if (t.get(s) == simdjson::SUCCESS && s == "null") continue;
      others.push_back(t);
    }
    if (others.size() == 1) return classify(others.front(), names, where);
    return column_type{others.empty() ? schema_type::null : schema_type::union_type};
  }
  return classify(type, names, where);
}

/// The record schema a field type stands for, through a nullable union and names.
inline std::optional<simdjson::dom::object> record_of(simdjson::dom::element type, const schema_names& names,
                                                      int depth = 0) {
  if (depth > 64) return std::nullopt;
  std::string_view s;
  if (type.get(s) == simdjson::SUCCESS) {
    if (auto def = names.find(s)) return record_of(*def, names, depth + 1);
    return std::nullopt;
  }
  simdjson::dom::array arr;
  if (type.get(arr) == simdjson::SUCCESS) {
    std::optional<simdjson::dom::object> only;
    int non_null = 0;
    for (simdjson::dom::element t : arr) {
      if (t.get(s) == simdjson::SUCCESS && s == "null") continue;
      ++non_null;
      only = record_of(t, names, depth + 1);
    }
    return non_null == 1 ? only : std::nullopt;
  }
  simdjson::dom::object o;
  if (type.get(o) != simdjson::SUCCESS) return std::nullopt;
  simdjson::dom::array fields;
  if (o["fields"].get(fields) == simdjson::SUCCESS) return o;
  simdjson::dom::element inner;
  if (o["type"].get(inner) == simdjson::SUCCESS && !inner.is_string()) return record_of(inner, names, depth + 1);
  if (o["type"].get(s) == simdjson::SUCCESS && names.find(s)) return record_of(inner, names, depth + 1);
  return std::nullopt;
}

/// The type of the (possibly dotted) field `path` of `record`, or nullopt.
inline std::optional<simdjson::dom::element> field_type(simdjson::dom::object record, std::string_view path,
                                                        const schema_names& names) {
  while (true) {
    const auto dot = path.find('.');
    const std::string_view head = path.substr(0, dot);
    simdjson::dom::array fields;
    if (record["fields"].get(fields) != simdjson::SUCCESS) return std::nullopt;
    std::optional<simdjson::dom::element> found;
    for (simdjson::dom::element f : fields) {
      std::string_view name;
      simdjson::dom::element t;
      if (f["name"].get(name) == simdjson::SUCCESS && name == head && f["type"].get(t) == simdjson::SUCCESS) found = t;
    }
    if (!found || dot == std::string_view::npos) return found;
    auto inner = record_of(*found, names);
    if (!inner) return std::nullopt;
    record = *inner;
    path.remove_prefix(dot + 1);
  }
}

enum class record_type : std::uint8_t { avro, spark };

/// HoodieTableMetadataUtil.isColumnTypeSupported.
inline bool type_supported(const column_type& t, index_version v, record_type r) {
  switch (t.type) {
    case schema_type::record:
    case schema_type::map:
    case schema_type::array:
    case schema_type::enum_type:
    case schema_type::blob:
    case schema_type::vector:
    case schema_type::variant: return false;
    default: break;
  }
  if (v == index_version::v2) return true;
  if (t.type == schema_type::decimal && (t.precision + (15 - t.scale) > 30 || t.scale > 15)) return false;
  if (r == record_type::spark) {
    return t.type != schema_type::bytes && t.type != schema_type::fixed && t.type != schema_type::decimal;
  }
  return true;
}

}  // namespace detail

/// What columns_to_index is given about the table.
struct column_stats_table {
  /// The table schema (Avro JSON), "" when the table has none yet.
  std::string schema;
  bool populate_meta_fields = true;
  /// Partition columns to append (drop.partition.columns), when not in the schema.
  std::vector<std::string> appended_partition_columns;
  index_version version = index_version::v1;
};

/// The columns a clean deletes column statistics of, in Hudi's order.
/// FailedPrecondition when lakegc cannot tell (see the top of this file).
[[nodiscard]] inline StatusOr<std::vector<std::string>> columns_to_index(const column_stats_table& table,
                                                                         const column_stats_settings& settings) {
  std::vector<std::string> out;
  if (table.populate_meta_fields) {
    for (std::string_view c : always_indexed_meta_columns) out.emplace_back(c);
  }
  if (table.schema.empty()) {
    if (!settings.column_list.empty()) {
      return absl::FailedPreconditionError(
          "hoodie.metadata.index.column.stats.column.list is set but the table has no schema yet");
    }
    return out;
  }
  const std::string_view where = "the table schema";
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(table.schema).get(root) != simdjson::SUCCESS) {
    return absl::InvalidArgumentError(fmt::format("{} is not JSON", where));
  }
  detail::schema_names names;
  detail::collect_names(root, "", names);
  auto record = detail::record_of(root, names);
  if (!record) return absl::InvalidArgumentError(fmt::format("{} is not a record", where));

  // The answer for a column under both record types; refused when they
  // differ and the writer's record type is not known.
  auto supported = [&](std::string_view name, const column_type& t) -> StatusOr<bool> {
    const bool avro = detail::type_supported(t, table.version, detail::record_type::avro);
    const bool spark = detail::type_supported(t, table.version, detail::record_type::spark);
    if (settings.record_type_unknown && avro != spark) {
      return absl::FailedPreconditionError(fmt::format(
          "column '{}' is indexed by column_stats if the writer merges Avro records and not if it merges Spark "
          "rows, and hoodie.write.record.merge.custom.implementation.classes does not tell lakegc which",
          name));
    }
    return avro;
  };

  if (!settings.column_list.empty()) {
    for (const std::string& c : settings.column_list) {
      if (std::find(always_indexed_meta_columns.begin(), always_indexed_meta_columns.end(), c) !=
          always_indexed_meta_columns.end()) {
        continue;
      }
      auto type = detail::field_type(*record, c, names);
      if (!type) {
        if (std::find(table.appended_partition_columns.begin(), table.appended_partition_columns.end(), c) !=
            table.appended_partition_columns.end()) {
          out.push_back(c);  // appended as a string
          continue;
        }
        if (c.find('.') != std::string::npos) {
          return absl::FailedPreconditionError(
              fmt::format("column '{}' of hoodie.metadata.index.column.stats.column.list is not a field of nested "
                          "records in the table schema; lakegc cannot tell how Hudi resolves it",
                          c));
        }
        continue;  // Hudi skips a column the schema does not have
      }
      LAKEGC_ASSIGN_OR_RETURN(column_type t, detail::non_null_type(*type, names, where));
      LAKEGC_ASSIGN_OR_RETURN(bool ok, supported(c, t));
      if (ok && std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
    }
    return out;
  }
  simdjson::dom::array fields;
  if ((*record)["fields"].get(fields) != simdjson::SUCCESS) {
    return absl::InvalidArgumentError(fmt::format("{} has no fields", where));
  }
  std::vector<std::pair<std::string, column_type>> candidates;
  for (simdjson::dom::element f : fields) {
    std::string_view name;
    simdjson::dom::element t;
    if (f["name"].get(name) != simdjson::SUCCESS || f["type"].get(t) != simdjson::SUCCESS) {
      return absl::InvalidArgumentError(fmt::format("{}: a field without name or type", where));
    }
    LAKEGC_ASSIGN_OR_RETURN(column_type ct, detail::non_null_type(t, names, where));
    candidates.emplace_back(std::string(name), ct);
  }
  for (const std::string& p : table.appended_partition_columns) {
    if (std::none_of(candidates.begin(), candidates.end(), [&](const auto& c) { return c.first == p; })) {
      candidates.emplace_back(p, column_type{schema_type::string});
    }
  }
  std::int64_t taken = 0;
  for (const auto& [name, t] : candidates) {
    if (taken >= settings.max_columns) break;
    LAKEGC_ASSIGN_OR_RETURN(bool ok, supported(name, t));
    if (!ok || is_meta_column(name)) continue;
    out.push_back(name);
    ++taken;
  }
  return out;
}

}  // namespace lakegc::hudi::metadata_table
