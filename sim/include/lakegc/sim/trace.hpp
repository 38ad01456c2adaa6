// File: lakegc/sim/trace.hpp
// -----------------------------------------------------------------------------
// The event trace: one line per simulated event. Every line feeds a 64-bit
// FNV-1a hash, so two runs of one seed can be compared (I9) without keeping
// the text; with printing on (`--trace`) each line also goes to a sink.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace lakegc::sim {

class Trace {
 public:
  using Sink = std::function<void(std::string_view)>;

  /// Lines go to `sink` when set (e.g. stdout for --trace).
  void set_sink(Sink sink) { sink_ = std::move(sink); }
  bool printing() const noexcept { return static_cast<bool>(sink_); }

  /// Records one event at `time_ms`, attributed to `actor`.
  template <typename... Args>
  void event(std::int64_t time_ms, std::string_view actor, fmt::format_string<Args...> f, Args&&... args) {
    line_.clear();
    fmt::format_to(std::back_inserter(line_), "{:>10} {:<12} ", time_ms - origin_ms_, actor);
    fmt::format_to(std::back_inserter(line_), f, std::forward<Args>(args)...);
    add(line_);
  }

  /// Mixes `text` into the hash (and prints it when printing).
  void add(std::string_view text) {
    for (char c : text) mix(static_cast<std::uint8_t>(c));
    mix('\n');
    ++lines_;
    if (sink_) sink_(text);
    if (tail_max_ > 0) {
      if (tail_.size() == tail_max_) tail_.pop_front();
      tail_.emplace_back(text);
    }
  }

  /// Keeps the last `n` lines in memory (for failure messages).
  void keep_tail(std::size_t n) { tail_max_ = n; }
  std::string tail() const {
    std::string out;
    for (const auto& l : tail_) out.append(l).append("\n");
    return out;
  }

  /// Event times print relative to this (the start of the run).
  void set_origin(std::int64_t origin_ms) { origin_ms_ = origin_ms; }
  std::uint64_t hash() const noexcept { return hash_; }
  std::uint64_t lines() const noexcept { return lines_; }

 private:
  void mix(std::uint8_t b) noexcept {
    hash_ ^= b;
    hash_ *= 0x100000001b3ULL;
  }

  Sink sink_;
  std::string line_;
  std::deque<std::string> tail_;
  std::size_t tail_max_ = 0;
  std::uint64_t hash_ = 0xcbf29ce484222325ULL;
  std::uint64_t lines_ = 0;
  std::int64_t origin_ms_ = 0;
};

}  // namespace lakegc::sim
