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
#include <optional>
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

/// A data file name's fields as views into the name: what the builder, the
/// listing check and the orphan sweep read for every listed file, without
/// the four std::string copies (and the error text for every name that is
/// not a data file) of the parse_* functions below, which are built on it.
struct DataFileNameView {
  bool is_log = false;
  std::string_view file_id;
  std::string_view write_token;  // logs: empty when the name has none
  InstantTime instant;
  std::string_view extension;  // base: without the dot; log: "log"
  std::string_view version;    // logs only: digits
  CdcSuffix cdc = CdcSuffix::none;

  std::uint64_t version_number() const noexcept {
    std::uint64_t v = 0;
    for (char c : version) v = v * 10 + static_cast<std::uint64_t>(c - '0');
    return v;
  }
};

namespace detail {

// `<fileId>_<writeToken>_<instant>.<ext>`, or nothing.
inline std::optional<DataFileNameView> scan_base_file_name(std::string_view name) {
  if (name.empty() || name.front() == '.') return std::nullopt;
  const auto u1 = name.find('_');
  if (u1 == std::string_view::npos) return std::nullopt;
  const auto u2 = name.find('_', u1 + 1);
  if (u2 == std::string_view::npos) return std::nullopt;
  const auto dot = name.find('.', u2 + 1);
  if (dot == std::string_view::npos) return std::nullopt;
  DataFileNameView out;
  out.file_id = name.substr(0, u1);
  out.write_token = name.substr(u1 + 1, u2 - u1 - 1);
  const auto instant = name.substr(u2 + 1, dot - u2 - 1);
  out.extension = name.substr(dot + 1);
  if (!is_file_id(out.file_id) || !is_write_token(out.write_token) || !all_digits(instant) ||
      !is_alnum(out.extension)) {
    return std::nullopt;
  }
  auto t = InstantTime::parse(instant);
  if (!t.ok()) return std::nullopt;
  out.instant = *t;
  return out;
}

// `.<fileId>_<instant>.log.<version>[_<writeToken>][.cdc|-cdc]`, or nothing.
inline std::optional<DataFileNameView> scan_log_file_name(std::string_view name) {
  if (name.size() < 2 || name.front() != '.') return std::nullopt;
  const std::string_view body = name.substr(1);
  const auto log = body.find(".log.");
  if (log == std::string_view::npos) return std::nullopt;
  const std::string_view left = body.substr(0, log);
  std::string_view right = body.substr(log + 5);
  const auto u = left.rfind('_');
  if (u == std::string_view::npos) return std::nullopt;
  DataFileNameView out;
  out.is_log = true;
  out.extension = body.substr(log + 1, 3);
  out.file_id = left.substr(0, u);
  const auto instant = left.substr(u + 1);
  if (right.size() > 4 && right.substr(right.size() - 4) == ".cdc") {
    out.cdc = CdcSuffix::dot_cdc;
    right.remove_suffix(4);
  } else if (right.size() > 4 && right.substr(right.size() - 4) == "-cdc") {
    out.cdc = CdcSuffix::dash_cdc;
    right.remove_suffix(4);
  }
  const auto u2 = right.find('_');
  out.version = right.substr(0, u2);
  out.write_token = u2 == std::string_view::npos ? std::string_view() : right.substr(u2 + 1);
  if (!is_file_id(out.file_id) || !all_digits(instant) || !all_digits(out.version) ||
      (u2 != std::string_view::npos && !is_write_token(out.write_token))) {
    return std::nullopt;
  }
  auto t = InstantTime::parse(instant);
  if (!t.ok()) return std::nullopt;
  out.instant = *t;
  return out;
}

}  // namespace detail

/// A base or log file name's fields (a leading dot means log), or nothing
/// when the name is not a data file.
inline std::optional<DataFileNameView> scan_data_file_name(std::string_view name) {
  if (!name.empty() && name.front() == '.') return detail::scan_log_file_name(name);
  return detail::scan_base_file_name(name);
}

/// Parses `<fileId>_<writeToken>_<instant>.<ext>`.
[[nodiscard]] inline StatusOr<BaseFileName> parse_base_file_name(std::string_view name) {
  constexpr std::string_view what = "base file name (<fileId>_<writeToken>_<instant>.<ext>)";
  const auto v = detail::scan_base_file_name(name);
  if (!v) return detail::bad_name(name, what);
  return BaseFileName{std::string(v->file_id), std::string(v->write_token), v->instant, std::string(v->extension)};
}

/// Parses `.<fileId>_<instant>.log.<version>[_<writeToken>][.cdc|-cdc]`.
[[nodiscard]] inline StatusOr<LogFileName> parse_log_file_name(std::string_view name) {
  constexpr std::string_view what = "log file name (.<fileId>_<instant>.log.<version>_<writeToken>)";
  const auto v = detail::scan_log_file_name(name);
  if (!v) return detail::bad_name(name, what);
  LogFileName out;
  out.file_id = std::string(v->file_id);
  out.instant = v->instant;
  out.version = std::string(v->version);
  out.write_token = std::string(v->write_token);
  out.cdc = v->cdc;
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
