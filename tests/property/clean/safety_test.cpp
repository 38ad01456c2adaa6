// Properties every plan keeps whatever the table: with both built-in guards
// on, no plan deletes an uncommitted file, part of a slice, the latest slice
// of a live group, a savepointed slice or a slice a pending compaction
// needs; and a boundary rule keeps every snapshot at or after its boundary
// (plus the one just before it) readable.
#include <doctest/doctest.h>

#include "properties.hpp"
#include "scenario.hpp"

namespace lakegc::tests::safety_test {

using namespace lakegc;
using namespace lakegc::testing;
using namespace lakegc::testing::prop;

TEST_CASE("property: guarded plans never delete protected files") {
  int deleting = 0;
  int cases = 0;
  rc_check("no plan deletes the latest, savepointed, compacting or uncommitted files", [&] {
    const Case c = draw_case(/*guarded=*/true);
    const Built b(c);
    const CleanPlan plan = library_plan(b.view, b.md, c.policy, b.now_ms);
    if (auto bad = safety_violation(b.view, b.md, plan)) {
      RC_FAIL(*bad + "\nplan:\n" + describe(plan) + "table:\n" + describe(b.md, b.view));
    }
    ++cases;
    deleting += plan.has_work();
  });
  if (cases >= 100) CHECK(deleting * 5 >= cases);
}

TEST_CASE("property: boundary rules keep every snapshot from the boundary on readable") {
  rc_check("reads at or after the boundary, and just before it, find their files", [] {
    Case c = draw_case(/*guarded=*/false);
    RC_PRE(c.policy.rule != reference::Rule::keep_latest_file_versions);
    const Built b(c);
    const CleanPlan plan = library_plan(b.view, b.md, c.policy, b.now_ms);
    if (auto bad = retention_violation(b.view, b.md, plan)) {
      RC_FAIL(*bad + "\nplan:\n" + describe(plan) + "table:\n" + describe(b.md, b.view));
    }
  });
}

TEST_CASE("property: a clean run by the service keeps protected files and reports what it deleted") {
  // End to end: plan, persist and execute through run_clean on the random
  // table, then look at storage. Every file of a live group's latest slice,
  // every savepointed file and every file a pending compaction needs is
  // still there, and the files reported deleted are exactly those gone.
  rc_check("run_clean keeps protected files; reported deletions equal storage", [] {
    const Case c = draw_case(/*guarded=*/true);
    Built b(c);
    TestTable& t = b.world.table;
    std::set<std::string> must_stay;
    for (const Partition& p : b.view.partitions()) {
      for (const FileGroup& g : b.view.groups_of(p)) {
        const auto slices = b.view.slices_of(g);
        for (std::size_t i = 0; i < slices.size(); ++i) {
          const bool latest = i == 0 && !g.replaced_by;
          const bool compacting = g.pending_compaction_base && !(slices[i].base_instant < *g.pending_compaction_base);
          for (const std::string& f : slice_files(b.view, slices[i])) {
            if (latest || compacting || b.view.is_savepointed(f)) must_stay.insert(join_path(p.path, f));
          }
        }
      }
    }
    for (const UncommittedFile& u : b.view.uncommitted_files()) {
      must_stay.insert(join_path(b.view.partitions()[u.partition].path, b.view.file_name(u.file)));
    }
    auto data_files = [&t] {
      std::set<std::string> out;
      t.storage.for_each_file([&](const FileEntry& e) {
        if (!is_partition_metadata_file(e.path.substr(e.path.rfind('/') + 1))) out.emplace(e.path);
      });
      return out;
    };
    const std::set<std::string> before = data_files();
    const CleanRunReport report = t.clean(SpecPolicy{c.policy});
    const std::set<std::string> after = data_files();
    for (const std::string& f : must_stay) {
      if (!after.contains(f)) RC_FAIL("the clean deleted protected file " + f);
    }
    RC_ASSERT(before.size() - after.size() == report.files_deleted());
  });
}

}  // namespace lakegc::tests::safety_test
