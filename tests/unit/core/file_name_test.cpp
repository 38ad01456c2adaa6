#include <doctest/doctest.h>

#include <string>
#include <variant>

#include "lakegc/core/file_name.hpp"

namespace lakegc::tests::file_name_test {

using namespace lakegc;

TEST_CASE("base file names parse into their fields and format back") {
  const std::string name = "97de74b1-2a8e-4bb7-874c-0a74e1f42a77-0_1-98-142_20240418172802262.parquet";
  auto f = parse_base_file_name(name);
  REQUIRE(f.ok());
  CHECK(f->file_id == "97de74b1-2a8e-4bb7-874c-0a74e1f42a77-0");
  CHECK(f->write_token == "1-98-142");
  CHECK(f->instant.str() == "20240418172802262");
  CHECK(f->extension == "parquet");
  CHECK(format_file_name(*f) == name);
  for (const char* other :
       {"files-0000-0_23-1133-3302_20251220210130942.hfile", "00000001-0e3b-4c4f-8d2e-1_0-1-0_20240101000000.orc",
        "abc-1_0-1-2_20240101000000000.lance"}) {
    auto g = parse_base_file_name(other);
    REQUIRE_MESSAGE(g.ok(), other);
    CHECK(format_file_name(*g) == other);
  }
}

TEST_CASE("log file names parse, including CDC suffixes and missing tokens") {
  for (const char* name : {".8aa68f7e-afd6-4c94-b86c-8a886552e08d-0_20251220210130911.log.1_0-1139-3316",
                           ".0712b9f9-d2d5-4cae-bcf4-8fd7146af503-0_20250126040823628.log.2_1-0-1",
                           ".abc-0_20250126040823628.log.12_0-1-2.cdc", ".abc-0_20250126040823628.log.3_0-1-2-cdc",
                           ".files-0000-0_00000000000000000.log.1_10-999-2838", ".abc-0_20240101000000.log.1"}) {
    auto f = parse_log_file_name(name);
    REQUIRE_MESSAGE(f.ok(), name);
    CHECK(format_file_name(*f) == name);
  }
  auto f = parse_log_file_name(".abc-0_20250126040823628.log.12_0-1-2.cdc").value();
  CHECK(f.file_id == "abc-0");
  CHECK(f.version_number() == 12);
  CHECK(f.write_token == "0-1-2");
  CHECK(f.cdc == CdcSuffix::dot_cdc);
}

TEST_CASE("names that are not data files are errors naming the input") {
  for (const char* name :
       {".hoodie_partition_metadata", "_SUCCESS", "part-00000-abc.c000.zstd.parquet", "abc_0-1-2_2024.parquet",
        "abc_0-1_20240101000000.parquet", "abc_0-1-2_20240101000000", "a_b_0-1-2_20240101000000.parquet",
        ".abc_2024010100000.log.1_0-1-2", ".abc_20240101000000.log.x_0-1-2", ".commits_.archive.1_1-0-1", "",
        "abc_0-1-2_20240101000000.parquet.crc", ".abc_20240101000000.log.1_0-1"}) {
    auto r = parse_data_file_name(name);
    CHECK_MESSAGE(!r.ok(), name);
    if (!r.ok() && *name != '\0') {
      CHECK(std::string(message_of(r.status())).find(name) != std::string::npos);
    }
  }
}

TEST_CASE("parse_data_file_name tells base from log by the leading dot") {
  CHECK(std::holds_alternative<LogFileName>(parse_data_file_name(".a-0_20240101000000.log.1_0-1-2").value()));
  CHECK(std::holds_alternative<BaseFileName>(parse_data_file_name("a-0_0-1-2_20240101000000.parquet").value()));
}

}  // namespace lakegc::tests::file_name_test
