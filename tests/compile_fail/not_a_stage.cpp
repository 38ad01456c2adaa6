// Must not compile: 42 is neither a rule, a guard, a scope nor unguarded.
#include "lakegc/policy/cleaning.hpp"

auto policy = lakegc::cleaning(lakegc::keep_latest_commits{10}, lakegc::guard::savepoints,
                               lakegc::guard::pending_table_services, 42);
