#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "lakegc/core/instant_time.hpp"

namespace lakegc::tests::instant_time_test {

using lakegc::InstantTime;
using lakegc::TimelineTimezone;

namespace {
InstantTime t(const char* s) { return InstantTime::parse(s).value(); }
}  // namespace

TEST_CASE("instant times of 14, 17 and 20 digits parse and format back exactly") {
  for (const char* s : {"20240418172802262", "20240418172802", "00000000000000", "00000000000001", "00000000000000000",
                        "00000000000000004", "20240418172802262001"}) {
    auto parsed = InstantTime::parse(s);
    REQUIRE(parsed.ok());
    CHECK(parsed->str() == s);
    CHECK(parsed->digits() == static_cast<int>(std::string(s).size()));
  }
}

TEST_CASE("bad instant times are errors that name the text") {
  for (const char* s : {"", "0", "2024041817280", "2024041817280226x", "202404181728022621", "abcdefghijklmn"}) {
    auto parsed = InstantTime::parse(s);
    REQUIRE_FALSE(parsed.ok());
    CHECK(std::string(lakegc::message_of(parsed.status())).find(std::string("'") + s + "'") != std::string::npos);
  }
}

TEST_CASE("the order agrees with Hudi's string comparison") {
  const std::vector<std::string> sorted = {"00000000000000",       "00000000000000000",    "00000000000001",
                                           "00000000000002",       "20240418172801999",    "20240418172802",
                                           "20240418172802000",    "20240418172802000001", "20240418172802262",
                                           "20240418172802262000", "20240418172802262999", "20240418172803"};
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    for (std::size_t j = 0; j < sorted.size(); ++j) {
      const auto a = t(sorted[i].c_str());
      const auto b = t(sorted[j].c_str());
      CHECK_MESSAGE((a < b) == (sorted[i] < sorted[j]), sorted[i], " vs ", sorted[j]);
      CHECK((a == b) == (i == j));
    }
  }
  CHECK(InstantTime() < t("00000000000000"));
}

TEST_CASE("epoch conversion round-trips in UTC") {
  const auto it = t("20240418172802262");
  const auto ms = it.to_epoch_ms(TimelineTimezone::utc);
  REQUIRE(ms.ok());
  CHECK(*ms == 1713461282262);
  CHECK(InstantTime::from_epoch_ms(*ms, TimelineTimezone::utc) == it);
  // Hudi pads 14-digit instants with 999 milliseconds for date arithmetic.
  CHECK(t("20240418172802").to_epoch_ms(TimelineTimezone::utc).value() == 1713461282999);
  // Local time zone follows the process's TZ; both directions agree.
  const auto local = InstantTime::from_epoch_ms(1713461282262, TimelineTimezone::local);
  CHECK(local.to_epoch_ms(TimelineTimezone::local).value() == 1713461282262);
}

TEST_CASE("special instants are not dates") {
  CHECK_FALSE(t("00000000000001").to_epoch_ms(TimelineTimezone::utc).ok());
  CHECK_FALSE(t("20240230000000000").to_epoch_ms(TimelineTimezone::utc).ok());
}

}  // namespace lakegc::tests::instant_time_test
