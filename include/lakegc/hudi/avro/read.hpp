// File: lakegc/hudi/avro/read.hpp
// -----------------------------------------------------------------------------
// Reads Avro object container files into datums: the framing
// (container.hpp), the embedded writer schema (schema.hpp, parsed once per
// distinct text) and one checking pass over each block that decodes its
// records (decode.hpp). Hudi writes every non-JSON timeline file (clean
// plans, rollback metadata, compaction plans, and all commit metadata from
// table version 8 on) as a container with the writer schema in its header,
// so no .avsc file is needed to read them.
//
// Errors: bytes that are not a container are InvalidArgument; a truncated or
// damaged one, or one whose schema does not parse, is DataLoss; a codec other
// than null is Unimplemented. Messages say what was wrong and where.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/avro/container.hpp"
#include "lakegc/hudi/avro/datum.hpp"
#include "lakegc/hudi/avro/decode.hpp"
#include "lakegc/hudi/avro/schema.hpp"

namespace lakegc::hudi::avro {

/// The decoded contents of an object container file.
struct container {
  std::string schema_json;  ///< writer schema, as embedded in the header
  std::string codec;        ///< always "null" (see container.hpp)
  std::vector<datum> records;
};

/// Decodes every record of the container `bytes`; errors carry no file name.
[[nodiscard]] inline StatusOr<container> decode_container(std::string_view bytes) {
  container_layout layout;
  LAKEGC_RETURN_IF_ERROR(parse_container_layout(bytes, layout));
  auto parsed = cached_schema(layout.schema_json);
  if (!parsed.ok()) return annotate(parsed.status(), "cannot parse the embedded writer schema");
  const schema& s = **parsed;

  container out;
  out.schema_json.assign(layout.schema_json);
  out.codec.assign(layout.codec);
  for (const auto& block : layout.blocks) {
    byte_cursor in(block.data, block.offset);
    std::int64_t budget = static_cast<std::int64_t>(block.data.size()) + 1;
    for (std::int64_t i = 0; i < block.count; ++i) {
      if (budget <= 0) {
        return absl::DataLossError(fmt::format("block at byte {}: object count {} exceeds what the block can hold",
                                               block.offset, block.count));
      }
      --budget;
      datum d;
      LAKEGC_RETURN_IF_ERROR(
          annotate(decode_value(s, in, budget, d), fmt::format("block at byte {}, object {}", block.offset, i)));
      out.records.push_back(std::move(d));
    }
    if (!in.at_end()) {
      return absl::DataLossError(fmt::format("block at byte {}: {} bytes left over after {} objects", block.offset,
                                             in.remaining(), block.count));
    }
  }
  return out;
}

/// Decodes every record of the object container file `bytes`. Errors name
/// `file_name_for_errors`: "<file>: expected Avro object container: <why>".
[[nodiscard]] inline StatusOr<container> read_container(std::string_view bytes, std::string_view file_name_for_errors) {
  auto c = decode_container(bytes);
  if (!c.ok()) return annotate(c.status(), fmt::format("{}: expected Avro object container", file_name_for_errors));
  return c;
}

/// The first record of an object container file, as Hudi reads timeline
/// files (TimelineMetadataUtils takes the first record). A container with no
/// record is DataLoss.
[[nodiscard]] inline StatusOr<datum> read_first_record(std::string_view bytes, std::string_view file_name_for_errors) {
  LAKEGC_ASSIGN_OR_RETURN(auto c, read_container(bytes, file_name_for_errors));
  if (c.records.empty()) {
    return absl::DataLossError(
        fmt::format("{}: expected Avro object container: it holds no record", file_name_for_errors));
  }
  return std::move(c.records.front());
}

}  // namespace lakegc::hudi::avro
