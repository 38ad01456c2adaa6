// File: lakegc/hudi/in_flight.hpp
// -----------------------------------------------------------------------------
// What a Hudi table says about writes in flight (docs/hudi-rules.md
// §11), read from storage:
//
// * heartbeats: `.hoodie/.heartbeat/<instant>`, an empty file whose
//   modification time is the writer's last beat (LAZY rollback expires a
//   write whose beat is older than interval x tolerable misses);
// * markers: `.hoodie/.temp/<instant>/`, one per data file the write
//   created, written before the file itself, in two forms:
//     DIRECT                  `<partition>/<file>.marker.<CREATE|MERGE|APPEND>`
//     TIMELINE_SERVER_BASED   `MARKERS<n>` files listing such paths, one per
//                             line, beside `MARKERS.type`.
//
// Both folders are transient: missing means "none". A marker whose name
// does not follow the grammar is an error naming it, because markers decide
// what rollback deletes and what the orphan sweep must keep.
#pragma once

#include <algorithm>
#include <map>
#include <tuple>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/instant_time.hpp"
#include "lakegc/core/table_metadata.hpp"
#include "lakegc/storage/path.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc::hudi {

inline constexpr std::string_view kHeartbeatDir = ".hoodie/.heartbeat";
inline constexpr std::string_view kMarkerDir = ".hoodie/.temp";

/// `<partition>/<file>.marker.<IOType>` (partition may be empty or nested)
/// as the data file it announces. `where` names the source in errors.
[[nodiscard]] inline StatusOr<WrittenFile> parse_marker(std::string_view marker, std::string_view where) {
  static constexpr std::string_view kInfix = ".marker.";
  const auto at = marker.rfind(kInfix);
  const std::string_view io_type =
      at == std::string_view::npos ? std::string_view() : marker.substr(at + kInfix.size());
  if (io_type != "CREATE" && io_type != "MERGE" && io_type != "APPEND") {
    return absl::DataLossError(
        fmt::format("{}: marker '{}' is not <partition>/<file>.marker.<CREATE|MERGE|APPEND>", where, marker));
  }
  const std::string_view path = marker.substr(0, at);
  const auto slash = path.rfind('/');
  WrittenFile f;
  f.partition = slash == std::string_view::npos ? std::string() : std::string(path.substr(0, slash));
  f.name = std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
  if (f.name.empty() || path.starts_with('/')) {
    return absl::DataLossError(fmt::format("{}: marker '{}' names no file", where, marker));
  }
  return f;
}

/// Last beat (epoch ms) of every write with a heartbeat file.
template <Storage S>
[[nodiscard]] StatusOr<std::map<InstantTime, std::int64_t>> load_heartbeats(S& storage) {
  std::map<InstantTime, std::int64_t> out;
  ListOptions opts;
  opts.recursive = false;
  const Status st = storage.list(
      std::string(kHeartbeatDir),
      [&](const FileEntry& e) {
        const auto slash = e.path.rfind('/');
        // Other names (.crc files of Hadoop file systems) are not heartbeats.
        if (auto t = InstantTime::parse(e.path.substr(slash + 1)); t.ok()) out[*t] = e.mtime_ms;
      },
      opts);
  if (absl::IsNotFound(st)) return out;
  if (!st.ok()) return annotate(st, fmt::format("listing {}", kHeartbeatDir));
  return out;
}

/// The data files the markers of write `t` announce, sorted, without
/// duplicates.
template <Storage S>
[[nodiscard]] StatusOr<std::vector<WrittenFile>> load_markers(S& storage, const InstantTime& t) {
  const std::string dir = fmt::format("{}/{}", kMarkerDir, t);
  std::vector<WrittenFile> out;
  std::vector<std::string> server_files;  // MARKERS<n>, read after the listing
  Status bad;
  const Status st = storage.list(dir, [&](const FileEntry& e) {
    if (!bad.ok()) return;
    const std::string_view rel = e.path.substr(dir.size() + 1);
    const auto slash = rel.rfind('/');
    // Hudi lists markers through Hadoop, which hides checksum files.
    if (is_hadoop_checksum(slash == std::string_view::npos ? rel : rel.substr(slash + 1))) return;
    if (rel.starts_with("MARKERS")) {
      if (rel != "MARKERS.type") server_files.emplace_back(e.path);
      return;
    }
    auto f = parse_marker(rel, e.path);
    if (!f.ok()) {
      bad = f.status();
      return;
    }
    out.push_back(std::move(*f));
  });
  if (absl::IsNotFound(st)) return out;
  if (!st.ok()) return annotate(st, fmt::format("listing {}", dir));
  LAKEGC_RETURN_IF_ERROR(bad);
  for (const std::string& path : server_files) {
    auto text = storage.read(path);
    if (!text.ok()) return annotate(text.status(), path);
    std::string_view rest = *text;
    while (!rest.empty()) {
      const auto nl = rest.find('\n');
      const std::string_view line = rest.substr(0, nl);
      rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
      if (line.empty()) continue;
      LAKEGC_ASSIGN_OR_RETURN(WrittenFile f, parse_marker(line, path));
      out.push_back(std::move(f));
    }
  }
  auto key = [](const WrittenFile& f) { return std::tie(f.partition, f.name); };
  std::sort(out.begin(), out.end(), [&](const WrittenFile& a, const WrittenFile& b) { return key(a) < key(b); });
  out.erase(
      std::unique(out.begin(), out.end(), [&](const WrittenFile& a, const WrittenFile& b) { return key(a) == key(b); }),
      out.end());
  return out;
}

}  // namespace lakegc::hudi
