// ReferencedNames (plan/referenced_names.hpp): the orphan sweep's set of the
// names metadata gives, by directory. A name wrongly found makes a listed
// file "referenced" (kept, and its group's other files never rechecked); a
// name wrongly missed makes a committed file a candidate. Both directions
// are checked, with the real hash and with hashes that always collide.
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "lakegc/plan/referenced_names.hpp"

namespace lakegc::tests::referenced_names_test {

using namespace lakegc;

namespace {

struct Named {
  std::uint32_t dir;
  std::string name;
  bool committed;
};

/// A name's group: the text before its first '_' (a file id).
std::string_view group_of(std::string_view name) { return name.substr(0, name.find('_')); }

template <class Hash = NameHash32>
BasicReferencedNames<Hash> build(const std::vector<Named>& names) {
  return BasicReferencedNames<Hash>::build(
      [&](auto&& emit) {
        for (const Named& n : names) emit(n.dir, n.name, n.committed);
      },
      group_of);
}

/// Every 32-bit hash the same: every member of a directory has one key.
struct CollidingHash {
  std::uint32_t operator()(std::string_view) const noexcept { return 0x5A5A5A5A; }
};

/// Two hashes: names ending in an even digit share one, the rest another.
struct TwoValuedHash {
  std::uint32_t operator()(std::string_view s) const noexcept {
    return !s.empty() && (s.back() - '0') % 2 == 0 ? 0x1000 : 0x2000;
  }
};

std::vector<Named> sample() {
  std::vector<Named> out;
  for (std::uint32_t d = 0; d < 4; ++d) {
    for (int g = 0; g < 30; ++g) {
      for (int v = 0; v < 5; ++v) {
        out.push_back({d, "g" + std::to_string(g) + "_" + std::to_string(v) + "_20240101000000" + std::to_string(v),
                       (g + v) % 3 != 0});
      }
    }
  }
  return out;
}

template <class Hash>
void check_membership() {
  const auto names = sample();
  auto set = build<Hash>(names);
  CHECK(set.size() == names.size());
  CHECK(set.directories() == 4);
  for (const Named& n : names) {
    CAPTURE(n.dir);
    CAPTURE(n.name);
    auto* m = set.find(n.dir, n.name, group_of(n.name));
    REQUIRE(m != nullptr);
    CHECK(m->name() == n.name);
    CHECK(static_cast<bool>(m->committed) == n.committed);
    // The same name in a directory that does not hold it, and a name that
    // differs in one character, are not members.
    CHECK(set.find(n.dir + 10, n.name, group_of(n.name)) == nullptr);
    std::string other = n.name;
    other.back() = other.back() == '9' ? '8' : static_cast<char>(other.back() + 1);
    if (std::none_of(names.begin(), names.end(), [&](const Named& x) { return x.dir == n.dir && x.name == other; })) {
      CHECK(set.find(n.dir, other, group_of(other)) == nullptr);
    }
  }
  // Directory 0's names are not in directory 1 under another directory
  // index: names were given per directory, and equal texts in two
  // directories are two members.
  CHECK(set.find(1, "g0_0_202401010000000", "g0") != nullptr);
  CHECK(set.find(4, "g0_0_202401010000000", "g0") == nullptr);
  CHECK(set.find(0, "", "") == nullptr);
}

template <class Hash>
void check_groups() {
  const auto names = sample();
  const auto set = build<Hash>(names);
  for (std::uint32_t d = 0; d < 4; ++d) {
    for (int g = 0; g < 30; ++g) {
      const std::string group = "g" + std::to_string(g);
      std::set<std::string> seen;
      set.for_each_in_group(d, group, [&](const auto& m) {
        CHECK(seen.insert(std::string(m.name())).second);  // each member once
      });
      std::set<std::string> of_group;
      for (const auto& s : seen) {
        if (group_of(s) == group) of_group.insert(s);
      }
      CHECK(of_group.size() == 5);  // every member of the group, whatever else
    }
  }
}

}  // namespace

TEST_CASE("ReferencedNames: finds every name in its own directory only") { check_membership<NameHash32>(); }

TEST_CASE("ReferencedNames: colliding hashes are told apart by text") {
  check_membership<CollidingHash>();
  check_membership<TwoValuedHash>();
}

TEST_CASE("ReferencedNames: a group's members are all visited") {
  check_groups<NameHash32>();
  check_groups<CollidingHash>();
  check_groups<TwoValuedHash>();
}

TEST_CASE("ReferencedNames: a name given twice is one member, committed if either says so") {
  for (const bool first_committed : {false, true}) {
    std::vector<Named> names = {
        {0, "a_1_1", first_committed}, {0, "b_1_1", false}, {0, "a_1_1", !first_committed}, {1, "a_1_1", false}};
    auto set = build<CollidingHash>(names);
    CHECK(set.size() == 3);
    auto* a = set.find(0, "a_1_1", "a");
    REQUIRE(a != nullptr);
    CHECK(static_cast<int>(a->committed) == 1);
    CHECK(static_cast<int>(set.find(1, "a_1_1", "a")->committed) == 0);
    int visits = 0;
    set.for_each_in_group(0, "a", [&](const auto& m) { visits += m.name() == "a_1_1" ? 1 : 0; });
    CHECK(visits == 1);
    // The mark a lookup sets stays on the member.
    a->listed = 1;
    CHECK(static_cast<int>(set.find(0, "a_1_1", "a")->listed) == 1);
    CHECK(static_cast<int>(set.find(0, "b_1_1", "b")->listed) == 0);
  }
}

TEST_CASE("ReferencedNames: empty, and directories past the last named") {
  auto empty = build({});
  CHECK(empty.empty());
  CHECK(empty.directories() == 0);
  CHECK(empty.find(0, "a_1_1", "a") == nullptr);
  auto sparse = build({{3, "a_1_1", true}});
  CHECK(sparse.directories() == 4);
  CHECK(sparse.in_directory(0).empty());
  CHECK(sparse.find(3, "a_1_1", "a") != nullptr);
  CHECK(sparse.find(2, "a_1_1", "a") == nullptr);
  CHECK(sparse.find(7, "a_1_1", "a") == nullptr);
}

TEST_CASE("ReferencedNames: a second pass that gives other names is refused") {
  int pass = 0;
  CHECK_THROWS_AS(ReferencedNames::build(
                      [&](auto&& emit) {
                        emit(0, "a_1_1", true);
                        if (pass++ == 1) emit(0, "b_1_1", true);  // one more than counted
                      },
                      group_of),
                  std::logic_error);
  pass = 0;
  CHECK_THROWS_AS(ReferencedNames::build(
                      [&](auto&& emit) {
                        emit(pass++ == 0 ? 0 : 1, "a_1_1", true);  // another directory
                      },
                      group_of),
                  std::logic_error);
  pass = 0;
  CHECK_THROWS_AS(ReferencedNames::build(
                      [&](auto&& emit) {
                        if (pass++ == 0) emit(0, "a_1_1", true);  // one fewer than counted
                      },
                      group_of),
                  std::logic_error);
}

}  // namespace lakegc::tests::referenced_names_test
