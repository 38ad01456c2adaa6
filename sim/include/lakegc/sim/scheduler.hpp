// File: lakegc/sim/scheduler.hpp
// -----------------------------------------------------------------------------
// Virtual time and the event loop.
//
// Time is a count of milliseconds since the Unix epoch that only the
// scheduler moves: it jumps to the next event, so a simulated day costs what
// its events cost. Events at the same millisecond run in the order they were
// scheduled (a FIFO sequence number breaks ties), never in an order that
// depends on addresses or the heap's internals: that is what makes a seed
// replay exactly.
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

namespace lakegc::sim {

/// The simulated wall clock, shared by everything that needs "now"
/// (memory_storage mtimes, instant allocation, the hours rule).
struct VirtualClock {
  std::int64_t now_ms = 0;
};

class Scheduler {
 public:
  using Task = std::function<void()>;

  explicit Scheduler(VirtualClock& clock) : clock_(clock) {}

  std::int64_t now() const noexcept { return clock_.now_ms; }

  /// Runs `task` at `time_ms` (clamped to now: the past is not reachable).
  void at(std::int64_t time_ms, Task task) {
    queue_.push(Event{time_ms < clock_.now_ms ? clock_.now_ms : time_ms, seq_++, std::move(task)});
  }
  void after(std::int64_t delay_ms, Task task) { at(clock_.now_ms + (delay_ms < 0 ? 0 : delay_ms), std::move(task)); }

  /// Pops the earliest event (FIFO among equal times), moves the clock to it
  /// and runs it. False when nothing is left.
  bool run_next() {
    if (queue_.empty()) return false;
    Event e = queue_.top();
    queue_.pop();
    clock_.now_ms = e.time;
    ++executed_;
    e.task();
    return true;
  }

  /// Time of the next event, or -1 when idle.
  std::int64_t next_time() const { return queue_.empty() ? -1 : queue_.top().time; }
  bool empty() const noexcept { return queue_.empty(); }
  std::uint64_t executed() const noexcept { return executed_; }
  void clear() { queue_ = {}; }

 private:
  struct Event {
    std::int64_t time;
    std::uint64_t seq;
    Task task;
  };
  struct Later {
    bool operator()(const Event& a, const Event& b) const noexcept {
      return a.time != b.time ? a.time > b.time : a.seq > b.seq;
    }
  };

  VirtualClock& clock_;
  std::priority_queue<Event, std::vector<Event>, Later> queue_;
  std::uint64_t seq_ = 0;
  std::uint64_t executed_ = 0;
};

}  // namespace lakegc::sim
