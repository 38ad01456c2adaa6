// `lakegc orphans` over the real tables: no false positives on any of the
// twelve (every data file there is referenced, pending, or left alone for a
// stated reason), and a speculative duplicate planted in a copy is found,
// reported in the documented JSON shape, and deleted with --execute, alone.
#include <doctest/doctest.h>

#include <filesystem>
#include <set>

#include "lakegc/exec/orphan_executor.hpp"
#include "lakegc/hudi/journal.hpp"
#include "lakegc/storage/posix_storage.hpp"
#include "tool_corpus.hpp"

namespace lakegc::tests::orphans_corpus_test {

using namespace lakegc;
using namespace lakegc::testing;

namespace {
std::set<std::string> all_files(const std::filesystem::path& root) {
  std::set<std::string> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
    if (e.is_regular_file()) out.insert(std::filesystem::relative(e.path(), root).generic_string());
  }
  return out;
}
}  // namespace

TEST_CASE("the sweep finds no orphan in any corpus table") {
  for (const auto& table : corpus_tables()) {
    const auto root = unzipped(table);
    auto storage = posix_storage::open(root.string());
    REQUIRE(storage.ok());
    auto journal = hudi::journal<posix_storage>::open(*storage, root.string());
    REQUIRE_MESSAGE(journal.ok(), table);
    auto md = journal->load();
    REQUIRE_MESSAGE(md.ok(), table);
    OrphanOptions options;
    options.older_than_ms = 0;  // everything is old enough: only the classification decides
    options.force = true;
    auto plan = plan_orphans(*storage, *md, options, 4'102'444'800'000);  // year 2100
    REQUIRE_MESSAGE(plan.ok(), table);
    CHECK_MESSAGE(plan->orphans.empty(), table, ": ", plan->orphans.empty() ? "" : plan->orphans[0].path);
    CHECK_MESSAGE(plan->guards.empty(), table);
    CHECK_MESSAGE(!plan->stopped, table);
  }
}

TEST_CASE("lakegc orphans finds a planted speculative duplicate and deletes only it") {
  temp_dir tmp;
  const auto root = fresh_copy("sample_table/cow/v9_txns_simple_nometa", tmp.path());
  const auto committed =
      root / "region=eu" / "6dbe3872-463c-4bc1-b4d8-fecdade63aab-0_0-63-130_20260307135709890.parquet";
  const auto dup = root / "region=eu" / "6dbe3872-463c-4bc1-b4d8-fecdade63aab-0_9-9-9_20260307135709890.parquet";
  std::filesystem::copy_file(committed, dup);
  std::filesystem::last_write_time(dup, std::filesystem::file_time_type::clock::now() - std::chrono::hours(24 * 10));
  const auto before = all_files(root);

  tool_result dry = run_tool({"orphans", root.string(), "--json"});
  CHECK(dry.code == 1);  // findings
  json_doc doc(dry.out);
  simdjson::dom::array orphans;
  REQUIRE(doc.root["orphans"].get(orphans) == simdjson::SUCCESS);
  REQUIRE(orphans.size() == 1);
  CHECK(str(orphans.at(0)["path"]) == "region=eu/" + dup.filename().string());
  CHECK(all_files(root) == before);  // dry run deleted nothing

  tool_result run = run_tool({"orphans", root.string(), "--execute"});
  CHECK(run.code == 0);
  auto after = before;
  after.erase(std::filesystem::relative(dup, root).generic_string());
  CHECK(all_files(root) == after);

  // Bad usage is exit 2.
  CHECK(run_tool({"orphans", root.string(), "--older-than", "soon"}).code == 2);
  CHECK(run_tool({"orphans", (root / "missing").string()}).code == 2);
}

TEST_CASE("lakegc orphans reads an inventory instead of a listing") {
  temp_dir tmp;
  const auto root = fresh_copy("sample_table/cow/v6_nonpartitioned", tmp.path());
  const auto inv = tmp.path() / "inventory.csv";
  spit(inv,
       "path,size,mtime\n"
       "s3a://bucket/t/a079bdb3-731c-4894-b855-abfcd6921007-0_0-203-274_20240418173551906.parquet,1,1\n"
       "s3a://bucket/t/a079bdb3-731c-4894-b855-abfcd6921007-0_7-7-7_20240418173551906.parquet,5,1\n");
  tool_result r =
      run_tool({"orphans", root.string(), "--inventory", inv.string(), "--location", "s3://bucket/t", "--json"});
  CHECK(r.code == 1);
  json_doc doc(r.out);
  simdjson::dom::array orphans;
  REQUIRE(doc.root["orphans"].get(orphans) == simdjson::SUCCESS);
  REQUIRE(orphans.size() == 1);
  CHECK(str(orphans.at(0)["path"]) == "a079bdb3-731c-4894-b855-abfcd6921007-0_7-7-7_20240418173551906.parquet");
  // An inventory for another location is an error unless told otherwise.
  CHECK(run_tool({"orphans", root.string(), "--inventory", inv.string(), "--location", "s3://other/t"}).code == 2);
}

}  // namespace lakegc::tests::orphans_corpus_test
