// The metadata table's index keys and columns (metadata_table/index_keys.hpp,
// columns_to_index.hpp, index_definitions.hpp): keys against the keys Hudi
// 1.2.0 itself wrote for a clean and a TTL run (the delete blocks of a table
// the interop harness generated: `generate --seed 4 --table-version 9 --type
// COW --mdt on --mdt-indexes bloom`, then `clean-run` / `ttl-run`), Java's String.hashCode and the
// file-group choice, and Hudi's rule for the columns column_stats indexes.
#include "lakegc/hudi/metadata_table/columns_to_index.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "lakegc/hudi/metadata_table/index_definitions.hpp"
#include "lakegc/hudi/metadata_table/index_keys.hpp"
#include "test_util.hpp"

namespace lakegc::tests::metadata_index_keys_test {

using namespace lakegc;
using namespace lakegc::hudi::metadata_table;
using namespace lakegc::hudi::testing;

namespace {

const std::string kFile = "367d15ae-6289-4c94-9b73-a05ab7d932f8-0_0-153-306_20261204175018771.parquet";

std::vector<std::string> columns(std::string_view schema, const column_stats_settings& settings = {},
                                 index_version v = index_version::v2, bool meta = true) {
  column_stats_table t;
  t.schema = std::string(schema);
  t.version = v;
  t.populate_meta_fields = meta;
  auto c = columns_to_index(t, settings);
  REQUIRE_MESSAGE(c.ok(), to_string(c.status()));
  return *c;
}

constexpr std::string_view kMeta =
    R"({"name":"_hoodie_commit_time","type":["null","string"]},{"name":"_hoodie_commit_seqno","type":["null","string"]},)"
    R"({"name":"_hoodie_record_key","type":["null","string"]},{"name":"_hoodie_partition_path","type":["null","string"]},)"
    R"({"name":"_hoodie_file_name","type":["null","string"]},)";

}  // namespace

TEST_CASE("column_stats and bloom_filters keys are the ones Hudi 1.2.0 wrote") {
  // Hudi's delete blocks held these keys for this file of partition part=p0,
  // in these file groups (column_stats has 2, bloom_filters 4).
  CHECK(bloom_filter_key("part=p0", kFile) == "FeZ7A40W2RY=3DSpNRsxxawPo7NhjwMgVQ==");
  CHECK(file_group_index_of(bloom_filter_key("part=p0", kFile), 4) == 3);
  const std::vector<std::tuple<std::string, std::string, std::size_t>> stats = {
      {"_hoodie_commit_time", "JBBzUToHtLc=", 1},
      {"_hoodie_record_key", "uSJGdDiVr/k=", 0},
      {"_hoodie_partition_path", "qeAH/5q1L8c=", 0},
      {"key", "RB8fsUxq8FE=", 0},
      {"part", "+WGrmgkN3io=", 1},
      {"region", "KYuVooVbzP4=", 1},
      {"day", "aWG7uPP62uI=", 1},
      {"ts", "oyTjviKHuhI=", 0},
      {"val", "QjknHjLew3k=", 0},
      {"n", "kCJPBMGf8RM=", 1}};
  for (const auto& [column, id, group] : stats) {
    CAPTURE(column);
    const std::string key = column_stats_key("part=p0", kFile, column);
    CHECK(key == id + "FeZ7A40W2RY=3DSpNRsxxawPo7NhjwMgVQ==");
    CHECK(file_group_index_of(key, 2) == group);
  }
  // partition_stats (the delete block of Hudi's TTL run on the same table,
  // `ttl-run`): column id then partition id.
  CHECK(partition_stats_key("part=p0", "key") == "RB8fsUxq8FE=FeZ7A40W2RY=");
  // The root partition is ".", as for the files partition's keys.
  CHECK(bloom_filter_key("", kFile) == bloom_filter_key(".", kFile));
  CHECK(bloom_filter_key("", kFile) != bloom_filter_key("part=p0", kFile));
}

TEST_CASE("Java's String.hashCode, and the file group of a key") {
  CHECK(java_string_hash("") == 0);
  CHECK(java_string_hash("hello") == 99162322);
  CHECK(java_string_hash("\xc3\xa9") == 233);                  // U+00E9: one UTF-16 unit
  CHECK(java_string_hash("\xf0\x9f\x98\x80") == 1772899);      // U+1F600: a surrogate pair
  CHECK(java_string_hash("polygenelubricants") == INT32_MIN);  // Math.abs keeps it negative
  // Math.abs(Math.abs(h) % n): MIN_VALUE % 3 is -2 in Java, so group 2.
  CHECK(file_group_index_of("polygenelubricants", 3) == 2);
  CHECK(file_group_index_of("anything", 1) == 0);
  for (std::size_t n : {2u, 4u, 7u}) CHECK(file_group_index_of("hello", n) == 99162322 % n);
}

TEST_CASE("the columns column_stats indexes, by Hudi's rule") {
  const std::string schema = fmt::format(
      R"({{"type":"record","name":"r","fields":[{}{{"name":"key","type":"string"}},)"
      R"({{"name":"rec","type":{{"type":"record","name":"inner","fields":[{{"name":"x","type":"int"}}]}}}},)"
      R"({{"name":"tags","type":{{"type":"array","items":"string"}}}},{{"name":"m","type":{{"type":"map","values":"long"}}}},)"
      R"({{"name":"kind","type":{{"type":"enum","name":"k","symbols":["a"]}}}},)"
      R"({{"name":"raw","type":["null","bytes"]}},)"
      R"({{"name":"amount","type":{{"type":"bytes","logicalType":"decimal","precision":10,"scale":2}}}},)"
      R"({{"name":"wide","type":{{"type":"bytes","logicalType":"decimal","precision":30,"scale":10}}}},)"
      R"({{"name":"day","type":{{"type":"int","logicalType":"date"}}}},)"
      R"({{"name":"again","type":"inner"}},{{"name":"ts","type":"long"}}]}})",
      kMeta);
  SUBCASE("first N supported top-level columns after the meta columns, V2") {
    CHECK(columns(schema) == std::vector<std::string>{"_hoodie_commit_time", "_hoodie_record_key",
                                                      "_hoodie_partition_path", "key", "raw", "amount", "wide", "day",
                                                      "ts"});
  }
  SUBCASE("V1 refuses wide decimals") {
    CHECK(columns(schema, {}, index_version::v1) ==
          std::vector<std::string>{"_hoodie_commit_time", "_hoodie_record_key", "_hoodie_partition_path", "key", "raw",
                                   "amount", "day", "ts"});
  }
  SUBCASE("the max count counts supported non-meta columns only") {
    column_stats_settings s;
    s.max_columns = 2;
    CHECK(columns(schema, s) == std::vector<std::string>{"_hoodie_commit_time", "_hoodie_record_key",
                                                         "_hoodie_partition_path", "key", "raw"});
  }
  SUBCASE("without meta fields") {
    column_stats_settings s;
    s.max_columns = 1;
    CHECK(columns(schema, s, index_version::v2, false) == std::vector<std::string>{"key"});
  }
  SUBCASE("a column list: meta columns and unsupported or absent columns left out, nested names resolved") {
    column_stats_settings s;
    s.column_list = {"_hoodie_record_key", "ts", "tags", "nope", "rec.x", "day"};
    CHECK(columns(schema, s) == std::vector<std::string>{"_hoodie_commit_time", "_hoodie_record_key",
                                                         "_hoodie_partition_path", "ts", "rec.x", "day"});
    s.column_list = {"rec.nope"};
    column_stats_table t;
    t.schema = schema;
    t.version = index_version::v2;
    CHECK(absl::IsFailedPrecondition(columns_to_index(t, s).status()));
  }
  SUBCASE("an unknown record type refuses only when the answer depends on it") {
    column_stats_settings s;
    s.record_type_unknown = true;
    // V2 takes bytes either way.
    CHECK(columns(schema, s).size() == 9);
    column_stats_table t;
    t.schema = schema;
    t.version = index_version::v1;
    const Status st = columns_to_index(t, s).status();
    CHECK(absl::IsFailedPrecondition(st));
    CHECK(message_of(st).find("'raw'") != std::string_view::npos);
  }
  SUBCASE("partition columns dropped from the data are appended") {
    column_stats_table t;
    t.schema = schema;
    t.version = index_version::v2;
    t.appended_partition_columns = {"part", "key"};
    auto c = columns_to_index(t, {});
    REQUIRE(c.ok());
    CHECK(c->back() == "part");
    CHECK(std::count(c->begin(), c->end(), "key") == 1);
  }
  SUBCASE("a table without a schema yet: the meta columns") {
    CHECK(columns("") ==
          std::vector<std::string>{"_hoodie_commit_time", "_hoodie_record_key", "_hoodie_partition_path"});
  }
}

TEST_CASE("index definitions: the version and source fields of column_stats") {
  auto defs = parse_index_definitions(
      R"({"indexDefinitions":{"column_stats":{"indexName":"column_stats","indexType":"column_stats",)"
      R"("sourceFields":["a","b"],"indexOptions":{},"version":"V1"},"partition_stats":{"version":"V2"}}})",
      "index.json");
  REQUIRE_MESSAGE(defs.ok(), to_string(defs.status()));
  CHECK(defs->at("column_stats").source_fields == std::vector<std::string>{"a", "b"});
  CHECK(index_version_of(*defs, "column_stats", 9) == index_version::v1);
  CHECK(index_version_of(*defs, "partition_stats", 9) == index_version::v2);
  CHECK(index_version_of({}, "column_stats", 9) == index_version::v2);
  CHECK(index_version_of({}, "column_stats", 8) == index_version::v1);
  CHECK(index_version_of({}, "bloom_filters", 9) == index_version::v1);
  const auto bad = parse_index_definitions(R"({"indexDefinitions":{"x":{"version":"V3"}}})", "index.json");
  CHECK(absl::IsInvalidArgument(bad.status()));
  CHECK(message_of(bad.status()).find("index.json") != std::string_view::npos);
}

}  // namespace lakegc::tests::metadata_index_keys_test
