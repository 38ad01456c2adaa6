package lakegc.interop;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hudi.avro.model.HoodieRollbackPartitionMetadata;
import org.apache.hudi.client.SparkRDDWriteClient;
import org.apache.hudi.common.model.HoodieTableType;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.TableSchemaResolver;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructField;

/**
 * `continue DIR --commits N`: Hudi finishes pending clustering, then writes N
 * upserts of existing rows (ordering field + 1, a text column changed) with
 * its own inline services on (clean and archival by Hudi's defaults, inline
 * compaction every 2 delta commits on MOR). Must succeed on any table lakegc
 * has acted on. With --occ it writes as the writers of a multi-writer table
 * (generate's OCC tables) do: OCC, LAZY rollback of failed writes.
 * --conf K=V (repeatable) overrides the writer's options, e.g. archival
 * keep counts low enough that Hudi's own archiver runs on each write.
 */
final class Continue {
  private Continue() {}

  static ObjectNode run(Args a) throws Exception {
    String dir = Tables.check(a.table());
    int n = a.intOpt("--commits", 1, 1, 100);
    HoodieTableMetaClient mc = Env.metaClient(dir);
    Tables.clockAfterTable(mc);
    Map<String, String> opts = new LinkedHashMap<>(Tables.writeOptions(mc));
    if (a.flag("--occ")) opts.putAll(Tables.occOptions());
    opts.put("hoodie.clean.automatic", "true");
    opts.put("hoodie.archive.automatic", "true");
    if (mc.getTableConfig().getTableType() == HoodieTableType.MERGE_ON_READ) {
      opts.put("hoodie.compact.inline", "true");
      opts.put("hoodie.compact.inline.max.delta.commits", "2");
    }
    opts.putAll(a.confs());
    ObjectNode out = Json.obj();
    Set<String> before = keys(mc);
    String schema = new TableSchemaResolver(mc).getTableSchema(false).toString();
    // Roll back failed writes first (as `hudi-cli rollback` would): a
    // clustering finished before that would block Hudi's EAGER rollback.
    // (Under LAZY only those whose heartbeat expired.)
    HoodieWriteConfig cfg0 = HoodieWriteConfig.newBuilder().withPath(dir).withProps(opts).withSchema(schema).build();
    try (SparkRDDWriteClient<?> c = new SparkRDDWriteClient<>(Env.engine(), cfg0)) {
      out.put("rolled_back_failed_writes", c.rollbackFailedWrites(Env.metaClient(dir)));
    }
    mc = Env.metaClient(dir);
    // The log files those rollbacks wrote (table version 6: rollback command
    // blocks), by name relative to the table, so the suite can compare them.
    ArrayNode rollbackLogs = out.putArray("rollback_log_files");
    String base = new org.apache.hudi.storage.StoragePath(dir).toUri().getPath();
    for (HoodieInstant ri : mc.getActiveTimeline().getRollbackTimeline().filterCompletedInstants().getInstants()) {
      if (before.contains(ri.requestedTime() + "." + ri.getAction() + ".completed")) continue;
      for (HoodieRollbackPartitionMetadata pm : mc.getActiveTimeline().readRollbackMetadata(ri).getPartitionMetadata().values()) {
        if (pm.getRollbackLogFiles() == null) continue;
        for (String f : pm.getRollbackLogFiles().keySet()) {
          String path = new org.apache.hudi.storage.StoragePath(f).toUri().getPath();
          rollbackLogs.add(path.startsWith(base + "/") ? path.substring(base.length() + 1) : path);
        }
      }
    }
    List<HoodieInstant> pendingClustering = mc.getActiveTimeline().filterPendingReplaceOrClusteringTimeline().getInstants();
    if (!pendingClustering.isEmpty()) {
      HoodieWriteConfig cfg = HoodieWriteConfig.newBuilder().withPath(dir).withProps(opts).withSchema(schema).build();
      try (SparkRDDWriteClient<?> c = new SparkRDDWriteClient<>(Env.engine(), cfg)) {
        for (HoodieInstant i : pendingClustering) {
          if (org.apache.hudi.common.util.ClusteringUtils.isClusteringInstant(mc.getActiveTimeline(), i, mc.getInstantGenerator())) {
            c.cluster(i.requestedTime(), true);
          }
        }
      }
    }
    for (int i = 0; i < n; i++) upsertSome(dir, opts, i);
    ArrayNode ins = out.putArray("instants");
    for (String k : keys(Env.metaClient(dir))) if (!before.contains(k)) ins.add(k);
    out.put("commits", n);
    return out;
  }

  /** One upsert of 20 existing rows (ordering field + 1000000 + i, a text column changed) with `opts`. */
  static void upsertSome(String dir, Map<String, String> opts, int i) {
    HoodieTableMetaClient mc = Env.metaClient(dir);
    List<String> order = mc.getTableConfig().getOrderingFields();
    Set<String> fixed = new LinkedHashSet<>();
    mc.getTableConfig().getRecordKeyFields().ifPresent(f -> fixed.addAll(List.of(f)));
    mc.getTableConfig().getPartitionFields().ifPresent(f -> {
      for (String p : f) fixed.add(p.split(":")[0]);
    });
    Dataset<Row> df = Env.spark().read().format("hudi").option("hoodie.metadata.enable", "false").load(dir);
    List<Column> cols = new ArrayList<>();
    boolean changed = false;
    for (StructField f : df.schema().fields()) {
      String c = f.name();
      if (c.startsWith("_hoodie_")) continue;
      Column col = functions.col(c);
      if (order.contains(c) && f.dataType() instanceof NumericType) {
        col = col.plus(1000000 + i).cast(f.dataType());
      } else if (!changed && !fixed.contains(c) && f.dataType().equals(DataTypes.StringType)) {
        col = functions.lit("continue-" + i);
        changed = true;
      }
      cols.add(col.as(c));
    }
    Dataset<Row> rows = df.limit(20).select(cols.toArray(new Column[0]));
    Map<String, String> o = new LinkedHashMap<>(opts);
    o.put("hoodie.datasource.write.operation", "upsert");
    Clock.advance(60_000);
    rows.write().format("hudi").options(o).mode(SaveMode.Append).save(dir);
  }

  /**
   * `fail-after-mdt DIR`: a write that failed after its metadata-table
   * deltacommit completed and before its own commit did, as a crash between
   * the two leaves it: one upsert (inline services off), then its completed
   * instant file deleted and the markers its writer held until the commit
   * put back (DIRECT: CREATE for a new base file, MERGE for a rewritten one,
   * for a log file CREATE in table version 8+ and APPEND in 6, from its
   * commit metadata). Hudi's own rollback of
   * it (rollbackFailedWrites) rolls back the metadata table's deltacommit too.
   */
  static ObjectNode failAfterMdt(Args a) throws Exception {
    String dir = Tables.check(a.table());
    HoodieTableMetaClient mc = Env.metaClient(dir);
    Tables.clockAfterTable(mc);
    Map<String, String> opts = new LinkedHashMap<>(Tables.writeOptions(mc));
    opts.put("hoodie.clean.automatic", "false");
    opts.put("hoodie.archive.automatic", "false");
    opts.put("hoodie.compact.inline", "false");
    opts.putAll(a.confs());
    Set<String> before = keys(mc);
    upsertSome(dir, opts, 0);
    mc = Env.metaClient(dir);
    HoodieInstant written = null;
    for (HoodieInstant i : mc.getActiveTimeline().getCommitsTimeline().filterCompletedInstants().getInstants()) {
      if (!before.contains(i.requestedTime() + "." + i.getAction() + ".completed")) written = i;
    }
    if (written == null) throw new IllegalStateException("the upsert completed no instant");
    ObjectNode out = Json.obj();
    out.put("instant", written.requestedTime());
    out.put("action", written.getAction());
    org.apache.hudi.common.model.HoodieCommitMetadata md = mc.getActiveTimeline().readCommitMetadata(written);
    java.nio.file.Path markers = java.nio.file.Paths.get(dir, ".hoodie", ".temp", written.requestedTime());
    ArrayNode marked = out.putArray("markers");
    for (List<org.apache.hudi.common.model.HoodieWriteStat> stats : md.getPartitionToWriteStats().values()) {
      for (org.apache.hudi.common.model.HoodieWriteStat st : stats) {
        String name = new org.apache.hudi.storage.StoragePath(st.getPath()).getName();
        // Table version 8+ writes CREATE markers for log files too (each
        // deltacommit its own log file); version 6 APPEND.
        boolean v8 = mc.getTableConfig().getTableVersion().greaterThanOrEquals(org.apache.hudi.common.table.HoodieTableVersion.EIGHT);
        String type = org.apache.hudi.common.fs.FSUtils.isLogFile(name) ? (v8 ? "CREATE" : "APPEND")
            : (st.getPrevCommit() == null || "null".equals(st.getPrevCommit())) ? "CREATE" : "MERGE";
        java.nio.file.Path m = markers.resolve(st.getPath() + ".marker." + type);
        java.nio.file.Files.createDirectories(m.getParent());
        java.nio.file.Files.write(m, new byte[0]);
        marked.add(st.getPath() + ".marker." + type);
      }
    }
    String file = mc.getInstantFileNameGenerator().getFileName(written);
    java.nio.file.Files.delete(java.nio.file.Paths.get(mc.getTimelinePath().toUri().getPath(), file));
    out.put("unpublished", file);
    HoodieTableMetaClient mdt = Env.metaClient(dir + "/.hoodie/metadata");
    String state = "none";
    for (HoodieInstant i : mdt.getActiveTimeline().getDeltaCommitTimeline().getInstants()) {
      if (i.requestedTime().equals(written.requestedTime())) state = i.getState().name().toLowerCase();
    }
    out.put("metadata_table_deltacommit", state);
    return out;
  }

  static Set<String> keys(HoodieTableMetaClient mc) {
    Set<String> s = new LinkedHashSet<>();
    for (HoodieInstant i : mc.reloadActiveTimeline().getInstants()) {
      s.add(i.requestedTime() + "." + i.getAction() + "." + i.getState().name().toLowerCase());
    }
    return s;
  }
}
