// Fuzz target: hudi::parse_marker, the reader of the marker names under
// .hoodie/.temp/<instant>/ that announce a write's data files. Round trip:
// the file it names, re-marked, parses to the same file.
#include "../target.hpp"
#include "lakegc/hudi/in_flight.hpp"

namespace {

// A data file of a corpus table, marked as its write would have marked it.
std::optional<std::string> markers_seed(const std::filesystem::path& relative, std::string_view) {
  const std::string name = relative.filename().string();
  if (!name.ends_with(".parquet") && name.find(".log.") == std::string::npos) return std::nullopt;
  return relative.generic_string() + (name.front() == '.' ? ".marker.APPEND" : ".marker.CREATE");
}

}  // namespace

LAKEGC_FUZZ_TARGET(markers) {
  auto f = lakegc::hudi::parse_marker(data, "fuzz.marker");
  if (!f.ok()) return f.status();
  const std::string io_type(data.substr(data.rfind(".marker.") + 1));
  const std::string again_text = (f->partition.empty() ? f->name : f->partition + "/" + f->name) + "." + io_type;
  auto again = lakegc::hudi::parse_marker(again_text, "fuzz.marker");
  if (!again.ok() || !(*again == *f)) lakegc::fuzz::fail("marker '{}' does not re-mark as '{}'", data, again_text);
  return lakegc::Status();
}
