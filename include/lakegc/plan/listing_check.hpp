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
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>
#include <fmt/format.h>

#include "lakegc/core/file_name.hpp"
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
  using GroupKey = std::pair<std::string_view, std::string_view>;  // partition, file id
  std::vector<ListingGap> out;
  if (partitions.empty()) return out;
  absl::flat_hash_map<std::string_view, std::uint32_t> wanted;  // path -> partition index
  for (std::uint32_t pi : partitions) wanted.emplace(v.partitions()[pi].path, pi);
  auto is_wanted = [&](std::string_view path) { return wanted.contains(path); };

  // Files completed commits name, per partition and file group (ordered:
  // partitions and groups are checked in name order); replaced groups.
  std::map<std::string_view, std::map<std::string_view, std::vector<detail::NamedFile>>> named;
  absl::flat_hash_set<GroupKey> replaced;
  for (const auto& [t, info] : md.commits) {
    const Instant* i = md.timeline.find(t);
    if (i == nullptr || !i->is_completed() || !is_write_action(i->action)) continue;
    for (const ReplacedGroup& r : info.replaced) {
      if (is_wanted(r.partition)) replaced.emplace(r.partition, r.file_id);
    }
    const bool touches = std::any_of(info.partitions_written.begin(), info.partitions_written.end(),
                                     [&](const std::string& p) { return is_wanted(p); });
    if (!touches && !info.partitions_written.empty()) continue;
    // A commit's files come partition by partition: the answer for the
    // previous file's partition is reused (hashing every committed file's
    // partition was a tenth of an incremental plan).
    std::string_view last_partition;
    bool last_wanted = false;
    bool have_last = false;
    for (const WrittenFile& f : info.files) {
      if (!have_last || f.partition != last_partition) {
        last_partition = f.partition;
        last_wanted = is_wanted(f.partition);
        have_last = true;
      }
      if (!last_wanted) continue;
      const auto parsed = scan_data_file_name(f.name);
      if (!parsed) continue;
      named[f.partition][parsed->file_id].push_back({f.name, parsed->instant, t, parsed->is_log});
    }
  }
  absl::flat_hash_map<GroupKey, std::vector<InstantTime>> pending_keys;
  for (const PendingCompactionSlice& op : md.pending_compactions) {
    if (!is_wanted(op.partition)) continue;
    const Instant* i = md.timeline.find(op.compaction_instant);
    if (i != nullptr && i->is_pending())
      pending_keys[GroupKey{op.partition, op.file_id}].push_back(op.compaction_instant);
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

  for (const auto& [path, groups] : named) {
    const std::uint32_t part_index = wanted.at(path);
    const Partition& part = v.partitions()[part_index];
    // What the listing holds here, per file group: names, and base instants.
    absl::flat_hash_set<std::string_view> listed;
    absl::flat_hash_map<std::string_view, std::vector<InstantTime>> listed_keys;
    absl::flat_hash_map<std::string_view, std::vector<InstantTime>> listed_log_times;
    auto note_log = [&](std::string_view name) {
      const auto l = detail::scan_log_file_name(name);
      if (!l) return;
      if (auto at = attach_time(l->instant)) listed_log_times[l->file_id].push_back(*at);
    };
    for (const FileGroup& g : v.groups_of(part)) {
      const std::string_view id = v.file_id(g);
      for (const FileSlice& s : v.slices_of(g)) {
        if (s.base_file != kNoFile) {
          listed.emplace(v.file_name(s.base_file));
          listed_keys[id].push_back(s.base_instant);
        }
        for (auto f : v.logs_of(s)) {
          listed.emplace(v.file_name(f));
          note_log(v.file_name(f));
        }
      }
    }
    for (const UncommittedFile& u : v.uncommitted_files()) {
      if (u.partition == part_index) listed.emplace(v.file_name(u.file));
    }

    std::optional<ListingGap> gap;
    for (const auto& [id, files] : groups) {
      if (gap) break;
      if (replaced.contains(GroupKey{path, id})) continue;  // its slices go whole: a gap only deletes less
      std::vector<InstantTime> keys;
      if (auto lk = listed_keys.find(id); lk != listed_keys.end()) keys = lk->second;
      for (const auto& f : files) {
        if (!f.is_log) keys.push_back(f.name_instant);
      }
      if (auto pk = pending_keys.find(GroupKey{path, id}); pk != pending_keys.end()) {
        keys.insert(keys.end(), pk->second.begin(), pk->second.end());
      }
      std::sort(keys.begin(), keys.end());
      keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
      // Each named file's slice by the metadata's keys.
      std::vector<std::pair<InstantTime, const detail::NamedFile*>> placed;
      for (const auto& f : files) {
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
        if (key != *newest || listed.contains(f->name)) continue;
        gap = ListingGap{std::string(path), std::string(f->name),
                         fmt::format("the listing lacks {}, which commit {} wrote into the newest slice ({}) of file "
                                     "group {}: the listing is incomplete",
                                     f->name, f->writer, key, id)};
        break;
      }
      if (gap) break;
      // A named base file missing while logs of its slice are listed.
      static const std::vector<InstantTime> kNone;
      const auto lt = listed_log_times.find(id);
      const auto& log_times = lt == listed_log_times.end() ? kNone : lt->second;
      for (const auto& [key, f] : placed) {
        if (f->is_log || listed.contains(f->name)) continue;
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
    }
    if (gap) out.push_back(std::move(*gap));
  }
  return out;
}

}  // namespace lakegc
