// Must compile: the positive control for the compile-fail harness. If this
// fails, the harness (compiler command, include paths) is broken and the
// compile-fail cases prove nothing.
#include "lakegc/policy/cleaning.hpp"

auto policy =
    lakegc::cleaning(lakegc::keep_latest_commits{10}, lakegc::guard::savepoints, lakegc::guard::pending_table_services,
                     lakegc::scope::incremental, lakegc::scope::max_commits_to_clean{50});
auto unguarded = lakegc::cleaning(lakegc::keep_latest_file_versions{3}, lakegc::unguarded);
auto filtered = lakegc::cleaning(lakegc::any_of(lakegc::keep_latest_commits{10}, lakegc::keep_by_hours{24}),
                                 lakegc::guard::savepoints, lakegc::guard::pending_table_services,
                                 lakegc::scope::partition_filter{{"region=eu"}, ""});
static_assert(lakegc::CleaningPolicy<decltype(policy)>);
