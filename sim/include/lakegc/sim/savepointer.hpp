// File: lakegc/sim/savepointer.hpp
// -----------------------------------------------------------------------------
// Savepoints: take one of the latest snapshot (its files, as the library
// resolves them, are what the savepoint names) and remove it later. While a
// savepoint exists none of its files may be deleted (I5).
#pragma once

#include <string>
#include <vector>

#include "lakegc/sim/table.hpp"

namespace lakegc::sim {

class Savepointer {
 public:
  explicit Savepointer(Table& t) : t_(t) {}

  /// Takes a savepoint of the latest snapshot, if fewer than the swarm's
  /// maximum exist.
  bool take() {
    if (t_.oracle.savepoints().size() >= t_.swarm.max_savepoints) return false;
    auto md = t_.load();
    if (!md.ok()) return false;
    const auto commits = md->timeline.completed_commits();
    if (commits.empty()) return false;
    auto files = resolve_snapshot(t_.storage, *md, commits.back()->requested);
    if (!files.ok()) {
      t_.unexpected("savepointer", "resolving the latest snapshot", files.status());
      return false;
    }
    std::vector<WrittenFile> named;
    std::vector<std::string> paths;
    for (const SnapshotFile& f : *files) {
      named.push_back({f.partition, f.name, f.size});
      paths.push_back(f.path());
    }
    const InstantTime s = t_.next_instant();
    if (Status st = t_.journal.savepoint(s, s, std::move(named)); !st.ok()) {
      t_.unexpected("savepointer", "journal.savepoint", st);
      return false;
    }
    t_.oracle.bump();
    t_.oracle.savepointed(s, commits.back()->requested, paths);
    t_.oracle.savepoints()[s] = std::move(paths);
    ++t_.stats.savepoints;
    t_.event("savepointer", "savepoint {} of snapshot {} ({} files)", s, commits.back()->requested,
             t_.oracle.savepoints()[s].size());
    return true;
  }

  /// Removes the oldest savepoint older than `min_age_ms`.
  bool remove_oldest(std::int64_t min_age_ms) {
    auto& sps = t_.oracle.savepoints();
    if (sps.empty()) return false;
    const InstantTime s = sps.begin()->first;
    auto ms = s.to_epoch_ms(TimelineTimezone::utc);
    if (ms.ok() && t_.now() - *ms < min_age_ms) return false;
    if (Status st = t_.journal.remove_savepoint(s); !st.ok()) {
      t_.unexpected("savepointer", "journal.remove_savepoint", st);
      return false;
    }
    t_.oracle.bump();
    sps.erase(sps.begin());
    t_.event("savepointer", "removed savepoint {}", s);
    return true;
  }

 private:
  Table& t_;
};

}  // namespace lakegc::sim
