// `lakegc archive --execute` on real layout-2 tables (table version 9, COW
// and MOR, written by Hudi; their LSM history folders are empty): the dry
// run changes nothing; the run moves exactly the plan's instants into one
// data file of the LSM history, whose records are the instant files' own
// bytes, with manifest_1 and _version_; the file-system view is the same
// after it (the MOR table's logs of archived deltacommits attach by the
// completion times lakegc now reads from the history: none is uncertain);
// a second run compacts the history; a crash after any single change of it
// is finished by the next run with the same files; a history lakegc cannot
// read refuses execution with nothing changed and leaves those logs
// uncertain (kept).
#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "lakegc/hudi/lsm_timeline.hpp"
#include "lakegc/hudi/table_properties.hpp"
#include "lakegc/storage/posix_storage.hpp"
#include "tool_corpus.hpp"

namespace lakegc::tests::archive_execute_lsm_corpus_test {

using namespace lakegc::testing;
namespace fs = std::filesystem;

namespace {

struct Case {
  std::string table;
  std::vector<std::string> archived;  // requested times, keep 1/2
  std::string action;                 // their completed action
};

const std::vector<Case> kCases = {
    {"sample_table/cow/v9_txns_simple_nometa",
     {"20260307135657661", "20260307135700696", "20260307135702545", "20260307135703515", "20260307135704448",
      "20260307135705338", "20260307135706094"},
     "commit"},
    {"sample_table/mor/avro/v9_txns_simple_nometa",
     {"20260307135827749", "20260307135830801", "20260307135832616", "20260307135833781", "20260307135834808",
      "20260307135835748", "20260307135836605"},
     "deltacommit"},
};

constexpr std::string_view kHistory = ".hoodie/timeline/history";

// Keep counts under which Hudi's archiver takes the commits before the first
// replacecommit (the clustering bound); KEEP_LATEST_FILE_VERSIONS does not
// raise the counts, TIME_ELAPSED has no compaction window.
std::vector<std::string> archive_args(const fs::path& root, int min, std::vector<std::string> extra = {}) {
  std::vector<std::string> a = {"archive", root.string(),
                                "--conf",  fmt::format("hoodie.keep.min.commits={}", min),
                                "--conf",  fmt::format("hoodie.keep.max.commits={}", min + 1),
                                "--conf",  "hoodie.clean.policy=KEEP_LATEST_FILE_VERSIONS",
                                "--conf",  "hoodie.compact.inline.trigger.strategy=TIME_ELAPSED"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

std::vector<std::string> compacting(std::vector<std::string> extra) {
  extra.insert(extra.end(), {"--conf", "hoodie.timeline.compaction.batch.size=2", "--conf",
                             "hoodie.timeline.manifest.retained.versions=1"});
  return extra;
}

hudi::lsm_timeline read_history(const fs::path& root) {
  auto storage = posix_storage::open(root.string());
  REQUIRE(storage.ok());
  auto props = hudi::parse_table_properties(slurp(root / ".hoodie/hoodie.properties"), "hoodie.properties");
  REQUIRE(props.ok());
  auto t = hudi::read_lsm_timeline(*storage, *props, hudi::TableLocation::of(root.string()), hudi::lsm_columns::all);
  REQUIRE_MESSAGE(t.ok(), message_of(t.status()));
  return std::move(*t);
}

/// The timeline files of instant `t` (every state).
std::map<std::string, std::string> instant_files(const fs::path& root, const std::string& t) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::directory_iterator(root / ".hoodie/timeline")) {
    const std::string name = e.path().filename().string();
    if (e.is_regular_file() && name.starts_with(t)) out[".hoodie/timeline/" + name] = slurp(e.path());
  }
  return out;
}

}  // namespace

TEST_CASE("lakegc archive --execute on layout 2 writes the plan's instants into the LSM history, as Hudi's archiver") {
  for (const Case& c : kCases) {
    CAPTURE(c.table);
    temp_dir tmp;
    const fs::path root = fresh_copy(c.table, tmp.path() / "t");
    const auto before = files_under(root);
    const std::string view_before = inspect_partitions(root);
    std::map<std::string, std::map<std::string, std::string>> files_of;
    for (const auto& t : c.archived) files_of[t] = instant_files(root, t);

    // The dry run: the plan, nothing changed.
    tool_result r = run_tool(archive_args(root, 1, {"--json"}));
    REQUIRE_MESSAGE(r.code == 0, r.err);
    {
      json_doc plan(r.out);
      std::vector<std::string> planned;
      for (auto i : plan.root["archived"].get_array()) planned.push_back(str(i["requested"]));
      CHECK(planned == c.archived);
    }
    CHECK(files_under(root) == before);

    r = run_tool(archive_args(root, 1, {"--execute", "--no-concurrent-writers", "--json"}));
    REQUIRE_MESSAGE(r.code == 0, r.err);
    json_doc doc(r.out);
    CHECK(doc.root["executed"].get_bool().value());
    CHECK(doc.root["records_written"].get_uint64().value() == c.archived.size());
    const std::string data_file = fmt::format("{}_{}_0.parquet", c.archived.front(), c.archived.back());
    CHECK(str(doc.root["lsm"]["data_file"]) == data_file);
    const auto after = files_under(root);
    std::set<std::string> removed, added;
    for (const auto& f : before) {
      if (!after.contains(f)) removed.insert(f);
    }
    for (const auto& f : after) {
      if (!before.contains(f)) added.insert(f);
    }
    CHECK(added == std::set<std::string>{fmt::format("{}/{}", kHistory, data_file),
                                         fmt::format("{}/manifest_1", kHistory),
                                         fmt::format("{}/_version_", kHistory)});
    std::set<std::string> want_removed;
    for (const auto& [t, files] : files_of) {
      for (const auto& [path, bytes] : files) want_removed.insert(path);
    }
    CHECK(removed == want_removed);

    // The records: one per instant, the completed file's own bytes.
    const hudi::lsm_timeline history = read_history(root);
    CHECK(history.snapshot.version == 1);
    REQUIRE(history.instants.size() == c.archived.size());
    for (std::size_t i = 0; i < c.archived.size(); ++i) {
      const hudi::lsm_instant& rec = history.instants[i];
      CHECK(rec.instant_time == c.archived[i]);
      CHECK(rec.action == c.action);
      bool found = false;
      for (const auto& [path, bytes] : files_of[c.archived[i]]) {
        if (path.ends_with("." + c.action) && path.find('_') != std::string::npos) {
          found = true;
          CHECK(rec.metadata == bytes);
          CHECK(path.find(*rec.completion_time) != std::string::npos);
        }
      }
      CHECK(found);
      CHECK_FALSE(rec.plan.has_value());
    }

    // The file-system view does not change: the archived deltacommits' logs
    // attach by the completion times the history records.
    CHECK(inspect_partitions(root) == view_before);
    {
      const tool_result v = run_tool({"inspect", root.string(), "--json"});
      json_doc d(v.out);
      CHECK(d.root["archived_timeline"]["instants"].get_array().size() == c.archived.size());
      for (auto p : d.root["partitions"].get_array()) CHECK(p["uncertain_log_files"].get_array().size() == 0);
    }

    // Nothing more to archive: a rerun, under Hudi's file-system lock this
    // time, changes nothing (the lock file comes and goes).
    r = run_tool(archive_args(root, 1,
                              {"--execute", "--json", "--conf",
                               "hoodie.write.lock.provider=org.apache.hudi.client.transaction.lock."
                               "FileSystemBasedLockProvider"}));
    REQUIRE_MESSAGE(r.code == 0, r.err);
    json_doc locked(r.out);
    CHECK(str(locked.root["lock"]) == "file-system lock .hoodie/lock");
    CHECK_FALSE(locked.root["executed"].get_bool().value());
    CHECK(files_under(root) == after);
  }
}

TEST_CASE("layout 2: a second archival compacts the history; a crash after any change is finished by the next run") {
  const Case& c = kCases[1];
  temp_dir tmp;
  auto first = [&](const std::string& name) {
    const fs::path root = fresh_copy(c.table, tmp.path() / name);
    const tool_result r = run_tool(archive_args(root, 10, {"--execute", "--no-concurrent-writers"}));
    REQUIRE_MESSAGE(r.code == 0, r.err);
    return root;
  };
  const fs::path reference = first("ref");
  const tool_result r =
      run_tool(archive_args(reference, 1, compacting({"--execute", "--no-concurrent-writers", "--json"})));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  {
    json_doc doc(r.out);
    REQUIRE(doc.root["lsm"]["compactions"].get_array().size() == 1);
    CHECK(str(doc.root["lsm"]["compactions"].at(0)["target"]) ==
          fmt::format("{}_{}_1.parquet", c.archived.front(), c.archived.back()));
    CHECK(doc.root["lsm"]["cleaned"].get_array().size() > 0);
  }
  const auto want = files_under(reference);
  const hudi::lsm_timeline want_history = read_history(reference);
  CHECK(want_history.instants.size() == c.archived.size());

  for (int n = 1;; ++n) {
    CAPTURE(n);
    const fs::path root = first("crash" + std::to_string(n));
    tool_result crashed = run_tool_env({"LAKEGC_CRASH_AFTER_MUTATIONS=" + std::to_string(n)},
                                       archive_args(root, 1, compacting({"--execute", "--no-concurrent-writers"})));
    REQUIRE((crashed.code == 86 || crashed.code == 0));
    const tool_result rerun = run_tool(archive_args(root, 1, compacting({"--execute", "--no-concurrent-writers"})));
    REQUIRE_MESSAGE(rerun.code == 0, rerun.err);
    CHECK(files_under(root) == want);
    CHECK(read_history(root).instants == want_history.instants);  // nothing twice
    if (crashed.code == 0) break;
    REQUIRE(n < 100);
    fs::remove_all(root);
  }
}

TEST_CASE("a history lakegc cannot read: archive --execute refuses and changes nothing; logs stay uncertain") {
  const Case& c = kCases[1];
  temp_dir tmp;
  const fs::path root = fresh_copy(c.table, tmp.path() / "t");
  tool_result r = run_tool(archive_args(root, 10, {"--execute", "--no-concurrent-writers"}));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  // The data file, damaged: its last bytes (the PAR1 magic) gone.
  fs::path data;
  for (const auto& e : fs::directory_iterator(root / kHistory)) {
    if (e.path().extension() == ".parquet") data = e.path();
  }
  REQUIRE_FALSE(data.empty());
  const std::string bytes = slurp(data);
  spit(data, bytes.substr(0, bytes.size() - 2));
  const auto before = files_under(root);
  r = run_tool(archive_args(root, 1, {"--execute", "--no-concurrent-writers"}));
  CHECK(r.code == 1);
  CHECK_MESSAGE(r.err.find("the LSM history cannot be read") != std::string::npos, r.err);
  CHECK_MESSAGE(r.err.find(data.filename().string()) != std::string::npos, r.err);
  CHECK(files_under(root) == before);

  const tool_result v = run_tool({"inspect", root.string(), "--json"});
  REQUIRE_MESSAGE(v.code == 0, v.err);
  json_doc d(v.out);
  CHECK(str(d.root["archived_timeline"]["error"]).find(data.filename().string()) != std::string::npos);
  std::size_t uncertain = 0;
  for (auto p : d.root["partitions"].get_array()) uncertain += p["uncertain_log_files"].get_array().size();
  CHECK(uncertain > 0);
}

}  // namespace lakegc::tests::archive_execute_lsm_corpus_test
