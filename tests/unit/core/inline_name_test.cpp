#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <absl/container/flat_hash_set.h>
#include <fmt/format.h>

#include "lakegc/core/inline_name.hpp"

namespace lakegc::tests::inline_name_test {

using lakegc::InlineName;

namespace {
// Real Hudi names (a base file, a log file) and one longer than the inline
// capacity (a 20-digit instant and a long write token on a long file id).
const std::string kBase = "8a304d70-5e08-4350-8c7a-9fa0648a80f6-1_6-364-576_20261204195247063.parquet";
const std::string kLog = ".0822e6ce-8519-4e61-8d37-7adcd9c71f7d-1_20261204174957295.log.3_5-383-614";
const std::string kLong = "files-0000-0_" + std::string(90, 'x') + "_20261204195247063001.hfile";
}  // namespace

TEST_CASE("a Hudi file name is held in place, a longer one on the heap, both exactly") {
  REQUIRE(kBase.size() <= InlineName::kInlineChars);
  REQUIRE(kLong.size() > InlineName::kInlineChars);
  for (const std::string& s : {kBase, kLog, kLong, std::string()}) {
    const InlineName n(s);
    CHECK(n.view() == s);
    CHECK(n.str() == s);
    CHECK(n.size() == s.size());
    CHECK(n.empty() == s.empty());
    CHECK(n.on_heap() == (s.size() > InlineName::kInlineChars));
    CHECK(fmt::format("[{}]", n) == "[" + s + "]");
    CHECK(n.find('_') == s.find('_'));
    CHECK(n.find("_2024") == s.find("_2024"));
  }
  // Exactly at the capacity: still in place.
  const InlineName edge(std::string(InlineName::kInlineChars, 'e'));
  CHECK_FALSE(edge.on_heap());
  CHECK(edge.view() == std::string(InlineName::kInlineChars, 'e'));
}

TEST_CASE("copies own their characters; a moved-from name is empty") {
  for (const std::string& s : {kBase, kLong}) {
    std::string source = s;
    InlineName a(source);
    source.assign(source.size(), '?');  // the name does not point into its source
    CHECK(a.view() == s);
    InlineName b = a;
    CHECK(b == a);
    CHECK(b.data() != a.data());
    InlineName c(std::move(a));
    CHECK(c.view() == s);
    CHECK(a.empty());  // NOLINT(bugprone-use-after-move): the moved-from state is specified
    InlineName d;
    d = c;
    CHECK(d.view() == s);
    d = std::move(b);
    CHECK(d.view() == s);
    // Assigning a short name over a long one (and back) leaves no stale characters.
    d = InlineName(kLog);
    CHECK(d.view() == kLog);
    CHECK_FALSE(d.on_heap());
    d = InlineName(kLong);
    CHECK(d.view() == kLong);
    const InlineName& self = d;
    d = self;
    CHECK(d.view() == kLong);
  }
}

TEST_CASE("names order and hash as their text") {
  std::vector<InlineName> names{kLong, kLog, kBase, "a", ""};
  std::vector<std::string> texts{kLong, kLog, kBase, "a", ""};
  std::sort(names.begin(), names.end());
  std::sort(texts.begin(), texts.end());
  REQUIRE(names.size() == texts.size());
  for (std::size_t i = 0; i < names.size(); ++i) CHECK(names[i].view() == texts[i]);
  CHECK(InlineName(kBase) == std::string_view(kBase));
  CHECK(InlineName(kBase) == kBase);
  CHECK(InlineName("a") == "a");
  CHECK(kBase == InlineName(kBase));
  CHECK(InlineName("a") < "b");
  CHECK(InlineName("a") < InlineName("b"));
  CHECK_FALSE(InlineName(kBase) == InlineName(kLog));
  absl::flat_hash_set<InlineName> set(names.begin(), names.end());
  CHECK(set.size() == names.size());
  CHECK(set.contains(InlineName(kLong)));
  CHECK_FALSE(set.contains(InlineName("b")));
}

}  // namespace lakegc::tests::inline_name_test
