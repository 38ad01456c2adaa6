// Fuzz target: the layout-1 archived timeline reader
// (hudi/archived_timeline.hpp: read_archived_timeline), the bytes as the one
// archive file `.hoodie/archived/.commits_.archive.1_1-0-1` of a table: log
// blocks, HoodieArchivedMetaEntry records, their commit metadata. The corpus
// tables archived nothing, so the seeds are the tables' log files (Avro data
// blocks of other records) and the hand-written archive in
// fuzz/corpus/archived_timeline/. Property: every instant read is in the
// archive order of its records (as many as the blocks' entries it kept), and
// the commits map only completed commit actions.
#include "../target.hpp"
#include "lakegc/hudi/archived_timeline.hpp"
#include "lakegc/storage/memory_storage.hpp"

namespace {

std::optional<std::string> archived_timeline_seed(const std::filesystem::path& relative, std::string_view contents) {
  const std::string name = relative.filename().string();
  return lakegc::fuzz::bytes_if(name.find(".log.") != std::string::npos || name.starts_with(".commits_.archive."),
                                contents);
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
  return lakegc::Status();
}
