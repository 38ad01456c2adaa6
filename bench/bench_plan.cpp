// Benchmarks 1, 2 and 6 of issue 7: clean planning against table size.
//
//   plan_full/N            plan_clean, keep_latest_commits, full scan, on a
//                          table where every partition was written since
//                          the previous clean (benchmark 1)
//   reference_planner/N    baseline (a): tests/reference's naive planner
//   floor/N                baseline (b): one pass reading each slice's base
//                          instant through the same spans
//   threads/N/threads:T    plan_partition over partitions on T threads (6)
//   diag/savepoint_bit/N   the same plan with the savepoint check done by
//                          instant instead of by file-name lookups
//   incremental/full/N,    the same policy with and without
//   incremental/inc/N      scope::incremental on a table where 1% of
//                          partitions were touched since the previous clean (2)
//
// N is the nominal slice count (P x G x S); the counter `slices` is the
// count of the built view (a few groups gain a slice from the pending
// compaction or a replacement). One table is in memory at a time: at 10
// million slices a second copy would not fit the memory budget.
#include <benchmark/benchmark.h>

#include <atomic>
#include <memory>
#include <thread>

#include "common.hpp"
#include "generator.hpp"
#include "lakegc/plan/plan_clean.hpp"
#include "reference_planner.hpp"

using namespace lakegc;
using namespace lakegc::bench;

namespace {

Args g_args;

struct Loaded {
  std::uint64_t size = 0;
  double touched = -1;
  bool named = false;  // commit metadata names every file it wrote, as hudi::journal loads it
  std::unique_ptr<Generator> gen;
  std::unique_ptr<Table> table;
  double build_seconds = 0;
  long long rss_after_build = 0;   // builder freed: the view and metadata
  long long peak_after_build = 0;  // process peak so far (builder included)
};

Loaded& load(std::uint64_t size, double touched, bool named = false) {
  static Loaded c;
  if (c.table && c.size == size && c.touched == touched && c.named == named) return c;
  c.table.reset();
  c.gen.reset();
  trim_heap();
  c.size = size;
  c.touched = touched;
  c.named = named;
  GenSpec spec = spec_for(size, touched);
  spec.written_files = named;
  c.gen = std::make_unique<Generator>(spec);
  const auto t0 = std::chrono::steady_clock::now();
  c.table = std::make_unique<Table>(build_in_memory(*c.gen));
  c.build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  trim_heap();
  c.rss_after_build = rss_bytes();
  c.peak_after_build = peak_bytes();
  return c;
}

auto commits_policy(const Generator& g) {
  return cleaning(keep_latest_commits{g.commits_retained()}, guard::savepoints, guard::pending_table_services);
}
auto incremental_policy(const Generator& g) {
  return cleaning(keep_latest_commits{g.commits_retained()}, guard::savepoints, guard::pending_table_services,
                  scope::incremental);
}

reference::Policy reference_policy(const Generator& g, bool incremental) {
  reference::Policy p;
  p.rule = reference::Rule::keep_latest_commits;
  p.count = g.commits_retained();
  p.incremental = incremental;
  return p;
}

/// plan_clean with the partitions of the scope planned on `threads`
/// threads. Partitions are independent (plan_partition); only the merge
/// into the plan's sorted map is serial. The benchmarks hold no reader
/// leases, so nothing of plan_clean's lease bookkeeping is mirrored here
/// (the smoke test checks the plans are equal).
template <CleaningPolicy P>
CleanPlan plan_parallel(const TableView& v, const TableMetadata& md, const P& policy, const CleanContext& ctx,
                        unsigned threads) {
  const CleanDecision d = decide_clean(md, policy, ctx);
  CleanPlan plan = plan_header(md, d);
  auto scope = compute_clean_scope(v, md, d.retention, d.settings);
  if (!scope.ok()) return plan;
  const auto& parts = scope->partitions;
  std::vector<PartitionPlan> out(parts.size());
  // Each partition's files apart (threads append concurrently), appended
  // to the plan in order afterwards (their names shared, not copied).
  std::vector<PlannedFiles> files(parts.size());
  std::atomic<std::size_t> next{0};
  // Chunks of 16 partitions: few atomic operations, and still balanced
  // when partitions differ in size.
  constexpr std::size_t kChunk = 16;
  auto work = [&] {
    PartitionScratch scratch;
    for (;;) {
      const std::size_t begin = next.fetch_add(kChunk, std::memory_order_relaxed);
      if (begin >= parts.size()) return;
      const std::size_t end = std::min(parts.size(), begin + kChunk);
      for (std::size_t i = begin; i < end; ++i) {
        out[i] = plan_partition(v, v.partitions()[parts[i]], d, policy, ctx, md.partitioned, files[i], scratch);
      }
    }
  };
  {
    std::vector<std::jthread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
  }
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const Partition& part = v.partitions()[parts[i]];
    plan.files_per_partition.append(files[i]);
    if (out[i].delete_partition) plan.partitions_to_be_deleted.push_back(part.path);
  }
  return plan;
}

void slice_counters(benchmark::State& st, const Loaded& c) {
  const double slices = static_cast<double>(c.table->view->slice_count());
  st.counters["slices"] = slices;
  st.counters["partitions"] = static_cast<double>(c.table->view->partitions().size());
  st.counters["ns_per_slice"] =
      benchmark::Counter(slices, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_plan_full(benchmark::State& st, std::uint64_t n) {
  Loaded& c = load(n, 1.0);
  const TableView& v = *c.table->view;
  const auto policy = commits_policy(*c.gen);
  const CleanContext ctx{c.gen->now_ms(), {}};
  std::size_t files = 0;
  const bool reset = reset_peak();
  const long long before = rss_bytes();
  for (auto _ : st) {
    auto plan = plan_clean(v, c.table->md, policy, ctx);
    files = plan->file_count();
    benchmark::DoNotOptimize(plan);
  }
  const long long plan_peak = peak_bytes();
  slice_counters(st, c);
  const double slices = static_cast<double>(v.slice_count());
  st.counters["files_in_plan"] = static_cast<double>(files);
  st.counters["data_files"] = static_cast<double>(c.table->data_files);
  st.counters["model_bytes_per_slice"] = static_cast<double>(v.model_bytes()) / slices;
  st.counters["name_bytes_per_slice"] = static_cast<double>(v.name_bytes()) / slices;
  st.counters["rss_bytes_per_slice"] = static_cast<double>(c.rss_after_build) / slices;
  st.counters["peak_bytes_per_slice"] = static_cast<double>(c.peak_after_build) / slices;
  if (reset) st.counters["plan_peak_extra_bytes_per_slice"] = static_cast<double>(plan_peak - before) / slices;
  st.counters["build_seconds"] = c.build_seconds;
}

// Diagnostic for "where the time goes": the savepoint guard looks every
// candidate slice's file names up in a hash set of strings. This user guard
// protects exactly the slices the generated savepoint names (the newest
// slice of a group before the savepoint) by comparing instants, i.e. what a
// savepoint bit computed once per slice at build time would cost. Same plan
// (the smoke test checks it); the time difference is the lookups' cost.
struct savepoint_by_instant {
  static constexpr bool is_slice_guard = true;
  InstantTime savepoint;
  bool protects(const SliceGuardContext& c) const {
    for (const FileSlice& s : c.view.slices_of(c.group)) {  // newest first
      if (s.base_instant < savepoint) return &s == &c.slice;
    }
    return false;
  }
};

auto savepoint_bit_policy(const Generator& g) {
  return cleaning(keep_latest_commits{g.commits_retained()}, guard::pending_table_services,
                  savepoint_by_instant{g.savepoint_time()}, unguarded);
}

void BM_savepoint_bit(benchmark::State& st, std::uint64_t n) {
  Loaded& c = load(n, 1.0);
  const auto policy = savepoint_bit_policy(*c.gen);
  const CleanContext ctx{c.gen->now_ms(), {}};
  std::size_t files = 0;
  for (auto _ : st) {
    auto plan = plan_clean(*c.table->view, c.table->md, policy, ctx);
    files = plan->file_count();
    benchmark::DoNotOptimize(plan);
  }
  slice_counters(st, c);
  st.counters["files_in_plan"] = static_cast<double>(files);
}

void BM_reference(benchmark::State& st, std::uint64_t n) {
  Loaded& c = load(n, 1.0);
  const auto p = reference_policy(*c.gen, false);
  std::size_t files = 0;
  for (auto _ : st) {
    auto plan = reference::plan(*c.table->view, c.table->md, p, c.gen->now_ms());
    files = plan.file_count();
    benchmark::DoNotOptimize(plan);
  }
  slice_counters(st, c);
  st.counters["files_in_plan"] = static_cast<double>(files);
}

void BM_floor(benchmark::State& st, std::uint64_t n) {
  Loaded& c = load(n, 1.0);
  const TableView& v = *c.table->view;
  for (auto _ : st) {
    std::uint64_t acc = 0;
    for (const Partition& p : v.partitions()) {
      for (const FileGroup& g : v.groups_of(p)) {
        for (const FileSlice& s : v.slices_of(g)) acc += s.base_instant.head();
      }
    }
    benchmark::DoNotOptimize(acc);
  }
  slice_counters(st, c);
}

void BM_threads(benchmark::State& st, std::uint64_t n, unsigned threads) {
  Loaded& c = load(n, 1.0);
  const auto policy = commits_policy(*c.gen);
  const CleanContext ctx{c.gen->now_ms(), {}};
  std::size_t files = 0;
  for (auto _ : st) {
    auto plan = plan_parallel(*c.table->view, c.table->md, policy, ctx, threads);
    files = plan.file_count();
    benchmark::DoNotOptimize(plan);
  }
  slice_counters(st, c);
  st.counters["threads"] = threads;
  st.counters["files_in_plan"] = static_cast<double>(files);
}

template <bool Incremental, bool Named>
void BM_incremental(benchmark::State& st, std::uint64_t n) {
  Loaded& c = load(n, 0.01, Named);
  const CleanContext ctx{c.gen->now_ms(), {}};
  std::size_t files = 0;
  CleanScope scope;
  for (auto _ : st) {
    StatusOr<CleanPlan> plan;
    if constexpr (Incremental) {
      plan = plan_clean(*c.table->view, c.table->md, incremental_policy(*c.gen), ctx, &scope);
    } else {
      plan = plan_clean(*c.table->view, c.table->md, commits_policy(*c.gen), ctx, &scope);
    }
    files = plan->file_count();
    benchmark::DoNotOptimize(plan);
  }
  slice_counters(st, c);
  st.counters["files_in_plan"] = static_cast<double>(files);
  st.counters["partitions_scanned"] = static_cast<double>(scope.partitions.size());
  st.counters["touched_partitions"] = c.gen->touched_partitions();
}

// The smoke test's checks: each plan agrees with the reference and with the
// others. None of them looks at time.
void smoke_checks(std::uint64_t n) {
  for (double touched : {1.0, 0.01}) {
    Loaded& c = load(n, touched);
    const TableView& v = *c.table->view;
    const TableMetadata& md = c.table->md;
    const CleanContext ctx{c.gen->now_ms(), {}};
    const CleanDecision d = decide_clean(md, commits_policy(*c.gen), ctx);
    check(d.retention.ectr == c.gen->expected_ectr(),
          fmt::format("boundary {} where the generator laid out {}", d.retention.ectr ? d.retention.ectr->str() : "-",
                      c.gen->expected_ectr()));
    auto full = plan_clean(v, md, commits_policy(*c.gen), ctx);
    check(full.ok() && full->has_work(), "the full plan deletes something");
    const CleanPlan ref = reference::plan(v, md, reference_policy(*c.gen, false), c.gen->now_ms());
    check(*full == ref, "plan_clean equals the reference planner (full)");
    check(plan_parallel(v, md, commits_policy(*c.gen), ctx, 2) == *full, "2-thread plan equals plan_clean");
    {
      // A user guard that keeps a replaced group older than the boundary
      // also pulls the boundary back to its replacecommit (the savepoint
      // guard does not: Hudi's archiver respects savepoints itself), so the
      // two plans agree wherever the boundary is the same.
      auto diag = plan_clean(v, md, savepoint_bit_policy(*c.gen), ctx);
      check(diag.ok() && diag->earliest_instant_to_retain <= full->earliest_instant_to_retain,
            "a user guard never moves the boundary forward");
      check(diag->earliest_instant_to_retain != full->earliest_instant_to_retain ||
                diag->files_per_partition == full->files_per_partition,
            "the diagnostic savepoint guard protects what the savepoint does");
    }
    check(plan_parallel(v, md, commits_policy(*c.gen), ctx, 1) == *full, "1-thread plan equals plan_clean");
    CleanScope scope;
    auto inc = plan_clean(v, md, incremental_policy(*c.gen), ctx, &scope);
    check(inc.ok() && scope.kind == ScanKind::incremental,
          fmt::format("incremental scope used ({})", scope.fallback_reason));
    check(scope.partitions.size() == c.gen->touched_partitions(),
          fmt::format("incremental scans the {} touched partitions, not {}", c.gen->touched_partitions(),
                      scope.partitions.size()));
    check(*inc == *full, "incremental plan equals the full plan (steady-state table)");
    const CleanPlan ref_inc = reference::plan(v, md, reference_policy(*c.gen, true), c.gen->now_ms());
    check(*inc == ref_inc, "plan_clean equals the reference planner (incremental)");
    fmt::print(stderr,
               "smoke: {} slices (touched {}): {} partitions, {} data files, plan deletes {} files in {} partitions; "
               "incremental scans {}\n",
               v.slice_count(), touched, v.partitions().size(), c.table->data_files, full->file_count(),
               full->files_per_partition.size(), scope.partitions.size());
  }
  // Commit metadata naming every file (as the journal loads it) changes
  // what the listing check reads, not the plan: the generated listing is
  // complete.
  CleanPlan unnamed_inc;
  {
    const Loaded& c = load(n, 0.01);  // the same static entry the next load() replaces: the plan is a copy
    unnamed_inc = *plan_clean(*c.table->view, c.table->md, incremental_policy(*c.gen), {c.gen->now_ms(), {}});
  }
  Loaded& named = load(n, 0.01, true);
  std::size_t committed = 0;
  for (const auto& [t, info] : named.table->md.commits) committed += info.files.size();
  check(committed > 0, "the named table's commits name their files");
  const CleanContext ctx{named.gen->now_ms(), {}};
  auto named_inc = plan_clean(*named.table->view, named.table->md, incremental_policy(*named.gen), ctx);
  check(named_inc.ok() && named_inc->skipped_partitions.empty(), "no listing gap on the named table");
  check(*named_inc == unnamed_inc, "commit file lists leave the incremental plan unchanged");
}

}  // namespace

int main(int argc, char** argv) {
  g_args = take_args(argc, argv, {"min-time"});
  std::vector<std::uint64_t> sizes = g_args.sizes;
  if (sizes.empty())
    sizes = g_args.smoke ? std::vector<std::uint64_t>{10'000}
                         : std::vector<std::uint64_t>{10'000, 100'000, 1'000'000, 10'000'000};
  if (g_args.smoke) {
    for (auto n : sizes) smoke_checks(n);
  }
  // Each timed benchmark is repeated (median reported) except where one run
  // takes seconds: the reference planner from a million slices on.
  auto tune = [&](benchmark::internal::Benchmark* b, bool slow) {
    b->Unit(benchmark::kMillisecond)->UseRealTime();
    if (g_args.smoke) {
      b->Iterations(1);
    } else if (slow) {
      b->Iterations(1);
    } else {
      // --min-time=S: longer runs for profiling (Google Benchmark's own flag
      // does not override a per-benchmark MinTime).
      b->MinTime(std::stod(g_args.get("min-time", "0.5")))->Repetitions(3)->ReportAggregatesOnly(true);
    }
  };
  // Registered by table (touched 1.0 first, then 0.01) so each table is
  // built once per process.
  for (auto n : sizes) {
    tune(benchmark::RegisterBenchmark(fmt::format("plan_full/{}", n).c_str(), BM_plan_full, n), false);
    tune(benchmark::RegisterBenchmark(fmt::format("floor/{}", n).c_str(), BM_floor, n), false);
    tune(benchmark::RegisterBenchmark(fmt::format("threads/{}/threads:1", n).c_str(), BM_threads, n, 1u), false);
    tune(benchmark::RegisterBenchmark(fmt::format("threads/{}/threads:2", n).c_str(), BM_threads, n, 2u), false);
    tune(benchmark::RegisterBenchmark(fmt::format("diag/savepoint_bit/{}", n).c_str(), BM_savepoint_bit, n), false);
    tune(benchmark::RegisterBenchmark(fmt::format("reference_planner/{}", n).c_str(), BM_reference, n), n >= 1'000'000);
    tune(benchmark::RegisterBenchmark(fmt::format("incremental/full/{}", n).c_str(), BM_incremental<false, false>, n),
         false);
    tune(benchmark::RegisterBenchmark(fmt::format("incremental/inc/{}", n).c_str(), BM_incremental<true, false>, n),
         false);
    // The same table with commit metadata naming every file written (the
    // listing check reads those lists on every plan, as on a real table).
    tune(benchmark::RegisterBenchmark(fmt::format("incremental_named/full/{}", n).c_str(), BM_incremental<false, true>,
                                      n),
         false);
    tune(
        benchmark::RegisterBenchmark(fmt::format("incremental_named/inc/{}", n).c_str(), BM_incremental<true, true>, n),
        false);
  }
  return run_registered(argc, argv);
}
