// Must not compile: two retention rules side by side (combine them with
// any_of / all_of instead).
#include "lakegc/policy/cleaning.hpp"

auto policy = lakegc::cleaning(lakegc::keep_latest_commits{10}, lakegc::keep_by_hours{24}, lakegc::guard::savepoints,
                               lakegc::guard::pending_table_services);
