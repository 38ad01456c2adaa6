// The planner explains itself (clean_verdict.hpp): on random tables, every
// slice of every group gets exactly one verdict, a slice is "deleted" exactly
// when its files are in the plan, and a kept slice always says why. The tool
// prints these verdicts, so this is what keeps `lakegc plan clean`'s
// explanations true to the plan.
#include <doctest/doctest.h>

#include <map>

#include "properties.hpp"
#include "scenario.hpp"

namespace lakegc::tests::verdict_test {

using namespace lakegc;
using namespace lakegc::testing;
using namespace lakegc::testing::prop;

TEST_CASE("property: every slice gets one verdict, and the verdicts are the plan") {
  rc_check("verdicts match the plan slice for slice", [] {
    const Case c = draw_case(/*guarded=*/true);
    const Built b(c);
    CleanContext ctx;
    ctx.now_ms = b.now_ms;
    std::map<const FileSlice*, SliceVerdict> verdicts;
    bool twice = false;
    const VerdictSink sink = [&](const SliceVerdict& v) { twice |= !verdicts.emplace(v.slice, v).second; };
    const auto plan = plan_clean(b.view, b.md, SpecPolicy{c.policy}, ctx, nullptr, &sink);
    RC_ASSERT(plan.ok());
    RC_ASSERT(!twice);
    // The verdicts do not change the plan.
    RC_ASSERT(describe(*plan) == describe(library_plan(b.view, b.md, c.policy, b.now_ms)));
    std::set<std::pair<std::string, std::string>> planned;
    for (const auto& [part, files] : plan->files_per_partition) {
      for (const auto& f : files) planned.emplace(part, std::string(f.name));
    }
    std::size_t slices = 0;
    for (const Partition& p : b.view.partitions()) {
      for (const FileGroup& g : b.view.groups_of(p)) {
        for (const FileSlice& s : b.view.slices_of(g)) {
          ++slices;
          const auto it = verdicts.find(&s);
          const std::string where = fmt::format("{}/{} slice {}", p.path, b.view.file_id(g), s.base_instant.str());
          if (it == verdicts.end()) RC_FAIL("no verdict for " + where);
          const SliceVerdict& v = it->second;
          RC_ASSERT(v.partition == &p);
          RC_ASSERT(v.group == &g);
          std::size_t in_plan = 0;
          const auto files = slice_files(b.view, s);
          for (const std::string& f : files) in_plan += planned.contains({p.path, f}) ? 1 : 0;
          if (v.deleted) {
            if (v.kept != 0) RC_FAIL(where + ": deleted, yet with keep reasons");
            if (in_plan + v.uncertain_logs_kept != files.size()) {
              RC_FAIL(fmt::format("{}: deleted, but {} of its {} files are in the plan", where, in_plan, files.size()));
            }
          } else {
            if (v.kept == 0) RC_FAIL(where + ": kept without a reason");
            if (in_plan != 0) RC_FAIL(where + ": kept, yet files of it are in the plan");
          }
        }
      }
    }
    RC_ASSERT(verdicts.size() == slices);
  });
}

}  // namespace lakegc::tests::verdict_test
