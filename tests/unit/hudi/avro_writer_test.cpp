// Clean instants written by lakegc must be readable by Hudi: encode with
// Hudi's schemas, then decode (round trip), and check the raw record against
// the field layout of HoodieCleanerPlan / HoodieCleanMetadata.
#include "lakegc/hudi/avro_writer.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "lakegc/hudi/avro_reader.hpp"
#include "lakegc/hudi/metadata_codec.hpp"
#include "test_util.hpp"

namespace lakegc::tests::avro_writer_test {

using namespace lakegc::hudi;
using lakegc::hudi::testing::to_string;

namespace {

CleanerPlan sample_plan() {
  CleanerPlan p;
  p.earliest_instant_to_retain = "20240418172804498";
  p.earliest_instant_to_retain_action = "commit";
  p.earliest_instant_to_retain_state = "COMPLETED";
  p.last_completed_commit_timestamp = "20240707001303088";
  p.policy = "KEEP_LATEST_COMMITS";
  p.file_paths_to_delete_per_partition = {
      {"10",
       {"file:/tmp/t/10/97de74b1-2a8e-4bb7-874c-0a74e1f42a77-0_1-98-142_20240418172802262.parquet",
        "file:/tmp/t/10/4f2685a3-614f-49ca-9b2b-e1cb9fb61f27-0_0-1-1_20240418172802262.parquet"}},
      {"city=são paulo/día=1", {"file:/tmp/t/city=são paulo/día=1/a b.parquet"}},
      {"empty", {}},
  };
  p.partitions_to_be_deleted = {"old=1", "old=2"};
  p.extra_metadata = {{"savepointed_timestamps", ""}, {"k", "v"}};
  p.version = 2;
  return p;
}

CleanMetadata sample_metadata() {
  CleanMetadata m;
  m.start_clean_time = "20250101000000000";
  m.time_taken_ms = 1234;
  m.total_files_deleted = 3;
  m.earliest_commit_to_retain = "20240418172804498";
  m.last_completed_commit_timestamp = "20240707001303088";
  CleanPartitionMetadata p10;
  p10.partition_path = "10";
  p10.policy = "KEEP_LATEST_COMMITS";
  p10.delete_path_patterns = {"a.parquet", "b.parquet"};
  p10.success_delete_files = {"a.parquet", "b.parquet"};
  p10.failed_delete_files = {};
  CleanPartitionMetadata old;
  old.partition_path = "old=1";
  old.policy = "KEEP_LATEST_COMMITS";
  old.success_delete_files = {"c.parquet"};
  old.failed_delete_files = {"d.parquet"};
  old.is_partition_deleted = true;
  m.partition_metadata = {{"10", p10}, {"old=1", old}};
  m.extra_metadata = {{"k", "v"}};
  m.version = 2;
  return m;
}

std::vector<std::string> field_names(const avro::datum& d) { return d.keys(); }

}  // namespace

TEST_CASE("cleaner plan v2: encode then decode gives the input back") {
  const CleanerPlan in = sample_plan();
  const auto bytes = encode_cleaner_plan(in);
  HUDI_REQUIRE_OK(bytes);
  CHECK(detect_encoding(*bytes) == encoding::avro);
  const auto out = decode_cleaner_plan(*bytes, "20250101000000000.clean.requested");
  HUDI_REQUIRE_OK(out);
  CHECK(*out == in);
}

TEST_CASE("cleaner plan v2 on disk has Hudi's layout") {
  const auto bytes = encode_cleaner_plan(sample_plan());
  HUDI_REQUIRE_OK(bytes);
  const auto c = avro::read_container(*bytes, "x.clean.requested");
  HUDI_REQUIRE_OK(c);
  CHECK(c->codec == "null");
  CHECK(c->schema_json == schemas::cleaner_plan);
  REQUIRE(c->records.size() == 1);
  const auto& r = c->records[0];
  CHECK(r.type_name() == "org.apache.hudi.avro.model.HoodieCleanerPlan");
  // Field order of HoodieCleanerPlan.avsc (1.x).
  CHECK(field_names(r) == std::vector<std::string>{"earliestInstantToRetain", "lastCompletedCommitTimestamp", "policy",
                                                   "filesToBeDeletedPerPartition", "version",
                                                   "filePathsToBeDeletedPerPartition", "partitionsToBeDeleted",
                                                   "extraMetadata"});
  CHECK(r.field("earliestInstantToRetain").type_name() == "org.apache.hudi.avro.model.HoodieActionInstant");
  CHECK(r.field("earliestInstantToRetain").field("state").as_string() == "COMPLETED");
  CHECK(r.field("earliestInstantToRetain").field("action").as_string() == "commit");
  // The deprecated v1 field is present and empty, not null.
  CHECK(r.field("filesToBeDeletedPerPartition").is_map());
  CHECK(r.field("filesToBeDeletedPerPartition").size() == 0);
  CHECK(r.field("version").as_int() == 2);
  const auto& paths = r.field("filePathsToBeDeletedPerPartition");
  REQUIRE(paths.is_map());
  REQUIRE(paths.size() == 3);
  bool seen = false;
  paths.for_each_entry([&](std::string_view partition, const avro::datum& infos) {
    if (partition != "10") return;
    seen = true;
    REQUIRE(infos.size() == 2);
    const auto& info = infos.elements()[0];
    CHECK(info.type_name() == "org.apache.hudi.avro.model.HoodieCleanFileInfo");
    CHECK(info.field("isBootstrapBaseFile").as_bool() == false);
    CHECK(info.field("filePath").as_string()->starts_with("file:/tmp/t/10/"));
  });
  CHECK(seen);
}

TEST_CASE("cleaner plan without an earliest instant, with nothing to delete") {
  CleanerPlan in;
  in.policy = "KEEP_LATEST_FILE_VERSIONS";
  const auto bytes = encode_cleaner_plan(in);
  HUDI_REQUIRE_OK(bytes);
  const auto out = decode_cleaner_plan(*bytes, "x.clean.requested");
  HUDI_REQUIRE_OK(out);
  CHECK(*out == in);
  const auto r = avro::read_first_record(*bytes, "x");
  HUDI_REQUIRE_OK(r);
  CHECK(r->field("earliestInstantToRetain").is_null());
  CHECK(r->field("partitionsToBeDeleted").is_array());
  CHECK(r->field("extraMetadata").is_map());
}

TEST_CASE("cleaner plan v1 keeps file names in filesToBeDeletedPerPartition") {
  CleanerPlan in;
  in.policy = "KEEP_LATEST_COMMITS";
  in.version = 1;
  in.file_paths_to_delete_per_partition = {{"2016/03/15", {"a.parquet", "b.parquet"}}, {"2016/03/16", {}}};
  const auto bytes = encode_cleaner_plan(in);
  HUDI_REQUIRE_OK(bytes);
  const auto out = decode_cleaner_plan(*bytes, "x.clean.requested");
  HUDI_REQUIRE_OK(out);
  CHECK(*out == in);
  const auto r = avro::read_first_record(*bytes, "x");
  HUDI_REQUIRE_OK(r);
  CHECK(r->field("filePathsToBeDeletedPerPartition").is_null());
  CHECK(r->field("filesToBeDeletedPerPartition").size() == 2);
}

TEST_CASE("cleaner plan: an empty state is written as COMPLETED; a missing action is refused") {
  CleanerPlan in = sample_plan();
  in.earliest_instant_to_retain_state.clear();
  const auto bytes = encode_cleaner_plan(in);
  HUDI_REQUIRE_OK(bytes);
  const auto out = decode_cleaner_plan(*bytes, "x");
  HUDI_REQUIRE_OK(out);
  CHECK(out->earliest_instant_to_retain_state == "COMPLETED");

  in.earliest_instant_to_retain_action.clear();
  const auto refused = encode_cleaner_plan(in);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().code() == absl::StatusCode::kInvalidArgument);

  CleanerPlan bad_version = sample_plan();
  bad_version.version = 3;
  CHECK(encode_cleaner_plan(bad_version).status().code() == absl::StatusCode::kInvalidArgument);
}

TEST_CASE("clean metadata: encode then decode gives the input back") {
  const CleanMetadata in = sample_metadata();
  const auto bytes = encode_clean_metadata(in);
  HUDI_REQUIRE_OK(bytes);
  const auto out = decode_clean_metadata(*bytes, "20250101000000000.clean");
  HUDI_REQUIRE_OK(out);
  CHECK(*out == in);

  const auto c = avro::read_container(*bytes, "x.clean");
  HUDI_REQUIRE_OK(c);
  CHECK(c->schema_json == schemas::clean_metadata);
  const auto& r = c->records.at(0);
  CHECK(r.type_name() == "org.apache.hudi.avro.model.HoodieCleanMetadata");
  CHECK(field_names(r) == std::vector<std::string>{"startCleanTime", "timeTakenInMillis", "totalFilesDeleted",
                                                   "earliestCommitToRetain", "lastCompletedCommitTimestamp",
                                                   "partitionMetadata", "version", "bootstrapPartitionMetadata",
                                                   "extraMetadata"});
  CHECK(r.field("totalFilesDeleted").type() == avro::datum::kind::int32);
  CHECK(r.field("timeTakenInMillis").type() == avro::datum::kind::int64);
  CHECK(r.field("bootstrapPartitionMetadata").is_map());
  const auto& pm = r.field("partitionMetadata");
  REQUIRE(pm.size() == 2);
  CHECK(pm.elements()[0].type_name() == "org.apache.hudi.avro.model.HoodieCleanPartitionMetadata");
  CHECK(field_names(pm.elements()[0]) == std::vector<std::string>{"partitionPath", "policy", "deletePathPatterns",
                                                                  "successDeleteFiles", "failedDeleteFiles",
                                                                  "isPartitionDeleted"});
}

TEST_CASE("clean metadata of a clean that deleted nothing (the 0.x shape of Hudi 0.x)") {
  CleanMetadata in;
  in.start_clean_time = "20200101000000";
  in.time_taken_ms = -1;
  in.total_files_deleted = 0;
  CleanPartitionMetadata p;
  p.partition_path = "2020/01/01";
  p.policy = "KEEP_LATEST_COMMITS";
  in.partition_metadata = {{"2020/01/01", p}};
  const auto bytes = encode_clean_metadata(in);
  HUDI_REQUIRE_OK(bytes);
  const auto out = decode_clean_metadata(*bytes, "20200101000000.clean");
  HUDI_REQUIRE_OK(out);
  CHECK(*out == in);
}

TEST_CASE("clean metadata: totalFilesDeleted must fit Avro int") {
  CleanMetadata in = sample_metadata();
  in.total_files_deleted = 1LL << 31;
  CHECK(encode_clean_metadata(in).status().code() == absl::StatusCode::kInvalidArgument);
  in.total_files_deleted = -1;
  CHECK(encode_clean_metadata(in).status().code() == absl::StatusCode::kInvalidArgument);
}

TEST_CASE("output is deterministic, and the sync marker depends on the content") {
  const auto a = encode_cleaner_plan(sample_plan());
  const auto b = encode_cleaner_plan(sample_plan());
  HUDI_REQUIRE_OK(a);
  HUDI_REQUIRE_OK(b);
  CHECK(*a == *b);
  CleanerPlan other = sample_plan();
  other.policy = "KEEP_LATEST_BY_HOURS";
  const auto c = encode_cleaner_plan(other);
  HUDI_REQUIRE_OK(c);
  CHECK(c->substr(c->size() - 16) != a->substr(a->size() - 16));
}

TEST_CASE("a plan far larger than Avro C's 16 KiB file-writer block encodes and decodes") {
  CleanerPlan in = sample_plan();
  auto& files = in.file_paths_to_delete_per_partition["big"];
  for (int i = 0; i < 20000; ++i) {
    files.push_back("file:/warehouse/table/big/" + std::to_string(i) +
                    "-7e5c-4b1c-bb9a-d13433f75557-0_0-55-112_20260307135708654.parquet");
  }
  const auto bytes = encode_cleaner_plan(in);
  HUDI_REQUIRE_OK(bytes);
  CHECK(bytes->size() > 1'000'000);
  const auto out = decode_cleaner_plan(*bytes, "big.clean.requested");
  HUDI_REQUIRE_OK(out);
  CHECK(*out == in);
}

}  // namespace lakegc::tests::avro_writer_test
