// Writer schemas: names resolve in their namespace, a type is defined once,
// bad schemas are clear errors; and the fuzz finding of
// ../shared/data/fuzz-findings/ (a commit file whose schema defines
// HoodieRuntimeStats twice, on which Avro C 1.11.1 leaked) is refused with
// an error naming the type.
#include "lakegc/hudi/avro/schema.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "corpus.hpp"
#include "lakegc/hudi/avro/encode.hpp"
#include "lakegc/hudi/avro/read.hpp"
#include "lakegc/hudi/metadata_codec.hpp"
#include "test_util.hpp"

namespace lakegc::tests::avro_schema_test {

using namespace lakegc::hudi;
using namespace lakegc::hudi::testing;

namespace {

std::string schema_error(std::string_view json) {
  const auto s = avro::schema::parse(json);
  if (s.ok()) return "parsed";
  CHECK(s.status().code() == absl::StatusCode::kDataLoss);
  return to_string(s.status());
}

/// ../shared/data/fuzz-findings next to the source tree.
std::filesystem::path fuzz_findings() {
  return std::filesystem::path(LAKEGC_SOURCE_ROOT) / ".." / "shared" / "data" / "fuzz-findings";
}

}  // namespace

TEST_CASE("names resolve in the enclosing namespace, then as written") {
  const auto s = avro::schema::parse(
      R"({"type":"record","name":"Outer","namespace":"a.b","fields":[)"
      R"({"name":"x","type":{"type":"record","name":"Inner","fields":[{"name":"v","type":"int"}]}},)"
      R"({"name":"y","type":"Inner"},{"name":"z","type":"a.b.Inner"},)"
      R"({"name":"e","type":{"type":"enum","name":"c.E","symbols":["P"]}},{"name":"f","type":"c.E"},)"
      R"({"name":"self","type":["null","Outer"]}]})");
  HUDI_REQUIRE_OK(s);
  const avro::schema_node& outer = s->root();
  CHECK(outer.name == "a.b.Outer");
  REQUIRE(outer.children.size() == 6);
  CHECK(outer.children[0] == outer.children[1]);
  CHECK(outer.children[1] == outer.children[2]);
  CHECK(s->node(outer.children[0]).name == "a.b.Inner");
  CHECK(s->node(outer.children[3]).name == "c.E");
  CHECK(outer.children[3] == outer.children[4]);
  // The recursive field points back at the record itself.
  CHECK(s->node(s->node(outer.children[5]).children[1]).name == "a.b.Outer");
  CHECK(s->find("a.b.Inner").has_value());
  CHECK_FALSE(s->find("Inner").has_value());
}

TEST_CASE("a named type defined twice is refused, naming the type") {
  CHECK(schema_error(R"({"type":"record","name":"R","namespace":"n","fields":[)"
                     R"({"name":"a","type":{"type":"record","name":"S","fields":[]}},)"
                     R"({"name":"b","type":{"type":"record","name":"S","fields":[]}}]})") ==
        "n.R.b: the schema defines the named type 'n.S' twice");
  CHECK(schema_error(R"(["null",{"type":"enum","name":"E","symbols":["A"]},{"type":"fixed","name":"E","size":1}])") ==
        "the schema defines the named type 'E' twice");
  // The same short name in two namespaces is two types.
  CHECK(schema_error(R"({"type":"record","name":"R","fields":[)"
                     R"({"name":"a","type":{"type":"record","name":"x.S","fields":[]}},)"
                     R"({"name":"b","type":{"type":"record","name":"y.S","fields":[]}}]})") == "parsed");
}

TEST_CASE("bad schemas are errors that say what is wrong") {
  CHECK(schema_error("{not json").starts_with("the schema is not JSON"));
  CHECK(schema_error(R"({"type":"record","name":"R","fields":[{"name":"v","type":"Nope"}]})") ==
        "R.v: unknown type 'Nope' (a named type must be defined before it is used)");
  CHECK(
      schema_error(R"({"type":"record","name":"R","fields":[{"name":"v","type":"int"},{"name":"v","type":"int"}]})") ==
      "record 'R' has two fields named 'v'");
  CHECK(schema_error(R"({"type":"record","name":"string","fields":[]})") == "a named type may not be called 'string'");
  CHECK(schema_error(R"({"type":"array"})") == "array has no \"items\"");
  CHECK(schema_error(R"({"type":"fixed","name":"F","size":-1})") == "fixed 'F' has no non-negative integer \"size\"");
  CHECK(schema_error(R"({"type":"enum","name":"E","symbols":[1]})") == "enum 'E' has a symbol that is not a string");
  CHECK(schema_error("[]") == "a union has no branch");
  CHECK(schema_error("42") == "a type is neither a name, a union nor an object");
  std::string deep;
  for (int i = 0; i < 100; ++i) deep += R"({"type":"array","items":)";
  deep += R"("int")" + std::string(100, '}');
  CHECK(schema_error(deep) == "the schema nests deeper than 64 levels");
}

TEST_CASE("an encoded datum must fit its schema") {
  const auto s = avro::schema::parse(
      R"({"type":"record","name":"R","namespace":"n","fields":[{"name":"i","type":"int"},)"
      R"({"name":"u","type":["null","string"]},{"name":"e","type":{"type":"enum","name":"E","symbols":["A","B"]}}]})");
  HUDI_REQUIRE_OK(s);
  avro::datum r = avro::datum::make_record("n.R");
  r.add("i", avro::datum::make_long(7));
  r.add("e", avro::datum::make_enum("n.E", "B"));
  const auto ok = avro::encode(*s, r);
  HUDI_REQUIRE_OK(ok);
  CHECK(*ok == enc_long(7) + enc_long(0) + enc_long(1));  // i, u = null (absent), e = B

  avro::datum too_big = r;
  too_big = avro::datum::make_record("n.R");
  too_big.add("i", avro::datum::make_long(1LL << 40));
  CHECK(to_string(avro::encode(*s, too_big).status()) == "R.i: expected int, found long");
  avro::datum bad_symbol = avro::datum::make_record("n.R");
  bad_symbol.add("i", avro::datum::make_int(1));
  bad_symbol.add("e", avro::datum::make_enum("n.E", "C"));
  CHECK(to_string(avro::encode(*s, bad_symbol).status()) == "R.e: 'C' is not a symbol of enum 'n.E'");
  avro::datum bad_union = avro::datum::make_record("n.R");
  bad_union.add("i", avro::datum::make_int(1));
  bad_union.add("u", avro::datum::make_bool(true));
  CHECK(to_string(avro::encode(*s, bad_union).status()) ==
        "R.u: no branch of the union [null, string] takes a boolean");
}

TEST_CASE("fuzz finding: a commit file whose schema defines HoodieRuntimeStats twice") {
  const auto path = fuzz_findings() / "commit-metadata-avro-duplicate-named-type.avro";
  if (!std::filesystem::is_regular_file(path)) {
    // The findings live outside the project; the in-memory case above
    // covers the rule when they are absent.
    MESSAGE("skipped: " << path.string() << " not found");
    return;
  }
  const std::string bytes = lakegc::testing::file_contents(path);
  REQUIRE(avro::is_object_container(bytes));

  // The fuzzer repeated a run of HoodieWriteStat's fields, runtimeStats
  // among them; as in Avro Java, the redefined type is what is reported
  // (field names are checked once a record's fields are all read).
  const auto c = avro::read_container(bytes, "20250101000000000_20250101000001000.commit");
  REQUIRE_FALSE(c.ok());
  CHECK(c.status().code() == absl::StatusCode::kDataLoss);
  CHECK(to_string(c.status()) ==
        "20250101000000000_20250101000001000.commit: expected Avro object container: cannot parse the embedded writer "
        "schema: org.apache.hudi.avro.model.HoodieCommitMetadata.partitionToWriteStats: "
        "org.apache.hudi.avro.model.HoodieWriteStat.runtimeStats: the schema defines the named type "
        "'org.apache.hudi.avro.model.HoodieRuntimeStats' twice");
  // The decoder the file name calls for says the same, prefixed with what it expected.
  const auto m = decode_commit_metadata(bytes, "f.commit");
  REQUIRE_FALSE(m.ok());
  CHECK(to_string(m.status())
            .find("the schema defines the named type 'org.apache.hudi.avro.model.HoodieRuntimeStats' "
                  "twice") != std::string::npos);
}

}  // namespace lakegc::tests::avro_schema_test
