// Layout 2's LSM timeline: its records (hudi/lsm_instant.hpp) against files
// Hudi 1.2.0 wrote (tests/unit/hudi/data/lsm/), names, manifests and the
// version file (hudi/lsm_timeline.hpp), the writer's steps, compaction and
// clean (hudi/lsm_timeline_writer.hpp), and the archival executor on a
// table in memory (hudi/archive_execute_lsm.hpp): what each instant becomes,
// the order of the deletes, a crash after every change finished by a rerun
// to the uninterrupted run's files, and the refusals.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "lakegc/hudi/archive_execute_lsm.hpp"
#include "lakegc/hudi/load_metadata.hpp"
#include "lakegc/hudi/lsm_instant.hpp"
#include "lakegc/hudi/lsm_timeline.hpp"
#include "lakegc/hudi/lsm_timeline_writer.hpp"
#include "lakegc/hudi/parquet/read.hpp"
#include "lakegc/storage/memory_storage.hpp"
#include "test_util.hpp"

namespace lakegc::tests::lsm_timeline_test {

using namespace lakegc::hudi;
using lakegc::InstantTime;

namespace {

InstantTime t(std::string_view s) { return InstantTime::parse(s).value(); }

using lakegc::hudi::testing::slurp;
const std::filesystem::path& kData = lakegc::hudi::testing::kLsmData;
constexpr const char* kLayer0 = lakegc::hudi::testing::kLsmLayer0;
constexpr const char* kLayer2 = lakegc::hudi::testing::kLsmLayer2;

// A manifest Hudi 1.2.0 wrote (LSMTimelineWriter, Jackson's pretty printer).
constexpr std::string_view kHudiManifest = R"({
  "files" : [ {
    "fileName" : "20261203065140290_20261203183802477_1.parquet",
    "fileLen" : 9137
  }, {
    "fileName" : "20261203183815388_20261203184440310_1.parquet",
    "fileLen" : 8113
  } ]
})";

lsm_instant record(std::string time, std::string completion, std::string action) {
  lsm_instant i;
  i.instant_time = std::move(time);
  i.completion_time = std::move(completion);
  i.action = std::move(action);
  i.metadata = "metadata of " + i.instant_time;
  return i;
}

TableProperties layout2() {
  TableProperties p;
  p.version = 9;
  p.layout = TimelineLayout::v2;
  p.timeline_dir = ".hoodie/timeline";
  return p;
}

std::vector<std::string> files_under(memory_storage& s, std::string_view dir) {
  std::vector<std::string> out;
  s.for_each_file([&](const FileEntry& e) {
    if (e.path.starts_with(dir)) out.emplace_back(e.path);
  });
  return out;
}

constexpr std::string_view kHistory = ".hoodie/timeline/history";

}  // namespace

TEST_CASE("LSM records: Hudi's files decode, and encode to files that decode the same, with Hudi's schema text") {
  const std::string hudi = slurp(kData / kLayer0);
  auto rows = decode_lsm_file(hudi, kLayer0);
  HUDI_REQUIRE_OK(rows);
  REQUIRE(rows->size() == 4);
  CHECK((*rows)[0].instant_time == "20261203065140290");
  CHECK((*rows)[0].completion_time == "20261203065144453");
  CHECK((*rows)[0].action == "deltacommit");
  REQUIRE((*rows)[0].metadata.has_value());
  CHECK((*rows)[0].metadata->size() == 4224);
  CHECK((*rows)[0].metadata->starts_with("Obj\x01"));  // the completed file as it was: Avro
  CHECK_FALSE((*rows)[0].plan.has_value());
  CHECK((*rows)[1].action == "replacecommit");
  CHECK((*rows)[1].plan.has_value());
  CHECK((*rows)[3].version == 1);

  // The schema text lakegc writes is the one Hudi's file carries.
  auto footer = parquet::read_file(hudi, kLayer0);
  HUDI_REQUIRE_OK(footer);
  CHECK(footer->key_value("parquet.avro.schema") == std::string(kLsmInstantSchema));
  CHECK(footer->meta.schema[0].name == "org.apache.hudi.avro.model.HoodieLSMTimelineInstant");

  auto encoded = encode_lsm_file(*rows);
  HUDI_REQUIRE_OK(encoded);
  auto mine = parquet::read_file(*encoded, "mine");
  HUDI_REQUIRE_OK(mine);
  CHECK(mine->key_value("parquet.avro.schema") == std::string(kLsmInstantSchema));
  CHECK(mine->key_value("writer.model.name") == "avro");
  CHECK(mine->meta.schema[0].name == footer->meta.schema[0].name);
  REQUIRE(mine->meta.schema.size() == footer->meta.schema.size());
  for (std::size_t i = 0; i < mine->meta.schema.size(); ++i) {
    CHECK(mine->meta.schema[i].name == footer->meta.schema[i].name);
    CHECK(mine->meta.schema[i].type == footer->meta.schema[i].type);
    CHECK(mine->meta.schema[i].repetition == footer->meta.schema[i].repetition);
    CHECK(mine->meta.schema[i].converted_type == footer->meta.schema[i].converted_type);
  }
  auto back = decode_lsm_file(*encoded, "mine");
  HUDI_REQUIRE_OK(back);
  CHECK(*back == *rows);

  auto l2 = decode_lsm_file(slurp(kData / kLayer2), kLayer2);
  HUDI_REQUIRE_OK(l2);
  CHECK(l2->size() == 44);
  auto times = decode_lsm_file(slurp(kData / kLayer2), kLayer2, lsm_columns::times_and_actions);
  HUDI_REQUIRE_OK(times);
  REQUIRE(times->size() == 44);
  CHECK_FALSE((*times)[0].metadata.has_value());  // not read
  CHECK((*times)[43].action == (*l2)[43].action);

  SUBCASE("a row without an instant time or action is refused, as Hudi's reader fails on it") {
    std::vector<lsm_instant> bad = *rows;
    auto file = encode_lsm_file(bad);
    parquet::file_contents f = parquet::read_file(*file, "x").value();
    f.columns[2].bytes[1] = std::nullopt;  // action
    auto rewritten = parquet::write_file(f.columns);
    HUDI_REQUIRE_OK(rewritten);
    auto r = decode_lsm_file(*rewritten, "bad.parquet");
    REQUIRE_FALSE(r.ok());
    CHECK(std::string(message_of(r.status())).find("row 1 has no action") != std::string::npos);
  }
}

TEST_CASE("LSM names, manifests and versions as Hudi's LSMTimeline reads them") {
  const auto n = parse_lsm_file_name("20261203065140290_20261203082443958_0.parquet");
  REQUIRE(n.has_value());
  CHECK(n->min_instant == "20261203065140290");
  CHECK(n->max_instant == "20261203082443958");
  CHECK(n->layer == 0);
  CHECK(parse_lsm_file_name("1_2_9.parquet")->layer == 9);
  CHECK_FALSE(parse_lsm_file_name("1_2_10.parquet").has_value());  // the pattern's one digit
  CHECK_FALSE(parse_lsm_file_name("1_2_0.parquet.crc").has_value());
  CHECK_FALSE(parse_lsm_file_name("a_2_0.parquet").has_value());
  CHECK_FALSE(parse_lsm_file_name("1_0.parquet").has_value());
  CHECK(lsm_data_file_name("1", "2", 3) == "1_2_3.parquet");

  CHECK(lsm_manifest_version("manifest_12") == 12);
  CHECK(lsm_manifest_version("manifest_4_x") == 4);  // split("_")[1]
  CHECK_FALSE(lsm_manifest_version("manifest_4.tmp").has_value());
  CHECK_FALSE(lsm_manifest_version("manifest_x").has_value());
  CHECK_FALSE(lsm_manifest_version("_version_").has_value());

  auto m = parse_lsm_manifest(kHudiManifest, "manifest_2");
  HUDI_REQUIRE_OK(m);
  REQUIRE(m->files.size() == 2);
  CHECK(m->files[1].name == "20261203183815388_20261203184440310_1.parquet");
  CHECK(m->files[1].length == 8113);
  CHECK(format_lsm_manifest(*m) == kHudiManifest);  // byte for byte what Hudi writes
  CHECK(format_lsm_manifest({}) == "{\n  \"files\" : [ ]\n}");
  CHECK(parse_lsm_manifest(format_lsm_manifest({}), "m")->files.empty());
  CHECK(parse_lsm_manifest(R"({"files":[{"fileName":"a","fileLen":1,"new":true}],"other":1})", "m")->files.size() == 1);
  CHECK(parse_lsm_manifest("", "m")->files.empty());  // Hudi: an empty file is an empty manifest
  auto bad = parse_lsm_manifest("{\"files\": [{\"fileLen\": 1}]}", "the manifest");
  REQUIRE_FALSE(bad.ok());
  CHECK(std::string(message_of(bad.status())).find("the manifest") != std::string::npos);
}

TEST_CASE("reading the history: the version file, its fallback to the newest manifest, files not listed ignored") {
  memory_storage s;
  const TableProperties props = layout2();
  const TableLocation where = TableLocation::of("/t");
  auto put = [&](std::string_view name, std::string_view bytes) {
    REQUIRE(s.write_if_absent(fmt::format("{}/{}", kHistory, name), bytes).ok());
  };
  SUBCASE("no folder: an empty timeline") {
    auto tl = read_lsm_timeline(s, props, where);
    HUDI_REQUIRE_OK(tl);
    CHECK(tl->snapshot.version == -1);
    CHECK(tl->instants.empty());
  }
  const std::string a = encode_lsm_file({record("20240101000000000", "20240101000001000", "commit"),
                                         record("20240101010000000", "20240101010001000", "clean")})
                            .value();
  const std::string b = encode_lsm_file({record("20240101010000000", "20240101010009000", "clean"),  // again
                                         record("20240101020000000", "20240101020001000", "deltacommit")})
                            .value();
  const std::string unlisted = encode_lsm_file({record("20240101030000000", "20240101030001000", "commit")}).value();
  put("20240101000000000_20240101010000000_0.parquet", a);
  put("20240101010000000_20240101020000000_0.parquet", b);
  put("20240101030000000_20240101030000000_0.parquet", unlisted);
  lsm_manifest m1;
  m1.files = {{"20240101000000000_20240101010000000_0.parquet", 1}};
  lsm_manifest m2 = m1;
  m2.files.push_back({"20240101010000000_20240101020000000_0.parquet", 2});
  put("manifest_1", format_lsm_manifest(m1));
  put("manifest_2", format_lsm_manifest(m2));
  put("manifest_3.tmp", "not read");
  SUBCASE("the version file says 1: only the first file") {
    put("_version_", "1");
    auto tl = read_lsm_timeline(s, props, where);
    HUDI_REQUIRE_OK(tl);
    CHECK(tl->snapshot.version == 1);
    CHECK(tl->snapshot.from_version_file);
    CHECK(tl->instants.size() == 2);
  }
  SUBCASE("no version file, or one Integer.parseInt refuses: the newest manifest") {
    for (const char* v : {"", "2\n", "two"}) {
      CAPTURE(v);
      if (*v != '\0') put("_version_", v);
      auto tl = read_lsm_timeline(s, props, where);
      HUDI_REQUIRE_OK(tl);
      CHECK(tl->snapshot.version == 2);
      CHECK_FALSE(tl->snapshot.from_version_file);
      CHECK(tl->snapshot.versions == std::vector<std::int32_t>{1, 2});
      // Every instant once (the first file's clean wins), the unlisted file ignored.
      REQUIRE(tl->instants.size() == 3);
      CHECK(tl->find("20240101010000000")->completion_time == "20240101010001000");
      CHECK(tl->find("20240101030000000") == nullptr);
      if (*v != '\0') REQUIRE(s.remove(fmt::format("{}/_version_", kHistory)).ok());
    }
  }
  SUBCASE("a version whose manifest is missing, or lists a bad name, is an error naming the file") {
    put("_version_", "7");
    auto tl = read_lsm_timeline(s, props, where);
    REQUIRE_FALSE(tl.ok());
    CHECK(std::string(message_of(tl.status())).find("manifest_7") != std::string::npos);
    REQUIRE(s.remove(fmt::format("{}/_version_", kHistory)).ok());
    put("_version_", "4");
    put("manifest_4", R"({"files":[{"fileName":"../x.parquet","fileLen":1}]})");
    tl = read_lsm_timeline(s, props, where);
    REQUIRE_FALSE(tl.ok());
    CHECK(std::string(message_of(tl.status())).find("not an LSM data file name") != std::string::npos);
  }
  SUBCASE("the completion times of archived write instants, for the view") {
    put("_version_", "2");
    auto c = hudi::detail::archived_write_completions(s, props, where);
    HUDI_REQUIRE_OK(c);
    // The commit and the deltacommit; the clean is no write.
    CHECK(*c == std::map<InstantTime, InstantTime>{{t("20240101000000000"), t("20240101000001000")},
                                                   {t("20240101020000000"), t("20240101020001000")}});
  }
}

TEST_CASE("the writer: a data file, manifest and version file; a rerun skips what the manifest has") {
  memory_storage s;
  const TableProperties props = layout2();
  const TableLocation where = TableLocation::of("/t");
  lsm_writer<memory_storage> w(s, props, where, {});
  const std::vector<lsm_instant> rows = {record("20240101000000000", "20240101000001000", "commit"),
                                         record("20240101020000000", "20240101020001000", "deltacommit")};
  LsmChanges c;
  HUDI_REQUIRE_OK(w.write(rows, c));
  CHECK(c.data_file == "20240101000000000_20240101020000000_0.parquet");
  CHECK(c.manifests_written == std::vector<std::string>{"manifest_1"});
  CHECK(s.read(".hoodie/timeline/history/_version_").value() == "1");
  auto tl = read_lsm_timeline(s, props, where, lsm_columns::all);
  HUDI_REQUIRE_OK(tl);
  CHECK(tl->instants == rows);
  const std::string file = ".hoodie/timeline/history/20240101000000000_20240101020000000_0.parquet";
  CHECK(tl->snapshot.manifest.files[0].length == static_cast<std::int64_t>(s.stat(file).value().size));

  // Again: the file is in the latest manifest, nothing is written.
  const auto before = files_under(s, kHistory);
  LsmChanges again;
  HUDI_REQUIRE_OK(w.write(rows, again));
  CHECK(again.data_file_already_committed);
  CHECK(again.manifests_written.empty());
  CHECK(files_under(s, kHistory) == before);

  SUBCASE("a leftover of a crashed write (not in the manifest) is written again, its stale checksum deleted") {
    REQUIRE(s.remove(".hoodie/timeline/history/_version_").ok());
    REQUIRE(s.remove(".hoodie/timeline/history/manifest_1").ok());
    REQUIRE(s.remove(file).ok());
    REQUIRE(s.write_if_absent(file, "half a file").ok());
    REQUIRE(s.write_if_absent(".hoodie/timeline/history/.20240101000000000_20240101020000000_0.parquet.crc", "c").ok());
    REQUIRE(s.write_if_absent(".hoodie/timeline/history/._version_.crc", "stale").ok());
    LsmChanges redo;
    HUDI_REQUIRE_OK(w.write(rows, redo));
    CHECK_FALSE(redo.data_file_already_committed);
    CHECK(files_under(s, kHistory) == before);
    HUDI_REQUIRE_OK(read_lsm_timeline(s, props, where));
  }
  SUBCASE("a version file a crash deleted is written again") {
    REQUIRE(s.remove(".hoodie/timeline/history/_version_").ok());
    LsmChanges redo;
    HUDI_REQUIRE_OK(w.write(rows, redo));
    CHECK(redo.version_file_restored);
    CHECK(s.read(".hoodie/timeline/history/_version_").value() == "1");
  }
  SUBCASE("a retained-versions setting below 1 is refused: Hudi's clean would delete the whole history") {
    lsm_writer<memory_storage> zero(s, props, where, {10, 1048576000, 0});
    LsmChanges z;
    const Status st = zero.compact_and_clean(z);
    CHECK(std::string(message_of(st)).find("hoodie.timeline.manifest.retained.versions=0") != std::string::npos);
    CHECK(files_under(s, kHistory) == before);
  }
}

TEST_CASE(
    "compaction merges a full layer into the next, layer after layer, then the clean keeps retained + compacted") {
  memory_storage s;
  const TableProperties props = layout2();
  const TableLocation where = TableLocation::of("/t");
  LsmWriterOptions o;
  o.compaction_batch = 2;
  o.manifest_retained_versions = 1;
  lsm_writer<memory_storage> w(s, props, where, o);
  std::vector<lsm_instant> all;
  for (int i = 0; i < 4; ++i) {
    const std::string a = fmt::format("2024010{}000000000", i + 1);
    const std::string b = fmt::format("2024010{}120000000", i + 1);
    std::vector<lsm_instant> rows = {record(a, a.substr(0, 10) + "0000001000", "commit"),
                                     record(b, b.substr(0, 10) + "0000002000", "clean")};
    rows[1].plan = "plan of " + b;
    LsmChanges c;
    HUDI_REQUIRE_OK(w.write(rows, c));
    HUDI_REQUIRE_OK(w.compact_and_clean(c));
    all.insert(all.end(), rows.begin(), rows.end());
    CAPTURE(i);
    if (i == 0) {
      CHECK(c.compactions.empty());  // one file in layer 0
    } else if (i == 1) {
      // Two layer-0 files -> one of layer 1; the clean keeps 1 + 1 versions.
      REQUIRE(c.compactions.size() == 1);
      CHECK(c.compactions[0].target == "20240101000000000_20240102120000000_1.parquet");
      CHECK(c.manifests_written == std::vector<std::string>{"manifest_2", "manifest_3"});
      CHECK(c.cleaned == std::vector<std::string>{"manifest_1"});
    } else if (i == 3) {
      // Layer 0 fills again, then layer 1 holds two files: two compactions.
      REQUIRE(c.compactions.size() == 2);
      CHECK(c.compactions[1].target == "20240101000000000_20240104120000000_2.parquet");
    }
    auto tl = read_lsm_timeline(s, props, where, lsm_columns::all);
    HUDI_REQUIRE_OK(tl);
    CHECK(tl->instants == all);
  }
  // The end: one file of layer 2; the clean kept 1 + 2 versions and the files they list.
  auto tl = read_lsm_timeline(s, props, where);
  HUDI_REQUIRE_OK(tl);
  REQUIRE(tl->snapshot.manifest.files.size() == 1);
  CHECK(tl->snapshot.manifest.files[0].name == "20240101000000000_20240104120000000_2.parquet");
  CHECK(tl->snapshot.versions.size() == 3);
  for (const std::string& f : files_under(s, kHistory)) {
    if (!f.ends_with(".parquet")) continue;
    bool listed = false;
    for (std::int32_t v : tl->snapshot.versions) {
      const auto m =
          parse_lsm_manifest(s.read(fmt::format("{}/{}", kHistory, lsm_manifest_name(v))).value(), "m").value();
      for (const auto& e : m.files) listed = listed || f.ends_with(e.name);
    }
    CHECK_MESSAGE(listed, f);
  }
  // Nothing more to do: compact_and_clean changes nothing.
  const auto before = files_under(s, kHistory);
  LsmChanges idle;
  HUDI_REQUIRE_OK(w.compact_and_clean(idle));
  CHECK(idle.compactions.empty());
  CHECK(idle.cleaned.empty());
  CHECK(files_under(s, kHistory) == before);
}

TEST_CASE("candidates: consecutive oldest files of the layer, at most the batch, within the size limit") {
  memory_storage s;
  const TableProperties props = layout2();
  const TableLocation where = TableLocation::of("/t");
  LsmWriterOptions o;
  o.compaction_batch = 3;
  o.compaction_max_bytes = 100;
  lsm_writer<memory_storage> w(s, props, where, o);
  const std::vector<lsm_file_entry> files = {{"5_6_0.parquet", 10},
                                             {"1_2_0.parquet", 150},
                                             {"3_4_0.parquet", 10},
                                             {"7_8_0.parquet", 10},
                                             {"0_9_1.parquet", 1}};
  // 1_2 alone passes the limit and is dropped; then 3_4, 5_6, 7_8.
  CHECK(w.compaction_candidates(files, 0) ==
        std::vector<std::string>{"3_4_0.parquet", "5_6_0.parquet", "7_8_0.parquet"});
  CHECK(w.compaction_candidates(files, 1).empty());  // one file in layer 1
  std::vector<lsm_file_entry> two = {{"1_2_0.parquet", 10}, {"3_4_0.parquet", 10}};
  CHECK(w.compaction_candidates(two, 0).empty());  // fewer than the batch
}

namespace {

// A layout-2 table in memory: a commit, a clean, a clustering, a compaction,
// a commit with an empty completed file, a replacecommit whose inflight file
// has content, and a commit left active.
struct table {
  memory_storage storage;
  TableProperties props = layout2();
  TableLocation where = TableLocation::of("/t");

  void put(const std::string& name, const std::string& bytes) {
    REQUIRE(storage.write_if_absent(".hoodie/timeline/" + name, bytes).ok());
  }
  void fill() {
    put("20240101000000000.commit.requested", "");
    put("20240101000000000.inflight", "inflight of 0");
    put("20240101000000000_20240101000005000.commit", "commit 0");
    REQUIRE(storage.write_if_absent(".hoodie/.temp/20240101000000000/p/f.parquet.marker.CREATE", "").ok());
    put("20240101010000000.clean.requested", "cleaner plan 1");
    put("20240101010000000.clean.inflight", "");
    put("20240101010000000_20240101010005000.clean", "clean 1");
    put("20240101020000000.clustering.requested", "clustering plan 2");
    put("20240101020000000.clustering.inflight", "");
    put("20240101020000000_20240101020005000.replacecommit", "replace 2");
    put("20240101030000000.compaction.requested", "compaction plan 3");
    put("20240101030000000.compaction.inflight", "");
    put("20240101030000000_20240101030005000.commit", "commit 3");
    put("20240101040000000.commit.requested", "");
    put("20240101040000000.inflight", "");
    put("20240101040000000_20240101040005000.commit", "");
    put("20240101050000000.replacecommit.requested", "requested 5");
    put("20240101050000000.replacecommit.inflight", "inflight 5");
    put("20240101050000000_20240101050005000.replacecommit", "replace 5");
    put("20240101060000000.clean.inflight", "");  // its requested file gone
    put("20240101060000000_20240101060005000.clean", "clean 6");
    put("20240101070000000.commit.requested", "");
    put("20240101070000000.inflight", "");
    put("20240101070000000_20240101070005000.commit", "commit 7");
  }
  std::vector<Instant> archived() const {
    std::vector<Instant> out;
    for (const auto& [time, action] :
         std::vector<std::pair<const char*, Action>>{{"20240101000000000", Action::commit},
                                                     {"20240101010000000", Action::clean},
                                                     {"20240101020000000", Action::replacecommit},
                                                     {"20240101030000000", Action::commit},
                                                     {"20240101040000000", Action::commit},
                                                     {"20240101050000000", Action::replacecommit},
                                                     {"20240101060000000", Action::clean}}) {
      out.push_back(Instant{t(time), {}, action, State::completed});
    }
    return out;
  }
  StatusOr<LsmArchiveExecution> run(const std::vector<Instant>& instants, LsmWriterOptions o = {}) {
    auto actions = lsm_archive_actions(storage, props, where, instants);
    if (!actions.ok()) return actions.status();
    return execute_lsm_archive(storage, props, where, std::move(*actions), o);
  }
};

}  // namespace

TEST_CASE("archival on layout 2: one record per instant, the instant files' own bytes, Hudi's plan rules") {
  table tb;
  tb.fill();
  auto done = tb.run(tb.archived());
  HUDI_REQUIRE_OK(done);
  CHECK(done->records_written == 7);
  CHECK(done->lsm.data_file == "20240101000000000_20240101060000000_0.parquet");
  CHECK(done->markers_deleted == std::vector<std::string>{".hoodie/.temp/20240101000000000"});
  auto tl = read_lsm_timeline(tb.storage, tb.props, tb.where, lsm_columns::all);
  HUDI_REQUIRE_OK(tl);
  REQUIRE(tl->instants.size() == 7);
  std::map<std::string, lsm_instant> by_time;
  for (const lsm_instant& i : tl->instants) by_time[i.instant_time] = i;
  auto check = [&](const char* time, const char* completion, const char* action, std::optional<std::string> metadata,
                   std::optional<std::string> plan) {
    CAPTURE(time);
    const lsm_instant& r = by_time.at(time);
    CHECK(r.completion_time == completion);
    CHECK(r.action == action);
    CHECK(r.metadata == metadata);
    CHECK(r.plan == plan);
    CHECK(r.version == 1);
  };
  check("20240101000000000", "20240101000005000", "commit", "commit 0", std::nullopt);
  check("20240101010000000", "20240101010005000", "clean", "clean 1", "cleaner plan 1");
  // A clustering archives as its completed action, with its plan.
  check("20240101020000000", "20240101020005000", "replacecommit", "replace 2", "clustering plan 2");
  check("20240101030000000", "20240101030005000", "commit", "commit 3", "compaction plan 3");
  // An empty completed file: no metadata.
  check("20240101040000000", "20240101040005000", "commit", std::nullopt, std::nullopt);
  // A replacecommit's inflight content wins over its requested one.
  check("20240101050000000", "20240101050005000", "replacecommit", "replace 5", "inflight 5");
  // A clean whose requested file is gone: the inflight file's (empty) bytes.
  check("20240101060000000", "20240101060005000", "clean", "clean 6", "");

  // Deletes: every pending file first, then the completed ones oldest first.
  const auto& d = done->instant_files_deleted;
  REQUIRE(d.size() == 20);
  for (std::size_t i = 0; i < 13; ++i) CHECK((d[i].ends_with(".requested") || d[i].ends_with(".inflight")));
  for (std::size_t i = 13; i < 20; ++i) {
    CHECK_FALSE((d[i].ends_with(".requested") || d[i].ends_with(".inflight")));
    if (i > 13) CHECK(d[i - 1] < d[i]);
  }
  // Only the kept commit remains on the active timeline.
  CHECK(files_under(tb.storage, ".hoodie/timeline/2") ==
        std::vector<std::string>{".hoodie/timeline/20240101070000000.commit.requested",
                                 ".hoodie/timeline/20240101070000000.inflight",
                                 ".hoodie/timeline/20240101070000000_20240101070005000.commit"});
  CHECK(files_under(tb.storage, ".hoodie/.temp").empty());

  SUBCASE("refused, with nothing changed: an instant without its completed file") {
    table tb2;
    tb2.fill();
    REQUIRE(tb2.storage.remove(".hoodie/timeline/20240101030000000_20240101030005000.commit").ok());
    const auto before = files_under(tb2.storage, "");
    std::vector<Instant> wanted = {Instant{t("20240101030000000"), {}, Action::compaction, State::inflight}};
    auto r = tb2.run(wanted);
    REQUIRE_FALSE(r.ok());
    CHECK(std::string(message_of(r.status())).find("must be completed") != std::string::npos);
    CHECK(files_under(tb2.storage, "") == before);
  }
}

TEST_CASE("a crash after any change of a layout-2 archival: the rerun finishes with the uninterrupted run's files") {
  // A first archival leaves one layer-0 file; the second writes another, so
  // that a batch of 2 compacts them and the clean (1 version retained)
  // deletes: every step of writer, deletes, compaction and clean crashes.
  LsmWriterOptions o;
  o.compaction_batch = 2;
  o.manifest_retained_versions = 1;
  auto first = [](table& tb) {
    tb.fill();
    const auto all = tb.archived();
    return tb.run({all.begin(), all.begin() + 2});
  };
  table reference;
  HUDI_REQUIRE_OK(first(reference));
  const auto second_instants = [&] {
    const auto all = reference.archived();
    return std::vector<Instant>(all.begin() + 2, all.end());
  }();
  auto done = reference.run(second_instants, o);
  HUDI_REQUIRE_OK(done);
  REQUIRE(done->lsm.compactions.size() == 1);
  REQUIRE_FALSE(done->lsm.cleaned.empty());
  const auto want = files_under(reference.storage, "");
  const auto want_records = read_lsm_timeline(reference.storage, reference.props, reference.where, lsm_columns::all);
  HUDI_REQUIRE_OK(want_records);

  for (std::size_t n = 0;; ++n) {
    CAPTURE(n);
    table tb;
    HUDI_REQUIRE_OK(first(tb));
    tb.storage.crash_after_mutations(n);
    const bool finished = tb.run(second_instants, o).ok();
    tb.storage.recover();
    // What the crash left: never a completed instant without its completed
    // file while a pending file of it stays (it would look pending).
    for (const Instant& i : second_instants) {
      const auto left = files_under(tb.storage, fmt::format(".hoodie/timeline/{}", i.requested));
      const bool completed = std::any_of(left.begin(), left.end(), [](const std::string& f) {
        return !f.ends_with(".requested") && !f.ends_with(".inflight");
      });
      CHECK((completed || left.empty()));
    }
    // The rerun: the instants the crashed run archived and did not finish,
    // and the plan on what is left (here: what remains of the same instants).
    auto archive = read_lsm_timeline(tb.storage, tb.props, tb.where);
    HUDI_REQUIRE_OK(archive);
    auto active = load_timeline(tb.storage, tb.props, tb.where);
    HUDI_REQUIRE_OK(active);
    std::vector<Instant> rerun = interrupted_lsm_archival(*archive, *active);
    for (const Instant& i : second_instants) {
      const Instant* a = active->find(i.requested);
      const bool resumed =
          std::any_of(rerun.begin(), rerun.end(), [&](const Instant& r) { return r.requested == i.requested; });
      if (a != nullptr && a->is_completed() && !resumed) rerun.push_back(*a);
    }
    std::sort(rerun.begin(), rerun.end(), [](const Instant& x, const Instant& y) { return x.requested < y.requested; });
    HUDI_REQUIRE_OK(tb.run(rerun, o));
    CHECK(files_under(tb.storage, "") == want);
    auto got = read_lsm_timeline(tb.storage, tb.props, tb.where, lsm_columns::all);
    HUDI_REQUIRE_OK(got);
    CHECK(got->instants == want_records->instants);
    if (finished) break;
    REQUIRE(n < 200);
  }
}

}  // namespace lakegc::tests::lsm_timeline_test
