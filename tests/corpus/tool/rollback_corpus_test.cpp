// Issue 14: `lakegc rollback` on real Spark-written tables. The rollback
// records against the ones Hudi wrote in the v6 MOR rollback fixture; a
// failed write planted in a copy (its instant requested and inflight, a data
// file, its CREATE marker, a heartbeat) planned, rolled back in layout 2
// (v9) and layout 1 (v6) with the instant files Hudi leaves, and on a table
// with a metadata table the write never reached (which stays as it is) and
// one it reached (whose deltacommit there is rolled back too); LAZY by
// heartbeat; the refusals; a crash after every single change finished by
// the next run, with and without the metadata table.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <set>

#include "lakegc/hudi/journal.hpp"
#include "lakegc/hudi/log/command_block.hpp"
#include "lakegc/hudi/metadata_table/files_partition.hpp"
#include "lakegc/hudi/log/read_blocks.hpp"
#include "lakegc/hudi/rollback_records.hpp"
#include "lakegc/storage/posix_storage.hpp"
#include "tool_corpus.hpp"

namespace lakegc::tests::rollback_corpus_test {

using namespace lakegc::testing;
namespace fs = std::filesystem;

namespace {

const std::string kV9 = "sample_table/cow/v9_txns_simple_nometa";         // layout 2
const std::string kV6 = "sample_table/cow/v6_simplekeygen_nonhivestyle";  // layout 1
const std::string kMdt = "quickstart_trips_table/mor/avro/v8_trips_8i3u1d";
const std::string kFailed = "20260307135800000";
const std::string kNow = "20260308000000000";

struct planted {
  fs::path root;
  std::string partition;
  std::string file;  // the failed write's data file, relative to root
};

// Plants a failed commit at kFailed: requested + inflight instant files, a
// base file (a copy of one of the table's), its CREATE marker and a
// heartbeat last beaten at `beat`.
planted plant_failed_write(const fs::path& root, fs::file_time_type beat) {
  const bool layout2 = fs::exists(root / ".hoodie" / "timeline");
  const fs::path tl = layout2 ? root / ".hoodie" / "timeline" : root / ".hoodie";
  fs::path some_base;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (e.is_regular_file() && e.path().extension() == ".parquet") {
      some_base = e.path();
      break;
    }
  }
  REQUIRE(!some_base.empty());
  planted p;
  p.root = root;
  p.partition = fs::relative(some_base.parent_path(), root).generic_string();
  if (p.partition == ".") p.partition.clear();
  const std::string name = "abcdef01-1111-2222-3333-444455556666-0_0-9-9_" + kFailed + ".parquet";
  p.file = p.partition.empty() ? name : p.partition + "/" + name;
  fs::copy_file(some_base, root / p.file);
  spit(tl / (kFailed + ".commit.requested"), "");
  spit(tl / (kFailed + ".inflight"), "");
  fs::create_directories(root / ".hoodie" / ".temp" / kFailed / p.partition);
  spit(root / ".hoodie" / ".temp" / kFailed / (p.file + ".marker.CREATE"), "");
  fs::create_directories(root / ".hoodie" / ".heartbeat");
  spit(root / ".hoodie" / ".heartbeat" / kFailed, "");
  fs::last_write_time(root / ".hoodie" / ".heartbeat" / kFailed, beat);
  return p;
}

// Plants a failed deltacommit at kFailed in the version-6 MOR fixture (not
// partitioned): it appended a log file to the slice of group kGroupV6 (as a
// version-6 writer rolls over to the next version with the latest's write
// token), began a group with a log file of its own and another with a base
// file, with their APPEND and CREATE markers and a heartbeat long expired.
struct planted_v6 {
  fs::path root;
  std::string appended;  // the log file of the earlier slice
  std::string new_log;   // the log file of a group it began
  std::string new_base;  // the base file of a group it began
};

const std::string kMorV6 = "sample_table/mor/parquet/v6_nonpartitioned_rollback";
const std::string kGroupV6 = "0712b9f9-d2d5-4cae-bcf4-8fd7146af503-0";
const std::string kBaseV6 = "20250126040823628";

planted_v6 plant_failed_deltacommit_v6(const fs::path& root) {
  planted_v6 p;
  p.root = root;
  const fs::path tl = root / ".hoodie";
  const fs::path markers = tl / ".temp" / kFailed;
  fs::create_directories(markers);
  p.appended = "." + kGroupV6 + "_" + kBaseV6 + ".log.4_0-13-9";
  fs::copy_file(root / ("." + kGroupV6 + "_" + kBaseV6 + ".log.3_0-13-9"), root / p.appended);
  p.new_log = ".abcdef01-1111-2222-3333-444455556666-0_" + kFailed + ".log.1_0-9-8";
  spit(root / p.new_log, "blocks of the failed write");
  p.new_base = "abcdef01-1111-2222-3333-444455556667-0_0-9-9_" + kFailed + ".parquet";
  fs::copy_file(root / ("0712b9f9-d2d5-4cae-bcf4-8fd7146af503-0_0-13-23_" + kBaseV6 + ".parquet"), root / p.new_base);
  spit(markers / (p.appended + ".marker.APPEND"), "");
  spit(markers / (p.new_log + ".marker.APPEND"), "");
  spit(markers / (p.new_base + ".marker.CREATE"), "");
  spit(tl / (kFailed + ".deltacommit.requested"), "");
  spit(tl / (kFailed + ".deltacommit.inflight"), "");
  fs::create_directories(tl / ".heartbeat");
  spit(tl / ".heartbeat" / kFailed, "");
  return p;
}

// The table's files outside .hoodie/, relative to the root.
std::set<std::string> data_files(const fs::path& root) {
  std::set<std::string> out;
  for (const auto& f : files_under(root)) {
    if (!f.starts_with(".hoodie/")) out.insert(f);
  }
  return out;
}

fs::file_time_type long_ago() { return fs::file_time_type::clock::now() - std::chrono::hours(24 * 400); }

// The timeline folder's names, rollback instants replaced by "R" (their
// time is the wall clock of the run).
std::set<std::string> timeline_shape(const fs::path& root) {
  const fs::path tl = fs::exists(root / ".hoodie" / "timeline") ? root / ".hoodie" / "timeline" : root / ".hoodie";
  std::set<std::string> out;
  for (const auto& e : fs::directory_iterator(tl)) {
    if (!e.is_regular_file()) continue;
    std::string n = e.path().filename().string();
    if (n.find(".rollback") != std::string::npos) n = "R" + n.substr(n.find(".rollback"));
    out.insert(n);
  }
  return out;
}

std::vector<std::string> args(const fs::path& root, std::vector<std::string> extra = {}) {
  std::vector<std::string> a = {"rollback", root.string(), "--now", kNow};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

std::string only_file_ending(const fs::path& dir, const std::string& suffix) {
  std::string found;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string n = e.path().filename().string();
    if (n.ends_with(suffix)) {
      REQUIRE_MESSAGE(found.empty(), "two files end with " << suffix);
      found = n;
    }
  }
  REQUIRE_MESSAGE(!found.empty(), "no file ends with " << suffix);
  return found;
}

}  // namespace

TEST_CASE("the rollback records Hudi wrote decode, and re-encode with Hudi's schema to the same records") {
  const fs::path hoodie = unzipped("sample_table/mor/parquet/v6_nonpartitioned_rollback") / ".hoodie";
  const std::string plan_bytes = slurp(hoodie / "20250126040936578.rollback.requested");
  const std::string meta_bytes = slurp(hoodie / "20250126040936578.rollback");
  auto plan = hudi::decode_rollback_plan(plan_bytes, "rollback.requested");
  REQUIRE_MESSAGE(plan.ok(), message_of(plan.status()));
  REQUIRE(plan->instant_to_rollback.has_value());
  CHECK(plan->instant_to_rollback->commit_time == "20250126040826878");
  CHECK(plan->instant_to_rollback->action == "deltacommit");
  CHECK(plan->version == 1);
  REQUIRE(!plan->requests.empty());
  bool saw_base = false;
  bool saw_log_block = false;
  for (const auto& q : plan->requests) {
    for (const auto& f : q.files_to_be_deleted) saw_base |= f.ends_with("_20250126040826878.parquet");
    saw_log_block |= !q.log_blocks_to_be_deleted.empty();
  }
  CHECK(saw_base);
  CHECK(saw_log_block);  // version 6: the log file that gets a rollback block

  auto meta = hudi::decode_rollback_metadata_record(meta_bytes, "rollback");
  REQUIRE_MESSAGE(meta.ok(), message_of(meta.status()));
  CHECK(meta->start_rollback_time == "20250126040936578");
  CHECK(meta->commits_rollback == std::vector<std::string>{"20250126040826878"});
  REQUIRE(meta->instants_rollback.size() == 1);
  CHECK(meta->instants_rollback[0].action == "deltacommit");
  std::size_t success = 0;
  for (const auto& [p, pm] : meta->partition_metadata) success += pm.success_delete_files.size();
  CHECK(meta->total_files_deleted == static_cast<std::int64_t>(success));

  // lakegc's encoding of the same records: the same schema text Hudi
  // embeds, and the same records read back.
  auto plan_again = hudi::encode_rollback_plan(*plan);
  REQUIRE(plan_again.ok());
  CHECK(plan_again->find(std::string(hudi::schemas::rollback_plan)) != std::string::npos);
  CHECK(plan_bytes.find(std::string(hudi::schemas::rollback_plan)) != std::string::npos);
  auto plan_round = hudi::decode_rollback_plan(*plan_again, "ours");
  REQUIRE(plan_round.ok());
  CHECK(*plan_round == *plan);
  auto meta_again = hudi::encode_rollback_metadata(*meta);
  REQUIRE(meta_again.ok());
  CHECK(meta_bytes.find(std::string(hudi::schemas::rollback_metadata)) != std::string::npos);
  auto meta_round = hudi::decode_rollback_metadata_record(*meta_again, "ours");
  REQUIRE(meta_round.ok());
  CHECK(*meta_round == *meta);
}

TEST_CASE("layout 2: the dry run names the failed write's file; --execute rolls it back as Hudi does") {
  temp_dir tmp;
  const planted p = plant_failed_write(fresh_copy(kV9, tmp.path()), long_ago());
  const auto before = files_under(p.root);

  const tool_result dry = run_tool(args(p.root));
  REQUIRE_MESSAGE(dry.code == 0, dry.err);
  CHECK(dry.out.find("roll back commit " + kFailed) != std::string::npos);
  CHECK(dry.out.find(p.file) != std::string::npos);
  CHECK(files_under(p.root) == before);  // a dry run changes nothing

  // TABLE given relative to the working directory: the plan still names
  // absolute paths (a Hudi writer finishing it resolves them itself).
  const fs::path relative = fs::relative(p.root, fs::current_path());
  REQUIRE(relative.is_relative());
  const tool_result run = run_tool(args(relative, {"--execute", "--no-concurrent-writers", "--json"}));
  REQUIRE_MESSAGE(run.code == 0, run.err);
  json_doc j(run.out);
  CHECK(j.root["done"].get_array().size() == 1);
  CHECK(!fs::exists(p.root / p.file));
  const fs::path tl = p.root / ".hoodie" / "timeline";
  CHECK(!fs::exists(tl / (kFailed + ".inflight")));
  CHECK(!fs::exists(tl / (kFailed + ".commit.requested")));
  CHECK(!fs::exists(p.root / ".hoodie" / ".temp" / kFailed));
  CHECK(!fs::exists(p.root / ".hoodie" / ".heartbeat" / kFailed));
  const std::string requested = only_file_ending(tl, ".rollback.requested");
  const std::string completed = only_file_ending(tl, ".rollback");
  const std::string r = requested.substr(0, 17);
  CHECK(completed.starts_with(r + "_"));  // layout 2: <r>_<completion>.rollback
  CHECK(fs::file_size(tl / (r + ".rollback.inflight")) == 0);
  auto plan = hudi::decode_rollback_plan(slurp(tl / requested), requested);
  REQUIRE_MESSAGE(plan.ok(), message_of(plan.status()));
  REQUIRE(plan->requests.size() == 1);
  CHECK(plan->requests[0].partition_path == p.partition);
  CHECK(plan->requests[0].file_id == std::optional<std::string>("abcdef01-1111-2222-3333-444455556666-0"));
  CHECK(plan->requests[0].latest_base_instant == std::optional<std::string>(kFailed));
  REQUIRE(plan->requests[0].files_to_be_deleted.size() == 1);
  CHECK(plan->requests[0].files_to_be_deleted[0].ends_with("/" + p.file));
  CHECK(plan->requests[0].files_to_be_deleted[0] == (p.root / p.file).lexically_normal().string());
  auto meta = hudi::decode_rollback_metadata_record(slurp(tl / completed), completed);
  REQUIRE_MESSAGE(meta.ok(), message_of(meta.status()));
  CHECK(meta->start_rollback_time == r);
  CHECK(meta->commits_rollback == std::vector<std::string>{kFailed});
  CHECK(meta->instants_rollback == std::vector<hudi::InstantInfo>{{kFailed, "commit"}});
  CHECK(meta->total_files_deleted == 1);
  REQUIRE(meta->partition_metadata.contains(p.partition));
  CHECK(meta->partition_metadata.at(p.partition).success_delete_files == plan->requests[0].files_to_be_deleted);

  // Every other file is where it was.
  auto after = files_under(p.root);
  std::set<std::string> gone;
  for (const auto& f : before) {
    if (!after.contains(f)) gone.insert(f);
  }
  CHECK(gone == std::set<std::string>{p.file, ".hoodie/timeline/" + kFailed + ".inflight",
                                      ".hoodie/timeline/" + kFailed + ".commit.requested",
                                      ".hoodie/.temp/" + kFailed + "/" + p.file + ".marker.CREATE",
                                      ".hoodie/.heartbeat/" + kFailed});
  // A second run finds nothing to do.
  const tool_result again = run_tool(args(p.root, {"--execute", "--no-concurrent-writers"}));
  REQUIRE_MESSAGE(again.code == 0, again.err);
  CHECK(again.out.find("nothing to roll back") != std::string::npos);
  CHECK(files_under(p.root) == after);
}

TEST_CASE("layout 1 (table version 6): <r>.rollback and the failed instant's <t>.inflight and .commit.requested") {
  temp_dir tmp;
  const planted p = plant_failed_write(fresh_copy(kV6, tmp.path()), long_ago());
  const tool_result run = run_tool(args(p.root, {"--execute", "--no-concurrent-writers"}));
  REQUIRE_MESSAGE(run.code == 0, run.err);
  const fs::path tl = p.root / ".hoodie";
  CHECK(!fs::exists(p.root / p.file));
  CHECK(!fs::exists(tl / (kFailed + ".inflight")));
  CHECK(!fs::exists(tl / (kFailed + ".commit.requested")));
  const std::string requested = only_file_ending(tl, ".rollback.requested");
  const std::string r = requested.substr(0, 17);
  CHECK(fs::exists(tl / (r + ".rollback")));  // no completion time in layout 1
  auto meta = hudi::decode_rollback_metadata_record(slurp(tl / (r + ".rollback")), "rollback");
  REQUIRE_MESSAGE(meta.ok(), message_of(meta.status()));
  CHECK(meta->commits_rollback == std::vector<std::string>{kFailed});
}

TEST_CASE("table version 6 MOR: a log file of an earlier slice gets a rollback block in a new log file, as Hudi 1.2") {
  temp_dir tmp;
  const planted_v6 p = plant_failed_deltacommit_v6(fresh_copy(kMorV6, tmp.path()));
  const std::string rollback_log = "." + kGroupV6 + "_" + kBaseV6 + ".log.5_0-13-9";
  const tool_result dry = run_tool(args(p.root));
  REQUIRE_MESSAGE(dry.code == 0, dry.err);
  CHECK(dry.out.find("keep   " + p.appended) != std::string::npos);
  CHECK(dry.out.find("--execute would refuse") == std::string::npos);

  const tool_result run = run_tool(args(p.root, {"--execute", "--no-concurrent-writers", "--json"}));
  REQUIRE_MESSAGE(run.code == 0, run.err);
  // Deleted: what the write began; kept: the earlier slice's log.
  CHECK(!fs::exists(p.root / p.new_base));
  CHECK(!fs::exists(p.root / p.new_log));
  CHECK(fs::exists(p.root / p.appended));
  json_doc j(run.out);
  REQUIRE(j.root["done"].get_array().size() == 1);
  CHECK(str(j.root["done"].at(0)["rollback_log_files"].at(0)) == rollback_log);

  // The new log file: one rollback command block undoing kFailed, at the
  // next version with the latest's write token.
  const fs::path tl = p.root / ".hoodie";
  auto blocks = hudi::log::read_blocks(slurp(p.root / rollback_log), rollback_log);
  REQUIRE_MESSAGE(blocks.ok(), message_of(blocks.status()));
  REQUIRE(blocks->size() == 1);
  auto c = hudi::log::decode_command(blocks->front(), rollback_log);
  REQUIRE_MESSAGE(c.ok(), message_of(c.status()));
  CHECK(c->target_instant_time == kFailed);

  // The plan: one delete request per file (the group the write began with a
  // log has empty ids), one logBlocksToBeDeleted request for the group. The
  // fixture has a rollback of its own: ours is the other.
  std::string ours;
  for (const auto& e : fs::directory_iterator(tl)) {
    const std::string n = e.path().filename().string();
    if (n.ends_with(".rollback.requested") && !n.starts_with("20250126040936578")) ours = n.substr(0, 17);
  }
  REQUIRE(!ours.empty());
  CHECK(c->instant_time == ours);  // the active timeline's last instant: the rollback's own
  auto plan = hudi::decode_rollback_plan(slurp(tl / (ours + ".rollback.requested")), "plan");
  REQUIRE_MESSAGE(plan.ok(), message_of(plan.status()));
  REQUIRE(plan->requests.size() == 3);
  std::size_t deletes = 0;
  bool saw_block = false;
  for (const auto& q : plan->requests) {
    if (!q.files_to_be_deleted.empty()) {
      ++deletes;
      CHECK(q.log_blocks_to_be_deleted.empty());
      if (q.files_to_be_deleted[0].ends_with(p.new_log)) {
        CHECK(q.file_id == std::optional<std::string>(""));
        CHECK(q.latest_base_instant == std::optional<std::string>(""));
      } else {
        CHECK(q.file_id == std::optional<std::string>("abcdef01-1111-2222-3333-444455556667-0"));
        CHECK(q.latest_base_instant == std::optional<std::string>(kFailed));
      }
    } else {
      saw_block = true;
      CHECK(q.file_id == std::optional<std::string>(kGroupV6));
      CHECK(q.latest_base_instant == std::optional<std::string>(kBaseV6));
      CHECK(q.log_blocks_to_be_deleted ==
            std::map<std::string, std::int64_t>{
                {p.appended, static_cast<std::int64_t>(fs::file_size(p.root / p.appended))}});
    }
  }
  CHECK(deletes == 2);
  CHECK(saw_block);
  // The metadata: the rollback log file qualified as Hudi's storage names it.
  auto meta = hudi::decode_rollback_metadata_record(slurp(tl / (ours + ".rollback")), "rollback");
  REQUIRE_MESSAGE(meta.ok(), message_of(meta.status()));
  CHECK(meta->total_files_deleted == 2);
  REQUIRE(meta->partition_metadata.contains(""));
  const auto& pm = meta->partition_metadata.at("");
  CHECK(pm.rollback_log_files ==
        std::map<std::string, std::int64_t>{{"file:" + (p.root / rollback_log).lexically_normal().string(),
                                             static_cast<std::int64_t>(fs::file_size(p.root / rollback_log))}});
  // Hudi 1.2 keys the failed write's log files by name.
  CHECK(
      pm.log_files_from_failed_commit ==
      std::map<std::string, std::int64_t>{{p.appended, static_cast<std::int64_t>(fs::file_size(p.root / p.appended))}});
  // Markers of the failed write and of the rollback itself are gone.
  CHECK(!fs::exists(tl / ".temp" / kFailed));
  CHECK(!fs::exists(tl / ".temp" / ours));
  CHECK(!fs::exists(tl / (kFailed + ".deltacommit.inflight")));
  CHECK(!fs::exists(tl / (kFailed + ".deltacommit.requested")));

  // A crash after any single change, then a rerun: the same files as the
  // uninterrupted run, one rollback block.
  const auto expected = data_files(p.root);
  std::size_t crashes = 0;
  for (std::uint64_t n = 1; n < 100; ++n) {
    CAPTURE(n);
    const planted_v6 c2 = plant_failed_deltacommit_v6(fresh_copy(kMorV6, tmp.path() / ("c" + std::to_string(n))));
    const tool_result crashed = run_tool_env({"LAKEGC_CRASH_AFTER_MUTATIONS=" + std::to_string(n)},
                                             args(c2.root, {"--execute", "--no-concurrent-writers"}));
    if (crashed.code == 0) break;
    REQUIRE_MESSAGE(crashed.code == 86, crashed.err);
    ++crashes;
    const tool_result resumed = run_tool(args(c2.root, {"--execute", "--no-concurrent-writers"}));
    REQUIRE_MESSAGE(resumed.code == 0, resumed.err);
    CHECK(data_files(c2.root) == expected);
    // Its markers too, even after a crash between its completion and their
    // removal (the next run removes those of completed rollbacks).
    CHECK(!fs::exists(c2.root / ".hoodie" / ".temp" / ours));
  }
  CHECK(crashes >= 8);
}

TEST_CASE("LAZY: a write whose heartbeat is alive is left alone, an expired one is rolled back") {
  temp_dir tmp;
  const planted p = plant_failed_write(fresh_copy(kV9, tmp.path()), fs::file_time_type::clock::now());
  const std::vector<std::string> lazy = {"--conf", "hoodie.clean.failed.writes.policy=LAZY"};
  // No --now: the heartbeat's age is judged by the wall clock.
  std::vector<std::string> a = {"rollback", p.root.string(), "--execute", "--no-concurrent-writers"};
  a.insert(a.end(), lazy.begin(), lazy.end());
  const tool_result alive = run_tool(a);
  REQUIRE_MESSAGE(alive.code == 0, alive.err);
  CHECK(alive.out.find("left alone: " + kFailed) != std::string::npos);
  CHECK(fs::exists(p.root / p.file));
  // A --now far ahead of the heartbeat does not make it expired: the writer
  // beats by the wall clock, at which it is alive.
  std::vector<std::string> ahead = a;
  ahead.insert(ahead.end(), {"--now", "20991231000000000"});
  const tool_result later = run_tool(ahead);
  REQUIRE_MESSAGE(later.code == 0, later.err);
  CHECK_MESSAGE(later.out.find("left alone: " + kFailed) != std::string::npos, later.out);
  CHECK(fs::exists(p.root / p.file));
  fs::last_write_time(p.root / ".hoodie" / ".heartbeat" / kFailed, long_ago());
  const tool_result expired = run_tool(a);
  REQUIRE_MESSAGE(expired.code == 0, expired.err);
  CHECK(expired.out.find("rolled back commit " + kFailed) != std::string::npos);
  CHECK(!fs::exists(p.root / p.file));
}

TEST_CASE("clean --execute: LAZY rolls an expired failed write back first, as Hudi's clean does; EAGER leaves it") {
  temp_dir tmp;
  const planted p = plant_failed_write(fresh_copy(kV9, tmp.path()), long_ago());
  const fs::path tl = p.root / ".hoodie" / "timeline";
  auto clean = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = {"clean", p.root.string(), "--execute", "--no-concurrent-writers", "--now", kNow};
    a.insert(a.end(), extra.begin(), extra.end());
    return run_tool(a);
  };
  // EAGER (the default): rolling back is the next writer's job, not the clean's.
  const tool_result eager = clean({});
  REQUIRE_MESSAGE(eager.code == 0, eager.err);
  CHECK(eager.out.find("rolled back failed write") == std::string::npos);
  CHECK(fs::exists(p.root / p.file));
  CHECK(fs::exists(tl / (kFailed + ".inflight")));

  // The dry run says what --execute does before it plans.
  const tool_result dry =
      run_tool({"clean", p.root.string(), "--now", kNow, "--conf", "hoodie.clean.failed.writes.policy=LAZY"});
  REQUIRE_MESSAGE(dry.code == 0, dry.err);
  CHECK_MESSAGE(dry.out.find("--execute would first roll back the failed write commit " + kFailed) != std::string::npos,
                dry.out);
  CHECK(fs::exists(p.root / p.file));
  const tool_result lazy = clean({"--conf", "hoodie.clean.failed.writes.policy=LAZY", "--json"});
  REQUIRE_MESSAGE(lazy.code == 0, lazy.err);
  json_doc j(lazy.out);
  REQUIRE(j.root["failed_writes_rolled_back"].get_array().size() == 1);
  CHECK(str(j.root["failed_writes_rolled_back"].at(0)["instant"]) == kFailed);
  CHECK(j.root["failed_writes_rolled_back"].at(0)["files_deleted"].get_uint64().value() == 1);
  CHECK(!fs::exists(p.root / p.file));
  CHECK(!fs::exists(tl / (kFailed + ".inflight")));
  CHECK(!fs::exists(tl / (kFailed + ".commit.requested")));
  CHECK(!fs::exists(p.root / ".hoodie" / ".heartbeat" / kFailed));
  // The rollback Hudi would read as its own, before the clean's instants.
  const std::string completed = only_file_ending(tl, ".rollback");
  auto meta = hudi::decode_rollback_metadata_record(slurp(tl / completed), completed);
  REQUIRE_MESSAGE(meta.ok(), message_of(meta.status()));
  CHECK(meta->commits_rollback == std::vector<std::string>{kFailed});
}

TEST_CASE(
    "without markers: markers on plans nothing (Hudi's empty plan), markers off deletes the files named "
    "with the instant") {
  temp_dir tmp;
  const planted p = plant_failed_write(fresh_copy(kV9, tmp.path()), long_ago());
  fs::remove_all(p.root / ".hoodie" / ".temp" / kFailed);
  const fs::path tl = p.root / ".hoodie" / "timeline";
  // Markers on (the default) and no marker folder: Hudi's marker-based plan is
  // empty, the instant is rolled back and its file stays for the orphan sweep.
  const fs::path copy = tmp.path() / "markers-on";
  fs::copy(p.root, copy, fs::copy_options::recursive);
  const tool_result on = run_tool(args(copy, {"--execute", "--no-concurrent-writers", "--json"}));
  REQUIRE_MESSAGE(on.code == 0, on.err);
  CHECK(fs::exists(copy / p.file));
  CHECK(!fs::exists(copy / ".hoodie" / "timeline" / (kFailed + ".inflight")));
  // Markers off: the listing fallback finds the uncommitted file the instant wrote.
  const tool_result off = run_tool(args(
      p.root, {"--execute", "--no-concurrent-writers", "--json", "--conf", "hoodie.rollback.using.markers=false"}));
  REQUIRE_MESSAGE(off.code == 0, off.err);
  CHECK(!fs::exists(p.root / p.file));
  CHECK(!fs::exists(tl / (kFailed + ".inflight")));
  const std::string requested = only_file_ending(tl, ".rollback.requested");
  auto plan = hudi::decode_rollback_plan(slurp(tl / requested), requested);
  REQUIRE_MESSAGE(plan.ok(), message_of(plan.status()));
  REQUIRE(plan->requests.size() == 1);
  REQUIRE(plan->requests[0].files_to_be_deleted.size() == 1);
  CHECK(plan->requests[0].files_to_be_deleted[0].ends_with("/" + p.file));
}

TEST_CASE("with a metadata table the write never reached, the rollback leaves the metadata table as it is") {
  // Hudi's metadata writer ignores a rollback whose instant it has no
  // deltacommit of (the failed write's files were never listed there).
  temp_dir tmp;
  const planted p = plant_failed_write(fresh_copy(kMdt, tmp.path()), long_ago());
  auto metadata_files = [&] {
    std::set<std::string> out;
    for (const auto& f : files_under(p.root)) {
      if (f.starts_with(".hoodie/metadata/")) out.insert(f);
    }
    return out;
  };
  const auto mdt_before = metadata_files();
  REQUIRE(!mdt_before.empty());
  const tool_result r = run_tool(args(p.root, {"--execute", "--no-concurrent-writers"}));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(r.out.find("rolled back commit " + kFailed) != std::string::npos);
  CHECK(!fs::exists(p.root / p.file));
  CHECK(metadata_files() == mdt_before);
  CHECK(!fs::exists(p.root / ".hoodie" / "timeline" / (kFailed + ".inflight")));
}

// The v8 quickstart's last deltacommit, un-published as a crash between its
// metadata-table deltacommit (completed) and its own completion leaves it,
// with the markers its writer would have left (a CREATE marker for the one
// log file it wrote: table version 8 writes no APPEND markers).
const std::string kReached = "20251220210130911";

fs::path plant_write_that_reached_mdt(const fs::path& root) {
  fs::remove(root / ".hoodie" / "timeline" / (kReached + "_20251220210131755.deltacommit"));
  std::size_t marked = 0;
  for (const auto& f : files_under(root)) {
    if (f.starts_with(".hoodie/") || f.find(kReached) == std::string::npos) continue;
    const fs::path m = root / ".hoodie" / ".temp" / kReached / (f + ".marker.CREATE");
    fs::create_directories(m.parent_path());
    spit(m, "");
    ++marked;
  }
  REQUIRE(marked == 1);
  return root;
}

std::set<std::string> metadata_table_files(const fs::path& root) {
  std::set<std::string> out;
  for (const auto& f : files_under(root)) {
    if (f.starts_with(".hoodie/metadata/") && !f.starts_with(".hoodie/metadata/.hoodie/")) out.insert(f);
  }
  return out;
}

TEST_CASE("a failed write that reached the metadata table: its deltacommit there is rolled back too, as Hudi does") {
  temp_dir tmp;
  const fs::path root = plant_write_that_reached_mdt(fresh_copy(kMdt, tmp.path()));
  const fs::path mtl = root / ".hoodie" / "metadata" / ".hoodie" / "timeline";
  std::set<std::string> reached;  // the metadata table's files of the write
  for (const auto& f : metadata_table_files(root)) {
    if (f.find(kReached) != std::string::npos) reached.insert(f);
  }
  REQUIRE(reached.size() == 4);  // files, partition_stats, two column_stats logs

  const tool_result dry = run_tool(args(root, {"--json"}));
  REQUIRE_MESSAGE(dry.code == 0, dry.err);
  CHECK(dry.out.find("\"refusal\": null") != std::string::npos);
  CHECK(dry.out.find("\"in_metadata_table\": true") != std::string::npos);

  const tool_result r = run_tool(args(root, {"--execute", "--no-concurrent-writers"}));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(r.out.find("rolled back deltacommit " + kReached) != std::string::npos);
  CHECK(r.out.find("and in the metadata table: its deltacommit " + kReached) != std::string::npos);
  // Nothing named with the failed instant is left, in either table or
  // either timeline.
  for (const auto& f : files_under(root)) CHECK_MESSAGE(f.find(kReached) == std::string::npos, f);

  // The metadata table's rollback has the data table's rollback instant.
  const std::string data_done = only_file_ending(root / ".hoodie" / "timeline", ".rollback");
  const std::string rt = data_done.substr(0, data_done.find('_'));
  const std::string mdt_done = only_file_ending(mtl, ".rollback");
  CHECK(mdt_done.starts_with(rt + "_"));
  CHECK(fs::exists(mtl / (rt + ".rollback.requested")));
  CHECK(fs::exists(mtl / (rt + ".rollback.inflight")));
  auto plan = hudi::decode_rollback_plan(slurp(mtl / (rt + ".rollback.requested")), "plan");
  REQUIRE(plan.ok());
  CHECK(plan->instant_to_rollback->action == "deltacommit");
  CHECK(plan->requests.size() == 4);
  for (const auto& q : plan->requests) {
    CHECK(q.file_id == std::optional<std::string>(""));  // listing-based, as Hudi's
    REQUIRE(q.files_to_be_deleted.size() == 1);
    CHECK(q.files_to_be_deleted[0].starts_with((root / ".hoodie" / "metadata").string() + "/"));
  }
  auto meta = hudi::decode_rollback_metadata_record(slurp(mtl / mdt_done), mdt_done);
  REQUIRE(meta.ok());
  CHECK(meta->commits_rollback == std::vector<std::string>{kReached});
  std::size_t deleted = 0;
  for (const auto& [p, pm] : meta->partition_metadata) deleted += pm.success_delete_files.size();
  CHECK(deleted == 4);

  // What readers list through the metadata table is what is on storage:
  // without the metadata table's rollback the write's blocks would read as
  // committed now that its data instant is gone.
  auto storage = posix_storage::open(root.string());
  REQUIRE(storage.ok());
  auto j = hudi::journal<posix_storage>::open(*storage, root.string());
  REQUIRE(j.ok());
  const auto state = hudi::metadata_table::files_partition_state(*j);
  REQUIRE_MESSAGE(state.ok(), std::string(message_of(state.status())));
  std::set<std::string> listed;
  for (const auto& [partition, names] : state->files) {
    for (const auto& [name, size] : names) listed.insert(partition.empty() ? name : partition + "/" + name);
  }
  std::set<std::string> on_storage;
  for (const auto& f : data_files(root)) {
    if (!f.ends_with(".hoodie_partition_metadata")) on_storage.insert(f);
  }
  CHECK(listed == on_storage);
}

TEST_CASE("a failed write whose metadata-table deltacommit is itself in flight: its files there found by listing") {
  // A crash while the metadata table's deltacommit was being written: Hudi
  // rolls back a pending one too (no validateRollback), and the listing
  // strategy finds its files by the instant in their names.
  temp_dir tmp;
  const fs::path root = plant_write_that_reached_mdt(fresh_copy(kMdt, tmp.path()));
  const fs::path mtl = root / ".hoodie" / "metadata" / ".hoodie" / "timeline";
  fs::remove(mtl / (kReached + "_20251220210131727.deltacommit"));
  const tool_result r = run_tool(args(root, {"--execute", "--no-concurrent-writers", "--json"}));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  for (const auto& f : files_under(root)) CHECK_MESSAGE(f.find(kReached) == std::string::npos, f);
  const std::string mdt_done = only_file_ending(mtl, ".rollback");
  auto meta = hudi::decode_rollback_metadata_record(slurp(mtl / mdt_done), mdt_done);
  REQUIRE(meta.ok());
  std::size_t deleted = 0;
  for (const auto& [p, pm] : meta->partition_metadata) deleted += pm.success_delete_files.size();
  CHECK(deleted == 4);
}

TEST_CASE("with the metadata table too, a crash after any single change is finished by the next run") {
  temp_dir tmp;
  const std::string kLock =
      "hoodie.write.lock.provider=org.apache.hudi.client.transaction.lock.FileSystemBasedLockProvider";
  const fs::path ref = plant_write_that_reached_mdt(fresh_copy(kMdt, tmp.path() / "ref"));
  REQUIRE(run_tool(args(ref, {"--execute", "--conf", kLock})).code == 0);
  const auto expected_timeline = timeline_shape(ref);
  const auto expected_mdt_timeline = timeline_shape(ref / ".hoodie" / "metadata");
  const auto expected_data = data_files(ref);
  const auto expected_mdt = metadata_table_files(ref);
  const std::size_t crashes = crash_after_each_change(
      [&](std::uint64_t n) {
        return plant_write_that_reached_mdt(fresh_copy(kMdt, tmp.path() / ("c" + std::to_string(n))));
      },
      [&](const fs::path& root, std::vector<std::string> extra) {
        extra.insert(extra.begin(), {"--execute", "--conf", kLock});
        return args(root, extra);
      },
      [&](const fs::path& root) {
        CHECK(timeline_shape(root) == expected_timeline);
        CHECK(timeline_shape(root / ".hoodie" / "metadata") == expected_mdt_timeline);
        CHECK(data_files(root) == expected_data);
        CHECK(metadata_table_files(root) == expected_mdt);
        fs::remove_all(root);
      });
  // the data table's (lock, requested, unlock, inflight, the delete, the
  // marker and its folders, lock, ...) and the metadata table's rollback:
  // requested, inflight, its completed deltacommit, 4 logs, its inflight and
  // requested, completed
  CHECK(crashes >= 20);
}

TEST_CASE("rollback --execute refuses, changing nothing, where it cannot act as Hudi would") {
  temp_dir tmp;
  SUBCASE("no lock and no --no-concurrent-writers") {
    const planted p = plant_failed_write(fresh_copy(kV9, tmp.path()), long_ago());
    const auto before = files_under(p.root);
    const tool_result r = run_tool(args(p.root, {"--execute"}));
    CHECK(r.code == 1);
    CHECK(r.err.find("hoodie.write.lock.provider") != std::string::npos);
    CHECK(files_under(p.root) == before);
  }
  SUBCASE("a metadata-table deltacommit of the failed write that completed before its latest compaction") {
    // 20251220210128625's metadata deltacommit completed at ...129169, before
    // the metadata table's compaction 20251220210130942: its records are in
    // that compaction's base file now. Hudi's validateRollback throws.
    const fs::path root = fresh_copy(kMdt, tmp.path());
    const std::string early = "20251220210128625";
    fs::remove(root / ".hoodie" / "timeline" / (early + "_20251220210129197.deltacommit"));
    const auto before = files_under(root);
    const tool_result r = run_tool(
        args(root, {"--execute", "--no-concurrent-writers", "--conf", "hoodie.clean.failed.writes.policy=LAZY"}));
    CHECK(r.code == 1);
    CHECK(r.err.find("completed before its latest compaction 20251220210130942") != std::string::npos);
    CHECK(files_under(root) == before);
  }
  SUBCASE("table version 6 MOR without markers: the logs it appended to cannot be seen") {
    const planted_v6 p = plant_failed_deltacommit_v6(fresh_copy(kMorV6, tmp.path()));
    const auto before = files_under(p.root);
    const tool_result r = run_tool(
        args(p.root, {"--execute", "--no-concurrent-writers", "--conf", "hoodie.rollback.using.markers=false"}));
    CHECK(r.code == 1);
    CHECK(r.err.find("listing-based rollback") != std::string::npos);
    CHECK(files_under(p.root) == before);
  }
  SUBCASE("EAGER with completed commits after the failed write and no heartbeat") {
    const fs::path root = fresh_copy(kV9, tmp.path());
    const fs::path tl = root / ".hoodie" / "timeline";
    const std::string early = "20260307135657000";  // before the table's first commit
    spit(tl / (early + ".commit.requested"), "");
    spit(tl / (early + ".inflight"), "");
    const auto before = files_under(root);
    const tool_result r = run_tool(args(root, {"--execute", "--no-concurrent-writers"}));
    CHECK(r.code == 1);
    CHECK(r.err.find("Found commits after time") != std::string::npos);
    CHECK(files_under(root) == before);
  }
}

TEST_CASE("a crash after any single change is finished by the next run, ending where an uninterrupted run ends") {
  temp_dir tmp;
  const std::string kLock =
      "hoodie.write.lock.provider=org.apache.hudi.client.transaction.lock.FileSystemBasedLockProvider";
  const planted ref = plant_failed_write(fresh_copy(kV9, tmp.path() / "ref"), long_ago());
  REQUIRE(run_tool(args(ref.root, {"--execute", "--conf", kLock})).code == 0);
  const auto expected_timeline = timeline_shape(ref.root);
  const auto expected_data = data_files(ref.root);
  const std::size_t crashes = crash_after_each_change(
      [&](std::uint64_t n) {
        return plant_failed_write(fresh_copy(kV9, tmp.path() / ("c" + std::to_string(n))), long_ago()).root;
      },
      [&](const fs::path& root, std::vector<std::string> extra) {
        extra.insert(extra.begin(), {"--execute", "--conf", kLock});
        return args(root, extra);
      },
      [&](const fs::path& root) {
        CHECK(timeline_shape(root) == expected_timeline);
        CHECK(data_files(root) == expected_data);
        CHECK(!fs::exists(root / ".hoodie" / ".temp" / kFailed));
        CHECK(!fs::exists(root / ".hoodie" / ".heartbeat" / kFailed));
      });
  // lock, requested, unlock, inflight, the delete, the marker and its two
  // folders, the heartbeat, lock, two instant files, completed, unlock
  CHECK(crashes >= 12);
}

}  // namespace lakegc::tests::rollback_corpus_test
