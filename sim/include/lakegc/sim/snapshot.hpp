// File: lakegc/sim/snapshot.hpp
// -----------------------------------------------------------------------------
// What a query at instant T reads, resolved with the library's own view
// code: the timeline as it stood at T (Timeline::as_of), a TableView over a
// storage listing, and per file group live at T the newest slice keyed at
// or before T (base file + log files).
//
// A slice opened by a pending compaction has no base file yet; a query then
// reads the slice being compacted as well (Hudi merges the two), so that
// slice's files are part of the snapshot.
//
// Log files written by commits requested after T are not part of it. In
// layout 1 a log is named by its slice's base instant, so an as-of view
// attaches logs appended later (even after a later compaction, whose base
// file the as-of view does not see) to the slice T reads; a Hudi reader
// skips their blocks by instant time. The commit metadata says which commit
// wrote each log, so the resolution skips them too, and any log named by an
// instant after T (written after T, by a commit that may never have
// completed). (Layout 2 names logs by their deltacommit, which the as-of
// view already leaves out.)
//
// Readers resolve against the real storage; the oracle resolves the same
// way against its shadow storage (every file ever written, none deleted),
// which gives the snapshot's ideal content. Any difference is a file the
// cleaner took away.
#pragma once

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "lakegc/core/load_view.hpp"
#include "lakegc/plan/plan_clean.hpp"

namespace lakegc::sim {

struct SnapshotFile {
  std::string partition;
  std::string name;
  std::uint64_t size = 0;

  std::string path() const { return join_path(partition, name); }
  friend bool operator==(const SnapshotFile&, const SnapshotFile&) = default;
};

/// Files of the slice `s` of a view, appended to `out`.
inline void append_slice_files(const TableView& v, const Partition& p, const FileSlice& s,
                               std::vector<SnapshotFile>& out) {
  if (s.base_file != kNoFile) out.push_back({p.path, std::string(v.file_name(s.base_file)), v.file_size(s.base_file)});
  for (auto f : v.logs_of(s)) out.push_back({p.path, std::string(v.file_name(f)), v.file_size(f)});
}

/// The files a snapshot at `at` reads, sorted by path, from `v`: a view of
/// the table's files built against md.timeline.as_of(at).
inline std::vector<SnapshotFile> snapshot_files(const TableView& v, const TableMetadata& md, const InstantTime& at) {
  std::set<InstantTime> pending_compactions;
  for (const auto& op : md.pending_compactions) {
    const Instant* i = md.timeline.find(op.compaction_instant);
    if (i != nullptr && i->is_pending()) pending_compactions.insert(op.compaction_instant);
  }
  std::set<std::string> later_logs;  // partition/name of logs written after `at`
  for (auto it = md.commits.upper_bound(at); it != md.commits.end(); ++it) {
    for (const FileRef f : it->second.files) {
      if (!f.name.empty() && f.name.front() == '.') later_logs.insert(join_path(f.partition, f.name));
    }
  }
  std::vector<SnapshotFile> out;
  for (const Partition& p : v.partitions()) {
    for (const FileGroup& g : v.groups_of(p)) {
      if (g.replaced_by && *g.replaced_by <= at) continue;
      const auto slices = v.slices_of(g);
      const std::ptrdiff_t i = lakegc::detail::slice_read_at(slices, at);
      if (i < 0) continue;
      const FileSlice& s = slices[static_cast<std::size_t>(i)];
      append_slice_files(v, p, s, out);
      const auto next = static_cast<std::size_t>(i) + 1;
      if (s.base_file == kNoFile && pending_compactions.contains(s.base_instant) && next < slices.size()) {
        append_slice_files(v, p, slices[next], out);
      }
    }
  }
  std::erase_if(out, [&](const SnapshotFile& f) {
    if (f.name.empty() || f.name.front() != '.') return false;
    if (later_logs.contains(f.path())) return true;
    auto log = parse_log_file_name(f.name);
    return log.ok() && at < log->instant;
  });
  std::sort(out.begin(), out.end(), [](const SnapshotFile& a, const SnapshotFile& b) {
    return a.partition != b.partition ? a.partition < b.partition : a.name < b.name;
  });
  return out;
}

/// The files a snapshot at `at` reads, sorted by path.
template <Storage S>
[[nodiscard]] StatusOr<std::vector<SnapshotFile>> resolve_snapshot(S& storage, const TableMetadata& md,
                                                                   const InstantTime& at) {
  const Timeline tl = md.timeline.as_of(at);
  LAKEGC_ASSIGN_OR_RETURN(TableView v, load_view(storage, md, tl));
  return snapshot_files(v, md, at);
}

}  // namespace lakegc::sim
