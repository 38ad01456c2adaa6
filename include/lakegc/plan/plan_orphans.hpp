// File: lakegc/plan/plan_orphans.hpp
// -----------------------------------------------------------------------------
// The orphan sweep: listed data files that no table state ever referenced
// (outputs of writes that failed, were killed, lost a race to a speculative
// duplicate, or hit a commit conflict).
//
// A listed file is an orphan candidate only if all of these hold:
//
// * its name matches the data-file grammar (nothing else is ever touched);
// * no completed instant's write statistics name it (a speculative duplicate
//   with the same file id and instant but another write token is an orphan;
//   superseded versions that completed commits named are the cleaner's,
//   never the sweep's);
// * the instant in its name is not pending (a pending write's files belong
//   to rollback), no marker names it, no savepoint names it;
// * the instant in its name is not older than the active timeline (files of
//   archived instants are left alone: lakegc does not read the archive);
// * it is not a layout-1 log file: those are named by the base instant of
//   their slice, so the write that appended to them cannot be told apart;
// * the instant's metadata was read (a completed instant without metadata
//   keeps its files).
//
// Candidates older than the cutoff (default 3 days, as Iceberg) are orphans;
// younger ones are reported as too young. Guards stop the sweep, in whole or
// for one partition, instead of guessing (peers.md: every incident in other
// formats' orphan removal came from guessing):
//
// * an empty in-use set while the timeline has completed writes (a metadata
//   read failed somewhere) stops everything;
// * another table's `.hoodie/` found inside the location (two tables sharing
//   a location) stops everything;
// * a partition that metadata says holds live file groups but whose listing
//   shows no data file (a failed or eventually consistent listing) is
//   skipped;
// * a cutoff shorter than the longest write seen (pending writes' age,
//   completed writes' duration where the timeline records completion) is
//   refused unless forced.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <absl/container/flat_hash_set.h>

#include "lakegc/core/file_name.hpp"
#include "lakegc/core/load_view.hpp"
#include "lakegc/core/table_metadata.hpp"
#include "lakegc/plan/clean_plan.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc {

inline constexpr std::int64_t kDayMs = 86'400'000;

struct OrphanOptions {
  /// Only files at least this old (by modification time) are deleted.
  std::int64_t older_than_ms = 3 * kDayMs;
  /// Allow a cutoff shorter than the longest write seen.
  bool force = false;
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
  /// True when a table-wide guard stopped the sweep: orphans is empty.
  bool stopped = false;
};

/// The longest write the timeline shows: pending writes by their age at
/// `now_ms`, completed ones by completion minus requested (layout 2).
inline std::int64_t longest_write_ms(const TableMetadata& md, std::int64_t now_ms) {
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
    }
    longest = std::max(longest, end - *req);
  }
  return longest;
}

/// Streams a listing into the sweep. Make one with make(), add() every
/// listed file (paths relative to the table root), then finish().
class OrphanSweep {
 public:
  static StatusOr<OrphanSweep> make(const TableMetadata& md, const OrphanOptions& options, std::int64_t now_ms) {
    const std::int64_t longest = longest_write_ms(md, now_ms);
    if (options.older_than_ms < longest && !options.force) {
      return absl::FailedPreconditionError(fmt::format(
          "orphan cutoff of {} ms is shorter than the longest write on the timeline ({} ms): files of a running "
          "write could look orphaned; raise the cutoff or force it",
          options.older_than_ms, longest));
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
    const std::string_view dir = slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
    const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
    auto parsed = parse_data_file_name(name);
    if (!parsed.ok()) {
      ++plan_.not_data_files;
      return;
    }
    // A listing visits a directory's files together: insert each directory
    // once per run of its files, not once per file.
    if (!has_last_dir_ || dir != last_dir_) {
      last_dir_ = std::string(dir);
      has_last_dir_ = true;
      listed_partitions_.insert(last_dir_);
    }
    if (referenced_.contains(detail::to_absl(path))) {
      ++plan_.referenced;
      return;
    }
    const bool is_log = std::holds_alternative<LogFileName>(*parsed);
    const InstantTime t = is_log ? std::get<LogFileName>(*parsed).instant : std::get<BaseFileName>(*parsed).instant;
    if (!is_candidate(t, is_log)) {
      ++plan_.kept;
      return;
    }
    OrphanFile f{std::string(path), size, mtime_ms, t};
    (now_ms_ - mtime_ms >= options_.older_than_ms ? candidates_ : too_young_).push_back(std::move(f));
  }

  OrphanPlan finish() && {
    if (!foreign_tables_.empty()) {
      for (const auto& root : foreign_tables_) {
        plan_.guards.push_back({"", fmt::format("another table's metadata folder found at '{}/.hoodie': two tables "
                                                "share this location; nothing is swept",
                                                root)});
      }
      plan_.stopped = true;
    }
    if (referenced_.empty() && has_completed_writes_) {
      plan_.guards.push_back({"", "no file is referenced although the timeline has completed writes: metadata "
                                  "could not be read; nothing is swept"});
      plan_.stopped = true;
    }
    std::set<std::string> skipped;
    for (const auto& p : expected_nonempty_) {
      if (!listed_partitions_.contains(p)) {
        skipped.insert(p);
        plan_.guards.push_back({p, "the listing shows no data file although metadata says this partition holds "
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
  OrphanSweep(const TableMetadata& md, const OrphanOptions& options, std::int64_t now_ms)
      : md_(&md), options_(options), now_ms_(now_ms) {
    std::map<std::string, std::set<std::string>> written;  // partition -> file ids
    std::set<std::pair<std::string, std::string>> replaced;
    for (const auto& [t, info] : md.commits) {
      const Instant* i = md.timeline.find(t);
      if (i == nullptr) continue;
      if (i->is_completed()) {
        for (const auto& f : info.files) {
          referenced_.insert(join_path(f.partition, f.name));
          if (auto parsed = parse_data_file_name(f.name); parsed.ok()) {
            written[f.partition].insert(std::visit([](const auto& n) { return n.file_id; }, *parsed));
          }
        }
        for (const auto& r : info.replaced) replaced.insert({r.partition, r.file_id});
      }
    }
    for (const auto& sp : md.savepoints) {
      for (const auto& f : sp.files) referenced_.insert(join_path(f.partition, f.name));
    }
    for (const auto& [t, files] : md.markers) {
      for (const auto& f : files) referenced_.insert(join_path(f.partition, f.name));
    }
    for (const auto& [p, ids] : written) {
      const bool live = std::any_of(ids.begin(), ids.end(), [&](const std::string& id) { return !replaced.contains({p, id}); });
      if (live) expected_nonempty_.insert(p);
    }
    has_completed_writes_ = !md.timeline.completed_commits().empty();
  }

  bool is_candidate(const InstantTime& t, bool is_log) const {
    if (is_log && md_->layout == TimelineLayout::v1) return false;
    const auto start = md_->timeline.start();
    if (!start || t < *start) return false;  // archived (or no timeline): left alone
    const Instant* i = md_->timeline.find(t);
    if (i == nullptr) return true;       // no instant: a failed write whose instant is gone
    if (i->is_pending()) return false;   // rollback's job
    if (!is_write_action(i->action)) return true;
    return md_->commits.contains(t);     // completed write: only if its metadata was read
  }

  const TableMetadata* md_;
  OrphanOptions options_;
  std::int64_t now_ms_;
  absl::flat_hash_set<std::string> referenced_;
  std::set<std::string> expected_nonempty_;
  std::set<std::string> listed_partitions_;
  std::string last_dir_;
  bool has_last_dir_ = false;
  std::set<std::string> foreign_tables_;
  std::vector<OrphanFile> candidates_;
  std::vector<OrphanFile> too_young_;
  bool has_completed_writes_ = false;
  OrphanPlan plan_;
};

/// Sweeps a table on `storage` (rooted at the table). A listing error is an
/// error: nothing is planned.
template <Storage S>
StatusOr<OrphanPlan> plan_orphans(S& storage, const TableMetadata& md, const OrphanOptions& options,
                                  std::int64_t now_ms) {
  LAKEGC_ASSIGN_OR_RETURN(OrphanSweep sweep, OrphanSweep::make(md, options, now_ms));
  ListOptions opts;
  // Skip the table's own .hoodie but not nested ones: those reveal a second
  // table sharing the location.
  opts.skip_dir = [](std::string_view dir) { return dir == ".hoodie"; };
  Status st = storage.list("", [&](const FileEntry& e) { sweep.add(e.path, e.size, e.mtime_ms); }, opts);
  if (!st.ok()) return annotate(st, "orphan sweep: listing the table failed; nothing is deleted");
  return std::move(sweep).finish();
}

}  // namespace lakegc
