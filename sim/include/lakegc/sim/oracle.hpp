// File: lakegc/sim/oracle.hpp
// -----------------------------------------------------------------------------
// The oracle: ground truth that the cleaner never touches.
//
// * A shadow storage receives every file the actors write and loses none, so
//   resolving a snapshot against it (resolve_snapshot) gives the snapshot's
//   ideal content: the file set of every committed snapshot, by instant.
// * Pending writes and their files; files of abandoned writes (orphans:
//   the orphan sweep's business, excluded from I6 and reported through the
//   I3 hook) and speculative duplicates.
// * Savepoints and the files they name; pending table services and the
//   input slices they will read.
// * Every promise a clean plan made, and for every deleted file the clean
//   that deleted it, so a reader that meets a missing file can tell a broken
//   promise (a violation) from a query that outlived it (expected).
//
// Snapshot resolution is cached per table version: the World bumps the
// version whenever the journal or the shadow storage changes in a way a view
// can see. A data file written by a pending write usually changes no
// snapshot (no view takes it for committed), so the oracle judges each one
// (may_change_snapshots) instead of dropping the cache on every write.
// Resolutions build their views from one builder kept over the shadow
// (ShadowView); verify_cache checks those against fresh listings too.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/file_name.hpp"
#include "lakegc/sim/promise.hpp"
#include "lakegc/sim/scheduler.hpp"
#include "lakegc/sim/shadow_view.hpp"
#include "lakegc/sim/snapshot.hpp"
#include "lakegc/storage/memory_storage.hpp"
#include "lakegc/storage/path.hpp"

namespace lakegc::sim {

inline constexpr std::size_t kNoPromise = std::numeric_limits<std::size_t>::max();

/// Who deleted a file.
enum class Deleter : std::uint8_t {
  /// A clean, whose plan named the file (and whose promise it answers to).
  clean,
  /// The orphan sweep (no clean, no promise).
  sweep,
  /// Failed-write rollback (no clean, no promise).
  rollback,
};

struct Deletion {
  InstantTime clean;                 // the clean instant whose plan named the file
  std::size_t promise = kNoPromise;  // index into Oracle::promises()
  std::int64_t time_ms = 0;
  Deleter deleter = Deleter::clean;

  /// Who deleted it, for messages.
  std::string by() const {
    switch (deleter) {
      case Deleter::sweep: return "the orphan sweep";
      case Deleter::rollback: return "failed-write rollback";
      case Deleter::clean: break;
    }
    return fmt::format("clean {}", clean);
  }
};

/// A table service's pending work and what it will read.
struct ServiceInput {
  std::string actor;
  std::vector<SnapshotFile> files;
};

/// Whether a data file written after snapshots were resolved may change one
/// of them: whether any view over `md`'s timeline as of some instant can
/// place it in a slice. It cannot when it is a base file, or a layout-2 log
/// file, whose instant is pending on `md`'s timeline and not a pending
/// (log) compaction: TableViewBuilder then calls it uncommitted in every
/// such view (an as-of timeline before the instant lacks it and starts its
/// write timeline before it; one after it holds it pending). A layout-1 log is named
/// by its slice's base instant and joins that slice at once (a reader
/// skips its blocks by instant time, but lists the file); files of
/// completed, archived or unknown instants may be read; a name that does
/// not parse is not judged. Every doubt answers yes, which only costs a
/// resolution.
inline bool may_change_snapshots(std::string_view path, const TableMetadata& md) {
  const auto name = parse_data_file_name(lakegc::detail::split_parent(path).second);
  if (!name.ok()) return true;
  const auto* log = std::get_if<LogFileName>(&*name);
  if (log != nullptr && md.layout != TimelineLayout::v2) return true;
  const InstantTime& t = log != nullptr ? log->instant : std::get<BaseFileName>(*name).instant;
  const Instant* i = md.timeline.find(t);
  // A pending write instant starts the write timeline no later than
  // itself, so "older than the write timeline" never calls it committed.
  if (i == nullptr || !i->is_pending() || !is_write_action(i->action)) return true;
  if (i->action == Action::compaction || i->action == Action::logcompaction) return true;
  return std::any_of(md.pending_compactions.begin(), md.pending_compactions.end(),
                     [&](const PendingCompactionSlice& op) { return op.compaction_instant == t; });
}

class Oracle {
 public:
  explicit Oracle(VirtualClock& clock) : shadow_([&clock] { return clock.now_ms; }), shadow_view_(shadow_) {}
  // shadow_view_ points at shadow_.
  Oracle(const Oracle&) = delete;
  Oracle& operator=(const Oracle&) = delete;

  memory_storage& shadow() noexcept { return shadow_; }

  /// Mirrors a data file written to the real storage. Whether it changes
  /// a cached snapshot is judged at the next snapshot() (may_change_snapshots),
  /// with the timeline as it then stands.
  void mirror_data_file(const std::string& path, std::uint64_t size) {
    if (shadow_.put_sized(path, size).ok()) shadow_view_.added(path, size);
    unjudged_.push_back(path);
  }
  void mirror_marker(const std::string& path) {
    constexpr std::string_view kMarker = "commitTime=0\n";
    if (shadow_.write_if_absent(path, kMarker).ok()) shadow_view_.added(path, kMarker.size());
  }

  /// The table changed in a way views can see: drop cached snapshots.
  void bump() noexcept { ++version_; }
  std::uint64_t version() const noexcept { return version_; }

  /// Ideal content of the snapshot at `at` under `md`.
  [[nodiscard]] StatusOr<const std::vector<SnapshotFile>*> snapshot(const TableMetadata& md, const InstantTime& at) {
    const bool stale =
        cache_version_ != version_ ||
        std::any_of(unjudged_.begin(), unjudged_.end(), [&](const auto& p) { return may_change_snapshots(p, md); });
    unjudged_.clear();
    if (stale) {
      cache_.clear();
      cache_version_ = version_;
    }
    auto it = cache_.find(at);
    if (it == cache_.end()) {
      const Timeline as_of = md.timeline.as_of(at);
      LAKEGC_ASSIGN_OR_RETURN(const TableView v, shadow_view_.view(md, as_of));
      auto files = snapshot_files(v, md, at);
      if (verify_cache_) {
        LAKEGC_ASSIGN_OR_RETURN(auto fresh, resolve_snapshot(shadow_, md, at));
        if (files != fresh) {
          return absl::InternalError(fmt::format("the oracle's kept shadow view gives another snapshot at {}", at));
        }
      }
      it = cache_.emplace(at, std::move(files)).first;
      ++resolved_;
      return &it->second;
    }
    ++cache_hits_;
    if (verify_cache_) {
      LAKEGC_ASSIGN_OR_RETURN(auto files, resolve_snapshot(shadow_, md, at));
      if (files != it->second) {
        return absl::InternalError(fmt::format("the oracle's cached snapshot at {} is stale", at));
      }
    }
    return &it->second;
  }
  /// A view of the shadow under `md` (what load_view(shadow(), md) gives,
  /// up to the order of the view's files), from the kept builder.
  [[nodiscard]] StatusOr<TableView> shadow_view(const TableMetadata& md) { return shadow_view_.view(md, md.timeline); }

  /// Tests: every cache hit is resolved again from a fresh listing and
  /// compared (an error if the cached snapshot differs), which checks
  /// may_change_snapshots; so is every snapshot resolved from the kept
  /// shadow view (ShadowView).
  void verify_cache(bool on) noexcept { verify_cache_ = on; }
  std::uint64_t cache_hits() const noexcept { return cache_hits_; }
  std::uint64_t snapshots_resolved() const noexcept { return resolved_; }

  /// Before archival drops the instants `archived`: forget the files of
  /// the groups their replacecommits replaced. The oracle's snapshots are
  /// what Hudi should read: a replaced group stays replaced for good. Once
  /// its replacecommit leaves the active timeline a view would take the
  /// group for a live one again, so the shadow (which keeps every file)
  /// must forget its files. If the real storage still holds them, Hudi's
  /// view revives the group there (duplicates): the latest-snapshot check
  /// after archival reports it (I4, check_latest_exact).
  void forget_replaced(const TableMetadata& md, const std::vector<InstantTime>& archived) {
    std::vector<std::string> drop;
    for (const InstantTime& t : archived) {
      const auto it = md.commits.find(t);
      if (it == md.commits.end() || it->second.replaced.empty() || !md.timeline.is_completed_commit(t)) continue;
      for (const ReplacedGroup& g : it->second.replaced) {
        (void)shadow_.list(
            g.partition,
            [&](const FileEntry& e) {
              auto name = parse_data_file_name(lakegc::detail::split_parent(e.path).second);
              if (name.ok() && std::visit([](const auto& f) { return f.file_id; }, *name) == g.file_id) {
                drop.emplace_back(e.path);
              }
            },
            ListOptions{false, {}});
      }
    }
    for (const std::string& p : drop) (void)shadow_.remove(p);
    if (!drop.empty()) bump();
  }

  // --- partition TTL ---------------------------------------------------------

  /// A completed TTL replacecommit dropped these files (the latest
  /// snapshot's files in its expired partitions): their rows are gone for
  /// good, whatever reads them later is the dropped data back.
  void ttl_dropped(const std::vector<std::string>& paths) { dropped_.insert(paths.begin(), paths.end()); }
  /// A table service wrote `outputs` from `inputs`: rows of dropped files
  /// stay dropped rows in what is made from them.
  void derive(const std::vector<std::string>& outputs, const std::vector<SnapshotFile>& inputs) {
    if (dropped_.empty()) return;
    const bool from_dropped =
        std::any_of(inputs.begin(), inputs.end(), [&](const SnapshotFile& f) { return dropped_.contains(f.path()); });
    if (from_dropped) dropped_.insert(outputs.begin(), outputs.end());
  }
  bool dropped(const std::string& path) const { return dropped_.contains(path); }
  bool any_dropped() const noexcept { return !dropped_.empty(); }

  // --- writes ---------------------------------------------------------------
  void begin_write(const InstantTime& t, std::vector<std::string> paths) { pending_[t] = std::move(paths); }
  /// A pending write wrote one more file.
  void write_file(const InstantTime& t, const std::string& path) { pending_[t].push_back(path); }
  void end_write(const InstantTime& t) { pending_.erase(t); }
  /// A pending write committed at `now_ms`: its files are remembered with
  /// the time, so a sweep can tell which writes were in flight while it ran.
  void commit_write(const InstantTime& t, std::int64_t now_ms) {
    auto it = pending_.find(t);
    if (it == pending_.end()) return;
    committed_[t] = CommittedWrite{std::move(it->second), now_ms};
    pending_.erase(it);
  }
  /// A table service (compaction, clustering) wrote `paths` and committed
  /// at `now_ms`.
  void commit_service(const InstantTime& t, std::vector<std::string> paths, std::int64_t now_ms) {
    committed_[t] = CommittedWrite{std::move(paths), now_ms};
  }
  struct CommittedWrite {
    std::vector<std::string> paths;
    std::int64_t at_ms = 0;
  };
  const std::map<InstantTime, CommittedWrite>& committed_writes() const noexcept { return committed_; }
  const std::map<InstantTime, std::vector<std::string>>& pending_writes() const noexcept { return pending_; }

  /// Files of an abandoned write: nobody will commit them.
  void orphan(const InstantTime& t, const std::vector<std::string>& paths) {
    auto& v = orphans_[t];
    v.insert(v.end(), paths.begin(), paths.end());
    orphan_paths_.insert(paths.begin(), paths.end());
  }
  /// Was ever an orphan (stays true once the sweep deleted it).
  bool is_orphan(const std::string& path) const { return orphan_paths_.contains(path); }
  /// Orphans not yet deleted by the sweep, by the instant that wrote them.
  const std::map<InstantTime, std::vector<std::string>>& orphans() const noexcept { return orphans_; }
  /// The orphan sweep deleted `path`: if it was an orphan, it no longer
  /// holds archival back, and the shadow forgets it too (no snapshot reads
  /// an orphan; a speculative duplicate left in the shadow could otherwise
  /// win its slice once its instant is archived and commit metadata no
  /// longer names the committed twin).
  void orphan_deleted(const std::string& path) {
    if (!is_orphan(path)) return;
    if (shadow_.remove(path).ok()) bump();
    for (auto it = orphans_.begin(); it != orphans_.end();) {
      std::erase(it->second, path);
      it = it->second.empty() ? orphans_.erase(it) : std::next(it);
    }
  }

  /// Two base files of one write in one file group (a speculative
  /// duplicate): whichever the view picks, the other is left behind.
  void duplicate_pair(const std::string& committed, const std::string& duplicate) {
    duplicates_.insert(committed);
    duplicates_.insert(duplicate);
  }
  bool is_duplicate(const std::string& path) const { return duplicates_.contains(path); }

  /// A clean planned from a silently short listing under incremental
  /// scope: a slice it should have deleted then is never revisited (only a
  /// full scan would find it), so I6 cannot demand that files present at
  /// that moment are gone. Safety invariants still apply to them.
  void short_listing(const std::map<std::string, std::uint64_t>& present) {
    for (const auto& [p, size] : present) short_listed_.insert(p);
  }
  bool missed_by_short_listing(const std::string& path) const { return short_listed_.contains(path); }
  /// A clean (of any scope) planned from a silently truncated listing while
  /// these files were on storage: it may not have seen them
  /// (the archiver's library-gap bound for replaced groups).
  void truncated_listing(const std::map<std::string, std::uint64_t>& present) {
    for (const auto& [p, size] : present) truncated_listed_.insert(p);
  }
  bool present_at_truncated_listing(const std::string& path) const { return truncated_listed_.contains(path); }

  // --- savepoints and services ------------------------------------------------
  std::map<InstantTime, std::vector<std::string>>& savepoints() noexcept { return savepoints_; }
  /// The commit a savepoint instant savepoints. Hudi gives a savepoint its
  /// commit's time; memory_journal keys instants by time, so the simulator
  /// takes a fresh one and remembers the commit here (kept after the
  /// savepoint goes: a clean plan's savepointed_timestamps may still name
  /// it, and Hudi's archiver reads those as commit times).
  void savepointed(const InstantTime& savepoint, const InstantTime& commit, std::vector<std::string> paths) {
    savepointed_commit_[savepoint] = SavepointRecord{commit, std::move(paths)};
  }
  InstantTime savepointed_commit(const InstantTime& savepoint) const {
    auto it = savepointed_commit_.find(savepoint);
    return it == savepointed_commit_.end() ? savepoint : it->second.commit;
  }
  /// The files a savepoint named, existing or deleted (empty if unknown).
  const std::vector<std::string>& savepointed_files(const InstantTime& savepoint) const {
    static const std::vector<std::string> none;
    auto it = savepointed_commit_.find(savepoint);
    return it == savepointed_commit_.end() ? none : it->second.paths;
  }
  std::map<InstantTime, ServiceInput>& services() noexcept { return services_; }

  // --- promises and deletions ---------------------------------------------------
  std::size_t add_promise(Promise p) {
    promises_.push_back(std::move(p));
    return promises_.size() - 1;
  }
  const Promise& promise(std::size_t i) const { return promises_.at(i); }
  std::size_t promise_count() const noexcept { return promises_.size(); }
  void bind_clean(const InstantTime& clean, std::size_t promise) { clean_promise_[clean] = promise; }
  std::size_t promise_of(const InstantTime& clean) const {
    auto it = clean_promise_.find(clean);
    return it == clean_promise_.end() ? kNoPromise : it->second;
  }
  void record_deletion(const std::string& path, Deletion d) { deleted_[path] = d; }
  const Deletion* deletion(const std::string& path) const {
    auto it = deleted_.find(path);
    return it == deleted_.end() ? nullptr : &it->second;
  }

 private:
  memory_storage shadow_;
  ShadowView shadow_view_;
  std::uint64_t version_ = 0;
  std::uint64_t cache_version_ = ~0ULL;
  std::map<InstantTime, std::vector<SnapshotFile>> cache_;
  std::vector<std::string> unjudged_;  // data files mirrored since the last snapshot()
  bool verify_cache_ = false;
  std::uint64_t cache_hits_ = 0;
  std::uint64_t resolved_ = 0;
  std::map<InstantTime, std::vector<std::string>> pending_;
  std::map<InstantTime, CommittedWrite> committed_;
  std::map<InstantTime, std::vector<std::string>> orphans_;
  std::set<std::string> orphan_paths_;
  std::set<std::string> duplicates_;
  std::set<std::string> short_listed_;
  std::set<std::string> truncated_listed_;
  std::map<InstantTime, std::vector<std::string>> savepoints_;
  struct SavepointRecord {
    InstantTime commit;
    std::vector<std::string> paths;
  };
  std::map<InstantTime, SavepointRecord> savepointed_commit_;
  std::map<InstantTime, ServiceInput> services_;
  std::vector<Promise> promises_;
  std::map<InstantTime, std::size_t> clean_promise_;
  std::map<std::string, Deletion> deleted_;
  std::set<std::string> dropped_;
};

}  // namespace lakegc::sim
