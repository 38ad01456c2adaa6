// The umbrella headers compile on their own, and with them every public header.
#include "lakegc/hudi.hpp"

static_assert(lakegc::Storage<lakegc::memory_storage>);
static_assert(lakegc::Journal<lakegc::hudi::journal<lakegc::posix_storage>>);
static_assert(lakegc::RollbackJournal<lakegc::memory_journal>);
