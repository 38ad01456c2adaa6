// File: lakegc/hudi/metadata_codec.hpp
// -----------------------------------------------------------------------------
// Decoders from the bytes of a Hudi timeline file to the structs of
// lakegc/hudi/metadata.hpp.
//
// Encodings (docs/hudi-formats.md, "Instant files"): layout-1 (table version <= 6) commit,
// deltacommit and replacecommit files and their in-flight files are JSON;
// every other timeline file, and from table version 8 on every file, is an
// Avro object container. Empty (0-byte) files are common for requested and
// in-flight instants.
//
// JSON is parsed with simdjson's DOM API. A layout-1 timeline can hold tens
// of thousands of commit files and a decoder needs only a handful of fields
// from each (most of a file is the table schema string and counters), so
// parse speed dominates; simdjson also reports every syntax error as an
// error code rather than an exception.
//
// Every decoder reads fields by name, ignores unknown ones and treats a
// missing field as null, so files from any Hudi version decode. It never
// guesses: a field of the wrong type, a required field that is null, a
// truncated or damaged file, or a record of another type is an error whose
// message names the file and what was expected, e.g.
//   "20240418172802262.commit: expected JSON commit metadata: TAPE_ERROR: ..."
// Codes: InvalidArgument for bytes that are not the expected kind of file or
// hold the wrong shape; DataLoss for a truncated or damaged file.
#pragma once

#include <fmt/format.h>
#include <simdjson.h>

#include <array>
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/avro/datum.hpp"
#include "lakegc/hudi/avro/read.hpp"
#include "lakegc/hudi/metadata.hpp"

namespace lakegc::hudi {

/// How a timeline file's bytes are encoded.
enum class encoding {
  empty,    ///< 0 bytes
  json,     ///< first non-whitespace byte is '{'
  avro,     ///< starts with the object container magic "Obj\x01"
  unknown,  ///< anything else: every decoder rejects it
};

/// Tells the encoding from the first bytes (docs/hudi-formats.md, "Instant files").
inline encoding detect_encoding(std::string_view bytes) noexcept {
  if (bytes.empty()) return encoding::empty;
  if (avro::is_object_container(bytes)) return encoding::avro;
  for (const char c : bytes) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    return c == '{' ? encoding::json : encoding::unknown;
  }
  return encoding::unknown;
}

namespace detail {

/// A JSON value seen through the same interface as avro::datum, so that one
/// decoder template reads commit metadata from either encoding. A default
/// json_node is an absent field, which reads as null.
class json_node {
 public:
  json_node() = default;
  explicit json_node(simdjson::dom::element e) : e_(e), present_(true) {}

  bool is_present() const { return present_; }
  bool is_null() const { return !present_ || e_.is_null(); }
  bool is_record() const { return present_ && e_.is_object(); }
  bool is_map() const { return is_record(); }
  bool is_array() const { return present_ && e_.is_array(); }

  std::string_view kind_name() const {
    if (!present_) return "null";
    switch (e_.type()) {
      case simdjson::dom::element_type::ARRAY: return "array";
      case simdjson::dom::element_type::OBJECT: return "object";
      case simdjson::dom::element_type::INT64: return "integer";
      case simdjson::dom::element_type::UINT64: return "integer above 2^63-1";
      case simdjson::dom::element_type::DOUBLE: return "floating-point number";
      case simdjson::dom::element_type::STRING: return "string";
      case simdjson::dom::element_type::BOOL: return "boolean";
      case simdjson::dom::element_type::NULL_VALUE: return "null";
    }
    return "?";
  }

  std::optional<std::string_view> as_string() const {
    std::string_view s;
    if (!present_ || e_.get_string().get(s) != simdjson::SUCCESS) return std::nullopt;
    return s;
  }
  std::optional<std::int64_t> as_int() const {
    std::int64_t i = 0;
    if (!present_ || e_.get_int64().get(i) != simdjson::SUCCESS) return std::nullopt;
    return i;
  }
  std::optional<bool> as_bool() const {
    bool b = false;
    if (!present_ || e_.get_bool().get(b) != simdjson::SUCCESS) return std::nullopt;
    return b;
  }

  /// The member `name` of an object; absent when this is not an object or
  /// has no such member.
  json_node field(std::string_view name) const {
    simdjson::dom::object obj;
    if (!present_ || e_.get_object().get(obj) != simdjson::SUCCESS) return json_node();
    simdjson::dom::element v;
    if (obj.at_key(name).get(v) != simdjson::SUCCESS) return json_node();
    return json_node(v);
  }

  template <class F>
  bool for_each_entry(F&& f) const {
    simdjson::dom::object obj;
    if (!present_ || e_.get_object().get(obj) != simdjson::SUCCESS) return false;
    for (auto kv : obj) f(kv.key, json_node(kv.value));
    return true;
  }
  template <class F>
  bool for_each_element(F&& f) const {
    simdjson::dom::array arr;
    if (!present_ || e_.get_array().get(arr) != simdjson::SUCCESS) return false;
    for (auto v : arr) f(json_node(v));
    return true;
  }

 private:
  simdjson::dom::element e_;
  bool present_ = false;
};

/// One simdjson parser per thread: it keeps its buffers between calls, which
/// matters when a timeline of thousands of commit files is read.
inline simdjson::dom::parser& json_parser() {
  thread_local simdjson::dom::parser parser;
  return parser;
}

/// Where a value is in a document, for error messages: a text, or a parent
/// with an array index, a map key or a field name after it. It becomes text
/// only when an error names it: the decoders read every field of every write
/// stat of a timeline, and formatting a path for each one (whether or not an
/// error followed) was a fifth of hudi::journal::load's time. A where_path
/// refers to its parent and text; it lives only as long as the call it is
/// passed to.
class where_path {
 public:
  where_path(std::string_view text) noexcept : text_(text) {}    // NOLINT(google-explicit-constructor)
  where_path(const char* text) noexcept : text_(text) {}         // NOLINT(google-explicit-constructor)
  where_path(const std::string& text) noexcept : text_(text) {}  // NOLINT(google-explicit-constructor)

  /// `this[i]`, `this["key"]`, `this.name`.
  where_path at(std::size_t i) const noexcept { return where_path(this, step::index, {}, i); }
  where_path key(std::string_view k) const noexcept { return where_path(this, step::key, k, 0); }
  where_path field(std::string_view name) const noexcept { return where_path(this, step::field, name, 0); }

  std::string str() const {
    if (parent_ == nullptr) return std::string(text_);
    std::string s = parent_->str();
    switch (step_) {
      case step::index: fmt::format_to(std::back_inserter(s), "[{}]", index_); break;
      case step::key: fmt::format_to(std::back_inserter(s), "[\"{}\"]", text_); break;
      case step::field: fmt::format_to(std::back_inserter(s), ".{}", text_); break;
      case step::none: break;
    }
    return s;
  }

 private:
  enum class step : std::uint8_t { none, index, key, field };
  where_path(const where_path* parent, step st, std::string_view text, std::size_t index) noexcept
      : parent_(parent), step_(st), text_(text), index_(index) {}

  const where_path* parent_ = nullptr;
  step step_ = step::none;
  std::string_view text_;
  std::size_t index_ = 0;
};

[[nodiscard]] inline Status shape_error(const where_path& where, std::string_view expected, std::string_view found) {
  return absl::InvalidArgumentError(
      lakegc::detail::to_absl(fmt::format("{}: expected {}, found {}", where.str(), expected, found)));
}

/// Optional string: null or absent -> "". The view lives as long as the
/// parsed document (json_node) or the datum.
template <class Node>
[[nodiscard]] Status read_string_view(const Node& n, const where_path& where, std::string_view& out) {
  if (n.is_null()) {
    out = {};
    return Status();
  }
  const auto s = n.as_string();
  if (!s) return shape_error(where, "string", n.kind_name());
  out = *s;
  return Status();
}

/// Optional string: null or absent -> "".
template <class Node>
[[nodiscard]] Status read_string(const Node& n, const where_path& where, std::string& out) {
  std::string_view v;
  LAKEGC_RETURN_IF_ERROR(read_string_view(n, where, v));
  out.assign(v);
  return Status();
}

/// Required string: null or absent is an error.
template <class Node>
[[nodiscard]] Status read_required_string(const Node& n, const where_path& where, std::string& out) {
  if (n.is_null()) return shape_error(where, "string", "null or nothing");
  return read_string(n, where, out);
}

/// Optional int/long: null or absent -> `fallback`.
template <class Node>
[[nodiscard]] Status read_int(const Node& n, const where_path& where, std::int64_t& out, std::int64_t fallback) {
  if (n.is_null()) {
    out = fallback;
    return Status();
  }
  const auto i = n.as_int();
  if (!i) return shape_error(where, "integer", n.kind_name());
  out = *i;
  return Status();
}

/// Optional boolean: null or absent -> `fallback`.
template <class Node>
[[nodiscard]] Status read_bool(const Node& n, const where_path& where, bool& out, bool fallback) {
  if (n.is_null()) {
    out = fallback;
    return Status();
  }
  const auto b = n.as_bool();
  if (!b) return shape_error(where, "boolean", n.kind_name());
  out = *b;
  return Status();
}

/// Calls f(index, element) for each element of an array; null or absent is
/// an empty array. Stops at the first error f returns.
template <class Node, class F>
[[nodiscard]] Status each_element(const Node& n, const where_path& where, F&& f) {
  if (n.is_null()) return Status();
  Status st;
  std::size_t i = 0;
  const bool is_array = n.for_each_element([&](const auto& e) {
    if (st.ok()) st = f(i, e);
    ++i;
  });
  if (!is_array) return shape_error(where, "array", n.kind_name());
  return st;
}

/// Calls f(key, value) for each entry of a map (Avro) or object (JSON); null
/// or absent is an empty map. Stops at the first error f returns.
template <class Node, class F>
[[nodiscard]] Status each_entry(const Node& n, const where_path& where, F&& f) {
  if (n.is_null()) return Status();
  Status st;
  const bool is_map = n.for_each_entry([&](std::string_view k, const auto& v) {
    if (st.ok()) st = f(k, v);
  });
  if (!is_map) return shape_error(where, "map", n.kind_name());
  return st;
}

/// Array of strings, as views that live as long as the parsed document or
/// datum; null or absent -> empty. Null elements are errors.
template <class Node>
[[nodiscard]] Status read_string_view_list(const Node& n, const where_path& where, std::vector<std::string_view>& out) {
  out.clear();
  return each_element(n, where, [&](std::size_t i, const auto& e) -> Status {
    const auto s = e.as_string();
    if (!s) return shape_error(where.at(i), "string", e.kind_name());
    out.push_back(*s);
    return Status();
  });
}

/// Array of strings; null or absent -> empty. Null elements are errors.
template <class Node>
[[nodiscard]] Status read_string_list(const Node& n, const where_path& where, std::vector<std::string>& out) {
  std::vector<std::string_view> views;
  LAKEGC_RETURN_IF_ERROR(read_string_view_list(n, where, views));
  out.assign(views.begin(), views.end());
  return Status();
}

/// map<string, array<string>>; null or absent -> empty. A repeated key keeps
/// the last value, as Hudi's readers (Jackson, Avro Java) do.
template <class Node>
[[nodiscard]] Status read_string_list_map(const Node& n, const where_path& where,
                                          std::map<std::string, std::vector<std::string>>& out) {
  out.clear();
  return each_entry(n, where, [&](std::string_view key, const auto& v) -> Status {
    std::vector<std::string> list;
    LAKEGC_RETURN_IF_ERROR(read_string_list(v, where.key(key), list));
    out.insert_or_assign(std::string(key), std::move(list));
    return Status();
  });
}

/// map<string, string>; null or absent -> empty.
template <class Node>
[[nodiscard]] Status read_string_map(const Node& n, const where_path& where, std::map<std::string, std::string>& out) {
  out.clear();
  return each_entry(n, where, [&](std::string_view key, const auto& v) -> Status {
    std::string s;
    LAKEGC_RETURN_IF_ERROR(read_string(v, where.key(key), s));
    out.insert_or_assign(std::string(key), std::move(s));
    return Status();
  });
}

/// The last component of a path or URI ("file:/a/b/c.parquet" -> "c.parquet").
inline std::string file_name_of(std::string_view path) {
  const auto slash = path.find_last_of('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

/// How a decoder holds on to a node it comes back to: a json_node is a small
/// handle into the parsed document and is copied; an avro::datum owns its
/// children and is pointed to.
inline json_node keep(const json_node& n) noexcept { return n; }
inline const avro::datum* keep(const avro::datum& n) noexcept { return &n; }
inline const json_node& node_of(const json_node& n) noexcept { return n; }
inline const avro::datum& node_of(const avro::datum* n) noexcept { return *n; }

/// The members `names` of a JSON object, found in one pass over its members
/// (one at_key per name scanned the object once each: a write stat has some
/// 25 members and the journal reads six). Of a repeated member the first
/// counts, as with at_key.
template <std::size_t N>
std::array<json_node, N> fields_of(const json_node& n, const std::array<std::string_view, N>& names) {
  std::array<json_node, N> out{};
  n.for_each_entry([&](std::string_view key, const json_node& v) {
    for (std::size_t i = 0; i < N; ++i) {
      // A write stat has some 25 keys, of which a few are wanted, and many
      // share a length with a wanted one (numDeletes, prevCommit): the first
      // byte turns those away before a call to memcmp (a tenth of loading
      // a timeline compared keys, bench/README.md).
      if (key.size() != names[i].size() || key[0] != names[i][0] || key != names[i]) continue;
      if (!out[i].is_present()) out[i] = v;
      break;
    }
  });
  return out;
}

/// The fields `names` of an Avro record (absent ones read as null).
template <std::size_t N>
std::array<const avro::datum*, N> fields_of(const avro::datum& n, const std::array<std::string_view, N>& names) {
  std::array<const avro::datum*, N> out{};
  for (std::size_t i = 0; i < N; ++i) out[i] = &n.field(names[i]);
  return out;
}

/// One write stat as decoded, before anything is copied out of the document:
/// the views live as long as the parsed document or datum, and `log_files`
/// until the next stat is read.
struct write_stat_view {
  std::string_view file_id;
  std::string_view path;
  std::string_view prev_commit;  ///< "" for a new file group (Hudi writes the string "null")
  std::string_view base_file;
  std::uint64_t file_size_bytes = 0;
  std::span<const std::string_view> log_files;
};

/// Reads and checks the fields of one HoodieWriteStat that lakegc uses;
/// `log_files` is the buffer `out.log_files` points into.
template <class Node>
[[nodiscard]] Status read_write_stat(const Node& s, const where_path& w, write_stat_view& out,
                                     std::vector<std::string_view>& log_files) {
  if (!s.is_record()) return shape_error(w, "write stat object", s.kind_name());
  enum : std::size_t { file_id, path, prev_commit, size, base_file, logs };
  static constexpr std::array<std::string_view, 6> kNames = {"fileId",          "path",     "prevCommit",
                                                             "fileSizeInBytes", "baseFile", "logFiles"};
  const auto f = fields_of(s, kNames);
  LAKEGC_RETURN_IF_ERROR(read_string_view(node_of(f[file_id]), w.field(kNames[file_id]), out.file_id));
  LAKEGC_RETURN_IF_ERROR(read_string_view(node_of(f[path]), w.field(kNames[path]), out.path));
  LAKEGC_RETURN_IF_ERROR(read_string_view(node_of(f[prev_commit]), w.field(kNames[prev_commit]), out.prev_commit));
  // Hudi writes the string "null" for a file group's first write.
  if (out.prev_commit == "null") out.prev_commit = {};
  std::int64_t bytes = 0;
  LAKEGC_RETURN_IF_ERROR(read_int(node_of(f[size]), w.field(kNames[size]), bytes, 0));
  if (bytes < 0) return shape_error(w.field(kNames[size]), "a size >= 0", fmt::format("{}", bytes));
  out.file_size_bytes = static_cast<std::uint64_t>(bytes);
  LAKEGC_RETURN_IF_ERROR(read_string_view(node_of(f[base_file]), w.field(kNames[base_file]), out.base_file));
  LAKEGC_RETURN_IF_ERROR(read_string_view_list(node_of(f[logs]), w.field(kNames[logs]), log_files));
  out.log_files = log_files;
  return Status();
}

/// HoodieCommitMetadata / HoodieReplaceCommitMetadata from either encoding
/// (the JSON field names are the Avro ones, docs/hudi-formats.md, "Instant
/// files"): every field but the write stats into `out`, and each write stat
/// to `on_stat(partition, write_stat_view)`, in partition-key order, so that
/// a caller keeps only what it needs (the journal keeps a file name and a
/// size of some 25 members). Every stat is checked, including those of a
/// repeated partition key, of which only the last is reported, as Hudi's
/// readers (Jackson, Avro Java) keep the last value.
template <class Node, class OnStat>
[[nodiscard]] Status decode_commit_node(const Node& root, CommitMetadata& out, OnStat&& on_stat) {
  if (!root.is_record()) return shape_error("top level", "object", root.kind_name());
  using kept = decltype(keep(root));
  std::vector<std::pair<std::string_view, kept>> partitions;
  LAKEGC_RETURN_IF_ERROR(each_entry(root.field("partitionToWriteStats"), "partitionToWriteStats",
                                    [&](std::string_view partition, const auto& stats) -> Status {
                                      partitions.emplace_back(partition, keep(stats));
                                      return Status();
                                    }));
  const auto by_key = [](const auto& a, const auto& b) { return a.first < b.first; };
  // Jackson writes a HashMap: partition keys arrive in no particular order.
  if (!std::is_sorted(partitions.begin(), partitions.end(), by_key)) {
    std::stable_sort(partitions.begin(), partitions.end(), by_key);
  }
  const where_path top("partitionToWriteStats");
  std::vector<std::string_view> log_files;
  for (std::size_t p = 0; p < partitions.size(); ++p) {
    const auto& [partition, stats] = partitions[p];
    const bool superseded = p + 1 < partitions.size() && partitions[p + 1].first == partition;
    const where_path where = top.key(partition);
    LAKEGC_RETURN_IF_ERROR(each_element(node_of(stats), where, [&](std::size_t i, const auto& s) -> Status {
      write_stat_view ws;
      LAKEGC_RETURN_IF_ERROR(read_write_stat(s, where.at(i), ws, log_files));
      if (!superseded) on_stat(partition, ws);
      return Status();
    }));
  }
  LAKEGC_RETURN_IF_ERROR(read_string_list_map(root.field("partitionToReplaceFileIds"), "partitionToReplaceFileIds",
                                              out.partition_to_replace_file_ids));
  LAKEGC_RETURN_IF_ERROR(read_string(root.field("operationType"), "operationType", out.operation_type));
  LAKEGC_RETURN_IF_ERROR(read_bool(root.field("compacted"), "compacted", out.compacted, false));
  return Status();
}

/// A write stat copied out of the document.
inline WriteStat write_stat_of(std::string_view partition, const write_stat_view& v) {
  return WriteStat{std::string(partition),
                   std::string(v.file_id),
                   std::string(v.path),
                   v.file_size_bytes,
                   std::string(v.prev_commit),
                   std::string(v.base_file),
                   std::vector<std::string>(v.log_files.begin(), v.log_files.end())};
}

/// The whole of a commit's metadata, write stats flattened in partition-key
/// order then file order.
template <class Node>
[[nodiscard]] Status decode_commit_node(const Node& root, CommitMetadata& out) {
  return decode_commit_node(root, out, [&](std::string_view partition, const write_stat_view& v) {
    out.write_stats.push_back(write_stat_of(partition, v));
  });
}

/// The short name of a record's schema ("org.apache.hudi.avro.model.X" -> "X").
inline std::string_view short_name(std::string_view full_name) {
  const auto dot = full_name.find_last_of('.');
  return dot == std::string_view::npos ? full_name : full_name.substr(dot + 1);
}

/// Reads the first record of an Avro timeline file and checks that its
/// schema is one of `record_names`. Errors are prefixed with
/// "<file>: expected Avro <record_names[0]>".
[[nodiscard]] inline StatusOr<avro::datum> read_avro_record(std::string_view bytes, std::string_view file,
                                                            std::initializer_list<std::string_view> record_names) {
  const std::string context = fmt::format("{}: expected Avro {}", file, *record_names.begin());
  switch (detect_encoding(bytes)) {
    case encoding::empty:
      return absl::DataLossError(lakegc::detail::to_absl(fmt::format("{}: the file is empty", context)));
    case encoding::json:
      return absl::InvalidArgumentError(lakegc::detail::to_absl(fmt::format("{}: found JSON", context)));
    case encoding::unknown:
      return absl::InvalidArgumentError(
          lakegc::detail::to_absl(fmt::format("{}: not an Avro object container (no Obj\\x01 magic)", context)));
    case encoding::avro: break;
  }
  auto c = avro::decode_container(bytes);
  if (!c.ok()) return annotate(c.status(), context);
  if (c->records.empty()) {
    return absl::DataLossError(lakegc::detail::to_absl(fmt::format("{}: the container holds no record", context)));
  }
  avro::datum& d = c->records.front();
  if (!d.is_record()) return annotate(shape_error("top level", "record", d.kind_name()), context);
  const std::string_view name = short_name(d.type_name());
  for (const auto expected : record_names) {
    if (name == expected) return std::move(d);
  }
  return annotate(shape_error("top level", "that record", fmt::format("record {}", d.type_name())), context);
}

/// Adds "<file>: expected Avro <what>" to a shape error from a decoder.
template <class T>
[[nodiscard]] StatusOr<T> with_context(Status st, T value, std::string_view file, std::string_view what) {
  if (!st.ok()) return annotate(st, fmt::format("{}: expected {}", file, what));
  return value;
}

}  // namespace detail

/// Commit metadata of a commit, deltacommit or replacecommit file, completed
/// or in flight: JSON (layout 1) or Avro HoodieCommitMetadata /
/// HoodieReplaceCommitMetadata (layout 2). An empty file, and "{}", decode to
/// empty metadata, as in Hudi. Every field but the write stats goes into
/// `out`; each write stat goes to `on_stat(partition, detail::write_stat_view)`
/// (see detail::decode_commit_node), whose views live only during the call.
template <class OnStat>
[[nodiscard]] Status decode_commit_metadata_into(std::string_view bytes, std::string_view file_name_for_errors,
                                                 CommitMetadata& out, OnStat&& on_stat) {
  switch (detect_encoding(bytes)) {
    case encoding::empty: return Status();
    case encoding::unknown:
      return absl::InvalidArgumentError(lakegc::detail::to_absl(
          fmt::format("{}: expected commit metadata (JSON or Avro): the file starts with neither '{{' nor Obj\\x01",
                      file_name_for_errors)));
    case encoding::json: {
      simdjson::dom::element root;
      const auto err = detail::json_parser().parse(bytes.data(), bytes.size()).get(root);
      if (err != simdjson::SUCCESS) {
        // A truncated file fails here too; simdjson cannot tell it from garbage.
        return absl::DataLossError(lakegc::detail::to_absl(
            fmt::format("{}: expected JSON commit metadata: {}", file_name_for_errors, simdjson::error_message(err))));
      }
      const Status st = detail::decode_commit_node(detail::json_node(root), out, on_stat);
      if (!st.ok()) return annotate(st, fmt::format("{}: expected JSON commit metadata", file_name_for_errors));
      return st;
    }
    case encoding::avro: {
      LAKEGC_ASSIGN_OR_RETURN(auto d,
                              detail::read_avro_record(bytes, file_name_for_errors,
                                                       {"HoodieCommitMetadata", "HoodieReplaceCommitMetadata"}));
      const Status st = detail::decode_commit_node(d, out, on_stat);
      if (!st.ok()) return annotate(st, fmt::format("{}: expected Avro HoodieCommitMetadata", file_name_for_errors));
      return st;
    }
  }
  return Status();
}

/// The whole of a commit's metadata (see decode_commit_metadata_into).
[[nodiscard]] inline StatusOr<CommitMetadata> decode_commit_metadata(std::string_view bytes,
                                                                     std::string_view file_name_for_errors) {
  CommitMetadata out;
  LAKEGC_RETURN_IF_ERROR(decode_commit_metadata_into(bytes, file_name_for_errors, out,
                                                     [&](std::string_view partition, const detail::write_stat_view& v) {
                                                       out.write_stats.push_back(detail::write_stat_of(partition, v));
                                                     }));
  return out;
}

/// HoodieCompactionPlan (`.compaction.requested`, `.logcompaction.requested`).
/// File paths are reduced to file names: Hudi writes bare names or absolute
/// URIs depending on the version.
[[nodiscard]] inline StatusOr<CompactionPlan> decode_compaction_plan(std::string_view bytes,
                                                                     std::string_view file_name_for_errors) {
  LAKEGC_ASSIGN_OR_RETURN(auto d, detail::read_avro_record(bytes, file_name_for_errors, {"HoodieCompactionPlan"}));
  CompactionPlan out;
  const Status st =
      detail::each_element(d.field("operations"), "operations", [&](std::size_t i, const avro::datum& op) -> Status {
        const std::string w = fmt::format("operations[{}]", i);
        if (!op.is_record()) return detail::shape_error(w, "record", op.kind_name());
        CompactionOperation o;
        LAKEGC_RETURN_IF_ERROR(detail::read_string(op.field("partitionPath"), w + ".partitionPath", o.partition_path));
        LAKEGC_RETURN_IF_ERROR(detail::read_required_string(op.field("fileId"), w + ".fileId", o.file_id));
        LAKEGC_RETURN_IF_ERROR(
            detail::read_required_string(op.field("baseInstantTime"), w + ".baseInstantTime", o.base_instant));
        std::string data_file;
        LAKEGC_RETURN_IF_ERROR(detail::read_string(op.field("dataFilePath"), w + ".dataFilePath", data_file));
        o.data_file_name = detail::file_name_of(data_file);
        std::vector<std::string> deltas;
        LAKEGC_RETURN_IF_ERROR(detail::read_string_list(op.field("deltaFilePaths"), w + ".deltaFilePaths", deltas));
        for (const auto& p : deltas) o.delta_file_names.push_back(detail::file_name_of(p));
        out.operations.push_back(std::move(o));
        return Status();
      });
  return detail::with_context(st, std::move(out), file_name_for_errors, "Avro HoodieCompactionPlan");
}

/// The input file groups of HoodieRequestedReplaceMetadata
/// (`.clustering.requested`, `.replacecommit.requested`). An empty file, or a
/// plan whose fields are all null (insert_overwrite writes one), is an empty
/// plan.
[[nodiscard]] inline StatusOr<ClusteringPlan> decode_clustering_plan(std::string_view bytes,
                                                                     std::string_view file_name_for_errors) {
  ClusteringPlan out;
  if (bytes.empty()) return out;
  LAKEGC_ASSIGN_OR_RETURN(auto d,
                          detail::read_avro_record(bytes, file_name_for_errors, {"HoodieRequestedReplaceMetadata"}));
  const auto& plan = d.field("clusteringPlan");
  Status st;
  if (!plan.is_null() && !plan.is_record()) {
    st = detail::shape_error("clusteringPlan", "record", plan.kind_name());
  } else {
    st = detail::each_element(
        plan.field("inputGroups"), "clusteringPlan.inputGroups",
        [&](std::size_t g, const avro::datum& group) -> Status {
          const std::string gw = fmt::format("clusteringPlan.inputGroups[{}]", g);
          if (!group.is_record()) return detail::shape_error(gw, "record", group.kind_name());
          return detail::each_element(
              group.field("slices"), gw + ".slices", [&](std::size_t i, const avro::datum& slice) -> Status {
                const std::string w = fmt::format("{}.slices[{}]", gw, i);
                if (!slice.is_record()) return detail::shape_error(w, "record", slice.kind_name());
                std::string partition, file_id;
                LAKEGC_RETURN_IF_ERROR(
                    detail::read_string(slice.field("partitionPath"), w + ".partitionPath", partition));
                LAKEGC_RETURN_IF_ERROR(detail::read_required_string(slice.field("fileId"), w + ".fileId", file_id));
                out.input_file_groups.emplace_back(std::move(partition), std::move(file_id));
                return Status();
              });
        });
  }
  return detail::with_context(st, std::move(out), file_name_for_errors, "Avro HoodieRequestedReplaceMetadata");
}

/// HoodieSavepointMetadata (`.savepoint`). Savepointed files are reduced to
/// file names.
[[nodiscard]] inline StatusOr<SavepointMetadata> decode_savepoint_metadata(std::string_view bytes,
                                                                           std::string_view file_name_for_errors) {
  LAKEGC_ASSIGN_OR_RETURN(auto d, detail::read_avro_record(bytes, file_name_for_errors, {"HoodieSavepointMetadata"}));
  SavepointMetadata out;
  Status st = [&]() -> Status {
    LAKEGC_RETURN_IF_ERROR(detail::read_string(d.field("savepointedBy"), "savepointedBy", out.savepointed_by));
    LAKEGC_RETURN_IF_ERROR(detail::read_string(d.field("comments"), "comments", out.comments));
    LAKEGC_RETURN_IF_ERROR(detail::read_int(d.field("savepointedAt"), "savepointedAt", out.savepointed_at, 0));
    return detail::each_entry(d.field("partitionMetadata"), "partitionMetadata",
                              [&](std::string_view partition, const avro::datum& pm) -> Status {
                                const std::string w = fmt::format("partitionMetadata[\"{}\"]", partition);
                                if (!pm.is_record()) return detail::shape_error(w, "record", pm.kind_name());
                                std::vector<std::string> files;
                                LAKEGC_RETURN_IF_ERROR(detail::read_string_list(pm.field("savepointDataFile"),
                                                                                w + ".savepointDataFile", files));
                                for (auto& f : files) f = detail::file_name_of(f);
                                out.partition_files.insert_or_assign(std::string(partition), std::move(files));
                                return Status();
                              });
  }();
  return detail::with_context(st, std::move(out), file_name_for_errors, "Avro HoodieSavepointMetadata");
}

/// HoodieCleanerPlan (`.clean.requested`, `.clean.inflight`). Version 1 plans
/// list file names in filesToBeDeletedPerPartition; version 2 plans list
/// {filePath, isBootstrapBaseFile} in filePathsToBeDeletedPerPartition. Both
/// land in file_paths_to_delete_per_partition as written; `version` tells
/// which. A missing or null version is 1, the schema's default.
[[nodiscard]] inline StatusOr<CleanerPlan> decode_cleaner_plan(std::string_view bytes,
                                                               std::string_view file_name_for_errors) {
  LAKEGC_ASSIGN_OR_RETURN(auto d, detail::read_avro_record(bytes, file_name_for_errors, {"HoodieCleanerPlan"}));
  CleanerPlan out;
  Status st = [&]() -> Status {
    const auto& ectr = d.field("earliestInstantToRetain");
    if (!ectr.is_null()) {
      if (!ectr.is_record()) return detail::shape_error("earliestInstantToRetain", "record", ectr.kind_name());
      std::string ts;
      LAKEGC_RETURN_IF_ERROR(
          detail::read_required_string(ectr.field("timestamp"), "earliestInstantToRetain.timestamp", ts));
      out.earliest_instant_to_retain = std::move(ts);
      LAKEGC_RETURN_IF_ERROR(detail::read_string(ectr.field("action"), "earliestInstantToRetain.action",
                                                 out.earliest_instant_to_retain_action));
      LAKEGC_RETURN_IF_ERROR(detail::read_string(ectr.field("state"), "earliestInstantToRetain.state",
                                                 out.earliest_instant_to_retain_state));
    }
    LAKEGC_RETURN_IF_ERROR(detail::read_string(d.field("lastCompletedCommitTimestamp"), "lastCompletedCommitTimestamp",
                                               out.last_completed_commit_timestamp));
    LAKEGC_RETURN_IF_ERROR(detail::read_required_string(d.field("policy"), "policy", out.policy));
    std::int64_t version = 1;
    LAKEGC_RETURN_IF_ERROR(detail::read_int(d.field("version"), "version", version, 1));
    if (version < 1 || version > 2) return detail::shape_error("version", "1 or 2", fmt::format("{}", version));
    out.version = static_cast<int>(version);
    if (out.version == 1) {
      LAKEGC_RETURN_IF_ERROR(detail::read_string_list_map(d.field("filesToBeDeletedPerPartition"),
                                                          "filesToBeDeletedPerPartition",
                                                          out.file_paths_to_delete_per_partition));
    } else {
      LAKEGC_RETURN_IF_ERROR(detail::each_entry(
          d.field("filePathsToBeDeletedPerPartition"), "filePathsToBeDeletedPerPartition",
          [&](std::string_view partition, const avro::datum& infos) -> Status {
            const std::string w = fmt::format("filePathsToBeDeletedPerPartition[\"{}\"]", partition);
            std::vector<std::string> paths;
            LAKEGC_RETURN_IF_ERROR(
                detail::each_element(infos, w, [&](std::size_t i, const avro::datum& info) -> Status {
                  const std::string iw = fmt::format("{}[{}]", w, i);
                  if (!info.is_record()) return detail::shape_error(iw, "HoodieCleanFileInfo record", info.kind_name());
                  std::string path;
                  LAKEGC_RETURN_IF_ERROR(detail::read_required_string(info.field("filePath"), iw + ".filePath", path));
                  paths.push_back(std::move(path));
                  return Status();
                }));
            out.file_paths_to_delete_per_partition.insert_or_assign(std::string(partition), std::move(paths));
            return Status();
          }));
    }
    LAKEGC_RETURN_IF_ERROR(detail::read_string_list(d.field("partitionsToBeDeleted"), "partitionsToBeDeleted",
                                                    out.partitions_to_be_deleted));
    return detail::read_string_map(d.field("extraMetadata"), "extraMetadata", out.extra_metadata);
  }();
  return detail::with_context(st, std::move(out), file_name_for_errors, "Avro HoodieCleanerPlan");
}

/// HoodieCleanMetadata (completed `.clean`). bootstrapPartitionMetadata is
/// not read.
[[nodiscard]] inline StatusOr<CleanMetadata> decode_clean_metadata(std::string_view bytes,
                                                                   std::string_view file_name_for_errors) {
  LAKEGC_ASSIGN_OR_RETURN(auto d, detail::read_avro_record(bytes, file_name_for_errors, {"HoodieCleanMetadata"}));
  CleanMetadata out;
  Status st = [&]() -> Status {
    LAKEGC_RETURN_IF_ERROR(
        detail::read_required_string(d.field("startCleanTime"), "startCleanTime", out.start_clean_time));
    LAKEGC_RETURN_IF_ERROR(detail::read_int(d.field("timeTakenInMillis"), "timeTakenInMillis", out.time_taken_ms, -1));
    LAKEGC_RETURN_IF_ERROR(
        detail::read_int(d.field("totalFilesDeleted"), "totalFilesDeleted", out.total_files_deleted, 0));
    LAKEGC_RETURN_IF_ERROR(detail::read_string(d.field("earliestCommitToRetain"), "earliestCommitToRetain",
                                               out.earliest_commit_to_retain));
    LAKEGC_RETURN_IF_ERROR(detail::read_string(d.field("lastCompletedCommitTimestamp"), "lastCompletedCommitTimestamp",
                                               out.last_completed_commit_timestamp));
    std::int64_t version = 1;
    LAKEGC_RETURN_IF_ERROR(detail::read_int(d.field("version"), "version", version, 1));
    if (version < 1 || version > 2) return detail::shape_error("version", "1 or 2", fmt::format("{}", version));
    out.version = static_cast<int>(version);
    LAKEGC_RETURN_IF_ERROR(detail::each_entry(
        d.field("partitionMetadata"), "partitionMetadata",
        [&](std::string_view partition, const avro::datum& pm) -> Status {
          const std::string w = fmt::format("partitionMetadata[\"{}\"]", partition);
          if (!pm.is_record()) return detail::shape_error(w, "HoodieCleanPartitionMetadata record", pm.kind_name());
          CleanPartitionMetadata p;
          LAKEGC_RETURN_IF_ERROR(
              detail::read_string(pm.field("partitionPath"), w + ".partitionPath", p.partition_path));
          LAKEGC_RETURN_IF_ERROR(detail::read_string(pm.field("policy"), w + ".policy", p.policy));
          LAKEGC_RETURN_IF_ERROR(detail::read_string_list(pm.field("deletePathPatterns"), w + ".deletePathPatterns",
                                                          p.delete_path_patterns));
          LAKEGC_RETURN_IF_ERROR(detail::read_string_list(pm.field("successDeleteFiles"), w + ".successDeleteFiles",
                                                          p.success_delete_files));
          LAKEGC_RETURN_IF_ERROR(
              detail::read_string_list(pm.field("failedDeleteFiles"), w + ".failedDeleteFiles", p.failed_delete_files));
          LAKEGC_RETURN_IF_ERROR(detail::read_bool(pm.field("isPartitionDeleted"), w + ".isPartitionDeleted",
                                                   p.is_partition_deleted, false));
          out.partition_metadata.insert_or_assign(std::string(partition), std::move(p));
          return Status();
        }));
    return detail::read_string_map(d.field("extraMetadata"), "extraMetadata", out.extra_metadata);
  }();
  return detail::with_context(st, std::move(out), file_name_for_errors, "Avro HoodieCleanMetadata");
}

}  // namespace lakegc::hudi
