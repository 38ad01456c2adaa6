// File: lakegc/sim/invariants/common.hpp
// -----------------------------------------------------------------------------
// What the invariant checkers share: the table's files as a map, recording
// who removed which file, the first file of a snapshot's ideal content that
// is missing, the promised snapshots a set of removed files can touch, and
// loading metadata for a check.
//
// Verifies nothing by itself; each invariant has its own header in this
// folder, and checkers.hpp runs them in the order the actors need.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "lakegc/core/load_view.hpp"
#include "lakegc/sim/table.hpp"

namespace lakegc::sim {

using FileMap = std::map<std::string, std::uint64_t>;

/// The files of `before` missing from `after`: one merge of the two
/// sorted maps.
inline FileMap files_missing(const FileMap& before, const FileMap& after) {
  FileMap missing;
  auto a = after.begin();
  for (auto b = before.begin(); b != before.end(); ++b) {
    while (a != after.end() && a->first < b->first) ++a;
    if (a == after.end() || a->first != b->first) missing.emplace_hint(missing.end(), *b);
  }
  return missing;
}

/// The files of `before` missing from `after`, each recorded in the oracle
/// as deleted by `by`; `bytes` gets their total size.
inline FileMap record_removed(Table& t, const FileMap& before, const FileMap& after, const Deletion& by,
                              std::uint64_t* bytes) {
  FileMap removed = files_missing(before, after);
  *bytes = 0;
  for (const auto& [path, size] : removed) {
    *bytes += size;
    t.oracle.record_deletion(path, by);
  }
  return removed;
}

namespace detail {

// First ideal file of the snapshot at `at` missing from `present` (and, if
// `among` is given, listed in it), or "".
inline std::string first_missing(Table& t, const TableMetadata& md, const InstantTime& at, const FileMap& present,
                                 bool* error, const FileMap* among = nullptr) {
  auto ideal = t.oracle.snapshot(md, at);
  if (!ideal.ok()) {
    t.unexpected("checker", "oracle snapshot", ideal.status());
    *error = true;
    return {};
  }
  for (const SnapshotFile& f : **ideal) {
    std::string p = f.path();
    if (!present.contains(p) && (among == nullptr || among->contains(p))) return p;
  }
  return {};
}

// Snapshots (among `promised`) whose content can include a file of
// `removed`: those whose read range [slice key, next slice key) in the
// oracle's full view holds a removed base file (any earlier snapshot too,
// for a removed log, which an as-of view can attach to an older slice).
// Resolving every promised snapshot would cost a view per snapshot
// (hundreds under an hours rule); a file it cannot place makes it return
// them all.
inline std::set<InstantTime> snapshots_touching(Table& t, const TableMetadata& md, const FileMap& removed,
                                                const std::vector<InstantTime>& promised) {
  std::set<InstantTime> out;
  // The order of the view's files does not matter here: the kept view's.
  auto view = t.oracle.shadow_view(md);
  if (!view.ok()) {
    out.insert(promised.begin(), promised.end());
    return out;
  }
  std::set<InstantTime> pending_compactions;
  for (const auto& op : md.pending_compactions) pending_compactions.insert(op.compaction_instant);
  auto add_range = [&](std::optional<InstantTime> from, std::optional<InstantTime> to) {
    auto lo = from ? std::lower_bound(promised.begin(), promised.end(), *from) : promised.begin();
    auto hi = to ? std::lower_bound(promised.begin(), promised.end(), *to) : promised.end();
    for (auto it = lo; it < hi; ++it) out.insert(*it);
  };
  std::size_t found = 0;
  for (const Partition& p : view->partitions()) {
    for (const FileGroup& g : view->groups_of(p)) {
      const auto slices = view->slices_of(g);  // newest first
      for (std::size_t i = 0; i < slices.size(); ++i) {
        // Exclusive end of the range of snapshots that read slice i: the
        // next newer slice, skipping empty pending-compaction slices (a
        // query there reads slice i as well).
        std::optional<InstantTime> end;
        for (std::size_t j = i; j-- > 0;) {
          const FileSlice& newer = slices[j];
          if (newer.base_file == kNoFile && pending_compactions.contains(newer.base_instant)) continue;
          end = newer.base_instant;
          break;
        }
        const FileSlice& s = slices[i];
        if (s.base_file != kNoFile && removed.contains(view->file_path(p, s.base_file))) {
          add_range(s.base_instant, end);
          ++found;
        }
        for (auto f : view->logs_of(s)) {
          if (removed.contains(view->file_path(p, f))) {
            add_range(std::nullopt, end);
            ++found;
          }
        }
      }
    }
  }
  if (found < removed.size()) out.insert(promised.begin(), promised.end());  // not placed: check them all
  return out;
}

// The table's metadata for a check; a load that fails is recorded as an
// unexpected error (the checks never run on a guess).
inline std::optional<TableMetadata> load_for_check(Table& t) {
  auto md = t.load();
  if (!md.ok()) {
    t.unexpected("checker", "journal.load", md.status());
    return std::nullopt;
  }
  return std::move(*md);
}

}  // namespace detail

}  // namespace lakegc::sim
