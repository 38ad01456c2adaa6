// Must not compile: a file-versions rule inside a combinator is still a
// file-versions rule.
#include "lakegc/policy/cleaning.hpp"

auto policy =
    lakegc::cleaning(lakegc::any_of(lakegc::keep_latest_commits{10}, lakegc::keep_latest_file_versions{3}),
                     lakegc::guard::savepoints, lakegc::guard::pending_table_services, lakegc::scope::incremental);
