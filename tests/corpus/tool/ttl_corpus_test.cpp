// `lakegc plan ttl` over real tables, against what their files say: each
// partition's newest base instant among the latest slices of its
// non-replaced file groups, computed here from the file names, the
// timeline folder's instant file names and the replacecommits' metadata
// (JSON read here; layout 2's Avro through the library's codec, the only
// library code involved), and the commitTime of each .hoodie_partition_metadata.
#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "lakegc/hudi/metadata_codec.hpp"
#include "tool_corpus.hpp"

namespace lakegc::tests::ttl_corpus_test {

using namespace lakegc::testing;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kPartitionedTables = {
    "sample_table/cow/v9_txns_simple_nometa",
    "sample_table/cow/v6_complexkeygen_hivestyle",
    "quickstart_trips_table/mor/avro/v8_trips_8i3u1d",
    "sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable",
};

constexpr std::string_view kFarFuture = "21000101000000000";

struct TableFacts {
  std::set<std::string> completed;  // requested times of completed writes
  std::string first_completed;
  /// (partition, file id) -> requested time of the replacecommit replacing it.
  std::map<std::pair<std::string, std::string>, std::string> replaced;
  /// partition -> file id -> committed slice instants (base files; logs of
  /// groups without a base).
  std::map<std::string, std::map<std::string, std::set<std::string>>> bases;
  std::map<std::string, std::map<std::string, std::set<std::string>>> logs;
  std::map<std::string, std::string> commit_time;  // partition -> .hoodie_partition_metadata commitTime
};

TableFacts facts_of(const fs::path& root) {
  TableFacts f;
  const fs::path timeline =
      fs::is_directory(root / ".hoodie" / "timeline") ? root / ".hoodie" / "timeline" : root / ".hoodie";
  for (const auto& e : fs::directory_iterator(timeline)) {
    if (!e.is_regular_file()) continue;
    const std::string name = e.path().filename().string();
    if (name.ends_with(".requested") || name.ends_with(".inflight")) continue;
    const auto dot = name.find('.');
    if (dot == std::string::npos) continue;
    const std::string action = name.substr(dot + 1);
    const std::string instant = name.substr(0, std::min(dot, name.find('_')));
    REQUIRE_MESSAGE(!(action == "compaction.requested"), "pending compaction: extend the test");
    if (action != "commit" && action != "deltacommit" && action != "replacecommit") continue;
    f.completed.insert(instant);
    if (action == "replacecommit") {
      auto replace = [&](const std::string& partition, const std::string& id) {
        auto& at = f.replaced[{partition, id}];
        at = std::max(at, instant);
      };
      const std::string bytes = slurp(e.path());
      if (bytes.starts_with('{')) {
        json_doc doc(bytes);
        simdjson::dom::object replaced;
        REQUIRE(doc.root["partitionToReplaceFileIds"].get(replaced) == simdjson::SUCCESS);
        for (auto [partition, ids] : replaced) {
          for (auto id : ids.get_array()) replace(std::string(partition), str(id));
        }
      } else {
        // Layout 2 writes Avro: decoded with the library's codec.
        auto m = lakegc::hudi::decode_commit_metadata(bytes, name);
        REQUIRE(m.ok());
        for (const auto& [partition, ids] : m->partition_to_replace_file_ids) {
          for (const auto& id : ids) replace(partition, id);
        }
      }
    }
  }
  REQUIRE(!f.completed.empty());
  f.first_completed = *f.completed.begin();
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    if (it->is_directory() && it->path().filename() == ".hoodie") {
      it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file()) continue;
    const std::string name = it->path().filename().string();
    const std::string partition = fs::relative(it->path().parent_path(), root).generic_string();
    if (name == ".hoodie_partition_metadata") {
      std::istringstream in(slurp(it->path()));
      for (std::string line; std::getline(in, line);) {
        if (line.starts_with("commitTime=")) f.commit_time[partition] = line.substr(11);
      }
      f.bases[partition];  // a partition, with or without files
      continue;
    }
    if (name.ends_with(".parquet") && !name.starts_with('.')) {
      const std::string instant = name.substr(name.rfind('_') + 1, name.rfind('.') - name.rfind('_') - 1);
      if (instant >= f.first_completed && !f.completed.contains(instant)) continue;  // not committed
      f.bases[partition][name.substr(0, name.find('_'))].insert(instant);
    } else if (name.starts_with('.') && name.find(".log.") != std::string::npos) {
      const auto us = name.find('_');
      const std::string instant = name.substr(us + 1, name.find(".log.") - us - 1);
      if (instant >= f.first_completed && !f.completed.contains(instant)) continue;
      f.logs[partition][name.substr(1, us - 1)].insert(instant);
    }
  }
  return f;
}

// The newest base instant at or before `t` among the latest slices of the
// groups not replaced at or before `t`; nothing when there is none.
std::map<std::string, std::optional<std::string>> last_commit_times(const TableFacts& f, const std::string& t) {
  std::map<std::string, std::optional<std::string>> out;
  for (const auto& [partition, groups] : f.bases) {
    std::optional<std::string> newest;
    auto consider = [&](const std::string& fid, const std::optional<std::string>& slice) {
      if (!slice) return;
      if (auto r = f.replaced.find({partition, fid}); r != f.replaced.end() && r->second <= t) return;
      if (!newest || *newest < *slice) newest = slice;
    };
    std::set<std::string> with_base;
    for (const auto& [fid, instants] : groups) {
      std::optional<std::string> latest;
      for (const auto& i : instants) {
        if (i <= t) latest = i;
      }
      if (latest) with_base.insert(fid);
      consider(fid, latest);
    }
    if (auto l = f.logs.find(partition); l != f.logs.end()) {
      for (const auto& [fid, instants] : l->second) {
        // A group of logs only: one slice, keyed by its first log.
        if (!with_base.contains(fid) && *instants.begin() <= t) consider(fid, *instants.begin());
      }
    }
    out[partition] = newest;
  }
  return out;
}

struct ToolVerdict {
  std::string verdict;
  std::optional<std::string> reference;
};

struct ToolPlan {
  std::map<std::string, ToolVerdict> partitions;
  std::vector<std::string> order;
  std::vector<std::string> expired;
  std::uint64_t expired_total = 0;
  std::size_t noop_reasons = 0;
};

ToolPlan run_plan_ttl(const fs::path& root, const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"plan", "ttl", root.string(), "--json"};
  args.insert(args.end(), extra.begin(), extra.end());
  const tool_result r = run_tool(args);
  REQUIRE_MESSAGE(r.code == 0, r.err);
  json_doc doc(r.out);
  ToolPlan p;
  for (auto e : doc.root["partitions"].get_array()) {
    ToolVerdict v{str(e["verdict"]), std::nullopt};
    if (!is_null(e["reference"])) v.reference = str(e["reference"]);
    p.order.push_back(str(e["partition"]));
    p.partitions[p.order.back()] = v;
  }
  for (auto e : doc.root["expired"].get_array()) p.expired.push_back(str(e));
  p.expired_total = doc.root["expired_total"].get_uint64().value();
  p.noop_reasons = doc.root["noop_reasons"].get_array().size();
  return p;
}

const std::string kDays30 = "--conf=hoodie.partition.ttl.strategy.days.retain=30";

}  // namespace

TEST_CASE(
    "plan ttl KEEP_BY_TIME: far in the future every partition with a latest slice expires, by its newest base instant") {
  for (const auto& table : kPartitionedTables) {
    CAPTURE(table);
    const fs::path root = unzipped(table);
    const TableFacts facts = facts_of(root);
    const auto expected = last_commit_times(facts, std::string(kFarFuture));
    const ToolPlan p = run_plan_ttl(root, {kDays30, "--now", std::string(kFarFuture)});
    CHECK(p.noop_reasons == 0);
    REQUIRE(p.partitions.size() == expected.size());
    std::set<std::string> want_expired;
    for (const auto& [partition, ref] : expected) {
      CAPTURE(partition);
      const ToolVerdict& got = p.partitions.at(partition);
      CHECK(got.reference == ref);
      CHECK(got.verdict == (ref ? "expired" : "no_file_slices"));
      if (ref) want_expired.insert(partition);
    }
    CHECK(std::set<std::string>(p.expired.begin(), p.expired.end()) == want_expired);
    CHECK(p.expired_total == want_expired.size());
  }
}

TEST_CASE("plan ttl KEEP_BY_TIME as of the first commit: only slices at or before it count, none expired") {
  for (const auto& table : kPartitionedTables) {
    CAPTURE(table);
    const fs::path root = unzipped(table);
    const TableFacts facts = facts_of(root);
    const auto expected = last_commit_times(facts, facts.first_completed);
    const ToolPlan p = run_plan_ttl(root, {kDays30, "--now", facts.first_completed});
    CHECK(p.expired.empty());
    for (const auto& [partition, ref] : expected) {
      CAPTURE(partition);
      CHECK(p.partitions.at(partition).reference == ref);
      CHECK(p.partitions.at(partition).verdict == (ref ? "not_expired" : "no_file_slices"));
    }
  }
}

TEST_CASE("plan ttl caps a run at max.delete.partitions; the rest waits") {
  for (const auto& table : kPartitionedTables) {
    CAPTURE(table);
    const fs::path root = unzipped(table);
    const auto expected = last_commit_times(facts_of(root), std::string(kFarFuture));
    const auto with_slices =
        std::count_if(expected.begin(), expected.end(), [](const auto& e) { return e.second.has_value(); });
    const ToolPlan p = run_plan_ttl(root, {kDays30, "--conf=hoodie.partition.ttl.strategy.max.delete.partitions=1",
                                           "--now", std::string(kFarFuture)});
    REQUIRE(p.expired.size() == 1);
    CHECK(p.expired_total == static_cast<std::uint64_t>(with_slices));
    // The one taken is the first expired one in the order the plan lists.
    for (const auto& partition : p.order) {
      if (p.partitions.at(partition).verdict.starts_with("expired")) {
        CHECK(partition == p.expired[0]);
        break;
      }
    }
    CHECK(p.partitions.at(p.expired[0]).verdict == "expired");
  }
}

TEST_CASE("plan ttl KEEP_BY_CREATION_TIME ages by each .hoodie_partition_metadata's commitTime") {
  for (const auto& table : kPartitionedTables) {
    CAPTURE(table);
    const fs::path root = unzipped(table);
    const TableFacts facts = facts_of(root);
    const ToolPlan p =
        run_plan_ttl(root, {kDays30, "--conf=hoodie.partition.ttl.management.strategy.type=KEEP_BY_CREATION_TIME",
                            "--now", std::string(kFarFuture)});
    REQUIRE(p.partitions.size() == facts.commit_time.size());
    for (const auto& [partition, commit_time] : facts.commit_time) {
      CAPTURE(partition);
      CHECK(p.partitions.at(partition).reference == commit_time);
      CHECK(p.partitions.at(partition).verdict == "expired");
    }
    // As of the earliest creation, nothing is 30 days old.
    std::string earliest = facts.commit_time.begin()->second;
    for (const auto& [_, t] : facts.commit_time) earliest = std::min(earliest, t);
    const ToolPlan young = run_plan_ttl(
        root,
        {kDays30, "--conf=hoodie.partition.ttl.management.strategy.type=KEEP_BY_CREATION_TIME", "--now", earliest});
    CHECK(young.expired.empty());
  }
}

TEST_CASE("plan ttl on a table that is not partitioned expires nothing and says why") {
  const fs::path root = unzipped("sample_table/cow/v6_nonpartitioned");
  CHECK(slurp(root / ".hoodie" / "hoodie.properties").find("hoodie.table.partition.fields=") == std::string::npos);
  const ToolPlan p = run_plan_ttl(root, {kDays30, "--now", std::string(kFarFuture)});
  CHECK(p.noop_reasons == 1);
  CHECK(p.partitions.empty());
  CHECK(p.expired.empty());
}

TEST_CASE("plan ttl refuses an unknown TTL key, naming it, with exit code 2") {
  const fs::path root = unzipped("sample_table/cow/v9_txns_simple_nometa");
  const tool_result r = run_tool({"plan", "ttl", root.string(), "--conf", "hoodie.partition.ttl.strategy.dayz=3"});
  CHECK(r.code == 2);
  CHECK(r.err.find("hoodie.partition.ttl.strategy.dayz") != std::string::npos);
}

}  // namespace lakegc::tests::ttl_corpus_test
