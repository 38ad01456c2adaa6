// Must not compile: a policy without a retention rule.
#include "lakegc/policy/cleaning.hpp"

auto policy = lakegc::cleaning(lakegc::guard::savepoints, lakegc::guard::pending_table_services);
