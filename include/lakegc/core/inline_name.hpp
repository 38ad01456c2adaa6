// File: lakegc/core/inline_name.hpp
// -----------------------------------------------------------------------------
// A file name held in place: up to kInlineChars characters inside the object,
// a longer one on the heap. A Hudi data file name is 70 to 80 characters
// (`<uuid>-<n>_<token>_<instant>.parquet`, `.<uuid>-<n>_<instant>.log.<v>_<token>`),
// longer than any std::string keeps without allocating, and a clean plan
// holds one per file it deletes: a dense plan at 10M slices names 1.2M files.
// As std::strings those names were a heap block each, allocated while
// planning and freed with the plan, 44% of a dense plan's time and the
// malloc churn that dominated an incremental one (bench/README.md). Held in
// place they cost nothing but the vector they live in. It is a value type
// (copies own their characters), so a plan never points into the TableView
// it was planned from.
#pragma once

#include <algorithm>
#include <compare>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace lakegc {

class InlineName {
 public:
  /// Characters held without a heap block; sizeof(InlineName) is 96.
  static constexpr std::size_t kInlineChars = 84;

  InlineName() noexcept = default;
  // Implicit, as std::string's: names come as literals, views and strings.
  InlineName(std::string_view s) { assign(s); }                          // NOLINT(google-explicit-constructor)
  InlineName(const char* s) : InlineName(std::string_view(s)) {}         // NOLINT(google-explicit-constructor)
  InlineName(const std::string& s) : InlineName(std::string_view(s)) {}  // NOLINT(google-explicit-constructor)

  InlineName(const InlineName& o) { assign(o.view()); }
  InlineName(InlineName&& o) noexcept : size_(o.size_), heap_(std::move(o.heap_)) {
    if (!heap_) std::memcpy(inline_, o.inline_, size_);
    o.size_ = 0;
  }
  InlineName& operator=(const InlineName& o) {
    if (this != &o) assign(o.view());
    return *this;
  }
  InlineName& operator=(InlineName&& o) noexcept {
    if (this == &o) return *this;
    size_ = o.size_;
    heap_ = std::move(o.heap_);
    if (!heap_) std::memcpy(inline_, o.inline_, size_);
    o.size_ = 0;
    return *this;
  }
  ~InlineName() = default;

  [[nodiscard]] const char* data() const noexcept { return heap_ ? heap_.get() : inline_; }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  [[nodiscard]] std::string_view view() const noexcept { return {data(), size_}; }
  operator std::string_view() const noexcept { return view(); }  // NOLINT(google-explicit-constructor)
  [[nodiscard]] std::string str() const { return std::string(view()); }
  [[nodiscard]] bool starts_with(std::string_view prefix) const noexcept { return view().starts_with(prefix); }
  [[nodiscard]] bool ends_with(std::string_view suffix) const noexcept { return view().ends_with(suffix); }
  [[nodiscard]] std::size_t find(std::string_view what, std::size_t from = 0) const noexcept {
    return view().find(what, from);
  }
  [[nodiscard]] std::size_t find(char c, std::size_t from = 0) const noexcept { return view().find(c, from); }
  /// Whether the name needed a heap block (longer than kInlineChars).
  [[nodiscard]] bool on_heap() const noexcept { return heap_ != nullptr; }

  friend bool operator==(const InlineName& a, const InlineName& b) noexcept { return a.view() == b.view(); }
  friend std::strong_ordering operator<=>(const InlineName& a, const InlineName& b) noexcept {
    return a.view() <=> b.view();
  }
  // Against any text (a literal, a std::string, a view), as its text: a
  // template, so that the exact match wins over converting either side.
  template <typename Text>
    requires std::convertible_to<const Text&, std::string_view> && (!std::same_as<Text, InlineName>)
  friend bool operator==(const InlineName& a, const Text& b) noexcept {
    return a.view() == std::string_view(b);
  }
  template <typename Text>
    requires std::convertible_to<const Text&, std::string_view> && (!std::same_as<Text, InlineName>)
  friend std::strong_ordering operator<=>(const InlineName& a, const Text& b) noexcept {
    return a.view() <=> std::string_view(b);
  }

  template <typename H>
  friend H AbslHashValue(H h, const InlineName& n) {
    return H::combine(std::move(h), n.view());
  }

 private:
  void assign(std::string_view s) {
    if (s.size() <= kInlineChars) {
      heap_.reset();
      std::memcpy(inline_, s.data(), s.size());
    } else {
      heap_ = std::make_unique_for_overwrite<char[]>(s.size());
      std::memcpy(heap_.get(), s.data(), s.size());
    }
    size_ = static_cast<std::uint32_t>(s.size());
  }

  std::uint32_t size_ = 0;
  char inline_[kInlineChars];  // the first size_ characters, unless heap_
  std::unique_ptr<char[]> heap_;
};

static_assert(sizeof(InlineName) == 96);

}  // namespace lakegc

template <>
struct fmt::formatter<lakegc::InlineName> : fmt::formatter<std::string_view> {
  template <typename FormatContext>
  auto format(const lakegc::InlineName& n, FormatContext& ctx) const {
    return fmt::formatter<std::string_view>::format(n.view(), ctx);
  }
};
