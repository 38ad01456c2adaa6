// Must not compile: keep_latest_file_versions has no boundary for an
// incremental clean to start from.
#include "lakegc/policy/cleaning.hpp"

auto policy = lakegc::cleaning(lakegc::keep_latest_file_versions{3}, lakegc::guard::savepoints,
                               lakegc::guard::pending_table_services, lakegc::scope::incremental);
