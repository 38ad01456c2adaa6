// File: lakegc/sim/table.hpp
// -----------------------------------------------------------------------------
// Table: the state every actor shares. The real storage and journal that the
// library's planners and executor act on, the oracle beside them, the
// seed's PRNG, the virtual clock, the trace, and the bookkeeping actors need
// to coordinate as Hudi's writers and services do (which file groups are
// under a pending write, compaction or clustering; which writes completed
// while another was in flight).
//
// Files are written as Hudi names them (docs/hudi-rules.md §1), formatted
// by the library's file-name grammar (core/file_name.hpp): base
// `<fileId>_<writeToken>_<instant>.parquet`, log
// `.<fileId>_<instant>.log.<version>_<writeToken>`; every partition holds a
// `.hoodie_partition_metadata`. memory_storage stamps mtimes from the
// virtual clock.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/file_name.hpp"
#include "lakegc/exec/memory_journal.hpp"
#include "lakegc/policy/archive_config.hpp"
#include "lakegc/sim/any_policy.hpp"
#include "lakegc/sim/oracle.hpp"
#include "lakegc/sim/prng.hpp"
#include "lakegc/sim/scheduler.hpp"
#include "lakegc/sim/shared_metadata.hpp"
#include "lakegc/sim/stats.hpp"
#include "lakegc/sim/swarm.hpp"
#include "lakegc/sim/trace.hpp"
#include "lakegc/sim/violation.hpp"
#include "lakegc/storage/memory_storage.hpp"
#include "lakegc/storage/path.hpp"

namespace lakegc::sim {

/// Faults armed by the fault injector, each consumed by the next actor step
/// it applies to.
struct ArmedFaults {
  bool write_crash = false;      // next write: the writer dies before commit
  bool write_duplicate = false;  // next write: a speculative duplicate base file
  bool write_failure = false;    // next write: a storage write fails
  bool clean_crash = false;      // next clean: crash between two executor steps
  bool clean_failure = false;    // next clean: a storage call fails
  bool clean_truncated = false;  // next clean: a short or empty listing
  bool read_failure = false;     // next read: stat fails
  void clear() { *this = ArmedFaults{}; }
};

/// What the actors know about one file group beyond the view.
struct GroupState {
  std::optional<InstantTime> clustering;  // pending clustering that will replace it
  std::optional<InstantTime> compaction;  // pending compaction on it
  std::uint32_t pending_writes = 0;       // in-flight writes touching it
};

class Table {
 public:
  /// 2023-11-14T22:13:20Z: any fixed date works; instants are UTC.
  static constexpr std::int64_t kEpochMs = 1'700'000'000'000;

  Table(const SwarmConfig& swarm_config, any_policy policy_under_test, Rng& rng_, VirtualClock& clock_, Trace& trace_)
      : swarm(swarm_config),
        policy(std::move(policy_under_test)),
        rng(rng_),
        clock(clock_),
        trace(trace_),
        storage([this] { return clock.now_ms; }),
        journal(TimelineTimezone::utc, swarm_config.layout, true),
        oracle(clock_) {
    if (clock.now_ms < kEpochMs) clock.now_ms = kEpochMs;
    origin_ms = clock.now_ms;
    // A rollback records a completed rollback instant, as Hudi writes one:
    // rollbacks and cleans are archived by their own rules, so swarms grow
    // tables whose oldest instants are not writes.
    journal.set_instant_allocator([this] { return next_instant(); });
    journal.set_archive_readable(swarm.archive_readable);
    trace.set_origin(origin_ms);
    for (std::uint32_t i = 0; i < std::max<std::uint32_t>(swarm.partitions, 1); ++i) {
      partitions.push_back(fmt::format("dt=2023-11-{:02d}", 14 + i));
      // A TTL swarm's partitions are created by their first write
      // (Writers::write_next), with its instant as their creation time.
      // No fault is armed yet, so this cannot fail.
      if (!swarm.ttl.on) (void)write_partition_metadata(partitions.back(), "0");
    }
    if (swarm.ttl.on) {
      // Its cold partitions, written only before the quiet gap.
      history = true;
      for (std::uint32_t i = 0; i < swarm.ttl.cold; ++i) {
        partitions.push_back(fmt::format("dt=2023-10-{:02d}", 1 + i));
        cold.insert(partitions.back());
      }
    }
  }

  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;

  SwarmConfig swarm;
  any_policy policy;
  Rng& rng;
  VirtualClock& clock;
  Trace& trace;
  memory_storage storage;
  memory_journal journal;
  Oracle oracle;
  std::vector<std::string> partitions;
  /// TTL swarms: partitions written only in the history (and by late
  /// inserts), and whether the history is being written.
  std::set<std::string> cold;
  bool history = false;
  std::int64_t origin_ms = 0;
  RunStats stats;
  std::vector<Violation> violations;
  ArmedFaults armed;
  bool faults_enabled = false;
  /// The cleaner's settings as Hudi's archiver reads them (keep counts:
  /// ArchivalUtils); none for a policy composed in C++ (archiver.hpp).
  std::optional<ArchiveSettings> archive_settings;
  /// Snapshots leased by running queries (guard::reader_leases).
  std::multiset<InstantTime> leases;
  /// Per `partition/fileId`.
  std::map<std::string, GroupState> groups;
  std::uint32_t groups_created = 0;

  std::int64_t now() const noexcept { return clock.now_ms; }
  std::int64_t elapsed() const noexcept { return clock.now_ms - origin_ms; }

  // --- naming ---------------------------------------------------------------

  /// A fresh instant: now, or one millisecond after the last one handed out
  /// (Hudi allocates instant times uniquely).
  InstantTime next_instant() {
    last_instant_ms_ = std::max(clock.now_ms, last_instant_ms_ + 1);
    return InstantTime::from_epoch_ms(last_instant_ms_, TimelineTimezone::utc);
  }
  /// Keeps later allocations after `t` (an instant the library allocated).
  void saw_instant(const InstantTime& t) {
    if (auto ms = t.to_epoch_ms(TimelineTimezone::utc); ms.ok()) last_instant_ms_ = std::max(last_instant_ms_, *ms);
  }
  std::string new_file_id() { return fmt::format("fg{:05d}-0", ++groups_created); }
  std::string write_token() {
    ++tokens_;
    return fmt::format("{}-{}-{}", tokens_ % 7, tokens_ / 7 + 1, tokens_);
  }
  std::string base_name(std::string_view fid, const InstantTime& t) {
    return format_file_name(BaseFileName{std::string(fid), write_token(), t, "parquet"});
  }
  std::string log_name(std::string_view fid, const InstantTime& t, std::uint64_t version) {
    LogFileName log;
    log.file_id = std::string(fid);
    log.instant = t;
    log.version = std::to_string(version);
    log.write_token = write_token();
    return format_file_name(log);
  }
  static std::string group_key(std::string_view partition, std::string_view fid) { return join_path(partition, fid); }

  // --- partitions (TTL swarms) ------------------------------------------------

  /// `.hoodie_partition_metadata` with its commitTime, as Hudi's first write
  /// into a partition creates it (HoodiePartitionMetadata.trySave: only when
  /// absent). A failed write of it fails the caller's write, as it fails
  /// Hudi's task before any data file: ignoring the failure once let the
  /// data file land in a partition with no metadata, which no reader lists
  /// (the oracle's shadow had the metadata, so I1 fired; found by the
  /// schedule_fast fuzzer, fuzz/corpus/schedule/regression-partition-metadata).
  [[nodiscard]] Status write_partition_metadata(const std::string& partition, const std::string& commit_time) {
    const std::string marker = join_path(partition, kPartitionMetadataFile);
    auto present = storage.stat(marker);
    if (present.ok()) return Status();
    if (!absl::IsNotFound(present.status())) return present.status();
    LAKEGC_RETURN_IF_ERROR(storage.write_if_absent(marker, fmt::format("commitTime={}\n", commit_time)));
    oracle.mirror_marker(marker);
    return Status();
  }

  /// Whether writers update file groups of `partition`: in a TTL swarm's
  /// history only the cold partitions, after it only the others.
  bool updatable(const std::string& partition) const { return !swarm.ttl.on || (cold.contains(partition) == history); }
  /// The partition a new file group goes to.
  const std::string& insert_partition() {
    if (!swarm.ttl.on) return partitions[rng.index(partitions.size())];
    std::vector<const std::string*> pick;
    const bool late = !history && rng.chance(swarm.ttl.late_insert_percent, 100);
    for (const std::string& p : partitions) {
      if (cold.contains(p) == (history || late)) pick.push_back(&p);
    }
    return *pick[rng.index(pick.size())];
  }

  // --- storage and journal ----------------------------------------------------

  /// Writes a data file to the real storage and mirrors it in the oracle.
  [[nodiscard]] Status put(const std::string& partition, const std::string& name, std::uint64_t size) {
    const std::string path = join_path(partition, name);
    LAKEGC_RETURN_IF_ERROR(storage.put_sized(path, size));
    oracle.mirror_data_file(path, size);
    ++stats.files_written;
    stats.bytes_written += size;
    return Status();
  }

  /// The table's metadata as Hudi reads it, archive included: what Hudi's
  /// writers, readers and services see, and what the oracle and the
  /// checkers judge by.
  /// Shared between loads until the journal changes (SharedMetadata).
  [[nodiscard]] SharedMetadata load() const {
    if (!loaded_ || loaded_generation_ != journal.generation()) {
      loaded_ = std::make_shared<const StatusOr<TableMetadata>>(journal.load(/*with_archive=*/true));
      loaded_generation_ = journal.generation();
    }
    return SharedMetadata(loaded_);
  }
  /// The metadata as lakegc's journal reads it (Journal::load): without the
  /// archive's completion times when the swarm says lakegc cannot read the
  /// archive (SwarmConfig::archive_readable). The cleaner (run_clean loads
  /// it itself), the orphan sweep and failed-write rollback plan with it.
  [[nodiscard]] StatusOr<TableMetadata> load_as_lakegc() const { return journal.load(); }

  /// Data files (not partition markers) on the real storage, by path. Never
  /// fails and never consumes an armed fault.
  std::map<std::string, std::uint64_t> data_files() const {
    std::map<std::string, std::uint64_t> out;
    storage.for_each_file([&](const FileEntry& e) {
      if (!is_partition_metadata_file(lakegc::detail::split_parent(e.path).second)) {
        // The storage visits paths in listing order, which is mostly this
        // map's order: the hint saves the search (and its string compares).
        out.emplace_hint(out.end(), std::string(e.path), e.size);
      }
    });
    return out;
  }

  /// Adds storage held since the last sample (called before each event).
  void sample_storage() {
    const std::int64_t t = clock.now_ms;
    if (last_sample_ms_ >= 0 && t > last_sample_ms_) {
      stats.kib_ms += (last_sample_bytes_ / 1024) * static_cast<std::uint64_t>(t - last_sample_ms_);
      stats.span_ms += t - last_sample_ms_;
    }
    last_sample_ms_ = t;
    last_sample_bytes_ = storage.total_bytes();
    stats.peak_bytes = std::max(stats.peak_bytes, storage.total_bytes());
    stats.final_bytes = storage.total_bytes();
  }

  /// Time up to now is not counted as storage held (the liveness phase's
  /// clock jump before its final sweep).
  void skip_sampling() {
    last_sample_ms_ = clock.now_ms;
    last_sample_bytes_ = storage.total_bytes();
  }

  // --- trace and violations ----------------------------------------------------

  template <typename... Args>
  void event(std::string_view actor, fmt::format_string<Args...> f, Args&&... args) {
    trace.event(clock.now_ms, actor, f, std::forward<Args>(args)...);
  }

  void violation(Invariant inv, std::string actor, std::string file, InstantTime instant, std::string detail) {
    Violation v{inv, elapsed(), std::move(actor), std::move(file), instant, std::move(detail)};
    event("checker", "VIOLATION {}", v.describe());
    if (violations.size() < kMaxViolations) violations.push_back(std::move(v));
  }

  /// A library call failed where no fault explains it.
  void unexpected(std::string actor, std::string_view what, const Status& st) {
    violation(Invariant::unexpected_error, std::move(actor), {}, {}, fmt::format("{}: {}", what, message_of(st)));
  }

  /// Leased snapshots, sorted and unique (CleanContext::leases).
  std::vector<InstantTime> lease_list() const {
    std::vector<InstantTime> out(leases.begin(), leases.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

  static constexpr std::size_t kMaxViolations = 32;

 private:
  std::int64_t last_instant_ms_ = 0;
  std::int64_t last_sample_ms_ = -1;
  std::uint64_t last_sample_bytes_ = 0;
  std::uint64_t tokens_ = 0;
  mutable std::shared_ptr<const StatusOr<TableMetadata>> loaded_;  // load()'s, at loaded_generation_
  mutable std::uint64_t loaded_generation_ = 0;
};

}  // namespace lakegc::sim
