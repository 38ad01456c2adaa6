// Damaged, truncated and hostile input must give an error, never a crash, a
// huge allocation or a hang. Avro C 1.11.1 trusts lengths and counts in the
// data, so most cases here are ones it would mishandle on its own.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>

#include "lakegc/hudi/avro_reader.hpp"
#include "lakegc/hudi/avro_writer.hpp"
#include "lakegc/hudi/metadata_codec.hpp"
#include "lakegc/hudi/rollback_records.hpp"
#include "test_util.hpp"

namespace lakegc::tests::damaged_input_test {

using namespace lakegc::hudi;
using namespace lakegc::hudi::testing;

namespace {

std::string valid_plan() {
  CleanerPlan p;
  p.earliest_instant_to_retain = "20240418172804498";
  p.earliest_instant_to_retain_action = "commit";
  p.policy = "KEEP_LATEST_COMMITS";
  p.file_paths_to_delete_per_partition = {{"10", {"file:/t/10/a.parquet", "file:/t/10/b.parquet"}}, {"20", {}}};
  p.partitions_to_be_deleted = {"30"};
  p.extra_metadata = {{"k", "v"}};
  auto bytes = encode_cleaner_plan(p);
  REQUIRE(bytes.ok());
  return *bytes;
}

std::string valid_clean() {
  CleanMetadata m;
  m.start_clean_time = "20250101000000000";
  m.total_files_deleted = 1;
  CleanPartitionMetadata pm;
  pm.partition_path = "10";
  pm.policy = "KEEP_LATEST_COMMITS";
  pm.success_delete_files = {"a.parquet"};
  m.partition_metadata = {{"10", pm}};
  auto bytes = encode_clean_metadata(m);
  REQUIRE(bytes.ok());
  return *bytes;
}

// Runs every decoder on `bytes`; they may succeed or fail, but must return.
void decode_all(std::string_view bytes) {
  (void)decode_commit_metadata(bytes, "f");
  (void)decode_compaction_plan(bytes, "f");
  (void)decode_clustering_plan(bytes, "f");
  (void)decode_savepoint_metadata(bytes, "f");
  (void)decode_cleaner_plan(bytes, "f");
  (void)decode_clean_metadata(bytes, "f");
  (void)decode_rollback_metadata(bytes, "f");
  (void)avro::read_container(bytes, "f");
}

absl::Status read_status(std::string_view bytes) { return avro::read_container(bytes, "f.avro").status(); }

}  // namespace

TEST_CASE("every truncation of a valid Avro file is an error naming the file") {
  for (const std::string& file : {valid_plan(), valid_clean()}) {
    for (std::size_t n = 0; n < file.size(); ++n) {
      CAPTURE(n);
      const auto plan = decode_cleaner_plan(std::string_view(file).substr(0, n), "20250101000000000.clean.requested");
      REQUIRE_FALSE(plan.ok());
      CHECK(to_string(plan.status()).find("20250101000000000.clean.requested: expected Avro HoodieCleanerPlan") == 0);
      CHECK_FALSE(decode_clean_metadata(std::string_view(file).substr(0, n), "x.clean").ok());
    }
  }
}

TEST_CASE("every single-bit flip of a valid Avro file returns (ok or error)") {
  for (std::string file : {valid_plan(), valid_clean()}) {
    for (std::size_t i = 0; i < file.size(); ++i) {
      for (int bit = 0; bit < 8; ++bit) {
        file[i] = static_cast<char>(file[i] ^ (1 << bit));
        // Only the Avro decoders: JSON and empty input are covered elsewhere,
        // and ~10 000 flips x every decoder would make this test slow.
        (void)decode_cleaner_plan(file, "f");
        (void)decode_clean_metadata(file, "f");
        (void)avro::read_container(file, "f");
        file[i] = static_cast<char>(file[i] ^ (1 << bit));
      }
    }
  }
}

TEST_CASE("random bytes after the magic, and random overwrites of valid files, return") {
  std::mt19937_64 rng(20240418);
  const std::string plan = valid_plan();
  for (int round = 0; round < 3000; ++round) {
    std::string file;
    if (round % 2 == 0) {
      file.assign("Obj\x01", 4);
      const std::size_t n = rng() % 200;
      for (std::size_t i = 0; i < n; ++i) file += static_cast<char>(rng());
    } else {
      file = plan;
      const int edits = 1 + static_cast<int>(rng() % 8);
      for (int e = 0; e < edits; ++e) file[rng() % file.size()] = static_cast<char>(rng());
    }
    decode_all(file);
  }
}

TEST_CASE("hostile lengths and counts inside a block are rejected before Avro C sees them") {
  const auto rejects = [](std::string_view schema, const std::string& datum) {
    const absl::Status st = read_status(container_header(schema) + container_block(1, datum));
    CAPTURE(to_string(st));
    CHECK(st.code() == absl::StatusCode::kDataLoss);
    CHECK(to_string(st).find("f.avro: expected Avro object container: ") == 0);
  };
  // Avro C 1.11.1 would allocate 2^63 bytes, or write before its buffer.
  rejects(R"("string")", enc_long(-1));
  rejects(R"("bytes")", enc_long(-1));
  rejects(R"("string")", enc_long(INT64_MAX));
  rejects(R"("string")", enc_long(5) + "abc");
  // Ten 0xff bytes then more: a varint longer than 64 bits.
  rejects(R"("long")", std::string(10, '\xff') + '\x01');
  rejects(R"("int")", enc_long(1LL << 40));
  rejects(R"("boolean")", "\x02");
  rejects(R"({"type":"enum","name":"E","symbols":["A"]})", enc_long(1));
  rejects(R"({"type":"enum","name":"E","symbols":["A"]})", enc_long(-1));
  rejects(R"(["null","string"])", enc_long(2));
  rejects(R"(["null","string"])", enc_long(-1));
  rejects(R"({"type":"fixed","name":"F","size":8})", "1234");
  // 2^62 nulls in 10 bytes: without the element budget, a near-endless loop.
  rejects(R"({"type":"array","items":"null"})", enc_long(1LL << 62) + enc_long(0));
  rejects(R"({"type":"array","items":"long"})", enc_long(INT64_MIN));
  rejects(R"({"type":"map","values":"null"})", enc_long(1000) + enc_string("k"));
  // A linked list 10 000 levels deep: bounded recursion, not a stack overflow.
  std::string deep;
  for (int i = 0; i < 10000; ++i) deep += enc_long(1);
  deep += enc_long(0);
  rejects(R"({"type":"record","name":"N","fields":[{"name":"next","type":["null","N"]}]})", deep);
}

TEST_CASE("damaged framing is rejected") {
  constexpr std::string_view schema = R"({"type":"record","name":"R","fields":[{"name":"v","type":"long"}]})";
  const std::string good = container_header(schema) + container_block(1, enc_long(7));
  REQUIRE(read_status(good).ok());

  SUBCASE("leftover bytes in a block") {
    CHECK(read_status(container_header(schema) + container_block(1, enc_long(7) + "x")).code() ==
          absl::StatusCode::kDataLoss);
  }
  SUBCASE("a block count larger than the block can hold") {
    CHECK_FALSE(read_status(container_header(schema) + container_block(1LL << 40, enc_long(7))).ok());
    constexpr std::string_view empty = R"({"type":"record","name":"E","fields":[]})";
    CHECK_FALSE(read_status(container_header(empty) + container_block(1LL << 40, "")).ok());
  }
  SUBCASE("negative block count or size, size past the end") {
    CHECK_FALSE(read_status(container_header(schema) + enc_long(-1) + enc_long(1) + enc_long(7) + test_sync()).ok());
    CHECK_FALSE(read_status(container_header(schema) + enc_long(1) + enc_long(-1) + enc_long(7) + test_sync()).ok());
    CHECK_FALSE(read_status(container_header(schema) + enc_long(1) + enc_long(1000) + enc_long(7) + test_sync()).ok());
  }
  SUBCASE("wrong sync marker") {
    std::string bad = good;
    bad.back() = static_cast<char>(bad.back() ^ 1);
    CHECK(read_status(bad).code() == absl::StatusCode::kDataLoss);
  }
  SUBCASE("no schema, garbage schema, a schema naming an unknown type") {
    std::string no_schema("Obj\x01", 4);
    no_schema += enc_long(1) + enc_string("avro.codec") + enc_string("null") + enc_long(0) + test_sync();
    CHECK(read_status(no_schema).code() == absl::StatusCode::kDataLoss);
    CHECK(read_status(container_header("{not json") + container_block(1, enc_long(7))).code() ==
          absl::StatusCode::kDataLoss);
    CHECK(
        read_status(container_header(R"({"type":"record","name":"R","fields":[{"name":"v","type":"Nope"}]})")).code() ==
        absl::StatusCode::kDataLoss);
  }
  SUBCASE("header map with a hostile key length") {
    std::string bad("Obj\x01", 4);
    bad += enc_long(1) + enc_long(-5);
    CHECK(read_status(bad).code() == absl::StatusCode::kDataLoss);
    std::string huge("Obj\x01", 4);
    huge += enc_long(1) + enc_long(INT64_MAX);
    CHECK(read_status(huge).code() == absl::StatusCode::kDataLoss);
  }
  SUBCASE("a compressed container is refused, not misread") {
    CHECK(read_status(container_header(schema, "deflate") + container_block(1, enc_long(7))).code() ==
          absl::StatusCode::kUnimplemented);
  }
  SUBCASE("not a container") {
    CHECK(read_status("Obj").code() == absl::StatusCode::kInvalidArgument);
    CHECK(read_status("").code() == absl::StatusCode::kInvalidArgument);
    CHECK(read_status("{}").code() == absl::StatusCode::kInvalidArgument);
  }
}

TEST_CASE("hostile JSON returns") {
  std::string deep(5000, '[');
  decode_all("{\"a\":" + deep);
  decode_all("{\"partitionToWriteStats\":{\"p\":[" + std::string(3000, '{'));
  decode_all(std::string("{\"a\":\"\0\"}", 9));
  decode_all("{\"a\":123456789012345678901234567890}");
}

}  // namespace lakegc::tests::damaged_input_test
