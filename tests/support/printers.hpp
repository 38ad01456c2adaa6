// doctest printers for lakegc types, so failed checks show values.
#pragma once

#include <doctest/doctest.h>

#include <optional>
#include <set>

#include "lakegc/core/instant_time.hpp"

namespace doctest {
template <>
struct StringMaker<lakegc::InstantTime> {
  static String convert(const lakegc::InstantTime& t) { return t.valid() ? t.str().c_str() : "(none)"; }
};
template <>
struct StringMaker<std::optional<lakegc::InstantTime>> {
  static String convert(const std::optional<lakegc::InstantTime>& t) { return t ? t->str().c_str() : "nullopt"; }
};
template <>
struct StringMaker<std::set<lakegc::InstantTime>> {
  static String convert(const std::set<lakegc::InstantTime>& s) {
    std::string out = "{";
    for (const auto& t : s) out += t.str() + " ";
    out += "}";
    return out.c_str();
  }
};
}  // namespace doctest
