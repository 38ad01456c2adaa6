// FileList, the compact form of a commit's named files: every file reads
// back as it was added (partition, name, size, order), partitions are kept
// once each whether found by scan or by hash, and the views it hands out
// survive moving the list.
#include <doctest/doctest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/file_list.hpp"

namespace lakegc::tests::file_list_test {

using namespace lakegc;

/// `n` files over `partitions` partitions, interleaved (file i in i %
/// partitions) or, with `run` > 1, in runs of `run` files as a commit names them.
std::vector<WrittenFile> interleaved(std::size_t n, std::size_t partitions, std::size_t run = 1) {
  std::vector<WrittenFile> out;
  for (std::size_t i = 0; i < n; ++i)
    out.push_back({fmt::format("year=2024/month={:02}/partition-with-a-long-name", i / run % partitions),
                   fmt::format("f{}-0_1-2-3_20240101000000000.parquet", i), i * 7});
  return out;
}

FileList list_of(const std::vector<WrittenFile>& files) {
  FileList l;
  for (const WrittenFile& f : files) l.push_back(f);
  return l;
}

TEST_CASE("every file reads back as added, in order, with its partition interned once") {
  // 3 partitions stay under the scan limit; 40 go past it to the hash map,
  // and 40 interleaved partitions miss the previous-file shortcut every time.
  // Runs of 5 take the previous-file shortcut.
  for (const std::size_t run : {std::size_t{1}, std::size_t{5}}) {
    for (const std::size_t partitions : {std::size_t{1}, std::size_t{3}, std::size_t{40}}) {
      CAPTURE(partitions);
      CAPTURE(run);
      const auto files = interleaved(200 * run, partitions, run);
      const FileList l = list_of(files);
      REQUIRE(l.size() == files.size());
      CHECK(l == files);
      for (std::size_t i = 0; i < files.size(); ++i) {
        CHECK(l[i].partition == files[i].partition);
        CHECK(l[i].name == files[i].name);
        CHECK(l[i].size == files[i].size);
        CHECK(l.partitions()[l.partition_index(i)] == files[i].partition);
      }
      CHECK(l.partitions().size() == partitions);
      for (std::size_t i = 0; i + partitions * run < files.size(); ++i)
        CHECK(l.partition_index(i) == l.partition_index(i + partitions * run));
    }
  }
}

TEST_CASE("equality sees every field and the order") {
  const auto files = interleaved(5, 2);
  const FileList l = list_of(files);
  for (std::size_t i = 0; i < files.size(); ++i) {
    for (int field = 0; field < 3; ++field) {
      auto other = files;
      if (field == 0) other[i].partition += "x";
      if (field == 1) other[i].name += "x";
      if (field == 2) other[i].size += 1;
      CHECK_FALSE(l == other);
      CHECK_FALSE(l == list_of(other));
    }
  }
  auto swapped = files;
  std::swap(swapped[0], swapped[1]);
  CHECK_FALSE(l == swapped);
  CHECK_FALSE(l == std::vector<WrittenFile>(files.begin(), files.end() - 1));
  CHECK(l == list_of(files));
  CHECK(FileList(files) == files);
}

TEST_CASE("views of the list survive moving it; a copy reads the same") {
  FileList l = list_of(interleaved(100, 20));
  std::vector<FileRef> views(l.begin(), l.end());
  const FileList copy = l;
  const FileList moved = std::move(l);
  REQUIRE(moved.size() == views.size());
  for (std::size_t i = 0; i < views.size(); ++i) {
    CHECK(views[i].partition.data() == moved[i].partition.data());
    CHECK(views[i].name.data() == moved[i].name.data());
    CHECK(copy[i] == views[i]);
  }
}

TEST_CASE("the list is a random-access range: algorithms and at() work over it") {
  const auto files = interleaved(30, 4);
  const FileList l = list_of(files);
  CHECK(std::distance(l.begin(), l.end()) == 30);
  const auto it = std::find_if(l.begin(), l.end(), [](const FileRef& f) { return f.size == 7 * 17; });
  REQUIRE(it != l.end());
  CHECK(it - l.begin() == 17);
  CHECK((*it).name == files[17].name);
  CHECK(l.begin()[3] == FileRef(files[3]));
  CHECK(l.back() == FileRef(files.back()));
  CHECK(l.at(29) == FileRef(files[29]));
  CHECK_THROWS_AS((void)l.at(30), std::out_of_range);
  CHECK(l[5].owned() == files[5]);
}

TEST_CASE("an empty name, an empty partition and names with odd bytes are kept as given") {
  FileList l{{"", "a.parquet", 1}, {"p", "", 2}, {"p", std::string_view("n\0ul", 4), 3}, {"", "b", 4}};
  REQUIRE(l.size() == 4);
  CHECK(l[0] == FileRef("", "a.parquet", 1));
  CHECK(l[1] == FileRef("p", "", 2));
  CHECK(l[2].name == std::string_view("n\0ul", 4));
  CHECK(l[3] == FileRef("", "b", 4));
  CHECK(l.partitions() == std::vector<std::string>{"", "p"});
  l.clear();
  CHECK(l.empty());
  l.push_back({"q", "c", 5});
  CHECK(l.partitions() == std::vector<std::string>{"q"});
  CHECK(l[0] == FileRef("q", "c", 5));
}

}  // namespace lakegc::tests::file_list_test
