// File: fuzz/targets/round_trip.hpp
// -----------------------------------------------------------------------------
// The round-trip property of the targets whose format lakegc also writes:
// a record x that decoded from the fuzzer's bytes, encoded by lakegc's
// writer, decodes to normalise(x) (what the writer is documented to change,
// e.g. a default it fills in). A writer's InvalidArgument refusal (a value
// the schema cannot hold) is documented behaviour, not a failure.
#pragma once

#include <string_view>

#include <absl/status/status.h>

#include "../target.hpp"

namespace lakegc::fuzz {

struct unchanged {
  template <class T>
  const T& operator()(const T& x) const {
    return x;
  }
};

template <class T, class Encode, class Decode, class Normalise = unchanged>
void round_trip(const T& decoded, Encode encode, Decode decode, const char* what, Normalise normalise = {}) {
  auto bytes = encode(decoded);
  if (!bytes.ok()) {
    if (bytes.status().code() != absl::StatusCode::kInvalidArgument) {
      fail("{}: the writer failed with {}", what, bytes.status().ToString());
    }
    return;
  }
  auto back = decode(*bytes, "fuzz.roundtrip");
  if (!back.ok()) fail("{}: what the writer wrote does not decode: {}", what, back.status().ToString());
  if (!(*back == normalise(decoded))) fail("{}: decode(encode(x)) != x", what);
}

}  // namespace lakegc::fuzz
