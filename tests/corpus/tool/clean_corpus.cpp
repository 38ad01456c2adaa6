// Issue 14: `lakegc clean --execute` on real Spark-written tables: the
// refusals (nothing deleted, the reason named), Hudi's file-system lock
// taken and released, the clean written in the table's layout, and a crash
// after every single change finished by the next run.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <set>

#include "tool_corpus.hpp"

using namespace lakegc::testing;
namespace fs = std::filesystem;

namespace {

const std::string kTable = "sample_table/cow/v9_txns_simple_nometa";  // layout 2, no metadata table
const std::string kLock = "hoodie.write.lock.provider=org.apache.hudi.client.transaction.lock.FileSystemBasedLockProvider";
const std::string kNow = "20260308000000000";  // planning time: fixes the clean's instant across runs

std::set<std::string> files_under(const fs::path& root) {
  std::set<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (e.is_regular_file()) out.insert(fs::relative(e.path(), root).generic_string());
  }
  return out;
}

// The same, with the completion time of layout-2 completed instants blanked
// (it is the wall clock at completion, so two runs differ there).
std::set<std::string> files_without_completion_times(const fs::path& root) {
  std::set<std::string> out;
  for (std::string f : files_under(root)) {
    const auto name = f.rfind('/') + 1;
    if (f.compare(name + 17, 1, "_") == 0 && f.size() > name + 35) f.replace(name + 18, 17, "<completion>");
    out.insert(std::move(f));
  }
  return out;
}

std::vector<std::string> clean_args(const fs::path& root, std::vector<std::string> extra = {}) {
  std::vector<std::string> a = {"clean", root.string(), "--execute", "--conf", "hoodie.clean.commits.retained=2",
                                "--now", kNow};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

}  // namespace

TEST_CASE("lakegc clean --execute refuses, deleting nothing, where it cannot act as Hudi would") {
  temp_dir tmp;
  // No lock configured, and no promise that no writer runs.
  const fs::path root = fresh_copy(kTable, tmp.path() / "a");
  const auto before = files_under(root);
  tool_result r = run_tool(clean_args(root));
  CHECK(r.code == 1);
  CHECK(r.err.find("no table lock is configured") != std::string::npos);
  CHECK(files_under(root) == before);
  // A provider lakegc cannot take.
  r = run_tool(clean_args(root, {"--conf", "hoodie.write.lock.provider=org.apache.hudi.client.transaction.lock.ZookeeperBasedLockProvider"}));
  CHECK(r.code == 1);
  CHECK(r.err.find("ZookeeperBasedLockProvider is a lock lakegc cannot take") != std::string::npos);
  CHECK(files_under(root) == before);
  // A lock another writer holds.
  spit(root / ".hoodie" / "lock", "{\"lockCreateTime\" : \"2026-03-08 00:00:00.000\", \"lockThreadName\" : \"spark-writer\"}");
  r = run_tool(clean_args(root, {"--conf", kLock, "--conf", "hoodie.write.lock.num_retries=1", "--conf",
                                 "hoodie.write.lock.wait_time_ms_between_retry=10"}));
  CHECK(r.code == 1);
  CHECK(r.err.find("is held by another writer") != std::string::npos);
  CHECK(r.err.find("spark-writer") != std::string::npos);
  fs::remove(root / ".hoodie" / "lock");
  CHECK(files_under(root) == before);
  // A table with a metadata table.
  const fs::path mdt = fresh_copy("quickstart_trips_table/mor/avro/v8_trips_8i3u1d", tmp.path() / "b");
  const auto mdt_before = files_under(mdt);
  r = run_tool({"clean", mdt.string(), "--execute", "--no-concurrent-writers", "--conf",
                "hoodie.clean.commits.retained=1"});
  CHECK(r.code == 1);
  CHECK(r.err.find("metadata table") != std::string::npos);
  CHECK(files_under(mdt) == mdt_before);
}

TEST_CASE("lakegc clean --execute under Hudi's file-system lock deletes exactly the plan and writes the clean") {
  temp_dir tmp;
  const fs::path root = fresh_copy(kTable, tmp.path() / "t");
  const tool_result dry = run_tool({"clean", root.string(), "--json", "--conf", "hoodie.clean.commits.retained=2",
                                    "--now", kNow});
  REQUIRE_MESSAGE(dry.code == 0, dry.err);
  json_doc plan(dry.out);
  std::set<std::string> planned;
  for (auto [partition, files] : plan.root["plan"]["filePathsToBeDeletedPerPartition"].get_object()) {
    for (auto f : files.get_array()) planned.insert(str(f));
  }
  REQUIRE_FALSE(planned.empty());
  const auto before = files_under(root);

  const tool_result r = run_tool(clean_args(root, {"--conf", kLock, "--json"}));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  json_doc report(r.out);
  CHECK(str(report.root["lock"]) == "file-system lock .hoodie/lock");
  CHECK(report.root["files_deleted"].get_uint64().value() == planned.size());
  const auto after = files_under(root);
  std::set<std::string> gone, added;
  for (const auto& f : before) {
    if (!after.contains(f)) gone.insert(f);
  }
  for (const auto& f : after) {
    if (!before.contains(f)) added.insert(f);
  }
  CHECK(gone == planned);
  // Added: the clean's three timeline files in layout 2, and nothing else
  // (the lock was released).
  REQUIRE(added.size() == 3);
  for (const auto& f : added) CHECK(f.starts_with(".hoodie/timeline/"));
  CHECK(added.contains(".hoodie/timeline/20260308000000000.clean.requested"));
  CHECK(added.contains(".hoodie/timeline/20260308000000000.clean.inflight"));
  CHECK_FALSE(fs::exists(root / ".hoodie" / "lock"));
  // The next run has nothing to do: no commit since.
  const tool_result again = run_tool(clean_args(root, {"--conf", kLock, "--json"}));
  REQUIRE(again.code == 0);
  json_doc a(again.out);
  CHECK(str(a.root["skipped_reason"]).find("0 new commit(s)") != std::string::npos);
  // lakegc reads back what it wrote.
  CHECK(run_tool({"inspect", root.string()}).code == 0);
}

TEST_CASE("an expired file-system lock is deleted and taken, as Hudi does") {
  temp_dir tmp;
  const fs::path root = fresh_copy(kTable, tmp.path() / "t");
  spit(root / ".hoodie" / "lock", "{}");
  fs::last_write_time(root / ".hoodie" / "lock", fs::file_time_type::clock::now() - std::chrono::minutes(10));
  const tool_result r = run_tool(clean_args(root, {"--conf", kLock, "--conf", "hoodie.write.lock.filesystem.expire=5"}));
  CHECK_MESSAGE(r.code == 0, r.err);
  CHECK_FALSE(fs::exists(root / ".hoodie" / "lock"));
}

TEST_CASE("a crash after any single change is finished by the next run, ending where an uninterrupted run ends") {
  temp_dir tmp;
  const fs::path reference = fresh_copy(kTable, tmp.path() / "ref");
  REQUIRE(run_tool(clean_args(reference, {"--conf", kLock})).code == 0);
  const auto expected = files_without_completion_times(reference);
  std::size_t crashes = 0;
  for (std::uint64_t n = 1; n < 200; ++n) {
    CAPTURE(n);
    const fs::path root = fresh_copy(kTable, tmp.path() / ("c" + std::to_string(n)));
    const tool_result crashed =
        run_tool_env({"LAKEGC_CRASH_AFTER_MUTATIONS=" + std::to_string(n)}, clean_args(root, {"--conf", kLock}));
    if (crashed.code == 0) break;  // n exceeds the run's changes: it completed
    REQUIRE_MESSAGE(crashed.code == 86, crashed.err);
    ++crashes;
    // A crash while holding the lock leaves the lock file: Hudi's
    // file-system lock has no owner check, so the operator (or the lock's
    // expiry) removes it. The next run here uses the expiry.
    if (fs::exists(root / ".hoodie" / "lock")) {
      fs::last_write_time(root / ".hoodie" / "lock", fs::file_time_type::clock::now() - std::chrono::minutes(10));
    }
    const tool_result resumed =
        run_tool(clean_args(root, {"--conf", kLock, "--conf", "hoodie.write.lock.filesystem.expire=5"}));
    REQUIRE_MESSAGE(resumed.code == 0, resumed.err);
    CHECK(files_without_completion_times(root) == expected);
  }
  CHECK(crashes >= 6);  // the lock, requested, inflight, four deletes, completed, unlock
}
