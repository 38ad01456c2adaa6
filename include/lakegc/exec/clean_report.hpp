// File: lakegc/exec/clean_report.hpp
// -----------------------------------------------------------------------------
// What a clean run did, for people (to_text, fmt) and for machines
// (to_json): every clean it executed (pending ones a crash had left, then
// the one it planned), with files, bytes, partitions and instants, the scope
// it scanned, and why nothing ran when nothing did.
//
// JSON shape (keys in this order; stable):
//   {"files_deleted": N, "bytes_deleted": N,
//    "scope": "none"|"incremental"|"full", "fallback_reason": "..."|null,
//    "skipped_reason": "..."|null,
//    "cleans": [{"instant": "...", "resumed": bool, "policy": "...",
//                "earliest_commit_to_retain": "..."|null,
//                "files_deleted": N, "files_already_gone": N, "bytes_deleted": N,
//                "partitions_deleted": N,
//                "partitions": [{"path": "...", "deleted": N, "failed": N,
//                                "partition_deleted": bool}]}]}
#pragma once

#include <string>

#include <fmt/format.h>

#include "lakegc/core/human_bytes.hpp"
#include "lakegc/core/json_writer.hpp"
#include "lakegc/exec/clean_service.hpp"

namespace lakegc {

namespace detail {

template <typename F>
void for_each_clean(const CleanRunReport& r, F&& f) {
  for (const CleanOutcome& o : r.finished_pending) f(o, /*resumed=*/true);
  if (r.executed) f(*r.executed, /*resumed=*/false);
}

}  // namespace detail

/// One line per clean, then a total; or why nothing ran.
inline std::string to_text(const CleanRunReport& r) {
  std::string out;
  detail::for_each_clean(r, [&](const CleanOutcome& o, bool resumed) {
    const CompletedClean& m = o.metadata;
    out += fmt::format(
        "clean {}{}: {} file(s), {} deleted ({} already gone), {} partition(s) removed; "
        "earliest commit to retain {}\n",
        o.instant, resumed ? " (resumed)" : "", o.files_deleted + o.files_already_gone, human_bytes(o.bytes_deleted),
        o.files_already_gone, o.partitions_deleted,
        m.earliest_commit_to_retain ? m.earliest_commit_to_retain->str() : std::string("none"));
  });
  if (!r.executed && !r.skipped_reason.empty()) out += fmt::format("no clean: {}\n", r.skipped_reason);
  out += fmt::format("scope: {}{}\n", to_string(r.scope.kind),
                     r.scope.fallback_reason.empty() ? std::string() : " (" + r.scope.fallback_reason + ")");
  out += fmt::format("reclaimed {} file(s), {}\n", r.files_deleted(), human_bytes(r.bytes_deleted()));
  return out;
}

/// The report's fields, inside an object `j` has open (so a caller can add
/// its own fields beside them).
inline void write_json_fields(json_writer& j, const CleanRunReport& r) {
  auto optional_text = [](const std::string& s) { return s.empty() ? std::optional<std::string>() : s; };
  j.key("files_deleted").value(r.files_deleted());
  j.key("bytes_deleted").value(r.bytes_deleted());
  j.key("scope").value(to_string(r.scope.kind));
  j.key("fallback_reason").value(optional_text(r.scope.fallback_reason));
  j.key("skipped_reason").value(optional_text(r.skipped_reason));
  j.key("cleans").begin_array();
  detail::for_each_clean(r, [&](const CleanOutcome& o, bool resumed) {
    const CompletedClean& m = o.metadata;
    j.begin_object();
    j.key("instant").value(o.instant.str());
    j.key("resumed").value(resumed);
    j.key("policy").value(m.policy);
    j.key("earliest_commit_to_retain")
        .value(m.earliest_commit_to_retain ? std::optional<std::string>(m.earliest_commit_to_retain->str())
                                           : std::nullopt);
    j.key("files_deleted").value(o.files_deleted);
    j.key("files_already_gone").value(o.files_already_gone);
    j.key("bytes_deleted").value(o.bytes_deleted);
    j.key("partitions_deleted").value(o.partitions_deleted);
    j.key("partitions").begin_array();
    for (const auto& [path, result] : m.partitions) {
      j.begin_object();
      j.key("path").value(path);
      j.key("deleted").value(static_cast<std::uint64_t>(result.success.size()));
      j.key("partition_deleted").value(result.partition_deleted);
      j.end_object();
    }
    j.end_array();
    j.end_object();
  });
  j.end_array();
}

inline std::string to_json(const CleanRunReport& r) {
  json_writer j;
  j.begin_object();
  write_json_fields(j, r);
  j.end_object();
  return j.str();
}

}  // namespace lakegc
