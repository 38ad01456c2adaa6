// Virtual time: the clock jumps to the next event; ties run in FIFO order.
#include <doctest/doctest.h>

#include <string>

#include "lakegc/sim/scheduler.hpp"

namespace lakegc::tests::scheduler_test {

using namespace lakegc::sim;

TEST_CASE("events run in time order, ties in the order they were scheduled") {
  VirtualClock clock{1000};
  Scheduler s(clock);
  std::string order;
  s.at(1500, [&] { order += 'c'; });
  s.at(1200, [&] { order += 'a'; });
  s.at(1500, [&] { order += 'd'; });
  s.at(1200, [&] { order += 'b'; });
  while (s.run_next()) {
  }
  CHECK(order == "abcd");
  CHECK(clock.now_ms == 1500);
  CHECK(s.executed() == 4);
}

TEST_CASE("time jumps to the next event and never goes back") {
  VirtualClock clock{0};
  Scheduler s(clock);
  std::int64_t seen = -1;
  s.after(10'000'000, [&] {
    seen = clock.now_ms;
    s.at(5, [&] { seen = clock.now_ms; });  // in the past: runs now
  });
  CHECK(s.next_time() == 10'000'000);
  CHECK(s.run_next());
  CHECK(seen == 10'000'000);
  CHECK(s.run_next());
  CHECK(seen == 10'000'000);
  CHECK_FALSE(s.run_next());
  CHECK(s.next_time() == -1);
}

}  // namespace lakegc::tests::scheduler_test
