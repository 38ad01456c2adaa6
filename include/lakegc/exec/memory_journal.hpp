// File: lakegc/exec/memory_journal.hpp
// -----------------------------------------------------------------------------
// memory_journal: a Journal kept in memory, for the simulator and tests.
// Besides the Journal members it lets actors write the timeline the way a
// table's writers and services do (begin a write, complete it with its
// metadata, schedule a compaction, take a savepoint, roll a write back).
//
// Deterministic: ordered maps only. A fault hook crashes it after a number
// of clean transitions, so tests can stop the executor between any two
// steps. Every call that changes what load() returns begins with touch()
// (generation()): a new mutating call must too.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <vector>

#include "lakegc/exec/journal.hpp"

namespace lakegc {

class memory_journal {
 public:
  explicit memory_journal(TimelineTimezone tz = TimelineTimezone::utc, TimelineLayout layout = TimelineLayout::v2,
                          bool partitioned = true)
      : tz_(tz), layout_(layout), partitioned_(partitioned) {}

  // --- writers and services -------------------------------------------------

  /// A new instant in the requested state. AlreadyExists if `t` is taken.
  [[nodiscard]] Status begin(const InstantTime& t, Action action) {
    touch();
    if (instants_.contains(t)) return absl::AlreadyExistsError(fmt::format("instant {} already exists", t));
    instants_[t] = Instant{t, std::nullopt, action, State::requested};
    return absl::OkStatus();
  }
  [[nodiscard]] Status set_inflight(const InstantTime& t) {
    touch();
    LAKEGC_ASSIGN_OR_RETURN(Instant * i, find_pending(t));
    i->state = State::inflight;
    return absl::OkStatus();
  }
  /// Completes a write (or a compaction/clustering, which complete as commit
  /// / replacecommit) with the metadata of what it wrote.
  [[nodiscard]] Status complete(const InstantTime& t, const InstantTime& completion, CommitInfo info) {
    touch();
    LAKEGC_ASSIGN_OR_RETURN(Instant * i, find_pending(t));
    i->state = State::completed;
    i->completed = completion;
    if (i->action == Action::compaction) i->action = Action::commit;
    if (i->action == Action::logcompaction) i->action = Action::deltacommit;
    if (i->action == Action::clustering) i->action = Action::replacecommit;
    commits_[t] = std::move(info);
    compactions_.erase(t);
    markers_.erase(t);  // a finished write's markers are deleted
    heartbeats_.erase(t);
    return absl::OkStatus();
  }
  /// A marker: the pending write `t` created (or appended to) this file.
  [[nodiscard]] Status add_marker(const InstantTime& t, WrittenFile file) {
    touch();
    LAKEGC_RETURN_IF_ERROR(find_pending(t).status());
    markers_[t].push_back(std::move(file));
    return absl::OkStatus();
  }
  /// The pending write `t` is alive at `now_ms`.
  [[nodiscard]] Status heartbeat(const InstantTime& t, std::int64_t now_ms) {
    touch();
    LAKEGC_RETURN_IF_ERROR(find_pending(t).status());
    heartbeats_[t] = now_ms;
    return absl::OkStatus();
  }
  /// Completes a savepoint of the files it names.
  [[nodiscard]] Status savepoint(const InstantTime& t, const InstantTime& completion, std::vector<WrittenFile> files) {
    touch();
    if (instants_.contains(t)) return absl::AlreadyExistsError(fmt::format("instant {} already exists", t));
    instants_[t] = Instant{t, completion, Action::savepoint, State::completed};
    savepoints_[t] = std::move(files);
    return absl::OkStatus();
  }
  /// Deletes a savepoint (its instant leaves the timeline).
  [[nodiscard]] Status remove_savepoint(const InstantTime& t) {
    touch();
    if (savepoints_.erase(t) == 0) return absl::NotFoundError(fmt::format("no savepoint at {}", t));
    instants_.erase(t);
    return absl::OkStatus();
  }
  /// Schedules a compaction (or log compaction) with its operations.
  [[nodiscard]] Status schedule_compaction(const InstantTime& t, std::vector<PendingCompactionSlice> ops,
                                           bool log_compaction = false) {
    LAKEGC_RETURN_IF_ERROR(begin(t, log_compaction ? Action::logcompaction : Action::compaction));
    for (auto& op : ops) op.compaction_instant = t;
    compactions_[t] = std::move(ops);
    return absl::OkStatus();
  }
  /// Removes a pending instant (a rolled-back or abandoned write).
  [[nodiscard]] Status remove_pending(const InstantTime& t) {
    touch();
    LAKEGC_RETURN_IF_ERROR(find_pending(t).status());
    instants_.erase(t);
    commits_.erase(t);
    compactions_.erase(t);
    markers_.erase(t);
    heartbeats_.erase(t);
    return absl::OkStatus();
  }
  /// Rolls back a pending write: its instant, markers and heartbeat go
  /// (RollbackJournal). With an instant allocator set
  /// (set_instant_allocator), a completed rollback instant is recorded, as
  /// Hudi writes one.
  [[nodiscard]] Status rollback(const InstantTime& t) {
    touch();
    LAKEGC_RETURN_IF_ERROR(remove_pending(t));
    if (next_instant_) {
      const InstantTime r = next_instant_();
      instants_[r] = Instant{r, r, Action::rollback, State::completed};
    }
    return absl::OkStatus();
  }
  /// Where rollback() takes the time of the rollback instant it records.
  void set_instant_allocator(std::function<InstantTime()> next) { next_instant_ = std::move(next); }

  /// Archives the completed instants requested at the given times, as an
  /// archiver that decided which (Hudi's rules per layout: sim/archiver.hpp).
  /// Savepoint, restore and indexing instants are never archived; pending
  /// instants cannot be. The completion times of archived write instants
  /// are kept, as the table's archive keeps them.
  void archive(const std::vector<InstantTime>& which) {
    touch();
    for (const InstantTime& t : which) {
      auto it = instants_.find(t);
      if (it == instants_.end() || !archivable(it->second)) continue;
      if (is_write_action(it->second.action) && it->second.completed) archived_completions_[t] = *it->second.completed;
      commits_.erase(t);
      instants_.erase(it);
    }
  }

  /// Archives every archivable completed instant requested before `t`.
  void archive_before(const InstantTime& t) {
    std::vector<InstantTime> which;
    for (auto it = instants_.begin(); it != instants_.end() && it->first < t; ++it) {
      if (archivable(it->second)) which.push_back(it->first);
    }
    archive(which);
  }

  /// Whether load() reports the completion times of archived instants
  /// (TableMetadata::archived_completions): a table whose archive lakegc can
  /// read. On by default.
  void set_archive_readable(bool on) {
    touch();
    archive_readable_ = on;
  }

  // --- Journal ---------------------------------------------------------------

  [[nodiscard]] StatusOr<TableMetadata> load() const { return load(archive_readable_); }

  /// load(), reporting archived completion times or not whatever
  /// set_archive_readable() says (the simulator's oracle knows the truth).
  [[nodiscard]] StatusOr<TableMetadata> load(bool with_archive) const {
    if (load_failure_) return *load_failure_;
    TableMetadata md;
    std::vector<Instant> all;
    all.reserve(instants_.size());
    for (const auto& [t, i] : instants_) all.push_back(i);
    LAKEGC_ASSIGN_OR_RETURN(md.timeline, Timeline::make(std::move(all)));
    md.timezone = tz_;
    md.layout = layout_;
    md.partitioned = partitioned_;
    md.commits = commits_;
    for (const auto& [t, files] : savepoints_) md.savepoints.push_back({t, files});
    for (const auto& [t, ops] : compactions_) {
      md.pending_compactions.insert(md.pending_compactions.end(), ops.begin(), ops.end());
    }
    md.markers = markers_;
    md.heartbeats = heartbeats_;
    if (with_archive) md.archived_completions = archived_completions_;
    for (auto it = clean_metadata_.rbegin(); it != clean_metadata_.rend(); ++it) {
      if (instants_.contains(it->first)) {
        // complete_clean checked it, so it reads.
        md.last_completed_clean = *clean_record_of(it->second, fmt::format("clean {}", it->first));
        break;
      }
    }
    return md;
  }

  [[nodiscard]] Status request_clean(const InstantTime& t, const CleanPlan& plan) {
    touch();
    LAKEGC_RETURN_IF_ERROR(step("request_clean"));
    LAKEGC_RETURN_IF_ERROR(begin(t, Action::clean));
    clean_plans_[t] = plan;
    return absl::OkStatus();
  }
  [[nodiscard]] StatusOr<CleanPlan> read_clean_plan(const InstantTime& t) const {
    auto it = clean_plans_.find(t);
    if (it == clean_plans_.end()) return absl::NotFoundError(fmt::format("no clean plan at {}", t));
    return it->second;
  }
  [[nodiscard]] Status start_clean(const InstantTime& t) {
    touch();
    LAKEGC_RETURN_IF_ERROR(step("start_clean"));
    LAKEGC_ASSIGN_OR_RETURN(Instant * i, find_pending(t));
    i->state = State::inflight;
    return absl::OkStatus();
  }
  [[nodiscard]] Status complete_clean(const InstantTime& t, const CompletedClean& m) {
    touch();
    LAKEGC_RETURN_IF_ERROR(step("complete_clean"));
    LAKEGC_ASSIGN_OR_RETURN(Instant * i, find_pending(t));
    // What md() reads back must read: refused here, as hudi::journal refuses
    // it when it reads the file.
    LAKEGC_RETURN_IF_ERROR(clean_record_of(m, fmt::format("clean {}", t)).status());
    i->state = State::completed;
    i->completed = t;
    clean_metadata_[t] = m;
    return absl::OkStatus();
  }

  // --- inspection and faults ---------------------------------------------------

  /// Changes with every call that changes what load() returns: loads at one
  /// generation are equal, so a caller may keep one (the simulator does).
  std::uint64_t generation() const noexcept { return generation_; }

  const std::map<InstantTime, CompletedClean>& clean_metadata() const noexcept { return clean_metadata_; }
  /// After `n` more clean transitions every transition fails (Aborted) until
  /// recover(): a crash between any two executor steps.
  void crash_after_transitions(std::size_t n) { crash_budget_ = n; }
  void recover() { crash_budget_.reset(); }
  /// Makes load() fail, as an unreadable instant file would.
  void fail_loads(std::optional<Status> s) {
    touch();
    load_failure_ = std::move(s);
  }

 private:
  static bool archivable(const Instant& i) {
    return i.is_completed() && i.action != Action::savepoint && i.action != Action::restore &&
           i.action != Action::indexing;
  }
  void touch() noexcept { ++generation_; }
  [[nodiscard]] StatusOr<Instant*> find_pending(const InstantTime& t) {
    auto it = instants_.find(t);
    if (it == instants_.end()) return absl::NotFoundError(fmt::format("no instant at {}", t));
    if (it->second.is_completed()) return absl::FailedPreconditionError(fmt::format("instant {} is completed", t));
    return &it->second;
  }
  [[nodiscard]] Status step(std::string_view what) {
    if (!crash_budget_) return absl::OkStatus();
    if (*crash_budget_ == 0) return absl::AbortedError(fmt::format("simulated crash before {}", what));
    --*crash_budget_;
    return absl::OkStatus();
  }

  TimelineTimezone tz_;
  TimelineLayout layout_;
  bool partitioned_;
  std::map<InstantTime, Instant> instants_;
  std::map<InstantTime, CommitInfo> commits_;
  std::map<InstantTime, std::vector<WrittenFile>> savepoints_;
  std::map<InstantTime, std::vector<PendingCompactionSlice>> compactions_;
  std::map<InstantTime, std::vector<WrittenFile>> markers_;
  std::map<InstantTime, std::int64_t> heartbeats_;
  std::map<InstantTime, CleanPlan> clean_plans_;
  std::map<InstantTime, CompletedClean> clean_metadata_;
  std::map<InstantTime, InstantTime> archived_completions_;
  bool archive_readable_ = true;
  std::function<InstantTime()> next_instant_;
  std::optional<std::size_t> crash_budget_;
  std::optional<Status> load_failure_;
  std::uint64_t generation_ = 0;
};

static_assert(Journal<memory_journal>);

}  // namespace lakegc
