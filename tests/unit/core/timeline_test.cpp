#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "lakegc/core/timeline.hpp"
#include "lakegc/hudi/timeline_file_name.hpp"

namespace lakegc::tests::timeline_test {

using namespace lakegc;

namespace {
InstantTime t(const char* s) { return InstantTime::parse(s).value(); }
Instant done(const char* req, const char* comp, Action a) { return Instant{t(req), t(comp), a, State::completed}; }
Instant pending(const char* req, Action a, State s = State::inflight) { return Instant{t(req), std::nullopt, a, s}; }
}  // namespace

TEST_CASE("timeline sorts by requested time and offers its views") {
  auto tl = Timeline::make({
                               done("20240101000300000", "20240101000900000", Action::commit),  // completes last
                               done("20240101000100000", "20240101000150000", Action::deltacommit),
                               pending("20240101000400000", Action::compaction, State::requested),
                               done("20240101000200000", "20240101000250000", Action::replacecommit),
                               done("20240101000500000", "20240101000550000", Action::clean),
                               done("20240101000600000", "20240101000650000", Action::savepoint),
                               pending("20240101000700000", Action::clean),
                           })
                .value();
  REQUIRE(tl.size() == 7);
  CHECK(tl.instants().front().requested == t("20240101000100000"));
  REQUIRE(tl.completed_commits().size() == 3);
  CHECK(tl.completed_commits()[2]->requested == t("20240101000300000"));
  // Completion order differs: the commit requested at 0003 completed last.
  CHECK(tl.completed_commits_by_completion().back()->requested == t("20240101000300000"));
  CHECK(tl.last_completed_commit() == t("20240101000300000"));
  CHECK(tl.pending().size() == 2);
  CHECK(tl.pending_writes().size() == 1);
  CHECK(tl.savepoints().size() == 1);
  CHECK(tl.cleans().size() == 2);
  CHECK(tl.is_completed_commit(t("20240101000200000")));
  CHECK_FALSE(tl.is_completed_commit(t("20240101000400000")));
  CHECK(tl.find(t("20240101000400000"))->action == Action::compaction);
  CHECK(tl.find(t("20240101000450000")) == nullptr);
  CHECK(tl.as_of(t("20240101000250000")).size() == 2);
  const Timeline copy = tl;  // views of a copy point into the copy
  CHECK(copy.completed_commits()[0] == &copy.instants()[0]);
}

TEST_CASE("ordering by completion time: the last completed is not the largest requested") {
  auto tl = Timeline::make({done("20240101000100000", "20240101000500000", Action::commit),
                            done("20240101000200000", "20240101000300000", Action::commit)})
                .value();
  CHECK(tl.completed_commits_by_completion()[0]->requested == t("20240101000200000"));
  CHECK(tl.last_completed_commit() == t("20240101000100000"));
}

TEST_CASE("two instants at one requested time are an error naming it") {
  auto r = Timeline::make(
      {done("20240101000100000", "20240101000200000", Action::commit), pending("20240101000100000", Action::clean)});
  REQUIRE_FALSE(r.ok());
  CHECK(std::string(message_of(r.status())).find("20240101000100000") != std::string::npos);
}

TEST_CASE("timeline file names of both layouts fold into instants") {
  using namespace lakegc::hudi;
  std::vector<TimelineFileName> files;
  for (const char* n :
       {"20240418172802262.commit.requested", "20240418172802262.inflight", "20240418172802262.commit",
        "20251220210129235.compaction.requested", "20251220210129235.compaction.inflight",
        "20251220210129235_20251220210129883.commit", "20260307135709297.clustering.requested",
        "20260307135709297.clustering.inflight", "20260307135800000.deltacommit.requested",
        "20260307135900000.inflight", "20260307135900000.commit.requested", "20260307136000000.savepoint.inflight"}) {
    auto f = parse_timeline_file_name(n);
    REQUIRE_MESSAGE(f.ok(), n);
    files.push_back(*f);
  }
  const auto instants = fold_timeline_files(files);
  REQUIRE(instants.size() == 6);
  CHECK(instants[0].action == Action::commit);
  CHECK(instants[0].state == State::completed);
  CHECK_FALSE(instants[0].completed.has_value());  // layout 1 names carry no completion time
  CHECK(instants[1].action == Action::commit);
  CHECK(instants[1].completed == t("20251220210129883"));
  CHECK(instants[2].action == Action::clustering);
  CHECK(instants[2].state == State::inflight);
  CHECK(instants[3].action == Action::deltacommit);
  CHECK(instants[3].state == State::requested);
  CHECK(instants[4].action == Action::commit);
  CHECK(instants[4].state == State::inflight);
  CHECK(instants[5].action == Action::savepoint);
}

TEST_CASE("timeline file names that are not instants, or unknown actions") {
  using namespace lakegc::hudi;
  CHECK_FALSE(looks_like_instant_file("hoodie.properties"));
  CHECK_FALSE(looks_like_instant_file("archived"));
  CHECK_FALSE(looks_like_instant_file("20240418172802262.commit.crc"));
  CHECK(looks_like_instant_file("20240418172802262.commit"));
  for (const char* n : {"20240418172802262.frobnicate", "20240418172802262.commit.done", "2024.commit",
                        "20240418172802262_1.commit", "20240418172802262_20240418172802999.commit.requested"}) {
    auto f = parse_timeline_file_name(n);
    REQUIRE_FALSE_MESSAGE(f.ok(), n);
    CHECK(std::string(message_of(f.status())).find(n) != std::string::npos);
  }
}

TEST_CASE("issue 11: the write timeline starts at its first write instant, of any state") {
  auto tl =
      Timeline::make(
          {
              Instant{InstantTime::parse("20240101000000000").value(), std::nullopt, Action::rollback,
                      State::completed},
              Instant{InstantTime::parse("20240102000000000").value(), std::nullopt, Action::clean, State::completed},
              Instant{InstantTime::parse("20240103000000000").value(), std::nullopt, Action::commit, State::inflight},
              Instant{InstantTime::parse("20240104000000000").value(), std::nullopt, Action::commit, State::completed},
          })
          .value();
  REQUIRE(tl.write_start().has_value());
  CHECK(tl.write_start()->str() == "20240103000000000");
  CHECK(tl.is_before_write_start(InstantTime::parse("20240102120000000").value()));
  CHECK_FALSE(tl.is_before_write_start(InstantTime::parse("20240103000000000").value()));
  CHECK(tl.archive_horizon() == tl.write_start());
  const Timeline no_writes = Timeline::make({Instant{InstantTime::parse("20240101000000000").value(), std::nullopt,
                                                     Action::clean, State::completed}})
                                 .value();
  CHECK_FALSE(no_writes.write_start().has_value());
  CHECK_FALSE(no_writes.is_before_write_start(InstantTime::parse("20000101000000000").value()));
}

TEST_CASE("issue 11: a savepoint shares its commit's time; the archive horizon skips savepointed commits") {
  const InstantTime t1 = InstantTime::parse("20240101000000000").value();
  const InstantTime t2 = InstantTime::parse("20240105000000000").value();
  auto tl = Timeline::make({
      Instant{t2, std::nullopt, Action::commit, State::completed},
      Instant{t1, std::nullopt, Action::savepoint, State::completed},
      Instant{t1, std::nullopt, Action::commit, State::completed},
  });
  REQUIRE(tl.ok());
  REQUIRE(tl->size() == 3);
  CHECK(tl->find(t1)->action == Action::commit);  // the savepointed commit, not its savepoint
  CHECK(tl->savepoints().size() == 1);
  CHECK(tl->completed_commits().size() == 2);
  CHECK(tl->write_start() == t1);
  CHECK(tl->archive_horizon() == t2);
  // Any other two instants at one time are still refused.
  auto dup = Timeline::make({Instant{t1, std::nullopt, Action::commit, State::completed},
                             Instant{t1, std::nullopt, Action::clean, State::completed}});
  CHECK_FALSE(dup.ok());
}

}  // namespace lakegc::tests::timeline_test
