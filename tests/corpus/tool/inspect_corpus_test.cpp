// `lakegc inspect --json` on every corpus table, at the latest instant,
// against the latest slices derived by hand from each table's timeline and files (older
// slices and replaced file groups), and at the time-travel instants of the
// hudi-rs assertions in section 10. The JSON comes from the function the
// tool prints (cli::inspect_json) and is parsed back, so the documented
// shape is what is checked.
#include <doctest/doctest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cli/inspect.hpp"
#include "tool_corpus.hpp"

namespace lakegc::tests::inspect_corpus_test {

using namespace lakegc;
using namespace lakegc::testing;

namespace {

struct Live {
  std::string partition;
  std::string latest_base;
  std::vector<std::string> latest_logs;
  std::vector<std::string> older_slices;  // base instants, newest first
};

struct Replaced {
  std::string partition;
  std::string file_id_prefix;  // Appendix A names groups by their first 8 characters
  std::string by;
};

struct Expected {
  std::string type;
  int version = 0;
  int layout = 0;
  std::uint64_t completed_commits = 0;
  std::vector<Live> live;
  std::vector<Replaced> replaced;
};

// The latest slices derived by hand, every table.
const std::map<std::string, Expected>& appendix_a() {
  static const std::map<std::string, Expected> e = {
      {"quickstart_trips_table/mor/avro/v8_trips_8i3u1d",
       {"MERGE_ON_READ",
        8,
        2,
        7,
        {{"city=chennai",
          "6e1d5cc4-c487-487d-abbe-fe9b30b1c0cc-0_0-1112-3190_20251220210129235.parquet",
          {},
          {"20251220210108078"}},
         {"city=san_francisco",
          "036ded81-9ed4-479f-bcea-7145dfa0079b-0_1-1112-3191_20251220210129235.parquet",
          {},
          {"20251220210108078"}},
         {"city=sao_paulo",
          "8aa68f7e-afd6-4c94-b86c-8a886552e08d-0_2-1112-3192_20251220210129235.parquet",
          {".8aa68f7e-afd6-4c94-b86c-8a886552e08d-0_20251220210130911.log.1_0-1139-3316"},
          {"20251220210108078"}}},
        {}}},
      {"sample_table/cow/v6_complexkeygen_hivestyle",
       {"COPY_ON_WRITE",
        6,
        1,
        2,
        {{"byteField=10/shortField=300",
          "a22e8257-e249-45e9-ba46-115bc85adcba-0_0-161-223_20240418173235694.parquet",
          {},
          {"20240418173213674"}},
         {"byteField=20/shortField=100",
          "bb7c3a45-387f-490d-aab2-981c3f1a8ada-0_0-140-198_20240418173213674.parquet",
          {},
          {}},
         {"byteField=30/shortField=100",
          "4668e35e-bff8-4be9-9ff2-e7fb17ecb1a7-0_1-161-224_20240418173235694.parquet",
          {},
          {}}},
        {}}},
      {"sample_table/cow/v6_empty", {"COPY_ON_WRITE", 6, 1, 0, {}, {}}},
      {"sample_table/cow/v6_nonpartitioned",
       {"COPY_ON_WRITE",
        6,
        1,
        2,
        {{"", "a079bdb3-731c-4894-b855-abfcd6921007-0_0-203-274_20240418173551906.parquet", {}, {"20240418173550988"}}},
        {}}},
      {"sample_table/cow/v6_simplekeygen_nonhivestyle",
       {"COPY_ON_WRITE",
        6,
        1,
        2,
        {{"10",
          "97de74b1-2a8e-4bb7-874c-0a74e1f42a77-0_0-119-166_20240418172804498.parquet",
          {},
          {"20240418172802262"}},
         {"20", "76e0556b-390d-4249-b7ad-9059e2bc2cbd-0_0-98-141_20240418172802262.parquet", {}, {}},
         {"30", "6db57019-98ee-480e-8eb1-fb3de48e1c24-0_1-119-167_20240418172804498.parquet", {}, {}}},
        {}}},
      {"sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable",
       {"COPY_ON_WRITE",
        6,
        1,
        3,
        {{"30", "ebcb261d-62d3-4895-90ec-5b3c9622dff4-0_0-111-154_20240707001303088.parquet", {}, {}}},
        {{"10", "4f2685a3", "20240707001303088"},
         {"20", "88163884", "20240707001303088"},
         {"30", "d398fae1", "20240707001303088"}}}},
      {"sample_table/cow/v8_complexkeygen_hivestyle",
       {"COPY_ON_WRITE",
        8,
        2,
        2,
        {{"byteField=10/shortField=300",
          "fc77c22c-d464-4c45-969f-6fcc0305a792-0_0-34-49_20250713010142013.parquet",
          {},
          {"20250713010139392"}},
         {"byteField=20/shortField=100",
          "4e781779-6989-4a4e-aa3e-683eff88629f-0_0-13-24_20250713010139392.parquet",
          {},
          {}},
         {"byteField=30/shortField=100",
          "50a5da38-7ca1-4db9-aaae-4e50b5351632-0_1-34-50_20250713010142013.parquet",
          {},
          {}}},
        {}}},
      {"sample_table/cow/v8_nonpartitioned",
       {"COPY_ON_WRITE",
        8,
        2,
        2,
        {{"", "2746610d-ad02-4adb-a038-5cbb99cbd455-0_0-75-100_20250713010536861.parquet", {}, {"20250713010535797"}}},
        {}}},
      {"sample_table/cow/v9_txns_simple_nometa",
       {"COPY_ON_WRITE",
        9,
        2,
        12,
        {{"region=apac", "e7a919f0-d0f4-4bd5-82ee-32f7e35168b8-0_0-59-121_20260307135709297.parquet", {}, {}},
         {"region=eu", "54893091-ea2c-4ad4-aee4-1fd87f68ad8c-0_1-59-122_20260307135709297.parquet", {}, {}},
         {"region=eu", "6dbe3872-463c-4bc1-b4d8-fecdade63aab-0_0-63-130_20260307135709890.parquet", {}, {}},
         {"region=us", "3871f9c0-2553-4393-afe3-9103b996adee-0_1-63-131_20260307135709890.parquet", {}, {}},
         {"region=us", "870387c8-4759-405b-a176-ee30787abec0-0_2-59-123_20260307135709297.parquet", {}, {}}},
        {{"region=apac", "501c09bc", "20260307135709297"},
         {"region=apac", "859bcb77", "20260307135709297"},
         {"region=eu", "2ecf970b", "20260307135709297"},
         {"region=eu", "85da9a6c", "20260307135707243"},
         {"region=eu", "a80c27f5", "20260307135707243"},
         {"region=us", "742a4f26", "20260307135709297"},
         {"region=us", "d32df875", "20260307135709297"}}}},
      {"sample_table/mor/avro/v9_txns_simple_nometa",
       {"MERGE_ON_READ",
        9,
        2,
        13,
        {{"region=apac", "db3ba9f9-d2c3-4bf4-a2e7-03ea74dd032f-0_0-66-139_20260307135840454.parquet", {}, {}},
         {"region=eu", "b151ed41-bdc8-4b95-a733-69266ed89edd-0_1-66-140_20260307135840454.parquet", {}, {}},
         {"region=eu", "c1690aed-ab5b-4e4a-aa70-d8de21cdf5df-0_0-70-148_20260307135840975.parquet", {}, {}},
         {"region=us", "4625f1ea-a436-4846-a24a-1328e1c036a6-0_2-66-141_20260307135840454.parquet", {}, {}},
         {"region=us", "7e0f3c9f-f99a-439a-9e9b-e504f87f9ae5-0_1-70-149_20260307135840975.parquet", {}, {}}},
        {{"region=apac", "6c49c37a", "20260307135840454"},
         {"region=apac", "9c6ed25b", "20260307135840454"},
         {"region=eu", "7a277c43", "20260307135840454"},
         {"region=eu", "be8660fe", "20260307135837782"},
         {"region=eu", "c06fe141", "20260307135837782"},
         {"region=us", "8fbe3fc8", "20260307135840454"},
         {"region=us", "db2fca8f", "20260307135840454"}}}},
      {"sample_table/mor/parquet/v6_nonpartitioned_rollback",
       {"MERGE_ON_READ",
        6,
        1,
        2,
        {{"",
          "0712b9f9-d2d5-4cae-bcf4-8fd7146af503-0_0-13-23_20250126040823628.parquet",
          {".0712b9f9-d2d5-4cae-bcf4-8fd7146af503-0_20250126040823628.log.1_0-33-43",
           ".0712b9f9-d2d5-4cae-bcf4-8fd7146af503-0_20250126040823628.log.2_1-0-1",
           ".0712b9f9-d2d5-4cae-bcf4-8fd7146af503-0_20250126040823628.log.3_0-13-9"},
          {}}},
        {}}},
      {"sample_table/mor/parquet/v6_simplekeygen_nonhivestyle_overwritetable",
       {"MERGE_ON_READ",
        6,
        1,
        3,
        {{"30", "1c6b76d7-67cd-4b69-8da9-6e5122db91cb-0_0-88-119_20250121000702475.parquet", {}, {}}},
        {{"10", "92e64357", "20250121000702475"},
         {"20", "d49ae379", "20250121000702475"},
         {"30", "de3550df", "20250121000702475"}}}},
  };
  return e;
}

/// What an inspect JSON document says, in Appendix A's terms.
struct Seen {
  std::string type;
  std::int64_t version = 0;
  std::int64_t layout = 0;
  std::uint64_t completed_commits = 0;
  std::vector<Live> live;
  std::vector<Replaced> replaced;
  std::vector<std::string> uncommitted;
};

Seen read_inspect_json(const std::string& text) {
  json_doc doc(text);
  Seen s;
  const auto table = doc.root["table"];
  s.type = str(table["type"]);
  s.version = table["version"].get_int64().value();
  s.layout = table["timeline_layout"].get_int64().value();
  s.completed_commits = table["completed_commits"].get_uint64().value();
  for (auto part : doc.root["partitions"].get_array()) {
    const std::string path = str(part["path"]);
    for (auto g : part["file_groups"].get_array()) {
      const std::string id = str(g["file_id"]);
      if (!is_null(g["replaced_by"])) {
        s.replaced.push_back({path, id.substr(0, 8), str(g["replaced_by"])});
        continue;
      }
      Live l;
      l.partition = path;
      bool first = true;
      for (auto slice : g["slices"].get_array()) {
        if (first) {
          l.latest_base = is_null(slice["base_file"]) ? "" : str(slice["base_file"]);
          for (auto log : slice["log_files"].get_array()) l.latest_logs.push_back(str(log));
          first = false;
        } else {
          l.older_slices.push_back(str(slice["base_instant"]));
        }
      }
      s.live.push_back(std::move(l));
    }
    for (auto u : part["uncommitted_files"].get_array()) s.uncommitted.push_back(str(u));
  }
  return s;
}

Seen inspect_at(const std::string& table, std::optional<InstantTime> as_of) {
  auto t = cli::open_table(unzipped(table).string());
  REQUIRE_MESSAGE(t.ok(), message_of(t.status()));
  auto r = cli::inspect(**t, as_of);
  REQUIRE_MESSAGE(r.ok(), message_of(r.status()));
  return read_inspect_json(cli::inspect_json(*r));
}

InstantTime at(const char* s) { return InstantTime::parse(s).value(); }

}  // namespace

TEST_CASE("inspect --json at the latest instant matches Appendix A for all twelve tables") {
  REQUIRE(appendix_a().size() == corpus_tables().size());
  for (const auto& table : corpus_tables()) {
    INFO(table);
    const Expected& want = appendix_a().at(table);
    const Seen got = inspect_at(table, std::nullopt);
    CHECK(got.type == want.type);
    CHECK(got.version == want.version);
    CHECK(got.layout == want.layout);
    CHECK(got.completed_commits == want.completed_commits);
    REQUIRE(got.live.size() == want.live.size());
    for (std::size_t i = 0; i < want.live.size(); ++i) {
      CHECK(got.live[i].partition == want.live[i].partition);
      CHECK(got.live[i].latest_base == want.live[i].latest_base);
      CHECK(got.live[i].latest_logs == want.live[i].latest_logs);
      CHECK(got.live[i].older_slices == want.live[i].older_slices);
    }
    REQUIRE(got.replaced.size() == want.replaced.size());
    for (std::size_t i = 0; i < want.replaced.size(); ++i) {
      CHECK(got.replaced[i].partition == want.replaced[i].partition);
      CHECK(got.replaced[i].file_id_prefix == want.replaced[i].file_id_prefix);
      CHECK(got.replaced[i].by == want.replaced[i].by);
    }
    // "The corpus contains no uncommitted or orphan base files."
    CHECK(got.uncommitted.empty());
  }
}

TEST_CASE("time travel on v6_nonpartitioned (hudi-rs: get_file_slices as of)") {
  const std::string table = "sample_table/cow/v6_nonpartitioned";
  const Seen same = inspect_at(table, at("20240418173551906"));
  REQUIRE(same.live.size() == 1);
  CHECK(same.live[0].latest_base == "a079bdb3-731c-4894-b855-abfcd6921007-0_0-203-274_20240418173551906.parquet");
  const Seen before = inspect_at(table, at("20240418173551905"));
  REQUIRE(before.live.size() == 1);
  CHECK(before.live[0].latest_base == "a079bdb3-731c-4894-b855-abfcd6921007-0_0-182-253_20240418173550988.parquet");
  CHECK(before.live[0].older_slices.empty());
  CHECK(inspect_at(table, at("19700101000000")).live.empty());
}

TEST_CASE("time travel on the MOR overwrite table: 3 slices before the replacecommit, 1 at it") {
  const std::string table = "sample_table/mor/parquet/v6_simplekeygen_nonhivestyle_overwritetable";
  const Seen before = inspect_at(table, at("20250121000656060"));
  CHECK(before.replaced.empty());  // the replacecommit is later
  REQUIRE(before.live.size() == 3);
  CHECK(before.live[0].partition == "10");
  CHECK(before.live[0].latest_base == "92e64357-e4d1-4639-a9d3-c3535829d0aa-0_1-53-79_20250121000647668.parquet");
  CHECK(before.live[0].latest_logs ==
        std::vector<std::string>{".92e64357-e4d1-4639-a9d3-c3535829d0aa-0_20250121000647668.log.1_0-73-101"});
  CHECK(before.live[1].partition == "20");
  CHECK(before.live[1].latest_base.starts_with("d49ae379"));
  CHECK(before.live[2].partition == "30");
  CHECK(before.live[2].latest_base.starts_with("de3550df"));
  const Seen at_replace = inspect_at(table, at("20250121000702475"));
  CHECK(at_replace.live.size() == 1);
  CHECK(at_replace.replaced.size() == 3);
}

TEST_CASE("commit metadata sizes of the MOR overwrite table's first slices (hudi-rs incremental read)") {
  auto t = cli::open_table(unzipped("sample_table/mor/parquet/v6_simplekeygen_nonhivestyle_overwritetable").string());
  REQUIRE_MESSAGE(t.ok(), message_of(t.status()));
  std::map<std::string, std::uint64_t> sizes;
  for (const auto& [instant, info] : (*t)->metadata.commits) {
    for (const auto& f : info.files) {
      std::uint64_t& s = sizes[std::string(f.name.substr(0, 8))];
      s = std::max(s, f.size);
    }
  }
  CHECK(sizes["92e64357"] == 440878);
  CHECK(sizes["d49ae379"] == 440616);
  CHECK(sizes["de3550df"] == 440638);
}

TEST_CASE("completed commit counts of the hudi-rs timeline assertions") {
  CHECK(inspect_at("sample_table/cow/v6_simplekeygen_nonhivestyle", std::nullopt).completed_commits == 2);
  CHECK(inspect_at("sample_table/cow/v6_complexkeygen_hivestyle", std::nullopt).completed_commits == 2);
  CHECK(inspect_at("sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable", std::nullopt).completed_commits ==
        3);
}

TEST_CASE("inspect reads the partitions' commitTime and the metadata table's partitions") {
  auto t = cli::open_table(unzipped("quickstart_trips_table/mor/avro/v8_trips_8i3u1d").string());
  REQUIRE_MESSAGE(t.ok(), message_of(t.status()));
  auto r = cli::inspect(**t, std::nullopt);
  REQUIRE_MESSAGE(r.ok(), message_of(r.status()));
  json_doc doc(cli::inspect_json(*r));
  CHECK(str(doc.root["partitions"].at(0)["commit_time"]) == "20251220210108078");
  bool files = false;
  for (auto p : doc.root["table"]["metadata_table_partitions"].get_array()) files = files || str(p) == "files";
  CHECK(files);
  // The indexing instant is on the timeline but is not a commit.
  bool indexing = false;
  for (auto i : doc.root["timeline"].get_array()) {
    if (str(i["action"]) == "indexing") {
      indexing = true;
      CHECK(str(i["requested"]) == "20251220210117766");
      CHECK(str(i["completed"]) == "20251220210118628");
      CHECK(str(i["state"]) == "completed");
    }
  }
  CHECK(indexing);
}

}  // namespace lakegc::tests::inspect_corpus_test
