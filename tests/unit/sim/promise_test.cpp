// The promise as code: what each kind of rule promises to keep readable.
#include <doctest/doctest.h>

#include "lakegc/sim/promise.hpp"
#include "printers.hpp"

namespace lakegc::tests::promise_test {

using namespace lakegc;
using namespace lakegc::sim;

namespace {
InstantTime at(int minute) {
  return InstantTime::from_epoch_ms(1'700'000'000'000 + minute * 60'000, TimelineTimezone::utc);
}

Timeline commits(std::initializer_list<int> minutes, std::initializer_list<int> pending = {}) {
  std::vector<Instant> v;
  for (int m : minutes) v.push_back(Instant{at(m), at(m), Action::commit, State::completed});
  for (int m : pending) v.push_back(Instant{at(m), std::nullopt, Action::commit, State::inflight});
  return Timeline::make(std::move(v)).value();
}
}  // namespace

TEST_CASE("a boundary promises every snapshot from it, the newest before it, and the latest") {
  const Timeline tl = commits({10, 20, 30, 40, 50});
  Retention r;
  r.has_boundary = true;
  r.ectr = at(40);
  const Promise p = make_promise(r, tl, {}, 0);
  CHECK(p.kind == PromiseKind::boundary);
  CHECK(p.newest_before == at(30));
  CHECK(p.latest == at(50));
  CHECK_FALSE(p.covers(at(10)));
  CHECK_FALSE(p.covers(at(20)));
  CHECK(p.covers(at(30)));
  CHECK(p.covers(at(40)));
  CHECK(p.covers(at(50)));
  CHECK(p.covers(at(60)));  // a commit completing later at or after the boundary
  CHECK(promised_snapshots(p, tl) == std::vector<InstantTime>{at(30), at(40), at(50)});
}

TEST_CASE("the 8584 flag does not shrink the promise") {
  Retention r;
  r.has_boundary = true;
  r.ectr = at(40);
  r.keep_newest_before_boundary = false;
  CHECK(make_promise(r, commits({10, 30, 40}), {}, 0).covers(at(30)));
}

TEST_CASE("no boundary yet promises everything; versions only the latest; leases their snapshots") {
  const Timeline tl = commits({10, 20, 30});
  Retention none;
  none.has_boundary = true;
  CHECK(make_promise(none, tl, {}, 0).kind == PromiseKind::everything);
  CHECK(make_promise(none, tl, {}, 0).covers(at(10)));

  Retention versions;
  versions.versions = 3;
  const Promise p = make_promise(versions, tl, {at(10), at(10)}, 0);
  CHECK(p.kind == PromiseKind::latest);
  CHECK(p.leases == std::vector<InstantTime>{at(10)});
  CHECK(p.covers(at(30)));
  CHECK(p.covers(at(10)));
  CHECK_FALSE(p.covers(at(20)));
}

TEST_CASE("any_of(boundary, versions) promises the boundary; all_of only the latest") {
  const Timeline tl = commits({10, 20, 30});
  Retention r;
  r.has_boundary = true;
  r.ectr = at(20);
  r.versions = 2;
  r.keep_if_either = true;
  CHECK(make_promise(r, tl, {}, 0).kind == PromiseKind::boundary);
  r.keep_if_either = false;
  CHECK(make_promise(r, tl, {}, 0).kind == PromiseKind::latest);
}

}  // namespace lakegc::tests::promise_test
