// File: lakegc/hudi/log/hfile_data_block.hpp
// -----------------------------------------------------------------------------
// The content of an HFILE_DATA_BLOCK: a whole HFile (hfile/read_hfile.hpp)
// whose cells are the block's records keyed by record key, written by
// HFileUtils.serializeRecordsToLogBlock. The metadata table writes every
// log block of its partitions this way. The writer schema is the block's
// SCHEMA header (the embedded HFile repeats it in its file info).
#pragma once

#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/hfile/avro_records.hpp"
#include "lakegc/hudi/hfile/read_hfile.hpp"
#include "lakegc/hudi/log/avro_data_block.hpp"
#include "lakegc/hudi/log/block.hpp"

namespace lakegc::hudi::log {

/// The records of an HFILE_DATA_BLOCK, keyed by record key.
inline StatusOr<std::vector<hfile::keyed_record>> decode_hfile_records(const log_block& b,
                                                                       std::string_view file_name_for_errors) {
  const std::string where = fmt::format("{}: HFILE_DATA_BLOCK at byte {}", file_name_for_errors, b.offset);
  if (b.type != block_type::hfile_data) return absl::InvalidArgumentError(fmt::format("{}: not an HFile block", where));
  auto schema = block_schema(b);
  if (!schema.ok()) return annotate(schema.status(), file_name_for_errors);
  // Offsets inside the embedded HFile are relative to the block's content.
  LAKEGC_ASSIGN_OR_RETURN(hfile::hfile_contents contents,
                          hfile::read_hfile(b.content, fmt::format("{} (content at byte {})", where, b.content_offset)));
  return hfile::avro_records(contents, **schema, where);
}

}  // namespace lakegc::hudi::log
