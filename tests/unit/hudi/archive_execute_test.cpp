// Executing layout 1's timeline archival (hudi/archive_execute.hpp) on a
// table in memory: what each instant file becomes in the archive, that the
// archived timeline reader reads back what was written, the archive file's
// name and blocks, the order of the deletes, reruns after a crash at every
// change, and the refusals (nothing changed).
#include "lakegc/hudi/archive_execute.hpp"

#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "lakegc/hudi/avro_writer.hpp"
#include "lakegc/hudi/delete_partition_commit.hpp"
#include "lakegc/hudi/log/read_blocks.hpp"
#include "lakegc/hudi/metadata_codec.hpp"
#include "lakegc/hudi/rollback_records.hpp"
#include "lakegc/storage/memory_storage.hpp"
#include "test_util.hpp"

namespace lakegc::tests::archive_execute_test {

using namespace lakegc::hudi;
using namespace lakegc::hudi::testing;
using lakegc::InstantTime;

namespace {

InstantTime t(std::string_view s) { return InstantTime::parse(s).value(); }

const std::string kCommitJson = R"({
  "partitionToWriteStats" : {
    "2024/01/01" : [ {
      "fileId" : "f1-0", "path" : "2024/01/01/f1-0_0-1-1_20240101000000000.parquet", "prevCommit" : "null",
      "numWrites" : 10, "numDeletes" : 0, "numUpdateWrites" : 0, "numInserts" : 10, "totalWriteBytes" : 4096,
      "totalWriteErrors" : 0, "tempPath" : null, "partitionPath" : "2024/01/01", "totalLogRecords" : 0,
      "fileSizeInBytes" : 4096, "minEventTime" : null, "maxEventTime" : null, "cdcStats" : null,
      "runtimeStats" : { "totalScanTime" : 0, "totalUpsertTime" : 0, "totalCreateTime" : 12 },
      "totalValidLogBlocks" : 0
    } ]
  },
  "compacted" : false,
  "extraMetadata" : { "schema" : "{\"type\":\"record\",\"name\":\"r\",\"fields\":[]}" },
  "operationType" : "UPSERT"
})";

const std::string kInflightJson = R"({"partitionToWriteStats":{"2024/01/01":[{"fileId":"","path":null,
  "prevCommit":"null","numWrites":0,"numInserts":10}]},"compacted":false,"extraMetadata":{},"operationType":"UPSERT"})";

struct table {
  lakegc::memory_storage storage;
  TableProperties props;
  TableLocation where = TableLocation::of("/t");
  std::int64_t mtime = 1704067200000;  // 2024-01-01T00:00:00Z

  void put(const std::string& name, const std::string& bytes) {
    const std::string path = ".hoodie/" + name;
    REQUIRE(storage.write_if_absent(path, bytes).ok());
    REQUIRE(storage.set_mtime(path, mtime += 1000).ok());
  }

  // A commit (requested empty, inflight and completed JSON), a clean, a
  // rollback, a compaction that completed, and a commit kept active.
  void fill() {
    put("20240101000000000.commit.requested", "");
    put("20240101000000000.inflight", kInflightJson);
    put("20240101000000000.commit", kCommitJson);
    CleanerPlan plan;
    plan.last_completed_commit_timestamp = "20240101000000000";
    plan.policy = "KEEP_LATEST_COMMITS";
    plan.file_paths_to_delete_per_partition["2024/01/01"] = {};
    put("20240101010000000.clean.requested", encode_cleaner_plan(plan).value());
    put("20240101010000000.clean.inflight", "");
    CleanMetadata clean;
    clean.start_clean_time = "20240101010000000";
    clean.earliest_commit_to_retain = "20240101000000000";
    clean.last_completed_commit_timestamp = "20240101000000000";
    put("20240101010000000.clean", encode_clean_metadata(clean).value());
    put("20240101020000000.rollback.requested", "");
    put("20240101020000000.rollback.inflight", "");
    RollbackMetadataRecord rb;
    rb.start_rollback_time = "20240101020000000";
    rb.commits_rollback = {"20240101015000000"};
    put("20240101020000000.rollback", encode_rollback_metadata(rb).value());
    put("20240101030000000.compaction.requested", compaction_plan(2));
    put("20240101030000000.compaction.inflight", "");
    put("20240101030000000.commit", kCommitJson);
    put("20240101040000000.commit.requested", "");
    put("20240101040000000.inflight", "");
    put("20240101040000000.commit", kCommitJson);
  }

  std::vector<Instant> archived() const {
    return {Instant{t("20240101000000000"), {}, Action::commit, State::completed},
            Instant{t("20240101010000000"), {}, Action::clean, State::completed},
            Instant{t("20240101020000000"), {}, Action::rollback, State::completed},
            Instant{t("20240101030000000"), {}, Action::commit, State::completed}};
  }

  std::vector<std::string> files_under(std::string_view dir) {
    std::vector<std::string> out;
    storage.for_each_file([&](const FileEntry& e) {
      if (e.path.starts_with(dir)) out.emplace_back(e.path);
    });
    return out;
  }

  StatusOr<ArchiveExecution> run(const ArchiveWriteOptions& o = {}) {
    LAKEGC_ASSIGN_OR_RETURN(auto entries, archive_entries(storage, props, where, archived()));
    return execute_archive(storage, props, where, std::move(entries), o);
  }
};

}  // namespace

TEST_CASE("every file of each archived instant becomes Hudi's archived entry, read back equal") {
  table tb;
  tb.fill();
  const std::string commit_file = tb.storage.read(".hoodie/20240101000000000.commit").value();
  const auto done = tb.run();
  HUDI_REQUIRE_OK(done);
  REQUIRE(done->entries.size() == 12);
  CHECK(done->entries_written == 12);
  CHECK(done->archive_files_written == std::vector<std::string>{".hoodie/archived/.commits_.archive.1_1-0-1"});

  // Archive order: by instant, each one's files requested -> inflight -> completed
  // (a compaction's own files with its commit).
  std::vector<std::string> order;
  for (const auto& e : done->entries) order.push_back(e.file);
  CHECK(order == std::vector<std::string>{"20240101000000000.commit.requested", "20240101000000000.inflight",
                                          "20240101000000000.commit", "20240101010000000.clean.requested",
                                          "20240101010000000.clean.inflight", "20240101010000000.clean",
                                          "20240101020000000.rollback.requested", "20240101020000000.rollback.inflight",
                                          "20240101020000000.rollback", "20240101030000000.compaction.requested",
                                          "20240101030000000.compaction.inflight", "20240101030000000.commit"});

  // Deletes: every pending file first, then completed ones oldest first.
  REQUIRE(done->instant_files_deleted.size() == 12);
  for (std::size_t i = 0; i < 8; ++i) CHECK_FALSE(done->instant_files_deleted[i].ends_with(".commit"));
  CHECK(std::vector<std::string>(done->instant_files_deleted.begin() + 8, done->instant_files_deleted.end()) ==
        std::vector<std::string>{".hoodie/20240101000000000.commit", ".hoodie/20240101010000000.clean",
                                 ".hoodie/20240101020000000.rollback", ".hoodie/20240101030000000.commit"});
  CHECK(tb.files_under(".hoodie/2024") == std::vector<std::string>{".hoodie/20240101040000000.commit",
                                                                   ".hoodie/20240101040000000.commit.requested",
                                                                   ".hoodie/20240101040000000.inflight"});

  // What Hudi's log reader sees: AVRO_DATA_BLOCKs of 10 and 2 entries, only
  // the SCHEMA header, Hudi's schema text.
  const std::string bytes = tb.storage.read(done->archive_files_written[0]).value();
  const auto blocks = log::read_blocks(bytes, "archive");
  HUDI_REQUIRE_OK(blocks);
  REQUIRE(blocks->size() == 2);
  for (const auto& b : *blocks) {
    CHECK(b.type == log::block_type::avro_data);
    REQUIRE(b.header.size() == 1);
    CHECK(b.get(log::header_key::schema) == kArchivedMetaEntrySchema);
  }
  CHECK(log::decode_avro_records((*blocks)[0], "archive").value().size() == 10);

  // Read back: every entry, its state and state transition time (the file's mtime).
  const auto back = read_archived_timeline(tb.storage, tb.props);
  HUDI_REQUIRE_OK(back);
  REQUIRE(back->instants.size() == 12);
  for (std::size_t i = 0; i < 12; ++i) {
    CHECK(back->instants[i].requested == done->entries[i].requested);
    CHECK(back->instants[i].action == done->entries[i].action);
    CHECK(back->instants[i].state == done->entries[i].state);
    REQUIRE(back->instants[i].completed.has_value());
    // Equal as Hudi reads them: the same bytes under Hudi's schema (a record
    // read from an instant file lacks the fields its writer schema lacked).
    CHECK(avro::encode(hudi::detail::archived_entry_schema(), back->instants[i].entry).value() ==
          avro::encode(hudi::detail::archived_entry_schema(), done->entries[i].entry).value());
  }
  CHECK(back->instants[0].completed == InstantTime::from_epoch_ms(1704067201000, TimelineTimezone::local));
  // The commit metadata reads back as the journal reads the JSON file.
  const auto json = decode_commit_metadata(commit_file, "20240101000000000.commit");
  HUDI_REQUIRE_OK(json);
  REQUIRE(back->commits.count(t("20240101000000000")) == 1);
  const CommitMetadata& archived = back->commits.at(t("20240101000000000"));
  REQUIRE(archived.write_stats.size() == json->write_stats.size());
  CHECK(archived.write_stats[0].file_id == json->write_stats[0].file_id);
  CHECK(archived.write_stats[0].path == json->write_stats[0].path);
  CHECK(archived.write_stats[0].file_size_bytes == 4096);
  CHECK(archived.operation_type == "UPSERT");

  // Each action's metadata field, as MetadataConversionUtils fills it.
  const auto& e = done->entries;
  CHECK(e[0].entry.field("hoodieCommitMetadata").is_null());  // empty requested file
  CHECK(e[1].entry.field("hoodieCommitMetadata").field("operationType").as_string() == "UPSERT");
  CHECK(e[2].entry.field("hoodieCommitMetadata").field("extraMetadata").is_map());
  CHECK(e[2].entry.field("hoodieCommitMetadata").field("version").is_null());
  CHECK(e[2].entry.field("version").is_null());
  const auto& stat =
      e[2].entry.field("hoodieCommitMetadata").field("partitionToWriteStats").elements()[0].elements()[0];
  CHECK(stat.field("runtimeStats").field("totalCreateTime").as_int() == 12);
  CHECK(stat.field("totalLogFiles").is_null());  // absent from the JSON: null, as Jackson leaves it
  CHECK(e[3].entry.field("hoodieCleanerPlan").field("policy").as_string() == "KEEP_LATEST_COMMITS");
  CHECK(e[4].entry.field("hoodieCleanerPlan").field("policy").as_string() ==
        "KEEP_LATEST_COMMITS");  // the requested plan
  CHECK(e[5].entry.field("hoodieCleanMetadata").field("earliestCommitToRetain").as_string() == "20240101000000000");
  CHECK(e[7].entry.field("hoodieRollbackMetadata").is_null());
  CHECK(e[8].entry.field("hoodieRollbackMetadata").field("commitsRollback").size() == 1);
  CHECK(e[9].entry.field("actionType").as_string() == "compaction");
  CHECK(e[9].entry.field("hoodieCompactionPlan").field("version").as_int() == 2);
  CHECK(e[10].entry.field("hoodieCompactionPlan").is_null());
  CHECK(e[11].entry.field("actionType").as_string() == "commit");
}

TEST_CASE("a replacecommit: its Avro requested plan, JSON inflight and completed metadata, read back") {
  table tb;
  DeletePartitionCommit c;
  c.partition_to_replace_file_ids["2024/01/01"] = {"f1-0", "f2-0"};
  tb.put("20240101050000000.replacecommit.requested", delete_partition_requested().value());
  tb.put("20240101050000000.replacecommit.inflight", delete_partition_inflight(TimelineLayout::v1).value());
  tb.put("20240101050000000.replacecommit", delete_partition_completed(TimelineLayout::v1, c).value());
  auto entries = archive_entries(tb.storage, tb.props, tb.where,
                                 {Instant{t("20240101050000000"), {}, Action::replacecommit, State::completed}});
  HUDI_REQUIRE_OK(entries);
  REQUIRE(entries->size() == 3);
  const auto& e = *entries;
  CHECK(e[0].entry.field("hoodieRequestedReplaceMetadata").field("operationType").as_string() == "DELETE_PARTITION");
  CHECK(e[1].entry.field("HoodieInflightReplaceMetadata").field("operationType").as_string() == "DELETE_PARTITION");
  CHECK(e[1].entry.field("hoodieCommitMetadata").is_null());
  CHECK(e[2].entry.field("hoodieReplaceCommitMetadata").field("partitionToReplaceFileIds").size() == 1);
  CHECK(e[2].entry.field("actionType").as_string() == "replacecommit");
  HUDI_REQUIRE_OK(execute_archive(tb.storage, tb.props, tb.where, std::move(*entries)));
  const auto back = read_archived_timeline(tb.storage, tb.props);
  HUDI_REQUIRE_OK(back);
  REQUIRE(back->commits.count(t("20240101050000000")) == 1);
  CHECK(back->commits.at(t("20240101050000000")).partition_to_replace_file_ids == c.partition_to_replace_file_ids);
  CHECK(tb.files_under(".hoodie/2024").empty());
}

TEST_CASE("a new archive file per run after the newest, blocks of hoodie.commits.archival.batch, markers deleted") {
  table tb;
  tb.fill();
  REQUIRE(tb.storage.write_if_absent(".hoodie/archived/.commits_.archive.3_1-0-1", "").ok());
  REQUIRE(tb.storage.write_if_absent(".hoodie/archived/.commits_.archive.2_1-0-1", "").ok());
  REQUIRE(tb.storage.write_if_absent(".hoodie/.temp/20240101000000000/2024/01/01/f1.parquet.marker.CREATE", "").ok());
  REQUIRE(tb.storage.write_if_absent(".hoodie/.temp/20240101040000000/x.marker.CREATE", "").ok());
  tb.props.raw["hoodie.archivelog.folder"] = "history";
  ArchiveWriteOptions o;
  o.batch = 5;
  const auto done = tb.run(o);
  HUDI_REQUIRE_OK(done);
  CHECK(done->archive_files_written == std::vector<std::string>{".hoodie/history/.commits_.archive.1_1-0-1"});
  // The folder is hoodie.archivelog.folder's: the files in .hoodie/archived are not its.
  const auto blocks = log::read_blocks(tb.storage.read(done->archive_files_written[0]).value(), "archive");
  HUDI_REQUIRE_OK(blocks);
  CHECK(blocks->size() == 3);  // 5 + 5 + 2
  CHECK(done->markers_deleted == std::vector<std::string>{".hoodie/.temp/20240101000000000"});
  CHECK(tb.files_under(".hoodie/.temp") == std::vector<std::string>{".hoodie/.temp/20240101040000000/x.marker.CREATE"});

  table next;
  next.fill();
  REQUIRE(next.storage.write_if_absent(".hoodie/archived/.commits_.archive.3_1-0-1", "").ok());
  REQUIRE(next.storage.write_if_absent(".hoodie/archived/.commits_.archive.2_1-0-1", "").ok());
  const auto again = next.run();
  HUDI_REQUIRE_OK(again);
  CHECK(again->archive_files_written == std::vector<std::string>{".hoodie/archived/.commits_.archive.4_1-0-1"});

  ArchiveWriteOptions tiny;
  tiny.batch = 4;
  tiny.rollover_bytes = 1;  // each block passes it: one file per block
  table roll;
  roll.fill();
  const auto rolled = roll.run(tiny);
  HUDI_REQUIRE_OK(rolled);
  CHECK(rolled->archive_files_written == std::vector<std::string>{".hoodie/archived/.commits_.archive.1_1-0-1",
                                                                  ".hoodie/archived/.commits_.archive.2_1-0-1",
                                                                  ".hoodie/archived/.commits_.archive.3_1-0-1"});
  const auto back = read_archived_timeline(roll.storage, roll.props);
  HUDI_REQUIRE_OK(back);
  CHECK(back->instants.size() == 12);
}

TEST_CASE("a crash after any change: the rerun finishes, nothing archived twice") {
  table reference;
  reference.fill();
  HUDI_REQUIRE_OK(reference.run());
  const auto want_active = reference.files_under(".hoodie/2024");
  const auto want_archived = read_archived_timeline(reference.storage, reference.props).value();

  // 1 archive file + 12 deletes (no markers).
  for (std::uint64_t n = 0; n <= 13; ++n) {
    CAPTURE(n);
    table tb;
    tb.fill();
    tb.storage.crash_after_mutations(n);
    (void)tb.run();
    tb.storage.recover();
    // What the crash left: never a completed instant missing its completed file
    // while its requested or inflight file stays (it would look pending).
    for (const char* completed :
         {"20240101000000000.commit", "20240101010000000.clean", "20240101020000000.rollback"}) {
      const std::string c = std::string(".hoodie/") + completed;
      const std::string stem = c.substr(0, c.rfind('.'));
      if (!tb.storage.stat(c).ok()) {
        CHECK_FALSE(tb.storage.stat(stem + ".inflight").ok());
        CHECK_FALSE(tb.storage.stat(c + ".inflight").ok());
        CHECK_FALSE(tb.storage.stat(c + ".requested").ok());
      }
    }
    // The rerun plans on what is left: the instants whose completed file remains.
    std::vector<Instant> left;
    for (const Instant& i : tb.archived()) {
      const std::string file = i.action == Action::clean      ? ".clean"
                               : i.action == Action::rollback ? ".rollback"
                                                              : ".commit";
      if (tb.storage.stat(fmt::format(".hoodie/{}{}", i.requested, file)).ok()) left.push_back(i);
    }
    // Once the archive file is written, those are what interrupted_archival finds.
    if (n >= 1) {
      const auto active = load_timeline(tb.storage, tb.props, tb.where);
      HUDI_REQUIRE_OK(active);
      const auto archive = read_archived_timeline(tb.storage, tb.props);
      HUDI_REQUIRE_OK(archive);
      std::vector<InstantTime> resumed, want;
      for (const Instant& i : interrupted_archival(*archive, *active)) resumed.push_back(i.requested);
      for (const Instant& i : left) want.push_back(i.requested);
      CHECK(resumed == want);
    }
    auto entries = archive_entries(tb.storage, tb.props, tb.where, left);
    HUDI_REQUIRE_OK(entries);
    HUDI_REQUIRE_OK(execute_archive(tb.storage, tb.props, tb.where, std::move(*entries)));
    CHECK(tb.files_under(".hoodie/2024") == want_active);
    const auto got = read_archived_timeline(tb.storage, tb.props);
    HUDI_REQUIRE_OK(got);
    REQUIRE(got->instants.size() == want_archived.instants.size());
    for (std::size_t i = 0; i < got->instants.size(); ++i) {
      CHECK(got->instants[i].requested == want_archived.instants[i].requested);
      CHECK(got->instants[i].state == want_archived.instants[i].state);
    }
  }
}

TEST_CASE("refused with nothing changed: layout 2, a record Hudi would migrate, content that does not convert") {
  {
    table tb;
    tb.fill();
    tb.props.layout = TimelineLayout::v2;
    CHECK(to_string(tb.run().status()).find("LSM history") != std::string::npos);
  }
  {
    table tb;
    tb.fill();
    REQUIRE(tb.storage.remove(".hoodie/20240101030000000.compaction.requested").ok());
    tb.put("20240101030000000.compaction.requested", compaction_plan(1));
    const std::size_t before = tb.storage.file_count();
    const auto st = archive_entries(tb.storage, tb.props, tb.where, tb.archived()).status();
    CHECK(st.code() == absl::StatusCode::kFailedPrecondition);
    CHECK(to_string(st) ==
          "/t/.hoodie/20240101030000000.compaction.requested: org.apache.hudi.avro.model.HoodieCompactionPlan "
          "version 1: Hudi migrates it to version 2 before archiving it, which lakegc does not");
    CHECK(tb.storage.file_count() == before);
  }
  {
    table tb;
    tb.put("20240101000000000.commit",
           R"({"partitionToWriteStats":{"p":[{"fileId":"f","numWrites":"many"}]},"operationType":"UPSERT"})");
    const auto st = archive_entries(tb.storage, tb.props, tb.where,
                                    {Instant{t("20240101000000000"), {}, Action::commit, State::completed}})
                        .status();
    CHECK(to_string(st) ==
          "/t/.hoodie/20240101000000000.commit: HoodieCommitMetadata: partitionToWriteStats: [\"p\"]: [0]: "
          "numWrites: expected long, found string");
  }
  {
    // Without an operationType the file is Hudi's empty default instance: no metadata.
    table tb;
    tb.put("20240101000000000.commit", R"({"partitionToWriteStats":{}})");
    const auto e = archive_entries(tb.storage, tb.props, tb.where,
                                   {Instant{t("20240101000000000"), {}, Action::commit, State::completed}});
    HUDI_REQUIRE_OK(e);
    REQUIRE(e->size() == 1);
    CHECK((*e)[0].entry.field("hoodieCommitMetadata").is_null());
  }
}

}  // namespace lakegc::tests::archive_execute_test
