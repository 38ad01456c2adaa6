// File: lakegc/core/table_view.hpp
// -----------------------------------------------------------------------------
// TableView: a table's partitions -> file groups -> file slices, as Hudi's
// file-system view builds them (docs/hudi-rules.md §3), plus what the
// planners need beside them: replaced file groups, pending compaction
// operations, savepointed file names and the files no committed instant
// owns.
//
// Data layout. Planning loops run over millions of slices, so the view is a
// handful of flat arrays of small records that refer to each other by 32-bit
// index; names live once in a character arena. No per-slice std::string.
//
//   partitions()  [Partition]  -> a contiguous run of groups
//   groups()      [FileGroup]  -> a contiguous run of slices, newest first
//   slices        [FileSlice]  -> base file index + a run of log indices
//   files         [FileRecord] -> name (arena) + size
//
// A TableView is immutable; build one with TableViewBuilder.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include "lakegc/core/bytes.hpp"
#include "lakegc/core/file_name.hpp"
#include "lakegc/core/name_hash.hpp"
#include "lakegc/core/name_set.hpp"
#include "lakegc/core/prefaulted.hpp"
#include "lakegc/core/remap_vector.hpp"
#include "lakegc/core/timeline.hpp"

namespace lakegc {

inline constexpr std::uint32_t kNoFile = std::numeric_limits<std::uint32_t>::max();

/// Where a name lives in a view's arena. 40 bits of offset: a view of 100M
/// slices holds about 14 GB of names, past what 32 bits address (offsets
/// would wrap and name the wrong files).
inline constexpr std::uint64_t kMaxArenaBytes = (std::uint64_t{1} << 40) - 1;
/// The longest name a view holds (2 MiB). No storage names a file this
/// long (POSIX: 255 bytes, object stores: 1024); a longer listed name is
/// not a data file.
inline constexpr std::size_t kMaxNameLength = (std::size_t{1} << 21) - 1;

struct FileRecord {
  std::uint64_t name_offset : 40 = 0;
  std::uint64_t name_length : 21 = 0;
  /// A savepoint names this file. Set once at build time, so the planner's
  /// savepoint guard is a bit test, not a hash lookup per candidate file
  /// (which was over half of planning time at 10M slices); the builder
  /// then gathers it into FileSlice::savepointed, which the guard reads.
  std::uint64_t savepointed : 1 = 0;
  /// Layout 2: a log file whose deltacommit was archived and whose
  /// completion time is unknown (the archive was not read). It is attached
  /// to the slice its requested time gives, the oldest it can belong to,
  /// but may belong to any newer slice: Hudi attaches a log by its
  /// deltacommit's completion time, and the commit may have completed after
  /// a later compaction was requested. The planner deletes it only together
  /// with every slice it could belong to.
  std::uint64_t completion_unknown : 1 = 0;
  /// A pending write's markers name this file: the write created it or
  /// appends to it, and may still be running (layout 1 cannot tell its log
  /// blocks from committed ones by the file's name).
  std::uint64_t pending_write : 1 = 0;
  std::uint64_t size = 0;
};
static_assert(sizeof(FileRecord) == 16);

struct FileSlice {
  /// The slice's key: the base file's instant, or the pending compaction's
  /// instant for the empty slice it opens, or the log's own instant for a
  /// log-only slice.
  InstantTime base_instant;
  std::uint32_t base_file = kNoFile;  // index into the view's files
  std::uint32_t first_log = 0;        // index into the view's log index array
  std::uint32_t log_count = 0;
  /// Some file of the slice is savepointed / named by a pending write's
  /// markers (FileRecord's flags of its base file and logs, gathered at
  /// build time). The planner's guards test the slice it is reading: the
  /// files' records were a cache miss per candidate slice, about a third of
  /// planning at 1M slices (bench/README.md). In the slice's padding.
  std::uint8_t savepointed = 0;
  std::uint8_t pending_write = 0;
};
static_assert(sizeof(FileSlice) == 32);

struct FileGroup {
  std::uint32_t partition = 0;
  std::uint32_t file_id = 0;  // index into the view's file-id table
  std::uint32_t first_slice = 0;
  std::uint32_t slice_count = 0;
  /// Requested time of the completed replacecommit that replaced this group
  /// (the latest one when replaced twice).
  std::optional<InstantTime> replaced_by;
  /// Base instant of the earliest pending compaction or log compaction
  /// operation on this group: slices at or after it are being compacted.
  std::optional<InstantTime> pending_compaction_base;
};

struct Partition {
  std::string path;  // relative to the table root, "" when not partitioned
  std::uint32_t first_group = 0;
  std::uint32_t group_count = 0;
  /// The raw listing holds a data file (committed or not, e.g. of an
  /// in-flight write) of a group that is not replaced. Partition deletion
  /// requires this to be false.
  bool raw_has_unreplaced_files = false;
  /// Latest replacecommit that replaced a group here, whether or not the
  /// group still has files.
  std::optional<InstantTime> last_replace;
  /// The partition's files were listed in ascending name order (byte
  /// order, as posix_storage, memory_storage and object stores list), so
  /// their file indices ascend with their names: a planner sorts them by
  /// index and never reads their text.
  bool files_in_name_order = false;
};

/// A listed data file that no committed slice owns: output of an in-flight
/// or failed write, or a duplicate of a committed file.
struct UncommittedFile {
  std::uint32_t partition = 0;
  std::uint32_t file = 0;
  InstantTime instant;  // the instant in the file's name
};

class TableViewBuilder;

class TableView {
 public:
  TimelineLayout layout() const noexcept { return layout_; }

  std::span<const Partition> partitions() const noexcept { return partitions_; }
  std::span<const FileGroup> groups() const noexcept { return groups_; }
  std::span<const FileGroup> groups_of(const Partition& p) const noexcept {
    return std::span<const FileGroup>(groups_).subspan(p.first_group, p.group_count);
  }
  /// Slices of `g`, newest first.
  std::span<const FileSlice> slices_of(const FileGroup& g) const noexcept {
    return std::span<const FileSlice>(slices_).subspan(g.first_slice, g.slice_count);
  }
  /// Log file indices of `s`, ordered by (instant, version, write token).
  std::span<const std::uint32_t> logs_of(const FileSlice& s) const noexcept {
    return std::span<const std::uint32_t>(log_index_).subspan(s.first_log, s.log_count);
  }
  std::span<const UncommittedFile> uncommitted_files() const noexcept { return uncommitted_; }

  std::string_view file_id(const FileGroup& g) const noexcept {
    const FileIdSpan& id = file_ids_[g.file_id];
    return std::string_view(id_arena_.data() + id.offset, id.length);
  }
  std::string_view file_name(std::uint32_t file) const noexcept { return arena_view(files_[file]); }
  /// As listed; FileEntry::kUnknownSize for a view loaded without sizes
  /// (load_view's FileSizes::not_needed).
  std::uint64_t file_size(std::uint32_t file) const noexcept { return files_[file].size; }
  std::size_t file_count() const noexcept { return files_.size(); }
  /// Asks for the record file_name() and file_size() read, ahead of them:
  /// a planner that picks files one by one and reads them later (its
  /// picks are sparse, so each record is a cache miss of its own).
  void prefetch_file(std::uint32_t file) const noexcept { __builtin_prefetch(&files_[file]); }
  std::size_t slice_count() const noexcept { return slices_.size(); }

  /// `partition/name`, or `name` for the root partition.
  std::string file_path(const Partition& p, std::uint32_t file) const {
    if (p.path.empty()) return std::string(file_name(file));
    std::string s = p.path;
    s += '/';
    s += file_name(file);
    return s;
  }

  /// True when a savepoint names this file (savepoints list file names, not
  /// paths; Hudi compares names).
  bool is_savepointed(std::string_view name) const { return savepointed_.contains(name); }
  /// The same for a file of this view, without hashing its name.
  bool is_savepointed(std::uint32_t file) const noexcept { return files_[file].savepointed != 0; }
  bool has_savepoints() const noexcept { return !savepointed_.empty(); }

  /// A layout-2 log whose slice is uncertain (FileRecord::completion_unknown).
  bool completion_unknown(std::uint32_t file) const noexcept { return files_[file].completion_unknown != 0; }
  /// How many files of the view have that flag.
  std::size_t completion_unknown_count() const noexcept { return completion_unknown_count_; }
  /// A file a pending write's markers name (FileRecord::pending_write).
  bool pending_write(std::uint32_t file) const noexcept { return files_[file].pending_write != 0; }

  /// Bytes held in memory by the model's arrays (names excluded).
  std::size_t model_bytes() const noexcept {
    return partitions_.capacity() * sizeof(Partition) + groups_.capacity() * sizeof(FileGroup) +
           slices_.capacity() * sizeof(FileSlice) + log_index_.capacity() * sizeof(std::uint32_t) +
           files_.capacity() * sizeof(FileRecord) + file_ids_.capacity() * sizeof(FileIdSpan);
  }
  /// Bytes of names held (file names, file ids). The names arena's
  /// capacity past this was never written: address space, not memory.
  std::size_t name_bytes() const noexcept { return (names_ ? names_->size() : 0) + id_arena_.size(); }

  /// Keeps the text of every file_name() alive: a plan holds it (through
  /// PlannedFiles::hold) to refer to its files' names without copying them,
  /// and so may outlive the view. The text never changes once built.
  std::shared_ptr<const void> name_owner() const noexcept { return names_; }

 private:
  friend class TableViewBuilder;
  std::string_view arena_view(const FileRecord& r) const noexcept {
    return std::string_view(names_data_ + r.name_offset, r.name_length);
  }

  TimelineLayout layout_ = TimelineLayout::v1;
  std::vector<Partition> partitions_;
  // The arrays that grow with the table: RemapVector grows without copying
  // and populates its pages in runs (load_view's cost was mostly fresh
  // pages and doubling copies).
  RemapVector<FileGroup> groups_;
  RemapVector<FileSlice> slices_;
  RemapVector<std::uint32_t> log_index_;
  RemapVector<FileRecord> files_;
  struct FileIdSpan {
    std::uint64_t offset : 40 = 0;
    std::uint64_t length : 24 = 0;
  };
  RemapVector<FileIdSpan> file_ids_;  // into id_arena_
  std::vector<UncommittedFile> uncommitted_;
  // File names, in listing order: the builder's arena, moved in. File ids
  // are in their own arena, appended while building, so the names are
  // never copied (a copy of the names was the peak of build()). Shared,
  // and frozen once built: plans refer to names in it (name_owner), and a
  // copied view shares it. names_data_ is names_->data(), one load nearer.
  std::shared_ptr<const RemapVector<char>> names_;
  const char* names_data_ = nullptr;
  RemapVector<char> id_arena_;
  NameSet savepointed_;
  std::size_t completion_unknown_count_ = 0;
};

/// Builds a TableView from a timeline and a listing by Hudi's rules:
///
/// 1. Names that are not data files are skipped (and counted).
/// 2. A base file makes a slice only if its instant is committed: a
///    completed write instant, or older than the start of the write
///    timeline (Timeline::write_start: archived). Otherwise it is an
///    uncommitted file (in-flight or failed write).
/// 3. A pending compaction adds an empty slice at its instant to each file
///    group it compacts, before log files are attached.
/// 4. Log files attach, layout 1, to the newest slice keyed at or before the
///    instant in their name (the base instant); layout 2, to the newest slice
///    keyed at or before the completion time of the deltacommit that wrote
///    them. Logs of pending or unknown (failed) deltacommits in layout 2 are
///    uncommitted. A log of an archived deltacommit (older than the write
///    timeline's start) attaches by the completion time the archive gives
///    (add_archived_completion); without it, by its requested time, marked
///    completion_unknown. A log with no slice before it opens a log-only
///    slice.
/// 5. Replaced groups come from completed replacecommits; the later replace
///    wins.
class TableViewBuilder {
 public:
  /// `timeline` must outlive the builder.
  TableViewBuilder(const Timeline& timeline, TimelineLayout layout) : timeline_(&timeline), layout_(layout) {}

  /// Declares a partition (a directory with `.hoodie_partition_metadata`),
  /// so it exists even with no data files.
  void add_partition(std::string_view path) {
    PartBuild& pb = parts_[partition_index(path)];
    pb.declared = true;
    pb.listed = true;
  }

  /// With this set, files in directories never declared with
  /// add_partition() are skipped at build(): only directories holding a
  /// `.hoodie_partition_metadata` are partitions.
  void require_declared_partitions(bool on = true) { require_declared_ = on; }

  /// A listed file. Returns false (and counts it) when the name is not a
  /// data file.
  bool add_file(std::string_view partition, std::string_view name, std::uint64_t size) {
    const std::uint32_t p = partition_index(partition);
    parts_[p].listed = true;
    const auto parsed = name.size() <= kMaxNameLength ? scan_data_file_name(name) : std::nullopt;
    if (!parsed) {
      ++skipped_;
      return false;
    }
    const std::uint32_t file = add_record(name, size);
    // Marked while the name is in cache: a pass over every name at build
    // time was a third of load_view on a table with savepoints.
    if (!savepointed_.empty()) files_[file].savepointed = savepointed_.contains(name) ? 1 : 0;
    PartBuild& pb = parts_[p];
    if (pb.names_ascending && pb.last_file != kNoFile) {
      const FileRecord& last = files_[pb.last_file];
      pb.names_ascending =
          detail::bytes_less(std::string_view(arena_.data() + last.name_offset, last.name_length), name);
    }
    pb.last_file = file;
    GroupBuild& g = group(p, parsed->file_id);
    if (!parsed->is_log) {
      g.bases = link(bases_, BaseBuild{parsed->instant, file, g.bases});
    } else {
      g.logs = link(logs_, LogBuild{parsed->instant, parsed->version_number(), file, g.logs});
    }
    return true;
  }

  /// A pending compaction (or log compaction) at `compaction_instant` whose
  /// operation on (partition, file_id) compacts the slice at `base_instant`.
  void add_pending_compaction(std::string_view partition, std::string_view file_id, InstantTime base_instant,
                              InstantTime compaction_instant) {
    auto& g = group(partition_index(partition), file_id);
    g.pending = link(pending_, PendingBuild{{base_instant, compaction_instant}, g.pending});
  }

  /// A file group replaced by the completed replacecommit requested at
  /// `instant`.
  void add_replaced(std::string_view partition, std::string_view file_id, InstantTime instant) {
    const std::uint32_t p = partition_index(partition);
    auto& g = group(p, file_id);
    if (!g.replaced_by || *g.replaced_by < instant) g.replaced_by = instant;
    auto& last = parts_[p].last_replace;
    if (!last || *last < instant) last = instant;
  }

  /// A file name listed by a savepoint. Added before the listing
  /// (load_view does), each listed file is marked as add_file takes it;
  /// added after any file, build() marks every file by name instead (a
  /// pass over the names, most of what savepoints cost a load).
  void add_savepointed_file(std::string_view name) {
    savepointed_.insert(name);
    if (!files_.empty()) savepoints_after_files_ = true;
  }
  /// Room for `n` savepointed names in all.
  void reserve_savepointed_files(std::size_t n) { savepointed_.reserve(n); }

  /// A file (partition, name) a pending write's markers name.
  void add_pending_write_file(std::string_view partition, std::string_view name) {
    pending_write_files_[std::string(partition)].emplace(name);
  }

  /// The completion time of an archived write instant, as the table's
  /// archive records it (layout 2's LSM history).
  void add_archived_completion(InstantTime requested, InstantTime completed) {
    archived_completions_.insert_or_assign(requested, completed);
  }

  /// Names of files that commit metadata says a completed instant wrote.
  /// Optional: when two base files of a group share an instant (a
  /// speculative duplicate), the one named here is the committed one.
  /// The builder keeps `name` as a view (every file of every commit passes
  /// here: copying each name was a quarter of load_view), so its text must
  /// outlive build(); load_view passes the metadata's names.
  /// The names are only kept here; they are hashed the first time two base
  /// files of a group share an instant (rare), not once per load: hashing
  /// every committed name was a quarter of load_view.
  void add_committed_file(std::string_view name) { committed_names_to_index_.push_back(name); }
  /// Room for `n` more add_committed_file calls (millions of names: one
  /// allocation instead of a doubling vector's copies and page faults).
  void reserve_committed_files(std::size_t n) {
    committed_names_to_index_.reserve(committed_names_to_index_.size() + n);
  }

  std::size_t skipped_files() const noexcept { return skipped_; }

  /// Forgets what the metadata calls (add_pending_compaction, add_replaced,
  /// add_savepointed_file, add_pending_write_file, add_archived_completion,
  /// add_committed_file) added: the builder is then as if only add_partition
  /// and add_file had been called (partitions and file groups that only
  /// metadata named are dropped). A caller that keeps the listing part across
  /// table states (the simulator's oracle) adds the next state's metadata
  /// to it and builds with build(const Timeline&).
  void clear_metadata() {
    const std::size_t part_count = parts_.size();
    std::erase_if(parts_, [](const PartBuild& pb) { return !pb.listed; });
    if (parts_.size() != part_count) {
      part_index_.clear();
      for (std::uint32_t i = 0; i < parts_.size(); ++i) part_index_.emplace(parts_[i].path, i);
    }
    for (PartBuild& pb : parts_) {
      pb.last_replace.reset();
      const std::size_t group_count = pb.groups.size();
      // A dropped group's id text stays in ids_ until the builder goes: a
      // few bytes per metadata-only group and state.
      std::erase_if(pb.groups, [](const GroupBuild& g) { return !g.has_files(); });
      if (pb.groups.size() != group_count) {
        pb.index.clear();
        for (std::uint32_t i = 0; i < pb.groups.size(); ++i) pb.index.emplace(pb.groups[i].id, i);
      }
      for (GroupBuild& g : pb.groups) {
        g.pending = kNoLink;
        g.replaced_by.reset();
      }
    }
    pending_.clear();
    last_group_ = kNoLink;
    // add_file's marks go with the names that made them (none were made
    // while the set was empty: the simulator's usual state, a pass saved).
    if (!savepointed_.empty()) {
      for (FileRecord& r : files_) r.savepointed = 0;
    }
    savepointed_.clear();
    savepoints_after_files_ = false;
    committed_names_to_index_.clear();
    committed_names_.clear();
    pending_write_files_.clear();
    archived_completions_.clear();
  }

  /// Builds the view and consumes the builder: the names and files move
  /// into the view and each partition's build state is freed as soon as it
  /// is emitted, so the planners' peak memory is the view's, not twice it.
  TableView build() && { return build_view(*this, *timeline_); }

  /// Builds the view against `timeline` and leaves the builder as it was,
  /// so more files can be added and it can be built again. Copies the
  /// names and files: for builders kept across many builds (the
  /// simulator's oracle), where the listing costs more than the copy.
  /// The same view as build() && from the same calls.
  TableView build(const Timeline& timeline) const { return build_view(*this, timeline); }

 private:
  // The body of both builds. `Self` is TableViewBuilder (consumed) or
  // const TableViewBuilder (left as it was).
  template <typename Self>
  static TableView build_view(Self& self, const Timeline& timeline) {
    constexpr bool kConsume = !std::is_const_v<Self>;
    TableView v;
    v.layout_ = self.layout_;
    {
      // Frozen from here: shrunk first (an unmap of the tail, or a copy
      // while small), so the text never moves while plans refer to it.
      RemapVector<char> names;
      if constexpr (kConsume) {
        names = std::move(self.arena_);
      } else {
        names = self.arena_;
      }
      names.shrink_to_fit();
      auto frozen = std::make_shared<const RemapVector<char>>(std::move(names));
      v.names_data_ = frozen->data();
      v.names_ = std::move(frozen);
    }
    if constexpr (kConsume) {
      v.files_ = std::move(self.files_);
      v.savepointed_ = std::move(self.savepointed_);
    } else {
      v.files_ = self.files_;
      v.savepointed_ = self.savepointed_;
    }
    // Otherwise add_file marked each file (add_savepointed_file).
    if (self.savepoints_after_files_) {
      for (FileRecord& r : v.files_) r.savepointed = v.savepointed_.contains(v.arena_view(r)) ? 1 : 0;
    }
    if (!self.pending_write_files_.empty()) {
      for (const PartBuild& pb : self.parts_) {
        const auto names = self.pending_write_files_.find(pb.path);
        if (names == self.pending_write_files_.end()) continue;
        for (const GroupBuild& g : pb.groups) {
          auto mark = [&](std::uint32_t file) {
            if (names->second.contains(detail::to_absl(v.arena_view(v.files_[file])))) v.files_[file].pending_write = 1;
          };
          for (std::uint32_t b = g.bases; b != kNoLink; b = self.bases_[b].next) mark(self.bases_[b].file);
          for (std::uint32_t l = g.logs; l != kNoLink; l = self.logs_[l].next) mark(self.logs_[l].file);
        }
      }
    }

    // Partitions in path order; groups in file-id order within each.
    std::vector<std::uint32_t> part_order(self.parts_.size());
    for (std::uint32_t i = 0; i < part_order.size(); ++i) part_order[i] = i;
    std::sort(part_order.begin(), part_order.end(),
              [&](std::uint32_t a, std::uint32_t b) { return self.parts_[a].path < self.parts_[b].path; });

    for (std::uint32_t new_p = 0; new_p < part_order.size(); ++new_p) {  // NOLINT(modernize-loop-convert)
      auto& pb = self.parts_[part_order[new_p]];
      if (self.require_declared_ && !pb.declared) {
        if constexpr (kConsume) {
          for (const auto& g : pb.groups) {
            for (std::uint32_t b = g.bases; b != kNoLink; b = self.bases_[b].next) ++self.skipped_;
            for (std::uint32_t l = g.logs; l != kNoLink; l = self.logs_[l].next) ++self.skipped_;
          }
        }
        continue;
      }
      const auto out_index = static_cast<std::uint32_t>(v.partitions_.size());
      Partition out;
      out.path = pb.path;
      out.first_group = static_cast<std::uint32_t>(v.groups_.size());
      out.last_replace = pb.last_replace;
      out.files_in_name_order = pb.names_ascending;
      std::vector<const GroupBuild*> gs;
      gs.reserve(pb.groups.size());
      for (const auto& g : pb.groups) gs.push_back(&g);
      std::sort(gs.begin(), gs.end(), [](const GroupBuild* a, const GroupBuild* b) { return a->id < b->id; });
      for (const auto* g : gs) {
        if (self.emit_group(v, out_index, timeline, *g) && !g->replaced_by) out.raw_has_unreplaced_files = true;
      }
      out.group_count = static_cast<std::uint32_t>(v.groups_.size()) - out.first_group;
      v.partitions_.push_back(std::move(out));
      if constexpr (kConsume) {
        // The partition's build state is no longer needed: freed now, so the
        // view's arrays grow into it instead of beside it.
        pb.groups = {};
        pb.index = {};
      }
    }
    // The view lives as long as a plan takes, the builder's growth slack
    // does not: doubling leaves up to half of each array unused (for the
    // RemapVectors shrinking unmaps the tail, it copies nothing).
    v.partitions_.shrink_to_fit();
    v.groups_.shrink_to_fit();
    v.slices_.shrink_to_fit();
    v.log_index_.shrink_to_fit();
    v.files_.shrink_to_fit();
    v.file_ids_.shrink_to_fit();
    v.id_arena_.shrink_to_fit();
    return v;
  }

  // Per listed file while building: 24 and 32 bytes, in one array each for
  // the whole builder, each group's files linked newest-added first through
  // `next` (an index into the array, kNoLink at the end). A vector per
  // group was three allocations and ~400 bytes per group. The write token
  // that orders two logs of one instant and version is read back from the
  // name in the arena (a tie is rare), not kept as a string per file.
  static constexpr std::uint32_t kNoLink = std::numeric_limits<std::uint32_t>::max();
  struct BaseBuild {
    InstantTime instant;
    std::uint32_t file;
    std::uint32_t next;
  };
  struct LogBuild {
    InstantTime instant;
    std::uint64_t version;
    std::uint32_t file;
    std::uint32_t next;
  };
  struct PendingOp {
    InstantTime base;
    InstantTime instant;
  };
  struct PendingBuild {
    PendingOp op;
    std::uint32_t next;
  };
  // A slice of the group being emitted: its instant and base file.
  struct SliceKey {
    InstantTime instant;
    std::uint32_t base = kNoFile;
  };
  // emit_files' buffers, reused across groups.
  struct EmitScratch {
    std::vector<BaseBuild> bases;
    std::vector<LogBuild> logs;
    std::vector<PendingOp> pending;
    std::vector<SliceKey> keys;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> attached;
    std::vector<std::uint32_t> log_end;
    std::vector<std::uint32_t> by_key;
  };
  struct GroupBuild {
    std::string_view id;                                               // in ids_
    std::uint32_t bases = kNoLink, logs = kNoLink, pending = kNoLink;  // list heads
    std::optional<InstantTime> replaced_by;
    bool has_files() const noexcept { return bases != kNoLink || logs != kNoLink; }
  };
  struct PartBuild {
    std::string path;
    std::vector<GroupBuild> groups;
    NameViewMap<std::uint32_t> index;  // keys are the groups' ids
    std::optional<InstantTime> last_replace;
    bool declared = false;
    bool listed = false;  // add_partition or add_file named it (clear_metadata keeps it)
    // Partition::files_in_name_order: each file added has a greater name
    // than the one before it (checked against the last, which is in cache).
    bool names_ascending = true;
    std::uint32_t last_file = kNoFile;
  };

  std::uint32_t partition_index(std::string_view path) {
    // Files come partition by partition: hash a partition's path once per
    // run of its files, not once per file (checked by text, so a stale
    // index after clear_metadata only costs the lookup).
    if (last_part_ < parts_.size() && detail::bytes_equal(parts_[last_part_].path, path)) return last_part_;
    auto it = part_index_.find(detail::to_absl(path));
    if (it != part_index_.end()) return last_part_ = it->second;
    const auto i = static_cast<std::uint32_t>(parts_.size());
    parts_.push_back(PartBuild{std::string(path), {}, {}, std::nullopt, false, false, true, kNoFile});
    part_index_.emplace(std::string(path), i);
    return last_part_ = i;
  }

  GroupBuild& group(std::uint32_t p, std::string_view id) {
    PartBuild& pb = parts_[p];
    // A group's files are listed one after another (names start with the
    // file id): most lookups are the last group's, compared, not hashed.
    if (p == last_group_part_ && last_group_ < pb.groups.size() && detail::bytes_equal(pb.groups[last_group_].id, id)) {
      return pb.groups[last_group_];
    }
    auto it = pb.index.find(id);
    if (it == pb.index.end()) {
      const std::string_view kept = ids_.copy(id);
      it = pb.index.emplace(kept, static_cast<std::uint32_t>(pb.groups.size())).first;
      pb.groups.push_back(GroupBuild{kept, kNoLink, kNoLink, kNoLink, std::nullopt});
    }
    last_group_part_ = p;
    last_group_ = it->second;
    return pb.groups[it->second];
  }

  // Appends `node` (whose `next` is the list's old head) to `nodes`; returns
  // the list's new head.
  template <class Nodes, class Node>
  static std::uint32_t link(Nodes& nodes, const Node& node) {
    if (nodes.size() >= kNoLink) throw std::length_error("TableViewBuilder: over 4 billion files");
    nodes.push_back(node);
    return static_cast<std::uint32_t>(nodes.size() - 1);
  }

  std::uint32_t add_record(std::string_view name, std::uint64_t size) {
    // Unreachable below a terabyte of names; checked because a wrapped
    // offset would silently name another file.
    if (arena_.size() + name.size() > kMaxArenaBytes) throw std::length_error("TableView: over 1 TiB of file names");
    FileRecord r;
    r.name_offset = arena_.size();
    r.name_length = name.size();
    r.size = size;
    arena_.append(name.data(), name.size());
    files_.push_back(r);
    return static_cast<std::uint32_t>(files_.size() - 1);
  }

  bool is_committed_name(std::string_view name) const {
    if (!committed_names_to_index_.empty()) {
      committed_names_.reserve(committed_names_.size() + committed_names_to_index_.size());
      committed_names_.insert(committed_names_to_index_.begin(), committed_names_to_index_.end());
      committed_names_to_index_ = {};
    }
    return committed_names_.contains(name);
  }

  // Hudi's "committed" test for a slice key (containsOrBeforeTimelineStarts
  // over the write timeline): older than the write timeline's start, a
  // completed write instant, or a pending (log) compaction's slice.
  static bool committed_key(const Timeline& timeline, const InstantTime& t, std::span<const PendingOp> pending) {
    if (timeline.is_before_write_start(t)) return true;
    const Instant* i = timeline.find(t);
    if (i == nullptr) return false;
    if (i->is_completed()) return is_write_action(i->action);
    return std::any_of(pending.begin(), pending.end(), [&](const PendingOp& op) { return op.instant == t; });
  }

  // Emits group `g` into `v` (if it has any committed slice) and records its
  // uncommitted files. Returns true when the raw listing had any data file of
  // this group. The group's lists are copied into the builder's scratch (in
  // the order they were added) and sorted there, so the builder is left as
  // it was: build(const Timeline&) and build() && share this.
  bool emit_group(TableView& v, std::uint32_t partition, const Timeline& timeline, const GroupBuild& g) const {
    if (!g.has_files()) return false;  // known only from metadata: nothing on storage
    gather(bases_, g.bases, scratch_.bases);
    gather(logs_, g.logs, scratch_.logs);
    scratch_.pending.clear();
    for (std::uint32_t i = g.pending; i != kNoLink; i = pending_[i].next) scratch_.pending.push_back(pending_[i].op);
    std::reverse(scratch_.pending.begin(), scratch_.pending.end());
    emit_files(v, partition, timeline, g, scratch_.bases, scratch_.logs, scratch_.pending);
    return true;
  }

  // A group's list (newest added first) as values, in the order added.
  template <class Nodes, class Node>
  static void gather(const Nodes& nodes, std::uint32_t head, std::vector<Node>& out) {
    out.clear();
    for (std::uint32_t i = head; i != kNoLink; i = nodes[i].next) out.push_back(nodes[i]);
    std::reverse(out.begin(), out.end());
  }

  // emit_group for a group with files, given its files and pending
  // compaction operations.
  void emit_files(TableView& v, std::uint32_t partition, const Timeline& timeline, const GroupBuild& g,
                  std::vector<BaseBuild>& bases, std::vector<LogBuild>& logs,
                  std::span<const PendingOp> pending) const {
    auto uncommitted = [&](std::uint32_t file, InstantTime t) { v.uncommitted_.push_back({partition, file, t}); };

    // Slice keys: committed base instants, then pending compaction instants.
    // The scratch vectors are the builder's, reused from group to group (a
    // vector per group and per slice was a malloc per slice).
    std::vector<SliceKey>& keys = scratch_.keys;
    keys.clear();
    std::sort(bases.begin(), bases.end(), [&](const BaseBuild& a, const BaseBuild& b) {
      if (a.instant != b.instant) return a.instant < b.instant;
      // Of two base files at one instant, the one commit metadata names
      // wins; otherwise the first name, deterministically.
      const bool ca = is_committed_name(v.file_name(a.file));
      const bool cb = is_committed_name(v.file_name(b.file));
      if (ca != cb) return ca;
      return v.file_name(a.file) < v.file_name(b.file);
    });
    for (const BaseBuild& b : bases) {
      if (!committed_key(timeline, b.instant, pending)) {
        uncommitted(b.file, b.instant);
      } else if (!keys.empty() && keys.back().instant == b.instant) {
        uncommitted(b.file, b.instant);  // duplicate output of one write
      } else {
        keys.push_back({b.instant, b.file});
      }
    }
    std::optional<InstantTime> pending_base;
    for (const PendingOp& op : pending) {
      if (!pending_base || op.base < *pending_base) pending_base = op.base;
      const bool present =
          std::any_of(keys.begin(), keys.end(), [&](const SliceKey& k) { return k.instant == op.instant; });
      if (!present) keys.push_back({op.instant, kNoFile});
    }
    auto by_instant = [](const SliceKey& a, const SliceKey& b) { return a.instant < b.instant; };
    std::sort(keys.begin(), keys.end(), by_instant);

    // Where each log goes: the instant it attaches at, or none (uncommitted).
    // attached holds (key index, log file) in log order.
    std::vector<std::pair<std::uint32_t, std::uint32_t>>& attached = scratch_.attached;
    attached.clear();
    std::sort(logs.begin(), logs.end(), [&](const LogBuild& a, const LogBuild& b) {
      if (a.instant != b.instant) return a.instant < b.instant;
      if (a.version != b.version) return a.version < b.version;
      return log_token(v, a.file) < log_token(v, b.file);
    });
    for (const LogBuild& log : logs) {
      InstantTime at = log.instant;
      if (layout_ == TimelineLayout::v2) {
        const Instant* i = timeline.find(log.instant);
        if (i != nullptr && i->is_completed() && is_write_action(i->action)) {
          at = i->completion_or_requested();
        } else if (timeline.is_before_write_start(log.instant)) {
          // Written by an archived deltacommit.
          if (auto c = archived_completions_.find(log.instant); c != archived_completions_.end()) {
            at = c->second;
          } else {
            v.files_[log.file].completion_unknown = 1;
            ++v.completion_unknown_count_;
          }
        } else {
          uncommitted(log.file, log.instant);
          continue;
        }
      }
      auto it = std::upper_bound(keys.begin(), keys.end(), SliceKey{at, kNoFile}, by_instant);
      if (it == keys.begin()) {
        // No slice at or before it: a log-only slice keyed by its own
        // instant, committed by the same test as a base file.
        if (!committed_key(timeline, log.instant, pending)) {
          uncommitted(log.file, log.instant);
          continue;
        }
        it = keys.insert(keys.begin(), SliceKey{log.instant, kNoFile});
        // Keys stay sorted: log.instant <= at < every existing key. The
        // logs attached so far now belong one key further.
        for (auto& a : attached) ++a.first;
      } else {
        --it;
      }
      attached.emplace_back(static_cast<std::uint32_t>(it - keys.begin()), log.file);
    }
    if (keys.empty()) return;

    // The logs grouped by key, in log order within each (a counting sort):
    // key k's logs end at log_end[k] in by_key.
    std::vector<std::uint32_t>& log_end = scratch_.log_end;
    log_end.assign(keys.size(), 0);
    for (const auto& a : attached) ++log_end[a.first];
    for (std::size_t k = 1; k < keys.size(); ++k) log_end[k] += log_end[k - 1];
    std::vector<std::uint32_t>& by_key = scratch_.by_key;
    by_key.resize(attached.size());
    for (std::size_t i = attached.size(); i-- > 0;) by_key[--log_end[attached[i].first]] = attached[i].second;
    // log_end[k] is now where key k's logs start.

    FileGroup out;
    out.partition = partition;
    out.file_id = intern_file_id(v, g.id);
    out.first_slice = static_cast<std::uint32_t>(v.slices_.size());
    out.replaced_by = g.replaced_by;
    out.pending_compaction_base = pending_base;
    // The files' flags are set before any group is emitted (build_view).
    const bool flags = !v.savepointed_.empty() || !pending_write_files_.empty();
    for (std::size_t k = keys.size(); k-- > 0;) {
      const std::uint32_t first = log_end[k];
      const auto last = k + 1 < keys.size() ? log_end[k + 1] : static_cast<std::uint32_t>(by_key.size());
      FileSlice s;
      s.base_instant = keys[k].instant;
      s.base_file = keys[k].base;
      s.first_log = static_cast<std::uint32_t>(v.log_index_.size());
      s.log_count = last - first;
      if (flags) {
        auto gather = [&](std::uint32_t file) {
          s.savepointed |= v.files_[file].savepointed;
          s.pending_write |= v.files_[file].pending_write;
        };
        if (s.base_file != kNoFile) gather(s.base_file);
        for (std::uint32_t i = first; i < last; ++i) gather(by_key[i]);
      }
      v.log_index_.append(by_key.data() + first, last - first);
      v.slices_.push_back(s);
    }
    out.slice_count = static_cast<std::uint32_t>(keys.size());
    v.groups_.push_back(out);
  }

  // The write token of a log file of the view (empty when it has none).
  static std::string_view log_token(const TableView& v, std::uint32_t file) {
    const auto parsed = scan_data_file_name(v.file_name(file));
    return parsed ? parsed->write_token : std::string_view();
  }

  static std::uint32_t intern_file_id(TableView& v, std::string_view id) {
    if (v.id_arena_.size() + id.size() > kMaxArenaBytes) throw std::length_error("TableView: over 1 TiB of file ids");
    TableView::FileIdSpan r;
    r.offset = v.id_arena_.size();
    r.length = id.size();
    v.id_arena_.append(id.data(), id.size());
    v.file_ids_.push_back(r);
    return static_cast<std::uint32_t>(v.file_ids_.size() - 1);
  }

  const Timeline* timeline_;
  TimelineLayout layout_;
  std::vector<PartBuild> parts_;
  absl::flat_hash_map<std::string, std::uint32_t> part_index_;
  RemapVector<FileRecord> files_;
  RemapVector<char> arena_;
  NameSet savepointed_;
  // Whether a savepointed name came after a file, so that add_file's marks
  // are not the whole answer (add_savepointed_file).
  bool savepoints_after_files_ = false;
  // Views: see add_committed_file. Indexed into the set on first use.
  // Mutable: indexing on first use is a cache, and build(const Timeline&)
  // may be the first use.
  mutable std::vector<std::string_view> committed_names_to_index_;
  mutable NameViewSet committed_names_;
  // Partition -> names a pending write's markers name there.
  absl::flat_hash_map<std::string, absl::flat_hash_set<std::string>> pending_write_files_;
  std::map<InstantTime, InstantTime> archived_completions_;
  std::uint32_t last_part_ = 0;  // partition_index's last answer
  // group()'s last answer: a group of partition last_group_part_.
  std::uint32_t last_group_part_ = kNoLink, last_group_ = kNoLink;
  // Every group's files and pending operations (GroupBuild's lists), and
  // the groups' ids (stable addresses: the partitions' indexes view them).
  RemapVector<BaseBuild> bases_;
  RemapVector<LogBuild> logs_;
  std::vector<PendingBuild> pending_;
  TextArena ids_;
  mutable EmitScratch scratch_;
  std::size_t skipped_ = 0;
  bool require_declared_ = false;
};

}  // namespace lakegc
