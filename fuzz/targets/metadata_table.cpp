// Fuzz target: the metadata table's `files` partition records
// (hudi/metadata_table/files_record.hpp, log_scan.hpp), as
// files_partition_state reads them: the bytes as a base file (HFile ->
// HoodieMetadataRecord -> decode_files_record) and as one log file of the
// slice (scan_logs: rollback command blocks, log-compaction headers,
// invalid instants -> records -> decode_files_record), the records of one
// key merged oldest first (combine). Every instant that parses counts as
// valid. Property: a file the newer record lists as present is present after
// the merge, at least as large.
#include <map>
#include <span>

#include "../target.hpp"
#include "lakegc/core/instant_time.hpp"
#include "lakegc/hudi/hfile/avro_records.hpp"
#include "lakegc/hudi/metadata_table/files_record.hpp"
#include "lakegc/hudi/metadata_table/log_scan.hpp"
#include "lakegc/storage/memory_storage.hpp"

namespace {

std::optional<std::string> metadata_table_seed(const std::filesystem::path& relative, std::string_view contents) {
  const std::string path = relative.generic_string();
  return lakegc::fuzz::bytes_if(path.find(".hoodie/metadata/files/") != std::string::npos, contents);
}

namespace mdt = lakegc::hudi::metadata_table;

lakegc::Status merge_files_record(std::map<std::string, mdt::files_payload>& merged, const std::string& key,
                                  mdt::files_payload payload) {
  const auto it = merged.find(key);
  if (it == merged.end()) {
    merged.emplace(key, std::move(payload));
    return lakegc::Status();
  }
  auto combined = mdt::combine(std::move(it->second), payload, key);
  if (!combined.ok()) return combined.status();
  // What the newer record lists as present is present after the merge, at
  // least as large (a log file only grows).
  if (!combined->deleted_record) {
    for (const auto& [name, entry] : payload.entries) {
      if (entry.deleted) continue;
      const auto f = combined->entries.find(name);
      if (f == combined->entries.end() || f->second.deleted || f->second.size < entry.size) {
        lakegc::fuzz::fail("key '{}': file '{}' of the newer record is not present after the merge", key, name);
      }
    }
  }
  it->second = std::move(*combined);
  return lakegc::Status();
}

lakegc::Status files_of_base_file(std::string_view data) {
  auto records = lakegc::hudi::hfile::read_avro_hfile(data, "fuzz.hfile");
  if (!records.ok()) return records.status();
  std::map<std::string, mdt::files_payload> merged;
  for (const auto& r : *records) {
    auto payload = mdt::decode_files_record(r.record, r.key);
    if (!payload.ok()) return lakegc::fuzz::checked(payload.status());
    merged[r.key] = std::move(*payload);
  }
  return lakegc::Status();
}

lakegc::Status files_of_log_file(std::string_view data) {
  lakegc::memory_storage storage;
  const std::string path = "files/.files-0000-0_20240101000000000.log.1_0-1-1";
  if (auto st = storage.write_if_absent(path, data); !st.ok()) lakegc::fuzz::fail("memory storage: {}", st.ToString());
  const std::vector<std::string> logs = {path};
  auto scan = mdt::scan_logs(storage, std::span<const std::string>(logs),
                             [](std::string_view instant) { return lakegc::InstantTime::parse(instant).ok(); });
  if (!scan.ok()) return scan.status();
  std::map<std::string, mdt::files_payload> merged;
  for (const mdt::log_record& r : scan->records) {
    mdt::files_payload payload;
    if (r.record) {
      auto decoded = mdt::decode_files_record(*r.record, r.key);
      if (!decoded.ok()) return lakegc::fuzz::checked(decoded.status());
      payload = std::move(*decoded);
    } else {
      payload.deleted_record = true;
    }
    LAKEGC_RETURN_IF_ERROR(lakegc::fuzz::checked(merge_files_record(merged, r.key, std::move(payload))));
  }
  return lakegc::Status();
}

}  // namespace

LAKEGC_FUZZ_TARGET(metadata_table) {
  const lakegc::Status base = lakegc::fuzz::checked(files_of_base_file(data));
  const lakegc::Status log = lakegc::fuzz::checked(files_of_log_file(data));
  return base.ok() ? base : log;
}
