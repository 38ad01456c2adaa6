// The metadata table's deltacommit for a clean (metadata_table/clean_update.hpp),
// written into a small metadata table in memory and read back with the
// library's readers: the files partition's state (files_partition_state),
// the metadata table's timeline and commit metadata (hudi::journal), the
// log file's name per table version, reruns, and a crash after every change.
#include "lakegc/hudi/metadata_table/clean_update.hpp"
#include "lakegc/hudi/metadata_table/rollback_update.hpp"
#include "lakegc/hudi/empty_clean_repair.hpp"

#include <doctest/doctest.h>

#include <map>
#include <set>
#include <type_traits>
#include <string>
#include <tuple>
#include <vector>

#include "lakegc/hudi/hfile/read_hfile.hpp"
#include "lakegc/hudi/hfile/write_hfile.hpp"
#include "lakegc/hudi/log/avro_data_block.hpp"
#include "lakegc/hudi/log/write_block.hpp"
#include "lakegc/hudi/metadata_table/files_partition.hpp"
#include "lakegc/storage/crash_storage.hpp"
#include "lakegc/storage/memory_storage.hpp"
#include "test_util.hpp"

namespace lakegc::tests::metadata_clean_test {

using namespace lakegc;
using namespace lakegc::hudi;
using namespace lakegc::hudi::metadata_table;
using namespace lakegc::hudi::testing;

namespace {

const InstantTime kWrite = *InstantTime::parse("20240101000000000");
const InstantTime kClean = *InstantTime::parse("20240102000000000");
constexpr std::int64_t kClock = 1704240000000;  // 2024-01-03 UTC, after the clean
/// The data table's schema: three columns column_stats indexes and one
/// (a record) it does not.
constexpr std::string_view kSchema =
    R"({"type":"record","name":"r","fields":[{"name":"key","type":"string"},{"name":"ts","type":"long"},)"
    R"({"name":"nested","type":{"type":"record","name":"n","fields":[{"name":"x","type":"int"}]}},)"
    R"({"name":"price","type":["null","double"]}]})";

std::string must(const StatusOr<std::string>& s) {
  REQUIRE_MESSAGE(s.ok(), to_string(s.status()));
  return *s;
}

void put(memory_storage& s, const std::string& path, std::string_view bytes) {
  REQUIRE_MESSAGE(s.write_if_absent(path, bytes).ok(), path);
}

/// A data table whose metadata table's `files` partition lists p1/{a,b} and
/// p2/{c}, written by one completed deltacommit at kWrite; with
/// `index_file_groups`, also column_stats (2 file groups) and bloom_filters
/// (4), each file group a log holding one empty block of kWrite.
memory_storage make_table(int version, bool index_file_groups = false) {
  memory_storage s;
  const bool layout2 = version >= 8;
  const std::string props = fmt::format(
      "hoodie.table.name=t\nhoodie.table.type=COPY_ON_WRITE\nhoodie.table.version={}\n"
      "hoodie.table.metadata.partitions={}\nhoodie.table.timeline.timezone=UTC\n"
      "hoodie.table.create.schema={}\n",
      version, index_file_groups ? "bloom_filters,column_stats,files" : "files", kSchema);
  put(s, ".hoodie/hoodie.properties", props);
  put(s, ".hoodie/metadata/.hoodie/hoodie.properties",
      fmt::format("hoodie.table.name=t_metadata\nhoodie.table.type=MERGE_ON_READ\nhoodie.table.version={}\n"
                  "hoodie.table.base.file.format=HFILE\n",
                  version));
  put(s, ".hoodie/metadata/files/.hoodie_partition_metadata", "commitTime=20240101000000000\npartitionDepth=1\n");
  std::vector<avro::datum> records = {
      metadata_table::detail::metadata_record("p1", file_list_type,
                                              {{"a.parquet", {100, false}}, {"b.parquet", {200, false}}}),
      metadata_table::detail::metadata_record("p2", file_list_type, {{"c.parquet", {300, false}}}),
      metadata_table::detail::metadata_record(std::string(all_partitions_key), partition_list_type,
                                              {{"p1", {0, false}}, {"p2", {0, false}}})};
  std::vector<log_write> writes;
  auto add_log = [&](std::string partition, std::string file_id, const std::vector<avro::datum>& rs) {
    auto block =
        log::make_avro_data_block(metadata_table::schemas::metadata_record_with_meta_fields(), rs, kWrite.str());
    REQUIRE_MESSAGE(block.ok(), to_string(block.status()));
    const std::string log_name = fmt::format(".{}_20240101000000000.log.1_0-7-9", file_id);
    const std::string log_bytes = must(log::encode_block(*block));
    put(s, fmt::format(".hoodie/metadata/{}/{}", partition, log_name), log_bytes);
    if (partition != "files" &&
        !s.read(fmt::format(".hoodie/metadata/{}/.hoodie_partition_metadata", partition)).ok()) {
      put(s, fmt::format(".hoodie/metadata/{}/.hoodie_partition_metadata", partition),
          "commitTime=20240101000000000\npartitionDepth=1\n");
    }
    log_write w;
    w.partition = std::move(partition);
    w.file_id = std::move(file_id);
    w.file_name = log_name;
    w.prev_commit = kWrite.str();
    w.slice_base_instant = kWrite.str();
    w.log_files = {log_name};
    w.size = log_bytes.size();
    w.upserts = rs.size();
    writes.push_back(std::move(w));
  };
  add_log("files", "files-0000-0", records);
  if (index_file_groups) {
    for (int g = 0; g < 2; ++g) add_log("column_stats", fmt::format("col-stats-{:04}-0", g), {});
    for (int g = 0; g < 4; ++g) add_log("bloom_filters", fmt::format("bloom-filters-{:04}-0", g), {});
  }
  const std::string dir = layout2 ? ".hoodie/metadata/.hoodie/timeline/" : ".hoodie/metadata/.hoodie/";
  put(s, dir + "20240101000000000.deltacommit.requested", "");
  if (layout2) {
    put(s, dir + "20240101000000000.deltacommit.inflight", must(deltacommit_avro(writes, false)));
    put(s, dir + "20240101000000000_20240101000000100.deltacommit", must(deltacommit_avro(writes, true)));
  } else {
    put(s, dir + "20240101000000000.deltacommit.inflight", deltacommit_json(writes, false));
    put(s, dir + "20240101000000000.deltacommit", deltacommit_json(writes, true));
  }
  return s;
}

Timeline data_timeline(State clean_state) {
  std::vector<Instant> instants;
  instants.push_back({kWrite, std::nullopt, Action::commit, State::completed});
  instants.push_back({kClean, std::nullopt, Action::clean, clean_state});
  auto t = Timeline::make(std::move(instants));
  REQUIRE(t.ok());
  return *t;
}

/// A clean that deleted p1/a.parquet, and p2 with its only file.
lakegc::CompletedClean the_clean() {
  lakegc::CompletedClean m;
  m.start_clean_time = kClean;
  m.partitions["p1"].success = {"a.parquet"};
  m.partitions["p2"].success = {"c.parquet"};
  m.partitions["p2"].partition_deleted = true;
  return m;
}

TableProperties props_of(memory_storage& s) {
  auto j = journal<memory_storage>::open(s, "");
  REQUIRE_MESSAGE(j.ok(), to_string(j.status()));
  return j->properties();
}

template <Storage S>
StatusOr<metadata_update> update(S& s, const TableProperties& p) {
  static const clean_record_inputs files_only;
  return write_clean_deltacommit(s, p, "", kClean, the_clean(), files_only, [] { return kClock; });
}

std::map<std::string, std::string> all_files(memory_storage& s) {
  std::map<std::string, std::string> out;
  ListOptions o;
  o.recursive = true;
  REQUIRE(s.list(
               "", [&](const FileEntry& e) { out[std::string(e.path)] = must(s.read(e.path)); }, o)
              .ok());
  return out;
}

/// Runs `run` on a fresh table from `make` that crashes after its n-th
/// change, for n = 1, 2, ... until a run completes; after each crash a rerun
/// without the fault must succeed and leave exactly `after`.
template <class Make, class Run>
void crash_after_each_change(Make make, Run run, const std::map<std::string, std::string>& after,
                             std::uint64_t max_changes) {
  auto status_of = [](const auto& r) {
    if constexpr (std::is_same_v<std::decay_t<decltype(r)>, Status>) {
      return r;
    } else {
      return r.status();
    }
  };
  for (std::uint64_t n = 1;; ++n) {
    CAPTURE(n);
    memory_storage c = make();
    struct crashed {};
    crash_storage<memory_storage> faulty(c, n, [] { throw crashed{}; });
    bool finished = false;
    try {
      finished = status_of(run(faulty)).ok();
    } catch (const crashed&) {
    }
    const Status rerun = status_of(run(c));
    REQUIRE_MESSAGE(rerun.ok(), to_string(rerun));
    CHECK(all_files(c) == after);
    if (finished) break;
    REQUIRE(n < max_changes);
  }
}

/// What a clean's first attempt under Hudi left in the metadata table:
/// Hudi's log of the clean's records (an HFile block without lakegc's
/// mark) in file group files-0000-0, the deltacommit requested and inflight,
/// and completed when `completed`. Version 8 names the log by the clean;
/// version 6 appends to the slice of kWrite.
void add_hudi_clean_deltacommit(memory_storage& s, int version, bool completed) {
  const std::vector<std::pair<std::string, avro::datum>> upserts = {
      {"p1", metadata_table::detail::metadata_record("p1", file_list_type, {{"a.parquet", {0, true}}})}};
  auto block = log::make_hfile_data_block(metadata_table::schemas::metadata_record_with_meta_fields(), upserts,
                                          kClean.str(), "key", {});
  REQUIRE_MESSAGE(block.ok(), to_string(block.status()));
  const std::string name =
      version >= 8 ? ".files-0000-0_20240102000000000.log.1_0-1-2" : ".files-0000-0_20240101000000000.log.2_0-1-2";
  const std::string bytes = must(log::encode_block(*block));
  put(s, ".hoodie/metadata/files/" + name, bytes);
  log_write w;
  w.partition = "files";
  w.file_id = "files-0000-0";
  w.file_name = name;
  w.prev_commit = version >= 8 ? kClean.str() : kWrite.str();
  w.slice_base_instant = kWrite.str();
  w.log_files = {name};
  w.size = bytes.size();
  w.upserts = 1;
  const std::vector<log_write> writes = {w};
  if (version >= 8) {
    const std::string dir = ".hoodie/metadata/.hoodie/timeline/";
    put(s, dir + "20240102000000000.deltacommit.requested", "");
    put(s, dir + "20240102000000000.deltacommit.inflight", must(deltacommit_avro(writes, false)));
    if (completed)
      put(s, dir + "20240102000000000_20240102000000100.deltacommit", must(deltacommit_avro(writes, true)));
  } else {
    const std::string dir = ".hoodie/metadata/.hoodie/";
    put(s, dir + "20240102000000000.deltacommit.requested", "");
    put(s, dir + "20240102000000000.deltacommit.inflight", deltacommit_json(writes, false));
    if (completed) put(s, dir + "20240102000000000.deltacommit", deltacommit_json(writes, true));
  }
}

}  // namespace

TEST_CASE("a clean's metadata deltacommit removes its files and partitions from the files partition") {
  for (const int version : {6, 8, 9}) {
    CAPTURE(version);
    memory_storage s = make_table(version);
    const TableProperties p = props_of(s);
    auto inputs = check_clean_update(s, p, data_timeline(State::inflight), "", kClean);
    REQUIRE_MESSAGE(inputs.ok(), to_string(inputs.status()));
    CHECK(inputs->partitions == std::vector<std::string>{"files"});
    auto done = update(s, p);
    REQUIRE_MESSAGE(done.ok(), to_string(done.status()));
    CHECK_FALSE(done->already_completed);
    // Version 6 appends to the slice of base instant kWrite, rolling over the
    // newest log's version and keeping its token; 8+ names the log by the clean.
    REQUIRE(done->logs.size() == 1);
    const std::string log_file = done->logs[0].path;
    CHECK(log_file == (version >= 8 ? "files/.files-0000-0_20240102000000000.log.1_1-0-1"
                                    : "files/.files-0000-0_20240101000000000.log.2_0-7-9"));
    const std::string log_bytes = must(s.read(".hoodie/metadata/" + log_file));
    CHECK(done->logs[0].size == log_bytes.size());
    CHECK(done->partitions == std::vector<std::string>{"files"});

    // The blocks: Avro data (p1's deletion and the partition list), then the
    // deletion of p2's key, all of the clean's instant.
    auto blocks = log::read_blocks(log_bytes, log_file);
    REQUIRE(blocks.ok());
    REQUIRE(blocks->size() == 2);
    CHECK((*blocks)[0].type == log::block_type::hfile_data);
    CHECK((*blocks)[1].type == log::block_type::delete_keys);
    for (const auto& b : *blocks) CHECK(b.instant_time() == kClean.str());
    // As Hudi writes them: keyed by HFile row in key order, the record's own
    // key field empty; p2's key deleted.
    auto cells = log::decode_hfile_records((*blocks)[0], log_file);
    REQUIRE_MESSAGE(cells.ok(), to_string(cells.status()));
    REQUIRE(cells->size() == 2);
    CHECK((*cells)[0].key == "__all_partitions__");
    CHECK((*cells)[1].key == "p1");
    for (const auto& c : *cells) CHECK(c.record.field("key").as_string() == std::optional<std::string_view>(""));
    auto deletes = log::decode_delete_records((*blocks)[1], log_file);
    REQUIRE(deletes.ok());
    REQUIRE(deletes->size() == 1);
    CHECK((*deletes)[0].record_key == std::optional<std::string>("p2"));
    CHECK((*deletes)[0].partition_path == std::optional<std::string>("files"));

    // Readers see the deletions once the data table's clean completes, and
    // skip them while it is pending.
    auto pending = files_partition_state(s, data_timeline(State::inflight));
    REQUIRE_MESSAGE(pending.ok(), to_string(pending.status()));
    CHECK(pending->files["p1"].contains("a.parquet"));
    CHECK(pending->partitions == std::set<std::string>{"p1", "p2"});
    auto after = files_partition_state(s, data_timeline(State::completed));
    REQUIRE_MESSAGE(after.ok(), to_string(after.status()));
    CHECK(after->files["p1"] == std::map<std::string, std::uint64_t>{{"b.parquet", 200}});
    CHECK_FALSE(after->files.contains("p2"));
    CHECK(after->partitions == std::set<std::string>{"p1"});
    CHECK(after->invalid_instant_blocks == 0);

    // The metadata table's timeline: a completed deltacommit at the clean's
    // time, whose commit metadata names the log file and its size.
    subfolder_storage<memory_storage> mdt(s, ".hoodie/metadata");
    auto mj = journal<subfolder_storage<memory_storage>>::open(mdt, ".hoodie/metadata");
    REQUIRE(mj.ok());
    auto md = mj->load();
    REQUIRE_MESSAGE(md.ok(), to_string(md.status()));
    const Instant* i = md->timeline.find(kClean);
    REQUIRE(i != nullptr);
    CHECK(i->action == Action::deltacommit);
    CHECK(i->is_completed());
    if (version >= 8) CHECK(i->completed.has_value());
    auto view = load_view(mdt, *md);
    REQUIRE(view.ok());
    std::uint64_t size_committed = 0;
    if (auto c = md->commits.find(kClean); c != md->commits.end()) {
      for (const auto& f : c->second.files) {
        if (join_path(f.partition, f.name) == log_file) size_committed = f.size;
      }
    }
    CHECK(size_committed == log_bytes.size());

    // A rerun finds it completed and changes nothing.
    const auto before = all_files(s);
    auto again = update(s, p);
    REQUIRE(again.ok());
    CHECK(again->already_completed);
    CHECK(again->logs.size() == 1);
    CHECK(again->logs[0].path == log_file);
    CHECK(all_files(s) == before);
  }
}

/// The delete keys of every log file of `instant` in metadata partition
/// `partition`, by file id; fails the test if a block is not a delete block.
std::map<std::string, std::set<std::string>> deleted_keys_of(memory_storage& s, std::string_view partition,
                                                             std::string_view instant) {
  std::map<std::string, std::set<std::string>> out;
  REQUIRE(s.list(fmt::format(".hoodie/metadata/{}", partition), [&](const FileEntry& e) {
             const std::string name(e.path.substr(e.path.rfind('/') + 1));
             auto parsed = parse_log_file_name(name);
             if (!parsed.ok()) return;
             const std::string bytes = must(s.read(e.path));
             auto blocks = log::read_blocks(bytes, name);
             REQUIRE(blocks.ok());
             for (const auto& b : *blocks) {
               if (b.instant_time() != instant) continue;
               REQUIRE(b.type == log::block_type::delete_keys);
               auto d = log::decode_delete_records(b, name);
               REQUIRE(d.ok());
               for (const auto& r : *d) {
                 CHECK(r.partition_path == std::optional<std::string>(std::string(partition)));
                 out[parsed->file_id].insert(*r.record_key);
               }
             }
           }).ok());
  return out;
}

TEST_CASE("a clean deletes the column statistics and bloom filters of the files it deleted, in their file groups") {
  for (const int version : {6, 8, 9}) {
    CAPTURE(version);
    memory_storage s = make_table(version, /*index_file_groups=*/true);
    const TableProperties p = props_of(s);
    auto inputs = check_clean_update(s, p, data_timeline(State::inflight), "", kClean);
    REQUIRE_MESSAGE(inputs.ok(), to_string(inputs.status()));
    CHECK(inputs->partitions == std::vector<std::string>{"files", "bloom_filters", "column_stats"});
    // The meta columns, then the schema's supported top-level columns.
    CHECK(inputs->stats_columns == std::vector<std::string>{"_hoodie_commit_time", "_hoodie_record_key",
                                                            "_hoodie_partition_path", "key", "ts", "price"});
    lakegc::CompletedClean m = the_clean();
    const std::string base = "f1-0_0-1-2_20240101000000000.parquet";
    const std::string log_file = ".f1-0_20240101000000000.log.1_0-1-2";
    m.partitions["p1"].success = {base, log_file};
    auto done = write_clean_deltacommit(s, p, "", kClean, m, *inputs, [] { return kClock; });
    REQUIRE_MESSAGE(done.ok(), to_string(done.status()));
    CHECK(done->partitions == std::vector<std::string>{"files", "column_stats", "bloom_filters"});

    // column_stats: every (deleted file, column) key; bloom_filters: the
    // base files' keys only; each key in the file group Hudi sends it to.
    std::set<std::string> want_stats;
    for (const auto& [partition, r] : m.partitions) {
      for (const auto& f : r.success) {
        for (const auto& c : inputs->stats_columns) want_stats.insert(column_stats_key(partition, f, c));
      }
    }
    // (p2's "c.parquet" is no base file name by Hudi's pattern, FSUtils.isBaseFile.)
    const std::set<std::string> want_blooms = {bloom_filter_key("p1", base)};
    for (const auto& [partition, want, groups] : {std::tuple{std::string("column_stats"), want_stats, 2},
                                                  std::tuple{std::string("bloom_filters"), want_blooms, 4}}) {
      CAPTURE(partition);
      std::set<std::string> got;
      for (const auto& [file_id, keys] : deleted_keys_of(s, partition, kClean.str())) {
        for (const auto& k : keys) {
          CHECK(file_id.ends_with(fmt::format("{:04}-0", file_group_index_of(k, static_cast<std::size_t>(groups)))));
          got.insert(k);
        }
      }
      CHECK(got == want);
    }
    CHECK(want_stats.size() == 3 * inputs->stats_columns.size());

    // The deltacommit names a log file per file group with records.
    subfolder_storage<memory_storage> mdt(s, ".hoodie/metadata");
    auto mj = journal<subfolder_storage<memory_storage>>::open(mdt, ".hoodie/metadata");
    REQUIRE(mj.ok());
    auto md = mj->load();
    REQUIRE_MESSAGE(md.ok(), to_string(md.status()));
    std::set<std::string> committed;
    if (auto c = md->commits.find(kClean); c != md->commits.end()) {
      for (const auto& f : c->second.files) committed.insert(join_path(f.partition, f.name));
    }
    std::set<std::string> written;
    for (const auto& l : done->logs) written.insert(l.path);
    CHECK(committed == written);
    CHECK(written.size() >= 3);

    // A rerun changes nothing.
    const auto before = all_files(s);
    auto again = write_clean_deltacommit(s, p, "", kClean, m, *inputs, [] { return kClock; });
    REQUIRE(again.ok());
    CHECK(again->already_completed);
    CHECK(all_files(s) == before);
  }
}

TEST_CASE("column statistics whose columns lakegc cannot tell refuse the clean") {
  memory_storage s = make_table(9, /*index_file_groups=*/true);
  const TableProperties p = props_of(s);
  SUBCASE("the index definition lists other columns than the writer settings give") {
    TableProperties q = p;
    q.raw["hoodie.table.index.defs.path"] = ".hoodie/.index_defs/index.json";
    put(s, ".hoodie/.index_defs/index.json",
        R"({"indexDefinitions":{"column_stats":{"indexName":"column_stats","indexType":"column_stats",)"
        R"("sourceFields":["_hoodie_commit_time","_hoodie_partition_path","_hoodie_record_key","key"],"version":"V2"}}})");
    const Status st = check_clean_update(s, q, data_timeline(State::inflight), "", kClean).status();
    CHECK(absl::IsFailedPrecondition(st));
    CHECK(message_of(st).find("column_stats index definition lists the columns") != std::string_view::npos);
    // The writer's column list, given as Hudi's writer has it, agrees.
    auto ok = check_clean_update(s, q, data_timeline(State::inflight), "", kClean,
                                 {{"hoodie.metadata.index.column.stats.column.list", "key"}});
    REQUIRE_MESSAGE(ok.ok(), to_string(ok.status()));
    CHECK(ok->stats_columns ==
          std::vector<std::string>{"_hoodie_commit_time", "_hoodie_record_key", "_hoodie_partition_path", "key"});
  }
  SUBCASE("no schema while the table has completed writes") {
    TableProperties q = p;
    q.raw.erase("hoodie.table.create.schema");
    const Status st = check_clean_update(s, q, data_timeline(State::inflight), "", kClean).status();
    CHECK(absl::IsFailedPrecondition(st));
    CHECK(message_of(st).find("schema") != std::string_view::npos);
  }
}

TEST_CASE("a crash after any change of the metadata deltacommit is finished by the rerun") {
  for (const bool indexes : {false, true}) {
    for (const int version : {6, 8}) {
      CAPTURE(version);
      CAPTURE(indexes);
      memory_storage clean_run = make_table(version, indexes);
      const TableProperties p = props_of(clean_run);
      auto inputs = check_clean_update(clean_run, p, data_timeline(State::inflight), "", kClean);
      REQUIRE_MESSAGE(inputs.ok(), to_string(inputs.status()));
      auto update_with = [&](auto& storage) {
        return write_clean_deltacommit(storage, p, "", kClean, the_clean(), *inputs, [] { return kClock; });
      };
      REQUIRE(update_with(clean_run).ok());
      const auto expected = all_files(clean_run);
      for (std::uint64_t n = 1;; ++n) {
        CAPTURE(n);
        memory_storage s = make_table(version, indexes);
        struct crashed {};
        crash_storage<memory_storage> faulty(s, n, [] { throw crashed{}; });
        bool finished = false;
        try {
          finished = update_with(faulty).ok();
        } catch (const crashed&) {
        }
        auto rerun = update_with(s);
        REQUIRE_MESSAGE(rerun.ok(), to_string(rerun.status()));
        CHECK(all_files(s) == expected);
        if (finished) break;
        REQUIRE(n < 12);
      }
    }
  }
}

TEST_CASE("tables lakegc cannot update the metadata table of are refused before anything is written") {
  memory_storage s = make_table(8);
  TableProperties p = props_of(s);
  const auto before = all_files(s);
  SUBCASE("a partition Hudi writes clean records to that lakegc does not") {
    TableProperties q = p;
    q.metadata_partitions.push_back("expr_index_idx");
    const Status st = check_clean_update(s, q, data_timeline(State::inflight), "", kClean).status();
    CHECK(absl::IsFailedPrecondition(st));
    CHECK(message_of(st).find("expr_index_idx") != std::string_view::npos);
    // Partitions Hudi writes nothing to on a clean are fine.
    q = p;
    q.metadata_partitions = {"files", "record_index", "partition_stats", "secondary_index_idx"};
    CHECK(check_clean_update(s, q, data_timeline(State::inflight), "", kClean).ok());
    // One being built (Hudi's writers update it too) is refused.
    q.raw["hoodie.table.metadata.partitions.inflight"] = "column_stats";
    const Status building = check_clean_update(s, q, data_timeline(State::inflight), "", kClean).status();
    CHECK(absl::IsFailedPrecondition(building));
    CHECK(message_of(building).find("being built") != std::string_view::npos);
  }
  SUBCASE("a pending metadata instant lakegc does not know") {
    put(s, ".hoodie/metadata/.hoodie/timeline/20240101000000500.compaction.requested", "");
    const Status st = check_clean_update(s, p, data_timeline(State::inflight), "", kClean).status();
    CHECK(absl::IsFailedPrecondition(st));
    CHECK(message_of(st).find("compaction") != std::string_view::npos);
  }
  SUBCASE("a metadata instant after the clean") {
    put(s, ".hoodie/metadata/.hoodie/timeline/20240103000000000.deltacommit.requested", "");
    CHECK(absl::IsFailedPrecondition(check_clean_update(s, p, data_timeline(State::inflight), "", kClean).status()));
  }
  SUBCASE("a files partition that does not read") {
    // A block whose framing holds but whose writer schema does not parse:
    // Hudi's reader fails on it too (a torn block would be skipped instead).
    auto block =
        log::make_avro_data_block(metadata_table::schemas::metadata_record_with_meta_fields(), {}, kWrite.str());
    REQUIRE(block.ok());
    block->header[log::header_key::schema] = "{not a schema";
    REQUIRE(s.remove(".hoodie/metadata/files/.files-0000-0_20240101000000000.log.1_0-7-9").ok());
    put(s, ".hoodie/metadata/files/.files-0000-0_20240101000000000.log.1_0-7-9", must(log::encode_block(*block)));
    const Status st = check_clean_update(s, p, data_timeline(State::inflight), "", kClean).status();
    CHECK(absl::IsFailedPrecondition(st));
    CHECK(message_of(st).find("cannot be read") != std::string_view::npos);
    return;
  }
  (void)before;
}

TEST_CASE("a pending clean's deltacommit that Hudi wrote is rolled back in the metadata table and written again") {
  // Hudi's commitInternal on a clean's second attempt: the metadata table
  // holds the clean's instant already, so its write client rolls it back at
  // a new instant and writes the deltacommit from scratch. So does lakegc,
  // and a crash anywhere in between is finished by the rerun. Version 8+
  // deletes the old try's log (named by the clean); version 6 keeps it and
  // puts a rollback block after it, then the new try in the next log.
  for (const int version : {8, 6}) {
    for (const bool completed : {true, false}) {
      CAPTURE(version);
      CAPTURE(completed);
      memory_storage first_time = make_table(version);
      const TableProperties p = props_of(first_time);
      REQUIRE(update(first_time, p).ok());
      auto expected = files_partition_state(first_time, data_timeline(State::completed));
      REQUIRE_MESSAGE(expected.ok(), to_string(expected.status()));

      auto run = [&](auto& storage) -> Status {
        LAKEGC_ASSIGN_OR_RETURN(clean_record_inputs inputs,
                                check_clean_update(storage, p, data_timeline(State::inflight), "", kClean));
        return write_clean_deltacommit(storage, p, "", kClean, the_clean(), inputs, [] { return kClock; }).status();
      };
      memory_storage s = make_table(version);
      add_hudi_clean_deltacommit(s, version, completed);
      auto inputs = check_clean_update(s, p, data_timeline(State::inflight), "", kClean);
      if (version == 6 && !completed) {
        // Hudi's version-6 rollback names the logs to roll back from a
        // completed deltacommit's metadata only.
        REQUIRE_FALSE(inputs.ok());
        CHECK(message_of(inputs.status()).find("inflight deltacommit for pending clean 20240102000000000") !=
              std::string_view::npos);
        continue;
      }
      REQUIRE_MESSAGE(inputs.ok(), to_string(inputs.status()));
      CHECK(inputs->roll_back_first == std::set<InstantTime>{kClean});
      auto done = write_clean_deltacommit(s, p, "", kClean, the_clean(), *inputs, [] { return kClock; });
      REQUIRE_MESSAGE(done.ok(), to_string(done.status()));
      CHECK(done->rolled_back_by == InstantTime::parse("20240103000000000").value());
      if (version >= 8) {
        CHECK_FALSE(s.read(".hoodie/metadata/files/.files-0000-0_20240102000000000.log.1_0-1-2").ok());
        CHECK(s.read(".hoodie/metadata/files/.files-0000-0_20240102000000000.log.1_1-0-1").ok());
      } else {
        CHECK(s.read(".hoodie/metadata/files/.files-0000-0_20240101000000000.log.2_0-1-2").ok());
        auto rollback_log = s.read(".hoodie/metadata/files/.files-0000-0_20240101000000000.log.3_0-1-2");
        REQUIRE(rollback_log.ok());
        auto blocks = log::read_blocks(*rollback_log, "rollback log");
        REQUIRE(blocks.ok());
        REQUIRE(blocks->size() == 1);
        CHECK((*blocks)[0].type == log::block_type::command);
        CHECK((*blocks)[0].get(log::header_key::target_instant_time) == std::optional<std::string_view>(kClean.str()));
        REQUIRE(done->logs.size() == 1);
        CHECK(done->logs[0].path == "files/.files-0000-0_20240101000000000.log.4_0-1-2");
      }
      subfolder_storage<memory_storage> mdt(s, ".hoodie/metadata");
      auto mj = journal<subfolder_storage<memory_storage>>::open(mdt, ".hoodie/metadata");
      REQUIRE(mj.ok());
      auto md = mj->load();
      REQUIRE_MESSAGE(md.ok(), to_string(md.status()));
      // The rollback at the clock's instant, after every metadata instant.
      const Instant* rollback = md->timeline.find(*InstantTime::parse("20240103000000000"));
      REQUIRE(rollback != nullptr);
      CHECK(rollback->action == Action::rollback);
      CHECK(rollback->is_completed());
      const Instant* again = md->timeline.find(kClean);
      REQUIRE(again != nullptr);
      CHECK(again->is_completed());
      auto state = files_partition_state(s, data_timeline(State::completed));
      REQUIRE_MESSAGE(state.ok(), to_string(state.status()));
      CHECK(state->files == expected->files);
      CHECK(state->partitions == expected->partitions);
      CHECK(state->invalid_instant_blocks == 0);

      auto make = [&] {
        memory_storage c = make_table(version);
        add_hudi_clean_deltacommit(c, version, completed);
        return c;
      };
      crash_after_each_change(make, run, all_files(s), 30);
    }
  }
}

TEST_CASE("a pending clean's deltacommit is rolled back and written again even after the metadata table compacted") {
  // Hudi's commitInternal runs no validateRollback (that guards rollbacks of
  // data-table instants): the compacted base file keeps the records, and
  // the new log of the same records lands in the latest slice.
  memory_storage s = make_table(8);
  add_hudi_clean_deltacommit(s, 8, true);
  const std::string dir = ".hoodie/metadata/.hoodie/timeline/";
  put(s, dir + "20240102000000500.compaction.requested", compaction_plan(1));
  put(s, dir + "20240102000000500.compaction.inflight", "");
  put(s, dir + "20240102000000500_20240102000000600.commit", must(deltacommit_avro({}, true)));
  const TableProperties p = props_of(s);
  const InstantTime later_floor = *InstantTime::parse("20240104000000000");
  auto inputs = check_clean_update(s, p, data_timeline(State::inflight), "", later_floor);
  REQUIRE_MESSAGE(inputs.ok(), to_string(inputs.status()));
  CHECK(inputs->roll_back_first == std::set<InstantTime>{kClean});
  auto done = write_clean_deltacommit(s, p, "", kClean, the_clean(), *inputs, [] { return kClock; });
  REQUIRE_MESSAGE(done.ok(), to_string(done.status()));
  CHECK(done->rolled_back_by.has_value());
  CHECK_FALSE(s.read(".hoodie/metadata/files/.files-0000-0_20240102000000000.log.1_0-1-2").ok());
  CHECK(s.read(".hoodie/metadata/files/.files-0000-0_20240102000000000.log.1_1-0-1").ok());
}

TEST_CASE("a pending clean's metadata deltacommit lakegc cannot write again as Hudi would is refused") {
  const InstantTime later_floor = *InstantTime::parse("20240104000000000");
  SUBCASE("version 6: a later metadata instant, behind which the clean's records would go") {
    memory_storage s = make_table(6);
    put(s, ".hoodie/metadata/.hoodie/20240102000000500.deltacommit.requested", "");
    put(s, ".hoodie/metadata/.hoodie/20240102000000500.deltacommit.inflight", deltacommit_json({}, false));
    put(s, ".hoodie/metadata/.hoodie/20240102000000500.deltacommit", deltacommit_json({}, true));
    const Status st = check_clean_update(s, props_of(s), data_timeline(State::inflight), "", later_floor).status();
    CHECK(absl::IsFailedPrecondition(st));
    CHECK(message_of(st).find("20240102000000500 after pending clean 20240102000000000") != std::string_view::npos);
    // Version 8 names the log by the clean: the same state is written.
    memory_storage v8 = make_table(8);
    put(v8, ".hoodie/metadata/.hoodie/timeline/20240102000000500.deltacommit.requested", "");
    put(v8, ".hoodie/metadata/.hoodie/timeline/20240102000000500.deltacommit.inflight",
        must(deltacommit_avro({}, false)));
    put(v8, ".hoodie/metadata/.hoodie/timeline/20240102000000500_20240102000000600.deltacommit",
        must(deltacommit_avro({}, true)));
    CHECK(check_clean_update(v8, props_of(v8), data_timeline(State::inflight), "", later_floor).ok());
    CHECK(update(v8, props_of(v8)).ok());
  }
}

TEST_CASE("the 0-byte-clean repair's checks see each emptied clean pending again and each dropped one gone") {
  std::vector<Instant> instants = {
      {kWrite, std::nullopt, Action::commit, State::completed},
      {kClean, InstantTime::parse("20240102000000100").value(), Action::clean, State::completed},
      {*InstantTime::parse("20240102100000000"), std::nullopt, Action::clean, State::completed}};
  auto t = Timeline::make(instants);
  REQUIRE(t.ok());
  EmptyCleanRepair r;
  r.emptied = {*InstantTime::parse("20240102100000000"), kClean};
  r.dropped = {*InstantTime::parse("20240102100000000")};
  auto repaired = as_repaired(*t, r);
  REQUIRE(repaired.ok());
  REQUIRE(repaired->instants().size() == 2);
  CHECK(repaired->instants()[0] == instants[0]);
  CHECK(repaired->instants()[1].requested == kClean);
  CHECK(repaired->instants()[1].is_pending());
  CHECK_FALSE(repaired->instants()[1].completed.has_value());
}

TEST_CASE("write_hfile's files read back with read_hfile, in one block or many, gzip or not") {
  std::vector<std::pair<std::string, std::string>> cells;
  for (int i = 0; i < 50; ++i)
    cells.emplace_back(fmt::format("key{:03}", i), std::string(static_cast<std::size_t>(i), 'v'));
  for (const auto compression : {hfile::codec::gz, hfile::codec::none}) {
    for (const std::size_t block_size : {std::size_t{1} << 20, std::size_t{200}}) {
      CAPTURE(block_size);
      hfile::hfile_write_options o;
      o.compression = compression;
      o.block_size = block_size;
      auto bytes = hfile::write_hfile(cells, {{"schema", "{}"}}, o);
      REQUIRE_MESSAGE(bytes.ok(), to_string(bytes.status()));
      auto read = hfile::read_hfile(*bytes, "written");
      REQUIRE_MESSAGE(read.ok(), to_string(read.status()));
      CHECK(read->info.entry_count == cells.size());
      CHECK(read->info.compression == compression);
      CHECK((read->info.data_index_count > 1) == (block_size == 200));
      CHECK(read->file_info.at("schema") == "{}");
      // Hudi's native reader needs these names exactly (HFileInfo): a
      // missing MAX_MEMSTORE_TS_KEY fails it with a NullPointerException.
      std::set<std::string> names;
      for (const auto& [k, v] : read->file_info) names.insert(k);
      CHECK(names == std::set<std::string>{"MAX_MEMSTORE_TS_KEY", "KEY_VALUE_VERSION", "hfile.LASTKEY",
                                           "hfile.CREATE_TIME_TS", "hfile.AVG_KEY_LEN", "hfile.AVG_VALUE_LEN",
                                           "schema"});
      CHECK(read->file_info.at("MAX_MEMSTORE_TS_KEY") == std::string(8, '\0'));
      CHECK(read->file_info.at("hfile.LASTKEY") == std::string("\0\6key049", 8));
      REQUIRE(read->cells.size() == cells.size());
      for (std::size_t i = 0; i < cells.size(); ++i) {
        CHECK(read->cells[i].key == cells[i].first);
        CHECK(read->cells[i].value == cells[i].second);
      }
    }
  }
  std::swap(cells[3], cells[4]);
  CHECK(absl::IsInvalidArgument(hfile::write_hfile(cells, {}).status()));
}

}  // namespace lakegc::tests::metadata_clean_test

namespace lakegc::tests::metadata_clean_test {

TEST_CASE("a table-version-6 rollback's metadata deltacommit lists its rollback log files, as Hudi's writer does") {
  // HoodieBackedTableMetadataWriterTableVersionSix.update(rollback): the
  // rollback log files and the failed write's log files it kept are added
  // to the files partition (the larger size where both name one file); the
  // files it deleted are not recorded; a partition without rollback log
  // files gets nothing.
  memory_storage s = make_table(6);
  const TableProperties p = props_of(s);
  RollbackMetadataRecord m;
  m.start_rollback_time = kClean.str();
  RollbackPartitionRecord& p1 = m.partition_metadata["p1"];
  p1.partition_path = "p1";
  p1.success_delete_files = {"/t/p1/a.parquet"};
  p1.rollback_log_files = {{"file:/t/p1/.g_20240101000000000.log.2_1-0-1", 120}};
  p1.log_files_from_failed_commit = {{"/t/p1/.g_20240101000000000.log.1_0-1-2", 900},
                                     {"/t/p1/.g_20240101000000000.log.2_1-0-1", 80}};
  RollbackPartitionRecord& p2 = m.partition_metadata["p2"];
  p2.partition_path = "p2";
  p2.success_delete_files = {"/t/p2/c.parquet"};
  const partition_records records = rollback_files_records(m);
  CHECK(records.partition == "files");
  REQUIRE(records.upserts.size() == 1);
  CHECK(records.upserts[0].first == "p1");
  CHECK(records.deleted_keys.empty());

  auto done = write_metadata_deltacommit(s, p, "", kClean, std::span(&records, 1), "rollback", [] { return kClock; });
  REQUIRE_MESSAGE(done.ok(), to_string(done.status()));
  REQUIRE(done->logs.size() == 1);
  // The data table's rollback at kClean completed: readers take its block.
  std::vector<Instant> instants = {{kWrite, std::nullopt, Action::commit, State::completed},
                                   {kClean, std::nullopt, Action::rollback, State::completed}};
  auto data = Timeline::make(std::move(instants));
  REQUIRE(data.ok());
  auto after = files_partition_state(s, *data);
  REQUIRE_MESSAGE(after.ok(), to_string(after.status()));
  CHECK(after->files["p1"] == std::map<std::string, std::uint64_t>{{".g_20240101000000000.log.1_0-1-2", 900},
                                                                   {".g_20240101000000000.log.2_1-0-1", 120},
                                                                   {"a.parquet", 100},
                                                                   {"b.parquet", 200}});
  CHECK(after->files["p2"] == std::map<std::string, std::uint64_t>{{"c.parquet", 300}});
}

}  // namespace lakegc::tests::metadata_clean_test

namespace lakegc::tests::metadata_clean_test {

TEST_CASE("which failed writes' metadata deltacommits a rollback takes along, and which it refuses") {
  // make_table's metadata table has a completed deltacommit at kWrite: the
  // state of a write that failed after its metadata commit.
  SUBCASE("version 8: rolled back along with the data table's rollback") {
    memory_storage s = make_table(8);
    auto reached = check_rollback_update(s, props_of(s), "", {kWrite, kClean});
    REQUIRE_MESSAGE(reached.ok(), to_string(reached.status()));
    CHECK(*reached == std::set<InstantTime>{kWrite});
  }
  SUBCASE("version 8: refused once the metadata table compacted after it (Hudi's validateRollback)") {
    memory_storage s = make_table(8);
    put(s, ".hoodie/metadata/.hoodie/timeline/20240101000000500.compaction.requested", "");
    put(s, ".hoodie/metadata/.hoodie/timeline/20240101000000500_20240101000000600.commit", "");
    auto reached = check_rollback_update(s, props_of(s), "", {kWrite});
    REQUIRE_FALSE(reached.ok());
    CHECK(to_string(reached.status()).find("before its latest compaction 20240101000000500") != std::string::npos);
  }
  SUBCASE("version 6: a completed one is rolled back too; a pending one is left to the metadata table") {
    memory_storage s = make_table(6);
    auto reached = check_rollback_update(s, props_of(s), "", {kWrite, kClean});
    REQUIRE_MESSAGE(reached.ok(), to_string(reached.status()));
    CHECK(*reached == std::set<InstantTime>{kWrite});
    put(s, ".hoodie/metadata/.hoodie/20240102000000000.deltacommit.requested", "");
    auto pending = check_rollback_update(s, props_of(s), "", {kClean});
    REQUIRE_MESSAGE(pending.ok(), to_string(pending.status()));
    CHECK(pending->empty());
  }
  SUBCASE("version 6: refused when not after the latest compaction (validateRollbackVersionSix)") {
    memory_storage s = make_table(6);
    // A compaction instant with Hudi's "001" suffix on the deltacommit's time.
    put(s, ".hoodie/metadata/.hoodie/20240101000000000001.compaction.requested", "");
    put(s, ".hoodie/metadata/.hoodie/20240101000000000001.commit", "{}");
    auto reached = check_rollback_update(s, props_of(s), "", {kWrite});
    REQUIRE_FALSE(reached.ok());
    CHECK(to_string(reached.status()).find("not after its latest compaction 20240101000000000001") !=
          std::string::npos);
  }
}

TEST_CASE("version 6: a failed write's completed metadata deltacommit gets rollback blocks after its logs") {
  // HoodieBackedTableMetadataWriterTableVersionSix.update(rollback): the
  // rollback's own deltacommit first, then the metadata table's write
  // client rolls the failed write's deltacommit back at the rollback
  // instant + "006": listing-based, the log it appended to slice kWrite is
  // kept and a rollback command block follows it in the next log version.
  const InstantTime failed = *InstantTime::parse("20240101120000000");
  const InstantTime rollback = *InstantTime::parse("20240101130000000");
  auto setup = [&] {
    memory_storage s = make_table(6);
    const partition_records added{
        "files",
        {{"p1", metadata_table::detail::metadata_record("p1", file_list_type, {{"d.parquet", {400, false}}})}},
        {}};
    auto wrote =
        write_metadata_deltacommit(s, props_of(s), "", failed, std::span(&added, 1), "commit", [] { return kClock; });
    REQUIRE_MESSAGE(wrote.ok(), to_string(wrote.status()));
    REQUIRE(wrote->logs.size() == 1);
    CHECK(wrote->logs[0].path == "files/.files-0000-0_20240101000000000.log.2_0-7-9");
    return s;
  };
  RollbackMetadataRecord m;
  m.start_rollback_time = rollback.str();
  m.partition_metadata["p1"].partition_path = "p1";
  m.partition_metadata["p1"].success_delete_files = {"/t/p1/d.parquet"};
  memory_storage s = setup();
  const TableProperties p = props_of(s);
  auto run = [&](auto& storage) -> StatusOr<MetadataTableRollbackUpdate> {
    LAKEGC_ASSIGN_OR_RETURN(std::set<InstantTime> reached, check_rollback_update(storage, p, "", {failed}));
    if (reached != std::set<InstantTime>{failed}) {
      // Only a rerun after the metadata table's rollback began finds it un-published.
      const bool began = storage.read(".hoodie/metadata/.hoodie/20240101130000000006.rollback.requested").ok();
      if (!began) return absl::InternalError("the failed write's deltacommit is not reached");
    }
    return roll_back_in_metadata_table(storage, p, "", failed, rollback, m, [] { return kClock; });
  };
  auto done = run(s);
  REQUIRE_MESSAGE(done.ok(), to_string(done.status()));
  CHECK(done->deltacommit == rollback);
  REQUIRE(done->rollback.has_value());
  CHECK(done->rollback->start_rollback_time == "20240101130000000006");
  // The rollback's deltacommit has no records here (no rollback log files
  // in the data table) and writes no log; the rollback block goes to log.3.
  const std::string block_log = ".hoodie/metadata/files/.files-0000-0_20240101000000000.log.3_0-7-9";
  auto bytes = s.read(block_log);
  REQUIRE(bytes.ok());
  auto blocks = log::read_blocks(*bytes, block_log);
  REQUIRE(blocks.ok());
  REQUIRE(blocks->size() == 1);
  CHECK((*blocks)[0].type == log::block_type::command);
  CHECK((*blocks)[0].get(log::header_key::target_instant_time) == std::optional<std::string_view>(failed.str()));
  CHECK((*blocks)[0].instant_time() == "20240101130000000006");
  CHECK(s.read(".hoodie/metadata/files/.files-0000-0_20240101000000000.log.2_0-7-9").ok());  // kept
  CHECK_FALSE(s.read(".hoodie/metadata/.hoodie/20240101120000000.deltacommit").ok());
  CHECK(s.read(".hoodie/metadata/.hoodie/20240101130000000.deltacommit").ok());
  CHECK(s.read(".hoodie/metadata/.hoodie/20240101130000000006.rollback").ok());
  CHECK_FALSE(s.read(".hoodie/metadata/.hoodie/.temp/20240101130000000006/files/"
                     ".files-0000-0_20240101000000000.log.3_0-7-9.marker.APPEND")
                  .ok());

  // The block is what hides the failed blocks once the timeline no longer
  // tells (the instant archived): scan the slice's logs taking every
  // instant as valid, with and without it.
  auto scan_all = [&](memory_storage& st, std::vector<std::string> logs) {
    auto scan = scan_logs(st, std::span<const std::string>(logs), [](std::string_view) { return true; });
    REQUIRE_MESSAGE(scan.ok(), to_string(scan.status()));
    bool seen = false;
    for (const auto& r : scan->records) seen |= r.instant == failed.str();
    return seen;
  };
  const std::string dir = ".hoodie/metadata/files/.files-0000-0_20240101000000000.log.";
  CHECK_FALSE(scan_all(s, {dir + "1_0-7-9", dir + "2_0-7-9", dir + "3_0-7-9"}));
  CHECK(scan_all(s, {dir + "1_0-7-9", dir + "2_0-7-9"}));

  crash_after_each_change(setup, run, all_files(s), 40);
}

}  // namespace lakegc::tests::metadata_clean_test
