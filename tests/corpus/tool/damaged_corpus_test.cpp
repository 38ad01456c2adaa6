// Damaged copies of the corpus tables, run through the built `lakegc`
// binary: every instant file cut to half its length, a commit file replaced
// by garbage, an unknown action on the timeline and hoodie.properties
// removed are bad input (exit code 2, a message naming the file); a data
// file renamed to a name outside Hudi's grammar is not Hudi's and is
// skipped.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "lakegc/hudi/timeline_file_name.hpp"
#include "tool_corpus.hpp"

namespace lakegc::tests::damaged_corpus_test {

namespace fs = std::filesystem;
using namespace lakegc::testing;

namespace {

fs::path timeline_dir(const fs::path& root) {
  return fs::is_directory(root / ".hoodie" / "timeline") ? root / ".hoodie" / "timeline" : root / ".hoodie";
}

std::vector<fs::path> instant_files(const fs::path& root) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(timeline_dir(root))) {
    if (e.is_regular_file() && lakegc::hudi::looks_like_instant_file(e.path().filename().string())) {
      out.push_back(e.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

void expect_bad_input(const fs::path& root, const std::string& names, const char* what) {
  for (const auto& args : {std::vector<std::string>{"inspect", root.string(), "--json"},
                           std::vector<std::string>{"plan", "clean", root.string()}}) {
    const auto r = run_tool(args);
    INFO(what << ": lakegc " << args[0] << " on " << root.string());
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK_MESSAGE(r.err.find(names) != std::string::npos, r.err);
  }
}

}  // namespace

TEST_CASE("every non-empty instant file cut to half its length is an error naming it") {
  temp_dir tmp;
  std::size_t damaged = 0;
  for (const auto& table : corpus_tables()) {
    const fs::path root = fresh_copy(table, tmp.path());
    for (const fs::path& f : instant_files(root)) {
      const std::string bytes = slurp(f);
      if (bytes.empty()) continue;  // nothing to cut
      spit(f, bytes.substr(0, bytes.size() / 2));
      const auto r = run_tool({"inspect", root.string(), "--json"});
      INFO(table << ": " << f.filename().string());
      CHECK(r.code == 2);
      CHECK_MESSAGE(r.err.find(f.filename().string()) != std::string::npos, r.err);
      spit(f, bytes);
      ++damaged;
    }
    // Restored, the table reads again.
    CHECK(run_tool({"inspect", root.string(), "--json"}).code == 0);
  }
  CHECK(damaged > 100);
}

TEST_CASE("a commit file replaced by garbage is an error naming it") {
  temp_dir tmp;
  for (const auto& table : corpus_tables()) {
    const fs::path root = fresh_copy(table, tmp.path());
    fs::path last_commit;
    for (const fs::path& f : instant_files(root)) {
      const auto parsed = lakegc::hudi::parse_timeline_file_name(f.filename().string());
      REQUIRE(parsed.ok());
      if (parsed->state == lakegc::State::completed && lakegc::is_commit_action(parsed->action)) last_commit = f;
    }
    if (last_commit.empty()) continue;  // v6_empty
    spit(last_commit, std::string("this is not commit metadata\x01\x02\x03", 30));
    expect_bad_input(root, last_commit.filename().string(), table.c_str());
  }
}

TEST_CASE("an unknown action on the timeline is an error naming the file") {
  temp_dir tmp;
  for (const auto& table :
       {std::string("sample_table/cow/v6_nonpartitioned"), std::string("sample_table/cow/v8_nonpartitioned")}) {
    const fs::path root = fresh_copy(table, tmp.path());
    spit(timeline_dir(root) / "20240101000000000.frobnicate", "");
    expect_bad_input(root, "20240101000000000.frobnicate", table.c_str());
  }
}

TEST_CASE("hoodie.properties removed: not a table, naming the file") {
  temp_dir tmp;
  for (const auto& table : corpus_tables()) {
    const fs::path root = fresh_copy(table, tmp.path());
    fs::remove(root / ".hoodie" / "hoodie.properties");
    expect_bad_input(root, ".hoodie/hoodie.properties", table.c_str());
  }
}

TEST_CASE("a data file renamed to a name outside Hudi's grammar is skipped, not an error") {
  temp_dir tmp;
  for (const auto& table : corpus_tables()) {
    const fs::path root = fresh_copy(table, tmp.path());
    fs::path victim;
    for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
      if (it->is_directory() && it->path().filename() == ".hoodie") {
        it.disable_recursion_pending();
        continue;
      }
      if (it->is_regular_file() && it->path().extension() == ".parquet") {
        victim = it->path();
        break;
      }
    }
    if (victim.empty()) continue;  // v6_empty
    const std::string old_name = victim.filename().string();
    fs::rename(victim, victim.parent_path() / "renamed-by-hand.parquet");
    const auto r = run_tool({"inspect", root.string(), "--json"});
    INFO(table);
    CHECK(r.code == 0);
    CHECK(r.out.find("renamed-by-hand.parquet") == std::string::npos);
    // The old name is in no slice; where the metadata proves it must be
    // listed, the partition says so (issue 18: the listing check warns).
    json_doc doc(r.out);
    for (auto part : doc.root["partitions"].get_array()) {
      for (auto g : part["file_groups"].get_array()) {
        for (auto slice : g["slices"].get_array()) {
          if (!slice["base_file"].is_null()) CHECK(str(slice["base_file"]) != old_name);
        }
      }
      if (!part["listing_gap"].is_null()) CHECK(str(part["listing_gap"]["file"]) == old_name);
    }
    CHECK(run_tool({"plan", "clean", root.string(), "--conf", "hoodie.clean.fileversions.retained=1"}).code == 0);
  }
}

}  // namespace lakegc::tests::damaged_corpus_test
