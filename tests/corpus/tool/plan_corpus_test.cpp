// `lakegc plan clean` on every corpus table under the three policies (a few
// retention settings each): the plan equals the reference planner's
// (tests/reference/reference_planner.hpp, written from docs/hudi-rules.md
// without calling the library's planner), never names a file of the latest
// snapshot, and its JSON carries the plan, the reasons and the bytes. For a
// few tables the exact deletions are also derived by hand.

// GCC 12 at -O2 reports a false -Wmaybe-uninitialized inside
// reference_planner.hpp (an engaged std::optional<InstantTime> compared
// after inlining). That header belongs to another area, so the warning is
// silenced for this file only, before anything is included.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "cli/plan.hpp"
#include "reference_planner.hpp"
#include "tool_corpus.hpp"

namespace lakegc::tests::plan_corpus_test {

using namespace lakegc;
using namespace lakegc::testing;

namespace {

struct Case {
  std::string name;
  config::Properties props;
  reference::Policy ref;
  bool hours_from_latest = false;  // now = latest commit + 1 hour
};

std::vector<Case> cases() {
  auto commits = [](std::uint32_t n) {
    reference::Policy p;
    p.rule = reference::Rule::keep_latest_commits;
    p.count = n;
    p.incremental = true;  // Hudi's default; with no completed clean it scans everything
    return p;
  };
  auto versions = [](std::uint32_t n) {
    reference::Policy p;
    p.rule = reference::Rule::keep_latest_file_versions;
    p.count = n;
    return p;
  };
  auto hours = [](std::uint32_t n) {
    reference::Policy p;
    p.rule = reference::Rule::keep_by_hours;
    p.count = n;
    p.incremental = true;
    return p;
  };
  return {
      {"commits=1",
       {{"hoodie.clean.policy", "KEEP_LATEST_COMMITS"}, {"hoodie.clean.commits.retained", "1"}},
       commits(1)},
      {"commits=2", {{"hoodie.cleaner.commits.retained", "2"}}, commits(2)},  // legacy key, policy inferred
      {"commits=10 (defaults)", {}, commits(10)},
      {"versions=1",
       {{"hoodie.clean.policy", "KEEP_LATEST_FILE_VERSIONS"}, {"hoodie.clean.fileversions.retained", "1"}},
       versions(1)},
      {"versions=2", {{"hoodie.clean.fileversions.retained", "2"}}, versions(2)},
      {"hours=1",
       {{"hoodie.clean.policy", "KEEP_LATEST_BY_HOURS"}, {"hoodie.clean.hours.retained", "1"}},
       hours(1),
       true},
      {"hours=24", {{"hoodie.clean.hours.retained", "24"}}, hours(24), true},
  };
}

// Exact deletions derived by hand from docs/hudi-rules.md for some tables
// and cases; paths relative to the table root.
const std::map<std::pair<std::string, std::string>, std::set<std::string>>& by_hand() {
  static const std::map<std::pair<std::string, std::string>, std::set<std::string>> e = {
      // Replaced groups go at once under file versions; every live group
      // has one slice.
      {{"sample_table/cow/v9_txns_simple_nometa", "versions=1"},
       {"region=apac/501c09bc-09b2-4abe-81ee-31bd9cea901b-0_0-55-112_20260307135708654.parquet",
        "region=apac/859bcb77-dfd4-4b44-9ead-ed0ba8abe35a-0_0-38-83_20260307135705338.parquet",
        "region=apac/859bcb77-dfd4-4b44-9ead-ed0ba8abe35a-0_2-3-8_20260307135657661.parquet",
        "region=eu/2ecf970b-9f50-488a-b55b-6ee0f6e29d3c-0_0-47-98_20260307135707243.parquet",
        "region=eu/85da9a6c-19df-476b-b2ec-6f55e9eaaf67-0_0-42-90_20260307135706094.parquet",
        "region=eu/a80c27f5-2f65-435f-8308-7a4b85f01626-0_0-24-53_20260307135703515.parquet",
        "region=eu/a80c27f5-2f65-435f-8308-7a4b85f01626-0_0-3-6_20260307135657661.parquet",
        "region=eu/a80c27f5-2f65-435f-8308-7a4b85f01626-0_0-31-68_20260307135704448.parquet",
        "region=us/742a4f26-7e5c-4b1c-bb9a-d13433f75557-0_0-10-23_20260307135700696.parquet",
        "region=us/742a4f26-7e5c-4b1c-bb9a-d13433f75557-0_0-17-38_20260307135702545.parquet",
        "region=us/742a4f26-7e5c-4b1c-bb9a-d13433f75557-0_1-3-7_20260307135657661.parquet",
        "region=us/d32df875-21bd-41a4-941a-924fc7b82f01-0_0-51-105_20260307135708004.parquet"}},
      // Boundary 20260307135709297: only the INSERT OVERWRITE (707243) is
      // before it; the clustering (709297) is not.
      {{"sample_table/cow/v9_txns_simple_nometa", "commits=2"},
       {"region=eu/85da9a6c-19df-476b-b2ec-6f55e9eaaf67-0_0-42-90_20260307135706094.parquet",
        "region=eu/a80c27f5-2f65-435f-8308-7a4b85f01626-0_0-24-53_20260307135703515.parquet",
        "region=eu/a80c27f5-2f65-435f-8308-7a4b85f01626-0_0-3-6_20260307135657661.parquet",
        "region=eu/a80c27f5-2f65-435f-8308-7a4b85f01626-0_0-31-68_20260307135704448.parquet"}},
      {{"sample_table/cow/v6_simplekeygen_nonhivestyle", "versions=1"},
       {"10/97de74b1-2a8e-4bb7-874c-0a74e1f42a77-0_1-98-142_20240418172802262.parquet"}},
      // Boundary = the latest commit; the older slice is the newest before it.
      {{"sample_table/cow/v6_simplekeygen_nonhivestyle", "commits=1"}, {}},
      {{"sample_table/cow/v6_nonpartitioned", "versions=1"},
       {"a079bdb3-731c-4894-b855-abfcd6921007-0_0-182-253_20240418173550988.parquet"}},
      {{"sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable", "versions=1"},
       {"10/4f2685a3-614f-49ca-9b2b-e1cb9fb61f27-0_0-95-135_20240707001302376.parquet",
        "10/4f2685a3-614f-49ca-9b2b-e1cb9fb61f27-0_1-74-111_20240707001301554.parquet",
        "20/88163884-fef0-4aab-865d-c72327a8a1d5-0_0-74-110_20240707001301554.parquet",
        "30/d398fae1-c0e6-4098-8124-f55f7098bdba-0_1-95-136_20240707001302376.parquet"}},
      // The boundary is the replacecommit itself: not before it.
      {{"sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable", "commits=1"}, {}},
      // Boundary 20251220210130911: each group's pre-compaction slice goes
      // with its logs; the compaction's slice is the newest before it.
      {{"quickstart_trips_table/mor/avro/v8_trips_8i3u1d", "commits=1"},
       {"city=chennai/6e1d5cc4-c487-487d-abbe-fe9b30b1c0cc-0_2-986-2794_20251220210108078.parquet",
        "city=chennai/.6e1d5cc4-c487-487d-abbe-fe9b30b1c0cc-0_20251220210127080.log.1_0-1072-3078",
        "city=chennai/.6e1d5cc4-c487-487d-abbe-fe9b30b1c0cc-0_20251220210128625.log.1_0-1097-3150",
        "city=san_francisco/036ded81-9ed4-479f-bcea-7145dfa0079b-0_0-986-2792_20251220210108078.parquet",
        "city=san_francisco/.036ded81-9ed4-479f-bcea-7145dfa0079b-0_20251220210123755.log.1_0-1022-2928",
        "city=sao_paulo/8aa68f7e-afd6-4c94-b86c-8a886552e08d-0_1-986-2793_20251220210108078.parquet",
        "city=sao_paulo/.8aa68f7e-afd6-4c94-b86c-8a886552e08d-0_20251220210125441.log.1_0-1047-3000"}},
      {{"quickstart_trips_table/mor/avro/v8_trips_8i3u1d", "commits=2"}, {}},
      {{"sample_table/mor/parquet/v6_nonpartitioned_rollback", "versions=1"}, {}},
  };
  return e;
}

std::set<std::string> paths_of(const CleanPlan& p) {
  std::set<std::string> out;
  for (const auto& [partition, files] : p.files_per_partition) {
    for (const auto& f : files) out.insert(join_path(partition, f.name));
  }
  return out;
}

// Base and log files of every live group's latest slice.
std::set<std::string> latest_snapshot(const TableView& v) {
  std::set<std::string> out;
  for (const Partition& p : v.partitions()) {
    for (const FileGroup& g : v.groups_of(p)) {
      if (g.replaced_by) continue;
      const FileSlice& s = v.slices_of(g)[0];
      if (s.base_file != kNoFile) out.insert(v.file_path(p, s.base_file));
      for (auto f : v.logs_of(s)) out.insert(v.file_path(p, f));
    }
  }
  return out;
}

std::int64_t now_for(const TableMetadata& md, bool from_latest) {
  constexpr std::int64_t kFixed = 1'800'000'000'000;  // 2027-01-15, after every corpus table
  const auto commits = md.timeline.completed_commits();
  if (!from_latest || commits.empty()) return kFixed;
  return commits.back()->requested.to_epoch_ms(md.timezone).value() + 3'600'000;
}

void check_json(const cli::PlanReport& r) {
  json_doc doc(cli::plan_json(r));
  const auto plan = doc.root["plan"];
  CHECK(str(plan["policy"]) == r.plan.policy);
  if (r.plan.earliest_instant_to_retain) {
    CHECK(str(plan["earliestInstantToRetain"]) == r.plan.earliest_instant_to_retain->str());
  } else {
    CHECK(is_null(plan["earliestInstantToRetain"]));
  }
  CHECK(str(plan["lastCompletedCommitTimestamp"]) ==
        (r.plan.last_completed_commit_timestamp ? r.plan.last_completed_commit_timestamp->str() : ""));
  std::set<std::string> listed;
  for (auto [partition, files] : plan["filePathsToBeDeletedPerPartition"].get_object()) {
    for (auto f : files.get_array()) {
      const std::string path = str(f);
      listed.insert(path);
      if (!partition.empty()) CHECK(path.starts_with(std::string(partition) + "/"));
      const auto why = doc.root["reasons"]["files"][path];
      CHECK_MESSAGE(why.error() == simdjson::SUCCESS, path);
    }
  }
  CHECK(listed == paths_of(r.plan));
  std::vector<std::string> to_delete;
  for (auto p : plan["partitionsToBeDeleted"].get_array()) to_delete.push_back(str(p));
  CHECK(to_delete == r.plan.partitions_to_be_deleted);
  CHECK(doc.root["bytes_reclaimable"].get_uint64().value() == r.plan.bytes());
  const simdjson::dom::element held = doc.root["reasons"]["boundary_held"];
  if (r.boundary_held_from) {
    CHECK(str(held["rule_boundary"]) == r.boundary_held_from->str());
    CHECK(str(held["held_at"]) == r.plan.earliest_instant_to_retain->str());
  } else {
    CHECK(is_null(held));
  }
}

}  // namespace

TEST_CASE("plan clean agrees with the reference planner and never names a file of the latest snapshot") {
  std::size_t checked_by_hand = 0;
  std::size_t nonempty = 0;
  std::size_t sizes_from_commits = 0;
  for (const auto& table : corpus_tables()) {
    auto t = cli::open_table(unzipped(table).string());
    REQUIRE_MESSAGE(t.ok(), message_of(t.status()));
    const TableMetadata& md = (*t)->metadata;
    auto view = cli::list_view(**t, md, false);
    REQUIRE_MESSAGE(view.ok(), message_of(view.status()));
    const std::set<std::string> latest = latest_snapshot(*view);
    for (const Case& c : cases()) {
      INFO(table << " under " << c.name);
      const std::int64_t now = now_for(md, c.hours_from_latest);
      auto report = cli::plan_clean_report(**t, c.props, now);
      REQUIRE_MESSAGE(report.ok(), message_of(report.status()));
      if (md.timeline.completed_commits().empty()) {
        // No commit: Hudi's trigger schedules no clean, and there is no plan.
        REQUIRE(report->not_due.has_value());
        json_doc doc(cli::plan_json(*report));
        CHECK(is_null(doc.root["plan"]));
        CHECK(str(doc.root["not_due"]).find("the trigger needs 1") != std::string::npos);
        continue;
      }
      CHECK_FALSE(report->not_due.has_value());
      const CleanPlan& got = report->plan;
      const CleanPlan want = reference::plan(*view, md, c.ref, now);
      CHECK(got.policy == want.policy);
      CHECK(got.earliest_instant_to_retain == want.earliest_instant_to_retain);
      CHECK(got.last_completed_commit_timestamp == want.last_completed_commit_timestamp);
      // Sizes included: the plan's come from commit metadata (base files)
      // or a stat per planned file (the listing gave none), the
      // reference's from a listing with sizes.
      CHECK(got.files_per_partition == want.files_per_partition);
      CHECK(report->sizes.from_commits + report->sizes.stats == got.file_count());
      sizes_from_commits += report->sizes.from_commits;
      CHECK(got.partitions_to_be_deleted == want.partitions_to_be_deleted);
      CHECK(got.extra_metadata == want.extra_metadata);
      for (const std::string& p : paths_of(got)) CHECK_MESSAGE(!latest.contains(p), p);
      if (got.has_work()) ++nonempty;
      if (auto it = by_hand().find({table, c.name}); it != by_hand().end()) {
        CHECK(paths_of(got) == it->second);
        ++checked_by_hand;
      }
      // Every kept slice has a reason, and the latest slices say so.
      for (const Partition& p : view->partitions()) {
        for (const FileGroup& g : view->groups_of(p)) {
          if (g.replaced_by) continue;
          const auto it = report->retained.find(view->slices_of(g)[0].base_instant);
          REQUIRE(it != report->retained.end());
          if (report->scope.kind != ScanKind::none) CHECK(it->second.contains("latest slice"));
        }
      }
      check_json(*report);
    }
  }
  CHECK(checked_by_hand == by_hand().size());
  CHECK(nonempty > 0);
  // Real commit metadata gave sizes, and they are the files' own (above).
  CHECK(sizes_from_commits > 0);
}

TEST_CASE("the overwrite table under file versions: two partitions emptied by replacement go") {
  auto t = cli::open_table(unzipped("sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable").string());
  REQUIRE_MESSAGE(t.ok(), message_of(t.status()));
  auto r = cli::plan_clean_report(**t, {{"hoodie.clean.fileversions.retained", "1"}}, 0);
  REQUIRE_MESSAGE(r.ok(), message_of(r.status()));
  CHECK(r->plan.partitions_to_be_deleted == std::vector<std::string>{"10", "20"});
  for (const auto& [partition, files] : r->plan.files_per_partition) {
    for (const auto& f : files) CHECK(f.reason == DeleteReason::replaced_group);
  }
  // Bytes reclaimable are the sizes the listing gave.
  std::uint64_t on_disk = 0;
  for (const auto& [partition, files] : r->plan.files_per_partition) {
    for (const auto& f : files)
      on_disk += std::filesystem::file_size(std::filesystem::path((*t)->path) / partition / std::string_view(f.name));
  }
  CHECK(r->plan.bytes() == on_disk);
  CHECK(on_disk > 0);
}

TEST_CASE("retained instants explain the boundary: v8 trips under KEEP_LATEST_COMMITS=2") {
  auto t = cli::open_table(unzipped("quickstart_trips_table/mor/avro/v8_trips_8i3u1d").string());
  REQUIRE_MESSAGE(t.ok(), message_of(t.status()));
  auto r = cli::plan_clean_report(**t, {{"hoodie.clean.commits.retained", "2"}}, 0);
  REQUIRE_MESSAGE(r.ok(), message_of(r.status()));
  CHECK(r->plan.earliest_instant_to_retain == InstantTime::parse("20251220210129235").value());
  CHECK_FALSE(r->plan.has_work());
  const auto before = r->retained.at(InstantTime::parse("20251220210108078").value());
  CHECK(before.contains("newest slice before the boundary"));
  const auto after = r->retained.at(InstantTime::parse("20251220210129235").value());
  CHECK(after.contains("inside the retention window"));
  CHECK(after.contains("latest slice"));
}

TEST_CASE("too few commits: no boundary, nothing to delete, and the reason says so") {
  auto t = cli::open_table(unzipped("sample_table/cow/v6_nonpartitioned").string());
  REQUIRE_MESSAGE(t.ok(), message_of(t.status()));
  auto r = cli::plan_clean_report(**t, {}, 0);  // 10 commits retained, the table has 2
  REQUIRE_MESSAGE(r.ok(), message_of(r.status()));
  CHECK_FALSE(r->plan.earliest_instant_to_retain.has_value());
  CHECK_FALSE(r->plan.has_work());
  for (const auto& [instant, why] : r->retained) CHECK(why.contains("no earliest commit to retain yet"));
}

TEST_CASE("a pending compaction (v8 trips with its compaction not yet run) is guarded") {
  // Undo the compaction's completion: remove its commit and the base files
  // it wrote. The plan in .compaction.requested now describes a pending
  // compaction of each group's slice at 20251220210108078.
  temp_dir tmp;
  const auto root = fresh_copy("quickstart_trips_table/mor/avro/v8_trips_8i3u1d", tmp.path());
  std::filesystem::remove(root / ".hoodie/timeline/20251220210129235_20251220210129883.commit");
  for (auto it = std::filesystem::recursive_directory_iterator(root);
       it != std::filesystem::recursive_directory_iterator(); ++it) {
    if (it->is_directory() && it->path().filename() == ".hoodie") it.disable_recursion_pending();
    if (it->is_regular_file() && it->path().filename().string().ends_with("_20251220210129235.parquet")) {
      std::filesystem::remove(it->path());
    }
  }
  auto t = cli::open_table(root.string());
  REQUIRE_MESSAGE(t.ok(), message_of(t.status()));
  const TableMetadata& md = (*t)->metadata;
  REQUIRE(md.pending_compactions.size() == 3);
  for (const auto& op : md.pending_compactions) {
    CHECK(op.compaction_instant == InstantTime::parse("20251220210129235").value());
    CHECK(op.base_instant == InstantTime::parse("20251220210108078").value());
  }
  auto view = cli::list_view(**t, md, false);
  REQUIRE_MESSAGE(view.ok(), message_of(view.status()));
  for (const FileGroup& g : view->groups()) {
    CHECK(g.pending_compaction_base == InstantTime::parse("20251220210108078").value());
    const auto slices = view->slices_of(g);
    REQUIRE(slices.size() == 2);
    CHECK(slices[0].base_file == kNoFile);  // the compaction's slice, not written yet
  }
  for (const Case& c : cases()) {
    INFO(c.name);
    const std::int64_t now = now_for(md, c.hours_from_latest);
    auto report = cli::plan_clean_report(**t, c.props, now);
    REQUIRE_MESSAGE(report.ok(), message_of(report.status()));
    const CleanPlan want = reference::plan(*view, md, c.ref, now);
    CHECK(report->plan.earliest_instant_to_retain == want.earliest_instant_to_retain);
    CHECK(report->plan.files_per_partition == want.files_per_partition);
    // Every slice is at or after the compaction's base: nothing may go.
    CHECK_FALSE(report->plan.has_work());
    for (const auto& [instant, why] : report->retained) {
      if (report->scope.kind != ScanKind::none) CHECK(why.contains("pending compaction"));
    }
  }
  // KEEP_LATEST_COMMITS never passes the pending compaction.
  auto one = cli::plan_clean_report(**t, {{"hoodie.clean.commits.retained", "1"}}, 0);
  REQUIRE_MESSAGE(one.ok(), message_of(one.status()));
  REQUIRE(one->plan.earliest_instant_to_retain.has_value());
  CHECK(*one->plan.earliest_instant_to_retain < InstantTime::parse("20251220210129235").value());

  // Without its plan the guard cannot be applied: bad input, not a guess.
  std::filesystem::remove(root / ".hoodie/timeline/20251220210129235.compaction.requested");
  auto broken = cli::open_table(root.string());
  REQUIRE_FALSE(broken.ok());
  CHECK(std::string(message_of(broken.status())).find("pending compaction 20251220210129235") != std::string::npos);
}

}  // namespace lakegc::tests::plan_corpus_test
