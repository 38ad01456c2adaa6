// File: lakegc/lakegc.hpp
// -----------------------------------------------------------------------------
// The policy library in one include: the table model, the Storage concept and
// its models, cleaning policies, planners and executors (every header of
// core/, storage/, policy/, plan/ and exec/ but the inventory reader). It
// needs Boost.Hana, fmt and Abseil only (Meson: dependency('lakegc-core')).
// The Hudi adapter and the inventory reader, which also need simdjson and
// zlib, are in lakegc/hudi.hpp (Meson: dependency('lakegc')).
// tests/static/headers_test.py checks that nothing here reaches them.
// Including only what you use builds faster.
#pragma once

#include "lakegc/core/duration.hpp"
#include "lakegc/core/file_name.hpp"
#include "lakegc/core/human_bytes.hpp"
#include "lakegc/core/instant.hpp"
#include "lakegc/core/instant_time.hpp"
#include "lakegc/core/json_writer.hpp"
#include "lakegc/core/load_view.hpp"
#include "lakegc/core/status.hpp"
#include "lakegc/core/table_metadata.hpp"
#include "lakegc/core/table_view.hpp"
#include "lakegc/core/timeline.hpp"
#include "lakegc/storage/crash_storage.hpp"
#include "lakegc/storage/memory_storage.hpp"
#include "lakegc/storage/path.hpp"
#include "lakegc/storage/posix_storage.hpp"
#include "lakegc/storage/storage.hpp"
#include "lakegc/policy/archive_config.hpp"
#include "lakegc/policy/cleaning.hpp"
#include "lakegc/policy/config.hpp"
#include "lakegc/policy/guards.hpp"
#include "lakegc/policy/retention.hpp"
#include "lakegc/policy/scope.hpp"
#include "lakegc/policy/ttl_config.hpp"
#include "lakegc/policy/write_maintenance.hpp"
#include "lakegc/plan/advise.hpp"
#include "lakegc/plan/archive_keep_counts.hpp"
#include "lakegc/plan/clean_plan.hpp"
#include "lakegc/plan/planned_delete.hpp"
#include "lakegc/plan/planned_files.hpp"
#include "lakegc/plan/clean_scope.hpp"
#include "lakegc/plan/clean_trigger.hpp"
#include "lakegc/plan/clean_verdict.hpp"
#include "lakegc/plan/java_hash_order.hpp"
#include "lakegc/plan/listing_check.hpp"
#include "lakegc/plan/partition_creation.hpp"
#include "lakegc/plan/plan_archive.hpp"
#include "lakegc/plan/plan_clean.hpp"
#include "lakegc/plan/plan_orphans.hpp"
#include "lakegc/plan/plan_rollback.hpp"
#include "lakegc/plan/plan_ttl.hpp"
#include "lakegc/plan/ttl_expiry.hpp"
#include "lakegc/exec/clean_executor.hpp"
#include "lakegc/exec/clean_report.hpp"
#include "lakegc/exec/clean_service.hpp"
#include "lakegc/exec/completed_clean.hpp"
#include "lakegc/exec/delete_tally.hpp"
#include "lakegc/exec/journal.hpp"
#include "lakegc/exec/memory_journal.hpp"
#include "lakegc/exec/orphan_executor.hpp"
#include "lakegc/exec/prewrite.hpp"
#include "lakegc/exec/rollback_executor.hpp"
#include "lakegc/exec/table_lock.hpp"
