// File: bench/gen_hudi_table.cpp
// -----------------------------------------------------------------------------
// gen_hudi_table: writes a large Copy-on-Write Hudi table (table version 6,
// timeline layout 1, no metadata table) on disk for bench/hudi_vs_lakegc.sh,
// which plans a clean of it with Hudi itself and with lakegc.
//
//   gen_hudi_table --out DIR [--partitions P] [--groups G] [--versions V]
//                  [--stripes S] [--start INSTANT]
//
// Shape: P partitions (`part=p0000`, hive style) of G file groups, each
// group with V base files (versions). The partitions are split into S
// stripes (partition p is in stripe p % S); commit c (c = 0 .. V*S-1, one
// minute apart from --start) writes a new version of every group of stripe
// c % S (an INSERT for the first version, an UPSERT after). So the table has
// V*S completed commits, P*G*V data files, and commit metadata naming every
// file (written by lakegc's hudi::table_writer in the shape Hudi's Jackson
// writes). Under KEEP_LATEST_COMMITS with R retained commits (R a multiple of
// S, R < V*S), every group keeps R/S + 1 versions and the clean deletes the
// other V - R/S - 1. There is no previous clean, so incremental and full
// planning both list every partition.
//
// Data files are empty (planning reads names, never data). Files are written
// without fsync: the table is scratch, and a million fsyncs would take
// longer than the benchmark. Prints one JSON line: what it wrote.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "lakegc/hudi/writer.hpp"
#include "lakegc/storage/posix_storage.hpp"

namespace {

using namespace lakegc;

/// posix_storage, but write_if_absent without fsync (and making parent
/// directories): create-if-absent with O_EXCL, which is all a generator needs.
class scratch_storage {
 public:
  explicit scratch_storage(posix_storage inner) : inner_(std::move(inner)) {}

  template <typename Visitor>
  Status list(std::string_view dir, Visitor&& visit, const ListOptions& options = {}) {
    return inner_.list(dir, std::forward<Visitor>(visit), options);
  }
  StatusOr<FileInfo> stat(std::string_view path) { return inner_.stat(path); }
  StatusOr<std::string> read(std::string_view path) { return inner_.read(path); }
  Status remove(std::string_view path) { return inner_.remove(path); }
  std::vector<Status> remove_batch(std::span<const std::string> paths) { return inner_.remove_batch(paths); }

  Status write_if_absent(std::string_view path, std::string_view bytes) {
    const std::string full = inner_.root() + "/" + std::string(path);
    int fd = ::open(full.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0 && errno == ENOENT) {
      make_parents(full);
      fd = ::open(full.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    }
    if (fd < 0) {
      if (errno == EEXIST) return absl::AlreadyExistsError(full + ": already exists");
      return absl::InternalError(fmt::format("open {}: {}", full, std::strerror(errno)));
    }
    std::size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
      if (n < 0) {
        if (errno == EINTR) continue;
        const int err = errno;
        ::close(fd);
        return absl::InternalError(fmt::format("write {}: {}", full, std::strerror(err)));
      }
      done += static_cast<std::size_t>(n);
    }
    if (::close(fd) != 0) return absl::InternalError(fmt::format("close {}: {}", full, std::strerror(errno)));
    return Status();
  }

 private:
  static void make_parents(const std::string& file) {
    for (std::size_t i = 1; i < file.size(); ++i) {
      if (file[i] != '/') continue;
      const std::string dir = file.substr(0, i);
      if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) return;
    }
  }

  posix_storage inner_;
};
static_assert(Storage<scratch_storage>);

[[noreturn]] void die(std::string_view what) {
  fmt::print(stderr, "gen_hudi_table: {}\n", what);
  std::exit(2);
}

void check(const Status& st, std::string_view what) {
  if (!st.ok()) die(fmt::format("{}: {}", what, message_of(st)));
}

std::uint64_t number(std::string_view flag, std::string_view v, std::uint64_t min) {
  char* end = nullptr;
  const std::string s(v);
  const unsigned long long n = std::strtoull(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || n < min) die(fmt::format("{} '{}': expected a number >= {}", flag, v, min));
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  std::string out;
  std::uint64_t partitions = 100, groups = 100, versions = 10, stripes = 10;
  std::string start = "20260101000000000";
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    const auto eq = a.find('=');
    const std::string_view key = a.substr(0, eq);
    std::string_view val;
    if (eq != std::string_view::npos) {
      val = a.substr(eq + 1);
    } else if (i + 1 < argc) {
      val = argv[++i];
    } else {
      die(fmt::format("{} needs a value", a));
    }
    if (key == "--out")
      out = std::string(val);
    else if (key == "--partitions")
      partitions = number(key, val, 1);
    else if (key == "--groups")
      groups = number(key, val, 1);
    else if (key == "--versions")
      versions = number(key, val, 1);
    else if (key == "--stripes")
      stripes = number(key, val, 1);
    else if (key == "--start")
      start = std::string(val);
    else
      die(
          fmt::format("unknown option {} (usage: --out DIR [--partitions P] [--groups G] [--versions V] "
                      "[--stripes S] [--start INSTANT])",
                      a));
  }
  if (out.empty()) die("--out DIR is required");
  if (stripes > partitions) die("--stripes must not exceed --partitions");
  auto t0 = InstantTime::parse(start);
  if (!t0.ok() || start.size() != 17) die("--start: expected a 17-digit instant");

  const auto clock0 = std::chrono::steady_clock::now();
  if (::mkdir(out.c_str(), 0755) != 0 && errno != EEXIST) die(fmt::format("mkdir {}: {}", out, std::strerror(errno)));
  auto ps = posix_storage::open(out);
  if (!ps.ok()) die(message_of(ps.status()));
  scratch_storage st(std::move(*ps));

  hudi::TableConfig cfg;
  cfg.name = "lakegc_hudi_bench";
  cfg.type = hudi::TableType::copy_on_write;
  cfg.partition_fields = {"part"};
  cfg.hive_style_partitioning = true;
  cfg.timezone = TimelineTimezone::utc;
  auto w = hudi::table_writer<scratch_storage>::create(st, cfg);
  if (!w.ok()) die(fmt::format("create table in {}: {}", out, message_of(w.status())));

  // Commit times: one minute apart from --start, in UTC.
  const absl::CivilSecond base(std::stoi(start.substr(0, 4)), std::stoi(start.substr(4, 2)),
                               std::stoi(start.substr(6, 2)), std::stoi(start.substr(8, 2)),
                               std::stoi(start.substr(10, 2)), std::stoi(start.substr(12, 2)));
  const std::int64_t base_ms =
      absl::ToUnixMillis(absl::FromCivil(base, absl::UTCTimeZone())) + std::stoi(start.substr(14, 3));

  std::vector<std::string> file_ids(partitions * groups);
  for (std::uint64_t i = 0; i < file_ids.size(); ++i) file_ids[i] = hudi::table_writer<scratch_storage>::file_id(i);
  std::vector<std::string> part_names(partitions);
  for (std::uint64_t p = 0; p < partitions; ++p) part_names[p] = fmt::format("part=p{:04}", p);

  const std::uint64_t commits = versions * stripes;
  std::uint64_t files = 0;
  std::string first, last;
  for (std::uint64_t c = 0; c < commits; ++c) {
    const InstantTime t =
        InstantTime::from_epoch_ms(base_ms + static_cast<std::int64_t>(c) * 60'000, TimelineTimezone::utc);
    if (c == 0) first = t.str();
    last = t.str();
    check(w->start(t), "start");
    const std::uint64_t stripe = c % stripes;
    for (std::uint64_t p = stripe; p < partitions; p += stripes) {
      for (std::uint64_t g = 0; g < groups; ++g) {
        auto name = w->write_base_file(t, part_names[p], file_ids[p * groups + g], "");
        if (!name.ok()) die(fmt::format("write_base_file: {}", message_of(name.status())));
        ++files;
      }
    }
    check(w->complete(t, c < stripes ? "INSERT" : "UPSERT"), "complete");
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - clock0).count();
  fmt::print(
      "{{\"out\": {}, \"table_version\": 6, \"type\": \"COPY_ON_WRITE\", \"partitions\": {}, \"groups_per_partition\": {}, "
      "\"versions\": {}, \"stripes\": {}, \"commits\": {}, \"data_files\": {}, \"first_commit\": \"{}\", "
      "\"last_commit\": \"{}\", \"seconds\": {:.1f}}}\n",
      lakegc::json_quote(out), partitions, groups, versions, stripes, commits, files, first, last, secs);
  return 0;
}
