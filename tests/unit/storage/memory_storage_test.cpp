// memory_storage beyond the Storage laws: the injected clock, put_sized,
// and each fault hook doing exactly what it says (and nothing more).
#include "lakegc/storage/memory_storage.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fixtures.hpp"

namespace lakegc::tests::memory_storage_test {
namespace {

using testing::listed_paths;
using testing::listing;

memory_storage with_files(std::initializer_list<std::string_view> paths) {
  memory_storage s;
  for (std::string_view p : paths) REQUIRE(s.write_if_absent(p, "x").ok());
  return s;
}

TEST_CASE("the default clock counts successful writes from 0") {
  memory_storage s;
  REQUIRE(s.write_if_absent("a", "1").ok());
  REQUIRE(s.put_sized("b", 10).ok());
  CHECK(absl::IsAlreadyExists(s.write_if_absent("a", "again")));  // takes no tick
  CHECK(absl::IsInvalidArgument(s.write_if_absent("../c", "")));  // nor does this
  REQUIRE(s.write_if_absent("c", "3").ok());
  CHECK(s.stat("a")->mtime_ms == 0);
  CHECK(s.stat("b")->mtime_ms == 1);
  CHECK(s.stat("c")->mtime_ms == 2);
}

TEST_CASE("an injected clock stamps writes; set_mtime overrides one file") {
  std::int64_t now = 1'700'000'000'000;
  memory_storage s([&] { return now; });
  REQUIRE(s.write_if_absent("p/a", "1").ok());
  now += 86'400'000;
  REQUIRE(s.put_sized("p/b", 5).ok());
  CHECK(listing(s, "p") == std::vector<testing::entry>{{"p/a", 1, 1'700'000'000'000}, {"p/b", 5, 1'700'086'400'000}});
  REQUIRE(s.set_mtime("p/a", 42).ok());
  CHECK(s.stat("p/a")->mtime_ms == 42);
  CHECK(absl::IsNotFound(s.set_mtime("p/zz", 1)));
  CHECK(absl::IsInvalidArgument(s.set_mtime("/p/a", 1)));
}

TEST_CASE("put_sized files have a size but no content; totals follow every change") {
  memory_storage s;
  REQUIRE(s.put_sized("d/big.parquet", 128ULL << 20).ok());
  REQUIRE(s.write_if_absent("d/small", "12345").ok());
  CHECK(s.file_count() == 2);
  CHECK(s.total_bytes() == (128ULL << 20) + 5);
  CHECK(s.changes() == 2);
  CHECK(s.stat("d/big.parquet")->size == 128ULL << 20);
  CHECK(absl::IsFailedPrecondition(s.read("d/big.parquet").status()));
  CHECK(absl::IsAlreadyExists(s.put_sized("d/small", 1)));
  CHECK(absl::IsAlreadyExists(s.put_sized("d", 1)));  // a directory
  CHECK(s.changes() == 2);                            // refused writes change nothing
  REQUIRE(s.remove("d/big.parquet").ok());
  CHECK(s.file_count() == 1);
  CHECK(s.total_bytes() == 5);
  CHECK(s.changes() == 3);
}

TEST_CASE("fail_next fails exactly the next call of its kind, which does nothing") {
  memory_storage s = with_files({"a", "d/b"});
  const Status boom = absl::UnavailableError("injected");

  SUBCASE("list") {
    s.fail_next(storage_op::list, boom);
    int visited = 0;
    CHECK(s.list("", [&](const FileEntry&) { ++visited; }) == boom);
    CHECK(visited == 0);
    CHECK(listed_paths(s, "") == std::vector<std::string>{"a", "d/b"});
  }
  SUBCASE("stat") {
    s.fail_next(storage_op::stat, boom);
    CHECK(s.stat("a").status() == boom);
    CHECK(s.stat("a").ok());
  }
  SUBCASE("read") {
    s.fail_next(storage_op::read, boom);
    CHECK(s.read("a").status() == boom);
    CHECK(*s.read("a") == "x");
  }
  SUBCASE("write") {
    s.fail_next(storage_op::write, boom);
    CHECK(s.write_if_absent("new", "y") == boom);
    CHECK(absl::IsNotFound(s.stat("new").status()));
    s.fail_next(storage_op::write, boom);
    CHECK(s.put_sized("new", 3) == boom);  // put_sized is a write too
    CHECK(s.file_count() == 2);
    CHECK(s.write_if_absent("new", "y").ok());
  }
  SUBCASE("remove") {
    s.fail_next(storage_op::remove, boom);
    CHECK(s.remove("a") == boom);
    CHECK(s.stat("a").ok());
    CHECK(s.remove("a").ok());
  }
  SUBCASE("other kinds are untouched, and failures queue") {
    s.fail_next(storage_op::remove, boom);
    s.fail_next(storage_op::remove, absl::InternalError("second"));
    CHECK(s.stat("a").ok());
    CHECK(*s.read("a") == "x");
    CHECK(listed_paths(s, "").size() == 2);
    CHECK(s.remove("a") == boom);
    CHECK(absl::IsInternal(s.remove("a")));
    CHECK(s.remove("a").ok());
  }
  SUBCASE("in a batch, each path is one remove") {
    s.fail_next(storage_op::remove, boom);
    const auto st = s.remove_batch(std::vector<std::string>{"a", "d/b"});
    REQUIRE(st.size() == 2);
    CHECK(st[0] == boom);
    CHECK(st[1].ok());
    CHECK(listed_paths(s, "") == std::vector<std::string>{"a"});
  }
  SUBCASE("an OK status arms nothing") {
    s.fail_next(storage_op::remove, Status());
    CHECK(s.remove("a").ok());
    CHECK(absl::IsNotFound(s.stat("a").status()));
  }
}

TEST_CASE("truncate_next_listing gives one silently short listing") {
  memory_storage s = with_files({"p/1", "p/2", "p/3", "q/4", "r"});
  s.truncate_next_listing(2);
  // A listing that fails first does not use it up.
  CHECK(absl::IsNotFound(s.list("missing", [](const FileEntry&) {})));
  CHECK(listed_paths(s, "") == std::vector<std::string>{"p/1", "p/2"});
  CHECK(listed_paths(s, "").size() == 5);

  s.truncate_next_listing(1);
  CHECK(listed_paths(s, "q") == std::vector<std::string>{"q/4"});  // n beyond the files: all
  CHECK(listed_paths(s, "p").size() == 3);                         // consumed above

  s.truncate_next_listing(0);
  CHECK(listed_paths(s, "p").empty());
  s.empty_next_listing();
  CHECK(listed_paths(s, "").empty());
  CHECK(listed_paths(s, "").size() == 5);
}

TEST_CASE("disarm drops armed failures and a pending truncation, and counts no call") {
  memory_storage s = with_files({"p/1", "p/2", "p/3"});
  s.fail_next(storage_op::stat, absl::UnavailableError("injected"));
  s.fail_next(storage_op::remove, absl::UnavailableError("injected"));
  s.disarm(storage_op::stat);  // one kind only
  CHECK(s.stat("p/1").ok());
  CHECK(absl::IsUnavailable(s.remove("p/1")));

  s.fail_next(storage_op::list, absl::UnavailableError("injected"));
  s.fail_next(storage_op::stat, absl::UnavailableError("injected"));
  s.truncate_next_listing(1);
  const std::uint64_t lists = s.calls(storage_op::list);
  s.disarm();
  CHECK(s.calls(storage_op::list) == lists);
  CHECK(listed_paths(s, "").size() == 3);  // neither failed nor short
  CHECK(s.stat("p/2").ok());

  s.crash_after_mutations(0);  // a crash is recover()'s, not disarm()'s
  s.disarm();
  CHECK(s.crashed());
}

TEST_CASE("crash_after_mutations: n more mutations succeed, then everything aborts until recover") {
  memory_storage s = with_files({"a", "b", "c"});
  s.crash_after_mutations(2);
  CHECK(s.stat("a").ok());                       // reads are not mutations
  CHECK(absl::IsNotFound(s.remove("missing")));  // failures are not either
  CHECK(absl::IsAlreadyExists(s.write_if_absent("a", "")));
  REQUIRE(s.write_if_absent("d", "y").ok());  // 1
  CHECK_FALSE(s.crashed());
  REQUIRE(s.remove("a").ok());  // 2: the crash follows it
  CHECK(s.crashed());

  const Status crash = absl::AbortedError("simulated crash");
  CHECK(s.stat("b").status() == crash);
  CHECK(s.read("b").status() == crash);
  CHECK(s.list("", [](const FileEntry&) { FAIL("visited"); }) == crash);
  CHECK(s.write_if_absent("e", "") == crash);
  CHECK(s.put_sized("e", 1) == crash);
  CHECK(s.remove("b") == crash);
  CHECK(s.remove_batch(std::vector<std::string>{"b", "c"}) == std::vector<Status>{crash, crash});

  // Inspection still works and shows what the crash left.
  std::vector<std::string> files;
  s.for_each_file([&](const FileEntry& e) { files.emplace_back(e.path); });
  CHECK(files == std::vector<std::string>{"b", "c", "d"});

  s.recover();
  CHECK_FALSE(s.crashed());
  CHECK(listed_paths(s, "") == std::vector<std::string>{"b", "c", "d"});
  CHECK(s.remove("b").ok());  // no crash re-armed
  CHECK(s.remove("c").ok());
  CHECK_FALSE(s.crashed());
}

TEST_CASE("crash_after_mutations counts each path of a batch; 0 crashes at once") {
  memory_storage s = with_files({"a", "b", "c"});
  s.crash_after_mutations(1);
  const auto st = s.remove_batch(std::vector<std::string>{"missing", "a", "b", "c"});
  REQUIRE(st.size() == 4);
  CHECK(absl::IsNotFound(st[0]));
  CHECK(st[1].ok());
  CHECK(absl::IsAborted(st[2]));
  CHECK(absl::IsAborted(st[3]));
  CHECK(s.file_count() == 2);

  s.recover();
  s.crash_after_mutations(0);
  CHECK(absl::IsAborted(s.stat("b").status()));
  s.recover();
  CHECK(s.stat("b").ok());
}

TEST_CASE("calls(op) counts every call, including failed and refused ones") {
  memory_storage s = with_files({"a", "b"});
  CHECK(s.calls(storage_op::write) == 2);
  (void)s.stat("a");
  (void)s.stat("../x");
  s.fail_next(storage_op::stat, absl::InternalError("x"));
  (void)s.stat("a");
  CHECK(s.calls(storage_op::stat) == 3);
  (void)s.remove_batch(std::vector<std::string>{"a", "b", "missing"});
  CHECK(s.calls(storage_op::remove) == 3);
  (void)s.put_sized("c", 1);
  CHECK(s.calls(storage_op::write) == 3);
  (void)listing(s, "");
  (void)s.read("c");
  CHECK(s.calls(storage_op::list) == 1);
  CHECK(s.calls(storage_op::read) == 1);
  s.crash_after_mutations(0);
  (void)s.stat("c");
  CHECK(s.calls(storage_op::stat) == 4);
}

TEST_CASE("the visitor may remove what it is given; the walk goes on") {
  memory_storage s = with_files({"p/1", "p/2", "p/q/3", "p/r", "z"});
  std::vector<std::string> seen;
  ListOptions options;
  options.skip_dir = [](std::string_view) { return false; };
  REQUIRE(s.list(
               "",
               [&](const FileEntry& e) {
                 seen.emplace_back(e.path);
                 REQUIRE(s.remove(e.path).ok());
                 if (e.path == "p/1") REQUIRE(s.remove("p/q/3").ok());  // also one ahead
               },
               options)
              .ok());
  CHECK(seen == std::vector<std::string>{"p/1", "p/2", "p/r", "z"});
  CHECK(s.file_count() == 0);
}

}  // namespace
}  // namespace lakegc::tests::memory_storage_test
