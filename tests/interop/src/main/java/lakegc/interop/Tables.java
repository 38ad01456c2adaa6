package lakegc.interop;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.hudi.common.model.HoodieTimelineTimeZone;
import org.apache.hudi.common.table.HoodieTableConfig;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieInstantTimeGenerator;

/** Table-level helpers: checks, copies, instant times, write options. */
final class Tables {
  private static final AtomicInteger COPIES = new AtomicInteger();

  private Tables() {}

  /** The absolute, normalised path of a Hudi table directory, or bad input. */
  static String check(String dir) {
    File f = new File(dir).getAbsoluteFile();
    if (!new File(f, ".hoodie/hoodie.properties").isFile()) {
      throw new BadInput(dir + ": not a Hudi table (no .hoodie/hoodie.properties)");
    }
    return f.toPath().normalize().toString();
  }

  /** Options every harness write uses: small, local, fast. */
  static Map<String, String> fastOptions() {
    Map<String, String> o = new LinkedHashMap<>();
    o.put("hoodie.embed.timeline.server", "false");
    o.put("hoodie.write.markers.type", "DIRECT");
    o.put("hoodie.index.type", "SIMPLE");
    o.put("hoodie.metadata.index.column.stats.enable", "false");
    o.put("hoodie.metadata.index.partition.stats.enable", "false");
    o.put("hoodie.metadata.record.index.enable", "false");
    o.put("hoodie.write.auto.upgrade", "false");
    for (String k : new String[] {"hoodie.upsert.shuffle.parallelism", "hoodie.insert.shuffle.parallelism",
        "hoodie.bulkinsert.shuffle.parallelism", "hoodie.delete.shuffle.parallelism",
        "hoodie.clean.parallelism", "hoodie.rollback.parallelism", "hoodie.finalize.write.parallelism",
        "hoodie.markers.delete.parallelism", "hoodie.archive.delete.parallelism"}) {
      o.put(k, "2");
    }
    o.put("hoodie.datasource.meta.sync.enable", "false");
    o.put("hoodie.datasource.hive_sync.enable", "false");
    return o;
  }

  /** Write options for an existing table, from its hoodie.properties. */
  /**
   * The concurrency settings of a table written by several writers at once
   * (generate --occ): optimistic concurrency control with the file-system
   * lock, and failed writes rolled back lazily (by heartbeat expiry). Every
   * writer of such a table must use them: under the default EAGER policy
   * Hudi refuses to roll back a write that lost its conflict check (it is
   * inflight, commits completed after it, and its heartbeat file is gone:
   * "Found commits after time ..., please rollback greater commits first").
   */
  static Map<String, String> occOptions() {
    Map<String, String> o = new java.util.LinkedHashMap<>();
    o.put("hoodie.write.concurrency.mode", "optimistic_concurrency_control");
    o.put("hoodie.clean.failed.writes.policy", "LAZY");
    o.put("hoodie.write.lock.provider", "org.apache.hudi.client.transaction.lock.FileSystemBasedLockProvider");
    return o;
  }

  static Map<String, String> writeOptions(HoodieTableMetaClient mc) {
    HoodieTableConfig tc = mc.getTableConfig();
    Map<String, String> o = fastOptions();
    o.put("hoodie.table.name", tc.getTableName());
    o.put("hoodie.datasource.write.table.type", tc.getTableType().name());
    tc.getRecordKeyFields().ifPresent(f -> o.put("hoodie.datasource.write.recordkey.field", String.join(",", f)));
    String kg = tc.getKeyGeneratorClassName();
    // CustomKeyGenerator needs "field:type"; table version 6 stores the
    // partition fields without their types (8 and later keep them).
    boolean custom = kg != null && kg.endsWith("CustomKeyGenerator");
    String parts = tc.getPartitionFields()
        .map(f -> String.join(",", java.util.Arrays.stream(f)
            .map(p -> custom && !p.contains(":") ? p + ":SIMPLE" : p).toArray(String[]::new)))
        .orElse("");
    o.put("hoodie.datasource.write.partitionpath.field", parts);
    if (kg != null) o.put("hoodie.datasource.write.keygenerator.class", kg);
    if (!tc.getOrderingFields().isEmpty()) {
      o.put("hoodie.datasource.write.precombine.field", String.join(",", tc.getOrderingFields()));
    }
    o.put("hoodie.datasource.write.hive_style_partitioning", String.valueOf(Boolean.parseBoolean(tc.getHiveStylePartitioningEnable())));
    o.put("hoodie.datasource.write.partitionpath.urlencode", String.valueOf(Boolean.parseBoolean(tc.getUrlEncodePartitioning())));
    o.put("hoodie.write.table.version", String.valueOf(tc.getTableVersion().versionCode()));
    o.put("hoodie.metadata.enable", String.valueOf(tc.isMetadataTableAvailable()));
    // The metadata-table indexes the table has: a writer whose config leaves
    // one out would drop that partition (fastOptions turns them off).
    java.util.Set<String> mdtParts = tc.getMetadataPartitions();
    o.put("hoodie.metadata.index.column.stats.enable", String.valueOf(mdtParts.contains("column_stats")));
    o.put("hoodie.metadata.index.partition.stats.enable", String.valueOf(mdtParts.contains("partition_stats")));
    o.put("hoodie.metadata.index.bloom.filter.enable", String.valueOf(mdtParts.contains("bloom_filters")));
    o.put("hoodie.table.timeline.timezone", tc.getTimelineTimezone().name());
    return o;
  }

  static ZoneId zone(HoodieTimelineTimeZone tz) {
    return tz == HoodieTimelineTimeZone.UTC ? ZoneId.of("UTC") : ZoneId.systemDefault();
  }

  /** An instant time (14, 17 or more digits) as epoch ms in the table's timezone. */
  static long instantToMs(String t, HoodieTimelineTimeZone tz) {
    if (t == null || !t.matches("\\d{14,}")) throw new BadInput("'" + t + "' is not an instant time");
    String fixed = t.length() == 14 ? t + "000" : t.substring(0, 17);
    try {
      LocalDateTime dt = LocalDateTime.parse(fixed, HoodieInstantTimeGenerator.MILLIS_INSTANT_TIME_FORMATTER);
      return dt.atZone(zone(tz)).toInstant().toEpochMilli();
    } catch (DateTimeParseException e) {
      throw new BadInput("'" + t + "' is not an instant time: " + e.getMessage());
    }
  }

  static String msToInstant(long ms, HoodieTimelineTimeZone tz) {
    return HoodieInstantTimeGenerator.MILLIS_INSTANT_TIME_FORMATTER.format(
        java.time.Instant.ofEpochMilli(ms).atZone(zone(tz)).toLocalDateTime());
  }

  /**
   * Moves the virtual clock so that the next instant Hudi generates for a table
   * in timezone `tz` is later than the last one it generated in this JVM.
   * Hudi keeps one JVM-wide last instant time (a string) for every table and
   * spins until a new time string is greater: after writing a LOCAL table at
   * UTC+05:30, a UTC table would wait five and a half hours of wall clock.
   */
  static void clockAfterLastGenerated(HoodieTimelineTimeZone tz) {
    try {
      java.lang.reflect.Field f = HoodieInstantTimeGenerator.class.getDeclaredField("LAST_INSTANT_TIME");
      f.setAccessible(true);
      String last = String.valueOf(((java.util.concurrent.atomic.AtomicReference<?>) f.get(null)).get());
      if (last.matches("\\d{17,}")) Clock.ensureAfter(instantToMs(last, tz));
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Moves the virtual clock past every instant of the table (requested and completed). */
  static void clockAfterTable(HoodieTableMetaClient mc) {
    HoodieTimelineTimeZone tz = mc.getTableConfig().getTimelineTimezone();
    // Hudi formats new instant times in a JVM-wide timezone that only table
    // creation and the Spark datasource writer set (HoodieSparkSqlWriter);
    // a write client on an existing table inherits the last one. Set it from
    // the table, as the datasource writer does.
    HoodieInstantTimeGenerator.setCommitTimeZone(tz);
    clockAfterLastGenerated(tz);
    long max = 0;
    for (HoodieInstant i : mc.getActiveTimeline().getInstants()) {
      max = Math.max(max, instantToMs(i.requestedTime(), tz));
      String c = i.getCompletionTime();
      if (c != null && c.matches("\\d{17,}")) max = Math.max(max, instantToMs(c, tz));
    }
    Clock.ensureAfter(max);
  }

  /** A copy of the table in a scratch directory, modification times kept. */
  static Path copy(String dir) {
    Path src = Path.of(dir);
    Path root = Path.of(System.getProperty("java.io.tmpdir"), "lakegc-interop-copies");
    return copy(dir, root.resolve(src.getFileName() + "-" + ProcessHandle.current().pid() + "-" + COPIES.incrementAndGet()));
  }

  /** A copy of table `dir` at `dst` (replaced if it exists). */
  static Path copy(String dir, Path dst) {
    Path src = Path.of(dir);
    try {
      Files.createDirectories(dst.getParent());
      if (Files.exists(dst)) delete(dst);
      Files.walkFileTree(src, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes a) throws IOException {
          Files.createDirectories(dst.resolve(src.relativize(d)));
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFile(Path f, BasicFileAttributes a) throws IOException {
          Files.copy(f, dst.resolve(src.relativize(f)), StandardCopyOption.COPY_ATTRIBUTES);
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return dst;
  }

  static void delete(Path p) {
    if (!Files.exists(p)) return;
    try (Stream<Path> s = Files.walk(p)) {
      s.sorted(Comparator.reverseOrder()).forEach(x -> x.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** `path` relative to `base` (both may carry a file: scheme). */
  static String relative(String base, String path) {
    String b = stripScheme(base);
    String p = stripScheme(path);
    if (b.endsWith("/")) b = b.substring(0, b.length() - 1);
    if (p.equals(b)) return "";
    if (!p.startsWith(b + "/")) throw new IllegalStateException(path + " is not under " + base);
    return p.substring(b.length() + 1);
  }

  static String stripScheme(String p) {
    if (p.startsWith("file://")) return p.substring("file://".length());
    if (p.startsWith("file:")) return p.substring("file:".length());
    return p;
  }
}
