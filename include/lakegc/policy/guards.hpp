// File: lakegc/policy/guards.hpp
// -----------------------------------------------------------------------------
// Guards only veto deletions; they never add any.
//
// * guard::savepoints: a slice whose base file or any log file a savepoint
//   names stays (Hudi compares file names).
// * guard::pending_table_services: every slice at or after the base instant
//   of a pending compaction or log compaction stays, keep_latest_file_versions
//   counts those slices as one retained version, keep_latest_commits
//   never moves its boundary past a pending write or table service, and a
//   slice holding a file a pending write's markers name stays (beyond Hudi:
//   the write may still be appending to it).
// * guard::reader_leases: beyond Hudi. Readers register the snapshot they
//   read (CleanContext::leases); the slice each leased snapshot reads in
//   every file group stays until the lease is released. Hudi has no reader
//   leases (issue 5020): a query longer than the retention window fails.
//
// SliceGuard concept (user-written guards)
// ----------------------------------------
// A type G models SliceGuard when `G::is_slice_guard` is `true` and, for
// `const G g` and `const SliceGuardContext c`, `g.protects(c)` is convertible
// to bool: true keeps the slice. It must be a pure function of its input.
// Minimal complete definition: `is_slice_guard`, `protects`.
#pragma once

#include <concepts>
#include <vector>

#include "lakegc/core/table_view.hpp"

namespace lakegc {

namespace guard {
struct savepoints_t {
  static constexpr bool is_builtin_guard = true;
};
struct pending_table_services_t {
  static constexpr bool is_builtin_guard = true;
};
struct reader_leases_t {
  static constexpr bool is_builtin_guard = true;
};
inline constexpr savepoints_t savepoints{};
inline constexpr pending_table_services_t pending_table_services{};
inline constexpr reader_leases_t reader_leases{};
}  // namespace guard

/// Says that a policy leaves out the savepoint or pending-table-service
/// guard on purpose. Without it, `lakegc::cleaning` refuses such a policy.
struct unguarded_t {};
inline constexpr unguarded_t unguarded{};

/// What a user guard sees about one slice the planner would delete.
struct SliceGuardContext {
  const TableView& view;
  const Partition& partition;
  const FileGroup& group;
  const FileSlice& slice;
};

template <typename G>
concept SliceGuard = G::is_slice_guard && requires(const G& g, const SliceGuardContext& c) {
  { g.protects(c) } -> std::convertible_to<bool>;
};

/// The built-in guards a policy carries, as runtime flags for the planner.
struct GuardFlags {
  bool savepoints = false;
  bool pending_table_services = false;
  bool reader_leases = false;
};

}  // namespace lakegc
