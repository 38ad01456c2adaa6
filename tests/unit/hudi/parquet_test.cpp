// The Parquet subset (hudi/parquet/): Thrift's compact protocol, the hybrid
// and PLAIN encodings, files written and read back, files Hudi 1.2.0 wrote
// (tests/unit/hudi/data/lsm/: two data files of the LSM timeline from an
// interop-suite table, one of layer 0 with dictionary pages, one compacted
// to layer 2 with 44 rows), and every refusal of what lies outside the
// subset, each naming the file.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "lakegc/hudi/parquet/encoding.hpp"
#include "lakegc/hudi/parquet/format.hpp"
#include "lakegc/hudi/parquet/read.hpp"
#include "lakegc/hudi/parquet/thrift_compact.hpp"
#include "lakegc/hudi/parquet/write.hpp"
#include "test_util.hpp"

namespace lakegc::tests::parquet_test {

using namespace lakegc::hudi;
using namespace lakegc::hudi::parquet;

namespace {

using lakegc::hudi::testing::slurp;
const std::filesystem::path& kData = lakegc::hudi::testing::kLsmData;
constexpr const char* kLayer0 = lakegc::hudi::testing::kLsmLayer0;
constexpr const char* kLayer2 = lakegc::hudi::testing::kLsmLayer2;

column strings(std::string name, std::vector<std::optional<std::string>> v) {
  column c;
  c.name = std::move(name);
  c.utf8 = true;
  c.bytes = std::move(v);
  return c;
}

column ints(std::string name, physical t, bool optional, std::vector<std::optional<std::int64_t>> v) {
  column c;
  c.name = std::move(name);
  c.type = t;
  c.optional = optional;
  c.ints = std::move(v);
  return c;
}

/// `file` with its footer replaced by `m` (the column chunks kept).
std::string with_footer(const std::string& file, const file_metadata& m) {
  byte_cursor tail(std::string_view(file).substr(file.size() - 8, 4));
  std::uint32_t len = 0;
  REQUIRE(read_le(tail, len, "footer length").ok());
  std::string out = file.substr(0, file.size() - 8 - len);
  std::string footer;
  encode_file_metadata(m, footer);
  out += footer;
  put_le(out, static_cast<std::uint32_t>(footer.size()));
  out += "PAR1";
  return out;
}

}  // namespace

TEST_CASE("Thrift compact: fields by delta and by id, negative numbers, long lists, unknown fields skipped") {
  std::string bytes;
  thrift::writer w(bytes);
  w.begin_struct();
  w.field_i32(1, -7);
  w.field_i64(3, std::int64_t{1} << 40);
  w.field_binary(40, "far id");  // delta 37: written with its id
  w.field_bool(41, true);
  w.field_list(42, thrift::type::i32, 20);  // 20 elements: a varint size
  for (int i = 0; i < 20; ++i) w.element_i32(i - 10);
  w.field_struct(43);  // nested, skipped by the reader
  w.field_binary(1, "inner");
  w.field_list(2, thrift::type::binary, 2);
  w.element_binary("a");
  w.element_binary("b");
  w.end_struct();
  w.field_i32(44, 5);
  w.end_struct();

  byte_cursor in(bytes);
  thrift::reader r(in, "test struct");
  std::int32_t a = 0, e = 0;
  std::int64_t b = 0;
  std::string far;
  bool flag = false;
  std::vector<std::int32_t> list;
  const Status st = r.read_struct([&](const thrift::field& f) -> Status {
    switch (f.id) {
      case 1: return r.read_i32(f, a);
      case 3: return r.read_i64(f, b);
      case 40: return r.read_string(f, far);
      case 41: return r.read_bool(f, flag);
      case 42:
        return r.read_list(f, [&](thrift::type t) {
          std::int32_t v = 0;
          LAKEGC_RETURN_IF_ERROR(r.read_i32_element(t, v));
          list.push_back(v);
          return Status();
        });
      case 44: return r.read_i32(f, e);
      default: return r.skip(f.t);
    }
  });
  REQUIRE_MESSAGE(st.ok(), st.ToString());
  CHECK(in.at_end());
  CHECK(a == -7);
  CHECK(b == std::int64_t{1} << 40);
  CHECK(far == "far id");
  CHECK(flag);
  REQUIRE(list.size() == 20);
  CHECK(list.front() == -10);
  CHECK(list.back() == 9);
  CHECK(e == 5);

  SUBCASE("a truncated struct and a type mismatch are errors naming what was read") {
    byte_cursor cut(std::string_view(bytes).substr(0, bytes.size() - 3));
    thrift::reader rc(cut, "test struct");
    const Status t = rc.read_struct([&](const thrift::field& f) { return rc.skip(f.t); });
    CHECK_FALSE(t.ok());
    CHECK(std::string(message_of(t)).find("test struct") != std::string::npos);
    byte_cursor again(bytes);
    thrift::reader rw(again, "test struct");
    const Status m = rw.read_struct([&](const thrift::field& f) -> Status {
      std::string s;
      if (f.id == 1) return rw.read_string(f, s);  // an i32 read as binary
      return rw.skip(f.t);
    });
    CHECK_FALSE(m.ok());
    CHECK(std::string(message_of(m)).find("field 1 is a i32") != std::string::npos);
  }
}

TEST_CASE("Thrift compact: a list claiming more elements than bytes left is refused before allocating") {
  std::string bytes;
  bytes += static_cast<char>(0x19);  // field 1, type list
  bytes += static_cast<char>(0xf5);  // size follows, element i32
  put_uvarint(bytes, 1ULL << 40);
  byte_cursor in(bytes);
  thrift::reader r(in, "huge list");
  const Status st = r.read_struct([&](const thrift::field& f) { return r.skip(f.t); });
  CHECK_FALSE(st.ok());
  CHECK(std::string(message_of(st)).find("runs past the end") != std::string::npos);
}

TEST_CASE("the hybrid encoding: runs and bit-packed groups decode; runs encode") {
  // parquet-format's example: 0..7 bit-packed at width 3 is 0x88 0xC6 0xFA.
  std::string packed;
  packed += static_cast<char>(0x03);  // one group, bit-packed
  packed += "\x88\xc6\xfa";
  byte_cursor in(packed);
  std::vector<std::uint32_t> v;
  REQUIRE(decode_hybrid(in, 3, 8, v, "example").ok());
  CHECK(v == std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 6, 7});

  const std::vector<std::uint32_t> levels{1, 1, 1, 0, 0, 1, 0, 1, 1, 1, 1};
  std::string runs;
  encode_hybrid_runs(levels, 1, runs);
  byte_cursor back(runs);
  REQUIRE(decode_hybrid(back, 1, levels.size(), v, "levels").ok());
  CHECK(v == levels);
  CHECK(back.at_end());

  std::string wide;
  wide += static_cast<char>(0x04);  // a run of 2
  wide += static_cast<char>(0x02);  // value 2 at width 1: too wide
  byte_cursor bad(wide);
  CHECK_FALSE(decode_hybrid(bad, 1, 2, v, "levels").ok());
}

TEST_CASE("a flat file written is read back: nulls, required ints, several pages, both codecs, projection") {
  std::vector<std::optional<std::string>> names, blobs;
  std::vector<std::optional<std::int64_t>> small, big;
  for (int i = 0; i < 500; ++i) {
    names.emplace_back(i % 7 == 3 ? std::nullopt : std::optional<std::string>(fmt::format("name-{}", i)));
    blobs.emplace_back(i % 2 == 0 ? std::optional<std::string>(std::string(static_cast<std::size_t>(i), 'x'))
                                  : std::nullopt);
    small.emplace_back(i - 250);
    big.emplace_back(i % 5 == 0 ? std::nullopt : std::optional<std::int64_t>(std::int64_t{1} << (i % 60)));
  }
  column blob = strings("blob", blobs);
  blob.utf8 = false;  // bytes
  const std::vector<column> cols = {strings("name", names), blob, ints("small", physical::int32, false, small),
                                    ints("big", physical::int64, true, big)};
  for (const std::int32_t c :
       {static_cast<std::int32_t>(codec::gzip), static_cast<std::int32_t>(codec::uncompressed)}) {
    CAPTURE(codec_name(c));
    write_options o;
    o.codec = c;
    o.page_bytes = 4096;  // many pages per column
    o.key_value = {{"k", "v"}, {"no value", std::nullopt}};
    auto file = write_file(cols, o);
    HUDI_REQUIRE_OK(file);
    auto read = read_file(*file, "written.parquet");
    HUDI_REQUIRE_OK(read);
    CHECK(read->rows == 500);
    REQUIRE(read->columns.size() == 4);
    CHECK(read->columns[0].bytes == names);
    CHECK(read->columns[0].utf8);
    CHECK(read->columns[1].bytes == blobs);
    CHECK_FALSE(read->columns[1].utf8);
    CHECK(read->columns[2].ints == small);
    CHECK_FALSE(read->columns[2].optional);
    CHECK(read->columns[3].ints == big);
    CHECK(read->key_value("k") == "v");
    CHECK(read->meta.key_value.size() == 2);

    read_options only;
    only.columns = {"big"};
    auto projected = read_file(*file, "written.parquet", only);
    HUDI_REQUIRE_OK(projected);
    REQUIRE(projected->columns.size() == 1);
    CHECK(projected->columns[0].ints == big);
  }
  SUBCASE("no rows: no row group, as parquet-java writes it") {
    std::vector<column> empty = {strings("name", {})};
    auto file = write_file(empty);
    HUDI_REQUIRE_OK(file);
    auto read = read_file(*file, "empty.parquet");
    HUDI_REQUIRE_OK(read);
    CHECK(read->rows == 0);
    CHECK(read->meta.row_groups.empty());
  }
  SUBCASE("the writer refuses what it cannot write") {
    CHECK_FALSE(write_file({ints("r", physical::int32, false, {std::nullopt})}).ok());
    CHECK_FALSE(write_file({ints("r", physical::int32, false, {std::int64_t{1} << 40})}).ok());
    CHECK_FALSE(write_file({strings("a", {"x"}), strings("b", {})}).ok());
    write_options snappy;
    snappy.codec = static_cast<std::int32_t>(codec::snappy);
    CHECK_FALSE(write_file({strings("a", {"x"})}, snappy).ok());
  }
}

TEST_CASE("files Hudi 1.2.0 wrote for its LSM timeline read: dictionary pages, CRCs, GZIP, 44 rows") {
  const std::string l0 = slurp(kData / kLayer0);
  auto f = read_file(l0, kLayer0);
  HUDI_REQUIRE_OK(f);
  CHECK(f->rows == 4);
  CHECK(f->meta.created_by.value_or("").starts_with("parquet-mr version 1.13.1"));
  CHECK(f->key_value("writer.model.name") == "avro");
  REQUIRE(f->find("instantTime") != nullptr);
  CHECK(f->find("instantTime")->bytes ==
        std::vector<std::optional<std::string>>{"20261203065140290", "20261203070702889", "20261203080712516",
                                                "20261203082443958"});
  // action and version are dictionary-encoded in Hudi's file.
  CHECK(f->find("action")->bytes ==
        std::vector<std::optional<std::string>>{"deltacommit", "replacecommit", "deltacommit", "deltacommit"});
  CHECK(f->find("version")->ints == std::vector<std::optional<std::int64_t>>(4, 1));
  CHECK_FALSE(f->find("version")->optional);
  const column* plan = f->find("plan");
  REQUIRE(plan != nullptr);
  CHECK_FALSE(plan->bytes[0].has_value());
  REQUIRE(plan->bytes[1].has_value());
  CHECK(plan->bytes[1]->size() == 3372);
  CHECK(plan->bytes[1]->starts_with("Obj\x01"));  // the requested replace metadata, Avro

  auto l2 = read_file(slurp(kData / kLayer2), kLayer2);
  HUDI_REQUIRE_OK(l2);
  CHECK(l2->rows == 44);
  const column* instants = l2->find("instantTime");
  REQUIRE(instants != nullptr);
  CHECK(std::is_sorted(instants->bytes.begin(), instants->bytes.end()));

  SUBCASE("written again by lakegc, the same columns read back") {
    auto again = write_file(f->columns);
    HUDI_REQUIRE_OK(again);
    auto back = read_file(*again, "again.parquet");
    HUDI_REQUIRE_OK(back);
    for (const column& c : f->columns) {
      CAPTURE(c.name);
      REQUIRE(back->find(c.name) != nullptr);
      CHECK(back->find(c.name)->bytes == c.bytes);
      CHECK(back->find(c.name)->ints == c.ints);
    }
  }
}

TEST_CASE("damage and what lies outside the subset are refused, naming the file") {
  const std::string hudi = slurp(kData / kLayer0);
  auto ok = read_file(hudi, "t.parquet");
  HUDI_REQUIRE_OK(ok);
  auto refused = [](const std::string& bytes, std::string_view expect) {
    auto r = read_file(bytes, "t.parquet");
    REQUIRE_FALSE(r.ok());
    const std::string msg(message_of(r.status()));
    CHECK_MESSAGE(msg.find("t.parquet") != std::string::npos, msg);
    CHECK_MESSAGE(msg.find(expect) != std::string::npos, msg);
  };
  refused(hudi.substr(0, hudi.size() - 1), "no PAR1 at the end");
  refused("PAR1", "not a Parquet file");
  refused(hudi.substr(0, hudi.size() - 4) + "PARE", "encrypted");

  // A flipped byte inside the first page of instantTime: its CRC catches it.
  const std::int64_t page = ok->meta.row_groups[0].columns[0].meta->data_page_offset;
  std::string flipped = hudi;
  flipped[static_cast<std::size_t>(page) + 40] ^= 0x55;
  refused(flipped, "page CRC");

  // A page of type DATA_PAGE_V2 (the header's first field is its type).
  std::string v2 = hudi;
  REQUIRE(v2[static_cast<std::size_t>(page)] == '\x15');
  REQUIRE(v2[static_cast<std::size_t>(page) + 1] == '\x00');
  v2[static_cast<std::size_t>(page) + 1] = '\x06';  // zigzag(3)
  refused(v2, "DATA_PAGE_V2");

  file_metadata m = ok->meta;
  m.row_groups[0].columns[0].meta->codec = static_cast<std::int32_t>(codec::snappy);
  refused(with_footer(hudi, m), "SNAPPY");

  m = ok->meta;
  m.schema[1].repetition = static_cast<std::int32_t>(repetition::repeated);
  refused(with_footer(hudi, m), "repeated column 'instantTime'");

  m = ok->meta;
  m.schema[0].num_children = 2;
  refused(with_footer(hudi, m), "nested schema");

  m = ok->meta;
  m.row_groups[0].columns[2].file_path = "other.parquet";
  refused(with_footer(hudi, m), "another file");

  m = ok->meta;
  m.num_rows = 5;
  refused(with_footer(hudi, m), "the footer says 5");

  m = ok->meta;
  m.row_groups[0].columns[0].meta->total_compressed_size = 1 << 20;
  refused(with_footer(hudi, m), "outside the file");

  m = ok->meta;
  m.num_rows = std::int64_t{1} << 40;
  refused(with_footer(hudi, m), "at most");
}

TEST_CASE("a projection refuses a file whose schema and column chunks disagree, in a column it does not read") {
  // Found by the lsm_timeline fuzzer: a schema column renamed while its chunk
  // keeps the old path read, through a projection, as an absent column.
  const std::string hudi = slurp(kData / kLayer0);
  auto ok = read_file(hudi, "t.parquet");
  HUDI_REQUIRE_OK(ok);
  REQUIRE(ok->meta.schema.size() > 2);
  file_metadata m = ok->meta;
  const std::string renamed = "%" + m.schema[2].name.substr(1);
  m.schema[2].name = renamed;
  const std::string damaged = with_footer(hudi, m);
  read_options first_column_only;
  first_column_only.columns = {m.schema[1].name};
  auto r = read_file(damaged, "t.parquet", first_column_only);
  REQUIRE_FALSE(r.ok());
  const std::string msg(message_of(r.status()));
  CHECK_MESSAGE(msg.find("column '" + renamed + "'") != std::string::npos, msg);
  CHECK_MESSAGE(msg.find("the chunk's path is not the column's") != std::string::npos, msg);
  // Undamaged, the same projection reads.
  CHECK(read_file(hudi, "t.parquet", first_column_only).ok());
}

}  // namespace lakegc::tests::parquet_test
