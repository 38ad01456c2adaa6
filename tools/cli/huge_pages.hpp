// File: tools/cli/huge_pages.hpp
// -----------------------------------------------------------------------------
// The tool restarts itself once with glibc's malloc asking the kernel for
// transparent huge pages (GLIBC_TUNABLES=glibc.malloc.hugetlb=1). Loading a
// table of a million files allocates hundreds of MB in small pieces; on 4 KiB
// pages every first touch is a page fault, and on a virtual machine a fault
// costs about 10 us: a third of `lakegc plan clean`'s time on such a table
// was the kernel's (bench/README.md, "Huge pages"). glibc reads its tunables
// only when a process starts, so setting the variable from main is too late
// for this process: the tool sets it and executes itself again. The kernel
// must allow huge pages on request (transparent_hugepage "madvise" or
// "always", the default of most distributions); otherwise nothing changes.
// LAKEGC_HUGE_PAGES=0 turns the restart off.
#pragma once

#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include <unistd.h>

namespace lakegc::cli {

inline constexpr std::string_view kHugePagesTunable = "glibc.malloc.hugetlb=1";

/// The GLIBC_TUNABLES to restart with, given the current value and
/// LAKEGC_HUGE_PAGES (either may be null); nullopt when no restart is due:
/// turned off, or the tunable already set (by the user, or by the restart
/// itself, which keeps it from restarting again).
inline std::optional<std::string> tunables_for_huge_pages(const char* current, const char* switch_value) {
  if (switch_value != nullptr && std::string_view(switch_value) == "0") return std::nullopt;
  const std::string_view now = current == nullptr ? std::string_view() : std::string_view(current);
  if (now.find("glibc.malloc.hugetlb") != std::string_view::npos) return std::nullopt;
  std::string out(now);
  if (!out.empty()) out += ':';
  out += kHugePagesTunable;
  return out;
}

/// Executes this program again with huge pages asked for, when due. Returns
/// only when no restart is due or it could not be made (no /proc, say):
/// then the tool runs on as it is.
inline void restart_with_huge_pages(char** argv) {
  const char* current = std::getenv("GLIBC_TUNABLES");
  const std::optional<std::string> tunables = tunables_for_huge_pages(current, std::getenv("LAKEGC_HUGE_PAGES"));
  if (!tunables) return;
  const std::optional<std::string> before = current == nullptr ? std::nullopt : std::optional<std::string>(current);
  if (::setenv("GLIBC_TUNABLES", tunables->c_str(), 1) != 0) return;
  ::execv("/proc/self/exe", argv);
  // Still here: the restart failed; leave the environment as it was.
  if (before) {
    ::setenv("GLIBC_TUNABLES", before->c_str(), 1);
  } else {
    ::unsetenv("GLIBC_TUNABLES");
  }
}

}  // namespace lakegc::cli
