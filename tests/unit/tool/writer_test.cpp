// table_writer writes what Hudi's readers look for, and hudi::journal reads
// it back: instants and their states, commit metadata (partitions, files,
// sizes, prevCommit), partition metadata, and the file-system view.
#include <doctest/doctest.h>

#include <string>

#include "lakegc/core/load_view.hpp"
#include "lakegc/hudi/metadata_codec.hpp"
#include "tool_fixture.hpp"

namespace lakegc::tests::writer_test {

using namespace lakegc;
using namespace lakegc::testing;

TEST_CASE("hoodie.properties carries the checksum Hudi computes (CRC32 of <database>.<table>)") {
  // Values from the corpus tables' hoodie.properties.
  CHECK(hudi::detail::crc32("default.v9_txns_cow_simple_nometa") == 2616127535U);
  CHECK(hudi::detail::crc32("default.v6_simplekeygen_nonhivestyle") == 616688896U);
}

TEST_CASE("a Copy-on-Write table: commits, in-flight write, partitions and slices read back") {
  memory_storage s;
  hudi::TableConfig cfg;
  cfg.name = "trips";
  cfg.partition_fields = {"region"};
  auto w = writer_t::create(s, cfg);
  TOOL_REQUIRE_OK(w);
  CHECK(absl::IsAlreadyExists(writer_t::create(s, cfg).status()));
  const std::string f1 = writer_t::file_id(1), f2 = writer_t::file_id(2);
  const InstantTime t1 = instant("20260101000000000"), t2 = instant("20260101010000000"),
                    t3 = instant("20260101020000000");
  TOOL_REQUIRE_OK_STATUS(w->start(t1));
  TOOL_REQUIRE_OK(w->write_base_file(t1, "region=eu", f1, "aaaa"));
  TOOL_REQUIRE_OK(w->write_base_file(t1, "region=us", f2, "bbbbbb"));
  TOOL_REQUIRE_OK_STATUS(w->complete(t1));
  TOOL_REQUIRE_OK_STATUS(w->start(t2));
  auto eu2 = w->write_base_file(t2, "region=eu", f1, "cccccccc");
  TOOL_REQUIRE_OK(eu2);
  TOOL_REQUIRE_OK_STATUS(w->complete(t2));
  TOOL_REQUIRE_OK_STATUS(w->start(t3));  // left in flight
  TOOL_REQUIRE_OK(w->write_base_file(t3, "region=us", f2, "dd"));
  CHECK_FALSE(w->complete(instant("20260101030000000")).ok());  // never started

  // Hudi's layout-1 names: 0-byte requested, `<t>.inflight`, `<t>.commit`.
  CHECK(s.stat(".hoodie/20260101000000000.commit.requested").value().size == 0);
  CHECK(s.stat(".hoodie/20260101000000000.inflight").ok());
  CHECK(s.stat(".hoodie/20260101000000000.commit").ok());
  CHECK(absl::IsNotFound(s.stat(".hoodie/20260101020000000.commit").status()));

  auto j = journal_t::open(s, "/lake/trips");
  TOOL_REQUIRE_OK(j);
  CHECK(j->properties().name == "trips");
  CHECK(j->properties().version == 6);
  CHECK(j->properties().layout == TimelineLayout::v1);
  CHECK(j->properties().timezone == TimelineTimezone::utc);
  CHECK(j->properties().hive_style_partitioning);
  CHECK(j->properties().raw.at("hoodie.table.checksum") == std::to_string(hudi::detail::crc32("default.trips")));
  auto md = j->load();
  TOOL_REQUIRE_OK(md);
  const auto instants = md->timeline.instants();
  REQUIRE(instants.size() == 3);
  CHECK(instants[0] == Instant{t1, std::nullopt, Action::commit, State::completed});
  CHECK(instants[1] == Instant{t2, std::nullopt, Action::commit, State::completed});
  CHECK(instants[2] == Instant{t3, std::nullopt, Action::commit, State::inflight});
  REQUIRE(md->commits.size() == 2);
  CHECK(md->commits.at(t1).partitions_written == std::vector<std::string>{"region=eu", "region=us"});
  CHECK(md->commits.at(t2).files == std::vector<WrittenFile>{{"region=eu", *eu2, 8}});
  CHECK(md->partitioned);

  auto commit = s.read(".hoodie/20260101010000000.commit");
  TOOL_REQUIRE_OK(commit);
  auto decoded = hudi::decode_commit_metadata(*commit, "t2.commit");
  TOOL_REQUIRE_OK(decoded);
  REQUIRE(decoded->write_stats.size() == 1);
  CHECK(decoded->write_stats[0].prev_commit == "20260101000000000");
  CHECK(decoded->write_stats[0].path == "region=eu/" + *eu2);
  CHECK(decoded->operation_type == "UPSERT");

  auto pm = j->read_partition_metadata("region=us");
  TOOL_REQUIRE_OK(pm);
  CHECK(pm->commit_time == t1);
  CHECK(pm->depth == 1);

  auto view = load_view(s, *md);
  TOOL_REQUIRE_OK(view);
  REQUIRE(view->partitions().size() == 2);
  const Partition& eu = view->partitions()[0];
  CHECK(eu.path == "region=eu");
  REQUIRE(view->groups_of(eu).size() == 1);
  const auto slices = view->slices_of(view->groups_of(eu)[0]);
  REQUIRE(slices.size() == 2);
  CHECK(slices[0].base_instant == t2);
  CHECK(view->file_name(slices[0].base_file) == *eu2);
  CHECK(slices[1].base_instant == t1);
  // The in-flight write's file is listed but not committed.
  REQUIRE(view->uncommitted_files().size() == 1);
  CHECK(view->uncommitted_files()[0].instant == t3);
}

TEST_CASE("a Merge-on-Read table: deltacommits, log files named by their slice's base instant") {
  memory_storage s;
  hudi::TableConfig cfg;
  cfg.name = "events";
  cfg.type = hudi::TableType::merge_on_read;
  auto w = writer_t::create(s, cfg);
  TOOL_REQUIRE_OK(w);
  const std::string f = writer_t::file_id(7);
  const InstantTime t1 = instant("20260101000000000"), t2 = instant("20260101010000000"),
                    t3 = instant("20260101020000000");
  TOOL_REQUIRE_OK_STATUS(w->start(t1));
  auto base = w->write_base_file(t1, "", f, "base");
  TOOL_REQUIRE_OK(base);
  TOOL_REQUIRE_OK_STATUS(w->complete(t1, "INSERT"));
  CHECK_FALSE(w->write_log_file(t2, "", f, "x").ok());  // not started
  TOOL_REQUIRE_OK_STATUS(w->start(t2));
  auto log1 = w->write_log_file(t2, "", f, "log-one");
  TOOL_REQUIRE_OK(log1);
  TOOL_REQUIRE_OK_STATUS(w->complete(t2));
  TOOL_REQUIRE_OK_STATUS(w->start(t3));
  auto log2 = w->write_log_file(t3, "", f, "log-two!");
  TOOL_REQUIRE_OK(log2);
  TOOL_REQUIRE_OK_STATUS(w->complete(t3));

  auto l1 = parse_log_file_name(*log1);
  TOOL_REQUIRE_OK(l1);
  CHECK(l1->instant == t1);  // table version 6: the base instant
  CHECK(l1->version == "1");
  CHECK(parse_log_file_name(*log2).value().version == "2");
  CHECK(s.stat(".hoodie/20260101010000000.deltacommit.requested").ok());
  CHECK(s.stat(".hoodie/20260101010000000.deltacommit.inflight").ok());
  CHECK(s.read(".hoodie_partition_metadata").value().find("partitionDepth=0") != std::string::npos);

  auto stats = hudi::decode_commit_metadata(s.read(".hoodie/20260101010000000.deltacommit").value(), "t2");
  TOOL_REQUIRE_OK(stats);
  REQUIRE(stats->write_stats.size() == 1);
  CHECK(stats->write_stats[0].base_file == *base);
  CHECK(stats->write_stats[0].log_files == std::vector<std::string>{*log1});

  auto j = journal_t::open(s, "/lake/events");
  TOOL_REQUIRE_OK(j);
  CHECK(j->properties().type == hudi::TableType::merge_on_read);
  auto md = j->load();
  TOOL_REQUIRE_OK(md);
  CHECK_FALSE(md->partitioned);
  REQUIRE(md->timeline.size() == 3);
  for (const Instant& i : md->timeline.instants()) {
    CHECK(i.action == Action::deltacommit);
    CHECK(i.is_completed());
  }
  auto view = load_view(s, *md);
  TOOL_REQUIRE_OK(view);
  REQUIRE(view->partitions().size() == 1);
  CHECK(view->partitions()[0].path.empty());
  REQUIRE(view->groups().size() == 1);
  const auto slices = view->slices_of(view->groups()[0]);
  REQUIRE(slices.size() == 1);
  REQUIRE(slices[0].log_count == 2);
  CHECK(view->file_name(view->logs_of(slices[0])[0]) == *log1);
  CHECK(view->file_name(view->logs_of(slices[0])[1]) == *log2);
}

TEST_CASE("Copy-on-Write tables refuse log files") {
  memory_storage s;
  auto w = writer_t::create(s, hudi::TableConfig{});
  TOOL_REQUIRE_OK(w);
  TOOL_REQUIRE_OK_STATUS(w->start(instant("20260101000000000")));
  CHECK(absl::IsFailedPrecondition(
      w->write_log_file(instant("20260101000000000"), "", writer_t::file_id(1), "x").status()));
}

}  // namespace lakegc::tests::writer_test
