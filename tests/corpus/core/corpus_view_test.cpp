// TableView built from names only, checked against the latest slices derived by hand
// (derived expected latest snapshots) and the hudi-rs assertions of section
// 10, for every corpus table without a replacecommit (replaced groups need
// commit metadata, which a later layer reads).
#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "corpus.hpp"
#include "corpus_support.hpp"

namespace lakegc::tests::corpus_view_test {

using namespace lakegc;
using namespace lakegc::testing;

namespace {

struct ExpectedGroup {
  std::string partition;
  std::string latest_base;
  std::vector<std::string> latest_logs;
  std::vector<std::string> older_slices;  // base instants, newest first
};

// Appendix A, verbatim.
const std::map<std::string, std::vector<ExpectedGroup>>& expected() {
  static const std::map<std::string, std::vector<ExpectedGroup>> e = {
      {"quickstart_trips_table/mor/avro/v8_trips_8i3u1d",
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
         {"20251220210108078"}}}},
      {"sample_table/cow/v6_complexkeygen_hivestyle",
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
         {}}}},
      {"sample_table/cow/v6_empty", {}},
      {"sample_table/cow/v6_nonpartitioned",
       {{"", "a079bdb3-731c-4894-b855-abfcd6921007-0_0-203-274_20240418173551906.parquet", {}, {"20240418173550988"}}}},
      {"sample_table/cow/v6_simplekeygen_nonhivestyle",
       {{"10", "97de74b1-2a8e-4bb7-874c-0a74e1f42a77-0_0-119-166_20240418172804498.parquet", {}, {"20240418172802262"}},
        {"20", "76e0556b-390d-4249-b7ad-9059e2bc2cbd-0_0-98-141_20240418172802262.parquet", {}, {}},
        {"30", "6db57019-98ee-480e-8eb1-fb3de48e1c24-0_1-119-167_20240418172804498.parquet", {}, {}}}},
      {"sample_table/cow/v8_complexkeygen_hivestyle",
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
         {}}}},
      {"sample_table/cow/v8_nonpartitioned",
       {{"", "2746610d-ad02-4adb-a038-5cbb99cbd455-0_0-75-100_20250713010536861.parquet", {}, {"20250713010535797"}}}},
      {"sample_table/mor/parquet/v6_nonpartitioned_rollback",
       {{"",
         "0712b9f9-d2d5-4cae-bcf4-8fd7146af503-0_0-13-23_20250126040823628.parquet",
         {".0712b9f9-d2d5-4cae-bcf4-8fd7146af503-0_20250126040823628.log.1_0-33-43",
          ".0712b9f9-d2d5-4cae-bcf4-8fd7146af503-0_20250126040823628.log.2_1-0-1",
          ".0712b9f9-d2d5-4cae-bcf4-8fd7146af503-0_20250126040823628.log.3_0-13-9"},
         {}}}},
  };
  return e;
}

std::vector<ExpectedGroup> actual(const TableView& v) {
  std::vector<ExpectedGroup> out;
  for (const Partition& p : v.partitions()) {
    for (const FileGroup& g : v.groups_of(p)) {
      if (g.replaced_by) continue;
      const auto slices = v.slices_of(g);
      ExpectedGroup e;
      e.partition = p.path;
      e.latest_base = slices[0].base_file == kNoFile ? "" : std::string(v.file_name(slices[0].base_file));
      for (auto f : v.logs_of(slices[0])) e.latest_logs.emplace_back(v.file_name(f));
      for (std::size_t i = 1; i < slices.size(); ++i) e.older_slices.push_back(slices[i].base_instant.str());
      out.push_back(std::move(e));
    }
  }
  return out;
}

void check_same(const std::string& table, const std::vector<ExpectedGroup>& got,
                const std::vector<ExpectedGroup>& want) {
  REQUIRE_MESSAGE(got.size() == want.size(), table);
  for (std::size_t i = 0; i < want.size(); ++i) {
    CHECK_MESSAGE(got[i].partition == want[i].partition, table);
    CHECK_MESSAGE(got[i].latest_base == want[i].latest_base, table);
    CHECK_MESSAGE(got[i].latest_logs == want[i].latest_logs, table);
    CHECK_MESSAGE(got[i].older_slices == want[i].older_slices, table);
  }
}

}  // namespace

TEST_CASE("views from names match the expected latest slices of every table without a replacecommit") {
  temp_dir tmp;
  for (const auto& [table, want] : expected()) {
    const auto named = load_by_names(unzip_table(table, tmp.path()));
    const TableView v = build_view(named, named.timeline);
    check_same(table, actual(v), want);
    CHECK_MESSAGE(v.uncommitted_files().empty(), table);
  }
}

TEST_CASE("v8 trips: compaction slices and completion-time log attachment") {
  temp_dir tmp;
  const auto named = load_by_names(unzip_table("quickstart_trips_table/mor/avro/v8_trips_8i3u1d", tmp.path()));
  const TableView v = build_view(named, named.timeline);
  std::size_t logs = 0;
  for (const FileGroup& g : v.groups()) {
    CHECK(v.slices_of(g).size() == 2);
    for (const FileSlice& s : v.slices_of(g)) logs += s.log_count;
  }
  CHECK(v.groups().size() == 3);
  CHECK(logs == 5);  // counted by hand: 5 log files
}

TEST_CASE("time travel on v6_nonpartitioned (hudi-rs fs_view assertions)") {
  temp_dir tmp;
  const auto named = load_by_names(unzip_table("sample_table/cow/v6_nonpartitioned", tmp.path()));
  auto latest_at = [&](const char* as_of) -> std::string {
    const Timeline tl = named.timeline.as_of(InstantTime::parse(as_of).value());
    const TableView v = build_view(named, tl);
    if (v.groups().empty()) return "";
    return std::string(v.file_name(v.slices_of(v.groups()[0])[0].base_file));
  };
  CHECK(latest_at("20240418173551906") == "a079bdb3-731c-4894-b855-abfcd6921007-0_0-203-274_20240418173551906.parquet");
  CHECK(latest_at("20240418173551905") == "a079bdb3-731c-4894-b855-abfcd6921007-0_0-182-253_20240418173550988.parquet");
  CHECK(latest_at("19700101000000") == "");
}

}  // namespace lakegc::tests::corpus_view_test
