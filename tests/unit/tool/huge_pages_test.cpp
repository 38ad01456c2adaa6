// The tool's restart with huge pages (tools/cli/huge_pages.hpp): when it
// restarts, with what, and that it restarts at most once.
#include <doctest/doctest.h>

#include "cli/huge_pages.hpp"

namespace lakegc::tests::huge_pages_test {

using lakegc::cli::tunables_for_huge_pages;

TEST_CASE("the tool restarts once with glibc.malloc.hugetlb=1, keeping the user's tunables") {
  CHECK(tunables_for_huge_pages(nullptr, nullptr) == "glibc.malloc.hugetlb=1");
  CHECK(tunables_for_huge_pages("", nullptr) == "glibc.malloc.hugetlb=1");
  CHECK(tunables_for_huge_pages("glibc.malloc.arena_max=2", nullptr) ==
        "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1");
  CHECK(tunables_for_huge_pages(nullptr, "1") == "glibc.malloc.hugetlb=1");
  // After the restart the tunable is set: no second restart.
  const auto once = tunables_for_huge_pages("glibc.malloc.arena_max=2", nullptr);
  REQUIRE(once.has_value());
  CHECK_FALSE(tunables_for_huge_pages(once->c_str(), nullptr).has_value());
}

TEST_CASE("no restart when the user set the tunable or turned the restart off") {
  CHECK_FALSE(tunables_for_huge_pages("glibc.malloc.hugetlb=0", nullptr).has_value());
  CHECK_FALSE(tunables_for_huge_pages("glibc.malloc.hugetlb=2:glibc.malloc.arena_max=1", nullptr).has_value());
  CHECK_FALSE(tunables_for_huge_pages(nullptr, "0").has_value());
  CHECK_FALSE(tunables_for_huge_pages("glibc.malloc.arena_max=2", "0").has_value());
}

}  // namespace lakegc::tests::huge_pages_test
