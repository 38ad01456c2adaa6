// File: lakegc/policy/write_maintenance.hpp
// -----------------------------------------------------------------------------
// What a writer does about garbage before it starts a write
// (hudi-semantics.md sections 8 and 12), read from Hudi properties:
//
//   hoodie.clean.failed.writes.policy     EAGER (default) | LAZY | NEVER
//     (legacy hoodie.cleaner.policy.failed.writes)
//   hoodie.client.heartbeat.interval_in_ms      60000
//   hoodie.client.heartbeat.tolerable.misses    2
//   hoodie.prewrite.cleaner.policy        NONE (default) | CLEAN | ROLLBACK_FAILED_WRITES
//
// EAGER rolls back every other pending write at the start of each write,
// whatever the pre-write policy. LAZY rolls back only expired writes, and
// only inside a clean or a pre-write step. exec/prewrite.hpp runs it.
#pragma once

#include <cstdint>
#include <string_view>

#include "lakegc/plan/plan_rollback.hpp"
#include "lakegc/policy/config.hpp"

namespace lakegc {

enum class PrewritePolicy : std::uint8_t { none, clean, rollback_failed_writes };

constexpr std::string_view to_string(PrewritePolicy p) noexcept {
  return p == PrewritePolicy::none ? "NONE" : p == PrewritePolicy::clean ? "CLEAN" : "ROLLBACK_FAILED_WRITES";
}

struct WriteMaintenance {
  PrewritePolicy prewrite = PrewritePolicy::none;
  RollbackOptions rollback;
};

namespace config {

/// Reads the failed-writes, heartbeat and pre-write keys; a bad value is an
/// error naming its key. Other keys are ignored (from_properties checks the
/// hoodie.clean.* family).
inline StatusOr<WriteMaintenance> write_maintenance_from_properties(const Properties& props) {
  detail::KeyLookup keys{props, {}};
  WriteMaintenance out;
  if (auto p = keys.get("hoodie.clean.failed.writes.policy", "hoodie.cleaner.policy.failed.writes")) {
    const std::string& v = p->second;
    if (v == "EAGER") {
      out.rollback.policy = FailedWritesPolicy::eager;
    } else if (v == "LAZY") {
      out.rollback.policy = FailedWritesPolicy::lazy;
    } else if (v == "NEVER") {
      out.rollback.policy = FailedWritesPolicy::never;
    } else {
      return absl::InvalidArgumentError(fmt::format("{}={}: expected EAGER, LAZY or NEVER", p->first, v));
    }
  }
  if (auto i = keys.get("hoodie.client.heartbeat.interval_in_ms")) {
    LAKEGC_ASSIGN_OR_RETURN(out.rollback.heartbeat_interval_ms,
                            detail::parse_int(*i, 1, "a whole number of milliseconds >= 1"));
  }
  if (auto m = keys.get("hoodie.client.heartbeat.tolerable.misses")) {
    LAKEGC_ASSIGN_OR_RETURN(out.rollback.tolerable_misses, detail::parse_int(*m, 0, "a whole number >= 0"));
  }
  if (auto p = keys.get("hoodie.prewrite.cleaner.policy")) {
    const std::string& v = p->second;
    if (v == "NONE") {
      out.prewrite = PrewritePolicy::none;
    } else if (v == "CLEAN") {
      out.prewrite = PrewritePolicy::clean;
    } else if (v == "ROLLBACK_FAILED_WRITES") {
      out.prewrite = PrewritePolicy::rollback_failed_writes;
    } else {
      return absl::InvalidArgumentError(
          fmt::format("{}={}: expected NONE, CLEAN or ROLLBACK_FAILED_WRITES", p->first, v));
    }
  }
  return out;
}

}  // namespace config
}  // namespace lakegc
