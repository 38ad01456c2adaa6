// The runtime form of a cleaning policy: Hudi's hoodie.clean.* keys (current
// and legacy spellings) read by config::from_properties, and the Java
// properties files they come in, read by config::parse_properties.
#include <doctest/doctest.h>

#include <string>
#include <variant>

#include "clean_fixture.hpp"
#include "lakegc/policy/config.hpp"

namespace lakegc::tests::config_test {

using namespace lakegc;
using namespace lakegc::config;

namespace {

runtime_cleaning_policy read(const Properties& props) {
  auto p = from_properties(props);
  REQUIRE_MESSAGE(p.ok(), std::string(message_of(p.status())));
  return *p;
}

/// The error for `props`, which must be InvalidArgument.
std::string error_of(const Properties& props) {
  auto p = from_properties(props);
  REQUIRE_FALSE(p.ok());
  CHECK(absl::IsInvalidArgument(p.status()));
  return std::string(message_of(p.status()));
}

std::uint32_t commits_of(const runtime_cleaning_policy& p) {
  REQUIRE(std::holds_alternative<keep_latest_commits>(p.rule()));
  return std::get<keep_latest_commits>(p.rule()).commits;
}
std::uint32_t hours_of(const runtime_cleaning_policy& p) {
  REQUIRE(std::holds_alternative<keep_by_hours>(p.rule()));
  return std::get<keep_by_hours>(p.rule()).hours;
}
std::uint32_t versions_of(const runtime_cleaning_policy& p) {
  REQUIRE(std::holds_alternative<keep_latest_file_versions>(p.rule()));
  return std::get<keep_latest_file_versions>(p.rule()).versions;
}

}  // namespace

TEST_CASE("from_properties: Hudi's defaults with no keys") {
  const auto p = read({});
  CHECK(p.name() == "KEEP_LATEST_COMMITS");
  CHECK(commits_of(p) == 10);
  const ScopeSettings s = p.scope();
  CHECK(s.incremental);
  CHECK(s.trigger_max_commits == 1);
  CHECK(s.max_commits_to_clean == 0);
  CHECK_FALSE(s.empty_clean_interval_hours.has_value());
  CHECK(s.selected_partitions.empty());
  CHECK(s.partition_regex.empty());
  CHECK(p.guards().savepoints);
  CHECK(p.guards().pending_table_services);
  CHECK_FALSE(p.guards().reader_leases);
}

TEST_CASE("from_properties: every key, in its current and legacy spelling") {
  for (const char* key : {"hoodie.clean.policy", "hoodie.cleaner.policy"}) {
    CAPTURE(key);
    CHECK(read({{key, "KEEP_LATEST_BY_HOURS"}}).name() == "KEEP_LATEST_BY_HOURS");
    CHECK(read({{key, "KEEP_LATEST_FILE_VERSIONS"}}).name() == "KEEP_LATEST_FILE_VERSIONS");
    CHECK(read({{key, "KEEP_LATEST_COMMITS"}}).name() == "KEEP_LATEST_COMMITS");
  }
  for (const char* key : {"hoodie.clean.commits.retained", "hoodie.cleaner.commits.retained"}) {
    CAPTURE(key);
    CHECK(commits_of(read({{key, "24"}})) == 24);
  }
  for (const char* key : {"hoodie.clean.hours.retained", "hoodie.cleaner.hours.retained"}) {
    CAPTURE(key);
    CHECK(hours_of(read({{key, "48"}})) == 48);
  }
  for (const char* key : {"hoodie.clean.fileversions.retained", "hoodie.cleaner.fileversions.retained"}) {
    CAPTURE(key);
    const auto p = read({{key, "5"}});
    CHECK(versions_of(p) == 5);
    CHECK_FALSE(p.scope().incremental);  // file versions always scan everything
  }
  for (const char* key : {"hoodie.clean.incremental.enabled", "hoodie.cleaner.incremental.mode"}) {
    CAPTURE(key);
    CHECK_FALSE(read({{key, "false"}}).scope().incremental);
    CHECK(read({{key, "true"}}).scope().incremental);
  }
  for (const char* key : {"hoodie.clean.trigger.max.commits", "hoodie.clean.max.commits"}) {
    CAPTURE(key);
    CHECK(read({{key, "4"}}).scope().trigger_max_commits == 4);
  }
  CHECK(read({{"hoodie.clean.trigger.strategy", "NUM_COMMITS"}}).scope().trigger_max_commits == 1);
  CHECK(read({{"hoodie.clean.max.commits.to.clean", "50"}}).scope().max_commits_to_clean == 50);
  CHECK(read({{"hoodie.write.empty.clean.interval.hours", "6"}}).scope().empty_clean_interval_hours == 6u);
  CHECK_FALSE(read({{"hoodie.write.empty.clean.interval.hours", "-1"}}).scope().empty_clean_interval_hours);
  {
    const auto s = read({{"hoodie.clean.incremental.enabled", "false"},
                         {"hoodie.clean.partition.filter.selected", "region=eu,,region=us"}})
                       .scope();
    CHECK(s.selected_partitions == std::vector<std::string>{"region=eu", "region=us"});
  }
  CHECK(read({{"hoodie.clean.incremental.enabled", "false"}, {"hoodie.clean.partition.filter.regex", "region=eu/.*"}})
            .scope()
            .partition_regex == "region=eu/.*");
  CHECK(read({{"lakegc.clean.reader.leases", "true"}}).guards().reader_leases);
  // Known keys that do not change what gets deleted are accepted, so a
  // user's whole Spark configuration can be passed as it is.
  for (const char* key :
       {"hoodie.clean.automatic", "hoodie.clean.async", "hoodie.clean.async.enabled", "hoodie.clean.multiple.enabled",
        "hoodie.clean.allow.multiple", "hoodie.clean.delete.bootstrap.base.file",
        "hoodie.cleaner.delete.bootstrap.base.file", "hoodie.clean.optimize.using.local.engine.context"}) {
    CAPTURE(key);
    CHECK(from_properties({{key, "true"}}).ok());
  }
  for (const char* key : {"hoodie.clean.parallelism", "hoodie.cleaner.parallelism"}) {
    CAPTURE(key);
    CHECK(from_properties({{key, "200"}}).ok());
  }
  for (const char* key : {"hoodie.clean.failed.writes.policy", "hoodie.cleaner.policy.failed.writes"}) {
    CAPTURE(key);
    CHECK(from_properties({{key, "LAZY"}}).ok());
  }
}

TEST_CASE("from_properties: the current spelling wins over the legacy one") {
  const auto p = read({{"hoodie.clean.commits.retained", "7"}, {"hoodie.cleaner.commits.retained", "3"}});
  CHECK(commits_of(p) == 7);
}

TEST_CASE("from_properties: the one retained-count key that is set picks the policy") {
  CHECK(read({{"hoodie.clean.commits.retained", "3"}}).name() == "KEEP_LATEST_COMMITS");
  CHECK(hours_of(read({{"hoodie.clean.hours.retained", "12"}})) == 12);
  CHECK(versions_of(read({{"hoodie.cleaner.fileversions.retained", "2"}})) == 2);
  // With the policy explicit, the other counts are ignored, as in Hudi.
  CHECK(commits_of(read({{"hoodie.clean.policy", "KEEP_LATEST_COMMITS"},
                         {"hoodie.clean.commits.retained", "4"},
                         {"hoodie.clean.hours.retained", "12"}})) == 4);
}

TEST_CASE("from_properties: two retained-count keys and no policy is ambiguous") {
  const std::string e =
      error_of({{"hoodie.clean.commits.retained", "3"}, {"hoodie.cleaner.fileversions.retained", "2"}});
  CHECK(e.find("hoodie.clean.policy") != std::string::npos);
  CHECK(e.find("hoodie.clean.commits.retained") != std::string::npos);
  CHECK(e.find("hoodie.clean.fileversions.retained") != std::string::npos);
  CHECK(error_of({{"hoodie.clean.hours.retained", "3"}, {"hoodie.clean.commits.retained", "2"}})
            .find("hoodie.clean.policy") != std::string::npos);
}

TEST_CASE("from_properties: a bad value is an error naming its key") {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"hoodie.clean.commits.retained", "abc"},
      {"hoodie.clean.commits.retained", "0"},
      {"hoodie.clean.commits.retained", "-3"},
      {"hoodie.clean.commits.retained", "10 "},
      {"hoodie.clean.commits.retained", ""},
      {"hoodie.cleaner.commits.retained", "1.5"},
      // Wider than the 32-bit count it becomes: must not wrap to 0 (which
      // would retain a single commit).
      {"hoodie.clean.commits.retained", "4294967296"},
      {"hoodie.clean.commits.retained", "99999999999999999999"},
      {"hoodie.clean.hours.retained", "0"},
      {"hoodie.clean.hours.retained", "4294967297"},
      {"hoodie.cleaner.fileversions.retained", "none"},
      {"hoodie.clean.fileversions.retained", "4294967296"},
      {"hoodie.clean.policy", "KEEP_EVERYTHING"},
      {"hoodie.cleaner.policy", "keep_latest_commits"},
      {"hoodie.clean.incremental.enabled", "yes"},
      {"hoodie.cleaner.incremental.mode", "1"},
      {"hoodie.clean.trigger.strategy", "TIME_ELAPSED"},
      {"hoodie.clean.trigger.max.commits", "0"},
      {"hoodie.clean.max.commits", "many"},
      {"hoodie.clean.trigger.max.commits", "4294967296"},
      {"hoodie.clean.max.commits.to.clean", "0"},
      {"hoodie.write.empty.clean.interval.hours", "0"},
      {"hoodie.write.empty.clean.interval.hours", "-2"},
      {"hoodie.write.empty.clean.interval.hours", "4294967296"},
      {"lakegc.clean.reader.leases", "on"},
  };
  for (const auto& [key, value] : bad) {
    CAPTURE(key);
    CAPTURE(value);
    Properties props{{key, value}};
    // A count for another policy is read only under that policy.
    if (key.find("hours") != std::string::npos && key.find("interval") == std::string::npos) {
      props["hoodie.clean.policy"] = "KEEP_LATEST_BY_HOURS";
    }
    if (key.find("fileversions") != std::string::npos) props["hoodie.clean.policy"] = "KEEP_LATEST_FILE_VERSIONS";
    if (key.find("fileversions") != std::string::npos) props["hoodie.clean.incremental.enabled"] = "false";
    CHECK(error_of(props).find(key) != std::string::npos);
  }
  // The regex of a partition filter is checked when read.
  CHECK(error_of({{"hoodie.clean.incremental.enabled", "false"}, {"hoodie.clean.partition.filter.regex", "(eu"}})
            .find("hoodie.clean.partition.filter.regex") != std::string::npos);
}

TEST_CASE("from_properties: an unknown hoodie.clean.* key is an error naming it; other keys are ignored") {
  for (const char* typo : {"hoodie.clean.comits.retained", "hoodie.cleaner.commit.retained", "hoodie.clean.enabled"}) {
    CAPTURE(typo);
    CHECK(error_of({{typo, "5"}}).find(typo) != std::string::npos);
  }
  const auto p = read({{"hoodie.datasource.write.operation", "upsert"},
                       {"hoodie.table.name", "trips"},
                       {"spark.executor.memory", "4g"},
                       {"hoodie.keep.min.commits", "20"}});
  CHECK(commits_of(p) == 10);
}

TEST_CASE("from_properties: incremental cleaning refuses a partition filter and file versions") {
  for (const char* key : {"hoodie.clean.partition.filter.selected", "hoodie.clean.partition.filter.regex"}) {
    CAPTURE(key);
    // Incremental is the default, so the filter alone is already refused.
    CHECK(error_of({{key, "region=eu"}}).find(key) != std::string::npos);
    CHECK(error_of({{key, "region=eu"}, {"hoodie.clean.incremental.enabled", "true"}}).find(key) != std::string::npos);
    CHECK(error_of({{key, "region=eu"}, {"hoodie.cleaner.incremental.mode", "true"}}).find(key) != std::string::npos);
  }
  // Asking for incremental cleaning with file versions is refused in either
  // spelling (Hudi silently scans everything).
  for (const char* key : {"hoodie.clean.incremental.enabled", "hoodie.cleaner.incremental.mode"}) {
    CAPTURE(key);
    CHECK(error_of({{"hoodie.clean.policy", "KEEP_LATEST_FILE_VERSIONS"}, {key, "true"}}).find(key) !=
          std::string::npos);
  }
}

TEST_CASE("from_properties: the runtime policy plans like the compile-time one") {
  lakegc::testing::TestTable t;
  for (int i = 0; i < 6; ++i) t.commit({lakegc::testing::Slot{"p", "fa-0"}});
  const auto runtime = read({{"hoodie.clean.commits.retained", "2"}});
  const auto compiled =
      cleaning(keep_latest_commits{2}, guard::savepoints, guard::pending_table_services, scope::incremental);
  CHECK(t.plan(runtime) == t.plan(compiled));
  CHECK(t.plan(runtime).has_work());
}

TEST_CASE("parse_properties: a Spark properties file with comments, escapes and continuations") {
  const std::string text =
      "# spark-defaults.conf for the nightly Hudi job\r\n"
      "! written by deploy.sh; do not edit\n"
      "\n"
      "spark.master                     yarn\n"
      "spark.serializer=org.apache.spark.serializer.KryoSerializer\n"
      "   hoodie.clean.commits.retained = 24\n"
      "hoodie.cleaner.policy:KEEP_LATEST_COMMITS\n"
      "hoodie.base.path=s3a://lake/tables/trips\r\n"
      "spark.driver.extraJavaOptions=-Dlog4j.configuration=file:log4j.properties \\\n"
      "    -XX:+UseG1GC \\\n"
      "    # not a comment inside a continued line\n"
      "hoodie.datasource.write.partitionpath.field=region\\:country\n"
      "path\\ with\\ spaces=a\\=b\n"
      "tabbed\\tkey=one\\ttwo\n"
      "backslash=C:\\\\temp\\\\\n"
      "unicode=caf\\u00e9 \\u20ac\n"
      "empty.value=\n"
      "only.key\n"
      "trailing=kept   \n"
      "# a comment ending in a backslash does not continue \\\n"
      "last.line.without.newline=yes";
  auto props = parse_properties(text, "spark-defaults.conf");
  REQUIRE_MESSAGE(props.ok(), std::string(message_of(props.status())));
  const Properties expected = {
      {"spark.master", "yarn"},
      {"spark.serializer", "org.apache.spark.serializer.KryoSerializer"},
      {"hoodie.clean.commits.retained", "24"},
      {"hoodie.cleaner.policy", "KEEP_LATEST_COMMITS"},
      {"hoodie.base.path", "s3a://lake/tables/trips"},
      {"spark.driver.extraJavaOptions",
       "-Dlog4j.configuration=file:log4j.properties -XX:+UseG1GC # not a comment inside a continued line"},
      {"hoodie.datasource.write.partitionpath.field", "region:country"},
      {"path with spaces", "a=b"},
      {"tabbed\tkey", "one\ttwo"},
      {"backslash", "C:\\temp\\"},
      {"unicode", "caf\xc3\xa9 \xe2\x82\xac"},
      {"empty.value", ""},
      {"only.key", ""},
      {"trailing", "kept   "},
      {"last.line.without.newline", "yes"},
  };
  CHECK(*props == expected);
  // And the policy it describes.
  const auto policy = from_properties(*props);
  REQUIRE(policy.ok());
  CHECK(commits_of(*policy) == 24);
}

TEST_CASE("parse_properties: errors name the file and line") {
  auto bad = parse_properties("a=1\n=no key\n", "job.properties");
  REQUIRE_FALSE(bad.ok());
  CHECK(message_of(bad.status()).find("job.properties:2") != std::string_view::npos);
  auto bad_escape = parse_properties("ok=1\n\nx=\\u12G4\n", "job.properties");
  REQUIRE_FALSE(bad_escape.ok());
  CHECK(message_of(bad_escape.status()).find("job.properties:3") != std::string_view::npos);
}

TEST_CASE("parse_properties: one separator between key and value, as Java's Properties.load") {
  auto props = parse_properties("a==b\nc = :d\ne : f\ng\f=\fh\n\fi j\n", "job.properties");
  REQUIRE_MESSAGE(props.ok(), std::string(message_of(props.status())));
  const Properties expected = {{"a", "=b"}, {"c", ":d"}, {"e", "f"}, {"g", "h"}, {"i", "j"}};
  CHECK(*props == expected);
}

TEST_CASE("format_properties: escapes as Java's Properties.store, and parse_properties reads it back") {
  const Properties props = {{"plain", "v"},
                            {"key with spaces", " leading and trailing "},
                            {"sep=:#!", "a=b:c#d!e\\f"},
                            {"controls", "tab\tnl\ncr\rff\fbell\a"},
                            {"unicode", "caf\u00e9 \u20ac \U0001F600"},
                            {"not utf-8", "\xff\xc3("}};
  const std::string text = format_properties(props, "comment\nwith a newline");
  CHECK(text.starts_with("#comment with a newline\n"));
  CHECK(text.find("key\\ with\\ spaces=\\ leading and trailing \n") != std::string::npos);
  CHECK(text.find("unicode=caf\\u00E9 \\u20AC \\uD83D\\uDE00\n") != std::string::npos);
  CHECK(text.find("controls=tab\\tnl\\ncr\\rff\\fbell\\u0007\n") != std::string::npos);
  auto back = parse_properties(text, "written.properties");
  REQUIRE_MESSAGE(back.ok(), std::string(message_of(back.status())));
  CHECK(*back == props);
}

}  // namespace lakegc::tests::config_test
