// Fuzz target: hudi::decode_commit_metadata, the reader of commit,
// deltacommit and replacecommit files: layout-1 JSON (simdjson) and
// layout-2 Avro containers. The fuzz finding in
// ../shared/data/fuzz-findings/commit-metadata-avro-duplicate-named-type.avro
// is replayed through this target by the test command.
#include "../target.hpp"
#include "lakegc/hudi/metadata_codec.hpp"

namespace {

std::optional<std::string> commit_metadata_seed(const std::filesystem::path& relative, std::string_view contents) {
  return lakegc::fuzz::bytes_if(
      lakegc::fuzz::is_timeline_file(relative) && relative.filename().string().find("commit") != std::string::npos,
      contents);
}

}  // namespace

LAKEGC_FUZZ_TARGET(commit_metadata) {
  auto m = lakegc::hudi::decode_commit_metadata(data, "fuzz.commit");
  return m.status();
}
