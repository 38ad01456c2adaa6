// File: lakegc/storage/crash_storage.hpp
// -----------------------------------------------------------------------------
// A Storage that forwards to another and, after its N-th mutating call
// (each write, each remove, each path of a batch remove), calls a crash
// hook: the tool's hook ends the process on the spot, as a kill -9 or a
// lost machine would. Crash tests run a command with N = 1, 2, ... until it
// completes, rerun it without the fault, and compare the table with an
// uninterrupted run's: every state a crash can leave must be one the next
// run finishes.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lakegc/storage/storage.hpp"

namespace lakegc {

template <Storage S>
class crash_storage {
 public:
  /// Without a budget it only forwards.
  crash_storage(S& inner, std::optional<std::uint64_t> crash_after_mutations, std::function<void()> crash)
      : inner_(&inner), budget_(crash_after_mutations), crash_(std::move(crash)) {}

  template <typename Visitor>
  [[nodiscard]] Status list(std::string_view dir, Visitor&& visit, const ListOptions& options = {}) {
    return inner_->list(dir, std::forward<Visitor>(visit), options);
  }
  [[nodiscard]] StatusOr<FileInfo> stat(std::string_view path) { return inner_->stat(path); }
  [[nodiscard]] StatusOr<std::string> read(std::string_view path) { return inner_->read(path); }
  /// Forwarded when the inner storage has it, so a clean run through this
  /// decorator stats its planned files as fast as one without it. Stats are
  /// not mutations: they never spend the crash budget.
  std::vector<StatusOr<FileInfo>> stat_batch(std::span<const std::string> paths)
    requires requires(S& s) { s.stat_batch(paths); }
  {
    return inner_->stat_batch(paths);
  }

  [[nodiscard]] Status write_if_absent(std::string_view path, std::string_view bytes) {
    Status st = inner_->write_if_absent(path, bytes);
    mutated();
    return st;
  }
  [[nodiscard]] Status remove(std::string_view path) {
    Status st = inner_->remove(path);
    mutated();
    return st;
  }
  std::vector<Status> remove_batch(std::span<const std::string> paths) {
    // One call per path, so a crash can fall between two files of a batch.
    std::vector<Status> out;
    out.reserve(paths.size());
    for (const std::string& p : paths) out.push_back(remove(p));
    return out;
  }

  std::uint64_t mutations() const noexcept { return mutations_; }

 private:
  void mutated() {
    ++mutations_;
    if (budget_ && mutations_ >= *budget_ && crash_) crash_();
  }

  S* inner_;
  std::optional<std::uint64_t> budget_;
  std::function<void()> crash_;
  std::uint64_t mutations_ = 0;
};

}  // namespace lakegc
