// Issue 18: planning from a partial listing. A listing that silently lacks
// files (a paginated listing cut short, a stale inventory) must never make
// the cleaner delete more than a complete listing would: the partition is
// skipped and reported, and the next clean plans it again.
#include <doctest/doctest.h>

#include "clean_fixture.hpp"

namespace lakegc::tests::listing_test {

using namespace lakegc;
using namespace lakegc::testing;

namespace {

const Slot kA{"p", "fa-0"};
const Slot kOther{"q", "fq-0"};

// The view of `t` as a listing that lacks `hidden` (partition/name) builds it.
TableView view_without(TestTable& t, const TableMetadata& md, const std::set<std::string>& hidden) {
  TableViewBuilder b(md.timeline, md.layout);
  b.require_declared_partitions();
  t.storage.for_each_file([&](const FileEntry& e) {
    if (hidden.contains(std::string(e.path))) return;
    const auto slash = e.path.rfind('/');
    const std::string_view dir = slash == std::string_view::npos ? std::string_view() : e.path.substr(0, slash);
    const std::string_view name = slash == std::string_view::npos ? e.path : e.path.substr(slash + 1);
    if (is_partition_metadata_file(name)) {
      b.add_partition(dir);
    } else {
      b.add_file(dir, name, e.size);
    }
  });
  add_metadata(b, md);
  return std::move(b).build();
}

std::string base_of(TestTable& t, const std::string& partition, const InstantTime& instant) {
  for (const auto& f : t.files(partition)) {
    if (f.front() != '.' && f.find(instant.str()) != std::string::npos) return f;
  }
  FAIL("no base file at " << instant);
  return {};
}

}  // namespace

TEST_CASE("issue 18: a listing lacking the base file of a slice whose logs it lists skips the partition") {
  // Seed 104775's shape. Group fa-0: base B0 at c0 and a log L1 of that
  // slice, then a compaction C1. A long query holds the snapshot at c0
  // (reader lease). The listing lacks B0: L1 then finds no slice at or
  // before it, opens a log-only slice of its own after the leased snapshot,
  // escapes the lease, and would be deleted.
  TestTable t(TimelineLayout::v2);
  const InstantTime c0 = t.commit({kA}, Action::deltacommit);
  const InstantTime d1 = t.deltacommit({kA});
  const InstantTime c1 = t.schedule_compaction({kA}, {c0});
  t.complete_compaction(c1, {kA});
  for (int i = 0; i < 4; ++i) t.commit({kOther});
  const TableMetadata md = t.md();
  const std::string b0 = base_of(t, "p", c0);
  std::string l1;
  for (const auto& f : t.files("p")) {
    if (f.front() == '.') l1 = f;
  }
  REQUIRE_FALSE(l1.empty());
  auto leased =
      cleaning(keep_latest_commits{2}, guard::savepoints, guard::pending_table_services, guard::reader_leases);
  CleanContext ctx{t.now, {c0}};

  // A complete listing: the lease keeps the c0 slice; nothing is skipped.
  const TableView full = t.view();
  const CleanPlan complete = plan_clean(full, md, leased, ctx).value();
  CHECK_FALSE(planned(complete).contains("p/" + l1));
  CHECK(complete.skipped_partitions.empty());

  // The partial listing: nothing of fa-0 goes, p is reported with B0.
  const TableView partial = view_without(t, md, {"p/" + b0});
  const CleanPlan plan = plan_clean(partial, md, leased, ctx).value();
  CHECK_FALSE(planned(plan).contains("p/" + l1));
  CHECK_FALSE(plan.files_per_partition.contains("p"));
  REQUIRE(plan.skipped_partitions.size() == 1);
  CHECK(plan.skipped_partitions[0].partition == "p");
  CHECK(plan.skipped_partitions[0].file == b0);
  CHECK(plan.skipped_partitions[0].reason.find("would attach to an older slice") != std::string::npos);
  CHECK(plan.extra_metadata.at(std::string(kListingSkippedPartitionsKey)) == "p");
  // Other partitions are planned as before.
  CHECK(plan.files_per_partition.contains("q") == complete.files_per_partition.contains("q"));
  (void)d1;
}

TEST_CASE("issue 18: a listing lacking a log of the newest slice skips the partition") {
  // Layout 1: logs are named by the base instant of their slice. The
  // compaction's slice is the newest; the listing lacks one of its logs.
  // Without the check the older slice would go as usual; with it nothing of
  // the partition is planned until a listing is complete.
  TestTable t(TimelineLayout::v1);
  const InstantTime c0 = t.commit({kA});
  const InstantTime c1 = t.commit({kA});
  t.deltacommit({kA}, {c1});
  t.deltacommit({kA}, {c1});
  for (int i = 0; i < 3; ++i) t.commit({kOther});
  const TableMetadata md = t.md();
  std::string last_log;
  for (const auto& f : t.files("p")) {
    if (f.front() == '.') last_log = f;  // names sort by version token; any log of the newest slice
  }
  auto policy = cleaning(keep_latest_commits{2}, guard::savepoints, guard::pending_table_services);
  const CleanPlan complete = plan_clean(t.view(), md, policy, CleanContext{t.now, {}}).value();
  REQUIRE(planned_slices(complete, "p") == std::set<InstantTime>{c0});
  CHECK(complete.skipped_partitions.empty());

  const TableView partial = view_without(t, md, {"p/" + last_log});
  const CleanPlan plan = plan_clean(partial, md, policy, CleanContext{t.now, {}}).value();
  CHECK_FALSE(plan.files_per_partition.contains("p"));
  REQUIRE(plan.skipped_partitions.size() == 1);
  CHECK(plan.skipped_partitions[0].file == last_log);
  CHECK(plan.skipped_partitions[0].reason.find("newest slice") != std::string::npos);
  CHECK(plan.files_per_partition.contains("q") == complete.files_per_partition.contains("q"));
}

TEST_CASE("issue 18: a listing lacking a compaction's base file skips the partition; the next clean plans it") {
  TestTable t(TimelineLayout::v2);
  const InstantTime c0 = t.commit({kA}, Action::deltacommit);
  t.deltacommit({kA});
  const InstantTime c1 = t.schedule_compaction({kA}, {c0});
  t.complete_compaction(c1, {kA});
  t.deltacommit({kA});  // a log of the compaction's slice
  for (int i = 0; i < 4; ++i) t.commit({kOther});
  const TableMetadata md = t.md();
  const std::string compacted = base_of(t, "p", c1);
  auto policy = cleaning(keep_latest_commits{2}, guard::savepoints, guard::pending_table_services, scope::incremental);
  const TableView partial = view_without(t, md, {"p/" + compacted});
  const CleanPlan plan = plan_clean(partial, md, policy, CleanContext{t.now, {}}).value();
  CHECK_FALSE(plan.files_per_partition.contains("p"));
  REQUIRE(plan.skipped_partitions.size() == 1);
  CHECK(plan.skipped_partitions[0].file == compacted);

  // Executed with the partial plan (q was cleaned), then the next clean with
  // a complete listing comes back to p although no new commit touched it.
  REQUIRE(plan.has_work());
  CHECK(t.journal.request_clean(t.tick(), plan).ok());
  // The scope of the next incremental clean includes p again.
  TableMetadata before = t.md();
  const InstantTime pending = before.timeline.cleans().back()->requested;
  REQUIRE(t.journal.start_clean(pending).ok());
  CompletedClean m;
  m.start_clean_time = pending;
  m.earliest_commit_to_retain = plan.earliest_instant_to_retain;
  m.policy = plan.policy;
  m.extra_metadata = plan.extra_metadata;
  REQUIRE(t.journal.complete_clean(pending, m).ok());
  const TableMetadata after = t.md();
  REQUIRE(after.last_completed_clean.has_value());
  CHECK(after.last_completed_clean->listing_skipped_partitions == std::vector<std::string>{"p"});
  t.commit({kOther});
  const CleanPlan next = t.plan(policy);
  CHECK(next.files_per_partition.contains("p"));
  CHECK(next.skipped_partitions.empty());
}

TEST_CASE("a listed file a completed commit names, but that the view holds in no slice, is not a gap") {
  // The newest commit to group fa-0 names two base files of it at one
  // instant (a retried task's duplicate output). The view keeps one as the
  // slice's base file and holds the other among the uncommitted files. Both
  // are listed, so the listing is complete and p is planned; a check that
  // looked only at the view's slices would call the other missing and skip
  // p on every run.
  TestTable t(TimelineLayout::v2);
  const InstantTime c0 = t.commit({kA});
  const InstantTime c1 = t.commit({kA});
  CommitInfo info;
  const InstantTime dup = t.begin_commit({kA, kA}, &info);
  REQUIRE(t.journal.complete(dup, t.completion_of(dup), info).ok());
  for (int i = 0; i < 3; ++i) t.commit({kOther});
  const TableMetadata md = t.md();
  const TableView v = t.view();
  REQUIRE(v.uncommitted_files().size() == 1);
  CHECK(v.file_name(v.uncommitted_files()[0].file).find(dup.str()) != std::string_view::npos);

  auto policy = cleaning(keep_latest_commits{2}, guard::savepoints, guard::pending_table_services);
  const CleanPlan plan = plan_clean(v, md, policy, CleanContext{t.now, {}}).value();
  CHECK(plan.skipped_partitions.empty());
  CHECK(planned_slices(plan, "p") == std::set<InstantTime>{c0, c1});
}

TEST_CASE("the journal's index of named files is used when it fits the commits, and rebuilt when it does not") {
  // The layout-1 table of the test above: the listing lacks a log of the
  // newest slice, which only the last deltacommit's metadata names.
  TestTable t(TimelineLayout::v1);
  t.commit({kA});
  const InstantTime c1 = t.commit({kA});
  t.deltacommit({kA}, {c1});
  const TableMetadata before_last = t.md();  // the last deltacommit not yet written
  t.deltacommit({kA}, {c1});
  for (int i = 0; i < 3; ++i) t.commit({kOther});
  TableMetadata md = t.md();
  std::string last_log;
  for (const auto& f : t.files("p")) {
    if (f.front() == '.') last_log = f;
  }
  const TableView partial = view_without(t, md, {"p/" + last_log});
  auto policy = cleaning(keep_latest_commits{2}, guard::savepoints, guard::pending_table_services);
  auto gap_file = [&](const TableMetadata& m) {
    const CleanPlan plan = plan_clean(partial, m, policy, CleanContext{t.now, {}}).value();
    return plan.skipped_partitions.empty() ? std::string() : plan.skipped_partitions[0].file;
  };

  md.named_files.reset();
  REQUIRE(gap_file(md) == last_log);  // no index: the plan indexes for itself

  md.named_files = index_named_files(md);
  CHECK(gap_file(md) == last_log);

  // An index of the commits before the last deltacommit does not know the
  // missing log: used as it is, the partition would be planned from the
  // partial listing. Its shape differs, so the plan indexes for itself.
  const auto stale = index_named_files(before_last);
  REQUIRE(stale->shape != metadata_shape(md.commits, md.pending_compactions));
  md.named_files = stale;
  CHECK(gap_file(md) == last_log);

  // Same shape, but p's runs point at another partition's file (an edit
  // after indexing): the per-file partition check catches it.
  auto moved = std::make_shared<NamedFilesIndex>(*index_named_files(md));
  REQUIRE(md.commits.rbegin()->second.files.front().partition == "q");
  moved->by_partition["p"] = {{static_cast<std::uint32_t>(md.commits.size() - 1), 0, 1}};
  md.named_files = moved;
  CHECK(gap_file(md) == last_log);
}

TEST_CASE("the index covers pending compactions: one built without them is stale, and rebuilt") {
  // Group fa-0's slice at c0 is being compacted (pending at c1), so the
  // newest slice is c1's, still empty: a listing lacking c0's base file is
  // no gap. Checked without the pending compaction, c0's slice would be the
  // newest and its missing base file a gap.
  TestTable t(TimelineLayout::v2);
  const InstantTime c0 = t.commit({kA});
  for (int i = 0; i < 4; ++i) t.commit({kOther});
  t.schedule_compaction({kA}, {c0});
  TableMetadata md = t.md();
  REQUIRE(md.pending_compactions.size() == 1);
  const TableView partial = view_without(t, md, {"p/" + base_of(t, "p", c0)});
  auto policy = cleaning(keep_latest_commits{2}, guard::savepoints, guard::pending_table_services);
  auto skipped = [&](const TableMetadata& m) {
    return plan_clean(partial, m, policy, CleanContext{t.now, {}}).value().skipped_partitions.size();
  };

  TableMetadata without = md;
  without.pending_compactions.clear();
  without.named_files = index_named_files(without);
  REQUIRE(skipped(without) == 1);  // what ignoring the pending compaction reports

  md.named_files = index_named_files(md);
  CHECK(skipped(md) == 0);
  md.named_files = index_named_files(md.commits, {});
  REQUIRE(md.named_files->shape != metadata_shape(md.commits, md.pending_compactions));
  CHECK(skipped(md) == 0);
  // Same shape, but the operation indexed under another partition: the
  // per-entry partition check catches it.
  auto moved = std::make_shared<NamedFilesIndex>(*index_named_files(md));
  moved->pending_by_partition["q"] = moved->pending_by_partition["p"];
  moved->pending_by_partition.erase("p");
  md.named_files = moved;
  CHECK(skipped(md) == 0);
}

}  // namespace lakegc::tests::listing_test
