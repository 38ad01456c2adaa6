// File: lakegc/plan/java_hash_order.hpp
// -----------------------------------------------------------------------------
// The order in which Java's HashMap<String, V> iterates its keys, as
// `Collectors.toMap` builds one: String.hashCode over UTF-16 code units,
// HashMap's spread (h ^ h >>> 16), a table of 16 buckets doubled whenever
// the size passes 3/4 of it (or when one bucket reaches 9 entries while the
// table is below 64 buckets), and iteration bucket by bucket, each bucket in
// insertion order (a resize splits a bucket keeping its order).
//
// Why lakegc needs it: Hudi's KEEP_BY_TIME TTL collects every candidate
// partition's last commit time with Collectors.toMap and caps the expired
// ones with Stream.limit over that map's entry order. Which partitions one
// capped run deletes is therefore this order, not path order.
//
// Not modelled: a bucket of 9 or more keys in a table of 64 buckets or more
// becomes a red-black tree whose node order lakegc does not reproduce; the
// result then says it is not exact.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lakegc {

/// Java's `String.hashCode()` of the string whose UTF-8 bytes are `utf8`
/// (a malformed byte counts as U+FFFD, as Java's decoder replaces it).
inline std::int32_t java_string_hash(std::string_view utf8) {
  std::uint32_t h = 0;
  auto unit = [&h](std::uint32_t u) { h = 31 * h + u; };
  for (std::size_t i = 0; i < utf8.size();) {
    const auto b0 = static_cast<unsigned char>(utf8[i]);
    std::uint32_t cp = 0xFFFD;
    std::size_t len = 1;
    auto cont = [&](std::size_t k) {
      return i + k < utf8.size() && (static_cast<unsigned char>(utf8[i + k]) & 0xC0) == 0x80;
    };
    auto bits = [&](std::size_t k) {
      return static_cast<std::uint32_t>(static_cast<unsigned char>(utf8[i + k]) & 0x3F);
    };
    if (b0 < 0x80) {
      cp = b0;
    } else if ((b0 & 0xE0) == 0xC0 && cont(1)) {
      cp = ((b0 & 0x1Fu) << 6) | bits(1);
      len = 2;
    } else if ((b0 & 0xF0) == 0xE0 && cont(1) && cont(2)) {
      cp = ((b0 & 0x0Fu) << 12) | (bits(1) << 6) | bits(2);
      len = 3;
    } else if ((b0 & 0xF8) == 0xF0 && cont(1) && cont(2) && cont(3)) {
      cp = ((b0 & 0x07u) << 18) | (bits(1) << 12) | (bits(2) << 6) | bits(3);
      len = 4;
    }
    if (cp >= 0x10000) {
      cp -= 0x10000;
      unit(0xD800 + (cp >> 10));
      unit(0xDC00 + (cp & 0x3FF));
    } else {
      unit(cp);
    }
    i += len;
  }
  return static_cast<std::int32_t>(h);
}

struct JavaHashMapOrder {
  /// Indices into the keys, in the map's iteration order.
  std::vector<std::size_t> order;
  /// False when a bucket became a tree bin (see the file comment).
  bool exact = true;
};

/// The iteration order of a java.util.HashMap built with the default
/// constructor by putting `keys` (distinct) in the order given.
inline JavaHashMapOrder java_hash_map_order(std::span<const std::string> keys) {
  auto spread = [](std::string_view k) {
    const auto h = static_cast<std::uint32_t>(java_string_hash(k));
    return h ^ (h >> 16);
  };
  std::vector<std::uint32_t> hashes;
  hashes.reserve(keys.size());
  for (const auto& k : keys) hashes.push_back(spread(k));

  std::vector<std::vector<std::size_t>> table;
  std::size_t threshold = 0;
  auto resize = [&] {
    if (table.empty()) {
      table.resize(16);
      threshold = 12;
      return;
    }
    std::vector<std::vector<std::size_t>> bigger(table.size() * 2);
    for (const auto& bucket : table) {
      for (std::size_t i : bucket) bigger[hashes[i] & (bigger.size() - 1)].push_back(i);
    }
    table = std::move(bigger);
    threshold *= 2;
  };

  JavaHashMapOrder out;
  std::size_t size = 0;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (table.empty()) resize();
    auto& bucket = table[hashes[i] & (table.size() - 1)];
    bucket.push_back(i);
    // putVal's treeifyBin: appending the 9th node of a bucket resizes a
    // small table and turns the bucket into a tree otherwise.
    if (bucket.size() >= 9) {
      if (table.size() < 64) {
        resize();
      } else {
        out.exact = false;
      }
    }
    if (++size > threshold) resize();
  }
  out.order.reserve(keys.size());
  for (const auto& bucket : table) out.order.insert(out.order.end(), bucket.begin(), bucket.end());
  return out;
}

}  // namespace lakegc
