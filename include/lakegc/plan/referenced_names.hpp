// File: lakegc/plan/referenced_names.hpp
// -----------------------------------------------------------------------------
// The file names a table's metadata gives (write statistics, savepoints,
// markers), grouped by directory: the orphan sweep's referenced set, which
// every listed data file is looked up in.
//
// Why by directory: a listing visits a directory's files together. With one
// hash table of every name (24 bytes a name plus slack: 200 MB at 5M names)
// each listed file was a cache and TLB miss that a 16-deep queue of
// prefetches only partly hid; a directory's own names, 16 bytes each, stay
// in cache while its files are listed. The set is built in two passes over
// the metadata (count the names of each directory, then place them), with
// no allocation per name and no slack.
//
// Within a directory, names are sorted by a key whose high 20 bits hash the
// name's group (the sweep's file id) and whose low 12 bits hash the name:
// a lookup is a binary search on the key, and a group's names are adjacent,
// so the sweep's recheck visits the groups it needs, not every name.
//
// Members are views of the metadata's text, which must outlive the set.
// Equal hashes are confirmed against the text, so a collision never makes a
// name a member; a name given twice is one member, its marks merged.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string_view>
#include <vector>

#include <absl/hash/hash.h>

#include "lakegc/core/prefaulted.hpp"

namespace lakegc {

/// The 32-bit hash that member keys are made of.
struct NameHash32 {
  std::uint32_t operator()(std::string_view name) const noexcept {
    return static_cast<std::uint32_t>(absl::HashOf(name));
  }
};

template <class Hash = NameHash32>
class BasicReferencedNames {
 public:
  /// A name, its hash, and two marks: `committed` (a completed write's
  /// statistics name it, not only a savepoint or a marker) and `listed`
  /// (set by the sweep when the listing shows it).
  struct Member {
    const char* data = nullptr;
    std::uint32_t key = 0;  // member_key(group, name)
    std::uint32_t size : 30 = 0;
    std::uint32_t committed : 1 = 0;
    std::uint32_t listed : 1 = 0;
    std::string_view name() const noexcept { return {data, size}; }
  };
  static_assert(sizeof(Member) == 16);

  /// Longest name a member holds (the sweep sends longer ones elsewhere).
  static constexpr std::size_t kMaxNameSize = (std::size_t{1} << 30) - 1;

  /// Builds the set from `for_each_name`, which is called twice and must
  /// call its argument, emit(dir, name, committed), with the same names in
  /// the same directories both times: `dir` is a dense directory index (the
  /// caller's), `name` at most kMaxNameSize bytes. group_of(name) gives a
  /// name's group (find() and for_each_in_group() must be asked with the
  /// same).
  template <class ForEachName, class GroupOf>
  static BasicReferencedNames build(ForEachName&& for_each_name, GroupOf&& group_of) {
    BasicReferencedNames s;
    std::vector<std::uint32_t> count;
    for_each_name([&](std::uint32_t dir, std::string_view, bool) {
      if (dir >= count.size()) count.resize(dir + 1, 0);
      ++count[dir];
    });
    s.begin_.assign(count.size() + 1, 0);
    for (std::size_t d = 0; d < count.size(); ++d) s.begin_[d + 1] = s.begin_[d] + count[d];
    s.members_.resize(s.begin_.back());
    std::vector<std::uint32_t> next(s.begin_.begin(), s.begin_.end() - 1);
    for_each_name([&](std::uint32_t dir, std::string_view name, bool committed) {
      if (dir >= count.size() || next[dir] == s.begin_[dir + 1] || name.size() > kMaxNameSize) {
        throw std::logic_error("ReferencedNames::build: the second pass gave other names than the first");
      }
      Member& m = s.members_[next[dir]++];
      m.data = name.data();
      m.size = static_cast<std::uint32_t>(name.size());
      m.key = member_key(group_of(name), name);
      m.committed = committed ? 1 : 0;
    });
    for (std::size_t d = 0; d < count.size(); ++d) {
      if (next[d] != s.begin_[d + 1]) {
        throw std::logic_error("ReferencedNames::build: the second pass gave other names than the first");
      }
    }
    s.sort_and_merge();
    return s;
  }

  /// The member `name` (of `group`) in directory `dir`, or nullptr.
  Member* find(std::uint32_t dir, std::string_view name, std::string_view group) noexcept {
    const std::span<Member> run = in_directory(dir);
    const std::uint32_t key = member_key(group, name);
    for (Member* m = first_at_least(run, key); m != run.data() + run.size() && m->key == key; ++m) {
      if (m->data != nullptr && m->name() == name) return m;
    }
    return nullptr;
  }

  /// Calls f(const Member&) for directory `dir`'s members whose group
  /// hashes as `group`'s does: every member of `group`, and maybe others
  /// (the caller tells its own from them).
  template <class F>
  void for_each_in_group(std::uint32_t dir, std::string_view group, F&& f) const {
    const std::span<const Member> run = in_directory(dir);
    const std::uint32_t high = group_bits(group);
    const Member* const end = run.data() + run.size();
    for (const Member* m = first_at_least(run, high); m != end && (m->key & ~kNameBits) == high; ++m) {
      if (m->data != nullptr) f(*m);
    }
  }

  /// Directory `dir`'s members (empty past the last directory named).
  std::span<Member> in_directory(std::uint32_t dir) noexcept {
    if (dir + 1 >= begin_.size()) return {};
    return {members_.data() + begin_[dir], members_.data() + begin_[dir + 1]};
  }
  std::span<const Member> in_directory(std::uint32_t dir) const noexcept {
    return const_cast<BasicReferencedNames*>(this)->in_directory(dir);
  }

  /// Directories the set spans: every index below it may have members.
  std::uint32_t directories() const noexcept {
    return begin_.empty() ? 0 : static_cast<std::uint32_t>(begin_.size() - 1);
  }
  /// Distinct members.
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }

 private:
  static constexpr std::uint32_t kNameBits = 0xFFF;

  static std::uint32_t group_bits(std::string_view group) noexcept { return Hash()(group) & ~kNameBits; }
  static std::uint32_t member_key(std::string_view group, std::string_view name) noexcept {
    return group_bits(group) | (Hash()(name) & kNameBits);
  }

  /// std::lower_bound by key, without branches on the keys: a directory's
  /// run is thousands of members, and a mispredicted branch per halving was
  /// most of a lookup.
  template <class M>
  static M* first_at_least(std::span<M> run, std::uint32_t key) noexcept {
    if (run.empty()) return run.data();
    M* base = run.data();
    std::size_t n = run.size();
    while (n > 1) {  // the answer is in [base, base + n]
      const std::size_t half = n / 2;
      base = base[half].key < key ? base + half : base;
      n -= half;
    }
    return base + (base->key < key ? 1 : 0);
  }

  // Sorts each directory by key, then folds a name given twice into its
  // first occurrence. Merged-away members stay in the run with no text and
  // no marks (data == nullptr), which find() and the callers skip.
  void sort_and_merge() {
    size_ = members_.size();
    for (std::size_t d = 0; d + 1 < begin_.size(); ++d) {
      Member* const first = members_.data() + begin_[d];
      Member* const last = members_.data() + begin_[d + 1];
      std::sort(first, last, [](const Member& a, const Member& b) { return a.key < b.key; });
      for (Member* a = first; a != last; ++a) {
        for (Member* b = a + 1; b != last && b->key == a->key; ++b) {
          if (a->data != nullptr && b->size == a->size && b->name() == a->name()) {
            a->committed |= b->committed;
            *b = Member{nullptr, b->key};
            --size_;
          }
        }
      }
    }
  }

  std::vector<std::uint32_t> begin_;  // directory d's members: [begin_[d], begin_[d + 1])
  std::vector<Member, PrefaultedAllocator<Member>> members_;
  std::size_t size_ = 0;
};

using ReferencedNames = BasicReferencedNames<>;

}  // namespace lakegc
