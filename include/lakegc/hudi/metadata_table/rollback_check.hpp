// File: lakegc/hudi/metadata_table/rollback_check.hpp
// -----------------------------------------------------------------------------
// What a data-table rollback does to the metadata table in Hudi 1.2
// (HoodieBackedTableMetadataWriter.update(HoodieRollbackMetadata, instant)):
// if the metadata table's timeline has a deltacommit at the failed
// instant's time (the write got as far as its metadata commit), that
// deltacommit is rolled back in the metadata table; otherwise nothing is
// written ("Ignoring rollback of instant ... not found in MDT"). A failed
// write that never reached the metadata table left nothing there: its
// files were never listed in `files`.
//
// lakegc does not roll back metadata-table instants, so check_rollback_update
// refuses a rollback whose failed instant has any metadata-table instant, and
// an unreadable metadata-table timeline; otherwise the rollback needs no
// metadata-table change.
#pragma once

#include <string>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/instant_time.hpp"
#include "lakegc/hudi/journal.hpp"
#include "lakegc/hudi/metadata_table/files_partition.hpp"
#include "lakegc/hudi/subfolder_storage.hpp"

namespace lakegc::hudi::metadata_table {

/// OK when rolling back `failed` (data-table instants) needs no change to
/// the metadata table under `base_path` (FailedPrecondition naming why
/// otherwise). `storage` is rooted at the data table.
template <Storage S>
[[nodiscard]] Status check_rollback_update(S& storage, const std::string& base_path,
                                           const std::vector<InstantTime>& failed) {
  if (failed.empty()) return Status();
  subfolder_storage<S> mdt(storage, std::string(folder));
  const std::string mdt_path = fmt::format("{}/{}", base_path, folder);
  auto refused = [](const std::string& why) { return absl::FailedPreconditionError(why); };
  auto j = hudi::journal<subfolder_storage<S>>::open(mdt, mdt_path);
  if (!j.ok()) return refused(fmt::format("the metadata table cannot be read: {}", message_of(j.status())));
  auto timeline = j->load_timeline();
  if (!timeline.ok()) {
    return refused(fmt::format("the metadata table cannot be read: {}", message_of(timeline.status())));
  }
  for (const InstantTime& t : failed) {
    if (const Instant* i = timeline->find(t)) {
      return refused(fmt::format(
          "the metadata table has a {} {} ({}) of the failed write {}: Hudi rolls it back in the metadata table, "
          "which lakegc does not do yet",
          to_string(i->action), t, to_string(i->state), t));
    }
  }
  return Status();
}

}  // namespace lakegc::hudi::metadata_table
