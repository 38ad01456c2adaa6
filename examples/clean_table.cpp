// clean_table: the smallest complete use of lakegc's cleaner.
//
// Builds a tiny Hudi-like table in memory (four commits rewriting one file
// group), composes a policy, plans a clean, prints the plan, runs the clean
// and prints what it reclaimed. To clean a real table, swap memory_storage
// for posix_storage (or your own Storage) and memory_journal for
// hudi::journal; the rest stays the same.
//
// Exits non-zero if the result is not the expected one, so the build runs it
// as a test.
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

constexpr std::int64_t kHour = 3'600'000;
constexpr std::int64_t kStart = 1'717'200'000'000;  // 2024-06-01T00:00:00Z
constexpr std::uint64_t kFileSize = 1 << 20;

lakegc::InstantTime at(std::int64_t ms) {
  return lakegc::InstantTime::from_epoch_ms(ms, lakegc::TimelineTimezone::utc);
}

int fail(const std::string& why) {
  fmt::print(stderr, "clean_table: {}\n", why);
  return 1;
}

}  // namespace

int main() {
  using namespace lakegc;

  // --- a table: one partition, one file group, rewritten by four commits ---
  memory_storage storage;
  memory_journal journal(TimelineTimezone::utc, TimelineLayout::v2);
  const std::string partition = "2024/06/01";
  if (!storage.write_if_absent(partition + "/.hoodie_partition_metadata", "commitTime=0\n").ok()) {
    return fail("cannot create the partition");
  }
  std::vector<std::string> files;
  for (int i = 0; i < 4; ++i) {
    const InstantTime t = at(kStart + i * kHour);
    const std::string name = fmt::format("trips-0_0-{}-{}_{}.parquet", i, i, t);
    if (!journal.begin(t, Action::commit).ok() || !storage.put_sized(partition + "/" + name, kFileSize).ok()) {
      return fail("cannot write commit " + t.str());
    }
    CommitInfo info;
    info.partitions_written = {partition};
    info.files = {{partition, name, kFileSize}};
    if (!journal.complete(t, at(kStart + i * kHour + 5000), info).ok()) return fail("cannot complete " + t.str());
    files.push_back(name);
  }

  // --- the policy: Hudi's default shape, keeping the last 2 commits ---
  const auto policy =
      cleaning(keep_latest_commits{2}, guard::savepoints, guard::pending_table_services, scope::incremental);
  CleanContext ctx;
  ctx.now_ms = kStart + 4 * kHour;

  // --- plan (pure: nothing is deleted yet) ---
  auto md = journal.load();
  if (!md.ok()) return fail(std::string(message_of(md.status())));
  auto view = load_view(storage, *md);
  if (!view.ok()) return fail(std::string(message_of(view.status())));
  auto plan = plan_clean(*view, *md, policy, ctx);
  if (!plan.ok()) return fail(std::string(message_of(plan.status())));
  fmt::print("plan ({}): earliest commit to retain {}, {} file(s), {} bytes\n", plan->policy,
             plan->earliest_instant_to_retain ? plan->earliest_instant_to_retain->str() : "none", plan->file_count(),
             plan->bytes());
  for (const auto& [part, deletes] : plan->files_per_partition) {
    for (const PlannedDelete& d : deletes) {
      fmt::print("  delete {} ({}, slice {})\n", join_path(part, d.name), to_string(d.reason), d.slice);
    }
  }

  // --- run the cleaner: persist the plan, delete, complete ---
  auto report = run_clean(storage, journal, policy, ctx);
  if (!report.ok()) return fail(std::string(message_of(report.status())));
  fmt::print("reclaimed {} file(s), {} bytes\n", report->files_deleted(), report->bytes_deleted());
  if (report->executed) fmt::print("clean instant {} completed\n", report->executed->instant);

  // --- what must be true: the oldest version went, the other three stay
  // (the latest two commits, and the version a query pinned just before
  // the boundary reads) ---
  if (plan->file_count() != 1 || report->files_deleted() != 1 || report->bytes_deleted() != kFileSize) {
    return fail("expected exactly one file version to be reclaimed");
  }
  if (storage.stat(partition + "/" + files[0]).ok()) return fail("the oldest version is still there");
  for (std::size_t i = 1; i < files.size(); ++i) {
    if (!storage.stat(partition + "/" + files[i]).ok()) return fail("a retained version was deleted: " + files[i]);
  }
  return 0;
}
