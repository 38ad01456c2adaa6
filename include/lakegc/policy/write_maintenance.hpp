// File: lakegc/policy/write_maintenance.hpp
// -----------------------------------------------------------------------------
// What a writer does about garbage before it starts a write
// (docs/hudi-rules.md §8 and §11), read from Hudi properties:
//
//   hoodie.clean.failed.writes.policy     EAGER (default) | LAZY | NEVER
//     (legacy hoodie.cleaner.policy.failed.writes)
//   hoodie.client.heartbeat.interval_in_ms      60000
//   hoodie.client.heartbeat.tolerable.misses    2
//   hoodie.prewrite.cleaner.policy        NONE (default) | CLEAN | ROLLBACK_FAILED_WRITES
//   hoodie.write.concurrency.mode         SINGLE_WRITER (default) |
//                                         OPTIMISTIC_CONCURRENCY_CONTROL |
//                                         NON_BLOCKING_CONCURRENCY_CONTROL
//
// With a multi-writer concurrency mode the failed-writes policy is LAZY
// whatever else is set, as Hudi forces it (HoodieWriteConfig): EAGER would
// roll back, and delete the files of, another writer's running commit.
//
// EAGER rolls back every other pending write at the start of each write,
// whatever the pre-write policy. LAZY rolls back only expired writes, and
// only inside a clean or a pre-write step. exec/prewrite.hpp runs it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <absl/strings/ascii.h>

#include "lakegc/plan/plan_rollback.hpp"
#include "lakegc/policy/config.hpp"

namespace lakegc {

enum class PrewritePolicy : std::uint8_t { none, clean, rollback_failed_writes };

constexpr std::string_view to_string(PrewritePolicy p) noexcept {
  return p == PrewritePolicy::none ? "NONE" : p == PrewritePolicy::clean ? "CLEAN" : "ROLLBACK_FAILED_WRITES";
}

enum class ConcurrencyMode : std::uint8_t { single_writer, optimistic, non_blocking };

/// True for the modes where several writers run at once.
constexpr bool is_multi_writer(ConcurrencyMode m) noexcept { return m != ConcurrencyMode::single_writer; }

struct WriteMaintenance {
  PrewritePolicy prewrite = PrewritePolicy::none;
  RollbackOptions rollback;
  ConcurrencyMode concurrency = ConcurrencyMode::single_writer;

  /// The failed-writes policy that applies: LAZY under a multi-writer mode,
  /// whatever `rollback.policy` says (the one place this rule lives).
  FailedWritesPolicy failed_writes_policy() const noexcept {
    return is_multi_writer(concurrency) ? FailedWritesPolicy::lazy : rollback.policy;
  }
  /// `rollback` with failed_writes_policy() applied.
  RollbackOptions effective_rollback() const {
    RollbackOptions r = rollback;
    r.policy = failed_writes_policy();
    return r;
  }
};

namespace config {

/// Reads the failed-writes, heartbeat and pre-write keys; a bad value is an
/// error naming its key. Other keys are ignored (from_properties checks the
/// hoodie.clean.* family).
[[nodiscard]] inline StatusOr<WriteMaintenance> write_maintenance_from_properties(const Properties& props) {
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
  if (auto m = keys.get("hoodie.write.concurrency.mode")) {
    // Hudi reads the enum name case-insensitively.
    const std::string v = absl::AsciiStrToUpper(m->second);
    if (v == "SINGLE_WRITER") {
      out.concurrency = ConcurrencyMode::single_writer;
    } else if (v == "OPTIMISTIC_CONCURRENCY_CONTROL") {
      out.concurrency = ConcurrencyMode::optimistic;
    } else if (v == "NON_BLOCKING_CONCURRENCY_CONTROL") {
      out.concurrency = ConcurrencyMode::non_blocking;
    } else {
      return absl::InvalidArgumentError(fmt::format(
          "{}={}: expected SINGLE_WRITER, OPTIMISTIC_CONCURRENCY_CONTROL or NON_BLOCKING_CONCURRENCY_CONTROL", m->first,
          m->second));
    }
  }
  out.rollback = out.effective_rollback();
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
