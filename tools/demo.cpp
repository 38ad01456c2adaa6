// The main job on an embedded default that needs nothing outside the
// repository: a small Merge-on-Read table written through the public API
// into memory_storage (inserts, updates as log files, a compaction, more
// commits), its timeline and file groups, then Hudi's default cleaning
// policy planned and executed on it, with what it reclaimed.
//
// Then the same on disk, the way the `lakegc` tool sees a real table: a
// small Copy-on-Write table in Hudi's own layout (timeline layout 1, JSON
// commit files, hoodie.properties) written with posix_storage into a
// temporary directory, inspected with the code of `lakegc inspect`, and a
// dry-run clean plan from the code of `lakegc plan clean`.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "cli/inspect.hpp"
#include "cli/plan.hpp"
#include "lakegc/hudi/writer.hpp"
#include "lakegc/storage/posix_storage.hpp"

#include "lakegc/core/load_view.hpp"
#include "lakegc/exec/clean_report.hpp"
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
    std::vector<PendingCompactionSlice> ops;
    for (const Partition& p : view.partitions()) {
      for (const FileGroup& g : view.groups_of(p)) {
        if (!g.replaced_by) ops.push_back({t, p.path, std::string(view.file_id(g)), view.slices_of(g)[0].base_instant});
      }
    }
    LAKEGC_RETURN_IF_ERROR(journal.schedule_compaction(t, ops));
    CommitInfo info;
    for (const auto& op : ops) {
      LAKEGC_RETURN_IF_ERROR(
          write(op.partition, fmt::format("{}_{}_{}.parquet", op.file_id, token(), t), 50 << 20, info));
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
  fmt::print("{}", to_text(report));
  fmt::print("storage: {} -> {} files, {:.1f} -> {:.1f} MiB\n", files_before, table.storage.file_count(),
             static_cast<double>(bytes_before) / (1 << 20),
             static_cast<double>(table.storage.total_bytes()) / (1 << 20));
  return absl::OkStatus();
}

/// A temporary directory, removed (with everything in it) on destruction.
class scratch_dir {
 public:
  static StatusOr<scratch_dir> make() {
    std::string pattern = (std::filesystem::temp_directory_path() / "lakegc-demo-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) return absl::InternalError("cannot create a temporary directory");
    return scratch_dir(pattern);
  }
  scratch_dir(scratch_dir&& o) noexcept : path_(std::exchange(o.path_, {})) {}
  scratch_dir(const scratch_dir&) = delete;
  scratch_dir& operator=(const scratch_dir&) = delete;
  scratch_dir& operator=(scratch_dir&&) = delete;
  ~scratch_dir() {
    if (path_.empty()) return;
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const noexcept { return path_; }

 private:
  explicit scratch_dir(std::string p) : path_(std::move(p)) {}
  std::string path_;
};

/// Writes a Copy-on-Write table in Hudi's layout 1 under `root`: three file
/// groups in two partitions, then updates that give the first groups
/// several versions.
Status write_hudi_table(const std::string& root) {
  LAKEGC_ASSIGN_OR_RETURN(posix_storage storage, posix_storage::open(root));
  hudi::TableConfig config;
  config.name = "demo_trips";
  config.partition_fields = {"region"};
  config.hive_style_partitioning = true;
  LAKEGC_ASSIGN_OR_RETURN(auto writer, hudi::table_writer<posix_storage>::create(storage, config));
  using W = hudi::table_writer<posix_storage>;
  const std::vector<std::pair<std::string, std::string>> groups = {
      {"region=eu", W::file_id(1)}, {"region=eu", W::file_id(2)}, {"region=us", W::file_id(3)}};
  // Which groups each commit rewrites (Copy-on-Write: a new base file each).
  const std::vector<std::vector<int>> commits = {{0, 1, 2}, {0, 2}, {0}, {1}, {0, 2}};
  std::int64_t now = kStart;
  for (const auto& touched : commits) {
    now += kCadence;
    const InstantTime t = InstantTime::from_epoch_ms(now, TimelineTimezone::utc);
    LAKEGC_RETURN_IF_ERROR(writer.start(t));
    for (int g : touched) {
      const auto& [partition, fid] = groups[static_cast<std::size_t>(g)];
      // Placeholder bytes: nothing reads data files, and sizes show in plans.
      const std::string bytes(static_cast<std::size_t>(4096 * (g + 1)), 'x');
      LAKEGC_RETURN_IF_ERROR(writer.write_base_file(t, partition, fid, bytes).status());
    }
    LAKEGC_RETURN_IF_ERROR(writer.complete(t, "UPSERT"));
  }
  return absl::OkStatus();
}

Status run_on_disk() {
  LAKEGC_ASSIGN_OR_RETURN(scratch_dir dir, scratch_dir::make());
  LAKEGC_RETURN_IF_ERROR(write_hudi_table(dir.path()));
  fmt::print("\n== a Hudi table on disk (layout 1, written with posix_storage) ==\n");
  fmt::print("$ lakegc inspect {}\n", dir.path());
  LAKEGC_ASSIGN_OR_RETURN(auto table, cli::open_table(dir.path()));
  LAKEGC_ASSIGN_OR_RETURN(cli::InspectReport inspected, cli::inspect(*table, std::nullopt));
  fmt::print("{}", cli::inspect_text(inspected));

  const config::Properties props = {{"hoodie.clean.policy", "KEEP_LATEST_COMMITS"},
                                    {"hoodie.clean.commits.retained", "2"}};
  fmt::print(
      "\n$ lakegc plan clean {} --conf hoodie.clean.policy=KEEP_LATEST_COMMITS "
      "--conf hoodie.clean.commits.retained=2\n",
      dir.path());
  LAKEGC_ASSIGN_OR_RETURN(cli::PlanReport plan, cli::plan_clean_report(*table, props, kStart + 24 * kCadence));
  fmt::print("{}", cli::plan_text(plan));
  if (!plan.plan.has_work()) return absl::InternalError("the on-disk demo table should have reclaimable files");
  return absl::OkStatus();
}

}  // namespace

int main() {
  Status st = run();
  if (st.ok()) st = run_on_disk();
  if (!st.ok()) {
    fmt::print(stderr, "lakegc-demo: {}\n", message_of(st));
    return 1;
  }
  return 0;
}
