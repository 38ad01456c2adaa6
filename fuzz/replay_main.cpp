// A main for fuzz targets built without libFuzzer (g++): runs
// LLVMFuzzerTestOneInput on every file named on the command line, and on
// every regular file inside a named directory (sorted by name, so runs are
// reproducible). The test command replays the seed corpora this way, and
// `--optional DIR` replays DIR only when it exists (the crash inputs that
// ./dev fuzz saves under fuzz/crashes/schedule/, absent on a fresh clone).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

bool run_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "replay: cannot read %s\n", p.c_str());
    return false;
  }
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::fprintf(stderr, "replay: %s (%zu bytes)\n", p.c_str(), bytes.size());
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t runs = 0;
  for (int i = 1; i < argc; ++i) {
    const bool optional = std::string_view(argv[i]) == "--optional" && i + 1 < argc;
    const std::filesystem::path arg(argv[optional ? ++i : i]);
    std::error_code ec;
    if (optional && !std::filesystem::exists(arg, ec)) continue;
    if (std::filesystem::is_directory(arg, ec)) {
      std::vector<std::filesystem::path> files;
      for (const auto& e : std::filesystem::directory_iterator(arg)) {
        if (e.is_regular_file()) files.push_back(e.path());
      }
      std::sort(files.begin(), files.end());
      for (const auto& f : files) runs += run_file(f) ? 1 : 0;
    } else if (run_file(arg)) {
      ++runs;  // a single input named on the command line (the replay command ./dev fuzz prints)
    } else {
      return 2;
    }
  }
  std::fprintf(stderr, "replay: %zu input(s), no failure\n", runs);
  return runs > 0 ? 0 : 2;
}
