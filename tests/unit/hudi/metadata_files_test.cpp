// The metadata table's files partition: how two versions of a key merge
// (Hudi's combineFileSystemMetadata), and which log blocks a scan keeps
// (valid instants, rollbacks, corrupt blocks, deletes).
#include "lakegc/hudi/metadata_table/files_record.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "lakegc/hudi/log/avro_data_block.hpp"
#include "lakegc/hudi/log/command_block.hpp"
#include "lakegc/hudi/log/delete_block.hpp"
#include "lakegc/hudi/log/write_block.hpp"
#include "lakegc/hudi/metadata_table/log_scan.hpp"
#include "lakegc/storage/memory_storage.hpp"
#include "test_util.hpp"

namespace lakegc::tests::metadata_files_test {

using namespace lakegc::hudi;
using namespace lakegc::hudi::metadata_table;
using namespace lakegc::hudi::testing;
using avro::datum;

namespace {

files_payload listing(std::map<std::string, file_entry> entries, std::int32_t type = file_list_type) {
  files_payload p;
  p.type = type;
  p.entries = std::move(entries);
  return p;
}

files_payload merged(const files_payload& older, const files_payload& newer) {
  auto r = combine(older, newer, "p");
  REQUIRE_MESSAGE(r.ok(), to_string(r.status()));
  return *r;
}

// HoodieMetadataRecord, reduced to the fields the files partition uses.
constexpr std::string_view kMetadataRecordSchema =
    R"({"type":"record","name":"HoodieMetadataRecord","namespace":"org.apache.hudi.avro.model","fields":[)"
    R"({"name":"key","type":"string"},{"name":"type","type":"int"},)"
    R"({"name":"filesystemMetadata","type":["null",{"type":"map","values":{"type":"record",)"
    R"("name":"HoodieMetadataFileInfo","fields":[{"name":"size","type":"long"},{"name":"isDeleted","type":"boolean"}]}}]}]})";

datum files_record(std::string key, std::vector<std::tuple<std::string, std::int64_t, bool>> files) {
  datum r = datum::make_record("org.apache.hudi.avro.model.HoodieMetadataRecord");
  r.add("key", datum::make_string(std::move(key)));
  r.add("type", datum::make_int(file_list_type));
  datum m = datum::make_map();
  for (auto& [name, size, deleted] : files) {
    datum info = datum::make_record("org.apache.hudi.avro.model.HoodieMetadataFileInfo");
    info.add("size", datum::make_long(size));
    info.add("isDeleted", datum::make_bool(deleted));
    m.add(name, std::move(info));
  }
  r.add("filesystemMetadata", std::move(m));
  return r;
}

std::string bytes_of(const lakegc::StatusOr<log::log_block>& b) {
  REQUIRE_MESSAGE(b.ok(), to_string(b.status()));
  auto bytes = log::encode_block(*b);
  REQUIRE_MESSAGE(bytes.ok(), to_string(bytes.status()));
  return *bytes;
}

}  // namespace

TEST_CASE("files records merge as Hudi's combineFileSystemMetadata") {
  const files_payload base = listing({{"a.parquet", {100, false}}, {".a.log.1", {10, false}}});
  // A new file is added; a grown log keeps the larger size.
  CHECK(merged(base, listing({{"b.parquet", {200, false}}, {".a.log.1", {30, false}}})) ==
        listing({{"a.parquet", {100, false}}, {".a.log.1", {30, false}}, {"b.parquet", {200, false}}}));
  CHECK(merged(base, listing({{".a.log.1", {5, false}}})) == base);
  // A deletion removes a listed file...
  CHECK(merged(base, listing({{"a.parquet", {0, true}}})) == listing({{".a.log.1", {10, false}}}));
  // ...and stays as a tombstone when the older record does not list it,
  // so that it still removes the file from the base file's record later.
  const files_payload logs = merged(listing({{"b.parquet", {1, false}}}), listing({{"a.parquet", {0, true}}}));
  CHECK(logs == listing({{"b.parquet", {1, false}}, {"a.parquet", {0, true}}}));
  CHECK(merged(base, logs) == listing({{".a.log.1", {10, false}}, {"b.parquet", {1, false}}}));
  // Deleted, then written again: present.
  CHECK(merged(listing({{"a.parquet", {0, true}}}), listing({{"a.parquet", {7, false}}})) ==
        listing({{"a.parquet", {7, false}}}));
}

TEST_CASE("a deleted key replaces what came before; a later record replaces the deletion") {
  files_payload gone;
  gone.deleted_record = true;
  CHECK(merged(listing({{"a", {1, false}}}), gone) == gone);
  CHECK(merged(gone, listing({{"b", {2, false}}})) == listing({{"b", {2, false}}}));
  const auto mixed = combine(listing({}, partition_list_type), listing({}), "__all_partitions__");
  CHECK(to_string(mixed.status()) == "key '__all_partitions__': a record of type 2 follows one of type 1");
}

TEST_CASE("decode_files_record checks the record") {
  const auto ok = decode_files_record(files_record("p", {{"a", 5, false}, {"b", 0, true}}), "r");
  HUDI_REQUIRE_OK(ok);
  CHECK(*ok == listing({{"a", {5, false}}, {"b", {0, true}}}));
  datum wrong_type = files_record("p", {});
  wrong_type = datum::make_record("org.apache.hudi.avro.model.HoodieMetadataRecord");
  wrong_type.add("type", datum::make_int(3));
  CHECK(to_string(decode_files_record(wrong_type, "r").status()) ==
        "r: record type 3 does not belong in the files partition");
  CHECK(to_string(decode_files_record(files_record("p", {{"a", -1, false}}), "r").status()) ==
        "r: filesystemMetadata[\"a\"] is not {size >= 0, isDeleted}");
}

TEST_CASE("a log scan keeps valid blocks in order and skips failed, rolled-back and corrupt ones") {
  lakegc::memory_storage storage;
  const std::vector<datum> first = {files_record("p", {{"a.parquet", 10, false}})};
  const std::vector<datum> failed = {files_record("p", {{"x.parquet", 1, false}})};
  const std::vector<datum> rolled = {files_record("p", {{"y.parquet", 1, false}})};
  const std::vector<log::delete_record> deletes = {{"q", std::nullopt, datum()}};
  std::string log1 = bytes_of(log::make_avro_data_block(kMetadataRecordSchema, first, "100")) +
                     bytes_of(log::make_avro_data_block(kMetadataRecordSchema, failed, "200")) +
                     bytes_of(log::make_avro_data_block(kMetadataRecordSchema, rolled, "300"));
  const std::string good_tail = bytes_of(log::make_delete_block(deletes, "400"));
  log1 += good_tail.substr(0, good_tail.size() - 3);  // a crashed append
  const std::string log2 = bytes_of(lakegc::StatusOr<log::log_block>(log::make_rollback_block("500", "300"))) +
                           bytes_of(log::make_delete_block(deletes, "400"));
  REQUIRE(storage.write_if_absent("files/.f_1.log.1_0-0-0", log1).ok());
  REQUIRE(storage.write_if_absent("files/.f_1.log.2_0-0-0", log2).ok());

  const std::vector<std::string> logs = {"files/.f_1.log.1_0-0-0", "files/.f_1.log.2_0-0-0"};
  const auto scan =
      scan_logs(storage, std::span<const std::string>(logs), [](std::string_view instant) { return instant != "200"; });
  HUDI_REQUIRE_OK(scan);
  CHECK(scan->blocks_read == 6);
  CHECK(scan->corrupt_blocks == 1);
  CHECK(scan->invalid_instant_blocks == 1);
  CHECK(scan->rolled_back_blocks == 1);
  CHECK(scan->skipped.size() == 3);
  REQUIRE(scan->records.size() == 2);
  CHECK(scan->records[0].key == "p");
  CHECK(scan->records[0].instant == "100");
  REQUIRE(scan->records[0].record.has_value());
  CHECK(scan->records[1].key == "q");
  CHECK_FALSE(scan->records[1].record.has_value());
}

TEST_CASE("a rollback block drops the blocks of its target before it, not those written again after it") {
  // Hudi's forward pass (BaseHoodieLogRecordReader.scanInternalV2) removes
  // the target's blocks seen so far; a version-6 metadata table that rolls
  // back a clean's deltacommit and writes it again puts the new block after
  // the rollback block, and readers take it.
  lakegc::memory_storage storage;
  const std::vector<datum> old_try = {files_record("p", {{"old.parquet", 1, false}})};
  const std::vector<datum> new_try = {files_record("p", {{"new.parquet", 2, false}})};
  const std::string log1 = bytes_of(log::make_avro_data_block(kMetadataRecordSchema, old_try, "300"));
  const std::string log2 = bytes_of(lakegc::StatusOr<log::log_block>(log::make_rollback_block("400", "300")));
  const std::string log3 = bytes_of(log::make_avro_data_block(kMetadataRecordSchema, new_try, "300"));
  REQUIRE(storage.write_if_absent("files/.f_1.log.1_0-0-0", log1).ok());
  REQUIRE(storage.write_if_absent("files/.f_1.log.2_0-0-0", log2).ok());
  REQUIRE(storage.write_if_absent("files/.f_1.log.3_0-0-0", log3).ok());
  const std::vector<std::string> logs = {"files/.f_1.log.1_0-0-0", "files/.f_1.log.2_0-0-0", "files/.f_1.log.3_0-0-0"};
  const auto scan = scan_logs(storage, std::span<const std::string>(logs), [](std::string_view) { return true; });
  HUDI_REQUIRE_OK(scan);
  CHECK(scan->rolled_back_blocks == 1);
  REQUIRE(scan->records.size() == 1);
  REQUIRE(scan->records[0].record.has_value());
  const auto kept = decode_files_record(*scan->records[0].record, "r");
  HUDI_REQUIRE_OK(kept);
  CHECK(*kept == listing({{"new.parquet", {2, false}}}));
}

}  // namespace lakegc::tests::metadata_files_test
