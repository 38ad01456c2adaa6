// File: lakegc/storage/posix_storage.hpp
// -----------------------------------------------------------------------------
// posix_storage: a Storage over a real directory tree (a local disk, or a
// mounted NFS/FUSE view of a lake).
//
// Confinement. The root is opened once (O_DIRECTORY) and every operation
// starts from that descriptor: each directory component is opened with
// openat(O_NOFOLLOW | O_DIRECTORY) and each final file with O_NOFOLLOW, so
// neither a `..` (refused up front by detail::check_relative_path) nor a
// symbolic link anywhere on the path can lead outside the root, even if the
// tree changes between two calls. read() first asks the kernel for the same
// guarantee in one openat2 call (storage/open_beneath.hpp) and walks the
// components only when that fails. Symbolic links are never followed:
//   * list() skips them (a link is neither a file nor a directory of the
//     table), as it skips sockets, FIFOs and devices: only regular files
//     are listed;
//   * stat/read/write_if_absent/remove of a path through or at a link fail
//     with FailedPrecondition naming the path and the link.
// The root path itself is resolved normally by open() (it is the caller's
// choice, and may well be a symlink such as /tmp on some systems).
//
// Atomic create. write_if_absent writes a temporary file
// (`.lakegc-tmp-<pid>-<n>`) in the target directory, fsyncs it, link()s it to
// the final name (EEXIST -> AlreadyExists) and unlinks the temporary: a
// reader sees no file or the whole file, and two racing writers cannot both
// succeed. A concurrent listing may see the temporary; a crash may leave one
// behind (the orphan sweep only removes names matching the data-file
// grammar, which these never do). Needs a file system with hard links.
//
// Determinism. Each directory's entries are read in full, sorted by name in
// byte order and visited depth first: the same order memory_storage gives.
// A directory's names are held while it is walked (never the whole table).
// Entries that vanish between readdir and stat (a concurrent delete) are
// skipped, not reported as errors.
//
// Attributes. A listing with ListOptions::attributes = false makes no stat
// for an entry readdir types as a regular file (ext4, xfs, btrfs, tmpfs all
// do) and reports its size and mtime unknown; directories, and entries of
// unknown type, are still stat'ed. Either way it visits the same files in
// the same order.
//
// remove() of an empty directory removes it (a cleaner dropping an emptied
// partition); of a non-empty one is FailedPrecondition.
//
// Hadoop checksums. Hadoop's local file system (what Hudi writes through on
// a local disk) keeps a checksum `.<name>.crc` beside every file and checks
// each read of `<name>` against it. As Hadoop's own delete does, remove()
// of a file deletes its checksum first, then the file: a leftover checksum
// is garbage no sweep would ever take, and if the name is written again (a
// metadata-table log version reused after a rollback) Hudi's read of the new
// file fails with a ChecksumException. For the same reason write_if_absent
// deletes a stale checksum of a name that does not exist before creating it.
// lakegc writes no checksums: Hadoop reads a file without one unchecked.
//
// Threads. Every call works on descriptors of its own (the root descriptor
// is only read), so one posix_storage may serve calls from many threads.
#pragma once

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lakegc/core/status.hpp"
#include "lakegc/storage/open_beneath.hpp"
#include "lakegc/storage/path.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc {

namespace detail {

/// Owns one file descriptor; closes it on destruction. Move-only.
class unique_fd {
 public:
  unique_fd() noexcept = default;
  explicit unique_fd(int fd) noexcept : fd_(fd) {}
  unique_fd(unique_fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  unique_fd& operator=(unique_fd&& other) noexcept {
    if (this != &other) {
      reset();
      fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
  }
  unique_fd(const unique_fd&) = delete;
  unique_fd& operator=(const unique_fd&) = delete;
  ~unique_fd() { reset(); }

  int get() const noexcept { return fd_; }
  explicit operator bool() const noexcept { return fd_ >= 0; }
  int release() noexcept { return std::exchange(fd_, -1); }
  void reset() noexcept {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

struct dir_closer {
  void operator()(DIR* d) const noexcept { ::closedir(d); }
};

inline std::int64_t mtime_ms_of(const struct ::stat& st) noexcept {
  // tv_nsec is in [0, 1e9), so this floors for pre-1970 times as well.
  return static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1'000'000;
}

}  // namespace detail

class posix_storage {
 public:
  /// Opens the directory `root` (following symlinks in `root` itself).
  /// Errors name the root: NotFound if missing, FailedPrecondition if it
  /// is not a directory, InvalidArgument if empty or holding a NUL.
  [[nodiscard]] static StatusOr<posix_storage> open(std::string root) {
    if (root.empty() || root.find('\0') != std::string::npos) {
      return absl::InvalidArgumentError("posix_storage: invalid root " + detail::quote_path(root));
    }
    const int fd = ::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
      const int err = errno;
      return absl::ErrnoToStatus(
          err, detail::to_absl("posix_storage: cannot open root directory " + detail::quote_path(root)));
    }
    return posix_storage(detail::unique_fd(fd), std::move(root));
  }

  posix_storage(posix_storage&&) noexcept = default;
  posix_storage& operator=(posix_storage&&) noexcept = default;

  /// The root as given to open().
  const std::string& root() const noexcept { return root_path_; }

  // --- Storage ---------------------------------------------------------------

  template <typename Visitor>
  [[nodiscard]] Status list(std::string_view dir, Visitor&& visit, const ListOptions& options = {}) {
    LAKEGC_RETURN_IF_ERROR(detail::check_relative_path(dir, "list", /*allow_root=*/true));
    LAKEGC_ASSIGN_OR_RETURN(detail::unique_fd fd, open_dir("list", dir, dir, walk::list));
    std::string path(dir);
    return list_dir(std::move(fd), path, visit, options);
  }

  [[nodiscard]] StatusOr<FileInfo> stat(std::string_view path) {
    LAKEGC_RETURN_IF_ERROR(detail::check_relative_path(path, "stat"));
    const auto [parent, name] = detail::split_parent(path);
    LAKEGC_ASSIGN_OR_RETURN(const detail::unique_fd dir, open_dir("stat", path, parent, walk::lookup));
    return stat_at(dir_fd(dir), path, std::string(name));
  }

  /// stat() of each path, in order. Consecutive paths in the same directory
  /// share one walk to it: a plan's sizes (plan/planned_sizes.hpp) cost one
  /// fstatat per file instead of an openat, fstatat and close.
  std::vector<StatusOr<FileInfo>> stat_batch(std::span<const std::string> paths) {
    return batch<StatusOr<FileInfo>>("stat", paths, [this](int dfd, std::string_view path, const std::string& name) {
      return stat_at(dfd, path, name);
    });
  }

  [[nodiscard]] StatusOr<std::string> read(std::string_view path) {
    LAKEGC_RETURN_IF_ERROR(detail::check_relative_path(path, "read"));
    // O_NONBLOCK: opening a FIFO must not hang; it is refused just below.
    constexpr int flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY;
    detail::unique_fd fd(detail::open_beneath(root_.get(), std::string(path), flags));
    if (!fd) {
      // The component walk: slower, and the one that words errors.
      const auto [parent, name] = detail::split_parent(path);
      LAKEGC_ASSIGN_OR_RETURN(const detail::unique_fd dir, open_dir("read", path, parent, walk::lookup));
      fd = detail::unique_fd(::openat(dir_fd(dir), std::string(name).c_str(), flags));
      if (!fd) {
        const int err = errno;
        if (err == ELOOP) return symlink_refused("read", path, path);
        return sys_error(err, "read", path);
      }
    }
    struct ::stat st {};
    if (::fstat(fd.get(), &st) != 0) return sys_error(errno, "read", path);
    LAKEGC_RETURN_IF_ERROR(require_regular(st, "read", path));
    return read_all(fd.get(), static_cast<std::size_t>(st.st_size), path);
  }

  [[nodiscard]] Status write_if_absent(std::string_view path, std::string_view bytes) {
    constexpr std::string_view op = "write_if_absent";
    LAKEGC_RETURN_IF_ERROR(detail::check_relative_path(path, op));
    const auto [parent, name_view] = detail::split_parent(path);
    const std::string name(name_view);
    LAKEGC_ASSIGN_OR_RETURN(const detail::unique_fd dir, open_dir(op, path, parent, walk::create));
    const int dfd = dir_fd(dir);
    // Cheap early answer; linkat below is what actually decides.
    struct ::stat st {};
    if (::fstatat(dfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) return already_exists(path);
    LAKEGC_RETURN_IF_ERROR(remove_checksum_of(dfd, op, path, name));

    std::string tmp;
    detail::unique_fd fd;
    for (int attempt = 0; !fd; ++attempt) {
      tmp = ".lakegc-tmp-" + std::to_string(::getpid()) + "-" + std::to_string(next_tmp_id());
      fd = detail::unique_fd(::openat(dfd, tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666));
      if (!fd && (errno != EEXIST || attempt == 100)) return sys_error(errno, op, path);
    }
    Status written = write_all(fd.get(), bytes, path);
    if (written.ok() && ::fsync(fd.get()) != 0) written = sys_error(errno, op, path);
    if (written.ok() && ::close(fd.release()) != 0) written = sys_error(errno, op, path);
    if (written.ok() && ::linkat(dfd, tmp.c_str(), dfd, name.c_str(), 0) != 0) {
      written = errno == EEXIST ? already_exists(path) : sys_error(errno, op, path);
    }
    // The temporary goes in every case. If unlinking it fails the write has
    // still happened; the leftover is inert (see the header comment).
    ::unlinkat(dfd, tmp.c_str(), 0);
    if (!written.ok()) return written;
    // Make the new name itself durable, not just the bytes.
    ::fsync(dfd);
    return Status();
  }

  [[nodiscard]] Status remove(std::string_view path) {
    LAKEGC_RETURN_IF_ERROR(detail::check_relative_path(path, "remove"));
    const auto [parent, name] = detail::split_parent(path);
    LAKEGC_ASSIGN_OR_RETURN(const detail::unique_fd dir, open_dir("remove", path, parent, walk::lookup));
    return remove_at(dir_fd(dir), path, std::string(name));
  }

  /// One status per path, in order. Consecutive paths in the same directory
  /// share one walk to it (a cleaner deletes a partition's files together).
  std::vector<Status> remove_batch(std::span<const std::string> paths) {
    return batch<Status>("remove", paths, [this](int dfd, std::string_view path, const std::string& name) {
      return remove_at(dfd, path, name);
    });
  }

 private:
  // `at(directory fd, path, name)` for each path, in order; consecutive
  // paths in one directory share the walk to it. A refused path, or one
  // whose directory cannot be opened, gets that error instead.
  template <typename Result, typename At>
  std::vector<Result> batch(std::string_view op, std::span<const std::string> paths, At at) const {
    std::vector<Result> out;
    out.reserve(paths.size());
    bool have_cached = false;  // (an empty `cached` is the root itself)
    std::string cached_parent;
    detail::unique_fd cached;
    for (const std::string& path : paths) {
      if (Status s = detail::check_relative_path(path, op); !s.ok()) {
        out.push_back(std::move(s));
        continue;
      }
      const auto [parent, name] = detail::split_parent(path);
      if (!have_cached || cached_parent != parent) {
        have_cached = false;
        auto dir = open_dir(op, path, parent, walk::lookup);
        if (!dir.ok()) {
          out.push_back(std::move(dir).status());
          continue;
        }
        cached = std::move(dir).value();
        cached_parent.assign(parent);
        have_cached = true;
      }
      out.push_back(at(dir_fd(cached), path, std::string(name)));
    }
    return out;
  }

  [[nodiscard]] StatusOr<FileInfo> stat_at(int dfd, std::string_view path, const std::string& name) const {
    struct ::stat st {};
    if (::fstatat(dfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return sys_error(errno, "stat", path);
    LAKEGC_RETURN_IF_ERROR(require_regular(st, "stat", path));
    return FileInfo{std::string(path), static_cast<std::uint64_t>(st.st_size), detail::mtime_ms_of(st)};
  }

  // The whole file, read straight into the string. The buffer is one byte
  // larger than the size fstat gave, so a file that has not changed since
  // is read in one call: a read that stops short of the buffer at or past
  // that size is the end of the file. A file that grew is read on until a
  // read returns 0.
  [[nodiscard]] StatusOr<std::string> read_all(int fd, std::size_t size, std::string_view path) const {
    std::string out(size + 1, '\0');
    std::size_t got = 0;
    while (true) {
      if (got == out.size()) out.resize(out.size() + std::max<std::size_t>(out.size(), 1 << 16));
      const ssize_t n = ::read(fd, out.data() + got, out.size() - got);
      if (n == 0) break;
      if (n < 0) {
        if (errno == EINTR) continue;
        return sys_error(errno, "read", path);
      }
      got += static_cast<std::size_t>(n);
      if (got >= size && got < out.size()) break;
    }
    out.resize(got);
    return out;
  }

  // How open_dir treats a missing or non-directory component.
  enum class walk {
    lookup,  // the directory holding a file: missing -> NotFound
    create,  // the same, made if missing (mkdirat); a file on the way ->
             // FailedPrecondition
    list,    // the directory to list: a file there -> FailedPrecondition
  };

  posix_storage(detail::unique_fd root, std::string root_path) noexcept
      : root_(std::move(root)), root_path_(std::move(root_path)) {}

  // An empty unique_fd from open_dir stands for the root descriptor itself.
  int dir_fd(const detail::unique_fd& dir) const noexcept { return dir ? dir.get() : root_.get(); }

  static std::uint64_t next_tmp_id() noexcept {
    static std::atomic<std::uint64_t> next{0};
    return next.fetch_add(1, std::memory_order_relaxed);
  }

  std::string where(std::string_view op, std::string_view path) const {
    return std::string(op) + " " + detail::quote_path(path) + " under " + detail::quote_path(root_path_);
  }
  [[nodiscard]] Status sys_error(int err, std::string_view op, std::string_view path) const {
    return absl::ErrnoToStatus(err, detail::to_absl(where(op, path)));
  }
  [[nodiscard]] Status symlink_refused(std::string_view op, std::string_view path, std::string_view link) const {
    return absl::FailedPreconditionError(where(op, path) + ": refusing to follow symbolic link " +
                                         detail::quote_path(link));
  }
  [[nodiscard]] Status already_exists(std::string_view path) const {
    return absl::AlreadyExistsError(where("write_if_absent", path) + ": already exists");
  }

  // stat/read act on regular files only.
  [[nodiscard]] Status require_regular(const struct ::stat& st, std::string_view op, std::string_view path) const {
    if (S_ISREG(st.st_mode)) return Status();
    if (S_ISLNK(st.st_mode)) return symlink_refused(op, path, path);
    if (S_ISDIR(st.st_mode)) {
      return absl::FailedPreconditionError(where(op, path) + ": is a directory, not a file");
    }
    return absl::FailedPreconditionError(where(op, path) + ": not a regular file");
  }

  // Opens directory `dir` (checked, "" = root) one component at a time,
  // never following a link. `path` is what the caller asked about, for
  // messages. Returns an empty unique_fd for the root, except in list mode,
  // where fdopendir needs a descriptor of its own.
  [[nodiscard]] StatusOr<detail::unique_fd> open_dir(std::string_view op, std::string_view path, std::string_view dir,
                                                     walk mode) const {
    constexpr int flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
    detail::unique_fd cur;
    if (dir.empty() && mode == walk::list) {
      cur = detail::unique_fd(::openat(root_.get(), ".", flags));
      if (!cur) return sys_error(errno, op, path);
      return cur;
    }
    std::string_view rest = dir;
    while (!rest.empty()) {
      const std::string comp(detail::pop_component(rest));
      const std::string_view prefix = dir.substr(0, dir.size() - rest.size() - (rest.empty() ? 0 : 1));
      const int parent = dir_fd(cur);
      int fd = ::openat(parent, comp.c_str(), flags);
      if (fd < 0 && errno == ENOENT && mode == walk::create) {
        // EEXIST: a concurrent writer made it first; fine either way.
        if (::mkdirat(parent, comp.c_str(), 0777) != 0 && errno != EEXIST) {
          return sys_error(errno, op, path);
        }
        fd = ::openat(parent, comp.c_str(), flags);
      }
      if (fd < 0) {
        const int err = errno;
        // O_NOFOLLOW | O_DIRECTORY answers ENOTDIR (or ELOOP) for both a link
        // and a file; look at the entry itself to tell which.
        if (err != ENOTDIR && err != ELOOP) return sys_error(err, op, path);
        struct ::stat st {};
        if (::fstatat(parent, comp.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
          return sys_error(errno, op, path);
        }
        if (S_ISLNK(st.st_mode)) return symlink_refused(op, path, prefix);
        const std::string msg = where(op, path) + ": " + detail::quote_path(prefix) + " is a file, not a directory";
        // Nothing can exist under a file (NotFound), but asking to create
        // under one, or to list one, is a mistake about what is there.
        const bool last = rest.empty();
        if (mode == walk::lookup || (mode == walk::list && !last)) return absl::NotFoundError(msg);
        return absl::FailedPreconditionError(msg);
      }
      cur = detail::unique_fd(fd);
    }
    return cur;
  }

  template <typename Visitor>
  [[nodiscard]] Status list_dir(detail::unique_fd fd, std::string& path, Visitor& visit,
                                const ListOptions& options) const {
    DIR* raw = ::fdopendir(fd.get());
    if (raw == nullptr) return sys_error(errno, "list", path);
    fd.release();  // now owned by the DIR stream
    const std::unique_ptr<DIR, detail::dir_closer> d(raw);
    const int dfd = ::dirfd(raw);

    // Each name with its type as readdir gives it (DT_UNKNOWN where the
    // file system does not say).
    std::vector<std::pair<std::string, unsigned char>> entries;
    errno = 0;
    while (const dirent* e = ::readdir(raw)) {
      const std::string_view n = e->d_name;
      if (n != "." && n != "..") entries.emplace_back(n, e->d_type);
      errno = 0;
    }
    if (errno != 0) return sys_error(errno, "list", path);
    // std::string compares through char_traits<char>, i.e. as unsigned bytes.
    std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.first < b.first; });

    const std::size_t base = path.size();
    for (const auto& [name, type] : entries) {
      path.resize(base);
      if (base != 0) path += '/';
      path += name;
      // Without attributes, readdir's type decides and no stat is made: a
      // stat per file was most of a listing's time (ListOptions::attributes).
      if (!options.attributes && type == DT_REG) {
        visit(FileEntry{path, FileEntry::kUnknownSize, FileEntry::kUnknownMtime});
        continue;
      }
      if (!options.attributes && type != DT_DIR && type != DT_UNKNOWN) continue;  // a link, FIFO, socket, device
      struct ::stat st {};
      if (::fstatat(dfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno == ENOENT) continue;  // deleted since readdir
        return sys_error(errno, "list", path);
      }
      if (S_ISREG(st.st_mode)) {
        const FileEntry entry = options.attributes
                                    ? FileEntry{path, static_cast<std::uint64_t>(st.st_size), detail::mtime_ms_of(st)}
                                    : FileEntry{path, FileEntry::kUnknownSize, FileEntry::kUnknownMtime};
        visit(entry);
      } else if (S_ISDIR(st.st_mode) && options.recursive) {
        if (options.skip_dir && options.skip_dir(path)) continue;
        detail::unique_fd sub(::openat(dfd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (!sub) {
          // Deleted, or swapped for a link or a file, since fstatat: skip it
          // like any entry that is not (or no longer) a directory.
          if (errno == ENOENT || errno == ENOTDIR || errno == ELOOP) continue;
          return sys_error(errno, "list", path);
        }
        LAKEGC_RETURN_IF_ERROR(list_dir(std::move(sub), path, visit, options));
      }
      // Anything else (symlink, FIFO, socket, device) is not a table file.
    }
    path.resize(base);
    return Status();
  }

  [[nodiscard]] Status remove_at(int dfd, std::string_view path, const std::string& name) const {
    struct ::stat st {};
    if (::fstatat(dfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      return sys_error(errno, "remove", path);
    }
    if (S_ISLNK(st.st_mode)) return symlink_refused("remove", path, path);
    if (S_ISDIR(st.st_mode)) {
      if (::unlinkat(dfd, name.c_str(), AT_REMOVEDIR) == 0) return Status();
      if (errno == ENOTEMPTY || errno == EEXIST) {
        return absl::FailedPreconditionError(where("remove", path) + ": directory not empty");
      }
      return sys_error(errno, "remove", path);
    }
    if (!S_ISREG(st.st_mode)) {
      return absl::FailedPreconditionError(where("remove", path) + ": not a regular file");
    }
    LAKEGC_RETURN_IF_ERROR(remove_checksum_of(dfd, "remove", path, name));
    // Should the entry be swapped for a link since fstatat, unlinkat removes
    // the link itself: it never follows one.
    if (::unlinkat(dfd, name.c_str(), 0) != 0) return sys_error(errno, "remove", path);
    return Status();
  }

  // Deletes Hadoop's checksum of file `name` in `dfd`, if there is one (see
  // the header comment). A checksum has none of its own.
  [[nodiscard]] Status remove_checksum_of(int dfd, std::string_view op, std::string_view path,
                                          const std::string& name) const {
    if (is_hadoop_checksum(name)) return Status();
    const std::string checksum = hadoop_checksum_name(name);
    struct ::stat st {};
    if (::fstatat(dfd, checksum.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      return errno == ENOENT ? Status() : sys_error(errno, op, path);
    }
    if (!S_ISREG(st.st_mode)) return Status();  // not Hadoop's: left alone
    if (::unlinkat(dfd, checksum.c_str(), 0) != 0 && errno != ENOENT) {
      return absl::ErrnoToStatus(
          errno, detail::to_absl(where(op, path) + ": deleting its Hadoop checksum " + detail::quote_path(checksum)));
    }
    return Status();
  }

  [[nodiscard]] Status write_all(int fd, std::string_view bytes, std::string_view path) const {
    while (!bytes.empty()) {
      const ssize_t n = ::write(fd, bytes.data(), bytes.size());
      if (n < 0) {
        if (errno == EINTR) continue;
        return sys_error(errno, "write_if_absent", path);
      }
      bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return Status();
  }

  detail::unique_fd root_;
  std::string root_path_;
};

static_assert(Storage<posix_storage>, "posix_storage must model lakegc::Storage");

}  // namespace lakegc
