// File: lakegc/hudi/lock.hpp
// -----------------------------------------------------------------------------
// The table lock as Hudi's writers configure it (`hoodie.write.lock.*`, the
// write config users pass to Spark; not stored in the table), and Hudi's
// file-system lock (FileSystemBasedLockProvider) taken the same way:
//
// * the lock is the file `<hoodie.write.lock.filesystem.path>/lock`, by
//   default `<table>/.hoodie/lock`, created only if absent (the storage's
//   atomic create) with Hudi's LockInfo JSON as content, and deleted to
//   release;
// * a lock file older than `hoodie.write.lock.filesystem.expire` minutes
//   (0, the default: never) is expired and deleted first, as Hudi does;
// * a held lock is retried `hoodie.write.lock.num_retries` times (15),
//   `hoodie.write.lock.wait_time_ms_between_retry` apart (1000 ms), then
//   the attempt fails with the holder's LockInfo in the message.
//
// Other providers (ZooKeeper, Hive metastore, DynamoDB) are not takeable
// from here: callers refuse unless the user says no other writer runs. The
// storage-based lock of Hudi 1.1+ (StorageBasedLockProvider) is a
// conditional write to an object store: Hudi 1.2 implements it for s3, s3a,
// gs, wasb(s) and abfs(s) only (StorageSchemes' lock clients) and refuses
// every other scheme, `file` included ("No implementation of StorageLock
// supports this scheme"). lakegc reaches tables through a POSIX file system,
// where no Hudi writer can hold that lock, so it is refused with that
// reason (storage_based_lock_refusal).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>

#include <absl/time/clock.h>
#include <absl/time/time.h>
#include <fmt/format.h>

#include "lakegc/exec/table_lock.hpp"
#include "lakegc/policy/config.hpp"
#include "lakegc/policy/write_maintenance.hpp"
#include "lakegc/storage/path.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc::hudi {

inline constexpr std::string_view kFileSystemLockProvider =
    "org.apache.hudi.client.transaction.lock.FileSystemBasedLockProvider";
inline constexpr std::string_view kStorageBasedLockProvider =
    "org.apache.hudi.client.transaction.lock.StorageBasedLockProvider";

/// Why lakegc does not take Hudi's storage-based lock (see the top of this file).
inline constexpr std::string_view storage_based_lock_refusal =
    "Hudi's storage-based lock is a conditional write to an object store (s3, s3a, gs, wasb, abfs); "
    "lakegc works on POSIX file systems, where Hudi 1.2 has no storage-based lock either (it refuses the "
    "file scheme), so lakegc cannot take the lock your writers take on the object store";

enum class LockProviderKind : std::uint8_t { none, file_system, other };

struct LockSettings {
  LockProviderKind kind = LockProviderKind::none;
  std::string provider_class;              // hoodie.write.lock.provider, as given
  std::string lock_file = ".hoodie/lock";  // relative to the table root
  std::int64_t expire_minutes = 0;         // hoodie.write.lock.filesystem.expire
  std::int64_t retry_wait_ms = 1000;       // hoodie.write.lock.wait_time_ms_between_retry
  std::int64_t num_retries = 15;           // hoodie.write.lock.num_retries
  ConcurrencyMode concurrency = ConcurrencyMode::single_writer;
};

/// Reads the lock keys of a write config for the table at `base_path` (the
/// absolute path the table is opened with). A lock folder outside the table
/// is refused: lakegc reaches storage only below the table root.
[[nodiscard]] inline StatusOr<LockSettings> lock_settings(const config::Properties& props, std::string_view base_path) {
  LockSettings s;
  config::detail::KeyLookup keys{props, {}};
  if (auto p = keys.get("hoodie.write.lock.provider")) {
    s.provider_class = p->second;
    s.kind = p->second == kFileSystemLockProvider ? LockProviderKind::file_system : LockProviderKind::other;
  }
  if (auto dir = keys.get("hoodie.write.lock.filesystem.path")) {
    std::string_view d = dir->second;
    while (d.size() > 1 && d.back() == '/') d.remove_suffix(1);
    std::string_view base = base_path;
    while (base.size() > 1 && base.back() == '/') base.remove_suffix(1);
    std::string file;
    if (d == base) {
      file = "lock";
    } else if (d.size() > base.size() && d.substr(0, base.size()) == base && d[base.size()] == '/') {
      file = fmt::format("{}/lock", d.substr(base.size() + 1));
    }
    // A folder below the base path by its text only ("<base>/../x" or
    // "<base>//x", found with the lock property of the java_properties fuzz
    // target) is outside too.
    if (file.empty() || !lakegc::detail::check_relative_path(file, "lock").ok()) {
      return absl::InvalidArgumentError(
          fmt::format("{}={}: the lock folder is outside the table at {}; lakegc takes the lock only inside the table",
                      dir->first, dir->second, base_path));
    }
    s.lock_file = std::move(file);
  }
  if (auto e = keys.get("hoodie.write.lock.filesystem.expire")) {
    LAKEGC_ASSIGN_OR_RETURN(s.expire_minutes, config::detail::parse_int(*e, 0, "a whole number of minutes >= 0"));
  }
  if (auto w = keys.get("hoodie.write.lock.wait_time_ms_between_retry")) {
    LAKEGC_ASSIGN_OR_RETURN(s.retry_wait_ms, config::detail::parse_int(*w, 0, "a whole number of milliseconds >= 0"));
  }
  if (auto n = keys.get("hoodie.write.lock.num_retries")) {
    LAKEGC_ASSIGN_OR_RETURN(s.num_retries, config::detail::parse_int(*n, 0, "a whole number >= 0"));
  }
  LAKEGC_ASSIGN_OR_RETURN(WriteMaintenance wm, config::write_maintenance_from_properties(props));
  s.concurrency = wm.concurrency;
  return s;
}

/// Where time comes from for the lock's retries and expiry; the tool uses
/// the wall clock, tests inject their own.
struct LockClock {
  std::function<std::int64_t()> now_ms = [] { return absl::ToUnixMillis(absl::Now()); };
  std::function<void(std::int64_t)> sleep_ms = [](std::int64_t ms) { absl::SleepFor(absl::Milliseconds(ms)); };
};

/// Hudi's file-system lock on `storage` (rooted at the table) as a TableLock.
/// `storage` must outlive it.
template <Storage S>
TableLock file_system_lock(S& storage, const LockSettings& settings, LockClock clock = {}) {
  TableLock lock;
  lock.description = fmt::format("file-system lock {}", settings.lock_file);
  lock.acquire = [&storage, settings, clock]() -> Status {
    std::string holder;
    for (std::int64_t attempt = 0; attempt <= settings.num_retries; ++attempt) {
      if (attempt > 0) clock.sleep_ms(settings.retry_wait_ms);
      auto held = storage.stat(settings.lock_file);
      if (held.ok()) {
        const bool expired =
            settings.expire_minutes > 0 && clock.now_ms() - held->mtime_ms > settings.expire_minutes * 60'000;
        if (!expired) {
          auto text = storage.read(settings.lock_file);
          holder = text.ok() ? *text : std::string("(unreadable)");
          continue;
        }
        // Hudi deletes an expired lock file, then takes the lock.
        if (Status rm = storage.remove(settings.lock_file); !rm.ok() && !absl::IsNotFound(rm)) {
          return annotate(rm, fmt::format("deleting the expired lock {}", settings.lock_file));
        }
      } else if (!absl::IsNotFound(held.status())) {
        return annotate(held.status(), fmt::format("checking the lock {}", settings.lock_file));
      }
      const std::string info = fmt::format(
          "{{\n  \"lockCreateTime\" : \"{}\",\n  \"lockThreadName\" : \"lakegc\",\n  \"lockStacksInfo\" : [ ]\n}}",
          absl::FormatTime("%Y-%m-%d %H:%M:%E3S", absl::FromUnixMillis(clock.now_ms()), absl::LocalTimeZone()));
      const Status st = storage.write_if_absent(settings.lock_file, info);
      if (st.ok()) return Status();
      if (!absl::IsAlreadyExists(st)) return annotate(st, fmt::format("creating the lock {}", settings.lock_file));
    }
    return absl::FailedPreconditionError(
        fmt::format("the table lock {} is held by another writer (tried {} times, {} ms apart); its holder: {}",
                    settings.lock_file, settings.num_retries + 1, settings.retry_wait_ms, holder));
  };
  lock.release = [&storage, file = settings.lock_file]() -> Status {
    const Status st = storage.remove(file);
    if (absl::IsNotFound(st)) return Status();
    return annotate(st, fmt::format("releasing the lock {}", file));
  };
  return lock;
}

}  // namespace lakegc::hudi
