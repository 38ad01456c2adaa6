// File: tests/property/orphans/history.hpp
// -----------------------------------------------------------------------------
// Random table histories for the orphan-sweep property: a History replays a
// list of small operations (writes that begin, complete out of order, fail
// and are rolled back with or without their files, speculative duplicates,
// compactions, clusterings pending or completed, cleans, rollback and
// indexing instants, savepoints at their commit's time, archival by Hudi's
// rules with and without hoodie.archive.beyond.savepoint) and then offers
// the table two ways:
//
// * lakegc_metadata(): TableMetadata as lakegc's journal would load it
//   (archived completion times only when the archive is readable), for
//   OrphanSweep;
// * hudi_input(): the plain data Hudi's file-system view reads (active
//   instants, the archive's completion times, pending compaction plans,
//   the listing), for the reference model
//   (tests/reference/hudi_file_system_view.hpp).
//
// Operations carry small integers, not table state, and map onto whatever
// the table holds when they run, so every generated list is valid and
// RapidCheck shrinks a failing one by dropping operations.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <rapidcheck.h>

#include "../../reference/hudi_file_system_view.hpp"
#include "lakegc/core/table_metadata.hpp"
#include "lakegc/storage/path.hpp"

namespace lakegc::testing::orphans {

enum class OpKind : std::uint8_t {
  begin_write,     // a commit / deltacommit in flight, its files listed, markers for some
  complete_write,  // a pending write (or clustering) completes, maybe with a speculative duplicate
  fail_write,      // a pending write is rolled back: files deleted or left, rollback instant or not
  schedule_compaction,
  complete_compaction,
  replace,           // clustering: pending or completed at once
  clean,             // a clean instant, deleting the oldest committed slice of a group or a replaced group
  rollback_instant,  // a completed rollback instant (of a write that left nothing)
  savepoint,         // a savepoint of the latest completed commit, at its time
  remove_savepoint,
  indexing,  // a completed indexing instant (never archived)
  archive,
};
inline constexpr int kOpKinds = 12;

struct Op {
  OpKind kind = OpKind::begin_write;
  std::uint8_t a = 0;
  std::uint8_t b = 0;
};

inline std::ostream& operator<<(std::ostream& os, const Op& op) {
  static constexpr const char* names[] = {
      "begin_write",         "complete_write",   "fail_write", "schedule_compaction",
      "complete_compaction", "replace",          "clean",      "rollback_instant",
      "savepoint",           "remove_savepoint", "indexing",   "archive"};
  return os << names[static_cast<int>(op.kind)] << "(" << static_cast<int>(op.a) << "," << static_cast<int>(op.b)
            << ")";
}

struct Params {
  bool layout2 = true;
  bool mor = true;
  bool archive_readable = true;
  bool beyond_savepoint = false;
};

inline std::ostream& operator<<(std::ostream& os, const Params& p) {
  return os << "layout " << (p.layout2 ? 2 : 1) << (p.mor ? " MOR" : " COW")
            << (p.archive_readable ? "" : " archive-unreadable") << (p.beyond_savepoint ? " beyond-savepoint" : "");
}

inline constexpr std::int64_t kEpochMs = 1'700'000'000'000;
inline constexpr const char* kPartitions[] = {"p1", "p2"};

class History {
 public:
  explicit History(const Params& p) : p_(p) {}

  void apply(const Op& op) {
    switch (op.kind) {
      case OpKind::begin_write: begin_write(op.a, op.b); break;
      case OpKind::complete_write: complete_write(op.a, op.b); break;
      case OpKind::fail_write: fail_write(op.a, op.b); break;
      case OpKind::schedule_compaction: schedule_compaction(op.a); break;
      case OpKind::complete_compaction: complete_compaction(op.a); break;
      case OpKind::replace: replace(op.a, op.b); break;
      case OpKind::clean: clean(op.a); break;
      case OpKind::rollback_instant: simple(Action::rollback); break;
      case OpKind::savepoint: savepoint(); break;
      case OpKind::remove_savepoint: remove_savepoint(op.a); break;
      case OpKind::indexing: simple(Action::indexing); break;
      case OpKind::archive: archive(op.a, op.b); break;
    }
  }

  std::int64_t now_ms() const { return now_; }

  /// The table as lakegc's journal loads it.
  TableMetadata lakegc_metadata() const {
    TableMetadata md;
    std::vector<Instant> all;
    for (const auto& [t, i] : instants_) {
      all.push_back(Instant{t, i.completed, i.action, i.state});
      if (i.state == State::completed && is_write_action(i.action)) md.commits[t] = i.info;
      if (i.state != State::completed && is_write_action(i.action)) {
        if (!i.markers.empty()) md.markers[t] = i.markers;
        if (i.heartbeat_alive) md.heartbeats[t] = now_;
      }
      for (const PendingCompactionSlice& c : i.compaction) md.pending_compactions.push_back(c);
    }
    for (const auto& [t, sp] : savepoints_) {
      all.push_back(Instant{t, sp.completed, Action::savepoint, State::completed});
      md.savepoints.push_back({t, sp.files});
    }
    auto tl = Timeline::make(std::move(all));
    if (!tl.ok()) throw std::runtime_error(std::string(tl.status().message()));
    md.timeline = std::move(*tl);
    md.layout = p_.layout2 ? TimelineLayout::v2 : TimelineLayout::v1;
    md.timezone = TimelineTimezone::utc;
    md.partitioned = true;
    if (p_.archive_readable) md.archived_completions = archived_;
    return md;
  }

  /// What Hudi's file-system view reads.
  reference::hudi::ViewInput hudi_input() const {
    reference::hudi::ViewInput in;
    in.table_version_8 = p_.layout2;
    for (const auto& [t, i] : instants_) {
      in.active.push_back({t, i.completed, i.action, i.state == State::completed});
      for (const PendingCompactionSlice& c : i.compaction) in.pending_compaction[{c.partition, c.file_id}] = t;
    }
    for (const auto& [t, sp] : savepoints_) in.active.push_back({t, sp.completed, Action::savepoint, true});
    in.archived_completion = archived_;
    for (const auto& [path, f] : files_) in.listing.push_back({f.partition, f.name});
    return in;
  }

  /// Listed data files: path -> partition, name.
  struct File {
    std::string partition;
    std::string name;
  };
  const std::map<std::string, File>& files() const { return files_; }

  /// The oldest active instant is not a write, and files of archived write
  /// instants after it are listed: the hazard of a sweep that takes the
  /// timeline's start over every action.
  bool non_write_start_hazard() const {
    std::optional<std::pair<InstantTime, Action>> first;
    for (const auto& [t, i] : instants_) {
      if (!first || t < first->first) first = std::pair{t, i.action};
    }
    for (const auto& [t, sp] : savepoints_) {
      if (!first || t < first->first) first = std::pair{t, Action::savepoint};
    }
    if (!first || is_write_action(first->second)) return false;
    return std::any_of(files_.begin(), files_.end(), [&](const auto& kv) {
      const auto it = writer_.find(kv.first);
      return it != writer_.end() && archived_.contains(it->second) && first->first < it->second;
    });
  }

 private:
  struct Inst {
    std::optional<InstantTime> completed;
    Action action = Action::commit;
    State state = State::requested;
    CommitInfo info;                   // files written (named when completed), replaced groups
    std::vector<WrittenFile> markers;  // pending writes
    bool heartbeat_alive = false;
    std::vector<PendingCompactionSlice> compaction;  // pending compaction plan
    std::vector<std::size_t> groups;                 // clustering: groups it replaces
  };
  struct GroupRec {
    std::string partition;
    std::string file_id;
    bool replaced = false;
    bool clustering = false;                // under a pending clustering
    std::optional<InstantTime> compaction;  // under a pending compaction
    std::optional<InstantTime> latest_key;  // the newest slice a writer sees (completed base, pending compaction)
  };
  struct SavepointRec {
    std::optional<InstantTime> completed;
    std::vector<WrittenFile> files;
  };

  InstantTime tick(int minutes = 1) {
    now_ += static_cast<std::int64_t>(minutes) * 60'000;
    return InstantTime::from_epoch_ms(now_, TimelineTimezone::utc);
  }
  std::string token() {
    const std::uint64_t n = tokens_++;
    return fmt::format("{}-{}-{}", n % 3, n / 3, n);
  }
  std::string base(const GroupRec& g, const InstantTime& t) {
    return fmt::format("{}_{}_{}.parquet", g.file_id, token(), t);
  }
  std::string log(const GroupRec& g, const InstantTime& t, int version) {
    return fmt::format(".{}_{}.log.{}_{}", g.file_id, t, version, token());
  }
  void list(const GroupRec& g, const std::string& name, const InstantTime& writer) {
    const std::string path = g.partition + "/" + name;
    files_[path] = File{g.partition, name};
    writer_[path] = writer;
  }
  // Groups a writer can update: not replaced, not under a pending
  // clustering, with a committed slice.
  std::vector<std::size_t> live_groups() const {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < groups_.size(); ++i) {
      if (!groups_[i].replaced && !groups_[i].clustering && groups_[i].latest_key) out.push_back(i);
    }
    return out;
  }
  std::vector<InstantTime> pending_of(bool (*pick)(Action)) const {
    std::vector<InstantTime> out;
    for (const auto& [t, i] : instants_) {
      if (i.state != State::completed && pick(i.action)) out.push_back(t);
    }
    return out;
  }

  void begin_write(std::uint8_t a, std::uint8_t b) {
    const InstantTime w = tick(1 + a % 3);
    Inst in;
    in.action = p_.mor ? Action::deltacommit : Action::commit;
    in.state = State::inflight;
    std::vector<std::size_t> live = live_groups();
    std::vector<std::size_t> touched;
    for (int k = 0; k < 1 + (a >> 2) % 2 && !live.empty(); ++k) {
      const std::size_t at = (b + 3 * k) % live.size();
      touched.push_back(live[at]);
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(at));
    }
    for (std::size_t gi : touched) {
      GroupRec& g = groups_[gi];
      std::string name;
      if (!p_.mor) {
        name = base(g, w);
      } else if (!p_.layout2 && g.latest_key) {
        name = log(g, *g.latest_key, 1 + static_cast<int>(tokens_ % 4));  // layout 1: named by the slice's base instant
      } else {
        name = log(g, w, 1);
      }
      in.info.files.push_back({g.partition, name, 1});
      list(g, name, w);
    }
    if (touched.empty() || (a & 0x40) != 0) {
      groups_.push_back(
          GroupRec{kPartitions[(a >> 3) % 2], fmt::format("fg{:03d}", groups_.size()), false, false, {}, {}});
      const GroupRec& g = groups_.back();
      const std::string name = base(g, w);
      in.info.files.push_back({g.partition, name, 1});
      list(g, name, w);
    }
    for (const auto& p : in.info.files) {
      bool exists = false;
      for (const auto& x : in.info.partitions_written) exists = exists || x == p.partition;
      if (!exists) in.info.partitions_written.emplace_back(p.partition);
    }
    const int markers = b % 3;  // all, the first only, none
    for (std::size_t i = 0; i < in.info.files.size(); ++i) {
      if (markers == 0 || (markers == 1 && i == 0)) in.markers.push_back(in.info.files[i].owned());
    }
    in.heartbeat_alive = (b & 0x10) != 0;
    instants_[w] = std::move(in);
  }

  static bool is_plain_write(Action a) { return is_commit_action(a) || a == Action::clustering; }
  static bool is_compaction(Action a) { return a == Action::compaction; }

  void complete_write(std::uint8_t a, std::uint8_t b) {
    const auto pending = pending_of(&History::is_plain_write);
    if (pending.empty()) return;
    const InstantTime w = pending[a % pending.size()];
    Inst& in = instants_[w];
    in.state = State::completed;
    in.completed = tick(1 + b % 3);
    in.markers.clear();
    if (in.action == Action::clustering) in.action = Action::replacecommit;
    for (std::size_t gi : in.groups) {
      groups_[gi].replaced = true;
      groups_[gi].clustering = false;
    }
    for (const FileRef f : in.info.files) {
      if (f.name.front() == '.') continue;
      for (GroupRec& g : groups_) {
        if (g.partition == f.partition && f.name.starts_with(g.file_id + "_") && (!g.latest_key || *g.latest_key < w)) {
          g.latest_key = w;
        }
      }
    }
    if ((b & 0x20) != 0) {  // a speculative duplicate of its first base file, not named by the metadata
      for (const FileRef f : in.info.files) {
        if (f.name.front() == '.') continue;
        for (const GroupRec& g : groups_) {
          if (g.partition == f.partition && f.name.starts_with(g.file_id + "_")) {
            list(g, base(g, w), w);
            break;
          }
        }
        break;
      }
    }
  }

  void fail_write(std::uint8_t a, std::uint8_t b) {
    const auto pending = pending_of(&History::is_plain_write);
    if (pending.empty()) return;
    const InstantTime w = pending[a % pending.size()];
    const Inst in = instants_[w];
    instants_.erase(w);
    for (std::size_t gi : in.groups) groups_[gi].clustering = false;
    if ((b & 1) != 0) {  // rolled back properly: its files go
      for (const FileRef f : in.info.files) files_.erase(join_path(f.partition, f.name));
    }
    if ((b & 2) != 0) simple(Action::rollback);
  }

  void schedule_compaction(std::uint8_t a) {
    if (!p_.mor) return;
    std::vector<std::size_t> cands;
    for (std::size_t i : live_groups()) {
      if (!groups_[i].compaction && groups_[i].latest_key) cands.push_back(i);
    }
    if (cands.empty()) return;
    const InstantTime c = tick(1 + a % 2);
    Inst in;
    in.action = Action::compaction;
    in.state = State::requested;
    for (std::size_t k = 0; k < 1u + a % 2u && k < cands.size(); ++k) {
      GroupRec& g = groups_[cands[(a + k) % cands.size()]];
      if (g.compaction) continue;
      in.compaction.push_back({c, g.partition, g.file_id, *g.latest_key});
      g.compaction = c;
      g.latest_key = c;
    }
    instants_[c] = std::move(in);
  }

  void complete_compaction(std::uint8_t a) {
    const auto pending = pending_of(&History::is_compaction);
    if (pending.empty()) return;
    const InstantTime c = pending[a % pending.size()];
    Inst& in = instants_[c];
    for (const PendingCompactionSlice& op : in.compaction) {
      for (GroupRec& g : groups_) {
        if (g.partition != op.partition || g.file_id != op.file_id) continue;
        const std::string name = base(g, c);
        in.info.files.push_back({g.partition, name, 1});
        in.info.partitions_written.push_back(g.partition);
        list(g, name, c);
        g.compaction.reset();
      }
    }
    in.compaction.clear();
    in.action = Action::commit;
    in.state = State::completed;
    in.completed = tick();
  }

  void replace(std::uint8_t a, std::uint8_t b) {
    std::vector<std::size_t> cands;
    const std::string part = kPartitions[a % 2];
    for (std::size_t i : live_groups()) {
      if (groups_[i].partition == part && !groups_[i].compaction) cands.push_back(i);
    }
    if (cands.size() < 2) return;
    const InstantTime r = tick(1 + b % 2);
    Inst in;
    groups_.push_back(GroupRec{part, fmt::format("fg{:03d}", groups_.size()), false, false, {}, {}});
    const std::string name = base(groups_.back(), r);
    in.info.files.push_back({part, name, 1});
    in.info.partitions_written.push_back(part);
    list(groups_.back(), name, r);
    for (std::size_t k = 0; k < 2u + (a >> 1) % 2u && k < cands.size(); ++k) {
      const std::size_t gi = cands[k];
      in.info.replaced.push_back({part, groups_[gi].file_id});
      in.groups.push_back(gi);
    }
    if ((b & 4) != 0) {  // completed at once
      in.action = Action::replacecommit;
      in.state = State::completed;
      in.completed = tick();
      for (std::size_t gi : in.groups) groups_[gi].replaced = true;
      groups_.back().latest_key = r;
    } else {  // a pending clustering
      in.action = p_.layout2 ? Action::clustering : Action::replacecommit;
      in.state = State::inflight;
      for (std::size_t gi : in.groups) groups_[gi].clustering = true;
    }
    instants_[r] = std::move(in);
  }

  // The truth's file groups, as Hudi's view builds them now.
  void clean(std::uint8_t a) {
    simple(Action::clean);
    const reference::hudi::ViewInput input = hudi_input();
    const reference::hudi::View view(input);
    std::vector<std::vector<std::string>> deletable;  // whole slices
    for (const auto& g : view.groups()) {
      bool replaced = false;
      for (const GroupRec& r : groups_)
        replaced = replaced || (r.partition == g.partition && r.file_id == g.file_id && r.replaced);
      std::vector<const reference::hudi::Slice*> committed;
      for (const auto& [key, s] : g.slices) {
        if (view.committed(key)) committed.push_back(&s);
      }
      if (committed.empty() || (!replaced && committed.size() < 2)) continue;
      std::vector<std::string> paths;
      for (const auto* s : replaced ? committed : std::vector<const reference::hudi::Slice*>{committed.front()}) {
        for (const auto& n : s->base_candidates) paths.push_back(g.partition + "/" + n);
        for (const auto& [n, d] : s->logs) paths.push_back(g.partition + "/" + n);
      }
      deletable.push_back(std::move(paths));
    }
    if (deletable.empty()) return;
    for (const std::string& p : deletable[a % deletable.size()]) files_.erase(p);
  }

  void simple(Action action) {
    const InstantTime t = tick();
    Inst in;
    in.action = action;
    in.state = State::completed;
    in.completed = t;
    instants_[t] = std::move(in);
  }

  void savepoint() {
    if (savepoints_.size() >= 2) return;
    std::optional<InstantTime> latest;
    for (const auto& [t, i] : instants_) {
      if (i.state == State::completed && is_commit_action(i.action)) latest = t;
    }
    if (!latest || savepoints_.contains(*latest)) return;
    // Its files: the latest committed slice of every live group, as Hudi's
    // view shows them now.
    const reference::hudi::ViewInput input = hudi_input();
    const reference::hudi::View view(input);
    const reference::hudi::Shown shown = view.shown();
    SavepointRec sp;
    sp.completed = tick();
    for (const auto& g : view.groups()) {
      for (auto it = g.slices.rbegin(); it != g.slices.rend(); ++it) {
        if (!view.committed(it->first) || *latest < it->first) continue;
        for (const auto& n : it->second.base_candidates) sp.files.push_back({g.partition, n, 1});
        for (const auto& [n, d] : it->second.logs) {
          if (shown.files.contains(g.partition + "/" + n)) sp.files.push_back({g.partition, n, 1});
        }
        break;
      }
    }
    savepoints_[*latest] = std::move(sp);
  }

  void remove_savepoint(std::uint8_t a) {
    if (savepoints_.empty()) return;
    auto it = savepoints_.begin();
    std::advance(it, a % savepoints_.size());
    savepoints_.erase(it);
  }

  // Hudi's archival: completed commit-timeline instants, oldest first, never
  // the newest completed one before the earliest pending write nor anything
  // after it, stopping at the first savepointed commit (or, beyond
  // savepoints, skipping savepointed commits); up to `a` of them, keeping
  // one. Cleans and rollbacks: layout 1 by their own count (the oldest `b`
  // of each), layout 2 those older than the newest archived commit.
  void archive(std::uint8_t a, std::uint8_t b) {
    std::vector<InstantTime> commits;
    std::optional<InstantTime> first_pending;
    for (const auto& [t, i] : instants_) {
      if (i.state == State::completed && is_commit_action(i.action)) commits.push_back(t);
      if (i.state != State::completed && is_write_action(i.action) && !first_pending) first_pending = t;
    }
    std::optional<InstantTime> bound;
    if (first_pending) {
      bound = first_pending;
      for (const InstantTime& c : commits) {
        if (c < *first_pending) bound = c;
      }
    }
    std::vector<InstantTime> archive;
    const std::size_t limit = commits.empty() ? 0 : std::min<std::size_t>(a % 8, commits.size() - 1);
    for (const InstantTime& c : commits) {
      if (archive.size() >= limit || (bound && !(c < *bound))) break;
      if (savepoints_.contains(c)) {
        if (p_.beyond_savepoint) continue;
        break;
      }
      if (!p_.beyond_savepoint && !savepoints_.empty() && savepoints_.begin()->first < c) break;
      archive.push_back(c);
    }
    const std::optional<InstantTime> last_commit =
        archive.empty() ? std::nullopt : std::optional<InstantTime>(archive.back());
    for (const Action act : {Action::clean, Action::rollback}) {
      std::vector<InstantTime> done;
      for (const auto& [t, i] : instants_) {
        if (i.action == act && i.state == State::completed) done.push_back(t);
      }
      if (!p_.layout2) {
        for (std::size_t k = 0; k < done.size() && k < static_cast<std::size_t>(b % 4); ++k) archive.push_back(done[k]);
      } else if (last_commit) {
        for (const InstantTime& t : done) {
          if (t < *last_commit) archive.push_back(t);
        }
      }
    }
    for (const InstantTime& t : archive) {
      const auto it = instants_.find(t);
      if (it == instants_.end()) continue;
      if (is_write_action(it->second.action)) archived_[t] = it->second.completed.value_or(t);
      instants_.erase(it);
    }
  }

  Params p_;
  std::int64_t now_ = kEpochMs;
  std::uint64_t tokens_ = 0;
  std::map<InstantTime, Inst> instants_;            // active, except savepoints
  std::map<InstantTime, SavepointRec> savepoints_;  // at their commit's time
  std::map<InstantTime, InstantTime> archived_;     // archived write instants: completion times
  std::vector<GroupRec> groups_;
  std::map<std::string, File> files_;          // listed data files
  std::map<std::string, InstantTime> writer_;  // path -> the instant that wrote it
};

// --- generators ---------------------------------------------------------------

inline rc::Gen<Op> gen_op() {
  return rc::gen::map(
      rc::gen::tuple(rc::gen::inRange(0, kOpKinds + 6), rc::gen::inRange(0, 256), rc::gen::inRange(0, 256)),
      [](const std::tuple<int, int, int>& t) {
        Op op;
        // Extra weight on writes (begin and complete) and
        // archival: they make the history the rules act on.
        const int k = std::get<0>(t);
        op.kind = k < kOpKinds       ? static_cast<OpKind>(k)
                  : k < kOpKinds + 2 ? OpKind::begin_write
                  : k < kOpKinds + 4 ? OpKind::complete_write
                                     : OpKind::archive;
        op.a = static_cast<std::uint8_t>(std::get<1>(t));
        op.b = static_cast<std::uint8_t>(std::get<2>(t));
        return op;
      });
}

inline rc::Gen<std::vector<Op>> gen_ops() {
  return rc::gen::resize(60, rc::gen::container<std::vector<Op>>(rc::gen::resize(100, gen_op())));
}

inline rc::Gen<Params> gen_params() {
  return rc::gen::map(rc::gen::inRange(0, 16), [](int bits) {
    Params p;
    p.layout2 = (bits & 1) != 0;
    p.mor = (bits & 2) != 0;
    p.archive_readable = !p.layout2 || (bits & 4) != 0;
    p.beyond_savepoint = (bits & 8) != 0;
    return p;
  });
}

}  // namespace lakegc::testing::orphans
