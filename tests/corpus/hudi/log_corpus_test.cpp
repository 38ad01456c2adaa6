// Every log file and HFile of the twelve real Spark-written tables reads:
// the blocks of each log file and the records of every block type the
// library decodes, the cells of every HFile of the v8 table's metadata
// table; the rollback block lakegc writes equals Hudi's; truncated and
// bit-flipped copies of real files return without a crash.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "corpus.hpp"
#include "lakegc/hudi/hfile/avro_records.hpp"
#include "lakegc/hudi/hfile/read_hfile.hpp"
#include "lakegc/hudi/log/avro_data_block.hpp"
#include "lakegc/hudi/log/command_block.hpp"
#include "lakegc/hudi/log/delete_block.hpp"
#include "lakegc/hudi/log/hfile_data_block.hpp"
#include "lakegc/hudi/log/read_blocks.hpp"
#include "lakegc/hudi/log/write_block.hpp"

namespace lakegc::tests::log_corpus_test {

namespace fs = std::filesystem;
using namespace lakegc::hudi;

namespace {

std::string message(const absl::Status& s) { return std::string(lakegc::message_of(s)); }

struct corpus_file {
  std::string table;
  std::string path;  ///< relative to the table root
  std::string bytes;
};

/// Log files and HFiles of every corpus table, data and metadata tables
/// alike, read once.
struct corpus_files {
  std::vector<corpus_file> logs;
  std::vector<corpus_file> hfiles;
};

const corpus_files& all_files() {
  static const corpus_files files = [] {
    corpus_files out;
    lakegc::testing::temp_dir tmp;
    for (const auto& table : lakegc::testing::corpus_tables()) {
      fs::create_directories(tmp.path() / table);
      const fs::path root = lakegc::testing::unzip_table(table, tmp.path() / table);
      for (const auto& e : fs::recursive_directory_iterator(root)) {
        if (!e.is_regular_file()) continue;
        const std::string name = e.path().filename().string();
        const std::string rel = fs::relative(e.path(), root).string();
        if (name.starts_with(".") && name.find(".log.") != std::string::npos) {
          out.logs.push_back({table, rel, lakegc::testing::file_contents(e.path())});
        } else if (name.ends_with(".hfile")) {
          out.hfiles.push_back({table, rel, lakegc::testing::file_contents(e.path())});
        }
      }
    }
    auto order = [](const corpus_file& a, const corpus_file& b) {
      return std::tie(a.table, a.path) < std::tie(b.table, b.path);
    };
    std::sort(out.logs.begin(), out.logs.end(), order);
    std::sort(out.hfiles.begin(), out.hfiles.end(), order);
    return out;
  }();
  return files;
}

const corpus_file& find_log(std::string_view suffix) {
  for (const auto& f : all_files().logs) {
    if (f.path.ends_with(suffix)) return f;
  }
  FAIL("no log file ending in " << std::string(suffix));
  throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("every log file of every corpus table reads, and every block decodes") {
  std::map<log::block_type, int> blocks_by_type;
  std::size_t avro_records = 0, deletes = 0, hfile_records = 0, metadata_logs = 0;
  for (const auto& f : all_files().logs) {
    CAPTURE(f.table);
    CAPTURE(f.path);
    const auto blocks = log::read_blocks(f.bytes, f.path);
    REQUIRE_MESSAGE(blocks.ok(), message(blocks.status()));
    CHECK_FALSE(blocks->empty());
    if (f.path.starts_with(".hoodie/metadata/")) ++metadata_logs;
    std::size_t end = 0;
    for (const auto& b : *blocks) {
      ++blocks_by_type[b.type];
      CHECK(b.offset == end);
      end = b.offset + b.size;
      CHECK_FALSE(b.instant_time().empty());
      switch (b.type) {
        case log::block_type::avro_data: {
          const auto r = log::decode_avro_records(b, f.path);
          REQUIRE_MESSAGE(r.ok(), message(r.status()));
          avro_records += r->size();
          for (const auto& rec : *r) CHECK(rec.field("_hoodie_commit_time").as_string() == b.instant_time());
          break;
        }
        case log::block_type::delete_keys: {
          const auto r = log::decode_delete_records(b, f.path);
          REQUIRE_MESSAGE(r.ok(), message(r.status()));
          deletes += r->size();
          break;
        }
        case log::block_type::hfile_data: {
          const auto r = log::decode_hfile_records(b, f.path);
          REQUIRE_MESSAGE(r.ok(), message(r.status()));
          hfile_records += r->size();
          break;
        }
        case log::block_type::command: {
          const auto c = log::decode_command(b, f.path);
          REQUIRE_MESSAGE(c.ok(), message(c.status()));
          break;
        }
        case log::block_type::parquet_data:
          // Not decoded (no Parquet reader): a Parquet file with the SCHEMA header.
          CHECK(b.content.starts_with("PAR1"));
          CHECK(b.get(log::header_key::schema).has_value());
          break;
        default: FAIL("unexpected block type " << log::block_type_name(b.type));
      }
    }
    CHECK(end == f.bytes.size());
  }
  // Counted with a dump of the corpus: 77 log files, 63 of them in the v8
  // table's metadata table; one block each.
  CHECK(all_files().logs.size() == 77);
  CHECK(metadata_logs == 63);
  CHECK(blocks_by_type[log::block_type::hfile_data] == 35);
  CHECK(blocks_by_type[log::block_type::delete_keys] == 32);
  CHECK(blocks_by_type[log::block_type::avro_data] == 6);
  CHECK(blocks_by_type[log::block_type::parquet_data] == 3);
  CHECK(blocks_by_type[log::block_type::command] == 1);
  CHECK(blocks_by_type[log::block_type::corrupt] == 0);
  CHECK(avro_records == 6);
  CHECK(deletes == 8);
  CHECK(hfile_records == 224);
}

TEST_CASE("v6 MOR rollback: the rollback block targets the parquet block of the failed deltacommit") {
  const auto& data = find_log(".0712b9f9-d2d5-4cae-bcf4-8fd7146af503-0_20250126040823628.log.1_0-33-43");
  const auto& rollback = find_log(".0712b9f9-d2d5-4cae-bcf4-8fd7146af503-0_20250126040823628.log.2_1-0-1");
  const auto data_blocks = log::read_blocks(data.bytes, data.path);
  const auto rollback_blocks = log::read_blocks(rollback.bytes, rollback.path);
  REQUIRE(data_blocks.ok());
  REQUIRE(rollback_blocks.ok());
  REQUIRE(rollback_blocks->size() == 1);
  const auto c = log::decode_command(rollback_blocks->front(), rollback.path);
  REQUIRE(c.ok());
  CHECK(c->instant_time == "20250126040936578");
  CHECK(c->target_instant_time == "20250126040826878");
  CHECK(data_blocks->front().instant_time() == c->target_instant_time);

  // lakegc's rollback block for the same instants: the same block, and the
  // same bytes but for the order of the header entries.
  const log::log_block ours = log::make_rollback_block(c->instant_time, c->target_instant_time);
  log::log_block theirs = rollback_blocks->front();
  CHECK(theirs.header == ours.header);
  CHECK(theirs.footer == ours.footer);
  CHECK(theirs.content == ours.content);
  const auto bytes = log::encode_block(ours);
  REQUIRE(bytes.ok());
  CHECK(bytes->size() == rollback.bytes.size());
  CHECK(bytes->substr(0, 22) == rollback.bytes.substr(0, 22));  // magic, size, version, type
  CHECK(bytes->substr(bytes->size() - 20) == rollback.bytes.substr(rollback.bytes.size() - 20));
}

TEST_CASE("every HFile of the metadata table reads: gzip, CRC32C, cells match the trailer") {
  std::size_t cells = 0;
  for (const auto& f : all_files().hfiles) {
    CAPTURE(f.path);
    const auto h = hfile::read_hfile(f.bytes, f.path);
    REQUIRE_MESSAGE(h.ok(), message(h.status()));
    CHECK(h->info.major_version == 3);
    CHECK(h->info.compression == hfile::codec::gz);
    CHECK(h->checksum_type == 2);
    CHECK(h->info.data_index_levels == 1);
    CHECK(h->info.comparator == "org.apache.hudi.io.storage.HoodieHBaseKVComparator");
    CHECK(h->meta_blocks == std::vector<std::string>{"bloomFilter"});
    CHECK(h->file_info.contains("schema"));
    cells += h->cells.size();
    CHECK(std::is_sorted(h->cells.begin(), h->cells.end(),
                         [](const hfile::cell& a, const hfile::cell& b) { return a.key < b.key; }));
    const auto records = hfile::read_avro_hfile(f.bytes, f.path);
    REQUIRE_MESSAGE(records.ok(), message(records.status()));
    for (const auto& r : *records) CHECK(r.record.type_name() == "org.apache.hudi.avro.model.HoodieMetadataRecord");
  }
  CHECK(all_files().hfiles.size() == 24);
  CHECK(cells == 142);
}

TEST_CASE("every truncation of a real metadata log file returns blocks or corrupt blocks, never a crash") {
  const auto& f = find_log(".hoodie/metadata/files/.files-0000-0_20251220210130911.log.1_3-1149-3338");
  for (std::size_t n = 0; n < f.bytes.size(); ++n) {
    const auto blocks = log::read_blocks(std::string_view(f.bytes).substr(0, n), f.path);
    REQUIRE(blocks.ok());
    if (n > 0) {
      REQUIRE(blocks->size() == 1);
      CHECK(blocks->front().is_corrupt());
    }
  }
}

TEST_CASE("truncated and bit-flipped copies of a real HFile are errors, never a crash") {
  const corpus_file* base = nullptr;
  for (const auto& f : all_files().hfiles) {
    if (f.path.ends_with("files-0000-0_23-1133-3302_20251220210130942.hfile")) base = &f;
  }
  REQUIRE(base != nullptr);
  for (std::size_t n = 0; n < base->bytes.size(); ++n) {
    CHECK_FALSE(hfile::read_hfile(std::string_view(base->bytes).substr(0, n), "h").ok());
  }
  // A flip anywhere before the trailer breaks a checksum or a structure;
  // a flip in the trailer's zero padding changes nothing.
  std::string copy = base->bytes;
  const std::size_t trailer_at = copy.size() - hfile::trailer_size;
  for (std::size_t i = 0; i < copy.size(); ++i) {
    copy[i] = static_cast<char>(copy[i] ^ 0x10);
    const auto h = hfile::read_hfile(copy, "h");
    if (i < trailer_at) CHECK_FALSE(h.ok());
    if (h.ok()) (void)hfile::read_avro_hfile(copy, "h");
    copy[i] = static_cast<char>(copy[i] ^ 0x10);
  }
}

}  // namespace lakegc::tests::log_corpus_test
