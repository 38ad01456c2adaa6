// File: lakegc/sim/promise.hpp
// -----------------------------------------------------------------------------
// A policy's promise, as code: which snapshots it promises to keep readable
// at the moment it plans a clean. The checkers hold the policy to this, not
// to a hand-tuned expectation.
//
// The promise is derived from what the rule decided (its Retention), so a
// user-written rule gets a promise too:
//
// * boundary rules (keep_latest_commits, keep_by_hours) with an earliest
//   commit to retain E: every completed-commit snapshot at or after E, the
//   newest completed snapshot before E (what a query pinned just before E
//   reads), and the latest snapshot. Commits that complete later at or after
//   E are covered as well;
// * a boundary rule without E yet ("nothing to clean"): every snapshot;
// * version rules (keep_latest_file_versions): only the latest snapshot.
//   They keep N slices per file group, which promises no point in time;
// * any_of(boundary, versions) promises what the boundary promises;
//   all_of(...) only the latest snapshot;
// * reader leases (guard::reader_leases): every leased snapshot, for every
//   plan made while the lease is held.
//
// The flag Retention::keep_newest_before_boundary does not change the
// promise: it reproduces a bug (Hudi 8584), and the promise is what the rule
// owes its users.
//
// Pending table services are promised their input regardless of policy: a
// compaction or clustering that was scheduled must find its input slices.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/timeline.hpp"
#include "lakegc/policy/retention.hpp"

namespace lakegc::sim {

enum class PromiseKind : std::uint8_t { everything, boundary, latest };

struct Promise {
  PromiseKind kind = PromiseKind::everything;
  std::optional<InstantTime> ectr;
  /// Newest completed commit requested before `ectr` when the promise was made.
  std::optional<InstantTime> newest_before;
  /// Newest completed commit (by requested time) when the promise was made.
  std::optional<InstantTime> latest;
  /// Snapshots leased by readers when the plan was made (sorted, unique).
  std::vector<InstantTime> leases;
  std::int64_t made_at_ms = 0;

  /// True when the snapshot of the completed commit requested at `t` is
  /// promised.
  bool covers(const InstantTime& t) const {
    if (kind == PromiseKind::everything) return true;
    if (latest && t == *latest) return true;
    if (std::binary_search(leases.begin(), leases.end(), t)) return true;
    if (kind == PromiseKind::latest) return false;
    return (ectr && t >= *ectr) || (newest_before && t == *newest_before);
  }

  std::string describe() const {
    switch (kind) {
      case PromiseKind::everything: return "every snapshot";
      case PromiseKind::latest:
        return fmt::format("latest snapshot {}{}", latest ? latest->str() : "-",
                           leases.empty() ? std::string() : fmt::format(" + {} lease(s)", leases.size()));
      case PromiseKind::boundary:
        return fmt::format("snapshots >= {} + newest before it ({}) + latest{}", ectr ? ectr->str() : "-",
                           newest_before ? newest_before->str() : "-",
                           leases.empty() ? std::string() : fmt::format(" + {} lease(s)", leases.size()));
    }
    return "?";
  }
};

/// The promise of a plan made with retention `r` over `tl`, while readers
/// held `leases`.
inline Promise make_promise(const Retention& r, const Timeline& tl, std::vector<InstantTime> leases,
                            std::int64_t now_ms) {
  Promise p;
  p.made_at_ms = now_ms;
  std::sort(leases.begin(), leases.end());
  leases.erase(std::unique(leases.begin(), leases.end()), leases.end());
  p.leases = std::move(leases);
  const auto commits = tl.completed_commits();
  if (!commits.empty()) p.latest = commits.back()->requested;
  const bool boundary_counts = r.has_boundary && (!r.versions || r.keep_if_either);
  if (r.has_boundary && !r.ectr && boundary_counts) {
    p.kind = PromiseKind::everything;
  } else if (boundary_counts && r.ectr) {
    p.kind = PromiseKind::boundary;
    p.ectr = r.ectr;
    for (const Instant* c : commits) {
      if (c->requested < *r.ectr) p.newest_before = c->requested;
    }
  } else {
    p.kind = PromiseKind::latest;
  }
  return p;
}

/// The promised snapshots among the completed commits of `tl`.
inline std::vector<InstantTime> promised_snapshots(const Promise& p, const Timeline& tl) {
  std::vector<InstantTime> out;
  for (const Instant* c : tl.completed_commits()) {
    if (p.covers(c->requested)) out.push_back(c->requested);
  }
  return out;
}

}  // namespace lakegc::sim
