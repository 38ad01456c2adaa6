// File: lakegc/storage/storage.hpp
// -----------------------------------------------------------------------------
// The Storage concept: what lakegc needs from the place a table lives, and
// the plain types that cross it (FileEntry, FileInfo, ListOptions).
//
// Models shipped with lakegc:
//   * memory_storage (lakegc/storage/memory_storage.hpp): deterministic, for
//     the simulator and tests, with fault hooks;
//   * posix_storage  (lakegc/storage/posix_storage.hpp): a real directory tree.
// Users plug in an object store (S3, GCS, HDFS clients) by writing a class
// with the six members below; tests/static/storage_concept.cpp holds a
// minimal model and near-misses that must not satisfy the concept.
#pragma once

#include <concepts>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lakegc/core/status.hpp"

namespace lakegc {

/// One file met by Storage::list. `path` is relative to the storage root
/// with '/' separators (never to the listed directory), and is valid only
/// during the visitor call: listings are streamed, so an adapter may reuse
/// one buffer for every entry. Copy it if you keep it.
struct FileEntry {
  /// `size` of an entry listed without attributes (ListOptions::attributes).
  static constexpr std::uint64_t kUnknownSize = UINT64_MAX;
  /// `mtime_ms` of an entry listed without attributes.
  static constexpr std::int64_t kUnknownMtime = INT64_MIN;

  std::string_view path;
  std::uint64_t size;
  std::int64_t mtime_ms;  ///< Last modification, milliseconds since the Unix epoch.

  bool has_attributes() const noexcept { return size != kUnknownSize && mtime_ms != kUnknownMtime; }
};

/// What Storage::stat returns: an owning FileEntry.
struct FileInfo {
  std::string path;
  std::uint64_t size;
  std::int64_t mtime_ms;  ///< Last modification, milliseconds since the Unix epoch.

  friend bool operator==(const FileInfo&, const FileInfo&) = default;
};

/// How Storage::list walks.
struct ListOptions {
  /// Descend into subdirectories (depth first). When false, only the files
  /// directly in the listed directory are visited and `skip_dir` is unused.
  bool recursive = true;
  /// Called with a subdirectory's path (relative to the storage root, like
  /// FileEntry::path) before it is entered; returning true prunes it and
  /// everything below. Lets a scan skip `.hoodie` or `.hoodie/metadata`
  /// without paying to list them. Empty means "skip nothing".
  std::function<bool(std::string_view dir)> skip_dir;
  /// Whether the visitor needs each file's size and mtime. When false, an
  /// adapter that pays a call per file for them (POSIX: a stat after
  /// readdir, most of a listing's time) may report FileEntry::kUnknownSize
  /// and kUnknownMtime instead; one that has them anyway (an object store's
  /// listing carries them) reports them. A clean plan needs names only: the
  /// sizes of the files it deletes are asked for afterwards
  /// (plan/planned_sizes.hpp), a stat per planned file, not per file.
  bool attributes = true;
};

namespace detail {
/// The visitor the concept checks list() with. A real caller passes a
/// lambda (often generic); a requires-expression cannot quantify over every
/// callable, so it asks about this one concrete type instead: a model whose
/// list() accepts this accepts anything callable as `void(const FileEntry&)`
/// (a template parameter, std::function, a function_ref).
struct list_visitor_archetype {
  void operator()(const FileEntry&) const noexcept {}
};
}  // namespace detail

/** @concept ListableStorage
 *  A storage that can stream the files below a directory.
 *
 *  `s.list(dir, visit, options)` calls `visit(const FileEntry&)` once per
 *  file (never for a directory) below `dir` (`""` is the root) and returns
 *  OK, NotFound when `dir` does not exist, or another error. Entries come in
 *  *listing order*: a depth-first walk that visits each directory's entries
 *  (files and subdirectories interleaved) sorted by name in byte order
 *  (detail::listing_order).
 *
 *  Why a visitor and not a returned vector: a table holds millions of files;
 *  a planner folds them into compact per-partition state as they stream by,
 *  and the whole listing never exists in memory at once.
 *  Why a fixed order: plans must be byte-identical across runs and across
 *  adapters (the simulator checks memory_storage against the oracle with
 *  the same code that later runs on posix_storage); "whatever readdir gives"
 *  differs between file systems and runs.
 *  Why NotFound for a missing directory: "the partition is gone" and "the
 *  listing failed" call for opposite actions (skip vs. stop everything).
 */
template <typename S>
concept ListableStorage = requires(S& s, std::string_view dir, const ListOptions& options) {
  { s.list(dir, detail::list_visitor_archetype{}) } -> std::same_as<Status>;
  { s.list(dir, detail::list_visitor_archetype{}, options) } -> std::same_as<Status>;
};

/** @concept ReadableStorage
 *  A storage that can describe and read one file.
 *
 *  `s.stat(path)` gives the file's size and mtime; `s.read(path)` its whole
 *  content. Both return NotFound when no file is there.
 *
 *  Why stat is separate from list: the executor re-checks one file before
 *  deleting it (was it rewritten since planning?) without listing its
 *  partition. Why read returns a whole std::string: only timeline and
 *  metadata files (kilobytes to a few MB) are read; data files never are.
 */
template <typename S>
concept ReadableStorage = requires(S& s, std::string_view path) {
  { s.stat(path) } -> std::same_as<StatusOr<FileInfo>>;
  { s.read(path) } -> std::same_as<StatusOr<std::string>>;
};

/** @concept MutableStorage
 *  A storage that can create a file once and remove files.
 *
 *  Why create-if-absent (AlreadyExists when the file is there) rather than
 *  overwrite: timeline files are how concurrent writers and cleaners agree
 *  on what happened; two processes completing the same instant must not
 *  both succeed, and a reader must never see half a file. Every object store
 *  offers this (S3 `If-None-Match: *`, GCS `ifGenerationMatch=0`, HDFS
 *  create without overwrite, POSIX link(2)).
 *  Why remove reports NotFound instead of hiding it: retries make a missing
 *  file normal for the executor (success), but the orphan sweep wants to
 *  know that someone else removed it; the caller decides.
 *  Why remove_batch: object stores delete up to 1000 keys per request; one
 *  status per path (same order) so a partial failure is retried exactly.
 */
template <typename S>
concept MutableStorage =
    requires(S& s, std::string_view path, std::string_view bytes, std::span<const std::string> paths) {
      { s.write_if_absent(path, bytes) } -> std::same_as<Status>;
      { s.remove(path) } -> std::same_as<Status>;
      { s.remove_batch(paths) } -> std::same_as<std::vector<Status>>;
    };

/** @concept Storage
 *  Where a table's files live, seen through paths relative to a root.
 *
 *  **Definition.** `S` models Storage if an lvalue `s` of type `S` offers,
 *  for paths relative to its root:
 *
 *  1. `Status s.list(std::string_view dir, V&& visit, const ListOptions& = {})`
 *     for any `V` callable as `void(const FileEntry&)` (ListableStorage);
 *  2. `StatusOr<FileInfo> s.stat(std::string_view path)` (ReadableStorage);
 *  3. `StatusOr<std::string> s.read(std::string_view path)` (ReadableStorage);
 *  4. `Status s.write_if_absent(std::string_view path, std::string_view bytes)`
 *     (MutableStorage);
 *  5. `Status s.remove(std::string_view path)` (MutableStorage);
 *  6. `std::vector<Status> s.remove_batch(std::span<const std::string> paths)`
 *     (MutableStorage).
 *
 *  Return types are checked exactly (std::same_as), not for convertibility:
 *  a `stat` returning a bare FileInfo converts implicitly to
 *  StatusOr<FileInfo>, and would let a model that cannot say "not found"
 *  slip through. Everything is a member function called on a non-const
 *  lvalue: adapters keep connections, counters and fault hooks, so even a
 *  listing may mutate the adapter object (not the data).
 *
 *  **Minimal complete definition.** All six members. There are no defaults:
 *  an adapter that emulated remove_batch by looping would hide the one
 *  thing batch deletes are for.
 *
 *  **Optional.** `std::vector<StatusOr<FileInfo>> s.stat_batch(
 *  std::span<const std::string> paths)`: stat() of each path, in order.
 *  Used where present (the sizes of a plan's files,
 *  plan/planned_sizes.hpp); otherwise stat() is called per path.
 *
 *  **Path rules (every operation, every model).** A path that is absolute,
 *  has a `..` or `.` or empty component, or holds a NUL is refused with
 *  InvalidArgument naming it, and nothing is touched
 *  (detail::check_relative_path). `""` is valid only as list()'s directory
 *  (the root). Why: the executor deletes paths taken from table metadata,
 *  which an attacker or a bug may have written; the storage is the last
 *  place that can stop `../../home` from being deleted.
 *  An adapter over a real file system never follows a symbolic link:
 *  listings skip links, other operations refuse them.
 *
 *  **Errors.** NotFound (absl::IsNotFound) means exactly "nothing is there";
 *  every other failure uses another code, so callers can treat a missing
 *  file as success on remove and a missing partition as empty on list,
 *  without ever mistaking a failed call for either.
 *  Directories exist only as prefixes of file paths (object stores have no
 *  directories), and a directory is not a file: stat/read of a directory is
 *  FailedPrecondition; write_if_absent onto one is AlreadyExists; list of a
 *  file is FailedPrecondition; a path *under* a file is NotFound (and
 *  FailedPrecondition for write_if_absent). remove() of a non-empty
 *  directory is FailedPrecondition. Whether a directory whose last file was
 *  removed still exists is up to the model (posix_storage keeps it, empty,
 *  until it is removed; memory_storage and object stores drop it), so a
 *  caller must read NotFound from list() as "no files there".
 *
 *  **Laws** (tests/unit/storage/storage_laws_test.cpp checks them for every
 *  model). For valid paths `p`, `q` and bytes `b`, starting from a state
 *  where `p` is absent:
 *  - `write_if_absent(p, b)` is OK, then `read(p) == b` and `stat(p)->size
 *    == b.size()` (round trip); the file appears atomically: a reader sees
 *    either no file or all of `b`;
 *  - a second `write_if_absent(p, c)` is AlreadyExists and `read(p)` is
 *    still `b`;
 *  - `remove(p)` on an absent `p` is NotFound; after a successful
 *    `remove(p)`, `stat(p)` is NotFound;
 *  - `list(d, v)` calls `v` exactly once per file below `d`, in listing
 *    order, with the size and mtime `stat` reports; with `recursive =
 *    false` only files directly in `d`; a directory for which `skip_dir`
 *    returns true contributes nothing;
 *  - `remove_batch(ps)` returns `ps.size()` statuses, the i-th being what
 *    `remove(ps[i])` would have returned at that point;
 *  - a refused path changes nothing (no directory or file is created).
 *
 *  **Models.** memory_storage, posix_storage.
 *
 *  **Example.**
 *  @code{.cpp}
 *  template <lakegc::Storage S>
 *  lakegc::StatusOr<std::uint64_t> bytes_below(S& s, std::string_view dir) {
 *    std::uint64_t total = 0;
 *    LAKEGC_RETURN_IF_ERROR(s.list(dir, [&](const lakegc::FileEntry& e) { total += e.size; }));
 *    return total;
 *  }
 *  @endcode
 *
 *  @see ListableStorage, ReadableStorage, MutableStorage, FileEntry,
 *       ListOptions, detail::check_relative_path, the README's "Storage and journals".
 */
template <typename S>
concept Storage = ListableStorage<S> && ReadableStorage<S> && MutableStorage<S>;

}  // namespace lakegc
