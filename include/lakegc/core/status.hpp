// File: lakegc/core/status.hpp
// -----------------------------------------------------------------------------
// Error plumbing shared by every header. lakegc reports expected failures
// (bad input, storage errors, refusals) as absl::Status / absl::StatusOr and
// never lets an exception cross its public API.
//
// Debian 12's Abseil (20220623) has no RETURN_IF_ERROR / ASSIGN_OR_RETURN, so
// the two macros below stand in for them.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include <absl/status/status.h>
#include <absl/status/statusor.h>
#include <absl/strings/string_view.h>

namespace lakegc {

using absl::Status;
using absl::StatusOr;

namespace detail {
// absl::string_view is not std::string_view in Debian's Abseil
// (ABSL_OPTION_USE_STD_STRING_VIEW=0), so convert explicitly at the edges.
inline absl::string_view to_absl(std::string_view s) noexcept { return {s.data(), s.size()}; }
inline std::string_view to_std(absl::string_view s) noexcept { return {s.data(), s.size()}; }
}  // namespace detail

/// The message of `s` as a std::string_view (empty for OK).
inline std::string_view message_of(const Status& s) noexcept { return detail::to_std(s.message()); }

/// Returns `s` with `context` prepended to its message ("context: message"),
/// keeping the code. Used to add the file or key that an error concerns.
[[nodiscard]] inline Status annotate(const Status& s, std::string_view context) {
  if (s.ok()) return s;
  std::string msg(context);
  msg += ": ";
  msg += message_of(s);
  return Status(s.code(), msg);
}

}  // namespace lakegc

#define LAKEGC_CONCAT_INNER_(a, b) a##b
#define LAKEGC_CONCAT_(a, b) LAKEGC_CONCAT_INNER_(a, b)

/// Evaluates `expr` (an absl::Status) and returns it from the enclosing
/// function when it is not OK.
#define LAKEGC_RETURN_IF_ERROR(expr)                 \
  do {                                               \
    ::absl::Status lakegc_status_ = (expr);          \
    if (!lakegc_status_.ok()) return lakegc_status_; \
  } while (false)

/// `LAKEGC_ASSIGN_OR_RETURN(auto x, f());` assigns the value of an
/// absl::StatusOr or returns its status from the enclosing function.
#define LAKEGC_ASSIGN_OR_RETURN(lhs, expr) \
  LAKEGC_ASSIGN_OR_RETURN_IMPL_(LAKEGC_CONCAT_(lakegc_statusor_, __LINE__), lhs, expr)
#define LAKEGC_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                  \
  if (!tmp.ok()) return std::move(tmp).status();      \
  lhs = std::move(tmp).value()
