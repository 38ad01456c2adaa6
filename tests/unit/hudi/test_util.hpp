// Helpers shared by the hudi unit tests: printing statuses in failures and
// building Avro object containers with arbitrary schemas and raw datum bytes.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <string>
#include <string_view>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/avro/binary.hpp"
#include "lakegc/hudi/avro/container.hpp"
#include "lakegc/hudi/avro_writer.hpp"

namespace lakegc::hudi::testing {

inline std::string to_string(const absl::Status& s) { return std::string(lakegc::message_of(s)); }

/// A file of the source tree read whole (REQUIRE that it exists).
inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  REQUIRE_MESSAGE(in, p.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// LSM timeline data files Hudi 1.2.0 wrote in the interop suite: one of
/// layer 0 (4 rows, dictionary pages), one compacted to layer 2 (44 rows).
inline const std::filesystem::path kLsmData = std::filesystem::path(LAKEGC_SOURCE_ROOT) / "tests/unit/hudi/data/lsm";
inline constexpr const char* kLsmLayer0 = "20261203065140290_20261203082443958_0.parquet";
inline constexpr const char* kLsmLayer2 = "20261203065140290_20261203185057327_2.parquet";

inline const absl::Status& status_of(const absl::Status& s) { return s; }
template <class T>
const absl::Status& status_of(const absl::StatusOr<T>& s) {
  return s.status();
}

/// REQUIRE that a Status or StatusOr is OK, printing the status when it is not.
#define HUDI_REQUIRE_OK(expr)                                                                                       \
  do {                                                                                                              \
    const auto& hudi_r_ = (expr);                                                                                   \
    REQUIRE_MESSAGE(hudi_r_.ok(), ::lakegc::hudi::testing::to_string(::lakegc::hudi::testing::status_of(hudi_r_))); \
  } while (false)

/// An Avro long, zig-zag varint encoded.
inline std::string enc_long(std::int64_t v) {
  std::string out;
  lakegc::hudi::avro::put_long(out, v);
  return out;
}

/// An Avro string (length + bytes).
inline std::string enc_string(std::string_view s) {
  return enc_long(static_cast<std::int64_t>(s.size())) + std::string(s);
}

inline const std::string& test_sync() {
  static const std::string s = "0123456789abcdef";
  return s;
}

/// The header of an object container with `schema_json`, codec `codec` and
/// the test sync marker.
inline std::string container_header(std::string_view schema_json, std::string_view codec = "null") {
  std::string out;
  lakegc::hudi::avro::put_container_header(out, schema_json, test_sync(), codec);
  return out;
}

/// One block of `count` objects whose encoded bytes are `data`.
inline std::string container_block(std::int64_t count, std::string_view data) {
  std::string out;
  lakegc::hudi::avro::put_container_block(out, count, data, test_sync());
  return out;
}

/// A HoodieCompactionPlan of `version` without operations (a
/// `.compaction.requested` file's content).
inline std::string compaction_plan(int version) {
  constexpr std::string_view schema =
      R"({"type":"record","name":"HoodieCompactionPlan","namespace":"org.apache.hudi.avro.model","fields":[)"
      R"({"name":"operations","type":["null",{"type":"array","items":"string"}],"default":null},)"
      R"({"name":"version","type":["int","null"],"default":1}]})";
  avro::datum plan = avro::datum::make_record("org.apache.hudi.avro.model.HoodieCompactionPlan");
  plan.add("operations", avro::datum());
  plan.add("version", avro::datum::make_int(version));
  return hudi::detail::encode_single_record(schema, plan).value();
}

}  // namespace lakegc::hudi::testing
