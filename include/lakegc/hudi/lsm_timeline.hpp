// File: lakegc/hudi/lsm_timeline.hpp
// -----------------------------------------------------------------------------
// Reads layout 2's archived timeline: the LSM history Hudi's archiver
// (TimelineArchiverV2, LSMTimelineWriter) keeps in
// `<timeline folder>/<hoodie.timeline.history.path>` (`.hoodie/timeline/history/`),
// as Hudi 1.2's LSMTimeline and ArchivedTimelineLoaderV2 read it:
//
//   <min>_<max>_<layer>.parquet  data files: HoodieLSMTimelineInstant rows
//                                (hudi/lsm_instant.hpp) of the instants
//                                requested from <min> to <max>; layer 0 for a
//                                file an archival wrote, layer n+1 for one
//                                that compacted files of layer n
//   manifest_<N>                 snapshot N: the data files that make the
//                                timeline, JSON {"files": [{"fileName",
//                                "fileLen"}]}
//   _version_                    the latest snapshot's N, as text
//
// A reader takes N from `_version_`; when that file is missing or does not
// parse as a Java int, the highest N of the `manifest_*` files (not ending
// in `.tmp`); no manifest at all is an empty timeline. It reads the data
// files the manifest lists, and nothing else: files of older snapshots
// and leftovers of a crashed writer are invisible. An instant time met
// twice counts once (Hudi keeps the first it reads).
#pragma once

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <simdjson.h>

#include "lakegc/core/digits.hpp"
#include "lakegc/core/json_writer.hpp"
#include "lakegc/core/status.hpp"
#include "lakegc/hudi/lsm_instant.hpp"
#include "lakegc/hudi/table_location.hpp"
#include "lakegc/hudi/table_properties.hpp"
#include "lakegc/storage/path.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc::hudi {

inline constexpr std::string_view kLsmVersionFile = "_version_";
inline constexpr std::string_view kLsmManifestPrefix = "manifest_";

/// One data file of a snapshot, as the manifest lists it.
struct lsm_file_entry {
  std::string name;
  std::int64_t length = 0;
  friend bool operator==(const lsm_file_entry&, const lsm_file_entry&) = default;
};

struct lsm_manifest {
  std::vector<lsm_file_entry> files;
  friend bool operator==(const lsm_manifest&, const lsm_manifest&) = default;
};

/// `<min>_<max>_<layer>.parquet`, as LSMTimeline's ARCHIVE_FILE_PATTERN
/// `^(\d+)_(\d+)_(\d)\.parquet` matches it (one digit of layer).
struct lsm_file_name {
  std::string min_instant;
  std::string max_instant;
  int layer = 0;
};

namespace detail {

/// Integer.parseInt: an optional sign, then decimal digits that fit an int.
inline std::optional<std::int32_t> java_parse_int(std::string_view s) {
  if (!s.empty() && s[0] == '+') {
    s.remove_prefix(1);
    if (s.empty() || s[0] == '+' || s[0] == '-') return std::nullopt;
  }
  if (s.empty()) return std::nullopt;
  std::int32_t v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace detail

[[nodiscard]] inline std::optional<lsm_file_name> parse_lsm_file_name(std::string_view name) {
  constexpr std::string_view ext = ".parquet";
  if (!name.ends_with(ext)) return std::nullopt;
  name.remove_suffix(ext.size());
  const auto a = name.find('_');
  if (a == std::string_view::npos) return std::nullopt;
  const auto b = name.find('_', a + 1);
  if (b == std::string_view::npos) return std::nullopt;
  const std::string_view lo = name.substr(0, a);
  const std::string_view hi = name.substr(a + 1, b - a - 1);
  const std::string_view layer = name.substr(b + 1);
  if (!lakegc::detail::all_digits(lo) || !lakegc::detail::all_digits(hi) || layer.size() != 1 ||
      !lakegc::detail::all_digits(layer)) {
    return std::nullopt;
  }
  return lsm_file_name{std::string(lo), std::string(hi), layer[0] - '0'};
}

inline std::string lsm_data_file_name(std::string_view min_instant, std::string_view max_instant, int layer) {
  return fmt::format("{}_{}_{}.parquet", min_instant, max_instant, layer);
}

inline std::string lsm_manifest_name(std::int32_t version) { return fmt::format("{}{}", kLsmManifestPrefix, version); }

/// The snapshot version of a manifest file name, as LSMTimeline.getManifestVersion
/// reads it (`Integer.parseInt(name.split("_")[1])`); nullopt where Hudi's
/// parse throws, and for names Hudi's listing filter skips (`.tmp`).
inline std::optional<std::int32_t> lsm_manifest_version(std::string_view name) {
  if (!name.starts_with(kLsmManifestPrefix) || name.ends_with(".tmp")) return std::nullopt;
  std::string_view rest = name.substr(kLsmManifestPrefix.size());
  // Java's split drops trailing empty strings and a second '_' ends the field.
  rest = rest.substr(0, rest.find('_'));
  return detail::java_parse_int(rest);
}

/// The history folder of a layout-2 table, relative to the table root.
[[nodiscard]] inline StatusOr<std::string> lsm_history_folder(const TableProperties& props) {
  std::string sub = "history";
  if (const auto it = props.raw.find("hoodie.timeline.history.path"); it != props.raw.end() && !it->second.empty()) {
    sub = it->second;
  }
  if (!lakegc::detail::check_relative_path(sub, "hoodie.timeline.history.path").ok()) {
    return absl::InvalidArgumentError(
        fmt::format("hoodie.timeline.history.path '{}' is not a folder name relative to the timeline folder", sub));
  }
  return fmt::format("{}/{}", props.timeline_dir, sub);
}

/// A manifest's JSON. Unknown fields are ignored (Jackson's
/// ignoreUnknown); an empty file is an empty manifest, as in Hudi.
[[nodiscard]] inline StatusOr<lsm_manifest> parse_lsm_manifest(std::string_view json, std::string_view where) {
  lsm_manifest m;
  if (json.empty()) return m;
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (auto err = parser.parse(json.data(), json.size()).get(root); err != simdjson::SUCCESS) {
    return absl::DataLossError(fmt::format("{}: not a JSON manifest: {}", where, simdjson::error_message(err)));
  }
  simdjson::dom::object o;
  if (root.get_object().get(o) != simdjson::SUCCESS)
    return absl::DataLossError(fmt::format("{}: not a JSON object", where));
  simdjson::dom::element files;
  if (o["files"].get(files) != simdjson::SUCCESS || files.is_null()) return m;
  simdjson::dom::array arr;
  if (files.get_array().get(arr) != simdjson::SUCCESS)
    return absl::DataLossError(fmt::format("{}: \"files\" is not an array", where));
  for (simdjson::dom::element e : arr) {
    simdjson::dom::object f;
    std::string_view name;
    std::int64_t len = 0;
    if (e.get_object().get(f) != simdjson::SUCCESS || f["fileName"].get_string().get(name) != simdjson::SUCCESS) {
      return absl::DataLossError(fmt::format("{}: a file entry without a fileName", where));
    }
    simdjson::dom::element l;
    if (f["fileLen"].get(l) == simdjson::SUCCESS && !l.is_null() && l.get_int64().get(len) != simdjson::SUCCESS) {
      return absl::DataLossError(fmt::format("{}: fileLen of {} is not a long", where, name));
    }
    m.files.push_back({std::string(name), len});
  }
  return m;
}

/// A manifest as Hudi writes it (Jackson's default pretty printer).
inline std::string format_lsm_manifest(const lsm_manifest& m) {
  std::string out = "{\n  \"files\" : [ ";
  for (std::size_t i = 0; i < m.files.size(); ++i) {
    out += i == 0 ? "{\n" : ", {\n";
    out += fmt::format("    \"fileName\" : {},\n    \"fileLen\" : {}\n  }}", json_quote(m.files[i].name),
                       m.files[i].length);
  }
  out += m.files.empty() ? "]\n}" : " ]\n}";
  return out;
}

/// The latest snapshot of an LSM history.
struct lsm_snapshot {
  std::string folder;         ///< relative to the table root
  std::int32_t version = -1;  ///< -1: no snapshot (an empty timeline)
  /// How the version was found: from `_version_`, or (the file missing or
  /// unreadable) from the manifests listed.
  bool from_version_file = false;
  lsm_manifest manifest;
  std::vector<std::int32_t> versions;   ///< every manifest version listed, ascending
  std::vector<std::string> data_files;  ///< every `*.parquet` file listed (names), sorted
};

namespace detail {

inline std::string_view base_name(std::string_view path) {
  const auto slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace detail

/// LSMTimeline.latestSnapshotVersion and latestSnapshotManifest, plus the
/// folder's listing. A table without the folder has an empty snapshot.
template <class S>
[[nodiscard]] StatusOr<lsm_snapshot> read_lsm_snapshot(S& storage, const TableProperties& props,
                                                       const TableLocation& table) {
  lsm_snapshot s;
  LAKEGC_ASSIGN_OR_RETURN(s.folder, lsm_history_folder(props));
  ListOptions opts;
  opts.recursive = false;
  Status bad;
  const Status listed = storage.list(
      s.folder,
      [&](const FileEntry& e) {
        const std::string_view name = detail::base_name(e.path);
        if (name.starts_with(kLsmManifestPrefix) && !name.ends_with(".tmp")) {
          const auto v = lsm_manifest_version(name);
          if (!v) {
            if (bad.ok()) {
              bad = absl::DataLossError(
                  fmt::format("{}: a manifest name without a version number (Hudi's LSMTimeline fails listing it)",
                              table.display(e.path)));
            }
            return;
          }
          s.versions.push_back(*v);
        } else if (name.ends_with(".parquet") && !name.starts_with(".")) {
          s.data_files.emplace_back(name);
        }
      },
      opts);
  if (absl::IsNotFound(listed)) return s;
  if (!listed.ok()) return annotate(listed, fmt::format("listing {}", table.display(s.folder)));
  std::sort(s.versions.begin(), s.versions.end());
  std::sort(s.data_files.begin(), s.data_files.end());

  const std::string version_path = fmt::format("{}/{}", s.folder, kLsmVersionFile);
  auto version_bytes = storage.read(version_path);
  if (version_bytes.ok()) {
    if (const auto v = detail::java_parse_int(*version_bytes)) {
      s.version = *v;
      s.from_version_file = true;
    }
  } else if (!absl::IsNotFound(version_bytes.status())) {
    return annotate(version_bytes.status(), table.display(version_path));
  }
  if (!s.from_version_file) {
    LAKEGC_RETURN_IF_ERROR(bad);
    s.version = s.versions.empty() ? -1 : s.versions.back();
  }
  if (s.version < 0) return s;
  const std::string manifest_path = fmt::format("{}/{}", s.folder, lsm_manifest_name(s.version));
  LAKEGC_ASSIGN_OR_RETURN(std::string text, read_table_file(storage, table, manifest_path));
  LAKEGC_ASSIGN_OR_RETURN(s.manifest, parse_lsm_manifest(text, table.display(manifest_path)));
  for (const lsm_file_entry& f : s.manifest.files) {
    if (!parse_lsm_file_name(f.name)) {
      return absl::DataLossError(
          fmt::format("{}: lists '{}', which is not an LSM data file name "
                      "(<min>_<max>_<layer>.parquet)",
                      table.display(manifest_path), f.name));
    }
  }
  return s;
}

/// The archived timeline of a layout-2 table.
struct lsm_timeline {
  lsm_snapshot snapshot;
  /// Every archived instant of the snapshot's files, once per instant time
  /// (the first met, files in manifest order), sorted by instant time.
  std::vector<lsm_instant> instants;

  /// The record of instant time `t`, if archived.
  const lsm_instant* find(std::string_view t) const {
    const auto it = std::lower_bound(instants.begin(), instants.end(), t,
                                     [](const lsm_instant& i, std::string_view x) { return i.instant_time < x; });
    return it != instants.end() && it->instant_time == t ? &*it : nullptr;
  }
};

/// Reads the records of one data file of the history folder.
template <class S>
[[nodiscard]] StatusOr<std::vector<lsm_instant>> read_lsm_data_file(S& storage, const TableLocation& table,
                                                                    const std::string& folder, std::string_view name,
                                                                    lsm_columns which) {
  const std::string path = fmt::format("{}/{}", folder, name);
  LAKEGC_ASSIGN_OR_RETURN(std::string bytes, read_table_file(storage, table, path));
  return decode_lsm_file(bytes, table.display(path), which);
}

/// Reads the latest snapshot's instants (ArchivedTimelineLoaderV2).
template <class S>
[[nodiscard]] StatusOr<lsm_timeline> read_lsm_timeline(S& storage, const TableProperties& props,
                                                       const TableLocation& table,
                                                       lsm_columns which = lsm_columns::times_and_actions) {
  if (props.layout != TimelineLayout::v2) {
    return absl::FailedPreconditionError("the LSM timeline is layout 2's archive; this table has layout 1");
  }
  lsm_timeline out;
  LAKEGC_ASSIGN_OR_RETURN(out.snapshot, read_lsm_snapshot(storage, props, table));
  std::map<std::string, lsm_instant, std::less<>> by_time;
  for (const lsm_file_entry& f : out.snapshot.manifest.files) {
    LAKEGC_ASSIGN_OR_RETURN(auto rows, read_lsm_data_file(storage, table, out.snapshot.folder, f.name, which));
    for (lsm_instant& i : rows) {
      auto key = i.instant_time;
      by_time.try_emplace(std::move(key), std::move(i));
    }
  }
  out.instants.reserve(by_time.size());
  for (auto& [t, i] : by_time) out.instants.push_back(std::move(i));
  return out;
}

}  // namespace lakegc::hudi
