// File: lakegc/plan/planned_files.hpp
// -----------------------------------------------------------------------------
// The files a clean plan deletes, by partition, in one allocation: every
// PlannedDelete in one vector, and per partition its path and the run of
// that vector it owns.
//
// Why not a map of vectors: a dense plan at 10M slices deletes 1.2M files
// in 2,000 partitions, and a vector per partition is 2,000 heap blocks of
// about 57 KB, every one of a different size. Freed together with the
// plan, glibc sorts them into its size-ordered large bins one by one,
// which cost more than planning itself once nothing else sat between them
// (bench/README.md, "The plan's files in one allocation"). One vector is
// one block, and a partition's files stay contiguous, so a reader still
// gets a span per partition.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "lakegc/plan/planned_delete.hpp"

namespace lakegc {

/// One partition of a plan: its path and its files, sorted by name.
template <typename File>
struct PartitionFiles {
  std::string_view partition;
  std::span<File> files;
};

class PlannedFiles {
  // A partition's run [begin, end) of files_.
  struct Run {
    std::size_t begin = 0;
    std::size_t end = 0;
  };
  using Index = std::map<std::string, Run, std::less<>>;

  template <typename File, typename IndexIterator>
  class basic_iterator {
   public:
    using iterator_category = std::bidirectional_iterator_tag;
    using value_type = PartitionFiles<File>;
    using difference_type = std::ptrdiff_t;
    using reference = value_type;
    using pointer = void;

    basic_iterator() = default;
    basic_iterator(IndexIterator it, File* files) : it_(it), files_(files) {}
    value_type operator*() const {
      return {it_->first, std::span<File>(files_ + it_->second.begin, it_->second.end - it_->second.begin)};
    }
    basic_iterator& operator++() {
      ++it_;
      return *this;
    }
    basic_iterator operator++(int) {
      basic_iterator old = *this;
      ++it_;
      return old;
    }
    basic_iterator& operator--() {
      --it_;
      return *this;
    }
    basic_iterator operator--(int) {
      basic_iterator old = *this;
      --it_;
      return old;
    }
    friend bool operator==(const basic_iterator& a, const basic_iterator& b) { return a.it_ == b.it_; }

   private:
    IndexIterator it_{};
    File* files_ = nullptr;
  };

 public:
  using iterator = basic_iterator<PlannedDelete, Index::iterator>;
  using const_iterator = basic_iterator<const PlannedDelete, Index::const_iterator>;

  PlannedFiles() = default;

  /// Appends `file` to `partition`'s files. A partition's files are
  /// contiguous, so `partition` must be new or the one appended to last;
  /// anything else is a bug in the caller (std::logic_error). The caller
  /// appends in name order: that order is the plan's.
  void push(std::string_view partition, PlannedDelete file) {
    Run& run = open_run(partition);
    files_.push_back(std::move(file));
    run.end = files_.size();
  }

  /// Appends `files` (sorted by name) as `partition`'s, under push's rule.
  /// Nothing is recorded for an empty list.
  void add(std::string_view partition, std::vector<PlannedDelete> files) {
    if (files.empty()) return;
    Run& run = open_run(partition);
    files_.insert(files_.end(), std::make_move_iterator(files.begin()), std::make_move_iterator(files.end()));
    run.end = files_.size();
  }

  /// Space for `n` more files without moving the ones held.
  void reserve_more(std::size_t n) { files_.reserve(files_.size() + n); }

  /// Number of partitions with files.
  [[nodiscard]] std::size_t size() const noexcept { return index_.size(); }
  [[nodiscard]] bool empty() const noexcept { return index_.empty(); }
  /// Number of files, every partition's.
  [[nodiscard]] std::size_t file_count() const noexcept { return files_.size(); }

  [[nodiscard]] bool contains(std::string_view partition) const { return index_.find(partition) != index_.end(); }
  /// `partition`'s files; std::out_of_range if it has none.
  [[nodiscard]] std::span<const PlannedDelete> at(std::string_view partition) const {
    return files_of(checked_run(partition));
  }
  [[nodiscard]] std::span<PlannedDelete> at(std::string_view partition) {
    const Run& r = checked_run(partition);
    return std::span<PlannedDelete>(files_.data() + r.begin, r.end - r.begin);
  }

  /// Partitions in path order.
  [[nodiscard]] const_iterator begin() const { return {index_.begin(), files_.data()}; }
  [[nodiscard]] const_iterator end() const { return {index_.end(), files_.data()}; }
  [[nodiscard]] iterator begin() { return {index_.begin(), files_.data()}; }
  [[nodiscard]] iterator end() { return {index_.end(), files_.data()}; }

  void clear() noexcept {
    index_.clear();
    files_.clear();
    last_ = nullptr;
  }

  /// Equal when the same partitions hold the same files in the same order
  /// (where in the one vector they sit does not matter).
  friend bool operator==(const PlannedFiles& a, const PlannedFiles& b) {
    if (a.index_.size() != b.index_.size() || a.files_.size() != b.files_.size()) return false;
    return std::equal(a.begin(), a.end(), b.begin(), [](const auto& x, const auto& y) {
      return x.partition == y.partition && std::ranges::equal(x.files, y.files);
    });
  }

  // Map nodes do not move with the map, so a moved plan keeps appending to
  // its last run; a copy finds its own.
  PlannedFiles(const PlannedFiles& o) : index_(o.index_), files_(o.files_) { relink_last(); }
  PlannedFiles(PlannedFiles&& o) noexcept
      : index_(std::move(o.index_)), files_(std::move(o.files_)), last_(std::exchange(o.last_, nullptr)) {}
  PlannedFiles& operator=(const PlannedFiles& o) {
    if (this != &o) {
      index_ = o.index_;
      files_ = o.files_;
      relink_last();
    }
    return *this;
  }
  PlannedFiles& operator=(PlannedFiles&& o) noexcept {
    index_ = std::move(o.index_);
    files_ = std::move(o.files_);
    last_ = std::exchange(o.last_, nullptr);
    return *this;
  }
  ~PlannedFiles() = default;

 private:
  std::span<const PlannedDelete> files_of(const Run& r) const {
    return std::span<const PlannedDelete>(files_.data() + r.begin, r.end - r.begin);
  }
  const Run& checked_run(std::string_view partition) const {
    const auto it = index_.find(partition);
    if (it == index_.end()) throw std::out_of_range(fmt::format("plan has no files in partition '{}'", partition));
    return it->second;
  }
  // The run files appended now belong to: the last one if it is
  // `partition`'s and ends at the end of files_, else a new one.
  Run& open_run(std::string_view partition) {
    if (last_ != nullptr && last_->first == partition && last_->second.end == files_.size()) return last_->second;
    auto [it, inserted] = index_.try_emplace(std::string(partition), Run{files_.size(), files_.size()});
    if (!inserted) {
      throw std::logic_error(
          fmt::format("PlannedFiles: partition '{}' appended to after another partition's files", partition));
    }
    last_ = &*it;
    return it->second;
  }

  void relink_last() {
    last_ = nullptr;
    for (auto& entry : index_) {
      if (entry.second.end == files_.size()) last_ = &entry;
    }
  }

  Index index_;
  std::vector<PlannedDelete> files_;
  // The entry appended to last, if its run still ends files_.
  Index::value_type* last_ = nullptr;
};

}  // namespace lakegc
