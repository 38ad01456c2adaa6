// File: lakegc/hudi/metadata_table/log_scan.hpp
// -----------------------------------------------------------------------------
// Reads the log files of one metadata-table file slice into its records in
// log order, keeping only the blocks Hudi's log record reader keeps
// (AbstractHoodieLogRecordReader with the metadata table's valid instants):
//
//  * a data or delete block whose INSTANT_TIME is not valid (`valid`: an
//    instant the metadata table completed and the data table does not still
//    have pending; see files_partition.hpp) is skipped: it belongs to a
//    write that failed or is still running;
//  * a ROLLBACK command block drops the blocks of its TARGET_INSTANT_TIME
//    that come before it, in any of the slice's log files (in log order);
//    blocks of that instant after it count again, as in Hudi's forward
//    pass (scanInternalV2): a version-6 metadata table writes a deltacommit
//    again after rolling it back (a clean finished or repaired);
//  * a block of a log compaction (COMPACTED_BLOCK_TIMES header) replaces
//    the blocks of the instants it lists;
//  * a corrupt block is skipped and counted, as Hudi skips it (a caller that
//    must not act on a partial listing checks the count).
//
// Records come from HFILE_DATA_BLOCKs (what the metadata table writes),
// AVRO_DATA_BLOCKs (their `key` field is the key) and DELETE_BLOCKs (a
// deleted key has no record).
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <absl/strings/str_split.h>
#include <fmt/format.h>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/avro/datum.hpp"
#include "lakegc/hudi/log/avro_data_block.hpp"
#include "lakegc/hudi/log/block.hpp"
#include "lakegc/hudi/log/command_block.hpp"
#include "lakegc/hudi/log/delete_block.hpp"
#include "lakegc/hudi/log/hfile_data_block.hpp"
#include "lakegc/hudi/log/read_blocks.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc::hudi::metadata_table {

/// One record of a log block: a new value for `key`, or its deletion.
struct log_record {
  std::string key;
  std::optional<avro::datum> record;  ///< empty: the key was deleted
  std::string instant;                ///< INSTANT_TIME of its block
};

struct log_scan {
  std::vector<log_record> records;
  std::size_t blocks_read = 0;
  std::size_t corrupt_blocks = 0;
  std::size_t invalid_instant_blocks = 0;  ///< of failed or running writes
  std::size_t rolled_back_blocks = 0;
  std::size_t compacted_away_blocks = 0;
  /// One line per skipped block: file, offset and why.
  std::vector<std::string> skipped;
};

namespace detail {

struct located_block {
  std::string file;
  log::log_block block;
};

inline bool is_data_or_delete(log::block_type t) {
  return t != log::block_type::command && t != log::block_type::corrupt;
}

[[nodiscard]] inline Status append_records(const located_block& lb, std::vector<log_record>& out) {
  const log::log_block& b = lb.block;
  const std::string instant(b.instant_time());
  switch (b.type) {
    case log::block_type::hfile_data: {
      LAKEGC_ASSIGN_OR_RETURN(auto records, log::decode_hfile_records(b, lb.file));
      for (auto& r : records) out.push_back({std::move(r.key), std::move(r.record), instant});
      return Status();
    }
    case log::block_type::avro_data: {
      LAKEGC_ASSIGN_OR_RETURN(auto records, log::decode_avro_records(b, lb.file));
      for (auto& r : records) {
        const auto key = r.field("key").as_string();
        if (!key) {
          return absl::DataLossError(
              fmt::format("{}: AVRO_DATA_BLOCK at byte {}: a record without a string \"key\"", lb.file, b.offset));
        }
        out.push_back({std::string(*key), std::move(r), instant});
      }
      return Status();
    }
    case log::block_type::delete_keys: {
      LAKEGC_ASSIGN_OR_RETURN(auto deletes, log::decode_delete_records(b, lb.file));
      for (auto& d : deletes) {
        if (!d.record_key) {
          return absl::DataLossError(
              fmt::format("{}: DELETE_BLOCK at byte {}: a deleted record without a key", lb.file, b.offset));
        }
        out.push_back({std::move(*d.record_key), std::nullopt, instant});
      }
      return Status();
    }
    default:
      return absl::UnimplementedError(
          fmt::format("{}: {} at byte {}: the metadata table does not write this block type", lb.file,
                      log::block_type_name(b.type), b.offset));
  }
}

}  // namespace detail

/// Scans `log_paths` (relative to `storage`'s root, oldest first) keeping the
/// blocks `valid(instant_time)` accepts.
template <Storage S, class Valid>
[[nodiscard]] StatusOr<log_scan> scan_logs(S& storage, std::span<const std::string> log_paths, Valid&& valid) {
  log_scan out;
  std::vector<detail::located_block> blocks;
  for (const auto& path : log_paths) {
    LAKEGC_ASSIGN_OR_RETURN(std::string bytes, storage.read(path));
    LAKEGC_ASSIGN_OR_RETURN(auto file_blocks, log::read_blocks(bytes, path));
    for (auto& b : file_blocks) blocks.push_back({path, std::move(b)});
  }
  out.blocks_read = blocks.size();

  // First pass: each rollback target's last rollback block, and instants
  // replaced by log compaction.
  std::map<std::string, std::size_t, std::less<>> last_rollback;
  std::set<std::string, std::less<>> compacted;
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    const auto& lb = blocks[k];
    if (lb.block.type == log::block_type::command) {
      LAKEGC_ASSIGN_OR_RETURN(log::command c, log::decode_command(lb.block, lb.file));
      last_rollback[c.target_instant_time] = k;
    } else if (detail::is_data_or_delete(lb.block.type) && valid(lb.block.instant_time())) {
      if (const auto times = lb.block.get(log::header_key::compacted_block_times)) {
        for (absl::string_view t : absl::StrSplit(lakegc::detail::to_absl(*times), ',', absl::SkipEmpty())) {
          compacted.insert(std::string(t));
        }
      }
    }
  }

  for (std::size_t k = 0; k < blocks.size(); ++k) {
    const auto& lb = blocks[k];
    const log::log_block& b = lb.block;
    const auto skip = [&](std::size_t& counter, std::string_view why) {
      ++counter;
      out.skipped.push_back(fmt::format("{}: {} at byte {}: {}", lb.file, log::block_type_name(b.type), b.offset, why));
    };
    if (b.is_corrupt()) {
      skip(out.corrupt_blocks, b.corrupt_reason);
      continue;
    }
    if (!detail::is_data_or_delete(b.type)) continue;
    const std::string_view instant = b.instant_time();
    if (!valid(instant)) {
      skip(out.invalid_instant_blocks, fmt::format("instant {} is not a completed write", instant));
      continue;
    }
    if (const auto r = last_rollback.find(instant); r != last_rollback.end() && k < r->second) {
      skip(out.rolled_back_blocks, fmt::format("instant {} was rolled back", instant));
      continue;
    }
    if (!b.get(log::header_key::compacted_block_times) && compacted.contains(instant)) {
      skip(out.compacted_away_blocks, fmt::format("instant {} was merged by a log compaction", instant));
      continue;
    }
    LAKEGC_RETURN_IF_ERROR(detail::append_records(lb, out.records));
  }
  return out;
}

}  // namespace lakegc::hudi::metadata_table
