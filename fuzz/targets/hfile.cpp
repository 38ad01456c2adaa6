// Fuzz target: the HFile v3 reader (hudi/hfile/: trailer, protobuf file
// info, block index, gzip blocks, cells) and the Avro records of its cells,
// as the metadata table's base files are read.
#include "../target.hpp"
#include "lakegc/hudi/hfile/avro_records.hpp"
#include "lakegc/hudi/hfile/read_hfile.hpp"

namespace {

std::optional<std::string> hfile_seed(const std::filesystem::path& relative, std::string_view contents) {
  return lakegc::fuzz::bytes_if(relative.extension() == ".hfile", contents);
}

}  // namespace

LAKEGC_FUZZ_TARGET(hfile) { return lakegc::hudi::hfile::read_avro_hfile(data, "fuzz.hfile").status(); }
