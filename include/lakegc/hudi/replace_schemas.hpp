// File: lakegc/hudi/replace_schemas.hpp
// -----------------------------------------------------------------------------
// The Avro schemas of a replacecommit's requested and completed files, as
// Hudi 1.2.0 writes them into the object container's header (copied from the
// `.replacecommit.requested` and completed `.replacecommit` of a DELETE_PARTITION
// that Hudi wrote in the interop suite). The in-flight file of layout 2 is a
// HoodieCommitMetadata (metadata_table/schemas.hpp, commit_metadata).
#pragma once

#include <string_view>

namespace lakegc::hudi::schemas {

/// HoodieRequestedReplaceMetadata (`<t>.replacecommit.requested`, every table version).
inline constexpr std::string_view requested_replace_metadata =
    R"lakegc({"type":"record","name":"HoodieRequestedReplaceMetadata","namespace":"org.apache.hudi.avro.model","fields":[{")lakegc"
    R"lakegc(name":"operationType","type":["null",{"type":"string","avro.java.string":"String"}],"default":null},{"name":"c)lakegc"
    R"lakegc(lusteringPlan","type":["null",{"type":"record","name":"HoodieClusteringPlan","fields":[{"name":"inputGroups",")lakegc"
    R"lakegc(type":["null",{"type":"array","items":{"type":"record","name":"HoodieClusteringGroup","fields":[{"name":"slice)lakegc"
    R"lakegc(s","type":["null",{"type":"array","items":{"type":"record","name":"HoodieSliceInfo","fields":[{"name":"dataFil)lakegc"
    R"lakegc(ePath","type":["null",{"type":"string","avro.java.string":"String"}],"default":null},{"name":"deltaFilePaths",)lakegc"
    R"lakegc("type":["null",{"type":"array","items":{"type":"string","avro.java.string":"String"}}],"default":null},{"name")lakegc"
    R"lakegc(:"fileId","type":["null",{"type":"string","avro.java.string":"String"}]},{"name":"partitionPath","type":["null)lakegc"
    R"lakegc(",{"type":"string","avro.java.string":"String"}],"default":null},{"name":"bootstrapFilePath","type":["null",{")lakegc"
    R"lakegc(type":"string","avro.java.string":"String"}],"default":null},{"name":"version","type":["int","null"],"default")lakegc"
    R"lakegc(:1}]}}],"default":null},{"name":"metrics","type":["null",{"type":"map","values":"double","avro.java.string":"S)lakegc"
    R"lakegc(tring"}],"default":null},{"name":"numOutputFileGroups","type":["int","null"],"default":1},{"name":"extraMetada)lakegc"
    R"lakegc(ta","type":["null",{"type":"map","values":{"type":"string","avro.java.string":"String"},"avro.java.string":"St)lakegc"
    R"lakegc(ring"}],"default":null},{"name":"version","type":["int","null"],"default":1}]}}],"default":null},{"name":"stra)lakegc"
    R"lakegc(tegy","type":["null",{"type":"record","name":"HoodieClusteringStrategy","fields":[{"name":"strategyClassName",)lakegc"
    R"lakegc("type":["null",{"type":"string","avro.java.string":"String"}],"default":null},{"name":"strategyParams","type":)lakegc"
    R"lakegc(["null",{"type":"map","values":{"type":"string","avro.java.string":"String"},"avro.java.string":"String"}],"de)lakegc"
    R"lakegc(fault":null},{"name":"version","type":["int","null"],"default":1}]}],"default":null},{"name":"extraMetadata",")lakegc"
    R"lakegc(type":["null",{"type":"map","values":{"type":"string","avro.java.string":"String"},"avro.java.string":"String")lakegc"
    R"lakegc(}],"default":null},{"name":"version","type":["int","null"],"default":1},{"name":"preserveHoodieMetadata","type)lakegc"
    R"lakegc(":["null","boolean"],"default":null},{"name":"missingSchedulePartitions","type":["null",{"type":"array","items)lakegc"
    R"lakegc(":{"type":"string","avro.java.string":"String"}}],"default":null}]}],"default":null},{"name":"extraMetadata",")lakegc"
    R"lakegc(type":["null",{"type":"map","values":{"type":"string","avro.java.string":"String"},"avro.java.string":"String")lakegc"
    R"lakegc(}],"default":null},{"name":"version","type":["int","null"],"default":1}]})lakegc";

/// HoodieReplaceCommitMetadata (completed replacecommit, layout 2).
inline constexpr std::string_view replace_commit_metadata =
    R"lakegc({"type":"record","name":"HoodieReplaceCommitMetadata","namespace":"org.apache.hudi.avro.model","fields":[{"nam)lakegc"
    R"lakegc(e":"partitionToWriteStats","type":["null",{"type":"map","values":{"type":"array","items":{"type":"record","nam)lakegc"
    R"lakegc(e":"HoodieWriteStat","fields":[{"name":"fileId","type":["null",{"type":"string","avro.java.string":"String"}],)lakegc"
    R"lakegc("default":null},{"name":"path","type":["null",{"type":"string","avro.java.string":"String"}],"default":null},{)lakegc"
    R"lakegc("name":"prevCommit","type":["null",{"type":"string","avro.java.string":"String"}],"default":null},{"name":"num)lakegc"
    R"lakegc(Writes","type":["null","long"],"default":null},{"name":"numDeletes","type":["null","long"],"default":null},{"n)lakegc"
    R"lakegc(ame":"numUpdateWrites","type":["null","long"],"default":null},{"name":"totalWriteBytes","type":["null","long"])lakegc"
    R"lakegc(,"default":null},{"name":"totalWriteErrors","type":["null","long"],"default":null},{"name":"partitionPath","ty)lakegc"
    R"lakegc(pe":["null",{"type":"string","avro.java.string":"String"}],"default":null},{"name":"totalLogRecords","type":[")lakegc"
    R"lakegc(null","long"],"default":null},{"name":"totalLogFiles","type":["null","long"],"default":null},{"name":"totalUpd)lakegc"
    R"lakegc(atedRecordsCompacted","type":["null","long"],"default":null},{"name":"numInserts","type":["null","long"],"defa)lakegc"
    R"lakegc(ult":null},{"name":"totalLogBlocks","type":["null","long"],"default":null},{"name":"totalCorruptLogBlock","typ)lakegc"
    R"lakegc(e":["null","long"],"default":null},{"name":"totalRollbackBlocks","type":["null","long"],"default":null},{"name)lakegc"
    R"lakegc(":"fileSizeInBytes","type":["null","long"],"default":null},{"name":"logVersion","type":["null","int"],"default)lakegc"
    R"lakegc(":null},{"name":"logOffset","type":["null","long"],"default":null},{"name":"baseFile","type":["null",{"type":")lakegc"
    R"lakegc(string","avro.java.string":"String"}],"default":null},{"name":"logFiles","type":["null",{"type":"array","items)lakegc"
    R"lakegc(":{"type":"string","avro.java.string":"String"},"default":null}],"default":null},{"name":"cdcStats","type":["n)lakegc"
    R"lakegc(ull",{"type":"map","values":"long","avro.java.string":"String","default":null}],"default":null},{"name":"prevB)lakegc"
    R"lakegc(aseFile","type":["null",{"type":"string","avro.java.string":"String"}],"default":null},{"name":"minEventTime",)lakegc"
    R"lakegc("type":["null","long"],"default":null},{"name":"maxEventTime","type":["null","long"],"default":null},{"name":")lakegc"
    R"lakegc(runtimeStats","type":["null",{"type":"record","name":"HoodieRuntimeStats","fields":[{"name":"totalScanTime","t)lakegc"
    R"lakegc(ype":["null","long"],"default":null},{"name":"totalCreateTime","type":["null","long"],"default":null},{"name":)lakegc"
    R"lakegc("totalUpsertTime","type":["null","long"],"default":null}]}],"default":null},{"name":"totalLogFilesCompacted",")lakegc"
    R"lakegc(type":["null","long"],"default":null},{"name":"totalLogReadTimeMs","type":["null","long"],"default":null},{"na)lakegc"
    R"lakegc(me":"totalLogSizeCompacted","type":["null","long"],"default":null},{"name":"tempPath","type":["null",{"type":")lakegc"
    R"lakegc(string","avro.java.string":"String"}],"default":null},{"name":"numUpdates","type":["null","long"],"default":nu)lakegc"
    R"lakegc(ll}]}},"avro.java.string":"String"}],"default":null},{"name":"compacted","type":["null","boolean"],"default":n)lakegc"
    R"lakegc(ull},{"name":"extraMetadata","type":["null",{"type":"map","values":{"type":"string","avro.java.string":"String)lakegc"
    R"lakegc("},"avro.java.string":"String"}],"default":null},{"name":"version","type":["int","null"],"default":1},{"name":)lakegc"
    R"lakegc("operationType","type":["null",{"type":"string","avro.java.string":"String"}],"default":null},{"name":"partiti)lakegc"
    R"lakegc(onToReplaceFileIds","type":["null",{"type":"map","values":{"type":"array","items":{"type":"string","avro.java.)lakegc"
    R"lakegc(string":"String"}},"avro.java.string":"String"}],"default":null}]})lakegc";

}  // namespace lakegc::hudi::schemas
