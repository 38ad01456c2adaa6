// Partition TTL execution (issue 15): the replacecommit DELETE_PARTITION that
// hudi/ttl_execute.hpp writes, read back with the library's decoders, per
// timeline layout (1: table version 6; 2: versions 8 and 9); the runs that
// must write nothing (nothing expired, a blocking compaction); a crashed
// run's files completed by a rerun.
#include <doctest/doctest.h>

#include "clean_fixture.hpp"
#include "lakegc/hudi/avro/read.hpp"
#include "lakegc/hudi/metadata_codec.hpp"
#include "lakegc/hudi/ttl_execute.hpp"

namespace lakegc::tests::ttl_execute_test {

using namespace lakegc;
using namespace lakegc::testing;

namespace {

constexpr std::int64_t kDay = 86'400'000;
const std::string kSchema = R"({"type":"record","name":"r","fields":[]})";

hudi::TableProperties props_for(TimelineLayout layout) {
  hudi::TableProperties p;
  p.layout = layout;
  p.version = layout == TimelineLayout::v1 ? 6 : 9;
  p.timeline_dir = layout == TimelineLayout::v1 ? ".hoodie" : ".hoodie/timeline";
  p.timezone = TimelineTimezone::utc;
  return p;
}

struct Run {
  TtlPlan plan;
  hudi::TtlExecution done;
};

// Plans TTL (KEEP_BY_TIME, 1 day) at `now_ms` and executes it on t.storage.
Run ttl(TestTable& t, TimelineLayout layout, std::int64_t now_ms, std::int32_t days = 1) {
  const TableMetadata md = t.md();
  const TableView view = load_view(t.storage, md).value();
  TtlSettings s;
  s.days_retain = days;
  auto plan = plan_ttl(view, md, s, TtlContext{InstantTime::from_epoch_ms(now_ms, TimelineTimezone::utc), nullptr});
  REQUIRE_MESSAGE(plan.ok(), std::string(message_of(plan.status())));
  auto done = hudi::execute_ttl(t.storage, props_for(layout), md, view, *plan, kSchema, [&] { return now_ms + 500; });
  REQUIRE_MESSAGE(done.ok(), std::string(message_of(done.status())));
  return {*plan, *done};
}

std::string read(TestTable& t, const std::string& path) {
  auto b = t.storage.read(path);
  REQUIRE_MESSAGE(b.ok(), path);
  return *b;
}

std::size_t replacecommit_files(TestTable& t) {
  std::size_t n = 0;
  REQUIRE(
      t.storage
          .list("", [&](const FileEntry& f) { n += f.path.find(".replacecommit") != std::string_view::npos ? 1 : 0; })
          .ok());
  return n;
}

}  // namespace

TEST_SUITE("ttl") {
  TEST_CASE("the replacecommit names every unreplaced file group of the expired partitions, in each layout") {
    for (const TimelineLayout layout : {TimelineLayout::v1, TimelineLayout::v2}) {
      CAPTURE(static_cast<int>(layout));
      TestTable t(layout, kDay);
      t.commit({{"old", "fa-0"}, {"old", "fb-0"}, {"old", "fc-0"}});
      t.replace({{"old", "fd-0"}}, {{"old", "fc-0"}});  // fc-0 is replaced: not named again
      for (int i = 0; i < 3; ++i) t.commit({{"new", "fn-0"}});
      const std::int64_t now = t.now + kDay / 2;
      const Run r = ttl(t, layout, now);
      REQUIRE(r.plan.expired == std::vector<std::string>{"old"});
      REQUIRE(r.done.unchanged_because.empty());
      const std::map<std::string, std::vector<std::string>> want = {{"old", {"fa-0", "fb-0", "fd-0"}}};
      CHECK(r.done.commit.partition_to_replace_file_ids == want);

      const hudi::TableProperties p = props_for(layout);
      const std::string t0 = r.plan.ttl_instant.str();
      const std::string req = p.timeline_dir + "/" + t0 + ".replacecommit.requested";
      const std::string inf = p.timeline_dir + "/" + t0 + ".replacecommit.inflight";
      REQUIRE(r.done.files_written.size() == 3);
      CHECK(r.done.files_written[0] == req);
      CHECK(r.done.files_written[1] == inf);
      std::string done_path = p.timeline_dir + "/" + t0 + ".replacecommit";
      if (layout == TimelineLayout::v2) {
        REQUIRE(r.done.completion.has_value());
        CHECK(r.plan.ttl_instant < *r.done.completion);
        done_path = p.timeline_dir + "/" + t0 + "_" + r.done.completion->str() + ".replacecommit";
      } else {
        CHECK_FALSE(r.done.completion.has_value());
      }
      CHECK(r.done.files_written[2] == done_path);

      // requested: Avro HoodieRequestedReplaceMetadata in every version.
      const std::string rb = read(t, req);
      REQUIRE(rb.starts_with("Obj\x01"));
      CHECK(rb.find(hudi::schemas::requested_replace_metadata) != std::string::npos);
      const auto rd = hudi::avro::read_first_record(rb, req).value();
      CHECK(rd.field("operationType").as_string() == std::optional<std::string_view>("DELETE_PARTITION"));
      CHECK(rd.field("clusteringPlan").is_null());
      CHECK(*rd.field("version").as_int() == 1);
      CHECK(hudi::decode_clustering_plan(rb, req).value().input_file_groups.empty());  // no clustering: blocks nothing

      // inflight: the empty workload profile.
      const std::string ib = read(t, inf);
      CHECK(ib.starts_with(layout == TimelineLayout::v1 ? "{" : "Obj\x01"));
      const auto im = hudi::decode_commit_metadata(ib, inf).value();
      CHECK(im.operation_type == "DELETE_PARTITION");
      CHECK(im.write_stats.empty());
      CHECK(im.partition_to_replace_file_ids.empty());

      // completed: the replaced groups and the write schema.
      const std::string cb = read(t, done_path);
      CHECK(cb.starts_with(layout == TimelineLayout::v1 ? "{" : "Obj\x01"));
      if (layout == TimelineLayout::v2) CHECK(cb.find(hudi::schemas::replace_commit_metadata) != std::string::npos);
      const auto cm = hudi::decode_commit_metadata(cb, done_path).value();
      CHECK(cm.operation_type == "DELETE_PARTITION");
      CHECK(cm.write_stats.empty());
      CHECK(cm.partition_to_replace_file_ids == want);
      const bool has_schema =
          cb.find(R"(\"name\":\"r\")") != std::string::npos || cb.find(kSchema) != std::string::npos;
      CHECK(has_schema);
    }
  }

  TEST_CASE("runs that must change nothing write no file: nothing expired, days.retain <= 0, a blocking compaction") {
    TestTable t(TimelineLayout::v2, kDay);
    const InstantTime c0 = t.commit({{"old", "fa-0"}});
    t.commit({{"new", "fn-0"}});

    Run r = ttl(t, TimelineLayout::v2, t.now + kDay / 2, 5);  // old is 1.5 days old, 5 retained
    CHECK(r.plan.expired.empty());
    CHECK(r.done.unchanged_because == std::vector<std::string>{"no partition expired"});
    CHECK(r.done.files_written.empty());

    r = ttl(t, TimelineLayout::v2, t.now + 10 * kDay, 0);
    CHECK_FALSE(r.done.unchanged_because.empty());
    CHECK(r.done.files_written.empty());

    // A pending compaction of a group in the expired partition blocks the run
    // (DeletePartitionUtils.checkForPendingTableServiceActions).
    const InstantTime c = t.schedule_compaction({{"old", "fa-0"}}, {c0});
    r = ttl(t, TimelineLayout::v2, t.now + 10 * kDay);
    REQUIRE(r.plan.expired.size() == 2);
    REQUIRE(r.done.unchanged_because.size() == 1);
    CHECK(r.done.unchanged_because[0].find(c.str()) != std::string::npos);
    CHECK(r.done.files_written.empty());
    CHECK(replacecommit_files(t) == 0);

    // Control: once the compaction completes, the same run writes.
    t.complete_compaction(c, {{"old", "fa-0"}});
    r = ttl(t, TimelineLayout::v2, t.now + 10 * kDay);
    CHECK(r.done.unchanged_because.empty());
    CHECK(r.done.files_written.size() == 3);
    CHECK(replacecommit_files(t) == 3);
  }

  TEST_CASE("a rerun after a crash completes the instant from the files already written") {
    for (const TimelineLayout layout : {TimelineLayout::v1, TimelineLayout::v2}) {
      CAPTURE(static_cast<int>(layout));
      TestTable t(layout, kDay);
      t.commit({{"old", "fa-0"}});
      t.commit({{"new", "fn-0"}});
      const std::int64_t now = t.now + 3 * kDay;
      const hudi::TableProperties p = props_for(layout);
      const std::string t0 = InstantTime::from_epoch_ms(now, TimelineTimezone::utc).str();
      // The crashed run wrote its requested file only.
      REQUIRE(t.storage
                  .write_if_absent(p.timeline_dir + "/" + t0 + ".replacecommit.requested",
                                   hudi::delete_partition_requested().value())
                  .ok());
      const Run r = ttl(t, layout, now);
      REQUIRE(r.done.unchanged_because.empty());
      REQUIRE(r.done.files_written.size() == 2);  // inflight and completed
      CHECK(r.done.files_written[0].ends_with(".replacecommit.inflight"));
      CHECK(r.done.files_written[1].ends_with(".replacecommit"));
    }
  }

  TEST_CASE("resume_instant: lakegc's own pending DELETE_PARTITION when newest; refused when a writer ran since") {
    for (const bool newest : {true, false}) {
      CAPTURE(newest);
      TestTable t(TimelineLayout::v2, kDay);
      t.commit({{"old", "fa-0"}});
      CommitInfo info;
      const InstantTime pending = t.begin_commit({}, &info, Action::replacecommit);
      const hudi::TableProperties p = props_for(TimelineLayout::v2);
      REQUIRE(t.storage
                  .write_if_absent(p.timeline_dir + "/" + pending.str() + ".replacecommit.requested",
                                   hudi::delete_partition_requested().value())
                  .ok());
      if (!newest) t.commit({{"new", "fn-0"}});
      auto r = hudi::resume_instant(t.storage, p, t.md());
      if (newest) {
        REQUIRE(r.ok());
        CHECK(*r == std::optional<InstantTime>(pending));
      } else {
        REQUIRE_FALSE(r.ok());
        CHECK(std::string(message_of(r.status())).find("rolls it back") != std::string::npos);
      }
    }
  }

}  // TEST_SUITE

}  // namespace lakegc::tests::ttl_execute_test
