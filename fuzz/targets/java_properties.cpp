// Fuzz target: config::parse_properties (Java properties: escapes, \uXXXX,
// continuations) and the cleaning policy built from them
// (config::from_properties), as `lakegc` reads a Spark or Hudi config file.
#include "../target.hpp"
#include "lakegc/policy/config.hpp"

namespace {

std::optional<std::string> java_properties_seed(const std::filesystem::path& relative, std::string_view contents) {
  return lakegc::fuzz::bytes_if(relative.extension() == ".properties", contents);
}

}  // namespace

LAKEGC_FUZZ_TARGET(java_properties) {
  auto props = lakegc::config::parse_properties(data, "fuzz.properties");
  if (!props.ok()) return props.status();
  return lakegc::config::from_properties(*props).status();
}
