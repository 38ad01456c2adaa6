// File: lakegc/sim/prng.hpp
// -----------------------------------------------------------------------------
// The simulator's only source of choices: one 64-bit seed expanded by
// splitmix64 into xoshiro256** state (Blackman and Vigna), behind an
// integer-only API.
//
// Why not <random>: std::*_distribution output differs between standard
// libraries, so a printed seed would not replay elsewhere (FoundationDB uses
// its own generator for the same reason). Why no floating point: a ratio
// num/den decides exactly the same on every machine (TigerBeetle's Ratio).
//
// The libFuzzer target seeds one from a hash of its input's header, and
// chooses the schedule itself from the remaining bytes.
//
// Depends on nothing but the standard library, so the benchmarks' table
// generator (bench/generator.hpp) shares splitmix64 from here.
#pragma once

#include <cstddef>
#include <cstdint>

namespace lakegc::sim {

/// splitmix64's increment: 2^64 divided by the golden ratio, made odd.
inline constexpr std::uint64_t kGoldenGamma = 0x9e3779b97f4a7c15ULL;

/// splitmix64: the seed expander recommended for xoshiro. Advances `state`
/// and returns its next output. The project's only definition (the
/// benchmarks' table generator uses it too).
constexpr std::uint64_t splitmix64(std::uint64_t& state) noexcept {
  std::uint64_t z = (state += kGoldenGamma);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// The output splitmix64 gives from state `z`, as a pure function: a
/// 64-bit hash whose every output bit depends on every input bit.
constexpr std::uint64_t mix64(std::uint64_t z) noexcept { return splitmix64(z); }

class Rng {
 public:
  /// xoshiro256** seeded from `seed` through splitmix64.
  explicit Rng(std::uint64_t seed = 0) { reseed(seed); }

  void reseed(std::uint64_t seed) {
    std::uint64_t sm = seed;
    for (auto& w : s_) w = splitmix64(sm);
  }

  /// 64 random bits.
  std::uint64_t next() noexcept {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  /// Uniform in [lo, hi] (inclusive). Rejects the biased tail, so every
  /// value is exactly equally likely.
  std::uint64_t uniform(std::uint64_t lo, std::uint64_t hi) noexcept {
    if (hi <= lo) return lo;
    const std::uint64_t span = hi - lo;  // range size minus one
    if (span == ~0ULL) return next();
    const std::uint64_t range = span + 1;
    const std::uint64_t limit = ~0ULL - (~0ULL % range);  // multiple of range
    std::uint64_t v = next();
    while (v >= limit) v = next();
    return lo + v % range;
  }

  /// Signed variant of uniform().
  std::int64_t uniform_i64(std::int64_t lo, std::int64_t hi) noexcept {
    if (hi <= lo) return lo;
    const auto span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + uniform(0, span));
  }

  /// True with probability num/den.
  bool chance(std::uint64_t num, std::uint64_t den) noexcept {
    if (den == 0 || num == 0) return false;
    if (num >= den) return true;
    return uniform(0, den - 1) < num;
  }

  /// An index in [0, n); 0 when n == 0.
  std::size_t index(std::size_t n) noexcept { return n == 0 ? 0 : static_cast<std::size_t>(uniform(0, n - 1)); }

  /// A digest of the generator's state ("unseed"): equal digests after two
  /// runs of one seed mean both drew the same number of values.
  std::uint64_t digest() const noexcept { return s_[0] ^ rotl(s_[1], 13) ^ rotl(s_[2], 29) ^ rotl(s_[3], 47); }

 private:
  static constexpr std::uint64_t rotl(std::uint64_t x, int k) noexcept { return (x << k) | (x >> (64 - k)); }

  std::uint64_t s_[4] = {0, 0, 0, 0};
};

}  // namespace lakegc::sim
