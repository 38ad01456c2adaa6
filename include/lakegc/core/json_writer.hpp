// File: lakegc/core/json_writer.hpp
// -----------------------------------------------------------------------------
// A small streaming JSON writer for machine-readable output (the tool's
// `--json`, clean reports): two-space
// indentation, keys in the order written (the documented shapes are stable,
// so the order is part of them), strings escaped per RFC 8259.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace lakegc {

/// `s` as a JSON string literal (RFC 8259 escapes; other control bytes as
/// \u00XX; UTF-8 passed through).
inline std::string json_quote(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += fmt::format("\\u{:04x}", static_cast<unsigned>(static_cast<unsigned char>(c)));
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

class json_writer {
 public:
  json_writer& begin_object() { return open('{'); }
  json_writer& end_object() { return close('}'); }
  json_writer& begin_array() { return open('['); }
  json_writer& end_array() { return close(']'); }

  /// The key of the next value inside an object.
  json_writer& key(std::string_view k) {
    separate();
    quote(k);
    out_ += ": ";
    after_key_ = true;
    return *this;
  }

  json_writer& value(std::string_view s) {
    separate();
    quote(s);
    return *this;
  }
  json_writer& value(const char* s) { return value(std::string_view(s)); }
  json_writer& value(const std::string& s) { return value(std::string_view(s)); }
  json_writer& value(bool b) {
    separate();
    out_ += b ? "true" : "false";
    return *this;
  }
  json_writer& value(std::uint64_t n) {
    separate();
    out_ += fmt::format("{}", n);
    return *this;
  }
  json_writer& value(std::int64_t n) {
    separate();
    out_ += fmt::format("{}", n);
    return *this;
  }
  json_writer& value(int n) { return value(static_cast<std::int64_t>(n)); }
  json_writer& null() {
    separate();
    out_ += "null";
    return *this;
  }
  /// A string, or null when absent.
  json_writer& value(const std::optional<std::string>& s) { return s ? value(*s) : null(); }

  /// An array of strings.
  json_writer& strings(const std::vector<std::string>& items) {
    begin_array();
    for (const auto& s : items) value(s);
    return end_array();
  }

  /// The document, ending with a newline.
  std::string str() const { return out_ + "\n"; }

 private:
  struct Level {
    bool empty = true;
  };

  json_writer& open(char c) {
    separate();
    out_ += c;
    levels_.push_back({});
    return *this;
  }
  json_writer& close(char c) {
    const bool was_empty = levels_.back().empty;
    levels_.pop_back();
    if (!was_empty) newline();
    out_ += c;
    return *this;
  }
  // Before a value or key: a comma after a sibling, then a new line, except
  // right after a key (the value follows on its line).
  void separate() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (levels_.empty()) return;
    if (!levels_.back().empty) out_ += ',';
    levels_.back().empty = false;
    newline();
  }
  void newline() {
    out_ += '\n';
    out_.append(levels_.size() * 2, ' ');
  }
  void quote(std::string_view s) { out_ += json_quote(s); }

  std::string out_;
  std::vector<Level> levels_;
  bool after_key_ = false;
};

}  // namespace lakegc
