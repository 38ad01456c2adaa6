// Fuzz target: the two records of a rollback instant
// (hudi/rollback_records.hpp): HoodieRollbackPlan (`.rollback.requested`,
// decode_rollback_plan) and HoodieRollbackMetadata (the completed
// `.rollback`, decode_rollback_metadata_record), each fed the same bytes.
// Round trip where lakegc writes them (`lakegc rollback --execute`): a
// record that decoded and that the writer accepts decodes from the writer's
// bytes to itself.
#include "../target.hpp"
#include "round_trip.hpp"
#include "lakegc/hudi/rollback_records.hpp"

namespace {

std::optional<std::string> rollback_records_seed(const std::filesystem::path& relative, std::string_view contents) {
  return lakegc::fuzz::bytes_if(
      lakegc::fuzz::is_timeline_file(relative) && relative.filename().string().find(".rollback") != std::string::npos,
      contents);
}

}  // namespace

LAKEGC_FUZZ_TARGET(rollback_records) {
  namespace hudi = lakegc::hudi;
  const std::string_view file = "fuzz.rollback";
  auto plan = hudi::decode_rollback_plan(data, file);
  if (plan.ok())
    lakegc::fuzz::round_trip(*plan, hudi::encode_rollback_plan, hudi::decode_rollback_plan, "rollback plan");
  auto meta = hudi::decode_rollback_metadata_record(data, file);
  if (meta.ok()) {
    lakegc::fuzz::round_trip(*meta, hudi::encode_rollback_metadata, hudi::decode_rollback_metadata_record,
                             "rollback metadata");
  }
  if (lakegc::fuzz::checked(plan.status()).ok()) return plan.status();
  return lakegc::fuzz::checked(meta.status());
}
