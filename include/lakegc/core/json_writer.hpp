// File: lakegc/core/json_writer.hpp
// -----------------------------------------------------------------------------
// A small streaming JSON writer for machine-readable output (the tool's
// `--json`, clean reports): the whole document as a string, or handed to a
// sink in pieces as it is written; two-space
// indentation, keys in the order written (the documented shapes are stable,
// so the order is part of them), strings escaped per RFC 8259.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace lakegc {

/// Appends `s` to `out` as a JSON string literal (RFC 8259 escapes; other
/// control bytes as \u00XX; UTF-8 passed through). Runs without an escape
/// are appended whole: a plan's JSON quotes a million paths, and building
/// each literal a character at a time in a string of its own was most of
/// `plan_json`.
inline void append_json_quoted(std::string& out, std::string_view s) {
  out += '"';
  std::size_t run = 0;  // start of the bytes not yet appended
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default: fmt::format_to(std::back_inserter(out), "\\u{:04x}", static_cast<unsigned>(c));
    }
  }
  out.append(s.data() + run, s.size() - run);
  out += '"';
}

/// `s` as a JSON string literal (append_json_quoted).
inline std::string json_quote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  append_json_quoted(out, s);
  return out;
}

/// Where a json_writer made with one sends its text.
using json_sink = std::function<void(std::string_view)>;

class json_writer {
 public:
  /// A writer that keeps the whole document (str(), take()).
  json_writer() = default;
  /// A writer that hands its text to `sink` in pieces of about
  /// kSpillBytes as it goes, and the rest at finish(): a plan's JSON is
  /// hundreds of MB, and building it whole before printing it was that much
  /// more memory, touched page by page.
  explicit json_writer(json_sink sink) : sink_(std::move(sink)) {}

  static constexpr std::size_t kSpillBytes = std::size_t{1} << 20;

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
    fmt::format_to(std::back_inserter(out_), "{}", n);
    return *this;
  }
  json_writer& value(std::int64_t n) {
    separate();
    fmt::format_to(std::back_inserter(out_), "{}", n);
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

  /// The document, ending with a newline (a writer without a sink).
  std::string str() const { return out_ + "\n"; }
  /// The same, moved out of the writer (a plan's JSON is hundreds of MB:
  /// no copy).
  std::string take() && {
    out_ += '\n';
    return std::move(out_);
  }
  /// Ends the document with a newline and hands the sink what is left.
  void finish() {
    out_ += '\n';
    spill();
  }

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
    if (sink_ && out_.size() >= kSpillBytes) spill();
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
  void quote(std::string_view s) { append_json_quoted(out_, s); }
  void spill() {
    if (!sink_) return;
    sink_(out_);
    out_.clear();
  }

  json_sink sink_;
  std::string out_;
  std::vector<Level> levels_;
  bool after_key_ = false;
};

}  // namespace lakegc
