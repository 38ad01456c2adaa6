// File: lakegc/sim/services.hpp
// -----------------------------------------------------------------------------
// Table services that write data: the compactor (MOR) and the clusterer.
// Both plan from the library's view, are pending for a while, and on
// completion read their input slices (a stat per file) before writing.
//
// * Compaction: schedule_compaction on groups whose latest slice has logs,
//   excluding groups under a pending write (Hudi refuses to schedule a
//   compaction before an earlier in-flight delta commit), clustering or
//   compaction; complete later with a new base file per group, named by the
//   compaction instant.
// * Clustering: a replacecommit (layout 1) / clustering (layout 2) instant
//   that rewrites 2..4 groups of one partition into one new group and, on
//   completion, replaces them.
//
// A service that finds an input file missing is a reader that lost its
// snapshot: an I1 violation. Pending services are promised their inputs
// whatever the policy (only lakegc::unguarded policies drop that guard).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lakegc/core/load_view.hpp"
#include "lakegc/sim/checkers.hpp"
#include "lakegc/sim/table.hpp"

namespace lakegc::sim {

namespace detail {
// Reads (stats) every input file; false and a violation when one is gone.
inline bool read_inputs(Table& t, const std::string& actor, const InstantTime& instant,
                        const std::vector<SnapshotFile>& files, bool* retry) {
  for (const SnapshotFile& f : files) {
    auto st = t.storage.stat(f.path());
    if (st.ok()) continue;
    if (!absl::IsNotFound(st.status())) {
      *retry = true;
      return false;
    }
    const Deletion* d = t.oracle.deletion(f.path());
    t.violation(Invariant::I1_reader_isolation, actor, f.path(), instant,
                d ? fmt::format("input of the pending service was deleted by {}", d->by())
                  : std::string("input of the pending service vanished"));
    return false;
  }
  return true;
}
}  // namespace detail

class Compactor {
 public:
  explicit Compactor(Table& t) : t_(t) {}

  bool pending() const { return current_.has_value(); }

  /// Schedules a compaction if there is anything to compact.
  bool schedule() {
    if (current_ || t_.swarm.type != TableType::mor) return false;
    auto md = t_.load();
    if (!md.ok()) return false;
    auto view = load_view(t_.storage, *md);
    if (!view.ok()) return false;
    struct Pick {
      const Partition* p;
      const FileGroup* g;
    };
    std::vector<Pick> candidates;
    for (const Partition& p : view->partitions()) {
      for (const FileGroup& g : view->groups_of(p)) {
        if (g.replaced_by || g.pending_compaction_base) continue;
        const FileSlice& latest = view->slices_of(g).front();
        if (latest.base_file == kNoFile || latest.log_count == 0) continue;
        const auto it = t_.groups.find(Table::group_key(p.path, view->file_id(g)));
        if (it != t_.groups.end() &&
            (it->second.clustering || it->second.compaction || it->second.pending_writes > 0)) {
          continue;
        }
        candidates.push_back({&p, &g});
      }
    }
    if (candidates.empty()) return false;
    Work w;
    w.instant = t_.next_instant();
    const std::size_t n = 1 + t_.rng.index(std::min<std::size_t>(candidates.size(), 4));
    std::vector<PendingCompactionSlice> ops;
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t i = t_.rng.index(candidates.size());
      const Pick c = candidates[i];
      candidates.erase(candidates.begin() + static_cast<std::ptrdiff_t>(i));
      const FileSlice& latest = view->slices_of(*c.g).front();
      const std::string fid(view->file_id(*c.g));
      ops.push_back({w.instant, c.p->path, fid, latest.base_instant});
      append_slice_files(*view, *c.p, latest, w.inputs);
      w.groups.push_back({c.p->path, fid});
    }
    if (Status st = t_.journal.schedule_compaction(w.instant, ops); !st.ok()) {
      t_.unexpected("compactor", "schedule_compaction", st);
      return false;
    }
    t_.oracle.bump();
    for (const auto& [p, fid] : w.groups) t_.groups[Table::group_key(p, fid)].compaction = w.instant;
    t_.oracle.services()[w.instant] = ServiceInput{"compactor", w.inputs};
    t_.event("compactor", "scheduled compaction {} of {} group(s), {} input file(s)", w.instant, w.groups.size(),
             w.inputs.size());
    current_ = std::move(w);
    return true;
  }

  /// Completes the pending compaction. Returns true when it committed.
  bool complete() {
    if (!current_) return false;
    bool retry = false;
    if (!detail::read_inputs(t_, "compactor", current_->instant, current_->inputs, &retry)) {
      if (retry) return false;  // an injected read failure: try again later
      // The input is gone: the compaction cannot run. Abandon it, as a
      // failed compaction is rolled back.
      (void)t_.journal.remove_pending(current_->instant);
      t_.oracle.bump();
      release();
      return false;
    }
    CommitInfo info;
    std::vector<std::string> written;
    for (const auto& [p, fid] : current_->groups) {
      const std::string name = t_.base_name(fid, current_->instant);
      const std::uint64_t size = t_.rng.uniform(1, 64) << 20;
      if (Status st = t_.put(p, name, size); !st.ok()) {
        t_.unexpected("compactor", "put_sized", st);
        return false;
      }
      info.files.push_back({p, name, size});
      info.partitions_written.push_back(p);
      written.push_back(join_path(p, name));
    }
    std::sort(info.partitions_written.begin(), info.partitions_written.end());
    info.partitions_written.erase(std::unique(info.partitions_written.begin(), info.partitions_written.end()),
                                  info.partitions_written.end());
    const InstantTime completion = t_.next_instant();
    if (Status st = t_.journal.complete(current_->instant, completion, std::move(info)); !st.ok()) {
      t_.unexpected("compactor", "journal.complete", st);
      return false;
    }
    t_.oracle.bump();
    t_.oracle.derive(written, current_->inputs);
    t_.oracle.commit_service(current_->instant, std::move(written), t_.now());
    ++t_.stats.compactions;
    t_.event("compactor", "completed compaction {} at {}", current_->instant, completion);
    release();
    if (t_.oracle.any_dropped()) check_latest_exact(t_, "compactor");
    return true;
  }

 private:
  struct Work {
    InstantTime instant;
    std::vector<std::pair<std::string, std::string>> groups;  // partition, file id
    std::vector<SnapshotFile> inputs;
  };
  void release() {
    for (const auto& [p, fid] : current_->groups) t_.groups[Table::group_key(p, fid)].compaction.reset();
    t_.oracle.services().erase(current_->instant);
    current_.reset();
  }

  Table& t_;
  std::optional<Work> current_;
};

class Clusterer {
 public:
  explicit Clusterer(Table& t) : t_(t) {}

  bool pending() const { return current_.has_value(); }

  bool schedule() {
    if (current_) return false;
    auto md = t_.load();
    if (!md.ok()) return false;
    auto view = load_view(t_.storage, *md);
    if (!view.ok()) return false;
    // Partitions with at least two groups free to cluster.
    std::vector<std::pair<const Partition*, std::vector<const FileGroup*>>> options;
    for (const Partition& p : view->partitions()) {
      std::vector<const FileGroup*> free;
      for (const FileGroup& g : view->groups_of(p)) {
        if (g.replaced_by || g.pending_compaction_base) continue;
        const auto it = t_.groups.find(Table::group_key(p.path, view->file_id(g)));
        if (it != t_.groups.end() &&
            (it->second.clustering || it->second.compaction || it->second.pending_writes > 0)) {
          continue;
        }
        free.push_back(&g);
      }
      if (free.size() >= 2) options.emplace_back(&p, std::move(free));
    }
    if (options.empty()) return false;
    auto& [part, free] = options[t_.rng.index(options.size())];
    Work w;
    w.instant = t_.next_instant();
    w.partition = part->path;
    const std::size_t n = 2 + t_.rng.index(std::min<std::size_t>(free.size(), 4) - 1);
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t i = t_.rng.index(free.size());
      const FileGroup* g = free[i];
      free.erase(free.begin() + static_cast<std::ptrdiff_t>(i));
      append_slice_files(*view, *part, view->slices_of(*g).front(), w.inputs);
      w.groups.emplace_back(view->file_id(*g));
    }
    const Action action = t_.swarm.layout == TimelineLayout::v2 ? Action::clustering : Action::replacecommit;
    if (Status st = t_.journal.begin(w.instant, action); !st.ok()) {
      t_.unexpected("clusterer", "journal.begin", st);
      return false;
    }
    (void)t_.journal.set_inflight(w.instant);
    t_.oracle.bump();
    for (const auto& fid : w.groups) t_.groups[Table::group_key(w.partition, fid)].clustering = w.instant;
    t_.oracle.services()[w.instant] = ServiceInput{"clusterer", w.inputs};
    t_.event("clusterer", "scheduled clustering {} of {} group(s) in {}", w.instant, w.groups.size(), w.partition);
    current_ = std::move(w);
    return true;
  }

  bool complete() {
    if (!current_) return false;
    bool retry = false;
    if (!detail::read_inputs(t_, "clusterer", current_->instant, current_->inputs, &retry)) {
      if (retry) return false;
      (void)t_.journal.remove_pending(current_->instant);
      t_.oracle.bump();
      release();
      return false;
    }
    const std::string fid = t_.new_file_id();
    const std::string name = t_.base_name(fid, current_->instant);
    const std::uint64_t size = t_.rng.uniform(8, 128) << 20;
    if (Status st = t_.put(current_->partition, name, size); !st.ok()) {
      t_.unexpected("clusterer", "put_sized", st);
      return false;
    }
    CommitInfo info;
    info.files.push_back({current_->partition, name, size});
    info.partitions_written.push_back(current_->partition);
    for (const auto& g : current_->groups) info.replaced.push_back({current_->partition, g});
    const InstantTime completion = t_.next_instant();
    if (Status st = t_.journal.complete(current_->instant, completion, std::move(info)); !st.ok()) {
      t_.unexpected("clusterer", "journal.complete", st);
      return false;
    }
    t_.oracle.bump();
    t_.oracle.derive({join_path(current_->partition, name)}, current_->inputs);
    t_.oracle.commit_service(current_->instant, {join_path(current_->partition, name)}, t_.now());
    ++t_.stats.clusterings;
    t_.event("clusterer", "completed clustering {} at {}: {} group(s) replaced by {}", current_->instant, completion,
             current_->groups.size(), fid);
    release();
    if (t_.oracle.any_dropped()) check_latest_exact(t_, "clusterer");
    return true;
  }

 private:
  struct Work {
    InstantTime instant;
    std::string partition;
    std::vector<std::string> groups;
    std::vector<SnapshotFile> inputs;
  };
  void release() {
    for (const auto& fid : current_->groups) t_.groups[Table::group_key(current_->partition, fid)].clustering.reset();
    t_.oracle.services().erase(current_->instant);
    current_.reset();
  }

  Table& t_;
  std::optional<Work> current_;
};

}  // namespace lakegc::sim
