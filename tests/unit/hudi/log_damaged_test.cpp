// Damaged log files: every truncation and every bit flip of a small log
// file returns (blocks, corrupt blocks or an error, never a crash), the
// blocks before the damage still read, and damage shows up as Hudi's
// reader would treat it.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "lakegc/hudi/byte_cursor.hpp"
#include "lakegc/hudi/log/avro_data_block.hpp"
#include "lakegc/hudi/log/command_block.hpp"
#include "lakegc/hudi/log/delete_block.hpp"
#include "lakegc/hudi/log/read_blocks.hpp"
#include "lakegc/hudi/log/write_block.hpp"
#include "test_util.hpp"

namespace lakegc::tests::log_damaged_test {

using namespace lakegc::hudi;
using namespace lakegc::hudi::testing;
using avro::datum;

namespace {

constexpr std::string_view kSchema =
    R"({"type":"record","name":"R","fields":[{"name":"key","type":"string"},{"name":"n","type":"long"}]})";

std::string block_bytes(const lakegc::StatusOr<log::log_block>& b) {
  REQUIRE_MESSAGE(b.ok(), to_string(b.status()));
  auto bytes = log::encode_block(*b);
  REQUIRE_MESSAGE(bytes.ok(), to_string(bytes.status()));
  return *bytes;
}

/// Three blocks: data, delete, rollback. Their end offsets in `ends`.
std::string sample_log(std::vector<std::size_t>& ends) {
  std::vector<datum> records;
  for (int i = 0; i < 3; ++i) {
    datum r = datum::make_record("R");
    r.add("key", datum::make_string("key-" + std::to_string(i)));
    r.add("n", datum::make_long(i * 1000));
    records.push_back(r);
  }
  std::string file = block_bytes(log::make_avro_data_block(kSchema, records, "20250101000000000"));
  ends.push_back(file.size());
  const std::vector<log::delete_record> deletes = {{"key-1", "p", datum()}};
  file += block_bytes(log::make_delete_block(deletes, "20250101000001000"));
  ends.push_back(file.size());
  file += block_bytes(lakegc::StatusOr<log::log_block>(log::make_rollback_block("20250101000002000", "x")));
  ends.push_back(file.size());
  return file;
}

/// Decodes every block of `blocks` with the decoder of its type; each may
/// fail, but must return.
void decode_each(const std::vector<log::log_block>& blocks) {
  for (const auto& b : blocks) {
    switch (b.type) {
      case log::block_type::avro_data: (void)log::decode_avro_records(b, "f"); break;
      case log::block_type::delete_keys: (void)log::decode_delete_records(b, "f"); break;
      case log::block_type::command: (void)log::decode_command(b, "f"); break;
      default: break;
    }
  }
}

}  // namespace

TEST_CASE("truncated at every byte offset: the complete blocks read, the rest is one corrupt block") {
  std::vector<std::size_t> ends;
  const std::string file = sample_log(ends);
  for (std::size_t n = 0; n <= file.size(); ++n) {
    CAPTURE(n);
    const auto blocks = log::read_blocks(std::string_view(file).substr(0, n), "t.log");
    HUDI_REQUIRE_OK(blocks);
    std::size_t complete = 0;
    while (complete < ends.size() && ends[complete] <= n) ++complete;
    const bool partial = n != 0 && (complete == 0 ? true : ends[complete - 1] != n);
    REQUIRE(blocks->size() == complete + (partial ? 1 : 0));
    for (std::size_t i = 0; i < complete; ++i) CHECK_FALSE((*blocks)[i].is_corrupt());
    if (partial) {
      const log::log_block& tail = blocks->back();
      CHECK(tail.is_corrupt());
      CHECK(tail.offset == (complete == 0 ? 0 : ends[complete - 1]));
      CHECK(tail.offset + tail.size == n);
      CHECK_FALSE(tail.corrupt_reason.empty());
    }
    decode_each(*blocks);
  }
}

TEST_CASE("a block damaged in the middle of a file is corrupt, and reading goes on after it") {
  std::vector<std::size_t> ends;
  std::string file = sample_log(ends);
  // Cut 5 bytes out of the first block: its size now runs into the second.
  file.erase(40, 5);
  const auto blocks = log::read_blocks(file, "m.log");
  HUDI_REQUIRE_OK(blocks);
  REQUIRE(blocks->size() == 3);
  CHECK((*blocks)[0].is_corrupt());
  CHECK((*blocks)[0].offset == 0);
  CHECK((*blocks)[1].type == log::block_type::delete_keys);
  CHECK((*blocks)[1].offset == ends[0] - 5);
  CHECK((*blocks)[2].type == log::block_type::command);
}

TEST_CASE("garbage before the first magic and a short tail are corrupt blocks") {
  std::vector<std::size_t> ends;
  const std::string file = sample_log(ends);
  const auto blocks = log::read_blocks("garbage" + file + "#HU", "g.log");
  HUDI_REQUIRE_OK(blocks);
  REQUIRE(blocks->size() == 5);
  CHECK((*blocks)[0].is_corrupt());
  CHECK((*blocks)[0].corrupt_reason == "no magic where a block starts");
  CHECK((*blocks)[0].size == 7);
  CHECK((*blocks)[4].is_corrupt());
  CHECK((*blocks)[4].corrupt_reason == "3 bytes at the end are too short for a block");
  CHECK(log::read_blocks("", "empty.log")->empty());
}

TEST_CASE("a well-framed block with a damaged inside is an error naming the file and offset") {
  std::vector<std::size_t> ends;
  std::string file = sample_log(ends);
  std::string bad_type = file;
  bad_type.replace(ends[0] + 18, 4, std::string("\0\0\0\x09", 4));  // second block's type: 9
  CHECK(to_string(log::read_blocks(bad_type, "b.log").status()) ==
        fmt::format("b.log: block type 9 at byte {} is not one Hudi defines", ends[0] + 18));
  std::string bad_version = file;
  bad_version[17] = 2;  // first block's log format version
  CHECK(log::read_blocks(bad_version, "b.log").status().code() == absl::StatusCode::kUnimplemented);
  std::string bad_key = file;
  bad_key.replace(26, 4, std::string("\0\0\0\x30", 4));  // first header key: 48
  CHECK(to_string(log::read_blocks(bad_key, "b.log").status()) ==
        "b.log: header key 48 at byte 26 is not one Hudi defines");
}

TEST_CASE("every single-bit flip of a small log file returns") {
  std::vector<std::size_t> ends;
  std::string file = sample_log(ends);
  for (std::size_t i = 0; i < file.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      file[i] = static_cast<char>(file[i] ^ (1 << bit));
      const auto blocks = log::read_blocks(file, "f.log");
      if (blocks.ok()) decode_each(*blocks);
      file[i] = static_cast<char>(file[i] ^ (1 << bit));
    }
  }
}

}  // namespace lakegc::tests::log_damaged_test
