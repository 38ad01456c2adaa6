// File: lakegc/exec/table_lock.hpp
// -----------------------------------------------------------------------------
// The lock a table's writers share. Hudi's table services take it for their
// state changes, not for their work: a clean is scheduled under it (the
// timeline reloaded, the plan made, the instant time allocated later than
// every instant, the requested plan written) and completed under it (the
// metadata table updated, the completed instant written); the deletes in
// between run without it. run_clean and execute_clean hold a TableLock at
// exactly those two steps.
//
// A TableLock is two callables, so any provider plugs in: Hudi's file-system
// lock (hudi/lock.hpp), a test's recorder, or none.
#pragma once

#include <functional>
#include <string>
#include <utility>

#include "lakegc/core/status.hpp"

namespace lakegc {

struct TableLock {
  /// Takes the lock, waiting as the provider's settings say; an error when
  /// it cannot be had (nothing may then change).
  std::function<Status()> acquire;
  /// Gives it back.
  std::function<Status()> release;
  /// What it is, for reports ("file-system lock .hoodie/lock").
  std::string description;
};

/// Holds `lock` (if any) for a scope. `held()` is false and `status()` says
/// why when acquiring failed.
class TableLockHold {
 public:
  explicit TableLockHold(const TableLock* lock) : lock_(lock) {
    if (lock_ != nullptr && lock_->acquire) status_ = lock_->acquire();
    held_ = lock_ != nullptr && status_.ok();
  }
  TableLockHold(const TableLockHold&) = delete;
  TableLockHold& operator=(const TableLockHold&) = delete;
  ~TableLockHold() { (void)release(); }

  const Status& status() const noexcept { return status_; }

  /// Gives the lock back now; the error of a failed release.
  [[nodiscard]] Status release() {
    if (!held_) return Status();
    held_ = false;
    return lock_->release ? lock_->release() : Status();
  }

 private:
  const TableLock* lock_;
  Status status_;
  bool held_ = false;
};

}  // namespace lakegc
