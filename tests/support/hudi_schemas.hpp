// HoodieSavepointMetadata and HoodieCompactionPlan writer schemas with the
// fields lakegc reads: tests and the benchmark generator write savepoints and
// compaction plans with them (decoders read fields by name, so a subset
// schema is a valid writer schema).
#pragma once

#include <string_view>

namespace lakegc::testing {

inline constexpr std::string_view kSavepointSchema =
    R"({"type":"record","name":"HoodieSavepointMetadata","namespace":"org.apache.hudi.avro.model","fields":[)"
    R"({"name":"savepointedBy","type":"string"},{"name":"savepointedAt","type":"long"},)"
    R"({"name":"comments","type":"string"},)"
    R"({"name":"partitionMetadata","type":{"type":"map","values":{"type":"record",)"
    R"("name":"HoodieSavepointPartitionMetadata","fields":[{"name":"partitionPath","type":"string"},)"
    R"({"name":"savepointDataFile","type":{"type":"array","items":"string"}}]}}},)"
    R"({"name":"version","type":["int","null"],"default":1}]})";

inline constexpr std::string_view kCompactionSchema =
    R"({"type":"record","name":"HoodieCompactionPlan","namespace":"org.apache.hudi.avro.model","fields":[)"
    R"({"name":"operations","type":["null",{"type":"array","items":{"type":"record","name":"HoodieCompactionOperation",)"
    R"("fields":[{"name":"baseInstantTime","type":["null","string"]},)"
    R"({"name":"deltaFilePaths","type":["null",{"type":"array","items":"string"}],"default":null},)"
    R"({"name":"dataFilePath","type":["null","string"],"default":null},)"
    R"({"name":"fileId","type":["null","string"]},)"
    R"({"name":"partitionPath","type":["null","string"],"default":null}]}}],"default":null},)"
    R"({"name":"version","type":["int","null"],"default":1}]})";

}  // namespace lakegc::testing
