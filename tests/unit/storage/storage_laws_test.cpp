// The laws of the Storage concept (lakegc/storage/storage.hpp), checked for
// every model through TEST_CASE_TEMPLATE. A new adapter joins by adding a
// fixture to STORAGE_MODELS below.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fixtures.hpp"
#include "lakegc/core/status.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc::tests::storage_laws_test {
namespace {

using namespace std::string_literals;
using testing::listed_paths;
using testing::listing;

#define STORAGE_MODELS testing::memory_model, testing::posix_model

// A tree whose listing order differs from plain byte order of whole paths
// ('-' and '.' sort below '/'), with a prefix trap (dt=2024 vs dt=2024-01),
// upper case, a space and non-ASCII bytes.
const std::vector<std::string> tree_in_listing_order = {
    ".hoodie/20240101000000000.commit",
    ".hoodie/metadata/files/f1",
    "A",
    "a/x",
    "a/y/z",
    "a-b/c",
    "a.txt",
    "a0",
    "b b",
    "dt=2024/p1",
    "dt=2024-01/p2",
    "dt=2024.x",
    "\xc3\xa9t\xc3\xa9/f",
};

// Content of distinct length per file, so sizes are checked too.
std::string content_for(std::size_t i) { return std::string(i * 3 + 1, static_cast<char>('a' + i)); }

template <Storage S>
void write_tree(S& s) {
  // Written in reverse so that creation order cannot explain the listing order.
  for (std::size_t i = tree_in_listing_order.size(); i-- > 0;) {
    const Status st = s.write_if_absent(tree_in_listing_order[i], content_for(i));
    REQUIRE_MESSAGE(st.ok(), st.ToString());
  }
}

TEST_CASE_TEMPLATE("write_if_absent then read round-trips", M, STORAGE_MODELS) {
  M m;
  auto& s = m.storage;
  const std::string bytes = "head\0tail\xff"s;
  REQUIRE(s.write_if_absent("p/q/file.bin", bytes).ok());
  REQUIRE(s.write_if_absent("empty", "").ok());

  const auto read = s.read("p/q/file.bin");
  REQUIRE(read.ok());
  CHECK(*read == bytes);
  const auto info = s.stat("p/q/file.bin");
  REQUIRE(info.ok());
  CHECK(info->path == "p/q/file.bin");
  CHECK(info->size == bytes.size());

  const auto empty = s.read("empty");
  REQUIRE(empty.ok());
  CHECK(empty->empty());
  CHECK(s.stat("empty")->size == 0);
}

TEST_CASE_TEMPLATE("a second write_if_absent is AlreadyExists and changes nothing", M, STORAGE_MODELS) {
  M m;
  auto& s = m.storage;
  REQUIRE(s.write_if_absent("t/1.commit", "first").ok());
  const Status again = s.write_if_absent("t/1.commit", "second, longer");
  CHECK(absl::IsAlreadyExists(again));
  CHECK(message_of(again).find("t/1.commit") != std::string_view::npos);
  CHECK(*s.read("t/1.commit") == "first");
  CHECK(s.stat("t/1.commit")->size == 5);
  CHECK(listed_paths(s, "") == std::vector<std::string>{"t/1.commit"});
}

TEST_CASE_TEMPLATE("remove of a missing file is NotFound, and only that", M, STORAGE_MODELS) {
  M m;
  auto& s = m.storage;
  const Status missing = s.remove("nope");
  CHECK(absl::IsNotFound(missing));
  CHECK(message_of(missing).find("nope") != std::string_view::npos);
  CHECK(absl::IsNotFound(s.remove("no/such/dir/file")));
  CHECK(absl::IsNotFound(s.stat("nope").status()));
  CHECK(absl::IsNotFound(s.read("nope").status()));
  // A refusal is never mistaken for "missing".
  CHECK_FALSE(absl::IsNotFound(s.remove("../nope")));
}

TEST_CASE_TEMPLATE("after remove, stat and read are NotFound and the listing omits it", M, STORAGE_MODELS) {
  M m;
  auto& s = m.storage;
  REQUIRE(s.write_if_absent("d/a", "1").ok());
  REQUIRE(s.write_if_absent("d/b", "22").ok());
  REQUIRE(s.remove("d/a").ok());
  CHECK(absl::IsNotFound(s.stat("d/a").status()));
  CHECK(absl::IsNotFound(s.read("d/a").status()));
  CHECK(absl::IsNotFound(s.remove("d/a")));
  CHECK(listed_paths(s, "") == std::vector<std::string>{"d/b"});
  // The name is free again.
  CHECK(s.write_if_absent("d/a", "333").ok());
  CHECK(*s.read("d/a") == "333");
}

TEST_CASE_TEMPLATE("listing streams every file once, in depth-first byte order", M, STORAGE_MODELS) {
  M m;
  auto& s = m.storage;
  write_tree(s);
  const auto all = listing(s, "");
  REQUIRE(all.size() == tree_in_listing_order.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    const auto& [path, size, mtime] = all[i];
    CAPTURE(path);
    CHECK(path == tree_in_listing_order[i]);
    CHECK(size == content_for(i).size());
    const auto info = s.stat(path);
    REQUIRE(info.ok());
    CHECK(info->size == size);
    CHECK(info->mtime_ms == mtime);
  }
}

TEST_CASE_TEMPLATE("listing a subdirectory lists only below it", M, STORAGE_MODELS) {
  M m;
  auto& s = m.storage;
  write_tree(s);
  CHECK(listed_paths(s, "a") == std::vector<std::string>{"a/x", "a/y/z"});
  CHECK(listed_paths(s, "a/y") == std::vector<std::string>{"a/y/z"});
  // Not "dt=2024-01/p2": a prefix of the name is not a parent directory.
  CHECK(listed_paths(s, "dt=2024") == std::vector<std::string>{"dt=2024/p1"});
  CHECK(listed_paths(s, ".hoodie") ==
        std::vector<std::string>{".hoodie/20240101000000000.commit", ".hoodie/metadata/files/f1"});
}

TEST_CASE_TEMPLATE("non-recursive listing visits only the directory's own files", M, STORAGE_MODELS) {
  M m;
  auto& s = m.storage;
  write_tree(s);
  ListOptions flat;
  flat.recursive = false;
  int asked = 0;
  flat.skip_dir = [&](std::string_view) {
    ++asked;
    return false;
  };
  CHECK(listed_paths(s, "", flat) == std::vector<std::string>{"A", "a.txt", "a0", "b b", "dt=2024.x"});
  CHECK(listed_paths(s, "a", flat) == std::vector<std::string>{"a/x"});
  CHECK(listed_paths(s, "a/y", flat) == std::vector<std::string>{"a/y/z"});
  CHECK(listed_paths(s, ".hoodie/metadata", flat).empty());
  CHECK(asked == 0);
}

TEST_CASE_TEMPLATE("skip_dir is asked once per directory, in order, and prunes it", M, STORAGE_MODELS) {
  M m;
  auto& s = m.storage;
  write_tree(s);
  std::vector<std::string> asked;
  ListOptions options;
  options.skip_dir = [&](std::string_view dir) {
    asked.emplace_back(dir);
    return dir == ".hoodie/metadata" || dir == "a/y";
  };
  CHECK(listed_paths(s, "", options) == std::vector<std::string>{".hoodie/20240101000000000.commit", "A", "a/x",
                                                                 "a-b/c", "a.txt", "a0", "b b", "dt=2024/p1",
                                                                 "dt=2024-01/p2", "dt=2024.x", "\xc3\xa9t\xc3\xa9/f"});
  // Pruned directories are asked about, their subdirectories are not.
  CHECK(asked == std::vector<std::string>{".hoodie", ".hoodie/metadata", "a", "a/y", "a-b", "dt=2024", "dt=2024-01",
                                          "\xc3\xa9t\xc3\xa9"});

  asked.clear();
  options.skip_dir = [&](std::string_view dir) {
    asked.emplace_back(dir);
    return dir == ".hoodie";
  };
  CHECK(listed_paths(s, ".hoodie", options) ==
        std::vector<std::string>{".hoodie/20240101000000000.commit", ".hoodie/metadata/files/f1"});
  CHECK(asked == std::vector<std::string>{".hoodie/metadata", ".hoodie/metadata/files"});
}

TEST_CASE_TEMPLATE("listing a missing directory is NotFound; listing a file is not", M, STORAGE_MODELS) {
  M m;
  auto& s = m.storage;
  CHECK(listing(s, "").empty());  // the root of an empty storage exists
  write_tree(s);
  auto visit = [](const FileEntry&) { FAIL("visited"); };
  CHECK(absl::IsNotFound(s.list("missing", visit)));
  CHECK(absl::IsNotFound(s.list("a/missing", visit)));
  CHECK(absl::IsNotFound(s.list("a.txt/under-a-file", visit)));
  const Status of_file = s.list("a.txt", visit);
  CHECK(absl::IsFailedPrecondition(of_file));
  CHECK(message_of(of_file).find("a.txt") != std::string_view::npos);
}

TEST_CASE_TEMPLATE("a directory is not a file", M, STORAGE_MODELS) {
  M m;
  auto& s = m.storage;
  write_tree(s);
  CHECK(absl::IsFailedPrecondition(s.stat("a").status()));
  CHECK(absl::IsFailedPrecondition(s.read("a").status()));
  CHECK(absl::IsAlreadyExists(s.write_if_absent("a", "x")));
  CHECK(absl::IsFailedPrecondition(s.remove("a")));  // not empty
  // Nothing can be below a file.
  CHECK(absl::IsFailedPrecondition(s.write_if_absent("a.txt/x", "x")));
  CHECK(absl::IsNotFound(s.stat("a.txt/x").status()));
  CHECK(absl::IsNotFound(s.read("a.txt/x").status()));
  CHECK(absl::IsNotFound(s.remove("a.txt/x")));
  CHECK(listing(s, "").size() == tree_in_listing_order.size());
}

TEST_CASE_TEMPLATE("paths that escape the root or are spelled oddly are refused by every operation", M,
                   STORAGE_MODELS) {
  M m;
  auto& s = m.storage;
  const std::vector<std::string> bad = {"/abs", "/",   "..",    "../up", "a/../b", "a/..",
                                        ".",    "./a", "a/./b", "a//b",  "a/",     "a\0b"s};
  auto visit = [](const FileEntry&) { FAIL("visited"); };
  for (const std::string& p : bad) {
    CAPTURE(p);
    const bool names_it = p.find('\0') == std::string::npos;
    auto check = [&](const Status& st) {
      CHECK(absl::IsInvalidArgument(st));
      if (names_it) CHECK(message_of(st).find("'" + p + "'") != std::string_view::npos);
    };
    check(s.list(p, visit));
    check(s.stat(p).status());
    check(s.read(p).status());
    check(s.write_if_absent(p, "x"));
    check(s.remove(p));
    const auto batch = s.remove_batch(std::vector<std::string>{p});
    REQUIRE(batch.size() == 1);
    check(batch[0]);
  }
  CHECK(absl::IsInvalidArgument(s.stat("").status()));
  CHECK(absl::IsInvalidArgument(s.write_if_absent("", "x")));
  CHECK(m.raw_entries() == 0);  // not even a directory was made
}

TEST_CASE_TEMPLATE("remove_batch returns one status per path, in order", M, STORAGE_MODELS) {
  M m;
  auto& s = m.storage;
  REQUIRE(s.write_if_absent("p/a", "1").ok());
  REQUIRE(s.write_if_absent("p/b", "2").ok());
  REQUIRE(s.write_if_absent("q/c", "3").ok());
  REQUIRE(s.write_if_absent("keep", "4").ok());
  const std::vector<std::string> paths = {"p/a", "p/missing", "../x", "q/c", "p/a", "p/b", "p"};
  const auto st = s.remove_batch(paths);
  REQUIRE(st.size() == paths.size());
  CHECK(st[0].ok());
  CHECK(absl::IsNotFound(st[1]));
  CHECK(absl::IsInvalidArgument(st[2]));
  CHECK(st[3].ok());
  CHECK(absl::IsNotFound(st[4]));  // removed earlier in the same batch
  CHECK(st[5].ok());
  // `p` is an empty directory on posix (removed) and gone on memory: either
  // way it is not a failure other than NotFound.
  CHECK((st[6].ok() || absl::IsNotFound(st[6])));
  CHECK(listed_paths(s, "") == std::vector<std::string>{"keep"});
  CHECK(s.remove_batch(std::vector<std::string>{}).empty());
}

}  // namespace
}  // namespace lakegc::tests::storage_laws_test
