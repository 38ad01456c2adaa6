// Issue 11, on real Spark-written tables changed at test time the way a
// long-lived table looks: the first commit archived (its timeline files
// gone), and a non-write instant older than every active commit (a rollback
// in layout 1, which Hudi archives by its own count; a restore and a
// savepoint in flight in layout 2, which Hudi never archives). The file of
// the archived commit is the only slice of a live file group: `orphans
// --execute` must keep it, `inspect` must show it, `plan clean` must not
// plan it.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <set>

#include "tool_corpus.hpp"

namespace lakegc::tests::safety_corpus_test {

using namespace lakegc::testing;
namespace fs = std::filesystem;

namespace {

void age(const fs::path& root, std::chrono::hours by) {
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (e.is_regular_file()) fs::last_write_time(e.path(), fs::file_time_type::clock::now() - by);
  }
}

// Runs the three commands and checks that `live` (relative to root) is kept,
// shown in a slice, and not planned.
void check_live_file_survives(const fs::path& root, const std::string& partition, const std::string& live) {
  REQUIRE(fs::exists(root / partition / live));

  tool_result inspect = run_tool({"inspect", root.string(), "--json"});
  REQUIRE_MESSAGE(inspect.code == 0, inspect.err);
  json_doc doc(inspect.out);
  bool shown = false;
  for (auto p : doc.root["partitions"].get_array()) {
    if (str(p["path"]) != partition) continue;
    for (auto g : p["file_groups"].get_array()) {
      for (auto s : g["slices"].get_array()) {
        if (!s["base_file"].is_null() && str(s["base_file"]) == live) shown = true;
      }
    }
  }
  CHECK_MESSAGE(shown, "inspect does not show " << partition << "/" << live << "\n" << inspect.out);

  tool_result plan = run_tool({"plan", "clean", root.string(), "--json", "--conf", "hoodie.clean.commits.retained=1"});
  REQUIRE_MESSAGE(plan.code == 0, plan.err);
  CHECK_MESSAGE(plan.out.find(live) == std::string::npos, plan.out);

  tool_result dry = run_tool({"orphans", root.string(), "--json", "--older-than", "1d"});
  REQUIRE_MESSAGE((dry.code == 0 || dry.code == 1), dry.err);
  CHECK_MESSAGE(dry.out.find(live) == std::string::npos, dry.out);
  tool_result wet = run_tool({"orphans", root.string(), "--execute", "--older-than", "1d"});
  REQUIRE_MESSAGE((wet.code == 0 || wet.code == 1), wet.err);
  CHECK_MESSAGE(fs::exists(root / partition / live), "orphans --execute deleted a live file: " << wet.out);

  tool_result after = run_tool({"inspect", root.string(), "--json"});
  REQUIRE(after.code == 0);
  CHECK(after.out.find(live) != std::string::npos);
}

}  // namespace

TEST_CASE("issue 11, layout 1: an archived commit's file survives a rollback instant older than every commit") {
  temp_dir tmp;
  const fs::path root = fresh_copy("sample_table/cow/v6_simplekeygen_nonhivestyle", tmp.path() / "t");
  const fs::path donor = fresh_copy("sample_table/mor/parquet/v6_nonpartitioned_rollback", tmp.path() / "d");
  // Archive the first commit: its three timeline files go.
  for (const char* f :
       {"20240418172802262.commit", "20240418172802262.commit.requested", "20240418172802262.inflight"}) {
    REQUIRE(fs::remove(root / ".hoodie" / f));
  }
  // An old completed rollback, renamed to an instant before every commit.
  for (const char* ext : {".rollback", ".rollback.inflight", ".rollback.requested"}) {
    fs::copy_file(donor / ".hoodie" / (std::string("20250126040936578") + ext),
                  root / ".hoodie" / (std::string("20240418170000000") + ext));
  }
  age(root, std::chrono::hours(24 * 30));
  check_live_file_survives(root, "20", "76e0556b-390d-4249-b7ad-9059e2bc2cbd-0_0-98-141_20240418172802262.parquet");
  // The superseded version of the archived commit is the cleaner's, not the sweep's.
  CHECK(fs::exists(root / "10" / "97de74b1-2a8e-4bb7-874c-0a74e1f42a77-0_1-98-142_20240418172802262.parquet"));
}

TEST_CASE("issue 11, layout 2: an archived commit's file survives a restore and a savepoint older than every commit") {
  temp_dir tmp;
  const fs::path root = fresh_copy("sample_table/cow/v8_complexkeygen_hivestyle", tmp.path() / "t");
  const fs::path tl = root / ".hoodie" / "timeline";
  for (const char* f : {"20250713010139392.commit.requested", "20250713010139392.inflight",
                        "20250713010139392_20250713010140981.commit"}) {
    REQUIRE(fs::remove(tl / f));
  }
  // Hudi never archives restores or savepoints: a pending restore and a
  // savepoint in flight (both empty files, as Hudi writes them) from before
  // every active commit.
  spit(tl / "20250713000000000.restore.requested", "");
  spit(tl / "20250713000000000.restore.inflight", "");
  spit(tl / "20250713000500000.savepoint.inflight", "");
  age(root, std::chrono::hours(24 * 30));
  check_live_file_survives(root, "byteField=20/shortField=100",
                           "4e781779-6989-4a4e-aa3e-683eff88629f-0_0-13-24_20250713010139392.parquet");
}

}  // namespace lakegc::tests::safety_corpus_test
