// hoodie.properties: the keys a reader needs, Hudi's defaults for absent
// keys, and errors that name the file and key for values lakegc does not
// know.
#include <doctest/doctest.h>

#include <string>

#include "lakegc/hudi/table_properties.hpp"

namespace lakegc::tests::properties_test {

using namespace lakegc;
using namespace lakegc::hudi;

namespace {

constexpr std::string_view kSource = "/t/.hoodie/hoodie.properties";

// The v6 corpus table's file (see docs/hudi-rules.md §1), schema shortened.
constexpr std::string_view kV6 = R"(#Properties saved on 2024-04-18T22:27:38.493Z
#Thu Apr 18 17:27:38 CDT 2024
hoodie.table.precombine.field=longField
hoodie.datasource.write.drop.partition.columns=false
hoodie.table.partition.fields=byteField
hoodie.table.type=COPY_ON_WRITE
hoodie.archivelog.folder=archived
hoodie.timeline.layout.version=1
hoodie.table.version=6
hoodie.table.recordkey.fields=id
hoodie.database.name=default
hoodie.datasource.write.partitionpath.urlencode=false
hoodie.table.name=v6_simplekeygen_nonhivestyle
hoodie.table.keygenerator.class=org.apache.hudi.keygen.SimpleKeyGenerator
hoodie.datasource.write.hive_style_partitioning=false
hoodie.table.create.schema={"type"\:"record","name"\:"r","fields"\:[]}
hoodie.table.checksum=616688896
)";

std::string message(const Status& s) { return std::string(message_of(s)); }

}  // namespace

TEST_CASE("a version 6 table: layout 1, .hoodie, escaped values, defaults") {
  auto p = parse_table_properties(kV6, kSource);
  REQUIRE_MESSAGE(p.ok(), message(p.status()));
  CHECK(p->name == "v6_simplekeygen_nonhivestyle");
  CHECK(p->database == "default");
  CHECK(p->type == TableType::copy_on_write);
  CHECK(p->version == 6);
  CHECK(p->layout == TimelineLayout::v1);
  CHECK(p->timeline_dir == ".hoodie");
  CHECK(p->timezone == TimelineTimezone::local);  // absent: Hudi's default LOCAL
  CHECK(p->partition_fields == std::vector<std::string>{"byteField"});
  CHECK(p->partitioned());
  CHECK_FALSE(p->hive_style_partitioning);
  CHECK(p->metadata_partitions.empty());
  CHECK(p->base_file_format == "PARQUET");
  CHECK(p->raw.at("hoodie.table.create.schema") == R"({"type":"record","name":"r","fields":[]})");
}

TEST_CASE("a version 8 table: layout 2 by default, metadata partitions, timeline path, UTC") {
  const std::string text =
      "hoodie.table.type=MERGE_ON_READ\nhoodie.table.version=8\nhoodie.timeline.path=timeline\n"
      "hoodie.table.metadata.partitions=column_stats,files,record_index\nhoodie.table.timeline.timezone=UTC\n"
      "hoodie.table.partition.fields=city\nhoodie.datasource.write.hive_style_partitioning=true\n"
      "hoodie.table.base.file.format=parquet";  // no final newline, as Hudi 1.x writes it
  auto p = parse_table_properties(text, kSource);
  REQUIRE_MESSAGE(p.ok(), message(p.status()));
  CHECK(p->type == TableType::merge_on_read);
  CHECK(p->layout == TimelineLayout::v2);
  CHECK(p->timeline_dir == ".hoodie/timeline");
  CHECK(p->timezone == TimelineTimezone::utc);
  CHECK(p->metadata_partitions == std::vector<std::string>{"column_stats", "files", "record_index"});
  CHECK(p->hive_style_partitioning);
  CHECK(p->base_file_format == "PARQUET");
}

TEST_CASE("non-partitioned tables and CustomKeyGenerator field types") {
  auto none = parse_table_properties("hoodie.table.version=6\n", kSource);
  REQUIRE(none.ok());
  CHECK_FALSE(none->partitioned());
  CHECK(none->type == TableType::copy_on_write);  // Hudi's default type
  auto custom = parse_table_properties(
      "hoodie.table.version=6\nhoodie.table.partition.fields=region:SIMPLE, ts:TIMESTAMP\n", kSource);
  REQUIRE(custom.ok());
  CHECK(custom->partition_fields == std::vector<std::string>{"region", "ts"});
}

TEST_CASE("layout 1 can be set explicitly on a version 8 table; a different timeline folder is honoured") {
  auto v8l1 = parse_table_properties("hoodie.table.version=8\nhoodie.timeline.layout.version=1\n", kSource);
  REQUIRE(v8l1.ok());
  CHECK(v8l1->layout == TimelineLayout::v1);
  CHECK(v8l1->timeline_dir == ".hoodie");
  auto other = parse_table_properties("hoodie.table.version=9\nhoodie.timeline.path=tl\n", kSource);
  REQUIRE(other.ok());
  CHECK(other->timeline_dir == ".hoodie/tl");
}

TEST_CASE("values lakegc does not know are errors naming the file and the key") {
  struct Case {
    std::string text;
    std::string expected;
  };
  const Case cases[] = {
      {"hoodie.table.version=6\nhoodie.table.type=MERGE_ON_WRITE\n", "hoodie.table.type=MERGE_ON_WRITE"},
      {"hoodie.table.type=COPY_ON_WRITE\n", "hoodie.table.version=(absent)"},
      {"hoodie.table.version=six\n", "hoodie.table.version=six"},
      {"hoodie.table.version=10\n", "hoodie.table.version=10"},
      {"hoodie.table.version=6\nhoodie.timeline.layout.version=0\n", "layout.version=0"},
      {"hoodie.table.version=6\nhoodie.timeline.layout.version=3\n", "hoodie.timeline.layout.version=3"},
      {"hoodie.table.version=6\nhoodie.timeline.layout.version=2\n", "layout 2 needs table version 8"},
      {"hoodie.table.version=6\nhoodie.table.timeline.timezone=PST\n", "hoodie.table.timeline.timezone=PST"},
      {"hoodie.table.version=6\nhoodie.datasource.write.hive_style_partitioning=yes\n", "hive_style_partitioning=yes"},
      {"hoodie.table.version=8\nhoodie.timeline.path=../../etc\n", "hoodie.timeline.path=../../etc"},
  };
  for (const Case& c : cases) {
    auto p = parse_table_properties(c.text, kSource);
    REQUIRE_FALSE_MESSAGE(p.ok(), c.text);
    CHECK_MESSAGE(message(p.status()).find(kSource) != std::string::npos, message(p.status()));
    CHECK_MESSAGE(message(p.status()).find(c.expected) != std::string::npos, message(p.status()));
  }
}

}  // namespace lakegc::tests::properties_test
