// Property: plans are deterministic. The same table gives the same plan
// byte for byte: planned twice, planned from freshly loaded metadata, and
// planned from a view whose listing arrived in another order (object
// stores list in no promised order; plans are compared and persisted).
#include <doctest/doctest.h>

#include <algorithm>

#include "scenario.hpp"

namespace lakegc::tests::determinism_test {

using namespace lakegc;
using namespace lakegc::testing;
using namespace lakegc::testing::prop;

TEST_CASE("property: plans are deterministic") {
  rc_check("same table, same plan, whatever the listing order", [] {
    const Case c = draw_case(/*guarded=*/false);
    Built b(c);
    const CleanPlan first = library_plan(b.view, b.md, c.policy, b.now_ms);
    RC_ASSERT(library_plan(b.view, b.md, c.policy, b.now_ms) == first);

    const TableMetadata md_again = b.world.metadata(c.prev, b.now_ms);
    const TableView view_again = load_view(b.world.table.storage, md_again).value();
    RC_ASSERT(library_plan(view_again, md_again, c.policy, b.now_ms) == first);

    // The same listing, shuffled, fed to the builder by hand.
    struct Entry {
      std::string dir, name;
      std::uint64_t size;
    };
    std::vector<Entry> listing;
    b.world.table.storage.for_each_file([&](const FileEntry& e) {
      const auto slash = e.path.rfind('/');
      listing.push_back({slash == std::string_view::npos ? std::string() : std::string(e.path.substr(0, slash)),
                         std::string(slash == std::string_view::npos ? e.path : e.path.substr(slash + 1)), e.size});
    });
    const auto order = *rc::gen::container<std::vector<std::size_t>>(
        listing.size(),
        rc::gen::resize(100, rc::gen::inRange<std::size_t>(0, std::max<std::size_t>(listing.size(), 1))));
    for (std::size_t i = 0; i < listing.size(); ++i) std::swap(listing[i], listing[order[i]]);
    TableViewBuilder builder(b.md.timeline, b.md.layout);
    builder.require_declared_partitions();
    for (const Entry& e : listing) {
      if (is_partition_metadata_file(e.name)) {
        builder.add_partition(e.dir);
      } else {
        builder.add_file(e.dir, e.name, e.size);
      }
    }
    add_metadata(builder, b.md);
    const TableView shuffled = std::move(builder).build();
    const CleanPlan from_shuffled = library_plan(shuffled, b.md, c.policy, b.now_ms);
    if (!(from_shuffled == first)) {
      RC_FAIL("listing order changed the plan\nsorted listing:\n" + describe(first) + "shuffled listing:\n" +
              describe(from_shuffled));
    }
  });
}

}  // namespace lakegc::tests::determinism_test
