// File: fuzz/target.hpp
// -----------------------------------------------------------------------------
// How a parser fuzz target is written, once, for both builds:
//
//   LAKEGC_FUZZ_TARGET(name) { ...feed `data` to a lakegc entry point...; return status; }
//
// with a seed picker `name_seed` defined before it (see seed picking below).
//
// - fuzzing_engine=libfuzzer: each target file is its own executable, and
//   the macro defines LLVMFuzzerTestOneInput (LAKEGC_FUZZ_LIBFUZZER is set).
// - otherwise all target files link into ONE replay binary (fuzz_replay.cpp)
//   and the macro registers the target under its name, so the g++ build
//   compiles the library headers once per target and links once.
//
// A target returns the status of the entry point it fed: a non-ok status is
// the expected outcome for bad bytes and is not a failure. A failure is a
// crash, a sanitizer report, or a broken property (check() aborts), which
// libFuzzer reports as a crash and the replay test as a failed run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/status.hpp"

namespace lakegc::fuzz {

using entry_fn = Status (*)(std::string_view data);

/// Seed picking: given a file of an unzipped corpus table (`relative` to the
/// table root, `contents` its bytes), the seed input this target takes from
/// it, or nothing. Name grammars take the file name, not its bytes.
using seed_fn = std::optional<std::string> (*)(const std::filesystem::path& relative, std::string_view contents);

struct target {
  const char* name;
  entry_fn run;
  seed_fn seed;
};

inline std::vector<target>& registry() {
  static std::vector<target> targets;
  return targets;
}

inline bool register_target(target t) {
  registry().push_back(t);
  return true;
}

/// A broken property: prints it and aborts, so that libFuzzer saves the
/// input and the replay test fails.
template <class... Args>
[[noreturn]] void fail(fmt::format_string<Args...> f, Args&&... args) {
  std::fputs(fmt::format("fuzz property broken: {}\n", fmt::format(f, std::forward<Args>(args)...)).c_str(), stderr);
  std::abort();
}

/// A rejected input must say why: an empty error message is a bug too.
inline Status checked(Status st) {
  if (!st.ok() && st.message().empty()) fail("error status {} without a message", static_cast<int>(st.code()));
  return st;
}

// Seed pickers shared by targets.

/// The file's bytes as the seed when `take`, else no seed.
inline std::optional<std::string> bytes_if(bool take, std::string_view contents) {
  if (!take) return std::nullopt;
  return std::string(contents);
}

/// The instant files of a timeline (`.hoodie/` or `.hoodie/timeline/`,
/// including the metadata table's): names that start with a digit.
inline bool is_timeline_file(const std::filesystem::path& relative) {
  const std::string parent = relative.parent_path().filename().string();
  const std::string name = relative.filename().string();
  return (parent == ".hoodie" || parent == "timeline") && !name.empty() && name[0] >= '0' && name[0] <= '9';
}

}  // namespace lakegc::fuzz

#ifdef LAKEGC_FUZZ_LIBFUZZER
#define LAKEGC_FUZZ_REGISTER(NAME)                                                                            \
  extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {                         \
    (void)::lakegc::fuzz::checked(NAME##_input(std::string_view(reinterpret_cast<const char*>(data), size))); \
    (void)&NAME##_seed;                                                                                       \
    return 0;                                                                                                 \
  }
#else
#define LAKEGC_FUZZ_REGISTER(NAME)                       \
  [[maybe_unused]] static const bool NAME##_registered = \
      ::lakegc::fuzz::register_target({#NAME, &NAME##_input, &NAME##_seed});
#endif

#define LAKEGC_FUZZ_TARGET(NAME)                               \
  static ::lakegc::Status NAME##_input(std::string_view data); \
  LAKEGC_FUZZ_REGISTER(NAME)                                   \
  static ::lakegc::Status NAME##_input(std::string_view data)
