// File: lakegc/storage/path.hpp
// -----------------------------------------------------------------------------
// The one gate every Storage adapter puts in front of every operation: a path
// must name something *inside* the storage root, spelled one way only.
//
// Accepted: `a`, `a/b.parquet`, `.hoodie/20240101000000000.commit`
// (components separated by single '/', no leading or trailing '/').
// Refused (InvalidArgument, message naming the path):
//   * an absolute path (`/etc/passwd`)             -- escapes the root;
//   * a `..` component (`p/../../x`)               -- escapes the root;
//   * a `.` component (`./a`, `a/./b`)             -- a second spelling of a
//     path, which would defeat path-keyed bookkeeping (plans, memory_storage);
//   * an empty component (`a//b`, `a/`, `""`)      -- same reason, and `""`
//     would name the root itself as if it were a file;
//   * a NUL byte                                   -- the kernel would silently
//     cut the path there and act on a different file.
// The listing root `""` is allowed only where a directory is meant (list()).
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "lakegc/core/status.hpp"

namespace lakegc::detail {

/// `path` in single quotes for messages, with control bytes and NUL shown
/// as `\xNN` (a refused path may hold them; they would garble a log line).
/// Other bytes, UTF-8 included, are kept so names stay readable.
inline std::string quote_path(std::string_view path) {
  constexpr char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(path.size() + 2);
  out += '\'';
  for (const char c : path) {
    const auto b = static_cast<unsigned char>(c);
    if (b < 0x20 || b == 0x7f) {
      out += "\\x";
      out += hex[b >> 4];
      out += hex[b & 0xf];
    } else {
      out += c;
    }
  }
  out += '\'';
  return out;
}

/// OK when `path` is a well-formed path relative to the storage root, else
/// InvalidArgument naming `op` and the path. `allow_root` admits `""` (the
/// root itself), which only list() accepts.
[[nodiscard]] inline Status check_relative_path(std::string_view path, std::string_view op, bool allow_root = false) {
  auto refuse = [&](std::string_view why) {
    std::string msg(op);
    msg += ": refusing path ";
    msg += quote_path(path);
    msg += ": ";
    msg += why;
    msg += " (paths must be relative to the storage root, components separated by one '/')";
    return absl::InvalidArgumentError(msg);
  };
  if (path.empty()) {
    return allow_root ? Status() : refuse("empty path");
  }
  if (path.find('\0') != std::string_view::npos) return refuse("contains a NUL byte");
  if (path.front() == '/') return refuse("absolute path");
  std::string_view rest = path;
  while (true) {
    const auto slash = rest.find('/');
    const std::string_view comp = rest.substr(0, slash);
    if (comp.empty()) return refuse("empty component");
    if (comp == "..") return refuse("'..' component");
    if (comp == ".") return refuse("'.' component");
    if (slash == std::string_view::npos) break;
    rest.remove_prefix(slash + 1);
  }
  return Status();
}

/// Splits a checked, non-empty path into {parent directory, last component};
/// the parent is `""` for a path directly under the root.
inline std::pair<std::string_view, std::string_view> split_parent(std::string_view path) noexcept {
  const auto slash = path.rfind('/');
  if (slash == std::string_view::npos) return {std::string_view(), path};
  return {path.substr(0, slash), path.substr(slash + 1)};
}

/// Removes and returns the first component of a checked path (`rest` becomes
/// the remainder, `""` after the last component).
inline std::string_view pop_component(std::string_view& rest) noexcept {
  const auto slash = rest.find('/');
  const std::string_view comp = rest.substr(0, slash);
  rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
  return comp;
}

/// Orders paths as a depth-first walk that visits each directory's entries
/// in byte order: component by component, comparing bytes as unsigned. This
/// is plain byte order with '/' ranked below every other byte, so that
/// `a/x` (inside directory `a`) precedes `a.txt` although '.' < '/'.
/// Both adapters list in this order (posix_storage by sorting each
/// directory, memory_storage by keying its map with this comparator).
struct listing_order {
  using is_transparent = void;
  static constexpr unsigned rank(char c) noexcept {
    return c == '/' ? 0U : static_cast<unsigned>(static_cast<unsigned char>(c)) + 1U;
  }
  // Ranks only the first byte that differs: every byte but '/' keeps its
  // order, so the rank decides nothing before it. Finding that byte eight at
  // a time matters because paths in one table share long prefixes
  // (`.hoodie/2024...`): a byte-by-byte loop was 16% of loading a 10,000-commit
  // timeline from memory_storage, whose map compares paths with this.
  constexpr bool operator()(std::string_view a, std::string_view b) const noexcept {
    const std::size_t n = a.size() < b.size() ? a.size() : b.size();
    const std::size_t i = first_difference(a.data(), b.data(), n);
    if (i == n) return a.size() < b.size();
    return rank(a[i]) < rank(b[i]);
  }

  /// The index of the first byte at which `a` and `b` differ, or `n`.
  static constexpr std::size_t first_difference(const char* a, const char* b, std::size_t n) noexcept {
    std::size_t i = 0;
    if (!std::is_constant_evaluated() && std::endian::native == std::endian::little) {
      for (; i + 8 <= n; i += 8) {
        std::uint64_t wa = 0;
        std::uint64_t wb = 0;
        std::memcpy(&wa, a + i, 8);
        std::memcpy(&wb, b + i, 8);
        if (const std::uint64_t x = wa ^ wb; x != 0) return i + static_cast<std::size_t>(std::countr_zero(x)) / 8;
      }
    }
    while (i < n && a[i] == b[i]) ++i;
    return i;
  }
};

}  // namespace lakegc::detail

namespace lakegc {

/// True for a Hadoop checksum file name (`.<name>.crc`): Hadoop's local and
/// checksummed file systems write one beside every file, check every read
/// against it, and hide it from listings.
inline bool is_hadoop_checksum(std::string_view name) noexcept {
  return name.size() > 5 && name.front() == '.' && name.ends_with(".crc");
}

/// The name of Hadoop's checksum of file `name` (a name, not a path).
inline std::string hadoop_checksum_name(std::string_view name) { return "." + std::string(name) + ".crc"; }

/// `partition/name`, or `name` for the root partition.
inline std::string join_path(std::string_view partition, std::string_view name) {
  if (partition.empty()) return std::string(name);
  std::string s(partition);
  s += '/';
  s += name;
  return s;
}

}  // namespace lakegc
