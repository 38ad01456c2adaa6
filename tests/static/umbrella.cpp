// The umbrella header compiles on its own, and with it every public header.
#include "lakegc/lakegc.hpp"

static_assert(lakegc::Storage<lakegc::memory_storage>);
static_assert(lakegc::Journal<lakegc::hudi::journal<lakegc::posix_storage>>);
static_assert(lakegc::RollbackJournal<lakegc::memory_journal>);
