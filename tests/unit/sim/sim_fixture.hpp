// Helpers for the simulator's unit tests: a hand-made swarm (every actor and
// fault off unless a test turns it on) and a small table written directly
// through memory_storage + memory_journal.
#pragma once

#include <string>
#include <vector>

#include "lakegc/core/file_name.hpp"
#include "lakegc/exec/memory_journal.hpp"
#include "lakegc/sim/world.hpp"
#include "lakegc/storage/memory_storage.hpp"

namespace lakegc::sim::testing {

/// A quiet swarm: one COW partition, one writer, nothing else.
inline SwarmConfig quiet_swarm() {
  SwarmConfig s;
  s.type = TableType::cow;
  s.layout = TimelineLayout::v2;
  s.partitions = 1;
  s.max_groups = 4;
  s.writers = 1;
  s.update_fanout = 1;
  s.insert_percent = 0;
  s.time_travel_percent = 0;
  s.compaction = false;
  s.clustering = false;
  s.savepoints = false;
  s.cleaner = CleanerMode::async;
  s.archiver = false;
  s.faults = FaultKnobs{};
  return s;
}

/// KEEP_LATEST_COMMITS with both built-in guards.
inline any_policy commits_policy(std::uint32_t n) {
  return any_policy(cleaning(keep_latest_commits{n}, guard::savepoints, guard::pending_table_services));
}

/// `<fid>_0-0-<token>_<t>.parquet` and `.<fid>_<t>.log.1_0-0-<token>`,
/// through the library's file-name grammar.
inline std::string base_file(const std::string& fid, int token, const InstantTime& t) {
  return format_file_name(BaseFileName{fid, fmt::format("0-0-{}", token), t, "parquet"});
}
inline std::string log_file(const std::string& fid, int token, const InstantTime& t) {
  LogFileName log;
  log.file_id = fid;
  log.instant = t;
  log.version = "1";
  log.write_token = fmt::format("0-0-{}", token);
  return format_file_name(log);
}

inline InstantTime minute(int m) {
  return InstantTime::from_epoch_ms(Table::kEpochMs + static_cast<std::int64_t>(m) * 60'000, TimelineTimezone::utc);
}

/// A table written action by action, as Hudi's writers would.
struct MiniTable {
  explicit MiniTable(TimelineLayout layout = TimelineLayout::v2) : journal(TimelineTimezone::utc, layout) {
    (void)storage.write_if_absent("p/.hoodie_partition_metadata", "x");
  }
  memory_storage storage;
  memory_journal journal;
  int token = 0;

  std::string base(const std::string& fid, const InstantTime& t) { return base_file(fid, ++token, t); }
  std::string log(const std::string& fid, const InstantTime& t) { return log_file(fid, ++token, t); }

  /// A completed write at minute `m` of `files` (names) in partition p.
  void commit(int m, const std::vector<std::string>& files, Action action = Action::commit,
              std::vector<ReplacedGroup> replaced = {}) {
    const InstantTime t = minute(m);
    REQUIRE(journal.begin(t, action).ok());
    CommitInfo info;
    info.partitions_written = {"p"};
    info.replaced = std::move(replaced);
    for (const auto& f : files) {
      REQUIRE(storage.put_sized("p/" + f, 10).ok());
      info.files.push_back({"p", f, 10});
    }
    REQUIRE(journal.complete(t, minute(m), std::move(info)).ok());
  }
  /// Completes the compaction scheduled at minute `m` with `files`.
  void complete_compaction(int m, const std::vector<std::string>& files) {
    CommitInfo info;
    info.partitions_written = {"p"};
    for (const auto& f : files) {
      REQUIRE(storage.put_sized("p/" + f, 10).ok());
      info.files.push_back({"p", f, 10});
    }
    REQUIRE(journal.complete(minute(m), minute(m), std::move(info)).ok());
  }
  TableMetadata md() { return journal.load().value(); }
  std::vector<std::string> snapshot(int m) {
    const TableMetadata m_md = md();
    auto files = resolve_snapshot(storage, m_md, minute(m));
    REQUIRE(files.ok());
    std::vector<std::string> out;
    for (const auto& f : *files) out.push_back(f.name);
    return out;
  }
};

}  // namespace lakegc::sim::testing
