// Fuzz target: config::parse_properties (Java properties: escapes, \uXXXX,
// continuations) and what is built from them, as `lakegc` reads a Spark or
// Hudi config file: the cleaning policy (config::from_properties) and the
// lock settings (hudi::lock_settings). Round trip where lakegc writes the
// format (config::format_properties, what hudi/writer.hpp's
// hoodie.properties uses): parse(format(parse(bytes))) == parse(bytes).
// Property: lock settings that were accepted name a lock file inside the
// table (a relative path without '.', '..' or empty components).
#include "../target.hpp"
#include "lakegc/hudi/lock.hpp"
#include "lakegc/policy/config.hpp"
#include "lakegc/storage/path.hpp"

namespace {

std::optional<std::string> java_properties_seed(const std::filesystem::path& relative, std::string_view contents) {
  return lakegc::fuzz::bytes_if(relative.extension() == ".properties", contents);
}

}  // namespace

LAKEGC_FUZZ_TARGET(java_properties) {
  namespace config = lakegc::config;
  auto props = config::parse_properties(data, "fuzz.properties");
  if (!props.ok()) return props.status();
  const std::string text = config::format_properties(*props, "written by the fuzz target");
  auto back = config::parse_properties(text, "fuzz.roundtrip");
  if (!back.ok()) lakegc::fuzz::fail("formatted properties do not parse: {}", back.status().ToString());
  if (*back != *props) lakegc::fuzz::fail("parse(format(p)) != p");
  if (auto lock = lakegc::hudi::lock_settings(*props, "/fuzz/table"); lock.ok()) {
    if (auto st = lakegc::detail::check_relative_path(lock->lock_file, "lock"); !st.ok()) {
      lakegc::fuzz::fail("the lock file '{}' is not inside the table: {}", lock->lock_file, st.ToString());
    }
  } else {
    (void)lakegc::fuzz::checked(lock.status());
  }
  return config::from_properties(*props).status();
}
