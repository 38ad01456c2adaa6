// Fuzz target: read_inventory (plan/inventory.hpp), the listing-free input
// of the orphan sweep: CSV or JSON lines of path, size and modification
// time. The first input byte picks the prefix-mismatch mode, so all three
// code paths of the matcher are reached; the rest is the inventory text.
// Every entry it hands out is relative to the location, never absolute.
#include "../target.hpp"
#include "lakegc/plan/inventory.hpp"

namespace {

// Inventories are not files of a table; the seeds are hand-written
// (fuzz/corpus/inventory/), plus one CSV line per corpus data file.
std::optional<std::string> inventory_seed(const std::filesystem::path& relative, std::string_view contents) {
  if (relative.extension() != ".parquet") return std::nullopt;
  // Mode byte 0 (error), then the line.
  return std::string(1, '\0') + fmt::format("s3a://bucket/warehouse/t/{},{},2024-04-18T17:28:02Z\n",
                                            relative.generic_string(), contents.size());
}

}  // namespace

LAKEGC_FUZZ_TARGET(inventory) {
  if (data.empty()) return absl::InvalidArgumentError("empty input");
  lakegc::InventoryOptions options;
  options.prefix_mismatch = static_cast<lakegc::PrefixMismatchMode>(static_cast<unsigned char>(data[0]) % 3);
  const lakegc::InventoryMatcher matcher("s3://bucket/warehouse/t", options);
  return lakegc::read_inventory(data.substr(1), "fuzz.csv", matcher, [&](const lakegc::InventoryEntry& e) {
    if (e.path.starts_with('/')) lakegc::fuzz::fail("inventory entry '{}' is absolute", e.path);
  });
}
