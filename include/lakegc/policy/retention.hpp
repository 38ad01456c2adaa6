// File: lakegc/policy/retention.hpp
// -----------------------------------------------------------------------------
// Retention rules: which file slices a cleaning policy keeps.
//
// Hudi's rules come in two shapes, and lakegc reduces every rule to one
// value of type `Retention` before planning:
//
// * boundary rules compute an *earliest commit to retain* (ECTR). In every
//   live file group the latest slice and the newest slice before the ECTR
//   stay, and older slices go (keep_latest_commits, keep_by_hours);
// * version rules keep the newest N slices of every file group
//   (keep_latest_file_versions).
//
// `any_of(a, b)` keeps what either rule keeps (e.g. 10 commits *and* at least
// 24 hours); `all_of(a, b)` keeps only what both keep.
//
// RetentionRule concept
// ---------------------
// A type R models RetentionRule when, for `const R r` and
// `const RetentionContext ctx`:
//
//   1. `r.retention(ctx)` returns a `Retention`: the rule's decision for this
//      planning run. It must be a pure function of ctx (no clock, no I/O),
//      because the simulator replays runs from a seed.
//   2. `R::hudi_name()` returns the name written into plans
//      (`KEEP_LATEST_COMMITS`, ...), or any descriptive name for a
//      user-written rule.
//   3. `R::is_retention_rule` is a constant `true`: an explicit opt-in, so a
//      type that happens to have a `retention` member is not taken for a
//      rule by `lakegc::cleaning`.
//
// Minimal complete definition: `retention`, `hudi_name`, `is_retention_rule`.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include "lakegc/core/table_metadata.hpp"

namespace lakegc {

/// Inputs a rule may look at. `now_ms` is injected (never read from a
/// clock) so policies are pure functions of table state and time.
struct RetentionContext {
  const TableMetadata& metadata;
  std::int64_t now_ms = 0;
  /// hoodie.clean.max.commits.to.clean: how far one run may advance the
  /// boundary past the previous clean's (0 = unlimited).
  std::uint64_t max_commits_to_clean = 0;
  /// The pending-instant clamp of keep_latest_commits is one of Hudi's
  /// protections for pending table services; a policy built without that
  /// guard (lakegc::unguarded) drops it too.
  bool clamp_to_pending = true;
};

/// A rule's decision, normalised.
struct Retention {
  /// A boundary rule is present: slices older than `ectr` may go, except the
  /// newest one before it. `ectr` empty with `has_boundary` means "nothing
  /// to clean yet" (too few commits, idle table).
  bool has_boundary = false;
  std::optional<InstantTime> ectr;
  /// A version rule is present: keep this many slices per file group.
  std::optional<std::uint32_t> versions;
  /// With both present: true keeps a slice when either keeps it (any_of),
  /// false when both keep it (all_of).
  bool keep_if_either = true;
  /// Keep the newest slice before the boundary (the one a query pinned just
  /// before it reads). Always true for lakegc's rules; false reproduces the
  /// pre-0.14.1 KEEP_LATEST_BY_HOURS bug (Hudi issue 8584), which the
  /// simulator's canaries use to prove their checkers can fail.
  bool keep_newest_before_boundary = true;
  /// Keep the boundary from passing a replacecommit whose replaced files a
  /// guard other than savepoints kept (plan_clean). Always true for
  /// lakegc's rules; false is the simulator's canary for it: a boundary
  /// past such a replacecommit lets Hudi's archiver archive it, and the
  /// replaced group reads as live again.
  bool clamp_to_guarded_replaces = true;
};

template <typename R>
concept RetentionRule = requires(const R& r, const RetentionContext& ctx) {
  { r.retention(ctx) } -> std::same_as<Retention>;
  { R::hudi_name() } -> std::convertible_to<std::string>;
  requires R::is_retention_rule;
};

namespace detail {

// Index of the first completed commit whose requested time is >= t.
inline std::size_t first_commit_at_or_after(const Timeline& tl, const InstantTime& t) {
  const auto commits = tl.completed_commits();
  return static_cast<std::size_t>(
      std::lower_bound(commits.begin(), commits.end(), t,
                       [](const Instant* i, const InstantTime& v) { return i->requested < v; }) -
      commits.begin());
}

// hoodie.clean.max.commits.to.clean: ECTR := min(ECTR, C[index(prev) + max]).
inline std::optional<InstantTime> apply_cap(const RetentionContext& ctx, std::optional<InstantTime> ectr) {
  const auto& prev = ctx.metadata.last_completed_clean;
  if (!ectr || ctx.max_commits_to_clean == 0 || !prev || !prev->earliest_commit_to_retain) return ectr;
  const Timeline& tl = ctx.metadata.timeline;
  const auto commits = tl.completed_commits();
  const std::size_t from = first_commit_at_or_after(tl, *prev->earliest_commit_to_retain);
  const std::size_t capped =
      from + static_cast<std::size_t>(std::min<std::uint64_t>(ctx.max_commits_to_clean, commits.size()));
  if (capped >= commits.size()) return ectr;
  return std::min(*ectr, commits[capped]->requested);
}

// The decision of a boundary rule.
inline Retention boundary(std::optional<InstantTime> ectr) {
  Retention r;
  r.has_boundary = true;
  r.ectr = ectr;
  return r;
}

}  // namespace detail

/// KEEP_LATEST_COMMITS: retain the last `commits` completed commits
/// (deltacommits and replacecommits count) and the newest slice before them.
/// `commits` 0 keeps everything (never cleans), as in Hudi.
struct keep_latest_commits {
  static constexpr bool is_retention_rule = true;
  std::uint32_t commits = 10;

  static std::string hudi_name() { return "KEEP_LATEST_COMMITS"; }

  Retention retention(const RetentionContext& ctx) const { return detail::boundary(earliest_commit_to_retain(ctx)); }

  std::optional<InstantTime> earliest_commit_to_retain(const RetentionContext& ctx) const {
    // Hudi: the window start is the (count - retained)-th completed commit,
    // which does not exist when retained is 0 (nthInstant(count) is empty),
    // so 0 never cleans. It must never mean "keep 1".
    if (commits == 0) return std::nullopt;
    const Timeline& tl = ctx.metadata.timeline;
    const auto completed = tl.completed_commits();
    if (completed.size() <= commits) return std::nullopt;
    // The window holds exactly `commits` completed commits. Hudi counts
    // them in timeline order; lakegc also looks at completion order and
    // takes the earlier of the two candidates: with concurrent writers the
    // N-th from last by completion can have an older requested time, and
    // keeping more is the safe side of that ambiguity (docs/hudi-rules.md
    // section 0.1, "ordering caveat", not confirmed).
    InstantTime cand = completed[completed.size() - commits]->requested;
    const auto by_completion = tl.completed_commits_by_completion();
    for (std::size_t i = by_completion.size() - commits; i < by_completion.size(); ++i) {
      cand = std::min(cand, by_completion[i]->requested);
    }
    // Never pass the earliest pending write, compaction or clustering: a
    // commit that completes late still falls in a later incremental window.
    if (ctx.clamp_to_pending && !tl.pending_writes().empty()) {
      const InstantTime first_pending = tl.pending_writes().front()->requested;
      if (cand > first_pending) {
        std::optional<InstantTime> clamped;
        for (const Instant* c : completed) {
          if (c->requested < first_pending) clamped = c->requested;
        }
        if (!clamped) return std::nullopt;
        cand = *clamped;
      }
    }
    return detail::apply_cap(ctx, cand);
  }
};

/// KEEP_LATEST_FILE_VERSIONS: keep the newest `versions` slices of every file
/// group; replaced groups go at once. No time guarantee.
struct keep_latest_file_versions {
  static constexpr bool is_retention_rule = true;
  std::uint32_t versions = 3;

  static std::string hudi_name() { return "KEEP_LATEST_FILE_VERSIONS"; }

  Retention retention(const RetentionContext&) const {
    Retention r;
    r.versions = std::max<std::uint32_t>(versions, 1);
    return r;
  }
};

/// KEEP_LATEST_BY_HOURS: the boundary is the first completed commit
/// requested at or after now - hours, in the table's timezone. An idle table
/// (no commit newer than the cutoff) is not cleaned. Since Hudi 0.14.1 the
/// newest slice before the boundary stays (issue 8584).
struct keep_by_hours {
  static constexpr bool is_retention_rule = true;
  std::uint32_t hours = 24;

  static std::string hudi_name() { return "KEEP_LATEST_BY_HOURS"; }

  Retention retention(const RetentionContext& ctx) const { return detail::boundary(earliest_commit_to_retain(ctx)); }

  std::optional<InstantTime> earliest_commit_to_retain(const RetentionContext& ctx) const {
    const Timeline& tl = ctx.metadata.timeline;
    const InstantTime cutoff =
        InstantTime::from_epoch_ms(ctx.now_ms - static_cast<std::int64_t>(hours) * 3'600'000, ctx.metadata.timezone);
    const auto commits = tl.completed_commits();
    const std::size_t i = detail::first_commit_at_or_after(tl, cutoff);
    if (i >= commits.size()) return std::nullopt;
    return detail::apply_cap(ctx, commits[i]->requested);
  }
};

namespace detail {
// Folds two retentions. Boundaries: any_of keeps more with the earlier ECTR
// (an absent ECTR keeps everything); all_of with the later. Versions: any_of
// keeps the larger count, all_of the smaller. A boundary and a version rule
// stay side by side and combine per slice.
inline Retention combine(const Retention& a, const Retention& b, bool either) {
  Retention r;
  r.keep_if_either = either;
  r.keep_newest_before_boundary = a.keep_newest_before_boundary && b.keep_newest_before_boundary;
  r.clamp_to_guarded_replaces = a.clamp_to_guarded_replaces && b.clamp_to_guarded_replaces;
  r.has_boundary = a.has_boundary || b.has_boundary;
  if (a.has_boundary && b.has_boundary) {
    if (either) {
      r.ectr = (a.ectr && b.ectr) ? std::optional(std::min(*a.ectr, *b.ectr)) : std::nullopt;
    } else {
      r.ectr = !a.ectr ? b.ectr : !b.ectr ? a.ectr : std::optional(std::max(*a.ectr, *b.ectr));
    }
  } else {
    r.ectr = a.has_boundary ? a.ectr : b.ectr;
  }
  if (a.versions && b.versions) {
    r.versions = either ? std::max(*a.versions, *b.versions) : std::min(*a.versions, *b.versions);
  } else {
    r.versions = a.versions ? a.versions : b.versions;
  }
  // A nested mix of any_of and all_of over both kinds cannot be expressed
  // by one flag; keep the side that keeps more.
  if ((a.has_boundary && a.versions && a.keep_if_either != either) ||
      (b.has_boundary && b.versions && b.keep_if_either != either)) {
    r.keep_if_either = true;
  }
  return r;
}
}  // namespace detail

template <RetentionRule A, RetentionRule B>
struct any_of_t {
  static constexpr bool is_retention_rule = true;
  A first;
  B second;
  static std::string hudi_name() { return "ANY_OF(" + A::hudi_name() + "," + B::hudi_name() + ")"; }
  Retention retention(const RetentionContext& ctx) const {
    return detail::combine(first.retention(ctx), second.retention(ctx), true);
  }
};

template <RetentionRule A, RetentionRule B>
struct all_of_t {
  static constexpr bool is_retention_rule = true;
  A first;
  B second;
  static std::string hudi_name() { return "ALL_OF(" + A::hudi_name() + "," + B::hudi_name() + ")"; }
  Retention retention(const RetentionContext& ctx) const {
    return detail::combine(first.retention(ctx), second.retention(ctx), false);
  }
};

/// Keeps what either rule keeps: `any_of(keep_latest_commits{10}, keep_by_hours{24})`.
template <RetentionRule A, RetentionRule B>
constexpr any_of_t<A, B> any_of(A a, B b) {
  return {a, b};
}

/// Keeps only what both rules keep.
template <RetentionRule A, RetentionRule B>
constexpr all_of_t<A, B> all_of(A a, B b) {
  return {a, b};
}

}  // namespace lakegc
