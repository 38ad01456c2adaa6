// File: lakegc/hudi/rollback_log_block.hpp
// -----------------------------------------------------------------------------
// The log file a table-version-6 rollback writes for a file group whose
// earlier slice the failed deltacommit appended log blocks to. Layout 1
// names log files by their slice's base instant, so the failed write's
// blocks sit in a log file that later readers would take as part of the
// slice; a rollback command block after them tells readers to ignore
// every block of the failed instant (needed once the failed instant has
// left the active timeline and its blocks would read as committed).
// Hudi 1.2.0 (RollbackHelperV1.maybeDeleteAndCollectStats):
//
// * The partition's log files of the group's (file id, base instant) are
//   listed; the writer opens the latest of them with its write token,
//   finds it exists and rolls over: the new file is version latest + 1
//   with the latest's write token (no log file: version 1, token 1-0-1).
// * Before the file is created, an APPEND marker under the rollback
//   instant (`.hoodie/.temp/<r>/<partition>/<name>.marker.APPEND`, the
//   writer's file-creation callback); the rollback deletes its own marker
//   folder once it completes.
// * The file holds one COMMAND_BLOCK: INSTANT_TIME the active timeline's
//   last instant (the rollback's own: executing reloads the timeline
//   after the plan is requested), TARGET_INSTANT_TIME the failed instant,
//   COMMAND_BLOCK_TYPE 0 (log/command_block.hpp).
//
// A crash after the rollback completed but before its markers went leaves
// them; the next rollback run (or, in a metadata table, its next write)
// removes them (remove_completed_rollback_markers).
//
// One difference, for crash safety: a rerun of a rollback that already
// wrote the file (its own APPEND marker names it, and it holds exactly a
// rollback block of the failed instant) reuses it, so a resumed rollback ends as an uninterrupted one; Hudi 1.2.0 would
// roll over once more and write a second, equal block.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/file_name.hpp"
#include "lakegc/core/instant_time.hpp"
#include "lakegc/core/status.hpp"
#include "lakegc/core/table_metadata.hpp"
#include "lakegc/core/timeline.hpp"
#include "lakegc/hudi/in_flight.hpp"
#include "lakegc/hudi/log/command_block.hpp"
#include "lakegc/hudi/log/read_blocks.hpp"
#include "lakegc/hudi/log/write_block.hpp"
#include "lakegc/hudi/remove_tree.hpp"
#include "lakegc/storage/path.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc::hudi {

/// HoodieLogFile's token for a writer that was given none (UNKNOWN_WRITE_TOKEN).
inline constexpr std::string_view kUnknownWriteToken = "1-0-1";

/// A rollback log file written (or found written by an earlier attempt).
struct RollbackLogFile {
  std::string path;  ///< relative to the table
  std::uint64_t size = 0;
  bool reused = false;  ///< an earlier attempt of the same rollback wrote it
};

namespace rollback_log_detail {

inline bool same_group(const LogFileName& log, std::string_view file_id, const InstantTime& base) {
  return log.file_id == file_id && log.instant == base && log.cdc == CdcSuffix::none;
}

/// True when `bytes` are one rollback command block undoing `failed`: what
/// an earlier attempt wrote (its INSTANT_TIME may name an older last instant).
inline bool is_rollback_block_of(std::string_view bytes, const InstantTime& failed, std::string_view name) {
  auto blocks = log::read_blocks(bytes, name);
  if (!blocks.ok() || blocks->size() != 1) return false;
  auto c = log::decode_command(blocks->front(), name);
  return c.ok() && c->target_instant_time == failed.str();
}

}  // namespace rollback_log_detail

/// Writes (or finds) the rollback command block for file group `file_id`
/// of `partition`, slice `base`, on behalf of rollback `rollback` of
/// `failed`. `last_instant` is the active timeline's last instant.
template <Storage S>
[[nodiscard]] StatusOr<RollbackLogFile> write_rollback_log_block(S& st, const InstantTime& rollback,
                                                                 const InstantTime& failed,
                                                                 std::string_view last_instant,
                                                                 std::string_view partition, std::string_view file_id,
                                                                 const InstantTime& base) {
  const std::string what =
      fmt::format("rollback {}: the rollback block for file group {} of partition '{}'", rollback, file_id, partition);
  // An earlier attempt's file, named by this rollback's own marker.
  LAKEGC_ASSIGN_OR_RETURN(const std::vector<WrittenFile> own, load_markers(st, rollback));
  for (const WrittenFile& m : own) {
    auto log = parse_log_file_name(m.name);
    if (m.partition != partition || !log.ok() || !rollback_log_detail::same_group(*log, file_id, base)) continue;
    const std::string rel = join_path(partition, m.name);
    auto bytes = st.read(rel);
    if (bytes.ok() && rollback_log_detail::is_rollback_block_of(*bytes, failed, rel)) {
      return RollbackLogFile{rel, bytes->size(), /*reused=*/true};
    }
  }

  std::optional<LogFileName> latest;
  Status listed = st.list(
      partition,
      [&](const FileEntry& e) {
        const auto slash = e.path.rfind('/');
        const std::string_view name = slash == std::string_view::npos ? e.path : e.path.substr(slash + 1);
        if (name.empty() || name.front() != '.') return;
        auto log = parse_log_file_name(name);
        if (!log.ok() || !rollback_log_detail::same_group(*log, file_id, base)) return;
        if (!latest || log->version_number() > latest->version_number()) latest = std::move(*log);
      },
      ListOptions{.recursive = false, .skip_dir = {}});
  if (!listed.ok() && !absl::IsNotFound(listed))
    return annotate(listed, fmt::format("{}: listing the partition", what));

  LogFileName next;
  next.file_id = std::string(file_id);
  next.instant = base;
  if (latest) {
    next.version = fmt::format("{}", latest->version_number() + 1);
    next.write_token = latest->write_token;
  } else {
    next.version = "1";
    next.write_token = std::string(kUnknownWriteToken);
  }
  LAKEGC_ASSIGN_OR_RETURN(const std::string bytes,
                          log::encode_block(log::make_rollback_block(last_instant, failed.str())));
  // The writer's rollover: a name someone took meanwhile moves to the next version.
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::string name = format_file_name(next);
    const std::string rel = join_path(partition, name);
    const std::string marker = fmt::format("{}/{}/{}.marker.APPEND", kMarkerDir, rollback, rel);
    if (st.stat(rel).ok()) {  // the cheap answer; write_if_absent below decides
      next.version = fmt::format("{}", next.version_number() + 1);
      continue;
    }
    if (Status m = st.write_if_absent(marker, ""); !m.ok() && !absl::IsAlreadyExists(m)) {
      return annotate(m, fmt::format("{}: marker {}", what, marker));
    }
    const Status w = st.write_if_absent(rel, bytes);
    if (w.ok()) return RollbackLogFile{rel, bytes.size(), /*reused=*/false};
    if (!absl::IsAlreadyExists(w)) return annotate(w, fmt::format("{}: {}", what, rel));
    next.version = fmt::format("{}", next.version_number() + 1);
  }
  return absl::AbortedError(fmt::format("{}: 100 log versions after {} exist", what, format_file_name(next)));
}

/// Removes the APPEND markers of completed rollbacks on `timeline`
/// (`.hoodie/.temp/<r>/`, written before each rollback block and removed
/// once the rollback completes): a crash between those two steps leaves
/// them, and no later step of that rollback would look at them. They name
/// only the finished rollback's own log files.
template <Storage S>
[[nodiscard]] Status remove_completed_rollback_markers(S& st, const TableLocation& where, const Timeline& timeline) {
  for (const Instant& i : timeline.instants()) {
    if (i.action != Action::rollback || !i.is_completed()) continue;
    LAKEGC_RETURN_IF_ERROR(remove_tree(st, where, fmt::format("{}/{}", kMarkerDir, i.requested)).status());
  }
  return Status();
}

}  // namespace lakegc::hudi
