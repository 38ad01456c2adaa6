// File: lakegc/policy/ttl_config.hpp
// -----------------------------------------------------------------------------
// The runtime form of a partition-TTL policy: lakegc::config::ttl_from_properties
// reads Hudi's `hoodie.partition.ttl.*` keys (HoodieTTLConfig) into
// TtlSettings, with Hudi's defaults:
//
//   hoodie.partition.ttl.inline                          false
//   hoodie.partition.ttl.management.strategy.type        KEEP_BY_TIME (case-insensitive, as Hudi's valueOf(toUpperCase))
//   hoodie.partition.ttl.strategy.class                  none; wins over the type when non-empty
//   hoodie.partition.ttl.strategy.days.retain            -1 (nothing expires while <= 0)
//   hoodie.partition.ttl.strategy.partition.selected     none: every partition
//   hoodie.partition.ttl.strategy.max.delete.partitions  1000
//   hoodie.partition.ttl.strategy.stats.max.parallelism  200 (Hudi 1.3.0; no effect on the plan)
//
// Refused, naming the key: an unknown `hoodie.partition.ttl.*` key (a typo
// would silently mean "the default"), a strategy class other than Hudi's
// two built-in ones (lakegc cannot run user Java code), values Hudi's run
// would fail on (a negative max.delete.partitions: Stream.limit throws; a
// parallelism below 1: Spark refuses it; a partition listed twice under
// KEEP_BY_TIME: Collectors.toMap throws on the duplicate key).
#pragma once

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "lakegc/policy/config.hpp"

namespace lakegc {

enum class TtlStrategy : std::uint8_t { keep_by_time, keep_by_creation_time };

/// Hudi's PartitionTTLStrategyType name.
constexpr std::string_view to_string(TtlStrategy s) noexcept {
  return s == TtlStrategy::keep_by_time ? "KEEP_BY_TIME" : "KEEP_BY_CREATION_TIME";
}

inline constexpr std::string_view kKeepByTimeClass = "org.apache.hudi.table.action.ttl.strategy.KeepByTimeStrategy";
inline constexpr std::string_view kKeepByCreationTimeClass =
    "org.apache.hudi.table.action.ttl.strategy.KeepByCreationTimeStrategy";

struct TtlSettings {
  bool inline_ttl = false;
  TtlStrategy strategy = TtlStrategy::keep_by_time;
  /// A Java int in Hudi: nothing expires while it is <= 0.
  std::int32_t days_retain = -1;
  /// The selected partitions verbatim (Java's split(","): empty items kept,
  /// trailing empty ones dropped); none means every partition.
  std::optional<std::vector<std::string>> selected;
  std::uint32_t max_delete_partitions = 1000;
  std::uint32_t stats_max_parallelism = 200;
};

namespace config {

namespace detail {

inline const std::set<std::string>& known_ttl_keys() {
  static const std::set<std::string> keys = {"hoodie.partition.ttl.inline",
                                             "hoodie.partition.ttl.management.strategy.type",
                                             "hoodie.partition.ttl.strategy.class",
                                             "hoodie.partition.ttl.strategy.days.retain",
                                             "hoodie.partition.ttl.strategy.partition.selected",
                                             "hoodie.partition.ttl.strategy.max.delete.partitions",
                                             "hoodie.partition.ttl.strategy.stats.max.parallelism"};
  return keys;
}

// Java's String.split(","): trailing empty strings removed.
inline std::vector<std::string> java_split_commas(std::string_view s) {
  std::vector<std::string> out;
  while (true) {
    const auto comma = s.find(',');
    out.emplace_back(s.substr(0, comma));
    if (comma == std::string_view::npos) break;
    s.remove_prefix(comma + 1);
  }
  while (!out.empty() && out.back().empty()) out.pop_back();
  return out;
}

}  // namespace detail

/// Reads TTL settings from Hudi properties; other keys are ignored.
[[nodiscard]] inline StatusOr<TtlSettings> ttl_from_properties(const Properties& props) {
  for (const auto& [k, v] : props) {
    if (k.starts_with("hoodie.partition.ttl.") && !detail::known_ttl_keys().contains(k)) {
      return absl::InvalidArgumentError(
          fmt::format("{}: unknown partition TTL key (see hoodie.partition.ttl.* in the README)", k));
    }
  }
  detail::KeyLookup keys{props, {}};
  TtlSettings s;
  if (auto kv = keys.get("hoodie.partition.ttl.inline")) {
    LAKEGC_ASSIGN_OR_RETURN(s.inline_ttl, detail::parse_bool(*kv));
  }
  const auto cls = keys.get("hoodie.partition.ttl.strategy.class");
  if (cls && !cls->second.empty()) {
    // HoodiePartitionTTLStrategyFactory: a non-empty class wins over the type.
    if (cls->second == kKeepByTimeClass) {
      s.strategy = TtlStrategy::keep_by_time;
    } else if (cls->second == kKeepByCreationTimeClass) {
      s.strategy = TtlStrategy::keep_by_creation_time;
    } else {
      return absl::InvalidArgumentError(fmt::format(
          "{}={}: lakegc plans only Hudi's built-in strategies ({} or {}); a custom strategy class is Java code "
          "lakegc cannot run",
          cls->first, cls->second, kKeepByTimeClass, kKeepByCreationTimeClass));
    }
  } else if (auto type = keys.get("hoodie.partition.ttl.management.strategy.type")) {
    std::string upper = type->second;
    std::transform(upper.begin(), upper.end(), upper.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    if (upper == "KEEP_BY_TIME") {
      s.strategy = TtlStrategy::keep_by_time;
    } else if (upper == "KEEP_BY_CREATION_TIME") {
      s.strategy = TtlStrategy::keep_by_creation_time;
    } else {
      return absl::InvalidArgumentError(
          fmt::format("{}={}: expected KEEP_BY_TIME or KEEP_BY_CREATION_TIME", type->first, type->second));
    }
  }
  if (auto kv = keys.get("hoodie.partition.ttl.strategy.days.retain")) {
    LAKEGC_ASSIGN_OR_RETURN(auto days, detail::parse_int(*kv, std::numeric_limits<std::int32_t>::min(),
                                                         "a whole number of days (a Java int; <= 0 expires nothing)",
                                                         std::numeric_limits<std::int32_t>::max()));
    s.days_retain = static_cast<std::int32_t>(days);
  }
  if (auto kv = keys.get("hoodie.partition.ttl.strategy.max.delete.partitions")) {
    LAKEGC_ASSIGN_OR_RETURN(auto n,
                            detail::parse_int(*kv, 0, "a whole number >= 0 (a negative cap makes Hudi's run fail)",
                                              std::numeric_limits<std::int32_t>::max()));
    s.max_delete_partitions = static_cast<std::uint32_t>(n);
  }
  if (auto kv = keys.get("hoodie.partition.ttl.strategy.stats.max.parallelism")) {
    LAKEGC_ASSIGN_OR_RETURN(auto n,
                            detail::parse_int(*kv, 1, "a whole number >= 1", std::numeric_limits<std::int32_t>::max()));
    s.stats_max_parallelism = static_cast<std::uint32_t>(n);
  }
  if (auto kv = keys.get("hoodie.partition.ttl.strategy.partition.selected"); kv && !kv->second.empty()) {
    std::vector<std::string> items = detail::java_split_commas(kv->second);
    if (s.strategy == TtlStrategy::keep_by_time) {
      std::set<std::string_view> seen;
      for (const auto& p : items) {
        if (!seen.insert(p).second) {
          return absl::InvalidArgumentError(
              fmt::format("{}: lists '{}' twice; Hudi's KEEP_BY_TIME run fails on it (Collectors.toMap: duplicate key)",
                          kv->first, p));
        }
      }
    }
    s.selected = std::move(items);
  }
  return s;
}

}  // namespace config
}  // namespace lakegc
