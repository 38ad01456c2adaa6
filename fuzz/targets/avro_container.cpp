// Fuzz target: an Avro object container file (hudi/avro/: framing, the
// embedded writer schema, the checking decoder), as every Avro timeline file
// is read. Round trip: each decoded record encodes back against the writer
// schema and decodes to itself, and a container lakegc writes from those
// records decodes to the same records.
#include <string>
#include <vector>

#include "../target.hpp"
#include "avro_compare.hpp"
#include "lakegc/hudi/avro/container.hpp"
#include "lakegc/hudi/avro/read.hpp"

namespace {

std::optional<std::string> avro_container_seed(const std::filesystem::path&, std::string_view contents) {
  return lakegc::fuzz::bytes_if(lakegc::hudi::avro::is_object_container(contents), contents);
}

}  // namespace

LAKEGC_FUZZ_TARGET(avro_container) {
  namespace avro = lakegc::hudi::avro;
  auto c = avro::decode_container(data);
  if (!c.ok()) return c.status();
  auto s = avro::cached_schema(c->schema_json);
  if (!s.ok())
    lakegc::fuzz::fail("a container decoded, but its schema does not parse again: {}", s.status().ToString());
  std::vector<std::string> encoded;
  for (std::size_t i = 0; i < c->records.size(); ++i) {
    auto e = avro::encode(**s, c->records[i]);
    if (!e.ok()) lakegc::fuzz::fail("record {} decoded but does not encode: {}", i, e.status().ToString());
    auto back = avro::decode_single_value(**s, *e, 0);
    if (!back.ok()) lakegc::fuzz::fail("record {} encoded but does not decode: {}", i, back.status().ToString());
    if (!lakegc::fuzz::same_value(**s, *back, c->records[i]))
      lakegc::fuzz::fail("record {}: decode(encode(x)) != x", i);
    encoded.push_back(std::move(*e));
  }
  const std::string rewritten = avro::write_container(c->schema_json, encoded);
  auto again = avro::decode_container(rewritten);
  if (!again.ok()) lakegc::fuzz::fail("the rewritten container does not decode: {}", again.status().ToString());
  if (again->records.size() != c->records.size()) lakegc::fuzz::fail("the rewritten container lost records");
  for (std::size_t i = 0; i < c->records.size(); ++i) {
    if (!lakegc::fuzz::same_value(**s, again->records[i], c->records[i])) {
      lakegc::fuzz::fail("record {} differs after write_container", i);
    }
  }
  return lakegc::Status();
}
