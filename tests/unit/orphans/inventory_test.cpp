#include <doctest/doctest.h>

#include <vector>

#include "lakegc/plan/inventory.hpp"

namespace lakegc::tests::inventory_test {

using namespace lakegc;

namespace {
std::vector<InventoryEntry> read(std::string_view text, InventoryOptions o = {}, Status* st = nullptr) {
  std::vector<InventoryEntry> out;
  InventoryMatcher m("s3://bucket/warehouse/t", std::move(o));
  Status s = read_inventory(text, "inv.csv", m, [&](const InventoryEntry& e) { out.push_back(e); });
  if (st != nullptr)
    *st = s;
  else
    REQUIRE_MESSAGE(s.ok(), std::string(message_of(s)));
  return out;
}
}  // namespace

TEST_CASE("CSV inventories with a header, quoted fields, epoch and ISO times; s3a and s3n are s3") {
  const auto e = read(
      "path,size,mtime\n"
      "s3://bucket/warehouse/t/p/a_0-1-1_20240101000000000.parquet,10,1700000000000\n"
      "\"s3a://bucket/warehouse/t/p/b_0-1-1_20240101000000000.parquet\",20,2023-11-14T22:13:20Z\n"
      "s3n://bucket/warehouse/t/.hoodie/hoodie.properties,5,2023-11-14T22:13:20.5+00:00\n");
  REQUIRE(e.size() == 3);
  CHECK(e[0].path == "p/a_0-1-1_20240101000000000.parquet");
  CHECK(e[1].size == 20);
  CHECK(e[1].mtime_ms == 1700000000000);
  CHECK(e[2].path == ".hoodie/hoodie.properties");
  CHECK(e[2].mtime_ms == 1700000000500);
}

TEST_CASE("JSON-lines inventories") {
  const auto e = read(
      "{\"path\": \"s3://bucket/warehouse/t/p/x\", \"size\": 7, \"modificationTime\": 12}\n"
      "{\"path\": \"s3://bucket/warehouse/t/p/y\", \"length\": 8, \"mtime\": \"2023-11-14T22:13:20Z\"}\n");
  REQUIRE(e.size() == 2);
  CHECK(e[0].mtime_ms == 12);
  CHECK(e[1].size == 8);
}

TEST_CASE("prefix mismatch: error by default, ignore, or delete (compare paths only)") {
  const std::string other = "s3://other-bucket/warehouse/t/p/x,1,1\n";
  Status st;
  read(other, {}, &st);
  REQUIRE_FALSE(st.ok());
  CHECK(std::string(message_of(st)).find("inv.csv:1") != std::string::npos);
  InventoryOptions ignore;
  ignore.prefix_mismatch = PrefixMismatchMode::ignore;
  CHECK(read(other, ignore).empty());
  InventoryOptions del;
  del.prefix_mismatch = PrefixMismatchMode::delete_;
  REQUIRE(read(other, del).size() == 1);
  // Outside the table path entirely: an error unless ignored.
  read("s3://bucket/elsewhere/x,1,1\n", {}, &st);
  CHECK_FALSE(st.ok());
  // A sibling directory sharing the prefix text is not under the table.
  read("s3://bucket/warehouse/t2/x,1,1\n", {}, &st);
  CHECK_FALSE(st.ok());
}

TEST_CASE("bad lines are errors naming the file and line") {
  for (const char* bad : {"s3://bucket/warehouse/t/x,abc,1\n", "s3://bucket/warehouse/t/x,1,yesterday\n",
                          "s3://bucket/warehouse/t/x\n", "{\"path\": 3}\n", "{not json\n"}) {
    Status st;
    read(bad, {}, &st);
    REQUIRE_FALSE_MESSAGE(st.ok(), bad);
    CHECK(std::string(message_of(st)).find("inv.csv:1") != std::string::npos);
  }
}

}  // namespace lakegc::tests::inventory_test
