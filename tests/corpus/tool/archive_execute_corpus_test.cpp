// `lakegc archive --execute` on real layout-1 tables (table version 6, COW
// and MOR, written by Hudi): the dry run changes nothing; the run moves
// exactly the plan's instants (every file of each) into a new archive log
// and deletes only their instant files; what lakegc wrote reads back through
// archived_timeline.hpp as the commit files it replaced; the file-system view
// is the same after it; a crash after any single change is finished by the
// next run with the same result; a missing lock is refused with nothing
// changed. Layout 2: archive_execute_lsm_corpus_test.cpp.
#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "lakegc/hudi/archived_timeline.hpp"
#include "lakegc/hudi/metadata_codec.hpp"
#include "lakegc/hudi/table_properties.hpp"
#include "lakegc/storage/posix_storage.hpp"
#include "tool_corpus.hpp"

namespace lakegc::tests::archive_execute_corpus_test {

using namespace lakegc::testing;
namespace fs = std::filesystem;

namespace {

struct Case {
  std::string table;
  std::vector<std::string> archived;  // requested times
  std::string action;                 // their completed action
};

const std::vector<Case> kCases = {
    {"sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable",
     {"20240707001301554", "20240707001302376"},
     "commit"},
    {"sample_table/mor/parquet/v6_simplekeygen_nonhivestyle_overwritetable",
     {"20250121000647668", "20250121000656060"},
     "deltacommit"},
};

// Keep counts under which Hudi's archiver takes the two commits before the
// replacecommit (the clustering bound); KEEP_LATEST_FILE_VERSIONS does not
// raise the counts, TIME_ELAPSED has no compaction window.
std::vector<std::string> archive_args(const fs::path& root, std::vector<std::string> extra = {}) {
  std::vector<std::string> a = {"archive", root.string(),
                                "--conf",  "hoodie.keep.min.commits=1",
                                "--conf",  "hoodie.keep.max.commits=2",
                                "--conf",  "hoodie.clean.policy=KEEP_LATEST_FILE_VERSIONS",
                                "--conf",  "hoodie.compact.inline.trigger.strategy=TIME_ELAPSED"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

hudi::archived_timeline read_archive(const fs::path& root) {
  auto storage = posix_storage::open(root.string());
  REQUIRE(storage.ok());
  auto props = hudi::parse_table_properties(slurp(root / ".hoodie/hoodie.properties"), "hoodie.properties");
  REQUIRE(props.ok());
  auto t = hudi::read_archived_timeline(*storage, *props);
  REQUIRE_MESSAGE(t.ok(), message_of(t.status()));
  return std::move(*t);
}

}  // namespace

TEST_CASE("lakegc archive --execute moves the plan's instants into the archive log, as Hudi's archiver") {
  for (const Case& c : kCases) {
    CAPTURE(c.table);
    temp_dir tmp;
    const fs::path root = fresh_copy(c.table, tmp.path() / "t");
    const auto before = files_under(root);
    const std::string view_before = inspect_partitions(root);
    std::map<std::string, std::string> commit_files;
    for (const auto& t : c.archived) commit_files[t] = slurp(root / ".hoodie" / (t + "." + c.action));

    // The dry run: the plan, nothing changed.
    tool_result r = run_tool(archive_args(root, {"--json"}));
    REQUIRE_MESSAGE(r.code == 0, r.err);
    {
      json_doc plan(r.out);
      std::vector<std::string> planned;
      for (auto i : plan.root["archived"].get_array()) planned.push_back(str(i["requested"]));
      CHECK(planned == c.archived);
    }
    CHECK(files_under(root) == before);

    r = run_tool(archive_args(root, {"--execute", "--no-concurrent-writers", "--json"}));
    REQUIRE_MESSAGE(r.code == 0, r.err);
    json_doc doc(r.out);
    CHECK(doc.root["executed"].get_bool().value());
    CHECK(doc.root["entries_written"].get_uint64().value() == 6);
    const auto after = files_under(root);
    std::set<std::string> removed, added;
    for (const auto& f : before) {
      if (!after.contains(f)) removed.insert(f);
    }
    for (const auto& f : after) {
      if (!before.contains(f)) added.insert(f);
    }
    CHECK(added == std::set<std::string>{".hoodie/archived/.commits_.archive.1_1-0-1"});
    std::set<std::string> want_removed;
    for (const auto& t : c.archived) {
      want_removed.insert(".hoodie/" + t + "." + c.action + ".requested");
      want_removed.insert(".hoodie/" + t + (c.action == "commit" ? ".inflight" : "." + c.action + ".inflight"));
      want_removed.insert(".hoodie/" + t + "." + c.action);
    }
    CHECK(removed == want_removed);
    // The file-system view does not change: instants before the active
    // timeline's start count as committed.
    CHECK(inspect_partitions(root) == view_before);

    // Read back: each instant's three states, its commit metadata as the
    // JSON file said.
    const hudi::archived_timeline archived = read_archive(root);
    REQUIRE(archived.instants.size() == 6);
    for (std::size_t i = 0; i < 6; ++i) {
      CHECK(archived.instants[i].requested.str() == c.archived[i / 3]);
      CHECK(archived.instants[i].state == static_cast<State>(i % 3));
      CHECK(archived.instants[i].completed.has_value());
    }
    for (const auto& [t, json] : commit_files) {
      const auto want = hudi::decode_commit_metadata(json, t);
      REQUIRE(want.ok());
      const auto& got = archived.commits.at(InstantTime::parse(t).value());
      CHECK(got.operation_type == want->operation_type);
      REQUIRE(got.write_stats.size() == want->write_stats.size());
      for (std::size_t i = 0; i < got.write_stats.size(); ++i) {
        CHECK(got.write_stats[i].file_id == want->write_stats[i].file_id);
        CHECK(got.write_stats[i].path == want->write_stats[i].path);
        CHECK(got.write_stats[i].file_size_bytes == want->write_stats[i].file_size_bytes);
      }
    }

    // Nothing more to archive: a rerun, under Hudi's file-system lock this
    // time, changes nothing (the lock file comes and goes).
    r = run_tool(archive_args(root, {"--execute", "--json", "--conf",
                                     "hoodie.write.lock.provider=org.apache.hudi.client.transaction.lock."
                                     "FileSystemBasedLockProvider"}));
    REQUIRE_MESSAGE(r.code == 0, r.err);
    json_doc locked(r.out);
    CHECK(str(locked.root["lock"]) == "file-system lock .hoodie/lock");
    CHECK_FALSE(locked.root["executed"].get_bool().value());
    CHECK(files_under(root) == after);
  }
}

TEST_CASE("a crash after any change of lakegc archive --execute: the next run finishes with the same result") {
  const Case& c = kCases[0];
  temp_dir tmp;
  const fs::path reference = fresh_copy(c.table, tmp.path() / "ref");
  REQUIRE(run_tool(archive_args(reference, {"--execute", "--no-concurrent-writers"})).code == 0);
  const auto want = files_under(reference);
  // 1 archive file, 6 deletes.
  for (int n = 1; n <= 8; ++n) {
    CAPTURE(n);
    const fs::path root = fresh_copy(c.table, tmp.path() / ("crash" + std::to_string(n)));
    tool_result r = run_tool_env({"LAKEGC_CRASH_AFTER_MUTATIONS=" + std::to_string(n)},
                                 archive_args(root, {"--execute", "--no-concurrent-writers"}));
    CHECK(r.code == (n <= 7 ? 86 : 0));
    r = run_tool(archive_args(root, {"--execute", "--no-concurrent-writers", "--json"}));
    REQUIRE_MESSAGE(r.code == 0, r.err);
    CHECK(files_under(root) == want);
    const hudi::archived_timeline archived = read_archive(root);
    CHECK(archived.instants.size() == 6);  // nothing twice
  }
}

TEST_CASE("lakegc archive --execute refuses a table without a lock, changing nothing") {
  temp_dir tmp;
  const fs::path v6 = fresh_copy(kCases[0].table, tmp.path() / "v6");
  const auto before = files_under(v6);
  const tool_result r = run_tool(archive_args(v6, {"--execute"}));
  CHECK(r.code == 1);
  CHECK(r.err.find("no table lock is configured") != std::string::npos);
  CHECK(files_under(v6) == before);
}

}  // namespace lakegc::tests::archive_execute_corpus_test
