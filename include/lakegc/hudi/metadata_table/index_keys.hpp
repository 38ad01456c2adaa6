// File: lakegc/hudi/metadata_table/index_keys.hpp
// -----------------------------------------------------------------------------
// The record keys of the metadata table's column_stats and bloom_filters
// partitions, and how a key picks its file group, as Hudi 1.2.0 computes
// them (HoodieMetadataPayload.getColumnStatsIndexKey / getBloomFilterRecordKey,
// org.apache.hudi.common.util.hash.{ColumnIndexID, PartitionIndexID,
// FileIndexID, HashID}, HoodieTableMetadataUtil.mapRecordKeyToFileGroupIndex):
//
//   column_stats     base64(xxh64(column)) + base64(xxh64(partition)) + base64(md5(file name))
//   bloom_filters    base64(xxh64(partition)) + base64(md5(file name))
//   partition_stats  base64(xxh64(column)) + base64(xxh64(partition))
//
// xxh64 is XXHash64 with seed -625288518 (as a signed 64-bit value) over the
// UTF-8 bytes, its value written big-endian (8 bytes); md5 the 16-byte
// digest; base64 the standard alphabet with padding (java.util.Base64). The
// partition is the data table's relative partition path, "." for the root
// partition (HoodieTableMetadataUtil.getPartitionIdentifier).
//
// A key's file group, among the `n` file groups of its metadata partition
// sorted by file id, is |h| % n with h Java's String.hashCode of the key
// (31-multiplier over UTF-16 code units).
//
// XXHash64 comes from libxxhash and MD5 from OpenSSL's libcrypto (both
// Debian 12 packages); the base64 is Abseil's.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include <absl/strings/escaping.h>
#include <openssl/evp.h>

#define XXH_INLINE_ALL
#include <xxhash.h>
#undef XXH_INLINE_ALL

#include "lakegc/hudi/metadata_table/files_record.hpp"

namespace lakegc::hudi::metadata_table {

namespace detail {

/// HashID.HASH_SEED, sign-extended as Java's `long` literal of it.
inline constexpr std::uint64_t index_hash_seed = static_cast<std::uint64_t>(std::int64_t{-625288518});

inline std::string base64_of(const unsigned char* bytes, std::size_t n) {
  return absl::Base64Escape(absl::string_view(reinterpret_cast<const char*>(bytes), n));
}

/// base64(XXHash64 of `s`, big-endian): ColumnIndexID / PartitionIndexID.
inline std::string xxh64_id(std::string_view s) {
  const std::uint64_t h = XXH64(s.data(), s.size(), index_hash_seed);
  unsigned char b[8];
  for (int i = 0; i < 8; ++i) b[i] = static_cast<unsigned char>(h >> (56 - 8 * i));
  return base64_of(b, sizeof b);
}

/// base64(MD5 of `s`): FileIndexID.
inline std::string md5_id(std::string_view s) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  // EVP_Digest fails only when the digest is unavailable, which a libcrypto
  // without MD5 (a FIPS-only build) would be: a key lakegc cannot compute
  // is no key at all, so stop rather than write a wrong one.
  if (EVP_Digest(s.data(), s.size(), digest, &n, EVP_md5(), nullptr) != 1 || n != 16) std::abort();
  return base64_of(digest, n);
}

}  // namespace detail

/// HoodieTableMetadataUtil.getPartitionIdentifier: "." for the root partition.
inline std::string index_partition_identifier(std::string_view partition) {
  return partition.empty() ? std::string(non_partitioned_key) : std::string(partition);
}

/// The column_stats key of `column` in file `file_name` of data partition `partition`.
inline std::string column_stats_key(std::string_view partition, std::string_view file_name, std::string_view column) {
  return detail::xxh64_id(column) + detail::xxh64_id(index_partition_identifier(partition)) + detail::md5_id(file_name);
}

/// The bloom_filters key of base file `file_name` of data partition `partition`.
inline std::string bloom_filter_key(std::string_view partition, std::string_view file_name) {
  return detail::xxh64_id(index_partition_identifier(partition)) + detail::md5_id(file_name);
}

/// The partition_stats key of `column` in data partition `partition`.
inline std::string partition_stats_key(std::string_view partition, std::string_view column) {
  return detail::xxh64_id(column) + detail::xxh64_id(index_partition_identifier(partition));
}

/// Java's String.hashCode of `s` (UTF-8 here, UTF-16 code units there).
/// Bytes that are not UTF-8 count as U+FFFD, as Java's decoder makes them.
inline std::int32_t java_string_hash(std::string_view s) {
  std::uint32_t h = 0;
  auto add = [&](std::uint32_t unit) { h = 31 * h + unit; };
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::uint32_t cp = 0xFFFD;
    std::size_t len = 1;
    if (c < 0x80) {
      cp = c;
    } else {
      const std::size_t need = c >= 0xF0 && c < 0xF5 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
      if (need != 0 && i + need <= s.size()) {
        std::uint32_t v = c & (0xFF >> (need + 1));
        bool ok = true;
        for (std::size_t k = 1; k < need; ++k) {
          const auto cc = static_cast<unsigned char>(s[i + k]);
          ok = ok && (cc & 0xC0) == 0x80;
          v = (v << 6) | (cc & 0x3F);
        }
        const bool shortest = (need == 3 && v >= 0x800) || (need == 4 && v >= 0x10000) || need == 2;
        if (ok && shortest && v <= 0x10FFFF && !(v >= 0xD800 && v <= 0xDFFF)) {
          cp = v;
          len = need;
        }
      }
    }
    if (cp >= 0x10000) {
      add(0xD800 + ((cp - 0x10000) >> 10));
      add(0xDC00 + ((cp - 0x10000) & 0x3FF));
    } else {
      add(cp);
    }
    i += len;
  }
  return static_cast<std::int32_t>(h);
}

/// HoodieTableMetadataUtil.mapRecordKeyToFileGroupIndex: the index, among
/// `file_groups` file groups sorted by file id, of the one holding `key`.
inline std::size_t file_group_index_of(std::string_view key, std::size_t file_groups) {
  if (file_groups <= 1) return 0;
  const std::int64_t h = java_string_hash(key);  // Math.abs(Integer.MIN_VALUE) stays negative in Java
  const std::int32_t n = static_cast<std::int32_t>(file_groups);
  const std::int32_t abs_h = h == INT32_MIN ? INT32_MIN : static_cast<std::int32_t>(h < 0 ? -h : h);
  const std::int32_t r = abs_h % n;  // Java's % keeps the sign of the dividend
  return static_cast<std::size_t>(r < 0 ? -r : r);
}

}  // namespace lakegc::hudi::metadata_table
