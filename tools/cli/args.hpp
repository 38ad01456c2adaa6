// File: tools/cli/args.hpp
// -----------------------------------------------------------------------------
// Command-line parsing for the tool: `--name value`, `--name=value`, boolean
// flags, repeatable options, `--` to end options, `-h` / `--help`. Anything
// unknown is a usage error naming it (exit code 2).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/status.hpp"

namespace lakegc::cli {

/// Exit codes of every command.
enum exit_code : int { exit_ok = 0, exit_refused = 1, exit_bad_input = 2 };

struct ParsedArgs {
  std::vector<std::string> positional;
  std::map<std::string, std::vector<std::string>> values;  ///< by option name, in order given
  std::set<std::string> flags;
  bool help = false;

  bool flag(const std::string& name) const { return flags.contains(name); }
  /// The last value given for `name`, if any.
  const std::string* last(const std::string& name) const {
    auto it = values.find(name);
    return it == values.end() || it->second.empty() ? nullptr : &it->second.back();
  }
  std::vector<std::string> all(const std::string& name) const {
    auto it = values.find(name);
    return it == values.end() ? std::vector<std::string>() : it->second;
  }
};

/// Parses `args` (after the command words). `flags` take no value;
/// `options` take one each time they appear.
[[nodiscard]] inline StatusOr<ParsedArgs> parse_args(std::span<const std::string> args,
                                                     const std::set<std::string>& flags,
                                                     const std::set<std::string>& options) {
  ParsedArgs out;
  bool options_done = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (options_done || a.size() < 2 || a[0] != '-') {
      out.positional.push_back(a);
      continue;
    }
    if (a == "--") {
      options_done = true;
      continue;
    }
    if (a == "-h" || a == "--help") {
      out.help = true;
      continue;
    }
    std::string name = a;
    std::optional<std::string> inline_value;
    if (const auto eq = a.find('='); eq != std::string::npos && a.starts_with("--")) {
      name = a.substr(0, eq);
      inline_value = a.substr(eq + 1);
    }
    if (flags.contains(name)) {
      if (inline_value) return absl::InvalidArgumentError(fmt::format("option '{}' takes no value", name));
      out.flags.insert(name);
    } else if (options.contains(name)) {
      if (!inline_value) {
        if (i + 1 >= args.size()) return absl::InvalidArgumentError(fmt::format("option '{}' needs a value", name));
        inline_value = args[++i];
      }
      out.values[name].push_back(*inline_value);
    } else {
      return absl::InvalidArgumentError(fmt::format("unknown option '{}'", a));
    }
  }
  return out;
}

}  // namespace lakegc::cli
