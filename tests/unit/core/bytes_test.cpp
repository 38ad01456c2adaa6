// bytes_less, bytes_equal and last_slash against std::string_view's own
// operators, over strings that share long prefixes and hold bytes above
// 0x7f (where a signed comparison would differ).
#include <doctest/doctest.h>

#include <string>
#include <string_view>

#include <rapidcheck.h>

#include "../../property/canary_check.hpp"
#include "lakegc/core/bytes.hpp"
#include "rc_doctest.hpp"

namespace lakegc::tests::bytes_test {

// Two strings from one alphabet of '/', 'a', 'b' and 0xff: a shared prefix
// (often longer than eight bytes) and short tails.
rc::Gen<std::pair<std::string, std::string>> pairs() {
  auto text = [](int max) {
    return rc::gen::resize(max, rc::gen::container<std::string>(rc::gen::elementOf(std::string("/ab\xff"))));
  };
  return rc::gen::apply([](const std::string& prefix, const std::string& x,
                           const std::string& y) { return std::make_pair(prefix + x, prefix + y); },
                        text(40), text(12), text(12));
}

template <typename Less>
auto agrees_with_string_view(Less less) {
  return [less](void) {
    const auto [a, b] = *pairs();
    RC_ASSERT(less(a, b) == (std::string_view(a) < std::string_view(b)));
    RC_ASSERT(lakegc::detail::bytes_equal(a, b) == (a == b));
    RC_ASSERT(lakegc::detail::last_slash(a) == std::string_view(a).rfind('/'));
  };
}

TEST_CASE("bytes_less, bytes_equal and last_slash answer as std::string_view does (property)") {
  CHECK(lakegc::detail::bytes_less("abcdefgh-1", "abcdefgh\xff"));
  CHECK(lakegc::detail::last_slash("no slash here at all") == std::string_view::npos);
  CHECK(lakegc::detail::last_slash("a/bcdefghijklmnop") == 1);
  lakegc::testing::rc_check(
      "byte comparisons agree with std::string_view",
      agrees_with_string_view([](std::string_view a, std::string_view b) { return lakegc::detail::bytes_less(a, b); }));
}

TEST_CASE("canary: a comparison of bytes as signed char is caught") {
  auto signed_less = [](std::string_view a, std::string_view b) {
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
      if (a[i] != b[i]) return static_cast<signed char>(a[i]) < static_cast<signed char>(b[i]);
    }
    return a.size() < b.size();
  };
  const auto caught =
      lakegc::testing::check_canary("canary signed_less", 20261207, 1000, agrees_with_string_view(signed_less));
  CHECK_MESSAGE(caught.is<rc::detail::FailureResult>(), "the property missed a signed comparison");
}

}  // namespace lakegc::tests::bytes_test
