// The log format writer and reader: blocks are framed byte for byte as
// HoodieLogFormatWriter frames them, and every block type the library
// writes (Avro data, delete, rollback command) reads back to its input.
#include "lakegc/hudi/log/block.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "lakegc/hudi/byte_cursor.hpp"
#include "lakegc/hudi/log/avro_data_block.hpp"
#include "lakegc/hudi/log/command_block.hpp"
#include "lakegc/hudi/log/delete_block.hpp"
#include "lakegc/hudi/log/read_blocks.hpp"
#include "lakegc/hudi/log/write_block.hpp"
#include "test_util.hpp"

namespace lakegc::tests::log_blocks_test {

using namespace lakegc::hudi;
using namespace lakegc::hudi::testing;
using avro::datum;

namespace {

constexpr std::string_view kRowSchema = R"({"type":"record","name":"trip","namespace":"hoodie.t","fields":[)"
                                        R"({"name":"_hoodie_record_key","type":["null","string"],"default":null},)"
                                        R"({"name":"fare","type":"double"},{"name":"city","type":"string"}]})";

datum row(std::string key, double fare, std::string city) {
  datum r = datum::make_record("hoodie.t.trip");
  r.add("_hoodie_record_key", datum::make_string(std::move(key)));
  r.add("fare", datum::make_double(fare));
  r.add("city", datum::make_string(std::move(city)));
  return r;
}

std::string be32(std::int32_t v) {
  std::string s;
  put_be(s, v);
  return s;
}
std::string be64(std::int64_t v) {
  std::string s;
  put_be(s, v);
  return s;
}

std::string encoded(const log::log_block& b) {
  auto bytes = log::encode_block(b);
  REQUIRE_MESSAGE(bytes.ok(), to_string(bytes.status()));
  return *bytes;
}

}  // namespace

TEST_CASE("a rollback block is framed as HoodieLogFormatWriter frames it") {
  const std::string bytes = encoded(log::make_rollback_block("20250126040936578", "20250126040826878"));
  // Header: INSTANT_TIME, TARGET_INSTANT_TIME, COMMAND_BLOCK_TYPE "0".
  const std::string header = be32(3) + be32(0) + be32(17) + "20250126040936578" + be32(1) + be32(17) +
                             "20250126040826878" + be32(3) + be32(1) + "0";
  const std::int64_t size = 4 + 4 + static_cast<std::int64_t>(header.size()) + 8 + 0 + 4 + 8;
  const std::string expected = "#HUDI#" + be64(size) + be32(1) + be32(0) + header + be64(0) + be32(0) + be64(size + 6);
  CHECK(bytes == expected);
  // The real rollback block of the corpus table v6_nonpartitioned_rollback
  // is 105 bytes for the same headers (in another order).
  CHECK(bytes.size() == 105);
}

TEST_CASE("avro data block: encode then read gives the records back") {
  const std::vector<datum> rows = {row("k1", 12.5, "sao_paulo"), row("k2", -1, "chennai")};
  auto block = log::make_avro_data_block(kRowSchema, rows, "20251220210127080");
  HUDI_REQUIRE_OK(block);
  CHECK(block->header.at(log::header_key::schema) == kRowSchema);
  // Content: version 3, 2 records, each length-prefixed.
  lakegc::hudi::byte_cursor content(block->content);
  std::int32_t version = 0, count = 0;
  REQUIRE(content.read_be32(version, "v").ok());
  REQUIRE(content.read_be32(count, "c").ok());
  CHECK(version == 3);
  CHECK(count == 2);

  const std::string file = encoded(*block) + encoded(log::make_rollback_block("20251220210200000", "1"));
  const auto blocks = log::read_blocks(file, "f.log.1_0-1-1");
  HUDI_REQUIRE_OK(blocks);
  REQUIRE(blocks->size() == 2);
  const log::log_block& b = blocks->front();
  CHECK(b.type == log::block_type::avro_data);
  CHECK(b.offset == 0);
  CHECK(b.size == (*blocks)[1].offset);
  CHECK(b.instant_time() == "20251220210127080");
  CHECK(b.header == block->header);
  CHECK(b.content == block->content);
  CHECK(file.substr(b.content_offset, b.content.size()) == b.content);
  const auto records = log::decode_avro_records(b, "f.log.1_0-1-1");
  HUDI_REQUIRE_OK(records);
  CHECK(*records == rows);
}

TEST_CASE("delete block: encode then read gives the keys back") {
  datum ordering = datum::make_record("org.apache.hudi.avro.model.LongWrapper");
  ordering.add("value", datum::make_long(1734728488000));
  const std::vector<log::delete_record> deletes = {
      {"c8abbe79-8d89-47ea-b4ce-4d224bae5bfa", "city=chennai", ordering},
      {"k2", std::nullopt, datum()},
  };
  auto block = log::make_delete_block(deletes, "20251220210128625");
  HUDI_REQUIRE_OK(block);
  const auto blocks = log::read_blocks(encoded(*block), "d.log");
  HUDI_REQUIRE_OK(blocks);
  REQUIRE(blocks->size() == 1);
  const auto out = log::decode_delete_records(blocks->front(), "d.log");
  HUDI_REQUIRE_OK(out);
  REQUIRE(*out == deletes);
  CHECK((*out)[0].ordering_value.type_name() == "org.apache.hudi.avro.model.LongWrapper");

  // An empty delete block, as the metadata table writes one per file group
  // at its initial instant: 9 content bytes (version, length 1, empty array).
  auto empty = log::make_delete_block({}, "00000000000000000");
  HUDI_REQUIRE_OK(empty);
  CHECK(empty->content == be32(3) + be32(1) + std::string(1, '\0'));
  CHECK(encoded(*empty).size() == 80);
}

TEST_CASE("rollback block: the command and its target") {
  const auto blocks =
      log::read_blocks(encoded(log::make_rollback_block("20250126040936578", "20250126040826878")), "r.log");
  HUDI_REQUIRE_OK(blocks);
  REQUIRE(blocks->size() == 1);
  const auto c = log::decode_command(blocks->front(), "r.log");
  HUDI_REQUIRE_OK(c);
  CHECK(c->type == log::command_type::rollback);
  CHECK(c->instant_time == "20250126040936578");
  CHECK(c->target_instant_time == "20250126040826878");

  log::log_block unknown = blocks->front();
  unknown.header[log::header_key::command_block_type] = "1";
  CHECK(to_string(log::decode_command(unknown, "r.log").status()) ==
        "r.log: COMMAND_BLOCK at byte 0: COMMAND_BLOCK_TYPE '1' is not a command Hudi defines");
  log::log_block no_target = blocks->front();
  no_target.header.erase(log::header_key::target_instant_time);
  CHECK_FALSE(log::decode_command(no_target, "r.log").ok());
}

TEST_CASE("a record that does not fit the block's schema is not written") {
  datum bad = datum::make_record("hoodie.t.trip");
  bad.add("fare", datum::make_string("twelve"));
  const std::vector<datum> rows = {bad};
  const auto block = log::make_avro_data_block(kRowSchema, rows, "1");
  REQUIRE_FALSE(block.ok());
  CHECK(to_string(block.status()) == "record 0: trip.fare: expected double, found string");
  log::log_block corrupt;
  CHECK(log::encode_block(corrupt).status().code() == absl::StatusCode::kInvalidArgument);
}

TEST_CASE("a data block without SCHEMA, or with records past its content, is an error") {
  auto block = log::make_avro_data_block(kRowSchema, std::vector<datum>{row("k", 1, "c")}, "1");
  HUDI_REQUIRE_OK(block);
  log::log_block no_schema = *block;
  no_schema.header.erase(log::header_key::schema);
  CHECK(to_string(log::decode_avro_records(no_schema, "f").status()) ==
        "f: AVRO_DATA_BLOCK at byte 0 has no SCHEMA header");
  log::log_block many = *block;
  many.content.replace(4, 4, be32(1000));
  CHECK(log::decode_avro_records(many, "f").status().code() == absl::StatusCode::kDataLoss);
  log::log_block extra = *block;
  extra.content += "x";
  CHECK(log::decode_avro_records(extra, "f").status().code() == absl::StatusCode::kDataLoss);
}

}  // namespace lakegc::tests::log_blocks_test
