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

#include "lakegc/exec/journal.hpp"
#include "lakegc/plan/plan_clean.hpp"
#include "lakegc/plan/plan_rollback.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc {

template <typename J>
concept RollbackJournal = Journal<J> && requires(J& j, const InstantTime& t) {
  { j.rollback(t) } -> std::same_as<Status>;
};

struct RollbackOutcome {
  std::uint64_t instants_rolled_back = 0;
  std::uint64_t files_deleted = 0;
  std::uint64_t files_already_gone = 0;
  std::uint64_t bytes_deleted = 0;
};

template <Storage S, RollbackJournal J>
StatusOr<RollbackOutcome> execute_rollback(S& storage, J& journal, const RollbackPlan& plan) {
  RollbackOutcome out;
  for (const RollbackAction& a : plan.rollbacks) {
    for (const WrittenFile& f : a.files) {
      const std::string path = join_path(f.partition, f.name);
      Status st = storage.remove(path);
      if (st.ok()) {
        ++out.files_deleted;
        out.bytes_deleted += f.size;
      } else if (absl::IsNotFound(st)) {
        ++out.files_already_gone;
      } else {
        return annotate(st, fmt::format("rollback of {}: deleting '{}'", a.instant, path));
      }
    }
    LAKEGC_RETURN_IF_ERROR(annotate(journal.rollback(a.instant), fmt::format("rollback of {}", a.instant)));
    ++out.instants_rolled_back;
  }
  return out;
}

}  // namespace lakegc
