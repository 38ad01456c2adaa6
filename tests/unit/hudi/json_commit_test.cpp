// Layout-1 (table version <= 6) commit metadata is JSON written by Jackson:
// decode_commit_metadata on hand-written documents shaped like the real files
// of docs/hudi-formats.md ("Instant files"), plus the edge cases Hudi itself accepts.
#include <doctest/doctest.h>

#include <string>

#include "lakegc/hudi/load_metadata.hpp"
#include "lakegc/hudi/metadata_codec.hpp"
#include "lakegc/hudi/rollback_records.hpp"
#include "test_util.hpp"

namespace lakegc::tests::json_commit_test {

using lakegc::hudi::CommitMetadata;
using lakegc::hudi::decode_commit_metadata;
using lakegc::hudi::detect_encoding;
using lakegc::hudi::encoding;
using lakegc::hudi::testing::to_string;

namespace {

// A completed v6 COW commit, shaped like
// v6_simplekeygen_nonhivestyle/.hoodie/20240418172804498.commit, including
// keys the decoder does not use.
constexpr std::string_view kCommit = R"({
  "partitionToWriteStats" : {
    "30" : [ {
      "fileId" : "6db57019-98ee-480e-8eb1-fb3de48e1c24-0",
      "path" : "30/6db57019-98ee-480e-8eb1-fb3de48e1c24-0_1-119-167_20240418172804498.parquet",
      "cdcStats" : null,
      "prevCommit" : "null",
      "numWrites" : 1, "numDeletes" : 0, "numUpdateWrites" : 0, "numInserts" : 1,
      "totalWriteBytes" : 441186, "totalWriteErrors" : 0, "tempPath" : null,
      "partitionPath" : "30",
      "fileSizeInBytes" : 441186, "minEventTime" : null, "maxEventTime" : null,
      "runtimeStats" : { "totalScanTime" : 0, "totalUpsertTime" : 0, "totalCreateTime" : 90 }
    } ],
    "10" : [ {
      "fileId" : "97de74b1-2a8e-4bb7-874c-0a74e1f42a77-0",
      "path" : "10/97de74b1-2a8e-4bb7-874c-0a74e1f42a77-0_0-119-166_20240418172804498.parquet",
      "prevCommit" : "20240418172802262",
      "numWrites" : 2, "numUpdateWrites" : 1, "numInserts" : 0,
      "fileSizeInBytes" : 441352
    } ]
  },
  "compacted" : false,
  "extraMetadata" : { "schema" : "{\"type\":\"record\",\"name\":\"v6_record\",\"fields\":[]}" },
  "operationType" : "UPSERT",
  "someFutureKey" : { "nested" : [ 1, 2.5, "x", null, true ] }
})";

}  // namespace

TEST_CASE("a completed v6 commit decodes; unknown keys are ignored") {
  const auto r = decode_commit_metadata(kCommit, "20240418172804498.commit");
  HUDI_REQUIRE_OK(r);
  CHECK(r->operation_type == "UPSERT");
  CHECK_FALSE(r->compacted);
  CHECK(r->partition_to_replace_file_ids.empty());
  REQUIRE(r->write_stats.size() == 2);
  // Flattened in partition-key order, whatever order the file uses.
  const auto& a = r->write_stats[0];
  CHECK(a.partition_path == "10");
  CHECK(a.file_id == "97de74b1-2a8e-4bb7-874c-0a74e1f42a77-0");
  CHECK(a.path == "10/97de74b1-2a8e-4bb7-874c-0a74e1f42a77-0_0-119-166_20240418172804498.parquet");
  CHECK(a.prev_commit == "20240418172802262");
  CHECK(a.file_size_bytes == 441352);
  const auto& b = r->write_stats[1];
  CHECK(b.partition_path == "30");
  CHECK(b.prev_commit.empty());  // the string "null": a new file group
  CHECK(b.file_size_bytes == 441186);
  CHECK(b.base_file.empty());
  CHECK(b.log_files.empty());
}

TEST_CASE("empty file, {} and whitespace around {} are empty metadata") {
  for (const std::string_view bytes :
       {std::string_view(""), std::string_view("{}"), std::string_view("{}\n"), std::string_view(" \r\n\t{ }  ")}) {
    CAPTURE(bytes);
    const auto r = decode_commit_metadata(bytes, "20240418172802262.commit.requested");
    HUDI_REQUIRE_OK(r);
    CHECK(*r == CommitMetadata{});
  }
}

TEST_CASE("detect_encoding") {
  CHECK(detect_encoding("") == encoding::empty);
  CHECK(detect_encoding("{}") == encoding::json);
  CHECK(detect_encoding("  \n{") == encoding::json);
  CHECK(detect_encoding(std::string_view("Obj\x01", 4)) == encoding::avro);
  CHECK(detect_encoding(std::string_view("Obj\x02", 4)) == encoding::unknown);
  CHECK(detect_encoding("Obj") == encoding::unknown);
  CHECK(detect_encoding("   ") == encoding::unknown);
  CHECK(detect_encoding("[1]") == encoding::unknown);
  CHECK(detect_encoding("\xef\xbb\xbf{}") == encoding::unknown);  // no BOM from Hudi
}

TEST_CASE("a v6 replacecommit keeps partitionToReplaceFileIds") {
  constexpr std::string_view doc =
      R"({ "partitionToWriteStats" : { "30" : [{ "fileId" : "ebcb261d-62d3-4895-90ec-5b3c9622dff4-0",
      "path" : "30/ebcb261d-62d3-4895-90ec-5b3c9622dff4-0_0-111-154_20240707001303088.parquet",
      "prevCommit" : "null", "numWrites" : 1, "fileSizeInBytes" : 441392 }] },
    "compacted" : false, "extraMetadata" : { "schema" : "..." },
    "operationType" : "INSERT_OVERWRITE_TABLE",
    "partitionToReplaceFileIds" : { "30" : ["d398fae1-c0e6-4098-8124-f55f7098bdba-0"],
                                    "20" : ["88163884-fef0-4aab-865d-c72327a8a1d5-0"],
                                    "10" : ["4f2685a3-614f-49ca-9b2b-e1cb9fb61f27-0", "x-0"],
                                    "40" : [] } })";
  const auto r = decode_commit_metadata(doc, "20240707001303088.replacecommit");
  HUDI_REQUIRE_OK(r);
  CHECK(r->operation_type == "INSERT_OVERWRITE_TABLE");
  const std::map<std::string, std::vector<std::string>> expected = {
      {"10", {"4f2685a3-614f-49ca-9b2b-e1cb9fb61f27-0", "x-0"}},
      {"20", {"88163884-fef0-4aab-865d-c72327a8a1d5-0"}},
      {"30", {"d398fae1-c0e6-4098-8124-f55f7098bdba-0"}},
      {"40", {}},
  };
  CHECK(r->partition_to_replace_file_ids == expected);
  REQUIRE(r->write_stats.size() == 1);
  CHECK(r->write_stats[0].file_size_bytes == 441392);
}

TEST_CASE("in-flight stats: empty fileId, null path and partitionPath; MOR log stats") {
  constexpr std::string_view doc = R"({"partitionToWriteStats":{"":[
      {"fileId":"","path":null,"prevCommit":"null","partitionPath":null,"fileSizeInBytes":0,"numInserts":3},
      {"fileId":"0712b9f9-d2d5-4cae-bcf4-8fd7146af503-0",
       "path":".0712b9f9-d2d5-4cae-bcf4-8fd7146af503-0_20250126040823628.log.1_0-33-43",
       "prevCommit":"20250126040823628","baseFile":"","logFiles":[".0712b9f9-d2d5-4cae-bcf4-8fd7146af503-0_20250126040823628.log.1_0-33-43"],
       "logVersion":1,"logOffset":0,"fileSizeInBytes":11828}]},
    "compacted":false,"operationType":null})";
  const auto r = decode_commit_metadata(doc, "20250126040823628.deltacommit.inflight");
  HUDI_REQUIRE_OK(r);
  REQUIRE(r->write_stats.size() == 2);
  CHECK(r->write_stats[0].partition_path.empty());
  CHECK(r->write_stats[0].file_id.empty());
  CHECK(r->write_stats[0].path.empty());
  CHECK(r->write_stats[1].log_files ==
        std::vector<std::string>{".0712b9f9-d2d5-4cae-bcf4-8fd7146af503-0_20250126040823628.log.1_0-33-43"});
  CHECK(r->write_stats[1].prev_commit == "20250126040823628");
  CHECK(r->operation_type.empty());
}

TEST_CASE("compacted and large integers") {
  constexpr std::string_view doc = R"({"compacted":true,"operationType":"COMPACT",
      "totalSomething":18446744073709551615,
      "partitionToWriteStats":{"p":[{"fileId":"f-0","fileSizeInBytes":9007199254740993}]}})";
  const auto r = decode_commit_metadata(doc, "20251220210129235.commit");
  HUDI_REQUIRE_OK(r);
  CHECK(r->compacted);
  REQUIRE(r->write_stats.size() == 1);
  CHECK(r->write_stats[0].file_size_bytes == 9007199254740993ULL);  // beyond double precision, kept exact
}

TEST_CASE("a repeated partition key keeps the last value, as Jackson does") {
  constexpr std::string_view doc = R"({"partitionToWriteStats":{"p":[{"fileId":"a-0"}],"p":[{"fileId":"b-0"}]},
      "partitionToReplaceFileIds":{"q":["x"],"q":["y"]}})";
  const auto r = decode_commit_metadata(doc, "1.commit");
  HUDI_REQUIRE_OK(r);
  REQUIRE(r->write_stats.size() == 1);
  CHECK(r->write_stats[0].file_id == "b-0");
  CHECK(r->partition_to_replace_file_ids.at("q") == std::vector<std::string>{"y"});
}

TEST_CASE("the journal keeps each stat's partition, file name and size, partitions sorted") {
  using lakegc::WrittenFile;
  const auto r = lakegc::hudi::detail::decode_commit_info(kCommit, "20240418172804498.commit");
  HUDI_REQUIRE_OK(r);
  // The document lists partition "30" before "10".
  CHECK(r->partitions_written == std::vector<std::string>{"10", "30"});
  CHECK(r->files == std::vector<WrittenFile>{
                        {"10", "97de74b1-2a8e-4bb7-874c-0a74e1f42a77-0_0-119-166_20240418172804498.parquet", 441352},
                        {"30", "6db57019-98ee-480e-8eb1-fb3de48e1c24-0_1-119-167_20240418172804498.parquet", 441186}});
  CHECK(r->replaced.empty());
}

TEST_CASE("a repeated member of a write stat: the first counts, in both decoders") {
  constexpr std::string_view doc =
      R"({"partitionToWriteStats":{"p":[{"path":"p/a.parquet","fileSizeInBytes":1,"path":"p/b.parquet",
          "fileSizeInBytes":2}]}})";
  const auto full = decode_commit_metadata(doc, "1.commit");
  const auto info = lakegc::hudi::detail::decode_commit_info(doc, "1.commit");
  HUDI_REQUIRE_OK(full);
  HUDI_REQUIRE_OK(info);
  REQUIRE(full->write_stats.size() == 1);
  CHECK(full->write_stats[0].path == "p/a.parquet");
  CHECK(full->write_stats[0].file_size_bytes == 1);
  CHECK(info->files == std::vector<lakegc::WrittenFile>{{"p", "a.parquet", 1}});
}

TEST_CASE("a repeated partition key: the last value counts, and the first is still checked") {
  constexpr std::string_view doc = R"({"partitionToWriteStats":{"p":[{"path":"p/a-0_1.parquet"}],
      "q":[{"path":"q/c.parquet"}],"p":[{"path":"p/b-0_2.parquet"}]}})";
  const auto info = lakegc::hudi::detail::decode_commit_info(doc, "1.commit");
  HUDI_REQUIRE_OK(info);
  CHECK(info->partitions_written == std::vector<std::string>{"p", "q"});
  CHECK(info->files == std::vector<lakegc::WrittenFile>{{"p", "b-0_2.parquet", 0}, {"q", "c.parquet", 0}});

  constexpr std::string_view bad = R"({"partitionToWriteStats":{"p":[{"fileId":7}],"p":[{"path":"p/b.parquet"}]}})";
  const auto refused = lakegc::hudi::detail::decode_commit_info(bad, "2.commit");
  REQUIRE_FALSE(refused.ok());
  CHECK(to_string(refused.status()).find(R"(partitionToWriteStats["p"][0].fileId: expected string)") !=
        std::string::npos);
  CHECK_FALSE(decode_commit_metadata(bad, "2.commit").ok());
}

TEST_CASE("garbage and truncated JSON are errors that name the file") {
  SUBCASE("not JSON at all") {
    const auto r = decode_commit_metadata("hello", "20240418172802262.commit");
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().code() == absl::StatusCode::kInvalidArgument);
    CHECK(to_string(r.status()).find("20240418172802262.commit: expected commit metadata") == 0);
  }
  SUBCASE("truncated") {
    const auto r = decode_commit_metadata(kCommit.substr(0, kCommit.size() / 2), "20240418172802262.commit");
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().code() == absl::StatusCode::kDataLoss);
    CHECK(to_string(r.status()).find("20240418172802262.commit: expected JSON commit metadata: ") == 0);
  }
  SUBCASE("every prefix that cuts the document is an error") {
    const std::string_view trimmed = kCommit.substr(0, kCommit.rfind('}') + 1);
    for (std::size_t n = 1; n < trimmed.size(); ++n) {
      CAPTURE(n);
      CHECK_FALSE(decode_commit_metadata(trimmed.substr(0, n), "x.commit").ok());
    }
  }
  SUBCASE("trailing garbage") {
    CHECK_FALSE(decode_commit_metadata("{} {}", "x.commit").ok());
    CHECK_FALSE(decode_commit_metadata("{}x", "x.commit").ok());
  }
  SUBCASE("whitespace only, a top-level array, invalid UTF-8") {
    CHECK_FALSE(decode_commit_metadata("  \n", "x.commit").ok());
    CHECK_FALSE(decode_commit_metadata("[]", "x.commit").ok());
    CHECK_FALSE(decode_commit_metadata("{\"operationType\":\"\xff\"}", "x.commit").ok());
  }
}

TEST_CASE("fields of the wrong type are errors naming the field, never guesses") {
  struct Case {
    std::string_view doc;
    std::string_view expected_in_message;
  };
  const Case cases[] = {
      {R"({"partitionToWriteStats":[]})", "partitionToWriteStats: expected map, found array"},
      {R"({"partitionToWriteStats":{"p":{}}})", R"(partitionToWriteStats["p"]: expected array, found object)"},
      {R"({"partitionToWriteStats":{"p":[null]}})", R"(partitionToWriteStats["p"][0]: expected write stat object)"},
      {R"({"partitionToWriteStats":{"p":[{"fileId":7}]}})", R"(partitionToWriteStats["p"][0].fileId: expected string)"},
      {R"({"partitionToWriteStats":{"p":[{"fileSizeInBytes":"12"}]}})",
       "fileSizeInBytes: expected integer, found string"},
      {R"({"partitionToWriteStats":{"p":[{"fileSizeInBytes":1.5}]}})", "fileSizeInBytes: expected integer"},
      {R"({"partitionToWriteStats":{"p":[{"fileSizeInBytes":-1}]}})", "fileSizeInBytes: expected a size >= 0"},
      {R"({"partitionToWriteStats":{"p":[{"logFiles":["a",null]}]}})", "logFiles[1]: expected string, found null"},
      {R"({"partitionToReplaceFileIds":{"p":"f-0"}})", R"(partitionToReplaceFileIds["p"]: expected array)"},
      {R"({"compacted":"false"})", "compacted: expected boolean, found string"},
      {R"({"operationType":1})", "operationType: expected string, found integer"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.doc);
    const auto r = decode_commit_metadata(c.doc, "7.commit");
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().code() == absl::StatusCode::kInvalidArgument);
    const std::string msg = to_string(r.status());
    CAPTURE(msg);
    CHECK(msg.find("7.commit: expected JSON commit metadata: ") == 0);
    CHECK(msg.find(c.expected_in_message) != std::string::npos);
    // The journal's decoder checks the same fields and says the same.
    const auto info = lakegc::hudi::detail::decode_commit_info(c.doc, "7.commit");
    REQUIRE_FALSE(info.ok());
    CHECK(to_string(info.status()) == msg);
  }
}

TEST_CASE("decoders of Avro-only files reject JSON and empty files, naming the file") {
  using namespace lakegc::hudi;
  const auto plan = decode_cleaner_plan("{}", "1.clean.requested");
  REQUIRE_FALSE(plan.ok());
  CHECK(to_string(plan.status()) == "1.clean.requested: expected Avro HoodieCleanerPlan: found JSON");
  const auto meta = decode_clean_metadata("", "1.clean");
  REQUIRE_FALSE(meta.ok());
  CHECK(meta.status().code() == absl::StatusCode::kDataLoss);
  CHECK(to_string(meta.status()) == "1.clean: expected Avro HoodieCleanMetadata: the file is empty");
  CHECK_FALSE(decode_compaction_plan("", "1.compaction.requested").ok());
  CHECK_FALSE(decode_rollback_metadata("garbage", "1.rollback").ok());
  CHECK_FALSE(decode_savepoint_metadata("{}", "1.savepoint").ok());
  // An empty requested replace file is an empty plan (Hudi's ClusteringUtils does the same).
  const auto clustering = decode_clustering_plan("", "1.replacecommit.requested");
  HUDI_REQUIRE_OK(clustering);
  CHECK(clustering->input_file_groups.empty());
}

}  // namespace lakegc::tests::json_commit_test
