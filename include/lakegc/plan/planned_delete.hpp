// File: lakegc/plan/planned_delete.hpp
// -----------------------------------------------------------------------------
// One file a clean plan deletes, and why.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

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

/// A planned file's name: a view of text someone else keeps (PlannedDelete
/// says who). It cannot be made from a temporary std::string, whose text
/// would be gone before the plan copied it: a plan naming garbage would
/// delete the wrong file.
class PlannedName : public std::string_view {
 public:
  constexpr PlannedName() noexcept = default;
  constexpr PlannedName(std::string_view s) noexcept : std::string_view(s) {}  // NOLINT(google-explicit-constructor)
  constexpr PlannedName(const char* s) : std::string_view(s) {}                // NOLINT(google-explicit-constructor)
  PlannedName(const std::string& s) noexcept : std::string_view(s) {}          // NOLINT(google-explicit-constructor)
  PlannedName(std::string&&) = delete;
};

/// A planned file. Its name is a view: of text the PlannedFiles holding it
/// keeps alive (its own copy, or the names of the TableView it was planned
/// from: PlannedFiles::hold). A PlannedDelete made outside a plan views
/// text its maker keeps; push, emplace and add copy that text into the plan.
struct PlannedDelete {
  PlannedName name;  // file name inside its partition
  std::uint64_t size = 0;
  DeleteReason reason = DeleteReason::older_than_boundary;
  InstantTime slice;  // base instant of the slice the file belongs to
  friend bool operator==(const PlannedDelete&, const PlannedDelete&) = default;
};

}  // namespace lakegc
