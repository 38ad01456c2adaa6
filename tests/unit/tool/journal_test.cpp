// hudi::journal::load() on timelines that are not what the writer makes:
// unknown actions and damaged files are errors naming the file, a layout-2
// name in a layout-1 folder is refused, legacy instants of an upgraded
// table take their completion time from the file, a missing layout-2
// timeline folder is an empty timeline, and a listing failure is reported.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "lakegc/plan/plan_rollback.hpp"
#include "lakegc/storage/posix_storage.hpp"
#include "tool_fixture.hpp"

namespace lakegc::tests::journal_test {

using namespace lakegc;
using namespace lakegc::testing;

namespace {

void write_v8_properties(memory_storage& s) {
  REQUIRE(
      s.write_if_absent(".hoodie/hoodie.properties",
                        "hoodie.table.type=COPY_ON_WRITE\nhoodie.table.version=8\nhoodie.table.timeline.timezone=UTC\n")
          .ok());
}

/// A storage failure injected into the next `op` stops the load, keeps its
/// code and names `path`.
void load_fails_naming(memory_storage& s, journal_t& j, storage_op op, std::string_view path) {
  s.fail_next(op, absl::UnavailableError("injected"));
  auto md = j.load();
  REQUIRE_FALSE(md.ok());
  CHECK(absl::IsUnavailable(md.status()));
  CHECK(msg(md.status()).find(path) != std::string::npos);
}

/// Loads a layout-2 table holding a legacy completed commit (modified at
/// 2025-01-01T00:00:02Z) and a commit with its completion time in its name,
/// and checks both completion times.
template <class Journal>
void check_completion_times(Journal& j) {
  auto md = j.load();
  TOOL_REQUIRE_OK(md);
  REQUIRE(md->timeline.size() == 2);
  CHECK(md->timeline.instants()[0].completed == instant("20250101000002000"));
  CHECK(md->timeline.instants()[1].completed == instant("20250101000011000"));
  CHECK(md->timeline.completed_commits().size() == 2);
}

}  // namespace

TEST_CASE("missing hoodie.properties: NotFound naming the file and saying it is not a table") {
  memory_storage s;
  auto j = journal_t::open(s, "/lake/nothing");
  REQUIRE_FALSE(j.ok());
  CHECK(absl::IsNotFound(j.status()));
  CHECK(msg(j.status()).find("/lake/nothing/.hoodie/hoodie.properties") != std::string::npos);
  CHECK(msg(j.status()).find("not a Hudi table") != std::string::npos);
}

TEST_CASE("an unknown action or state on the timeline is an error naming the file") {
  for (const char* bad : {".hoodie/20260101000000000.frobnicate", ".hoodie/20260101000000000.commit.done"}) {
    memory_storage s;
    write_versions(s, {instant("20250101000000000")});
    REQUIRE(s.write_if_absent(bad, "").ok());
    auto j = journal_t::open(s, "/t");
    TOOL_REQUIRE_OK(j);
    auto md = j->load();
    REQUIRE_FALSE(md.ok());
    CHECK_MESSAGE(msg(md.status()).find(std::string("/t/") + bad) != std::string::npos, msg(md.status()));
  }
}

TEST_CASE("names that are not instants are skipped: properties, .crc files, folders") {
  memory_storage s;
  write_versions(s, {instant("20250101000000000")});
  for (const char* other : {".hoodie/hoodie.properties.backup", ".hoodie/.20250101000000000.commit.crc",
                            ".hoodie/20250101000000000.commit.crc", ".hoodie/archived/.commits_.archive.1_1-0-1",
                            ".hoodie/.aux/.bootstrap/.partitions/x", ".hoodie/metadata/.hoodie/hoodie.properties"}) {
    REQUIRE(s.write_if_absent(other, "whatever").ok());
  }
  auto j = journal_t::open(s, "/t");
  TOOL_REQUIRE_OK(j);
  auto md = j->load();
  TOOL_REQUIRE_OK(md);
  CHECK(md->timeline.size() == 1);
}

TEST_CASE("a completion time in a layout-1 name is refused") {
  memory_storage s;
  write_versions(s, {instant("20250101000000000")});
  REQUIRE(s.write_if_absent(".hoodie/20250102000000000_20250102000001000.commit", "").ok());
  auto j = journal_t::open(s, "/t");
  TOOL_REQUIRE_OK(j);
  auto md = j->load();
  REQUIRE_FALSE(md.ok());
  CHECK(msg(md.status()).find("20250102000000000_20250102000001000.commit") != std::string::npos);
  CHECK(msg(md.status()).find("layout 1") != std::string::npos);
}

TEST_CASE("damaged instant files are errors naming the file; empty in-flight files are normal") {
  struct Case {
    const char* name;
    std::string bytes;
    bool ok;
  };
  const Case cases[] = {
      {"20250102000000000.inflight", "", true},
      {"20250102000000000.inflight", "{\"partitionToWriteStats\" : {", false},
      {"20250102000000000.rollback.inflight", "", true},
      {"20250102000000000.rollback.requested", "garbage", false},
      {"20250102000000000.rollback.requested", std::string("Obj\x01", 4) + "truncated", false},
      // A crash while requesting: the timeline loads (under a 0-byte completed
      // clean Hudi's scheduling removes it); finishing the clean reads the
      // plan and fails (below), as Hudi's does.
      {"20250102000000000.clean.requested", "", true},
      {"20250102000000000.savepoint", "{}", false},  // Avro expected
      {"20250102000000000.indexing.inflight", "{\"a\": [1, 2]}", true},
  };
  for (const Case& c : cases) {
    memory_storage s;
    write_versions(s, {instant("20250101000000000")});
    REQUIRE(s.write_if_absent(std::string(".hoodie/") + c.name, c.bytes).ok());
    auto j = journal_t::open(s, "/t");
    TOOL_REQUIRE_OK(j);
    auto md = j->load();
    INFO(c.name << " holding '" << c.bytes << "'");
    CHECK(md.ok() == c.ok);
    if (!md.ok()) CHECK_MESSAGE(msg(md.status()).find(c.name) != std::string::npos, msg(md.status()));
    if (std::string_view(c.name).ends_with(".clean.requested") && c.bytes.empty()) {
      auto t = InstantTime::parse("20250102000000000");
      REQUIRE(t.ok());
      auto plan = j->read_clean_plan(*t);
      REQUIRE_FALSE(plan.ok());
      CHECK_MESSAGE(msg(plan.status()).find(c.name) != std::string::npos, msg(plan.status()));
    }
  }
}

TEST_CASE("layout 2: a legacy completed file takes its completion time from its modification time") {
  memory_storage s;
  write_v8_properties(s);
  REQUIRE(s.write_if_absent(".hoodie/timeline/20250101000000000.commit", "{}").ok());  // legacy: JSON, no completion
  REQUIRE(s.set_mtime(".hoodie/timeline/20250101000000000.commit", 1'735'689'602'000).ok());  // 2025-01-01T00:00:02Z
  REQUIRE(s.write_if_absent(".hoodie/timeline/20250101000010000_20250101000011000.commit", "").ok());
  auto j = journal_t::open(s, "/t");
  TOOL_REQUIRE_OK(j);
  check_completion_times(*j);
  // Loading lists names only and stats just the legacy file: its mtime is
  // its completion time.
  const std::uint64_t stats_before = s.calls(storage_op::stat);
  TOOL_REQUIRE_OK(j->load());
  CHECK(s.calls(storage_op::stat) - stats_before == 1);

  // Gone between the listing and the stat: skipped, as a listing that stats
  // skips it. Any other failure stops the load, naming the file.
  s.fail_next(storage_op::stat, absl::NotFoundError("gone"));
  auto gone = j->load();
  TOOL_REQUIRE_OK(gone);
  CHECK(gone->timeline.size() == 1);
  load_fails_naming(s, *j, storage_op::stat, "/t/.hoodie/timeline/20250101000000000.commit");
}

TEST_CASE("layout 2 on disk: the legacy file's completion time is read though the listing makes no stat") {
  namespace fs = std::filesystem;
  std::string dir_template = (fs::temp_directory_path() / "lakegc-journal-XXXXXX").string();
  REQUIRE(::mkdtemp(dir_template.data()) != nullptr);
  const fs::path root(dir_template);
  fs::create_directories(root / ".hoodie/timeline");
  const auto write = [&](const fs::path& rel, std::string_view bytes) {
    std::ofstream(root / rel, std::ios::binary) << bytes;
  };
  write(".hoodie/hoodie.properties",
        "hoodie.table.type=COPY_ON_WRITE\nhoodie.table.version=8\nhoodie.table.timeline.timezone=UTC\n");
  write(".hoodie/timeline/20250101000000000.commit", "{}");
  write(".hoodie/timeline/20250101000010000_20250101000011000.commit", "");
  const timespec times[2] = {{1'735'689'602, 0}, {1'735'689'602, 0}};  // 2025-01-01T00:00:02Z
  REQUIRE(::utimensat(AT_FDCWD, (root / ".hoodie/timeline/20250101000000000.commit").c_str(), times, 0) == 0);
  auto storage = posix_storage::open(root.string());
  TOOL_REQUIRE_OK(storage);
  auto j = hudi::journal<posix_storage>::open(*storage, root.string());
  TOOL_REQUIRE_OK(j);
  check_completion_times(*j);
  fs::remove_all(root);
}

TEST_CASE("layout 2 without a timeline folder (object stores have no empty folders) is an empty timeline") {
  memory_storage s;
  write_v8_properties(s);
  auto j = journal_t::open(s, "s3://b/t");
  TOOL_REQUIRE_OK(j);
  auto md = j->load();
  TOOL_REQUIRE_OK(md);
  CHECK(md->timeline.empty());
  CHECK(md->layout == TimelineLayout::v2);
}

TEST_CASE("a storage failure while listing or reading is reported with the path") {
  memory_storage s;
  write_versions(s, {instant("20250101000000000")});
  auto j = journal_t::open(s, "/t");
  TOOL_REQUIRE_OK(j);
  load_fails_naming(s, *j, storage_op::list, "/t/.hoodie");
  load_fails_naming(s, *j, storage_op::read, "/t/.hoodie/20250101000000000");
}

TEST_CASE("writes in flight: heartbeats and markers (DIRECT and TIMELINE_SERVER_BASED) of pending writes are loaded") {
  std::int64_t now = 1'767'225'600'000;  // 2026-01-01T00:00:00Z
  memory_storage s([&] { return now; });
  write_versions(s, {instant("20250101000000000")});
  const InstantTime direct = instant("20260101000000000");
  const InstantTime server = instant("20260101000100000");
  // Two writes in flight (no data file yet: markers come first).
  for (const InstantTime& t : {direct, server}) {
    REQUIRE(s.write_if_absent(fmt::format(".hoodie/{}.commit.requested", t), "").ok());
    REQUIRE(s.write_if_absent(fmt::format(".hoodie/{}.inflight", t), "").ok());
  }
  const std::string a = fmt::format("{}_0-1-1_{}.parquet", writer_t::file_id(7), direct);
  const std::string b = fmt::format("{}_0-2-2_{}.parquet", writer_t::file_id(8), server);
  const std::string c = fmt::format("{}_1-2-3_{}.parquet", writer_t::file_id(9), server);
  REQUIRE(s.write_if_absent(fmt::format(".hoodie/.temp/{}/p=1/{}.marker.CREATE", direct, a), "").ok());
  // Hadoop's checksum files beside markers (a table written on a local
  // file system) are not markers: Hudi lists through Hadoop, which hides them.
  REQUIRE(s.write_if_absent(fmt::format(".hoodie/.temp/{}/p=1/.{}.marker.CREATE.crc", direct, a), "x").ok());
  REQUIRE(s.write_if_absent(fmt::format(".hoodie/.temp/{}/.MARKERS0.crc", server), "x").ok());
  REQUIRE(s.write_if_absent(fmt::format(".hoodie/.temp/{}/MARKERS.type", server), "TIMELINE_SERVER_BASED").ok());
  REQUIRE(s.write_if_absent(fmt::format(".hoodie/.temp/{}/MARKERS0", server),
                            fmt::format("p=1/{}.marker.CREATE\np=2/{}.marker.MERGE\n", b, c))
              .ok());
  // Leftover markers of the completed instant are not read, even damaged.
  REQUIRE(s.write_if_absent(".hoodie/.temp/20250101000000000/p=1/whatever", "").ok());
  now += 30'000;
  REQUIRE(s.write_if_absent(fmt::format(".hoodie/.heartbeat/{}", direct), "").ok());
  REQUIRE(s.write_if_absent(".hoodie/.heartbeat/README.crc", "").ok());  // not an instant: skipped

  auto j = journal_t::open(s, "/t");
  TOOL_REQUIRE_OK(j);
  auto md = j->load();
  TOOL_REQUIRE_OK(md);
  CHECK(md->heartbeats == std::map<InstantTime, std::int64_t>{{direct, now}});
  REQUIRE(md->markers.size() == 2);
  CHECK(md->markers.at(direct) == std::vector<WrittenFile>{{"p=1", a, 0}});
  CHECK(md->markers.at(server) == std::vector<WrittenFile>{{"p=1", b, 0}, {"p=2", c, 0}});

  // LAZY rollback: the write with a fresh heartbeat is alive; the one
  // without a heartbeat has expired, and its markers say what to delete.
  RollbackOptions lazy;
  lazy.policy = FailedWritesPolicy::lazy;
  const RollbackPlan plan = plan_rollback(*md, lazy, now + 1000);
  REQUIRE(plan.rollbacks.size() == 1);
  CHECK(plan.rollbacks[0].instant == server);
  CHECK(plan.rollbacks[0].files.size() == 2);
  CHECK(plan.alive == std::vector<InstantTime>{direct});
}

TEST_CASE("a marker of a pending write that does not follow the grammar is an error naming it") {
  const InstantTime t = instant("20260101000000000");
  for (const std::string& bad :
       {fmt::format(".hoodie/.temp/{}/p=1/x.parquet.marker.DELETE", t), fmt::format(".hoodie/.temp/{}/MARKERS3", t)}) {
    memory_storage s;
    write_versions(s, {instant("20250101000000000")});
    REQUIRE(s.write_if_absent(fmt::format(".hoodie/{}.commit.requested", t), "").ok());
    REQUIRE(s.write_if_absent(bad, "p=1/y.parquet\n").ok());
    auto j = journal_t::open(s, "/t");
    TOOL_REQUIRE_OK(j);
    auto md = j->load();
    REQUIRE_FALSE(md.ok());
    CHECK_MESSAGE(msg(md.status()).find(bad) != std::string::npos, msg(md.status()));
  }
}

}  // namespace lakegc::tests::journal_test
