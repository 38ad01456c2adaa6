// File: bench/common.hpp
// -----------------------------------------------------------------------------
// What every benchmark binary shares: our own flags (taken out of argv
// before Google Benchmark sees it), process memory from /proc/self/status,
// and the smoke-test checks.
//
// Flags:
//   --smoke          the test command's run: smallest size, one iteration,
//                    and correctness checks (never timing checks)
//   --sizes=a,b,...  restrict the sizes registered (run.sh runs one size per
//                    process, so each size's peak memory is its own)
//   --key=value      binary-specific options listed by each main (e.g.
//                    --min-time=S for longer runs under a profiler)
#pragma once

#include <malloc.h>
#include <sys/resource.h>

#include <cstdint>
#include <filesystem>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <benchmark/benchmark.h>
#include <fmt/format.h>

namespace lakegc::bench {

struct Args {
  bool smoke = false;
  std::vector<std::uint64_t> sizes;
  std::map<std::string, std::string, std::less<>> kv;

  std::string get(std::string_view key, std::string fallback = {}) const {
    auto it = kv.find(key);
    return it == kv.end() ? fallback : it->second;
  }
};

/// Removes --smoke, --sizes=... and --KEY=... for each KEY in `keys` from
/// argv; everything else is left for benchmark::Initialize.
inline Args take_args(int& argc, char** argv, std::initializer_list<std::string_view> keys = {}) {
  Args a;
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    bool mine = false;
    if (arg == "--smoke") {
      a.smoke = true;
      mine = true;
    } else if (arg.starts_with("--sizes=")) {
      std::string_view rest = arg.substr(8);
      while (!rest.empty()) {
        const auto comma = rest.find(',');
        a.sizes.push_back(std::stoull(std::string(rest.substr(0, comma))));
        if (comma == std::string_view::npos) break;
        rest.remove_prefix(comma + 1);
      }
      mine = true;
    } else {
      for (std::string_view k : keys) {
        if (arg.size() > k.size() + 3 && arg.substr(0, 2) == "--" && arg.substr(2, k.size()) == k &&
            arg[2 + k.size()] == '=') {
          a.kv.emplace(std::string(k), std::string(arg.substr(3 + k.size())));
          mine = true;
        }
      }
    }
    if (!mine) argv[out++] = argv[i];
  }
  argc = out;
  return a;
}

/// A field of /proc/self/status in bytes (VmRSS, VmHWM, ...), or -1.
inline long long status_bytes(std::string_view field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.starts_with(field) && line.size() > field.size() && line[field.size()] == ':') {
      return std::stoll(line.substr(field.size() + 1)) * 1024;
    }
  }
  return -1;
}
inline long long rss_bytes() { return status_bytes("VmRSS"); }
inline long long peak_bytes() { return status_bytes("VmHWM"); }

/// Resets VmHWM to the current RSS (Linux clear_refs, value 5), so a later
/// peak_bytes() is the peak of what ran in between. Returns false where
/// the kernel refuses; callers then report the process-wide peak.
inline bool reset_peak() {
  std::FILE* f = std::fopen("/proc/self/clear_refs", "w");
  if (f == nullptr) return false;
  const bool ok = std::fputs("5", f) >= 0;
  return std::fclose(f) == 0 && ok;
}

/// Gives freed heap back to the kernel, so RSS measures what is live.
inline void trim_heap() { ::malloc_trim(0); }

/// A smoke-test check: prints and exits non-zero on failure. Checks are about
/// results (plans equal, counts match), never about time.
inline void check(bool ok, std::string_view what) {
  if (ok) return;
  fmt::print(stderr, "SMOKE CHECK FAILED: {}\n", what);
  std::exit(1);
}

/// Runs the registered benchmarks (Google Benchmark's own flags apply),
/// then removes the scratch directory, if any. main()'s last statement.
inline int run_registered(int argc, char** argv, const std::string& scratch = {}) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (!scratch.empty()) std::filesystem::remove_all(scratch);
  return 0;
}

}  // namespace lakegc::bench
