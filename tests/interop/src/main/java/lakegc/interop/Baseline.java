package lakegc.interop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.hudi.common.config.HoodieMetadataConfig;
import org.apache.hudi.common.fs.FSUtils;
import org.apache.hudi.common.model.FileSlice;
import org.apache.hudi.common.model.HoodieLogFile;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieActiveTimeline;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.table.view.FileSystemViewManager;
import org.apache.hudi.common.table.view.HoodieTableFileSystemView;
import org.apache.hudi.common.util.ClusteringUtils;
import org.apache.hudi.common.util.CompactionUtils;
import org.apache.hudi.metadata.HoodieBackedTableMetadata;
import org.apache.hudi.storage.StoragePath;
import org.apache.hudi.storage.StoragePathInfo;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;

/**
 * `baseline DIR` and `verify DIR --baseline FILE [--promised T,...]`: what the
 * table reads as (order-independent checksum and row count) at the latest
 * instant, at every completed write instant (time travel) and incrementally
 * from each; then Hudi re-reads everything and checks the table against it.
 */
final class Baseline {
  private Baseline() {}

  static ObjectNode checksum(Dataset<Row> df) {
    ObjectNode o = Json.obj();
    try {
      List<Column> cols = Arrays.stream(df.columns()).filter(c -> !c.startsWith("_hoodie_")).sorted()
          .map(functions::col).collect(Collectors.toList());
      Row r = df.select(functions.xxhash64(cols.toArray(new Column[0])).cast("decimal(38,0)").as("h"))
          .agg(functions.count("*"), functions.sum("h")).first();
      o.put("rows", r.getLong(0));
      o.put("checksum", r.isNullAt(1) ? "0" : r.getDecimal(1).toPlainString());
    } catch (Exception | LinkageError e) {
      o.put("error", Main.describe(e));
    }
    return o;
  }

  static Dataset<Row> read(String dir, Map<String, String> opts) {
    return Env.spark().read().format("hudi").options(opts)
        .option("hoodie.metadata.enable", "false")
        .option("hoodie.datasource.read.incr.fallback.fulltablescan.enable", "false")
        .load(dir);
  }

  static List<String> writeInstants(HoodieTableMetaClient mc) {
    List<String> out = new ArrayList<>();
    for (HoodieInstant i : mc.getActiveTimeline().getCommitsTimeline().filterCompletedInstants().getInstants()) {
      out.add(i.requestedTime());
    }
    return out;
  }

  static ObjectNode baseline(Args a) {
    String dir = Tables.check(a.table());
    HoodieTableMetaClient mc = Env.metaClient(dir);
    ObjectNode out = Json.obj();
    out.set("latest", checksum(read(dir, Map.of())));
    ObjectNode asOf = out.putObject("as_of");
    ObjectNode incr = out.putObject("incremental");
    for (String t : writeInstants(mc)) {
      asOf.set(t, checksum(read(dir, Map.of("as.of.instant", t))));
      incr.set(t, checksum(read(dir, Map.of("hoodie.datasource.query.type", "incremental",
          "hoodie.datasource.read.begin.instanttime", t))));
    }
    return out;
  }

  static ObjectNode verify(Args a) {
    String dir = Tables.check(a.table());
    JsonNode base = Json.file(a, "--baseline");
    List<String> promised = new ArrayList<>();
    if (a.last("--promised") != null && !a.last("--promised").isBlank()) {
      promised.addAll(Arrays.asList(a.last("--promised").split(",")));
    }
    ArrayNode diffs = Json.arr();
    ObjectNode checked = Json.obj();
    HoodieTableMetaClient mc;
    try {
      mc = Env.metaClient(dir);
    } catch (Exception e) {
      diffs.add("cannot load the table: " + Main.describe(e));
      return result(diffs, checked);
    }
    checked.put("instants", loadTimeline(mc, diffs));
    ObjectNode latest = checksum(read(dir, Map.of()));
    if (!same(latest, base.get("latest"))) {
      diffs.add("latest snapshot: baseline " + base.get("latest") + ", now " + latest);
    }
    for (String t : promised) {
      JsonNode want = base.path("as_of").get(t);
      if (want == null) {
        diffs.add("promised instant " + t + " is not in the baseline");
        continue;
      }
      ObjectNode got = checksum(read(dir, Map.of("as.of.instant", t)));
      if (!same(got, want)) diffs.add("time travel as of " + t + ": baseline " + want + ", now " + got);
    }
    checked.put("promised", promised.size());
    if (mc.getTableConfig().isMetadataTableAvailable()) {
      checked.put("metadata_table_partitions", validateMetadataTable(mc, diffs));
    }
    return result(diffs, checked);
  }

  static boolean same(JsonNode a, JsonNode b) {
    if (a == null || b == null) return false;
    return a.path("rows").asLong(-1) == b.path("rows").asLong(-2)
        && a.path("checksum").asText("a").equals(b.path("checksum").asText("b"))
        && !a.has("error") && !b.has("error");
  }

  static ObjectNode result(ArrayNode diffs, ObjectNode checked) {
    ObjectNode o = Json.obj();
    o.put("ok", diffs.isEmpty());
    o.set("differences", diffs);
    o.set("checked", checked);
    return o;
  }

  /** Deserialises every instant of the active and the archived timeline. */
  static int loadTimeline(HoodieTableMetaClient mc, ArrayNode diffs) {
    HoodieActiveTimeline tl = mc.getActiveTimeline();
    int n = 0;
    for (HoodieInstant i : tl.getInstants()) {
      n++;
      try {
        String action = i.getAction();
        boolean done = i.isCompleted();
        switch (action) {
          case HoodieTimeline.COMMIT_ACTION, HoodieTimeline.DELTA_COMMIT_ACTION -> {
            if (done) tl.readCommitMetadata(i);
          }
          case HoodieTimeline.REPLACE_COMMIT_ACTION, HoodieTimeline.CLUSTERING_ACTION -> {
            if (done) tl.readReplaceCommitMetadata(i);
            else if (ClusteringUtils.isClusteringInstant(tl, i, mc.getInstantGenerator())) {
              ClusteringUtils.getClusteringPlan(mc, i);
            }
          }
          case HoodieTimeline.CLEAN_ACTION -> {
            if (done) tl.readCleanMetadata(i);
            else tl.readCleanerPlan(mc.getInstantGenerator().getCleanRequestedInstant(i.requestedTime()));
          }
          case HoodieTimeline.ROLLBACK_ACTION -> {
            if (done) tl.readRollbackMetadata(i);
          }
          case HoodieTimeline.SAVEPOINT_ACTION -> {
            if (done) tl.readSavepointMetadata(i);
          }
          case HoodieTimeline.RESTORE_ACTION -> {
            if (done) tl.readRestoreMetadata(i);
          }
          case HoodieTimeline.COMPACTION_ACTION, HoodieTimeline.LOG_COMPACTION_ACTION -> {
            CompactionUtils.getCompactionPlan(mc, i.requestedTime());
          }
          default -> { }
        }
      } catch (Exception e) {
        diffs.add("cannot read instant " + i + ": " + Main.describe(e));
      }
    }
    try {
      var archived = mc.getArchivedTimeline();
      archived.loadCompletedInstantDetailsInMemory();
      n += archived.countInstants();
    } catch (Exception e) {
      diffs.add("cannot load the archived timeline: " + Main.describe(e));
    }
    return n;
  }

  /**
   * The metadata table against storage, per partition: the partitions it
   * lists, the files its `files` partition lists (each must exist), and the
   * file slices of a view built on it against one built on a storage listing.
   */
  static int validateMetadataTable(HoodieTableMetaClient mc, ArrayNode diffs) {
    HoodieTimeline tl = mc.getActiveTimeline().filterCompletedAndCompactionInstants();
    HoodieMetadataConfig on = HoodieMetadataConfig.newBuilder().enable(true).build();
    HoodieMetadataConfig off = HoodieMetadataConfig.newBuilder().enable(false).build();
    int n = 0;
    try (HoodieBackedTableMetadata mdt = new HoodieBackedTableMetadata(Env.engine(), mc.getStorage(), on,
        mc.getBasePath().toString())) {
      Set<String> fsParts = new TreeSet<>(FSUtils.getAllPartitionPaths(Env.engine(), mc, off));
      Set<String> mdtParts = new TreeSet<>(mdt.getAllPartitionPaths());
      if (!fsParts.equals(mdtParts)) {
        diffs.add("metadata table partitions " + mdtParts + ", storage " + fsParts);
      }
      HoodieTableFileSystemView fsv = FileSystemViewManager.createInMemoryFileSystemViewWithTimeline(Env.engine(), mc, off, tl);
      HoodieTableFileSystemView mdv = FileSystemViewManager.createInMemoryFileSystemViewWithTimeline(Env.engine(), mc, on, tl);
      try {
        for (String p : fsParts) {
          n++;
          StoragePath full = p.isEmpty() ? mc.getBasePath() : new StoragePath(mc.getBasePath(), p);
          if (mdtParts.contains(p)) {
            for (StoragePathInfo f : mdt.getAllFilesInPartition(full)) {
              if (!mc.getStorage().exists(f.getPath())) {
                diffs.add("metadata table lists " + p + "/" + f.getPath().getName() + ", which is not on storage");
              }
            }
          }
          Map<String, String> a = slices(fsv, p);
          Map<String, String> b = slices(mdv, p);
          if (!a.equals(b)) {
            Set<String> keys = new TreeSet<>(a.keySet());
            keys.addAll(b.keySet());
            for (String k : keys) {
              if (!String.valueOf(a.get(k)).equals(String.valueOf(b.get(k)))) {
                diffs.add("partition " + p + " slice " + k + ": storage view " + a.get(k) + ", metadata-table view " + b.get(k));
              }
            }
          }
        }
      } finally {
        fsv.close();
        mdv.close();
      }
    } catch (Exception e) {
      diffs.add("metadata table validation failed: " + Main.describe(e));
    }
    return n;
  }

  static Map<String, String> slices(HoodieTableFileSystemView v, String p) {
    Map<String, String> out = new TreeMap<>();
    v.getAllFileGroups(p).forEach(g -> g.getAllFileSlices().forEach((FileSlice s) -> {
      List<String> names = new ArrayList<>();
      s.getBaseFile().ifPresent(b -> names.add(b.getFileName()));
      s.getLogFiles().map(HoodieLogFile::getFileName).sorted().forEach(names::add);
      out.put(g.getFileGroupId().getFileId() + "@" + s.getBaseInstantTime(), String.join(",", names));
    }));
    return out;
  }
}
