// The Avro metadata decoders on hand-encoded records: savepoints, compaction
// plans with absolute URIs and log-only slices, clustering plans, rollback
// metadata, an old clean, and fields of the wrong type.
#include <doctest/doctest.h>

#include <string>

#include "lakegc/hudi/metadata_codec.hpp"
#include "lakegc/hudi/rollback_records.hpp"
#include "hudi_schemas.hpp"
#include "test_util.hpp"

namespace lakegc::tests::avro_decoders_test {

using namespace lakegc::hudi;
using namespace lakegc::hudi::testing;
using lakegc::testing::kCompactionSchema;
using lakegc::testing::kSavepointSchema;

namespace {

// Union branch index, then the value.
std::string branch(int index, const std::string& value = {}) { return enc_long(index) + value; }
std::string str_array(std::initializer_list<std::string_view> items) {
  std::string out;
  if (items.size() != 0) {
    out += enc_long(static_cast<std::int64_t>(items.size()));
    for (const auto s : items) out += enc_string(s);
  }
  return out + enc_long(0);
}
std::string file_of(std::string_view schema, const std::string& datum) {
  return container_header(schema) + container_block(1, datum);
}

std::string compaction_op(const std::string& base, const std::string& deltas, const std::string& data,
                          const std::string& file_id, const std::string& partition) {
  return base + deltas + data + file_id + partition;
}

}  // namespace

TEST_CASE("savepoint metadata: files reduced to names, partition from the map key") {
  std::string d = enc_string("admin") + enc_long(1714000000) + enc_string("before upgrade");
  d += enc_long(2);
  d += enc_string("10") + enc_string("10") + str_array({"a.parquet", "file:/t/10/b.parquet"});
  d += enc_string("") + enc_string("") + str_array({});
  d += enc_long(0);
  d += branch(0, enc_long(1));
  const auto r = decode_savepoint_metadata(file_of(kSavepointSchema, d), "20240418172804498.savepoint");
  HUDI_REQUIRE_OK(r);
  CHECK(r->savepointed_by == "admin");
  CHECK(r->savepointed_at == 1714000000);
  CHECK(r->comments == "before upgrade");
  CHECK(r->partition_files ==
        std::map<std::string, std::vector<std::string>>{{"", {}}, {"10", {"a.parquet", "b.parquet"}}});
}

TEST_CASE("compaction plan: URIs reduced to file names; a log-only slice has no data file") {
  std::string ops;
  ops += compaction_op(branch(1, enc_string("20251220210108078")),
                       branch(1, str_array({"file:/w/t/p=1/.f1-0_20251220210108078.log.1_0-1-1"})),
                       branch(1, enc_string("file:/w/t/p=1/f1-0_0-1-1_20251220210108078.parquet")),
                       branch(1, enc_string("f1-0")), branch(1, enc_string("p=1")));
  ops += compaction_op(branch(1, enc_string("20251220210108078")), branch(1, str_array({".f2-0_1.log.1_0-1-1"})),
                       branch(0), branch(1, enc_string("f2-0")), branch(0));
  const std::string d = branch(1, enc_long(2) + ops + enc_long(0)) + branch(0, enc_long(2));
  const auto r = decode_compaction_plan(file_of(kCompactionSchema, d), "20251220210129235.compaction.requested");
  HUDI_REQUIRE_OK(r);
  REQUIRE(r->operations.size() == 2);
  const auto& a = r->operations[0];
  CHECK(a.partition_path == "p=1");
  CHECK(a.file_id == "f1-0");
  CHECK(a.base_instant == "20251220210108078");
  CHECK(a.data_file_name == "f1-0_0-1-1_20251220210108078.parquet");
  CHECK(a.delta_file_names == std::vector<std::string>{".f1-0_20251220210108078.log.1_0-1-1"});
  const auto& b = r->operations[1];
  CHECK(b.partition_path.empty());
  CHECK(b.data_file_name.empty());
  CHECK(b.delta_file_names == std::vector<std::string>{".f2-0_1.log.1_0-1-1"});

  // A null plan is empty; a null fileId is refused rather than guessed.
  const auto empty = decode_compaction_plan(file_of(kCompactionSchema, branch(0) + branch(1)), "x");
  HUDI_REQUIRE_OK(empty);
  CHECK(empty->operations.empty());
  const std::string no_id = compaction_op(branch(1, enc_string("1")), branch(0), branch(0), branch(0), branch(0));
  const auto bad = decode_compaction_plan(
      file_of(kCompactionSchema, branch(1, enc_long(1) + no_id + enc_long(0)) + branch(1)), "7.compaction.requested");
  REQUIRE_FALSE(bad.ok());
  CHECK(to_string(bad.status()) ==
        "7.compaction.requested: expected Avro HoodieCompactionPlan: operations[0].fileId: expected string, found null "
        "or nothing");
}

TEST_CASE("clustering plan: (partition, fileId) of every slice of every group") {
  constexpr std::string_view schema =
      R"({"type":"record","name":"HoodieRequestedReplaceMetadata","namespace":"org.apache.hudi.avro.model","fields":[)"
      R"({"name":"operationType","type":["null","string"]},)"
      R"({"name":"clusteringPlan","type":["null",{"type":"record","name":"HoodieClusteringPlan","fields":[)"
      R"({"name":"inputGroups","type":["null",{"type":"array","items":{"type":"record","name":"HoodieClusteringGroup",)"
      R"("fields":[{"name":"slices","type":["null",{"type":"array","items":{"type":"record","name":"HoodieSliceInfo",)"
      R"("fields":[{"name":"dataFilePath","type":["null","string"]},{"name":"fileId","type":["null","string"]},)"
      R"({"name":"partitionPath","type":["null","string"]}]}}]}]}}]}]}]}]})";
  auto slice = [](std::string_view partition, std::string_view id) {
    return branch(1, enc_string("file:/x/" + std::string(id) + ".parquet")) + branch(1, enc_string(id)) +
           branch(1, enc_string(partition));
  };
  const std::string group1 =
      branch(1, enc_long(2) + slice("region=us", "a-0") + slice("region=us", "b-0") + enc_long(0));
  const std::string group2 = branch(1, enc_long(1) + slice("region=eu", "c-0") + enc_long(0));
  const std::string plan = branch(1, branch(1, enc_long(2) + group1 + group2 + enc_long(0)));
  const auto r =
      decode_clustering_plan(file_of(schema, branch(1, enc_string("CLUSTER")) + plan), "1.clustering.requested");
  HUDI_REQUIRE_OK(r);
  CHECK(r->input_file_groups == std::vector<std::pair<std::string, std::string>>{
                                    {"region=us", "a-0"}, {"region=us", "b-0"}, {"region=eu", "c-0"}});

  // All fields null (what insert_overwrite writes): an empty plan.
  const auto none = decode_clustering_plan(file_of(schema, branch(0) + branch(0)), "1.replacecommit.requested");
  HUDI_REQUIRE_OK(none);
  CHECK(none->input_file_groups.empty());
}

TEST_CASE("rollback metadata and an old clean without the fields newer Hudi added") {
  constexpr std::string_view rollback_schema =
      R"({"type":"record","name":"HoodieRollbackMetadata","namespace":"org.apache.hudi.avro.model","fields":[)"
      R"({"name":"startRollbackTime","type":"string"},{"name":"timeTakenInMillis","type":"long"},)"
      R"({"name":"totalFilesDeleted","type":"int"},{"name":"commitsRollback","type":{"type":"array","items":"string"}},)"
      R"({"name":"partitionMetadata","type":{"type":"map","values":{"type":"record",)"
      R"("name":"HoodieRollbackPartitionMetadata","fields":[{"name":"partitionPath","type":"string"},)"
      R"({"name":"successDeleteFiles","type":{"type":"array","items":"string"}},)"
      R"({"name":"failedDeleteFiles","type":{"type":"array","items":"string"}}]}}}]})";
  std::string d = enc_string("2") + enc_long(10) + enc_long(1) + str_array({"1"});
  d += enc_long(1) + enc_string("p") + enc_string("p") + str_array({"/t/p/f.parquet"}) + str_array({});
  d += enc_long(0);
  const auto r = decode_rollback_metadata(file_of(rollback_schema, d), "2.rollback");
  HUDI_REQUIRE_OK(r);
  CHECK(r->commits_rollback == std::vector<std::string>{"1"});
  CHECK(r->success_delete_files.at("p") == std::vector<std::string>{"/t/p/f.parquet"});

  // A writer's schema that makes commitsRollback nullable: a null says nothing
  // about what was rolled back, so it is refused, never read as "nothing".
  constexpr std::string_view nullable_schema =
      R"({"type":"record","name":"HoodieRollbackMetadata","namespace":"org.apache.hudi.avro.model","fields":[)"
      R"({"name":"startRollbackTime","type":"string"},{"name":"timeTakenInMillis","type":"long"},)"
      R"({"name":"totalFilesDeleted","type":"int"},)"
      R"({"name":"commitsRollback","type":["null",{"type":"array","items":"string"}]},)"
      R"({"name":"partitionMetadata","type":{"type":"map","values":"string"}}]})";
  const std::string null_commits = enc_string("3") + enc_long(10) + enc_long(0) + enc_long(0) + enc_long(0);
  const auto refused = decode_rollback_metadata(file_of(nullable_schema, null_commits), "3.rollback");
  REQUIRE_FALSE(refused.ok());
  CHECK(to_string(refused.status()).find("commitsRollback") != std::string::npos);
  CHECK(to_string(refused.status()).find("3.rollback") != std::string::npos);

  // HoodieCleanMetadata as Hudi 0.5 wrote it: no lastCompletedCommitTimestamp,
  // version, isPartitionDeleted or extraMetadata.
  constexpr std::string_view old_clean =
      R"({"type":"record","name":"HoodieCleanMetadata","namespace":"org.apache.hudi.avro.model","fields":[)"
      R"({"name":"startCleanTime","type":"string"},{"name":"timeTakenInMillis","type":"long"},)"
      R"({"name":"totalFilesDeleted","type":"int"},{"name":"earliestCommitToRetain","type":"string"},)"
      R"({"name":"partitionMetadata","type":{"type":"map","values":{"type":"record",)"
      R"("name":"HoodieCleanPartitionMetadata","fields":[{"name":"partitionPath","type":"string"},)"
      R"({"name":"policy","type":"string"},{"name":"deletePathPatterns","type":{"type":"array","items":"string"}},)"
      R"({"name":"successDeleteFiles","type":{"type":"array","items":"string"}},)"
      R"({"name":"failedDeleteFiles","type":{"type":"array","items":"string"}}]}}}]})";
  std::string c = enc_string("20200101000000") + enc_long(-1) + enc_long(0) + enc_string("");
  c += enc_long(1) + enc_string("2020/01/01") + enc_string("2020/01/01") + enc_string("KEEP_LATEST_COMMITS");
  c += str_array({}) + str_array({}) + str_array({}) + enc_long(0);
  const auto m = decode_clean_metadata(file_of(old_clean, c), "20200101000000.clean");
  HUDI_REQUIRE_OK(m);
  CHECK(m->version == 1);
  CHECK(m->time_taken_ms == -1);
  CHECK(m->last_completed_commit_timestamp.empty());
  REQUIRE(m->partition_metadata.count("2020/01/01") == 1);
  CHECK(m->partition_metadata.at("2020/01/01").policy == "KEEP_LATEST_COMMITS");
  CHECK_FALSE(m->partition_metadata.at("2020/01/01").is_partition_deleted);
}

TEST_CASE("an Avro field of the wrong type is an error naming it") {
  // partitionToWriteStats as an array instead of a map.
  constexpr std::string_view schema =
      R"({"type":"record","name":"HoodieCommitMetadata","namespace":"org.apache.hudi.avro.model","fields":[)"
      R"({"name":"partitionToWriteStats","type":{"type":"array","items":"string"}},)"
      R"({"name":"compacted","type":["null","boolean"]}]})";
  const auto r = decode_commit_metadata(file_of(schema, str_array({"x"}) + branch(1, "\x01")),
                                        "20260307135657661_20260307135659468.commit");
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == absl::StatusCode::kInvalidArgument);
  CHECK(to_string(r.status()) ==
        "20260307135657661_20260307135659468.commit: expected Avro HoodieCommitMetadata: partitionToWriteStats: "
        "expected map, found array");
}

}  // namespace lakegc::tests::avro_decoders_test
