// File: lakegc/sim/writer.hpp
// -----------------------------------------------------------------------------
// Writers: concurrent ingestion jobs with optimistic concurrency.
//
// A write begins (requested -> inflight, heartbeat), writes its files while
// in flight, and later either completes with its commit metadata or is
// abandoned. Hudi's write protocol: every data file's marker is recorded
// (memory_journal::add_marker) before the file is written, and the writer
// refreshes its heartbeat while it runs (at begin, at every progress step,
// at finish; a crashed writer stops). The first file is written at begin,
// the others at progress steps (the event loop spreads them over the
// write's duration) or at finish, so a write's files have different mtimes.
//
// * COW: an update writes a new base file version of the group; MOR: it
//   appends a log file. Layout 1 names a log by the base instant of the
//   slice it appends to (the group's latest slice, which is a pending
//   compaction's slice once one is scheduled); layout 2 by the deltacommit.
//   Inserts create new file groups with a base file.
// * Groups under a pending clustering are not written (Hudi's default
//   update strategy rejects such writes).
// * Conflict: a write touching a file group that another write committed
//   to after this one began is abandoned (Hudi's file-level OCC): its
//   instant is rolled back at once (a rollback instant is recorded) but its
//   files stay on storage as orphans.
// * Faults: a writer crash leaves the write pending until its heartbeat
//   expires and the next writer rolls it back with the library
//   (plan_rollback LAZY + execute_rollback: its markers name the files to
//   delete; I3 checks none belongs to a live write); a failed storage write aborts
//   the write; a speculative duplicate adds a second base file under another
//   write token that the commit metadata does not name.
#pragma once

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "lakegc/core/load_view.hpp"
#include "lakegc/exec/rollback_executor.hpp"
#include "lakegc/sim/checkers.hpp"
#include "lakegc/sim/table.hpp"

namespace lakegc::sim {

class Writers {
 public:
  /// A writer that died holds its pending write this long before another
  /// writer rolls it back (Hudi: heartbeat expiry).
  static constexpr std::int64_t kHeartbeatTimeoutMs = 10 * 60'000;

  Writers(Table& t, std::size_t count) : t_(t), slots_(count) {}

  std::size_t count() const noexcept { return slots_.size(); }
  bool busy(std::size_t w) const { return slots_.at(w).has_value(); }
  bool any_pending() const {
    return !crashed_.empty() || std::any_of(slots_.begin(), slots_.end(), [](const auto& s) { return s.has_value(); });
  }

  /// Starts a write for writer `w`. Returns false when nothing was started.
  bool begin(std::size_t w) {
    if (busy(w)) return false;
    rollback_expired(kHeartbeatTimeoutMs);
    const std::string actor = name(w);
    auto md = t_.load();
    if (!md.ok()) {
      t_.unexpected(actor, "journal.load", md.status());
      return false;
    }
    auto view = load_view(t_.storage, *md);
    if (!view.ok()) {
      // Only an injected storage failure can fail a listing here.
      t_.event(actor, "begin skipped: listing failed ({})", message_of(view.status()));
      return false;
    }

    Write wr;
    wr.instant = t_.next_instant();
    wr.action = t_.swarm.type == TableType::cow ? Action::commit : Action::deltacommit;
    wr.begin_seq = completion_seq_;
    if (Status st = t_.journal.begin(wr.instant, wr.action); !st.ok()) {
      t_.unexpected(actor, "journal.begin", st);
      return false;
    }
    (void)t_.journal.set_inflight(wr.instant);
    (void)t_.journal.heartbeat(wr.instant, t_.now());
    t_.oracle.bump();

    // Updates: live groups not under a pending clustering.
    struct Candidate {
      const Partition* p;
      const FileGroup* g;
    };
    std::vector<Candidate> candidates;
    for (const Partition& p : view->partitions()) {
      for (const FileGroup& g : view->groups_of(p)) {
        if (g.replaced_by || !t_.updatable(p.path)) continue;
        const auto it = t_.groups.find(Table::group_key(p.path, view->file_id(g)));
        if (it != t_.groups.end() && it->second.clustering) continue;
        candidates.push_back({&p, &g});
      }
    }
    const std::size_t fanout = 1 + t_.rng.index(t_.swarm.update_fanout);
    for (std::size_t k = 0; k < fanout && !candidates.empty(); ++k) {
      const std::size_t i = t_.rng.index(candidates.size());
      const Candidate c = candidates[i];
      candidates.erase(candidates.begin() + static_cast<std::ptrdiff_t>(i));
      const std::string fid(view->file_id(*c.g));
      const auto slices = view->slices_of(*c.g);
      std::string file;
      std::uint64_t size = 0;
      if (t_.swarm.type == TableType::cow) {
        file = t_.base_name(fid, wr.instant);
        size = base_size();
      } else if (t_.swarm.layout == TimelineLayout::v1) {
        // Layout 1: named by the latest slice's base instant, versions count up.
        const FileSlice& latest = slices.front();
        std::uint64_t version = 1;
        for (auto f : view->logs_of(latest)) {
          auto parsed = parse_log_file_name(view->file_name(f));
          if (parsed.ok() && parsed->instant == latest.base_instant)
            version = std::max(version, parsed->version_number() + 1);
        }
        file = t_.log_name(fid, latest.base_instant, version);
        size = log_size();
      } else {
        file = t_.log_name(fid, wr.instant, 1);
        size = log_size();
      }
      wr.files.push_back({c.p->path, file, size});
      wr.groups.push_back(Table::group_key(c.p->path, fid));
    }
    // Inserts: a new file group now and then (always when nothing exists).
    const bool room = t_.groups_created < t_.swarm.max_groups;
    if (room && (wr.files.empty() || t_.rng.chance(t_.swarm.insert_percent, 100))) {
      const std::string& p = t_.insert_partition();
      const std::string fid = t_.new_file_id();
      wr.files.push_back({p, t_.base_name(fid, wr.instant), base_size()});
      wr.groups.push_back(Table::group_key(p, fid));
    }

    if (wr.files.empty()) {  // nothing to write: the job gives up its instant
      (void)t_.journal.remove_pending(wr.instant);
      t_.oracle.bump();
      return false;
    }

    // The first file now; the others at progress steps or at finish.
    const bool fail = t_.faults_enabled && std::exchange(t_.armed.write_failure, false);
    wr.duplicate = t_.faults_enabled && std::exchange(t_.armed.write_duplicate, false);
    if (fail) t_.storage.fail_next(storage_op::write, absl::UnavailableError("injected: storage write failed"));
    t_.oracle.begin_write(wr.instant, {});
    if (Status st = write_next(wr); !st.ok()) {
      if (!fail) t_.unexpected(actor, "put_sized", st);
      ++t_.stats.writes_failed;
      t_.event(actor, "write {} failed writing '{}' ({}); rolled back, {} orphan file(s)", wr.instant,
               wr.files.front().path(), message_of(st), wr.paths.size());
      abandon(wr.instant, wr.paths);
      return false;
    }
    for (const auto& g : wr.groups) ++t_.groups[g].pending_writes;
    std::string names;
    for (const SnapshotFile& f : wr.files) names += " " + f.path();
    t_.event(actor, "begin {} {} files:{}", to_string(wr.action), wr.instant, names);
    slots_[w] = std::move(wr);
    return true;
  }

  /// Files writer `w`'s write still has to write (0 when idle).
  std::size_t remaining(std::size_t w) const {
    const auto& s = slots_.at(w);
    return s ? s->files.size() - s->next : 0;
  }

  /// A progress step of writer `w`'s write: refreshes its heartbeat and
  /// writes its next file, if any. Returns true when it wrote a file.
  bool progress(std::size_t w) {
    if (!busy(w)) return false;
    Write& wr = *slots_[w];
    (void)t_.journal.heartbeat(wr.instant, t_.now());
    if (wr.next >= wr.files.size()) return false;
    const std::string path = wr.files[wr.next].path();
    if (Status st = write_next(wr); !st.ok()) {
      Write dropped = std::move(*slots_[w]);
      slots_[w].reset();
      for (const auto& g : dropped.groups) release_group(g);
      t_.unexpected(name(w), "put_sized", st);
      abandon(dropped.instant, dropped.paths);
      return false;
    }
    t_.event(name(w), "{} wrote '{}'", wr.instant, path);
    return true;
  }

  /// Ends writer `w`'s write: commit, or abandon on conflict, or (fault)
  /// die with it pending. Returns true when it committed.
  bool finish(std::size_t w) {
    if (!busy(w)) return false;
    Write wr = std::move(*slots_[w]);
    slots_[w].reset();
    const std::string actor = name(w);
    for (const auto& g : wr.groups) release_group(g);

    if (t_.faults_enabled && std::exchange(t_.armed.write_crash, false)) {
      ++t_.stats.writes_crashed;
      t_.event(actor, "fault: crashed before committing {}; left pending", wr.instant);
      // A dead writer's files are orphans already; its instant stays
      // pending until the heartbeat expires.
      t_.oracle.end_write(wr.instant);
      t_.oracle.orphan(wr.instant, wr.paths);
      crashed_.push_back({wr.instant, t_.now(), wr.paths});
      return false;
    }
    // The files not written yet, then (fault) a speculative duplicate.
    while (wr.next < wr.files.size()) {
      if (Status st = write_next(wr); !st.ok()) {
        t_.unexpected(actor, "put_sized", st);
        abandon(wr.instant, wr.paths);
        return false;
      }
    }
    (void)t_.journal.heartbeat(wr.instant, t_.now());
    std::optional<std::string> duplicate;
    if (wr.duplicate) duplicate = write_duplicate(wr, actor);
    for (auto it = completed_.rbegin(); it != completed_.rend() && it->seq > wr.begin_seq; ++it) {
      const bool overlap = std::any_of(wr.groups.begin(), wr.groups.end(), [&](const std::string& g) {
        return std::binary_search(it->groups.begin(), it->groups.end(), g);
      });
      if (overlap) {
        ++t_.stats.writes_aborted;
        t_.event(actor, "conflict: {} overlaps {} (committed after it began); abandoned, {} orphan file(s)", wr.instant,
                 it->instant, wr.paths.size());
        abandon(wr.instant, wr.paths);
        return false;
      }
    }
    CommitInfo info;
    for (const SnapshotFile& f : wr.files) {
      info.files.push_back({f.partition, f.name, f.size});
      info.partitions_written.push_back(f.partition);
    }
    std::sort(info.partitions_written.begin(), info.partitions_written.end());
    info.partitions_written.erase(std::unique(info.partitions_written.begin(), info.partitions_written.end()),
                                  info.partitions_written.end());
    const InstantTime completion = t_.next_instant();
    if (Status st = t_.journal.complete(wr.instant, completion, std::move(info)); !st.ok()) {
      t_.unexpected(actor, "journal.complete", st);
      return false;
    }
    t_.oracle.bump();
    t_.oracle.commit_write(wr.instant, t_.now());
    // The duplicate is not in the commit metadata: an orphan of a committed
    // write, the orphan sweep's to delete.
    if (duplicate) t_.oracle.orphan(wr.instant, {*duplicate});
    std::sort(wr.groups.begin(), wr.groups.end());
    completed_.push_back({++completion_seq_, wr.instant, std::move(wr.groups)});
    if (completed_.size() > 256) completed_.erase(completed_.begin(), completed_.begin() + 128);
    ++t_.stats.commits;
    t_.event(actor, "commit {} completed {}", wr.instant, completion);
    return true;
  }

  /// A commit of another writer (the TTL service's DELETE_PARTITION
  /// replacecommit) that a write touching `groups` conflicts with
  /// (Hudi's conflict resolution counts replaced file groups).
  void record_commit(const InstantTime& instant, std::vector<std::string> groups) {
    std::sort(groups.begin(), groups.end());
    completed_.push_back({++completion_seq_, instant, std::move(groups)});
    if (completed_.size() > 256) completed_.erase(completed_.begin(), completed_.begin() + 128);
  }

  /// Live writers beat continuously (Hudi's heartbeat thread): refreshes
  /// the heartbeat of every write in flight; a crashed writer's beat has
  /// stopped. Returns whether any write is in flight.
  bool beat_live() {
    bool any = false;
    for (const auto& s : slots_) {
      if (!s) continue;
      any = true;
      (void)t_.journal.heartbeat(s->instant, t_.now());
    }
    return any;
  }

  /// Failed-write rollback with the library's planner and executor
  /// (plan_rollback, execute_rollback), as Hudi runs it before a write:
  /// LAZY, so only writes whose last heartbeat is more than `age_ms` old
  /// go, and the files their markers name are deleted before the instant.
  /// Live writers beat continuously (Hudi's heartbeat thread), so they are
  /// refreshed first; a crashed writer's beat stops. With `age_ms` 0 and
  /// every writer idle (the liveness phase), EAGER: every pending write.
  /// I3 checks what it deleted: never a file of a live write.
  void rollback_expired(std::int64_t age_ms) {
    const bool idle = !beat_live();
    auto md = t_.load_as_lakegc();  // lakegc's planner, lakegc's journal
    if (!md.ok()) {
      t_.unexpected("rollback", "journal.load", md.status());
      return;
    }
    RollbackOptions options;
    if ((age_ms == 0 && idle) || t_.swarm.eager_rollback) {  // the second: CANARY rollback-eager
      options.policy = FailedWritesPolicy::eager;
    } else {
      options.policy = FailedWritesPolicy::lazy;
      options.heartbeat_interval_ms = std::max<std::int64_t>(age_ms, 1);
      options.tolerable_misses = 1;
    }
    const RollbackPlan plan = plan_rollback(*md, options, t_.now());
    if (plan.rollbacks.empty()) return;

    const FileMap before = t_.data_files();
    auto outcome = execute_rollback(t_.storage, t_.journal, plan);
    const FileMap after = t_.data_files();
    t_.oracle.bump();
    std::uint64_t removed_bytes = 0;
    const FileMap removed = record_removed(
        t_, before, after, Deletion{InstantTime(), kNoPromise, t_.elapsed(), Deleter::rollback}, &removed_bytes);
    for (const RollbackAction& a : plan.rollbacks) {
      t_.event("rollback", "{}: rolling back {} ({} file(s) by markers, {} kept)", a.reason, a.instant, a.files.size(),
               a.kept_files.size());
      std::erase_if(crashed_, [&](const Crashed& c) { return c.instant == a.instant; });
    }
    t_.stats.rollbacks += plan.rollbacks.size();
    t_.stats.rollback_files_deleted += removed.size();
    if (!outcome.ok()) {
      t_.unexpected("rollback", "execute_rollback", outcome.status());
    } else if (outcome->files_deleted != removed.size()) {
      t_.violation(
          Invariant::I7_accounting, "rollback", {}, {},
          fmt::format("rollback reported {} file(s) deleted, storage lost {}", outcome->files_deleted, removed.size()));
    }
    check_orphan_cutoff(t_, removed, "rollback");
    for (const auto& [path, size] : removed) t_.oracle.orphan_deleted(path);
  }

  static std::string name(std::size_t w) { return fmt::format("writer#{}", w); }

 private:
  struct Write {
    InstantTime instant;
    Action action = Action::commit;
    std::uint64_t begin_seq = 0;
    std::vector<SnapshotFile> files;
    std::size_t next = 0;             // files[next..] are not written yet
    bool duplicate = false;           // fault: a speculative duplicate at finish
    std::vector<std::string> paths;   // files actually written
    std::vector<std::string> groups;  // group keys
  };
  struct Completed {
    std::uint64_t seq;
    InstantTime instant;
    std::vector<std::string> groups;  // sorted
  };
  struct Crashed {
    InstantTime instant;
    std::int64_t at_ms;
    std::vector<std::string> paths;
  };

  // Writes wr.files[wr.next]: its marker first, then the file.
  [[nodiscard]] Status write_next(Write& wr) {
    const SnapshotFile& f = wr.files[wr.next];
    LAKEGC_RETURN_IF_ERROR(t_.journal.add_marker(wr.instant, WrittenFile{f.partition, f.name, f.size}));
    // A TTL swarm's partitions come and go (the cleaner removes a partition
    // TTL emptied): the first write into one creates its partition metadata.
    if (t_.swarm.ttl.on) LAKEGC_RETURN_IF_ERROR(t_.write_partition_metadata(f.partition, wr.instant.str()));
    LAKEGC_RETURN_IF_ERROR(t_.put(f.partition, f.name, f.size));
    ++wr.next;
    wr.paths.push_back(f.path());
    t_.oracle.write_file(wr.instant, wr.paths.back());
    return Status();
  }

  // A second base file of the write's first base file under another write
  // token (a speculative task), with its own marker. Its path, if written.
  std::optional<std::string> write_duplicate(Write& wr, const std::string& actor) {
    for (const SnapshotFile& f : wr.files) {
      if (f.name.front() == '.') continue;  // base files only
      auto parsed = parse_base_file_name(f.name);
      if (!parsed.ok()) continue;
      const std::string dup = t_.base_name(parsed->file_id, wr.instant);
      if (!t_.journal.add_marker(wr.instant, WrittenFile{f.partition, dup, f.size}).ok()) return std::nullopt;
      if (!t_.put(f.partition, dup, f.size).ok()) return std::nullopt;
      const std::string path = join_path(f.partition, dup);
      t_.oracle.duplicate_pair(f.path(), path);
      wr.paths.push_back(path);
      t_.oracle.write_file(wr.instant, path);
      t_.event(actor, "fault: speculative duplicate '{}'", path);
      return path;
    }
    return std::nullopt;
  }

  std::uint64_t base_size() { return t_.rng.uniform(1, 64) << 20; }
  std::uint64_t log_size() { return t_.rng.uniform(64, 4096) << 10; }

  void release_group(const std::string& g) {
    auto it = t_.groups.find(g);
    if (it != t_.groups.end() && it->second.pending_writes > 0) --it->second.pending_writes;
  }

  // The write is rolled back at once (its instant goes and a completed
  // rollback instant is recorded, as Hudi records one), but its files stay
  // behind: orphans, the sweep's to delete (a rollback that lost them, or
  // one that ran without markers).
  void abandon(const InstantTime& instant, const std::vector<std::string>& paths) {
    if (Status st = t_.journal.rollback(instant); !st.ok()) t_.unexpected("rollback", "journal.rollback", st);
    t_.oracle.bump();
    t_.oracle.end_write(instant);
    t_.oracle.orphan(instant, paths);
  }

  Table& t_;
  std::vector<std::optional<Write>> slots_;
  std::vector<Completed> completed_;
  std::vector<Crashed> crashed_;
  std::uint64_t completion_seq_ = 0;
};

}  // namespace lakegc::sim
