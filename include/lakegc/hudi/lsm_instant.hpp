// File: lakegc/hudi/lsm_instant.hpp
// -----------------------------------------------------------------------------
// One record of Hudi's LSM timeline (layout 2's archived timeline): Hudi's
// Avro record HoodieLSMTimelineInstant, one per archived instant, as
// parquet-avro stores it in a Parquet file (parquet/read.hpp and
// parquet/write.hpp: the columns are the record's fields):
//
//   instantTime     optional string  the instant's requested time
//   completionTime  optional string  when it completed
//   action          optional string  the completed action (a compaction
//                                    archives as commit, a clustering as
//                                    replacecommit, a log compaction as
//                                    deltacommit)
//   metadata        optional bytes   the completed instant file, as it was
//                                    (Avro in layout 2); null when empty
//   plan            optional bytes   the plan: a clean's requested file, a
//                                    (log) compaction's plan, a
//                                    replacecommit's requested (or, when not
//                                    empty, inflight) file
//   version         required int     1
//
// Hudi's readers dereference instantTime and action (a row without them
// fails Hudi's load) and take a missing completionTime as the instant time
// (ArchivedTimelineV2.completionTimeOrInstantTime); lakegc refuses the
// first and does the same as Hudi for the second.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/parquet/column.hpp"
#include "lakegc/hudi/parquet/read.hpp"
#include "lakegc/hudi/parquet/write.hpp"

namespace lakegc::hudi {

/// HoodieLSMTimelineInstant's schema text as Hudi 1.2's parquet-avro writes
/// it into the footer (key `parquet.avro.schema`), copied from a file Hudi
/// 1.2.0 wrote in the interop suite. parquet-avro reads it back to map the
/// columns onto the record.
inline constexpr std::string_view kLsmInstantSchema =
    R"({"type":"record","name":"HoodieLSMTimelineInstant","namespace":"org.apache.hudi.avro.model","fields":[)"
    R"({"name":"instantTime","type":["null",{"type":"string","avro.java.string":"String"}],"default":null},)"
    R"({"name":"completionTime","type":["null",{"type":"string","avro.java.string":"String"}],"default":null},)"
    R"({"name":"action","type":["null",{"type":"string","avro.java.string":"String"}],"default":null},)"
    R"({"name":"metadata","type":["null","bytes"],"default":null},)"
    R"({"name":"plan","type":["null","bytes"],"default":null},)"
    R"({"name":"version","type":"int","default":1}]})";

/// LSMTimeline.LSM_TIMELINE_INSTANT_VERSION_1.
inline constexpr std::int32_t kLsmInstantVersion = 1;

struct lsm_instant {
  std::string instant_time;
  std::optional<std::string> completion_time;
  std::string action;
  std::optional<std::string> metadata;
  std::optional<std::string> plan;
  std::int32_t version = kLsmInstantVersion;

  /// completionTime, or the instant time when the record has none (Hudi's
  /// completionTimeOrInstantTime).
  const std::string& completion_or_instant_time() const noexcept {
    return completion_time ? *completion_time : instant_time;
  }

  friend bool operator==(const lsm_instant&, const lsm_instant&) = default;
};

/// Which columns to read: the timeline alone (instantTime, completionTime,
/// action) or every field.
enum class lsm_columns : std::uint8_t { times_and_actions, all };

/// The records of one LSM timeline data file (its bytes); `where` names it.
[[nodiscard]] inline StatusOr<std::vector<lsm_instant>> decode_lsm_file(std::string_view bytes, std::string_view where,
                                                                        lsm_columns which = lsm_columns::all) {
  parquet::read_options o;
  o.columns = {"instantTime", "completionTime", "action"};
  if (which == lsm_columns::all) {
    o.columns.push_back("metadata");
    o.columns.push_back("plan");
    o.columns.push_back("version");
  }
  LAKEGC_ASSIGN_OR_RETURN(parquet::file_contents f, parquet::read_file(bytes, where, o));
  auto string_column = [&](std::string_view name, bool required) -> StatusOr<const parquet::column*> {
    const parquet::column* c = f.find(name);
    if (c == nullptr) {
      if (required)
        return absl::DataLossError(fmt::format("{}: no column '{}' (not an LSM timeline file?)", where, name));
      return c;
    }
    if (c->type != parquet::physical::byte_array) {
      return absl::DataLossError(fmt::format("{}: column '{}' is {}, HoodieLSMTimelineInstant has bytes there", where,
                                             name, parquet::physical_name(static_cast<std::int32_t>(c->type))));
    }
    return c;
  };
  LAKEGC_ASSIGN_OR_RETURN(const parquet::column* instant, string_column("instantTime", true));
  LAKEGC_ASSIGN_OR_RETURN(const parquet::column* completion, string_column("completionTime", false));
  LAKEGC_ASSIGN_OR_RETURN(const parquet::column* action, string_column("action", true));
  const parquet::column* metadata = nullptr;
  const parquet::column* plan = nullptr;
  const parquet::column* version = nullptr;
  if (which == lsm_columns::all) {
    LAKEGC_ASSIGN_OR_RETURN(metadata, string_column("metadata", false));
    LAKEGC_ASSIGN_OR_RETURN(plan, string_column("plan", false));
    version = f.find("version");
    if (version != nullptr && version->type != parquet::physical::int32) {
      return absl::DataLossError(fmt::format("{}: column 'version' is not an INT32", where));
    }
  }
  std::vector<lsm_instant> out;
  out.reserve(static_cast<std::size_t>(f.rows));
  for (std::size_t r = 0; r < static_cast<std::size_t>(f.rows); ++r) {
    lsm_instant i;
    if (!instant->bytes[r] || !action->bytes[r]) {
      return absl::DataLossError(fmt::format("{}: row {} has no {} (Hudi's reader fails on it)", where, r,
                                             instant->bytes[r] ? "action" : "instantTime"));
    }
    i.instant_time = *instant->bytes[r];
    i.action = *action->bytes[r];
    if (completion != nullptr) i.completion_time = completion->bytes[r];
    if (metadata != nullptr) i.metadata = metadata->bytes[r];
    if (plan != nullptr) i.plan = plan->bytes[r];
    if (version != nullptr) {
      // Avro's default when the column is null or absent.
      i.version = static_cast<std::int32_t>(version->ints[r].value_or(kLsmInstantVersion));
    }
    out.push_back(std::move(i));
  }
  return out;
}

/// The bytes of an LSM timeline data file holding `instants`, in that order,
/// as parquet-java reads it and as Hudi's readers map it onto the record:
/// the record's columns, footer keys `parquet.avro.schema` (Hudi's schema
/// text) and `writer.model.name` = `avro`, GZIP pages.
[[nodiscard]] inline StatusOr<std::string> encode_lsm_file(const std::vector<lsm_instant>& instants) {
  std::vector<parquet::column> cols(6);
  const char* names[] = {"instantTime", "completionTime", "action", "metadata", "plan", "version"};
  for (std::size_t k = 0; k < cols.size(); ++k) {
    cols[k].name = names[k];
    cols[k].utf8 = k < 3;
  }
  cols[5].type = parquet::physical::int32;
  cols[5].optional = false;
  for (const lsm_instant& i : instants) {
    cols[0].bytes.emplace_back(i.instant_time);
    cols[1].bytes.push_back(i.completion_time);
    cols[2].bytes.emplace_back(i.action);
    cols[3].bytes.push_back(i.metadata);
    cols[4].bytes.push_back(i.plan);
    cols[5].ints.emplace_back(i.version);
  }
  parquet::write_options o;
  o.root_name = "org.apache.hudi.avro.model.HoodieLSMTimelineInstant";
  o.key_value = {{"parquet.avro.schema", std::string(kLsmInstantSchema)}, {"writer.model.name", "avro"}};
  o.created_by = "lakegc (parquet subset for Hudi's LSM timeline)";
  return parquet::write_file(cols, o);
}

}  // namespace lakegc::hudi
