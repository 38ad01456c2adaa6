// File: lakegc/plan/listing_check.hpp
// -----------------------------------------------------------------------------
// Is a partition's listing complete enough to plan from? A storage listing
// can silently return part of a directory (a paginated listing cut short,
// an inventory a day old, an eventually consistent store). Planning from it
// deletes less, except in one way: when the base file of a newer slice is
// missing, the log files of that slice attach to an older slice, and go
// with it. A partition whose listing lacks a file the metadata proves must
// be there is skipped for the run and reported; the next run plans it again.
//
// What the metadata proves must be listed, per file group that is not
// replaced, from the files completed commits on the active timeline name:
//
// * every named file of the group's newest slice (by the metadata's slice
//   keys: named base instants, listed base instants, pending compactions).
//   No clean deletes the newest slice of a live group, no rollback deletes
//   a completed commit's file, so a missing one is a listing that lies;
// * every named base file some listed log file belongs to (layout 1: the
//   base instant in the log's name; layout 2: the completion time of the
//   log's deltacommit). A clean deletes a slice as a unit, so a slice whose
//   logs are listed and whose base is not was cut by the listing.
//
// Neither rule needs the history of cleans (which archival removes): a
// legitimately deleted slice takes its logs with it, and the newest slice
// is never deleted. With a complete listing nothing is reported, so every
// plan is unchanged.
#pragma once

#include <algorithm>
#include <cassert>
#include <memory>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <absl/container/flat_hash_set.h>
#include <fmt/format.h>

#include "lakegc/core/file_name.hpp"
#include "lakegc/core/name_hash.hpp"
#include "lakegc/core/name_prefix_key.hpp"
#include "lakegc/core/named_files_index.hpp"
#include "lakegc/core/table_metadata.hpp"
#include "lakegc/core/table_view.hpp"
#include "lakegc/plan/clean_plan.hpp"

namespace lakegc {

namespace detail {

// Names are views into the metadata and the view (both outlive the check):
// the check runs before every partition a clean plans, and copying each
// named and listed file name into std::string keys of ordered maps was most
// of an incremental plan's time.
struct NamedFile {
  std::string_view name;
  InstantTime name_instant;  // the instant in the file's name
  InstantTime writer;        // the completed commit whose metadata names it
  bool is_log = false;
};

// The slice key a log file belongs to among `keys` (ascending), by Hudi's
// rules: layout 1, the greatest key at or before the base instant in its
// name; layout 2, the greatest key at or before its deltacommit's
// completion time; none before it, a log-only slice at its own instant.
inline InstantTime log_slice_key(const std::vector<InstantTime>& keys, const InstantTime& at, const InstantTime& own) {
  auto it = std::upper_bound(keys.begin(), keys.end(), at);
  if (it == keys.begin()) return own;
  return *--it;
}

}  // namespace detail

/// The gaps of the partitions `partitions` (indices into v.partitions()),
/// one per partition at most, in partition order.
inline std::vector<ListingGap> find_listing_gaps(const TableView& v, const TableMetadata& md,
                                                 std::span<const std::uint32_t> partitions) {
  std::vector<ListingGap> out;
  if (partitions.empty()) return out;

  // Files completed commits name in the wanted partitions, with their
  // partition and file group; replaced groups.
  struct Named {
    std::string_view file_id;
    detail::NamedFile file;
  };
  // The order the files are checked in, sorted apart from them (16 bytes to
  // move per file, not 64).
  struct Position {
    std::uint32_t partition;  // index into v.partitions()
    std::uint32_t index;      // into named: per partition, commit order
    std::uint64_t id_key;     // name_prefix_key(file_id): most comparisons end here
  };
  std::vector<Named> named;
  std::vector<Position> order;
  // Groups the metadata says something of (replaced; pending compaction
  // at `instant`), sorted as `order` is: the check walks them beside the
  // named files instead of hashing every group's partition and file id.
  struct GroupNote {
    std::uint32_t partition;
    std::uint64_t id_key;
    std::string_view file_id;
    InstantTime instant;
  };
  auto group_less = [](std::uint32_t pa, std::uint64_t ka, std::string_view ia, std::uint32_t pb, std::uint64_t kb,
                       std::string_view ib) {
    if (pa != pb) return pa < pb;
    if (ka != kb) return ka < kb;
    return ia < ib;
  };
  auto note_less = [&](const GroupNote& a, const GroupNote& b) {
    return group_less(a.partition, a.id_key, a.file_id, b.partition, b.id_key, b.file_id);
  };
  std::vector<GroupNote> replaced;
  std::vector<GroupNote> pending;
  // The commits by ordinal (the index's numbering); null where the commit
  // is not a completed write, whose files no slice holds yet.
  std::vector<std::pair<const InstantTime*, const CommitInfo*>> commits;
  commits.reserve(md.commits.size());
  for (const auto& [t, info] : md.commits) {
    const Instant* i = md.timeline.find(t);
    const bool completed_write = i != nullptr && i->is_completed() && is_write_action(i->action);
    commits.emplace_back(completed_write ? &t : nullptr, &info);
  }
  // The named files, replaced groups and pending compactions of the wanted
  // partitions, from the index: only theirs are read (reading every file of
  // every commit was most of an incremental plan, looking up every pending
  // compaction's partition a tenth of it). False when the index does not
  // fit the metadata.
  auto collect = [&](const NamedFilesIndex& index) {
    named.clear();
    order.clear();
    replaced.clear();
    pending.clear();
    for (std::uint32_t pi : partitions) {
      const std::string_view path = v.partitions()[pi].path;
      if (const auto runs = index.replaced_by_partition.find(detail::to_absl(path));
          runs != index.replaced_by_partition.end()) {
        for (const NamedFilesIndex::Run& run : runs->second) {
          if (run.commit >= commits.size()) return false;
          const auto [t, info] = commits[run.commit];
          if (run.end > info->replaced.size()) return false;
          if (t == nullptr) continue;  // only completed replacecommits replace
          for (std::uint32_t k = run.begin; k < run.end; ++k) {
            const ReplacedGroup& r = info->replaced[k];
            if (r.partition != path) return false;
            replaced.push_back({pi, name_prefix_key(r.file_id), r.file_id, *t});
          }
        }
      }
      if (const auto ops = index.pending_by_partition.find(detail::to_absl(path));
          ops != index.pending_by_partition.end()) {
        for (const std::uint32_t k : ops->second) {
          if (k >= md.pending_compactions.size()) return false;
          const PendingCompactionSlice& op = md.pending_compactions[k];
          if (op.partition != path) return false;
          const Instant* i = md.timeline.find(op.compaction_instant);
          if (i != nullptr && i->is_pending())
            pending.push_back({pi, name_prefix_key(op.file_id), op.file_id, op.compaction_instant});
        }
      }
      const auto runs = index.by_partition.find(detail::to_absl(path));
      if (runs == index.by_partition.end()) continue;
      for (const NamedFilesIndex::Run& run : runs->second) {
        if (run.commit >= commits.size()) return false;
        const auto [t, info] = commits[run.commit];
        if (run.end > info->files.size()) return false;
        if (t == nullptr) continue;
        for (std::uint32_t k = run.begin; k < run.end; ++k) {
          const FileRef f = info->files[k];
          if (f.partition != path) return false;
          const auto parsed = scan_data_file_name(f.name);
          if (!parsed) continue;
          order.push_back({pi, static_cast<std::uint32_t>(named.size()), name_prefix_key(parsed->file_id)});
          named.push_back({parsed->file_id, {f.name, parsed->instant, *t, parsed->is_log}});
        }
      }
    }
    return true;
  };
  std::shared_ptr<const NamedFilesIndex> own;
  if (!collect(current_named_files(md, own))) {
    // The journal's index fits the metadata's shape but not its entries:
    // this plan builds its own (an index built now always fits).
    assert(own == nullptr);
    own = index_named_files(md);
    const bool fits = collect(*own);
    assert(fits);
    (void)fits;
  }
  // Partitions and groups are checked in name order (the view's partitions
  // are in path order, so by index); a group's files keep the order the
  // commits name them in, which decides the file a gap reports. A sorted
  // vector, not maps of maps: this check runs before every plan, over every
  // file the active timeline names.
  std::sort(order.begin(), order.end(), [&](const Position& a, const Position& b) {
    if (a.partition != b.partition) return a.partition < b.partition;
    if (a.id_key != b.id_key) return a.id_key < b.id_key;
    const int c = named[a.index].file_id.compare(named[b.index].file_id);
    return c != 0 ? c < 0 : a.index < b.index;
  });
  std::sort(replaced.begin(), replaced.end(), note_less);
  std::sort(pending.begin(), pending.end(), note_less);
  // The notes of one group, found by cursors that only move forward (groups
  // are checked in the notes' order).
  std::size_t replaced_at = 0, pending_at = 0;
  auto notes_of = [&](const std::vector<GroupNote>& notes, std::size_t& at, const Position& group,
                      std::string_view id) {
    while (at < notes.size() &&
           group_less(notes[at].partition, notes[at].id_key, notes[at].file_id, group.partition, group.id_key, id)) {
      ++at;
    }
    std::size_t end = at;
    while (end < notes.size() && notes[end].partition == group.partition && notes[end].id_key == group.id_key &&
           notes[end].file_id == id) {
      ++end;
    }
    return std::span<const GroupNote>(notes.data() + at, end - at);
  };
  // Listed files no slice holds, of the partitions with named files: a
  // named file may be among them.
  absl::flat_hash_set<std::pair<std::uint32_t, std::string_view>, NameHash> uncommitted;
  // By index, not path: the table's uncommitted files are many more than
  // the wanted partitions' (an incremental plan hashed every one's path).
  std::vector<std::uint8_t> wanted_index(v.partitions().size(), 0);
  for (std::uint32_t pi : partitions) wanted_index[pi] = 1;
  for (const UncommittedFile& u : v.uncommitted_files()) {
    if (wanted_index[u.partition] != 0) uncommitted.emplace(u.partition, v.file_name(u.file));
  }

  // Where a log file belongs by the metadata: the time Hudi attaches it at.
  auto attach_time = [&](const InstantTime& name_instant) -> std::optional<InstantTime> {
    if (md.layout == TimelineLayout::v1) return name_instant;
    const Instant* i = md.timeline.find(name_instant);
    if (i != nullptr) {
      if (!i->is_completed()) return std::nullopt;  // not part of any slice yet
      return i->completion_or_requested();
    }
    if (auto c = md.archived_completions.find(name_instant); c != md.archived_completions.end()) return c->second;
    return name_instant;
  };

  // What the listing holds of one group, filled per named group. A file
  // name holds its group's file id, so a named file is listed exactly when
  // its group (or the partition's uncommitted files) lists that name.
  std::vector<std::string_view> listed;
  std::vector<InstantTime> keys;
  std::vector<InstantTime> log_times;
  std::vector<std::pair<InstantTime, const detail::NamedFile*>> placed;
  NameViewSet listed_set;  // for a group of many files
  constexpr std::size_t kLinearSearchMax = 32;
  auto is_listed = [&](std::uint32_t partition, std::string_view name) {
    const bool in_group =
        listed.size() <= kLinearSearchMax
            ? std::any_of(listed.begin(), listed.end(), [&](std::string_view l) { return same_name(l, name); })
            : listed_set.contains(name);
    return in_group || uncommitted.contains(std::pair<std::uint32_t, std::string_view>(partition, name));
  };

  std::optional<ListingGap> gap;
  std::uint32_t gap_partition = 0;
  for (std::size_t begin = 0; begin < order.size();) {
    const Position& first = order[begin];
    const std::string_view id = named[first.index].file_id;
    std::size_t end = begin + 1;
    while (end < order.size() && order[end].partition == first.partition && order[end].id_key == first.id_key &&
           named[order[end].index].file_id == id) {
      ++end;
    }
    const std::uint32_t part_index = first.partition;
    const std::span<const Position> files(order.data() + begin, end - begin);
    begin = end;
    if (gap && gap_partition != part_index) {
      out.push_back(std::move(*gap));
      gap.reset();
    }
    if (gap) continue;  // one gap per partition
    const Partition& part = v.partitions()[part_index];
    const std::string_view path = part.path;
    if (!notes_of(replaced, replaced_at, first, id).empty()) continue;  // its slices go whole: a gap only deletes less

    // The view's group of this id (groups are in file-id order).
    const auto groups = v.groups_of(part);
    const auto g = std::lower_bound(groups.begin(), groups.end(), id,
                                    [&](const FileGroup& x, std::string_view want) { return v.file_id(x) < want; });
    listed.clear();
    keys.clear();
    log_times.clear();
    if (g != groups.end() && v.file_id(*g) == id) {
      for (const FileSlice& s : v.slices_of(*g)) {
        if (s.base_file != kNoFile) {
          listed.push_back(v.file_name(s.base_file));
          keys.push_back(s.base_instant);
        }
        for (auto f : v.logs_of(s)) {
          listed.push_back(v.file_name(f));
          if (const auto l = detail::scan_log_file_name(v.file_name(f))) {
            if (auto at = attach_time(l->instant)) log_times.push_back(*at);
          }
        }
      }
    }
    if (listed.size() > kLinearSearchMax) {
      listed_set.clear();
      listed_set.insert(listed.begin(), listed.end());
    }

    for (const Position& at : files) {
      const detail::NamedFile& f = named[at.index].file;
      if (!f.is_log) keys.push_back(f.name_instant);
    }
    for (const GroupNote& op : notes_of(pending, pending_at, first, id)) keys.push_back(op.instant);
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    // Each named file's slice by the metadata's keys.
    placed.clear();
    for (const Position& at : files) {
      const detail::NamedFile& f = named[at.index].file;
      if (!f.is_log) {
        placed.emplace_back(f.name_instant, &f);
      } else if (auto at = attach_time(f.name_instant)) {
        placed.emplace_back(detail::log_slice_key(keys, *at, f.name_instant), &f);
      }
    }
    // The newest slice: the newest key (a pending compaction's, say) or a
    // log-only slice after every key.
    std::optional<InstantTime> newest;
    if (!keys.empty()) newest = keys.back();
    for (const auto& [key, f] : placed) {
      if (!newest || *newest < key) newest = key;
    }
    for (const auto& [key, f] : placed) {
      if (key != *newest || is_listed(part_index, f->name)) continue;
      gap = ListingGap{std::string(path), std::string(f->name),
                       fmt::format("the listing lacks {}, which commit {} wrote into the newest slice ({}) of file "
                                   "group {}: the listing is incomplete",
                                   f->name, f->writer, key, id)};
      break;
    }
    if (gap) {
      gap_partition = part_index;
      continue;
    }
    // A named base file missing while logs of its slice are listed.
    for (const auto& [key, f] : placed) {
      if (f->is_log || is_listed(part_index, f->name)) continue;
      const bool orphaned_logs = std::any_of(log_times.begin(), log_times.end(), [&](const InstantTime& at) {
        return detail::log_slice_key(keys, at, at) == key;
      });
      if (!orphaned_logs) continue;
      gap = ListingGap{std::string(path), std::string(f->name),
                       fmt::format("the listing lacks base file {} (commit {}) of file group {} while log files of "
                                   "its slice are listed: they would attach to an older slice and be deleted with "
                                   "it",
                                   f->name, f->writer, id)};
      break;
    }
    if (gap) gap_partition = part_index;
  }
  if (gap) out.push_back(std::move(*gap));
  return out;
}

}  // namespace lakegc
