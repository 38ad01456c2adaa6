// The rollback records lakegc writes (hudi/rollback_records.hpp): every
// field survives encode then decode, the existing reader of completed
// rollbacks (decode_rollback_metadata, used by hudi::journal::load) reads
// lakegc's file, and a record of another type or a damaged file is an error
// naming the file.
#include "lakegc/hudi/rollback_records.hpp"

#include <doctest/doctest.h>

#include <string>

namespace lakegc::tests::rollback_records_test {

using namespace lakegc::hudi;

namespace {

RollbackPlanRecord sample_plan() {
  RollbackPlanRecord p;
  p.instant_to_rollback = InstantInfo{"20260101000000000", "deltacommit"};
  RollbackRequest a;
  a.partition_path = "part=1";
  a.file_id = "f1-0";
  a.latest_base_instant = "20260101000000000";
  a.files_to_be_deleted = {"/t/part=1/f1-0_0-1-1_20260101000000000.parquet"};
  RollbackRequest b;
  b.partition_path = "";
  b.files_to_be_deleted = {};
  b.log_blocks_to_be_deleted = {{".f2-0_20251231000000000.log.1_0-1-1", 1234}};
  p.requests = {a, b};
  return p;
}

RollbackMetadataRecord sample_metadata() {
  RollbackMetadataRecord m;
  m.start_rollback_time = "20260101000100000";
  m.time_taken_ms = 42;
  m.total_files_deleted = 2;
  m.commits_rollback = {"20260101000000000"};
  m.instants_rollback = {{"20260101000000000", "commit"}};
  RollbackPartitionRecord p;
  p.partition_path = "part=1";
  p.success_delete_files = {"/t/part=1/a.parquet", "/t/part=1/b.parquet"};
  p.failed_delete_files = {"/t/part=1/c.parquet"};
  p.rollback_log_files = {{"/t/part=1/.x.log.1", 7}};
  m.partition_metadata["part=1"] = p;
  return m;
}

}  // namespace

TEST_CASE("a rollback plan survives encode then decode, field by field") {
  const RollbackPlanRecord p = sample_plan();
  auto bytes = encode_rollback_plan(p);
  REQUIRE(bytes.ok());
  auto back = decode_rollback_plan(*bytes, "x.rollback.requested");
  REQUIRE_MESSAGE(back.ok(), message_of(back.status()));
  CHECK(*back == p);
  CHECK(back->requests[1].file_id == std::nullopt);  // a null union branch stays null
  // Equal input, byte-identical files.
  CHECK(*encode_rollback_plan(p) == *bytes);
}

TEST_CASE("rollback metadata survives encode then decode, and the journal's reader reads it") {
  const RollbackMetadataRecord m = sample_metadata();
  auto bytes = encode_rollback_metadata(m);
  REQUIRE(bytes.ok());
  auto back = decode_rollback_metadata_record(*bytes, "x.rollback");
  REQUIRE_MESSAGE(back.ok(), message_of(back.status()));
  CHECK(*back == m);
  auto summary = decode_rollback_metadata(*bytes, "x.rollback");
  REQUIRE(summary.ok());
  CHECK(summary->commits_rollback == m.commits_rollback);
  CHECK(summary->success_delete_files.at("part=1") == m.partition_metadata.at("part=1").success_delete_files);
}

TEST_CASE("the wrong record, or a damaged file, is an error naming the file") {
  auto meta = encode_rollback_metadata(sample_metadata());
  REQUIRE(meta.ok());
  auto as_plan = decode_rollback_plan(*meta, "20260101000100000.rollback.requested");
  REQUIRE_FALSE(as_plan.ok());
  CHECK(message_of(as_plan.status()).find("20260101000100000.rollback.requested") != std::string::npos);
  std::string cut = *meta;
  cut.resize(cut.size() / 2);
  auto damaged = decode_rollback_metadata_record(cut, "20260101000100000.rollback");
  REQUIRE_FALSE(damaged.ok());
  CHECK(message_of(damaged.status()).find("20260101000100000.rollback") != std::string::npos);
  RollbackMetadataRecord too_many = sample_metadata();
  too_many.total_files_deleted = std::int64_t{1} << 40;
  CHECK_FALSE(encode_rollback_metadata(too_many).ok());
}

}  // namespace lakegc::tests::rollback_records_test
