// Must not compile: no pending-table-service guard and no lakegc::unguarded.
#include "lakegc/policy/cleaning.hpp"

auto policy = lakegc::cleaning(lakegc::keep_latest_commits{10}, lakegc::guard::savepoints);
