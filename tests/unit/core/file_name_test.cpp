#include <doctest/doctest.h>

#include <algorithm>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <tuple>
#include <variant>
#include <vector>

#include <rapidcheck.h>

#include "../../property/canary_check.hpp"
#include "lakegc/core/file_name.hpp"
#include "rc_doctest.hpp"

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

// --- The scanners against the grammar written as regular expressions ---------

// What a scanner reads out of a name, as text (so any two scanners compare).
struct Fields {
  bool is_log = false;
  std::string file_id, write_token, instant, extension, version;
  CdcSuffix cdc = CdcSuffix::none;
  friend bool operator==(const Fields&, const Fields&) = default;
};

std::optional<Fields> fields_of(const std::optional<DataFileNameView>& v) {
  if (!v) return std::nullopt;
  return Fields{v->is_log,
                std::string(v->file_id),
                std::string(v->write_token),
                v->instant.str(),
                std::string(v->extension),
                std::string(v->version),
                v->cdc};
}

bool is_instant_length(std::size_t n) { return n == 14 || n == 17 || n == 20; }

// The grammar of docs/hudi-rules.md §1, in the plainest form: a file id
// holds no '_' or '/' and does not start with '.', and a log's file id
// holds no ".log." (Hudi finds the first one).
std::optional<Fields> grammar(const std::string& name) {
  static const std::regex base(R"(([^_/.][^_/]*)_([0-9]+-[0-9]+-[0-9]+)_([0-9]+)\.([A-Za-z0-9]+))");
  static const std::regex log(R"(\.([^_/.][^_/]*)_([0-9]+)\.log\.([0-9]+)(?:_([0-9]+-[0-9]+-[0-9]+))?(\.cdc|-cdc)?)");
  std::smatch m;
  if (std::regex_match(name, m, base)) {
    if (!is_instant_length(m[3].length())) return std::nullopt;
    return Fields{false, m[1], m[2], m[3], m[4], "", CdcSuffix::none};
  }
  if (std::regex_match(name, m, log)) {
    if (!is_instant_length(m[2].length()) || m[1].str().find(".log.") != std::string::npos) return std::nullopt;
    const CdcSuffix cdc = m[5] == ".cdc" ? CdcSuffix::dot_cdc : m[5] == "-cdc" ? CdcSuffix::dash_cdc : CdcSuffix::none;
    return Fields{true, m[1], m[4], m[2], "log", m[3], cdc};
  }
  return std::nullopt;
}

// Names near the grammar's edges: valid names of every shape with a few
// pieces inserted, replaced or removed, or cut short, and names made of its pieces alone.
rc::Gen<std::string> names() {
  static const std::vector<std::string> valid = {
      "97de74b1-2a8e-4bb7-874c-0a74e1f42a77-0_1-98-142_20240418172802262.parquet",
      "files-0000-0_23-1133-3302_20251220210130942.hfile",
      "abc-1_0-1-2_20240101000000.orc",
      "a.b_0-1-2_20240101000000000001.lance",
      ".8aa68f7e-afd6-4c94-b86c-8a886552e08d-0_20251220210130911.log.1_0-1139-3316",
      ".abc-0_20250126040823628.log.12_0-1-2.cdc",
      ".abc-0_20250126040823628.log.3_0-1-2-cdc",
      ".abc-0_20240101000000.log.1",
      ".a.lo_20240101000000000123.log.7-cdc"};
  static const std::vector<std::string> pieces = {".",
                                                  "_",
                                                  "-",
                                                  "/",
                                                  ".log.",
                                                  "log",
                                                  ".cdc",
                                                  "-cdc",
                                                  "cdc",
                                                  "parquet",
                                                  "a",
                                                  "Z",
                                                  "0",
                                                  "7",
                                                  "12",
                                                  "0-1-2",
                                                  "20240101000000",
                                                  "20240101000000123",
                                                  "20240101000000123001",
                                                  "2024010100000",
                                                  "..",
                                                  "x.log.y",
                                                  " "};
  auto piece = rc::gen::elementOf(pieces);
  auto edit = rc::gen::tuple(rc::gen::inRange(0, 4), rc::gen::inRange<std::size_t>(0, 90), piece);
  auto edited = rc::gen::apply(
      [](std::string name, const std::vector<std::tuple<int, std::size_t, std::string>>& edits) {
        // A few edits keep the name near its shape.
        for (std::size_t e = 0; e < std::min<std::size_t>(edits.size(), 3); ++e) {
          const auto& [kind, at, text] = edits[e];
          const std::size_t i = std::min(at, name.size());
          if (kind == 0) {
            name.insert(i, text);
          } else if (kind == 1 && i < name.size()) {
            name.replace(i, 1, text);
          } else if (kind == 2 && i < name.size()) {
            name.erase(i, 1);
          } else if (kind == 3) {
            name.resize(i);
          }
        }
        return name;
      },
      rc::gen::elementOf(valid), rc::gen::container<std::vector<std::tuple<int, std::size_t, std::string>>>(edit));
  auto assembled =
      rc::gen::map(rc::gen::container<std::vector<std::string>>(piece), [](const std::vector<std::string>& v) {
        std::string s;
        for (const auto& p : v) s += p;
        return s;
      });
  return rc::gen::weightedOneOf<std::string>({{4, edited}, {1, assembled}});
}

template <typename Scanner>
auto agrees_with_grammar(Scanner scan) {
  // A batch of names per case: each is cheap, and the edges are narrow.
  return [scan](void) {
    const auto batch = *rc::gen::container<std::vector<std::string>>(100, names());
    for (const std::string& name : batch) {
      RC_ASSERT(fields_of(scan(name)) == grammar(name));
    }
  };
}

TEST_CASE("scan_data_file_name reads every name as the grammar does (property)") {
  for (const char* name : {"a_0-1-2_20240101000000.parquet", ".a_20240101000000.log.1_0-1-2-cdc"}) {
    REQUIRE_MESSAGE(grammar(name).has_value(), name);  // the reference itself reads valid names
  }
  lakegc::testing::rc_check("scanners agree with the grammar",
                            agrees_with_grammar([](std::string_view n) { return scan_data_file_name(n); }));
}

// A scanner that splits on '_' and trusts the rest: what the property is
// there to catch (it takes "a/b_x_20240101000000.p.q" for a base file).
std::optional<DataFileNameView> split_on_underscores(std::string_view name) {
  if (!name.empty() && name.front() == '.') return scan_data_file_name(name);
  const auto u1 = name.find('_');
  const auto u2 = u1 == std::string_view::npos ? u1 : name.find('_', u1 + 1);
  const auto dot = u2 == std::string_view::npos ? u2 : name.find('.', u2 + 1);
  if (dot == std::string_view::npos) return std::nullopt;
  const auto t = InstantTime::from_digits(name.substr(u2 + 1, dot - u2 - 1));
  if (!t) return std::nullopt;
  DataFileNameView v;
  v.file_id = name.substr(0, u1);
  v.write_token = name.substr(u1 + 1, u2 - u1 - 1);
  v.instant = *t;
  v.extension = name.substr(dot + 1);
  return v;
}

TEST_CASE("canary: a scanner that splits on '_' and checks nothing else is caught") {
  const auto caught = lakegc::testing::check_canary("canary split_on_underscores", 20261207, 2000,
                                                    agrees_with_grammar(split_on_underscores));
  CHECK_MESSAGE(caught.is<rc::detail::FailureResult>(), "the grammar property missed a scanner that splits on '_'");
}

}  // namespace lakegc::tests::file_name_test
