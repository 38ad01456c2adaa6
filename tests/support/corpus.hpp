// File: tests/support/corpus.hpp
// -----------------------------------------------------------------------------
// The real Hudi tables under ../shared/data/hudi are fixtures that are never
// copied into the project: tests unzip them into a temporary directory at run
// time. When the folder is absent the corpus suites exit with code 77, which
// Meson reports as "skipped", after printing why.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace lakegc::testing {

/// The corpus folder: $LAKEGC_CORPUS, else ../shared/data/hudi next to the
/// source tree (LAKEGC_SOURCE_ROOT is set by the build).
inline std::filesystem::path corpus_root() {
  if (const char* env = std::getenv("LAKEGC_CORPUS"); env != nullptr && *env != '\0') return env;
#ifdef LAKEGC_SOURCE_ROOT
  return std::filesystem::path(LAKEGC_SOURCE_ROOT) / ".." / "shared" / "data" / "hudi";
#else
  return std::filesystem::path("..") / "shared" / "data" / "hudi";
#endif
}

inline bool corpus_available() { return std::filesystem::is_directory(corpus_root()); }

/// The twelve tables, as paths of their zips relative to corpus_root().
inline const std::vector<std::string>& corpus_tables() {
  static const std::vector<std::string> tables = {
      "quickstart_trips_table/mor/avro/v8_trips_8i3u1d",
      "sample_table/cow/v6_complexkeygen_hivestyle",
      "sample_table/cow/v6_empty",
      "sample_table/cow/v6_nonpartitioned",
      "sample_table/cow/v6_simplekeygen_nonhivestyle",
      "sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable",
      "sample_table/cow/v8_complexkeygen_hivestyle",
      "sample_table/cow/v8_nonpartitioned",
      "sample_table/cow/v9_txns_simple_nometa",
      "sample_table/mor/avro/v9_txns_simple_nometa",
      "sample_table/mor/parquet/v6_nonpartitioned_rollback",
      "sample_table/mor/parquet/v6_simplekeygen_nonhivestyle_overwritetable",
  };
  return tables;
}

/// The bytes of the file at `p` (empty when it cannot be read).
inline std::string file_contents(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// A fresh temporary directory, removed when the object goes away.
class temp_dir {
 public:
  temp_dir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "lakegc-test-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) std::abort();
    path_ = pattern;
  }
  ~temp_dir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

/// Unzips the corpus table `name` (e.g. "sample_table/cow/v6_nonpartitioned")
/// into `into` and returns the table's root directory (the zip's single
/// top-level folder). Skips the __MACOSX entries some zips carry.
inline std::filesystem::path unzip_table(const std::string& name, const std::filesystem::path& into) {
  const auto zip = corpus_root() / (name + ".zip");
  const std::string cmd =
      "unzip -q -o '" + zip.string() + "' -x '__MACOSX/*' -d '" + into.string() + "' >/dev/null 2>&1";
  if (std::system(cmd.c_str()) != 0) std::abort();
  const auto leaf = std::filesystem::path(name).filename();
  return into / leaf;
}

}  // namespace lakegc::testing
