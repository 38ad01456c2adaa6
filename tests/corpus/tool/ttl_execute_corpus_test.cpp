// `lakegc ttl --execute` on real tables (layout 1: table version 6; layout 2:
// version 9): the replacecommit names exactly the partition's file groups
// (from the file names on disk), the table then reads as Hudi's would after a
// TTL run (the partition's groups replaced, no slice left for the next TTL
// plan, the cleaner planning the files and the partition), the cleaner
// removes them; dry runs and refusals change nothing; a crash after any
// single change is finished by the next run.
#include <doctest/doctest.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "lakegc/hudi/log/delete_block.hpp"
#include "lakegc/hudi/log/read_blocks.hpp"
#include "lakegc/hudi/metadata_table/index_keys.hpp"
#include "tool_corpus.hpp"

namespace lakegc::tests::ttl_execute_corpus_test {

using namespace lakegc::testing;
namespace fs = std::filesystem;

namespace {

struct Case {
  std::string table;
  std::string partition;
  std::string timeline;  // the timeline folder, relative to the root
};

const std::vector<Case> kCases = {
    {"sample_table/cow/v6_complexkeygen_hivestyle", "byteField=20/shortField=100", ".hoodie"},
    {"sample_table/cow/v9_txns_simple_nometa", "region=eu", ".hoodie/timeline"},
};
const std::string kNow = "20300101000000000";
const std::string kLock =
    "hoodie.write.lock.provider=org.apache.hudi.client.transaction.lock.FileSystemBasedLockProvider";

std::vector<std::string> ttl_args(const fs::path& root, const Case& c, std::vector<std::string> extra = {}) {
  std::vector<std::string> a = {"ttl",
                                root.string(),
                                "--execute",
                                "--now",
                                kNow,
                                "--conf",
                                "hoodie.partition.ttl.strategy.days.retain=1",
                                "--conf",
                                "hoodie.partition.ttl.strategy.partition.selected=" + c.partition};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

// The file ids of the partition's data files, from their names.
std::set<std::string> file_ids_on_disk(const fs::path& partition) {
  std::set<std::string> ids;
  if (!fs::exists(partition)) return ids;
  for (const auto& e : fs::directory_iterator(partition)) {
    std::string name = e.path().filename().string();
    if (name.ends_with(".parquet")) ids.insert(name.substr(0, name.find('_')));
  }
  return ids;
}

}  // namespace

TEST_CASE("lakegc ttl --execute writes the replacecommit DELETE_PARTITION and deletes nothing; the cleaner then does") {
  for (const Case& c : kCases) {
    CAPTURE(c.table);
    temp_dir tmp;
    const fs::path root = fresh_copy(c.table, tmp.path() / "t");
    const auto before = files_under(root);
    // The partition's file groups no earlier replacecommit replaced: those on
    // disk minus those lakegc's view (checked against Hudi's by the interop
    // suite) shows replaced.
    std::set<std::string> ids = file_ids_on_disk(root / c.partition);
    std::set<std::string> earlier;
    {
      const tool_result v = run_tool({"inspect", root.string(), "--json"});
      REQUIRE(v.code == 0);
      json_doc d(v.out);
      for (auto p : d.root["partitions"].get_array()) {
        if (str(p["path"]) != c.partition) continue;
        for (auto g : p["file_groups"].get_array()) {
          if (!is_null(g["replaced_by"])) earlier.insert(str(g["file_id"]));
        }
      }
    }
    for (const auto& id : earlier) ids.erase(id);
    REQUIRE(ids.size() >= 1);

    // The dry run prints the plan and changes nothing.
    tool_result r =
        run_tool({"ttl", root.string(), "--now", kNow, "--conf", "hoodie.partition.ttl.strategy.days.retain=1",
                  "--conf", "hoodie.partition.ttl.strategy.partition.selected=" + c.partition});
    REQUIRE_MESSAGE(r.code == 0, r.err);
    CHECK(r.out.find("dry run") != std::string::npos);
    CHECK(files_under(root) == before);

    r = run_tool(ttl_args(root, c, {"--no-concurrent-writers", "--json"}));
    REQUIRE_MESSAGE(r.code == 0, r.err);
    json_doc doc(r.out);
    CHECK(doc.root["executed"].get_bool().value());
    CHECK(str(doc.root["instant"]) == kNow);
    std::set<std::string> replaced;
    for (auto id : doc.root["partition_to_replace_file_ids"][c.partition].get_array()) replaced.insert(str(id));
    CHECK(replaced == ids);
    // Three timeline files more, nothing deleted.
    const auto after = files_under(root);
    std::vector<std::string> added;
    for (const auto& f : after) {
      if (!before.contains(f)) added.push_back(f);
    }
    for (const auto& f : before) CHECK_MESSAGE(after.contains(f), f);
    REQUIRE(added.size() == 3);
    for (const auto& f : added) {
      CHECK(f.starts_with(c.timeline + "/" + kNow));
      CHECK(f.find(".replacecommit") != std::string::npos);
    }

    // lakegc reads its own replacecommit as Hudi's: every group replaced at kNow.
    r = run_tool({"inspect", root.string(), "--json"});
    REQUIRE_MESSAGE(r.code == 0, r.err);
    json_doc view(r.out);
    std::set<std::string> now_replaced;
    for (auto p : view.root["partitions"].get_array()) {
      if (str(p["path"]) != c.partition) continue;
      for (auto g : p["file_groups"].get_array()) {
        REQUIRE_FALSE(is_null(g["replaced_by"]));
        if (str(g["replaced_by"]) == kNow) now_replaced.insert(str(g["file_id"]));
      }
    }
    CHECK(now_replaced == ids);
    // The next TTL run finds no slice there (Hudi's getLatestFileSlicesBeforeOrOn skips replaced groups).
    r = run_tool({"plan", "ttl", root.string(), "--json", "--now", "20300201000000000", "--conf",
                  "hoodie.partition.ttl.strategy.days.retain=1", "--conf",
                  "hoodie.partition.ttl.strategy.partition.selected=" + c.partition});
    REQUIRE_MESSAGE(r.code == 0, r.err);
    json_doc again(r.out);
    CHECK(str(again.root["partitions"].at(0)["verdict"]) == "no_file_slices");
    // A rerun at the same instant: already done.
    r = run_tool(ttl_args(root, c, {"--no-concurrent-writers"}));
    CHECK_MESSAGE(r.code == 0, r.err);
    CHECK(r.out.find("already completed") != std::string::npos);
    CHECK(files_under(root) == after);

    // The cleaner removes the replaced files and the emptied partition.
    const std::vector<std::string> clean = {"--now",  "20300101010000000",
                                            "--conf", "hoodie.clean.policy=KEEP_LATEST_FILE_VERSIONS",
                                            "--conf", "hoodie.clean.fileversions.retained=1"};
    std::vector<std::string> plan_args = {"plan", "clean", root.string(), "--json"};
    plan_args.insert(plan_args.end(), clean.begin(), clean.end());
    r = run_tool(plan_args);
    REQUIRE_MESSAGE(r.code == 0, r.err);
    json_doc cplan(r.out);
    std::vector<std::string> doomed;
    for (auto p : cplan.root["plan"]["partitionsToBeDeleted"].get_array()) doomed.push_back(str(p));
    CHECK(doomed == std::vector<std::string>{c.partition});
    std::vector<std::string> exec_args = {"clean", root.string(), "--execute", "--no-concurrent-writers"};
    exec_args.insert(exec_args.end(), clean.begin(), clean.end());
    r = run_tool(exec_args);
    REQUIRE_MESSAGE(r.code == 0, r.err);
    CHECK(file_ids_on_disk(root / c.partition).empty());
    CHECK(run_tool({"inspect", root.string()}).code == 0);
  }
}

TEST_CASE("lakegc ttl --execute refuses, changing nothing, where it cannot act as Hudi would") {
  temp_dir tmp;
  const Case& c = kCases[1];
  const fs::path root = fresh_copy(c.table, tmp.path() / "a");
  const auto before = files_under(root);
  // No lock and no promise that no writer runs.
  tool_result r = run_tool(ttl_args(root, c));
  CHECK(r.code == 1);
  CHECK(r.err.find("no table lock is configured") != std::string::npos);
  CHECK(files_under(root) == before);
  // A TTL instant that is not after the newest instant.
  r = run_tool({"ttl", root.string(), "--execute", "--no-concurrent-writers", "--now", "20200101000000000", "--conf",
                "hoodie.partition.ttl.strategy.days.retain=1"});
  CHECK(r.code == 2);
  CHECK(r.err.find("must be after the newest instant") != std::string::npos);
  CHECK(files_under(root) == before);
  // A metadata table with a record index: Hudi deletes the dropped rows'
  // keys there, which needs the data files read.
  const fs::path mdt = fresh_copy("quickstart_trips_table/mor/avro/v8_trips_8i3u1d", tmp.path() / "b");
  const auto mdt_before = files_under(mdt);
  r = run_tool({"ttl", mdt.string(), "--execute", "--no-concurrent-writers", "--now", kNow, "--conf",
                "hoodie.partition.ttl.strategy.days.retain=1"});
  CHECK(r.code == 1);
  CHECK(r.err.find("'record_index'") != std::string::npos);
  CHECK(files_under(mdt) == mdt_before);
  // A crashed run's pending replacecommit with a later instant after it: a
  // writer ran since, whose rollback Hudi owns.
  r = run_tool_env({"LAKEGC_CRASH_AFTER_MUTATIONS=1"}, ttl_args(root, c, {"--no-concurrent-writers"}));
  REQUIRE(r.code == 86);
  REQUIRE(fs::exists(root / c.timeline / (kNow + ".replacecommit.requested")));
  spit(root / c.timeline / "20300101000100000.commit.requested", "");
  const auto pending = files_under(root);
  r = run_tool(ttl_args(root, c, {"--no-concurrent-writers"}));
  CHECK(r.code == 1);
  CHECK(r.err.find("rolls it back") != std::string::npos);
  CHECK(files_under(root) == pending);
}

TEST_CASE("lakegc ttl --execute keeps the metadata table in step: the partition list and partition_stats") {
  temp_dir tmp;
  // The v8 quickstart table without its record and secondary indexes (which
  // TTL refuses): files, column_stats, partition_stats.
  const fs::path root = fresh_copy("quickstart_trips_table/mor/avro/v8_trips_8i3u1d", tmp.path() / "a");
  const fs::path props = root / ".hoodie" / "hoodie.properties";
  std::string text = slurp(props);
  const auto at = text.find("hoodie.table.metadata.partitions=");
  REQUIRE(at != std::string::npos);
  text.replace(at, text.find('\n', at) - at, "hoodie.table.metadata.partitions=column_stats,files,partition_stats");
  fs::remove(props);
  spit(props, text);
  tool_result r = run_tool({"ttl", root.string(), "--execute", "--json", "--no-concurrent-writers", "--now", kNow,
                            "--conf", "hoodie.partition.ttl.strategy.days.retain=1"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  json_doc doc(r.out);
  std::vector<std::string> updated;
  for (auto p : doc.root["metadata_table_partitions_updated"].get_array()) updated.push_back(str(p));
  CHECK(updated == std::vector<std::string>{"files", "partition_stats"});
  std::vector<std::string> expired;
  for (auto p : doc.root["partition_to_replace_file_ids"].get_object()) expired.emplace_back(p.key);
  REQUIRE(!expired.empty());
  // The metadata deltacommit at the TTL instant, completed.
  bool completed = false;
  for (const auto& e : fs::directory_iterator(root / ".hoodie/metadata/.hoodie/timeline")) {
    const std::string n = e.path().filename().string();
    completed = completed || (n.starts_with(kNow + "_") && n.ends_with(".deltacommit"));
  }
  CHECK(completed);
  // partition_stats: every (expired partition, indexed column) key deleted,
  // the columns those of the table's column_stats definition.
  std::set<std::string> deleted;
  for (const auto& e : fs::directory_iterator(root / ".hoodie/metadata/partition_stats")) {
    const std::string n = e.path().filename().string();
    if (!n.starts_with(".partition-stats-0000-0_" + kNow)) continue;
    const std::string bytes = slurp(e.path());
    auto blocks = hudi::log::read_blocks(bytes, n);
    REQUIRE(blocks.ok());
    for (const auto& b : *blocks) {
      auto d = hudi::log::decode_delete_records(b, n);
      REQUIRE(d.ok());
      for (const auto& k : *d) deleted.insert(*k.record_key);
    }
  }
  std::set<std::string> want;
  for (const auto& p : expired) {
    for (const char* c : {"_hoodie_commit_time", "_hoodie_partition_path", "_hoodie_record_key", "ts", "uuid", "rider",
                          "driver", "fare", "city"}) {
      want.insert(hudi::metadata_table::partition_stats_key(p, c));
    }
  }
  CHECK(deleted == want);
  // The metadata table still reads, and lists the expired partitions until
  // the cleaner has removed them.
  CHECK(run_tool({"inspect", root.string()}).code == 0);
}

TEST_CASE("a crash after any single change of lakegc ttl --execute is finished by the next run") {
  for (const Case& c : kCases) {
    CAPTURE(c.table);
    temp_dir tmp;
    const fs::path reference = fresh_copy(c.table, tmp.path() / "ref");
    REQUIRE(run_tool(ttl_args(reference, c, {"--conf", kLock})).code == 0);
    const auto expected = files_without_completion_times(reference);
    const std::size_t crashes = crash_after_each_change(
        [&](std::uint64_t n) { return fresh_copy(c.table, tmp.path() / ("c" + std::to_string(n))); },
        [&](const fs::path& root, std::vector<std::string> extra) {
          extra.insert(extra.begin(), {"--conf", kLock});
          return ttl_args(root, c, extra);
        },
        [&](const fs::path& root) { CHECK(files_without_completion_times(root) == expected); }, 20);
    CHECK(crashes == 5);  // the lock, requested, inflight, completed, unlock
  }
}

}  // namespace lakegc::tests::ttl_execute_corpus_test
