package lakegc.interop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hudi.avro.model.HoodieCleanMetadata;
import org.apache.hudi.avro.model.HoodieCleanPartitionMetadata;
import org.apache.hudi.avro.model.HoodieMetadataColumnStats;
import org.apache.hudi.client.SparkRDDWriteClient;
import org.apache.hudi.common.bloom.BloomFilter;
import org.apache.hudi.common.data.HoodieListData;
import org.apache.hudi.common.model.HoodieRecord;
import org.apache.hudi.common.fs.FSUtils;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.util.Lazy;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.common.util.collection.Pair;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.metadata.ColumnStatsIndexPrefixRawKey;
import org.apache.hudi.metadata.HoodieBackedTableMetadata;
import org.apache.hudi.metadata.HoodieMetadataPayload;
import org.apache.hudi.metadata.HoodieIndexVersion;
import org.apache.hudi.metadata.HoodieTableMetadataUtil;
import org.apache.hudi.storage.StoragePath;

/**
 * `clean-run`: Hudi's own clean of a table, in place, as a writer's inline
 * clean runs it (the table's write options plus --conf), so the suite can
 * compare what Hudi's clean does with what lakegc's does on two copies.
 *
 * `index-state`: what the metadata table's column_stats and bloom_filters
 * partitions hold for a list of data files, and partition_stats per
 * partition (read through Hudi's metadata reader, the one its data skipping,
 * partition pruning and bloom index use), and the columns Hudi's clean
 * deletes column stats of (HoodieTableMetadataUtil's own rule).
 */
final class Indexes {
  private Indexes() {}

  static ObjectNode cleanRun(Args a) throws Exception {
    String dir = Tables.check(a.table());
    HoodieTableMetaClient mc = Env.metaClient(dir);
    Tables.clockAfterTable(mc);
    ObjectNode out = Json.obj();
    try {
      out.put("now", Plans.planningNow(a, mc));
      HoodieWriteConfig cfg = Plans.config(dir, mc, a.confs());
      try (SparkRDDWriteClient<?> client = new SparkRDDWriteClient<>(Env.engine(), cfg)) {
        HoodieCleanMetadata m = client.clean();
        if (m == null) {
          out.putNull("clean_instant");
          out.putObject("deleted");
          return out;
        }
        out.put("clean_instant", m.getStartCleanTime());
        out.put("earliest_commit_to_retain", m.getEarliestCommitToRetain());
        ObjectNode deleted = out.putObject("deleted");
        TreeMap<String, HoodieCleanPartitionMetadata> sorted = new TreeMap<>(m.getPartitionMetadata());
        sorted.forEach((p, pm) -> {
          ArrayNode arr = deleted.putArray(p);
          new TreeSet<>(pm.getSuccessDeleteFiles()).forEach(arr::add);
        });
      }
    } finally {
      Clock.setPlanningNow(null);
    }
    return out;
  }

  static ObjectNode state(Args a) throws Exception {
    String dir = Tables.check(a.table());
    JsonNode files = Json.file(a, "--files");
    HoodieTableMetaClient mc = Env.metaClient(dir);
    HoodieWriteConfig cfg = Plans.config(dir, mc, Map.of());
    Set<String> parts = mc.getTableConfig().getMetadataPartitions();
    List<Pair<String, String>> all = new ArrayList<>();
    List<Pair<String, String>> bases = new ArrayList<>();
    for (JsonNode f : files) {
      String rel = f.asText();
      int slash = rel.lastIndexOf('/');
      Pair<String, String> pf = Pair.of(slash < 0 ? "" : rel.substring(0, slash), rel.substring(slash + 1));
      all.add(pf);
      if (FSUtils.isBaseFile(new StoragePath(pf.getRight()))) bases.add(pf);
    }
    ObjectNode out = Json.obj();
    out.set("metadata_partitions", Json.M.valueToTree(new TreeSet<>(parts)));
    if (!mc.getTableConfig().isMetadataTableAvailable()) return out;
    try (HoodieBackedTableMetadata mdt = new HoodieBackedTableMetadata(Env.engine(), mc.getStorage(),
        cfg.getMetadataConfig(), mc.getBasePath().toString())) {
      if (parts.contains("column_stats")) {
        HoodieIndexVersion v = HoodieTableMetadataUtil.existingIndexVersionOrDefault("column_stats", mc);
        List<String> cols = new ArrayList<>(HoodieTableMetadataUtil.getColumnsToIndex(mc.getTableConfig(),
            cfg.getMetadataConfig(), Lazy.lazily(() -> HoodieTableMetadataUtil.tryResolveSchemaForTable(mc)), false,
            Option.of(cfg.getRecordMerger().getRecordType()), v).keySet());
        out.put("index_version", v.name());
        out.set("columns", Json.M.valueToTree(cols));
        ObjectNode stats = out.putObject("column_stats");
        if (!all.isEmpty() && !cols.isEmpty()) {
          TreeMap<String, TreeSet<String>> byFile = new TreeMap<>();
          for (Map.Entry<Pair<String, String>, List<HoodieMetadataColumnStats>> e : mdt.getColumnStats(all, cols).entrySet()) {
            TreeSet<String> c = byFile.computeIfAbsent(path(e.getKey()), k -> new TreeSet<>());
            for (HoodieMetadataColumnStats s : e.getValue()) {
              if (!s.getIsDeleted()) c.add(s.getColumnName());
            }
          }
          byFile.forEach((k, c) -> {
            if (!c.isEmpty()) stats.set(k, Json.M.valueToTree(c));
          });
        }
      }
      if (parts.contains("partition_stats")) {
        // Per partition, the columns with live statistics (a prefix lookup
        // per column, as partition pruning reads them).
        HoodieIndexVersion v = HoodieTableMetadataUtil.existingIndexVersionOrDefault("partition_stats", mc);
        List<String> cols = new ArrayList<>(HoodieTableMetadataUtil.getColumnsToIndex(mc.getTableConfig(),
            cfg.getMetadataConfig(), Lazy.lazily(() -> HoodieTableMetadataUtil.tryResolveSchemaForTable(mc)), false,
            Option.of(cfg.getRecordMerger().getRecordType()), v).keySet());
        TreeMap<String, TreeSet<String>> byPartition = new TreeMap<>();
        for (String col : cols) {
          for (HoodieRecord<HoodieMetadataPayload> r : mdt.getRecordsByKeyPrefixes(
              HoodieListData.eager(List.of(new ColumnStatsIndexPrefixRawKey(col))), "partition_stats", true).collectAsList()) {
            HoodieMetadataColumnStats st = r.getData().getColumnStatMetadata().orElse(null);
            if (st != null && !st.getIsDeleted()) {
              byPartition.computeIfAbsent(st.getFileName(), k -> new TreeSet<>()).add(st.getColumnName());
            }
          }
        }
        out.set("partition_stats", Json.M.valueToTree(byPartition));
      }
      if (parts.contains("bloom_filters")) {
        TreeSet<String> have = new TreeSet<>();
        if (!bases.isEmpty()) {
          for (Map.Entry<Pair<String, String>, BloomFilter> e : mdt.getBloomFilters(bases).entrySet()) {
            if (e.getValue() != null) have.add(path(e.getKey()));
          }
        }
        out.set("bloom_filters", Json.M.valueToTree(have));
      }
    }
    return out;
  }

  static String path(Pair<String, String> pf) {
    return pf.getLeft().isEmpty() ? pf.getRight() : pf.getLeft() + "/" + pf.getRight();
  }
}
