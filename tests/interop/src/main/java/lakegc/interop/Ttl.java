package lakegc.interop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hudi.avro.model.HoodieRequestedReplaceMetadata;
import org.apache.hudi.client.SparkRDDWriteClient;
import org.apache.hudi.common.model.HoodieCommitMetadata;
import org.apache.hudi.common.model.HoodieReplaceCommitMetadata;
import org.apache.hudi.common.model.WriteOperationType;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.table.HoodieSparkTable;
import org.apache.hudi.table.HoodieTable;
import org.apache.hudi.table.action.ttl.strategy.HoodiePartitionTTLStrategyFactory;
import org.apache.hudi.table.action.ttl.strategy.PartitionTTLStrategy;
import org.apache.spark.sql.Row;

/**
 * Partition TTL executed by Hudi, and lakegc's executed TTL read by Hudi:
 *
 *   ttl-run DIR --now T [--conf K=V ...] [--in-place]   on a copy (or on DIR itself): Hudi's TTL service at instant T
 *       (the requested replacecommit as BaseHoodieTableServiceClient.startDeletePartitionCommit
 *       writes it, then SparkRDDWriteClient.managePartitionTTL(T)), and the replacecommit it left;
 *   replace-metadata DIR --instant T       the replacecommit T as Hudi's timeline reads it
 *       (requested, inflight, completed);
 *   ttl-plans DIR --setting JSON ...       Hudi's expired partitions (HoodiePartitionTTLStrategyFactory:
 *       KeepByTimeStrategy / KeepByCreationTimeStrategy getExpiredPartitionPaths) for each setting
 *       {"now": T, "conf": {K: V}}, read in place (the strategies only read) with one meta client;
 *   snapshot-partitions DIR                the partitions (and rows) Hudi's snapshot read returns.
 */
final class Ttl {
  private Ttl() {}

  static ObjectNode dispatch(String cmd, List<String> rest) throws Exception {
    switch (cmd) {
      case "ttl-run": return run(new Args(cmd, rest, Set.of("--conf", "--now"), Set.of("--in-place")));
      case "replace-metadata": return metadata(new Args(cmd, rest, Set.of("--instant"), Set.of()));
      case "ttl-plans": return plans(new Args(cmd, rest, Set.of("--setting"), Set.of()));
      default: return snapshotPartitions(new Args(cmd, rest, Set.of(), Set.of()));
    }
  }

  static ObjectNode run(Args a) throws Exception {
    String dir = Tables.check(a.table());
    String instant = a.last("--now");
    if (instant == null) throw new BadInput("ttl-run: --now T is required (the TTL replacecommit's instant)");
    boolean inPlace = a.flag("--in-place");
    Path copy = inPlace ? Path.of(dir) : Tables.copy(dir);
    String base = copy.toString();
    try {
      HoodieTableMetaClient mc = Env.metaClient(base);
      Tables.clockAfterTable(mc);
      Tables.instantToMs(instant, mc.getTableConfig().getTimelineTimezone());
      Map<String, String> confs = new TreeMap<>(a.confs());
      // The services a write client runs after a commit do not change the
      // TTL replacecommit; they only cost time here.
      confs.putIfAbsent("hoodie.clean.automatic", "false");
      confs.putIfAbsent("hoodie.archive.automatic", "false");
      // As an inline TTL runs it, inside a writer whose config has the
      // table's schema: the replacecommit records it (a run without one
      // writes "schema": "", and Hudi's metadata writer then derives no
      // partition statistics to delete).
      confs.putIfAbsent("hoodie.avro.schema",
          new org.apache.hudi.common.table.TableSchemaResolver(mc).getTableSchema(false).toString());
      HoodieWriteConfig cfg = Plans.config(base, mc, confs);
      HoodieInstant requested = mc.getInstantGenerator().createNewInstant(HoodieInstant.State.REQUESTED,
          HoodieTimeline.REPLACE_COMMIT_ACTION, instant);
      mc.getActiveTimeline().saveToPendingReplaceCommit(requested, HoodieRequestedReplaceMetadata.newBuilder()
          .setOperationType(WriteOperationType.DELETE_PARTITION.name()).setExtraMetadata(Collections.emptyMap()).build());
      try (SparkRDDWriteClient<?> client = new SparkRDDWriteClient<>(Env.engine(), cfg)) {
        client.managePartitionTTL(instant);
      }
      return describe(Env.metaClient(base), instant);
    } finally {
      if (!inPlace) Tables.delete(copy);
    }
  }

  static ObjectNode plans(Args a) throws Exception {
    String dir = Tables.check(a.table());
    HoodieTableMetaClient mc = Env.metaClient(dir);
    Tables.clockAfterTable(mc);
    ObjectNode out = Json.obj();
    ArrayNode results = out.putArray("results");
    for (String setting : a.all("--setting")) {
      JsonNode s = Json.parse(setting);
      String instant = s.path("now").asText(null);
      if (instant == null) throw new BadInput("ttl-plans: a --setting without \"now\"");
      Map<String, String> confs = new TreeMap<>();
      s.path("conf").fields().forEachRemaining(e -> confs.put(e.getKey(), e.getValue().asText()));
      ObjectNode r = results.addObject();
      r.put("now", instant);
      try {
        Tables.instantToMs(instant, mc.getTableConfig().getTimelineTimezone());
        HoodieWriteConfig cfg = Plans.config(dir, mc, confs);
        HoodieTable<?, ?, ?, ?> table = HoodieSparkTable.create(cfg, Env.engine(), mc);
        PartitionTTLStrategy st = HoodiePartitionTTLStrategyFactory.createStrategy(table, cfg.getProps(), instant);
        r.put("strategy", st.getClass().getSimpleName());
        ArrayNode arr = r.putArray("expired_partitions");
        new TreeSet<>(st.getExpiredPartitionPaths()).forEach(arr::add);
      } catch (Exception e) {
        r.put("error", Main.describe(e));
      }
    }
    return out;
  }

  static ObjectNode metadata(Args a) throws Exception {
    String dir = Tables.check(a.table());
    String instant = a.last("--instant");
    if (instant == null) throw new BadInput("replace-metadata: --instant T is required");
    return describe(Env.metaClient(dir), instant);
  }

  /** The replacecommit `instant` in each state Hudi finds it. */
  static ObjectNode describe(HoodieTableMetaClient mc, String instant) throws Exception {
    HoodieTimeline tl = mc.reloadActiveTimeline();
    ObjectNode out = Json.obj();
    out.put("instant", instant);
    for (HoodieInstant i : tl.getInstants()) {
      if (!i.requestedTime().equals(instant)) continue;
      out.put("action", i.getAction());
      out.put("state", i.getState().name().toLowerCase());
    }
    HoodieInstant req = mc.getInstantGenerator().createNewInstant(HoodieInstant.State.REQUESTED,
        HoodieTimeline.REPLACE_COMMIT_ACTION, instant);
    HoodieRequestedReplaceMetadata rm = tl.readRequestedReplaceMetadata(req);
    ObjectNode r = out.putObject("requested");
    r.put("operationType", String.valueOf(rm.getOperationType()));
    r.put("clusteringPlan", rm.getClusteringPlan() == null ? "null" : "present");
    r.put("extraMetadata", rm.getExtraMetadata() == null ? "null" : rm.getExtraMetadata().toString());
    HoodieInstant inf = mc.getInstantGenerator().createNewInstant(HoodieInstant.State.INFLIGHT,
        HoodieTimeline.REPLACE_COMMIT_ACTION, instant);
    HoodieCommitMetadata im = tl.readCommitMetadata(inf);
    ObjectNode n = out.putObject("inflight");
    n.put("operationType", String.valueOf(im.getOperationType()));
    n.put("writeStats", im.getPartitionToWriteStats().size());
    HoodieInstant done = tl.filterCompletedInstants().getInstantsAsStream()
        .filter(i -> i.requestedTime().equals(instant)).findFirst().orElse(null);
    if (done != null) {
      HoodieReplaceCommitMetadata cm = tl.readReplaceCommitMetadata(done);
      ObjectNode c = out.putObject("completed");
      c.put("operationType", String.valueOf(cm.getOperationType()));
      c.put("writeStats", cm.getPartitionToWriteStats().size());
      c.put("has_schema", cm.getExtraMetadata().containsKey(HoodieCommitMetadata.SCHEMA_KEY));
      ObjectNode p = c.putObject("partitionToReplaceFileIds");
      for (Map.Entry<String, List<String>> e : new TreeMap<>(cm.getPartitionToReplaceFileIds()).entrySet()) {
        ArrayNode ids = p.putArray(e.getKey());
        new TreeSet<>(e.getValue()).forEach(ids::add);
      }
    }
    return out;
  }

  static ObjectNode snapshotPartitions(Args a) throws Exception {
    String dir = Tables.check(a.table());
    ObjectNode out = Json.obj();
    List<Row> rows = Baseline.read(dir, Map.of()).groupBy("_hoodie_partition_path").count().collectAsList();
    ObjectNode parts = out.putObject("partitions");
    long total = 0;
    TreeMap<String, Long> sorted = new TreeMap<>();
    for (Row r : rows) sorted.put(r.isNullAt(0) ? "" : r.getString(0), r.getLong(1));
    for (Map.Entry<String, Long> e : sorted.entrySet()) {
      parts.put(e.getKey(), e.getValue());
      total += e.getValue();
    }
    out.put("rows", total);
    return out;
  }
}
