// File: lakegc/hudi/parquet/column.hpp
// -----------------------------------------------------------------------------
// One column of a flat Parquet file, in memory: what parquet/read.hpp
// returns and parquet/write.hpp takes. Flat means a message of primitive
// fields, each REQUIRED or OPTIONAL (no groups, no repeated fields), which
// is the shape of every record Hudi's LSM timeline writes
// (HoodieLSMTimelineInstant: five optional strings and bytes, one required
// int). Values are held per row: a null is an empty optional.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lakegc/hudi/parquet/format.hpp"

namespace lakegc::hudi::parquet {

struct column {
  std::string name;
  physical type = physical::byte_array;  ///< byte_array, int32 or int64
  bool optional = true;
  /// A BYTE_ARRAY annotated as a string (UTF8 / LogicalType STRING), as
  /// parquet-avro writes an Avro string.
  bool utf8 = false;
  std::vector<std::optional<std::string>> bytes;  ///< byte_array values, one per row
  std::vector<std::optional<std::int64_t>> ints;  ///< int32 and int64 values, one per row

  std::size_t rows() const noexcept { return type == physical::byte_array ? bytes.size() : ints.size(); }
};

}  // namespace lakegc::hudi::parquet
