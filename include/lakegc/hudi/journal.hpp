// File: lakegc/hudi/journal.hpp
// -----------------------------------------------------------------------------
// hudi::journal<Storage>: a real Hudi table's timeline as a lakegc Journal.
//
// open() reads `.hoodie/hoodie.properties` through a Storage rooted at the
// table; the rest is delegated, one job per header:
//   timeline_listing.hpp    the timeline folder listed and folded
//   load_metadata.hpp       TableMetadata from the instant files (load)
//   clean_instants.hpp      a clean's requested / inflight / completed files
//   plan_paths.hpp          a plan's paths resolved to partition file names
//   partition_metadata.hpp  `.hoodie_partition_metadata`
// The journal holds what those need: the storage, the table's properties,
// how the caller names the table, and the clock for completion times.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/table_metadata.hpp"
#include "lakegc/exec/journal.hpp"
#include "lakegc/hudi/clean_instants.hpp"
#include "lakegc/hudi/load_metadata.hpp"
#include "lakegc/hudi/partition_metadata.hpp"
#include "lakegc/hudi/table_location.hpp"
#include "lakegc/hudi/table_properties.hpp"
#include "lakegc/hudi/timeline_listing.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc::hudi {

struct JournalOptions {
  /// Wall clock (epoch milliseconds) for the completion time of cleans this
  /// journal completes in layout 2. Empty: the system clock. The Journal
  /// concept's complete_clean takes no time, so this is where it comes from;
  /// the free complete_clean (clean_instants.hpp) takes it as an argument.
  std::function<std::int64_t()> now_ms;
};

template <Storage S>
class journal {
 public:
  /// Opens the table whose root `storage` is rooted at. `base_path` is how
  /// the caller names that root (a directory or a URI); it prefixes file
  /// paths written into clean plans and names files in errors.
  [[nodiscard]] static StatusOr<journal> open(S& storage, std::string base_path, JournalOptions options = {}) {
    journal j(storage, TableLocation::of(std::move(base_path)), std::move(options));
    const std::string where = j.display(kPropertiesPath);
    auto bytes = storage.read(kPropertiesPath);
    if (!bytes.ok()) {
      if (absl::IsNotFound(bytes.status())) {
        return absl::NotFoundError(
            fmt::format("{}: not found: '{}' is not a Hudi table (a table root holds .hoodie/hoodie.properties)", where,
                        j.table_.base_path.empty() ? std::string(".") : j.table_.base_path));
      }
      return annotate(bytes.status(), where);
    }
    LAKEGC_ASSIGN_OR_RETURN(j.props_, parse_table_properties(*bytes, where));
    return j;
  }

  const TableProperties& properties() const noexcept { return props_; }
  const std::string& base_path() const noexcept { return table_.base_path; }
  const TableLocation& location() const noexcept { return table_; }
  S& storage() noexcept { return *storage_; }

  /// `base_path/rel`, how errors name a file of the table.
  std::string display(std::string_view rel) const { return table_.display(rel); }

  /// The instant files of the timeline folder in listing order.
  [[nodiscard]] StatusOr<std::vector<TimelineFile>> list_timeline() {
    return list_timeline_files(*storage_, props_, table_);
  }

  /// The Timeline the files make, without reading any content.
  [[nodiscard]] StatusOr<Timeline> load_timeline() { return hudi::load_timeline(*storage_, props_, table_); }

  // --- Journal ---------------------------------------------------------------

  [[nodiscard]] StatusOr<TableMetadata> load() { return load_table_metadata(*storage_, props_, table_); }

  [[nodiscard]] Status request_clean(const InstantTime& t, const CleanPlan& plan) {
    return hudi::request_clean(*storage_, props_, table_, t, plan);
  }

  [[nodiscard]] StatusOr<CleanPlan> read_clean_plan(const InstantTime& t) {
    return hudi::read_clean_plan(*storage_, props_, table_, t);
  }

  [[nodiscard]] Status start_clean(const InstantTime& t) { return hudi::start_clean(*storage_, props_, table_, t); }

  [[nodiscard]] Status complete_clean(const InstantTime& t, const lakegc::CompletedClean& m) {
    return hudi::complete_clean(*storage_, props_, table_, t, m, now_ms());
  }

  // --- partitions -------------------------------------------------------------

  /// Reads `<partition>/.hoodie_partition_metadata`. Errors name the file.
  [[nodiscard]] StatusOr<PartitionMetadata> read_partition_metadata(std::string_view partition) {
    return hudi::read_partition_metadata(*storage_, table_, partition);
  }

 private:
  journal(S& storage, TableLocation table, JournalOptions options)
      : storage_(&storage), table_(std::move(table)), options_(std::move(options)) {}

  std::int64_t now_ms() const {
    if (options_.now_ms) return options_.now_ms();
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
  }

  S* storage_;
  TableLocation table_;
  JournalOptions options_;
  TableProperties props_;
};

}  // namespace lakegc::hudi
