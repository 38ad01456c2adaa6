// File: lakegc/core/shared_text.hpp
// -----------------------------------------------------------------------------
// Text that views into it may outlive the holder's copies: append-only
// chunks, each owned through a shared_ptr, and other owners' text held
// alive beside them. A plan's file names are views of it (PlannedFiles):
// names the plan was given are copied into its chunks, names planned from
// a TableView stay in the view's text, which the plan holds.
//
// A copy shares every chunk written so far (the views it copies stay
// valid whichever copy goes first) and writes into chunks of its own
// from then on, so two copies never write to the same chunk.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

namespace lakegc {

class SharedText {
 public:
  /// Bytes of a chunk; a longer text gets a chunk of its own size.
  static constexpr std::size_t kChunkBytes = std::size_t{64} << 10;

  SharedText() = default;
  SharedText(const SharedText& o) : chunks_(o.chunks_), held_(o.held_) {}
  SharedText(SharedText&& o) noexcept
      : chunks_(std::move(o.chunks_)),
        held_(std::move(o.held_)),
        cursor_(std::exchange(o.cursor_, nullptr)),
        end_(std::exchange(o.end_, nullptr)) {}
  SharedText& operator=(const SharedText& o) {
    if (this != &o) {
      chunks_ = o.chunks_;
      held_ = o.held_;
      cursor_ = end_ = nullptr;
    }
    return *this;
  }
  SharedText& operator=(SharedText&& o) noexcept {
    if (this != &o) {
      chunks_ = std::move(o.chunks_);
      held_ = std::move(o.held_);
      cursor_ = std::exchange(o.cursor_, nullptr);
      end_ = std::exchange(o.end_, nullptr);
    }
    return *this;
  }
  ~SharedText() = default;

  /// A copy of `s` that lives as long as this or any copy of it.
  std::string_view keep(std::string_view s) {
    if (s.empty()) return {};
    if (static_cast<std::size_t>(end_ - cursor_) < s.size()) new_chunk(s.size());
    char* at = cursor_;
    std::memcpy(at, s.data(), s.size());
    cursor_ += s.size();
    return {at, s.size()};
  }

  /// Keeps `owner` (whatever it is) alive as long as this or any copy of
  /// it: views of text it owns may then be held without a copy. Holding
  /// the same owner again adds nothing.
  void hold(std::shared_ptr<const void> owner) {
    if (owner == nullptr) return;
    if (std::find(held_.begin(), held_.end(), owner) != held_.end()) return;
    held_.push_back(std::move(owner));
  }

  /// Shares everything `o` keeps alive (its chunks and what it holds), so
  /// views of `o`'s text may be held here without a copy.
  void share(const SharedText& o) {
    chunks_.insert(chunks_.end(), o.chunks_.begin(), o.chunks_.end());
    for (const auto& owner : o.held_) hold(owner);
  }

  void clear() noexcept {
    chunks_.clear();
    held_.clear();
    cursor_ = end_ = nullptr;
  }

 private:
  void new_chunk(std::size_t at_least) {
    const std::size_t n = std::max(kChunkBytes, at_least);
    // Not make_shared<char[]>(n): that zeroes every byte before the copy.
    std::shared_ptr<char[]> chunk(new char[n]);
    cursor_ = chunk.get();
    end_ = cursor_ + n;
    chunks_.push_back(std::move(chunk));
  }

  std::vector<std::shared_ptr<const char[]>> chunks_;
  std::vector<std::shared_ptr<const void>> held_;
  // Where the next text goes: the free end of this holder's own chunk.
  char* cursor_ = nullptr;
  char* end_ = nullptr;
};

}  // namespace lakegc
