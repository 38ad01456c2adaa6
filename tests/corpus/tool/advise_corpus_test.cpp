// Issue 19 on the real tables: `lakegc advise` runs on each, its JSON has
// the documented shape, and what it says each recommendation would reclaim
// is what `lakegc plan clean` plans under the same hoodie.* lines.
#include <doctest/doctest.h>

#include "tool_corpus.hpp"

namespace lakegc::tests::advise_corpus_test {

using namespace lakegc::testing;

TEST_CASE("lakegc advise on every corpus table agrees with plan clean under its recommendations") {
  for (const auto& table : corpus_tables()) {
    INFO(table);
    const auto root = unzipped(table);
    const tool_result r = run_tool({"advise", root.string(), "--longest-query", "3h", "--recovery", "1d", "--json",
                                    "--conf", "hoodie.clean.commits.retained=2"});
    REQUIRE_MESSAGE(r.code == 0, r.err);
    json_doc doc(r.out);
    CHECK(doc.root["window_ms"].get_int64().value() == 27 * 3'600'000);
    CHECK(str(doc.root["window"]) == "1d 3h");
    std::size_t recommendations = 0;
    for (auto rec : doc.root["recommendations"].get_array()) {
      ++recommendations;
      std::vector<std::string> args = {"plan",   "clean",  root.string(),
                                       "--json", "--conf", "hoodie.clean.incremental.enabled=false"};
      for (auto [key, value] : rec["config"].get_object()) {
        args.push_back("--conf");
        args.push_back(std::string(key) + "=" + str(value));
      }
      const tool_result plan = run_tool(args);
      REQUIRE_MESSAGE(plan.code == 0, plan.err);
      json_doc p(plan.out);
      CHECK_MESSAGE(rec["bytes_reclaimable"].get_uint64().value() == p.root["bytes_reclaimable"].get_uint64().value(),
                    str(rec["policy"]));
      CHECK(rec["retained"].get_uint64().value() >= 1);
    }
    CHECK(recommendations == 3);
    CHECK(str(doc.root["current"]["policy"]) == "KEEP_LATEST_COMMITS");
    CHECK(doc.root["current"]["retained"].get_uint64().value() == 2);
  }
  // Bad input: no --longest-query, a duration that is not one.
  const auto root = unzipped(corpus_tables().front());
  CHECK(run_tool({"advise", root.string()}).code == 2);
  const tool_result bad = run_tool({"advise", root.string(), "--longest-query", "soon"});
  CHECK(bad.code == 2);
  CHECK(bad.err.find("--longest-query 'soon'") != std::string::npos);
}

}  // namespace lakegc::tests::advise_corpus_test
