// File: lakegc/lakegc.hpp
// -----------------------------------------------------------------------------
// The public headers of lakegc in one include.
#pragma once

#include "lakegc/core/file_name.hpp"
#include "lakegc/core/instant.hpp"
#include "lakegc/core/instant_time.hpp"
#include "lakegc/core/status.hpp"
#include "lakegc/core/table_view.hpp"
#include "lakegc/core/timeline.hpp"
