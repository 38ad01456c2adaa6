// Fuzz target: hudi::parse_table_properties, the reader of
// .hoodie/hoodie.properties (table type, version, layout, key fields).
// Round trip where lakegc writes the file (config::format_properties, as
// hudi/writer.hpp does): the keys read, written back, read as the same
// table.
#include "../target.hpp"
#include "lakegc/hudi/table_properties.hpp"
#include "lakegc/policy/config.hpp"

namespace {

std::optional<std::string> hoodie_properties_seed(const std::filesystem::path& relative, std::string_view contents) {
  return lakegc::fuzz::bytes_if(relative.filename() == "hoodie.properties", contents);
}

bool same_hoodie_table(const lakegc::hudi::TableProperties& a, const lakegc::hudi::TableProperties& b) {
  return a.raw == b.raw && a.name == b.name && a.database == b.database && a.type == b.type && a.version == b.version &&
         a.layout == b.layout && a.timeline_dir == b.timeline_dir && a.timezone == b.timezone &&
         a.partition_fields == b.partition_fields && a.hive_style_partitioning == b.hive_style_partitioning &&
         a.metadata_partitions == b.metadata_partitions && a.base_file_format == b.base_file_format &&
         a.bootstrap_base_path == b.bootstrap_base_path;
}

}  // namespace

LAKEGC_FUZZ_TARGET(hoodie_properties) {
  auto p = lakegc::hudi::parse_table_properties(data, "fuzz/hoodie.properties");
  if (!p.ok()) return p.status();
  const std::string text = lakegc::config::format_properties(p->raw, "Updated at lakegc fuzz");
  auto back = lakegc::hudi::parse_table_properties(text, "fuzz/roundtrip/hoodie.properties");
  if (!back.ok()) lakegc::fuzz::fail("the properties read, written back, do not read: {}", back.status().ToString());
  if (!same_hoodie_table(*p, *back)) lakegc::fuzz::fail("parse(format(p)) is another table than p");
  return lakegc::Status();
}
