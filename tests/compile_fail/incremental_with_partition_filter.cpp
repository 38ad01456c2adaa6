// Must not compile: a partition filter restricts a full scan, and an
// incremental scan is not one.
#include "lakegc/policy/cleaning.hpp"

auto policy =
    lakegc::cleaning(lakegc::keep_latest_commits{10}, lakegc::guard::savepoints, lakegc::guard::pending_table_services,
                     lakegc::scope::incremental, lakegc::scope::partition_filter{{"region=eu"}, ""});
