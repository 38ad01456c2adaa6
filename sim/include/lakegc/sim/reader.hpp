// File: lakegc/sim/reader.hpp
// -----------------------------------------------------------------------------
// Readers: queries that pick a snapshot (the latest, or a time-travel
// instant among the completed commits), resolve its files with the
// library's view code (resolve_snapshot over the real storage), and then
// read them one by one over the query's duration (a read is a stat).
//
// Every query is judged against the promise (promise.hpp):
//
// * at start, its resolution must equal the oracle's ideal content of the
//   snapshot; a difference caused by a deletion whose clean promised the
//   snapshot is an I1 violation, otherwise the query fails as expected
//   (time travel past the promise);
// * a later read that finds a file missing is an I1 violation when the
//   clean that deleted it still promised the snapshot (and the file still
//   belongs to it), and an expected failure otherwise: the query outlived
//   the promise.
//
// With guard::reader_leases, a query leases its snapshot while it runs.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "lakegc/sim/table.hpp"

namespace lakegc::sim {

class Readers {
 public:
  explicit Readers(Table& t) : t_(t) {}

  /// Starts a query that will run `duration_ms`. Returns its id, or nothing
  /// when there is nothing to read or it failed at start.
  std::optional<std::uint64_t> start(std::int64_t duration_ms) {
    const std::uint64_t id = ++next_id_;
    const std::string actor = name(id);
    auto md = t_.load();
    if (!md.ok()) {
      t_.unexpected(actor, "journal.load", md.status());
      return std::nullopt;
    }
    const auto commits = md->timeline.completed_commits();
    if (commits.empty()) return std::nullopt;
    Query q;
    q.id = id;
    q.duration_ms = duration_ms;
    q.start_ms = t_.now();
    q.time_travel = commits.size() > 1 && t_.rng.chance(t_.swarm.time_travel_percent, 100);
    q.snapshot = q.time_travel ? commits[t_.rng.index(commits.size())]->requested : commits.back()->requested;
    QueryStats& bucket = t_.stats.queries[query_bucket(duration_ms)];
    ++bucket.started;

    auto resolved = resolve_snapshot(t_.storage, *md, q.snapshot);
    if (!resolved.ok()) {
      t_.unexpected(actor, "resolving its snapshot", resolved.status());
      ++bucket.failed_at_start;
      return std::nullopt;
    }
    auto ideal = t_.oracle.snapshot(*md, q.snapshot);
    if (!ideal.ok()) {
      t_.unexpected(actor, "oracle snapshot", ideal.status());
      return std::nullopt;
    }
    if (*resolved != **ideal) {
      // Which ideal files are gone, and did the clean that took them promise
      // this snapshot?
      const auto present = t_.data_files();
      bool any_missing = false;
      for (const SnapshotFile& f : **ideal) {
        const std::string path = f.path();
        if (present.contains(path)) continue;
        any_missing = true;
        if (judge_missing(actor, q.snapshot, path, /*still_in_snapshot=*/true)) {
          ++bucket.violated;
          return std::nullopt;
        }
      }
      if (!any_missing) {
        t_.violation(Invariant::I1_reader_isolation, actor, first_difference(*resolved, **ideal), q.snapshot,
                     "the snapshot resolved from storage differs from the oracle's, with no file missing");
        ++bucket.violated;
        return std::nullopt;
      }
      ++bucket.failed_at_start;
      t_.event(actor, "snapshot {} already outside the promise and damaged: expected failure", q.snapshot);
      return std::nullopt;
    }
    q.files = std::move(*resolved);
    if (t_.policy.guards().reader_leases) {
      t_.leases.insert(q.snapshot);
      q.leased = true;
    }
    t_.event(actor, "query {}{} files={} for {}s", q.time_travel ? "time-travel " : "latest ", q.snapshot,
             q.files.size(), duration_ms / 1000);
    running_.emplace(id, std::move(q));
    return id;
  }

  /// Reads up to `count` more files of query `id`. Returns true while the
  /// query still has files to read.
  bool read(std::uint64_t id, std::size_t count) {
    auto it = running_.find(id);
    if (it == running_.end()) return false;
    Query& q = it->second;
    const std::string actor = name(id);
    QueryStats& bucket = t_.stats.queries[query_bucket(q.duration_ms)];
    for (std::size_t n = 0; n < count && q.next < q.files.size(); ++n) {
      const std::string path = q.files[q.next].path();
      const bool inject = t_.faults_enabled && std::exchange(t_.armed.read_failure, false);
      if (inject) t_.storage.fail_next(storage_op::stat, absl::UnavailableError("injected: stat failed"));
      auto st = t_.storage.stat(path);
      if (st.ok()) {
        ++q.next;
        continue;
      }
      if (!absl::IsNotFound(st.status())) {
        if (!inject) t_.unexpected(actor, "stat", st.status());
        ++t_.stats.read_retries;
        return true;  // retry at the next read step
      }
      // Still part of the snapshot's ideal content?
      bool in_snapshot = false;
      if (auto md = t_.load(); md.ok()) {
        if (auto ideal = t_.oracle.snapshot(*md, q.snapshot); ideal.ok()) {
          for (const SnapshotFile& f : **ideal) in_snapshot = in_snapshot || f.path() == path;
        }
      }
      if (judge_missing(actor, q.snapshot, path, in_snapshot)) {
        ++bucket.violated;
      } else {
        ++bucket.failed_during;
        t_.event(actor, "read of '{}' failed after {}s: the query outlived the promise (expected)", path,
                 (t_.now() - q.start_ms) / 1000);
      }
      end(it);
      return false;
    }
    if (q.next < q.files.size()) return true;
    ++bucket.ok;
    t_.event(actor, "query {} done: {} files read", q.snapshot, q.files.size());
    end(it);
    return false;
  }

  /// Ends every running query (end of run): unread files are not judged.
  void stop_all() {
    while (!running_.empty()) {
      auto it = running_.begin();
      ++t_.stats.queries[query_bucket(it->second.duration_ms)].ok;
      ++t_.stats.queries_unfinished;
      end(it);
    }
  }

  std::size_t files_of(std::uint64_t id) const {
    auto it = running_.find(id);
    return it == running_.end() ? 0 : it->second.files.size();
  }
  bool running(std::uint64_t id) const { return running_.contains(id); }
  /// Ids of running queries, oldest first.
  std::vector<std::uint64_t> running_ids() const {
    std::vector<std::uint64_t> out;
    for (const auto& [id, q] : running_) out.push_back(id);
    return out;
  }

  static std::string name(std::uint64_t id) { return fmt::format("reader#{}", id); }

 private:
  struct Query {
    std::uint64_t id = 0;
    InstantTime snapshot;
    bool time_travel = false;
    bool leased = false;
    std::int64_t start_ms = 0;
    std::int64_t duration_ms = 0;
    std::vector<SnapshotFile> files;
    std::size_t next = 0;
  };

  // True when a missing file of `snapshot` breaks a promise (reported).
  bool judge_missing(const std::string& actor, const InstantTime& snapshot, const std::string& path,
                     bool still_in_snapshot) {
    const Deletion* d = t_.oracle.deletion(path);
    if (d == nullptr) {
      t_.violation(Invariant::I1_reader_isolation, actor, path, snapshot,
                   "a file of the snapshot vanished without any clean naming it");
      return true;
    }
    if (d->promise == kNoPromise) {
      t_.violation(Invariant::I1_reader_isolation, actor, path, snapshot,
                   d->deleter == Deleter::clean
                       ? fmt::format("deleted by clean {}, whose promise is unknown", d->clean)
                       : fmt::format("deleted by {}, which promises nothing: it must only delete orphans", d->by()));
      return true;
    }
    const Promise& p = t_.oracle.promise(d->promise);
    if (p.covers(snapshot) && still_in_snapshot) {
      t_.violation(Invariant::I1_reader_isolation, actor, path, snapshot,
                   fmt::format("clean {} deleted a file of a snapshot it promised ({})", d->clean, p.describe()));
      return true;
    }
    return false;
  }

  static std::string first_difference(const std::vector<SnapshotFile>& a, const std::vector<SnapshotFile>& b) {
    for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
      if (i >= a.size()) return b[i].path();
      if (i >= b.size() || !(a[i] == b[i])) return a[i].path();
    }
    return {};
  }

  void end(std::map<std::uint64_t, Query>::iterator it) {
    if (it->second.leased) {
      auto l = t_.leases.find(it->second.snapshot);
      if (l != t_.leases.end()) t_.leases.erase(l);
    }
    running_.erase(it);
  }

  Table& t_;
  std::map<std::uint64_t, Query> running_;
  std::uint64_t next_id_ = 0;
};

}  // namespace lakegc::sim
