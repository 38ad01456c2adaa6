// RemapVector, the view's growing arrays: values survive growth from a
// malloc'd block into a mapping and through mremap, copies are independent,
// shrinking keeps the values, reserving is address space (not resident
// memory), and pages just ahead of the values are populated.
#include <doctest/doctest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "lakegc/core/remap_vector.hpp"

namespace lakegc::tests::remap_vector_test {

using namespace lakegc;

namespace {

std::size_t page_size() { return static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)); }

// Resident pages of this process (/proc/self/statm's second field).
std::size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * page_size();
}

// Whether the page holding `p` is resident.
bool resident(const void* p) {
  const auto addr = reinterpret_cast<std::uintptr_t>(p) / page_size() * page_size();
  unsigned char vec = 0;
  REQUIRE(::mincore(reinterpret_cast<void*>(addr), page_size(), &vec) == 0);
  return (vec & 1) != 0;
}

}  // namespace

TEST_CASE("RemapVector keeps every value while it grows from a small block into a mapping and through mremap") {
  RemapVector<std::uint64_t> v;
  constexpr std::uint64_t kCount = 3'000'000;  // 24 MB: small blocks, then a mapping remapped several times
  bool ok = true;
  for (std::uint64_t i = 0; i < kCount; ++i) {
    v.push_back(i * 3 + 1);
    // Spot-check earlier values as the block moves.
    if ((i & (i - 1)) == 0) ok = ok && v[i / 2] == (i / 2) * 3 + 1 && v[0] == 1;
  }
  CHECK(ok);
  REQUIRE(v.size() == kCount);
  CHECK(v.capacity() >= kCount);
  std::uint64_t i = 0;
  bool in_order = true;
  for (std::uint64_t x : v) in_order = in_order && x == 3 * i++ + 1;
  CHECK(in_order);
  CHECK(v.back() == 3 * (kCount - 1) + 1);
}

TEST_CASE("RemapVector's append, copy, move, equality and clear") {
  RemapVector<char> a;
  std::string expected;
  for (int i = 0; i < 40'000; ++i) {  // ~1.3 MB of text: crosses into a mapping
    const std::string s = "name-" + std::to_string(i) + "_";
    a.append(s.data(), s.size());
    expected += s;
  }
  CHECK(std::string_view(a.data(), a.size()) == expected);

  RemapVector<char> copy = a;
  CHECK(copy == a);
  copy[0] = 'N';
  CHECK(a[0] == 'n');  // the copy has its own block
  CHECK(!(copy == a));

  RemapVector<char> moved = std::move(copy);
  CHECK(moved.size() == a.size());
  CHECK(moved[0] == 'N');
  CHECK(copy.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty by contract

  moved.clear();
  CHECK(moved.empty());
  moved.append("xy", 2);
  CHECK(std::string_view(moved.data(), moved.size()) == "xy");

  RemapVector<char> small;
  small.append("abc", 3);
  RemapVector<char> small_copy = small;
  CHECK(small_copy == small);
  CHECK(std::string_view(small_copy.data(), 3) == "abc");
}

TEST_CASE("RemapVector's shrink_to_fit keeps the values and gives back the tail, mapped or not") {
  RemapVector<std::uint32_t> v;
  for (std::uint32_t i = 0; i < 1'000'003; ++i) v.push_back(i);
  v.shrink_to_fit();
  CHECK(v.size() == 1'000'003);
  // Page-rounded: less than a page of values past the end.
  CHECK(v.capacity() >= v.size());
  CHECK((v.capacity() - v.size()) * sizeof(std::uint32_t) < page_size());
  bool same = true;
  for (std::uint32_t i = 0; i < v.size(); ++i) same = same && v[i] == i;
  CHECK(same);
  v.push_back(7);  // still grows after shrinking
  CHECK(v.back() == 7);
  CHECK(v[1'000'002] == 1'000'002);

  RemapVector<std::uint32_t> small;
  for (std::uint32_t i = 0; i < 100; ++i) small.push_back(i);
  small.shrink_to_fit();
  CHECK(small.capacity() == 100);
  CHECK(small[99] == 99);

  RemapVector<std::uint32_t> emptied;
  emptied.reserve(1 << 20);
  emptied.shrink_to_fit();
  CHECK(emptied.capacity() == 0);
  CHECK(emptied.data() == nullptr);
}

TEST_CASE("RemapVector: a reserve is address space, pages are populated only a step ahead of the values") {
  constexpr std::size_t kReserved = std::size_t{512} << 20;  // 512 MiB
  const std::size_t before = resident_bytes();
  RemapVector<char> v;
  v.reserve(kReserved);
  const std::string chunk(1 << 20, 'x');
  for (int i = 0; i < 4; ++i) v.append(chunk.data(), chunk.size());  // 4 MiB written
  const std::size_t grown = resident_bytes() - before;
  // Written 4 MiB plus at most one populate step (8 MiB) ahead: far below
  // the reservation. A reserve that populated everything fails here.
  CHECK(grown < (std::size_t{32} << 20));
  CHECK(grown >= (std::size_t{4} << 20) - page_size());
  // The page after the last value is already populated (MADV_POPULATE_WRITE):
  // the next appends fault nothing.
  CHECK(resident(v.data() + v.size() + 1));
  // Far beyond the step: not touched.
  CHECK(!resident(v.data() + (std::size_t{256} << 20)));
}

}  // namespace lakegc::tests::remap_vector_test
