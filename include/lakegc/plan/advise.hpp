// File: lakegc/plan/advise.hpp
// -----------------------------------------------------------------------------
// The retention a table needs, from its own commit cadence and the longest
// query it must survive (plus a recovery horizon: time travel and rollback
// the user wants to keep). Hudi's documentation leaves this arithmetic to
// its users ("a writer ingests every 30 minutes and the longest query takes
// 5 hours: retain at least 10 commits"), and real tables do not commit on a
// fixed cadence: a burst of commits shrinks the time N commits cover, which
// is how a retention shortened to save money breaks a three-hour report.
//
// advise() is a pure function of the table's metadata. For each policy it
// takes the worst case the table's history shows, not the average:
//
// * KEEP_LATEST_COMMITS, n: a query that starts while commit c_k is the
//   latest reads c_k's snapshot; the cleaner keeps that snapshot (the newest
//   slice before the boundary) until commit c_{k+n+1} completes, and the
//   query started before c_{k+1} completed. So it is safe if every run of n
//   gaps between consecutive commits (c_j .. c_{j+n}, by completion time)
//   spans at least the window. n is the smallest such count.
// * KEEP_LATEST_BY_HOURS, h: the boundary is the first commit requested at
//   or after now - h, and the snapshot a query reads stays while the commit
//   after it is inside the window. That commit may have been requested
//   before the query began (a long write), so h covers the window plus the
//   longest write the timeline shows, rounded up to whole hours.
// * KEEP_LATEST_FILE_VERSIONS, k: a query reading a slice survives until k
//   newer slices of its file group exist, so k is one more than the largest
//   number of slices any file group gained within one window. This policy
//   gives no time guarantee: a burst of updates to one group breaks it.
//
// Where the history is shorter than the window (fewer commits than a run
// needs), the recommendation extrapolates from the median cadence and says
// so. Times are completion times where the timeline records them (layout
// 2) and requested times otherwise (layout 1).
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <absl/time/time.h>
#include <fmt/format.h>

#include "lakegc/core/duration.hpp"
#include "lakegc/core/file_name.hpp"
#include "lakegc/core/table_metadata.hpp"

namespace lakegc {

struct AdviseOptions {
  /// The longest query the table must survive.
  absl::Duration longest_query = absl::Hours(1);
  /// Time travel and rollback the user wants to keep beyond that.
  absl::Duration recovery = absl::ZeroDuration();
};

struct Cadence {
  std::size_t commits = 0;  // completed commits on the active timeline
  std::int64_t median_gap_ms = 0;
  std::int64_t p95_gap_ms = 0;
  std::int64_t max_gap_ms = 0;
  /// The longest write: completion minus requested time (layout 2), else 0.
  std::int64_t longest_write_ms = 0;
};

struct Recommendation {
  std::string policy;  // KEEP_LATEST_COMMITS, KEEP_LATEST_BY_HOURS, KEEP_LATEST_FILE_VERSIONS
  std::uint32_t retained = 0;
  /// The hoodie.* lines to paste.
  std::map<std::string, std::string> config;
  /// Why, in a sentence; and a warning where the policy cannot promise time.
  std::string reason;
  std::string warning;
  /// Filled by the caller that can plan on the table (lakegc advise): what
  /// the policy keeps and what a clean under it would reclaim now.
  std::optional<std::uint64_t> bytes_kept;
  std::optional<std::uint64_t> bytes_reclaimable;
};

/// What a given retention protects at the table's observed cadence.
struct Protection {
  std::string policy;
  std::uint32_t retained = 0;
  /// The longest query it protects in the table's worst observed moment;
  /// none when the history never reached the policy's limit.
  std::optional<std::int64_t> protects_ms;
  /// The instant that worst moment began at (the start of the burst).
  std::optional<InstantTime> worst_at;
  std::string summary;  // "with 10 commits retained, a query longer than 3h 10m can fail during ..."
};

struct Advice {
  std::int64_t window_ms = 0;
  Cadence cadence;
  std::vector<Recommendation> recommendations;  // commits, hours, file versions
  std::vector<std::string> notes;               // e.g. "fewer commits than the window needs"
};

namespace detail {

// Completed commits' times in completion order (requested where the
// completion is not recorded).
inline std::vector<std::pair<std::int64_t, InstantTime>> commit_times(const TableMetadata& md) {
  std::vector<std::pair<std::int64_t, InstantTime>> out;
  for (const Instant* c : md.timeline.completed_commits_by_completion()) {
    if (auto ms = c->completion_or_requested().to_epoch_ms(md.timezone); ms.ok()) out.emplace_back(*ms, c->requested);
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

inline std::int64_t percentile(std::vector<std::int64_t> v, int p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t i = (v.size() - 1) * static_cast<std::size_t>(p) / 100;
  return v[i];
}

// The shortest time any run of `n` consecutive gaps spans, and where it starts.
inline std::optional<std::pair<std::int64_t, InstantTime>> shortest_span(
    const std::vector<std::pair<std::int64_t, InstantTime>>& t, std::size_t n) {
  if (n == 0 || t.size() <= n) return std::nullopt;
  std::optional<std::pair<std::int64_t, InstantTime>> best;
  for (std::size_t j = 0; j + n < t.size(); ++j) {
    const std::int64_t span = t[j + n].first - t[j].first;
    if (!best || span < best->first) best = std::pair{span, t[j].second};
  }
  return best;
}

// Per file group, the times its slices were created (a base file written),
// sorted: commit metadata names every base file a write created.
inline std::vector<std::vector<std::int64_t>> slice_creation_times(const TableMetadata& md) {
  std::map<std::pair<std::string, std::string>, std::vector<std::int64_t>> by_group;
  for (const auto& [t, info] : md.commits) {
    const Instant* i = md.timeline.find(t);
    if (i == nullptr || !i->is_completed() || !is_write_action(i->action)) continue;
    auto ms = i->completion_or_requested().to_epoch_ms(md.timezone);
    if (!ms.ok()) continue;
    for (const FileRef f : info.files) {
      auto base = parse_base_file_name(f.name);
      if (base.ok()) by_group[{std::string(f.partition), base->file_id}].push_back(*ms);
    }
  }
  std::vector<std::vector<std::int64_t>> out;
  for (auto& [g, times] : by_group) {
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    out.push_back(std::move(times));
  }
  return out;
}

inline std::string date_of(const InstantTime& t) {
  return t.str().substr(0, 4) + "-" + t.str().substr(4, 2) + "-" + t.str().substr(6, 2);
}

}  // namespace detail

/// The table's commit cadence.
inline Cadence cadence_of(const TableMetadata& md) {
  Cadence c;
  const auto t = detail::commit_times(md);
  c.commits = t.size();
  std::vector<std::int64_t> gaps;
  for (std::size_t i = 1; i < t.size(); ++i) gaps.push_back(t[i].first - t[i - 1].first);
  c.median_gap_ms = detail::percentile(gaps, 50);
  c.p95_gap_ms = detail::percentile(gaps, 95);
  c.max_gap_ms = gaps.empty() ? 0 : *std::max_element(gaps.begin(), gaps.end());
  for (const Instant* i : md.timeline.completed_commits()) {
    if (!i->completed) continue;
    auto req = i->requested.to_epoch_ms(md.timezone);
    auto done = i->completed->to_epoch_ms(md.timezone);
    if (req.ok() && done.ok()) c.longest_write_ms = std::max(c.longest_write_ms, *done - *req);
  }
  return c;
}

/// The retention each policy needs for `o` on this table (pure: metadata only).
inline Advice advise(const TableMetadata& md, const AdviseOptions& o) {
  Advice a;
  a.window_ms = absl::ToInt64Milliseconds(o.longest_query + o.recovery);
  a.cadence = cadence_of(md);
  const auto times = detail::commit_times(md);
  const std::string window = format_duration_ms(a.window_ms);

  // KEEP_LATEST_COMMITS: the smallest n whose every run of n gaps spans the window.
  {
    Recommendation r;
    r.policy = "KEEP_LATEST_COMMITS";
    std::optional<std::uint32_t> n;
    for (std::size_t k = 1; k < times.size(); ++k) {
      if (detail::shortest_span(times, k)->first >= a.window_ms) {
        n = static_cast<std::uint32_t>(k);
        break;
      }
    }
    if (n) {
      r.retained = *n;
      const auto worst = detail::shortest_span(times, *n);
      r.reason = fmt::format(
          "every run of {} commits in the table's history spans at least {} (the shortest, from {}, "
          "spans {})",
          *n, window, worst->second, format_duration_ms(worst->first));
    } else {
      // Not enough history: extrapolate from the median gap.
      const std::int64_t gap = std::max<std::int64_t>(a.cadence.median_gap_ms, 1);
      r.retained = static_cast<std::uint32_t>(std::max<std::int64_t>((a.window_ms + gap - 1) / gap, 1));
      if (times.size() < 2) r.retained = std::max<std::uint32_t>(r.retained, 10);
      r.reason = fmt::format("the table's {} commits span less than {}: extrapolated from the median gap of {}",
                             times.size(), window, format_duration_ms(a.cadence.median_gap_ms));
      a.notes.push_back(
          fmt::format("the table has fewer commits than the window needs ({} commits span {}); the "
                      "commit count is an estimate: check it again once the table has more history",
                      times.size(), format_duration_ms(times.empty() ? 0 : times.back().first - times.front().first)));
    }
    r.config = {{"hoodie.clean.policy", r.policy}, {"hoodie.clean.commits.retained", std::to_string(r.retained)}};
    a.recommendations.push_back(std::move(r));
  }

  // KEEP_LATEST_BY_HOURS: the window plus the longest write, in whole hours.
  {
    Recommendation r;
    r.policy = "KEEP_LATEST_BY_HOURS";
    const std::int64_t need = a.window_ms + a.cadence.longest_write_ms;
    r.retained = static_cast<std::uint32_t>(std::max<std::int64_t>((need + 3'600'000 - 1) / 3'600'000, 1));
    r.reason = a.cadence.longest_write_ms > 0 ? fmt::format("{} plus the longest write ({}), rounded up to whole hours",
                                                            window, format_duration_ms(a.cadence.longest_write_ms))
                                              : fmt::format("{} rounded up to whole hours", window);
    r.config = {{"hoodie.clean.policy", r.policy}, {"hoodie.clean.hours.retained", std::to_string(r.retained)}};
    a.recommendations.push_back(std::move(r));
  }

  // KEEP_LATEST_FILE_VERSIONS: one more than the most slices a group gained in a window.
  {
    Recommendation r;
    r.policy = "KEEP_LATEST_FILE_VERSIONS";
    std::size_t most = 0;
    for (const auto& created : detail::slice_creation_times(md)) {
      for (std::size_t i = 0, j = 0; j < created.size(); ++j) {
        while (created[j] - created[i] > a.window_ms) ++i;
        most = std::max(most, j - i);  // slices created after the one a query reads, within the window
      }
    }
    r.retained = static_cast<std::uint32_t>(std::max<std::size_t>(most + 1, 1));
    r.reason = fmt::format("the most slices any file group gained within {} was {}", window, most);
    r.warning =
        "KEEP_LATEST_FILE_VERSIONS gives no time guarantee: a burst of updates to one file group can delete "
        "what a running query reads";
    r.config = {{"hoodie.clean.policy", r.policy}, {"hoodie.clean.fileversions.retained", std::to_string(r.retained)}};
    a.recommendations.push_back(std::move(r));
  }
  return a;
}

/// What a retention of `retained` under `policy` protects at the table's
/// observed cadence (the "current settings" line).
inline Protection protection_of(const TableMetadata& md, std::string_view policy, std::uint32_t retained) {
  Protection p;
  p.policy = std::string(policy);
  p.retained = retained;
  const Cadence c = cadence_of(md);
  if (policy == "KEEP_LATEST_COMMITS") {
    const auto times = detail::commit_times(md);
    if (auto worst = detail::shortest_span(times, retained)) {
      p.protects_ms = worst->first;
      p.worst_at = worst->second;
      p.summary = fmt::format(
          "with {} commits retained, a query longer than {} can fail during a burst like the one "
          "that began on {} (commit {})",
          retained, format_duration_ms(worst->first), detail::date_of(worst->second), worst->second);
    } else {
      p.summary = fmt::format(
          "with {} commits retained: the table's history has not yet had {} commits after one "
          "another, so no query has been at risk",
          retained, retained + 1);
    }
  } else if (policy == "KEEP_LATEST_BY_HOURS") {
    p.protects_ms = std::max<std::int64_t>(std::int64_t{retained} * 3'600'000 - c.longest_write_ms, 0);
    p.summary = fmt::format(
        "with {} hours retained, a query longer than {} can fail{}", retained, format_duration_ms(*p.protects_ms),
        c.longest_write_ms > 0
            ? fmt::format(" (the hours less the longest write, {})", format_duration_ms(c.longest_write_ms))
            : std::string());
  } else {
    std::optional<std::int64_t> fastest;
    for (const auto& created : detail::slice_creation_times(md)) {
      // A query reading slice i (begun before slice i+1) lasts until slice i+k exists.
      for (std::size_t i = 0; i + retained < created.size(); ++i) {
        const std::int64_t span = created[i + retained] - created[i + 1 < created.size() ? i + 1 : i];
        if (!fastest || span < *fastest) fastest = span;
      }
    }
    p.protects_ms = fastest;
    p.summary = fastest ? fmt::format(
                              "with {} file versions retained, a query longer than {} can fail when one file "
                              "group is updated as fast as the busiest one was",
                              retained, format_duration_ms(*fastest))
                        : fmt::format("with {} file versions retained: no file group has gained {} slices yet",
                                      retained, retained);
  }
  return p;
}

}  // namespace lakegc
