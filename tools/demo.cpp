// The main job on an embedded default that needs nothing outside the
// repository: a small Merge-on-Read table written through the public API
// into memory_storage (inserts, updates as log files, a compaction, more
// commits), its timeline and file groups, then Hudi's default cleaning
// policy planned and executed on it, with what it reclaimed.
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/load_view.hpp"
#include "lakegc/exec/clean_service.hpp"
#include "lakegc/exec/memory_journal.hpp"
#include "lakegc/plan/plan_clean.hpp"
#include "lakegc/policy/cleaning.hpp"
#include "lakegc/storage/memory_storage.hpp"

namespace {

using namespace lakegc;

constexpr std::int64_t kStart = 1'767'225'600'000;  // 2026-01-01T00:00:00Z
constexpr std::int64_t kCadence = 30 * 60'000;      // a commit every 30 minutes

struct DemoTable {
  std::int64_t now = kStart;
  memory_storage storage{[this] { return now; }};
  memory_journal journal{TimelineTimezone::utc, TimelineLayout::v2};
  int task = 0;

  InstantTime next() {
    now += kCadence;
    return InstantTime::from_epoch_ms(now, TimelineTimezone::utc);
  }
  InstantTime done(const InstantTime& t) {
    return InstantTime::from_epoch_ms(t.to_epoch_ms(TimelineTimezone::utc).value() + 5'000, TimelineTimezone::utc);
  }
  Status write(const std::string& partition, const std::string& name, std::uint64_t size, CommitInfo& info) {
    const std::string marker = join_path(partition, std::string(kPartitionMetadataFile));
    if (!storage.stat(marker).ok()) LAKEGC_RETURN_IF_ERROR(storage.write_if_absent(marker, "commitTime=0\n"));
    LAKEGC_RETURN_IF_ERROR(storage.put_sized(join_path(partition, name), size));
    info.files.push_back({partition, name, size});
    if (info.partitions_written.empty() || info.partitions_written.back() != partition) {
      info.partitions_written.push_back(partition);
    }
    return absl::OkStatus();
  }
  std::string token() {
    ++task;
    return fmt::format("0-{}-{}", task, task);
  }
  /// A deltacommit: base files for new groups, one log per existing group.
  StatusOr<InstantTime> deltacommit(const std::vector<std::pair<std::string, std::string>>& inserts,
                                    const std::vector<std::pair<std::string, std::string>>& updates) {
    const InstantTime t = next();
    LAKEGC_RETURN_IF_ERROR(journal.begin(t, Action::deltacommit));
    CommitInfo info;
    for (const auto& [p, fid] : inserts) {
      LAKEGC_RETURN_IF_ERROR(write(p, fmt::format("{}_{}_{}.parquet", fid, token(), t), 48 << 20, info));
    }
    for (const auto& [p, fid] : updates) {
      LAKEGC_RETURN_IF_ERROR(write(p, fmt::format(".{}_{}.log.1_{}", fid, t, token()), 2 << 20, info));
    }
    LAKEGC_RETURN_IF_ERROR(journal.complete(t, done(t), info));
    return t;
  }
  /// Schedules and runs a compaction of every live slice into new base files.
  StatusOr<InstantTime> compact() {
    LAKEGC_ASSIGN_OR_RETURN(TableMetadata md, journal.load());
    LAKEGC_ASSIGN_OR_RETURN(TableView view, load_view(storage, md));
    const InstantTime t = next();
    std::vector<CompactionOperation> ops;
    for (const Partition& p : view.partitions()) {
      for (const FileGroup& g : view.groups_of(p)) {
        if (!g.replaced_by) ops.push_back({t, p.path, std::string(view.file_id(g)), view.slices_of(g)[0].base_instant});
      }
    }
    LAKEGC_RETURN_IF_ERROR(journal.schedule_compaction(t, ops));
    CommitInfo info;
    for (const auto& op : ops) {
      LAKEGC_RETURN_IF_ERROR(write(op.partition, fmt::format("{}_{}_{}.parquet", op.file_id, token(), t), 50 << 20, info));
    }
    LAKEGC_RETURN_IF_ERROR(journal.complete(t, done(t), info));
    return t;
  }
};

void print_table(const TableMetadata& md, const TableView& view) {
  fmt::print("timeline ({} instants):\n", md.timeline.size());
  for (const Instant& i : md.timeline.instants()) fmt::print("  {}\n", i);
  fmt::print("file groups:\n");
  for (const Partition& p : view.partitions()) {
    for (const FileGroup& g : view.groups_of(p)) {
      fmt::print("  {}/{}{}\n", p.path, view.file_id(g),
                 g.replaced_by ? fmt::format(" (replaced by {})", *g.replaced_by) : std::string());
      for (const FileSlice& s : view.slices_of(g)) {
        fmt::print("    slice {}: {}{}\n", s.base_instant,
                   s.base_file == kNoFile ? std::string("(no base file)") : std::string(view.file_name(s.base_file)),
                   s.log_count ? fmt::format(" + {} log file(s)", s.log_count) : std::string());
      }
    }
  }
}

Status run() {
  DemoTable table;
  const std::vector<std::pair<std::string, std::string>> groups = {
      {"region=eu", "3f1c2b7a-0000-4000-8000-000000000001-0"},
      {"region=eu", "3f1c2b7a-0000-4000-8000-000000000002-0"},
      {"region=us", "3f1c2b7a-0000-4000-8000-000000000003-0"}};
  LAKEGC_RETURN_IF_ERROR(table.deltacommit(groups, {}).status());
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 4; ++i) LAKEGC_RETURN_IF_ERROR(table.deltacommit({}, groups).status());
    LAKEGC_RETURN_IF_ERROR(table.compact().status());
  }
  LAKEGC_ASSIGN_OR_RETURN(TableMetadata md, table.journal.load());
  LAKEGC_ASSIGN_OR_RETURN(TableView view, load_view(table.storage, md));
  fmt::print("== lakegc demo: a Merge-on-Read table in memory_storage ==\n");
  print_table(md, view);

  const auto policy = default_cleaning();
  fmt::print("\n== cleaning with {} (10 commits retained, incremental, savepoint and pending-service guards) ==\n",
             policy.name());
  const std::uint64_t bytes_before = table.storage.total_bytes();
  const std::size_t files_before = table.storage.file_count();
  CleanContext ctx;
  ctx.now_ms = table.now + 60'000;
  LAKEGC_ASSIGN_OR_RETURN(CleanRunReport report, run_clean(table.storage, table.journal, policy, ctx));
  if (!report.executed) {
    fmt::print("nothing cleaned: {}\n", report.skipped_reason);
    return absl::InternalError("the demo table should have reclaimable files");
  }
  const CleanPlan& plan = *report.plan;
  fmt::print("earliest commit to retain: {}  (scope: {} scan)\n", *plan.earliest_instant_to_retain,
             to_string(report.scope.kind));
  for (const auto& [p, files] : plan.files_per_partition) {
    for (const auto& f : files) fmt::print("  delete {}/{}  ({}, slice {})\n", p, f.name, to_string(f.reason), f.slice);
  }
  fmt::print("reclaimed {} files, {:.1f} MiB ({} -> {} files, {:.1f} -> {:.1f} MiB on storage)\n",
             report.executed->files_deleted, static_cast<double>(report.executed->bytes_deleted) / (1 << 20),
             files_before, table.storage.file_count(), static_cast<double>(bytes_before) / (1 << 20),
             static_cast<double>(table.storage.total_bytes()) / (1 << 20));
  return absl::OkStatus();
}

}  // namespace

int main() {
  const Status st = run();
  if (!st.ok()) {
    fmt::print(stderr, "lakegc-demo: {}\n", message_of(st));
    return 1;
  }
  return 0;
}
