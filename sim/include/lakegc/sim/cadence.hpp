// File: lakegc/sim/cadence.hpp
// -----------------------------------------------------------------------------
// A commit cadence the simulator can replay (advice_check.hpp): when each
// write begins after the one before it, and how long it runs. Three
// sources:
//
// * synthetic: one write every `every`, each running `write` (Hudi's
//   documentation example: every 30 minutes);
// * a table's timeline (cadence_of_timeline): its completed commits by
//   requested time, each running from requested to completion time (layout
//   2; layout 1 records no completion time, so a write counts as
//   instantaneous: the shortest the simulator runs one, a second);
// * a text file (parse_cadence): one commit per line, either durations
//   `<gap> [<write>]` (`30m`, `30m 4m`, as lakegc's other options take
//   them) or instant times `<requested> [<completed>]`
//   (`20260101003000000 20260101003412000`); `#` starts a comment.
//
// The simulator replays a cadence cyclically from a seed-chosen commit, so
// replay_metadata lays it out cyclically too: advise() over it sees every
// run of commits a replay can produce, including the ones across the seam.
#pragma once

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <absl/strings/str_split.h>
#include <absl/strings/strip.h>
#include <fmt/format.h>

#include "lakegc/core/duration.hpp"
#include "lakegc/core/instant_time.hpp"
#include "lakegc/core/table_metadata.hpp"
#include "lakegc/exec/memory_journal.hpp"

namespace lakegc::sim {

struct CommitCadence {
  /// Where it came from, for reports ("every 30m, writes of 5m", a path).
  std::string source;
  /// gaps_ms[i]: from the begin of commit i-1 to the begin of commit i (for
  /// commit 0, from the last commit, when the cadence repeats). At least 1.
  std::vector<std::int64_t> gaps_ms;
  /// durations_ms[i]: how long commit i's write runs. At least 1000 (the
  /// simulator's shortest write).
  std::vector<std::int64_t> durations_ms;

  std::size_t size() const noexcept { return gaps_ms.size(); }
  bool empty() const noexcept { return gaps_ms.empty(); }
  /// The most writes in flight at once when it is replayed cyclically: how
  /// many writers the replay needs (each runs one write at a time).
  std::size_t writers() const {
    if (empty()) return 1;
    // Enough cycles that the longest write overlaps every write that can
    // begin while it runs, across the seam: one cycle more than the longest
    // write spans, and at least two. Writes begin in order; `ends` holds the
    // ends of those still running.
    std::int64_t cycle_ms = 0;
    std::int64_t longest_ms = 0;
    for (std::size_t k = 0; k < size(); ++k) {
      cycle_ms += gaps_ms[k];
      longest_ms = std::max(longest_ms, durations_ms[k]);
    }
    const std::size_t cycles = 2 + static_cast<std::size_t>(longest_ms / std::max<std::int64_t>(cycle_ms, 1));
    std::multiset<std::int64_t> ends;
    std::size_t most = 1;
    std::int64_t t = 0;
    for (std::size_t k = 0; k < cycles * size(); ++k) {
      t += gaps_ms[k % size()];
      ends.erase(ends.begin(), ends.upper_bound(t));  // finished by now (a finish runs before a begin at the same time)
      ends.insert(t + durations_ms[k % size()]);
      most = std::max(most, ends.size());
    }
    return most;
  }
  void add(std::int64_t gap_ms, std::int64_t duration_ms) {
    gaps_ms.push_back(std::max<std::int64_t>(gap_ms, 1));
    durations_ms.push_back(std::max<std::int64_t>(duration_ms, 1000));
  }
};

/// One write every `every`, each running `write`.
inline CommitCadence synthetic_cadence(absl::Duration every, absl::Duration write) {
  CommitCadence c;
  c.source = fmt::format("every {}, writes of {}", format_duration(every), format_duration(write));
  c.add(absl::ToInt64Milliseconds(every), absl::ToInt64Milliseconds(write));
  return c;
}

namespace detail {

// Requested and completion times (ms) sorted by requested time, as a
// cadence: the first commit's gap is the median of the others (the seam).
[[nodiscard]] inline StatusOr<CommitCadence> cadence_of_times(std::vector<std::pair<std::int64_t, std::int64_t>> times,
                                                              std::string source) {
  if (times.size() < 2) {
    return absl::InvalidArgumentError(
        fmt::format("{}: a cadence needs at least 2 commits, found {}", source, times.size()));
  }
  std::sort(times.begin(), times.end());
  std::vector<std::int64_t> gaps;
  for (std::size_t i = 1; i < times.size(); ++i) gaps.push_back(times[i].first - times[i - 1].first);
  std::vector<std::int64_t> sorted = gaps;
  std::sort(sorted.begin(), sorted.end());
  CommitCadence c;
  c.source = std::move(source);
  c.add(sorted[sorted.size() / 2], times[0].second - times[0].first);
  for (std::size_t i = 1; i < times.size(); ++i) c.add(gaps[i - 1], times[i].second - times[i].first);
  return c;
}

}  // namespace detail

/// The cadence of a table's completed commits (see the header).
[[nodiscard]] inline StatusOr<CommitCadence> cadence_of_timeline(const TableMetadata& md, std::string source) {
  std::vector<std::pair<std::int64_t, std::int64_t>> times;
  for (const Instant* c : md.timeline.completed_commits()) {
    auto requested = c->requested.to_epoch_ms(md.timezone);
    auto completed = c->completion_or_requested().to_epoch_ms(md.timezone);
    if (!requested.ok() || !completed.ok()) continue;
    times.emplace_back(*requested, std::max(*requested, *completed));
  }
  return detail::cadence_of_times(std::move(times),
                                  fmt::format("{} ({} commits)", source, md.timeline.completed_commits().size()));
}

/// Parses a cadence file (see the header); `source` names it in errors.
[[nodiscard]] inline StatusOr<CommitCadence> parse_cadence(std::string_view text, std::string source) {
  CommitCadence durations;
  std::vector<std::pair<std::int64_t, std::int64_t>> instants;
  std::size_t line_no = 0;
  for (absl::string_view raw : absl::StrSplit(lakegc::detail::to_absl(text), '\n')) {
    ++line_no;
    const absl::string_view line = absl::StripAsciiWhitespace(raw.substr(0, raw.find('#')));
    if (line.empty()) continue;
    std::vector<std::string_view> fields;
    for (absl::string_view f : absl::StrSplit(line, absl::ByAnyChar(" \t"), absl::SkipEmpty())) {
      fields.emplace_back(f.data(), f.size());
    }
    const std::string where = fmt::format("{}:{}", source, line_no);
    if (fields.size() > 2) return absl::InvalidArgumentError(fmt::format("{}: expected 1 or 2 fields", where));
    if (!fields[0].empty() &&
        std::all_of(fields[0].begin(), fields[0].end(), [](char ch) { return ch >= '0' && ch <= '9'; })) {
      std::int64_t ms[2] = {0, 0};
      for (std::size_t f = 0; f < 2; ++f) {
        auto t = InstantTime::parse(fields[std::min(f, fields.size() - 1)]);
        if (!t.ok()) return absl::InvalidArgumentError(fmt::format("{}: {}", where, message_of(t.status())));
        auto m = t->to_epoch_ms(TimelineTimezone::utc);
        if (!m.ok()) return absl::InvalidArgumentError(fmt::format("{}: {}", where, message_of(m.status())));
        ms[f] = *m;
      }
      if (ms[1] < ms[0]) return absl::InvalidArgumentError(fmt::format("{}: completed before it was requested", where));
      instants.emplace_back(ms[0], ms[1]);
      continue;
    }
    auto gap = parse_duration(fields[0], where);
    if (!gap.ok()) return gap.status();
    absl::Duration write = absl::Seconds(1);
    if (fields.size() == 2) {
      auto w = parse_duration(fields[1], where);
      if (!w.ok()) return w.status();
      write = *w;
    }
    durations.add(absl::ToInt64Milliseconds(*gap), absl::ToInt64Milliseconds(write));
  }
  if (!instants.empty() && !durations.empty()) {
    return absl::InvalidArgumentError(fmt::format("{}: mixes instant times and durations", source));
  }
  if (!instants.empty()) {
    const std::size_t n = instants.size();
    return detail::cadence_of_times(std::move(instants), fmt::format("{} ({} commits)", source, n));
  }
  if (durations.empty()) return absl::InvalidArgumentError(fmt::format("{}: no commits", source));
  durations.source = fmt::format("{} ({} commits)", source, durations.size());
  return durations;
}

/// A layout-2 timeline of the cadence laid out cyclically from the
/// simulator's epoch, at least twice and over at least `span_ms`: the
/// metadata advise() judges a replay by.
inline TableMetadata replay_metadata(const CommitCadence& c, std::int64_t epoch_ms, std::int64_t span_ms) {
  memory_journal j(TimelineTimezone::utc, TimelineLayout::v2);
  std::int64_t t = epoch_ms;
  for (std::size_t k = 0; !c.empty() && (k < 2 * c.size() || t - epoch_ms < span_ms); ++k) {
    const std::size_t i = k % c.size();
    t += c.gaps_ms[i];
    const InstantTime requested = InstantTime::from_epoch_ms(t, TimelineTimezone::utc);
    const InstantTime completed = InstantTime::from_epoch_ms(t + c.durations_ms[i], TimelineTimezone::utc);
    (void)j.begin(requested, Action::commit);
    (void)j.complete(requested, completed, CommitInfo{});
  }
  return j.load().value();
}

}  // namespace lakegc::sim
