// The metadata table's `files` partition of the v8 quickstart table (base
// HFile of the last MDT compaction plus a log file of HFile blocks) must
// list exactly the data files on storage, with their sizes. The tables
// without a metadata table say NotFound; no corpus table has archived
// instants (their .hoodie/archived/ folders are empty), which the archived
// timeline reader must read as empty.
#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "corpus.hpp"
#include "lakegc/hudi/archived_timeline.hpp"
#include "lakegc/hudi/journal.hpp"
#include "lakegc/hudi/metadata_table/files_partition.hpp"
#include "lakegc/storage/posix_storage.hpp"

namespace lakegc::tests::metadata_table_corpus_test {

namespace fs = std::filesystem;
using namespace lakegc;

namespace {

std::string message(const absl::Status& s) { return std::string(message_of(s)); }

/// Data files of the table as storage lists them: partition -> name -> size.
std::map<std::string, std::map<std::string, std::uint64_t>> data_files_on_storage(posix_storage& storage) {
  std::map<std::string, std::map<std::string, std::uint64_t>> out;
  ListOptions opts;
  opts.skip_dir = [](std::string_view d) { return d == ".hoodie"; };
  REQUIRE(storage
              .list(
                  "",
                  [&](const FileEntry& e) {
                    const auto slash = e.path.rfind('/');
                    const std::string dir(slash == std::string_view::npos ? std::string_view()
                                                                          : e.path.substr(0, slash));
                    const std::string name(slash == std::string_view::npos ? e.path : e.path.substr(slash + 1));
                    if (is_partition_metadata_file(name)) return;
                    out[dir][name] = e.size;
                  },
                  opts)
              .ok());
  return out;
}

/// The v8 quickstart table, unzipped, with its storage and journal.
struct quickstart {
  testing::temp_dir tmp;
  fs::path root = testing::unzip_table("quickstart_trips_table/mor/avro/v8_trips_8i3u1d", tmp.path());
  StatusOr<posix_storage> storage = posix_storage::open(root.string());
  std::optional<hudi::journal<posix_storage>> table;

  quickstart() {
    REQUIRE(storage.ok());
    auto j = hudi::journal<posix_storage>::open(*storage, root.string());
    REQUIRE(j.ok());
    table.emplace(std::move(*j));
  }
};

}  // namespace

TEST_CASE("v8 quickstart: the files partition lists exactly the data files on storage") {
  quickstart q;
  auto& storage = q.storage;
  const auto state = hudi::metadata_table::files_partition_state(*q.table);
  REQUIRE_MESSAGE(state.ok(), message(state.status()));

  const auto on_storage = data_files_on_storage(*storage);
  CHECK(on_storage.size() == 3);
  CHECK(state->files == on_storage);
  CHECK(state->partitions == std::set<std::string>{"city=chennai", "city=san_francisco", "city=sao_paulo"});
  // The slice read: the base file of the MDT compaction 20251220210130942
  // and the log of deltacommit 20251220210130911, which completed after the
  // compaction was requested and so belongs to its slice.
  CHECK(state->base_files == std::vector<std::string>{"files/files-0000-0_23-1133-3302_20251220210130942.hfile"});
  CHECK(state->log_files == std::vector<std::string>{"files/.files-0000-0_20251220210130911.log.1_3-1149-3338"});
  CHECK(state->corrupt_blocks == 0);
  CHECK(state->invalid_instant_blocks == 0);
  CHECK(state->skipped_blocks.empty());
}

TEST_CASE("v8 quickstart: a log block of a write the data table has not completed is not read") {
  quickstart q;
  auto& storage = q.storage;
  auto timeline = q.table->load_timeline();
  REQUIRE(timeline.ok());
  // The data table as it was while deltacommit 20251220210130911 ran: the
  // metadata table had already completed its deltacommit for it.
  std::vector<Instant> instants(timeline->instants().begin(), timeline->instants().end());
  for (auto& i : instants) {
    if (i.requested.str() == "20251220210130911") {
      i.state = State::inflight;
      i.completed.reset();
    }
  }
  auto running = Timeline::make(std::move(instants));
  REQUIRE(running.ok());
  const auto state = hudi::metadata_table::files_partition_state(*storage, *running, q.root.string());
  REQUIRE_MESSAGE(state.ok(), message(state.status()));
  CHECK(state->invalid_instant_blocks == 1);
  REQUIRE(state->skipped_blocks.size() == 1);
  CHECK(state->skipped_blocks[0].find("instant 20251220210130911 is not a completed write") != std::string::npos);
  // Its new log file is not listed; everything else is.
  auto expected = data_files_on_storage(*storage);
  expected["city=sao_paulo"].erase(".8aa68f7e-afd6-4c94-b86c-8a886552e08d-0_20251220210130911.log.1_0-1139-3316");
  CHECK(state->files == expected);
}

TEST_CASE("tables without a metadata table, and the (empty) archived timelines of layout 1") {
  testing::temp_dir tmp;
  int layout1 = 0;
  for (const auto& name : testing::corpus_tables()) {
    CAPTURE(name);
    fs::create_directories(tmp.path() / name);
    const fs::path root = testing::unzip_table(name, tmp.path() / name);
    auto storage = posix_storage::open(root.string());
    REQUIRE(storage.ok());
    auto table = hudi::journal<posix_storage>::open(*storage, root.string());
    REQUIRE(table.ok());
    if (!fs::is_directory(root / ".hoodie" / "metadata")) {
      const auto state = hudi::metadata_table::files_partition_state(*table);
      CHECK(absl::IsNotFound(state.status()));
    }
    if (table->properties().layout == TimelineLayout::v1) {
      ++layout1;
      const auto archived = hudi::read_archived_timeline(*storage, table->properties());
      REQUIRE_MESSAGE(archived.ok(), message(archived.status()));
      CHECK(archived->instants.empty());
      CHECK(archived->files.empty());
    }
  }
  CHECK(layout1 == 7);
}

}  // namespace lakegc::tests::metadata_table_corpus_test
