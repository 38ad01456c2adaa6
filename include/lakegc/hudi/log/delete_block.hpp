// File: lakegc/hudi/log/delete_block.hpp
// -----------------------------------------------------------------------------
// The content of a DELETE_BLOCK, as HoodieDeleteBlock.getContentBytes writes
// it:
//
//   int32 content version (3)
//   int32 length of what follows
//   content version 3: a HoodieDeleteRecordList in Avro binary, no container
//     and no schema (the reader uses the schema compiled into Hudi, below)
//
// Versions 1 and 2 (Hudi before 0.11) hold Java-serialized HoodieKey and
// DeleteRecord arrays, which only a JVM can read: Unimplemented.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/avro/datum.hpp"
#include "lakegc/hudi/avro/decode.hpp"
#include "lakegc/hudi/avro/encode.hpp"
#include "lakegc/hudi/avro/schema.hpp"
#include "lakegc/hudi/byte_cursor.hpp"
#include "lakegc/hudi/log/avro_data_block.hpp"
#include "lakegc/hudi/log/block.hpp"

namespace lakegc::hudi::log {

namespace schemas {

/// HoodieDeleteRecordList, from apache/hudi
/// hudi-common/src/main/avro/HoodieDeleteRecordList.avsc, with the value
/// wrappers of HoodieMetadata.avsc defined inline at their first use, as
/// Avro Java's Schema.toString() renders the compiled class's schema (docs
/// dropped). The orderingVal union has grown at its end only (ArrayWrapper
/// came with Hudi 1.1), so older blocks decode with it.
inline constexpr std::string_view delete_record_list =
    R"({"type":"record","name":"HoodieDeleteRecordList","namespace":"org.apache.hudi.avro.model","fields":[)"
    R"({"name":"deleteRecordList","type":{"type":"array","items":{"type":"record","name":"HoodieDeleteRecord",)"
    R"("fields":[{"name":"recordKey","type":["null","string"],"default":null},)"
    R"({"name":"partitionPath","type":["null","string"],"default":null},)"
    R"({"name":"orderingVal","type":["null",)"
    R"({"type":"record","name":"BooleanWrapper","fields":[{"name":"value","type":"boolean"}]},)"
    R"({"type":"record","name":"IntWrapper","fields":[{"name":"value","type":"int"}]},)"
    R"({"type":"record","name":"LongWrapper","fields":[{"name":"value","type":"long"}]},)"
    R"({"type":"record","name":"FloatWrapper","fields":[{"name":"value","type":"float"}]},)"
    R"({"type":"record","name":"DoubleWrapper","fields":[{"name":"value","type":"double"}]},)"
    R"({"type":"record","name":"BytesWrapper","fields":[{"name":"value","type":"bytes"}]},)"
    R"({"type":"record","name":"StringWrapper","fields":[{"name":"value","type":"string"}]},)"
    R"({"type":"record","name":"DateWrapper","fields":[{"name":"value","type":"int"}]},)"
    R"({"type":"record","name":"DecimalWrapper","fields":[{"name":"value","type":)"
    R"({"type":"bytes","logicalType":"decimal","precision":30,"scale":15}}]},)"
    R"({"type":"record","name":"TimeMicrosWrapper","fields":[{"name":"value","type":)"
    R"({"type":"long","logicalType":"time-micros"}}]},)"
    R"({"type":"record","name":"TimestampMicrosWrapper","fields":[{"name":"value","type":"long"}]},)"
    R"({"type":"record","name":"ArrayWrapper","fields":[{"name":"wrappedValues","type":["null",{"type":"array",)"
    R"("items":["null","BooleanWrapper","IntWrapper","LongWrapper","FloatWrapper","DoubleWrapper","BytesWrapper",)"
    R"("StringWrapper","DateWrapper","DecimalWrapper","TimeMicrosWrapper","TimestampMicrosWrapper",)"
    R"({"type":"record","name":"LocalDateWrapper","fields":[{"name":"value","type":"int"}]}]}],"default":null}]}],)"
    R"("default":null}]}}}]})";

}  // namespace schemas

/// One deleted record key (Hudi's DeleteRecord).
struct delete_record {
  std::optional<std::string> record_key;
  std::optional<std::string> partition_path;
  /// The ordering value: null, or a wrapper record such as
  /// `org.apache.hudi.avro.model.LongWrapper{value}`.
  avro::datum ordering_value;

  friend bool operator==(const delete_record&, const delete_record&) = default;
};

namespace detail {
inline std::optional<std::string> optional_string(const avro::datum& d) {
  if (auto s = d.as_string()) return std::string(*s);
  return std::nullopt;
}
}  // namespace detail

/// The records of a DELETE_BLOCK.
[[nodiscard]] inline StatusOr<std::vector<delete_record>> decode_delete_records(const log_block& b,
                                                                                std::string_view file_name_for_errors) {
  auto fail = [&](const Status& st) {
    return annotate(st, fmt::format("{}: DELETE_BLOCK at byte {}", file_name_for_errors, b.offset));
  };
  if (b.type != block_type::delete_keys) return fail(absl::InvalidArgumentError("not a delete block"));
  byte_cursor in(b.content, b.content_offset);
  std::int32_t version = 0;
  std::int32_t length = 0;
  if (const Status st = read_content_head(in, version, length, "data length"); !st.ok()) return fail(st);
  if (version == 1 || version == 2) {
    return fail(absl::UnimplementedError(fmt::format(
        "content version {} holds Java-serialized keys (Hudi before 0.11), which only a JVM reads", version)));
  }
  if (version != content_version) {
    return fail(absl::UnimplementedError(fmt::format("content version {} is not one Hudi writes", version)));
  }
  if (length < 0 || static_cast<std::size_t>(length) != in.remaining()) {
    return fail(
        in.error_here(fmt::format("data length {} does not match the {} bytes that follow", length, in.remaining())));
  }
  LAKEGC_ASSIGN_OR_RETURN(auto schema, avro::cached_schema(schemas::delete_record_list));
  auto list = avro::decode_single_value(*schema, in.rest(), in.offset());
  if (!list.ok()) return fail(list.status());
  std::vector<delete_record> out;
  list->field("deleteRecordList").for_each_element([&](const avro::datum& r) {
    out.push_back({detail::optional_string(r.field("recordKey")), detail::optional_string(r.field("partitionPath")),
                   r.field("orderingVal")});
  });
  return out;
}

/// A DELETE_BLOCK of `records` written by `instant_time`, as
/// HoodieAppendHandle writes one (INSTANT_TIME header; Hudi adds SCHEMA
/// too, which readers of delete blocks ignore), plus `extra_header`.
[[nodiscard]] inline StatusOr<log_block> make_delete_block(std::span<const delete_record> records,
                                                           std::string_view instant_time,
                                                           std::map<header_key, std::string> extra_header = {}) {
  LAKEGC_ASSIGN_OR_RETURN(auto schema, avro::cached_schema(schemas::delete_record_list));
  avro::datum list = avro::datum::make_array();
  for (const auto& r : records) {
    avro::datum d = avro::datum::make_record("org.apache.hudi.avro.model.HoodieDeleteRecord");
    if (r.record_key) d.add("recordKey", avro::datum::make_string(*r.record_key));
    if (r.partition_path) d.add("partitionPath", avro::datum::make_string(*r.partition_path));
    d.add("orderingVal", r.ordering_value);
    list.append(std::move(d));
  }
  avro::datum root = avro::datum::make_record("org.apache.hudi.avro.model.HoodieDeleteRecordList");
  root.add("deleteRecordList", std::move(list));
  LAKEGC_ASSIGN_OR_RETURN(std::string data, avro::encode(*schema, root));
  log_block b;
  b.type = block_type::delete_keys;
  b.header = std::move(extra_header);
  b.header[header_key::instant_time] = std::string(instant_time);
  put_be<std::int32_t>(b.content, content_version);
  put_be<std::int32_t>(b.content, static_cast<std::int32_t>(data.size()));
  b.content += data;
  return b;
}

}  // namespace lakegc::hudi::log
