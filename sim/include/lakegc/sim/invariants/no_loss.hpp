// File: lakegc/sim/invariants/no_loss.hpp
// -----------------------------------------------------------------------------
// I4 no loss: the latest snapshot is always fully readable.
//
// Verifies, against the oracle's ideal content of the latest completed
// commit's snapshot (resolved as Hudi resolves it, docs/hudi-rules.md §3):
//
// * latest_readable: no file of it is missing from storage (optionally
//   counting only files a given deletion removed, for the sweep), and
//   names who deleted the missing file;
// * check_latest_exact: after archival, after a TTL drop and every table
//   service that completes after one, and at the end of a run, the
//   snapshot resolved from the real storage equals the oracle's exactly: a
//   file the oracle's snapshot does not hold is a replaced file group read
//   as live again (duplicate rows), what happens when archival drops a
//   replacecommit whose replaced files are still on storage (§5, §13);
//   and it holds no file a completed TTL replacecommit dropped, nor one a
//   table service made from such files (Oracle::ttl_dropped, derive): the
//   one exception I4 makes is exactly the rows of the dropped partitions,
//   and they must stay dropped. That the drop took exactly the expired
//   partitions is ttl_service.hpp's check_ttl_drop.
//
// Does not verify older snapshots (I2 retention), savepoints (I5), or that
// the files' contents are right (the simulator's files have sizes only).
#pragma once

#include <set>
#include <string>
#include <string_view>

#include "lakegc/sim/invariants/common.hpp"

namespace lakegc::sim {

namespace detail {

// I4: the latest snapshot is fully readable (counting only files of
// `among`, when given); otherwise records the violation against `actor`,
// naming who deleted the missing file, and returns false.
inline bool latest_readable(Table& t, const TableMetadata& md, const FileMap& present, std::string_view actor,
                            const FileMap* among, bool* error) {
  const auto commits = md.timeline.completed_commits();
  if (commits.empty()) return true;
  const InstantTime latest = commits.back()->requested;
  const std::string f = first_missing(t, md, latest, present, error, among);
  if (f.empty()) return true;
  const Deletion* d = t.oracle.deletion(f);
  t.violation(
      Invariant::I4_no_loss, std::string(actor), f, latest,
      fmt::format("the latest snapshot lost a file{}", d ? fmt::format(" (deleted by {})", d->by()) : std::string()));
  return false;
}

}  // namespace detail

/// I4, exactly: the latest snapshot as Hudi resolves it from the real
/// storage equals the oracle's. A missing file is lost data; a file the
/// oracle's snapshot does not hold is one Hudi now reads that it must not:
/// a replaced file group read as live again (duplicate rows), as happens
/// when archival drops the replacecommit of a group whose files are still
/// on storage. Run after archival (and at the end of a run). False and a
/// violation against `actor` when broken.
inline bool check_latest_exact(Table& t, std::string_view actor) {
  auto md = detail::load_for_check(t);
  if (!md) return false;
  const auto commits = md->timeline.completed_commits();
  if (commits.empty()) return true;
  const InstantTime latest = commits.back()->requested;
  const FileMap present = t.data_files();
  bool error = false;
  if (!detail::latest_readable(t, *md, present, actor, nullptr, &error)) return false;
  if (error) return false;
  auto ideal = t.oracle.snapshot(*md, latest);
  auto real = resolve_snapshot(t.storage, *md, latest);
  if (!ideal.ok() || !real.ok()) {
    t.unexpected("checker", "resolving the latest snapshot", ideal.ok() ? real.status() : ideal.status());
    return false;
  }
  std::set<std::string> expected;
  for (const SnapshotFile& f : **ideal) expected.insert(f.path());
  for (const SnapshotFile& f : *real) {
    if (t.oracle.dropped(f.path())) {
      t.violation(Invariant::I4_no_loss, std::string(actor), f.path(), latest,
                  "the latest snapshot reads rows a completed TTL replacecommit dropped (a table service that was "
                  "pending on the partition wrote them back)");
      return false;
    }
    if (expected.contains(f.path())) continue;
    t.violation(Invariant::I4_no_loss, std::string(actor), f.path(), latest,
                "the latest snapshot reads a file it must not (a replaced file group read as live again: "
                "duplicate rows)");
    return false;
  }
  return true;
}

}  // namespace lakegc::sim
