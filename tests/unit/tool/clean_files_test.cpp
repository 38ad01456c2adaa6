// The clean instant files hudi::journal writes (request, start, complete),
// read back by the journal and by the decoders Hudi's files go through, in
// both timeline layouts; plans Hudi wrote (absolute paths from another
// machine, version 1 names) read back; and a whole clean run over a table
// written by table_writer.
#include <doctest/doctest.h>

#include <string>

#include "lakegc/exec/clean_service.hpp"
#include "lakegc/hudi/metadata_codec.hpp"
#include "lakegc/storage/posix_storage.hpp"
#include "tool_fixture.hpp"

namespace lakegc::tests::clean_files_test {

using namespace lakegc;
using namespace lakegc::testing;

// hudi::journal models the Journal concept over every Storage model.
static_assert(Journal<hudi::journal<memory_storage>>);
static_assert(Journal<hudi::journal<posix_storage>>);

namespace {

const InstantTime t1 = instant("20260101000000000");
const InstantTime t2 = instant("20260101010000000");
const InstantTime t3 = instant("20260101020000000");
const InstantTime t4 = instant("20260101030000000");
const InstantTime kClean = instant("20260102000000000");
constexpr std::int64_t kNow = 1'767'312'000'000;  // 2026-01-02T00:00:00Z

hudi::JournalOptions fixed_clock() {
  hudi::JournalOptions o;
  o.now_ms = [] { return kNow + 5'000; };
  return o;
}

auto commits_policy(std::uint32_t n) {
  return cleaning(keep_latest_commits{n}, guard::savepoints, guard::pending_table_services);
}

// KEEP_LATEST_COMMITS=1 on four versions keeps t4 (latest) and t3 (newest
// before the boundary t4), and deletes t1 and t2.
template <typename J>
CleanPlan plan_for(memory_storage& s, J& j) {
  auto md = j.load();
  REQUIRE_MESSAGE(md.ok(), msg(md.status()));
  auto view = load_view(s, *md);
  REQUIRE_MESSAGE(view.ok(), msg(view.status()));
  auto plan = plan_clean(*view, *md, commits_policy(1), CleanContext{kNow, {}});
  REQUIRE_MESSAGE(plan.ok(), msg(plan.status()));
  return *plan;
}

// A version 8 table in timeline layout 2 with four versions of one group.
// Its commit files are empty (Hudi reads a 0-byte commit as empty metadata).
void write_layout2_table(memory_storage& s) {
  REQUIRE(s.write_if_absent(".hoodie/hoodie.properties",
                            "hoodie.table.name=t2\nhoodie.table.type=COPY_ON_WRITE\nhoodie.table.version=8\n"
                            "hoodie.table.partition.fields=p\nhoodie.table.timeline.timezone=UTC\n")
              .ok());
  REQUIRE(s.write_if_absent("p=1/.hoodie_partition_metadata", "commitTime=20260101000000000\npartitionDepth=1\n").ok());
  std::size_t size = 100;
  for (const InstantTime& t : {t1, t2, t3, t4}) {
    const std::string done =
        InstantTime::from_epoch_ms(t.to_epoch_ms(TimelineTimezone::utc).value() + 500, TimelineTimezone::utc).str();
    REQUIRE(s.write_if_absent(fmt::format(".hoodie/timeline/{}.commit.requested", t), "").ok());
    REQUIRE(s.write_if_absent(fmt::format(".hoodie/timeline/{}_{}.commit", t, done), "").ok());
    REQUIRE(s.write_if_absent(
                 fmt::format("p=1/{}_0-1-{}_{}.parquet", hudi::table_writer<memory_storage>::file_id(1), size, t),
                 std::string(size, 'x'))
                .ok());
    size += 100;
  }
}

}  // namespace

TEST_CASE("layout 1: request, start and complete write Hudi's clean files; load() reads them back") {
  memory_storage s;
  write_versions(s, {t1, t2, t3, t4});
  auto j = journal_t::open(s, "/lake/t/", fixed_clock());  // a trailing slash is dropped
  TOOL_REQUIRE_OK(j);
  CHECK(j->base_path() == "/lake/t");
  const CleanPlan plan = plan_for(s, *j);
  REQUIRE(plan.file_count() == 2);
  REQUIRE(plan.earliest_instant_to_retain == t4);

  TOOL_REQUIRE_OK_STATUS(j->request_clean(kClean, plan));
  CHECK(absl::IsAlreadyExists(j->request_clean(kClean, plan)));
  CHECK(absl::IsAlreadyExists(j->request_clean(t2, plan)));  // a commit's instant

  // The requested file is a HoodieCleanerPlan with absolute paths.
  const std::string requested = s.read(".hoodie/20260102000000000.clean.requested").value();
  auto hp = hudi::decode_cleaner_plan(requested, "requested");
  TOOL_REQUIRE_OK(hp);
  CHECK(hp->version == 2);
  CHECK(hp->policy == "KEEP_LATEST_COMMITS");
  CHECK(hp->earliest_instant_to_retain == t4.str());
  CHECK(hp->earliest_instant_to_retain_action == "commit");
  CHECK(hp->earliest_instant_to_retain_state == "COMPLETED");
  CHECK(hp->last_completed_commit_timestamp == t4.str());
  REQUIRE(hp->file_paths_to_delete_per_partition.at("p=1").size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    CHECK(hp->file_paths_to_delete_per_partition.at("p=1")[i] ==
          "/lake/t/p=1/" + std::string(plan.files_per_partition.at("p=1")[i].name));
  }

  // read_clean_plan gives the plan back (reasons are not part of Hudi's plan).
  auto back = j->read_clean_plan(kClean);
  TOOL_REQUIRE_OK(back);
  CHECK(back->earliest_instant_to_retain == plan.earliest_instant_to_retain);
  CHECK(back->last_completed_commit_timestamp == plan.last_completed_commit_timestamp);
  CHECK(back->policy == plan.policy);
  CHECK(back->partitions_to_be_deleted == plan.partitions_to_be_deleted);
  REQUIRE(back->files_per_partition.size() == 1);
  const auto& want = plan.files_per_partition.at("p=1");
  const auto& got = back->files_per_partition.at("p=1");
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    CHECK(got[i].name == want[i].name);
    CHECK(got[i].size == want[i].size);
    CHECK(got[i].slice == want[i].slice);
  }

  auto md = j->load();
  TOOL_REQUIRE_OK(md);
  const Instant* c = md->timeline.find(kClean);
  REQUIRE(c != nullptr);
  CHECK(c->action == Action::clean);
  CHECK(c->state == State::requested);

  // Layout 1: the in-flight file is a copy of the plan, as Hudi 0.x writes it.
  TOOL_REQUIRE_OK_STATUS(j->start_clean(kClean));
  CHECK(s.read(".hoodie/20260102000000000.clean.inflight").value() == requested);
  TOOL_REQUIRE_OK_STATUS(j->start_clean(kClean));  // idempotent

  auto outcome = execute_clean(s, *j, kClean, plan);
  TOOL_REQUIRE_OK(outcome);
  CHECK(outcome->files_deleted == 2);
  for (const auto& f : want) CHECK(absl::IsNotFound(s.stat("p=1/" + std::string(f.name)).status()));

  auto done = s.read(".hoodie/20260102000000000.clean");
  TOOL_REQUIRE_OK(done);
  auto meta = hudi::decode_clean_metadata(*done, "clean");
  TOOL_REQUIRE_OK(meta);
  CHECK(meta->start_clean_time == kClean.str());
  CHECK(meta->earliest_commit_to_retain == t4.str());
  CHECK(meta->last_completed_commit_timestamp == t4.str());
  CHECK(meta->total_files_deleted == 2);
  const auto& pm = meta->partition_metadata.at("p=1");
  CHECK(pm.policy == "KEEP_LATEST_COMMITS");
  CHECK(pm.success_delete_files.size() == 2);
  CHECK(pm.delete_path_patterns == pm.success_delete_files);
  CHECK(pm.failed_delete_files.empty());

  auto after = j->load();
  TOOL_REQUIRE_OK(after);
  CHECK(after->timeline.find(kClean)->state == State::completed);
  REQUIRE(after->last_completed_clean.has_value());
  CHECK(after->last_completed_clean->instant == kClean);
  CHECK(after->last_completed_clean->earliest_commit_to_retain == t4);
  CHECK(after->last_completed_clean->last_completed_commit == t4);
  CHECK(absl::IsFailedPrecondition(j->complete_clean(kClean, outcome->metadata)));
  CHECK(absl::IsFailedPrecondition(j->start_clean(kClean)));
}

TEST_CASE("layout 2: an empty in-flight file and `<t>_<completion>.clean`") {
  memory_storage s;
  write_layout2_table(s);
  auto j = journal_t::open(s, "s3://bucket/t2", fixed_clock());
  TOOL_REQUIRE_OK(j);
  CHECK(j->properties().layout == TimelineLayout::v2);
  const CleanPlan plan = plan_for(s, *j);
  REQUIRE(plan.file_count() == 2);
  TOOL_REQUIRE_OK_STATUS(j->request_clean(kClean, plan));
  auto hp = hudi::decode_cleaner_plan(s.read(".hoodie/timeline/20260102000000000.clean.requested").value(), "r");
  TOOL_REQUIRE_OK(hp);
  CHECK(hp->file_paths_to_delete_per_partition.at("p=1")[0].starts_with("s3://bucket/t2/p=1/"));

  auto outcome = execute_clean(s, *j, kClean, plan);
  TOOL_REQUIRE_OK(outcome);
  CHECK(s.read(".hoodie/timeline/20260102000000000.clean.inflight").value().empty());
  // Completion time from the journal's clock: kNow + 5 s.
  const std::string completed = ".hoodie/timeline/20260102000000000_20260102000005000.clean";
  TOOL_REQUIRE_OK(s.stat(completed));
  auto after = j->load();
  TOOL_REQUIRE_OK(after);
  const Instant* c = after->timeline.find(kClean);
  REQUIRE(c != nullptr);
  CHECK(c->state == State::completed);
  CHECK(c->completed == instant("20260102000005000"));
  REQUIRE(after->last_completed_clean.has_value());
  CHECK(after->last_completed_clean->earliest_commit_to_retain == t4);
}

TEST_CASE("transitions out of order are refused, naming the file") {
  memory_storage s;
  write_versions(s, {t1, t2});
  auto j = journal_t::open(s, "/lake/t", fixed_clock());
  TOOL_REQUIRE_OK(j);
  const Status no_plan = j->start_clean(kClean);
  CHECK(absl::IsNotFound(no_plan));
  CHECK(msg(no_plan).find("/lake/t/.hoodie/20260102000000000.clean.requested") != std::string::npos);
  TOOL_REQUIRE_OK_STATUS(j->request_clean(kClean, CleanPlan{}));
  const Status early = j->complete_clean(kClean, lakegc::CompletedClean{});
  CHECK(absl::IsFailedPrecondition(early));
  CHECK(msg(early).find("clean.inflight") != std::string::npos);
}

TEST_CASE("plans Hudi wrote: absolute paths from another machine and version 1 names read back") {
  memory_storage s;
  write_versions(s, {t1, t2, t3});
  auto j = journal_t::open(s, "/mnt/here/t", fixed_clock());
  TOOL_REQUIRE_OK(j);
  auto md = j->load();
  TOOL_REQUIRE_OK(md);
  auto view = load_view(s, *md);
  TOOL_REQUIRE_OK(view);
  const std::string old_name(view->file_name(view->slices_of(view->groups()[0])[2].base_file));

  hudi::CleanerPlan hp;
  hp.earliest_instant_to_retain = t3.str();
  hp.earliest_instant_to_retain_action = "commit";
  hp.last_completed_commit_timestamp = t3.str();
  hp.policy = "KEEP_LATEST_COMMITS";
  hp.file_paths_to_delete_per_partition["p=1"] = {"file:/data/lake/t/p=1/" + old_name};
  TOOL_REQUIRE_OK_STATUS(
      s.write_if_absent(".hoodie/20260102000000000.clean.requested", hudi::encode_cleaner_plan(hp).value()));
  auto plan = j->read_clean_plan(kClean);
  TOOL_REQUIRE_OK(plan);
  REQUIRE(plan->files_per_partition.at("p=1").size() == 1);
  CHECK(plan->files_per_partition.at("p=1")[0].name == old_name);
  CHECK(plan->files_per_partition.at("p=1")[0].size == 100);
  CHECK(plan->files_per_partition.at("p=1")[0].slice == t1);

  // A path outside the partition it is listed under is refused.
  hp.file_paths_to_delete_per_partition["p=1"] = {"file:/data/lake/t/p=2/" + old_name};
  const InstantTime other = instant("20260103000000000");
  TOOL_REQUIRE_OK_STATUS(
      s.write_if_absent(".hoodie/20260103000000000.clean.requested", hudi::encode_cleaner_plan(hp).value()));
  auto refused = j->read_clean_plan(other);
  REQUIRE_FALSE(refused.ok());
  CHECK(msg(refused.status()).find("20260103000000000.clean.requested") != std::string::npos);
  CHECK(msg(refused.status()).find("not in that partition") != std::string::npos);

  // Version 1 plans list bare file names.
  hp.version = 1;
  hp.file_paths_to_delete_per_partition["p=1"] = {old_name};
  TOOL_REQUIRE_OK_STATUS(
      s.write_if_absent(".hoodie/20260104000000000.clean.requested", hudi::encode_cleaner_plan(hp).value()));
  auto v1 = j->read_clean_plan(instant("20260104000000000"));
  TOOL_REQUIRE_OK(v1);
  CHECK(v1->files_per_partition.at("p=1")[0].name == old_name);
}

TEST_CASE("run_clean over a table written by table_writer, through hudi::journal") {
  memory_storage s;
  write_versions(s, {t1, t2, t3, t4});
  auto j = journal_t::open(s, "/lake/t", fixed_clock());
  TOOL_REQUIRE_OK(j);
  auto report = run_clean(s, *j, commits_policy(1), CleanContext{kNow, {}});
  TOOL_REQUIRE_OK(report);
  REQUIRE(report->executed.has_value());
  CHECK(report->files_deleted() == 2);
  CHECK(report->bytes_deleted() == 100 + 200);
  auto md = j->load();
  TOOL_REQUIRE_OK(md);
  REQUIRE(md->last_completed_clean.has_value());
  auto view = load_view(s, *md);
  TOOL_REQUIRE_OK(view);
  CHECK(view->slices_of(view->groups()[0]).size() == 2);
  // Nothing new to clean: the next run schedules nothing.
  auto again = run_clean(s, *j, commits_policy(1), CleanContext{kNow, {}});
  TOOL_REQUIRE_OK(again);
  CHECK_FALSE(again->executed.has_value());
}

}  // namespace lakegc::tests::clean_files_test
