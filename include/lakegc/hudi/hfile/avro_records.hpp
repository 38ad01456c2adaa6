// File: lakegc/hudi/hfile/avro_records.hpp
// -----------------------------------------------------------------------------
// The records of an HFile that Hudi wrote: each cell's value is one record
// in Avro binary, its row is the record key. Hudi writes the record's own
// `key` field empty to save space and puts the row back when it reads
// (HoodieAvroHFileReaderImplBase.deserialize), so the key is given beside
// the record here, from the row.
//
// The writer schema is the file info entry "schema" of a base file, or the
// SCHEMA header of the log block an HFile is embedded in.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/avro/datum.hpp"
#include "lakegc/hudi/avro/decode.hpp"
#include "lakegc/hudi/avro/schema.hpp"
#include "lakegc/hudi/hfile/read_hfile.hpp"

namespace lakegc::hudi::hfile {

/// File info key of the writer schema in Hudi's HFiles.
inline constexpr std::string_view schema_key = "schema";

struct keyed_record {
  std::string key;
  avro::datum record;

  friend bool operator==(const keyed_record&, const keyed_record&) = default;
};

/// Decodes each cell of `contents` as a record of `schema`.
[[nodiscard]] inline StatusOr<std::vector<keyed_record>> avro_records(const hfile_contents& contents,
                                                                      const avro::schema& schema,
                                                                      std::string_view file_name_for_errors) {
  std::vector<keyed_record> out;
  out.reserve(contents.cells.size());
  for (std::size_t i = 0; i < contents.cells.size(); ++i) {
    const cell& c = contents.cells[i];
    auto d = avro::decode_single_value(schema, c.value, 0);
    if (!d.ok()) {
      return annotate(d.status(), fmt::format("{}: HFile cell {} (key '{}')", file_name_for_errors, i, c.key));
    }
    out.push_back({c.key, std::move(*d)});
  }
  return out;
}

/// The records of an HFile base file, with the writer schema from its file
/// info.
[[nodiscard]] inline StatusOr<std::vector<keyed_record>> read_avro_hfile(std::string_view bytes,
                                                                         std::string_view file_name_for_errors) {
  LAKEGC_ASSIGN_OR_RETURN(hfile_contents contents, read_hfile(bytes, file_name_for_errors));
  const auto it = contents.file_info.find(schema_key);
  if (it == contents.file_info.end()) {
    return absl::DataLossError(fmt::format("{}: HFile has no \"schema\" file info entry", file_name_for_errors));
  }
  auto schema = avro::cached_schema(it->second);
  if (!schema.ok()) {
    return annotate(schema.status(), fmt::format("{}: HFile's writer schema does not parse", file_name_for_errors));
  }
  return avro_records(contents, **schema, file_name_for_errors);
}

}  // namespace lakegc::hudi::hfile
