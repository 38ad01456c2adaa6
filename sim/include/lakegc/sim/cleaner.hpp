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
// listing. Faults are armed right before the run and drained right after,
// so none leaks into another actor's call.
#pragma once

#include <map>
#include <optional>
#include <string>
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
    const std::string actor = "cleaner";
    ++t_.stats.clean_runs;
    const FileMap before = t_.data_files();
    auto md0 = t_.load();
    if (!md0.ok()) {
      t_.unexpected(actor, "journal.load", md0.status());
      return false;
    }
    std::map<InstantTime, bool> cleans_before;  // instant -> completed
    for (const Instant* c : md0->timeline.cleans()) cleans_before[c->requested] = c->is_completed();

    // Faults for this run only.
    bool injected = false;
    std::optional<storage_op> failed_op;
    bool truncated = false;
    if (t_.faults_enabled) {
      if (std::exchange(t_.armed.clean_crash, false)) {
        injected = true;
        if (t_.rng.chance(1, 2)) {
          const auto k = t_.rng.uniform(0, 2);
          t_.journal.crash_after_transitions(k);
          t_.event(actor, "fault: crash after {} clean transition(s)", k);
        } else {
          const auto k = t_.rng.uniform(1, 6);
          t_.storage.crash_after_mutations(k);
          t_.event(actor, "fault: crash after {} storage mutation(s)", k);
        }
      }
      if (std::exchange(t_.armed.clean_failure, false)) {
        injected = true;
        const auto which = t_.rng.uniform(0, 2);
        failed_op = which == 0 ? storage_op::list : which == 1 ? storage_op::stat : storage_op::remove;
        t_.storage.fail_next(*failed_op, absl::UnavailableError("injected: storage call failed"));
        t_.event(actor, "fault: next {} fails", which == 0 ? "list" : which == 1 ? "stat" : "remove");
      }
      if (std::exchange(t_.armed.clean_truncated, false)) {
        injected = true;
        truncated = true;
        const auto n = t_.rng.chance(1, 3) ? 0 : t_.rng.uniform(0, before.size());
        t_.storage.truncate_next_listing(n);
        t_.event(actor, "fault: next listing stops after {} file(s)", n);
      }
    }

    CleanContext ctx;
    ctx.now_ms = t_.now();
    if (t_.policy.guards().reader_leases) ctx.leases = t_.lease_list();
    std::optional<Promise> promise;
    std::optional<CleanDecision> decision;
    const observed_policy policy{t_.policy, ctx.leases, &promise, &decision};
    auto report = run_clean(t_.storage, t_.journal, policy, ctx);

    // Recover from the crash and drain unconsumed faults.
    t_.storage.recover();
    t_.journal.recover();
    if (failed_op) drain(*failed_op);  // a call refused during a crash did not consume it
    if (truncated) (void)t_.storage.list("", [](const FileEntry&) {}, ListOptions{false, {}});
    last_run_ms_ = t_.now();
    planned_last_run_ = decision.has_value();
    if (truncated && decision && decision->settings.incremental) t_.oracle.short_listing(before);
    if (truncated && decision) t_.oracle.truncated_listing(before);
    if (decision) last_decision_ = decision;
    if (promise) current_promise_ = *promise;

    // What left storage, and which clean's plan named it.
    const FileMap after = t_.data_files();
    FileMap removed;
    for (const auto& [path, size] : before) {
      if (!after.contains(path)) removed.emplace(path, size);
    }
    auto md1 = t_.load();
    if (!md1.ok()) {
      t_.unexpected(actor, "journal.load", md1.status());
      return false;
    }
    std::vector<InstantTime> involved;
    for (const Instant* c : md1->timeline.cleans()) {
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
    std::uint64_t removed_bytes = 0;
    for (const auto& [path, size] : removed) {
      removed_bytes += size;
      const auto it = named.find(path);
      if (it == named.end()) {
        t_.violation(Invariant::I7_accounting, actor, path, {}, "a file left storage that no clean plan named");
        continue;
      }
      const std::size_t pi = t_.oracle.promise_of(it->second);
      t_.oracle.record_deletion(path, Deletion{it->second, pi, t_.elapsed()});
      removed_by[it->second].emplace(path, size);
    }
    t_.stats.files_deleted += removed.size();
    t_.stats.bytes_deleted += removed_bytes;
    check_orphan_cutoff(t_, removed);
    check_after_clean(t_, removed_by);

    if (!report.ok()) {
      for (const auto& [x, files] : removed_by) crash_removed_[x] += files.size();
      if (injected) {
        ++t_.stats.clean_errors;
        t_.event(actor, "run failed under the injected fault: {} ({} file(s) deleted before it)",
                 message_of(report.status()), removed.size());
      } else {
        t_.unexpected(actor, "run_clean", report.status());
      }
      return !removed.empty();
    }

    // I7: what the run reports is what left storage.
    if (report->files_deleted() != removed.size() || report->bytes_deleted() != removed_bytes) {
      t_.violation(Invariant::I7_accounting, actor, {}, report->executed ? report->executed->instant : InstantTime(),
                   fmt::format("reported {} file(s) / {} bytes deleted, storage lost {} / {}", report->files_deleted(),
                               report->bytes_deleted(), removed.size(), removed_bytes));
    }
    std::vector<const CleanOutcome*> outcomes;
    for (const CleanOutcome& o : report->finished_pending) outcomes.push_back(&o);
    if (report->executed) outcomes.push_back(&*report->executed);
    for (const CleanOutcome* o : outcomes) {
      const auto it = crash_removed_.find(o->instant);
      // Files of the plan the orphan sweep took meanwhile are gone too: a
      // speculative duplicate becomes its slice's base file once its
      // committed twin is cleaned, and is still an orphan for the sweep.
      const std::uint64_t expected = (it == crash_removed_.end() ? 0 : it->second) + swept_from_plan(o->instant);
      if (o->files_already_gone != expected) {
        t_.violation(Invariant::I7_accounting, actor, {}, o->instant,
                     fmt::format("clean {} counted {} file(s) as already gone; earlier failed runs deleted {}",
                                 o->instant, o->files_already_gone, expected));
      }
      if (it != crash_removed_.end()) crash_removed_.erase(it);
      check_idempotence(o->instant);
    }

    if (report->executed) ++t_.stats.cleans_executed;
    const std::string ectr = report->plan && report->plan->earliest_instant_to_retain
                                 ? report->plan->earliest_instant_to_retain->str()
                                 : std::string("-");
    std::string names;
    for (const auto& [path, size] : removed) names += " " + path;
    const std::string pending = report->finished_pending.empty()
                                    ? std::string()
                                    : fmt::format(" (finished {} pending clean(s))", report->finished_pending.size());
    if (report->executed) {
      t_.event(actor, "clean {} ECTR {}{} deleted {} file(s), {} bytes:{}", report->executed->instant, ectr, pending,
               removed.size(), removed_bytes, names);
    } else {
      t_.event(actor, "no clean ({}), ECTR {}{}{}{}", report->skipped_reason, ectr, pending,
               removed.empty() ? "" : " deleted:", names);
    }
    return !removed.empty();
  }

  std::int64_t last_run_ms() const noexcept { return last_run_ms_; }
  /// True when the last run planned (was not skipped by its trigger).
  bool planned_last_run() const noexcept { return planned_last_run_; }
  /// What the policy decided at its last planning, if it ever planned.
  const std::optional<CleanDecision>& last_decision() const noexcept { return last_decision_; }
  const Promise& current_promise() const noexcept { return current_promise_; }

 private:
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
      t_.unexpected("cleaner", "re-executing a finished plan", again.status());
      return;
    }
    if (again->files_deleted != 0 || t_.storage.file_count() != files || t_.storage.total_bytes() != bytes) {
      t_.violation(Invariant::I8_idempotence, "cleaner", {}, instant,
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
        if (d != nullptr && d->by_sweep) ++n;
      }
    }
    return n;
  }

  void drain(storage_op op) {
    switch (op) {
      case storage_op::list: (void)t_.storage.list("lakegc-sim-drain", [](const FileEntry&) {}); break;
      case storage_op::stat: (void)t_.storage.stat("lakegc-sim-drain"); break;
      case storage_op::remove: (void)t_.storage.remove("lakegc-sim-drain"); break;
      default: break;
    }
  }

  Table& t_;
  std::int64_t last_run_ms_ = 0;
  bool planned_last_run_ = false;
  std::optional<CleanDecision> last_decision_;
  Promise current_promise_;
  std::map<InstantTime, std::uint64_t> crash_removed_;
};

}  // namespace lakegc::sim
