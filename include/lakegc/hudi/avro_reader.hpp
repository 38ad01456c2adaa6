// File: lakegc/hudi/avro_reader.hpp
// -----------------------------------------------------------------------------
// The Avro reader's entry points (avro::read_container,
// avro::read_first_record, avro::datum, avro::to_debug_string) under the
// name callers have always included. The reader itself lives in
// lakegc/hudi/avro/, one job per header:
//
//   datum.hpp         the decoded value tree
//   binary.hpp        varints, zig-zag, floats, length-prefixed bytes
//   schema.hpp        writer schemas parsed from JSON (cached per thread)
//   decode.hpp        one checking pass from bytes to datum
//   encode.hpp        datum to bytes, the writers' inverse
//   container.hpp     object-container framing, read and written
//   read.hpp          read_container / read_first_record
//   debug_string.hpp  a JSON-like rendering for messages
#pragma once

#include "lakegc/hudi/avro/datum.hpp"
#include "lakegc/hudi/avro/debug_string.hpp"
#include "lakegc/hudi/avro/read.hpp"
