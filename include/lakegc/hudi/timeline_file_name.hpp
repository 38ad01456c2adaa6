// File: lakegc/hudi/timeline_file_name.hpp
// -----------------------------------------------------------------------------
// Names of Hudi timeline files and how a set of them becomes instants
// (docs/hudi-rules.md §2):
//
//   completed, layout 1 : <ts>.<action>
//   completed, layout 2 : <requested>_<completion>.<action>  (no "_" = legacy)
//   pending             : <ts>.<action>.requested | <ts>.<action>.inflight
//   commit in flight    : <ts>.inflight
//
// Each instant leaves up to three files (requested, inflight, completed); the
// most advanced state wins, and a compaction that completed shows as the
// commit it completed as.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lakegc/core/instant.hpp"
#include "lakegc/core/status.hpp"

namespace lakegc::hudi {

struct TimelineFileName {
  InstantTime requested;
  std::optional<InstantTime> completed;
  Action action = Action::commit;
  State state = State::requested;
};

/// True when `name` has the shape of an instant file (`<digits>[_<digits>].x`).
/// Other names in the timeline folder (hoodie.properties, folders, .crc
/// files) are not instants and are skipped by loaders.
inline bool looks_like_instant_file(std::string_view name) {
  std::size_t i = 0;
  while (i < name.size() && name[i] >= '0' && name[i] <= '9') ++i;
  if (i == 0 || i == name.size()) return false;
  if (name[i] == '_') {
    std::size_t j = i + 1;
    while (j < name.size() && name[j] >= '0' && name[j] <= '9') ++j;
    if (j == i + 1 || j == name.size()) return false;
    i = j;
  }
  if (name[i] != '.') return false;
  return name.size() < 4 || name.substr(name.size() - 4) != ".crc";
}

/// Parses one timeline file name. An unknown action or state is an error
/// naming the file: a timeline we do not understand is never guessed at.
[[nodiscard]] inline StatusOr<TimelineFileName> parse_timeline_file_name(std::string_view name) {
  auto bad = [&](std::string_view why) {
    return absl::InvalidArgumentError(fmt::format("timeline file '{}': {}", name, why));
  };
  const auto dot = name.find('.');
  if (dot == std::string_view::npos) return bad("expected <instant>.<action>[.<state>]");
  std::string_view times = name.substr(0, dot);
  std::string_view rest = name.substr(dot + 1);
  TimelineFileName out;
  const auto us = times.find('_');
  auto req = InstantTime::parse(times.substr(0, us));
  if (!req.ok()) return bad(message_of(req.status()));
  out.requested = *req;
  if (us != std::string_view::npos) {
    auto comp = InstantTime::parse(times.substr(us + 1));
    if (!comp.ok()) return bad(message_of(comp.status()));
    out.completed = *comp;
  }
  std::string_view action = rest;
  out.state = State::completed;
  if (const auto d2 = rest.find('.'); d2 != std::string_view::npos) {
    action = rest.substr(0, d2);
    const std::string_view state = rest.substr(d2 + 1);
    if (state == "requested") {
      out.state = State::requested;
    } else if (state == "inflight") {
      out.state = State::inflight;
    } else {
      return bad(fmt::format("unknown instant state '{}'", state));
    }
  } else if (rest == "inflight") {
    // Hudi's one irregular name: a commit in flight is "<ts>.inflight".
    out.action = Action::commit;
    out.state = State::inflight;
    if (out.completed) return bad("a pending instant has no completion time");
    return out;
  }
  auto a = parse_action(action);
  if (!a.ok()) return bad(message_of(a.status()));
  out.action = *a;
  if (out.state != State::completed && out.completed) return bad("a pending instant has no completion time");
  return out;
}

/// Folds timeline files into one Instant per requested time: completed beats
/// inflight beats requested. A savepoint is folded apart from the commit
/// whose time it carries (`T.commit` and `T.savepoint` are two instants).
/// Returns the instants in requested order.
inline std::vector<Instant> fold_timeline_files(const std::vector<TimelineFileName>& files) {
  std::map<std::pair<InstantTime, bool>, Instant> by_time;  // (requested, is savepoint)
  for (const TimelineFileName& f : files) {
    const std::pair key{f.requested, f.action == Action::savepoint};
    auto [it, inserted] = by_time.try_emplace(key, Instant{f.requested, f.completed, f.action, f.state});
    if (inserted) continue;
    Instant& cur = it->second;
    if (static_cast<int>(f.state) > static_cast<int>(cur.state)) {
      cur.state = f.state;
      cur.action = f.action;
      cur.completed = f.completed;
    } else if (f.state == cur.state && f.state != State::completed && f.action != Action::commit) {
      // "<ts>.inflight" says commit; a named pending action is more precise.
      cur.action = f.action;
    }
  }
  std::vector<Instant> out;
  out.reserve(by_time.size());
  for (auto& [t, i] : by_time) out.push_back(i);
  return out;
}

}  // namespace lakegc::hudi
