// File: lakegc/sim/shared_metadata.hpp
// -----------------------------------------------------------------------------
// SharedMetadata: one load of the table's journal, shared by every actor and
// checker that loads before the journal next changes (Table::load). Loading
// copies every commit's file list; the simulator loads at every step, and
// most steps change nothing in between.
//
// It reads like the StatusOr<TableMetadata> it holds (ok(), status(), *, ->),
// but what it points to is immutable: a load made before a change keeps the
// metadata of its time, as a copy would.
#pragma once

#include <memory>
#include <utility>

#include "lakegc/core/status.hpp"
#include "lakegc/core/table_metadata.hpp"

namespace lakegc::sim {

class SharedMetadata {
 public:
  explicit SharedMetadata(std::shared_ptr<const StatusOr<TableMetadata>> md) : md_(std::move(md)) {}

  bool ok() const noexcept { return md_->ok(); }
  const Status& status() const noexcept { return md_->status(); }
  /// The metadata; a failed load aborts, as StatusOr::value() does.
  const TableMetadata& value() const { return md_->value(); }
  const TableMetadata& operator*() const { return **md_; }
  const TableMetadata* operator->() const { return &**md_; }

 private:
  std::shared_ptr<const StatusOr<TableMetadata>> md_;
};

}  // namespace lakegc::sim
