// File: tools/cli/table_command.hpp
// -----------------------------------------------------------------------------
// What every table command starts with, written once: exactly one TABLE, the
// merged --props/--conf settings (checked before the table is opened: a typo
// is cheaper to report than a listing), --now, and for a command that changes
// the table, the table lock or the refusal to go without one.
//
// Each step returns the exit code to stop with (the message already printed),
// or nothing to go on.
#pragma once

#include <charconv>
#include <chrono>
#include <cstdlib>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "args.hpp"
#include "lakegc/core/instant_time.hpp"
#include "lakegc/core/json_writer.hpp"
#include "lakegc/exec/table_lock.hpp"
#include "lakegc/hudi/lock.hpp"
#include "lakegc/policy/config.hpp"
#include "lakegc/storage/crash_storage.hpp"
#include "table.hpp"

namespace lakegc::cli::detail {

inline int usage_error(std::string_view command, std::string_view message) {
  fmt::print(stderr, "lakegc {}: {}\nsee `lakegc {} --help`\n", command, message, command);
  return exit_bad_input;
}

inline int input_error(const Status& st) {
  fmt::print(stderr, "lakegc: {}\n", message_of(st));
  return exit_bad_input;
}

inline void print_out(const std::string& s) {
  std::fwrite(s.data(), 1, s.size(), stdout);
  std::fflush(stdout);
}

/// Prints the JSON document `write(json_writer&)` writes as it is written, in
/// pieces of about a megabyte: a plan or an inspection of a million-file
/// table is hundreds of megabytes, which need not be held whole.
template <class Write>
void print_json(Write&& write) {
  json_writer w([](std::string_view piece) { std::fwrite(piece.data(), 1, piece.size(), stdout); });
  write(w);
  w.finish();
  std::fflush(stdout);
}

inline std::int64_t wall_clock_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

/// Reads a Java properties file (a user's Spark or Hudi config).
[[nodiscard]] inline StatusOr<config::Properties> read_properties_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return absl::InvalidArgumentError(fmt::format("{}: is a directory, expected a properties file", path));
  }
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return absl::NotFoundError(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  std::string text;
  char buf[8192];
  std::size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) return absl::DataLossError(fmt::format("{}: read error", path));
  return config::parse_properties(text, path);
}

// The merged configuration: --props files in order, then --conf.
[[nodiscard]] inline StatusOr<config::Properties> gather_properties(const ParsedArgs& a) {
  config::Properties props;
  for (const auto& file : a.all("--props")) {
    LAKEGC_ASSIGN_OR_RETURN(config::Properties more, read_properties_file(file));
    for (auto& [k, v] : more) props[k] = std::move(v);
  }
  for (const auto& kv : a.all("--conf")) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) {
      return absl::InvalidArgumentError(fmt::format("--conf '{}': expected KEY=VALUE", kv));
    }
    props[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return props;
}

// One TABLE and the settings, checked by `check` (a function of the properties
// returning a Status or StatusOr: the command's own key parser). A malformed
// --conf is bad usage; an unreadable --props file or a bad key, bad input.
template <typename Check>
[[nodiscard]] std::optional<int> read_settings(std::string_view command, const ParsedArgs& a, Check check,
                                               config::Properties& out) {
  if (a.positional.size() != 1) return usage_error(command, "expected exactly one TABLE");
  auto props = gather_properties(a);
  if (!props.ok()) {
    const bool usage = message_of(props.status()).starts_with("--conf");
    return usage ? usage_error(command, message_of(props.status())) : input_error(props.status());
  }
  if (auto checked = check(*props); !checked.ok()) {
    if constexpr (requires { checked.status(); }) {
      return input_error(checked.status());
    } else {
      return input_error(checked);
    }
  }
  out = std::move(*props);
  return std::nullopt;
}

// --now INSTANT, parsed (its timezone is the table's: see now_in).
[[nodiscard]] inline std::optional<int> read_now(std::string_view command, const ParsedArgs& a,
                                                 std::optional<InstantTime>& out) {
  if (const std::string* t = a.last("--now")) {
    auto instant = InstantTime::parse(*t);
    if (!instant.ok()) return usage_error(command, fmt::format("--now: {}", message_of(instant.status())));
    out = *instant;
  }
  return std::nullopt;
}

// --now as epoch milliseconds in the table's timezone; the wall clock without it.
[[nodiscard]] inline std::optional<int> now_in(std::string_view command, const std::optional<InstantTime>& now,
                                               const Table& table, std::int64_t& out_ms) {
  out_ms = wall_clock_ms();
  if (!now) return std::nullopt;
  auto ms = now->to_epoch_ms(table.metadata.timezone);
  if (!ms.ok()) return usage_error(command, fmt::format("--now: {}", message_of(ms.status())));
  out_ms = *ms;
  return std::nullopt;
}

// The lock a changing command takes, as Hudi's table services do: Hudi's
// file-system lock where the write config names it; any other provider, or
// none, is refused unless --no-concurrent-writers says no writer runs.
// `refuse` prints the refusal and returns its exit code.
template <typename S, typename Refuse>
[[nodiscard]] std::optional<int> choose_lock(S& storage, const hudi::LockSettings& settings, const ParsedArgs& a,
                                             Refuse refuse, std::optional<TableLock>& out) {
  if (settings.kind == hudi::LockProviderKind::file_system) {
    out = hudi::file_system_lock(storage, settings);
    return std::nullopt;
  }
  if (a.flag("--no-concurrent-writers")) return std::nullopt;
  if (settings.provider_class == hudi::kStorageBasedLockProvider) {
    return refuse(fmt::format("hoodie.write.lock.provider={}: {}; pass --no-concurrent-writers if no writer is running",
                              settings.provider_class, hudi::storage_based_lock_refusal));
  }
  return refuse(settings.kind == hudi::LockProviderKind::other
                    ? fmt::format("hoodie.write.lock.provider={} is a lock lakegc cannot take; pass "
                                  "--no-concurrent-writers if no writer is running",
                                  settings.provider_class)
                    : std::string("no table lock is configured (hoodie.write.lock.provider); give the write "
                                  "config your writers use, or pass --no-concurrent-writers if no writer is "
                                  "running"));
}

// The table's path as Hudi writes it into plans and lock paths: absolute and
// normal, whatever the user typed (a Hudi writer finishing a pending clean
// from another working directory must find the same files).
inline std::string absolute_path_of(const Table& table) {
  return std::filesystem::absolute(table.path).lexically_normal().string();
}

// How the lock is described in a command's report.
inline std::string lock_text(const std::optional<TableLock>& lock) {
  return lock ? lock->description : std::string("none (--no-concurrent-writers)");
}

// LAKEGC_CRASH_AFTER_MUTATIONS: a test hook (crash_storage.hpp).
inline std::optional<std::uint64_t> crash_budget() {
  const char* v = std::getenv("LAKEGC_CRASH_AFTER_MUTATIONS");
  if (v == nullptr || *v == '\0') return std::nullopt;
  std::uint64_t n = 0;
  const std::string_view s(v);
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return n;
}

// What a changing command holds while it changes the table: every change
// through a crash_storage (LAKEGC_CRASH_AFTER_MUTATIONS), and the table lock
// (none with --no-concurrent-writers).
struct LockedTable {
  explicit LockedTable(posix_storage& s) : storage(s, crash_budget(), [] { std::_Exit(86); }) {}
  crash_storage<posix_storage> storage;
  std::optional<TableLock> lock;
  std::optional<TableLockHold> hold;
};

// Takes the lock the write config names (or refuses), then reloads the
// timeline under it: a plan made after this sees the table as it is.
template <typename Refuse>
[[nodiscard]] std::optional<int> lock_table(Table& table, const config::Properties& props, const ParsedArgs& a,
                                            Refuse refuse, std::unique_ptr<LockedTable>& out) {
  auto settings = hudi::lock_settings(props, absolute_path_of(table));
  if (!settings.ok()) return input_error(settings.status());
  out = std::make_unique<LockedTable>(*table.storage);
  if (auto stop = choose_lock(out->storage, *settings, a, refuse, out->lock)) return *stop;
  out->hold.emplace(out->lock ? &*out->lock : nullptr);
  if (!out->hold->status().ok()) return refuse(message_of(out->hold->status()));
  auto md = table.journal->load();
  if (!md.ok()) return input_error(md.status());
  table.metadata = std::move(*md);
  return std::nullopt;
}

// Why lakegc must not execute on this table yet, or nothing.
inline std::optional<std::string> execute_refusal(const Table& table) {
  const hudi::TableProperties& p = table.journal->properties();
  if (p.version > 9) {
    return fmt::format("table version {} is newer than lakegc knows (9); nothing was deleted", p.version);
  }
  if (p.bootstrap_base_path) {
    return fmt::format(
        "a bootstrap table (hoodie.bootstrap.base.path={}): lakegc does not clean bootstrap source "
        "files; nothing was deleted",
        *p.bootstrap_base_path);
  }
  return std::nullopt;
}

}  // namespace lakegc::cli::detail
