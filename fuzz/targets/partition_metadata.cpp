// Fuzz target: hudi::read_partition_metadata, the reader of
// `<partition>/.hoodie_partition_metadata` (Java properties: commitTime,
// partitionDepth) that partition TTL (KEEP_BY_CREATION_TIME) and
// plan/partition_creation.hpp rely on. Round trip: what was read, written
// back as lakegc's table writer writes the file (hudi/writer.hpp: the
// commitTime through InstantTime's formatter), reads back the same.
#include <fmt/format.h>

#include "../target.hpp"
#include "lakegc/hudi/partition_metadata.hpp"
#include "lakegc/storage/memory_storage.hpp"

namespace {

std::optional<std::string> partition_metadata_seed(const std::filesystem::path& relative, std::string_view contents) {
  return lakegc::fuzz::bytes_if(relative.filename() == ".hoodie_partition_metadata", contents);
}

lakegc::StatusOr<lakegc::hudi::PartitionMetadata> read_partition(std::string_view bytes) {
  lakegc::memory_storage storage;
  if (auto st = storage.write_if_absent("p=1/.hoodie_partition_metadata", bytes); !st.ok()) {
    lakegc::fuzz::fail("memory storage: {}", st.ToString());
  }
  return lakegc::hudi::read_partition_metadata(storage, lakegc::hudi::TableLocation::of("/fuzz/table"), "p=1");
}

}  // namespace

LAKEGC_FUZZ_TARGET(partition_metadata) {
  auto m = read_partition(data);
  if (!m.ok()) return m.status();
  std::string text = "#partition metadata\n";
  if (m->commit_time) text += fmt::format("commitTime={}\n", *m->commit_time);
  if (m->depth) text += fmt::format("partitionDepth={}\n", *m->depth);
  auto back = read_partition(text);
  if (!back.ok()) lakegc::fuzz::fail("what was read does not read back: {}", back.status().ToString());
  if (back->commit_time != m->commit_time || back->depth != m->depth) lakegc::fuzz::fail("read(write(x)) != x");
  return lakegc::Status();
}
