// The orphan-sweep benchmark of issue 6: a listing of N paths swept with
// OrphanSweep against M paths that completed commits reference, next to
// `LC_ALL=C sort` + `comm -23` on the same two files (timed by run.sh).
//
//   bench_orphans --write-inputs=DIR --paths=N --referenced=M
//       writes DIR/listing.txt (N paths, listing order) and
//       DIR/referenced.txt (the M paths commit metadata names)
//   bench_orphans --inputs=DIR --paths=N --referenced=M
//       orphan_sweep/N   reads referenced.txt into TableMetadata (commit
//                        write stats, untimed: the journal's job; its time is
//                        the counter md_seconds), then times OrphanSweep::make
//                        + reading listing.txt line by line into add() +
//                        finish(). Peak memory: VmHWM of this process (run.sh
//                        runs one process per size).
//   bench_orphans --smoke
//       small inputs in a temporary directory; checks the sweep's counts
//
// The unreferenced N-M paths: 90% belong to instants older than the active
// timeline (archived: kept), 10% to a failed write whose instant is gone
// (orphans, all older than the 3-day cutoff).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <filesystem>

#include "common.hpp"
#include "generator.hpp"
#include "lakegc/plan/plan_orphans.hpp"

using namespace lakegc;
using namespace lakegc::bench;

namespace {

constexpr std::int64_t kT0 = 1'704'067'200'000;  // 2024-01-01: the first active commit
constexpr std::uint32_t kCommits = 100;

InstantTime at_minute(std::int64_t m) { return InstantTime::from_epoch_ms(kT0 + m * 60'000, TimelineTimezone::utc); }
std::int64_t now_ms() { return kT0 + 400LL * 86'400'000; }

struct Shape {
  std::uint64_t paths = 0, referenced = 0;
  std::uint64_t per_partition = 5000;
  bool is_referenced(std::uint64_t i) const { return (i + 1) * referenced / paths > i * referenced / paths; }
};

Timeline timeline() {
  std::vector<Instant> v;
  for (std::uint32_t c = 0; c < kCommits; ++c)
    v.push_back(Instant{at_minute(2 * c), std::nullopt, Action::commit, State::completed});
  return *Timeline::make(std::move(v));
}

struct Expected {
  std::uint64_t referenced = 0, orphans = 0, kept = 0;
};

/// Writes the two input files; returns what a correct sweep finds.
Expected write_inputs(const Shape& s, const std::string& dir) {
  std::filesystem::create_directories(dir);
  std::FILE* listing = std::fopen((dir + "/listing.txt").c_str(), "w");
  std::FILE* referenced = std::fopen((dir + "/referenced.txt").c_str(), "w");
  check(listing != nullptr && referenced != nullptr, "open the input files");
  Expected e;
  const InstantTime failed = at_minute(2 * 50 + 1);  // between two commits: not on the timeline
  for (std::uint64_t i = 0; i < s.paths; ++i) {
    const std::uint64_t p = i / s.per_partition;
    const absl::CivilDay day = absl::CivilDay(2024, 1, 1) + static_cast<int>(p / 24);
    const std::string fid = hudi::table_writer<memory_storage>::file_id(i);
    InstantTime t;
    if (s.is_referenced(i)) {
      t = at_minute(2 * static_cast<std::int64_t>(i % kCommits));
      ++e.referenced;
    } else if (mix64(i) % 10 == 3) {
      t = failed;
      ++e.orphans;
    } else {
      t = at_minute(-10'000 - static_cast<std::int64_t>(i % 1000));  // archived
      ++e.kept;
    }
    const std::string line = fmt::format("dt={:04}-{:02}-{:02}/hr={:02}/{}_{}-{}-{}_{}.parquet\n", day.year(),
                                         day.month(), day.day(), p % 24, fid, i % 1000, 1, i % 100'000, t);
    std::fputs(line.c_str(), listing);
    if (s.is_referenced(i)) std::fputs(line.c_str(), referenced);
  }
  std::fclose(listing);
  std::fclose(referenced);
  return e;
}

/// Streams the lines of a file (without the newline) to `f`, read in 1 MiB
/// blocks (getline's per-line locking and copying was a tenth of the sweep).
template <class F>
std::uint64_t for_each_line(const std::string& path, F&& f) {
  std::FILE* in = std::fopen(path.c_str(), "r");
  check(in != nullptr, "open " + path);
  constexpr std::size_t kBlock = std::size_t{1} << 20;
  std::vector<char> buf(kBlock);
  std::size_t kept = 0;  // a partial line carried over from the last block
  std::uint64_t n = 0;
  for (;;) {
    if (kept == buf.size()) buf.resize(buf.size() * 2);  // a line longer than the buffer
    const std::size_t got = std::fread(buf.data() + kept, 1, buf.size() - kept, in);
    const std::size_t end = kept + got;
    std::size_t begin = 0;
    for (const char* nl; (nl = static_cast<const char*>(std::memchr(buf.data() + begin, '\n', end - begin)));) {
      const auto len = static_cast<std::size_t>(nl - (buf.data() + begin));
      if (len > 0) {
        f(std::string_view(buf.data() + begin, len));
        ++n;
      }
      begin += len + 1;
    }
    kept = end - begin;
    std::memmove(buf.data(), buf.data() + begin, kept);
    if (got == 0) break;
  }
  if (kept > 0) {
    f(std::string_view(buf.data(), kept));
    ++n;
  }
  std::fclose(in);
  return n;
}

/// TableMetadata whose completed commits reference the paths of
/// referenced.txt (the instant in each name says which commit wrote it).
TableMetadata load_metadata(const std::string& dir) {
  TableMetadata md;
  md.timeline = timeline();
  md.layout = TimelineLayout::v1;
  md.timezone = TimelineTimezone::utc;
  md.partitioned = true;
  for (const Instant& i : md.timeline.instants()) md.commits[i.requested] = CommitInfo{};
  for_each_line(dir + "/referenced.txt", [&](std::string_view path) {
    const auto slash = path.rfind('/');
    const std::string_view name = path.substr(slash + 1);
    const auto u = name.rfind('_');
    const auto t = InstantTime::parse(name.substr(u + 1, name.find('.', u) - u - 1));
    CommitInfo& c = md.commits[*t];
    const std::string_view part = path.substr(0, slash);
    if (c.partitions_written.empty() || c.partitions_written.back() != part) c.partitions_written.emplace_back(part);
    c.files.push_back({part, name, 0});
  });
  return md;
}

OrphanPlan sweep(const TableMetadata& md, const std::string& dir) {
  auto s = OrphanSweep::make(md, OrphanOptions{}, now_ms());
  check(s.ok(), "OrphanSweep::make");
  const std::int64_t old = now_ms() - 30 * kDayMs;
  for_each_line(dir + "/listing.txt", [&](std::string_view path) { s->add(path, 0, old); });
  auto plan = std::move(*s).finish();
  check(plan.ok(), "OrphanSweep::finish");
  return std::move(*plan);
}

void BM_sweep(benchmark::State& st, Shape shape, std::string dir) {
  const auto t0 = std::chrono::steady_clock::now();
  const TableMetadata md = load_metadata(dir);
  const double md_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  trim_heap();
  const long long rss_before = rss_bytes();
  OrphanPlan plan;
  for (auto _ : st) {
    plan = sweep(md, dir);
    benchmark::DoNotOptimize(plan);
  }
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations() * shape.paths));
  st.counters["paths"] = static_cast<double>(shape.paths);
  st.counters["referenced_paths"] = static_cast<double>(shape.referenced);
  st.counters["listed"] = static_cast<double>(plan.listed);
  st.counters["referenced"] = static_cast<double>(plan.referenced);
  st.counters["orphans"] = static_cast<double>(plan.orphans.size());
  st.counters["kept"] = static_cast<double>(plan.kept);
  st.counters["md_seconds"] = md_seconds;
  st.counters["rss_before_sweep_bytes"] = static_cast<double>(rss_before);
  st.counters["peak_rss_bytes"] = static_cast<double>(peak_bytes());
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = take_args(argc, argv, {"write-inputs", "inputs", "paths", "referenced"});
  Shape shape;
  shape.paths = std::stoull(args.get("paths", "10000"));
  shape.referenced = std::stoull(args.get("referenced", std::to_string(shape.paths / 2)));
  if (!args.get("write-inputs").empty()) {
    const auto t0 = std::chrono::steady_clock::now();
    const Expected e = write_inputs(shape, args.get("write-inputs"));
    fmt::print("{{\"paths\": {}, \"referenced\": {}, \"orphans\": {}, \"kept\": {}, \"write_seconds\": {:.1f}}}\n",
               shape.paths, e.referenced, e.orphans, e.kept,
               std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    return 0;
  }
  std::string dir = args.get("inputs");
  std::string scratch;
  if (args.smoke && dir.empty()) {
    std::string tmpl = (std::filesystem::temp_directory_path() / "lakegc-bench-orphans-XXXXXX").string();
    check(::mkdtemp(tmpl.data()) != nullptr, "mkdtemp");
    scratch = dir = tmpl;
    const Expected e = write_inputs(shape, dir);
    const TableMetadata md = load_metadata(dir);
    const OrphanPlan plan = sweep(md, dir);
    check(plan.guards.empty() && !plan.stopped, "no guard stops the sweep");
    check(plan.listed == shape.paths, "every path listed");
    check(plan.referenced == e.referenced, fmt::format("{} referenced, expected {}", plan.referenced, e.referenced));
    check(plan.orphans.size() == e.orphans, fmt::format("{} orphans, expected {}", plan.orphans.size(), e.orphans));
    check(plan.kept == e.kept, fmt::format("{} kept, expected {}", plan.kept, e.kept));
    check(std::is_sorted(plan.orphans.begin(), plan.orphans.end(),
                         [](const OrphanFile& a, const OrphanFile& b) { return a.path < b.path; }),
          "orphans sorted by path");
    fmt::print(stderr, "smoke: {} paths, {} referenced, {} orphans, {} kept\n", plan.listed, plan.referenced,
               plan.orphans.size(), plan.kept);
  }
  if (dir.empty()) {
    fmt::print(stderr, "usage: bench_orphans --write-inputs=DIR|--inputs=DIR --paths=N --referenced=M | --smoke\n");
    return 2;
  }
  benchmark::RegisterBenchmark(fmt::format("orphan_sweep/{}", shape.paths).c_str(), BM_sweep, shape, dir)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime()
      ->Iterations(1);
  return run_registered(argc, argv, scratch);
}
