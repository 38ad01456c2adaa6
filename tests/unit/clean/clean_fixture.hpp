// A small table built through the public API (memory_storage +
// memory_journal) for the cleaning tests: each call is one Hudi action.
#pragma once

#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "lakegc/core/load_view.hpp"
#include "lakegc/exec/clean_service.hpp"
#include "lakegc/exec/memory_journal.hpp"
#include "lakegc/plan/plan_clean.hpp"
#include "lakegc/storage/memory_storage.hpp"
#include "printers.hpp"

namespace lakegc::testing {

struct Slot {
  std::string partition;
  std::string file_id;
};

class TestTable {
 public:
  static constexpr std::int64_t kStart = 1'700'000'000'000;  // 2023-11-14T22:13:20Z

  explicit TestTable(TimelineLayout layout = TimelineLayout::v2, std::int64_t step_ms = 30 * 60'000)
      : storage([this] { return now; }), journal(TimelineTimezone::utc, layout), step(step_ms) {}

  std::int64_t now = kStart;
  memory_storage storage;
  memory_journal journal;
  std::int64_t step;
  int token = 0;

  InstantTime tick() {
    now += step;
    return InstantTime::from_epoch_ms(now, TimelineTimezone::utc);
  }
  InstantTime completion_of(const InstantTime& t, std::int64_t delay_ms = 1000) {
    return InstantTime::from_epoch_ms(t.to_epoch_ms(TimelineTimezone::utc).value() + delay_ms, TimelineTimezone::utc);
  }
  void ensure_partition(const std::string& p) {
    const std::string path = join_path(p, ".hoodie_partition_metadata");
    if (!storage.stat(path).ok()) REQUIRE(storage.write_if_absent(path, "commitTime=0\n").ok());
  }
  std::string base_name(const std::string& fid, const InstantTime& t) {
    ++token;
    return fmt::format("{}_0-{}-{}_{}.parquet", fid, token, token, t);
  }
  std::string log_name(const std::string& fid, const InstantTime& t, int version = 1) {
    ++token;
    return fmt::format(".{}_{}.log.{}_0-{}-{}", fid, t, version, token, token);
  }

  /// Starts a write that creates base files for `slots` (COW insert/update).
  InstantTime begin_commit(const std::vector<Slot>& slots, CommitInfo* info, Action action = Action::commit) {
    const InstantTime t = tick();
    REQUIRE(journal.begin(t, action).ok());
    REQUIRE(journal.set_inflight(t).ok());
    for (const auto& s : slots) {
      ensure_partition(s.partition);
      const std::string name = base_name(s.file_id, t);
      REQUIRE(storage.put_sized(join_path(s.partition, name), 100).ok());
      info->files.push_back({s.partition, name, 100});
      info->partitions_written.push_back(s.partition);
    }
    normalise(*info);
    return t;
  }
  InstantTime commit(const std::vector<Slot>& slots, Action action = Action::commit) {
    CommitInfo info;
    const InstantTime t = begin_commit(slots, &info, action);
    REQUIRE(journal.complete(t, completion_of(t), info).ok());
    return t;
  }
  /// A deltacommit appending logs to `slots`; layout 1 names logs by the
  /// slice's base instant, layout 2 by the deltacommit.
  InstantTime deltacommit(const std::vector<Slot>& slots, const std::vector<InstantTime>& base_instants = {}) {
    const InstantTime t = tick();
    REQUIRE(journal.begin(t, Action::deltacommit).ok());
    CommitInfo info;
    for (std::size_t i = 0; i < slots.size(); ++i) {
      const auto& s = slots[i];
      ensure_partition(s.partition);
      const InstantTime name_t = base_instants.empty() ? t : base_instants[i];
      const std::string name = log_name(s.file_id, name_t);
      REQUIRE(storage.put_sized(join_path(s.partition, name), 10).ok());
      info.files.push_back({s.partition, name, 10});
      info.partitions_written.push_back(s.partition);
    }
    normalise(info);
    REQUIRE(journal.complete(t, completion_of(t), info).ok());
    return t;
  }
  /// Schedules a compaction of the current slices of `slots` (base instants given).
  InstantTime schedule_compaction(const std::vector<Slot>& slots, const std::vector<InstantTime>& bases) {
    const InstantTime t = tick();
    std::vector<PendingCompactionSlice> ops;
    for (std::size_t i = 0; i < slots.size(); ++i) ops.push_back({t, slots[i].partition, slots[i].file_id, bases[i]});
    REQUIRE(journal.schedule_compaction(t, ops).ok());
    return t;
  }
  void complete_compaction(const InstantTime& t, const std::vector<Slot>& slots) {
    CommitInfo info;
    for (const auto& s : slots) {
      const std::string name = base_name(s.file_id, t);
      REQUIRE(storage.put_sized(join_path(s.partition, name), 100).ok());
      info.files.push_back({s.partition, name, 100});
      info.partitions_written.push_back(s.partition);
    }
    normalise(info);
    REQUIRE(journal.complete(t, completion_of(t, step / 2), info).ok());
  }
  /// A replacecommit writing `written` and replacing `replaced`.
  InstantTime replace(const std::vector<Slot>& written, const std::vector<Slot>& replaced) {
    CommitInfo info;
    const InstantTime t = begin_commit(written, &info, Action::replacecommit);
    for (const auto& r : replaced) info.replaced.push_back({r.partition, r.file_id});
    REQUIRE(journal.complete(t, completion_of(t), info).ok());
    return t;
  }
  InstantTime savepoint_latest() {
    const InstantTime t = tick();
    const TableView v = view();
    std::vector<WrittenFile> files;
    for (const Partition& p : v.partitions()) {
      for (const FileGroup& g : v.groups_of(p)) {
        if (g.replaced_by) continue;
        const FileSlice& s = v.slices_of(g)[0];
        if (s.base_file != kNoFile) files.push_back({p.path, std::string(v.file_name(s.base_file)), 0});
        for (auto f : v.logs_of(s)) files.push_back({p.path, std::string(v.file_name(f)), 0});
      }
    }
    REQUIRE(journal.savepoint(t, completion_of(t), files).ok());
    return t;
  }

  TableMetadata md() { return journal.load().value(); }
  TableView view() {
    const TableMetadata m = md();
    return load_view(storage, m).value();
  }
  template <CleaningPolicy P>
  CleanPlan plan(const P& policy, CleanContext ctx = {}) {
    if (ctx.now_ms == 0) ctx.now_ms = now;
    const TableMetadata m = md();
    const TableView v = load_view(storage, m).value();
    return plan_clean(v, m, policy, ctx).value();
  }
  template <CleaningPolicy P>
  CleanRunReport clean(const P& policy, CleanContext ctx = {}) {
    now += 1000;
    if (ctx.now_ms == 0) ctx.now_ms = now;
    auto r = run_clean(storage, journal, policy, ctx);
    REQUIRE_MESSAGE(r.ok(), std::string(message_of(r.status())));
    return *r;
  }
  bool exists(std::string_view partition, std::string_view name) {
    return storage.stat(join_path(partition, name)).ok();
  }
  /// Every file name under `partition`, data files only.
  std::set<std::string> files(const std::string& partition) {
    std::set<std::string> out;
    (void)storage.list(
        partition,
        [&](const FileEntry& e) {
          const auto slash = e.path.rfind('/');
          std::string name(slash == std::string_view::npos ? e.path : e.path.substr(slash + 1));
          if (!is_partition_metadata_file(name)) out.insert(name);
        },
        ListOptions{false, {}});
    return out;
  }

 private:
  static void normalise(CommitInfo& info) {
    std::sort(info.partitions_written.begin(), info.partitions_written.end());
    info.partitions_written.erase(std::unique(info.partitions_written.begin(), info.partitions_written.end()),
                                  info.partitions_written.end());
  }
};

/// Names of files a plan deletes, flattened as partition/name.
inline std::set<std::string> planned(const CleanPlan& p) {
  std::set<std::string> out;
  for (const auto& [part, files] : p.files_per_partition) {
    for (const auto& f : files) out.insert(join_path(part, f.name));
  }
  return out;
}

/// The slice base instants a plan deletes in one partition.
inline std::set<InstantTime> planned_slices(const CleanPlan& p, const std::string& partition) {
  std::set<InstantTime> out;
  if (p.files_per_partition.contains(partition)) {
    for (const auto& f : p.files_per_partition.at(partition)) out.insert(f.slice);
  }
  return out;
}

}  // namespace lakegc::testing
