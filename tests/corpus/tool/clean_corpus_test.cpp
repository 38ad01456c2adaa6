// Issue 14: `lakegc clean --execute` on real Spark-written tables: the
// refusals (nothing deleted, the reason named), Hudi's file-system lock
// taken and released, the clean written in the table's layout, and a crash
// after every single change finished by the next run; on a table with a
// metadata table, the deletions recorded in its files partition.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <set>

#include "lakegc/hudi/metadata_codec.hpp"
#include "lakegc/hudi/metadata_table/files_partition.hpp"
#include "lakegc/storage/posix_storage.hpp"
#include "lakegc/hudi/log/delete_block.hpp"
#include "lakegc/hudi/log/read_blocks.hpp"
#include "lakegc/hudi/metadata_table/index_keys.hpp"
#include "tool_corpus.hpp"

namespace lakegc::tests::clean_corpus_test {

using namespace lakegc::testing;
namespace fs = std::filesystem;

namespace {

const std::string kTable = "sample_table/cow/v9_txns_simple_nometa";  // layout 2, no metadata table
const std::string kLock =
    "hoodie.write.lock.provider=org.apache.hudi.client.transaction.lock.FileSystemBasedLockProvider";
const std::string kNow = "20260308000000000";  // planning time: fixes the clean's instant across runs

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
  r = run_tool(clean_args(
      root,
      {"--conf", "hoodie.write.lock.provider=org.apache.hudi.client.transaction.lock.ZookeeperBasedLockProvider"}));
  CHECK(r.code == 1);
  CHECK(r.err.find("ZookeeperBasedLockProvider is a lock lakegc cannot take") != std::string::npos);
  CHECK(files_under(root) == before);
  // Hudi's storage-based lock: an object-store lock no POSIX table has.
  r = run_tool(clean_args(
      root, {"--conf", "hoodie.write.lock.provider=org.apache.hudi.client.transaction.lock.StorageBasedLockProvider"}));
  CHECK(r.code == 1);
  CHECK(r.err.find("storage-based lock is a conditional write to an object store") != std::string::npos);
  CHECK(files_under(root) == before);
  // A lock another writer holds.
  spit(root / ".hoodie" / "lock",
       "{\"lockCreateTime\" : \"2026-03-08 00:00:00.000\", \"lockThreadName\" : \"spark-writer\"}");
  r = run_tool(clean_args(root, {"--conf", kLock, "--conf", "hoodie.write.lock.num_retries=1", "--conf",
                                 "hoodie.write.lock.wait_time_ms_between_retry=10"}));
  CHECK(r.code == 1);
  CHECK(r.err.find("is held by another writer") != std::string::npos);
  CHECK(r.err.find("spark-writer") != std::string::npos);
  fs::remove(root / ".hoodie" / "lock");
  CHECK(files_under(root) == before);
  // A table whose metadata table has a partition Hudi updates on clean and
  // lakegc does not (an expression index): refused, naming it.
  const fs::path mdt = fresh_copy("quickstart_trips_table/mor/avro/v8_trips_8i3u1d", tmp.path() / "b");
  const fs::path props = mdt / ".hoodie" / "hoodie.properties";
  std::string text = slurp(props);
  const auto at = text.find("hoodie.table.metadata.partitions=");
  REQUIRE(at != std::string::npos);
  text.insert(at + std::string("hoodie.table.metadata.partitions=").size(), "expr_index_fare_idx,");
  fs::remove(props);
  spit(props, text);
  const auto mdt_before = files_under(mdt);
  r = run_tool(
      {"clean", mdt.string(), "--execute", "--no-concurrent-writers", "--conf", "hoodie.clean.commits.retained=1"});
  CHECK(r.code == 1);
  CHECK(r.err.find("metadata-table partition 'expr_index_fare_idx'") != std::string::npos);
  CHECK(files_under(mdt) == mdt_before);
  // Column statistics whose columns the writer settings given contradict
  // the table's index definition: refused, naming both lists.
  const fs::path mdt2 = fresh_copy("quickstart_trips_table/mor/avro/v8_trips_8i3u1d", tmp.path() / "c");
  const auto mdt2_before = files_under(mdt2);
  r = run_tool({"clean", mdt2.string(), "--execute", "--no-concurrent-writers", "--conf",
                "hoodie.clean.commits.retained=1", "--conf", "hoodie.metadata.index.column.stats.column.list=fare"});
  CHECK(r.code == 1);
  CHECK(r.err.find("column_stats index definition lists the columns") != std::string::npos);
  CHECK(files_under(mdt2) == mdt2_before);
}

TEST_CASE("lakegc clean --execute on Hudi's default metadata table deletes the column statistics of what it deleted") {
  // The v8 quickstart table (Spark-written): files, column_stats,
  // partition_stats, record_index and a secondary index in its metadata table.
  temp_dir tmp;
  const fs::path root = fresh_copy("quickstart_trips_table/mor/avro/v8_trips_8i3u1d", tmp.path() / "t");
  const std::vector<std::string> policy = {"--conf", "hoodie.clean.policy=KEEP_LATEST_FILE_VERSIONS", "--conf",
                                           "hoodie.clean.fileversions.retained=1"};
  std::vector<std::string> args = {"clean", root.string(), "--json"};
  args.insert(args.end(), policy.begin(), policy.end());
  const tool_result dry = run_tool(args);
  REQUIRE_MESSAGE(dry.code == 0, dry.err);
  json_doc plan(dry.out);
  args.insert(args.end(), {"--execute", "--no-concurrent-writers"});
  const tool_result r = run_tool(args);
  REQUIRE_MESSAGE(r.code == 0, r.err);
  json_doc doc(r.out);
  std::vector<std::string> columns;
  for (auto c : doc.root["column_stats_columns"].get_array()) columns.push_back(str(c));
  // The columns of the table's own index definition.
  CHECK(std::set<std::string>(columns.begin(), columns.end()) ==
        std::set<std::string>{"_hoodie_commit_time", "_hoodie_partition_path", "_hoodie_record_key", "ts", "uuid",
                              "rider", "driver", "fare", "city"});
  // Every (planned file, column) key, base files and logs alike.
  std::set<std::string> want;
  for (auto p : plan.root["plan"]["filePathsToBeDeletedPerPartition"].get_object()) {
    for (auto f : p.value.get_array()) {
      const std::string path = str(f);
      for (const auto& col : columns) {
        want.insert(hudi::metadata_table::column_stats_key(std::string(p.key), path.substr(path.rfind('/') + 1), col));
      }
    }
  }
  REQUIRE_FALSE(want.empty());
  std::set<std::string> deleted;
  for (const auto& e : fs::directory_iterator(root / ".hoodie/metadata/column_stats")) {
    const std::string n = e.path().filename().string();
    if (!n.starts_with(".col-stats-")) continue;
    const std::string bytes = slurp(e.path());
    auto blocks = hudi::log::read_blocks(bytes, n);
    REQUIRE(blocks.ok());
    for (const auto& b : *blocks) {
      if (b.type != hudi::log::block_type::delete_keys) continue;
      auto d = hudi::log::decode_delete_records(b, n);
      REQUIRE(d.ok());
      for (const auto& k : *d) deleted.insert(*k.record_key);
    }
  }
  CHECK(deleted == want);
  std::vector<std::string> updated;
  for (auto p : doc.root["metadata_table_partitions_updated"].get_array()) updated.push_back(str(p));
  CHECK(updated == std::vector<std::string>{"files", "column_stats"});
}

TEST_CASE("lakegc clean --execute under Hudi's file-system lock deletes exactly the plan and writes the clean") {
  temp_dir tmp;
  const fs::path root = fresh_copy(kTable, tmp.path() / "t");
  const tool_result dry =
      run_tool({"clean", root.string(), "--json", "--conf", "hoodie.clean.commits.retained=2", "--now", kNow});
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

TEST_CASE("TABLE given relative to the working directory: the clean plan still names absolute paths") {
  // A Hudi writer that finishes a pending clean resolves the plan's paths
  // itself, from wherever it runs: a relative one would name other files.
  temp_dir tmp;
  const fs::path root = fresh_copy(kTable, tmp.path() / "rel");
  const fs::path relative = fs::relative(root, fs::current_path());
  REQUIRE(relative.is_relative());
  const tool_result r = run_tool(clean_args(relative, {"--no-concurrent-writers"}));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const std::string name = "20260308000000000.clean.requested";
  const fs::path requested = root / ".hoodie" / "timeline" / name;
  REQUIRE(fs::exists(requested));
  auto plan = hudi::decode_cleaner_plan(slurp(requested), name);
  REQUIRE_MESSAGE(plan.ok(), message_of(plan.status()));
  std::size_t paths = 0;
  for (const auto& [partition, files] : plan->file_paths_to_delete_per_partition) {
    for (const std::string& f : files) {
      CHECK_MESSAGE(fs::path(f).is_absolute(), f);
      CHECK_MESSAGE(f.starts_with(root.lexically_normal().string() + "/"), f);
      ++paths;
    }
  }
  CHECK(paths > 0);
}

TEST_CASE("an expired file-system lock is deleted and taken, as Hudi does") {
  temp_dir tmp;
  const fs::path root = fresh_copy(kTable, tmp.path() / "t");
  spit(root / ".hoodie" / "lock", "{}");
  fs::last_write_time(root / ".hoodie" / "lock", fs::file_time_type::clock::now() - std::chrono::minutes(10));
  const tool_result r =
      run_tool(clean_args(root, {"--conf", kLock, "--conf", "hoodie.write.lock.filesystem.expire=5"}));
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

namespace {

const std::string kMdtTable = "quickstart_trips_table/mor/avro/v8_trips_8i3u1d";

// A copy of the v8 quickstart table whose metadata table lists `files` only
// (its column_stats partition is one lakegc refuses; dropped from
// hoodie.properties, Hudi's readers would not use it either).
fs::path files_only_copy(const fs::path& into) {
  const fs::path root = fresh_copy(kMdtTable, into);
  const fs::path props = root / ".hoodie" / "hoodie.properties";
  std::string text = slurp(props);
  const std::string key = "hoodie.table.metadata.partitions=";
  const auto at = text.find(key);
  REQUIRE(at != std::string::npos);
  text.replace(at + key.size(), text.find('\n', at) - at - key.size(), "files");
  spit(props, text);
  return root;
}

// The data files on storage (partition -> name -> size) and what the
// metadata table's files partition lists.
void check_files_partition_matches_storage(const fs::path& root) {
  auto storage = lakegc::posix_storage::open(root.string());
  REQUIRE(storage.ok());
  auto journal = lakegc::hudi::journal<lakegc::posix_storage>::open(*storage, root.string());
  REQUIRE(journal.ok());
  auto state = lakegc::hudi::metadata_table::files_partition_state(*journal);
  REQUIRE_MESSAGE(state.ok(), lakegc::message_of(state.status()));
  std::map<std::string, std::map<std::string, std::uint64_t>> on_storage;
  for (const std::string& f : files_under(root)) {
    if (f.starts_with(".hoodie/") || f.find(".hoodie_partition_metadata") != std::string::npos) continue;
    const auto slash = f.rfind('/');
    on_storage[slash == std::string::npos ? "" : f.substr(0, slash)][f.substr(slash + 1)] = fs::file_size(root / f);
  }
  std::map<std::string, std::map<std::string, std::uint64_t>> listed;
  for (const auto& [p, files] : state->files) {
    if (!files.empty()) listed[p] = files;
  }
  CHECK(listed == on_storage);
}

// files_without_completion_times for trees that also hold short names
// (the metadata table's): the completion time of `<t>_<c>.<action>` blanked.
std::set<std::string> mdt_files_without_completion_times(const fs::path& root) {
  std::set<std::string> out;
  for (std::string f : files_under(root)) {
    const auto name = f.rfind('/') + 1;
    if (f.size() > name + 35 && f[name + 17] == '_') f.replace(name + 18, 17, "<completion>");
    out.insert(std::move(f));
  }
  return out;
}

std::vector<std::string> mdt_clean_args(const fs::path& root) {
  return {"clean",
          root.string(),
          "--execute",
          "--json",
          "--no-concurrent-writers",
          "--now",
          kNow,
          "--conf",
          "hoodie.clean.commits.retained=1"};
}

}  // namespace

TEST_CASE("on a table with a metadata table, clean --execute records its deletions in the files partition") {
  temp_dir tmp;
  const fs::path root = files_only_copy(tmp.path() / "t");
  const auto before = files_under(root);
  const tool_result r = run_tool(mdt_clean_args(root));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  json_doc report(r.out);
  REQUIRE(report.root["files_deleted"].get_uint64().value() > 0);
  std::vector<std::string> updated;
  for (auto p : report.root["metadata_table_partitions_updated"].get_array()) updated.push_back(str(p));
  CHECK(updated == std::vector<std::string>{"files"});
  const std::string instant = str(report.root["cleans"].at(0)["instant"]);
  // The metadata table's deltacommit at the clean's time, and its log file.
  std::set<std::string> added;
  for (const auto& f : files_under(root)) {
    if (!before.contains(f)) added.insert(f);
  }
  CHECK(added.contains(".hoodie/metadata/.hoodie/timeline/" + instant + ".deltacommit.requested"));
  CHECK(added.contains(".hoodie/metadata/.hoodie/timeline/" + instant + ".deltacommit.inflight"));
  CHECK(added.contains(".hoodie/metadata/files/.files-0000-0_" + instant + ".log.1_1-0-1"));
  CHECK(std::count_if(added.begin(), added.end(), [&](const std::string& f) {
          return f.starts_with(".hoodie/metadata/.hoodie/timeline/" + instant + "_") && f.ends_with(".deltacommit");
        }) == 1);
  check_files_partition_matches_storage(root);
  // lakegc reads back what it wrote.
  CHECK(run_tool({"inspect", (root / ".hoodie" / "metadata").string()}).code == 0);
}

TEST_CASE("with a metadata table, a crash after any single change is finished by the next run") {
  temp_dir tmp;
  const fs::path reference = files_only_copy(tmp.path() / "ref");
  REQUIRE(run_tool(mdt_clean_args(reference)).code == 0);
  const auto expected = mdt_files_without_completion_times(reference);
  std::size_t crashes = 0;
  for (std::uint64_t n = 1; n < 200; ++n) {
    CAPTURE(n);
    const fs::path root = files_only_copy(tmp.path() / ("c" + std::to_string(n)));
    const tool_result crashed =
        run_tool_env({"LAKEGC_CRASH_AFTER_MUTATIONS=" + std::to_string(n)}, mdt_clean_args(root));
    if (crashed.code == 0) break;
    REQUIRE_MESSAGE(crashed.code == 86, crashed.err);
    ++crashes;
    const tool_result resumed = run_tool(mdt_clean_args(root));
    REQUIRE_MESSAGE(resumed.code == 0, resumed.err);
    CHECK(mdt_files_without_completion_times(root) == expected);
    check_files_partition_matches_storage(root);
  }
  CHECK(crashes >= 7);  // requested, inflight, the deletes, four metadata-table changes, completed
}

namespace {

// A table whose newest completed clean is a 0-byte file, as a crash while it
// completed leaves it: lakegc cleans a copy, then the clean's files are
// moved to an instant before the table's last commits (so a clean is due
// again) and its completed file emptied. Returns the clean's instant.
std::string plant_empty_completed_clean(const fs::path& root, bool empty_plan) {
  const tool_result first = run_tool(clean_args(root, {"--no-concurrent-writers"}));
  REQUIRE_MESSAGE(first.code == 0, first.err);
  const fs::path tl = root / ".hoodie" / "timeline";
  const std::string moved = "20260307135705000";  // after 20260307135702545's commit, before the last writes
  for (const auto& e : fs::directory_iterator(tl)) {
    const std::string n = e.path().filename().string();
    if (!n.starts_with(kNow)) continue;
    std::string to;
    if (n.ends_with(".clean.requested")) to = moved + ".clean.requested";
    if (n.ends_with(".clean.inflight")) to = moved + ".clean.inflight";
    if (n.ends_with(".clean") && n.find('_') != std::string::npos) to = moved + "_20260307135705500.clean";
    REQUIRE_MESSAGE(!to.empty(), "unexpected file " << n);
    fs::rename(e.path(), tl / to);
  }
  fs::resize_file(tl / (moved + "_20260307135705500.clean"), 0);
  if (empty_plan) fs::resize_file(tl / (moved + ".clean.requested"), 0);
  return moved;
}

std::vector<std::string> clean_files(const fs::path& root) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(root / ".hoodie" / "timeline")) {
    const std::string n = e.path().filename().string();
    if (n.find(".clean") != std::string::npos) out.push_back(n + (fs::file_size(e.path()) == 0 ? " (empty)" : ""));
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("a 0-byte completed clean: its plan is scheduled again and both finish, as Hudi's scheduling repairs it") {
  temp_dir tmp;
  const fs::path root = fresh_copy(kTable, tmp.path() / "t");
  const std::string moved = plant_empty_completed_clean(root, false);

  // Not due (the trigger wants more commits): Hudi does not schedule, so it
  // repairs nothing, and neither does lakegc.
  const tool_result not_due =
      run_tool(clean_args(root, {"--no-concurrent-writers", "--json", "--conf", "hoodie.clean.max.commits=50"}));
  REQUIRE_MESSAGE(not_due.code == 0, not_due.err);
  CHECK(json_doc(not_due.out).root["empty_cleans_repaired"].get_array().size() == 0);
  CHECK(fs::file_size(root / ".hoodie" / "timeline" / (moved + "_20260307135705500.clean")) == 0);

  const tool_result dry = run_tool({"clean", root.string(), "--now", kNow});
  REQUIRE_MESSAGE(dry.code == 0, dry.err);
  CHECK_MESSAGE(dry.out.find("--execute would first repair the 0-byte completed clean " + moved) != std::string::npos,
                dry.out);
  CHECK(fs::file_size(root / ".hoodie" / "timeline" / (moved + "_20260307135705500.clean")) == 0);
  const tool_result r = run_tool(clean_args(root, {"--no-concurrent-writers", "--json"}));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  json_doc j(r.out);
  REQUIRE(j.root["empty_cleans_repaired"].get_array().size() == 1);
  CHECK(str(j.root["empty_cleans_repaired"].at(0)) == moved);
  CHECK(str(j.root["replanned_clean"]) == moved);
  // The old clean finished from its plan, and the same plan ran again as a
  // new clean at --now; no completed clean is empty any more.
  const std::vector<std::string> files = clean_files(root);
  CHECK(std::count_if(files.begin(), files.end(), [](const std::string& f) { return f.ends_with(".clean (empty)"); }) ==
        0);
  CHECK(std::count_if(files.begin(), files.end(),
                      [&](const std::string& f) { return f.starts_with(moved + "_") && f.ends_with(".clean"); }) == 1);
  CHECK(std::count_if(files.begin(), files.end(),
                      [&](const std::string& f) { return f.starts_with(kNow + "_") && f.ends_with(".clean"); }) == 1);
  CHECK(run_tool({"inspect", root.string()}).code == 0);
}

TEST_CASE("a 0-byte completed clean whose plan is empty too leaves the timeline, and a new clean is planned") {
  temp_dir tmp;
  const fs::path root = fresh_copy(kTable, tmp.path() / "t");
  const std::string moved = plant_empty_completed_clean(root, true);
  const tool_result r = run_tool(clean_args(root, {"--no-concurrent-writers", "--json"}));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  json_doc j(r.out);
  REQUIRE(j.root["empty_cleans_repaired"].get_array().size() == 1);
  CHECK(is_null(j.root["replanned_clean"]));
  for (const std::string& f : clean_files(root)) CHECK_FALSE(f.starts_with(moved));
}

TEST_CASE("a 0-byte completed clean on a table with a metadata table is repaired, the metadata table kept in step") {
  temp_dir tmp;
  const fs::path root = files_only_copy(tmp.path() / "m");
  // A clean that crashed while completing, between two of the table's
  // deltacommits, its plan empty too: the repair drops it (the metadata
  // table has no deltacommit of it), then a clean is planned and executed.
  const fs::path tl = root / ".hoodie" / "timeline";
  const std::string t = "20251220210126500";
  for (const std::string& f : {t + ".clean.requested", t + ".clean.inflight", t + "_20251220210126900.clean"}) {
    spit(tl / f, "");
  }
  const tool_result r = run_tool(mdt_clean_args(root));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  json_doc j(r.out);
  REQUIRE(j.root["empty_cleans_repaired"].get_array().size() == 1);
  CHECK(str(j.root["empty_cleans_repaired"].at(0)) == t);
  CHECK(is_null(j.root["replanned_clean"]));
  CHECK(j.root["files_deleted"].get_uint64().value() > 0);
  for (const std::string& f : clean_files(root)) CHECK_FALSE(f.starts_with(t));
  check_files_partition_matches_storage(root);
}

}  // namespace lakegc::tests::clean_corpus_test
