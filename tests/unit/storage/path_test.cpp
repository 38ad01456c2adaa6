// Path validation and listing order: the two rules every Storage adapter
// shares (lakegc/storage/path.hpp).
#include "lakegc/storage/path.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace lakegc::tests::path_test {
namespace {

using namespace std::string_literals;
using namespace lakegc::detail;

TEST_CASE("check_relative_path accepts plain relative paths") {
  for (std::string_view p : {"a", "a/b", ".hoodie/20240101000000000.commit", "a..b/c.", "...", ".x/..y/z..",
                             "dt=2024-01-01/x_1-0-1_2024.parquet"}) {
    CAPTURE(p);
    CHECK(check_relative_path(p, "op").ok());
  }
}

TEST_CASE("check_relative_path refuses escapes and second spellings, naming the path") {
  for (std::string_view p :
       {"/a", "/", "..", "../a", "a/..", "a/../b", ".", "./a", "a/.", "a/./b", "a//b", "a/", "//a"}) {
    CAPTURE(p);
    const Status s = check_relative_path(p, "remove");
    CHECK(absl::IsInvalidArgument(s));
    CHECK(message_of(s).find("'" + std::string(p) + "'") != std::string_view::npos);
    CHECK(message_of(s).starts_with("remove: "));
  }
}

TEST_CASE("check_relative_path refuses NUL and shows it escaped") {
  const std::string p = "a\0b"s;
  const Status s = check_relative_path(p, "read");
  CHECK(absl::IsInvalidArgument(s));
  CHECK(message_of(s).find("'a\\x00b'") != std::string_view::npos);
}

TEST_CASE("quote_path escapes control bytes only") {
  CHECK(quote_path("dt=caf\xc3\xa9/x") == "'dt=caf\xc3\xa9/x'");
  CHECK(quote_path("a\nb\x7f") == "'a\\x0ab\\x7f'");
  CHECK(quote_path("") == "''");
}

TEST_CASE("the empty path is the root: valid only where allowed") {
  CHECK(absl::IsInvalidArgument(check_relative_path("", "stat")));
  CHECK(check_relative_path("", "list", /*allow_root=*/true).ok());
  CHECK(absl::IsInvalidArgument(check_relative_path("/", "list", /*allow_root=*/true)));
}

TEST_CASE("split_parent and pop_component") {
  CHECK(split_parent("a") == std::pair<std::string_view, std::string_view>{"", "a"});
  CHECK(split_parent("a/b/c") == std::pair<std::string_view, std::string_view>{"a/b", "c"});
  std::string_view rest = "a/bb/c";
  CHECK(pop_component(rest) == "a");
  CHECK(rest == "bb/c");
  CHECK(pop_component(rest) == "bb");
  CHECK(pop_component(rest) == "c");
  CHECK(rest.empty());
}

TEST_CASE("listing_order is a depth-first walk in byte order, not plain byte order") {
  const listing_order less;
  // '.' (0x2E) and '-' (0x2D) sort below '/' (0x2F) in plain byte order,
  // yet the directory `a` sorts before the names `a-b` and `a.txt`.
  CHECK(less("a/x", "a.txt"));
  CHECK(less("a/x", "a-b"));
  CHECK_FALSE(less("a.txt", "a/x"));
  CHECK(std::string_view("a.txt") < std::string_view("a/x"));  // what a plain map would do
  CHECK(less("a", "a/x"));
  CHECK(less("A", "a"));
  CHECK(less("z", "\xc3\xa9"));  // bytes compare unsigned
  CHECK_FALSE(less("a", "a"));

  std::vector<std::string> paths = {"a0", "a.txt", "a-b/c", "a/y/z", "a/x", "A", "\xc3\xa9/f"};
  std::sort(paths.begin(), paths.end(), less);
  CHECK(paths == std::vector<std::string>{"A", "a/x", "a/y/z", "a-b/c", "a.txt", "a0", "\xc3\xa9/f"});
}

// The comparator finds the first differing byte eight at a time; this
// compares it with the rule read byte by byte, for differences at every
// position of paths longer than a word (and at compile time).
TEST_CASE("listing_order agrees with a byte-by-byte reading at every position") {
  const listing_order less;
  const auto reference = [](std::string_view a, std::string_view b) {
    const std::size_t n = std::min(a.size(), b.size());
    for (std::size_t i = 0; i < n; ++i) {
      if (listing_order::rank(a[i]) != listing_order::rank(b[i])) {
        return listing_order::rank(a[i]) < listing_order::rank(b[i]);
      }
    }
    return a.size() < b.size();
  };
  static_assert(listing_order{}("bench/table/.hoodie/1/x", "bench/table/.hoodie/1.commit"));
  static_assert(!listing_order{}("bench/table/.hoodie/1.commit", "bench/table/.hoodie/1/x"));

  const std::string base = "bench/table/.hoodie/20240101000000000";  // 37 bytes
  const std::string bytes = std::string("/.-0aZ") + "\x80\xff";
  std::vector<std::string> paths = {base, base.substr(0, 8), base.substr(0, 16), base + "/"};
  for (std::size_t pos = 0; pos < base.size(); ++pos) {
    for (const char c : bytes) {
      std::string p = base;
      p[pos] = c;
      paths.push_back(p);
      paths.push_back(p.substr(0, pos + 1));
    }
  }
  std::size_t checked = 0;
  for (const auto& a : paths) {
    for (const auto& b : paths) {
      CHECK(less(a, b) == reference(a, b));
      ++checked;
    }
  }
  CHECK(checked == paths.size() * paths.size());
}

}  // namespace
}  // namespace lakegc::tests::path_test
