// File: tests/unit/storage/fixtures.hpp
// -----------------------------------------------------------------------------
// Shared by the storage tests: a self-deleting temporary directory, one
// fixture per Storage model (so law tests run over both through
// TEST_CASE_TEMPLATE), and small helpers that collect a listing.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "lakegc/storage/memory_storage.hpp"
#include "lakegc/storage/posix_storage.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc::testing {

/// A fresh directory, removed with everything below it on destruction.
/// Prefers tmpfs (/dev/shm): posix_storage fsyncs every write, which on a
/// real disk would make the property tests slow for no added coverage.
class temp_dir {
 public:
  temp_dir() {
    std::string base = "/tmp";
    if (const char* env = std::getenv("TMPDIR"); env != nullptr && *env != '\0') {
      base = env;
    } else if (std::filesystem::is_directory("/dev/shm")) {
      base = "/dev/shm";
    }
    std::string templ = base + "/lakegc-storage-test-XXXXXX";
    REQUIRE(::mkdtemp(templ.data()) != nullptr);
    path_ = templ;
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  ~temp_dir() {
    std::error_code ec;  // remove_all removes links, never what they point to
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

inline posix_storage open_posix(const std::filesystem::path& root) {
  auto s = posix_storage::open(root.string());
  REQUIRE_MESSAGE(s.ok(), s.status().ToString());
  return std::move(s).value();
}

struct memory_model {
  static constexpr std::string_view name = "memory_storage";
  memory_storage storage;
  /// Files and directories that exist (memory_storage has only files).
  std::size_t raw_entries() const { return storage.file_count(); }
};

struct posix_model {
  static constexpr std::string_view name = "posix_storage";
  temp_dir dir;
  posix_storage storage = open_posix(dir.path());
  std::size_t raw_entries() const {
    std::size_t n = 0;
    for (auto it = std::filesystem::recursive_directory_iterator(dir.path());
         it != std::filesystem::recursive_directory_iterator(); ++it) {
      ++n;
    }
    return n;
  }
};

using entry = std::tuple<std::string, std::uint64_t, std::int64_t>;

/// The listing of `dir` as owned tuples; REQUIREs that it succeeds.
template <Storage S>
std::vector<entry> listing(S& s, std::string_view dir, const ListOptions& options = {}) {
  std::vector<entry> out;
  const Status st = s.list(
      dir, [&](const FileEntry& e) { out.emplace_back(std::string(e.path), e.size, e.mtime_ms); }, options);
  REQUIRE_MESSAGE(st.ok(), st.ToString());
  return out;
}

/// Just the paths of a listing.
template <Storage S>
std::vector<std::string> listed_paths(S& s, std::string_view dir, const ListOptions& options = {}) {
  std::vector<std::string> out;
  for (auto& [path, size, mtime] : listing(s, dir, options)) out.push_back(path);
  return out;
}

}  // namespace lakegc::testing
