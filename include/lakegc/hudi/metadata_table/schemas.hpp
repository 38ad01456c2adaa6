// File: lakegc/hudi/metadata_table/schemas.hpp
// -----------------------------------------------------------------------------
// The Avro schemas a metadata-table deltacommit is written with, as Hudi
// 1.2.0 renders them (Avro Java's Schema.toString(), taken from files Hudi
// 1.2.0 wrote: the `schema` of a metadata deltacommit's extraMetadata, and
// the writer schema of a layout-2 `.deltacommit` container):
//
//  * metadata_record: HoodieMetadataRecord (HoodieMetadata.avsc), the
//    metadata table's write schema, which its commits name in
//    extraMetadata["schema"];
//  * metadata_record_with_meta_fields(): what a log block's SCHEMA header
//    holds, the same with Hudi's five `_hoodie_*` fields in front
//    (HoodieAvroUtils.addMetadataFields, as HoodieAppendHandle's writer
//    schema has them);
//  * commit_metadata: HoodieCommitMetadata (HoodieCommitMetadata.avsc), of
//    layout-2 deltacommit files.
#pragma once

#include <string>
#include <string_view>

namespace lakegc::hudi::metadata_table::schemas {

inline constexpr std::string_view metadata_record =
    R"lakegc({"type":"record","name":"HoodieMetadataRecord","namespace":"org.apache.hudi.avro.model","doc":"A record saved )lakegc"
    R"lakegc(within the Metadata Table","fields":[{"name":"key","type":{"type":"string","avro.java.string":"String"}},{"nam)lakegc"
    R"lakegc(e":"type","type":"int","doc":"Type of the metadata record"},{"name":"filesystemMetadata","type":["null",{"type)lakegc"
    R"lakegc(":"map","values":{"type":"record","name":"HoodieMetadataFileInfo","fields":[{"name":"size","type":"long","doc")lakegc"
    R"lakegc(:"Size of the file"},{"name":"isDeleted","type":"boolean","doc":"True if this file has been deleted"}]},"avro.)lakegc"
    R"lakegc(java.string":"String"}],"doc":"Contains information about partitions and files within the dataset"},{"name":"B)lakegc"
    R"lakegc(loomFilterMetadata","type":["null",{"type":"record","name":"HoodieMetadataBloomFilter","doc":"Data file bloom )lakegc"
    R"lakegc(filter details","fields":[{"name":"type","type":{"type":"string","avro.java.string":"String"},"doc":"Bloom fil)lakegc"
    R"lakegc(ter type code"},{"name":"timestamp","type":{"type":"string","avro.java.string":"String"},"doc":"Instant timest)lakegc"
    R"lakegc(amp when this metadata was created/updated"},{"name":"bloomFilter","type":"bytes","doc":"Bloom filter binary b)lakegc"
    R"lakegc(yte array"},{"name":"isDeleted","type":"boolean","doc":"Bloom filter entry valid/deleted flag"}]}],"doc":"Meta)lakegc"
    R"lakegc(data Index of bloom filters for all data files in the user table","default":null},{"name":"ColumnStatsMetadata)lakegc"
    R"lakegc(","type":["null",{"type":"record","name":"HoodieMetadataColumnStats","doc":"Data file column statistics","fiel)lakegc"
    R"lakegc(ds":[{"name":"fileName","type":["null",{"type":"string","avro.java.string":"String"}],"doc":"File name for whi)lakegc"
    R"lakegc(ch this column statistics applies","default":null},{"name":"columnName","type":["null",{"type":"string","avro.)lakegc"
    R"lakegc(java.string":"String"}],"doc":"Column name for which this column statistics applies","default":null},{"name":")lakegc"
    R"lakegc(minValue","type":["null",{"type":"record","name":"BooleanWrapper","doc":"A record wrapping boolean type to be )lakegc"
    R"lakegc(able to be used it w/in Avro's Union","fields":[{"name":"value","type":"boolean"}]},{"type":"record","name":"I)lakegc"
    R"lakegc(ntWrapper","doc":"A record wrapping int type to be able to be used it w/in Avro's Union","fields":[{"name":"va)lakegc"
    R"lakegc(lue","type":"int"}]},{"type":"record","name":"LongWrapper","doc":"A record wrapping long type to be able to be)lakegc"
    R"lakegc( used it w/in Avro's Union","fields":[{"name":"value","type":"long"}]},{"type":"record","name":"FloatWrapper",)lakegc"
    R"lakegc("doc":"A record wrapping float type to be able to be used it w/in Avro's Union","fields":[{"name":"value","typ)lakegc"
    R"lakegc(e":"float"}]},{"type":"record","name":"DoubleWrapper","doc":"A record wrapping double type to be able to be us)lakegc"
    R"lakegc(ed it w/in Avro's Union","fields":[{"name":"value","type":"double"}]},{"type":"record","name":"BytesWrapper",")lakegc"
    R"lakegc(doc":"A record wrapping bytes type to be able to be used it w/in Avro's Union","fields":[{"name":"value","type)lakegc"
    R"lakegc(":"bytes"}]},{"type":"record","name":"StringWrapper","doc":"A record wrapping string type to be able to be use)lakegc"
    R"lakegc(d it w/in Avro's Union","fields":[{"name":"value","type":{"type":"string","avro.java.string":"String"}}]},{"ty)lakegc"
    R"lakegc(pe":"record","name":"DateWrapper","doc":"A record wrapping Date logical type to be able to be used it w/in Avr)lakegc"
    R"lakegc(o's Union","fields":[{"name":"value","type":"int"}]},{"type":"record","name":"DecimalWrapper","doc":"A record )lakegc"
    R"lakegc(wrapping Decimal logical type to be able to be used it w/in Avro's Union","fields":[{"name":"value","type":{"t)lakegc"
    R"lakegc(ype":"bytes","logicalType":"decimal","precision":30,"scale":15}}]},{"type":"record","name":"TimeMicrosWrapper")lakegc"
    R"lakegc(,"doc":"A record wrapping Time-micros logical type to be able to be used it w/in Avro's Union","fields":[{"nam)lakegc"
    R"lakegc(e":"value","type":{"type":"long","logicalType":"time-micros"}}]},{"type":"record","name":"TimestampMicrosWrapp)lakegc"
    R"lakegc(er","doc":"A record wrapping Timestamp-micros logical type to be able to be used it w/in Avro's Union","fields)lakegc"
    R"lakegc(":[{"name":"value","type":"long"}]},{"type":"record","name":"LocalDateWrapper","doc":"A record wrapping Local )lakegc"
    R"lakegc(Date type to be able to be used it w/in Avro's Union","fields":[{"name":"value","type":"int"}]},{"type":"recor)lakegc"
    R"lakegc(d","name":"ArrayWrapper","doc":"A record containing a list of wrapped values.","fields":[{"name":"wrappedValue)lakegc"
    R"lakegc(s","type":["null",{"type":"array","items":["null","BooleanWrapper","IntWrapper","LongWrapper","FloatWrapper",")lakegc"
    R"lakegc(DoubleWrapper","BytesWrapper","StringWrapper","DateWrapper","DecimalWrapper","TimeMicrosWrapper","TimestampMic)lakegc"
    R"lakegc(rosWrapper","LocalDateWrapper"]}],"doc":"An array where each element is one of the supported wrapper types.",")lakegc"
    R"lakegc(default":null}]}],"doc":"Minimum value in the range. Based on user data table schema, we can convert this to a)lakegc"
    R"lakegc(ppropriate type","default":null},{"name":"maxValue","type":["null","BooleanWrapper","IntWrapper","LongWrapper")lakegc"
    R"lakegc(,"FloatWrapper","DoubleWrapper","BytesWrapper","StringWrapper","DateWrapper","DecimalWrapper","TimeMicrosWrapp)lakegc"
    R"lakegc(er","TimestampMicrosWrapper","LocalDateWrapper","ArrayWrapper"],"doc":"Maximum value in the range. Based on us)lakegc"
    R"lakegc(er data table schema, we can convert it to appropriate type","default":null},{"name":"valueCount","type":["nul)lakegc"
    R"lakegc(l","long"],"doc":"Total count of values","default":null},{"name":"nullCount","type":["null","long"],"doc":"Tot)lakegc"
    R"lakegc(al count of null values","default":null},{"name":"totalSize","type":["null","long"],"doc":"Total storage size )lakegc"
    R"lakegc(on disk","default":null},{"name":"totalUncompressedSize","type":["null","long"],"doc":"Total uncompressed stor)lakegc"
    R"lakegc(age size on disk","default":null},{"name":"isDeleted","type":"boolean","doc":"Column range entry valid/deleted)lakegc"
    R"lakegc( flag"},{"name":"isTightBound","type":"boolean","doc":"Whether the min/max range of a column is tight bound or)lakegc"
    R"lakegc( not","default":false},{"name":"valueType","type":["null",{"type":"record","name":"HoodieValueTypeInfo","field)lakegc"
    R"lakegc(s":[{"name":"typeOrdinal","type":"int","doc":"Enum type ordinal representing the value type"},{"name":"additio)lakegc"
    R"lakegc(nalInfo","type":["null",{"type":"string","avro.java.string":"String"}],"doc":"Optional additional information )lakegc"
    R"lakegc(about the value type","default":null}]}],"doc":"Value type information containing enum ordinal and optional ad)lakegc"
    R"lakegc(ditional information","default":null}]}],"doc":"Metadata Index of column statistics for all data files in the )lakegc"
    R"lakegc(user table","default":null},{"name":"recordIndexMetadata","type":["null",{"type":"record","name":"HoodieRecord)lakegc"
    R"lakegc(IndexInfo","fields":[{"name":"partitionName","type":["null",{"type":"string","avro.java.string":"String"}],"do)lakegc"
    R"lakegc(c":"Refers to the partition name the record belongs to","default":null},{"name":"fileIdHighBits","type":["null)lakegc"
    R"lakegc(","long"],"doc":"Refers to high 64 bits if the fileId is based on UUID format. \nA UUID based fileId is stored)lakegc"
    R"lakegc( as 3 pieces in RLI (fileIdHighBits, fileIdLowBits and fileIndex). \nFileID format is {UUID}-{fileIndex}.","de)lakegc"
    R"lakegc(fault":null},{"name":"fileIdLowBits","type":["null","long"],"doc":"Refers to low 64 bits if the fileId is base)lakegc"
    R"lakegc(d on UUID format. \nA UUID based fileId is stored as 3 pieces in RLI (fileIdHighBits, fileIdLowBits and fileIn)lakegc"
    R"lakegc(dex). \nFileID format is {UUID}-{fileIndex}.","default":null},{"name":"fileIndex","type":["null","int"],"doc":)lakegc"
    R"lakegc("Index representing file index which is used to re-construct UUID based fileID. Applicable when the fileId is )lakegc"
    R"lakegc(based on UUID format. \nA UUID based fileId is stored as 3 pieces in RLI (fileIdHighBits, fileIdLowBits and fi)lakegc"
    R"lakegc(leIndex). \nFileID format is {UUID}-{fileIndex}.","default":null},{"name":"fileId","type":["null",{"type":"str)lakegc"
    R"lakegc(ing","avro.java.string":"String"}],"doc":"Represents fileId of the location where record belongs to. When the )lakegc"
    R"lakegc(encoding is 1, fileID is stored in raw string format.","default":null},{"name":"instantTime","type":["null","l)lakegc"
    R"lakegc(ong"],"doc":"Epoch time in millisecond representing the commit time at which record was added","default":null})lakegc"
    R"lakegc(,{"name":"fileIdEncoding","type":"int","doc":"Represents fileId encoding. Possible values are 0 and 1. O repre)lakegc"
    R"lakegc(sents UUID based fileID, and 1 represents raw string format of the fileId. \nWhen the encoding is 0, reader ca)lakegc"
    R"lakegc(n deduce fileID from fileIdLowBits, fileIdHighBits and fileIndex.","default":0},{"name":"position","type":["nu)lakegc"
    R"lakegc(ll","long"],"doc":"Represents position of record within a file group for easier access. It will be used for in)lakegc"
    R"lakegc(dex lookup.","default":null}]}],"doc":"Metadata Index that contains information about record keys and their lo)lakegc"
    R"lakegc(cation in the dataset","default":null},{"name":"SecondaryIndexMetadata","type":["null",{"type":"record","name")lakegc"
    R"lakegc(:"HoodieSecondaryIndexInfo","fields":[{"name":"isDeleted","type":"boolean","doc":"True if this entry has been )lakegc"
    R"lakegc(deleted"}]}],"doc":"Metadata Index that contains information about secondary keys and the corresponding record)lakegc"
    R"lakegc( keys in the dataset","default":null}]})lakegc";

inline constexpr std::string_view commit_metadata =
    R"lakegc({"type":"record","name":"HoodieCommitMetadata","namespace":"org.apache.hudi.avro.model","fields":[{"name":"par)lakegc"
    R"lakegc(titionToWriteStats","type":["null",{"type":"map","values":{"type":"array","items":{"type":"record","name":"Hoo)lakegc"
    R"lakegc(dieWriteStat","fields":[{"name":"fileId","type":["null",{"type":"string","avro.java.string":"String"}],"defaul)lakegc"
    R"lakegc(t":null},{"name":"path","type":["null",{"type":"string","avro.java.string":"String"}],"default":null},{"name":)lakegc"
    R"lakegc("prevCommit","type":["null",{"type":"string","avro.java.string":"String"}],"default":null},{"name":"numWrites")lakegc"
    R"lakegc(,"type":["null","long"],"default":null},{"name":"numDeletes","type":["null","long"],"default":null},{"name":"n)lakegc"
    R"lakegc(umUpdateWrites","type":["null","long"],"default":null},{"name":"totalWriteBytes","type":["null","long"],"defau)lakegc"
    R"lakegc(lt":null},{"name":"totalWriteErrors","type":["null","long"],"default":null},{"name":"partitionPath","type":["n)lakegc"
    R"lakegc(ull",{"type":"string","avro.java.string":"String"}],"default":null},{"name":"totalLogRecords","type":["null",")lakegc"
    R"lakegc(long"],"default":null},{"name":"totalLogFiles","type":["null","long"],"default":null},{"name":"totalUpdatedRec)lakegc"
    R"lakegc(ordsCompacted","type":["null","long"],"default":null},{"name":"numInserts","type":["null","long"],"default":nu)lakegc"
    R"lakegc(ll},{"name":"totalLogBlocks","type":["null","long"],"default":null},{"name":"totalCorruptLogBlock","type":["nu)lakegc"
    R"lakegc(ll","long"],"default":null},{"name":"totalRollbackBlocks","type":["null","long"],"default":null},{"name":"file)lakegc"
    R"lakegc(SizeInBytes","type":["null","long"],"default":null},{"name":"logVersion","type":["null","int"],"default":null})lakegc"
    R"lakegc(,{"name":"logOffset","type":["null","long"],"default":null},{"name":"baseFile","type":["null",{"type":"string")lakegc"
    R"lakegc(,"avro.java.string":"String"}],"default":null},{"name":"logFiles","type":["null",{"type":"array","items":{"typ)lakegc"
    R"lakegc(e":"string","avro.java.string":"String"},"default":null}],"default":null},{"name":"cdcStats","type":["null",{")lakegc"
    R"lakegc(type":"map","values":"long","avro.java.string":"String","default":null}],"default":null},{"name":"prevBaseFile)lakegc"
    R"lakegc(","type":["null",{"type":"string","avro.java.string":"String"}],"default":null},{"name":"minEventTime","type":)lakegc"
    R"lakegc(["null","long"],"default":null},{"name":"maxEventTime","type":["null","long"],"default":null},{"name":"runtime)lakegc"
    R"lakegc(Stats","type":["null",{"type":"record","name":"HoodieRuntimeStats","fields":[{"name":"totalScanTime","type":[")lakegc"
    R"lakegc(null","long"],"default":null},{"name":"totalCreateTime","type":["null","long"],"default":null},{"name":"totalU)lakegc"
    R"lakegc(psertTime","type":["null","long"],"default":null}]}],"default":null},{"name":"totalLogFilesCompacted","type":[)lakegc"
    R"lakegc("null","long"],"default":null},{"name":"totalLogReadTimeMs","type":["null","long"],"default":null},{"name":"to)lakegc"
    R"lakegc(talLogSizeCompacted","type":["null","long"],"default":null},{"name":"tempPath","type":["null",{"type":"string")lakegc"
    R"lakegc(,"avro.java.string":"String"}],"default":null},{"name":"numUpdates","type":["null","long"],"default":null}]}},)lakegc"
    R"lakegc("avro.java.string":"String"}],"default":null},{"name":"compacted","type":["null","boolean"],"default":null},{")lakegc"
    R"lakegc(name":"extraMetadata","type":["null",{"type":"map","values":{"type":"string","avro.java.string":"String"},"avr)lakegc"
    R"lakegc(o.java.string":"String","default":null}],"default":null},{"name":"version","type":["int","null"],"default":1},)lakegc"
    R"lakegc({"name":"operationType","type":["null",{"type":"string","avro.java.string":"String"}],"default":null}]})lakegc";

/// HoodieAvroUtils.addMetadataFields's fields, as Hudi 1.2.0 renders them.
inline constexpr std::string_view meta_fields =
    R"({"name":"_hoodie_commit_time","type":["null","string"],"doc":"","default":null},)"
    R"({"name":"_hoodie_commit_seqno","type":["null","string"],"doc":"","default":null},)"
    R"({"name":"_hoodie_record_key","type":["null","string"],"doc":"","default":null},)"
    R"({"name":"_hoodie_partition_path","type":["null","string"],"doc":"","default":null},)"
    R"({"name":"_hoodie_file_name","type":["null","string"],"doc":"","default":null},)";

/// The SCHEMA header of a metadata-table log block.
inline std::string metadata_record_with_meta_fields() {
  std::string s(metadata_record);
  constexpr std::string_view fields = "\"fields\":[";
  s.insert(s.find(fields) + fields.size(), meta_fields);
  return s;
}

}  // namespace lakegc::hudi::metadata_table::schemas
