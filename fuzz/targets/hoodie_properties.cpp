// Fuzz target: hudi::parse_table_properties, the reader of
// .hoodie/hoodie.properties (table type, version, layout, key fields).
#include "../target.hpp"
#include "lakegc/hudi/table_properties.hpp"

namespace {

std::optional<std::string> hoodie_properties_seed(const std::filesystem::path& relative, std::string_view contents) {
  return lakegc::fuzz::bytes_if(relative.filename() == "hoodie.properties", contents);
}

}  // namespace

LAKEGC_FUZZ_TARGET(hoodie_properties) {
  return lakegc::hudi::parse_table_properties(data, "fuzz/hoodie.properties").status();
}
