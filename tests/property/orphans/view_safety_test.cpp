// Property (issue 11): over random tables with random archival (non-write
// instants left behind, savepoints at their commits' times and archival
// beyond them, pending and failed writes, speculative duplicates, pending
// compactions and clusterings, layouts 1 and 2, an archive lakegc may not
// read), no file that the reference model of Hudi's file-system view
// (tests/reference/hudi_file_system_view.hpp) shows in any slice is ever an
// orphan candidate of OrphanSweep (old enough or not), and of two base
// files Hudi could show for one slice, at least one is kept.
//
// Canary: the same check against a sweep whose metadata snapshot starts
// the timeline at its oldest instant of any action (sim/.../sweep_flaws.hpp,
// lakegc's rule before issue 11) must fail; the unflawed sweep under the
// same fixed parameters is the control.
#include <doctest/doctest.h>

#include <sstream>

#include "../canary_check.hpp"
#include "history.hpp"
#include "lakegc/plan/plan_orphans.hpp"
#include "lakegc/sim/sweep_flaws.hpp"
#include "rc_doctest.hpp"

namespace lakegc::tests::view_safety_test {

using namespace lakegc;
using namespace lakegc::testing;
using namespace lakegc::testing::orphans;

namespace {

struct Outcome {
  std::optional<std::string> violation;
  bool hazard = false;  // a non-write oldest instant, archived files after it
  std::size_t candidates = 0;
};

std::string describe(const Params& p, const std::vector<Op>& ops) {
  std::ostringstream os;
  os << p << ":";
  for (const Op& op : ops) os << " " << op;
  return os.str();
}

// Replays `ops`, sweeps (optionally with the flawed snapshot) and returns the
// first file the sweep would delete that Hudi's view shows.
Outcome sweep_against_view(const Params& p, const std::vector<Op>& ops, bool flawed) {
  History h(p);
  for (const Op& op : ops) h.apply(op);
  Outcome out;
  out.hazard = h.non_write_start_hazard();
  TableMetadata md = h.lakegc_metadata();
  if (flawed) sim::start_at_any_action(md);
  const reference::hudi::ViewInput input = h.hudi_input();
  const reference::hudi::View view(input);
  const reference::hudi::Shown shown = view.shown();

  OrphanOptions options;
  options.older_than_ms = kDayMs;
  options.force = true;  // every candidate counts, whatever the longest write
  auto sweep = OrphanSweep::make(md, options, h.now_ms() + 2 * kDayMs);
  if (!sweep.ok()) {
    out.violation = fmt::format("OrphanSweep::make: {}", message_of(sweep.status()));
    return out;
  }
  for (const auto& [path, f] : h.files()) sweep->add(path, 1, h.now_ms());  // every file two days old
  auto plan = std::move(*sweep).finish();
  if (!plan.ok()) {
    out.violation = fmt::format("the sweep stopped: {}", message_of(plan.status()));
    return out;
  }
  std::set<std::string> candidates;
  for (const auto* list : {&plan->orphans, &plan->too_young}) {
    for (const OrphanFile& f : *list) candidates.insert(f.path);
  }
  out.candidates = candidates.size();
  for (const std::string& c : candidates) {
    if (!shown.files.contains(c)) continue;
    out.violation = fmt::format("orphan candidate '{}' is in a slice of Hudi's view", c);
    return out;
  }
  for (const auto& alt : shown.one_of) {
    if (std::all_of(alt.begin(), alt.end(), [&](const std::string& f) { return candidates.contains(f); })) {
      out.violation =
          fmt::format("every base file Hudi could show for a slice is a candidate ('{}', ...)", alt.front());
      return out;
    }
  }
  return out;
}

}  // namespace

TEST_CASE("property: no file Hudi's file-system view shows in a slice is an orphan candidate") {
  int cases = 0;
  int hazards = 0;
  int with_candidates = 0;
  rc_check("orphan candidates are never in a slice of Hudi's view", [&] {
    const Params p = *gen_params();
    const std::vector<Op> ops = *gen_ops();
    const Outcome o = sweep_against_view(p, ops, /*flawed=*/false);
    if (o.violation) RC_FAIL(*o.violation + "\n" + describe(p, ops));
    ++cases;
    hazards += o.hazard;
    with_candidates += o.candidates > 0;
  });
  // The tables exercise what the property is about: old non-write instants
  // in front of archived commits' files, and sweeps that find orphans.
  if (cases >= 100) {
    CHECK(hazards * 10 >= cases);
    CHECK(with_candidates * 5 >= cases);
  }
  MESSAGE(cases << " cases: " << hazards << " with a non-write oldest instant before archived files, "
                << with_candidates << " with orphan candidates");
}

namespace {
rc::detail::TestResult check_sweep(bool flawed) {
  auto property = [flawed] {
    const Params p = *gen_params();
    const std::vector<Op> ops = *gen_ops();
    const Outcome o = sweep_against_view(p, ops, flawed);
    if (o.violation) RC_FAIL(*o.violation + "\n" + describe(p, ops));
  };
  return check_canary(flawed ? "canary: sweep starting the timeline at any action" : "canary control: the real sweep",
                      11, 300, property);
}
}  // namespace

TEST_CASE("canary: the property catches a sweep whose timeline starts at its oldest instant of any action") {
  const auto result = check_sweep(/*flawed=*/true);
  REQUIRE_MESSAGE(result.is<rc::detail::FailureResult>(),
                  "the view-safety property missed a sweep that takes the timeline's start over every action");
  const auto failure = result.get<rc::detail::FailureResult>();
  CHECK(failure.description.find("is in a slice of Hudi's view") != std::string::npos);
  MESSAGE("caught after " << failure.numSuccess << " passing cases: " << failure.description);
}

TEST_CASE("canary control: the same property passes for the real sweep") {
  const auto result = check_sweep(/*flawed=*/false);
  std::ostringstream os;
  rc::detail::printResultMessage(result, os);
  CHECK_MESSAGE(result.is<rc::detail::SuccessResult>(), os.str());
}

TEST_CASE("layout 1: a failed write's file between a pending first write and the first completed one is kept") {
  // Hudi 0.x (layout 1) starts its view's timeline at the first completed
  // write (or pending compaction): the pending first write W1 is not in it,
  // so the file of W2, rolled back without its file, reads as committed
  // data. The sweep's archive horizon in layout 1 is no earlier than that
  // (Timeline::view_start), so it keeps the file. Layout 2 drops files of
  // instants that are not completed (filterUncommittedFiles): there the
  // file is an orphan.
  Params p;
  p.layout2 = false;
  p.mor = false;
  const std::vector<Op> ops = {{OpKind::begin_write, 0, 0},
                               {OpKind::begin_write, 0, 0},
                               {OpKind::fail_write, 1, 0},
                               {OpKind::begin_write, 0, 0},
                               {OpKind::complete_write, 1, 0}};
  const Outcome o = sweep_against_view(p, ops, /*flawed=*/false);
  CHECK_FALSE(o.violation.has_value());
  CHECK(o.candidates == 0);
  p.layout2 = true;
  const Outcome o2 = sweep_against_view(p, ops, /*flawed=*/false);
  CHECK_FALSE(o2.violation.has_value());
  CHECK(o2.candidates == 1);
}

}  // namespace lakegc::tests::view_safety_test
