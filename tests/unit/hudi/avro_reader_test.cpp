// The generic Avro reader: every Avro type decodes into the datum tree,
// unions resolve to their branch, fields are found by name, and a field the
// writer's schema lacks reads as null (schema evolution).
#include "lakegc/hudi/avro_reader.hpp"

#include <doctest/doctest.h>

#include <string>

#include "lakegc/hudi/metadata_codec.hpp"
#include "test_util.hpp"

namespace lakegc::tests::avro_reader_test {

using namespace lakegc::hudi;
using lakegc::hudi::avro::datum;
using namespace lakegc::hudi::testing;

namespace {

constexpr std::string_view kAllTypes =
    R"({"type":"record","name":"All","namespace":"t.ns","fields":[)"
    R"({"name":"n","type":"null"},{"name":"b","type":"boolean"},{"name":"i","type":"int"},)"
    R"({"name":"l","type":"long"},{"name":"f","type":"float"},{"name":"d","type":"double"},)"
    R"({"name":"s","type":{"type":"string","avro.java.string":"String"}},{"name":"by","type":"bytes"},)"
    R"({"name":"fx","type":{"type":"fixed","name":"F4","size":4}},)"
    R"({"name":"e","type":{"type":"enum","name":"Color","symbols":["RED","GREEN"]}},)"
    R"({"name":"a","type":{"type":"array","items":"long"}},)"
    R"({"name":"m","type":{"type":"map","values":["null","string"]}},)"
    R"({"name":"u","type":["null","string","Color"]},)"
    R"({"name":"r","type":{"type":"record","name":"Inner","fields":[{"name":"x","type":"int"}]}}]})";

// The datum bytes of one All record, written by hand from the Avro spec.
std::string all_types_datum() {
  std::string d;
  d += '\x01';                                              // b = true
  d += enc_long(-3);                                        // i
  d += enc_long(1LL << 40);                                 // l
  d += std::string("\x00\x00\xc0\x3f", 4);                  // f = 1.5f
  d += std::string("\x00\x00\x00\x00\x00\x00\x04\xc0", 8);  // d = -2.5
  d += enc_string("héllo");
  d += enc_string(std::string("\x00\xff", 2));  // bytes
  d += "abcd";                                  // fixed(4)
  d += enc_long(1);                             // e = GREEN
  // a: one block of 2, then a negative-count block (count 1, with byte size), then end.
  d += enc_long(2) + enc_long(7) + enc_long(-8);
  d += enc_long(-1) + enc_long(1) + enc_long(9);
  d += enc_long(0);
  d += enc_long(2) + enc_string("k1") + enc_long(1) + enc_string("v1") + enc_string("k2") + enc_long(0);
  d += enc_long(0);
  d += enc_long(2) + enc_long(0);  // u = Color RED
  d += enc_long(42);               // r.x
  return d;
}

}  // namespace

TEST_CASE("every Avro type decodes") {
  const std::string file = container_header(kAllTypes) + container_block(1, all_types_datum());
  const auto c = avro::read_container(file, "all.avro");
  HUDI_REQUIRE_OK(c);
  REQUIRE(c->records.size() == 1);
  const datum& r = c->records[0];
  CHECK(r.type_name() == "t.ns.All");
  CHECK(r.field("n").is_null());
  CHECK(r.has_field("n"));
  CHECK(r.field("b").as_bool() == true);
  CHECK(r.field("i").as_int() == -3);
  CHECK(r.field("i").type() == datum::kind::int32);
  CHECK(r.field("l").as_int() == (1LL << 40));
  CHECK(r.field("f").as_double() == 1.5);
  CHECK(r.field("d").as_double() == -2.5);
  CHECK(r.field("s").as_string() == "héllo");
  CHECK(r.field("by").as_bytes() == std::string_view("\x00\xff", 2));
  CHECK(r.field("fx").as_bytes() == "abcd");
  CHECK(r.field("fx").type_name() == "t.ns.F4");
  CHECK(r.field("e").as_symbol() == "GREEN");
  CHECK(r.field("e").type_name() == "t.ns.Color");
  REQUIRE(r.field("a").is_array());
  REQUIRE(r.field("a").size() == 3);
  CHECK(r.field("a").elements()[2].as_int() == 9);
  const datum& m = r.field("m");
  REQUIRE(m.is_map());
  CHECK(m.keys() == std::vector<std::string>{"k1", "k2"});
  CHECK(m.elements()[0].as_string() == "v1");
  CHECK(m.elements()[1].is_null());  // union resolved to its null branch
  CHECK(r.field("u").as_symbol() == "RED");
  CHECK(r.field("r").field("x").as_int() == 42);
  CHECK(r.field("r").type_name() == "t.ns.Inner");
  // Accessors of the wrong kind say so instead of converting.
  CHECK_FALSE(r.field("s").as_int().has_value());
  CHECK_FALSE(r.field("i").as_string().has_value());
  CHECK_FALSE(r.field("e").as_string().has_value());
  CHECK(avro::to_debug_string(r.field("r")) == R"({"x":42})");
}

TEST_CASE("a field the writer's schema does not have reads as null") {
  // An older HoodieCleanerPlan without lastCompletedCommitTimestamp and
  // extraMetadata (Hudi 0.x), version 1.
  constexpr std::string_view old_schema =
      R"({"type":"record","name":"HoodieCleanerPlan","namespace":"org.apache.hudi.avro.model","fields":[)"
      R"({"name":"earliestInstantToRetain","type":["null",{"type":"record","name":"HoodieActionInstant","fields":[)"
      R"({"name":"timestamp","type":"string"},{"name":"action","type":"string"},{"name":"state","type":"string"}]}]},)"
      R"({"name":"policy","type":"string"},)"
      R"({"name":"filesToBeDeletedPerPartition","type":["null",{"type":"map","values":{"type":"array","items":"string"}}]},)"
      R"({"name":"version","type":["int","null"]}]})";
  std::string d;
  d += enc_long(0);  // no earliest instant
  d += enc_string("KEEP_LATEST_COMMITS");
  d += enc_long(1) + enc_long(1) + enc_string("2016/03/15");
  d += enc_long(1) + enc_string("f.parquet") + enc_long(0);
  d += enc_long(0);
  d += enc_long(0) + enc_long(1);  // version = 1
  const std::string file = container_header(old_schema) + container_block(1, d);

  const auto r = avro::read_first_record(file, "old.clean.requested");
  HUDI_REQUIRE_OK(r);
  CHECK_FALSE(r->has_field("extraMetadata"));
  CHECK(r->field("extraMetadata").is_null());
  CHECK(r->field("no such field").field("nor this").is_null());

  const auto plan = decode_cleaner_plan(file, "old.clean.requested");
  HUDI_REQUIRE_OK(plan);
  CHECK(plan->version == 1);
  CHECK_FALSE(plan->earliest_instant_to_retain.has_value());
  CHECK(plan->last_completed_commit_timestamp.empty());
  CHECK(plan->policy == "KEEP_LATEST_COMMITS");
  CHECK(plan->file_paths_to_delete_per_partition ==
        std::map<std::string, std::vector<std::string>>{{"2016/03/15", {"f.parquet"}}});
  CHECK(plan->extra_metadata.empty());
}

TEST_CASE("several records in several blocks") {
  constexpr std::string_view schema = R"({"type":"record","name":"R","fields":[{"name":"v","type":"long"}]})";
  const std::string file =
      container_header(schema) + container_block(2, enc_long(1) + enc_long(2)) + container_block(1, enc_long(3));
  const auto c = avro::read_container(file, "multi.avro");
  HUDI_REQUIRE_OK(c);
  REQUIRE(c->records.size() == 3);
  CHECK(c->records[2].field("v").as_int() == 3);
}

TEST_CASE("a container with no block has no record") {
  constexpr std::string_view schema = R"({"type":"record","name":"R","fields":[{"name":"v","type":"long"}]})";
  const std::string file = container_header(schema);
  const auto c = avro::read_container(file, "none.avro");
  HUDI_REQUIRE_OK(c);
  CHECK(c->records.empty());
  const auto first = avro::read_first_record(file, "none.avro");
  REQUIRE_FALSE(first.ok());
  CHECK(first.status().code() == absl::StatusCode::kDataLoss);
}

TEST_CASE("a recursive schema decodes within the nesting limit") {
  constexpr std::string_view schema =
      R"({"type":"record","name":"Node","fields":[{"name":"v","type":"int"},{"name":"next","type":["null","Node"]}]})";
  std::string d;
  for (int i = 0; i < 5; ++i) d += enc_long(i) + enc_long(1);
  d += enc_long(5) + enc_long(0);
  const auto r = avro::read_first_record(container_header(schema) + container_block(1, d), "list.avro");
  HUDI_REQUIRE_OK(r);
  const datum* n = &*r;
  int depth = 0;
  while (!n->is_null()) {
    CHECK(n->field("v").as_int() == depth);
    n = &n->field("next");
    ++depth;
  }
  CHECK(depth == 6);
}

TEST_CASE("a decoder given another record type says which one it found") {
  constexpr std::string_view schema =
      R"({"type":"record","name":"HoodieRollbackPlan","namespace":"org.apache.hudi.avro.model","fields":[]})";
  const std::string file = container_header(schema) + container_block(1, "");
  const auto r = decode_cleaner_plan(file, "1.clean.requested");
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == absl::StatusCode::kInvalidArgument);
  CHECK(to_string(r.status()) ==
        "1.clean.requested: expected Avro HoodieCleanerPlan: top level: expected that record, found record "
        "org.apache.hudi.avro.model.HoodieRollbackPlan");
}

}  // namespace lakegc::tests::avro_reader_test
