// File: lakegc/hudi/avro/datum.hpp
// -----------------------------------------------------------------------------
// `datum`: one decoded Avro value as a small generic tree, what every reader
// of the Hudi adapter hands to the decoders of Hudi's records and what the
// writers encode.
//
// Fields are looked up by NAME, and an absent field reads as null: Hudi adds
// fields to its schemas over time (e.g. `lastCompletedCommitTimestamp`,
// `extraMetadata`), and one reader must handle files from every version.
// Unions do not appear: a union decodes to the branch that was written.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lakegc/hudi/avro/type.hpp"

namespace lakegc::hudi::avro {

/// A decoded Avro value: null, boolean, int, long, float, double, string,
/// bytes, fixed, enum symbol, array, map or record. Unions do not appear: a
/// union decodes to the value of the branch that was written.
class datum {
 public:
  /// The Avro type of the value (never type::union_of).
  using kind = avro::type;

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
  static std::string_view name_of(kind k) noexcept { return avro::type_name(k); }

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

}  // namespace lakegc::hudi::avro
