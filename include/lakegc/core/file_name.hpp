// File: lakegc/core/file_name.hpp
// -----------------------------------------------------------------------------
// The grammar of Hudi data-file names (docs/hudi-rules.md §1):
//
//   base : <fileId>_<writeToken>_<instant>.<ext>          ext: parquet, orc, hfile, lance, ...
//   log  : .<fileId>_<instant>.log.<version>[_<writeToken>][.cdc | -cdc]
//
// fileId never contains '_' (Hudi's getFileId splits on it). The instant of a
// base file is the requested time of the write that made it; the instant of
// a log file is the slice's base instant (table version 6) or the requested
// time of the deltacommit that wrote it (version 8 and later).
//
// format() is the exact inverse of parse(): every field keeps its text.
// Anything else (.hoodie_partition_metadata, _SUCCESS, .crc files, bootstrap
// source files) is a clear error, which listing code treats as "not a data
// file" and skips.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include <fmt/format.h>

#include "lakegc/core/instant_time.hpp"
#include "lakegc/core/status.hpp"

namespace lakegc {

struct BaseFileName {
  std::string file_id;
  std::string write_token;
  InstantTime instant;
  std::string extension;  // without the dot

  friend bool operator==(const BaseFileName&, const BaseFileName&) = default;
};

enum class CdcSuffix : std::uint8_t { none, dot_cdc, dash_cdc };

struct LogFileName {
  std::string file_id;
  InstantTime instant;
  std::string extension = "log";
  std::string version;      // digits, kept as text so formatting is exact
  std::string write_token;  // empty when the name has none (very old logs)
  CdcSuffix cdc = CdcSuffix::none;

  std::uint64_t version_number() const noexcept {
    std::uint64_t v = 0;
    for (char c : version) v = v * 10 + static_cast<std::uint64_t>(c - '0');
    return v;
  }
  friend bool operator==(const LogFileName&, const LogFileName&) = default;
};

namespace detail {
inline bool all_digits(std::string_view s) noexcept {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}
inline bool is_alnum(std::string_view s) noexcept {
  if (s.empty()) return false;
  for (char c : s) {
    const bool ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (!ok) return false;
  }
  return true;
}
// Write tokens are "<taskPartitionId>-<stageId>-<taskAttemptId>".
inline bool is_write_token(std::string_view s) noexcept {
  const auto a = s.find('-');
  if (a == std::string_view::npos) return false;
  const auto b = s.find('-', a + 1);
  if (b == std::string_view::npos) return false;
  return all_digits(s.substr(0, a)) && all_digits(s.substr(a + 1, b - a - 1)) && all_digits(s.substr(b + 1));
}
inline bool is_file_id(std::string_view s) noexcept {
  return !s.empty() && s.find('_') == std::string_view::npos && s.find('/') == std::string_view::npos &&
         s.front() != '.';
}
[[nodiscard]] inline Status bad_name(std::string_view name, std::string_view why) {
  return absl::InvalidArgumentError(fmt::format("'{}' is not a Hudi {}", name, why));
}
}  // namespace detail

/// Parses `<fileId>_<writeToken>_<instant>.<ext>`.
[[nodiscard]] inline StatusOr<BaseFileName> parse_base_file_name(std::string_view name) {
  constexpr std::string_view what = "base file name (<fileId>_<writeToken>_<instant>.<ext>)";
  if (name.empty() || name.front() == '.') return detail::bad_name(name, what);
  const auto u1 = name.find('_');
  if (u1 == std::string_view::npos) return detail::bad_name(name, what);
  const auto u2 = name.find('_', u1 + 1);
  if (u2 == std::string_view::npos) return detail::bad_name(name, what);
  const auto dot = name.find('.', u2 + 1);
  if (dot == std::string_view::npos) return detail::bad_name(name, what);
  BaseFileName out;
  const auto file_id = name.substr(0, u1);
  const auto token = name.substr(u1 + 1, u2 - u1 - 1);
  const auto instant = name.substr(u2 + 1, dot - u2 - 1);
  const auto ext = name.substr(dot + 1);
  if (!detail::is_file_id(file_id) || !detail::is_write_token(token) || !detail::all_digits(instant) ||
      !detail::is_alnum(ext)) {
    return detail::bad_name(name, what);
  }
  auto t = InstantTime::parse(instant);
  if (!t.ok()) return detail::bad_name(name, what);
  out.file_id = std::string(file_id);
  out.write_token = std::string(token);
  out.instant = *t;
  out.extension = std::string(ext);
  return out;
}

/// Parses `.<fileId>_<instant>.log.<version>[_<writeToken>][.cdc|-cdc]`.
[[nodiscard]] inline StatusOr<LogFileName> parse_log_file_name(std::string_view name) {
  constexpr std::string_view what = "log file name (.<fileId>_<instant>.log.<version>_<writeToken>)";
  if (name.size() < 2 || name.front() != '.') return detail::bad_name(name, what);
  const std::string_view body = name.substr(1);
  const auto log = body.find(".log.");
  if (log == std::string_view::npos) return detail::bad_name(name, what);
  const std::string_view left = body.substr(0, log);
  std::string_view right = body.substr(log + 5);
  const auto u = left.rfind('_');
  if (u == std::string_view::npos) return detail::bad_name(name, what);
  LogFileName out;
  const auto file_id = left.substr(0, u);
  const auto instant = left.substr(u + 1);
  if (right.size() > 4 && right.substr(right.size() - 4) == ".cdc") {
    out.cdc = CdcSuffix::dot_cdc;
    right.remove_suffix(4);
  } else if (right.size() > 4 && right.substr(right.size() - 4) == "-cdc") {
    out.cdc = CdcSuffix::dash_cdc;
    right.remove_suffix(4);
  }
  const auto u2 = right.find('_');
  const auto version = right.substr(0, u2);
  const auto token = u2 == std::string_view::npos ? std::string_view() : right.substr(u2 + 1);
  if (!detail::is_file_id(file_id) || !detail::all_digits(instant) || !detail::all_digits(version) ||
      (u2 != std::string_view::npos && !detail::is_write_token(token))) {
    return detail::bad_name(name, what);
  }
  auto t = InstantTime::parse(instant);
  if (!t.ok()) return detail::bad_name(name, what);
  out.file_id = std::string(file_id);
  out.instant = *t;
  out.version = std::string(version);
  out.write_token = std::string(token);
  return out;
}

inline std::string format_file_name(const BaseFileName& f) {
  return fmt::format("{}_{}_{}.{}", f.file_id, f.write_token, f.instant, f.extension);
}

inline std::string format_file_name(const LogFileName& f) {
  std::string s = fmt::format(".{}_{}.{}.{}", f.file_id, f.instant, f.extension, f.version);
  if (!f.write_token.empty()) {
    s += '_';
    s += f.write_token;
  }
  if (f.cdc == CdcSuffix::dot_cdc) s += ".cdc";
  if (f.cdc == CdcSuffix::dash_cdc) s += "-cdc";
  return s;
}

using DataFileName = std::variant<BaseFileName, LogFileName>;

/// Parses a base or log file name (a leading dot means log).
[[nodiscard]] inline StatusOr<DataFileName> parse_data_file_name(std::string_view name) {
  if (!name.empty() && name.front() == '.') {
    LAKEGC_ASSIGN_OR_RETURN(auto log, parse_log_file_name(name));
    return DataFileName(std::move(log));
  }
  LAKEGC_ASSIGN_OR_RETURN(auto base, parse_base_file_name(name));
  return DataFileName(std::move(base));
}

}  // namespace lakegc
