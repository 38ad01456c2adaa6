// Regression tests for what the parser fuzz targets (fuzz/targets/) found:
// each input crashed lakegc before its fix and must now be an error.
#include <doctest/doctest.h>

#include <string>

#include "lakegc/plan/inventory.hpp"
#include "lakegc/policy/config.hpp"

namespace lakegc::tests::fuzz_regressions_test {

using namespace lakegc;

namespace {

StatusOr<config::runtime_cleaning_policy> policy_with_regex(const std::string& regex) {
  const std::string text =
      "hoodie.cleaner.policy=KEEP_LATEST_COMMITS\n"
      "hoodie.clean.incremental.enabled=false\n"
      "hoodie.clean.partition.filter.regex=" +
      regex + "\n";
  auto props = config::parse_properties(text, "fuzz.properties");
  REQUIRE(props.ok());
  return config::from_properties(*props);
}

// `re` is refused as InvalidArgument naming the key, for the reason `why`.
void check_filter_refused(const std::string& re, std::string_view why) {
  CAPTURE(re);
  const auto p = policy_with_regex(re);
  REQUIRE_FALSE(p.ok());
  CHECK(p.status().code() == absl::StatusCode::kInvalidArgument);
  CHECK(message_of(p.status()).find("hoodie.clean.partition.filter.regex") != std::string_view::npos);
  CHECK(message_of(p.status()).find(why) != std::string_view::npos);
}

}  // namespace

TEST_CASE("a partition filter regex nested too deep is an error, not a stack overflow (java_properties target)") {
  // std::regex's compiler recursed once per level and overflowed the stack.
  const auto deep = policy_with_regex(std::string(30000, '(') + "a" + std::string(30000, ')'));
  REQUIRE_FALSE(deep.ok());
  CHECK(deep.status().code() == absl::StatusCode::kInvalidArgument);
  const auto nested = policy_with_regex(std::string(40, '(') + "a" + std::string(40, ')'));
  REQUIRE_FALSE(nested.ok());
  CHECK(message_of(nested.status()).find("nest groups at most 32 deep") != std::string_view::npos);
  // A long flat one recursed once per term.
  const auto long_flat = policy_with_regex(std::string(100000, 'a'));
  REQUIRE_FALSE(long_flat.ok());
  CHECK(message_of(long_flat.status()).find("longer than the 1024 allowed") != std::string_view::npos);
  // Ordinary filters, escaped parentheses included, still pass.
  CHECK(policy_with_regex("(year=2024|year=2025)/month=(0[1-9]|1[0-2])").ok());
  // Escaped backslashes do not hide the '(' after them (the properties
  // parser unescapes first: 40 there are 20 in the regex).
  CHECK_FALSE(policy_with_regex(std::string(40, '\\') + std::string(40, '(')).ok());
  CHECK(policy_with_regex("dt=\\\\(\\\\(.*").ok());  // the regex dt=\(\(.*
}

TEST_CASE("a huge back-reference or repetition bound in a partition filter is an error (java_properties target)") {
  // libstdc++ reads these numbers into a long with no overflow check: the
  // fuzzer's `\9999...` (a back-reference) was undefined behaviour in its
  // regex compiler. In the properties text a backslash is written twice.
  for (const std::string& re : {std::string("p=\\\\") + std::string(40, '9'), std::string("p=\\\\1001"),
                                std::string("a{") + std::string(30, '9') + "}", std::string("a{2,1001}"),
                                std::string("a{1001,}"), std::string("[x{") + std::string(25, '9') + "}]"}) {
    check_filter_refused(re, "of at most 1000");
  }
  // Bounds and back-references up to the limit, long literal digit runs (a
  // timestamp in a partition name) and digits after an escaped backslash
  // (the regex \\999...) still pass.
  for (const char* re : {"year=\\\\d{4}/month=\\\\d{1,2}", "(a)\\\\1", "x{1000}", "x{2,1000}", "ts=20240101123456.*",
                         "\\\\\\\\99999999999999999999"}) {
    CAPTURE(re);
    CHECK(policy_with_regex(re).ok());
  }
}

TEST_CASE(
    "a partition filter whose nested repetitions multiply past 10000 atoms is an error (java_properties target)") {
  // libstdc++ copied `(a{1000}){1000}`'s states until its own limit of
  // 100,000 and then failed with advice about a macro; the fuzz target spent
  // most of its time compiling such regexes. lakegc refuses them first. In
  // the properties text a backslash is written twice.
  for (const std::string re : {"(a{1000}){1000}", "((a{1000}){1000}){1000}", "(x{99}){99}", "([0-9]{100}){100}",
                               "(a|b{1000}){10}", "(((a+)+)+){1000}", "(\\\\d{100}){100}"}) {
    check_filter_refused(re, "stand for at most 10000");
  }
  CHECK(config::detail::regex_expansion("(a{1000}){1000}") > config::detail::max_regex_expansion);
  CHECK(config::detail::regex_expansion("year=\\d{4}") == 10);
  CHECK(config::detail::regex_expansion("[]{1000}]") == 1);  // a bracket holding ']' and '{': one atom
  CHECK(config::detail::regex_expansion("[[:digit:]]{3}") == 4);
  CHECK(config::detail::regex_expansion("(?:ab)+") == 8);  // "?:" counts as an atom: errs upwards
  CHECK(config::detail::regex_expansion("a{2,5}") == 6);   // the larger bound counts
  CHECK(config::detail::regex_expansion("a{5x7}") == 8);   // malformed: the largest number in the braces
  CHECK(config::detail::regex_expansion("a{99999999999999999999}") > config::detail::max_regex_expansion);
  // Repetitions that stay small, also nested, still pass.
  for (const std::string re :
       {"(\\\\d{4}-){10}", "(year=\\\\d{4}/(month=\\\\d{2}/)?){50}", "x{1000}", "((ab){100}){30}", "[{(]{1000}"}) {
    CAPTURE(re);
    CHECK(policy_with_regex(re).ok());
  }
}

TEST_CASE("an inventory path with an empty, '.' or '..' segment is not under the table (inventory target)") {
  // ".../t//pf.parquet" was handed to the sweep as "/pf.parquet", an
  // absolute path; ".../t/../x" as "../x", outside the table.
  for (const char* uri :
       {"s3://bucket/warehouse/t//pf.parquet", "s3://bucket/warehouse/t/p/../../x.parquet",
        "s3://bucket/warehouse/t/./f.parquet", "/warehouse/t/../u/f.parquet", "s3://bucket/warehouse/t/p//f.parquet"}) {
    CAPTURE(uri);
    const std::string location = std::string_view(uri).starts_with("/") ? "/warehouse/t" : "s3://bucket/warehouse/t";
    const InventoryMatcher strict(location, InventoryOptions{});
    CHECK_FALSE(strict.relative(uri).ok());
    InventoryOptions ignore;
    ignore.prefix_mismatch = PrefixMismatchMode::ignore;
    const auto skipped = InventoryMatcher(location, ignore).relative(uri);
    REQUIRE(skipped.ok());
    CHECK_FALSE(skipped->has_value());
  }
  const InventoryMatcher m("s3://bucket/warehouse/t", InventoryOptions{});
  const auto ok = m.relative("s3a://bucket/warehouse/t/p=1/..f.parquet");
  REQUIRE(ok.ok());
  CHECK(**ok == "p=1/..f.parquet");
}

}  // namespace lakegc::tests::fuzz_regressions_test
