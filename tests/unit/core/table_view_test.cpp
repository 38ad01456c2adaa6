#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "lakegc/core/table_view.hpp"

namespace lakegc::tests::table_view_test {

using namespace lakegc;

namespace {
InstantTime t(const char* s) { return InstantTime::parse(s).value(); }
Instant done(const char* req, const char* comp, Action a) { return Instant{t(req), t(comp), a, State::completed}; }
Instant pending(const char* req, Action a) { return Instant{t(req), std::nullopt, a, State::inflight}; }

std::vector<std::string> base_instants(const TableView& v, const FileGroup& g) {
  std::vector<std::string> out;
  for (const FileSlice& s : v.slices_of(g)) out.push_back(s.base_instant.str());
  return out;
}
std::vector<std::string> log_names(const TableView& v, const FileSlice& s) {
  std::vector<std::string> out;
  for (auto f : v.logs_of(s)) out.emplace_back(v.file_name(f));
  return out;
}
}  // namespace

TEST_CASE("only committed base files make slices; others are uncommitted") {
  auto tl = Timeline::make({done("20240101000100000", "20240101000110000", Action::commit),
                            done("20240101000200000", "20240101000210000", Action::commit),
                            pending("20240101000300000", Action::commit)})
                .value();
  TableViewBuilder b(tl, TimelineLayout::v1);
  b.add_partition("p");
  b.add_file("p", "fg1-0_0-1-1_20240101000100000.parquet", 10);
  b.add_file("p", "fg1-0_0-2-2_20240101000200000.parquet", 20);
  b.add_file("p", "fg1-0_0-3-3_20240101000300000.parquet", 30);  // in flight
  b.add_file("p", "fg2-0_0-9-9_20240101000150000.parquet", 40);  // not on the timeline: failed
  b.add_file("p", ".hoodie_partition_metadata", 96);
  CHECK(b.skipped_files() == 1);
  const TableView v = std::move(b).build();
  REQUIRE(v.partitions().size() == 1);
  REQUIRE(v.groups().size() == 1);
  CHECK(v.file_id(v.groups()[0]) == "fg1-0");
  CHECK(base_instants(v, v.groups()[0]) == std::vector<std::string>{"20240101000200000", "20240101000100000"});
  REQUIRE(v.uncommitted_files().size() == 2);
  CHECK(v.partitions()[0].raw_has_unreplaced_files);
}

TEST_CASE("files older than the active timeline count as committed (archived)") {
  auto tl = Timeline::make({done("20240101000200000", "20240101000210000", Action::commit)}).value();
  TableViewBuilder b(tl, TimelineLayout::v1);
  b.add_file("", "fg1-0_0-1-1_20240101000100000.parquet", 10);
  b.add_file("", "fg1-0_0-1-1_20240101000300000.parquet", 10);  // after the start, not completed
  const TableView v = std::move(b).build();
  REQUIRE(v.groups().size() == 1);
  CHECK(base_instants(v, v.groups()[0]) == std::vector<std::string>{"20240101000100000"});
}

TEST_CASE("layout 1: logs attach by the base instant in their name; pending compaction opens a slice") {
  auto tl = Timeline::make({done("20240101000100000", "20240101000110000", Action::deltacommit),
                            done("20240101000200000", "20240101000210000", Action::deltacommit),
                            Instant{t("20240101000300000"), std::nullopt, Action::compaction, State::requested},
                            done("20240101000400000", "20240101000410000", Action::deltacommit)})
                .value();
  TableViewBuilder b(tl, TimelineLayout::v1);
  b.add_file("p", "fg-0_0-1-1_20240101000100000.parquet", 100);
  b.add_file("p", ".fg-0_20240101000100000.log.1_0-2-2", 5);
  b.add_file("p", ".fg-0_20240101000300000.log.1_0-4-4", 6);  // written after compaction was scheduled
  b.add_pending_compaction("p", "fg-0", t("20240101000100000"), t("20240101000300000"));
  const TableView v = std::move(b).build();
  REQUIRE(v.groups().size() == 1);
  const FileGroup& g = v.groups()[0];
  CHECK(g.pending_compaction_base == t("20240101000100000"));
  REQUIRE(base_instants(v, g) == std::vector<std::string>{"20240101000300000", "20240101000100000"});
  const auto slices = v.slices_of(g);
  CHECK(slices[0].base_file == kNoFile);
  CHECK(log_names(v, slices[0]) == std::vector<std::string>{".fg-0_20240101000300000.log.1_0-4-4"});
  CHECK(log_names(v, slices[1]) == std::vector<std::string>{".fg-0_20240101000100000.log.1_0-2-2"});
}

TEST_CASE("a slice is savepointed or pending-write when its base file or any of its logs is, in either build") {
  auto tl = Timeline::make({done("20240101000100000", "20240101000110000", Action::deltacommit),
                            done("20240101000200000", "20240101000210000", Action::deltacommit),
                            done("20240101000300000", "20240101000310000", Action::deltacommit)})
                .value();
  TableViewBuilder b(tl, TimelineLayout::v1);
  // Three slices of one group, newest first in the view: 300 (a log that a
  // pending write's markers name), 200 (a savepointed log among two), 100
  // (a savepointed base).
  b.add_file("p", "fg-0_0-1-1_20240101000100000.parquet", 1);
  b.add_file("p", "fg-0_0-2-2_20240101000200000.parquet", 1);
  b.add_file("p", ".fg-0_20240101000200000.log.1_0-3-3", 1);
  b.add_file("p", ".fg-0_20240101000200000.log.2_0-3-3", 1);
  b.add_file("p", "fg-0_0-4-4_20240101000300000.parquet", 1);
  b.add_file("p", ".fg-0_20240101000300000.log.1_0-5-5", 1);
  b.add_file("p", "other-0_0-1-1_20240101000100000.parquet", 1);  // another group, no flags
  b.add_savepointed_file("fg-0_0-1-1_20240101000100000.parquet");
  b.add_savepointed_file(".fg-0_20240101000200000.log.2_0-3-3");
  b.add_pending_write_file("p", ".fg-0_20240101000300000.log.1_0-5-5");
  auto flags = [](const TableView& v) {
    std::vector<std::string> out;
    for (const FileGroup& g : v.groups()) {
      for (const FileSlice& s : v.slices_of(g)) {
        out.push_back(fmt::format("{}/{}:{}{}", v.file_id(g), s.base_instant.str(), s.savepointed, s.pending_write));
      }
    }
    return out;
  };
  const std::vector<std::string> expected = {"fg-0/20240101000300000:01", "fg-0/20240101000200000:10",
                                             "fg-0/20240101000100000:10", "other-0/20240101000100000:00"};
  CHECK(flags(b.build(tl)) == expected);
  CHECK(flags(std::move(b).build()) == expected);
}

TEST_CASE("a savepointed name marks the files of exactly that name, in any partition") {
  // Hudi matches savepointed files by name alone, so each way a name can
  // nearly match is here: another partition, another write token, another
  // instant, a log's next version, a name that is no data file, and a file
  // id with many savepointed names.
  std::vector<Instant> instants;
  std::vector<std::string> times;
  for (int i = 1; i <= 10; ++i) times.push_back(fmt::format("2024010100{:02}00000", i));
  for (const auto& time : times) instants.push_back(done(time.c_str(), time.c_str(), Action::deltacommit));
  auto tl = Timeline::make(instants).value();
  auto base = [&](const char* id, int i, const char* token = "0-1-1") {
    return fmt::format("{}_{}_{}.parquet", id, token, times[i - 1]);
  };
  auto add_files = [&](TableViewBuilder& b) {
    b.add_file("p1", base("a-0", 1), 1);                                // listed
    b.add_file("p1", base("a-0", 2), 1);                                // same group, not listed
    b.add_file("p1", base("a-0", 3), 1);                                // listed: a second name of a-0
    b.add_file("p2", base("a-0", 1), 1);                                // the same name in another partition
    b.add_file("p1", base("b-0", 1, "0-2-2"), 1);                       // b-0 listed with another write token
    b.add_file("p1", fmt::format(".c-0_{}.log.1_0-1-1", times[0]), 1);  // a listed log
    b.add_file("p1", fmt::format(".c-0_{}.log.2_0-1-1", times[0]), 1);  // its next version, not listed
    for (int i = 1; i <= 10; ++i) b.add_file("p1", base("d-0", i), 1);  // d-0: 1..9 listed
  };
  std::vector<std::string> savepointed = {base("a-0", 1), base("a-0", 3), base("b-0", 1),
                                          fmt::format(".c-0_{}.log.1_0-1-1", times[0]), "not-a-data-file"};
  for (int i = 1; i <= 9; ++i) savepointed.push_back(base("d-0", i));
  auto add_savepointed = [&](TableViewBuilder& b, std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; ++i) b.add_savepointed_file(savepointed[i]);
  };
  auto marked = [](const TableView& v) {
    std::vector<std::string> out;
    for (const Partition& p : v.partitions()) {
      for (const FileGroup& g : v.groups_of(p)) {
        for (const FileSlice& s : v.slices_of(g)) {
          if (s.base_file != kNoFile && v.is_savepointed(s.base_file)) {
            out.push_back(fmt::format("{}/{}", p.path, v.file_name(s.base_file)));
          }
          for (auto f : v.logs_of(s)) {
            if (v.is_savepointed(f)) out.push_back(fmt::format("{}/{}", p.path, v.file_name(f)));
          }
        }
      }
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  std::vector<std::string> expected = {"p1/" + base("a-0", 1), "p1/" + base("a-0", 3),
                                       "p1/" + fmt::format(".c-0_{}.log.1_0-1-1", times[0]), "p2/" + base("a-0", 1)};
  for (int i = 1; i <= 9; ++i) expected.push_back("p1/" + base("d-0", i));
  std::sort(expected.begin(), expected.end());
  // The builder marks a file as it is added when the names came first
  // (load_view's order), and by name at build time when any came after a
  // file: every order gives the same marks, in both builds. `before` of
  // the names come before the listing, the rest after it.
  for (const std::size_t before : {std::size_t{0}, std::size_t{2}, savepointed.size()}) {
    CAPTURE(before);
    TableViewBuilder b(tl, TimelineLayout::v1);
    add_savepointed(b, 0, before);
    add_files(b);
    add_savepointed(b, before, savepointed.size());
    CHECK(marked(b.build(tl)) == expected);
    CHECK(marked(std::move(b).build()) == expected);
  }
  {
    // clear_metadata forgets the marks add_file made.
    TableViewBuilder b(tl, TimelineLayout::v1);
    add_savepointed(b, 0, savepointed.size());
    add_files(b);
    b.clear_metadata();
    CHECK(marked(b.build(tl)).empty());
    add_savepointed(b, 2, 3);  // b-0's name, which no listed file has
    CHECK(marked(b.build(tl)).empty());
    add_savepointed(b, 0, savepointed.size());
    CHECK(marked(std::move(b).build()) == expected);
  }
}

TEST_CASE("layout 2: logs attach by the completion time of their deltacommit (issue 19290)") {
  // The deltacommit at 0250 was requested before compaction 0300 but
  // completed after it: its log belongs to the compaction's slice, so the
  // pending compaction protects it.
  auto tl = Timeline::make({done("20240101000100000", "20240101000110000", Action::commit),
                            done("20240101000200000", "20240101000210000", Action::deltacommit),
                            done("20240101000250000", "20240101000350000", Action::deltacommit),
                            Instant{t("20240101000300000"), std::nullopt, Action::compaction, State::inflight},
                            pending("20240101000500000", Action::deltacommit)})
                .value();
  TableViewBuilder b(tl, TimelineLayout::v2);
  b.add_file("p", "fg-0_0-1-1_20240101000100000.parquet", 100);
  b.add_file("p", ".fg-0_20240101000200000.log.1_0-2-2", 5);
  b.add_file("p", ".fg-0_20240101000250000.log.1_0-3-3", 6);
  b.add_file("p", ".fg-0_20240101000500000.log.1_0-5-5", 7);  // pending: uncommitted
  b.add_file("p", ".fg-0_20240101000260000.log.1_0-6-6", 8);  // unknown deltacommit: failed
  b.add_pending_compaction("p", "fg-0", t("20240101000100000"), t("20240101000300000"));
  const TableView v = std::move(b).build();
  const FileGroup& g = v.groups()[0];
  const auto slices = v.slices_of(g);
  REQUIRE(slices.size() == 2);
  CHECK(log_names(v, slices[0]) == std::vector<std::string>{".fg-0_20240101000250000.log.1_0-3-3"});
  CHECK(log_names(v, slices[1]) == std::vector<std::string>{".fg-0_20240101000200000.log.1_0-2-2"});
  CHECK(v.uncommitted_files().size() == 2);
}

TEST_CASE("a slice's logs come ordered by instant, version and write token, whatever order they were listed in") {
  auto tl = Timeline::make({done("20240101000100000", "20240101000110000", Action::commit),
                            done("20240101000200000", "20240101000210000", Action::deltacommit),
                            done("20240101000300000", "20240101000310000", Action::deltacommit)})
                .value();
  TableViewBuilder b(tl, TimelineLayout::v1);
  b.add_file("p", ".fg-0_20240101000100000.log.2_0-3-3", 7);
  b.add_file("p", ".fg-0_20240101000100000.log.1_1-2-2", 6);
  b.add_file("p", "fg-0_0-1-1_20240101000100000.parquet", 100);
  b.add_file("p", ".fg-0_20240101000100000.log.10_0-4-4", 8);
  b.add_file("p", ".fg-0_20240101000100000.log.1_0-2-2", 5);
  const TableView v = std::move(b).build();
  REQUIRE(v.slice_count() == 1);
  CHECK(log_names(v, v.slices_of(v.groups()[0])[0]) ==
        std::vector<std::string>{".fg-0_20240101000100000.log.1_0-2-2", ".fg-0_20240101000100000.log.1_1-2-2",
                                 ".fg-0_20240101000100000.log.2_0-3-3", ".fg-0_20240101000100000.log.10_0-4-4"});
}

TEST_CASE("a partition's files are in name order when each was listed after a smaller name of its partition") {
  auto tl = Timeline::make({done("20240101000100000", "20240101000110000", Action::commit)}).value();
  TableViewBuilder b(tl, TimelineLayout::v1);
  // p ascends, with q's files and a file that is not a data file between.
  b.add_file("p", ".fa-0_20240101000100000.log.1_0-1-1", 1);
  b.add_file("q", "fz-0_0-1-1_20240101000100000.parquet", 1);
  b.add_file("p", "fa-0_0-1-1_20240101000100000.parquet", 1);
  b.add_file("p", ".hoodie_partition_metadata", 1);
  b.add_file("q", "fy-0_0-1-1_20240101000100000.parquet", 1);  // q descends
  b.add_file("p", "fb-0_0-1-1_20240101000100000.parquet", 1);
  b.add_file("r", "fa-0_0-1-1_20240101000100000.parquet", 1);
  b.add_file("r", "fa-0_0-1-1_20240101000100000.parquet", 1);  // r lists one name twice
  b.add_file("s", "fa-0_0-1-1_20240101000100000.parquet", 1);  // one file: in order
  const TableView v = std::move(b).build();
  REQUIRE(v.partitions().size() == 4);
  CHECK(v.partitions()[0].files_in_name_order);
  CHECK_FALSE(v.partitions()[1].files_in_name_order);
  CHECK_FALSE(v.partitions()[2].files_in_name_order);
  CHECK(v.partitions()[3].files_in_name_order);
}

TEST_CASE("layout 2: a log-only slice opened before the first base keeps the logs already attached where they were") {
  // Logs are placed in instant order. The deltacommit at 0100 completed at
  // 0300, after the base at 0200: its log joins the 0200 slice. The one at
  // 0150 completed at 0160, before any base: it opens a log-only slice at
  // 0150 in front, and the 0100 log must stay with the 0200 slice.
  auto tl = Timeline::make({done("20240101000100000", "20240101000300000", Action::deltacommit),
                            done("20240101000150000", "20240101000160000", Action::deltacommit),
                            done("20240101000200000", "20240101000210000", Action::commit)})
                .value();
  TableViewBuilder b(tl, TimelineLayout::v2);
  b.add_file("p", "fg-0_0-1-1_20240101000200000.parquet", 100);
  b.add_file("p", ".fg-0_20240101000100000.log.1_0-1-1", 5);
  b.add_file("p", ".fg-0_20240101000150000.log.1_0-2-2", 6);
  const TableView v = std::move(b).build();
  REQUIRE(v.groups().size() == 1);
  const auto slices = v.slices_of(v.groups()[0]);
  CHECK(base_instants(v, v.groups()[0]) == std::vector<std::string>{"20240101000200000", "20240101000150000"});
  REQUIRE(slices.size() == 2);
  CHECK(log_names(v, slices[0]) == std::vector<std::string>{".fg-0_20240101000100000.log.1_0-1-1"});
  CHECK(log_names(v, slices[1]) == std::vector<std::string>{".fg-0_20240101000150000.log.1_0-2-2"});
  CHECK(v.uncommitted_files().empty());
}

TEST_CASE("replaced groups: the later replace wins, and partitions remember replaces") {
  auto tl = Timeline::make({done("20240101000100000", "20240101000110000", Action::commit),
                            done("20240101000200000", "20240101000210000", Action::replacecommit),
                            done("20240101000300000", "20240101000310000", Action::replacecommit)})
                .value();
  TableViewBuilder b(tl, TimelineLayout::v2);
  b.add_file("a", "old-0_0-1-1_20240101000100000.parquet", 1);
  b.add_file("a", "new-0_0-2-2_20240101000200000.parquet", 1);
  b.add_replaced("a", "old-0", t("20240101000300000"));
  b.add_replaced("a", "old-0", t("20240101000200000"));
  b.add_replaced("b", "gone-0", t("20240101000200000"));  // no files left: no group
  const TableView v = std::move(b).build();
  REQUIRE(v.partitions().size() == 2);
  const auto groups = v.groups_of(v.partitions()[0]);
  REQUIRE(groups.size() == 2);
  CHECK(v.file_id(groups[1]) == "old-0");
  CHECK(groups[1].replaced_by == t("20240101000300000"));
  CHECK_FALSE(groups[0].replaced_by.has_value());
  CHECK(v.partitions()[1].group_count == 0);
  CHECK_FALSE(v.partitions()[1].raw_has_unreplaced_files);
  CHECK(v.partitions()[1].last_replace == t("20240101000200000"));
}

TEST_CASE("a speculative duplicate: the file commit metadata names wins") {
  auto tl = Timeline::make({done("20240101000100000", "20240101000110000", Action::commit)}).value();
  for (bool name_second : {false, true}) {
    TableViewBuilder b(tl, TimelineLayout::v1);
    b.add_file("", "fg-0_0-1-1_20240101000100000.parquet", 1);
    b.add_file("", "fg-0_0-1-2_20240101000100000.parquet", 1);
    const std::string winner =
        name_second ? "fg-0_0-1-2_20240101000100000.parquet" : "fg-0_0-1-1_20240101000100000.parquet";
    b.add_committed_file(winner);
    const TableView v = std::move(b).build();
    CHECK(v.file_name(v.slices_of(v.groups()[0])[0].base_file) == winner);
    CHECK(v.uncommitted_files().size() == 1);
  }
}

TEST_CASE("names and file ids read back exactly; a name past the length limit is not a data file") {
  auto tl = Timeline::make({done("20240101000100000", "20240101000110000", Action::commit)}).value();
  TableViewBuilder b(tl, TimelineLayout::v1);
  std::vector<std::string> names;
  for (int i = 0; i < 200; ++i) {
    names.push_back(fmt::format("fg{}-0_0-1-1_20240101000100000.parquet", i));
    CHECK(b.add_file("p", names.back(), static_cast<std::uint64_t>(i)));
  }
  // A file id as long as the limit allows: a data-file name one byte
  // longer than kMaxNameLength is refused whole, not truncated.
  const std::string suffix = "_0-1-1_20240101000100000.parquet";
  const std::string at_limit = std::string(kMaxNameLength - suffix.size(), 'a') + suffix;
  CHECK(b.add_file("p", at_limit, 7));
  CHECK_FALSE(b.add_file("p", "b" + at_limit, 8));
  CHECK(b.skipped_files() == 1);
  const TableView v = std::move(b).build();
  REQUIRE(v.groups().size() == 201);
  std::size_t seen = 0;
  for (const FileGroup& g : v.groups()) {
    const auto base = v.slices_of(g)[0].base_file;
    const std::string name(v.file_name(base));
    CHECK(name.substr(0, v.file_id(g).size()) == v.file_id(g));
    if (name == at_limit) {
      CHECK(v.file_size(base) == 7);
    } else {
      const auto i = std::stoul(name.substr(2));
      CHECK(name == names[i]);
      CHECK(v.file_size(base) == i);
    }
    ++seen;
  }
  CHECK(seen == 201);
}

namespace {
// Everything a view says, as text: two views are the same view when these
// are equal (file indices aside, which only order the files).
std::string describe(const TableView& v) {
  std::string out;
  const auto file = [&](std::uint32_t f) {
    return fmt::format("{}:{}{}{}{}", v.file_name(f), v.file_size(f), v.is_savepointed(f) ? " sp" : "",
                       v.completion_unknown(f) ? " cu" : "", v.pending_write(f) ? " pw" : "");
  };
  for (const Partition& p : v.partitions()) {
    out += fmt::format("partition '{}' raw={} last_replace={}\n", p.path, p.raw_has_unreplaced_files,
                       p.last_replace ? p.last_replace->str() : "-");
    for (const FileGroup& g : v.groups_of(p)) {
      out += fmt::format(" group {} replaced_by={} pending_base={}\n", v.file_id(g),
                         g.replaced_by ? g.replaced_by->str() : "-",
                         g.pending_compaction_base ? g.pending_compaction_base->str() : "-");
      for (const FileSlice& s : v.slices_of(g)) {
        out +=
            fmt::format("  slice {} base={}", s.base_instant.str(), s.base_file == kNoFile ? "-" : file(s.base_file));
        for (auto f : v.logs_of(s)) out += " log=" + file(f);
        out += '\n';
      }
    }
  }
  for (const UncommittedFile& u : v.uncommitted_files()) {
    out += fmt::format("uncommitted {} {} {}\n", v.partitions()[u.partition].path, file(u.file), u.instant.str());
  }
  out += fmt::format("files={} slices={} completion_unknown={} savepoints={}\n", v.file_count(), v.slice_count(),
                     v.completion_unknown_count(), v.has_savepoints());
  return out;
}

// A layout-2 table with a bit of everything the builder decides: an
// archived log with and without a known completion, a pending compaction,
// a replaced group, a savepoint, a pending write, a speculative duplicate,
// a log-only slice and a directory that is not a partition.
const Timeline& rich_timeline() {
  static const Timeline tl =
      Timeline::make({done("20240101000200000", "20240101000210000", Action::deltacommit),
                      done("20240101000250000", "20240101000350000", Action::deltacommit),
                      Instant{t("20240101000300000"), std::nullopt, Action::compaction, State::inflight},
                      done("20240101000400000", "20240101000410000", Action::replacecommit),
                      pending("20240101000500000", Action::deltacommit)})
          .value();
  return tl;
}
void add_rich_listing(TableViewBuilder& b) {
  b.require_declared_partitions();
  b.add_partition("p");
  b.add_partition("q");
  b.add_file("p", "fg-0_0-1-1_20240101000100000.parquet", 100);
  b.add_file("p", ".fg-0_20240101000150000.log.1_0-1-1", 1);  // archived, completion known
  b.add_file("p", ".fg-0_20240101000160000.log.1_0-1-1", 2);  // archived, completion unknown
  b.add_file("p", ".fg-0_20240101000250000.log.1_0-3-3", 3);  // completed after the compaction's request
  b.add_file("p", ".fg-0_20240101000500000.log.1_0-5-5", 4);  // pending
  b.add_file("p", "dup-0_0-1-1_20240101000200000.parquet", 5);
  b.add_file("p", "dup-0_0-1-2_20240101000200000.parquet", 6);  // speculative duplicate
  b.add_file("q", "old-0_0-1-1_20240101000100000.parquet", 7);
  b.add_file("q", "new-0_0-4-4_20240101000400000.parquet", 8);
  b.add_file("q", ".lone-0_20240101000200000.log.1_0-2-2", 9);  // a log-only slice
  b.add_file("q", "not-a-data-file.txt", 10);
  b.add_file("nopart", "x-0_0-1-1_20240101000100000.parquet", 11);  // no partition metadata
}
void add_rich_metadata(TableViewBuilder& b) {
  b.add_pending_compaction("p", "fg-0", t("20240101000100000"), t("20240101000300000"));
  b.add_replaced("q", "old-0", t("20240101000400000"));
  b.add_replaced("r", "gone-0", t("20240101000400000"));  // known only from metadata
  b.add_savepointed_file("new-0_0-4-4_20240101000400000.parquet");
  b.add_pending_write_file("p", ".fg-0_20240101000500000.log.1_0-5-5");
  b.add_archived_completion(t("20240101000150000"), t("20240101000170000"));
  b.add_committed_file("dup-0_0-1-2_20240101000200000.parquet");
}
}  // namespace

TEST_CASE("build(const Timeline&) gives the view build() && gives, and leaves the builder as it was") {
  TableViewBuilder b(rich_timeline(), TimelineLayout::v2);
  add_rich_listing(b);
  add_rich_metadata(b);
  const std::string kept = describe(b.build(rich_timeline()));
  CHECK(describe(b.build(rich_timeline())) == kept);  // again: nothing was used up
  const std::string consumed = describe(std::move(b).build());
  CHECK(kept == consumed);
  // The view is the one the rules give: spot checks.
  CHECK(kept.find(" pw") != std::string::npos);
  CHECK(kept.find(" sp") != std::string::npos);
  CHECK(kept.find(" cu") != std::string::npos);
  CHECK(kept.find("uncommitted p dup-0_0-1-1_20240101000200000.parquet") != std::string::npos);
  CHECK(kept.find("nopart") == std::string::npos);
}

TEST_CASE("build(const Timeline&) builds against the timeline it is given") {
  const Timeline as_of = rich_timeline().as_of(t("20240101000200000"));
  TableViewBuilder kept(rich_timeline(), TimelineLayout::v2);
  TableViewBuilder fresh(as_of, TimelineLayout::v2);
  for (TableViewBuilder* b : {&kept, &fresh}) {
    add_rich_listing(*b);
    add_rich_metadata(*b);
  }
  CHECK(describe(kept.build(as_of)) == describe(std::move(fresh).build()));
  CHECK(describe(kept.build(as_of)) != describe(kept.build(rich_timeline())));
}

TEST_CASE("clear_metadata: the builder is as if only the listing had been added") {
  // Without require_declared_partitions a partition only metadata named
  // would be part of the view: it must go with the metadata.
  for (const bool declared_only : {true, false}) {
    CAPTURE(declared_only);
    TableViewBuilder reused(rich_timeline(), TimelineLayout::v2);
    TableViewBuilder fresh(rich_timeline(), TimelineLayout::v2);
    for (TableViewBuilder* b : {&reused, &fresh}) {
      add_rich_listing(*b);
      b->require_declared_partitions(declared_only);
    }
    add_rich_metadata(reused);
    reused.add_pending_compaction("s", "meta-only-0", t("20240101000100000"), t("20240101000300000"));
    reused.clear_metadata();
    CHECK(describe(reused.build(rich_timeline())) == describe(fresh.build(rich_timeline())));
    // And the next state's metadata lands as on a fresh builder.
    add_rich_metadata(reused);
    add_rich_metadata(fresh);
    reused.add_file("q", "later-0_0-4-4_20240101000400000.parquet", 12);
    fresh.add_file("q", "later-0_0-4-4_20240101000400000.parquet", 12);
    CHECK(describe(reused.build(rich_timeline())) == describe(std::move(fresh).build()));
  }
}

}  // namespace lakegc::tests::table_view_test
