// Helpers shared by the tool's corpus tests: corpus tables unzipped once per
// process (each into its own folder: two tables share the leaf name
// v9_txns_simple_nometa), fresh copies for tests that damage them, a JSON
// reader, and running the built `lakegc` binary.
#pragma once

#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <simdjson.h>
#include <sys/wait.h>

#include "corpus.hpp"

namespace lakegc::testing {

/// The corpus table `table` unzipped (once per process); do not modify it.
inline const std::filesystem::path& unzipped(const std::string& table) {
  static temp_dir tmp;
  static std::map<std::string, std::filesystem::path> roots;
  if (auto it = roots.find(table); it != roots.end()) return it->second;
  std::filesystem::create_directories(tmp.path() / table);
  return roots.emplace(table, unzip_table(table, tmp.path() / table)).first->second;
}

/// A private copy of `table` under `into`, for a test that damages it.
inline std::filesystem::path fresh_copy(const std::string& table, const std::filesystem::path& into) {
  std::filesystem::create_directories(into / table);
  return unzip_table(table, into / table);
}

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void spit(const std::filesystem::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << bytes;
}

/// A parsed JSON document that owns its parser.
struct json_doc {
  simdjson::dom::parser parser;
  simdjson::dom::element root;

  explicit json_doc(const std::string& text) {
    const auto err = parser.parse(text).get(root);
    REQUIRE_MESSAGE(err == simdjson::SUCCESS, simdjson::error_message(err) << "\n" << text);
  }
};

inline std::string str(simdjson::dom::element e) {
  std::string_view s;
  if (e.get_string().get(s) != simdjson::SUCCESS) return "<not a string>";
  return std::string(s);
}
inline bool is_null(simdjson::dom::element e) { return e.is_null(); }

struct tool_result {
  int code = -1;
  std::string out;
  std::string err;
};

/// The built `lakegc` binary (meson sets LAKEGC_TOOL for these tests).
inline std::string tool_path() {
  const char* p = std::getenv("LAKEGC_TOOL");
  REQUIRE_MESSAGE((p != nullptr && *p != '\0'), "LAKEGC_TOOL is not set: run the test through meson");
  return p;
}

inline std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

/// Runs `env... lakegc args...` (env entries `NAME=value`) and captures its
/// exit code, stdout and stderr.
inline tool_result run_tool_env(const std::vector<std::string>& env, const std::vector<std::string>& args) {
  static temp_dir io;
  static int n = 0;
  const auto out = io.path() / ("out" + std::to_string(++n));
  const auto err = io.path() / ("err" + std::to_string(n));
  std::string cmd;
  for (const auto& e : env) cmd += shell_quote(e) + " ";
  if (!env.empty()) cmd = "env " + cmd;
  cmd += shell_quote(tool_path());
  for (const auto& a : args) cmd += " " + shell_quote(a);
  cmd += " >" + shell_quote(out.string()) + " 2>" + shell_quote(err.string()) + " </dev/null";
  const int status = std::system(cmd.c_str());
  tool_result r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

/// Runs `lakegc args...` and captures its exit code, stdout and stderr.
inline tool_result run_tool(const std::vector<std::string>& args) { return run_tool_env({}, args); }

/// `lakegc inspect --json`'s partitions of the table at `root`, minified: a
/// view to compare before and after a command that must not change it.
inline std::string inspect_partitions(const std::filesystem::path& root) {
  const tool_result v = run_tool({"inspect", root.string(), "--json"});
  REQUIRE_MESSAGE(v.code == 0, v.err);
  json_doc d(v.out);
  return simdjson::minify(d.root["partitions"]);
}

/// Every file below `root`, relative to it.
inline std::set<std::string> files_under(const std::filesystem::path& root) {
  std::set<std::string> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
    if (e.is_regular_file()) out.insert(std::filesystem::relative(e.path(), root).generic_string());
  }
  return out;
}

// The same, with the completion time of layout-2 completed instants blanked
// (it is the wall clock at completion, so two runs differ there).
inline std::set<std::string> files_without_completion_times(const std::filesystem::path& root) {
  std::set<std::string> out;
  for (std::string f : files_under(root)) {
    const auto name = f.rfind('/') + 1;
    if (f.size() > name + 35 && f.compare(name + 17, 1, "_") == 0) f.replace(name + 18, 17, "<completion>");
    out.insert(std::move(f));
  }
  return out;
}

/// The crash test of a command that changes a table: for n = 1, 2, ... a
/// table from `make(n)` gets `command(root, {})` with the process ended
/// after its n-th change (LAKEGC_CRASH_AFTER_MUTATIONS=n), then, as the
/// next run, `command(root, {"--conf", "hoodie.write.lock.filesystem.expire=5"})`
/// once a file-system lock the crash left is expired (Hudi's lock has no
/// owner check: the next run takes it then), then `check(root)`. Stops at
/// the first n the command completes within (or `limit`); returns how many
/// runs crashed.
inline std::size_t crash_after_each_change(
    const std::function<std::filesystem::path(std::uint64_t n)>& make,
    const std::function<std::vector<std::string>(const std::filesystem::path&, std::vector<std::string>)>& command,
    const std::function<void(const std::filesystem::path&)>& check, std::uint64_t limit = 100) {
  std::size_t crashes = 0;
  for (std::uint64_t n = 1; n < limit; ++n) {
    CAPTURE(n);
    const std::filesystem::path root = make(n);
    const tool_result crashed = run_tool_env({"LAKEGC_CRASH_AFTER_MUTATIONS=" + std::to_string(n)}, command(root, {}));
    if (crashed.code == 0) break;  // n exceeds the run's changes
    REQUIRE_MESSAGE(crashed.code == 86, crashed.err);
    ++crashes;
    if (std::filesystem::exists(root / ".hoodie" / "lock")) {
      std::filesystem::last_write_time(root / ".hoodie" / "lock",
                                       std::filesystem::file_time_type::clock::now() - std::chrono::minutes(10));
    }
    const tool_result resumed = run_tool(command(root, {"--conf", "hoodie.write.lock.filesystem.expire=5"}));
    REQUIRE_MESSAGE(resumed.code == 0, resumed.err);
    check(root);
  }
  return crashes;
}

}  // namespace lakegc::testing
