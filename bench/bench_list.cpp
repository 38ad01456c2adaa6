// Benchmark 4 of issue 7: posix_storage's listing of a table tree, against
// `find TABLE -type f` (timed by run.sh on the same tree, same warm cache).
//
//   bench_list --write-tree=DIR --partitions=P --groups=G --slices=S
//       writes the generated table as a layout-1 tree (0-byte data files)
//       and prints its file counts; run.sh makes the 1-million-file tree so
//   bench_list --tree=DIR
//       posix_list           posix_storage::list("") of everything (what
//                            `find -type f` lists: .hoodie included)
//       posix_list_names     the same without attributes (what a clean
//                            plan lists: no stat for a typed entry)
//       walk_readdir         floor: openat/readdir by d_type, no stat, no
//                            sort (the work `find -type f` does)
//       walk_readdir_stat    the floor plus one fstatat per entry (the
//                            size and mtime a listing must return)
//   bench_list --smoke
//       writes a small tree, checks that hudi::journal + load_view read it
//       back to the plan the in-memory table gives, lists it, deletes it
#include <benchmark/benchmark.h>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "common.hpp"
#include "generator.hpp"
#include "lakegc/hudi/journal.hpp"
#include "lakegc/plan/plan_clean.hpp"

using namespace lakegc;
using namespace lakegc::bench;

namespace {

Args g_args;
std::string g_tree;

struct Count {
  std::uint64_t files = 0;
  std::uint64_t bytes = 0;
};

// Attributes = false is the listing a clean plan makes (load_view's
// FileSizes::not_needed): names only, a stat only where readdir cannot
// type an entry. `stats` counts the entries listed with attributes, each
// of which cost one.
template <bool Attributes>
void BM_posix_list(benchmark::State& st) {
  auto s = posix_storage::open(g_tree);
  if (!s.ok()) {
    st.SkipWithError("cannot open the tree");
    return;
  }
  ListOptions options;
  options.attributes = Attributes;
  Count c;
  std::uint64_t stats = 0;
  for (auto _ : st) {
    c = {};
    stats = 0;
    const Status r = s->list(
        "",
        [&](const FileEntry& e) {
          ++c.files;
          c.bytes += e.path.size();
          if (e.has_attributes()) ++stats;
        },
        options);
    if (!r.ok()) st.SkipWithError(std::string(message_of(r)).c_str());
  }
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations() * c.files));
  st.counters["files"] = static_cast<double>(c.files);
  st.counters["stats"] = static_cast<double>(stats);
}

// `find -type f`'s work: readdir, d_type, no sort, no stat (unless the
// file system leaves d_type unknown).
template <bool Stat>
void walk(int dirfd, Count& c) {
  DIR* d = ::fdopendir(dirfd);
  if (d == nullptr) return;
  while (const dirent* e = ::readdir(d)) {
    const char* n = e->d_name;
    if (n[0] == '.' && (n[1] == 0 || (n[1] == '.' && n[2] == 0))) continue;
    unsigned char type = e->d_type;
    struct ::stat stbuf {};
    if (Stat || type == DT_UNKNOWN) {
      if (::fstatat(::dirfd(d), n, &stbuf, AT_SYMLINK_NOFOLLOW) != 0) continue;
      type = S_ISREG(stbuf.st_mode) ? DT_REG : S_ISDIR(stbuf.st_mode) ? DT_DIR : DT_UNKNOWN;
    }
    if (type == DT_REG) {
      ++c.files;
      c.bytes += static_cast<std::uint64_t>(stbuf.st_size);
    } else if (type == DT_DIR) {
      const int sub = ::openat(::dirfd(d), n, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (sub >= 0) walk<Stat>(sub, c);
    }
  }
  ::closedir(d);
}

template <bool Stat>
void BM_walk(benchmark::State& st) {
  Count c;
  for (auto _ : st) {
    c = {};
    walk<Stat>(::open(g_tree.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC), c);
  }
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations() * c.files));
  st.counters["files"] = static_cast<double>(c.files);
}

GenSpec tree_spec(const Args& a) {
  GenSpec s;
  s.partitions = static_cast<std::uint32_t>(std::stoul(a.get("partitions", "20")));
  s.groups = static_cast<std::uint32_t>(std::stoul(a.get("groups", "10")));
  s.slices = static_cast<std::uint32_t>(std::stoul(a.get("slices", "5")));
  s.touched = std::stod(a.get("touched", "1.0"));
  s.zero_sizes = true;  // the files on disk are empty
  return s;
}

// The tree loads back, through the library's own readers, to the table the
// in-memory generator builds: same metadata, same plan.
void round_trip_check(const Generator& gen, const std::string& dir) {
  auto storage = posix_storage::open(dir);
  check(storage.ok(), "open the tree");
  auto j = hudi::journal<posix_storage>::open(*storage, dir);
  check(j.ok(), fmt::format("journal::open: {}", j.ok() ? "" : message_of(j.status())));
  auto md = j->load();
  check(md.ok(), fmt::format("journal::load: {}", md.ok() ? "" : message_of(md.status())));
  auto view = load_view(*storage, *md);
  check(view.ok(), "load_view");
  const Table mem = build_in_memory(gen);
  check(md->timeline.instants().size() == mem.md.timeline.instants().size(), "same timeline");
  for (std::size_t i = 0; i < md->timeline.instants().size(); ++i) {
    check(md->timeline.instants()[i] == mem.md.timeline.instants()[i],
          fmt::format("instant {}: {} vs {}", i, md->timeline.instants()[i], mem.md.timeline.instants()[i]));
  }
  check(md->commits.size() == mem.md.commits.size(), "same commits");
  for (const auto& [t, info] : mem.md.commits) {
    const auto it = md->commits.find(t);
    check(it != md->commits.end(), fmt::format("commit {} loaded", t));
    check(it->second.partitions_written == info.partitions_written, fmt::format("partitions written by {}", t));
    check(it->second.replaced == info.replaced, fmt::format("groups replaced by {}", t));
  }
  check(md->savepoints.size() == 1 && md->savepoints[0].files == mem.md.savepoints[0].files, "same savepoint");
  check(md->pending_compactions.size() == mem.md.pending_compactions.size(), "same pending compaction");
  check(md->last_completed_clean &&
            md->last_completed_clean->earliest_commit_to_retain ==
                mem.md.last_completed_clean->earliest_commit_to_retain &&
            md->last_completed_clean->savepointed_timestamps == mem.md.last_completed_clean->savepointed_timestamps,
        "same previous clean");
  check(view->slice_count() == mem.view->slice_count(), "same slices");
  check(view->file_count() == mem.view->file_count(), "same files");
  check(view->uncommitted_files().size() == mem.view->uncommitted_files().size(), "same uncommitted files");
  const auto policy = cleaning(keep_latest_commits{gen.commits_retained()}, guard::savepoints,
                               guard::pending_table_services, scope::incremental);
  const CleanContext ctx{gen.now_ms(), {}};
  CleanScope disk_scope;
  auto disk_plan = plan_clean(*view, *md, policy, ctx, &disk_scope);
  auto mem_plan = plan_clean(*mem.view, mem.md, policy, ctx);
  check(disk_plan.ok() && mem_plan.ok() && *disk_plan == *mem_plan && disk_plan->has_work(),
        "the tree plans exactly as the in-memory table");
  check(disk_scope.kind == ScanKind::incremental, "the tree's previous clean anchors an incremental clean");
  fmt::print(stderr, "smoke: tree {} reads back: {} instants, {} slices, plan of {} files\n", dir,
             md->timeline.instants().size(), view->slice_count(), disk_plan->file_count());
}

}  // namespace

int main(int argc, char** argv) {
  g_args = take_args(argc, argv, {"tree", "write-tree", "partitions", "groups", "slices", "touched"});
  if (!g_args.get("write-tree").empty()) {
    const std::string dir = g_args.get("write-tree");
    const Generator gen(tree_spec(g_args));
    const auto t0 = std::chrono::steady_clock::now();
    const TreeStats s = write_tree(gen, dir);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    fmt::print(
        "{{\"dir\": \"{}\", \"partitions\": {}, \"data_files\": {}, \"timeline_files\": {}, "
        "\"timeline_bytes\": {}, \"nominal_slices\": {}, \"write_seconds\": {:.1f}}}\n",
        dir, s.partitions, s.data_files, s.timeline_files, s.timeline_bytes, gen.spec().nominal_slices(), secs);
    return 0;
  }
  std::string scratch;
  g_tree = g_args.get("tree");
  if (g_args.smoke && g_tree.empty()) {
    std::string tmpl = (std::filesystem::temp_directory_path() / "lakegc-bench-tree-XXXXXX").string();
    check(::mkdtemp(tmpl.data()) != nullptr, "mkdtemp");
    scratch = tmpl;
    g_tree = scratch + "/table";
    GenSpec spec = tree_spec(g_args);
    spec.touched = 0.1;  // two of 20 partitions: the incremental window is exercised
    const Generator gen(spec);
    write_tree(gen, g_tree);
    round_trip_check(gen, g_tree);
  }
  if (g_tree.empty()) {
    fmt::print(stderr,
               "usage: bench_list --tree=DIR | --write-tree=DIR [--partitions=P --groups=G --slices=S] | --smoke\n");
    return 2;
  }
  auto tune = [&](benchmark::internal::Benchmark* b) {
    b->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);
    if (!g_args.smoke) b->Repetitions(3)->ReportAggregatesOnly(true);
  };
  tune(benchmark::RegisterBenchmark("posix_list", BM_posix_list<true>));
  tune(benchmark::RegisterBenchmark("posix_list_names", BM_posix_list<false>));
  tune(benchmark::RegisterBenchmark("walk_readdir", BM_walk<false>));
  tune(benchmark::RegisterBenchmark("walk_readdir_stat", BM_walk<true>));
  return run_registered(argc, argv, scratch);
}
