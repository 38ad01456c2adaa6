// fuzz_replay: the one binary that replays every parser fuzz target (the
// g++ build has no libFuzzer; the clang build uses it to write seeds).
//
//   fuzz_replay --list
//   fuzz_replay TARGET [--show-errors] [--hudi-seeds] [--seeds DIR] [--expect-error FILE]... [FILE|DIR]...
//   fuzz_replay --export-seeds DIR
//
// --seeds DIR replays the files in DIR when it exists (hand-written seeds);
// --show-errors prints why each rejected input was rejected;
// --hudi-seeds unzips every corpus table of ../shared/data/hudi (or
// $LAKEGC_CORPUS) into a temporary directory and replays what the target's
// seed picker takes from each file; --expect-error FILE replays FILE and
// requires the target to reject it with an error (a fuzz finding that must
// stay fixed). A corpus or finding that is absent exits 77, which Meson
// reports as skipped: the run says what it could not replay, and never
// passes without it. --export-seeds writes every target's seeds from the
// corpus tables to DIR/<target>/ for libFuzzer (./dev fuzz).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "../tests/support/corpus.hpp"
#include "target.hpp"

namespace fs = std::filesystem;
using lakegc::fuzz::target;

namespace {

constexpr int skip_exit = 77;

struct tally {
  std::size_t inputs = 0;
  std::size_t rejected = 0;
  bool show_errors = false;
};

// Each input is named before it runs, so that the log of a run that
// crashes ends with the input that crashed it.
void replay(const target& t, std::string_view bytes, const std::string& label, tally& n) {
  std::fprintf(stderr, "replay: %s (%zu bytes)\n", label.c_str(), bytes.size());
  const lakegc::Status st = lakegc::fuzz::checked(t.run(bytes));
  ++n.inputs;
  if (st.ok()) return;
  ++n.rejected;
  if (n.show_errors) std::fprintf(stderr, "replay: rejected: %s\n", std::string(lakegc::message_of(st)).c_str());
}

std::vector<fs::path> regular_files_under(const fs::path& root) {
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (e.is_regular_file()) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());  // reproducible order
  return files;
}

/// Calls f(seed bytes, label) for each distinct seed `t` picks from the
/// corpus tables; false (after saying why) when the corpus is absent.
template <class F>
bool for_each_hudi_seed(const target& t, F&& f) {
  namespace lt = lakegc::testing;
  if (!lt::corpus_available()) {
    std::fprintf(stderr, "fuzz_replay: the corpus folder %s is absent: no Hudi seeds to replay\n",
                 lt::corpus_root().c_str());
    return false;
  }
  std::set<std::string> seen;  // file names repeat across tables
  for (const auto& table : lt::corpus_tables()) {
    lt::temp_dir tmp;
    const fs::path root = lt::unzip_table(table, tmp.path());
    for (const auto& p : regular_files_under(root)) {
      const fs::path rel = fs::relative(p, root);
      auto seed = t.seed(rel, lt::file_contents(p));
      if (seed && seen.insert(*seed).second) f(*seed, table + "/" + rel.generic_string());
    }
  }
  return true;
}

const target* find_target(std::string_view name) {
  for (const auto& t : lakegc::fuzz::registry()) {
    if (name == t.name) return &t;
  }
  return nullptr;
}

int export_seeds(const fs::path& dir) {
  for (const auto& t : lakegc::fuzz::registry()) {
    const fs::path out = dir / t.name;
    fs::create_directories(out);
    std::size_t k = 0;
    const bool ok = for_each_hudi_seed(t, [&](const std::string& seed, const std::string&) {
      std::ofstream(out / fmt::format("hudi-{:05}", k++), std::ios::binary) << seed;
    });
    if (!ok) return skip_exit;
    std::fprintf(stderr, "fuzz_replay: %zu seed(s) for %s in %s\n", k, t.name, out.c_str());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::fprintf(stderr,
                 "usage: fuzz_replay --list | --export-seeds DIR | TARGET [--show-errors] [--hudi-seeds] "
                 "[--seeds DIR] [--expect-error FILE]... [FILE|DIR]...\n");
    return 2;
  }
  if (args[0] == "--list") {
    for (const auto& t : lakegc::fuzz::registry()) std::printf("%s\n", t.name);
    return 0;
  }
  if (args[0] == "--export-seeds" && args.size() == 2) return export_seeds(args[1]);
  const target* t = find_target(args[0]);
  if (t == nullptr) {
    std::fprintf(stderr, "fuzz_replay: no target '%s' (--list shows them)\n", args[0].c_str());
    return 2;
  }
  tally n;
  bool skipped = false;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--show-errors") {
      n.show_errors = true;
    } else if (a == "--seeds" && i + 1 < args.size()) {
      // Hand-written seeds (fuzz/corpus/<target>/); a target may have none.
      const fs::path dir = args[++i];
      if (!fs::is_directory(dir)) continue;
      for (const auto& f : regular_files_under(dir)) replay(*t, lakegc::testing::file_contents(f), f.string(), n);
    } else if (a == "--hudi-seeds") {
      tally before = n;
      if (!for_each_hudi_seed(*t,
                              [&](const std::string& seed, const std::string& label) { replay(*t, seed, label, n); })) {
        skipped = true;
      } else {
        std::fprintf(stderr, "fuzz_replay: %s: %zu seed(s) from the corpus tables\n", t->name,
                     n.inputs - before.inputs);
      }
    } else if (a == "--expect-error" && i + 1 < args.size()) {
      const fs::path p = args[++i];
      if (!fs::is_regular_file(p)) {
        std::fprintf(stderr, "fuzz_replay: the fuzz finding %s is absent: not replayed\n", p.c_str());
        skipped = true;
        continue;
      }
      const lakegc::Status st = lakegc::fuzz::checked(t->run(lakegc::testing::file_contents(p)));
      ++n.inputs;
      if (st.ok()) {
        std::fprintf(stderr, "fuzz_replay: %s: the fuzz finding %s decoded without an error\n", t->name, p.c_str());
        return 1;
      }
      ++n.rejected;
      std::fprintf(stderr, "fuzz_replay: %s: finding %s rejected: %s\n", t->name, p.filename().c_str(),
                   std::string(lakegc::message_of(st)).c_str());
    } else {
      const fs::path p = a;
      if (!fs::exists(p)) {
        std::fprintf(stderr, "fuzz_replay: %s does not exist\n", p.c_str());
        return 2;
      }
      const std::vector<fs::path> files = fs::is_directory(p) ? regular_files_under(p) : std::vector<fs::path>{p};
      for (const auto& f : files) replay(*t, lakegc::testing::file_contents(f), f.string(), n);
    }
  }
  std::fprintf(stderr, "fuzz_replay: %s: %zu input(s) replayed, %zu rejected with an error, no crash\n", t->name,
               n.inputs, n.rejected);
  if (skipped) return skip_exit;
  return n.inputs > 0 ? 0 : 2;
}
