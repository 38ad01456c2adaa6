// File: lakegc/sim/violation.hpp
// -----------------------------------------------------------------------------
// The invariants (sim/README.md, "Invariants") and what a broken one
// reports: which invariant, when, which actor, which file and instant.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "lakegc/core/instant_time.hpp"

namespace lakegc::sim {

enum class Invariant : std::uint8_t {
  I1_reader_isolation,
  I2_retention,
  I3_orphan_cutoff,
  I4_no_loss,
  I5_savepoints,
  I6_convergence,
  I7_accounting,
  I8_idempotence,
  I9_determinism,
  /// A library call failed where no fault was injected: not an invariant of
  /// the table, but never acceptable either.
  unexpected_error,
};

constexpr std::string_view to_string(Invariant i) noexcept {
  switch (i) {
    case Invariant::I1_reader_isolation: return "I1 reader isolation";
    case Invariant::I2_retention: return "I2 retention";
    case Invariant::I3_orphan_cutoff: return "I3 orphan cutoff";
    case Invariant::I4_no_loss: return "I4 no loss";
    case Invariant::I5_savepoints: return "I5 savepoints";
    case Invariant::I6_convergence: return "I6 convergence";
    case Invariant::I7_accounting: return "I7 accounting";
    case Invariant::I8_idempotence: return "I8 idempotence";
    case Invariant::I9_determinism: return "I9 determinism";
    case Invariant::unexpected_error: return "unexpected library error";
  }
  return "?";
}

struct Violation {
  Invariant invariant = Invariant::unexpected_error;
  std::int64_t time_ms = 0;  // virtual time, relative to the start of the run
  std::string actor;
  std::string file;     // path relative to the table root, if any
  InstantTime instant;  // the snapshot or instant involved, if any
  std::string detail;

  std::string describe() const {
    return fmt::format("{} at t=+{}ms by {}: {}{}{}", to_string(invariant), time_ms, actor, detail,
                       file.empty() ? std::string() : fmt::format("; file '{}'", file),
                       instant.valid() ? fmt::format("; instant {}", instant) : std::string());
  }
};

}  // namespace lakegc::sim
