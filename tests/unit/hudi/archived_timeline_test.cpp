// Layout 1's archived timeline. None of the corpus tables has archived
// anything (their .hoodie/archived/ folders are empty), so the archive files
// here are written with the library's log writer in the layout
// TimelineArchiverV1 writes: log files of Avro data blocks of
// HoodieArchivedMetaEntry, one record per archived instant file. The writer
// schema is a subset of Hudi's (readers look fields up by name).
#include "lakegc/hudi/archived_timeline.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "lakegc/hudi/log/avro_data_block.hpp"
#include "lakegc/hudi/log/write_block.hpp"
#include "lakegc/storage/memory_storage.hpp"
#include "test_util.hpp"

namespace lakegc::tests::archived_timeline_test {

using namespace lakegc::hudi;
using namespace lakegc::hudi::testing;
using avro::datum;
using lakegc::InstantTime;

namespace {

constexpr std::string_view kArchivedEntrySchema =
    R"({"type":"record","name":"HoodieArchivedMetaEntry","namespace":"org.apache.hudi.avro.model","fields":[)"
    R"({"name":"hoodieCommitMetadata","type":["null",{"type":"record","name":"HoodieCommitMetadata","fields":[)"
    R"({"name":"partitionToWriteStats","type":["null",{"type":"map","values":{"type":"array","items":)"
    R"({"type":"record","name":"HoodieWriteStat","fields":[{"name":"fileId","type":["null","string"]},)"
    R"({"name":"path","type":["null","string"]},{"name":"prevCommit","type":["null","string"]},)"
    R"({"name":"fileSizeInBytes","type":["null","long"]}]}}}]},)"
    R"({"name":"operationType","type":["null","string"]}]}],"default":null},)"
    R"({"name":"commitTime","type":["null","string"],"default":null},)"
    R"({"name":"actionType","type":["null","string"],"default":null},)"
    R"({"name":"version","type":["int","null"],"default":1},)"
    R"({"name":"actionState","type":["null","string"],"default":null},)"
    R"({"name":"stateTransitionTime","type":["null","string"],"default":null}]})";

datum entry(std::string time, std::string action, std::string state, std::string transition = "") {
  datum e = datum::make_record("org.apache.hudi.avro.model.HoodieArchivedMetaEntry");
  e.add("commitTime", datum::make_string(std::move(time)));
  e.add("actionType", datum::make_string(std::move(action)));
  e.add("version", datum::make_int(1));
  if (!state.empty()) e.add("actionState", datum::make_string(std::move(state)));
  if (!transition.empty()) e.add("stateTransitionTime", datum::make_string(std::move(transition)));
  return e;
}

datum with_commit(datum e, std::string file, std::int64_t size) {
  datum stat = datum::make_record("org.apache.hudi.avro.model.HoodieWriteStat");
  stat.add("fileId", datum::make_string("f1-0"));
  stat.add("path", datum::make_string("2024/01/01/" + file));
  stat.add("prevCommit", datum::make_string("null"));
  stat.add("fileSizeInBytes", datum::make_long(size));
  datum stats = datum::make_array();
  stats.append(stat);
  datum by_partition = datum::make_map();
  by_partition.add("2024/01/01", stats);
  datum m = datum::make_record("org.apache.hudi.avro.model.HoodieCommitMetadata");
  m.add("partitionToWriteStats", by_partition);
  m.add("operationType", datum::make_string("UPSERT"));
  // Rebuild the entry with the metadata first, in the schema's field order.
  datum out = datum::make_record(std::string(e.type_name()));
  out.add("hoodieCommitMetadata", m);
  for (std::size_t i = 0; i < e.size(); ++i) out.add(e.keys()[i], e.elements()[i]);
  return out;
}

std::string archive_file(const std::vector<datum>& entries) {
  auto block = log::make_avro_data_block(kArchivedEntrySchema, entries, "20240102000000000");
  REQUIRE_MESSAGE(block.ok(), to_string(block.status()));
  auto bytes = log::encode_block(*block);
  REQUIRE_MESSAGE(bytes.ok(), to_string(bytes.status()));
  return *bytes;
}

}  // namespace

TEST_CASE("archived instants and commit metadata, oldest archive file first") {
  lakegc::memory_storage storage;
  TableProperties props;
  const std::string second = archive_file({entry("20240101020000000", "clean", "COMPLETED")});
  // A crashed archiver leaves a partial block behind: skipped and counted.
  const std::string first =
      archive_file(
          {entry("20240101000000000", "commit", "REQUESTED"), entry("20240101000000000", "commit", "INFLIGHT"),
           with_commit(entry("20240101000000000", "commit", "COMPLETED", "20240101000005000"), "a.parquet", 42),
           with_commit(entry("20240101010000000", "deltacommit", ""), "b.parquet", 7)}) +
      second.substr(0, 50);
  REQUIRE(storage.write_if_absent(".hoodie/archived/.commits_.archive.2_1-0-1", second).ok());
  REQUIRE(storage.write_if_absent(".hoodie/archived/.commits_.archive.1_1-0-1", first).ok());
  REQUIRE(storage.write_if_absent(".hoodie/archived/.commits_.archive.10_1-0-1", second).ok());
  REQUIRE(storage.write_if_absent(".hoodie/archived/mergeArchivePlan", "x").ok());

  const auto t = read_archived_timeline(storage, props);
  HUDI_REQUIRE_OK(t);
  CHECK(t->files == std::vector<std::string>{".hoodie/archived/.commits_.archive.1_1-0-1",
                                             ".hoodie/archived/.commits_.archive.2_1-0-1",
                                             ".hoodie/archived/.commits_.archive.10_1-0-1"});
  CHECK(t->corrupt_blocks == 1);
  REQUIRE(t->instants.size() == 6);
  CHECK(t->instants[0].state == lakegc::State::requested);
  CHECK(t->instants[1].state == lakegc::State::inflight);
  CHECK(t->instants[2].state == lakegc::State::completed);
  CHECK(t->instants[2].completed == InstantTime::parse("20240101000005000").value());
  // No actionState (archives before Hudi 0.9): a completed instant.
  CHECK(t->instants[3].action == lakegc::Action::deltacommit);
  CHECK(t->instants[3].state == lakegc::State::completed);
  CHECK_FALSE(t->instants[3].completed.has_value());
  CHECK(t->instants[4].action == lakegc::Action::clean);
  REQUIRE(t->commits.size() == 2);
  const auto& c = t->commits.at(InstantTime::parse("20240101000000000").value());
  REQUIRE(c.write_stats.size() == 1);
  CHECK(c.write_stats[0].partition_path == "2024/01/01");
  CHECK(c.write_stats[0].file_size_bytes == 42);
  CHECK(c.operation_type == "UPSERT");
}

TEST_CASE("no archive folder is an empty archived timeline; a bad entry is an error naming it") {
  lakegc::memory_storage storage;
  TableProperties props;
  const auto none = read_archived_timeline(storage, props);
  HUDI_REQUIRE_OK(none);
  CHECK(none->instants.empty());

  REQUIRE(storage
              .write_if_absent(".hoodie/archived/.commits_.archive.1_1-0-1",
                               archive_file({entry("20240101000000000", "commit", "DONE")}))
              .ok());
  CHECK(to_string(read_archived_timeline(storage, props).status()) ==
        ".hoodie/archived/.commits_.archive.1_1-0-1: AVRO_DATA_BLOCK at byte 0, record 0: actionState 'DONE' is "
        "not REQUESTED, INFLIGHT or COMPLETED");

  props.raw["hoodie.archivelog.folder"] = "../elsewhere";
  CHECK(read_archived_timeline(storage, props).status().code() == absl::StatusCode::kInvalidArgument);
}

}  // namespace lakegc::tests::archived_timeline_test
