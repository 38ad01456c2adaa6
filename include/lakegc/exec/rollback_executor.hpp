// File: lakegc/exec/rollback_executor.hpp
// -----------------------------------------------------------------------------
// Executes a rollback plan: deletes each failed write's files (a missing file
// counts as deleted), then removes its instant from the timeline, in that
// order, so a crash in between is finished by the next run (the instant is
// still pending and its markers still name the files).
//
// RollbackJournal concept: a Journal that can also roll back a pending write,
// `j.rollback(t)` -> Status. Models: memory_journal.
#pragma once

#include "lakegc/exec/delete_tally.hpp"
#include "lakegc/exec/journal.hpp"
#include "lakegc/plan/plan_clean.hpp"
#include "lakegc/plan/plan_rollback.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc {

template <typename J>
concept RollbackJournal = Journal<J> && requires(J& j, const InstantTime& t) {
  { j.rollback(t) } -> std::same_as<Status>;
};

struct RollbackOutcome : DeleteTally {
  std::uint64_t instants_rolled_back = 0;
};

template <Storage S, RollbackJournal J>
[[nodiscard]] StatusOr<RollbackOutcome> execute_rollback(S& storage, J& journal, const RollbackPlan& plan) {
  RollbackOutcome out;
  for (const RollbackAction& a : plan.rollbacks) {
    for (const WrittenFile& f : a.files) {
      const std::string path = join_path(f.partition, f.name);
      LAKEGC_RETURN_IF_ERROR(out.record(storage.remove(path), path, f.size, fmt::format("rollback of {}", a.instant)));
    }
    LAKEGC_RETURN_IF_ERROR(annotate(journal.rollback(a.instant), fmt::format("rollback of {}", a.instant)));
    ++out.instants_rolled_back;
  }
  return out;
}

}  // namespace lakegc
