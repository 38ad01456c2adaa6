// Executing clean plans (docs/hudi-rules.md §9): files already gone
// count as deleted (Hudi PR 18034), a delete that fails with the file still
// there leaves the clean inflight (HUDI-7655), a crash between any two steps
// is rolled forward to the same result as an uninterrupted run, re-running
// a finished plan deletes nothing more, and a path outside the table root
// is refused before anything is deleted; the run's report as text and JSON.
#include <doctest/doctest.h>

#include <functional>
#include <optional>

#include <simdjson.h>

#include "clean_fixture.hpp"
#include "lakegc/exec/clean_report.hpp"
#include "lakegc/plan/planned_sizes.hpp"

namespace lakegc::tests::executor_test {

using namespace lakegc;
using namespace lakegc::testing;

namespace {

auto commits_policy(std::uint32_t n) {
  return cleaning(keep_latest_commits{n}, guard::savepoints, guard::pending_table_services);
}

/// Every file in storage (partition markers included), as paths.
std::set<std::string> all_files(const memory_storage& s) {
  std::set<std::string> out;
  s.for_each_file([&](const FileEntry& e) { out.emplace(e.path); });
  return out;
}

/// A table whose clean under keep_latest_commits{2} deletes two old slices
/// in each of "a" and "b", the replaced group in "gone", and "gone" itself.
void build_table(TestTable& t) {
  const Slot a{"a", "fa-0"};
  const Slot b{"b", "fb-0"};
  const Slot g{"gone", "fg-0"};
  t.commit({a, b, g});
  t.commit({a, b});
  t.replace({Slot{"a", "fn-0"}}, {g});
  for (int i = 0; i < 3; ++i) t.commit({a, b});
}

/// Persists `plan` as a requested clean and returns its instant.
InstantTime persist(TestTable& t, const CleanPlan& plan) {
  t.now += 1000;
  const InstantTime instant = allocate_instant(t.md(), t.now);
  REQUIRE(t.journal.request_clean(instant, plan).ok());
  return instant;
}

std::optional<Instant> clean_instant(TestTable& t, const InstantTime& at) {
  const TableMetadata md = t.md();
  const Instant* i = md.timeline.find(at);
  return i != nullptr ? std::optional<Instant>(*i) : std::nullopt;
}

}  // namespace

TEST_CASE("the test table: one clean deletes four slices, a replaced group and a partition") {
  TestTable t;
  build_table(t);
  const CleanPlan plan = t.plan(commits_policy(2));
  CHECK(plan.file_count() == 5);
  CHECK(plan.partitions_to_be_deleted == std::vector<std::string>{"gone"});
}

TEST_CASE("a plan made without listed sizes asks for each planned file's size, and only those") {
  TestTable t;
  build_table(t);
  const CleanPlan listed = t.plan(commits_policy(2));
  REQUIRE(listed.file_count() == 5);
  REQUIRE(listed.bytes() > 0);
  CleanPlan plan = listed;
  for (const auto& [p, files] : plan.files_per_partition) {
    for (PlannedDelete& f : files) f.size = FileEntry::kUnknownSize;
  }
  // One size known already (no stat), one file gone since the listing.
  PlannedDelete& known = plan.files_per_partition.at("b").front();
  known.size = 12345;
  const PlannedDelete& gone = plan.files_per_partition.at("a").front();
  REQUIRE(t.storage.remove(join_path("a", gone.name)).ok());

  const auto stats = stat_unknown_sizes(t.storage, plan);
  REQUIRE_MESSAGE(stats.ok(), std::string(message_of(stats.status())));
  CHECK(*stats == 4);
  for (const auto& [p, files] : plan.files_per_partition) {
    for (std::size_t i = 0; i < files.size(); ++i) {
      const PlannedDelete& f = files[i];
      CAPTURE(f.name);
      if (&f == &known) {
        CHECK(f.size == 12345);
      } else if (&f == &gone) {
        CHECK(f.size == 0);
      } else {
        CHECK(f.size == listed.files_per_partition.at(p)[i].size);
      }
    }
  }

  // A stat that fails otherwise stops it, naming the file.
  for (const auto& [p, files] : plan.files_per_partition) {
    for (PlannedDelete& f : files) f.size = FileEntry::kUnknownSize;
  }
  t.storage.fail_next(storage_op::stat, absl::UnavailableError("injected: throttled"));
  const auto failed = stat_unknown_sizes(t.storage, plan);
  REQUIRE_FALSE(failed.ok());
  CHECK(absl::IsUnavailable(failed.status()));
  CHECK(message_of(failed.status()).find("a/") != std::string_view::npos);
}

TEST_CASE("a planned base file takes its size from the commit that wrote it; a log file and an unnamed file do not") {
  const auto t = [](std::string_view s) { return InstantTime::parse(s).value(); };
  TableMetadata md;
  md.commits[t("20240101000000000")].files = {
      {"a", "g1_1-0-1_20240101000000000.parquet", 100},
      {"a", ".g2_20240101000000000.log.1_1-0-1", 7},
      {"b", "g3_1-0-1_20240101000000000.parquet", 300},
  };
  md.commits[t("20240102000000000")].files = {{"a", "g4_1-0-1_20240102000000000.parquet", 400}};
  md.named_files = index_named_files(md);
  const auto unknown = [](std::string_view name) {
    return PlannedDelete{name, FileEntry::kUnknownSize, DeleteReason::older_than_boundary, {}};
  };
  CleanPlan plan;
  plan.files_per_partition.add(
      "a", {unknown("g1_1-0-1_20240101000000000.parquet"), unknown(".g2_20240101000000000.log.1_1-0-1"),
            unknown("g4_1-0-1_20240102000000000.parquet"), unknown("g5_1-0-1_20240103000000000.parquet")});
  // Named by a commit, but in another partition.
  plan.files_per_partition.add("c", {unknown("g3_1-0-1_20240101000000000.parquet")});
  const std::vector<std::uint64_t> want_a = {100, FileEntry::kUnknownSize, 400, FileEntry::kUnknownSize};

  CleanPlan with_index = plan;
  CHECK(sizes_from_commits(with_index, md) == 2);
  for (std::size_t i = 0; i < want_a.size(); ++i) CHECK(with_index.files_per_partition.at("a")[i].size == want_a[i]);
  CHECK(with_index.files_per_partition.at("c")[0].size == FileEntry::kUnknownSize);

  // An index of other commits is not used: the answer comes from the commits.
  md.commits[t("20240102000000000")].files.push_back({"b", "g6_1-0-1_20240102000000000.parquet", 600});
  plan.files_per_partition.add("b", {unknown("g6_1-0-1_20240102000000000.parquet")});
  CHECK(sizes_from_commits(plan, md) == 3);
  CHECK(plan.files_per_partition.at("b")[0].size == 600);
}

TEST_CASE("PR 18034: a planned file that is already gone counts as deleted and the clean completes") {
  TestTable t;
  build_table(t);
  const CleanPlan plan = t.plan(commits_policy(2));
  const InstantTime instant = persist(t, plan);
  // Someone (an earlier attempt, a concurrent cleaner) removed one already.
  const PlannedDelete& gone = plan.files_per_partition.at("a").front();
  REQUIRE(t.storage.remove(join_path("a", gone.name)).ok());

  const auto out = execute_clean(t.storage, t.journal, instant, plan);
  REQUIRE_MESSAGE(out.ok(), std::string(message_of(out.status())));
  CHECK(out->files_already_gone == 1);
  CHECK(out->files_deleted == plan.file_count() - 1);
  CHECK(out->bytes_deleted == plan.bytes() - gone.size);
  // Hudi's metadata lists it as a success: otherwise the metadata table
  // keeps the entry and the same file is planned forever.
  const auto& a = out->metadata.partitions.at("a");
  CHECK(std::find(a.success.begin(), a.success.end(), gone.name) != a.success.end());
  // Every planned file of the partition is a success, the gone one too
  // (a delete that fails stops the clean: there is no "failed" list).
  CHECK(a.success.size() == plan.files_per_partition.at("a").size());
  CHECK(out->metadata.total_files_deleted == plan.file_count());
  REQUIRE(clean_instant(t, instant).has_value());
  CHECK(clean_instant(t, instant)->is_completed());
  CHECK(t.journal.clean_metadata().at(instant) == out->metadata);
}

TEST_CASE("a delete that fails although the file is gone is a success too") {
  TestTable t;
  build_table(t);
  const CleanPlan plan = t.plan(commits_policy(2));
  const InstantTime instant = persist(t, plan);
  const PlannedDelete& first = plan.files_per_partition.at("a").front();
  REQUIRE(t.storage.remove(join_path("a", first.name)).ok());
  // The store answers the delete with an error, but a stat shows the file
  // is not there: nothing is left to delete.
  t.storage.fail_next(storage_op::remove, absl::UnavailableError("injected: throttled"));
  const auto out = execute_clean(t.storage, t.journal, instant, plan);
  REQUIRE_MESSAGE(out.ok(), std::string(message_of(out.status())));
  CHECK(out->files_already_gone == 1);
  CHECK(clean_instant(t, instant)->is_completed());
}

TEST_CASE(
    "HUDI-7655: a delete that fails with the file still there leaves the clean inflight; the next run finishes it") {
  TestTable t;
  build_table(t);
  const CleanPlan plan = t.plan(commits_policy(2));
  const InstantTime instant = persist(t, plan);
  const std::string victim = join_path("a", plan.files_per_partition.at("a").front().name);
  t.storage.fail_next(storage_op::remove, absl::UnavailableError("injected: permission denied"));

  const auto out = execute_clean(t.storage, t.journal, instant, plan);
  REQUIRE_FALSE(out.ok());
  CHECK(absl::IsUnavailable(out.status()));
  CHECK(message_of(out.status()).find(victim) != std::string_view::npos);
  CHECK(message_of(out.status()).find("stays inflight") != std::string_view::npos);
  CHECK(t.exists("a", plan.files_per_partition.at("a").front().name));
  REQUIRE(clean_instant(t, instant).has_value());
  CHECK(clean_instant(t, instant)->state == State::inflight);
  CHECK(t.journal.clean_metadata().empty());

  // Rolled forward, never back: the next run executes the same plan.
  const CleanRunReport r = t.clean(commits_policy(2));
  REQUIRE(r.finished_pending.size() == 1);
  CHECK(r.finished_pending[0].instant == instant);
  // The batch went on past the failed delete (deletes run in parallel), so
  // the rest of its files may already be gone: together they are the plan.
  CHECK(r.finished_pending[0].files_deleted + r.finished_pending[0].files_already_gone == plan.file_count());
  CHECK(r.finished_pending[0].metadata.total_files_deleted == plan.file_count());
  CHECK(clean_instant(t, instant)->is_completed());
  for (const auto& path : planned(plan)) CHECK_FALSE(t.storage.stat(path).ok());
  CHECK_FALSE(r.executed.has_value());  // nothing new since: the trigger waits
}

TEST_CASE("crash after any step: recovery ends where an uninterrupted clean ends") {
  // The uninterrupted run, on its own identical table.
  TestTable reference;
  build_table(reference);
  const CleanRunReport done = reference.clean(commits_policy(2));
  REQUIRE(done.executed.has_value());
  const std::set<std::string> final_files = all_files(reference.storage);
  const CompletedClean expected = done.executed->metadata;
  REQUIRE(expected.total_files_deleted == 5);
  REQUIRE(expected.partitions.at("gone").partition_deleted);

  // Steps of a clean: request (1), start (2), five file deletes and the
  // partition marker's (3-8), complete (9). Run k crashes after k steps:
  // the journal's budget stops the transitions, the storage's the deletes.
  // The storage budget counts completed mutations, so "after start, before
  // the first delete" (k = 2) fails the first remove instead.
  constexpr std::size_t kMutations = 6;
  for (std::size_t k = 0; k <= 2 + kMutations; ++k) {
    CAPTURE(k);
    TestTable t;
    build_table(t);
    t.journal.crash_after_transitions(std::min<std::size_t>(k, 2));
    if (k == 2) t.storage.fail_next(storage_op::remove, absl::AbortedError("injected: crash"));
    if (k >= 3) t.storage.crash_after_mutations(k - 2);
    t.now += 1000;
    CleanContext ctx;
    ctx.now_ms = t.now;
    const auto crashed = run_clean(t.storage, t.journal, commits_policy(2), ctx);
    REQUIRE_FALSE(crashed.ok());
    CHECK(absl::IsAborted(crashed.status()));
    t.journal.recover();
    t.storage.recover();

    const CleanRunReport recovered = t.clean(commits_policy(2));
    CHECK(recovered.finished_pending.size() == (k == 0 ? 0u : 1u));
    CHECK(all_files(t.storage) == final_files);
    REQUIRE(t.journal.clean_metadata().size() == 1);
    const CompletedClean& got = t.journal.clean_metadata().begin()->second;
    CHECK(got.partitions == expected.partitions);
    CHECK(got.total_files_deleted == expected.total_files_deleted);
    CHECK(got.earliest_commit_to_retain == expected.earliest_commit_to_retain);
    CHECK(got.policy == expected.policy);
    const TableMetadata md = t.md();  // the timeline the spans point into
    for (const Instant* c : md.timeline.cleans()) CHECK(c->is_completed());

    // And once more: nothing left to do.
    const CleanRunReport again = t.clean(commits_policy(2));
    CHECK(again.files_deleted() == 0);
    CHECK(all_files(t.storage) == final_files);
  }
}

TEST_CASE("idempotence: re-running a finished plan deletes nothing more") {
  TestTable t;
  build_table(t);
  const CleanRunReport done = t.clean(commits_policy(2));
  REQUIRE(done.executed.has_value());
  const CleanPlan plan = t.journal.read_clean_plan(done.executed->instant).value();
  const std::set<std::string> after_first = all_files(t.storage);
  const std::uint64_t removes = t.storage.calls(storage_op::remove);

  const InstantTime again = persist(t, plan);
  const auto out = execute_clean(t.storage, t.journal, again, plan);
  REQUIRE_MESSAGE(out.ok(), std::string(message_of(out.status())));
  CHECK(out->files_deleted == 0);
  CHECK(out->bytes_deleted == 0);
  CHECK(out->partitions_deleted == 0);
  CHECK(out->files_already_gone == plan.file_count());
  CHECK(all_files(t.storage) == after_first);
  CHECK(t.storage.calls(storage_op::remove) - removes == plan.file_count());  // one attempt per file, no more
  // Executing a completed clean's instant again is refused, not re-run.
  CHECK_FALSE(execute_clean(t.storage, t.journal, done.executed->instant, plan).ok());
  CHECK(all_files(t.storage) == after_first);
}

TEST_CASE("a dropped partition's listing cut short still removes its partition metadata file") {
  // Simulator seed 7417: a listing of the dropped partition that returned
  // nothing (a paginated listing cut short, an eventually consistent store)
  // left `.hoodie_partition_metadata` behind a partition the clean reported
  // deleted, and re-running the finished plan removed it (I8).
  TestTable t;
  build_table(t);
  const CleanPlan plan = t.plan(commits_policy(2));
  REQUIRE(plan.partitions_to_be_deleted == std::vector<std::string>{"gone"});
  const auto markers_of_gone = [&] {
    std::size_t n = 0;
    for (const auto& f : all_files(t.storage)) n += f.starts_with("gone/.hoodie_partition_metadata") ? 1 : 0;
    return n;
  };
  REQUIRE(markers_of_gone() == 1);
  const InstantTime instant = persist(t, plan);
  t.storage.empty_next_listing();  // the executor's listing of "gone"
  const auto out = execute_clean(t.storage, t.journal, instant, plan);
  REQUIRE_MESSAGE(out.ok(), std::string(message_of(out.status())));
  CHECK(out->partitions_deleted == 1);
  CHECK(markers_of_gone() == 0);
  const std::set<std::string> after = all_files(t.storage);
  const InstantTime again = persist(t, plan);
  REQUIRE(execute_clean(t.storage, t.journal, again, plan).ok());
  CHECK(all_files(t.storage) == after);
}

TEST_CASE("a plan naming a path outside the table root is refused and nothing is deleted") {
  struct BadPlan {
    const char* what;
    std::function<void(CleanPlan&)> corrupt;
  };
  const std::vector<BadPlan> cases = {
      {"a name climbing out of its partition",
       [](CleanPlan& p) {
         p.files_per_partition.push("p", {"../x", 1, DeleteReason::older_than_boundary, {}});
       }},
      {"an absolute name",
       [](CleanPlan& p) {
         p.files_per_partition.push("p", {"/etc/passwd", 1, DeleteReason::older_than_boundary, {}});
       }},
      {"a partition climbing out of the root",
       [](CleanPlan& p) {
         p.files_per_partition.push("../other", {"x", 1, DeleteReason::older_than_boundary, {}});
       }},
      {"a partition to delete outside the root", [](CleanPlan& p) { p.partitions_to_be_deleted.push_back("../x"); }},
      {"a path inside the root where a file name belongs",
       [](CleanPlan& p) {
         p.files_per_partition.push("", {".hoodie/hoodie.properties", 1, DeleteReason::older_than_boundary, {}});
       }},
  };
  for (const BadPlan& bad : cases) {
    CAPTURE(bad.what);
    TestTable t;
    build_table(t);
    // A file where "p/../x" would land if the path were taken literally.
    REQUIRE(t.storage.put_sized("x", 1).ok());
    CleanPlan plan = t.plan(commits_policy(2));
    REQUIRE(plan.file_count() == 5);  // good deletes in "a" and "b" come first
    bad.corrupt(plan);
    const std::set<std::string> before = all_files(t.storage);
    const InstantTime instant = persist(t, plan);

    const auto out = execute_clean(t.storage, t.journal, instant, plan);
    REQUIRE_FALSE(out.ok());
    CHECK(absl::IsInvalidArgument(out.status()));
    const std::string_view why = message_of(out.status());
    const bool named = why.find("..") != std::string_view::npos || why.find("/etc/passwd") != std::string_view::npos ||
                       why.find("'.hoodie/hoodie.properties', a path") != std::string_view::npos;
    CHECK_MESSAGE(named, std::string(why));
    CHECK(all_files(t.storage) == before);
    CHECK(t.journal.clean_metadata().empty());
    // The service refuses it the same way on every later run.
    CleanContext ctx;
    ctx.now_ms = t.now += 1000;
    CHECK_FALSE(run_clean(t.storage, t.journal, commits_policy(2), ctx).ok());
    CHECK(all_files(t.storage) == before);
  }
}

TEST_CASE("execution is batched and reports progress") {
  TestTable t;
  build_table(t);
  const CleanPlan plan = t.plan(commits_policy(2));
  const InstantTime instant = persist(t, plan);
  std::vector<std::size_t> seen;
  ExecuteOptions options;
  options.batch_size = 1;
  options.progress = [&](const CleanProgress& p) {
    CHECK(p.files_total == 5);
    seen.push_back(p.files_done);
  };
  REQUIRE(execute_clean(t.storage, t.journal, instant, plan, options).ok());
  CHECK(seen == std::vector<std::size_t>{1, 2, 3, 4, 5});
}

TEST_CASE("the run's report: text for people, JSON for machines, with the same figures") {
  TestTable t;
  build_table(t);
  const CleanRunReport r = t.clean(commits_policy(2));
  REQUIRE(r.executed.has_value());
  REQUIRE(r.files_deleted() == 5);

  const std::string text = to_text(r);
  CHECK_MESSAGE(text.find(fmt::format("clean {}: 5 file(s)", r.executed->instant)) != std::string::npos, text);
  CHECK_MESSAGE(text.find("1 partition(s) removed") != std::string::npos, text);
  CHECK_MESSAGE(text.find("reclaimed 5 file(s), 500 B") != std::string::npos, text);

  simdjson::dom::parser parser;
  const std::string json = to_json(r);
  simdjson::dom::element doc;
  REQUIRE_MESSAGE(parser.parse(json).get(doc) == simdjson::SUCCESS, json);
  CHECK(doc["files_deleted"].get_uint64().value() == 5);
  CHECK(doc["bytes_deleted"].get_uint64().value() == r.bytes_deleted());
  CHECK(doc["scope"].get_string().value() == "full");
  CHECK(doc["skipped_reason"].is_null());
  simdjson::dom::array cleans = doc["cleans"].get_array().value();
  REQUIRE(cleans.size() == 1);
  simdjson::dom::element c = cleans.at(0).value();
  CHECK(c["instant"].get_string().value() == r.executed->instant.str());
  CHECK_FALSE(c["resumed"].get_bool().value());
  CHECK(c["earliest_commit_to_retain"].get_string().value() == r.executed->metadata.earliest_commit_to_retain->str());
  CHECK(c["partitions_deleted"].get_uint64().value() == 1);
  std::uint64_t deleted = 0;
  const simdjson::dom::array partitions = c["partitions"].get_array().value();
  for (simdjson::dom::element p : partitions) deleted += p["deleted"].get_uint64().value();
  CHECK(deleted == 5);

  // Nothing left to do: no clean, and the reason says why.
  const CleanRunReport idle = t.clean(commits_policy(2));
  REQUIRE_FALSE(idle.executed.has_value());
  CHECK_MESSAGE(to_text(idle).find("no clean: " + idle.skipped_reason) != std::string::npos, to_text(idle));
  REQUIRE(parser.parse(to_json(idle)).get(doc) == simdjson::SUCCESS);
  CHECK(doc["cleans"].get_array().value().size() == 0);
  CHECK(doc["skipped_reason"].get_string().value() == idle.skipped_reason);
}

}  // namespace lakegc::tests::executor_test
