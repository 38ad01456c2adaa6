// File: bench/generator.hpp
// -----------------------------------------------------------------------------
// A seeded synthetic Merge-on-Read Hudi table of P partitions x G file
// groups x S slices, for the benchmarks. The same walk either feeds a
// TableViewBuilder + TableMetadata in memory (up to 10 million slices), or
// writes a real timeline-layout-1 directory tree (0-byte data files) that
// hudi::journal and load_view read back.
//
// Why a steady-state table and not random slices: a table that has never
// been cleaned makes most slices deletable, so the benchmark would measure
// string allocation for the plan and nothing else, and incremental
// cleaning would have nothing to skip. The table here looks like one that a
// keep_latest_commits{5 x NEW} policy cleaned before, with writes since:
//
//   rounds:  [ archived | OLD (active) | WIN | NEW ]   one round = a
//   compaction (completed: `commit`) followed by 4 deltacommits
//
//   * every group has one slice in an OLD round (the newest slice before the
//     previous clean's boundary, which that clean kept) and S-1 slices in
//     later rounds;
//   * the previous completed clean's boundary (e_prev) is the first WIN
//     compaction; the boundary now (e_new) is the first NEW compaction,
//     i.e. exactly `commits_retained` commits from the end;
//   * only "touched" partitions (a fraction `touched` of all) get slices in
//     WIN rounds: they are the partitions incremental cleaning must scan,
//     and the only ones where anything is deletable, so the full and the
//     incremental plans are equal (the smoke test checks it);
//   * timeline extras: a savepoint after the first active round (naming the
//     then-latest base file of every group, as Hudi 0.x savepoints do), a
//     clustering replacecommit in WIN replacing ~1% of the groups of touched
//     partitions (each replaced group gets a new group), a previous clean, a
//     pending compaction at the end (~0.5% of groups), an in-flight
//     deltacommit (new groups whose only file is uncommitted) and the files of
//     a failed write whose instant is gone (~0.2% of groups).
//
// Logs: each slice has 0 (50%), 1 (30%) or 2 (20%) log files, named by the
// slice's base instant (table version 6) and written by the deltacommits of
// the slice's own round, so a WIN deltacommit never writes outside touched
// partitions.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <absl/time/civil_time.h>
#include <fmt/format.h>

#include "lakegc/core/load_view.hpp"
#include "lakegc/core/named_files_index.hpp"
#include "lakegc/core/table_metadata.hpp"
#include "lakegc/core/table_view.hpp"
#include "lakegc/hudi/avro/binary.hpp"
#include "lakegc/hudi/avro/container.hpp"
#include "lakegc/hudi/avro_writer.hpp"
// writer.hpp uses join_path() without including its header (clean_plan.hpp).
#include "lakegc/plan/clean_plan.hpp"
#include "lakegc/hudi/writer.hpp"
#include "lakegc/storage/memory_storage.hpp"
#include "lakegc/sim/prng.hpp"
#include "lakegc/storage/posix_storage.hpp"
#include "hudi_schemas.hpp"

namespace lakegc::bench {

// splitmix64 is the simulator's (sim/include/lakegc/sim/prng.hpp).
using sim::kGoldenGamma;
using sim::mix64;

/// A tiny splitmix64 stream: one per file group, so any group can be
/// generated without generating the ones before it.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : s_(seed) {}
  std::uint64_t next() { return mix64(s_ += kGoldenGamma); }
  std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(next() % n); }

 private:
  std::uint64_t s_;
};

struct GenSpec {
  std::uint32_t partitions = 100;
  std::uint32_t groups = 20;  ///< per partition
  std::uint32_t slices = 5;   ///< per group (a few groups differ: replaced, pending compaction)
  /// Fraction of partitions written since the previous clean's boundary.
  double touched = 1.0;
  std::uint64_t seed = 42;
  /// Fill CommitInfo::files (what the journal loads). The planners never read
  /// it; it costs ~200 bytes per file, so the planning benchmarks leave it out.
  bool written_files = false;
  /// Every file 0 bytes (what the on-disk tree holds).
  bool zero_sizes = false;

  std::uint64_t nominal_slices() const { return std::uint64_t{partitions} * groups * slices; }
};

/// Shapes of the benchmark sizes: partitions grow with the table (as they
/// do in practice) and there are at least 100, so that "1% of partitions
/// touched" is at least one partition.
inline GenSpec spec_for(std::uint64_t nominal_slices, double touched) {
  GenSpec s;
  s.touched = touched;
  s.slices = 5;
  switch (nominal_slices) {
    case 10'000:
      s.partitions = 100;
      s.groups = 20;
      break;
    case 100'000:
      s.partitions = 200;
      s.groups = 100;
      break;
    case 1'000'000:
      s.partitions = 1000;
      s.groups = 200;
      break;
    case 10'000'000:
      s.partitions = 2000;
      s.groups = 1000;
      break;
    default: {
      // Any other size: 100 groups per partition.
      s.groups = 100;
      s.partitions = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, nominal_slices / (s.groups * s.slices)));
    }
  }
  return s;
}

/// What a generated instant is.
enum class GenKind : std::uint8_t {
  compaction,            // completed compaction (`commit` in layout 1)
  deltacommit,           // completed
  savepoint,             // completed
  replacecommit,         // completed clustering
  clean,                 // completed (the previous clean)
  pending_compaction,    // requested
  inflight_deltacommit,  // in flight
};

struct GenInstant {
  InstantTime time;
  GenKind kind;
};

/// Writer of a file: an index into Generator::instants(), or one of these.
inline constexpr int kArchivedWriter = -1;  // an instant older than the active timeline
inline constexpr int kFailedWriter = -2;    // a failed write whose instant is gone

/// One data file met by the walk.
struct FileEvent {
  std::uint32_t partition;
  std::string_view partition_path;
  std::string_view file_id;
  std::string_view name;
  std::uint64_t size;
  int writer;
  bool is_log;
  int log_version;                        // logs: 1, 2, ...
  std::string_view slice_base_file;       // logs: the slice's base file name
  InstantTime slice_base;                 // base instant of the slice
  std::optional<InstantTime> prev_slice;  // base files: the group's previous slice
  bool savepointed;                       // named by the savepoint
};

/// One pending compaction operation met by the walk.
struct PendingOpEvent {
  std::uint32_t partition;
  std::string_view partition_path;
  std::string_view file_id;
  InstantTime base;
  std::string_view data_file;
  std::vector<std::string> delta_files;
};

class Generator {
 public:
  static constexpr std::uint32_t kDeltas = 4;  // deltacommits per round

  explicit Generator(GenSpec spec) : spec_(spec) {
    if (spec_.slices < 2 || spec_.slices > 40) throw std::invalid_argument("GenSpec: slices must be in [2, 40]");
    if (spec_.partitions == 0 || spec_.groups == 0) throw std::invalid_argument("GenSpec: empty table");
    arch_rounds_ = spec_.slices + 1;
    old_rounds_ = 2;
    win_rounds_ = 2;
    new_rounds_ = std::max<std::uint32_t>(6, spec_.slices - 1);
    touched_count_ = std::max<std::uint32_t>(
        1, static_cast<std::uint32_t>(std::lround(spec_.touched * static_cast<double>(spec_.partitions))));
    touched_count_ = std::min(touched_count_, spec_.partitions);
    touched_stride_ = spec_.partitions / touched_count_;
    make_instants();
    paths_.reserve(spec_.partitions);
    for (std::uint32_t p = 0; p < spec_.partitions; ++p) paths_.push_back(partition_path(p));
  }

  const GenSpec& spec() const noexcept { return spec_; }
  std::uint32_t rounds() const noexcept { return arch_rounds_ + old_rounds_ + win_rounds_ + new_rounds_; }
  std::uint32_t win_begin() const noexcept { return arch_rounds_ + old_rounds_; }
  std::uint32_t new_begin() const noexcept { return win_begin() + win_rounds_; }
  /// The keep_latest_commits count under which this table is in steady state.
  std::uint32_t commits_retained() const noexcept { return (kDeltas + 1) * new_rounds_; }
  /// The boundary keep_latest_commits{commits_retained()} must compute.
  InstantTime expected_ectr() const { return round_time_[new_begin()]; }
  /// The previous clean's boundary.
  InstantTime previous_ectr() const { return round_time_[win_begin()]; }
  std::uint32_t touched_partitions() const noexcept { return touched_count_; }
  bool touched(std::uint32_t p) const noexcept {
    return p % touched_stride_ == 0 && p / touched_stride_ < touched_count_;
  }
  const std::vector<GenInstant>& instants() const noexcept { return instants_; }
  const std::string& path(std::uint32_t p) const { return paths_[p]; }
  /// Time after every instant: "now" for planning.
  std::int64_t now_ms() const noexcept { return kBaseMs + static_cast<std::int64_t>(next_minute_ + 60) * 60'000; }

  Timeline timeline() const {
    std::vector<Instant> v;
    v.reserve(instants_.size());
    for (const GenInstant& g : instants_) {
      Instant i;
      i.requested = g.time;
      switch (g.kind) {
        case GenKind::compaction:
          i.action = Action::commit;
          i.state = State::completed;
          break;
        case GenKind::deltacommit:
          i.action = Action::deltacommit;
          i.state = State::completed;
          break;
        case GenKind::savepoint:
          i.action = Action::savepoint;
          i.state = State::completed;
          break;
        case GenKind::replacecommit:
          i.action = Action::replacecommit;
          i.state = State::completed;
          break;
        case GenKind::clean:
          i.action = Action::clean;
          i.state = State::completed;
          break;
        case GenKind::pending_compaction:
          i.action = Action::compaction;
          i.state = State::requested;
          break;
        case GenKind::inflight_deltacommit:
          i.action = Action::deltacommit;
          i.state = State::inflight;
          break;
      }
      v.push_back(i);
    }
    auto tl = Timeline::make(std::move(v));
    if (!tl.ok()) throw std::logic_error(std::string(message_of(tl.status())));
    return *std::move(tl);
  }

  /// Walks every partition and data file. `v` provides
  ///   on_partition(std::uint32_t p, std::string_view path)
  ///   on_file(const FileEvent&)
  ///   on_replaced(std::uint32_t p, std::string_view path, std::string_view file_id)
  ///   on_pending_op(const PendingOpEvent&)
  /// Partitions come in path order; within one, files group by group.
  template <class Visitor>
  void walk(Visitor& v) const {
    std::string fid, name, base_name;
    for (std::uint32_t p = 0; p < spec_.partitions; ++p) {
      const std::string& ppath = paths_[p];
      v.on_partition(p, std::string_view(ppath));
      const bool t = touched(p);
      std::uint32_t replaced_here = 0;
      for (std::uint32_t g = 0; g < spec_.groups; ++g) {
        Rng rng(mix64(spec_.seed ^ (std::uint64_t{p} << 32 | g)));
        const std::uint64_t h = rng.next();
        const bool replaced = t && h % 100 == 7;
        GroupPlan gp = plan_group(rng, t, replaced);
        fid = hudi::table_writer<memory_storage>::file_id(std::uint64_t{p} * 1'000'000 + g);
        emit_group(v, p, ppath, fid, gp, rng, name, base_name, /*pending=*/!replaced && h % 200 == 1,
                   /*failed=*/!replaced && h % 500 == 3);
        if (replaced) {
          v.on_replaced(p, std::string_view(ppath), std::string_view(fid));
          // The clustering's output group.
          Rng yr(mix64(h ^ 0x5eedULL));
          GroupPlan y = plan_new_group(yr);
          fid = hudi::table_writer<memory_storage>::file_id(std::uint64_t{p} * 1'000'000 + 500'000 + replaced_here++);
          emit_group(v, p, ppath, fid, y, yr, name, base_name, /*pending=*/h % 3 == 0, /*failed=*/false);
        }
      }
      if (p % 50 == 0) {
        // An in-flight insert: a new group whose only file is uncommitted.
        fid = hudi::table_writer<memory_storage>::file_id(std::uint64_t{p} * 1'000'000 + 900'000);
        name = fmt::format("{}_{}-{}-{}_{}.parquet", fid, p % 1000, 99, p, instants_[ic_].time);
        FileEvent e{p,    ppath, fid, name, size_of(p, 0, false), ic_, false, 0, {}, instants_[ic_].time, std::nullopt,
                    false};
        v.on_file(e);
      }
    }
  }

  // Indices of special instants.
  int savepoint_index() const noexcept { return sp_; }
  int replace_index() const noexcept { return rc_; }
  int clean_index() const noexcept { return clean_; }
  int pending_compaction_index() const noexcept { return pc_; }
  int inflight_index() const noexcept { return ic_; }
  /// Requested time of the savepoint.
  InstantTime savepoint_time() const { return savepoint_time_; }
  /// The completed commit right before the previous clean.
  InstantTime clean_last_completed_commit() const { return clean_lcc_; }

 private:
  static constexpr std::int64_t kBaseMs = 1'704'067'200'000;  // 2024-01-01T00:00:00Z

  struct SlicePlan {
    InstantTime base;
    int writer;                           // of the base file
    std::array<int, kDeltas> log_writer;  // of log version k+1
    std::uint8_t logs;
    bool savepointed;
  };
  struct GroupPlan {
    std::uint32_t count = 0;
    std::array<SlicePlan, 48> s{};
  };

  InstantTime next_instant() {
    return InstantTime::from_epoch_ms(kBaseMs + static_cast<std::int64_t>(next_minute_++) * 60'000,
                                      TimelineTimezone::utc);
  }
  int push(GenKind k, InstantTime t) {
    instants_.push_back({t, k});
    return static_cast<int>(instants_.size() - 1);
  }

  void make_instants() {
    const std::uint32_t r_total = rounds();
    round_time_.resize(r_total);
    round_index_.assign(r_total, kArchivedWriter);
    delta_time_.resize(r_total);
    delta_index_.resize(r_total);
    const std::uint32_t clean_after = new_begin() + new_rounds_ / 2 - 1;
    for (std::uint32_t r = 0; r < r_total; ++r) {
      const bool active = r >= arch_rounds_;
      round_time_[r] = next_instant();
      if (active) round_index_[r] = push(GenKind::compaction, round_time_[r]);
      for (std::uint32_t k = 0; k < kDeltas; ++k) {
        delta_time_[r][k] = next_instant();
        delta_index_[r][k] = active ? push(GenKind::deltacommit, delta_time_[r][k]) : kArchivedWriter;
      }
      if (r == arch_rounds_) {
        savepoint_time_ = next_instant();
        sp_ = push(GenKind::savepoint, savepoint_time_);
      }
      if (r == win_begin()) {
        rc_ = push(GenKind::replacecommit, next_instant());
        failed_time_ = next_instant();  // a failed write: its instant is gone
      }
      if (r == clean_after) {
        clean_lcc_ = delta_time_[r][kDeltas - 1];
        clean_ = push(GenKind::clean, next_instant());
      }
    }
    pc_ = push(GenKind::pending_compaction, next_instant());
    ic_ = push(GenKind::inflight_deltacommit, next_instant());
  }

  static std::string partition_path(std::uint32_t p) {
    const absl::CivilDay day = absl::CivilDay(2024, 1, 1) + static_cast<int>(p / 24);
    return fmt::format("dt={:04}-{:02}-{:02}/hr={:02}", day.year(), day.month(), day.day(), p % 24);
  }

  std::uint64_t size_of(std::uint32_t p, std::uint64_t salt, bool log) const {
    if (spec_.zero_sizes) return 0;
    const std::uint64_t h = mix64(spec_.seed ^ (std::uint64_t{p} << 40) ^ salt);
    return log ? (1u << 20) + h % (3u << 20) : (64u << 20) + h % (64u << 20);
  }

  SlicePlan slice_at_round(std::uint32_t r, Rng& rng) const {
    SlicePlan s{};
    s.base = round_time_[r];
    s.writer = round_index_[r];
    const std::uint32_t u = rng.below(10);
    s.logs = u < 5 ? 0 : u < 8 ? 1 : 2;
    for (std::uint32_t k = 0; k < kDeltas; ++k) s.log_writer[k] = delta_index_[r][k];
    s.savepointed = false;
    return s;
  }

  // Picks `n` distinct rounds from [lo, hi), ascending.
  static void pick_rounds(Rng& rng, std::uint32_t lo, std::uint32_t hi, std::uint32_t n, std::uint32_t* out) {
    std::uint32_t chosen = 0;
    // Selection sampling (Knuth's algorithm S): ascending, exact count.
    for (std::uint32_t r = lo; r < hi && chosen < n; ++r) {
      const std::uint32_t left = hi - r;
      if (rng.below(left) < n - chosen) out[chosen++] = r;
    }
  }

  GroupPlan plan_group(Rng& rng, bool touched, bool replaced) const {
    GroupPlan gp;
    std::array<std::uint32_t, 48> rs{};
    const std::uint32_t old_end = arch_rounds_ + old_rounds_;
    if (replaced) {
      // Replaced groups: every slice before the clustering (they go whole).
      pick_rounds(rng, 0, old_end, spec_.slices, rs.data());
      for (std::uint32_t i = 0; i < spec_.slices; ++i) gp.s[gp.count++] = slice_at_round(rs[i], rng);
    } else {
      gp.s[gp.count++] = slice_at_round(rng.below(old_end), rng);
      const std::uint32_t lo = touched ? win_begin() : new_begin();
      pick_rounds(rng, lo, rounds(), spec_.slices - 1, rs.data());
      for (std::uint32_t i = 0; i + 1 < spec_.slices; ++i) gp.s[gp.count++] = slice_at_round(rs[i], rng);
    }
    // The savepoint names the newest slice at or before it.
    for (std::uint32_t i = gp.count; i-- > 0;) {
      if (gp.s[i].base < savepoint_time_) {
        gp.s[i].savepointed = true;
        break;
      }
    }
    return gp;
  }

  GroupPlan plan_new_group(Rng& rng) const {
    GroupPlan gp;
    SlicePlan first{};
    first.base = instants_[rc_].time;
    first.writer = rc_;
    first.logs = static_cast<std::uint8_t>(rng.below(3));
    for (std::uint32_t k = 0; k < kDeltas; ++k) first.log_writer[k] = delta_index_[win_begin() + 1][k];
    gp.s[gp.count++] = first;
    std::array<std::uint32_t, 48> rs{};
    pick_rounds(rng, new_begin(), rounds(), spec_.slices - 1, rs.data());
    for (std::uint32_t i = 0; i + 1 < spec_.slices; ++i) gp.s[gp.count++] = slice_at_round(rs[i], rng);
    return gp;
  }

  template <class Visitor>
  void emit_group(Visitor& v, std::uint32_t p, const std::string& ppath, const std::string& fid, const GroupPlan& gp,
                  Rng& rng, std::string& name, std::string& base_name, bool pending, bool failed) const {
    const std::uint64_t salt = mix64(rng.next());
    for (std::uint32_t i = 0; i < gp.count; ++i) {
      const SlicePlan& s = gp.s[i];
      base_name = fmt::format("{}_{}-{}-{}_{}.parquet", fid, p % 1000, i + 1, salt % 100'000, s.base);
      const std::optional<InstantTime> prev = i == 0 ? std::nullopt : std::optional(gp.s[i - 1].base);
      v.on_file(FileEvent{
          p, ppath, fid, base_name, size_of(p, salt + i, false), s.writer, false, 0, {}, s.base, prev, s.savepointed});
      for (std::uint32_t k = 0; k < s.logs; ++k) {
        name = fmt::format(".{}_{}.log.{}_{}-{}-{}", fid, s.base, k + 1, p % 1000, i + 1, (salt + k) % 100'000);
        v.on_file(FileEvent{p, ppath, fid, name, size_of(p, salt + 64 + i * 4 + k, true), s.log_writer[k], true,
                            static_cast<int>(k + 1), base_name, s.base, std::nullopt, false});
      }
    }
    if (failed) {
      name = fmt::format("{}_{}-{}-{}_{}.parquet", fid, p % 1000, 77, salt % 100'000, failed_time_);
      v.on_file(FileEvent{p,
                          ppath,
                          fid,
                          name,
                          size_of(p, salt + 999, false),
                          kFailedWriter,
                          false,
                          0,
                          {},
                          failed_time_,
                          std::nullopt,
                          false});
    }
    if (pending) {
      const SlicePlan& last = gp.s[gp.count - 1];
      PendingOpEvent op{p, ppath, fid, last.base, std::string_view(), {}};
      const std::string data =
          fmt::format("{}_{}-{}-{}_{}.parquet", fid, p % 1000, gp.count, salt % 100'000, last.base);
      op.data_file = data;
      for (std::uint32_t k = 0; k < last.logs; ++k) {
        op.delta_files.push_back(
            fmt::format(".{}_{}.log.{}_{}-{}-{}", fid, last.base, k + 1, p % 1000, gp.count, (salt + k) % 100'000));
      }
      v.on_pending_op(op);
    }
  }

  GenSpec spec_;
  std::uint32_t arch_rounds_ = 0, old_rounds_ = 0, win_rounds_ = 0, new_rounds_ = 0;
  std::uint32_t touched_count_ = 1, touched_stride_ = 1;
  std::uint32_t next_minute_ = 0;
  std::vector<GenInstant> instants_;
  std::vector<InstantTime> round_time_;
  std::vector<int> round_index_;
  std::vector<std::array<InstantTime, kDeltas>> delta_time_;
  std::vector<std::array<int, kDeltas>> delta_index_;
  InstantTime savepoint_time_, failed_time_, clean_lcc_;
  int sp_ = -1, rc_ = -1, clean_ = -1, pc_ = -1, ic_ = -1;
  std::vector<std::string> paths_;
};

/// Collects the TableMetadata a journal would load for the generated table.
class MetadataCollector {
 public:
  explicit MetadataCollector(const Generator& gen) : gen_(gen) {
    md_.timeline = gen.timeline();
    md_.timezone = TimelineTimezone::utc;
    md_.layout = TimelineLayout::v1;
    md_.partitioned = true;
    for (const GenInstant& i : gen.instants()) {
      const bool write =
          i.kind == GenKind::compaction || i.kind == GenKind::deltacommit || i.kind == GenKind::replacecommit;
      if (write) md_.commits[i.time] = CommitInfo{};
    }
    SavepointInfo sp;
    sp.instant = gen.instants()[static_cast<std::size_t>(gen.savepoint_index())].time;
    md_.savepoints.push_back(std::move(sp));
    CleanRecord c;
    c.instant = gen.instants()[static_cast<std::size_t>(gen.clean_index())].time;
    c.earliest_commit_to_retain = gen.previous_ectr();
    c.last_completed_commit = gen.clean_last_completed_commit();
    c.savepointed_timestamps = {md_.savepoints.front().instant};
    md_.last_completed_clean = c;
    commit_of_.resize(gen.instants().size(), nullptr);
    for (std::size_t i = 0; i < gen.instants().size(); ++i) {
      auto it = md_.commits.find(gen.instants()[i].time);
      if (it != md_.commits.end()) commit_of_[i] = &it->second;
    }
  }

  void on_partition(std::uint32_t, std::string_view) {}
  void on_file(const FileEvent& e) {
    if (e.savepointed) md_.savepoints.front().files.push_back({e.partition_path, e.name, 0});
    if (e.writer < 0) return;
    CommitInfo* c = commit_of_[static_cast<std::size_t>(e.writer)];
    if (c == nullptr) return;  // pending writer
    // Walks visit partitions in path order, so the last entry dedupes.
    if (c->partitions_written.empty() || c->partitions_written.back() != e.partition_path) {
      c->partitions_written.emplace_back(e.partition_path);
    }
    if (gen_.spec().written_files) c->files.push_back({e.partition_path, e.name, e.size});
  }
  void on_replaced(std::uint32_t, std::string_view path, std::string_view file_id) {
    CommitInfo* c = commit_of_[static_cast<std::size_t>(gen_.replace_index())];
    // Only replaced: the journal takes partitions_written from write stats.
    c->replaced.push_back({std::string(path), std::string(file_id)});
  }
  void on_pending_op(const PendingOpEvent& op) {
    md_.pending_compactions.push_back({gen_.instants()[static_cast<std::size_t>(gen_.pending_compaction_index())].time,
                                       std::string(op.partition_path), std::string(op.file_id), op.base});
  }

  TableMetadata take() && {
    // decode_commit_info (the journal) reports partitions sorted; walks already are.
    // The journal indexes the named files once per load.
    md_.named_files = index_named_files(md_);
    return std::move(md_);
  }
  TableMetadata& md() { return md_; }

 private:
  const Generator& gen_;
  TableMetadata md_;
  std::vector<CommitInfo*> commit_of_;
};

/// A generated table in memory.
struct Table {
  TableMetadata md;
  std::optional<TableView> view;
  std::uint64_t data_files = 0;
  std::uint64_t listing_bytes = 0;  // sum of `partition/name` lengths
};

/// Builds the table in memory: the same walk feeds the metadata and a
/// TableViewBuilder, then add_metadata() and build(), as load_view does.
/// The builder gets each partition's files in name order, as a real
/// listing gives them (posix_storage, memory_storage and object stores all
/// list in byte order); the walk makes them group by group.
inline Table build_in_memory(const Generator& gen) {
  struct Both {
    MetadataCollector meta;
    TableViewBuilder* builder = nullptr;
    std::uint64_t files = 0, bytes = 0;
    // The current partition's files, until it ends: names in one text.
    struct Listed {
      std::uint32_t offset, length;
      std::uint64_t size;
    };
    std::string partition{}, text{};
    std::vector<Listed> listed{};
    void flush() {
      std::sort(listed.begin(), listed.end(), [&](const Listed& a, const Listed& b) {
        return std::string_view(text).substr(a.offset, a.length) < std::string_view(text).substr(b.offset, b.length);
      });
      for (const Listed& l : listed)
        builder->add_file(partition, std::string_view(text).substr(l.offset, l.length), l.size);
      listed.clear();
      text.clear();
    }
    void on_partition(std::uint32_t p, std::string_view path) {
      flush();
      meta.on_partition(p, path);
      builder->add_partition(path);
      partition = path;
    }
    void on_file(const FileEvent& e) {
      meta.on_file(e);
      listed.push_back({static_cast<std::uint32_t>(text.size()), static_cast<std::uint32_t>(e.name.size()), e.size});
      text += e.name;
      ++files;
      bytes += e.partition_path.size() + 1 + e.name.size();
    }
    void on_replaced(std::uint32_t p, std::string_view path, std::string_view id) { meta.on_replaced(p, path, id); }
    void on_pending_op(const PendingOpEvent& op) { meta.on_pending_op(op); }
  };
  Both both{MetadataCollector(gen)};
  Table t;
  {
    // The builder keeps a reference to the timeline: it must not move
    // while building, so it is built against the collector's copy.
    TableViewBuilder b(both.meta.md().timeline, TimelineLayout::v1);
    both.builder = &b;
    gen.walk(both);
    both.flush();
    add_metadata(b, both.meta.md());
    t.view = std::move(b).build();
  }
  t.data_files = both.files;
  t.listing_bytes = both.bytes;
  t.md = std::move(both.meta).take();
  return t;
}

/// The listing a Storage would give for the generated table: one entry per
/// data file plus each partition's `.hoodie_partition_metadata`.
struct ListingEntry {
  std::string path;
  std::uint64_t size;
};

/// Each partition's entries are in name order, as a real listing gives
/// them.
inline std::vector<ListingEntry> make_listing(const Generator& gen) {
  struct L {
    std::vector<ListingEntry> out;
    std::size_t partition_begin = 0;
    void sort_partition() {
      std::sort(out.begin() + static_cast<std::ptrdiff_t>(partition_begin), out.end(),
                [](const ListingEntry& a, const ListingEntry& b) { return a.path < b.path; });
    }
    void on_partition(std::uint32_t, std::string_view path) {
      sort_partition();
      partition_begin = out.size();
      out.push_back({fmt::format("{}/{}", path, kPartitionMetadataFile), 100});
    }
    void on_file(const FileEvent& e) { out.push_back({fmt::format("{}/{}", e.partition_path, e.name), e.size}); }
    void on_replaced(std::uint32_t, std::string_view, std::string_view) {}
    void on_pending_op(const PendingOpEvent&) {}
  } l;
  gen.walk(l);
  l.sort_partition();
  return std::move(l.out);
}

/// TableMetadata only (no view).
inline TableMetadata make_metadata(const Generator& gen) {
  MetadataCollector m(gen);
  gen.walk(m);
  return std::move(m).take();
}

// --- On disk -------------------------------------------------------------------

namespace detail {

/// An Avro object container holding one datum (the library has encoders
/// only for the clean records).
inline std::string avro_container(std::string_view schema, const std::string& datum) {
  return hudi::avro::write_container(schema, datum);
}

inline void fail_errno(const std::string& what) {
  throw std::runtime_error(fmt::format("{}: {}", what, std::strerror(errno)));
}

inline void write_at(int dirfd, const std::string& name, std::string_view bytes) {
  const int fd = ::openat(dirfd, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) fail_errno("create " + name);
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      ::close(fd);
      fail_errno("write " + name);
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  ::close(fd);
}

inline int open_dirs(int root, std::string_view rel) {
  int cur = ::dup(root);
  std::size_t start = 0;
  while (start < rel.size()) {
    const auto slash = rel.find('/', start);
    const std::string comp(rel.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start));
    if (::mkdirat(cur, comp.c_str(), 0755) != 0 && errno != EEXIST) fail_errno("mkdir " + std::string(rel));
    const int next = ::openat(cur, comp.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (next < 0) fail_errno("open " + std::string(rel));
    ::close(cur);
    cur = next;
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return cur;
}

}  // namespace detail

struct TreeStats {
  std::uint64_t data_files = 0;
  std::uint64_t timeline_files = 0;
  std::uint64_t timeline_bytes = 0;
  std::uint64_t partitions = 0;
};

/// Writes the generated table under `root` (which must not hold a table):
/// hoodie.properties through hudi::table_writer, 0-byte data files,
/// `.hoodie_partition_metadata`, and the layout-1 timeline: JSON commit
/// metadata (Jackson's shape, as table_writer writes it), Avro compaction
/// plans and savepoint, the library's Avro clean records. No fsync: the
/// tree is scratch, and a million fsyncs would take longer than the run.
inline TreeStats write_tree(const Generator& gen, const std::string& root) {
  if (::mkdir(root.c_str(), 0755) != 0 && errno != EEXIST) detail::fail_errno("mkdir " + root);
  {
    auto st = posix_storage::open(root);
    if (!st.ok()) throw std::runtime_error(std::string(message_of(st.status())));
    hudi::TableConfig cfg;
    cfg.name = "lakegc_bench";
    cfg.type = hudi::TableType::merge_on_read;
    cfg.partition_fields = {"dt", "hr"};
    cfg.timezone = TimelineTimezone::utc;
    auto w = hudi::table_writer<posix_storage>::create(*st, cfg);
    if (!w.ok()) throw std::runtime_error(std::string(message_of(w.status())));
  }
  const int rootfd = ::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (rootfd < 0) detail::fail_errno("open " + root);
  const int hoodie = ::openat(rootfd, ".hoodie", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (hoodie < 0) detail::fail_errno("open .hoodie");

  struct Json {
    std::string body;
    int open_partition = -1;
    bool first_in_partition = true;
  };

  struct Writer {
    const Generator& gen;
    int rootfd;
    int dirfd = -1;
    TreeStats stats;
    std::vector<Json> json;
    std::map<std::string, std::vector<std::string>> savepoint;  // partition -> names
    std::map<std::string, std::vector<std::string>> replaced;   // partition -> file ids
    std::vector<hudi::CompactionOperation> ops;

    void on_partition(std::uint32_t, std::string_view path) {
      if (dirfd >= 0) ::close(dirfd);
      dirfd = detail::open_dirs(rootfd, path);
      detail::write_at(
          dirfd, std::string(kPartitionMetadataFile),
          fmt::format("#partition metadata\ncommitTime={}\npartitionDepth=2\n", gen.instants().front().time));
      ++stats.partitions;
    }
    void on_file(const FileEvent& e) {
      detail::write_at(dirfd, std::string(e.name), {});
      ++stats.data_files;
      if (e.savepointed) savepoint[std::string(e.partition_path)].emplace_back(e.name);
      if (e.writer < 0) return;
      Json& j = json[static_cast<std::size_t>(e.writer)];
      if (j.open_partition != static_cast<int>(e.partition)) {
        if (j.open_partition >= 0) j.body += " ],\n";
        j.body += fmt::format("    {} : [ ", hudi::detail::json_quote(e.partition_path));
        j.open_partition = static_cast<int>(e.partition);
        j.first_in_partition = true;
      }
      if (!j.first_in_partition) j.body += ", ";
      j.first_in_partition = false;
      const std::string path = fmt::format("{}/{}", e.partition_path, e.name);
      j.body += "{\n";
      j.body += fmt::format("      \"fileId\" : {},\n", hudi::detail::json_quote(e.file_id));
      j.body += fmt::format("      \"path\" : {},\n", hudi::detail::json_quote(path));
      const std::string prev = e.is_log ? e.slice_base.str() : e.prev_slice ? e.prev_slice->str() : "null";
      j.body += fmt::format("      \"prevCommit\" : \"{}\",\n", prev);
      j.body += "      \"numWrites\" : 1,\n      \"numDeletes\" : 0,\n      \"numUpdateWrites\" : 0,\n";
      j.body += "      \"numInserts\" : 1,\n";
      j.body += fmt::format("      \"totalWriteBytes\" : {},\n", e.size);
      j.body += "      \"totalWriteErrors\" : 0,\n      \"tempPath\" : null,\n";
      j.body += fmt::format("      \"partitionPath\" : {},\n", hudi::detail::json_quote(e.partition_path));
      j.body += fmt::format("      \"fileSizeInBytes\" : {}", e.size);
      if (e.is_log) {
        j.body += fmt::format(",\n      \"logVersion\" : {},\n      \"logOffset\" : 0,\n", e.log_version);
        j.body += fmt::format("      \"baseFile\" : {},\n", hudi::detail::json_quote(e.slice_base_file));
        j.body += fmt::format("      \"logFiles\" : [ {} ]", hudi::detail::json_quote(e.name));
      }
      j.body += "\n    }";
    }
    void on_replaced(std::uint32_t, std::string_view path, std::string_view id) {
      replaced[std::string(path)].emplace_back(id);
    }
    void on_pending_op(const PendingOpEvent& op) {
      hudi::CompactionOperation o;
      o.partition_path = std::string(op.partition_path);
      o.file_id = std::string(op.file_id);
      o.base_instant = op.base.str();
      o.data_file_name = fmt::format("{}/{}", op.partition_path, op.data_file);
      for (const auto& d : op.delta_files) o.delta_file_names.push_back(fmt::format("{}/{}", op.partition_path, d));
      ops.push_back(std::move(o));
    }
  };

  Writer w{gen, rootfd, -1, {}, std::vector<Json>(gen.instants().size()), {}, {}, {}};
  gen.walk(w);
  if (w.dirfd >= 0) ::close(w.dirfd);

  auto put = [&](const std::string& name, std::string_view bytes) {
    detail::write_at(hoodie, name, bytes);
    ++w.stats.timeline_files;
    w.stats.timeline_bytes += bytes.size();
  };
  const std::string schema = hudi::detail::json_quote(
      R"({"type":"record","name":"lakegc_bench_record","namespace":"hoodie.lakegc_bench","fields":[{"name":"id","type":"string"}]})");
  auto commit_json = [&](Json& j, std::string_view operation, bool compacted,
                         const std::map<std::string, std::vector<std::string>>* replace) {
    std::string out = "{\n  \"partitionToWriteStats\" : {";
    if (j.open_partition >= 0)
      out += "\n" + j.body + " ]\n  },\n";
    else
      out += "},\n";
    if (replace != nullptr) {
      out += "  \"partitionToReplaceFileIds\" : {";
      bool first = true;
      for (const auto& [p, ids] : *replace) {
        out += first ? "\n" : ",\n";
        first = false;
        out += fmt::format("    {} : [ ", hudi::detail::json_quote(p));
        for (std::size_t i = 0; i < ids.size(); ++i) out += (i ? ", " : "") + hudi::detail::json_quote(ids[i]);
        out += " ]";
      }
      out += first ? "},\n" : "\n  },\n";
    }
    out += fmt::format("  \"compacted\" : {},\n", compacted ? "true" : "false");
    out += fmt::format("  \"extraMetadata\" : {{\n    \"schema\" : {}\n  }},\n", schema);
    out += fmt::format("  \"operationType\" : \"{}\"\n}}", operation);
    return out;
  };
  auto compaction_plan = [&](const std::vector<hudi::CompactionOperation>& list) {
    using hudi::avro::put_bytes;
    using hudi::avro::put_long;
    std::string d;
    put_long(d, 1);  // operations: the array branch
    if (!list.empty()) {
      put_long(d, static_cast<std::int64_t>(list.size()));
      for (const auto& o : list) {
        put_long(d, 1);
        put_bytes(d, o.base_instant);
        put_long(d, 1);
        if (!o.delta_file_names.empty()) {
          put_long(d, static_cast<std::int64_t>(o.delta_file_names.size()));
          for (const auto& f : o.delta_file_names) put_bytes(d, f);
        }
        put_long(d, 0);
        put_long(d, 1);
        put_bytes(d, o.data_file_name);
        put_long(d, 1);
        put_bytes(d, o.file_id);
        put_long(d, 1);
        put_bytes(d, o.partition_path);
      }
    }
    put_long(d, 0);
    put_long(d, 0);  // version: int branch
    put_long(d, 2);
    return detail::avro_container(testing::kCompactionSchema, d);
  };

  Json no_stats;  // in-flight files of completed writes: written before any stat
  const auto& inst = gen.instants();
  for (std::size_t i = 0; i < inst.size(); ++i) {
    const std::string t = inst[i].time.str();
    Json& j = w.json[i];
    switch (inst[i].kind) {
      case GenKind::compaction: {
        const std::string plan = compaction_plan({});
        put(t + ".compaction.requested", plan);
        put(t + ".compaction.inflight", "");
        put(t + ".commit", commit_json(j, "COMPACT", true, nullptr));
        break;
      }
      case GenKind::deltacommit:
        put(t + ".deltacommit.requested", "");
        put(t + ".deltacommit.inflight", commit_json(no_stats, "UPSERT", false, nullptr));
        put(t + ".deltacommit", commit_json(j, "UPSERT", false, nullptr));
        break;
      case GenKind::replacecommit:
        put(t + ".replacecommit.requested", "");
        put(t + ".replacecommit.inflight", commit_json(no_stats, "CLUSTER", false, nullptr));
        put(t + ".replacecommit", commit_json(j, "CLUSTER", false, &w.replaced));
        break;
      case GenKind::savepoint: {
        using hudi::avro::put_bytes;
        using hudi::avro::put_long;
        std::string d;
        put_bytes(d, "lakegc-bench");
        put_long(d, 1'704'067'200);
        put_bytes(d, "benchmark savepoint");
        if (!w.savepoint.empty()) {
          put_long(d, static_cast<std::int64_t>(w.savepoint.size()));
          for (const auto& [p, names] : w.savepoint) {
            put_bytes(d, p);
            put_bytes(d, p);
            if (!names.empty()) {
              put_long(d, static_cast<std::int64_t>(names.size()));
              for (const auto& n : names) put_bytes(d, n);
            }
            put_long(d, 0);
          }
        }
        put_long(d, 0);
        put_long(d, 0);
        put_long(d, 1);
        put(t + ".savepoint.inflight", "");
        put(t + ".savepoint", detail::avro_container(testing::kSavepointSchema, d));
        break;
      }
      case GenKind::clean: {
        const std::string sp = inst[static_cast<std::size_t>(gen.savepoint_index())].time.str();
        hudi::CleanerPlan plan;
        plan.earliest_instant_to_retain = gen.previous_ectr().str();
        plan.earliest_instant_to_retain_action = "commit";
        plan.earliest_instant_to_retain_state = "COMPLETED";
        plan.last_completed_commit_timestamp = gen.clean_last_completed_commit().str();
        plan.policy = "KEEP_LATEST_COMMITS";
        plan.extra_metadata["savepointed_timestamps"] = sp;
        auto pb = hudi::encode_cleaner_plan(plan);
        if (!pb.ok()) throw std::runtime_error(std::string(message_of(pb.status())));
        hudi::CleanMetadata m;
        m.start_clean_time = t;
        m.time_taken_ms = 1000;
        m.earliest_commit_to_retain = gen.previous_ectr().str();
        m.last_completed_commit_timestamp = gen.clean_last_completed_commit().str();
        m.extra_metadata["savepointed_timestamps"] = sp;
        auto mb = hudi::encode_clean_metadata(m);
        if (!mb.ok()) throw std::runtime_error(std::string(message_of(mb.status())));
        put(t + ".clean.requested", *pb);
        put(t + ".clean.inflight", *pb);
        put(t + ".clean", *mb);
        break;
      }
      case GenKind::pending_compaction: put(t + ".compaction.requested", compaction_plan(w.ops)); break;
      case GenKind::inflight_deltacommit:
        put(t + ".deltacommit.requested", "");
        // An in-flight write's stats: the files it has written so far.
        put(t + ".deltacommit.inflight", commit_json(j, "UPSERT", false, nullptr));
        break;
    }
  }
  ::close(hoodie);
  ::close(rootfd);
  return w.stats;
}

}  // namespace lakegc::bench
