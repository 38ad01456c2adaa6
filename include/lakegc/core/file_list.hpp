// File: lakegc/core/file_list.hpp
// -----------------------------------------------------------------------------
// The files one write created, as its commit metadata names them
// (CommitInfo::files), held compactly.
//
// Why not std::vector<WrittenFile>: a table's commits name every file it has,
// so on a large table these lists are most of TableMetadata. As two
// std::strings per file they cost about 200 bytes a file (measured: 965 MiB
// for 5M files in the orphan sweep's benchmark) and two allocations while a
// journal decodes. A FileList keeps each distinct partition once and every
// name in one arena: 24 bytes a file plus the name's text, and no allocation
// per file. The write stats of a commit come partition by partition, so the
// partition of the previous file is checked first.
//
// Elements are read as FileRef: views into the list. They stay valid while
// the list is not modified (moving the list keeps them valid too), which is
// the contract the planners already relied on when they kept views of the
// metadata's names: nothing edits metadata once it is loaded.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <absl/container/flat_hash_map.h>
#include <fmt/format.h>

namespace lakegc {

/// A file a write created, as its commit metadata names it (an owning
/// record: markers, savepoints and rollback plans hold these).
struct WrittenFile {
  std::string partition;
  std::string name;
  std::uint64_t size = 0;
  friend bool operator==(const WrittenFile&, const WrittenFile&) = default;
};

/// A file of a FileList (or any WrittenFile), by view.
struct FileRef {
  std::string_view partition;
  std::string_view name;
  std::uint64_t size = 0;

  constexpr FileRef() = default;
  constexpr FileRef(std::string_view partition_, std::string_view name_, std::uint64_t size_)
      : partition(partition_), name(name_), size(size_) {}
  FileRef(const WrittenFile& f) : partition(f.partition), name(f.name), size(f.size) {}  // NOLINT: a view of it

  WrittenFile owned() const { return WrittenFile{std::string(partition), std::string(name), size}; }
  friend bool operator==(const FileRef&, const FileRef&) = default;
};

class FileList {
  struct Entry {
    std::uint64_t name_offset;
    std::uint32_t name_size;
    std::uint32_t partition;  // index into partitions_
    std::uint64_t size;
  };

 public:
  using value_type = FileRef;
  using size_type = std::size_t;

  class const_iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = FileRef;
    using difference_type = std::ptrdiff_t;
    using reference = FileRef;
    using pointer = void;

    const_iterator() = default;
    FileRef operator*() const { return (*list_)[i_]; }
    FileRef operator[](difference_type n) const { return (*list_)[i_ + static_cast<std::size_t>(n)]; }
    const_iterator& operator++() { return ++i_, *this; }
    const_iterator operator++(int) { return const_iterator(list_, i_++); }
    const_iterator& operator--() { return --i_, *this; }
    const_iterator operator--(int) { return const_iterator(list_, i_--); }
    const_iterator& operator+=(difference_type n) { return i_ += static_cast<std::size_t>(n), *this; }
    const_iterator& operator-=(difference_type n) { return i_ -= static_cast<std::size_t>(n), *this; }
    friend const_iterator operator+(const_iterator it, difference_type n) { return it += n; }
    friend const_iterator operator+(difference_type n, const_iterator it) { return it += n; }
    friend const_iterator operator-(const_iterator it, difference_type n) { return it -= n; }
    friend difference_type operator-(const const_iterator& a, const const_iterator& b) {
      return static_cast<difference_type>(a.i_) - static_cast<difference_type>(b.i_);
    }
    friend bool operator==(const const_iterator& a, const const_iterator& b) { return a.i_ == b.i_; }
    friend auto operator<=>(const const_iterator& a, const const_iterator& b) { return a.i_ <=> b.i_; }

   private:
    friend class FileList;
    const_iterator(const FileList* list, std::size_t i) : list_(list), i_(i) {}
    const FileList* list_ = nullptr;
    std::size_t i_ = 0;
  };
  using iterator = const_iterator;

  FileList() = default;
  FileList(std::initializer_list<FileRef> files) {
    reserve(files.size());
    for (const FileRef& f : files) push_back(f);
  }
  /// A copy of owning records (markers, a savepoint being built).
  FileList(const std::vector<WrittenFile>& files) {  // NOLINT: the same files, held compactly
    reserve(files.size());
    for (const WrittenFile& f : files) push_back(f);
  }

  /// Copies the file's partition and name into the list.
  void push_back(const FileRef& f) {
    const std::uint32_t p = partition_of(f.partition);
    entries_.push_back(Entry{names_.size(), static_cast<std::uint32_t>(f.name.size()), p, f.size});
    names_.insert(names_.end(), f.name.begin(), f.name.end());
  }
  /// For a count known up front: the entries only (names vary in length).
  void reserve(std::size_t files) { entries_.reserve(files); }

  std::size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  FileRef operator[](std::size_t i) const {
    const Entry& e = entries_[i];
    return FileRef(partitions_[e.partition], std::string_view(names_.data() + e.name_offset, e.name_size), e.size);
  }
  FileRef at(std::size_t i) const {
    if (i >= size()) throw std::out_of_range(fmt::format("FileList::at({}) of {} files", i, size()));
    return (*this)[i];
  }
  FileRef front() const { return (*this)[0]; }
  FileRef back() const { return (*this)[size() - 1]; }
  const_iterator begin() const { return const_iterator(this, 0); }
  const_iterator end() const { return const_iterator(this, size()); }

  /// The distinct partitions of the files, in the order first named.
  const std::vector<std::string>& partitions() const { return partitions_; }
  /// Index into partitions() of file i's partition: equal indexes, equal partitions.
  std::uint32_t partition_index(std::size_t i) const { return entries_[i].partition; }

  void clear() {
    entries_.clear();
    names_.clear();
    partitions_.clear();
    by_text_.clear();
  }

  friend bool operator==(const FileList& a, const FileList& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (a[i] != b[i]) return false;
    return true;
  }
  friend bool operator==(const FileList& a, const std::vector<WrittenFile>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (a[i] != FileRef(b[i])) return false;
    return true;
  }

 private:
  // Past this many distinct partitions a hash map finds them; below it a
  // scan is cheaper than the map's memory (most commits write few).
  static constexpr std::size_t kScanPartitions = 16;

  std::uint32_t partition_of(std::string_view p) {
    if (!entries_.empty() && partitions_[entries_.back().partition] == p) return entries_.back().partition;
    if (partitions_.size() <= kScanPartitions) {
      for (std::size_t i = 0; i < partitions_.size(); ++i)
        if (partitions_[i] == p) return static_cast<std::uint32_t>(i);
    } else if (const auto it = by_text_.find(absl::string_view(p.data(), p.size())); it != by_text_.end()) {
      return it->second;
    }
    const auto index = static_cast<std::uint32_t>(partitions_.size());
    partitions_.emplace_back(p);
    if (partitions_.size() == kScanPartitions + 1) {
      for (std::size_t i = 0; i < partitions_.size(); ++i)
        by_text_.emplace(partitions_[i], static_cast<std::uint32_t>(i));
    } else if (partitions_.size() > kScanPartitions + 1) {
      by_text_.emplace(partitions_.back(), index);
    }
    return index;
  }

  std::vector<Entry> entries_;
  std::vector<char> names_;  // a vector: moving it keeps its bytes where FileRefs point
  std::vector<std::string> partitions_;
  absl::flat_hash_map<std::string, std::uint32_t> by_text_;  // only past kScanPartitions
};

}  // namespace lakegc
