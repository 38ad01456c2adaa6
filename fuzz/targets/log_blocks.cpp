// Fuzz target: the log-file reader (hudi/log/read_blocks.hpp) and the
// decoder of each block kind it yields (Avro data, delete, command, HFile
// data), as the metadata table's log scan reads them. Round trip where
// lakegc writes log blocks (hudi/log/write_block.hpp): every block that was
// read encodes back to bytes that read as that one block.
#include "../target.hpp"
#include "lakegc/hudi/log/avro_data_block.hpp"
#include "lakegc/hudi/log/command_block.hpp"
#include "lakegc/hudi/log/delete_block.hpp"
#include "lakegc/hudi/log/hfile_data_block.hpp"
#include "lakegc/hudi/log/read_blocks.hpp"
#include "lakegc/hudi/log/write_block.hpp"

namespace {

std::optional<std::string> log_blocks_seed(const std::filesystem::path& relative, std::string_view contents) {
  return lakegc::fuzz::bytes_if(relative.filename().string().find(".log.") != std::string::npos, contents);
}

void decode_content(const lakegc::hudi::log::log_block& b) {
  namespace log = lakegc::hudi::log;
  const std::string_view file = "fuzz.log";
  switch (b.type) {
    case log::block_type::avro_data:
    case log::block_type::cdc_data: (void)lakegc::fuzz::checked(log::decode_avro_records(b, file).status()); break;
    case log::block_type::delete_keys: (void)lakegc::fuzz::checked(log::decode_delete_records(b, file).status()); break;
    case log::block_type::command: (void)lakegc::fuzz::checked(log::decode_command(b, file).status()); break;
    case log::block_type::hfile_data: (void)lakegc::fuzz::checked(log::decode_hfile_records(b, file).status()); break;
    default: break;
  }
}

void round_trip(const lakegc::hudi::log::log_block& b) {
  namespace log = lakegc::hudi::log;
  auto bytes = log::encode_block(b);
  if (!bytes.ok()) lakegc::fuzz::fail("a block that was read does not encode: {}", bytes.status().ToString());
  auto back = log::read_blocks(*bytes, "fuzz.roundtrip");
  if (!back.ok()) lakegc::fuzz::fail("an encoded block does not read: {}", back.status().ToString());
  if (back->size() != 1) lakegc::fuzz::fail("an encoded block reads as {} blocks", back->size());
  const log::log_block& r = back->front();
  if (r.type != b.type || r.header != b.header || r.footer != b.footer || r.content != b.content) {
    lakegc::fuzz::fail("block at byte {}: read(encode(b)) != b", b.offset);
  }
}

}  // namespace

LAKEGC_FUZZ_TARGET(log_blocks) {
  auto blocks = lakegc::hudi::log::read_blocks(data, "fuzz.log");
  if (!blocks.ok()) return blocks.status();
  for (const auto& b : *blocks) {
    if (b.is_corrupt()) continue;
    decode_content(b);
    round_trip(b);
  }
  return lakegc::Status();
}
