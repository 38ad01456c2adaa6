// File: fuzz/targets/avro_compare.hpp
// -----------------------------------------------------------------------------
// Datum equality for round-trip properties. datum's operator== compares
// doubles with ==, and a NaN decoded from the fuzzer's bytes never equals
// itself although the round trip kept it bit for bit; so values that differ
// under == are compared once more by their encodings.
#pragma once

#include <string>

#include "lakegc/hudi/avro/datum.hpp"
#include "lakegc/hudi/avro/encode.hpp"
#include "lakegc/hudi/avro/schema.hpp"

namespace lakegc::fuzz {

inline bool same_value(const hudi::avro::schema& s, const hudi::avro::datum& a, const hudi::avro::datum& b) {
  if (a == b) return true;
  auto ea = hudi::avro::encode(s, a);
  auto eb = hudi::avro::encode(s, b);
  return ea.ok() && eb.ok() && *ea == *eb;
}

}  // namespace lakegc::fuzz
