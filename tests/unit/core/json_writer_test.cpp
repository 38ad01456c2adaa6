// json_writer and json_quote: RFC 8259 escapes exactly, every byte value
// read back by simdjson as written, and the document shape the tool's
// `--json` output documents.
#include "lakegc/core/json_writer.hpp"

#include <doctest/doctest.h>
#include <simdjson.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>

namespace lakegc::tests::json_writer_test {
namespace {

TEST_CASE("json_quote escapes exactly what RFC 8259 requires, and passes the rest through") {
  CHECK(json_quote("") == R"("")");
  CHECK(json_quote("p=1/f.parquet") == R"("p=1/f.parquet")");
  CHECK(json_quote("a\"b\\c") == R"("a\"b\\c")");
  CHECK(json_quote("\n\r\t\b\f") == R"("\n\r\t\b\f")");
  CHECK(json_quote(std::string("x\x01y\x1f", 4)) == R"("x\u0001y\u001f")");
  CHECK(json_quote(std::string("\0", 1)) == R"("\u0000")");
  CHECK(json_quote("\x7f caf\xc3\xa9") == "\"\x7f caf\xc3\xa9\"");  // DEL and UTF-8 unescaped
  CHECK(json_quote("\"") == R"("\"")");                             // an escape at either end
  CHECK(json_quote("ab\"") == R"("ab\"")");
}

TEST_CASE("every byte below 0x80 reads back as written") {
  std::string all;
  for (int c = 0; c < 0x80; ++c) all += static_cast<char>(c);
  for (std::size_t cut = 0; cut <= all.size(); cut += 7) {
    const std::string s = all.substr(cut) + all.substr(0, cut);  // escapes at every position
    simdjson::dom::parser parser;
    const std::string doc = json_quote(s);
    std::string_view got;
    REQUIRE(parser.parse(doc).get(got) == simdjson::SUCCESS);
    CHECK(got == s);
  }
}

TEST_CASE("a written document parses, keeps key order, and take() moves out what str() copies") {
  json_writer w;
  w.begin_object();
  w.key("b\"").value(std::uint64_t{18446744073709551615ULL});
  w.key("a").begin_array().value("x\ny").value(std::int64_t{-5}).null().value(true).end_array();
  w.key("e").begin_object().end_object();
  w.end_object();
  const std::string copy = w.str();
  const std::string moved = std::move(w).take();
  CHECK(copy == moved);
  CHECK(moved.back() == '\n');
  CHECK(moved ==
        "{\n  \"b\\\"\": 18446744073709551615,\n  \"a\": [\n    \"x\\ny\",\n    -5,\n    null,\n"
        "    true\n  ],\n  \"e\": {}\n}\n");
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  REQUIRE(parser.parse(moved).get(root) == simdjson::SUCCESS);
  CHECK(root["a"].at(0).get_string().value() == "x\ny");
  CHECK(root["b\""].get_uint64().value() == 18446744073709551615ULL);
}

TEST_CASE("a writer with a sink hands over the same document in pieces, none much above kSpillBytes") {
  const auto write = [](json_writer& w) {
    w.begin_object();
    w.key("files").begin_array();
    // About 3 MiB of paths: the sink must be called before the end.
    for (int i = 0; i < 60'000; ++i)
      w.value(fmt::format("partition={}/file-{:06d}_1-0-1_20240101000000000.parquet", i % 7, i));
    w.end_array();
    w.key("n").value(std::uint64_t{60'000});
    w.end_object();
  };
  json_writer whole;
  write(whole);
  const std::string want = std::move(whole).take();
  REQUIRE(want.size() > 2 * json_writer::kSpillBytes);

  std::string got;
  std::size_t pieces = 0;
  std::size_t largest = 0;
  json_writer streamed([&](std::string_view piece) {
    got += piece;
    ++pieces;
    largest = std::max(largest, piece.size());
  });
  write(streamed);
  CHECK(pieces >= 2);  // handed over while written, not once at the end
  streamed.finish();
  CHECK(got == want);
  CHECK(largest < json_writer::kSpillBytes + 4096);
}

}  // namespace
}  // namespace lakegc::tests::json_writer_test
