// File: lakegc/policy/config.hpp
// -----------------------------------------------------------------------------
// The runtime form of a cleaning policy: lakegc::config::from_properties
// reads Hudi's `hoodie.clean.*` keys (and their legacy `hoodie.cleaner.*`
// spellings), as users pass them to Spark, and returns a policy that models
// CleaningPolicy like the compile-time form.
//
// * Policy inference (Hudi 0.14, HUDI-5954): with no explicit
//   hoodie.clean.policy, the one retained-count key that is set picks the
//   policy; two of them set is ambiguous and refused.
// * Ranges are validated; a bad key or value is an InvalidArgument naming the
//   key and what was expected.
// * Unknown `hoodie.clean.*` keys are refused (a typo silently meaning "the
//   default" is how tables lose data); other keys (hoodie.datasource.*,
//   spark.*) are ignored, so a user's whole Spark config can be passed.
// * Like lakegc::cleaning, the runtime form refuses incremental cleaning
//   with keep_latest_file_versions or with a partition filter.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <limits>
#include <map>
#include <regex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <absl/strings/ascii.h>
#include <fmt/format.h>

#include "lakegc/policy/cleaning.hpp"

namespace lakegc::config {

using Properties = std::map<std::string, std::string>;

/// A policy chosen at run time. Always carries the savepoint and
/// pending-table-service guards: there is no property to turn them off.
class runtime_cleaning_policy {
 public:
  using Rule = std::variant<keep_latest_commits, keep_latest_file_versions, keep_by_hours>;

  runtime_cleaning_policy(Rule rule, ScopeSettings scope) : rule_(rule), scope_(std::move(scope)) {}

  Retention retention(const RetentionContext& ctx) const {
    return std::visit([&](const auto& r) { return r.retention(ctx); }, rule_);
  }
  GuardFlags guards() const { return GuardFlags{true, true, reader_leases_}; }
  ScopeSettings scope() const { return scope_; }
  std::string name() const {
    return std::visit([](const auto& r) { return std::decay_t<decltype(r)>::hudi_name(); }, rule_);
  }
  bool user_guards_protect(const SliceGuardContext&) const { return false; }

  const Rule& rule() const noexcept { return rule_; }
  /// lakegc's own key `lakegc.clean.reader.leases=true` turns on leases.
  void set_reader_leases(bool on) { reader_leases_ = on; }

 private:
  Rule rule_;
  ScopeSettings scope_;
  bool reader_leases_ = false;
};

static_assert(CleaningPolicy<runtime_cleaning_policy>);

namespace detail {

struct KeyLookup {
  const Properties& props;
  std::set<std::string> used;

  // Current spelling first, then the legacy one; returns the key found.
  std::optional<std::pair<std::string, std::string>> get(const std::string& key, const std::string& legacy = {}) {
    if (auto it = props.find(key); it != props.end()) {
      used.insert(key);
      if (!legacy.empty()) used.insert(legacy);
      return std::pair{key, it->second};
    }
    if (!legacy.empty()) {
      if (auto it = props.find(legacy); it != props.end()) {
        used.insert(legacy);
        return std::pair{legacy, it->second};
      }
    }
    return std::nullopt;
  }
};

// `max` defaults to what the 32-bit counts hold: a larger value must be
// refused, not wrapped (4294967296 commits retained would become 0, i.e. 1).
[[nodiscard]] inline StatusOr<std::int64_t> parse_int(const std::pair<std::string, std::string>& kv, std::int64_t min,
                                                      std::string_view expected,
                                                      std::int64_t max = std::numeric_limits<std::uint32_t>::max()) {
  const std::string& v = kv.second;
  std::int64_t out = 0;
  const auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (ec != std::errc() || ptr != v.data() + v.size() || out < min || out > max) {
    return absl::InvalidArgumentError(fmt::format("{}={}: expected {}", kv.first, v, expected));
  }
  return out;
}

[[nodiscard]] inline StatusOr<bool> parse_bool(const std::pair<std::string, std::string>& kv) {
  if (kv.second == "true") return true;
  if (kv.second == "false") return false;
  return absl::InvalidArgumentError(fmt::format("{}={}: expected true or false", kv.first, kv.second));
}

inline constexpr std::size_t max_regex_length = 1024;
inline constexpr int max_regex_group_depth = 32;
/// The largest repetition bound (`{n}`, `{n,m}`) and back-reference number
/// (`\n`) accepted. libstdc++ reads these numbers into a `long` without an
/// overflow check (`_Compiler::_M_cur_int_value`): `\99999999999999999999`
/// is undefined behaviour in its compiler (found by the java_properties fuzz
/// target, UBSan), and a large bound makes it copy the repeated expression
/// that many times.
inline constexpr long max_regex_number = 1000;

/// The most atoms a regex may stand for once its repetitions are written
/// out. libstdc++ compiles `(a{1000}){1000}` by copying the group's states
/// a thousand times a thousand times, up to its own limit of 100,000 states
/// (_GLIBCXX_REGEX_STATE_LIMIT), and only then fails, with a message about
/// a macro; the java_properties fuzz target spent most of its time there.
/// Partition filters repeat little: `\d{4}` is 5.
inline constexpr long max_regex_expansion = 10000;

/// The decimal number whose digits start at `at` in `re`, saturated at
/// `limit + 1` (so a bound check against `limit` needs no overflow care);
/// `end` is set to the first position after its digits.
inline long saturated_number(std::string_view re, std::size_t at, long limit, std::size_t& end) {
  long v = 0;
  for (end = at; end < re.size() && absl::ascii_isdigit(static_cast<unsigned char>(re[end])); ++end)
    v = std::min(v * 10 + (re[end] - '0'), limit + 1);
  return v;
}

/// How many atoms `re` stands for with every repetition written out: an
/// atom (a character, an escape, a bracket expression) counts 1, a group
/// the sum of its contents, and a quantifier multiplies the atom or group
/// before it by its largest bound + 1 (`*`, `+` and `?` by 2). Saturates
/// above max_regex_expansion. An estimate of the compiled size that only
/// errs upwards; malformed input is left for std::regex to refuse.
inline long regex_expansion(std::string_view re) {
  const auto saturate = [](long v) { return std::min(v, max_regex_expansion + 1); };
  struct level {
    long sum = 0;   // atoms so far in this group
    long last = 0;  // the latest atom or group, which a quantifier repeats
  };
  std::vector<level> stack(1);
  const auto add_atom = [&](long size) {
    stack.back().last = saturate(size);
    stack.back().sum = saturate(stack.back().sum + stack.back().last);
  };
  const auto repeat_last = [&](long factor) {
    level& l = stack.back();
    const long repeated = saturate(l.last * factor);
    l.sum = saturate(l.sum - l.last + repeated);
    l.last = repeated;
  };
  for (std::size_t i = 0; i < re.size(); ++i) {
    const char c = re[i];
    if (c == '\\') {
      ++i;  // the escaped character (a back-reference's digits follow as atoms: errs upwards)
      add_atom(1);
    } else if (c == '[') {
      // A bracket expression is one atom: skip to its ']' (a ']' first is
      // literal; `[:alpha:]`-style classes and escapes inside are skipped).
      std::size_t j = i + 1;
      if (j < re.size() && re[j] == '^') ++j;
      if (j < re.size() && re[j] == ']') ++j;
      while (j < re.size() && re[j] != ']') {
        if (re[j] == '\\') {
          ++j;
        } else if (re[j] == '[' && j + 1 < re.size() && (re[j + 1] == ':' || re[j + 1] == '.' || re[j + 1] == '=')) {
          const std::size_t close = re.find(std::string{re[j + 1], ']'}, j + 2);
          if (close != std::string_view::npos) j = close + 1;
        }
        ++j;
      }
      i = j;
      add_atom(1);
    } else if (c == '(') {
      stack.emplace_back();
    } else if (c == ')' && stack.size() > 1) {
      const long group = stack.back().sum + 1;
      stack.pop_back();
      add_atom(group);
    } else if (c == '*' || c == '+' || c == '?') {
      repeat_last(2);
    } else if (c == '{') {
      // `{n}`, `{n,}`, `{n,m}`: the largest number counts.
      long largest = 0;
      for (++i; i < re.size() && re[i] != '}';) {
        if (absl::ascii_isdigit(static_cast<unsigned char>(re[i]))) {
          largest = std::max(largest, saturated_number(re, i, max_regex_expansion, i));
        } else {
          ++i;
        }
      }
      repeat_last(largest + 1);
    } else if (c != '|' && c != '^' && c != '$') {
      add_atom(1);
    }
  }
  long total = 0;
  for (const level& l : stack) total = saturate(total + l.sum);
  return total;
}

/// Why `re` is refused before std::regex sees it, if it is: longer than
/// max_regex_length, groups nested deeper than max_regex_group_depth, a
/// repetition bound or back-reference above max_regex_number (every
/// unescaped '(' and '{' counts, also inside a bracket, which only errs
/// towards refusing), or repetitions that expand it beyond
/// max_regex_expansion atoms.
inline std::optional<std::string> regex_too_complex(std::string_view re) {
  if (re.size() > max_regex_length) {
    return fmt::format("a partition filter regex of {} characters is longer than the {} allowed", re.size(),
                       max_regex_length);
  }
  const auto number_at = [&](std::size_t at, std::size_t& end) {
    return saturated_number(re, at, max_regex_number, end);
  };
  const auto too_large = [](std::string_view what) {
    return fmt::format("a partition filter regex may use a {} of at most {}", what, max_regex_number);
  };
  int depth = 0;
  for (std::size_t i = 0; i < re.size(); ++i) {
    if (re[i] == '\\') {
      std::size_t end = i + 1;
      if (number_at(i + 1, end) > max_regex_number) return too_large("back-reference number");
      i = std::max(i + 1, end - 1);
    } else if (re[i] == '{') {
      // `{n}`, `{n,}`, `{n,m}`: each number.
      std::size_t end = i + 1;
      if (number_at(i + 1, end) > max_regex_number) return too_large("repetition bound");
      if (end < re.size() && re[end] == ',' && number_at(end + 1, end) > max_regex_number) {
        return too_large("repetition bound");
      }
    } else if (re[i] == '(' && ++depth > max_regex_group_depth) {
      return fmt::format("a partition filter regex may nest groups at most {} deep", max_regex_group_depth);
    } else if (re[i] == ')' && depth > 0) {
      --depth;
    }
  }
  if (regex_expansion(re) > max_regex_expansion) {
    return fmt::format(
        "a partition filter regex may stand for at most {} characters or classes once its "
        "repetitions are written out (nested repetitions multiply)",
        max_regex_expansion);
  }
  return std::nullopt;
}

// Every hoodie.clean* key lakegc understands (current and legacy).
inline const std::set<std::string>& known_clean_keys() {
  static const std::set<std::string> keys = {"hoodie.clean.policy",
                                             "hoodie.cleaner.policy",
                                             "hoodie.clean.commits.retained",
                                             "hoodie.cleaner.commits.retained",
                                             "hoodie.clean.hours.retained",
                                             "hoodie.cleaner.hours.retained",
                                             "hoodie.clean.fileversions.retained",
                                             "hoodie.cleaner.fileversions.retained",
                                             "hoodie.clean.incremental.enabled",
                                             "hoodie.cleaner.incremental.mode",
                                             "hoodie.clean.trigger.strategy",
                                             "hoodie.clean.trigger.max.commits",
                                             "hoodie.clean.max.commits",
                                             "hoodie.clean.max.commits.to.clean",
                                             "hoodie.clean.partition.filter.regex",
                                             "hoodie.clean.partition.filter.selected",
                                             "hoodie.clean.automatic",
                                             "hoodie.clean.async",
                                             "hoodie.clean.async.enabled",
                                             "hoodie.clean.multiple.enabled",
                                             "hoodie.clean.allow.multiple",
                                             "hoodie.clean.failed.writes.policy",
                                             "hoodie.cleaner.policy.failed.writes",
                                             "hoodie.clean.parallelism",
                                             "hoodie.cleaner.parallelism",
                                             "hoodie.clean.delete.bootstrap.base.file",
                                             "hoodie.cleaner.delete.bootstrap.base.file",
                                             "hoodie.clean.optimize.using.local.engine.context"};
  return keys;
}

}  // namespace detail

/// Reads a cleaning policy from Hudi properties.
[[nodiscard]] inline StatusOr<runtime_cleaning_policy> from_properties(const Properties& props) {
  detail::KeyLookup keys{props, {}};
  for (const auto& [k, v] : props) {
    const bool clean_key = k.starts_with("hoodie.clean.") || k.starts_with("hoodie.cleaner.");
    if (clean_key && !detail::known_clean_keys().contains(k)) {
      return absl::InvalidArgumentError(fmt::format("{}: unknown cleaning key (see hoodie.clean.* in the README)", k));
    }
  }
  const auto commits = keys.get("hoodie.clean.commits.retained", "hoodie.cleaner.commits.retained");
  const auto hours = keys.get("hoodie.clean.hours.retained", "hoodie.cleaner.hours.retained");
  const auto versions = keys.get("hoodie.clean.fileversions.retained", "hoodie.cleaner.fileversions.retained");

  std::string policy_name;
  if (auto p = keys.get("hoodie.clean.policy", "hoodie.cleaner.policy")) {
    policy_name = p->second;
    if (policy_name != "KEEP_LATEST_COMMITS" && policy_name != "KEEP_LATEST_FILE_VERSIONS" &&
        policy_name != "KEEP_LATEST_BY_HOURS") {
      return absl::InvalidArgumentError(
          fmt::format("{}={}: expected KEEP_LATEST_COMMITS, KEEP_LATEST_FILE_VERSIONS or KEEP_LATEST_BY_HOURS",
                      p->first, p->second));
    }
  } else {
    const int set = (commits ? 1 : 0) + (hours ? 1 : 0) + (versions ? 1 : 0);
    if (set > 1) {
      return absl::InvalidArgumentError(
          "hoodie.clean.policy: not set, and more than one of hoodie.clean.commits.retained, "
          "hoodie.clean.hours.retained and hoodie.clean.fileversions.retained is set; set the policy explicitly");
    }
    policy_name = hours ? "KEEP_LATEST_BY_HOURS" : versions ? "KEEP_LATEST_FILE_VERSIONS" : "KEEP_LATEST_COMMITS";
  }

  runtime_cleaning_policy::Rule rule = keep_latest_commits{10};
  if (policy_name == "KEEP_LATEST_COMMITS") {
    keep_latest_commits r{10};
    if (commits) {
      LAKEGC_ASSIGN_OR_RETURN(auto n, detail::parse_int(*commits, 1, "a whole number >= 1"));
      r.commits = static_cast<std::uint32_t>(n);
    }
    rule = r;
  } else if (policy_name == "KEEP_LATEST_BY_HOURS") {
    keep_by_hours r{24};
    if (hours) {
      LAKEGC_ASSIGN_OR_RETURN(auto n, detail::parse_int(*hours, 1, "a whole number of hours >= 1"));
      r.hours = static_cast<std::uint32_t>(n);
    }
    rule = r;
  } else {
    keep_latest_file_versions r{3};
    if (versions) {
      LAKEGC_ASSIGN_OR_RETURN(auto n, detail::parse_int(*versions, 1, "a whole number >= 1"));
      r.versions = static_cast<std::uint32_t>(n);
    }
    rule = r;
  }

  ScopeSettings scope;
  scope.incremental = true;
  const auto inc = keys.get("hoodie.clean.incremental.enabled", "hoodie.cleaner.incremental.mode");
  if (inc) {
    LAKEGC_ASSIGN_OR_RETURN(scope.incremental, detail::parse_bool(*inc));
  }
  if (auto s = keys.get("hoodie.clean.trigger.strategy"); s && s->second != "NUM_COMMITS") {
    return absl::InvalidArgumentError(fmt::format("{}={}: expected NUM_COMMITS", s->first, s->second));
  }
  if (auto t = keys.get("hoodie.clean.trigger.max.commits", "hoodie.clean.max.commits")) {
    LAKEGC_ASSIGN_OR_RETURN(auto n, detail::parse_int(*t, 1, "a whole number >= 1"));
    scope.trigger_max_commits = static_cast<std::uint32_t>(n);
  }
  if (auto m = keys.get("hoodie.clean.max.commits.to.clean")) {
    LAKEGC_ASSIGN_OR_RETURN(auto n,
                            detail::parse_int(*m, 1, "a whole number >= 1", std::numeric_limits<std::int64_t>::max()));
    scope.max_commits_to_clean = static_cast<std::uint64_t>(n);
  }
  if (auto m = keys.get("hoodie.clean.multiple.enabled", "hoodie.clean.allow.multiple")) {
    LAKEGC_ASSIGN_OR_RETURN(scope.allow_multiple_cleans, detail::parse_bool(*m));
  }
  if (auto e = keys.get("hoodie.write.empty.clean.interval.hours")) {
    LAKEGC_ASSIGN_OR_RETURN(auto n, detail::parse_int(*e, -1, "-1 (off) or a whole number of hours >= 1"));
    if (n == 0) {
      return absl::InvalidArgumentError(
          fmt::format("{}={}: expected -1 (off) or a whole number of hours >= 1", e->first, e->second));
    }
    if (n > 0) scope.empty_clean_interval_hours = static_cast<std::uint32_t>(n);
  }
  const auto selected = keys.get("hoodie.clean.partition.filter.selected");
  const auto regex = keys.get("hoodie.clean.partition.filter.regex");
  if ((selected || regex) && scope.incremental) {
    return absl::InvalidArgumentError(
        fmt::format("{}: a partition filter restricts a full scan; set hoodie.clean.incremental.enabled=false",
                    selected ? selected->first : regex->first));
  }
  if (selected) {
    std::string_view s = selected->second;
    while (!s.empty()) {
      const auto comma = s.find(',');
      const auto item = s.substr(0, comma);
      if (!item.empty()) scope.selected_partitions.emplace_back(item);
      if (comma == std::string_view::npos) break;
      s.remove_prefix(comma + 1);
    }
  }
  if (regex) {
    // libstdc++'s regex compiler recurses once per nested group: a value
    // like "((((...))))" 30000 deep overflows the stack (found by the
    // java_properties fuzz target) where it should be an error. Partition
    // filters are short; refuse long or deeply nested ones before compiling.
    if (const auto why = detail::regex_too_complex(regex->second)) {
      return absl::InvalidArgumentError(fmt::format("{}: {}", regex->first, *why));
    }
    try {
      (void)std::regex(regex->second);
    } catch (const std::regex_error& err) {
      return absl::InvalidArgumentError(
          fmt::format("{}={}: invalid regex: {}", regex->first, regex->second, err.what()));
    }
    scope.partition_regex = regex->second;
  }
  // Either spelling, set explicitly, asks for it.
  if (scope.incremental && std::holds_alternative<keep_latest_file_versions>(rule) && inc) {
    return absl::InvalidArgumentError(fmt::format(
        "{}={}: KEEP_LATEST_FILE_VERSIONS has no boundary to clean incrementally from; set it to false (Hudi "
        "silently falls back to a full scan)",
        inc->first, inc->second));
  }
  if (std::holds_alternative<keep_latest_file_versions>(rule)) scope.incremental = false;

  runtime_cleaning_policy out(rule, std::move(scope));
  if (auto it = props.find("lakegc.clean.reader.leases"); it != props.end()) {
    LAKEGC_ASSIGN_OR_RETURN(bool on, detail::parse_bool({"lakegc.clean.reader.leases", it->second}));
    out.set_reader_leases(on);
  }
  return out;
}

/// Parses a Java properties file (as Spark and Hudi write them): `key=value`
/// or `key: value` lines, `#` / `!` comments, `\` escapes (`\uXXXX` included) and line
/// continuations. `source` names the file in errors.
[[nodiscard]] inline StatusOr<Properties> parse_properties(std::string_view text, std::string_view source) {
  Properties out;
  std::size_t line_no = 0;
  std::string logical;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const auto nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::size_t i = 0;
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\f')) ++i;
    line.remove_prefix(i);
    if (logical.empty() && (line.empty() || line.front() == '#' || line.front() == '!')) continue;
    // An odd number of trailing backslashes continues the line.
    std::size_t slashes = 0;
    while (slashes < line.size() && line[line.size() - 1 - slashes] == '\\') ++slashes;
    if (slashes % 2 == 1) {
      logical.append(line.substr(0, line.size() - 1));
      continue;
    }
    logical.append(line);
    std::string key;
    std::string value;
    bool in_value = false;
    bool skipping_sep = false;
    // As Java's Properties.load: whitespace around ONE '=' or ':' separates
    // key and value; a second '=' or ':' starts the value ("k==v" is "=v").
    bool had_sep = false;
    for (std::size_t k = 0; k < logical.size(); ++k) {
      char ch = logical[k];
      if (ch == '\\' && k + 1 < logical.size()) {
        const char e = logical[++k];
        skipping_sep = false;
        if (e == 'u') {
          // \uXXXX, as Java's Properties.store writes every non-ASCII
          // character: a UTF-16 unit (a surrogate pair makes one code
          // point), stored here as UTF-8.
          auto hex4 = [&](std::size_t at) -> std::optional<std::uint32_t> {
            if (at + 4 > logical.size()) return std::nullopt;
            std::uint32_t u = 0;
            for (std::size_t h = at; h < at + 4; ++h) {
              const char c = logical[h];
              const int d = c >= '0' && c <= '9'   ? c - '0'
                            : c >= 'a' && c <= 'f' ? c - 'a' + 10
                            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                   : -1;
              if (d < 0) return std::nullopt;
              u = u * 16 + static_cast<std::uint32_t>(d);
            }
            return u;
          };
          auto cp = hex4(k + 1);
          if (!cp) {
            return absl::InvalidArgumentError(fmt::format("{}:{}: malformed \\uXXXX escape", source, line_no));
          }
          k += 4;
          if (*cp >= 0xD800 && *cp <= 0xDBFF && k + 2 < logical.size() && logical[k + 1] == '\\' &&
              logical[k + 2] == 'u') {
            if (auto low = hex4(k + 3); low && *low >= 0xDC00 && *low <= 0xDFFF) {
              cp = 0x10000 + ((*cp - 0xD800) << 10) + (*low - 0xDC00);
              k += 6;
            }
          }
          std::string& dst = in_value ? value : key;
          if (*cp < 0x80) {
            dst += static_cast<char>(*cp);
          } else if (*cp < 0x800) {
            dst += static_cast<char>(0xC0 | (*cp >> 6));
            dst += static_cast<char>(0x80 | (*cp & 0x3F));
          } else if (*cp < 0x10000) {
            dst += static_cast<char>(0xE0 | (*cp >> 12));
            dst += static_cast<char>(0x80 | ((*cp >> 6) & 0x3F));
            dst += static_cast<char>(0x80 | (*cp & 0x3F));
          } else {
            dst += static_cast<char>(0xF0 | (*cp >> 18));
            dst += static_cast<char>(0x80 | ((*cp >> 12) & 0x3F));
            dst += static_cast<char>(0x80 | ((*cp >> 6) & 0x3F));
            dst += static_cast<char>(0x80 | (*cp & 0x3F));
          }
          continue;
        }
        ch = e == 't' ? '\t' : e == 'n' ? '\n' : e == 'r' ? '\r' : e == 'f' ? '\f' : e;
        (in_value ? value : key) += ch;
        continue;
      }
      if (!in_value && (ch == '=' || ch == ':' || ch == ' ' || ch == '\t' || ch == '\f')) {
        in_value = true;
        skipping_sep = true;
        had_sep = ch == '=' || ch == ':';
        continue;
      }
      if (skipping_sep && (ch == ' ' || ch == '\t' || ch == '\f')) continue;
      if (skipping_sep && !had_sep && (ch == '=' || ch == ':')) {
        had_sep = true;
        continue;
      }
      skipping_sep = false;
      (in_value ? value : key) += ch;
    }
    logical.clear();
    if (key.empty()) {
      return absl::InvalidArgumentError(fmt::format("{}:{}: expected key=value", source, line_no));
    }
    out[key] = value;
  }
  return out;
}

/// `s` escaped as java.util.Properties.store writes a key (`key`) or a
/// value, so that parse_properties (and Java's Properties.load, which reads
/// ISO 8859-1) reads it back: `\`, `=`, `:`, `#`, `!`, tab, newline,
/// return and form feed escaped, a space escaped in a key and at the start
/// of a value, other control characters and every non-ASCII character as
/// \uXXXX (UTF-16 units, a surrogate pair above U+FFFF). Bytes that are not
/// well-formed UTF-8 are kept as they are (parse_properties keeps them too).
[[nodiscard]] inline std::string properties_escape(std::string_view s, bool key) {
  std::string out;
  const auto unit = [&](std::uint32_t u) { out += fmt::format("\\u{:04X}", u); };
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      // A well-formed UTF-8 sequence (no overlong form, no surrogate).
      const std::size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 0;
      std::uint32_t cp = n == 4 ? c & 0x07u : n == 3 ? c & 0x0Fu : c & 0x1Fu;
      bool ok = n != 0 && i + n <= s.size() && c <= 0xF4;
      for (std::size_t k = 1; ok && k < n; ++k) {
        const auto b = static_cast<unsigned char>(s[i + k]);
        ok = (b & 0xC0) == 0x80;
        cp = (cp << 6) | (b & 0x3Fu);
      }
      const std::uint32_t least = n == 4 ? 0x10000 : n == 3 ? 0x800 : 0x80;
      ok = ok && cp >= least && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
      if (!ok) {
        out += static_cast<char>(c);
        continue;
      }
      if (cp >= 0x10000) {
        unit(0xD800 + ((cp - 0x10000) >> 10));
        unit(0xDC00 + ((cp - 0x10000) & 0x3FF));
      } else {
        unit(cp);
      }
      i += n - 1;
      continue;
    }
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '\t': out += "\\t"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\f': out += "\\f"; break;
      case '=':
      case ':':
      case '#':
      case '!':
        out += '\\';
        out += static_cast<char>(c);
        break;
      case ' ':
        if (key || i == 0) out += '\\';
        out += ' ';
        break;
      default:
        if (c < 0x20 || c == 0x7F) {
          unit(c);
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out;
}

/// `props` as a properties file (a `#` comment line first, then one
/// `key=value` line per entry, in key order) that parse_properties reads
/// back as `props`.
[[nodiscard]] inline std::string format_properties(const Properties& props, std::string_view comment) {
  std::string out = "#";
  for (const char c : comment) out += c == '\n' || c == '\r' ? ' ' : c;
  out += '\n';
  for (const auto& [k, v] : props) {
    out += properties_escape(k, /*key=*/true);
    out += '=';
    out += properties_escape(v, /*key=*/false);
    out += '\n';
  }
  return out;
}

}  // namespace lakegc::config
