// File: lakegc/core/prefaulted.hpp
// -----------------------------------------------------------------------------
// Memory for the few structures that grow to gigabytes on large tables (the
// orphan sweep's referenced-path tables, listed files and names), mapped
// with its pages populated in one call instead of one page fault per 4 KiB
// on first touch, in 2 MiB pages where the kernel gives them on request.
//
// Why: under a hypervisor a page fault is expensive. On the project's
// machines touching 1 GiB page by page took 2.7 s, mapping it with
// MAP_POPULATE 0.13 s (bench/README.md, orphan sweep). Blocks under
// kPrefaultMinBytes come from operator new as usual, and containers start
// with small chunks, so small tables (the simulator's, the tests') pay
// nothing for this.
//
// Populated pages are resident at once: only blocks that are filled soon
// after they are allocated belong here (a hash table reserved to its final
// size, chunks that are appended to until full).
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <new>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace lakegc {

namespace detail {

/// Blocks at least this large are mapped populated.
inline constexpr std::size_t kPrefaultMinBytes = std::size_t{1} << 20;

inline void* allocate_prefaulted(std::size_t bytes) {
  if (bytes < kPrefaultMinBytes) return ::operator new(bytes);
  // Mapped first and populated after: MAP_POPULATE would fault the pages in
  // before MADV_HUGEPAGE could ask for 2 MiB ones (where the kernel's THP
  // mode is "madvise"; RemapVector asks the same, core/remap_vector.hpp).
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  (void)::madvise(p, bytes, MADV_HUGEPAGE);
  // A kernel without MADV_POPULATE_WRITE (before 5.14) refuses it: the
  // pages are then populated as MAP_POPULATE would have, by touching them.
  if (::madvise(p, bytes, MADV_POPULATE_WRITE) != 0) {
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    for (std::size_t at = 0; at < bytes; at += page) static_cast<volatile char*>(p)[at] = 0;
  }
  return p;
}

inline void free_prefaulted(void* p, std::size_t bytes) noexcept {
  if (p == nullptr) return;
  if (bytes < kPrefaultMinBytes) {
    ::operator delete(p);
  } else {
    ::munmap(p, bytes);
  }
}

/// One block from allocate_prefaulted, freed with it.
class PrefaultedBlock {
 public:
  explicit PrefaultedBlock(std::size_t bytes) : data_(allocate_prefaulted(bytes)), bytes_(bytes) {}
  PrefaultedBlock(PrefaultedBlock&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
  PrefaultedBlock& operator=(PrefaultedBlock&& o) noexcept {
    if (this != &o) {
      free_prefaulted(data_, bytes_);
      data_ = std::exchange(o.data_, nullptr);
      bytes_ = std::exchange(o.bytes_, 0);
    }
    return *this;
  }
  PrefaultedBlock(const PrefaultedBlock&) = delete;
  PrefaultedBlock& operator=(const PrefaultedBlock&) = delete;
  ~PrefaultedBlock() { free_prefaulted(data_, bytes_); }

  char* data() const noexcept { return static_cast<char*>(data_); }
  std::size_t size() const noexcept { return bytes_; }

 private:
  void* data_;
  std::size_t bytes_;
};

/// The size of the next chunk of a container that has `allocated` bytes
/// and needs `at_least` more: it doubles from 64 KiB to 8 MiB, so a small
/// container stays small and a large one maps its pages 8 MiB at a time.
inline std::size_t next_chunk_bytes(std::size_t allocated, std::size_t at_least) {
  constexpr std::size_t kFirst = std::size_t{64} << 10, kLargest = std::size_t{8} << 20;
  return std::max(at_least, std::clamp(allocated, kFirst, kLargest));
}

}  // namespace detail

/// An allocator for containers allocated once at their final size (a hash
/// table after reserve()).
template <class T>
struct PrefaultedAllocator {
  using value_type = T;
  PrefaultedAllocator() = default;
  template <class U>
  PrefaultedAllocator(const PrefaultedAllocator<U>&) noexcept {}  // NOLINT(google-explicit-constructor): rebinding
  T* allocate(std::size_t n) { return static_cast<T*>(detail::allocate_prefaulted(n * sizeof(T))); }
  void deallocate(T* p, std::size_t n) noexcept { detail::free_prefaulted(p, n * sizeof(T)); }
  template <class U>
  friend bool operator==(const PrefaultedAllocator&, const PrefaultedAllocator<U>&) noexcept {
    return true;
  }
};

/// Append-only storage of trivially copyable values in chunks: addresses
/// stay valid as it grows, and growing copies nothing (no vector doubling,
/// whose old and new blocks are both resident for a moment).
template <class T>
class ChunkedList {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

 public:
  T& push_back(const T& v) {
    if (chunks_.empty() || counts_.back() == chunks_.back().size() / sizeof(T)) {
      chunks_.emplace_back(detail::next_chunk_bytes(allocated_, sizeof(T)));
      allocated_ += chunks_.back().size();
      counts_.push_back(0);
    }
    T* slot = reinterpret_cast<T*>(chunks_.back().data()) + counts_.back()++;
    std::memcpy(static_cast<void*>(slot), &v, sizeof(T));
    ++size_;
    return *slot;
  }

  std::size_t size() const noexcept { return size_; }

  /// Calls f(const T&) for every value, in the order they were added.
  template <class F>
  void for_each(F&& f) const {
    for (std::size_t c = 0; c < chunks_.size(); ++c) {
      const T* values = reinterpret_cast<const T*>(chunks_[c].data());
      for (std::size_t i = 0; i < counts_[c]; ++i) f(values[i]);
    }
  }

 private:
  std::vector<detail::PrefaultedBlock> chunks_;
  std::vector<std::size_t> counts_;  // values in each chunk
  std::size_t allocated_ = 0, size_ = 0;
};

/// Strings copied into chunks: views into it stay valid as it grows.
class TextArena {
 public:
  TextArena() = default;
  // A moved-from arena starts over: it must not keep writing into the
  // chunk it gave away.
  TextArena(TextArena&& o) noexcept
      : chunks_(std::move(o.chunks_)),
        next_(std::exchange(o.next_, nullptr)),
        allocated_(std::exchange(o.allocated_, 0)),
        left_(std::exchange(o.left_, 0)) {}
  TextArena& operator=(TextArena&& o) noexcept {
    if (this != &o) {
      chunks_ = std::move(o.chunks_);
      next_ = std::exchange(o.next_, nullptr);
      allocated_ = std::exchange(o.allocated_, 0);
      left_ = std::exchange(o.left_, 0);
    }
    return *this;
  }
  TextArena(const TextArena&) = delete;
  TextArena& operator=(const TextArena&) = delete;
  ~TextArena() = default;

  std::string_view copy(std::string_view s) {
    if (s.size() > left_) {
      chunks_.emplace_back(detail::next_chunk_bytes(allocated_, s.size()));
      allocated_ += chunks_.back().size();
      next_ = chunks_.back().data();
      left_ = chunks_.back().size();
    }
    if (!s.empty()) std::memcpy(next_, s.data(), s.size());
    const std::string_view out(next_, s.size());
    next_ += s.size();
    left_ -= s.size();
    return out;
  }

 private:
  std::vector<detail::PrefaultedBlock> chunks_;
  char* next_ = nullptr;
  std::size_t allocated_ = 0, left_ = 0;
};

}  // namespace lakegc
