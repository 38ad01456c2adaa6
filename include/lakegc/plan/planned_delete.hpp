// File: lakegc/plan/planned_delete.hpp
// -----------------------------------------------------------------------------
// One file a clean plan deletes, and why.
#pragma once

#include <cstdint>
#include <string_view>

#include "lakegc/core/inline_name.hpp"
#include "lakegc/core/instant_time.hpp"

namespace lakegc {

/// Why a file may go.
enum class DeleteReason : std::uint8_t {
  /// A slice older than the boundary that is neither the latest slice nor the
  /// newest one before the boundary.
  older_than_boundary,
  /// Beyond the newest N versions of its file group.
  beyond_versions,
  /// Its file group was replaced by a replacecommit the policy no longer
  /// needs to read through.
  replaced_group,
};

constexpr std::string_view to_string(DeleteReason r) noexcept {
  switch (r) {
    case DeleteReason::older_than_boundary: return "older_than_boundary";
    case DeleteReason::beyond_versions: return "beyond_versions";
    case DeleteReason::replaced_group: return "replaced_group";
  }
  return "?";
}

struct PlannedDelete {
  InlineName name;  // file name inside its partition (held in place: see inline_name.hpp)
  std::uint64_t size = 0;
  DeleteReason reason = DeleteReason::older_than_boundary;
  InstantTime slice;  // base instant of the slice the file belongs to
  friend bool operator==(const PlannedDelete&, const PlannedDelete&) = default;
};

}  // namespace lakegc
