// File: lakegc/sim/cleaner.hpp
// -----------------------------------------------------------------------------
// The cleaner: lakegc::run_clean with the policy under test, exactly as a
// user's job calls it, plus the checks that need to see one run:
//
// * the promise: the policy is observed while it decides, and the promise
//   of its Retention (promise.hpp) is bound to the clean instant the run
//   persists, so every deleted file can later be traced to the promise of
//   the clean that deleted it;
// * I7 accounting: files and bytes the run reports equal what left storage;
//   a run that failed (injected crash or storage failure) reports nothing,
//   and the run that finishes its plan later must count exactly those files
//   as already gone;
// * I8 idempotence: each finished plan is executed again (against a scratch
//   journal, since the real one has completed the instant) and must delete
//   nothing;
// * I2, I4, I5 and pending-service inputs after anything was deleted
//   (checkers.hpp), and the I3 hook.
//
// Faults: a crash between any two executor steps
// (memory_journal::crash_after_transitions, memory_storage::
// crash_after_mutations), a failed list/stat/remove, a truncated or empty
// listing. Faults are armed right before the run and disarmed right after
// (memory_storage::disarm), so none leaks into another actor's call.
//
// Cleaner::run is the steps in order: arm the run's faults, run the
// service, recover, attribute each removed file to the clean whose plan
// named it, check (I3, I2/I4/I5, then I7 and I8 on the report), trace.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lakegc/exec/clean_service.hpp"
#include "lakegc/sim/checkers.hpp"
#include "lakegc/sim/promise.hpp"
#include "lakegc/sim/table.hpp"

namespace lakegc::sim {

/// Wraps the policy under test to see what it decides.
struct observed_policy {
  const any_policy& inner;
  const std::vector<InstantTime>& leases;
  std::optional<Promise>* promise;
  std::optional<CleanDecision>* decision;

  Retention retention(const RetentionContext& ctx) const {
    Retention r = inner.retention(ctx);
    *promise = make_promise(r, ctx.metadata.timeline, leases, ctx.now_ms);
    CleanDecision d;
    d.retention = r;
    d.guards = inner.guards();
    d.settings = inner.scope();
    d.policy_name = inner.name();
    *decision = std::move(d);
    return r;
  }
  GuardFlags guards() const { return inner.guards(); }
  ScopeSettings scope() const { return inner.scope(); }
  std::string name() const { return inner.name(); }
  bool user_guards_protect(const SliceGuardContext& c) const { return inner.user_guards_protect(c); }
};
static_assert(CleaningPolicy<observed_policy>);

class Cleaner {
 public:
  explicit Cleaner(Table& t) : t_(t) {}

  /// One run of the cleaner service. Returns true when it deleted files.
  bool run() {
    ++t_.stats.clean_runs;
    const FileMap before = t_.data_files();
    auto md0 = t_.load();
    if (!md0.ok()) {
      t_.unexpected(std::string(kActor), "journal.load", md0.status());
      return false;
    }
    const std::map<InstantTime, bool> cleans_before = clean_states(*md0);
    const ArmedFaultsOfRun faults = arm_faults(before.size());
    Attempt attempt = run_service();
    recover(faults, attempt, before);

    const FileMap removed = removed_from(before);
    auto md1 = t_.load();
    if (!md1.ok()) {
      t_.unexpected(std::string(kActor), "journal.load", md1.status());
      return false;
    }
    std::uint64_t removed_bytes = 0;
    const std::map<InstantTime, FileMap> removed_by =
        attribute_deletions(removed, cleans_before, *md1, attempt.promise, &removed_bytes);
    t_.stats.files_deleted += removed.size();
    t_.stats.bytes_deleted += removed_bytes;
    check_orphan_cutoff(t_, removed);
    check_after_clean(t_, removed_by);

    if (!attempt.report.ok()) {
      failed_run(attempt.report.status(), faults.any, removed, removed_by);
      return !removed.empty();
    }
    check_accounting(*attempt.report, removed, removed_bytes);
    check_finished_plans(*attempt.report);
    if (attempt.report->executed) ++t_.stats.cleans_executed;
    trace_run(*attempt.report, removed, removed_bytes);
    return !removed.empty();
  }

  std::int64_t last_run_ms() const noexcept { return last_run_ms_; }
  /// True when the last run planned (was not skipped by its trigger).
  bool planned_last_run() const noexcept { return planned_last_run_; }
  /// What the policy decided at its last planning, if it ever planned.
  const std::optional<CleanDecision>& last_decision() const noexcept { return last_decision_; }
  const Promise& current_promise() const noexcept { return current_promise_; }

 private:
  static constexpr std::string_view kActor = "cleaner";

  // The faults armed for one run.
  struct ArmedFaultsOfRun {
    bool any = false;
    bool truncated = false;
  };
  // What one run_clean call did and decided.
  struct Attempt {
    StatusOr<CleanRunReport> report = absl::UnknownError("not run");
    std::optional<Promise> promise;
    std::optional<CleanDecision> decision;
  };

  // Each clean on the timeline -> whether it has completed.
  static std::map<InstantTime, bool> clean_states(const TableMetadata& md) {
    std::map<InstantTime, bool> out;
    for (const Instant* c : md.timeline.cleans()) out[c->requested] = c->is_completed();
    return out;
  }

  // Step 1: the faults of this run only (armed by the injector, consumed
  // here): a crash between executor steps, a failed storage call, a short
  // or empty listing of up to `files` files.
  ArmedFaultsOfRun arm_faults(std::size_t files) {
    ArmedFaultsOfRun f;
    if (!t_.faults_enabled) return f;
    if (std::exchange(t_.armed.clean_crash, false)) {
      f.any = true;
      if (t_.rng.chance(1, 2)) {
        const auto k = t_.rng.uniform(0, 2);
        t_.journal.crash_after_transitions(k);
        t_.event(kActor, "fault: crash after {} clean transition(s)", k);
      } else {
        const auto k = t_.rng.uniform(1, 6);
        t_.storage.crash_after_mutations(k);
        t_.event(kActor, "fault: crash after {} storage mutation(s)", k);
      }
    }
    if (std::exchange(t_.armed.clean_failure, false)) {
      f.any = true;
      const auto which = t_.rng.uniform(0, 2);
      const storage_op op = which == 0 ? storage_op::list : which == 1 ? storage_op::stat : storage_op::remove;
      t_.storage.fail_next(op, absl::UnavailableError("injected: storage call failed"));
      t_.event(kActor, "fault: next {} fails", which == 0 ? "list" : which == 1 ? "stat" : "remove");
    }
    if (std::exchange(t_.armed.clean_truncated, false)) {
      f.any = true;
      f.truncated = true;
      const auto n = t_.rng.chance(1, 3) ? 0 : t_.rng.uniform(0, files);
      t_.storage.truncate_next_listing(n);
      t_.event(kActor, "fault: next listing stops after {} file(s)", n);
    }
    return f;
  }

  // Step 2: run_clean, exactly as a user's job calls it, with the policy
  // observed while it decides.
  Attempt run_service() {
    Attempt a;
    CleanContext ctx;
    ctx.now_ms = t_.now();
    if (t_.policy.guards().reader_leases) ctx.leases = t_.lease_list();
    const observed_policy policy{t_.policy, ctx.leases, &a.promise, &a.decision};
    a.report = run_clean(t_.storage, t_.journal, policy, ctx);
    return a;
  }

  // Step 3: recover from a crash, disarm faults the run did not consume (a
  // call refused during a crash did not consume its failure), and remember
  // what the policy decided. A clean planned from a silently truncated
  // listing is noted in the oracle (I6 waiver, the archiver's gap (c)).
  void recover(const ArmedFaultsOfRun& f, const Attempt& a, const FileMap& before) {
    t_.storage.recover();
    t_.journal.recover();
    if (f.any) t_.storage.disarm();
    last_run_ms_ = t_.now();
    planned_last_run_ = a.decision.has_value();
    if (f.truncated && a.decision && a.decision->settings.incremental) t_.oracle.short_listing(before);
    if (f.truncated && a.decision) t_.oracle.truncated_listing(before);
    if (a.decision) last_decision_ = a.decision;
    if (a.promise) current_promise_ = *a.promise;
  }

  // The files of `before` no longer on storage.
  FileMap removed_from(const FileMap& before) const { return files_missing(before, t_.data_files()); }

  // Step 4: which clean's plan named each removed file. A clean this run
  // created is bound to the run's promise; every removed file is recorded
  // in the oracle with the clean that deleted it. A file no plan named is
  // an I7 violation. Returns clean -> files; `bytes` gets their total.
  std::map<InstantTime, FileMap> attribute_deletions(const FileMap& removed,
                                                     const std::map<InstantTime, bool>& cleans_before,
                                                     const TableMetadata& md, const std::optional<Promise>& promise,
                                                     std::uint64_t* bytes) {
    std::vector<InstantTime> involved;
    for (const Instant* c : md.timeline.cleans()) {
      const auto it = cleans_before.find(c->requested);
      if (it == cleans_before.end()) {
        t_.saw_instant(c->requested);
        if (promise) t_.oracle.bind_clean(c->requested, t_.oracle.add_promise(*promise));
        involved.push_back(c->requested);
      } else if (!it->second) {
        involved.push_back(c->requested);
      }
    }
    std::map<std::string, InstantTime> named;
    for (const InstantTime& x : involved) {
      auto plan = t_.journal.read_clean_plan(x);
      if (!plan.ok()) continue;
      for (const auto& [p, files] : plan->files_per_partition) {
        for (const auto& f : files) named.emplace(join_path(p, f.name), x);
      }
    }
    std::map<InstantTime, FileMap> removed_by;
    *bytes = 0;
    for (const auto& [path, size] : removed) {
      *bytes += size;
      const auto it = named.find(path);
      if (it == named.end()) {
        t_.violation(Invariant::I7_accounting, std::string(kActor), path, {},
                     "a file left storage that no clean plan named");
        continue;
      }
      const std::size_t pi = t_.oracle.promise_of(it->second);
      t_.oracle.record_deletion(path, Deletion{it->second, pi, t_.elapsed()});
      removed_by[it->second].emplace(path, size);
    }
    return removed_by;
  }

  // A run that failed: under an injected fault it is counted, and the files
  // it deleted before failing are remembered per clean (the run that
  // finishes the plan must count them as already gone); otherwise the
  // failure is unexpected.
  void failed_run(const Status& st, bool injected, const FileMap& removed,
                  const std::map<InstantTime, FileMap>& removed_by) {
    for (const auto& [x, files] : removed_by) crash_removed_[x] += files.size();
    if (injected) {
      ++t_.stats.clean_errors;
      t_.event(kActor, "run failed under the injected fault: {} ({} file(s) deleted before it)", message_of(st),
               removed.size());
    } else {
      t_.unexpected(std::string(kActor), "run_clean", st);
    }
  }

  // I7: what the run reports is what left storage.
  void check_accounting(const CleanRunReport& report, const FileMap& removed, std::uint64_t removed_bytes) {
    if (report.files_deleted() == removed.size() && report.bytes_deleted() == removed_bytes) return;
    t_.violation(Invariant::I7_accounting, std::string(kActor), {},
                 report.executed ? report.executed->instant : InstantTime(),
                 fmt::format("reported {} file(s) / {} bytes deleted, storage lost {} / {}", report.files_deleted(),
                             report.bytes_deleted(), removed.size(), removed_bytes));
  }

  // I7 and I8 for every clean the run finished (pending ones a crash had
  // left, then its own): it counts exactly the files earlier failed runs
  // deleted as already gone, and executing its plan again deletes nothing.
  void check_finished_plans(const CleanRunReport& report) {
    std::vector<const CleanOutcome*> outcomes;
    for (const CleanOutcome& o : report.finished_pending) outcomes.push_back(&o);
    if (report.executed) outcomes.push_back(&*report.executed);
    for (const CleanOutcome* o : outcomes) {
      const auto it = crash_removed_.find(o->instant);
      // Files of the plan the orphan sweep took meanwhile are gone too: a
      // speculative duplicate becomes its slice's base file once its
      // committed twin is cleaned, and is still an orphan for the sweep.
      const std::uint64_t expected = (it == crash_removed_.end() ? 0 : it->second) + swept_from_plan(o->instant);
      if (o->files_already_gone != expected) {
        t_.violation(Invariant::I7_accounting, std::string(kActor), {}, o->instant,
                     fmt::format("clean {} counted {} file(s) as already gone; earlier failed runs deleted {}",
                                 o->instant, o->files_already_gone, expected));
      }
      if (it != crash_removed_.end()) crash_removed_.erase(it);
      check_idempotence(o->instant);
    }
  }

  // The run's line in the trace.
  void trace_run(const CleanRunReport& report, const FileMap& removed, std::uint64_t removed_bytes) {
    const std::string ectr = report.plan && report.plan->earliest_instant_to_retain
                                 ? report.plan->earliest_instant_to_retain->str()
                                 : std::string("-");
    std::string names;
    for (const auto& [path, size] : removed) names += " " + path;
    const std::string pending = report.finished_pending.empty()
                                    ? std::string()
                                    : fmt::format(" (finished {} pending clean(s))", report.finished_pending.size());
    if (report.executed) {
      t_.event(kActor, "clean {} ECTR {}{} deleted {} file(s), {} bytes:{}", report.executed->instant, ectr, pending,
               removed.size(), removed_bytes, names);
    } else {
      t_.event(kActor, "no clean ({}), ECTR {}{}{}{}", report.skipped_reason, ectr, pending,
               removed.empty() ? "" : " deleted:", names);
    }
  }

  // I8: executing a finished plan again deletes nothing.
  void check_idempotence(const InstantTime& instant) {
    auto plan = t_.journal.read_clean_plan(instant);
    if (!plan.ok()) return;
    memory_journal scratch;
    if (!scratch.request_clean(instant, *plan).ok()) return;
    const std::size_t files = t_.storage.file_count();
    const std::uint64_t bytes = t_.storage.total_bytes();
    auto again = execute_clean(t_.storage, scratch, instant, *plan);
    if (!again.ok()) {
      t_.unexpected(std::string(kActor), "re-executing a finished plan", again.status());
      return;
    }
    if (again->files_deleted != 0 || t_.storage.file_count() != files || t_.storage.total_bytes() != bytes) {
      t_.violation(Invariant::I8_idempotence, std::string(kActor), {}, instant,
                   fmt::format("re-running finished clean {} deleted {} more file(s)", instant, again->files_deleted));
    }
  }

  // Files a pending plan names that the orphan sweep deleted.
  std::uint64_t swept_from_plan(const InstantTime& instant) {
    auto plan = t_.journal.read_clean_plan(instant);
    if (!plan.ok()) return 0;
    std::uint64_t n = 0;
    for (const auto& [p, files] : plan->files_per_partition) {
      for (const auto& f : files) {
        const Deletion* d = t_.oracle.deletion(join_path(p, f.name));
        if (d != nullptr && d->deleter == Deleter::sweep) ++n;
      }
    }
    return n;
  }

  Table& t_;
  std::int64_t last_run_ms_ = 0;
  bool planned_last_run_ = false;
  std::optional<CleanDecision> last_decision_;
  Promise current_promise_;
  std::map<InstantTime, std::uint64_t> crash_removed_;
};

}  // namespace lakegc::sim
