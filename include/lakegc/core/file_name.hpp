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

#include "lakegc/core/bytes.hpp"
#include "lakegc/core/digits.hpp"
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
// Write tokens are "<taskPartitionId>-<stageId>-<taskAttemptId>": moves `p`
// past one, or returns false.
inline bool scan_write_token(const char*& p, const char* end) noexcept {
  for (int part = 0; part < 3; ++part) {
    if (part != 0) {
      if (p == end || *p != '-') return false;
      ++p;
    }
    const char* digits_end = skip_digits(p, end);
    if (digits_end == p) return false;
    p = digits_end;
  }
  return true;
}
// Moves `p` to the first '_' at or after it: the end of a file id, which
// holds no '/' (nor '_'). False when there is no '_' or a '/' comes first.
inline bool scan_to_file_id_end(const char*& p, const char* end) noexcept {
  for (; p != end; ++p) {
    if (*p == '_') return true;
    if (*p == '/') return false;
  }
  return false;
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

// The scanners below read each name once, left to right: they run for every
// listed file, and the form with a find() per field (a memchr call each) was
// a fifth of load_view. tests/unit/core/file_name_test.cpp checks them
// against the grammar written as regular expressions.

// `<fileId>_<writeToken>_<instant>.<ext>`, or nothing.
inline std::optional<DataFileNameView> scan_base_file_name(std::string_view name) {
  const char* const begin = name.data();
  const char* const end = begin + name.size();
  if (begin == end || *begin == '.') return std::nullopt;
  const char* p = begin;
  if (!scan_to_file_id_end(p, end) || p == begin) return std::nullopt;
  DataFileNameView out;
  out.file_id = std::string_view(begin, p - begin);
  const char* const token = ++p;
  if (!scan_write_token(p, end) || p == end || *p != '_') return std::nullopt;
  out.write_token = std::string_view(token, p - token);
  const char* const instant = ++p;
  p = skip_digits(p, end);
  if (p == end || *p != '.') return std::nullopt;
  const auto t = InstantTime::from_digits(std::string_view(instant, p - instant));
  if (!t) return std::nullopt;
  out.instant = *t;
  const char* const extension = ++p;
  if (p == end) return std::nullopt;
  for (; p != end; ++p) {
    const char c = *p;
    if (!is_digit(c) && !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) return std::nullopt;
  }
  out.extension = std::string_view(extension, end - extension);
  return out;
}

// `.<fileId>_<instant>.log.<version>[_<writeToken>][.cdc|-cdc]`, or nothing.
// The log marker is the first ".log." in the name, so a file id holding one
// makes no log name.
inline std::optional<DataFileNameView> scan_log_file_name(std::string_view name) {
  constexpr std::string_view kLog = ".log.";
  const char* const begin = name.data();
  const char* const end = begin + name.size();
  if (name.size() < 2 || *begin != '.' || begin[1] == '.') return std::nullopt;
  const char* const id = begin + 1;
  const char* p = id;
  if (!scan_to_file_id_end(p, end) || p == id) return std::nullopt;
  DataFileNameView out;
  out.is_log = true;
  out.file_id = std::string_view(id, p - id);
  // Unlikely in a file id, so looked for only where it has a dot.
  if (out.file_id.find('.') != std::string_view::npos && out.file_id.find(kLog) != std::string_view::npos) {
    return std::nullopt;
  }
  const char* const instant = ++p;
  p = skip_digits(p, end);
  if (static_cast<std::size_t>(end - p) < kLog.size() || !bytes_equal(std::string_view(p, kLog.size()), kLog)) {
    return std::nullopt;
  }
  const auto t = InstantTime::from_digits(std::string_view(instant, p - instant));
  if (!t) return std::nullopt;
  out.instant = *t;
  out.extension = std::string_view(p + 1, 3);
  p += kLog.size();
  const char* const version = p;
  p = skip_digits(p, end);
  if (p == version) return std::nullopt;
  out.version = std::string_view(version, p - version);
  if (p != end && *p == '_') {
    const char* const token = ++p;
    if (!scan_write_token(p, end)) return std::nullopt;
    out.write_token = std::string_view(token, p - token);
  }
  const std::string_view rest(p, end - p);
  if (rest == ".cdc") {
    out.cdc = CdcSuffix::dot_cdc;
  } else if (rest == "-cdc") {
    out.cdc = CdcSuffix::dash_cdc;
  } else if (!rest.empty()) {
    return std::nullopt;
  }
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
