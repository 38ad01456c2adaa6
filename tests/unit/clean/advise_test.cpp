// Issue 19: the retention a table needs, from its own commit cadence. Each
// case builds a timeline with a known shape and checks the worst-case
// arithmetic; the documentation's example is the first.
#include <doctest/doctest.h>

#include "clean_fixture.hpp"
#include "lakegc/plan/advise.hpp"

namespace lakegc::tests::advise_test {

using namespace lakegc;
using namespace lakegc::testing;

namespace {

const Slot kA{"p", "fa-0"};

const Recommendation& rec(const Advice& a, std::string_view policy) {
  for (const auto& r : a.recommendations) {
    if (r.policy == policy) return r;
  }
  FAIL("no recommendation for " << policy);
  return a.recommendations.front();
}

AdviseOptions query(absl::Duration d) {
  AdviseOptions o;
  o.longest_query = d;
  return o;
}

}  // namespace

TEST_CASE("issue 19: commits every 30 minutes and a 5-hour query need 10 commits retained") {
  for (TimelineLayout layout : {TimelineLayout::v1, TimelineLayout::v2}) {
    CAPTURE(static_cast<int>(layout));
    TestTable t(layout, 30 * 60'000);
    for (int i = 0; i < 30; ++i) t.commit({kA});
    const Advice a = advise(t.md(), query(absl::Hours(5)));
    CHECK(a.window_ms == 5 * 3'600'000);
    CHECK(a.cadence.commits == 30);
    CHECK(a.cadence.median_gap_ms == 30 * 60'000);
    CHECK(rec(a, "KEEP_LATEST_COMMITS").retained == 10);
    CHECK(rec(a, "KEEP_LATEST_COMMITS").config.at("hoodie.clean.commits.retained") == "10");
    CHECK(rec(a, "KEEP_LATEST_BY_HOURS").retained == 6);  // 5h + the longest write (1s), whole hours
    // Every commit updates the one group: 10 new slices within 5 hours.
    CHECK(rec(a, "KEEP_LATEST_FILE_VERSIONS").retained == 11);
    CHECK_FALSE(rec(a, "KEEP_LATEST_FILE_VERSIONS").warning.empty());
    CHECK(a.notes.empty());
    // What the current settings protect: 10 commits cover 5h, 9 only 4h 30m.
    CHECK(protection_of(t.md(), "KEEP_LATEST_COMMITS", 10).protects_ms == 5 * 3'600'000);
    const Protection nine = protection_of(t.md(), "KEEP_LATEST_COMMITS", 9);
    CHECK(nine.protects_ms == 4 * 3'600'000 + 30 * 60'000);
    CHECK_MESSAGE(nine.summary.find("a query longer than 4h 30m can fail") != std::string::npos, nine.summary);
  }
}

TEST_CASE("issue 19: a burst of commits shrinks what n commits cover: the worst case decides") {
  TestTable t(TimelineLayout::v2, 30 * 60'000);
  for (int i = 0; i < 20; ++i) t.commit({kA});
  t.step = 60'000;  // a backfill: one commit a minute
  for (int i = 0; i < 30; ++i) t.commit({kA});
  t.step = 30 * 60'000;
  for (int i = 0; i < 20; ++i) t.commit({kA});
  const Advice a = advise(t.md(), query(absl::Hours(1)));
  // An hour at one commit a minute is 60 gaps; the steady part alone would need 2.
  CHECK(rec(a, "KEEP_LATEST_COMMITS").retained > 30);
  const Protection p = protection_of(t.md(), "KEEP_LATEST_COMMITS", 10);
  REQUIRE(p.protects_ms.has_value());
  CHECK(*p.protects_ms == 10 * 60'000);
  CHECK(p.summary.find("during a burst like the one that began on") != std::string::npos);
}

TEST_CASE("issue 19: a quiet night lengthens spans and changes nothing") {
  TestTable steady(TimelineLayout::v2, 30 * 60'000);
  TestTable night(TimelineLayout::v2, 30 * 60'000);
  for (int i = 0; i < 30; ++i) {
    steady.commit({kA});
    night.commit({kA});
    if (i == 15) night.now += 8 * 3'600'000;  // eight quiet hours
  }
  const Advice s = advise(steady.md(), query(absl::Hours(3)));
  const Advice n = advise(night.md(), query(absl::Hours(3)));
  CHECK(rec(s, "KEEP_LATEST_COMMITS").retained == 6);
  CHECK(rec(n, "KEEP_LATEST_COMMITS").retained == 6);
  CHECK(n.cadence.max_gap_ms > 8 * 3'600'000);
}

TEST_CASE("issue 19: fewer commits than the window needs: an estimate, said so") {
  TestTable t(TimelineLayout::v2, 30 * 60'000);
  for (int i = 0; i < 4; ++i) t.commit({kA});
  const Advice a = advise(t.md(), query(absl::Hours(5)));
  CHECK(rec(a, "KEEP_LATEST_COMMITS").retained == 10);  // 5h at the median 30 minutes
  REQUIRE(a.notes.size() == 1);
  CHECK(a.notes[0].find("fewer commits than the window needs") != std::string::npos);
  CHECK(rec(a, "KEEP_LATEST_COMMITS").reason.find("extrapolated") != std::string::npos);
}

TEST_CASE("issue 19: the recovery horizon adds to the window; hours cover the longest write") {
  TestTable t(TimelineLayout::v2, 30 * 60'000);
  for (int i = 0; i < 200; ++i) t.commit({kA});
  AdviseOptions o = query(absl::Hours(2));
  o.recovery = absl::Hours(24);
  const Advice a = advise(t.md(), o);
  CHECK(a.window_ms == 26 * 3'600'000);
  CHECK(rec(a, "KEEP_LATEST_COMMITS").retained == 52);
  // Writes here take a second (completion - requested), so 26h + 1s -> 27 hours.
  CHECK(a.cadence.longest_write_ms == 1000);
  CHECK(rec(a, "KEEP_LATEST_BY_HOURS").retained == 27);
}

TEST_CASE("issue 19: a recommendation keeps the seed example's query files; one fewer does not") {
  // The planner under the recommended retention: a query that began on the
  // snapshot of c0 and runs 5 hours while commits land every 30 minutes.
  TestTable t(TimelineLayout::v2, 30 * 60'000);
  for (int i = 0; i < 20; ++i) t.commit({kA});
  const std::uint32_t n = rec(advise(t.md(), query(absl::Hours(5))), "KEEP_LATEST_COMMITS").retained;
  REQUIRE(n == 10);
  TestTable q(TimelineLayout::v2, 30 * 60'000);
  q.commit({kA});
  const std::string read = *q.files("p").begin();
  for (int i = 0; i < 10; ++i) q.commit({kA});  // the query's 5 hours
  auto keeps = [&](std::uint32_t retained) {
    return !planned(q.plan(cleaning(keep_latest_commits{retained}, guard::savepoints, guard::pending_table_services)))
                .contains("p/" + read);
  };
  CHECK(keeps(n));
  CHECK_FALSE(keeps(n - 1));
}

}  // namespace lakegc::tests::advise_test
