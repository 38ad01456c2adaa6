// Benchmark 3 of issue 7: building the TableView from a listing, and
// loading a layout-1 timeline of 10 thousand JSON commit files.
//
//   view_from_listing/N      load_view() over a listing held in memory (the
//                            generated table, metadata as a journal loads it)
//   listing_floor/N          the same listing streamed through the same
//                            adapter, touching every byte: the cost of the
//                            input itself
//   timeline/memory          hudi::journal<memory_storage>::load() of a
//                            timeline written by hudi::table_writer: 10,000
//                            completed commits (plus their .requested and
//                            .inflight files)
//   timeline/posix           the same files on disk (posix_storage)
//   timeline/simdjson_parse  baseline: simdjson's DOM parse of the same bytes
//                            (every non-empty timeline file) from memory
//   timeline/posix_read_parse  baseline: open/read/parse of the same files
//
// items_per_second counts files (listing entries; completed commit files for
// the timeline), bytes_per_second the bytes of the paths or of the files.
#include <benchmark/benchmark.h>

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>

#include "common.hpp"
#include "generator.hpp"
#include "lakegc/hudi/journal.hpp"

using namespace lakegc;
using namespace lakegc::bench;

namespace {

Args g_args;

/// A Storage over a listing held in memory: list() streams it, nothing else
/// is supported (load_view only lists).
class vector_storage {
 public:
  explicit vector_storage(const std::vector<ListingEntry>* entries) : entries_(entries) {}
  template <typename Visitor>
  Status list(std::string_view, Visitor&& visit, const ListOptions& = {}) {
    for (const ListingEntry& e : *entries_) visit(FileEntry{e.path, e.size, 0});
    return Status();
  }
  StatusOr<FileInfo> stat(std::string_view) { return absl::UnimplementedError("vector_storage"); }
  StatusOr<std::string> read(std::string_view) { return absl::UnimplementedError("vector_storage"); }
  Status write_if_absent(std::string_view, std::string_view) { return absl::UnimplementedError("vector_storage"); }
  Status remove(std::string_view) { return absl::UnimplementedError("vector_storage"); }
  std::vector<Status> remove_batch(std::span<const std::string> p) {
    return std::vector<Status>(p.size(), absl::UnimplementedError("vector_storage"));
  }

 private:
  const std::vector<ListingEntry>* entries_;
};
static_assert(Storage<vector_storage>);

struct ListingInput {
  std::uint64_t size = 0;
  std::unique_ptr<Generator> gen;
  TableMetadata md;
  std::vector<ListingEntry> listing;
  std::uint64_t bytes = 0;
};

ListingInput& listing_input(std::uint64_t n) {
  static ListingInput in;
  if (in.gen && in.size == n) return in;
  GenSpec spec = spec_for(n, 1.0);
  spec.written_files = true;  // as hudi::journal loads it: add_metadata feeds committed names
  in.size = n;
  in.gen = std::make_unique<Generator>(spec);
  in.md = make_metadata(*in.gen);
  in.listing = make_listing(*in.gen);
  in.bytes = 0;
  for (const auto& e : in.listing) in.bytes += e.path.size();
  return in;
}

void BM_view_from_listing(benchmark::State& st, std::uint64_t n) {
  ListingInput& in = listing_input(n);
  vector_storage s(&in.listing);
  std::size_t slices = 0;
  for (auto _ : st) {
    auto v = load_view(s, in.md);
    slices = v->slice_count();
    benchmark::DoNotOptimize(v);
  }
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations() * in.listing.size()));
  st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations() * in.bytes));
  st.counters["files"] = static_cast<double>(in.listing.size());
  st.counters["slices"] = static_cast<double>(slices);
}

void BM_listing_floor(benchmark::State& st, std::uint64_t n) {
  ListingInput& in = listing_input(n);
  vector_storage s(&in.listing);
  for (auto _ : st) {
    std::uint64_t acc = 0;
    (void)s.list("", [&](const FileEntry& e) {
      for (char c : e.path) acc += static_cast<unsigned char>(c);
      acc += e.size;
    });
    benchmark::DoNotOptimize(acc);
  }
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations() * in.listing.size()));
  st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations() * in.bytes));
  st.counters["files"] = static_cast<double>(in.listing.size());
}

// --- The 10,000-commit timeline ---------------------------------------------------

struct TimelineInput {
  std::uint32_t commits = 0;
  memory_storage mem;                                      // the timeline only
  std::vector<std::pair<std::string, std::string>> files;  // .hoodie/<name>, bytes
  std::uint64_t bytes = 0;
  std::size_t nonempty = 0;
  std::string dir;  // on disk, or ""
  ~TimelineInput() {
    if (!dir.empty()) {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    }
  }
};

TimelineInput& timeline_input(std::uint32_t commits) {
  static TimelineInput in;
  if (in.commits == commits) return in;
  // A Copy-on-Write table written by hudi::table_writer: each commit
  // rewrites 8 file groups in 4 of 50 partitions (so the JSON has the
  // Jackson shape Hudi 0.14 writes, write stats and all).
  memory_storage scratch;
  hudi::TableConfig cfg;
  cfg.name = "lakegc_timeline";
  cfg.partition_fields = {"dt"};
  cfg.timezone = TimelineTimezone::utc;
  auto w = hudi::table_writer<memory_storage>::create(scratch, cfg);
  check(w.ok(), "table_writer::create");
  Rng rng(7);
  for (std::uint32_t i = 0; i < commits; ++i) {
    const InstantTime t =
        InstantTime::from_epoch_ms(1'704'067'200'000 + std::int64_t{i} * 60'000, TimelineTimezone::utc);
    check(w->start(t).ok(), "table_writer::start");
    const std::uint32_t p0 = rng.below(50);
    for (std::uint32_t k = 0; k < 8; ++k) {
      const std::string part = fmt::format("dt=2024-{:02}-{:02}", 1 + (p0 + k / 2) % 50 / 28, 1 + (p0 + k / 2) % 28);
      const std::string fid = hudi::table_writer<memory_storage>::file_id(rng.below(400) * 100 + (p0 + k / 2) % 50);
      auto name = w->write_base_file(t, part, fid, "");
      check(name.ok(), fmt::format("write_base_file: {}", name.ok() ? "" : message_of(name.status())));
    }
    check(w->complete(t).ok(), "table_writer::complete");
  }
  in.commits = commits;
  in.files.clear();
  scratch.for_each_file([&](const FileEntry& e) {
    if (!e.path.starts_with(".hoodie/")) return;
    auto bytes = scratch.read(e.path);
    in.files.emplace_back(std::string(e.path), *bytes);
  });
  in.bytes = 0;
  in.nonempty = 0;
  for (const auto& [path, bytes] : in.files) {
    check(in.mem.write_if_absent(path, bytes).ok(), "copy the timeline");
    in.bytes += bytes.size();
    in.nonempty += bytes.empty() ? 0 : 1;
  }
  return in;
}

const std::string& timeline_dir(TimelineInput& in) {
  if (!in.dir.empty()) return in.dir;
  std::string tmpl = (std::filesystem::temp_directory_path() / "lakegc-bench-timeline-XXXXXX").string();
  check(::mkdtemp(tmpl.data()) != nullptr, "mkdtemp");
  in.dir = tmpl;
  check(::mkdir((in.dir + "/.hoodie").c_str(), 0755) == 0, "mkdir .hoodie");
  const int dfd = ::open(in.dir.c_str(), O_RDONLY | O_DIRECTORY);
  for (const auto& [path, bytes] : in.files) bench::detail::write_at(dfd, path, bytes);
  ::close(dfd);
  return in.dir;
}

void timeline_counters(benchmark::State& st, const TimelineInput& in) {
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations()) * in.commits);
  st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations() * in.bytes));
  st.counters["commit_files"] = in.commits;
  st.counters["timeline_files"] = static_cast<double>(in.files.size());
  st.counters["json_files"] = static_cast<double>(in.nonempty);
  st.counters["MB"] = static_cast<double>(in.bytes) / 1e6;
}

void BM_timeline_memory(benchmark::State& st, std::uint32_t commits) {
  TimelineInput& in = timeline_input(commits);
  std::size_t loaded = 0;
  for (auto _ : st) {
    auto j = hudi::journal<memory_storage>::open(in.mem, "/bench/table");
    auto md = j->load();
    if (!md.ok()) {
      st.SkipWithError(std::string(message_of(md.status())).c_str());
      return;
    }
    loaded = md->commits.size();
    benchmark::DoNotOptimize(md);
  }
  timeline_counters(st, in);
  st.counters["commits_loaded"] = static_cast<double>(loaded);
}

void BM_timeline_posix(benchmark::State& st, std::uint32_t commits) {
  TimelineInput& in = timeline_input(commits);
  auto storage = posix_storage::open(timeline_dir(in));
  for (auto _ : st) {
    auto j = hudi::journal<posix_storage>::open(*storage, timeline_dir(in));
    auto md = j->load();
    if (!md.ok()) {
      st.SkipWithError(std::string(message_of(md.status())).c_str());
      return;
    }
    benchmark::DoNotOptimize(md);
  }
  timeline_counters(st, in);
}

void BM_simdjson_parse(benchmark::State& st, std::uint32_t commits) {
  TimelineInput& in = timeline_input(commits);
  simdjson::dom::parser parser;
  for (auto _ : st) {
    std::size_t ok = 0;
    for (const auto& [path, bytes] : in.files) {
      if (bytes.empty()) continue;
      simdjson::dom::element root;
      ok += parser.parse(bytes.data(), bytes.size()).get(root) == simdjson::SUCCESS;
    }
    benchmark::DoNotOptimize(ok);
  }
  timeline_counters(st, in);
}

void BM_posix_read_parse(benchmark::State& st, std::uint32_t commits) {
  TimelineInput& in = timeline_input(commits);
  const std::string& dir = timeline_dir(in);
  simdjson::dom::parser parser;
  std::string buf;
  for (auto _ : st) {
    std::size_t ok = 0;
    const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
    for (const auto& [path, bytes] : in.files) {
      const int fd = ::openat(dfd, path.c_str(), O_RDONLY);
      buf.resize(bytes.size());
      const ssize_t n = ::read(fd, buf.data(), buf.size());
      ::close(fd);
      if (n <= 0) continue;
      simdjson::dom::element root;
      ok += parser.parse(buf.data(), static_cast<std::size_t>(n)).get(root) == simdjson::SUCCESS;
    }
    ::close(dfd);
    benchmark::DoNotOptimize(ok);
  }
  timeline_counters(st, in);
}

void smoke_checks(std::uint64_t n, std::uint32_t commits) {
  ListingInput& li = listing_input(n);
  vector_storage s(&li.listing);
  auto v = load_view(s, li.md);
  check(v.ok(), "load_view over the listing");
  const Table t = build_in_memory(*li.gen);
  check(v->slice_count() == t.view->slice_count() && v->file_count() == t.view->file_count(),
        "load_view builds the view build_in_memory builds");
  TimelineInput& in = timeline_input(commits);
  auto j = hudi::journal<memory_storage>::open(in.mem, "/bench/table");
  check(j.ok(), "journal::open");
  auto md = j->load();
  check(md.ok(), fmt::format("journal::load: {}", md.ok() ? "" : message_of(md.status())));
  check(md->commits.size() == commits, "every commit loaded");
  std::size_t files = 0;
  for (const auto& [t2, info] : md->commits) files += info.files.size();
  check(files == std::size_t{commits} * 8, "every write stat decoded");
  auto pst = posix_storage::open(timeline_dir(in));
  auto pj = hudi::journal<posix_storage>::open(*pst, timeline_dir(in));
  auto pmd = pj->load();
  check(pmd.ok() && pmd->commits.size() == commits, "the same timeline loads from disk");
  fmt::print(stderr, "smoke: listing of {} files -> {} slices; timeline of {} commits, {} files, {} bytes\n",
             li.listing.size(), v->slice_count(), commits, in.files.size(), in.bytes);
}

}  // namespace

int main(int argc, char** argv) {
  g_args = take_args(argc, argv, {"commits", "min-time"});
  std::vector<std::uint64_t> sizes = g_args.sizes;
  if (sizes.empty()) sizes = {g_args.smoke ? std::uint64_t{10'000} : std::uint64_t{1'000'000}};
  const auto commits = static_cast<std::uint32_t>(std::stoul(g_args.get("commits", g_args.smoke ? "200" : "10000")));
  if (g_args.smoke) smoke_checks(sizes.front(), commits);
  auto tune = [&](benchmark::internal::Benchmark* b) {
    b->Unit(benchmark::kMillisecond)->UseRealTime();
    if (g_args.smoke) {
      b->Iterations(1);
    } else {
      // --min-time=S: longer runs for profiling (Google Benchmark's own flag
      // does not override a per-benchmark MinTime).
      b->MinTime(std::stod(g_args.get("min-time", "1.0")))->Repetitions(3)->ReportAggregatesOnly(true);
    }
  };
  for (auto n : sizes) {
    tune(benchmark::RegisterBenchmark(fmt::format("view_from_listing/{}", n).c_str(), BM_view_from_listing, n));
    tune(benchmark::RegisterBenchmark(fmt::format("listing_floor/{}", n).c_str(), BM_listing_floor, n));
  }
  tune(benchmark::RegisterBenchmark(fmt::format("timeline/memory/{}", commits).c_str(), BM_timeline_memory, commits));
  tune(benchmark::RegisterBenchmark(fmt::format("timeline/simdjson_parse/{}", commits).c_str(), BM_simdjson_parse,
                                    commits));
  tune(benchmark::RegisterBenchmark(fmt::format("timeline/posix/{}", commits).c_str(), BM_timeline_posix, commits));
  tune(benchmark::RegisterBenchmark(fmt::format("timeline/posix_read_parse/{}", commits).c_str(), BM_posix_read_parse,
                                    commits));
  return run_registered(argc, argv);
}
