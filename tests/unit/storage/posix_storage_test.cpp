// posix_storage against a real temporary directory: confinement (symlinks
// and `..` never lead outside the root), open() errors, real mtimes, atomic
// create under a race, and what the file system has that memory_storage
// does not (empty directories, FIFOs).
#include "lakegc/storage/posix_storage.hpp"
#include "lakegc/storage/crash_storage.hpp"
#include "lakegc/storage/memory_storage.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <latch>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "fixtures.hpp"

namespace lakegc::tests::posix_storage_test {
namespace {

namespace fs = std::filesystem;
using testing::listed_paths;

void put(const fs::path& p, std::string_view bytes) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << bytes;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bool mentions(const Status& s, std::string_view what) { return message_of(s).find(what) != std::string_view::npos; }

// base/root is the storage; base/outside holds what links point at.
struct sandbox {
  testing::temp_dir base;
  fs::path root = base.path() / "root";
  fs::path outside = base.path() / "outside";
  sandbox() {
    fs::create_directories(root);
    put(outside / "secret.txt", "secret");
    put(outside / "dir" / "f", "outside file");
    put(root / "p" / "real", "inside");
    fs::create_symlink(outside / "secret.txt", root / "p" / "link_file");
    fs::create_directory_symlink(outside / "dir", root / "link_dir");
  }
  void check_outside_intact() const {
    CHECK(slurp(outside / "secret.txt") == "secret");
    CHECK(slurp(outside / "dir" / "f") == "outside file");
    CHECK(fs::is_regular_file(outside / "dir" / "f"));
    CHECK_FALSE(fs::exists(outside / "dir" / "new"));
  }
};

TEST_CASE("symlinks pointing outside the root are never followed") {
  sandbox box;
  posix_storage s = testing::open_posix(box.root);

  SUBCASE("listing skips them and never asks to enter a linked directory") {
    std::vector<std::string> asked;
    ListOptions options;
    options.skip_dir = [&](std::string_view d) {
      asked.emplace_back(d);
      return false;
    };
    CHECK(listed_paths(s, "", options) == std::vector<std::string>{"p/real"});
    CHECK(asked == std::vector<std::string>{"p"});
    CHECK(absl::IsFailedPrecondition(s.list("link_dir", [](const FileEntry&) { FAIL("visited"); })));
  }
  SUBCASE("read, stat and remove at or through a link are refused, naming it") {
    for (std::string_view path : {"p/link_file", "link_dir/f"}) {
      CAPTURE(path);
      for (const Status& st : {s.read(path).status(), s.stat(path).status(), s.remove(path),
                               s.remove_batch(std::vector<std::string>{std::string(path)})[0]}) {
        CHECK(absl::IsFailedPrecondition(st));
        CHECK(mentions(st, "symbolic link"));
        CHECK(mentions(st, path.starts_with("p/") ? "symbolic link 'p/link_file'" : "symbolic link 'link_dir'"));
      }
    }
    CHECK(fs::is_symlink(box.root / "p" / "link_file"));
    CHECK(fs::is_symlink(box.root / "link_dir"));
  }
  SUBCASE("write_if_absent through a linked directory is refused and creates nothing") {
    const Status st = s.write_if_absent("link_dir/new", "x");
    CHECK(absl::IsFailedPrecondition(st));
    CHECK(mentions(st, "link_dir"));
    CHECK_FALSE(fs::exists(box.outside / "dir" / "new"));
    // Onto a link: the name is taken; the target is not overwritten.
    CHECK(absl::IsAlreadyExists(s.write_if_absent("p/link_file", "overwrite?")));
  }
  box.check_outside_intact();
}

TEST_CASE("open_beneath opens a path below its directory, and nothing through a link or above it") {
  sandbox box;
  put(box.root / "p" / "q" / "deep", "deep");
  // A link that stays inside the root is not followed either.
  fs::create_directory_symlink("p", box.root / "inside_link");
  const detail::unique_fd root(::open(box.root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  REQUIRE(root);
  constexpr int flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC;
  const detail::unique_fd deep(detail::open_beneath(root.get(), "p/q/deep", flags));
  if (!deep) {
    // Only a kernel without openat2 (before 5.6) or a sandbox refusing it
    // may say no here; posix_storage then walks the components.
    REQUIRE((errno == ENOSYS || errno == EPERM));
    MESSAGE("openat2 is unavailable here: posix_storage reads by its component walk");
  } else {
    char buf[8] = {};
    CHECK(::read(deep.get(), buf, sizeof buf) == 4);
    CHECK(std::string_view(buf, 4) == "deep");
  }
  // Each of these must fail whether or not openat2 exists.
  for (const char* path :
       {"p/link_file", "link_dir/f", "inside_link/real", "../outside/secret.txt", "p/../../outside/secret.txt"}) {
    CAPTURE(path);
    const detail::unique_fd fd(detail::open_beneath(root.get(), path, flags));
    CHECK_FALSE(fd);
  }
  // read() gives the same bytes on either path, empty and large files too.
  posix_storage s = testing::open_posix(box.root);
  const std::string large(200'001, 'x');
  put(box.root / "p" / "empty", "");
  put(box.root / "p" / "large", large);
  CHECK(s.read("p/q/deep").value() == "deep");
  CHECK(s.read("p/empty").value().empty());
  CHECK(s.read("p/large").value() == large);
  CHECK(absl::IsFailedPrecondition(s.read("inside_link/real").status()));
  box.check_outside_intact();
}

TEST_CASE("a ../ path is refused before touching the file system") {
  sandbox box;
  posix_storage s = testing::open_posix(box.root);
  const Status st = s.write_if_absent("../escape", "x");
  CHECK(absl::IsInvalidArgument(st));
  CHECK(mentions(st, "'../escape'"));
  CHECK_FALSE(fs::exists(box.base.path() / "escape"));
  CHECK(absl::IsInvalidArgument(s.remove("../outside/secret.txt")));
  CHECK(absl::IsInvalidArgument(s.read("p/../../outside/secret.txt").status()));
  CHECK(absl::IsInvalidArgument(s.list("..", [](const FileEntry&) {})));
  box.check_outside_intact();
}

TEST_CASE("open() names the root it cannot use") {
  testing::temp_dir dir;
  const std::string missing = (dir.path() / "missing").string();
  auto a = posix_storage::open(missing);
  REQUIRE_FALSE(a.ok());
  CHECK(absl::IsNotFound(a.status()));
  CHECK(mentions(a.status(), missing));

  put(dir.path() / "file", "x");
  const std::string file = (dir.path() / "file").string();
  auto b = posix_storage::open(file);
  REQUIRE_FALSE(b.ok());
  CHECK(absl::IsFailedPrecondition(b.status()));  // ENOTDIR
  CHECK(mentions(b.status(), file));

  CHECK(absl::IsInvalidArgument(posix_storage::open("").status()));
}

TEST_CASE("mtime is what utimensat set, to the millisecond") {
  testing::temp_dir dir;
  posix_storage s = testing::open_posix(dir.path());
  REQUIRE(s.write_if_absent("p/f", "abc").ok());
  const struct timespec times[2] = {{1'700'000'000, 123'456'789}, {1'700'000'000, 123'456'789}};
  REQUIRE(::utimensat(AT_FDCWD, (dir.path() / "p" / "f").c_str(), times, 0) == 0);
  CHECK(s.stat("p/f")->mtime_ms == 1'700'000'000'123);
  CHECK(testing::listing(s, "") == std::vector<testing::entry>{{"p/f", 3, 1'700'000'000'123}});

  const struct timespec before_epoch[2] = {{-2, 500'000'000}, {-2, 500'000'000}};
  REQUIRE(::utimensat(AT_FDCWD, (dir.path() / "p" / "f").c_str(), before_epoch, 0) == 0);
  CHECK(s.stat("p/f")->mtime_ms == -1'500);
}

TEST_CASE("write_if_absent leaves only the target, creating its parents") {
  testing::temp_dir dir;
  posix_storage s = testing::open_posix(dir.path());
  REQUIRE(s.write_if_absent(".hoodie/timeline/1.commit", "{}").ok());
  CHECK(slurp(dir.path() / ".hoodie" / "timeline" / "1.commit") == "{}");
  std::vector<std::string> on_disk;
  for (const auto& e : fs::recursive_directory_iterator(dir.path())) {
    on_disk.push_back(fs::relative(e.path(), dir.path()).string());
  }
  std::sort(on_disk.begin(), on_disk.end());
  CHECK(on_disk == std::vector<std::string>{".hoodie", ".hoodie/timeline", ".hoodie/timeline/1.commit"});
}

TEST_CASE("racing write_if_absent: exactly one writer wins, and its bytes are what is read") {
  testing::temp_dir dir;
  posix_storage s = testing::open_posix(dir.path());
  for (int round = 0; round < 20; ++round) {
    const std::string path = "race/" + std::to_string(round);
    std::atomic<int> wins{0};
    std::atomic<int> exists{0};
    std::vector<std::thread> writers;
    std::latch start(4);  // all four call at once, or there is no race
    for (int w = 0; w < 4; ++w) {
      writers.emplace_back([&, w] {
        start.arrive_and_wait();
        const Status st = s.write_if_absent(path, std::string(1000 + w, static_cast<char>('a' + w)));
        if (st.ok()) ++wins;
        if (absl::IsAlreadyExists(st)) ++exists;
      });
    }
    for (auto& t : writers) t.join();
    CHECK(wins == 1);
    CHECK(exists == 3);
    const auto bytes = s.read(path);
    REQUIRE(bytes.ok());
    const std::size_t w = bytes->size() - 1000;
    CHECK(*bytes == std::string(1000 + w, static_cast<char>('a' + w)));
  }
  CHECK(listed_paths(s, "race").size() == 20);  // no temporaries left
}

TEST_CASE("remove takes an empty directory, refuses a non-empty one") {
  testing::temp_dir dir;
  posix_storage s = testing::open_posix(dir.path());
  fs::create_directories(dir.path() / "part" / "empty");
  put(dir.path() / "part" / "f", "x");
  const Status full = s.remove("part");
  CHECK(absl::IsFailedPrecondition(full));
  CHECK(mentions(full, "'part'"));
  CHECK(s.remove("part/empty").ok());
  CHECK_FALSE(fs::exists(dir.path() / "part" / "empty"));
  CHECK(s.remove("part/f").ok());
  CHECK(testing::listing(s, "part").empty());  // emptied, still there
  CHECK(s.remove("part").ok());
  CHECK(absl::IsNotFound(s.list("part", [](const FileEntry&) {})));
}

TEST_CASE("a file goes with its Hadoop checksum; a stale checksum goes before its name is written again") {
  testing::temp_dir dir;
  posix_storage s = testing::open_posix(dir.path());
  const fs::path p = dir.path() / "p";
  put(p / "a.parquet", "a");
  put(p / ".a.parquet.crc", "crc of a");
  put(p / "b.parquet", "b");
  put(p / ".b.parquet.crc", "crc of b");
  put(p / "c.log", "c");
  put(p / ".c.log.crc", "crc of c");
  put(p / ".d.crc", "a checksum has no checksum");
  put(p / "..d.crc.crc", "not Hadoop's: left alone");
  CHECK(s.remove("p/a.parquet").ok());
  CHECK_FALSE(fs::exists(p / "a.parquet"));
  CHECK_FALSE(fs::exists(p / ".a.parquet.crc"));
  const std::vector<std::string> batch{"p/b.parquet", "p/.d.crc"};
  for (const Status& st : s.remove_batch(batch)) CHECK(st.ok());
  CHECK_FALSE(fs::exists(p / ".b.parquet.crc"));
  CHECK(fs::exists(p / "..d.crc.crc"));

  // Hadoop would check the new c.log against the old checksum and fail.
  CHECK(s.remove("p/c.log").ok());
  put(p / ".c.log.crc", "stale");
  REQUIRE(s.write_if_absent("p/c.log", "new c").ok());
  CHECK_FALSE(fs::exists(p / ".c.log.crc"));
  CHECK(slurp(p / "c.log") == "new c");

  // A name that exists keeps its checksum: nothing is written.
  put(p / ".c.log.crc", "crc of new c");
  CHECK(absl::IsAlreadyExists(s.write_if_absent("p/c.log", "other")));
  CHECK(slurp(p / ".c.log.crc") == "crc of new c");
}

TEST_CASE("only regular files are listed or read: a FIFO is skipped and refused") {
  testing::temp_dir dir;
  posix_storage s = testing::open_posix(dir.path());
  REQUIRE(::mkfifo((dir.path() / "fifo").c_str(), 0600) == 0);
  put(dir.path() / "g", "x");
  CHECK(listed_paths(s, "") == std::vector<std::string>{"g"});
  CHECK(absl::IsFailedPrecondition(s.read("fifo").status()));  // and does not block
  CHECK(absl::IsFailedPrecondition(s.stat("fifo").status()));
  CHECK(absl::IsFailedPrecondition(s.remove("fifo")));
}

TEST_CASE("a listing without attributes walks the same files in the same order, sizes and mtimes unknown") {
  sandbox box;  // a regular file, a link to a file, a link to a directory
  put(box.root / "p" / "a.parquet", "12345");
  put(box.root / "q" / "r" / "z", "");
  put(box.root / "top", "xy");
  REQUIRE(::mkfifo((box.root / "q" / "fifo").c_str(), 0600) == 0);
  posix_storage s = testing::open_posix(box.root);

  ListOptions names_only;
  names_only.attributes = false;
  const auto with = testing::listing(s, "");
  const auto without = testing::listing(s, "", names_only);
  REQUIRE(with.size() == 4);  // links and the FIFO are never listed
  CHECK(listed_paths(s, "") == listed_paths(s, "", names_only));
  for (std::size_t i = 0; i < with.size(); ++i) {
    const auto& [path, size, mtime] = with[i];
    CAPTURE(path);
    CHECK(size == fs::file_size(box.root / path));
    CHECK(mtime != FileEntry::kUnknownMtime);
    CHECK(std::get<1>(without[i]) == FileEntry::kUnknownSize);
    CHECK(std::get<2>(without[i]) == FileEntry::kUnknownMtime);
  }
  // skip_dir and recursive still apply.
  names_only.skip_dir = [](std::string_view d) { return d == "q"; };
  CHECK(listed_paths(s, "", names_only) == std::vector<std::string>{"p/a.parquet", "p/real", "top"});
  names_only.recursive = false;
  CHECK(listed_paths(s, "", names_only) == std::vector<std::string>{"top"});
  box.check_outside_intact();
}

TEST_CASE("stat_batch answers each path as stat does, in order") {
  sandbox box;
  put(box.root / "p" / "b", "12");
  put(box.root / "q" / "c", "123");
  posix_storage s = testing::open_posix(box.root);
  const std::vector<std::string> paths{"p/real", "p/b",    "p/missing", "p/link_file", "q/c",
                                       "p/real", "gone/x", "../p/b",    "link_dir/f",  "top-missing"};
  const auto got = s.stat_batch(paths);
  REQUIRE(got.size() == paths.size());
  for (std::size_t i = 0; i < paths.size(); ++i) {
    CAPTURE(paths[i]);
    const auto want = s.stat(paths[i]);
    CHECK(got[i].status().code() == want.status().code());
    if (want.ok() && got[i].ok()) CHECK(*got[i] == *want);
  }
  CHECK(got[1]->size == 2);
  CHECK(got[4]->size == 3);
  CHECK(absl::IsNotFound(got[2].status()));
  CHECK(absl::IsFailedPrecondition(got[3].status()));
  CHECK(absl::IsInvalidArgument(got[7].status()));
  box.check_outside_intact();
}

template <typename T>
concept has_stat_batch = requires(T& t, std::span<const std::string> p) { t.stat_batch(p); };

TEST_CASE("crash_storage forwards stat_batch without spending its crash budget") {
  sandbox box;
  put(box.root / "p" / "b", "12");
  posix_storage s = testing::open_posix(box.root);
  bool crashed = false;
  crash_storage<posix_storage> crashing(s, 1, [&] { crashed = true; });
  const std::vector<std::string> paths{"p/b", "p/missing"};
  const auto got = crashing.stat_batch(paths);
  REQUIRE(got.size() == 2);
  CHECK(got[0]->size == 2);
  CHECK(absl::IsNotFound(got[1].status()));
  CHECK(crashing.mutations() == 0);
  CHECK_FALSE(crashed);
  // Only forwarded where the inner storage has it (planned_sizes then stats
  // one path at a time).
  static_assert(has_stat_batch<crash_storage<posix_storage>>);
  static_assert(!has_stat_batch<crash_storage<memory_storage>>);
}

TEST_CASE("posix_storage moves, keeping its root descriptor") {
  testing::temp_dir dir;
  posix_storage a = testing::open_posix(dir.path());
  REQUIRE(a.write_if_absent("f", "1").ok());
  posix_storage b = std::move(a);
  CHECK(*b.read("f") == "1");
  CHECK(b.root() == dir.path().string());
  // The root is held open: renaming the directory does not lose it.
  const fs::path moved = dir.path().string() + "-moved";
  fs::rename(dir.path(), moved);
  CHECK(*b.read("f") == "1");
  fs::rename(moved, dir.path());
}

}  // namespace
}  // namespace lakegc::tests::posix_storage_test
