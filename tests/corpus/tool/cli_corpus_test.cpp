// The built `lakegc` binary's command line on real tables: --help on every
// command, exit codes (0 success, 1 refusal, 2 bad usage or bad input),
// human output by default and --json for machines, `clean` refusing to
// execute, Spark configs passed verbatim with --props.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "tool_corpus.hpp"

namespace lakegc::tests::cli_corpus_test {

using namespace lakegc::testing;

namespace {
const std::string kTrips = "quickstart_trips_table/mor/avro/v8_trips_8i3u1d";
std::string trips() { return unzipped(kTrips).string(); }
}  // namespace

TEST_CASE("--help on every command: exit 0 and a usage line on stdout") {
  for (const auto& args : std::vector<std::vector<std::string>>{{"--help"},
                                                                {"help"},
                                                                {"inspect", "--help"},
                                                                {"plan", "--help"},
                                                                {"plan", "clean", "--help"},
                                                                {"clean", "--help"},
                                                                {"inspect", trips(), "-h"}}) {
    const auto r = run_tool(args);
    INFO(args.front() << " " << (args.size() > 1 ? args[1] : ""));
    CHECK(r.code == 0);
    CHECK(r.out.find("usage: lakegc") != std::string::npos);
    CHECK(r.err.empty());
  }
}

TEST_CASE("bad usage: exit 2 with a message on stderr, nothing on stdout") {
  for (const auto& args : std::vector<std::vector<std::string>>{{},
                                                                {"frobnicate"},
                                                                {"inspect"},
                                                                {"inspect", trips(), "--nope"},
                                                                {"inspect", trips(), "--as-of", "yesterday"},
                                                                {"inspect", trips(), trips()},
                                                                {"plan"},
                                                                {"plan", "compaction", trips()},
                                                                {"plan", "clean", trips(), "--conf", "no-equals-sign"},
                                                                {"plan", "clean", trips(), "--conf"},
                                                                {"clean", trips(), "--json=yes"}}) {
    const auto r = run_tool(args);
    INFO((args.empty() ? std::string("(none)") : args.front()));
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK_FALSE(r.err.empty());
  }
}

TEST_CASE("inspect prints people's output by default and JSON with --json") {
  const auto text = run_tool({"inspect", trips()});
  CHECK(text.code == 0);
  CHECK(text.out.find("MERGE_ON_READ, table version 8, timeline layout 2") != std::string::npos);
  CHECK(text.err.empty());  // no progress: stderr is not a terminal here
  const auto json = run_tool({"inspect", trips(), "--json"});
  CHECK(json.code == 0);
  json_doc doc(json.out);
  CHECK(str(doc.root["table"]["type"]) == "MERGE_ON_READ");
  const auto as_of = run_tool({"inspect", trips(), "--json", "--as-of=20251220210108078"});
  CHECK(as_of.code == 0);
  json_doc old(as_of.out);
  CHECK(str(old.root["table"]["as_of"]) == "20251220210108078");
}

TEST_CASE("plan clean: text and JSON, an unknown cleaning key is bad input naming it") {
  const auto text = run_tool({"plan", "clean", trips(), "--conf", "hoodie.clean.commits.retained=1"});
  CHECK(text.code == 0);
  CHECK(text.out.find("delete 7 files") != std::string::npos);
  const auto json = run_tool({"plan", "clean", trips(), "--conf", "hoodie.clean.commits.retained=1", "--json"});
  CHECK(json.code == 0);
  json_doc doc(json.out);
  CHECK(str(doc.root["plan"]["earliestInstantToRetain"]) == "20251220210130911");
  CHECK(doc.root["bytes_reclaimable"].get_uint64().value() > 0);
  const auto typo = run_tool({"plan", "clean", trips(), "--conf", "hoodie.clean.comits.retained=1"});
  CHECK(typo.code == 2);
  CHECK(typo.err.find("hoodie.clean.comits.retained") != std::string::npos);
  const auto bad_value = run_tool({"plan", "clean", trips(), "--conf", "hoodie.clean.commits.retained=0"});
  CHECK(bad_value.code == 2);
  CHECK(bad_value.err.find("hoodie.clean.commits.retained=0") != std::string::npos);
}

TEST_CASE("--props reads a user's Spark config verbatim; --conf wins over it") {
  temp_dir tmp;
  const auto props = tmp.path() / "spark-defaults.conf";
  spit(props,
       "# a Spark config: other keys are ignored\n"
       "spark.master                     local[4]\n"
       "spark.serializer=org.apache.spark.serializer.KryoSerializer\n"
       "hoodie.datasource.write.operation: upsert\n"
       "hoodie.cleaner.policy KEEP_LATEST_COMMITS\n"
       "hoodie.cleaner.commits.retained=1\n");
  const auto one = run_tool({"plan", "clean", trips(), "--props", props.string(), "--json"});
  CHECK(one.code == 0);
  json_doc a(one.out);
  CHECK(str(a.root["plan"]["earliestInstantToRetain"]) == "20251220210130911");
  const auto two = run_tool(
      {"plan", "clean", trips(), "--props", props.string(), "--conf", "hoodie.cleaner.commits.retained=2", "--json"});
  CHECK(two.code == 0);
  json_doc b(two.out);
  CHECK(str(b.root["plan"]["earliestInstantToRetain"]) == "20251220210129235");
  const auto missing = run_tool({"plan", "clean", trips(), "--props", (tmp.path() / "nope.conf").string()});
  CHECK(missing.code == 2);
  CHECK(missing.err.find("nope.conf") != std::string::npos);
}

TEST_CASE("clean without --execute is a dry run: it prints the plan clean prints and deletes nothing") {
  const std::vector<std::string> conf{"--conf", "hoodie.clean.commits.retained=1", "--json"};
  auto with = [&](std::vector<std::string> head) {
    head.insert(head.end(), conf.begin(), conf.end());
    return run_tool(head);
  };
  const auto before = with({"plan", "clean", trips()});
  const auto plain = with({"clean", trips()});
  const auto dry = with({"clean", trips(), "--dry-run"});
  CHECK(plain.code == 0);
  CHECK(dry.code == 0);
  CHECK(plain.out == before.out);
  CHECK(dry.out == before.out);
  // Nothing was deleted: the plan is the same afterwards.
  CHECK(with({"plan", "clean", trips()}).out == before.out);
  const auto not_a_table = run_tool({"clean", "/nonexistent/table"});
  CHECK(not_a_table.code == 2);
}

TEST_CASE("a path that is not a table: missing, a file, a folder without .hoodie, a symlink loop") {
  temp_dir tmp;
  const auto file = tmp.path() / "file.txt";
  spit(file, "not a table");
  std::filesystem::create_directories(tmp.path() / "empty");
  std::filesystem::create_directory_symlink(tmp.path() / "loop_b", tmp.path() / "loop_a");
  std::filesystem::create_directory_symlink(tmp.path() / "loop_a", tmp.path() / "loop_b");
  struct Case {
    std::string path;
    std::string says;
  };
  for (const Case& c : {Case{(tmp.path() / "missing").string(), "no such directory"}, Case{file.string(), "is a file"},
                        Case{(tmp.path() / "empty").string(), "hoodie.properties"},
                        Case{(tmp.path() / "loop_a").string(), "symbolic links"}}) {
    const auto r = run_tool({"inspect", c.path});
    INFO(c.path);
    CHECK(r.code == 2);
    CHECK(r.err.find(c.path) != std::string::npos);
    CHECK_MESSAGE(r.err.find(c.says) != std::string::npos, r.err);
  }
}

}  // namespace lakegc::tests::cli_corpus_test
