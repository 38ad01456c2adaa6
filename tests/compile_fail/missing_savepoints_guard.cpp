// Must not compile: no savepoint guard and no lakegc::unguarded to say so.
#include "lakegc/policy/cleaning.hpp"

auto policy = lakegc::cleaning(lakegc::keep_latest_commits{10}, lakegc::guard::pending_table_services);
