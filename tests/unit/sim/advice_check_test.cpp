// Issue 19 in the simulator: the retention lakegc::advise recommends holds
// at the cadence it was computed for, and one commit fewer (one hour less)
// does not; the cadences the check replays (synthetic, a file, a table's
// timeline) and the replay itself.
#include <doctest/doctest.h>

#include <string>

#include "lakegc/sim/advice_check.hpp"
#include "sim_fixture.hpp"

namespace lakegc::tests::advice_check_test {

using namespace lakegc;
using namespace lakegc::sim;
using namespace lakegc::sim::testing;

namespace {

AdviceCheckOptions every_30m_5h_query(std::uint64_t seeds) {
  AdviceCheckOptions o;
  o.cadence = synthetic_cadence(absl::Minutes(30), absl::Minutes(5));
  o.longest_query = absl::Hours(5);
  o.seeds = seeds;
  return o;
}

// The trial of `policy` (`checked`: the recommendation, else one less)
// ran every seed with `retained`, and no invariant broke.
const AdviceTrial& trial(const AdviceCheck& r, std::string_view policy, bool checked, std::uint32_t retained) {
  const AdviceTrial* t = r.trial(policy, checked);
  REQUIRE(t != nullptr);
  CHECK(t->retained == retained);
  CHECK(t->seeds == 40);
  CHECK(t->queries > 500);        // the claim is about queries that ran, and many did
  CHECK(t->seeds_violated == 0);  // queries may outlive a promise; no promise broke
  return *t;
}

}  // namespace

TEST_CASE("issue 19, the documentation's example: every 30 minutes and a 5-hour query need 10 commits; 9 fail") {
  const AdviceCheck r = check_advice(every_30m_5h_query(40)).value();
  INFO(r.format());
  const AdviceTrial& n = trial(r, "KEEP_LATEST_COMMITS", true, 10);
  CHECK(n.seeds_failed == 0);
  CHECK(n.queries_failed == 0);
  CHECK(trial(r, "KEEP_LATEST_COMMITS", false, 9).seeds_failed > 0);
  // The hours rule: 5h plus the longest write (5m), in whole hours, holds;
  // an hour less fails when a query began while a write was running and a
  // clean ran in its last minutes.
  const AdviceTrial& h = trial(r, "KEEP_LATEST_BY_HOURS", true, 6);
  CHECK(h.seeds_failed == 0);
  CHECK(h.queries_failed == 0);
  CHECK(trial(r, "KEEP_LATEST_BY_HOURS", false, 5).seeds_failed > 0);
  CHECK(r.confirmed());
}

TEST_CASE("the advice check fails a retention that is too short, and one that is not the least") {
  AdviceCheckOptions o = every_30m_5h_query(10);
  o.policy = parse_policy_flag("hoodie.clean.policy=KEEP_LATEST_COMMITS,hoodie.clean.commits.retained=8").value();
  const AdviceCheck short_one = check_advice(o).value();
  REQUIRE(short_one.trials.size() == 2);
  CHECK(short_one.trials[0].retained == 8);
  CHECK(short_one.trials[0].checked);
  CHECK(short_one.trials[0].seeds_failed > 0);
  CHECK(short_one.trials[1].retained == 7);
  CHECK_FALSE(short_one.confirmed());
  CHECK(short_one.format().find("NOT confirmed") != std::string::npos);

  // 12 commits hold, but so do 11: 12 is not the least, and the check says so.
  o.policy = parse_policy_flag("hoodie.clean.policy=KEEP_LATEST_COMMITS,hoodie.clean.commits.retained=12").value();
  const AdviceCheck generous = check_advice(o).value();
  REQUIRE(generous.trials.size() == 2);
  CHECK(generous.trials[0].seeds_failed == 0);
  CHECK(generous.trials[1].seeds_failed == 0);
  CHECK_FALSE(generous.confirmed());

  o.policy = parse_policy_flag("hoodie.clean.policy=KEEP_LATEST_FILE_VERSIONS").value();
  CHECK_FALSE(check_advice(o).ok());
  o.policy.reset();
  o.cadence = CommitCadence{};
  CHECK_FALSE(check_advice(o).ok());
}

TEST_CASE("cadence files: durations or instant times, one commit a line") {
  const CommitCadence d = parse_cadence("# gap [write]\n30m 4m\n30m\n\n1m 10s  # a burst\n", "c.txt").value();
  REQUIRE(d.size() == 3);
  CHECK(d.gaps_ms == std::vector<std::int64_t>{30 * kMinute, 30 * kMinute, kMinute});
  CHECK(d.durations_ms == std::vector<std::int64_t>{4 * kMinute, 1000, 10'000});
  CHECK(d.source == "c.txt (3 commits)");

  const CommitCadence t =
      parse_cadence("20260101000000000 20260101000200000\n20260101003000000\n20260101010000000 20260101010500000\n",
                    "t.txt")
          .value();
  REQUIRE(t.size() == 3);
  // The first commit's gap (where the replay wraps around) is the median gap.
  CHECK(t.gaps_ms == std::vector<std::int64_t>{30 * kMinute, 30 * kMinute, 30 * kMinute});
  CHECK(t.durations_ms == std::vector<std::int64_t>{2 * kMinute, 1000, 5 * kMinute});

  CHECK_FALSE(parse_cadence("30m\n20260101000000000\n", "mixed").ok());
  CHECK_FALSE(parse_cadence("soon\n", "bad").ok());
  CHECK_FALSE(parse_cadence("30m 1m 2m\n", "three").ok());
  CHECK_FALSE(parse_cadence("20260101003000000 20260101000000000\n20260101010000000\n", "backwards").ok());
  CHECK_FALSE(parse_cadence("# nothing\n", "empty").ok());
}

TEST_CASE("a table's cadence is its completed commits, requested to completed; overlaps need writers") {
  MiniTable t;
  for (int m : {0, 30, 60, 62}) t.commit(m, {t.base("a", minute(m))});
  const CommitCadence c = cadence_of_timeline(t.md(), "mini").value();
  REQUIRE(c.size() == 4);
  CHECK(c.gaps_ms[1] == 30 * kMinute);
  CHECK(c.gaps_ms[3] == 2 * kMinute);
  CHECK(c.writers() == 1);

  CommitCadence overlapping;
  overlapping.add(10 * kMinute, 25 * kMinute);  // each write runs into the next two
  CHECK(overlapping.writers() == 3);
  CHECK(synthetic_cadence(absl::Minutes(30), absl::Minutes(30)).writers() == 1);  // one ends as the next begins
}

TEST_CASE("the replay writes at the cadence, and the metadata advise judges it by matches the run") {
  const auto cadence = std::make_shared<const CommitCadence>(parse_cadence("20m 2m\n40m 1m\n", "two").value());
  RunOptions o;
  o.seed = 3;
  std::vector<std::string> commits;
  o.trace_sink = [&](std::string_view line) {
    if (line.find(" commit ") != std::string_view::npos && line.find("completed") != std::string_view::npos) {
      commits.emplace_back(line);
    }
  };
  o.adjust_swarm = [&](SwarmConfig& s) { sim::detail::replay_swarm(s, cadence, kHour); };
  const RunResult r = run_seed(o).value();
  CHECK(r.ok());
  CHECK(r.swarm.type == TableType::cow);
  CHECK(r.swarm.duration_ms >= 3 * kHour);
  CHECK(r.stats.cadence_skipped == 0);
  // 20 + 40 minutes a cycle: about one commit per half hour of the run.
  CHECK(r.stats.commits >= static_cast<std::uint64_t>(r.swarm.duration_ms / (30 * kMinute)) - 1);
  CHECK(r.stats.commits <= static_cast<std::uint64_t>(r.swarm.duration_ms / (30 * kMinute)) + 3);

  const TableMetadata md = replay_metadata(*cadence, Table::kEpochMs, 10 * kHour);
  const auto commits_md = md.timeline.completed_commits();
  REQUIRE(commits_md.size() >= 20);
  const auto ms = [&](std::size_t i) { return commits_md[i]->requested.to_epoch_ms(TimelineTimezone::utc).value(); };
  CHECK(ms(0) == Table::kEpochMs + 20 * kMinute);
  CHECK(ms(1) - ms(0) == 40 * kMinute);
  CHECK(ms(2) - ms(1) == 20 * kMinute);
}

TEST_CASE("a share of queries runs exactly the longest; the default swarm's draws are unchanged") {
  RunOptions o;
  o.seed = 5;
  const std::uint64_t plain = run_seed(o).value().trace_hash;
  o.adjust_swarm = [](SwarmConfig& s) { s.query_at_max_percent = 0; };
  CHECK(run_seed(o).value().trace_hash == plain);
  std::size_t at_max = 0;
  std::size_t queries = 0;
  o.adjust_swarm = [](SwarmConfig& s) {
    s.query_at_max_percent = 50;
    s.query_max_ms = 2 * kHour;
  };
  o.trace_sink = [&](std::string_view line) {
    if (line.find(" files=") == std::string_view::npos) return;
    ++queries;
    if (line.find(" for 7200s") != std::string_view::npos) ++at_max;
  };
  (void)run_seed(o).value();
  REQUIRE(queries > 10);
  CHECK(at_max * 4 > queries);  // about half
  CHECK(at_max < queries);
}

}  // namespace lakegc::tests::advice_check_test
