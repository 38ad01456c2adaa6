// Fuzz target: every other Hudi timeline record decoder of
// hudi/metadata_codec.hpp (compaction and clustering plans, savepoint,
// cleaner plan, clean metadata) and the journal's rollback metadata decoder
// (hudi/rollback_records.hpp; the rollback_records target has the full
// records and their round trips), each fed the same bytes, as a
// loader that trusts a file's name to tell its kind would. Round trip where
// lakegc writes the record (the clean it performs, hudi/avro_writer.hpp):
// a plan or clean metadata that decoded and that the writer accepts decodes
// from the writer's bytes to itself.
#include <vector>

#include "../target.hpp"
#include "round_trip.hpp"
#include "lakegc/hudi/avro_writer.hpp"
#include "lakegc/hudi/metadata_codec.hpp"
#include "lakegc/hudi/rollback_records.hpp"

namespace {

std::optional<std::string> hudi_records_seed(const std::filesystem::path& relative, std::string_view contents) {
  return lakegc::fuzz::bytes_if(lakegc::fuzz::is_timeline_file(relative), contents);
}

}  // namespace

LAKEGC_FUZZ_TARGET(hudi_records) {
  namespace hudi = lakegc::hudi;
  const std::string_view file = "fuzz.instant";
  // OK when some decoder took the bytes, else the first decoder's error.
  std::vector<lakegc::Status> results = {
      hudi::decode_compaction_plan(data, file).status(),
      hudi::decode_clustering_plan(data, file).status(),
      hudi::decode_savepoint_metadata(data, file).status(),
      hudi::decode_rollback_metadata(data, file).status(),
  };
  auto plan = hudi::decode_cleaner_plan(data, file);
  results.push_back(plan.status());
  if (plan.ok()) {
    lakegc::fuzz::round_trip(*plan, hudi::encode_cleaner_plan, hudi::decode_cleaner_plan, "cleaner plan",
                             [](hudi::CleanerPlan p) {
                               // The writer fills in an empty state as COMPLETED (see CleanerPlan).
                               if (p.earliest_instant_to_retain && p.earliest_instant_to_retain_state.empty()) {
                                 p.earliest_instant_to_retain_state = "COMPLETED";
                               }
                               return p;
                             });
  }
  auto clean = hudi::decode_clean_metadata(data, file);
  results.push_back(clean.status());
  if (clean.ok()) {
    lakegc::fuzz::round_trip(*clean, hudi::encode_clean_metadata, hudi::decode_clean_metadata, "clean metadata");
  }
  for (const auto& st : results) {
    if (lakegc::fuzz::checked(st).ok()) return st;
  }
  return results.front();
}
