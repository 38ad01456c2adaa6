// File: lakegc/hudi/log/command_block.hpp
// -----------------------------------------------------------------------------
// COMMAND_BLOCKs. Hudi defines one command, ROLLBACK_BLOCK: appended to a
// log file by the rollback of a failed (or restored) deltacommit, it tells
// readers to ignore every block whose INSTANT_TIME is its
// TARGET_INSTANT_TIME. Its content is empty; the command is in the header
// (RollbackUtils.generateHeader):
//
//   INSTANT_TIME         the rollback instant
//   TARGET_INSTANT_TIME  the instant rolled back
//   COMMAND_BLOCK_TYPE   "0" (the ordinal of ROLLBACK_BLOCK, as text)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/log/block.hpp"

namespace lakegc::hudi::log {

struct command {
  command_type type = command_type::rollback;
  std::string instant_time;         ///< INSTANT_TIME: who wrote the block
  std::string target_instant_time;  ///< TARGET_INSTANT_TIME: what it rolls back

  friend bool operator==(const command&, const command&) = default;
};

/// The command of a COMMAND_BLOCK. DataLoss when COMMAND_BLOCK_TYPE is
/// missing or not a command Hudi defines, or a rollback has no target
/// (HoodieCommandBlock's constructor fails on the same blocks).
[[nodiscard]] inline StatusOr<command> decode_command(const log_block& b, std::string_view file_name_for_errors) {
  auto fail = [&](std::string_view why) {
    return absl::DataLossError(fmt::format("{}: COMMAND_BLOCK at byte {}: {}", file_name_for_errors, b.offset, why));
  };
  if (b.type != block_type::command) return fail("not a command block");
  const auto type = b.get(header_key::command_block_type);
  if (!type) return fail("no COMMAND_BLOCK_TYPE header");
  if (*type != "0") return fail(fmt::format("COMMAND_BLOCK_TYPE '{}' is not a command Hudi defines", *type));
  command c;
  c.instant_time = std::string(b.instant_time());
  const auto target = b.get(header_key::target_instant_time);
  if (!target || target->empty()) return fail("a rollback without TARGET_INSTANT_TIME");
  c.target_instant_time = std::string(*target);
  return c;
}

/// The ROLLBACK_BLOCK that `rollback_instant` appends to undo the blocks of
/// `target_instant`.
inline log_block make_rollback_block(std::string_view rollback_instant, std::string_view target_instant) {
  log_block b;
  b.type = block_type::command;
  b.header[header_key::instant_time] = std::string(rollback_instant);
  b.header[header_key::target_instant_time] = std::string(target_instant);
  b.header[header_key::command_block_type] = fmt::format("{}", static_cast<std::int32_t>(command_type::rollback));
  return b;
}

}  // namespace lakegc::hudi::log
