// File: lakegc/plan/planned_files.hpp
// -----------------------------------------------------------------------------
// The files a clean plan deletes, by partition: per partition its path and
// a contiguous run of files in a block. Small runs share 64 KiB blocks;
// a run that is reserved larger gets a block of its own, of its size.
//
// Measured (bench/README.md, "A plan's files in blocks"): one vector for
// the whole plan grows by doubling to 140 MB at 10M slices, copied twenty
// times onto fresh pages, and page faults (dear on these virtual machines)
// made the plan 3x slower; 1 MiB and 256 KiB blocks, too large for the
// holes a freed builder leaves in the heap, came from its top, were
// trimmed after each plan and faulted in again (1.2-1.6x slower). Blocks
// of a partition's size fit those holes, as the vectors of the old map
// did, and 64 KiB ones keep a plan of many small partitions to few
// blocks.
//
// Names are views (PlannedDelete::name) of text the plan keeps alive: its
// own copies (shared_text.hpp), or a TableView's names, which a plan made
// from the view holds rather than copies (a dense plan's names were half
// its time and most of its memory when copied).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/shared_text.hpp"
#include "lakegc/plan/planned_delete.hpp"

namespace lakegc {

/// One partition of a plan: its path and its files, sorted by name.
template <typename File>
struct PartitionFiles {
  std::string_view partition;
  std::span<File> files;
};

class PlannedFiles {
  // A partition's files: [begin, end) of blocks_[block].
  struct Run {
    std::size_t block = 0;
    std::size_t begin = 0;
    std::size_t end = 0;
  };
  using Index = std::map<std::string, Run, std::less<>>;
  // Files are appended within a block's capacity only, so a block never
  // reallocates and the runs in it stay where they are.
  using Block = std::vector<PlannedDelete>;

  template <typename File, typename IndexIterator, typename Blocks>
  class basic_iterator {
   public:
    using iterator_category = std::bidirectional_iterator_tag;
    using value_type = PartitionFiles<File>;
    using difference_type = std::ptrdiff_t;
    using reference = value_type;
    using pointer = void;

    basic_iterator() = default;
    basic_iterator(IndexIterator it, Blocks* blocks) : it_(it), blocks_(blocks) {}
    value_type operator*() const {
      const Run& r = it_->second;
      return {it_->first, std::span<File>((*blocks_)[r.block].data() + r.begin, r.end - r.begin)};
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
    Blocks* blocks_ = nullptr;
  };

 public:
  using iterator = basic_iterator<PlannedDelete, Index::iterator, std::vector<Block>>;
  using const_iterator = basic_iterator<const PlannedDelete, Index::const_iterator, const std::vector<Block>>;

  /// Files a shared block holds (64 KiB of them); a run reserved larger
  /// gets a block of its own.
  static constexpr std::size_t kBlockFiles = (std::size_t{64} << 10) / sizeof(PlannedDelete);

  PlannedFiles() = default;

  /// Makes room for `n` more files of the partition appended next, so they
  /// are appended without moving any file. Optional: push moves a run that
  /// outgrows its block.
  void reserve_run(std::size_t n) {
    if (blocks_.empty() || blocks_.back().capacity() - blocks_.back().size() < n) new_block(n);
  }

  /// Appends `file` to `partition`'s files, its name copied into the plan.
  /// A partition's files are contiguous, so `partition` must be new or the
  /// one appended to last; anything else is a bug in the caller
  /// (std::logic_error). The caller appends in name order: that order is
  /// the plan's.
  void push(std::string_view partition, PlannedDelete file) {
    file.name = names_.keep(file.name);
    append_file(partition, file);
  }

  /// As push, from PlannedDelete's fields.
  void emplace(std::string_view partition, std::string_view name, std::uint64_t size, DeleteReason reason,
               InstantTime slice) {
    push(partition, PlannedDelete{name, size, reason, slice});
  }

  /// Keeps `owner` alive as long as this plan or a copy of it, so names in
  /// text it owns (TableView::name_owner) are appended by emplace_held
  /// without a copy. Holding the same owner again adds nothing.
  void hold(std::shared_ptr<const void> owner) { names_.hold(std::move(owner)); }

  /// As emplace, without copying `name`: it must lie in text an owner
  /// given to hold() owns (a dense plan's names were half its time and
  /// most of its memory when copied). The planner appends a partition's
  /// files at once with append_held.
  void emplace_held(std::string_view partition, std::string_view name, std::uint64_t size, DeleteReason reason,
                    InstantTime slice) {
    append_file(partition, PlannedDelete{name, size, reason, slice});
  }

  /// As emplace_held, `n` files at once: appends `n` empty files to
  /// `partition`'s and returns them, for the caller to fill in name order
  /// with names in text an owner given to hold() owns. The run is opened
  /// and made room for once, not per file.
  std::span<PlannedDelete> append_held(std::string_view partition, std::size_t n) {
    if (n == 0) return {};
    Run& run = open_run(partition, n);
    Block& block = blocks_[run.block];
    if (run.block != blocks_.size() - 1 || block.capacity() - block.size() < n) move_run(run, n);
    Block& last = blocks_.back();
    last.resize(last.size() + n);
    run.end += n;
    return std::span<PlannedDelete>(last.data() + run.end - n, n);
  }

  /// Appends `files` (sorted by name) as `partition`'s, under push's rule.
  /// Nothing is recorded for an empty list.
  void add(std::string_view partition, const std::vector<PlannedDelete>& files) {
    if (files.empty()) return;
    if (last_ == nullptr || last_->first != partition) reserve_run(files.size());
    for (const PlannedDelete& f : files) push(partition, f);
  }

  /// Appends every partition of `o`, in its order, under push's rule: each
  /// must be new here, except that `o`'s first may be the one appended to
  /// last. The names are not copied: this plan shares the text `o` keeps
  /// alive.
  void append(const PlannedFiles& o) {
    names_.share(o.names_);
    for (const auto& [partition, files] : o) {
      if (last_ == nullptr || last_->first != partition) reserve_run(files.size());
      for (const PlannedDelete& f : files) append_file(partition, f);
    }
  }

  /// Number of partitions with files.
  [[nodiscard]] std::size_t size() const noexcept { return index_.size(); }
  [[nodiscard]] bool empty() const noexcept { return index_.empty(); }
  /// Number of files, every partition's.
  [[nodiscard]] std::size_t file_count() const noexcept { return files_; }

  [[nodiscard]] bool contains(std::string_view partition) const { return index_.find(partition) != index_.end(); }
  /// `partition`'s files; std::out_of_range if it has none.
  [[nodiscard]] std::span<const PlannedDelete> at(std::string_view partition) const {
    const Run& r = checked_run(partition);
    return std::span<const PlannedDelete>(blocks_[r.block].data() + r.begin, r.end - r.begin);
  }
  [[nodiscard]] std::span<PlannedDelete> at(std::string_view partition) {
    const Run& r = checked_run(partition);
    return std::span<PlannedDelete>(blocks_[r.block].data() + r.begin, r.end - r.begin);
  }

  /// Partitions in path order.
  [[nodiscard]] const_iterator begin() const { return {index_.begin(), &blocks_}; }
  [[nodiscard]] const_iterator end() const { return {index_.end(), &blocks_}; }
  [[nodiscard]] iterator begin() { return {index_.begin(), &blocks_}; }
  [[nodiscard]] iterator end() { return {index_.end(), &blocks_}; }

  void clear() noexcept {
    index_.clear();
    blocks_.clear();
    names_.clear();
    files_ = 0;
    last_ = nullptr;
  }

  /// Equal when the same partitions hold the same files in the same order
  /// (where they sit in the blocks does not matter).
  friend bool operator==(const PlannedFiles& a, const PlannedFiles& b) {
    if (a.index_.size() != b.index_.size() || a.files_ != b.files_) return false;
    return std::equal(a.begin(), a.end(), b.begin(), [](const auto& x, const auto& y) {
      return x.partition == y.partition && std::ranges::equal(x.files, y.files);
    });
  }

  // Map nodes do not move with the map, so a moved list keeps appending
  // to its last run; a copy finds its own. A copied block holds no spare
  // room (vector copies are exact), so the copy's next push moves its last
  // run to a new block.
  // The names' text is shared, not copied (shared_text.hpp).
  PlannedFiles(const PlannedFiles& o) : index_(o.index_), blocks_(o.blocks_), names_(o.names_), files_(o.files_) {
    relink_last();
  }
  PlannedFiles(PlannedFiles&& o) noexcept
      : index_(std::move(o.index_)),
        blocks_(std::move(o.blocks_)),
        names_(std::move(o.names_)),
        files_(std::exchange(o.files_, 0)),
        last_(std::exchange(o.last_, nullptr)) {}
  PlannedFiles& operator=(const PlannedFiles& o) {
    if (this != &o) {
      index_ = o.index_;
      blocks_ = o.blocks_;
      names_ = o.names_;
      files_ = o.files_;
      relink_last();
    }
    return *this;
  }
  PlannedFiles& operator=(PlannedFiles&& o) noexcept {
    index_ = std::move(o.index_);
    blocks_ = std::move(o.blocks_);
    names_ = std::move(o.names_);
    files_ = std::exchange(o.files_, 0);
    last_ = std::exchange(o.last_, nullptr);
    return *this;
  }
  ~PlannedFiles() = default;

 private:
  const Run& checked_run(std::string_view partition) const {
    const auto it = index_.find(partition);
    if (it == index_.end()) throw std::out_of_range(fmt::format("plan has no files in partition '{}'", partition));
    return it->second;
  }
  // Moves `run` (the last one appended to, so the tail of its block) to
  // the end of the last block, a new one unless the last block is another
  // with room for it and `more` files: a run that outgrows its block moves
  // with room for as many files again, so a long run moves O(log n) times.
  void move_run(Run& run, std::size_t more = 1) {
    const std::size_t held = run.end - run.begin;
    const bool into_last =
        run.block != blocks_.size() - 1 && blocks_.back().capacity() - blocks_.back().size() >= held + more;
    if (!into_last) new_block(2 * held + more);
    Block& from = blocks_[run.block];
    Block& to = blocks_.back();
    const auto tail = from.end() - static_cast<std::ptrdiff_t>(held);
    const std::size_t at = to.size();
    to.insert(to.end(), std::make_move_iterator(tail), std::make_move_iterator(from.end()));
    from.erase(tail, from.end());
    run = Run{blocks_.size() - 1, at, at + held};
  }
  // Appends `file` as it is: its name's text is already kept alive.
  void append_file(std::string_view partition, const PlannedDelete& file) {
    Run& run = open_run(partition);
    if (run.block != blocks_.size() - 1 || blocks_.back().size() == blocks_.back().capacity()) move_run(run);
    blocks_.back().push_back(file);
    ++run.end;
  }
  void new_block(std::size_t at_least) { blocks_.emplace_back().reserve(std::max(kBlockFiles, at_least)); }
  // The run the `count` files appended now belong to: the last one if it
  // is `partition`'s, else a new one at the end of the last block.
  Run& open_run(std::string_view partition, std::size_t count = 1) {
    files_ += count;
    if (last_ != nullptr && last_->first == partition) return last_->second;
    if (blocks_.empty()) new_block(count);
    const std::size_t at = blocks_.back().size();
    auto [it, inserted] = index_.try_emplace(std::string(partition), Run{blocks_.size() - 1, at, at});
    if (!inserted) {
      files_ -= count;
      throw std::logic_error(
          fmt::format("PlannedFiles: partition '{}' appended to after another partition's files", partition));
    }
    last_ = &*it;
    return it->second;
  }
  // After a copy: the run that ends the last block, if any.
  void relink_last() {
    last_ = nullptr;
    if (blocks_.empty()) return;
    for (auto& entry : index_) {
      if (entry.second.block == blocks_.size() - 1 && entry.second.end == blocks_.back().size()) last_ = &entry;
    }
  }

  Index index_;
  std::vector<Block> blocks_;
  SharedText names_;  // the text every name of blocks_ views
  std::size_t files_ = 0;
  // The entry appended to last: its run ends the last block.
  Index::value_type* last_ = nullptr;
};

}  // namespace lakegc
