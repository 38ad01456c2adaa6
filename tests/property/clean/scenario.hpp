// File: tests/property/clean/scenario.hpp
// -----------------------------------------------------------------------------
// Random tables for the cleaning properties: a Scenario is a table type
// (COW or MOR, timeline layout 1 or 2), a list of operations, a policy and
// an optional stand-in for the previous clean. World replays the operations
// through the unit tests' TestTable (memory_storage + memory_journal), so
// every table the properties see was written the way Hudi's writers and
// services write one: commits and deltacommits, in-flight and failed
// writes, writes completing out of order, compactions left pending or
// completed, replacecommits (some emptying a partition), savepoints taken
// and deleted, cleans run by the service, archival.
//
// Operations carry small integers, not table state, and World maps them
// onto whatever the table holds at that point, so every generated list is
// valid and RapidCheck can shrink a failing one by dropping operations.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "../../reference/reference_planner.hpp"
#include "../../unit/clean/clean_fixture.hpp"
#include "rc_doctest.hpp"

namespace lakegc::testing::prop {

// --- what is generated ----------------------------------------------------------

enum class OpKind : std::uint8_t {
  write,                // a completed commit / deltacommit: updates and inserts
  pending_insert,       // a write that stays in flight (its files are listed)
  complete_pending,     // one of them completes, out of order
  rollback_pending,     // one of them is abandoned; its files stay behind
  schedule_compaction,  // MOR: a compaction plan over some groups (COW: a write)
  complete_compaction,
  replace,  // clustering / insert_overwrite / delete_partition
  savepoint,
  remove_savepoint,
  clean,             // the cleaner service runs with the scenario's policy
  archive,           // archival up to some completed commit
  delete_partition,  // a replacecommit replacing every group of a partition, writing nothing
};
inline constexpr int kOpKinds = 12;

struct Op {
  OpKind kind = OpKind::write;
  std::uint16_t mask = 0;  // which partitions and groups the op touches
  std::uint8_t x = 0;      // which pending item, new group or not, ...
};

inline std::ostream& operator<<(std::ostream& os, const Op& op) {
  static constexpr const char* names[] = {"write",
                                          "pending_insert",
                                          "complete_pending",
                                          "rollback",
                                          "schedule_compaction",
                                          "complete_compaction",
                                          "replace",
                                          "savepoint",
                                          "remove_savepoint",
                                          "clean",
                                          "archive",
                                          "delete_partition"};
  return os << names[static_cast<int>(op.kind)] << "(" << op.mask << "," << static_cast<int>(op.x) << ")";
}

/// How the previous clean the planner sees is chosen.
struct PrevClean {
  enum Kind : std::uint8_t { as_is, none, synthetic } kind = as_is;
  int ectr = 0;                 // synthetic: -2 none, -1 archived, else index into completed commits
  std::uint8_t savepoints = 0;  // synthetic: bit i records savepoint i; bit 7 records a deleted one
  int age_hours = 0;            // synthetic: how long ago the clean ran
};

inline std::ostream& operator<<(std::ostream& os, const PrevClean& p) {
  static constexpr const char* names[] = {"as_is", "none", "synthetic"};
  os << names[p.kind];
  if (p.kind == PrevClean::synthetic) {
    os << "(ectr=" << p.ectr << ", savepoints=" << static_cast<int>(p.savepoints) << ", age=" << p.age_hours << "h)";
  }
  return os;
}

}  // namespace lakegc::testing::prop

namespace lakegc::reference {
inline std::ostream& operator<<(std::ostream& os, const Policy& p) {
  os << detail::rule_name(p.rule) << "{" << p.count << "}" << (p.savepoint_guard ? " +savepoints" : " -savepoints")
     << (p.pending_guard ? " +pending" : " -pending") << (p.incremental ? " incremental" : " full");
  if (!p.selected_partitions.empty()) {
    os << " selected=";
    for (const auto& s : p.selected_partitions) os << s << ";";
  }
  if (!p.partition_regex.empty()) os << " regex=" << p.partition_regex;
  if (p.max_commits_to_clean != 0) os << " cap=" << p.max_commits_to_clean;
  if (p.empty_clean_interval_hours) os << " empty_clean=" << *p.empty_clean_interval_hours << "h";
  if (p.drop_newest_before_boundary) os << " CANARY";
  return os;
}
}  // namespace lakegc::reference

namespace lakegc::testing::prop {

inline constexpr const char* kPartitions[] = {"a", "b", "c/d"};  // one nested path

// --- generators -----------------------------------------------------------------

inline rc::Gen<Op> gen_op() {
  return rc::gen::map(
      rc::gen::tuple(rc::gen::inRange(0, kOpKinds + 7), rc::gen::inRange(0, 1 << 12), rc::gen::inRange(0, 256)),
      [](const std::tuple<int, int, int>& t) {
        Op op;
        // Extra weight: three more values mean "write"
        // (writes make the slices everything else works
        // on), two more "delete_partition" (a partition is
        // removed only if nothing is written there later)
        // and two more "schedule_compaction" (MOR rules
        // need compactions over groups with history).
        const int k = std::get<0>(t);
        op.kind = k < kOpKinds       ? static_cast<OpKind>(k)
                  : k < kOpKinds + 3 ? OpKind::write
                  : k < kOpKinds + 5 ? OpKind::delete_partition
                                     : OpKind::schedule_compaction;
        op.mask = static_cast<std::uint16_t>(std::get<1>(t));
        op.x = static_cast<std::uint8_t>(std::get<2>(t));
        return op;
      });
}

// RapidCheck scales integers in inRange by the current size (0 to 100 over a
// run), so each operation is drawn at full size: every kind and mask is
// possible in every case, and lists hold up to 60 operations in every case
// (shrinking still drops operations one by one).
inline rc::Gen<std::vector<Op>> gen_ops() {
  return rc::gen::resize(60, rc::gen::container<std::vector<Op>>(rc::gen::resize(100, gen_op())));
}

/// A policy; `guarded` forces both built-in guards on.
inline rc::Gen<reference::Policy> gen_policy(bool guarded) {
  using reference::Rule;
  return rc::gen::map(
      rc::gen::tuple(rc::gen::element(Rule::keep_latest_commits, Rule::keep_latest_file_versions, Rule::keep_by_hours),
                     rc::gen::inRange(1, 6), rc::gen::inRange(0, 8), rc::gen::inRange(0, 8), rc::gen::inRange(0, 4),
                     rc::gen::inRange(0, 6), rc::gen::inRange(0, 4)),
      [guarded](const std::tuple<Rule, int, int, int, int, int, int>& t) {
        reference::Policy p;
        p.rule = std::get<0>(t);
        p.count = static_cast<std::uint32_t>(p.rule == Rule::keep_latest_file_versions ? 1 + std::get<1>(t) % 3
                                                                                       : std::get<1>(t));
        const int g = std::get<2>(t);
        p.savepoint_guard = guarded || g % 4 != 0;
        p.pending_guard = guarded || g % 4 != 1;
        const bool boundary = p.rule != Rule::keep_latest_file_versions;
        const int scope = std::get<3>(t);
        p.incremental = boundary && scope < 5;
        if (!p.incremental) {
          if (scope % 4 == 1) p.selected_partitions = {"b", "c/d", "missing"};
          if (scope % 4 == 2) p.partition_regex = "a|c/.*";
        }
        const int cap = std::get<4>(t);
        if (boundary && cap > 0) p.max_commits_to_clean = static_cast<std::uint64_t>(cap);
        const int empty = std::get<5>(t);
        if (p.incremental && empty < 2) p.empty_clean_interval_hours = static_cast<std::uint32_t>(empty + 1);
        (void)std::get<6>(t);
        return p;
      });
}

inline rc::Gen<PrevClean> gen_prev_clean() {
  return rc::gen::map(rc::gen::tuple(rc::gen::inRange(0, 5), rc::gen::inRange(-2, 20), rc::gen::inRange(0, 256),
                                     rc::gen::inRange(0, 4)),
                      [](const std::tuple<int, int, int, int>& t) {
                        PrevClean p;
                        const int k = std::get<0>(t);
                        p.kind = k < 2 ? PrevClean::as_is : k == 2 ? PrevClean::none : PrevClean::synthetic;
                        p.ectr = std::get<1>(t);
                        p.savepoints = static_cast<std::uint8_t>(std::get<2>(t));
                        p.age_hours = std::get<3>(t);
                        return p;
                      });
}

// --- the policy under test, built from the same description --------------------

/// A CleaningPolicy for the library from a reference::Policy: the
/// library's own rules and flags, so the library and the reference decide
/// from the same description.
struct SpecPolicy {
  reference::Policy spec;

  Retention retention(const RetentionContext& ctx) const {
    switch (spec.rule) {
      case reference::Rule::keep_latest_commits: return keep_latest_commits{spec.count}.retention(ctx);
      case reference::Rule::keep_latest_file_versions: return keep_latest_file_versions{spec.count}.retention(ctx);
      case reference::Rule::keep_by_hours: return keep_by_hours{spec.count}.retention(ctx);
    }
    return {};
  }
  GuardFlags guards() const { return GuardFlags{spec.savepoint_guard, spec.pending_guard, false}; }
  ScopeSettings scope() const {
    ScopeSettings s;
    s.incremental = spec.incremental;
    s.selected_partitions = spec.selected_partitions;
    s.partition_regex = spec.partition_regex;
    s.max_commits_to_clean = spec.max_commits_to_clean;
    s.empty_clean_interval_hours = spec.empty_clean_interval_hours;
    return s;
  }
  std::string name() const { return reference::detail::rule_name(spec.rule); }
  bool user_guards_protect(const SliceGuardContext&) const { return false; }
};
static_assert(CleaningPolicy<SpecPolicy>);

// --- replaying a scenario ---------------------------------------------------------

class World {
 public:
  World(bool mor, TimelineLayout layout, reference::Policy cleaner)
      : table(layout), mor_(mor), layout_(layout), cleaner_{std::move(cleaner)} {}
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  TestTable table;

  void apply(const Op& op) {
    switch (op.kind) {
      case OpKind::write: write(op); break;
      case OpKind::pending_insert: pending_insert(op); break;
      case OpKind::complete_pending: complete_pending(op); break;
      case OpKind::rollback_pending: rollback_pending(op); break;
      case OpKind::schedule_compaction:
        if (mor_) {
          schedule_compaction(op);
        } else {
          write(op);
        }
        break;
      case OpKind::complete_compaction: complete_compaction(op); break;
      case OpKind::replace: replace(op); break;
      case OpKind::savepoint:
        if (savepoints_.size() < 3) savepoints_.push_back(table.savepoint_latest());
        break;
      case OpKind::remove_savepoint:
        if (!savepoints_.empty()) {
          const std::size_t i = op.x % savepoints_.size();
          REQUIRE(table.journal.remove_savepoint(savepoints_[i]).ok());
          savepoints_.erase(savepoints_.begin() + static_cast<std::ptrdiff_t>(i));
        }
        break;
      case OpKind::clean: (void)table.clean(SpecPolicy{cleaner_}); break;
      case OpKind::archive: archive(op); break;
      case OpKind::delete_partition: delete_partition(op); break;
    }
  }

  /// The metadata the planner sees, with the previous clean replaced as
  /// `prev` says.
  TableMetadata metadata(const PrevClean& prev, std::int64_t now_ms) {
    TableMetadata md = table.md();
    if (prev.kind == PrevClean::none) md.last_completed_clean.reset();
    if (prev.kind == PrevClean::synthetic) {
      CleanRecord r;
      r.instant = InstantTime::from_epoch_ms(now_ms - prev.age_hours * 3'600'000LL - 60'000, TimelineTimezone::utc);
      const auto commits = md.timeline.completed_commits();
      if (prev.ectr == -1) {
        r.earliest_commit_to_retain = InstantTime::parse("20000101000000000").value();  // archived long ago
      } else if (prev.ectr >= 0 && !commits.empty()) {
        r.earliest_commit_to_retain = commits[static_cast<std::size_t>(prev.ectr) % commits.size()]->requested;
      }
      r.last_completed_commit = md.timeline.last_completed_commit();
      for (std::size_t i = 0; i < md.savepoints.size() && i < 7; ++i) {
        if (prev.savepoints & (1u << i)) r.savepointed_timestamps.push_back(md.savepoints[i].instant);
      }
      if (prev.savepoints & 0x80) r.savepointed_timestamps.push_back(InstantTime::parse("20000101000000001").value());
      md.last_completed_clean = r;
    }
    return md;
  }

 private:
  struct Group {
    std::size_t partition;
    std::string id;
    InstantTime base;                       // key of its newest slice with a base file
    std::optional<InstantTime> compaction;  // pending compaction over it
    bool replaced = false;
  };
  struct PendingWrite {
    InstantTime at;
    CommitInfo info;
    std::vector<Group> groups;
  };
  struct PendingCompaction {
    InstantTime at;
    std::vector<std::size_t> groups;
  };

  std::string new_id() { return fmt::format("f{}-0", next_id_++); }

  // Partitions the mask names (bits 0-2), never none.
  std::vector<std::size_t> partitions_of(const Op& op) const {
    std::vector<std::size_t> out;
    for (std::size_t p = 0; p < 3; ++p) {
      if (op.mask & (1u << p)) out.push_back(p);
    }
    if (out.empty()) out.push_back(op.x % 3);
    return out;
  }
  // Live groups in `parts` the mask picks (bits 3-11).
  std::vector<std::size_t> groups_of(const Op& op, const std::vector<std::size_t>& parts, bool for_compaction) const {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < groups_.size(); ++i) {
      const Group& g = groups_[i];
      if (g.replaced || std::find(parts.begin(), parts.end(), g.partition) == parts.end()) continue;
      if (for_compaction && g.compaction) continue;
      if (op.mask & (1u << (3 + i % 9))) out.push_back(i);
    }
    return out;
  }

  void write(const Op& op) {
    const auto parts = partitions_of(op);
    const auto updates = groups_of(op, parts, false);
    std::vector<Group> inserts;
    if (updates.empty() || op.x % 3 == 0) inserts.push_back(Group{parts[op.x % parts.size()], new_id(), {}, {}, false});

    const InstantTime at = table.tick();
    REQUIRE(table.journal.begin(at, mor_ ? Action::deltacommit : Action::commit).ok());
    CommitInfo info;
    // MOR writes append logs, but sometimes write a new base file (inserts
    // routed to a small file): the groups then have several slices without
    // a compaction, as real MOR tables do.
    const bool mor_rewrite = (op.x & 0x10) != 0;
    for (std::size_t i : updates) {
      Group& g = groups_[i];
      const std::string partition = kPartitions[g.partition];
      std::string name;
      if (mor_ && !(mor_rewrite && !g.compaction)) {
        // Layout 1 names a log by the slice it appends to (the pending
        // compaction's slice once one is scheduled); layout 2 by its write.
        const InstantTime log_t = layout_ == TimelineLayout::v1 ? g.compaction.value_or(g.base) : at;
        name = table.log_name(g.id, log_t);
      } else {
        name = table.base_name(g.id, at);
        g.base = at;
      }
      const std::uint64_t size = name.front() == '.' ? 10 : 100;  // logs are small
      REQUIRE(table.storage.put_sized(join_path(partition, name), size).ok());
      info.files.push_back({partition, name, size});
      info.partitions_written.push_back(partition);
    }
    for (Group& g : inserts) {
      g.base = at;
      put_base(g, at, info);
      groups_.push_back(g);
    }
    normalise(info);
    REQUIRE(table.journal.complete(at, table.completion_of(at), info).ok());
  }

  void pending_insert(const Op& op) {
    const auto parts = partitions_of(op);
    const InstantTime at = table.tick();
    REQUIRE(table.journal.begin(at, mor_ ? Action::deltacommit : Action::commit).ok());
    REQUIRE(table.journal.set_inflight(at).ok());
    PendingWrite w{at, {}, {}};
    for (std::size_t i = 0; i < 1u + op.x % 2u; ++i) {
      Group g{parts[i % parts.size()], new_id(), at, {}, false};
      put_base(g, at, w.info);
      w.groups.push_back(g);
    }
    normalise(w.info);
    pending_.push_back(std::move(w));
  }

  void complete_pending(const Op& op) {
    if (pending_.empty()) return;
    const std::size_t i = op.x % pending_.size();
    PendingWrite w = std::move(pending_[i]);
    pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(i));
    // Completes now: after commits requested later (out of order).
    REQUIRE(table.journal.complete(w.at, now_plus(1), w.info).ok());
    for (const Group& g : w.groups) groups_.push_back(g);
  }

  void rollback_pending(const Op& op) {
    if (pending_.empty()) return;
    const std::size_t i = op.x % pending_.size();
    REQUIRE(table.journal.remove_pending(pending_[i].at).ok());
    pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(i));
  }

  void schedule_compaction(const Op& op) {
    const auto parts = partitions_of(op);
    const auto picked = groups_of(op, parts, true);
    if (picked.empty()) return;
    std::vector<Slot> slots;
    std::vector<InstantTime> bases;
    for (std::size_t i : picked) {
      slots.push_back({kPartitions[groups_[i].partition], groups_[i].id});
      bases.push_back(groups_[i].base);
    }
    const InstantTime at = table.schedule_compaction(slots, bases);
    for (std::size_t i : picked) groups_[i].compaction = at;
    compactions_.push_back({at, picked});
  }

  void complete_compaction(const Op& op) {
    if (compactions_.empty()) return;
    const std::size_t k = op.x % compactions_.size();
    const PendingCompaction c = compactions_[k];
    compactions_.erase(compactions_.begin() + static_cast<std::ptrdiff_t>(k));
    CommitInfo info;
    for (std::size_t i : c.groups) {
      Group& g = groups_[i];
      put_base(g, c.at, info);
      g.base = c.at;
      g.compaction.reset();
    }
    normalise(info);
    REQUIRE(table.journal.complete(c.at, now_plus(2), info).ok());
  }

  void replace(const Op& op) {
    const std::size_t p = partitions_of(op).front();
    std::vector<std::size_t> victims = groups_of(op, {p}, true);
    if (victims.empty() && op.x % 2 == 0) {
      for (std::size_t i = 0; i < groups_.size(); ++i) {
        if (!groups_[i].replaced && !groups_[i].compaction && groups_[i].partition == p) victims.push_back(i);
      }
    }
    // The new group lands in the same partition (clustering) or elsewhere,
    // which can leave `p` with no live group (delete_partition, TTL).
    const std::size_t target = op.x % 4 < 2 ? p : (p + 1 + op.x % 2) % 3;
    std::vector<Slot> written{{kPartitions[target], new_id()}};
    std::vector<Slot> replaced;
    for (std::size_t i : victims) replaced.push_back({kPartitions[groups_[i].partition], groups_[i].id});
    const InstantTime at = table.replace(written, replaced);
    for (std::size_t i : victims) groups_[i].replaced = true;
    groups_.push_back(Group{target, written[0].file_id, at, {}, false});
  }

  // Hudi's delete_partition (and partition TTL): refused while a group of
  // the partition is under compaction, as Hudi refuses it.
  void delete_partition(const Op& op) {
    const std::size_t p = op.x % 3;
    std::vector<std::size_t> victims;
    for (std::size_t i = 0; i < groups_.size(); ++i) {
      if (groups_[i].replaced || groups_[i].partition != p) continue;
      if (groups_[i].compaction) return;
      victims.push_back(i);
    }
    if (victims.empty()) return;
    std::vector<Slot> replaced;
    for (std::size_t i : victims) replaced.push_back({kPartitions[p], groups_[i].id});
    table.replace({}, replaced);
    for (std::size_t i : victims) groups_[i].replaced = true;
  }

  void archive(const Op& op) {
    // Archival never passes a pending instant or a savepoint: files of
    // archived commits count as committed only if they are older than
    // every instant left on the timeline.
    const TableMetadata md = table.md();
    const auto commits = md.timeline.completed_commits();
    if (commits.size() < 2) return;
    InstantTime upto = commits[op.x % (commits.size() - 1)]->requested;
    for (const Instant& i : md.timeline.instants()) {
      if ((i.is_pending() || i.action == Action::savepoint) && i.requested < upto) upto = i.requested;
    }
    table.journal.archive_before(upto);
  }

  void put_base(const Group& g, const InstantTime& at, CommitInfo& info) {
    const std::string partition = kPartitions[g.partition];
    table.ensure_partition(partition);
    const std::string name = table.base_name(g.id, at);
    REQUIRE(table.storage.put_sized(join_path(partition, name), 100).ok());
    info.files.push_back({partition, name, 100});
    info.partitions_written.push_back(partition);
  }

  InstantTime now_plus(std::int64_t ms) const {
    return InstantTime::from_epoch_ms(table.now + ms, TimelineTimezone::utc);
  }

  static void normalise(CommitInfo& info) {
    std::sort(info.partitions_written.begin(), info.partitions_written.end());
    info.partitions_written.erase(std::unique(info.partitions_written.begin(), info.partitions_written.end()),
                                  info.partitions_written.end());
  }

  bool mor_;
  TimelineLayout layout_;
  reference::Policy cleaner_;
  std::vector<Group> groups_;
  std::vector<PendingWrite> pending_;
  std::vector<PendingCompaction> compactions_;
  std::vector<InstantTime> savepoints_;
  int next_id_ = 0;
};

/// One generated case: the table built, plus what the planner is asked.
struct Case {
  bool mor = false;
  TimelineLayout layout = TimelineLayout::v2;
  std::vector<Op> ops;
  reference::Policy policy;
  PrevClean prev;
  std::int64_t now_offset_ms = 0;
};

/// Draws a case inside a property (RapidCheck prints each drawn value of
/// a failing case).
inline Case draw_case(bool guarded) {
  Case c;
  c.mor = *rc::gen::resize(100, rc::gen::arbitrary<bool>());
  c.layout = *rc::gen::resize(100, rc::gen::element(TimelineLayout::v1, TimelineLayout::v2));
  c.ops = *gen_ops();
  // Full size, for the reason given at gen_ops().
  c.policy = *rc::gen::resize(100, gen_policy(guarded));
  c.prev = *rc::gen::resize(100, gen_prev_clean());
  c.now_offset_ms =
      *rc::gen::resize(100, rc::gen::element(std::int64_t{0}, std::int64_t{1000}, std::int64_t{2 * 3'600'000}));
  return c;
}

/// The table, view and metadata of a case, ready to plan.
struct Built {
  explicit Built(const Case& c) : world(c.mor, c.layout, c.policy) {
    for (const Op& op : c.ops) world.apply(op);
    now_ms = world.table.now + c.now_offset_ms;
    md = world.metadata(c.prev, now_ms);
    view = load_view(world.table.storage, md).value();
  }
  World world;
  std::int64_t now_ms = 0;
  TableMetadata md;
  TableView view;
};

inline CleanPlan library_plan(const TableView& v, const TableMetadata& md, const reference::Policy& p,
                              std::int64_t now_ms, CleanScope* scope = nullptr) {
  CleanContext ctx;
  ctx.now_ms = now_ms;
  auto plan = plan_clean(v, md, SpecPolicy{p}, ctx, scope);
  RC_ASSERT(plan.ok());
  return *plan;
}

// --- reporting --------------------------------------------------------------------

inline std::string describe(const CleanPlan& p) {
  std::ostringstream os;
  os << "  ectr=" << (p.earliest_instant_to_retain ? p.earliest_instant_to_retain->str() : "-")
     << " last=" << (p.last_completed_commit_timestamp ? p.last_completed_commit_timestamp->str() : "-")
     << " policy=" << p.policy << " empty_clean=" << p.empty_clean << "\n";
  for (const auto& [part, files] : p.files_per_partition) {
    for (const auto& f : files) {
      os << "  delete " << join_path(part, f.name) << " (" << to_string(f.reason) << ", slice " << f.slice.str()
         << ")\n";
    }
  }
  for (const auto& part : p.partitions_to_be_deleted) os << "  delete partition " << part << "\n";
  for (const auto& [k, v] : p.extra_metadata) os << "  extra " << k << "=" << v << "\n";
  for (const auto& g : p.skipped_partitions) os << "  skipped " << g.partition << ": " << g.reason << "\n";
  return os.str();
}

inline std::string describe(const TableMetadata& md, const TableView& v) {
  std::ostringstream os;
  for (const Instant& i : md.timeline.instants()) os << "  " << fmt::format("{}", i) << "\n";
  if (md.last_completed_clean) {
    os << "  previous clean " << md.last_completed_clean->instant.str() << " ectr="
       << (md.last_completed_clean->earliest_commit_to_retain
               ? md.last_completed_clean->earliest_commit_to_retain->str()
               : "-")
       << "\n";
  }
  for (const PendingCompactionSlice& op : md.pending_compactions) {
    os << "  compaction " << op.compaction_instant.str() << " of " << op.partition << "/" << op.file_id << " at "
       << op.base_instant.str() << "\n";
  }
  for (const auto& [t, info] : md.commits) {
    for (const FileRef f : info.files) os << "  " << t.str() << " wrote " << join_path(f.partition, f.name) << "\n";
  }
  for (const Partition& p : v.partitions()) {
    for (const FileGroup& g : v.groups_of(p)) {
      os << "  " << p.path << "/" << v.file_id(g) << (g.replaced_by ? " replaced" : "") << ":";
      for (const FileSlice& s : v.slices_of(g)) os << " " << s.base_instant.str() << "[" << s.log_count << "]";
      os << "\n";
    }
  }
  return os.str();
}

}  // namespace lakegc::testing::prop
