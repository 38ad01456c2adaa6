// Fuzz target: the layout-1 archived timeline reader
// (hudi/archived_timeline.hpp: read_archived_timeline), the bytes as the one
// archive file `.hoodie/archived/.commits_.archive.1_1-0-1` of a table: log
// blocks, HoodieArchivedMetaEntry records, their commit metadata. The corpus
// tables archived nothing, so the seeds are the tables' log files (Avro data
// blocks of other records) and the hand-written archive in
// fuzz/corpus/archived_timeline/. Property: the commits read belong to
// completed commit instants. Round trip where lakegc writes the format
// (`lakegc archive --execute`, hudi/archive_execute.hpp): the entries read,
// written by encode_archive_files (Hudi's HoodieArchivedMetaEntry schema, in
// blocks of three; an entry that schema cannot hold is refused, as lakegc
// only archives entries it built), read back as the same instants and commits.
#include "../target.hpp"
#include <fmt/format.h>

#include "lakegc/hudi/archive_execute.hpp"
#include "lakegc/hudi/archived_timeline.hpp"
#include "lakegc/storage/memory_storage.hpp"

namespace {

std::optional<std::string> archived_timeline_seed(const std::filesystem::path& relative, std::string_view contents) {
  const std::string name = relative.filename().string();
  return lakegc::fuzz::bytes_if(name.find(".log.") != std::string::npos || name.starts_with(".commits_.archive."),
                                contents);
}

void archive_round_trip(const lakegc::hudi::archived_timeline& read, const lakegc::hudi::TableProperties& props) {
  namespace hudi = lakegc::hudi;
  std::vector<lakegc::hudi::avro::datum> entries;
  for (const auto& i : read.instants) entries.push_back(i.entry);
  hudi::ArchiveWriteOptions options;
  options.batch = 3;
  auto files = hudi::encode_archive_files(entries, options);
  if (!files.ok()) return;
  lakegc::memory_storage storage;
  for (std::size_t k = 0; k < files->size(); ++k) {
    const std::string path = fmt::format(".hoodie/archived/.commits_.archive.{}_1-0-1", k + 1);
    if (auto st = storage.write_if_absent(path, (*files)[k]); !st.ok())
      lakegc::fuzz::fail("memory storage: {}", st.ToString());
  }
  auto back = hudi::read_archived_timeline(storage, props);
  if (!back.ok()) lakegc::fuzz::fail("the archive lakegc wrote does not read: {}", back.status().ToString());
  if (back->instants.size() != read.instants.size()) {
    lakegc::fuzz::fail("{} entries archived read back as {}", read.instants.size(), back->instants.size());
  }
  for (std::size_t k = 0; k < read.instants.size(); ++k) {
    const auto& a = read.instants[k];
    const auto& b = back->instants[k];
    if (a.requested != b.requested || a.action != b.action || a.state != b.state || a.completed != b.completed) {
      lakegc::fuzz::fail("archived entry {} reads back as another instant", k);
    }
  }
  if (back->commits != read.commits) lakegc::fuzz::fail("the archived commit metadata reads back otherwise");
}

}  // namespace

LAKEGC_FUZZ_TARGET(archived_timeline) {
  lakegc::memory_storage storage;
  if (auto st = storage.write_if_absent(".hoodie/archived/.commits_.archive.1_1-0-1", data); !st.ok()) {
    lakegc::fuzz::fail("memory storage: {}", st.ToString());
  }
  const lakegc::hudi::TableProperties props;  // layout 1, archive folder "archived"
  auto t = lakegc::hudi::read_archived_timeline(storage, props);
  if (!t.ok()) return t.status();
  for (const auto& [time, commit] : t->commits) {
    bool found = false;
    for (const auto& i : t->instants) {
      found =
          found || (i.requested == time && i.state == lakegc::State::completed && lakegc::is_commit_action(i.action));
    }
    if (!found) lakegc::fuzz::fail("commit metadata at {} without a completed commit instant", time);
  }
  if (t->files.size() != 1) lakegc::fuzz::fail("one archive file read as {}", t->files.size());
  archive_round_trip(*t, props);
  return lakegc::Status();
}
