// File: lakegc/plan/inventory.hpp
// -----------------------------------------------------------------------------
// Listing-free input for the orphan sweep: an object-store inventory (CSV or
// JSON lines of path, size and modification time, as S3 Inventory, GCS
// Storage Insights or Delta's `VACUUM ... USING INVENTORY` provide), matched
// against the table location.
//
// Paths are full URIs (`s3://bucket/warehouse/t/p/f.parquet`) or absolute
// paths. Schemes that name the same store are normalised (`s3a`, `s3n` ->
// `s3` by default, as Iceberg's equal_schemes), then the table location is
// stripped. An entry outside the location is handled by the prefix-mismatch
// mode (Iceberg's prefix_mismatch_mode): `error` (the default: the inventory
// or the location is wrong, so stop), `ignore` (skip it), or `delete`
// (compare paths without scheme and authority, for stores reached under
// several authorities).
#pragma once

#include <charconv>
#include <functional>
#include <map>
#include <string>
#include <string_view>

#include <absl/time/time.h>
#include <fmt/format.h>
#include <simdjson.h>

#include "lakegc/core/status.hpp"

namespace lakegc {

enum class PrefixMismatchMode : std::uint8_t { error, ignore, delete_ };

struct InventoryOptions {
  /// scheme -> the scheme it stands for.
  std::map<std::string, std::string> equal_schemes = {{"s3a", "s3"}, {"s3n", "s3"}};
  PrefixMismatchMode prefix_mismatch = PrefixMismatchMode::error;
};

struct InventoryEntry {
  std::string path;  // relative to the table location
  std::uint64_t size = 0;
  std::int64_t mtime_ms = 0;
};

namespace detail {

struct SplitUri {
  std::string scheme;     // "" for a plain path
  std::string authority;  // bucket / host
  std::string path;       // always starts with '/'
};

inline SplitUri split_uri(std::string_view uri, const InventoryOptions& o) {
  SplitUri out;
  const auto colon = uri.find("://");
  if (colon == std::string_view::npos) {
    out.path = std::string(uri);
  } else {
    out.scheme = std::string(uri.substr(0, colon));
    if (auto it = o.equal_schemes.find(out.scheme); it != o.equal_schemes.end()) out.scheme = it->second;
    std::string_view rest = uri.substr(colon + 3);
    const auto slash = rest.find('/');
    out.authority = std::string(rest.substr(0, slash));
    out.path = slash == std::string_view::npos ? "/" : std::string(rest.substr(slash));
  }
  while (out.path.size() > 1 && out.path.back() == '/') out.path.pop_back();
  return out;
}

/// True when the relative path `rel` has an empty, "." or ".." segment.
inline bool has_dot_or_empty_segment(std::string_view rel) {
  while (true) {
    const auto slash = rel.find('/');
    const std::string_view seg = rel.substr(0, slash);
    if (seg.empty() || seg == "." || seg == "..") return true;
    if (slash == std::string_view::npos) return false;
    rel.remove_prefix(slash + 1);
  }
}

// Modification time: epoch milliseconds, or ISO 8601 / RFC 3339.
[[nodiscard]] inline StatusOr<std::int64_t> parse_mtime(std::string_view s) {
  std::int64_t ms = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), ms);
  if (ec == std::errc() && ptr == s.data() + s.size()) return ms;
  absl::Time t;
  std::string err;
  const std::string text(s);
  for (const char* fmt : {"%Y-%m-%dT%H:%M:%E*S%Ez", "%Y-%m-%dT%H:%M:%E*SZ", "%Y-%m-%d %H:%M:%E*S"}) {
    if (absl::ParseTime(fmt, text, absl::UTCTimeZone(), &t, &err)) return absl::ToUnixMillis(t);
  }
  return absl::InvalidArgumentError(fmt::format("modification time '{}': expected epoch milliseconds or ISO 8601", s));
}

}  // namespace detail

/// Matches inventory paths to a table location.
class InventoryMatcher {
 public:
  InventoryMatcher(std::string_view table_location, InventoryOptions options)
      : options_(std::move(options)), root_(detail::split_uri(table_location, options_)) {}

  /// The path relative to the table location; an empty optional when the
  /// entry is to be ignored; an error naming it in `error` mode.
  [[nodiscard]] StatusOr<std::optional<std::string>> relative(std::string_view uri) const {
    const detail::SplitUri u = detail::split_uri(uri, options_);
    const bool same_store = u.scheme == root_.scheme && u.authority == root_.authority;
    // A path whose rest has an empty, "." or ".." segment
    // (".../t//f.parquet", ".../t/../x") is no file of the table: handed on,
    // it read as an absolute path or one outside the location (found by the
    // inventory fuzz target), so it counts as not under the location.
    const bool under = u.path.size() > root_.path.size() + 1 && u.path.starts_with(root_.path) &&
                       (root_.path == "/" || u.path[root_.path.size()] == '/') &&
                       !detail::has_dot_or_empty_segment(
                           std::string_view(u.path).substr(root_.path == "/" ? 1 : root_.path.size() + 1));
    if (!under) {
      if (options_.prefix_mismatch == PrefixMismatchMode::error) {
        return absl::InvalidArgumentError(fmt::format("inventory path '{}' is not under the table location", uri));
      }
      return std::optional<std::string>();
    }
    if (!same_store) {
      if (options_.prefix_mismatch == PrefixMismatchMode::ignore) return std::optional<std::string>();
      if (options_.prefix_mismatch == PrefixMismatchMode::error) {
        return absl::InvalidArgumentError(fmt::format(
            "inventory path '{}' is under the table path but on another store ({}://{}); set the prefix-mismatch "
            "mode to ignore or delete",
            uri, u.scheme, u.authority));
      }
    }
    return std::optional<std::string>(u.path.substr(root_.path == "/" ? 1 : root_.path.size() + 1));
  }

 private:
  InventoryOptions options_;
  detail::SplitUri root_;
};

/// Reads an inventory: JSON lines (`{"path": ..., "size": ..., "modificationTime": ...}`;
/// `mtime` / `last_modified` accepted) when the first non-blank character is
/// `{`, else CSV (`path,size,mtime`, an optional header line whose first
/// field is `path` or `key`). Calls `visit` for each entry under the table
/// location. `source` names the file in errors, with the line number.
[[nodiscard]] inline Status read_inventory(std::string_view text, std::string_view source,
                                           const InventoryMatcher& matcher,
                                           const std::function<void(const InventoryEntry&)>& visit) {
  std::size_t pos = 0;
  std::size_t line_no = 0;
  simdjson::dom::parser parser;
  while (pos < text.size()) {
    const auto nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    auto bad = [&](std::string_view why) {
      return absl::InvalidArgumentError(fmt::format("{}:{}: {}", source, line_no, why));
    };
    std::string path;
    std::uint64_t size = 0;
    std::int64_t mtime = 0;
    if (line.front() == '{') {
      simdjson::dom::element doc;
      if (parser.parse(line.data(), line.size()).get(doc) != simdjson::SUCCESS) return bad("invalid JSON");
      std::string_view p;
      if (doc["path"].get(p) != simdjson::SUCCESS) return bad("expected a \"path\" string");
      path = std::string(p);
      std::uint64_t sz = 0;
      if (doc["size"].get(sz) != simdjson::SUCCESS && doc["length"].get(sz) != simdjson::SUCCESS) {
        return bad("expected a \"size\" number");
      }
      size = sz;
      bool found = false;
      for (const char* key : {"modificationTime", "mtime", "last_modified"}) {
        simdjson::dom::element v;
        if (doc[key].get(v) != simdjson::SUCCESS) continue;
        found = true;
        std::int64_t n = 0;
        std::string_view s;
        if (v.get(n) == simdjson::SUCCESS) {
          mtime = n;
        } else if (v.get(s) == simdjson::SUCCESS) {
          auto m = detail::parse_mtime(s);
          if (!m.ok()) return bad(message_of(m.status()));
          mtime = *m;
        } else {
          return bad("modification time must be a number or a string");
        }
        break;
      }
      if (!found) return bad("expected \"modificationTime\"");
    } else {
      const auto c1 = line.find(',');
      const auto c2 = c1 == std::string_view::npos ? c1 : line.find(',', c1 + 1);
      if (c2 == std::string_view::npos) return bad("expected path,size,mtime");
      auto unquote = [](std::string_view s) {
        return s.size() >= 2 && s.front() == '"' && s.back() == '"' ? s.substr(1, s.size() - 2) : s;
      };
      const auto f0 = unquote(line.substr(0, c1));
      const auto f1 = unquote(line.substr(c1 + 1, c2 - c1 - 1));
      const auto f2 = unquote(line.substr(c2 + 1));
      if (line_no == 1 && (f0 == "path" || f0 == "key")) continue;  // header
      path = std::string(f0);
      const auto [ptr, ec] = std::from_chars(f1.data(), f1.data() + f1.size(), size);
      if (ec != std::errc() || ptr != f1.data() + f1.size()) return bad(fmt::format("size '{}' is not a number", f1));
      auto m = detail::parse_mtime(f2);
      if (!m.ok()) return bad(message_of(m.status()));
      mtime = *m;
    }
    auto rel = matcher.relative(path);
    if (!rel.ok()) return annotate(rel.status(), fmt::format("{}:{}", source, line_no));
    if (!rel->has_value()) continue;
    visit(InventoryEntry{std::move(**rel), size, mtime});
  }
  return absl::OkStatus();
}

}  // namespace lakegc
