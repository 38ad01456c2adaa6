// Fuzz target: layout 2's LSM timeline (hudi/lsm_timeline.hpp) and the
// Parquet subset under it (hudi/parquet/). Input starting with '{' is a
// manifest (parse_lsm_manifest); anything else is a data file, read as a
// flat Parquet file (parquet::read_file) and as LSM records
// (decode_lsm_file), then as the one data file of a table's history
// (read_lsm_timeline through a manifest and `_version_`).
// Round trips where lakegc writes the format (`lakegc archive --execute`):
// a manifest read -> format_lsm_manifest -> reads the same; the flat
// columns read -> parquet::write_file -> read the same; the records read ->
// encode_lsm_file -> decode the same (decode(encode(x)) == x).
// Seeds: the corpus tables' small Parquet base files (flat or not), the
// files Hudi 1.2.0 wrote in tests/unit/hudi/data/lsm/ (meson passes the
// folder), and fuzz/corpus/lsm_timeline/ (a manifest, a lakegc-written file).
#include "../target.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "lakegc/hudi/lsm_instant.hpp"
#include "lakegc/hudi/lsm_timeline.hpp"
#include "lakegc/hudi/parquet/read.hpp"
#include "lakegc/hudi/parquet/write.hpp"
#include "lakegc/storage/memory_storage.hpp"

namespace {

namespace hudi = lakegc::hudi;
namespace parquet = lakegc::hudi::parquet;

std::optional<std::string> lsm_timeline_seed(const std::filesystem::path& relative, std::string_view contents) {
  return lakegc::fuzz::bytes_if(relative.extension() == ".parquet" && contents.size() <= 1024 * 1024, contents);
}

lakegc::Status manifest_input(std::string_view data) {
  auto m = hudi::parse_lsm_manifest(data, "manifest_1");
  if (!m.ok()) return m.status();
  const std::string text = hudi::format_lsm_manifest(*m);
  auto back = hudi::parse_lsm_manifest(text, "formatted");
  if (!back.ok()) lakegc::fuzz::fail("a manifest lakegc formatted does not parse: {}", back.status().ToString());
  if (!(*back == *m)) lakegc::fuzz::fail("a manifest formatted reads back otherwise");
  return lakegc::Status();
}

// True when the file's schema has a column the LSM decoder does not read:
// a projection legitimately skips that column's pages, so only then may the
// decoder accept a file the full read refuses. The schema comes from a read
// projecting onto a name no column has (footer and chunk metadata only).
bool has_unread_columns(std::string_view data) {
  parquet::read_options structure_only;
  structure_only.columns = {std::string(1, '\0')};
  auto f = parquet::read_file(data, "fuzz.parquet", structure_only);
  if (!f.ok()) lakegc::fuzz::fail("the footer the LSM decoder accepted does not read: {}", f.status().ToString());
  constexpr std::array<std::string_view, 6> lsm = {"instantTime", "completionTime", "action",
                                                   "metadata",    "plan",           "version"};
  for (std::size_t i = 1; i < f->meta.schema.size(); ++i) {
    if (std::find(lsm.begin(), lsm.end(), f->meta.schema[i].name) == lsm.end()) return true;
  }
  return false;
}

void columns_round_trip(const parquet::file_contents& f) {
  auto bytes = parquet::write_file(f.columns);
  if (!bytes.ok()) {
    // Only an empty projection cannot be written.
    if (!f.columns.empty()) lakegc::fuzz::fail("columns read do not write: {}", bytes.status().ToString());
    return;
  }
  auto back = parquet::read_file(*bytes, "rewritten.parquet");
  if (!back.ok()) lakegc::fuzz::fail("a file lakegc wrote does not read: {}", back.status().ToString());
  if (back->rows != f.rows || back->columns.size() != f.columns.size()) lakegc::fuzz::fail("rows or columns differ");
  for (std::size_t k = 0; k < f.columns.size(); ++k) {
    const parquet::column& a = f.columns[k];
    const parquet::column& b = back->columns[k];
    if (a.name != b.name || a.type != b.type || a.optional != b.optional || a.bytes != b.bytes || a.ints != b.ints) {
      lakegc::fuzz::fail("column '{}' reads back otherwise", a.name);
    }
  }
}

}  // namespace

LAKEGC_FUZZ_TARGET(lsm_timeline) {
  if (!data.empty() && data[0] == '{') return manifest_input(data);
  auto flat = parquet::read_file(data, "fuzz.parquet");
  if (flat.ok()) columns_round_trip(*flat);
  auto records = hudi::decode_lsm_file(data, "fuzz.parquet");
  if (!records.ok()) return records.status();
  if (!flat.ok() && !has_unread_columns(data)) {
    lakegc::fuzz::fail("LSM records decode from a file the Parquet reader refuses: {}", flat.status().ToString());
  }
  auto encoded = hudi::encode_lsm_file(*records);
  if (!encoded.ok()) lakegc::fuzz::fail("records read do not encode: {}", encoded.status().ToString());
  auto back = hudi::decode_lsm_file(*encoded, "encoded.parquet");
  if (!back.ok()) lakegc::fuzz::fail("an LSM file lakegc wrote does not decode: {}", back.status().ToString());
  if (!(*back == *records)) lakegc::fuzz::fail("{} LSM records read back otherwise", records->size());

  // The same bytes as the history's one data file.
  lakegc::memory_storage storage;
  hudi::TableProperties props;
  props.version = 9;
  props.layout = lakegc::TimelineLayout::v2;
  props.timeline_dir = ".hoodie/timeline";
  const std::string name = "1_2_0.parquet";
  hudi::lsm_manifest m;
  m.files.push_back({name, static_cast<std::int64_t>(data.size())});
  for (const auto& [path, bytes] :
       {std::pair<std::string, std::string>{".hoodie/timeline/history/" + name, std::string(data)},
        {".hoodie/timeline/history/manifest_1", hudi::format_lsm_manifest(m)},
        {".hoodie/timeline/history/_version_", "1"}}) {
    if (auto st = storage.write_if_absent(path, bytes); !st.ok())
      lakegc::fuzz::fail("memory storage: {}", st.ToString());
  }
  auto tl = hudi::read_lsm_timeline(storage, props, hudi::TableLocation::of("/t"), hudi::lsm_columns::all);
  if (!tl.ok()) lakegc::fuzz::fail("a file that decodes does not read as the history: {}", tl.status().ToString());
  for (const auto& i : tl->instants) {
    if (tl->find(i.instant_time) != &i) lakegc::fuzz::fail("instant {} found twice or not at all", i.instant_time);
  }
  return lakegc::Status();
}
