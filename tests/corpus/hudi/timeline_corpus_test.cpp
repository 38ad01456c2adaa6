// Every timeline file of the twelve real Spark-written Hudi tables decodes
// with the decoder its name calls for, and the decoded contents match the
// facts read off the files by hand. Every non-empty file cut to half its
// length is an error, not a crash.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "corpus.hpp"
#include "lakegc/hudi/avro_reader.hpp"
#include "lakegc/hudi/load_metadata.hpp"
#include "lakegc/hudi/metadata_codec.hpp"
#include "lakegc/hudi/rollback_records.hpp"

namespace lakegc::tests::timeline_corpus_test {

namespace fs = std::filesystem;
using namespace lakegc::hudi;

namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

/// Which decoder a timeline file name calls for.
enum class decoder { commit, compaction, clustering, rollback, cleaner_plan, clean, savepoint, generic };

decoder decoder_for(std::string_view name) {
  // Everything after the first dot: ".commit", ".deltacommit.inflight", ...
  // ("<ts>.inflight" alone is the in-flight commit).
  const std::string_view suffix = name.substr(std::min(name.find('.'), name.size()));
  static const std::map<std::string_view, decoder> by_suffix = {
      {".commit", decoder::commit},
      {".deltacommit", decoder::commit},
      {".replacecommit", decoder::commit},
      {".inflight", decoder::commit},
      {".commit.requested", decoder::commit},
      {".deltacommit.requested", decoder::commit},
      {".deltacommit.inflight", decoder::commit},
      {".replacecommit.inflight", decoder::commit},
      {".compaction.requested", decoder::compaction},
      {".compaction.inflight", decoder::compaction},
      {".logcompaction.requested", decoder::compaction},
      {".logcompaction.inflight", decoder::compaction},
      {".clustering.requested", decoder::clustering},
      {".clustering.inflight", decoder::clustering},
      {".replacecommit.requested", decoder::clustering},
      {".rollback", decoder::rollback},
      {".clean.requested", decoder::cleaner_plan},
      {".clean.inflight", decoder::cleaner_plan},
      {".clean", decoder::clean},
      {".savepoint", decoder::savepoint},
      {".savepoint.inflight", decoder::savepoint},
  };
  const auto it = by_suffix.find(suffix);
  return it == by_suffix.end() ? decoder::generic : it->second;  // rollback plans, indexing, restore, ...
}

/// Timeline file names: "<ts>[_<completion>].<action>[.<state>]".
bool is_instant_file(std::string_view name) {
  const auto dot = name.find('.');
  if (dot == 0 || dot == std::string_view::npos) return false;
  const auto ts = name.substr(0, dot);
  return std::all_of(ts.begin(), ts.end(), [](char c) { return (c >= '0' && c <= '9') || c == '_'; });
}

absl::Status decode(decoder d, std::string_view bytes, std::string_view name) {
  switch (d) {
    case decoder::commit: return decode_commit_metadata(bytes, name).status();
    case decoder::compaction:
      // v8/v9 leave .compaction.inflight empty; the plan is in .requested.
      if (bytes.empty() && ends_with(name, ".inflight")) return absl::OkStatus();
      return decode_compaction_plan(bytes, name).status();
    case decoder::clustering: return decode_clustering_plan(bytes, name).status();
    case decoder::rollback: return decode_rollback_metadata(bytes, name).status();
    case decoder::cleaner_plan: return decode_cleaner_plan(bytes, name).status();
    case decoder::clean: return decode_clean_metadata(bytes, name).status();
    case decoder::savepoint: return decode_savepoint_metadata(bytes, name).status();
    case decoder::generic:
      if (bytes.empty()) return absl::OkStatus();
      return avro::read_first_record(bytes, name).status();
  }
  return absl::InternalError("unreachable");
}

struct timeline_file {
  std::string table;
  std::string name;
  std::string bytes;
};

/// Every instant file of every corpus table, read once for all test cases.
const std::vector<timeline_file>& all_timeline_files() {
  static const std::vector<timeline_file> files = [] {
    std::vector<timeline_file> out;
    lakegc::testing::temp_dir tmp;
    for (const auto& table : lakegc::testing::corpus_tables()) {
      // Tables are unzipped into their own folders: two share the leaf name
      // v9_txns_simple_nometa. unzip -d creates only the last folder level.
      fs::create_directories(tmp.path() / table);
      const fs::path root = lakegc::testing::unzip_table(table, tmp.path() / table);
      const fs::path hoodie = root / ".hoodie";
      // Layout 2 keeps the timeline in .hoodie/timeline/; layout 1 directly
      // in .hoodie/. Subfolders (metadata/, .aux/, archived/, history/) are
      // not walked.
      const fs::path timeline = fs::is_directory(hoodie / "timeline") ? hoodie / "timeline" : hoodie;
      for (const auto& entry : fs::directory_iterator(timeline)) {
        if (!entry.is_regular_file()) continue;
        const std::string name = entry.path().filename().string();
        if (!is_instant_file(name)) continue;
        out.push_back({table, name, lakegc::testing::file_contents(entry.path())});
      }
    }
    std::sort(out.begin(), out.end(),
              [](const auto& a, const auto& b) { return std::tie(a.table, a.name) < std::tie(b.table, b.name); });
    return out;
  }();
  return files;
}

const timeline_file& find_file(std::string_view table, std::string_view name) {
  for (const auto& f : all_timeline_files()) {
    if (f.table == table && f.name == name) return f;
  }
  FAIL("no timeline file " << std::string(name) << " in " << std::string(table));
  throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("every timeline file of every corpus table decodes") {
  const auto& files = all_timeline_files();
  std::map<encoding, int> by_encoding;
  std::map<decoder, int> by_decoder;
  std::set<std::string> tables;
  for (const auto& f : files) {
    CAPTURE(f.table);
    CAPTURE(f.name);
    const decoder d = decoder_for(f.name);
    const absl::Status st = decode(d, f.bytes, f.name);
    CHECK_MESSAGE(st.ok(), std::string(lakegc::message_of(st)));
    ++by_encoding[detect_encoding(f.bytes)];
    ++by_decoder[d];
    tables.insert(f.table);
  }
  // Counted by hand: 28 JSON, 80 Avro and 48 empty instant files in the
  // data-table timelines (the empty v6 table has none).
  CHECK(files.size() == 156);
  CHECK(tables.size() == 11);
  CHECK(by_encoding[encoding::json] == 28);
  CHECK(by_encoding[encoding::avro] == 80);
  CHECK(by_encoding[encoding::empty] == 48);
  CHECK(by_encoding[encoding::unknown] == 0);
  CHECK(by_decoder[decoder::compaction] == 4);  // 2 requested + 2 empty inflight
  CHECK(by_decoder[decoder::clustering] == 8);  // 4 replacecommit.requested, 2 clustering.requested + inflight
  CHECK(by_decoder[decoder::rollback] == 1);
  CHECK(by_decoder[decoder::generic] == 5);  // rollback.requested/.inflight, indexing.requested/.inflight/completed
}

// The journal decodes commit files straight into CommitInfo (a file name and
// a size per write stat); decode_commit_metadata keeps every field. On every
// real commit file, JSON and Avro, the two must tell the same story.
TEST_CASE("the journal's commit decoding agrees with the full decoder on every real commit file") {
  int compared = 0;
  int files_named = 0;
  for (const auto& f : all_timeline_files()) {
    if (decoder_for(f.name) != decoder::commit) continue;
    CAPTURE(f.table);
    CAPTURE(f.name);
    const auto full = decode_commit_metadata(f.bytes, f.name);
    const auto info = hudi::detail::decode_commit_info(f.bytes, f.name);
    REQUIRE(full.ok());
    REQUIRE(info.ok());
    std::set<std::string> partitions;
    std::vector<WrittenFile> files;
    for (const auto& ws : full->write_stats) {
      partitions.insert(ws.partition_path);
      if (!ws.path.empty())
        files.push_back({ws.partition_path, hudi::detail::file_name_of(ws.path), ws.file_size_bytes});
    }
    CHECK(info->partitions_written == std::vector<std::string>(partitions.begin(), partitions.end()));
    CHECK(info->files == files);
    std::size_t replaced = 0;
    for (const auto& [partition, ids] : full->partition_to_replace_file_ids) replaced += ids.size();
    CHECK(info->replaced.size() == replaced);
    ++compared;
    files_named += static_cast<int>(info->files.size());
  }
  CHECK(compared > 50);
  CHECK(files_named > 50);
}

TEST_CASE("every non-empty timeline file cut at half its length is an error") {
  for (const auto& f : all_timeline_files()) {
    if (f.bytes.empty()) continue;
    CAPTURE(f.table);
    CAPTURE(f.name);
    const std::string_view half = std::string_view(f.bytes).substr(0, f.bytes.size() / 2);
    const decoder d = decoder_for(f.name);
    const absl::Status st = decode(d, half, f.name);
    CHECK_FALSE(st.ok());
    CHECK(std::string(lakegc::message_of(st)).find(f.name + ": expected ") == 0);
    // The other decoders must return on it too (usually with an error).
    (void)decode_commit_metadata(half, f.name);
    (void)decode_compaction_plan(half, f.name);
    (void)decode_clustering_plan(half, f.name);
    (void)decode_cleaner_plan(half, f.name);
    (void)decode_clean_metadata(half, f.name);
    (void)decode_rollback_metadata(half, f.name);
    (void)decode_savepoint_metadata(half, f.name);
  }
}

TEST_CASE("v6 COW INSERT OVERWRITE TABLE replaces exactly the three listed file groups (JSON)") {
  const auto& f =
      find_file("sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable", "20240707001303088.replacecommit");
  const auto r = decode_commit_metadata(f.bytes, f.name);
  REQUIRE(r.ok());
  CHECK(r->operation_type == "INSERT_OVERWRITE_TABLE");
  const std::map<std::string, std::vector<std::string>> expected = {
      {"10", {"4f2685a3-614f-49ca-9b2b-e1cb9fb61f27-0"}},
      {"20", {"88163884-fef0-4aab-865d-c72327a8a1d5-0"}},
      {"30", {"d398fae1-c0e6-4098-8124-f55f7098bdba-0"}},
  };
  CHECK(r->partition_to_replace_file_ids == expected);
  REQUIRE(r->write_stats.size() == 1);
  CHECK(r->write_stats[0].partition_path == "30");
  CHECK(r->write_stats[0].file_id == "ebcb261d-62d3-4895-90ec-5b3c9622dff4-0");
  CHECK(r->write_stats[0].prev_commit.empty());
  CHECK(r->write_stats[0].file_size_bytes == 441392);

  // Its requested file is an all-null HoodieRequestedReplaceMetadata.
  const auto& req = find_file("sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable",
                              "20240707001303088.replacecommit.requested");
  const auto plan = decode_clustering_plan(req.bytes, req.name);
  REQUIRE(plan.ok());
  CHECK(plan->input_file_groups.empty());
}

TEST_CASE("v9 COW clustering replaces the file groups its plan reads (Avro)") {
  const std::string table = "sample_table/cow/v9_txns_simple_nometa";
  const auto& f = find_file(table, "20260307135709297_20260307135709818.replacecommit");
  const auto r = decode_commit_metadata(f.bytes, f.name);
  REQUIRE(r.ok());
  CHECK(r->operation_type == "CLUSTER");
  const std::map<std::string, std::vector<std::string>> expected = {
      {"region=apac", {"501c09bc-09b2-4abe-81ee-31bd9cea901b-0", "859bcb77-dfd4-4b44-9ead-ed0ba8abe35a-0"}},
      {"region=eu", {"2ecf970b-9f50-488a-b55b-6ee0f6e29d3c-0"}},
      {"region=us", {"d32df875-21bd-41a4-941a-924fc7b82f01-0", "742a4f26-7e5c-4b1c-bb9a-d13433f75557-0"}},
  };
  auto sorted = [](std::map<std::string, std::vector<std::string>> m) {
    for (auto& [k, v] : m) std::sort(v.begin(), v.end());
    return m;
  };
  CHECK(sorted(r->partition_to_replace_file_ids) == sorted(expected));
  // One new file group per partition.
  REQUIRE(r->write_stats.size() == 3);
  std::set<std::string> partitions;
  for (const auto& ws : r->write_stats) partitions.insert(ws.partition_path);
  CHECK(partitions == std::set<std::string>{"region=apac", "region=eu", "region=us"});

  // The plan's input slices are exactly the replaced file groups.
  const auto& req = find_file(table, "20260307135709297.clustering.requested");
  const auto plan = decode_clustering_plan(req.bytes, req.name);
  REQUIRE(plan.ok());
  std::map<std::string, std::vector<std::string>> inputs;
  for (const auto& [partition, file_id] : plan->input_file_groups) inputs[partition].push_back(file_id);
  CHECK(sorted(inputs) == sorted(expected));

  // The earlier INSERT_OVERWRITE replaced two eu file groups with 2ecf970b.
  const auto& ow = find_file(table, "20260307135707243_20260307135707527.replacecommit");
  const auto o = decode_commit_metadata(ow.bytes, ow.name);
  REQUIRE(o.ok());
  CHECK(o->operation_type == "INSERT_OVERWRITE");
  REQUIRE(o->partition_to_replace_file_ids.count("region=eu") == 1);
  CHECK(o->partition_to_replace_file_ids.at("region=eu").size() == 2);
  REQUIRE(o->write_stats.size() == 1);
  CHECK(o->write_stats[0].file_id == "2ecf970b-9f50-488a-b55b-6ee0f6e29d3c-0");
}

TEST_CASE("v8 trips compaction plan: three file groups on base instant 20251220210108078") {
  const std::string table = "quickstart_trips_table/mor/avro/v8_trips_8i3u1d";
  const auto& f = find_file(table, "20251220210129235.compaction.requested");
  const auto plan = decode_compaction_plan(f.bytes, f.name);
  REQUIRE(plan.ok());
  REQUIRE(plan->operations.size() == 3);
  std::map<std::string, std::string> file_groups;  // fileId -> partition
  for (const auto& op : plan->operations) {
    CHECK(op.base_instant == "20251220210108078");
    CHECK(op.data_file_name.find(op.file_id + "_") == 0);
    CHECK(ends_with(op.data_file_name, "_20251220210108078.parquet"));
    CHECK_FALSE(op.delta_file_names.empty());
    for (const auto& log : op.delta_file_names) CHECK(log.find("." + op.file_id + "_") == 0);
    file_groups[op.file_id] = op.partition_path;
  }
  CHECK(file_groups == std::map<std::string, std::string>{
                           {"036ded81-9ed4-479f-bcea-7145dfa0079b-0", "city=san_francisco"},
                           {"6e1d5cc4-c487-487d-abbe-fe9b30b1c0cc-0", "city=chennai"},
                           {"8aa68f7e-afd6-4c94-b86c-8a886552e08d-0", "city=sao_paulo"},
                       });

  // It completes as a commit with compacted = true.
  const auto& done = find_file(table, "20251220210129235_20251220210129883.commit");
  const auto c = decode_commit_metadata(done.bytes, done.name);
  REQUIRE(c.ok());
  CHECK(c->compacted);
  CHECK(c->write_stats.size() == 3);
}

TEST_CASE("v8 trips deltacommit 20251220210130911 writes one log file in city=sao_paulo") {
  const auto& f =
      find_file("quickstart_trips_table/mor/avro/v8_trips_8i3u1d", "20251220210130911_20251220210131755.deltacommit");
  const auto r = decode_commit_metadata(f.bytes, f.name);
  REQUIRE(r.ok());
  CHECK(r->operation_type == "UPSERT_PREPPED");
  REQUIRE(r->write_stats.size() == 1);
  const auto& ws = r->write_stats[0];
  CHECK(ws.partition_path == "city=sao_paulo");
  CHECK(ws.file_id == "8aa68f7e-afd6-4c94-b86c-8a886552e08d-0");
  CHECK(ws.path == "city=sao_paulo/.8aa68f7e-afd6-4c94-b86c-8a886552e08d-0_20251220210130911.log.1_0-1139-3316");
  CHECK(ws.log_files ==
        std::vector<std::string>{".8aa68f7e-afd6-4c94-b86c-8a886552e08d-0_20251220210130911.log.1_0-1139-3316"});
  CHECK(ws.base_file.empty());
  CHECK(ws.file_size_bytes == 1145);
}

TEST_CASE("v6 rollback rolled back 20250126040826878") {
  const auto& f = find_file("sample_table/mor/parquet/v6_nonpartitioned_rollback", "20250126040936578.rollback");
  const auto r = decode_rollback_metadata(f.bytes, f.name);
  REQUIRE(r.ok());
  CHECK(r->commits_rollback == std::vector<std::string>{"20250126040826878"});
  REQUIRE(r->success_delete_files.count("") == 1);
  REQUIRE(r->success_delete_files.at("").size() == 1);
  CHECK(ends_with(r->success_delete_files.at("")[0],
                  "/cd329d8f-0ce4-4654-84ab-2f769aae5034-0_1-33-44_20250126040826878.parquet"));
}

TEST_CASE("v6 JSON commit 20240418172804498 matches what the file says, read by hand") {
  const auto& f = find_file("sample_table/cow/v6_simplekeygen_nonhivestyle", "20240418172804498.commit");
  const auto r = decode_commit_metadata(f.bytes, f.name);
  REQUIRE(r.ok());
  CHECK(r->operation_type == "UPSERT");
  bool saw_new = false, saw_update = false;
  for (const auto& ws : r->write_stats) {
    if (ws.file_id == "6db57019-98ee-480e-8eb1-fb3de48e1c24-0") {
      saw_new = true;
      CHECK(ws.partition_path == "30");
      CHECK(ws.prev_commit.empty());
      CHECK(ws.file_size_bytes == 441186);
    }
    if (ws.file_id == "97de74b1-2a8e-4bb7-874c-0a74e1f42a77-0") {
      saw_update = true;
      CHECK(ws.partition_path == "10");
      CHECK(ws.prev_commit == "20240418172802262");
      CHECK(ws.file_size_bytes == 441352);
    }
  }
  CHECK(saw_new);
  CHECK(saw_update);
}

}  // namespace lakegc::tests::timeline_corpus_test
