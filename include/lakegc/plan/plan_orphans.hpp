// File: lakegc/plan/plan_orphans.hpp
// -----------------------------------------------------------------------------
// The orphan sweep: listed data files that no table state ever referenced
// (outputs of writes that failed, were killed, lost a race to a speculative
// duplicate, or hit a commit conflict).
//
// A listed file is an orphan candidate only if all of these hold:
//
// * its name matches the data-file grammar (nothing else is ever touched);
// * no completed instant's write statistics name it, no marker names it,
//   no savepoint names it;
// * the instant in its name is at or after the archive horizon
//   (Timeline::archive_horizon: the write timeline's start, or the first
//   write instant after the savepointed commits archival may have left
//   behind; in layout 1 no earlier than the first completed write, where
//   Hudi 0.x's view starts): an older instant may have been archived, and
//   its files are committed (Hudi's containsOrBeforeTimelineStarts);
// * that instant is not pending (a pending write's files belong to rollback);
// * if that instant is a completed write, its metadata was read and the file
//   is a speculative duplicate: another file of the same file group and
//   instant is the one the metadata names. A base file that is the only one
//   of its slice is read by Hudi's view whether or not the metadata names it,
//   and a layout-2 log of a completed deltacommit is attached to a slice by
//   Hudi's view: both are kept;
// * it is not a layout-1 log file: those are named by the base instant of
//   their slice, so the write that appended to them cannot be told apart.
//
// A second line of defence runs before anything is returned: the same
// listing and metadata build a TableView of the file groups that hold a
// candidate (a group's slices depend only on its own files and the
// metadata, so this is the whole view's answer for those files, without a
// second copy of the whole listing in memory), and every candidate must be
// in no slice of it (only among its uncommitted files). A candidate the view
// shows in a slice means the rules above and the view disagree; the sweep
// then stops with an error naming the file, and nothing is deleted.
//
// Candidates older than the cutoff (default 3 days, as Iceberg) are orphans;
// younger ones are reported as too young. Guards stop the sweep, in whole or
// for one partition, instead of guessing (every incident in other
// formats' orphan removal came from guessing):
//
// * an empty in-use set while the timeline has completed writes (a metadata
//   read failed somewhere) stops everything;
// * another table's `.hoodie/` found inside the location (two tables sharing
//   a location) stops everything;
// * a partition that metadata says holds live file groups but whose listing
//   shows no data file (a failed or eventually consistent listing) is
//   skipped;
// * a cutoff shorter than the longest write seen is refused unless forced.
//   Completed writes count by their duration (requested to completed, where
//   the timeline records it) and pending writes by their age, but only
//   those whose heartbeat is alive: a pending write whose heartbeat expired
//   (or that has none) is a failed write. Its files stay protected by its
//   pending instant and markers; it is reported (stale_writes) so it can be
//   rolled back, and it does not stop the sweep.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>
#include <absl/hash/hash.h>

#include "lakegc/core/duration.hpp"
#include "lakegc/core/file_name.hpp"
#include "lakegc/core/load_view.hpp"
#include "lakegc/core/name_hash.hpp"
#include "lakegc/core/prefaulted.hpp"
#include "lakegc/core/table_metadata.hpp"
#include "lakegc/plan/clean_plan.hpp"
#include "lakegc/plan/referenced_names.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc {

inline constexpr std::int64_t kDayMs = 86'400'000;

struct OrphanOptions {
  /// Only files at least this old (by modification time) are deleted.
  std::int64_t older_than_ms = 3 * kDayMs;
  /// Allow a cutoff shorter than the longest write seen.
  bool force = false;
  /// When a pending write's heartbeat counts as alive: its last beat is at
  /// most interval x tolerable misses old (Hudi's
  /// hoodie.client.heartbeat.interval_in_ms and .tolerable.misses).
  std::int64_t heartbeat_interval_ms = 60'000;
  std::int64_t heartbeat_tolerable_misses = 2;
  /// When the metadata (and its heartbeats) was read, epoch ms; heartbeats
  /// are judged as of then. Unset: the sweep's `now`. A sweep that reads
  /// metadata and then lists for minutes sets it.
  std::optional<std::int64_t> metadata_read_ms;
};

/// A pending write whose heartbeat expired or that has none: a failed
/// write, until rollback removes it.
struct StaleWrite {
  InstantTime instant;
  Action action = Action::commit;
  /// Age at the sweep's `now` (from its requested time).
  std::int64_t age_ms = 0;
  /// Its last heartbeat (epoch ms), if it has one.
  std::optional<std::int64_t> last_heartbeat_ms;
  friend bool operator==(const StaleWrite&, const StaleWrite&) = default;
};

struct OrphanFile {
  std::string path;  // relative to the table root
  std::uint64_t size = 0;
  std::int64_t mtime_ms = 0;
  InstantTime instant;  // from the file name
  friend bool operator==(const OrphanFile&, const OrphanFile&) = default;
};

/// A guard that stopped the sweep, for the whole table ("" scope) or one
/// partition.
struct OrphanGuard {
  std::string scope;
  std::string reason;
  friend bool operator==(const OrphanGuard&, const OrphanGuard&) = default;
};

struct OrphanPlan {
  std::vector<OrphanFile> orphans;    // sorted by path
  std::vector<OrphanFile> too_young;  // sorted by path
  std::vector<OrphanGuard> guards;
  std::uint64_t bytes = 0;
  std::size_t listed = 0;
  std::size_t referenced = 0;
  std::size_t not_data_files = 0;
  std::size_t kept = 0;  // candidates kept for another reason (archived, pending, layout-1 log, ...)
  /// Listed files of the file groups holding a candidate: the view that
  /// rechecks the candidates (the second line of defence) was built of them.
  std::size_t rechecked = 0;
  /// Pending writes whose heartbeat expired: their files are kept; roll
  /// them back.
  std::vector<StaleWrite> stale_writes;
  /// True when a table-wide guard stopped the sweep: orphans is empty.
  bool stopped = false;
};

/// The instant below which a file is never an orphan: the write timeline's
/// start, past savepointed commits archival may have left behind
/// (Timeline::archive_horizon), and in layout 1 no earlier than Hudi 0.x's
/// view start (Timeline::view_start), below which its view reads files as
/// committed. None: nothing is an orphan (no write timeline).
inline std::optional<InstantTime> orphan_horizon(const TableMetadata& md) {
  auto horizon = md.timeline.archive_horizon();
  if (md.layout == TimelineLayout::v1) {
    if (const auto view = md.timeline.view_start(); view && horizon && *horizon < *view) horizon = view;
  }
  return horizon;
}

/// True when the pending write `t` has beaten its heartbeat recently
/// enough at `now_ms` (a write without a heartbeat file is not alive, as
/// Hudi reads a missing heartbeat as one at time 0).
inline bool heartbeat_alive(const TableMetadata& md, const InstantTime& t, std::int64_t now_ms,
                            const OrphanOptions& o) {
  const auto hb = md.heartbeats.find(t);
  if (hb == md.heartbeats.end()) return false;
  return now_ms - hb->second <= o.heartbeat_interval_ms * o.heartbeat_tolerable_misses;
}

/// The longest write the timeline shows: completed writes by completion
/// minus requested (where completion is recorded), pending writes by their
/// age at `now_ms` if their heartbeat is alive. `longest_instant`, when
/// given, receives the write that set the figure.
inline std::int64_t longest_write_ms(const TableMetadata& md, std::int64_t now_ms, const OrphanOptions& o = {},
                                     std::optional<InstantTime>* longest_instant = nullptr) {
  const std::int64_t read_ms = o.metadata_read_ms.value_or(now_ms);
  std::int64_t longest = 0;
  for (const Instant& i : md.timeline.instants()) {
    if (!is_write_action(i.action)) continue;
    auto req = i.requested.to_epoch_ms(md.timezone);
    if (!req.ok()) continue;
    std::int64_t end = now_ms;
    if (i.is_completed()) {
      if (!i.completed) continue;
      auto done = i.completed->to_epoch_ms(md.timezone);
      if (!done.ok()) continue;
      end = *done;
    } else if (!heartbeat_alive(md, i.requested, read_ms, o)) {
      continue;  // a failed write: reported, not a measure of how long writes run
    }
    if (end - *req > longest) {
      longest = end - *req;
      if (longest_instant != nullptr) *longest_instant = i.requested;
    }
  }
  return longest;
}

/// Pending writes (commit, deltacommit, replacecommit) whose heartbeat is
/// not alive at `now_ms`, oldest first. Compactions and clusterings are
/// left to their own services, as Hudi's rollback leaves them.
inline std::vector<StaleWrite> stale_writes(const TableMetadata& md, std::int64_t now_ms, const OrphanOptions& o) {
  std::vector<StaleWrite> out;
  const std::int64_t read_ms = o.metadata_read_ms.value_or(now_ms);
  for (const Instant* i : md.timeline.pending_writes()) {
    if (!is_commit_action(i->action) || heartbeat_alive(md, i->requested, read_ms, o)) continue;
    StaleWrite w;
    w.instant = i->requested;
    w.action = i->action;
    if (auto req = i->requested.to_epoch_ms(md.timezone); req.ok()) w.age_ms = now_ms - *req;
    if (auto hb = md.heartbeats.find(i->requested); hb != md.heartbeats.end()) w.last_heartbeat_ms = hb->second;
    out.push_back(w);
  }
  return out;
}

/// The orphan sweep's second line of defence: an error naming the first
/// file of `lists` that `v` shows in a file slice (the orphan rules and the
/// view disagree about it, so nothing may be deleted).
[[nodiscard]] inline Status check_outside_slices(const TableView& v,
                                                 std::initializer_list<const std::vector<OrphanFile>*> lists) {
  // The lists' paths, and those of them a slice holds: the view's slice
  // files are looked up one by one, not all copied into a set.
  NameViewSet listed;
  for (const auto* list : lists) {
    for (const OrphanFile& f : *list) listed.insert(f.path);
  }
  NameViewSet in_slices;
  auto look_up = [&](const Partition& p, std::uint32_t file) {
    if (const auto it = listed.find(v.file_path(p, file)); it != listed.end()) in_slices.insert(*it);
  };
  for (const Partition& p : v.partitions()) {
    for (const FileGroup& g : v.groups_of(p)) {
      for (const FileSlice& s : v.slices_of(g)) {
        if (s.base_file != kNoFile) look_up(p, s.base_file);
        for (auto f : v.logs_of(s)) look_up(p, f);
      }
    }
  }
  if (in_slices.empty()) return Status();
  for (const auto* list : lists) {
    for (const OrphanFile& f : *list) {
      if (in_slices.contains(f.path)) {
        return absl::InternalError(
            fmt::format("orphan sweep stopped: '{}' passed the orphan rules but the table view shows it in a file "
                        "slice (instant {}); the two disagree, so nothing is deleted. Please report this with the "
                        "table's timeline",
                        f.path, f.instant));
      }
    }
  }
  return Status();
}

/// Streams a listing into the sweep. Make one with make(), add() every
/// listed file (paths relative to the table root), then finish(). The
/// metadata given to make() must outlive the sweep: the sweep keeps views
/// into it instead of copies.
///
/// Memory: the sweep holds 16 bytes per file the metadata names (a view of
/// the metadata's name, grouped by directory: ReferencedNames), and 16
/// bytes plus a copy of the name per listed data file the metadata does not
/// name.
class OrphanSweep {
 public:
  [[nodiscard]] static StatusOr<OrphanSweep> make(const TableMetadata& md, const OrphanOptions& options,
                                                  std::int64_t now_ms) {
    std::optional<InstantTime> which;
    const std::int64_t longest = longest_write_ms(md, now_ms, options, &which);
    if (options.older_than_ms < longest && !options.force) {
      return absl::FailedPreconditionError(fmt::format(
          "orphan cutoff {} is shorter than the longest write on the timeline ({}, write {}): files of a running "
          "write could look orphaned; raise the cutoff above {} or force it",
          format_duration_ms(options.older_than_ms), format_duration_ms(longest), which ? which->str() : "?",
          format_duration_ms(longest)));
    }
    return OrphanSweep(md, options, now_ms);
  }

  void add(std::string_view path, std::uint64_t size, std::int64_t mtime_ms) {
    ++plan_.listed;
    if (path.starts_with(".hoodie/")) return;  // the table's own metadata
    if (const auto nested = path.find("/.hoodie/"); nested != std::string_view::npos) {
      foreign_tables_.insert(std::string(path.substr(0, nested)));
      return;
    }
    const auto slash = path.rfind('/');
    const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
    const auto parsed = name.size() > kMaxNameSize ? std::nullopt : scan_data_file_name(name);
    if (!parsed) {
      ++plan_.not_data_files;
      return;
    }
    const std::string_view dir = slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
    const std::uint32_t d = dir_index(dir);
    dir_listed_[d] = 1;
    if (auto* named = referenced_.find(d, name, parsed->file_id)) {
      named->listed = 1;
      ++plan_.referenced;
      return;
    }
    decide(path, d, name, *parsed, size, mtime_ms);
  }

  /// The plan, after the second line of defence (see the header comment):
  /// an error naming the file if a candidate is in a slice of the view.
  [[nodiscard]] StatusOr<OrphanPlan> finish() && {
    // A duplicate of a completed write's base file is an orphan only while
    // the file its metadata names is listed beside it: once the cleaner has
    // deleted the named one, the duplicate is the only base file of its
    // slice, Hudi's view reads it, and it becomes the cleaner's.
    const auto listed_named = listed_named_slices();
    for (auto& [slice, f] : duplicates_) {
      if (!listed_named.contains(slice)) {
        ++plan_.kept;
        continue;
      }
      (now_ms_ - f.mtime_ms >= options_.older_than_ms ? candidates_ : too_young_).push_back(std::move(f));
    }
    duplicates_.clear();
    LAKEGC_RETURN_IF_ERROR(recheck_against_view());
    plan_.stale_writes = stale_writes(*md_, now_ms_, options_);
    if (!foreign_tables_.empty()) {
      for (const auto& root : foreign_tables_) {
        plan_.guards.push_back({"", fmt::format("another table's metadata folder found at '{}/.hoodie': two tables "
                                                "share this location; nothing is swept",
                                                root)});
      }
      plan_.stopped = true;
    }
    if (referenced_.empty() && referenced_exact_.empty() && has_completed_writes_) {
      plan_.guards.push_back({"",
                              "no file is referenced although the timeline has completed writes: metadata "
                              "could not be read; nothing is swept"});
      plan_.stopped = true;
    }
    std::set<std::string> skipped;
    for (const auto& p : expected_nonempty_) {
      if (!listed_dir(p)) {
        skipped.insert(p);
        plan_.guards.push_back({p,
                                "the listing shows no data file although metadata says this partition holds "
                                "live file groups; partition skipped"});
      }
    }
    if (!plan_.stopped) {
      auto in_skipped = [&](const OrphanFile& f) {
        const auto slash = f.path.rfind('/');
        return skipped.contains(slash == std::string::npos ? std::string() : f.path.substr(0, slash));
      };
      for (auto& f : candidates_) {
        if (in_skipped(f)) continue;
        plan_.bytes += f.size;
        plan_.orphans.push_back(std::move(f));
      }
      for (auto& f : too_young_) {
        if (!in_skipped(f)) plan_.too_young.push_back(std::move(f));
      }
    }
    auto by_path = [](const OrphanFile& a, const OrphanFile& b) { return a.path < b.path; };
    std::sort(plan_.orphans.begin(), plan_.orphans.end(), by_path);
    std::sort(plan_.too_young.begin(), plan_.too_young.end(), by_path);
    return std::move(plan_);
  }

 private:
  // No store allows a file name this long (S3 keys end at 1 KiB, POSIX
  // names at 255 bytes); a longer one is not a data file and is never
  // touched. It also bounds the sizes ListedFile packs into 12 bits.
  static constexpr std::size_t kMaxNameSize = 4095;

  /// A completed commit's metadata and its partitions' directory indexes.
  struct CompletedCommit {
    const CommitInfo* info;
    std::vector<std::uint32_t> dirs;
  };

  OrphanSweep(const TableMetadata& md, const OrphanOptions& options, std::int64_t now_ms)
      : md_(&md), options_(options), now_ms_(now_ms), horizon_(orphan_horizon(md)) {
    // The completed commits, each with the directory indexes of its
    // partitions in the order of FileList::partitions(): a file's directory
    // without hashing its path.
    std::vector<CompletedCommit> commits;
    for (const auto& [t, info] : md.commits) {
      if (!completed(t)) continue;
      CompletedCommit& c = commits.emplace_back(CompletedCommit{&info, {}});
      for (const std::string& p : info.files.partitions()) c.dirs.push_back(dir_index(p));
    }
    mark_live_partitions(commits);
    // A name holding '/' splits differently in a listing, and one too long
    // for a member is no data file: both are kept as text (a set: the two
    // passes insert them twice).
    auto named = [&](std::uint32_t d, const FileRef f, bool committed, auto&& emit) {
      if (f.name.find('/') != std::string_view::npos || f.name.size() > kMaxNameSize) {
        referenced_exact_.insert(join_path(f.partition, f.name));
      } else {
        emit(d, f.name, committed);
      }
    };
    referenced_ = ReferencedNames::build(
        [&](auto&& emit) {
          for (const CompletedCommit& c : commits) {
            const FileList& files = c.info->files;
            for (std::size_t i = 0; i < files.size(); ++i)
              named(c.dirs[files.partition_index(i)], files[i], true, emit);
          }
          for (const auto& sp : md.savepoints) {
            for (const auto& f : sp.files) named(dir_index(f.partition), f, false, emit);
          }
          for (const auto& [t, files] : md.markers) {
            for (const auto& f : files) named(dir_index(f.partition), f, false, emit);
          }
        },
        group_of);
    has_completed_writes_ = !md.timeline.completed_commits().empty();
  }

  /// Partitions holding a file group that completed writes wrote and no
  /// replacecommit replaced: their listing must show a data file.
  void mark_live_partitions(const std::vector<CompletedCommit>& commits) {
    absl::flat_hash_set<std::pair<std::string_view, std::string_view>, NameHash> replaced;  // (partition, file id)
    for (const CompletedCommit& c : commits) {
      for (const auto& r : c.info->replaced) replaced.insert({r.partition, r.file_id});
    }
    std::vector<char> live(dirs_.size(), 0);
    for (const CompletedCommit& c : commits) {
      const FileList& files = c.info->files;
      for (std::size_t i = 0; i < files.size(); ++i) {
        const std::uint32_t d = c.dirs[files.partition_index(i)];
        if (live[d] != 0) continue;  // one live group is enough
        const FileRef f = files[i];
        const auto parsed = scan_data_file_name(f.name);
        if (parsed && !replaced.contains({f.partition, parsed->file_id})) live[d] = 1;
      }
    }
    for (std::uint32_t d = 0; d < live.size(); ++d) {
      if (live[d] != 0) expected_nonempty_.insert(dirs_[d]);
    }
  }

  bool completed(const InstantTime& t) const {
    const Instant* i = md_->timeline.find(t);
    return i != nullptr && i->is_completed();
  }

  bool referenced_exactly(std::string_view path) const {
    return !referenced_exact_.empty() && referenced_exact_.contains(detail::to_absl(path));
  }

  enum class Verdict : std::uint8_t { keep, candidate, duplicate };

  /// A listed data file the metadata does not name (or names only as
  /// text, see referenced_exact_), kept until finish() knows which file
  /// groups the recheck needs: its name (a copy in names_), its directory
  /// and where its file id is in it. Listed files the metadata names are
  /// marked in referenced_ instead.
  struct ListedFile {
    const char* name_data = nullptr;
    std::uint32_t dir = 0;  // index into dirs_
    std::uint16_t name_size : 12 = 0;
    std::uint16_t file_id_offset : 4 = 0;
    std::uint16_t file_id_size : 12 = 0;
    std::uint16_t referenced : 1 = 0;
    std::string_view name() const noexcept { return {name_data, name_size}; }
    std::string_view file_id() const noexcept { return name().substr(file_id_offset, file_id_size); }
  };
  static_assert(sizeof(ListedFile) == 16);

  /// A file slice of a listed file: its directory, file id and instant.
  using ListedSlice = std::tuple<std::uint32_t, std::string_view, InstantTime>;

  std::uint32_t dir_index(std::string_view dir) {
    // A listing visits a directory's files together: hash each directory
    // once per run of its files, not once per file.
    if (!dirs_.empty() && dirs_[last_dir_] == dir) return last_dir_;
    auto [it, inserted] = dir_index_.try_emplace(detail::to_absl(dir), static_cast<std::uint32_t>(dirs_.size()));
    if (inserted) {
      dirs_.emplace_back(dir);
      dir_listed_.push_back(0);
      dir_rechecked_.push_back(0);
    }
    last_dir_ = it->second;
    return last_dir_;
  }

  /// A name's group in referenced_: its file id. A name that is no data
  /// file is never looked up (add() skips it), so any group will do.
  static std::string_view group_of(std::string_view name) {
    const auto parsed = scan_data_file_name(name);
    return parsed ? parsed->file_id : name;
  }

  /// Whether the listing showed a data file in `dir`.
  bool listed_dir(std::string_view dir) const {
    const auto it = dir_index_.find(detail::to_absl(dir));
    return it != dir_index_.end() && dir_listed_[it->second] != 0;
  }

  const ListedFile& remember(std::uint32_t dir, std::string_view name, std::string_view file_id, bool referenced) {
    // file_id is a view into name (scan_data_file_name), starting at 0 (a
    // base file) or 1 (a log's leading dot); name is at most kMaxNameSize.
    ListedFile f;
    f.name_data = names_.copy(name).data();
    f.dir = dir;
    f.name_size = static_cast<std::uint16_t>(name.size());
    f.file_id_offset = static_cast<std::uint16_t>(file_id.data() - name.data());
    f.file_id_size = static_cast<std::uint16_t>(file_id.size());
    f.referenced = referenced ? 1 : 0;
    return listed_.push_back(f);
  }

  /// Everything add() promises for a listed data file that referenced_
  /// does not hold.
  void decide(std::string_view path, std::uint32_t dir, std::string_view name, const DataFileNameView& parsed,
              std::uint64_t size, std::int64_t mtime_ms) {
    const bool referenced = referenced_exactly(path);
    const ListedFile& listed = remember(dir, name, parsed.file_id, referenced);
    if (referenced) {
      ++plan_.referenced;
      return;
    }
    const InstantTime t = parsed.instant;
    const Verdict verdict = classify(dirs_[dir], parsed.file_id, t, parsed.is_log);
    if (verdict == Verdict::keep) {
      ++plan_.kept;
      return;
    }
    // Candidate or possible duplicate: the recheck builds this group's view.
    rechecked_groups_.insert({listed.dir, listed.file_id()});
    dir_rechecked_[dir] = 1;
    OrphanFile f{std::string(path), size, mtime_ms, t};
    if (verdict == Verdict::duplicate) {
      duplicates_.push_back({{listed.dir, listed.file_id(), t}, std::move(f)});
      return;
    }
    (now_ms_ - mtime_ms >= options_.older_than_ms ? candidates_ : too_young_).push_back(std::move(f));
  }

  Verdict classify(std::string_view partition, std::string_view file_id, const InstantTime& t, bool is_log) {
    if (is_log && md_->layout == TimelineLayout::v1) return Verdict::keep;
    const Timeline& tl = md_->timeline;
    // Before the archive horizon the instant may have been archived: its
    // files are committed (or, in a savepoint hole, may be). In layout 1
    // Hudi's view also reads as committed a file older than its first
    // completed write, even past a pending write before it.
    if (!horizon_ || t < *horizon_) return Verdict::keep;
    const Instant* i = tl.find(t);
    if (i == nullptr) return Verdict::candidate;                 // a failed write whose instant is gone
    if (i->is_pending()) return Verdict::keep;                   // rollback's job
    if (!is_write_action(i->action)) return Verdict::candidate;  // no write has this time
    const auto commit = md_->commits.find(t);
    if (commit == md_->commits.end()) return Verdict::keep;  // completed write: only if its metadata was read
    // A completed write's file that its metadata does not name: Hudi's view
    // attaches a layout-2 log to a slice, and reads a base file that is the
    // only one of its slice. Only a duplicate beside the named one is an
    // orphan (decided in finish(), once the listing is complete).
    if (is_log) return Verdict::keep;
    return names_slice(commit->second, t, partition, file_id) ? Verdict::duplicate : Verdict::keep;
  }

  /// Whether commit `t`'s metadata names a file of file group `file_id` in
  /// `partition`, from a set built for the commit the first time one of its
  /// slices is asked about: a completed write's file that its metadata does
  /// not name is rare (a speculative duplicate), so most commits never
  /// build one, and none is built twice.
  bool names_slice(const CommitInfo& info, const InstantTime& t, std::string_view partition, std::string_view file_id) {
    auto [it, first] = named_by_commit_.try_emplace(t);
    if (first) {
      for (const auto& f : info.files) {
        if (const auto parsed = scan_data_file_name(f.name)) it->second.insert({f.partition, parsed->file_id});
      }
    }
    return it->second.contains({partition, file_id});
  }

  /// Calls f(dir, name, parsed name) for every listed data file of a file
  /// group holding a candidate or a duplicate, and with `referenced` only
  /// for those the metadata names.
  template <class F>
  void for_each_rechecked(bool referenced_only, F&& f) const {
    // In (directory, file id) order: the same view whatever the hash seed.
    std::vector<std::pair<std::uint32_t, std::string_view>> groups(rechecked_groups_.begin(), rechecked_groups_.end());
    std::sort(groups.begin(), groups.end());
    for (const auto& [d, file_id] : groups) {
      referenced_.for_each_in_group(d, file_id, [&](const ReferencedNames::Member& m) {
        if (m.listed == 0) return;
        const auto parsed = scan_data_file_name(m.name());  // add() found it a data file
        if (parsed->file_id == file_id) f(d, m.name(), *parsed);
      });
    }
    // Every file the metadata does not name is asked about: first against
    // the groups' (directory, file id hash), sorted, searched within the
    // file's directory (a listing's files come directory by directory, so
    // the search stays in cache), and only a hit against the set.
    std::vector<std::uint64_t> keys;
    keys.reserve(groups.size());
    for (const auto& [d, file_id] : groups) keys.push_back(std::uint64_t{d} << 32 | NameHash32()(file_id));
    std::sort(keys.begin(), keys.end());
    std::uint32_t dir = 0;
    auto lo = keys.begin(), hi = keys.begin();
    listed_.for_each([&](const ListedFile& l) {
      if (dir_rechecked_[l.dir] == 0 || (referenced_only && l.referenced == 0)) return;
      if (lo == hi || l.dir != dir) {
        dir = l.dir;
        lo = std::lower_bound(keys.begin(), keys.end(), std::uint64_t{dir} << 32);
        hi = std::lower_bound(lo, keys.end(), std::uint64_t{dir + 1} << 32);
      }
      if (!std::binary_search(lo, hi, std::uint64_t{dir} << 32 | NameHash32()(l.file_id()))) return;
      if (!rechecked_groups_.contains({l.dir, l.file_id()})) return;
      f(l.dir, l.name(), *scan_data_file_name(l.name()));
    });
  }

  /// The slices of listed base files that the metadata names, in the file
  /// groups of the duplicates (the only ones finish() asks about).
  absl::flat_hash_set<ListedSlice, NameHash> listed_named_slices() const {
    absl::flat_hash_set<ListedSlice, NameHash> out;
    if (duplicates_.empty()) return out;
    for_each_rechecked(true, [&](std::uint32_t dir, std::string_view, const DataFileNameView& parsed) {
      if (!parsed.is_log) out.insert({dir, parsed.file_id, parsed.instant});
    });
    return out;
  }

  // The second line of defence: no candidate may be in a slice of the view
  // built from the same listing and metadata; the groups holding one are
  // enough (see the header comment).
  [[nodiscard]] Status recheck_against_view() {
    if (candidates_.empty() && too_young_.empty()) return Status();
    TableViewBuilder view(md_->timeline, md_->layout);
    add_metadata(view, *md_);
    for_each_rechecked(false, [&](std::uint32_t dir, std::string_view name, const DataFileNameView&) {
      view.add_file(dirs_[dir], name, 0);
      ++plan_.rechecked;
    });
    return check_outside_slices(std::move(view).build(), {&candidates_, &too_young_});
  }

  const TableMetadata* md_;
  OrphanOptions options_;
  std::int64_t now_ms_;
  std::optional<InstantTime> horizon_;  // orphan_horizon(*md_)
  // Names the metadata gives (completed writes, savepoints, markers), by
  // directory (an index into dirs_); names holding '/' or too long for it
  // are in referenced_exact_, as paths.
  ReferencedNames referenced_;
  absl::flat_hash_set<std::string> referenced_exact_;
  std::set<std::string> expected_nonempty_;
  // Every directory holding a listed data file or named by the metadata,
  // its index, whether the listing showed a data file in it, and whether
  // it holds a file group the recheck needs.
  std::vector<std::string> dirs_;
  absl::flat_hash_map<std::string, std::uint32_t> dir_index_;
  std::vector<char> dir_listed_;
  std::vector<char> dir_rechecked_;
  std::uint32_t last_dir_ = 0;
  // Listed data files the metadata does not name, and their names:
  // chunked, so views stay valid as they grow and growing copies nothing
  // (prefaulted.hpp).
  TextArena names_;
  ChunkedList<ListedFile> listed_;
  absl::flat_hash_set<std::pair<std::uint32_t, std::string_view>, NameHash> rechecked_groups_;  // (dir, file id)
  std::set<std::string> foreign_tables_;
  std::vector<OrphanFile> candidates_;
  std::vector<OrphanFile> too_young_;
  std::map<InstantTime, absl::flat_hash_set<std::pair<std::string_view, std::string_view>, NameHash>> named_by_commit_;
  std::vector<std::pair<ListedSlice, OrphanFile>> duplicates_;
  bool has_completed_writes_ = false;
  OrphanPlan plan_;
};

/// Sweeps a table on `storage` (rooted at the table). A listing error is an
/// error: nothing is planned.
template <Storage S>
[[nodiscard]] StatusOr<OrphanPlan> plan_orphans(S& storage, const TableMetadata& md, const OrphanOptions& options,
                                                std::int64_t now_ms) {
  LAKEGC_ASSIGN_OR_RETURN(OrphanSweep sweep, OrphanSweep::make(md, options, now_ms));
  ListOptions opts;
  // Skip the table's own .hoodie but not nested ones: those reveal a second
  // table sharing the location.
  opts.skip_dir = [](std::string_view dir) { return dir == ".hoodie"; };
  Status st = storage.list(
      "", [&](const FileEntry& e) { sweep.add(e.path, e.size, e.mtime_ms); }, opts);
  if (!st.ok()) return annotate(st, "orphan sweep: listing the table failed; nothing is deleted");
  return std::move(sweep).finish();
}

}  // namespace lakegc
