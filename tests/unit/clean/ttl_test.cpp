// Partition TTL (issue 15): plan_ttl's rules on hand-built tables, one case
// per rule, each with a control that the rule changes the answer; Hudi's
// string arithmetic for expiry; Java's HashMap order, which decides what a
// capped run deletes; and the hoodie.partition.ttl.* parser's errors.
#include <doctest/doctest.h>

#include "clean_fixture.hpp"
#include "lakegc/plan/plan_ttl.hpp"
#include "lakegc/policy/ttl_config.hpp"

namespace lakegc::tests::ttl_test {

using namespace lakegc;
using namespace lakegc::testing;

namespace {

constexpr std::int64_t kDay = 86'400'000;

TtlSettings retain_days(std::int32_t days) {
  TtlSettings s;
  s.days_retain = days;
  return s;
}

InstantTime at(std::int64_t ms) { return InstantTime::from_epoch_ms(ms, TimelineTimezone::utc); }
std::int64_t ms_of(const InstantTime& t) { return t.to_epoch_ms(TimelineTimezone::utc).value(); }

TtlPlan plan(TestTable& t, const TtlSettings& s, std::int64_t now_ms,
             const PartitionCreationTimes* creation = nullptr) {
  const TableMetadata m = t.md();
  const TableView v = load_view(t.storage, m).value();
  auto r = plan_ttl(v, m, s, TtlContext{at(now_ms), creation});
  REQUIRE_MESSAGE(r.ok(), std::string(message_of(r.status())));
  return *r;
}

const TtlPartition& verdict_of(const TtlPlan& p, std::string_view partition) {
  for (const auto& tp : p.partitions) {
    if (tp.partition == partition) return tp;
  }
  FAIL("no verdict for " << partition);
  return p.partitions.front();
}

// A table stepping one day per action.
struct DailyTable : TestTable {
  DailyTable(TimelineLayout layout = TimelineLayout::v2) : TestTable(layout, kDay) {}
};

void set_commit_time(TestTable& t, const std::string& partition, std::string_view value) {
  const std::string path = join_path(partition, ".hoodie_partition_metadata");
  REQUIRE(t.storage.remove(path).ok());
  REQUIRE(t.storage.write_if_absent(path, fmt::format("#partition metadata\ncommitTime={}\npartitionDepth=1\n", value))
              .ok());
}

PartitionCreationTimes creation_times(TestTable& t, const std::vector<std::string>& partitions) {
  auto c = read_partition_creation_times(t.storage, partitions);
  REQUIRE(c.ok());
  return *c;
}

}  // namespace

TEST_SUITE("ttl") {
  TEST_CASE("nothing expires while days.retain <= 0") {
    DailyTable t;
    t.commit({{"a", "fa"}});
    const std::int64_t far = t.now + 1000 * kDay;
    for (int days : {0, -1}) {
      const TtlPlan p = plan(t, retain_days(days), far);
      CHECK(p.expired.empty());
      CHECK(p.partitions.empty());
      REQUIRE(p.noop_reasons.size() == 1);
      CHECK(p.noop_reasons[0].find("days.retain") != std::string::npos);
    }
    CHECK(plan(t, retain_days(1), far).expired == std::vector<std::string>{"a"});  // control
  }

  TEST_CASE("nothing expires without a completed instant") {
    DailyTable t;
    CommitInfo info;
    const InstantTime pending = t.begin_commit({{"a", "fa"}}, &info);
    const std::int64_t far = t.now + 1000 * kDay;
    TtlPlan p = plan(t, retain_days(1), far);
    CHECK(p.partitions.empty());
    REQUIRE(p.noop_reasons.size() == 1);
    CHECK(p.noop_reasons[0].find("no completed instant") != std::string::npos);
    // Control: once it completes the partition is evaluated (and expires).
    REQUIRE(t.journal.complete(pending, t.completion_of(pending), info).ok());
    p = plan(t, retain_days(1), far);
    CHECK(p.noop_reasons.empty());
    CHECK(p.expired == std::vector<std::string>{"a"});
  }

  TEST_CASE("nothing expires in a table that is not partitioned") {
    DailyTable t;
    t.commit({{"a", "fa"}});
    TableMetadata m = t.md();
    const TableView v = load_view(t.storage, m).value();
    const TtlContext ctx{at(t.now + 1000 * kDay), nullptr};
    CHECK(plan_ttl(v, m, retain_days(1), ctx)->expired.size() == 1);  // control
    m.partitioned = false;
    const TtlPlan p = plan_ttl(v, m, retain_days(1), ctx).value();
    CHECK(p.expired.empty());
    REQUIRE(p.noop_reasons.size() == 1);
    CHECK(p.noop_reasons[0].find("not partitioned") != std::string::npos);
  }

  TEST_CASE("KEEP_BY_TIME ages a partition by its newest latest base instant") {
    DailyTable t;
    const InstantTime d1 = t.commit({{"a", "f1"}});
    const InstantTime d2 = t.commit({{"a", "f2"}});
    // Older than a day counting from d1, younger counting from d2.
    const std::int64_t now = ms_of(d1) + kDay + kDay / 2;
    const TtlPlan p = plan(t, retain_days(1), now);
    const TtlPartition& a = verdict_of(p, "a");
    CHECK(a.verdict == TtlVerdict::not_expired);
    CHECK(a.reference == d2.str());
    CHECK(a.age_ms == now - ms_of(d2));
  }

  TEST_CASE("KEEP_BY_TIME: a replaced file group does not keep its partition alive") {
    DailyTable t;
    const InstantTime d1 = t.commit({{"a", "f1"}});
    t.commit({{"a", "f2"}});
    const std::int64_t now = ms_of(d1) + kDay + kDay / 2;
    CHECK(verdict_of(plan(t, retain_days(1), now), "a").verdict == TtlVerdict::not_expired);  // control
    t.replace({{"q", "f3"}}, {{"a", "f2"}});
    const TtlPartition a = verdict_of(plan(t, retain_days(1), now + 2 * kDay), "a");
    CHECK(a.verdict == TtlVerdict::expired);
    CHECK(a.reference == d1.str());
  }

  TEST_CASE("KEEP_BY_TIME counts a pending compaction's slice, and the compaction blocks the run") {
    DailyTable t;
    const InstantTime d1 = t.commit({{"a", "f1"}});
    const std::int64_t now = ms_of(d1) + kDay + kDay / 2;
    CHECK(verdict_of(plan(t, retain_days(1), now), "a").verdict == TtlVerdict::expired);  // control
    const InstantTime c = t.schedule_compaction({{"a", "f1"}}, {d1});
    TtlPlan p = plan(t, retain_days(1), now);
    CHECK(verdict_of(p, "a").verdict == TtlVerdict::not_expired);
    CHECK(verdict_of(p, "a").reference == c.str());
    p = plan(t, retain_days(1), now + 10 * kDay);
    CHECK(p.expired == std::vector<std::string>{"a"});
    CHECK(p.blocking_table_services == std::vector<InstantTime>{c});
  }

  TEST_CASE("KEEP_BY_TIME: log-only updates do not extend a partition's life") {
    for (auto layout : {TimelineLayout::v1, TimelineLayout::v2}) {
      CAPTURE(static_cast<int>(layout));
      DailyTable t(layout);
      const InstantTime d1 = t.commit({{"a", "f1"}});
      const std::int64_t now = ms_of(d1) + kDay + kDay / 2;
      t.now = ms_of(d1) - kDay / 2;  // the next tick: the log lands half a day after d1
      if (layout == TimelineLayout::v1) {
        t.deltacommit({{"a", "f1"}}, {d1});
      } else {
        t.deltacommit({{"a", "f1"}});
      }
      const TtlPartition a = verdict_of(plan(t, retain_days(1), now), "a");
      CHECK(a.verdict == TtlVerdict::expired);
      CHECK(a.reference == d1.str());
    }
  }

  TEST_CASE("KEEP_BY_TIME skips a partition without file slices") {
    DailyTable t;
    t.commit({{"a", "f1"}});
    t.ensure_partition("empty");
    const TtlPlan p = plan(t, retain_days(1), t.now + 1000 * kDay);
    CHECK(verdict_of(p, "empty").verdict == TtlVerdict::no_file_slices);
    CHECK(!verdict_of(p, "empty").reference);
    CHECK(p.expired == std::vector<std::string>{"a"});
  }

  TEST_CASE("expired only once the TTL instant is later than reference + retention") {
    DailyTable t;
    const InstantTime d1 = t.commit({{"a", "f1"}});
    CHECK(verdict_of(plan(t, retain_days(2), ms_of(d1) + 2 * kDay), "a").verdict == TtlVerdict::not_expired);
    CHECK(verdict_of(plan(t, retain_days(2), ms_of(d1) + 2 * kDay + 1), "a").verdict == TtlVerdict::expired);
  }

  TEST_CASE("KEEP_BY_CREATION_TIME ages by the partition metadata's commitTime") {
    DailyTable t;
    const InstantTime d1 = t.commit({{"a", "f1"}, {"b", "f2"}, {"c", "f3"}});
    set_commit_time(t, "a", at(ms_of(d1) - 30 * kDay).str());
    set_commit_time(t, "b", d1.str());
    // "c" keeps the fixture's commitTime=0: Hudi's numeric fallback, expired.
    TtlSettings s = retain_days(10);
    s.strategy = TtlStrategy::keep_by_creation_time;
    const auto creation = creation_times(t, {"a", "b", "c"});
    const TtlPlan p = plan(t, s, ms_of(d1) + 5 * kDay, &creation);
    CHECK(verdict_of(p, "a").verdict == TtlVerdict::expired);
    CHECK(verdict_of(p, "b").verdict == TtlVerdict::not_expired);
    CHECK(verdict_of(p, "c").verdict == TtlVerdict::expired);
    CHECK(verdict_of(p, "c").expires_after == "00000000864000000");
    // Control: by last commit time "a" is young.
    CHECK(verdict_of(plan(t, retain_days(10), ms_of(d1) + 5 * kDay), "a").verdict == TtlVerdict::not_expired);
  }

  TEST_CASE("KEEP_BY_CREATION_TIME fails as Hudi's run does on missing or unreadable partition metadata") {
    DailyTable t;
    t.commit({{"a", "f1"}});
    TtlSettings s = retain_days(1);
    s.strategy = TtlStrategy::keep_by_creation_time;
    s.selected = std::vector<std::string>{"a", "nowhere"};
    const TableMetadata m = t.md();
    const TableView v = load_view(t.storage, m).value();
    auto creation = creation_times(t, *s.selected);
    auto r = plan_ttl(v, m, s, TtlContext{at(t.now + 10 * kDay), &creation});
    REQUIRE(!r.ok());
    CHECK(message_of(r.status()).find("nowhere") != std::string_view::npos);
    s.selected = std::vector<std::string>{"a"};
    CHECK(plan_ttl(v, m, s, TtlContext{at(t.now + 10 * kDay), &creation}).ok());  // control
    set_commit_time(t, "a", "not-a-time");
    creation = creation_times(t, {"a"});
    r = plan_ttl(v, m, s, TtlContext{at(t.now + 10 * kDay), &creation});
    REQUIRE(!r.ok());
    CHECK(message_of(r.status()).find("not-a-time") != std::string_view::npos);
  }

  TEST_CASE("selected partitions are taken verbatim, and a missing one names what it probably meant") {
    DailyTable t;
    t.commit({{"dt=2026-01-01", "f1"}, {"dt=2026-01-02", "f2"}});
    TtlSettings s = retain_days(1);
    s.selected = std::vector<std::string>{"2026-01-01"};
    const TtlPlan p = plan(t, s, t.now + 10 * kDay);
    REQUIRE(p.partitions.size() == 1);
    CHECK(p.partitions[0].partition == "2026-01-01");
    CHECK(!p.partitions[0].on_storage);
    CHECK(p.partitions[0].probably_meant == "dt=2026-01-01");
    CHECK(p.partitions[0].verdict == TtlVerdict::no_file_slices);
    CHECK(p.expired.empty());
    CHECK(plan(t, retain_days(1), t.now + 10 * kDay).expired.size() == 2);  // control: every partition
  }

  TEST_CASE("a capped KEEP_BY_TIME run deletes the first expired partitions in Java HashMap order") {
    DailyTable t;
    t.commit({{"a", "f1"}, {"b", "f2"}, {"p", "f3"}, {"q", "f4"}});
    TtlSettings s = retain_days(1);
    s.max_delete_partitions = 2;
    const TtlPlan p = plan(t, s, t.now + 10 * kDay);
    // "a".hashCode() = 97 (bucket 1 of 16), "b" 98 (2), "p" 112 (0), "q" 113
    // (1, after "a": inserted later). Path order would give a, b.
    CHECK(p.expired == std::vector<std::string>{"p", "a"});
    CHECK(p.expired_total == 4);
    CHECK(verdict_of(p, "q").verdict == TtlVerdict::expired_over_cap);
    CHECK(verdict_of(p, "b").verdict == TtlVerdict::expired_over_cap);
    CHECK(p.order_exact);
  }

  TEST_CASE("a capped KEEP_BY_CREATION_TIME run follows the candidate order") {
    DailyTable t;
    t.commit({{"a", "f1"}, {"p", "f3"}, {"q", "f4"}});
    TtlSettings s = retain_days(1);
    s.strategy = TtlStrategy::keep_by_creation_time;
    s.max_delete_partitions = 2;
    s.selected = std::vector<std::string>{"q", "a", "p"};
    const auto creation = creation_times(t, *s.selected);
    const TtlPlan p = plan(t, s, t.now + 10 * kDay, &creation);
    CHECK(p.expired == std::vector<std::string>{"q", "a"});
    CHECK(verdict_of(p, "p").verdict == TtlVerdict::expired_over_cap);
  }

  TEST_CASE("Java's String.hashCode and HashMap order") {
    CHECK(java_string_hash("") == 0);
    CHECK(java_string_hash("hello") == 99162322);
    CHECK(java_string_hash("Aa") == java_string_hash("BB"));
    CHECK(java_string_hash("\xc3\xa9") == 233);                           // é, one UTF-16 unit
    CHECK(java_string_hash("\xf0\x9f\x98\x80") == 0xD83D * 31 + 0xDE00);  // a surrogate pair
    const std::vector<std::string> two = {"q", "a"};
    CHECK(java_hash_map_order(two).order == std::vector<std::size_t>{0, 1});  // one bucket: insertion order
    // 13 keys pass the 12-entry threshold: 32 buckets put "a" (1) before "q" (17).
    const std::vector<std::string> thirteen = {"q", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"};
    CHECK(java_hash_map_order(thirteen).order.front() == 1);
  }

  TEST_CASE("Hudi's instant arithmetic") {
    using ttl::instant_plus_millis;
    constexpr auto utc = TimelineTimezone::utc;
    CHECK(instant_plus_millis("20240101000000", 0, utc).value() == "20240101000000999");
    CHECK(instant_plus_millis("20240131000000000", kDay, utc).value() == "20240201000000000");
    CHECK(instant_plus_millis("20240230120000000", 0, utc).value() == "20240229120000000");  // SMART clamps the day
    CHECK(instant_plus_millis("0", 1000, utc).value() == "00000000000001000");
    CHECK(instant_plus_millis("00000000000000", 5, utc).value() == "00000000000000005");
    CHECK(!instant_plus_millis("abc", 5, utc).ok());
    const auto far = instant_plus_millis("20260101000000000", 3'000'000 * kDay, utc).value();
    CHECK(far.starts_with('+'));
    CHECK(ttl::is_expired(InstantTime::parse("20260101000000001").value(), "20260101000000000", 3'000'000 * kDay, utc)
              .value());
  }

  TEST_CASE("a retention past year 9999 expires everything, as in Hudi, with a warning") {
    DailyTable t;
    t.commit({{"a", "f1"}});
    const TtlPlan p = plan(t, retain_days(3'000'000), t.now);
    CHECK(p.expired == std::vector<std::string>{"a"});
    CHECK(!p.warnings.empty());
  }

  TEST_CASE("hoodie.partition.ttl.* settings") {
    using config::ttl_from_properties;
    const auto d = ttl_from_properties({}).value();
    CHECK(d.strategy == TtlStrategy::keep_by_time);
    CHECK(d.days_retain == -1);
    CHECK(d.max_delete_partitions == 1000);
    CHECK(d.stats_max_parallelism == 200);
    CHECK(!d.inline_ttl);
    CHECK(!d.selected);

    auto err = [](const config::Properties& p) { return std::string(message_of(ttl_from_properties(p).status())); };
    CHECK(err({{"hoodie.partition.ttl.strategy.days.retian", "3"}}).find("days.retian") != std::string::npos);
    CHECK(err({{"hoodie.partition.ttl.strategy.class", "com.acme.MyStrategy"}}).find("com.acme.MyStrategy") !=
          std::string::npos);
    CHECK(err({{"hoodie.partition.ttl.management.strategy.type", "KEEP_BY_SIZE"}}).find("KEEP_BY_SIZE") !=
          std::string::npos);
    CHECK(err({{"hoodie.partition.ttl.strategy.days.retain", "ten"}}).find("days.retain") != std::string::npos);
    CHECK(err({{"hoodie.partition.ttl.strategy.days.retain", "2147483648"}}).find("days.retain") != std::string::npos);
    CHECK(err({{"hoodie.partition.ttl.strategy.max.delete.partitions", "-1"}}).find("max.delete.partitions") !=
          std::string::npos);
    CHECK(err({{"hoodie.partition.ttl.strategy.stats.max.parallelism", "0"}}).find("parallelism") != std::string::npos);
    CHECK(err({{"hoodie.partition.ttl.inline", "yes"}}).find("inline") != std::string::npos);
    CHECK(err({{"hoodie.partition.ttl.strategy.partition.selected", "a,b,a"}}).find("'a' twice") != std::string::npos);

    // Hudi's type lookup upper-cases; the class wins over the type; other keys are ignored.
    CHECK(ttl_from_properties({{"hoodie.partition.ttl.management.strategy.type", "keep_by_creation_time"}})->strategy ==
          TtlStrategy::keep_by_creation_time);
    CHECK(ttl_from_properties({{"hoodie.partition.ttl.management.strategy.type", "KEEP_BY_CREATION_TIME"},
                               {"hoodie.partition.ttl.strategy.class", std::string(kKeepByTimeClass)}})
              ->strategy == TtlStrategy::keep_by_time);
    CHECK(ttl_from_properties({{"hoodie.partition.ttl.strategy.class", std::string(kKeepByCreationTimeClass)}})
              ->strategy == TtlStrategy::keep_by_creation_time);
    CHECK(ttl_from_properties({{"spark.executor.memory", "4g"}, {"hoodie.clean.policy", "x"}}).ok());
    // Java's split(","): empty items kept, trailing ones dropped; duplicates allowed by creation time.
    CHECK(ttl_from_properties({{"hoodie.partition.ttl.strategy.partition.selected", "a,,b,,"}})->selected ==
          std::vector<std::string>{"a", "", "b"});
    CHECK(ttl_from_properties({{"hoodie.partition.ttl.strategy.partition.selected", "a,a"},
                               {"hoodie.partition.ttl.management.strategy.type", "KEEP_BY_CREATION_TIME"}})
              .ok());
    CHECK(!ttl_from_properties({{"hoodie.partition.ttl.strategy.partition.selected", ""}})->selected);
  }

}  // TEST_SUITE

}  // namespace lakegc::tests::ttl_test
