// File: lakegc/core/remap_vector.hpp
// -----------------------------------------------------------------------------
// A vector of trivially copyable values for the arrays that grow to hundreds
// of megabytes while a table is loaded (the view's file records and names):
// past 1 MiB it lives in its own mapping, grown with mremap, so growing
// copies nothing, and its pages are populated a few megabytes at a time
// just ahead of the values written into them.
//
// Why: std::vector and std::string double by allocating a new block and
// copying into it, and every fresh page costs a fault. Under the project's
// hypervisor a page fault is expensive (core/prefaulted.hpp): loading a
// 1M-file view spent a third of its time copying the names arena into
// doubled blocks and faulting their pages in (bench/README.md, load_view).
// mremap moves the page tables instead of the bytes, MADV_POPULATE_WRITE
// maps a run of pages in one call, and MADV_HUGEPAGE asks for 2 MiB pages
// where the kernel's THP mode is "madvise" (the `lakegc` tool asks the same
// for malloc: tools/cli/huge_pages.hpp).
//
// Resident memory stays close to size(): pages past the populated mark are
// address space only, and shrink_to_fit() unmaps them without a copy.
// Below 1 MiB the values live in a malloc'd block (realloc), so the many
// small views of the simulator and the tests pay nothing for this.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>
#include <span>
#include <type_traits>
#include <utility>

namespace lakegc {

namespace detail {

/// Blocks at least this large are mapped (and grown with mremap).
inline constexpr std::size_t kRemapMinBytes = std::size_t{1} << 20;
/// Pages are populated at most this far ahead of the values written.
inline constexpr std::size_t kPopulateStepBytes = std::size_t{8} << 20;

inline std::size_t page_rounded(std::size_t bytes) {
  static const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  return (bytes + page - 1) / page * page;
}

}  // namespace detail

template <class T>
class RemapVector {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  RemapVector() = default;
  RemapVector(const RemapVector& o) { append(o.data_, o.size_); }
  RemapVector(RemapVector&& o) noexcept { swap(o); }
  RemapVector& operator=(RemapVector o) noexcept {
    swap(o);
    return *this;
  }
  ~RemapVector() { release(); }

  void swap(RemapVector& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(capacity_, o.capacity_);
    std::swap(populated_bytes_, o.populated_bytes_);
    std::swap(mapped_, o.mapped_);
  }

  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  std::size_t capacity() const noexcept { return capacity_; }
  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  T& operator[](std::size_t i) noexcept { return data_[i]; }
  const T& operator[](std::size_t i) const noexcept { return data_[i]; }
  T& back() noexcept { return data_[size_ - 1]; }
  T* begin() noexcept { return data_; }
  T* end() noexcept { return data_ + size_; }
  const T* begin() const noexcept { return data_; }
  const T* end() const noexcept { return data_ + size_; }
  operator std::span<const T>() const noexcept { return {data_, size_}; }  // NOLINT(google-explicit-constructor)

  void push_back(const T& v) {
    if (size_ == capacity_) grow(size_ + 1);
    populate_to(size_ + 1);
    std::memcpy(static_cast<void*>(data_ + size_), &v, sizeof(T));
    ++size_;
  }

  void append(const T* values, std::size_t n) {
    if (n == 0) return;
    if (capacity_ - size_ < n) grow(size_ + n);
    populate_to(size_ + n);
    std::memcpy(static_cast<void*>(data_ + size_), values, n * sizeof(T));
    size_ += n;
  }
  void append(std::span<const T> values) { append(values.data(), values.size()); }

  void clear() noexcept { size_ = 0; }

  /// Room for `n` values: address space only when mapped (pages are
  /// populated as values are written).
  void reserve(std::size_t n) {
    if (n > capacity_) reallocate(n);
  }

  /// Gives back the capacity past size(): an unmap of the tail when
  /// mapped, not a copy.
  void shrink_to_fit() {
    if (capacity_ > size_) reallocate(size_);
  }

  friend bool operator==(const RemapVector& a, const RemapVector& b) noexcept {
    return a.size_ == b.size_ && (a.size_ == 0 || std::memcmp(a.data_, b.data_, a.size_ * sizeof(T)) == 0);
  }

 private:
  void grow(std::size_t at_least) { reallocate(std::max({at_least, capacity_ * 2, std::size_t{16}})); }

  // Moves the values into a block of `n` values (n >= size_; 0 frees it).
  void reallocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (n == 0) {
      release();
      return;
    }
    if (bytes < detail::kRemapMinBytes && !mapped_) {
      void* p = std::realloc(data_, bytes);
      if (p == nullptr) throw std::bad_alloc();
      data_ = static_cast<T*>(p);
      capacity_ = n;
      return;
    }
    const std::size_t new_bytes = detail::page_rounded(bytes);
    void* p;
    if (mapped_) {
      p = ::mremap(data_, detail::page_rounded(capacity_ * sizeof(T)), new_bytes, MREMAP_MAYMOVE);
      if (p == MAP_FAILED) throw std::bad_alloc();
      populated_bytes_ = std::min(populated_bytes_, new_bytes);
    } else {
      p = ::mmap(nullptr, new_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (p == MAP_FAILED) throw std::bad_alloc();
      // Huge pages where the kernel gives them on request (THP "madvise"):
      // a 2 MiB page is one fault (or one populate step) for 512 small
      // ones. The flag stays with the mapping through mremap.
      (void)::madvise(p, new_bytes, MADV_HUGEPAGE);
      populated_bytes_ = 0;
      populate(static_cast<char*>(p), size_ * sizeof(T), new_bytes);
      if (size_ > 0) std::memcpy(p, data_, size_ * sizeof(T));
      std::free(data_);
      mapped_ = true;
    }
    data_ = static_cast<T*>(p);
    capacity_ = new_bytes / sizeof(T);
  }

  // Before values are written up to `n`: populates their pages and a step
  // beyond (after the writes it would be too late: they fault the pages in
  // one by one).
  void populate_to(std::size_t n) {
    if (mapped_ && n * sizeof(T) > populated_bytes_) {
      populate(reinterpret_cast<char*>(data_), n * sizeof(T), detail::page_rounded(capacity_ * sizeof(T)));
    }
  }

  // Populates [populated_bytes_, needed + step) when `needed` bytes are
  // not all populated, within the mapping's `limit` bytes. The step grows
  // with what is populated (1 to 8 MiB). A kernel without
  // MADV_POPULATE_WRITE (before 5.14) refuses: the pages then fault in on
  // first touch, as they would in any vector.
  void populate(char* base, std::size_t needed, std::size_t limit) {
    if (needed <= populated_bytes_) return;
    const std::size_t step = std::clamp(populated_bytes_, detail::kRemapMinBytes, detail::kPopulateStepBytes);
    const std::size_t to = std::min(limit, detail::page_rounded(needed) + step);
    if (to > populated_bytes_) {
      (void)::madvise(base + populated_bytes_, to - populated_bytes_, MADV_POPULATE_WRITE);
      populated_bytes_ = to;
    }
  }

  void release() noexcept {
    if (mapped_) {
      ::munmap(data_, detail::page_rounded(capacity_ * sizeof(T)));
    } else {
      std::free(data_);
    }
    data_ = nullptr;
    size_ = capacity_ = populated_bytes_ = 0;
    mapped_ = false;
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
  std::size_t populated_bytes_ = 0;  // mapped: pages below this are populated
  bool mapped_ = false;
};

}  // namespace lakegc
