// File: lakegc/sim/faults.hpp
// -----------------------------------------------------------------------------
// The fault injector: every so often it arms one of the fault kinds the
// swarm enabled; the next actor step it applies to consumes it (see
// ArmedFaults). Faults stop for the liveness phase at the end of a run.
#pragma once

#include <vector>

#include "lakegc/sim/table.hpp"

namespace lakegc::sim {

class FaultInjector {
 public:
  explicit FaultInjector(Table& t) : t_(t) {}

  /// Arms one enabled fault kind. Returns false when none is enabled.
  bool arm() {
    const FaultKnobs& k = t_.swarm.faults;
    if (!t_.faults_enabled) return false;
    std::vector<bool*> kinds;
    if (k.writer_crash) kinds.push_back(&t_.armed.write_crash);
    if (k.duplicate_files) kinds.push_back(&t_.armed.write_duplicate);
    if (k.storage_failures) {
      kinds.push_back(&t_.armed.write_failure);
      kinds.push_back(&t_.armed.clean_failure);
      kinds.push_back(&t_.armed.read_failure);
    }
    if (k.truncated_listings) kinds.push_back(&t_.armed.clean_truncated);
    if (k.cleaner_crash) kinds.push_back(&t_.armed.clean_crash);
    if (kinds.empty()) return false;
    *kinds[t_.rng.index(kinds.size())] = true;
    ++t_.stats.faults_armed;
    return true;
  }

 private:
  Table& t_;
};

}  // namespace lakegc::sim
