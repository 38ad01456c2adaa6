// File: lakegc/storage/memory_storage.hpp
// -----------------------------------------------------------------------------
// memory_storage: a deterministic in-memory Storage for the simulator and for
// tests, with an injected clock and small fault hooks.
//
// * Deterministic: files sit in a std::map ordered by detail::listing_order,
//   so a listing is a plain in-order walk and comes out exactly as
//   posix_storage lists the same tree. Nothing is ever taken from a hash
//   map, the wall clock or an address.
// * Directories are implicit, as in an object store: a directory exists iff
//   some file's path starts with `dir/`. There are no empty directories, so
//   removing a directory's last file removes the directory, and remove() of
//   a directory path (always non-empty here) is FailedPrecondition, exactly
//   as posix_storage answers for a non-empty directory.
// * A file holds either bytes (write_if_absent: timeline and metadata files)
//   or only a declared size (put_sized: simulated data files whose content
//   never matters and would cost real memory).
// * mtimes come from the clock passed to the constructor, read once per
//   successful write; the default clock is a counter 0, 1, 2, ...
//
// Fault hooks (each is consumed by the call it affects):
//   fail_next(op, status)     the next call of kind `op` returns `status` and
//                             does nothing;
//   truncate_next_listing(n)  the next listing visits only its first n files
//                             and returns OK (a silently short listing, as
//                             eventually consistent object stores give);
//   empty_next_listing()      truncate_next_listing(0);
//   crash_after_mutations(n)  after n more successful mutations every call
//                             fails with Aborted("simulated crash") until
//                             recover(); the files stay as they were.
//   disarm([op])              drops armed failures (of one kind) and a
//                             pending truncation that no call consumed.
// Per-kind call counters (calls(op)) let tests check what an algorithm did.
// Inspection helpers (for_each_file, file_count, total_bytes, set_mtime) are
// outside the fault model: they never fail, never count, and work while
// crashed, so an oracle can look at the state a crash left behind.
//
// Not thread-safe: the simulator is single-threaded by design (determinism);
// concurrency there is interleaving of actors, not threads.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lakegc/core/status.hpp"
#include "lakegc/storage/path.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc {

/// The kinds of Storage call that memory_storage counts and can fail.
/// `write` covers write_if_absent and put_sized; `remove` counts each path
/// of a remove_batch as one call.
enum class storage_op : std::uint8_t { list, stat, read, write, remove };
inline constexpr std::size_t storage_op_count = 5;

class memory_storage {
 public:
  /// Returns "now" in milliseconds since the Unix epoch.
  using clock_fn = std::function<std::int64_t()>;

  /// `now_ms` stamps each written file; empty means a counter starting at 0
  /// (each successful write takes the next value).
  explicit memory_storage(clock_fn now_ms = {}) : now_ms_(std::move(now_ms)) {}

  // --- Storage ---------------------------------------------------------------

  /// Visits the files below `dir` in listing order (see Storage).
  /// The visitor may call back into this storage (e.g. remove the file it
  /// was given); the walk continues after the current path.
  template <typename Visitor>
  [[nodiscard]] Status list(std::string_view dir, Visitor&& visit, const ListOptions& options = {}) {
    LAKEGC_RETURN_IF_ERROR(begin(storage_op::list));
    LAKEGC_RETURN_IF_ERROR(detail::check_relative_path(dir, "list", /*allow_root=*/true));
    if (!dir.empty()) {
      if (files_.contains(dir)) return not_a_directory("list", dir);
      if (!is_dir(dir)) return missing("list", dir, "no such directory");
    }
    std::optional<std::size_t> limit = std::exchange(truncate_next_, std::nullopt);

    const std::string prefix = dir.empty() ? std::string() : std::string(dir) + '/';
    // `cur` owns the path handed to the visitor, and `entered` the deepest
    // directory whose skip_dir was asked and said no: the visitor may erase
    // map nodes, so neither may point into the map.
    std::string cur;
    std::string entered(dir);
    std::size_t visited = 0;
    auto it = files_.lower_bound(prefix);
    while (it != files_.end() && it->first.starts_with(prefix)) {
      const std::string_view path = it->first;
      const std::string_view parent = detail::split_parent(path).first;
      if (parent.size() > dir.size()) {
        // In a subdirectory. Find the first level below `dir` not yet entered;
        // in listing order every deeper level is then new as well.
        std::size_t end = dir.empty() ? 0 : dir.size() + 1;
        std::optional<std::string> pruned;
        while (end <= parent.size()) {
          end = parent.find('/', end);
          if (end == std::string_view::npos) end = parent.size();
          const std::string_view level = parent.substr(0, end);
          const bool already = entered == level || (entered.size() > level.size() && entered.starts_with(level) &&
                                                    entered[level.size()] == '/');
          if (!already) {
            if (!options.recursive || (options.skip_dir && options.skip_dir(level))) {
              pruned = std::string(level);
              break;
            }
            entered = level;
          }
          ++end;
        }
        if (pruned) {
          it = past_subtree(*pruned);
          continue;
        }
      } else {
        entered = dir;
      }
      if (limit && visited == *limit) break;
      cur.assign(path);
      const object& o = it->second;
      const std::uint64_t erasures_before = erasures_;
      visit(FileEntry{cur, o.size, o.mtime_ms});
      ++visited;
      // A std::map iterator survives insertions, so only an erasure by the
      // visitor forces the search (the simulator lists on every step, and
      // the search was a fifth of its time).
      if (erasures_ == erasures_before) {
        ++it;
      } else {
        it = files_.upper_bound(cur);
      }
    }
    return Status();
  }

  [[nodiscard]] StatusOr<FileInfo> stat(std::string_view path) {
    LAKEGC_RETURN_IF_ERROR(begin(storage_op::stat));
    LAKEGC_RETURN_IF_ERROR(detail::check_relative_path(path, "stat"));
    const auto it = files_.find(path);
    if (it == files_.end()) return absent("stat", path);
    return FileInfo{it->first, it->second.size, it->second.mtime_ms};
  }

  /// The bytes written by write_if_absent. A file made by put_sized has no
  /// content to give: FailedPrecondition.
  [[nodiscard]] StatusOr<std::string> read(std::string_view path) {
    LAKEGC_RETURN_IF_ERROR(begin(storage_op::read));
    LAKEGC_RETURN_IF_ERROR(detail::check_relative_path(path, "read"));
    const auto it = files_.find(path);
    if (it == files_.end()) return absent("read", path);
    if (!it->second.bytes) {
      return absl::FailedPreconditionError("read " + detail::quote_path(path) +
                                           ": file has only a declared size (put_sized), no content");
    }
    return *it->second.bytes;
  }

  [[nodiscard]] Status write_if_absent(std::string_view path, std::string_view bytes) {
    return create("write_if_absent", path, std::string(bytes), bytes.size());
  }

  [[nodiscard]] Status remove(std::string_view path) { return remove_one(path); }

  std::vector<Status> remove_batch(std::span<const std::string> paths) {
    std::vector<Status> out;
    out.reserve(paths.size());
    for (const std::string& p : paths) out.push_back(remove_one(p));
    return out;
  }

  // --- Simulation ------------------------------------------------------------

  /// Creates a file of `size` bytes whose content is never stored (a
  /// simulated data file). Counts, fails and crashes as a `write`; same
  /// create-if-absent rules as write_if_absent.
  [[nodiscard]] Status put_sized(std::string_view path, std::uint64_t size) {
    return create("put_sized", path, std::nullopt, size);
  }

  /// Sets a file's mtime (tests: "this file is 8 days old"). NotFound if
  /// absent. Not a Storage call: never counted or failed.
  [[nodiscard]] Status set_mtime(std::string_view path, std::int64_t mtime_ms) {
    LAKEGC_RETURN_IF_ERROR(detail::check_relative_path(path, "set_mtime"));
    const auto it = files_.find(path);
    if (it == files_.end()) return missing("set_mtime", path, "no such file");
    it->second.mtime_ms = mtime_ms;
    return Status();
  }

  // --- Fault hooks -----------------------------------------------------------

  /// The next call of kind `op` returns `status` and does nothing. Calls
  /// queue up: arming twice fails the next two calls. An OK `status` is
  /// ignored (it would make stat/read return an OK StatusOr with no value).
  void fail_next(storage_op op, Status status) {
    if (!status.ok()) armed_[index(op)].push_back(std::move(status));
  }

  /// The next listing that gets as far as walking visits only its first `n`
  /// files, then returns OK. A listing refused earlier (bad path, missing
  /// directory, injected failure) leaves it armed.
  void truncate_next_listing(std::size_t n) { truncate_next_ = n; }
  void empty_next_listing() { truncate_next_ = 0; }

  /// After `n` more successful mutations (writes, put_sized, removes; each
  /// path of a batch counts) every call fails with Aborted("simulated
  /// crash") until recover(). `n == 0` crashes at once.
  void crash_after_mutations(std::size_t n) {
    if (n == 0) {
      crashed_ = true;
      mutations_left_.reset();
    } else {
      mutations_left_ = n;
    }
  }

  /// Ends a simulated crash (or disarms a pending one). Files, queued
  /// fail_next statuses and counters are kept.
  void recover() {
    crashed_ = false;
    mutations_left_.reset();
  }

  /// Drops every fault armed and not yet consumed: queued fail_next
  /// statuses of kind `op`, or (without `op`) of every kind and a pending
  /// truncate_next_listing. A crash is ended by recover(). Files and
  /// counters are kept; nothing is counted as a call.
  void disarm(storage_op op) { armed_[index(op)].clear(); }
  void disarm() {
    for (auto& queue : armed_) queue.clear();
    truncate_next_.reset();
  }

  bool crashed() const noexcept { return crashed_; }

  /// Calls of kind `op` so far, including failed and refused ones.
  std::uint64_t calls(storage_op op) const noexcept { return calls_[index(op)]; }

  // --- Inspection (never counted, never failed) -------------------------------

  std::size_t file_count() const noexcept { return files_.size(); }
  /// Files created and removed so far. Something derived from the files
  /// (the simulator oracle's view builder) is current while this is
  /// unchanged, and knows it missed a change when it moved further than
  /// the changes it was told of.
  std::uint64_t changes() const noexcept { return changes_; }
  std::uint64_t total_bytes() const noexcept { return total_bytes_; }

  /// Calls `f(const FileEntry&)` for every file, in listing order.
  template <typename F>
  void for_each_file(F&& f) const {
    for (const auto& [path, o] : files_) f(FileEntry{path, o.size, o.mtime_ms});
  }

 private:
  struct object {
    std::optional<std::string> bytes;  // nullopt: put_sized, size only
    std::uint64_t size;
    std::int64_t mtime_ms;
  };
  using file_map = std::map<std::string, object, detail::listing_order>;

  static constexpr std::size_t index(storage_op op) noexcept { return static_cast<std::size_t>(op); }

  // Every Storage call starts here: count it, then a crash or an armed
  // failure preempts it.
  [[nodiscard]] Status begin(storage_op op) {
    ++calls_[index(op)];
    if (crashed_) return absl::AbortedError("simulated crash");
    auto& queue = armed_[index(op)];
    if (!queue.empty()) {
      Status s = std::move(queue.front());
      queue.pop_front();
      return s;
    }
    return Status();
  }

  void mutated() {
    ++changes_;
    if (mutations_left_ && --*mutations_left_ == 0) {
      mutations_left_.reset();
      crashed_ = true;
    }
  }

  std::int64_t now() { return now_ms_ ? now_ms_() : counter_++; }

  // True iff some file lies below `dir` (non-empty).
  bool is_dir(std::string_view dir) const {
    const std::string prefix = std::string(dir) + '/';
    const auto it = files_.lower_bound(prefix);
    return it != files_.end() && it->first.starts_with(prefix);
  }

  // The first proper prefix of `path` that is a file, if any.
  std::optional<std::string_view> file_ancestor(std::string_view path) const {
    for (std::size_t slash = path.find('/'); slash != std::string_view::npos; slash = path.find('/', slash + 1)) {
      if (files_.contains(path.substr(0, slash))) return path.substr(0, slash);
    }
    return std::nullopt;
  }

  // First key after every path below `dir`: in listing order '/' ranks
  // lowest and '\0' next, and no stored path holds a NUL, so `dir + '\0'`
  // sorts after the whole subtree and before everything that follows it.
  file_map::iterator past_subtree(const std::string& dir) { return files_.lower_bound(dir + '\0'); }

  [[nodiscard]] static Status missing(std::string_view op, std::string_view path, std::string_view what) {
    return absl::NotFoundError(std::string(op) + " " + detail::quote_path(path) + ": " + std::string(what));
  }
  [[nodiscard]] static Status not_a_directory(std::string_view op, std::string_view path) {
    return absl::FailedPreconditionError(std::string(op) + " " + detail::quote_path(path) +
                                         ": is a file, not a directory");
  }
  // stat/read/remove of a path that is not a file: a directory, or nothing.
  [[nodiscard]] Status absent(std::string_view op, std::string_view path) const {
    if (is_dir(path)) {
      return absl::FailedPreconditionError(std::string(op) + " " + detail::quote_path(path) +
                                           (op == "remove" ? ": directory not empty" : ": is a directory, not a file"));
    }
    return missing(op, path, "no such file");
  }

  [[nodiscard]] Status create(std::string_view op, std::string_view path, std::optional<std::string> bytes,
                              std::uint64_t size) {
    LAKEGC_RETURN_IF_ERROR(begin(storage_op::write));
    LAKEGC_RETURN_IF_ERROR(detail::check_relative_path(path, op));
    if (files_.contains(path) || is_dir(path)) {
      return absl::AlreadyExistsError(std::string(op) + " " + detail::quote_path(path) + ": already exists");
    }
    if (const auto file = file_ancestor(path)) {
      return absl::FailedPreconditionError(std::string(op) + " " + detail::quote_path(path) + ": " +
                                           detail::quote_path(*file) + " is a file, not a directory");
    }
    files_.emplace(std::string(path), object{std::move(bytes), size, now()});
    total_bytes_ += size;
    mutated();
    return Status();
  }

  [[nodiscard]] Status remove_one(std::string_view path) {
    LAKEGC_RETURN_IF_ERROR(begin(storage_op::remove));
    LAKEGC_RETURN_IF_ERROR(detail::check_relative_path(path, "remove"));
    const auto it = files_.find(path);
    if (it == files_.end()) return absent("remove", path);
    total_bytes_ -= it->second.size;
    files_.erase(it);
    ++erasures_;
    mutated();
    return Status();
  }

  file_map files_;
  std::uint64_t erasures_ = 0;  // files erased so far: list() re-seeks after one
  std::uint64_t changes_ = 0;   // files created and removed so far: changes()
  clock_fn now_ms_;
  std::int64_t counter_ = 0;
  std::uint64_t total_bytes_ = 0;
  std::array<std::deque<Status>, storage_op_count> armed_;
  std::array<std::uint64_t, storage_op_count> calls_{};
  std::optional<std::size_t> truncate_next_;
  std::optional<std::size_t> mutations_left_;
  bool crashed_ = false;
};

static_assert(Storage<memory_storage>, "memory_storage must model lakegc::Storage");

}  // namespace lakegc
