// Fuzz target: hudi::decode_commit_metadata, the reader of commit,
// deltacommit and replacecommit files: layout-1 JSON (simdjson) and
// layout-2 Avro containers. The fuzz finding in
// ../shared/data/fuzz-findings/commit-metadata-avro-duplicate-named-type.avro
// is replayed through this target by the test command. Round trip where
// lakegc writes the format (the DELETE_PARTITION replacecommit of `lakegc
// ttl --execute`, hudi/delete_partition_commit.hpp): the replaced file
// groups that were read, written as a completed replacecommit in either
// layout, read back as that replacecommit. The journal's own decoder
// (decode_commit_info, which keeps a file name and a size per write stat) must
// agree with the full one on every input: the same error, or the same files.
#include "../target.hpp"
#include "lakegc/hudi/delete_partition_commit.hpp"
#include "lakegc/hudi/load_metadata.hpp"
#include "lakegc/hudi/metadata_codec.hpp"

namespace {

std::optional<std::string> commit_metadata_seed(const std::filesystem::path& relative, std::string_view contents) {
  return lakegc::fuzz::bytes_if(
      lakegc::fuzz::is_timeline_file(relative) && relative.filename().string().find("commit") != std::string::npos,
      contents);
}

void replacecommit_round_trip(const lakegc::hudi::CommitMetadata& read) {
  namespace hudi = lakegc::hudi;
  hudi::CommitMetadata expected;
  expected.partition_to_replace_file_ids = read.partition_to_replace_file_ids;
  expected.operation_type = std::string(hudi::kDeletePartitionOperation);
  const hudi::DeletePartitionCommit c{read.partition_to_replace_file_ids, "{\"type\":\"null\"}"};
  for (const auto layout : {lakegc::TimelineLayout::v1, lakegc::TimelineLayout::v2}) {
    auto bytes = hudi::delete_partition_completed(layout, c);
    if (!bytes.ok()) {
      if (bytes.status().code() == absl::StatusCode::kInvalidArgument) continue;
      lakegc::fuzz::fail("replacecommit: the writer failed with {}", bytes.status().ToString());
    }
    auto back = hudi::decode_commit_metadata(*bytes, "fuzz.replacecommit");
    if (!back.ok())
      lakegc::fuzz::fail("replacecommit: what the writer wrote does not decode: {}", back.status().ToString());
    if (!(*back == expected))
      lakegc::fuzz::fail("replacecommit (layout {}): decode(encode(x)) != x", static_cast<int>(layout));
  }
}

void journal_decoder_agrees(const absl::StatusOr<lakegc::hudi::CommitMetadata>& full, std::string_view data) {
  namespace hudi = lakegc::hudi;
  const auto info = hudi::detail::decode_commit_info(data, "fuzz.commit");
  if (info.status() != full.status()) {
    lakegc::fuzz::fail("decode_commit_info says '{}', decode_commit_metadata '{}'", info.status().ToString(),
                       full.status().ToString());
  }
  if (!full.ok()) return;
  std::vector<lakegc::WrittenFile> files;
  for (const auto& ws : full->write_stats) {
    if (!ws.path.empty()) files.push_back({ws.partition_path, hudi::detail::file_name_of(ws.path), ws.file_size_bytes});
  }
  if (info->files != files) lakegc::fuzz::fail("decode_commit_info's files differ from decode_commit_metadata's");
}

}  // namespace

LAKEGC_FUZZ_TARGET(commit_metadata) {
  auto m = lakegc::hudi::decode_commit_metadata(data, "fuzz.commit");
  journal_decoder_agrees(m, data);
  if (m.ok()) replacecommit_round_trip(*m);
  return m.status();
}
