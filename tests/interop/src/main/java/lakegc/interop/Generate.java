package lakegc.interop;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hudi.avro.model.HoodieCleanMetadata;
import org.apache.hudi.client.HoodieWriteResult;
import org.apache.hudi.client.SparkRDDWriteClient;
import org.apache.hudi.client.WriteStatus;
import org.apache.hudi.common.model.DefaultHoodieRecordPayload;
import org.apache.hudi.common.model.HoodieAvroRecord;
import org.apache.hudi.common.model.HoodieCommitMetadata;
import org.apache.hudi.common.model.HoodieKey;
import org.apache.hudi.common.model.HoodieRecord;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.TableSchemaResolver;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * `generate --seed N --out DIR ...`: a real table written by Hudi through Spark
 * under a scenario the seed draws. Data operations go through the Spark
 * datasource (as users write); table services, savepoints, TTL and the failed
 * write go through SparkRDDWriteClient (as Hudi's procedures and tools call
 * them). Virtual time moves minutes to hours between operations (see Clock).
 */
final class Generate {
  static final StructType SCHEMA = new StructType()
      .add("key", DataTypes.StringType, false)
      .add("part", DataTypes.StringType, true)
      .add("region", DataTypes.StringType, true)
      .add("day", DataTypes.StringType, true)
      .add("ts", DataTypes.LongType, false)
      .add("val", DataTypes.StringType, true)
      .add("n", DataTypes.IntegerType, true);

  static final String[][] PARTITION_VALUES = {
      {"p0", "p1", "p2", "p3"},
      {"2024/01/01", "2024/01/02", "2024/02/01", "2025/01/01"},
      {"eu|d1", "eu|d2", "us|d1", "us|d2"},
  };
  static final long MIN = 60_000L;
  static final long HOUR = 60 * MIN;
  /** Virtual time between operations; now and then a day off (partition TTL has days). */
  static final long[] GAPS = {2 * MIN, 15 * MIN, HOUR, 2 * HOUR, 5 * HOUR, 2 * MIN, 15 * MIN, 26 * HOUR};

  final long seed;
  final Random rnd;
  final String out;
  final int version;
  final boolean mor;
  final boolean mdt;
  /** The metadata table's indexes besides `files`: "files" (none), "stats" (column_stats and
   * partition_stats, Hudi 1.2's default), "bloom" (those and bloom_filters). */
  final String mdtIndexes;
  final boolean partitioned;
  final int scheme;
  final boolean hive;
  final boolean utc;
  final boolean occ;
  final int nPartitions;
  final Map<String, String> base = new LinkedHashMap<>();
  String avroSchema;

  final ObjectNode log = Json.obj();
  final ArrayNode ops;
  final ArrayNode errors;
  final ArrayNode failedWrites;
  /** key -> partition value index; live rows of the table. */
  final TreeMap<String, Integer> live = new TreeMap<>();
  final Set<String> savepoints = new LinkedHashSet<>();
  int nextKey = 0;
  long ts = 0;
  /**
   * A write is pending (a failed write, or the requested replacecommit
   * Hudi's inline TTL leaves when nothing expired). With a single writer
   * (EAGER rollback) the next operation must be a write: a table service
   * committed after it (clustering, compaction) would make Hudi refuse the
   * rollback for good ("Found commits after time ..., please rollback greater
   * commits first", BaseRollbackActionExecutor.validateRollbackCommitSequence).
   */
  boolean pendingWrite = false;

  Generate(Args a) {
    seed = Long.parseLong(req(a, "--seed"));
    rnd = new Random(seed * 0x9E3779B97F4A7C15L + 12345);
    out = new File(req(a, "--out")).getAbsoluteFile().toPath().normalize().toString();
    version = a.last("--table-version") == null ? new int[] {6, 8, 9}[rnd.nextInt(3)] : a.intOpt("--table-version", 9, 6, 9);
    if (version == 7) throw new BadInput("generate: --table-version must be 6, 8 or 9");
    mor = pick(a, "--type", "COW", "MOR");
    mdt = pick(a, "--mdt", "off", "on");
    // Drawn from a generator of its own, so that adding the draw changed no
    // other draw of a seed's table.
    String idx = a.last("--mdt-indexes");
    if (idx == null) idx = new String[] {"files", "stats", "bloom"}[new Random(seed * 31 + 7).nextInt(3)];
    if (!java.util.List.of("files", "stats", "bloom").contains(idx)) {
      throw new BadInput("generate: --mdt-indexes must be files, stats or bloom");
    }
    mdtIndexes = mdt ? idx : "files";
    partitioned = pick(a, "--partitioned", "off", "on") || (a.last("--partitioned") == null && rnd.nextInt(4) != 0);
    scheme = rnd.nextInt(3);
    hive = rnd.nextBoolean();
    utc = rnd.nextBoolean();
    boolean occDraw = rnd.nextInt(3) == 0;
    occ = a.last("--occ") == null ? occDraw : pickGiven(a, "--occ");
    nPartitions = partitioned ? 2 + rnd.nextInt(3) : 1;
    ops = log.putArray("ops");
    errors = log.putArray("errors");
    failedWrites = log.putArray("failed_writes");
  }

  static String req(Args a, String k) {
    String v = a.last(k);
    if (v == null) throw new BadInput("generate: " + k + " is required");
    return v;
  }

  static boolean pickGiven(Args a, String key) {
    String v = a.last(key);
    if (v.equalsIgnoreCase("on")) return true;
    if (v.equalsIgnoreCase("off")) return false;
    throw new BadInput("generate: " + key + " must be on or off");
  }

  boolean pick(Args a, String key, String no, String yes) {
    String v = a.last(key);
    if (v == null) return rnd.nextBoolean();
    if (v.equalsIgnoreCase(yes)) return true;
    if (v.equalsIgnoreCase(no)) return false;
    throw new BadInput("generate: " + key + " must be " + no + " or " + yes);
  }

  static ObjectNode run(Args a) throws Exception {
    Generate g = new Generate(a);
    int nOps = a.intOpt("--ops", 0, 0, 200);
    boolean strays = !"off".equals(a.get("--strays", "on"));
    return g.generate(nOps == 0 ? 8 + g.rnd.nextInt(7) : nOps, strays);
  }

  // ---------------------------------------------------------------- options

  void baseOptions() {
    base.putAll(Tables.fastOptions());
    base.put("hoodie.table.name", "lakegc_interop_" + seed);
    base.put("hoodie.datasource.write.table.type", mor ? "MERGE_ON_READ" : "COPY_ON_WRITE");
    base.put("hoodie.datasource.write.recordkey.field", "key");
    base.put("hoodie.datasource.write.precombine.field", "ts");
    base.put("hoodie.write.table.version", String.valueOf(version));
    base.put("hoodie.metadata.enable", String.valueOf(mdt));
    // The data table archives no further than the metadata table compacted.
    if (mdt) base.put("hoodie.metadata.compact.max.delta.commits", "3");
    if (!mdtIndexes.equals("files")) {
      base.put("hoodie.metadata.index.column.stats.enable", "true");
      base.put("hoodie.metadata.index.partition.stats.enable", "true");
    }
    if (mdtIndexes.equals("bloom")) base.put("hoodie.metadata.index.bloom.filter.enable", "true");
    base.put("hoodie.table.timeline.timezone", utc ? "UTC" : "LOCAL");
    base.put("hoodie.datasource.write.hive_style_partitioning", String.valueOf(hive));
    if (!partitioned) {
      base.put("hoodie.datasource.write.partitionpath.field", "");
      base.put("hoodie.datasource.write.keygenerator.class", "org.apache.hudi.keygen.NonpartitionedKeyGenerator");
    } else if (scheme == 2) {
      // Two partition fields. (ComplexKeyGenerator with one record key field
      // is refused by Hudi 1.2's HUDI-7001 validation.)
      base.put("hoodie.datasource.write.partitionpath.field", "region:SIMPLE,day:SIMPLE");
      base.put("hoodie.datasource.write.keygenerator.class", "org.apache.hudi.keygen.CustomKeyGenerator");
    } else {
      base.put("hoodie.datasource.write.partitionpath.field", "part");
      base.put("hoodie.datasource.write.keygenerator.class", "org.apache.hudi.keygen.SimpleKeyGenerator");
    }
    // New inserts go to new file groups or pack small ones, drawn per table.
    base.put("hoodie.parquet.small.file.limit", rnd.nextBoolean() ? "0" : "104857600");
    if (occ) {
      base.putAll(Tables.occOptions());
      // failed writes stay failed (not rolled back by a LAZY clean) while the scenario runs
      base.put("hoodie.client.heartbeat.tolerable.misses", "60");
    }
    // Hudi's own services, drawn per table: inline clean, archival, compaction.
    ObjectNode s = log.putObject("settings");
    s.put("hive_style", hive);
    s.put("timezone", utc ? "UTC" : "LOCAL");
    s.put("partition_scheme", new String[] {"part=pN", "part=yyyy/mm/dd", "region/day"}[scheme]);
    s.put("partitions", nPartitions);
    s.put("occ_two_writers", occ);
    s.put("small_file_limit", base.get("hoodie.parquet.small.file.limit"));
    Map<String, String> clean = rnd.nextBoolean() ? drawClean() : Map.of("hoodie.clean.automatic", "false");
    base.putAll(clean);
    s.set("inline_clean", Json.M.valueToTree(clean));
    Map<String, String> archive = new LinkedHashMap<>();
    if (rnd.nextBoolean()) {
      // Archival only passes instants a clean has let go of: clean inline too.
      if (clean.get("hoodie.clean.automatic").equals("false")) {
        clean = new LinkedHashMap<>();
        clean.put("hoodie.clean.automatic", "true");
        clean.put("hoodie.clean.policy", "KEEP_LATEST_COMMITS");
        clean.put("hoodie.clean.commits.retained", String.valueOf(1 + rnd.nextInt(3)));
        base.putAll(clean);
        s.set("inline_clean", Json.M.valueToTree(clean));
      }
      int retained = Integer.parseInt(clean.getOrDefault("hoodie.clean.commits.retained", "3"));
      int min = Math.max(retained + 1, 3 + rnd.nextInt(3));
      archive.put("hoodie.archive.automatic", "true");
      archive.put("hoodie.keep.min.commits", String.valueOf(min));
      archive.put("hoodie.keep.max.commits", String.valueOf(min + 1 + rnd.nextInt(3)));
    } else {
      archive.put("hoodie.archive.automatic", "false");
    }
    base.putAll(archive);
    s.set("inline_archive", Json.M.valueToTree(archive));
    if (mor && rnd.nextBoolean()) {
      base.put("hoodie.compact.inline", "true");
      base.put("hoodie.compact.inline.max.delta.commits", String.valueOf(2 + rnd.nextInt(3)));
    } else {
      base.put("hoodie.compact.inline", "false");
    }
    s.put("inline_compaction", base.get("hoodie.compact.inline").equals("true")
        ? base.get("hoodie.compact.inline.max.delta.commits") : "off");
  }

  /** A clean configuration as users set it. */
  Map<String, String> drawClean() {
    Map<String, String> c = new LinkedHashMap<>();
    c.put("hoodie.clean.automatic", "true");
    int p = rnd.nextInt(10);
    if (p < 6) {
      c.put("hoodie.clean.policy", "KEEP_LATEST_COMMITS");
      c.put("hoodie.clean.commits.retained", String.valueOf(1 + rnd.nextInt(4)));
    } else if (p < 8) {
      c.put("hoodie.clean.policy", "KEEP_LATEST_FILE_VERSIONS");
      c.put("hoodie.clean.fileversions.retained", String.valueOf(1 + rnd.nextInt(3)));
    } else {
      c.put("hoodie.clean.policy", "KEEP_LATEST_BY_HOURS");
      c.put("hoodie.clean.hours.retained", String.valueOf(1 + rnd.nextInt(8)));
    }
    c.put("hoodie.clean.incremental.enabled", String.valueOf(rnd.nextInt(5) != 0));
    return c;
  }

  // ---------------------------------------------------------------- data

  String partitionValue(int i) {
    return PARTITION_VALUES[scheme][i];
  }

  String partitionPath(int i) {
    if (!partitioned) return "";
    String v = partitionValue(i);
    if (scheme == 2) {
      String[] rd = v.split("\\|");
      return hive ? "region=" + rd[0] + "/day=" + rd[1] : rd[0] + "/" + rd[1];
    }
    return hive ? "part=" + v : v;
  }

  Row row(String key, int p) {
    String v = partitionValue(p);
    String region = scheme == 2 ? v.split("\\|")[0] : "r" + (p % 2);
    String day = scheme == 2 ? v.split("\\|")[1] : "d" + p;
    String part = scheme == 2 ? "x" : v;
    ts++;
    return RowFactory.create(key, part, region, day, ts, "v" + ts, rnd.nextInt(1000));
  }

  int randomPartition() {
    return partitioned ? rnd.nextInt(nPartitions) : 0;
  }

  List<Row> newRows(int n, int fixedPartition) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String k = String.format("k%05d", nextKey++);
      int p = fixedPartition >= 0 ? fixedPartition : randomPartition();
      live.put(k, p);
      rows.add(row(k, p));
    }
    return rows;
  }

  List<String> sampleKeys(int n) {
    List<String> keys = new ArrayList<>(live.keySet());
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n && !keys.isEmpty(); i++) out.add(keys.remove(rnd.nextInt(keys.size())));
    return out;
  }

  List<Integer> livePartitions() {
    return new ArrayList<>(new java.util.TreeSet<>(live.values()));
  }

  // ---------------------------------------------------------------- writers

  Set<String> timelineKeys() {
    Set<String> s = new LinkedHashSet<>();
    if (!new File(out, ".hoodie/hoodie.properties").isFile()) return s;
    for (HoodieInstant i : Env.metaClient(out).getActiveTimeline().getInstants()) {
      s.add(i.requestedTime() + "." + i.getAction() + "." + i.getState().name().toLowerCase());
    }
    return s;
  }

  void dsWrite(String operation, List<Row> rows, Map<String, String> extra) {
    Dataset<Row> df = Env.spark().createDataFrame(rows, SCHEMA).repartition(rows.isEmpty() ? 1 : 2);
    Map<String, String> o = new LinkedHashMap<>(base);
    o.putAll(extra);
    o.put("hoodie.datasource.write.operation", operation);
    df.write().format("hudi").options(o).mode(SaveMode.Append).save(out);
  }

  SparkRDDWriteClient<DefaultHoodieRecordPayload> client(Map<String, String> extra) {
    Map<String, String> o = new LinkedHashMap<>(base);
    o.putAll(extra);
    HoodieWriteConfig cfg = HoodieWriteConfig.newBuilder().withPath(out).withProps(o).withSchema(schema()).build();
    return new SparkRDDWriteClient<>(Env.engine(), cfg);
  }

  String schema() {
    if (avroSchema == null) {
      try {
        avroSchema = new TableSchemaResolver(Env.metaClient(out)).getTableSchema(false).toString();
      } catch (Exception e) {
        throw new IllegalStateException("cannot read the table schema", e);
      }
    }
    return avroSchema;
  }

  HoodieTableMetaClient mc() {
    return Env.metaClient(out);
  }

  List<String> completedWrites() {
    List<String> out = new ArrayList<>();
    for (HoodieInstant i : mc().getActiveTimeline().getCommitsTimeline().filterCompletedInstants().getInstants()) {
      out.add(i.requestedTime());
    }
    return out;
  }

  // ---------------------------------------------------------------- operations

  interface Op {
    void run(ObjectNode rec) throws Exception;
  }

  void step(String name, long gap, Op op) {
    Clock.advance(gap);
    ObjectNode rec = ops.addObject();
    rec.put("op", name);
    rec.put("virtual_time", Tables.msToInstant(Clock.currentTimeMillis(), utc
        ? org.apache.hudi.common.model.HoodieTimelineTimeZone.UTC : org.apache.hudi.common.model.HoodieTimelineTimeZone.LOCAL));
    Set<String> before = timelineKeys();
    long t0 = System.currentTimeMillis();
    try {
      op.run(rec);
      rec.put("ok", true);
    } catch (Exception e) {
      rec.put("ok", false);
      rec.put("error", Main.describe(e));
      if (!rec.path("expected_failure").asBoolean(false)) {
        errors.add(name + ": " + Main.describe(e));
        System.err.println("generate seed " + seed + ": " + name + " failed: " + Main.describe(e));
      }
    }
    Set<String> after = timelineKeys();
    ArrayNode ins = rec.putArray("instants");
    for (String k : after) if (!before.contains(k)) ins.add(k);
    rec.put("ms", System.currentTimeMillis() - t0);
  }

  long gap() {
    return GAPS[rnd.nextInt(GAPS.length)] + rnd.nextInt(60_000);
  }

  void insert(ObjectNode rec) {
    int n = 10 + rnd.nextInt(25);
    boolean bulk = rnd.nextInt(4) == 0;
    rec.put("operation", bulk ? "bulk_insert" : "insert");
    rec.put("rows", n);
    dsWrite(bulk ? "bulk_insert" : "insert", newRows(n, -1), Map.of());
  }

  void upsert(ObjectNode rec, Map<String, String> extra) {
    List<Row> rows = new ArrayList<>();
    for (String k : sampleKeys(5 + rnd.nextInt(20))) rows.add(row(k, live.get(k)));
    int updates = rows.size();
    rows.addAll(newRows(rnd.nextInt(8), -1));
    rec.put("updates", updates);
    rec.put("inserts", rows.size() - updates);
    dsWrite("upsert", rows, extra);
  }

  void delete(ObjectNode rec) {
    List<Row> rows = new ArrayList<>();
    for (String k : sampleKeys(1 + rnd.nextInt(6))) {
      rows.add(row(k, live.get(k)));
      live.remove(k);
    }
    rec.put("rows", rows.size());
    dsWrite("delete", rows, Map.of());
  }

  void insertOverwrite(ObjectNode rec) {
    int p = randomPartition();
    live.values().removeIf(v -> v == p);
    rec.put("partition", partitionPath(p));
    dsWrite("insert_overwrite", newRows(5 + rnd.nextInt(10), p), Map.of());
  }

  void insertOverwriteTable(ObjectNode rec) {
    live.clear();
    dsWrite("insert_overwrite_table", newRows(10 + rnd.nextInt(15), -1), Map.of());
  }

  void deletePartition(ObjectNode rec) {
    List<Integer> parts = livePartitions();
    int p = parts.get(rnd.nextInt(parts.size()));
    live.values().removeIf(v -> v == p);
    rec.put("partition", partitionPath(p));
    dsWrite("delete_partition", List.of(), Map.of("hoodie.datasource.write.partitions.to.delete", partitionPath(p)));
  }

  void cluster(ObjectNode rec, boolean execute) {
    Map<String, String> c = new LinkedHashMap<>();
    c.put("hoodie.clustering.plan.strategy.small.file.limit", "104857600");
    c.put("hoodie.clustering.plan.strategy.target.file.max.bytes", "1073741824");
    c.put("hoodie.clustering.plan.strategy.max.num.groups", String.valueOf(1 + rnd.nextInt(4)));
    c.put("hoodie.clean.automatic", "false");
    try (SparkRDDWriteClient<DefaultHoodieRecordPayload> cl = client(c)) {
      Option<String> t = cl.scheduleClustering(Option.empty());
      rec.put("scheduled", t.isPresent() ? t.get() : null);
      if (t.isPresent() && execute) cl.cluster(t.get(), true);
    }
  }

  void compact(ObjectNode rec, boolean execute) {
    Map<String, String> c = new LinkedHashMap<>();
    c.put("hoodie.compact.inline.max.delta.commits", "1");
    c.put("hoodie.clean.automatic", "false");
    try (SparkRDDWriteClient<DefaultHoodieRecordPayload> cl = client(c)) {
      Option<String> t = cl.scheduleCompaction(Option.empty());
      rec.put("scheduled", t.isPresent() ? t.get() : null);
      if (t.isPresent() && execute) cl.compact(t.get(), true);
    }
  }

  void savepoint(ObjectNode rec) throws IOException {
    HoodieTableMetaClient m = mc();
    String floor = "";
    Option<HoodieInstant> lastClean = m.getActiveTimeline().getCleanerTimeline().filterCompletedInstants().lastInstant();
    if (lastClean.isPresent()) {
      HoodieCleanMetadata cm = m.getActiveTimeline().readCleanMetadata(lastClean.get());
      if (cm.getEarliestCommitToRetain() != null) floor = cm.getEarliestCommitToRetain().toString();
    }
    List<String> cands = new ArrayList<>();
    for (String t : completedWrites()) if (t.compareTo(floor) >= 0 && !savepoints.contains(t)) cands.add(t);
    if (cands.isEmpty()) {
      rec.put("skipped", "no commit to savepoint");
      return;
    }
    String t = cands.get(Math.max(0, cands.size() - 1 - rnd.nextInt(Math.min(3, cands.size()))));
    rec.put("savepoint", t);
    try (SparkRDDWriteClient<DefaultHoodieRecordPayload> cl = client(Map.of())) {
      cl.savepoint(t, "lakegc-interop", "seed " + seed);
    }
    savepoints.add(t);
  }

  void deleteSavepoint(ObjectNode rec) {
    List<String> sp = new ArrayList<>(savepoints);
    String t = sp.get(rnd.nextInt(sp.size()));
    rec.put("savepoint", t);
    try (SparkRDDWriteClient<DefaultHoodieRecordPayload> cl = client(Map.of())) {
      cl.deleteSavepoint(t);
    }
    savepoints.remove(t);
  }

  void clean(ObjectNode rec) {
    Map<String, String> c = drawClean();
    rec.set("settings", Json.M.valueToTree(c));
    try (SparkRDDWriteClient<DefaultHoodieRecordPayload> cl = client(c)) {
      HoodieCleanMetadata m = cl.clean();
      rec.put("files_deleted", m == null ? 0 : m.getTotalFilesDeleted());
    }
  }

  void archive(ObjectNode rec) {
    Map<String, String> c = new LinkedHashMap<>();
    int min = 2 + rnd.nextInt(4);
    c.put("hoodie.keep.min.commits", String.valueOf(min));
    c.put("hoodie.keep.max.commits", String.valueOf(min + 1 + rnd.nextInt(2)));
    c.put("hoodie.clean.commits.retained", String.valueOf(Math.max(1, min - 1)));
    c.put("hoodie.clean.automatic", "false");
    rec.set("settings", Json.M.valueToTree(c));
    try (SparkRDDWriteClient<DefaultHoodieRecordPayload> cl = client(c)) {
      cl.archive();
    }
  }

  /**
   * An upsert with Hudi's inline partition TTL (KEEP_BY_TIME): after the
   * commit Hudi requests a replacecommit and deletes the expired partitions;
   * when none expired, that requested instant is left behind (Hudi 1.2's
   * inline TTL does not complete or remove it; the next write rolls it back).
   */
  void ttl(ObjectNode rec) throws IOException {
    Map<String, String> c = new LinkedHashMap<>();
    c.put("hoodie.partition.ttl.inline", "true");
    c.put("hoodie.partition.ttl.management.strategy.type", "KEEP_BY_TIME");
    c.put("hoodie.partition.ttl.strategy.days.retain", "1");
    // Hudi runs inline TTL only when some other inline service is on
    // (BaseHoodieTableServiceClient.runTableServicesInline returns early
    // unless HoodieWriteConfig.areAnyTableServicesExecutedInline(), which does
    // not count TTL): keep Hudi's default inline clean on for this write.
    if (!"true".equals(base.get("hoodie.clean.automatic"))) {
      c.put("hoodie.clean.automatic", "true");
      c.put("hoodie.clean.policy", "KEEP_LATEST_COMMITS");
      c.put("hoodie.clean.commits.retained", "10");
    }
    rec.set("settings", Json.M.valueToTree(c));
    Set<String> before = timelineKeys();
    upsert(rec, c);
    HoodieTableMetaClient m = mc();
    ArrayNode parts = rec.putArray("expired");
    for (HoodieInstant i : m.getActiveTimeline().getCompletedReplaceTimeline().getInstants()) {
      if (before.contains(i.requestedTime() + "." + i.getAction() + ".completed")) continue;
      for (String p : m.getActiveTimeline().readReplaceCommitMetadata(i).getPartitionToReplaceFileIds().keySet()) {
        parts.add(p);
        for (int k = 0; k < nPartitions; k++) {
          final int pi = k;
          if (partitionPath(k).equals(p)) live.values().removeIf(v -> v == pi);
        }
      }
    }
  }

  /** Writes data files for an upsert and never commits: a failed write. */
  void failedWrite(ObjectNode rec) {
    List<Row> rows = new ArrayList<>();
    List<String> keys = sampleKeys(3 + rnd.nextInt(8));
    for (int i = 0; i < 3; i++) keys.add(String.format("k%05d", nextKey + 100000 + i));  // never-seen keys
    for (String k : keys) rows.add(row(k, live.getOrDefault(k, randomPartition())));
    List<HoodieRecord<DefaultHoodieRecordPayload>> recs = records(rows);
    Map<String, String> c = new LinkedHashMap<>();
    c.put("hoodie.clean.automatic", "false");
    c.put("hoodie.archive.automatic", "false");
    c.put("hoodie.compact.inline", "false");
    SparkRDDWriteClient<DefaultHoodieRecordPayload> cl = client(c);
    try {
      String t = cl.startCommit();
      rec.put("instant", t);
      JavaRDD<HoodieRecord<DefaultHoodieRecordPayload>> rdd = Env.jsc().parallelize(recs, 2);
      List<WriteStatus> st = cl.upsert(rdd, t).collect();
      int files = 0;
      for (WriteStatus w : st) if (w.getStat() != null) files++;
      rec.put("files_written", files);
      failedWrites.add(t);
    } finally {
      cl.close();  // no commit
    }
  }

  /** Two writers at once under OCC with the file-system lock. */
  void concurrent(ObjectNode rec) throws Exception {
    boolean overlap = rnd.nextInt(3) == 0;
    List<Row> a = new ArrayList<>();
    List<Row> b = new ArrayList<>();
    List<String> keys = sampleKeys(10 + rnd.nextInt(10));
    List<Integer> parts = livePartitions();
    int pa = parts.isEmpty() ? 0 : parts.get(0);
    for (String k : keys) {
      int p = live.get(k);
      if (overlap) (rnd.nextBoolean() ? a : b).add(row(k, p));
      else (p == pa ? a : b).add(row(k, p));
    }
    if (a.isEmpty()) a.addAll(newRows(3, -1));
    if (b.isEmpty()) b.addAll(newRows(3, -1));
    rec.put("overlap", overlap);
    // A fixed interleaving, so that the table does not depend on thread
    // timing: writer A starts and writes its files, writer B writes and
    // commits, then A commits. Where the two touched a file group in common A
    // loses Hudi's conflict check and leaves what a real losing writer leaves:
    // an inflight instant with its files and markers and no heartbeat.
    String ea = null;
    String eb = null;
    SparkRDDWriteClient<DefaultHoodieRecordPayload> cl = client(Map.of());
    try {
      String t = cl.startCommit();
      rec.put("writer_a_instant", t);
      JavaRDD<WriteStatus> written = cl.upsert(Env.jsc().parallelize(records(a), 2), t);
      written.count();  // the files are written now (Hudi keeps the statuses persisted)
      try {
        dsWrite("upsert", b, Map.of());
      } catch (Exception e) {
        eb = Main.describe(e);
      }
      try {
        cl.commit(t, written);
      } catch (Exception e) {
        ea = Main.describe(e);
      }
    } finally {
      cl.close();
    }
    rec.put("writer_a", ea == null ? "committed" : ea);
    rec.put("writer_b", eb == null ? "committed" : eb);
  }

  /** The partition path a generated row is written to (see row()). */
  String partitionPathOf(Row r) {
    if (!partitioned) return "";
    if (scheme == 2) {
      return hive ? "region=" + r.getString(2) + "/day=" + r.getString(3) : r.getString(2) + "/" + r.getString(3);
    }
    return hive ? "part=" + r.getString(1) : r.getString(1);
  }

  /** Generated rows as the write client's records. */
  List<HoodieRecord<DefaultHoodieRecordPayload>> records(List<Row> rows) {
    Schema s = new Schema.Parser().parse(schema());
    List<HoodieRecord<DefaultHoodieRecordPayload>> recs = new ArrayList<>();
    for (Row r : rows) {
      GenericRecord g = new GenericData.Record(s);
      for (int f = 0; f < SCHEMA.fields().length; f++) g.put(SCHEMA.fields()[f].name(), r.get(f));
      recs.add(new HoodieAvroRecord<>(new HoodieKey(r.getString(0), partitionPathOf(r)),
          new DefaultHoodieRecordPayload(g, r.getLong(4))));
    }
    return recs;
  }

  void plantStrays() throws IOException {
    ArrayNode strays = log.putArray("strays");
    HoodieTableMetaClient m = mc();
    List<String> writes = completedWrites();
    if (writes.isEmpty()) return;
    // A partition directory with a committed base file to copy.
    List<Path> baseFiles = new ArrayList<>();
    try (var s = Files.walk(Path.of(out))) {
      s.filter(p -> !p.toString().contains("/.hoodie"))
          .filter(p -> p.getFileName().toString().endsWith(".parquet") && !p.getFileName().toString().startsWith("."))
          .sorted()
          .forEach(baseFiles::add);
    }
    if (baseFiles.isEmpty()) return;
    Path src = baseFiles.get(rnd.nextInt(baseFiles.size()));
    Path dir = src.getParent();
    String name = src.getFileName().toString();
    String fileId = name.substring(0, name.indexOf('_'));
    String instant = name.substring(name.lastIndexOf('_') + 1, name.indexOf('.'));
    List<String> planted = new ArrayList<>();
    // (a) a base file of a write that left no instant (between two commits)
    String between = Tables.msToInstant(Tables.instantToMs(writes.get(rnd.nextInt(writes.size())),
        m.getTableConfig().getTimelineTimezone()) + 1, m.getTableConfig().getTimelineTimezone());
    planted.add(copyTo(src, dir.resolve(UUID.randomUUID() + "-0_0-0-0_" + between + ".parquet")));
    // (b) a speculative duplicate: same file id and instant, another write token
    if (rnd.nextBoolean()) {
      planted.add(copyTo(src, dir.resolve(fileId + "_9-99-999_" + instant + ".parquet")));
    }
    // (c) a file of an instant older than the active timeline (as if archived)
    if (rnd.nextInt(3) == 0) {
      planted.add(copyTo(src, dir.resolve(UUID.randomUUID() + "-0_0-0-0_20200101000000000.parquet")));
    }
    // (d) a log file of a deltacommit that never happened
    if (mor) {
      Path p = dir.resolve("." + UUID.randomUUID() + "-0_" + between + ".log.1_0-0-0");
      Files.write(p, new byte[] {'#', 'H', 'U', 'D', 'I', '#'});
      planted.add(p.toString());
    }
    // (e) junk that is no data file
    Path junk = dir.resolve("_SUCCESS");
    Files.write(junk, new byte[0]);
    planted.add(junk.toString());
    for (String p : planted) strays.add(Tables.relative(out, p));
  }

  static String copyTo(Path src, Path dst) throws IOException {
    Files.copy(src, dst, StandardCopyOption.REPLACE_EXISTING);
    return dst.toString();
  }

  // ---------------------------------------------------------------- scenario

  ObjectNode generate(int nOps, boolean strays) throws Exception {
    long t0 = System.currentTimeMillis();
    Path o = Path.of(out);
    if (Files.exists(o)) {
      boolean hudi = Files.isRegularFile(o.resolve(".hoodie/hoodie.properties"));
      boolean empty;
      try (var s = Files.list(o)) {
        empty = s.findAny().isEmpty();
      }
      if (!hudi && !empty) throw new BadInput("generate: " + out + " exists and is not a Hudi table; refusing to overwrite");
      Tables.delete(o);
    }
    Env.spark();
    Tables.clockAfterLastGenerated(utc ? org.apache.hudi.common.model.HoodieTimelineTimeZone.UTC
        : org.apache.hudi.common.model.HoodieTimelineTimeZone.LOCAL);
    log.put("seed", seed);
    log.put("out", out);
    log.put("table_version", version);
    log.put("type", mor ? "MOR" : "COW");
    log.put("mdt", mdt);
    log.put("mdt_indexes", mdtIndexes);
    log.put("partitioned", partitioned);
    baseOptions();

    step("insert", 0, this::insert);
    if (occ) step("two_writers", gap(), this::concurrent);  // at least once
    for (int i = 0; i < nOps; i++) {
      String op = pendingWrite && !occ ? "upsert" : drawOp();
      pendingWrite = false;
      switch (op) {
        case "insert" -> step(op, gap(), this::insert);
        case "upsert" -> step(op, gap(), r -> upsert(r, Map.of()));
        case "delete" -> step(op, gap(), this::delete);
        case "insert_overwrite" -> step(op, gap(), this::insertOverwrite);
        case "insert_overwrite_table" -> step(op, gap(), this::insertOverwriteTable);
        case "delete_partition" -> step(op, gap(), this::deletePartition);
        case "clustering" -> step(op, gap(), r -> cluster(r, true));
        case "compaction" -> step(op, gap(), r -> compact(r, true));
        case "savepoint" -> step(op, gap(), this::savepoint);
        case "delete_savepoint" -> step(op, gap(), this::deleteSavepoint);
        case "clean" -> step(op, gap(), this::clean);
        case "archive" -> step(op, gap(), this::archive);
        case "ttl" -> {
          step(op, gap(), this::ttl);
          pendingWrite = true;
        }
        case "failed_write" -> {
          step(op, gap(), this::failedWrite);
          pendingWrite = true;
        }
        case "two_writers" -> step(op, gap(), this::concurrent);
        default -> throw new IllegalStateException(op);
      }
    }
    // The last completed write is a plain upsert without inline services, so
    // a clean is due (Hudi's trigger counts commits since the last clean).
    Map<String, String> quiet = Map.of("hoodie.clean.automatic", "false", "hoodie.archive.automatic", "false",
        "hoodie.compact.inline", "false");
    step("upsert", gap(), r -> upsert(r, quiet));
    if (mor && rnd.nextBoolean()) {
      step("pending_compaction", gap(), r -> compact(r, false));
      if (rnd.nextBoolean()) step("upsert", gap(), r -> upsert(r, quiet));
    }
    if (rnd.nextInt(5) < 2) step("failed_write", gap(), this::failedWrite);
    if (rnd.nextInt(5) == 0) step("pending_clustering", gap(), r -> cluster(r, false));
    if (strays) plantStrays();

    ArrayNode tl = log.putArray("timeline");
    timelineKeys().forEach(tl::add);
    log.put("ms", System.currentTimeMillis() - t0);
    return log;
  }

  String drawOp() {
    List<String> bag = new ArrayList<>();
    add(bag, "upsert", 30);
    add(bag, "insert", 10);
    if (live.size() > 5) add(bag, "delete", 6);
    if (partitioned) add(bag, "insert_overwrite", 5);
    add(bag, "insert_overwrite_table", 1);
    if (partitioned && livePartitions().size() >= 2) add(bag, "delete_partition", 4);
    add(bag, "clustering", 5);
    if (mor) add(bag, "compaction", 10);
    add(bag, "savepoint", 4);
    if (!savepoints.isEmpty()) add(bag, "delete_savepoint", 3);
    add(bag, "clean", 8);
    add(bag, "archive", 4);
    if (partitioned) add(bag, "ttl", 3);
    add(bag, "failed_write", 4);
    if (occ) add(bag, "two_writers", 8);
    return bag.get(rnd.nextInt(bag.size()));
  }

  static void add(List<String> bag, String op, int weight) {
    for (int i = 0; i < weight; i++) bag.add(op);
  }
}
