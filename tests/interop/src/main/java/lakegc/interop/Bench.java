package lakegc.interop;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hudi.client.SparkRDDWriteClient;
import org.apache.hudi.common.model.TableServiceType;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.util.CleanerUtils;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.config.HoodieWriteConfig;

/**
 * bench-clean: the clean Hudi schedules, as plan-clean computes it, but on the
 * table itself (no throwaway copy: a copy of a million-file table would cost
 * more than the planning) and timed. Spark starts first, outside the timing;
 * each run is then timed from building the meta client to the clean plan
 * persisted as `.clean.requested`. After each run everything the scheduling
 * added under `.hoodie/` (the requested clean, Hadoop's .crc files, any new
 * directory) is removed, so the table is as before. For bench/hudi_vs_lakegc.sh.
 */
final class Bench {
  private Bench() {}

  static ObjectNode clean(Args a) throws Exception {
    String dir = Tables.check(a.table());
    Map<String, String> confs = a.confs();
    int repeat = a.intOpt("--repeat", 1, 1, 100);
    ObjectNode out = Json.obj();
    long s0 = System.nanoTime();
    Env.engine();  // Spark start-up: not part of the planning time
    long sparkMs = (System.nanoTime() - s0) / 1_000_000;
    long uptimeReady = ManagementFactory.getRuntimeMXBean().getUptime();
    Path hoodie = Path.of(dir, ".hoodie");
    Set<Path> before = tree(hoodie);
    ArrayNode runs = Json.M.createArrayNode();
    ObjectNode plan = null;
    String instant = null;
    long readbackMs = 0;
    try {
      for (int r = 0; r < repeat; r++) {
        long t0 = System.nanoTime();
        HoodieTableMetaClient mc = Env.metaClient(dir);
        Tables.clockAfterTable(mc);
        out.put("now", Plans.planningNow(a, mc));
        HoodieWriteConfig cfg = Plans.config(dir, mc, confs);
        Option<String> t;
        try (SparkRDDWriteClient<?> client = new SparkRDDWriteClient<>(Env.engine(), cfg)) {
          t = client.scheduleTableService(Option.empty(), TableServiceType.CLEAN);
        }
        long t1 = System.nanoTime();
        runs.add((t1 - t0) / 1_000_000);
        if (t.isPresent()) {
          mc.reloadActiveTimeline();
          HoodieInstant req = mc.getInstantGenerator().getCleanRequestedInstant(t.get());
          ObjectNode p = Plans.planJson(dir, CleanerUtils.getCleanerPlan(mc, req));
          if (plan != null && !plan.equals(p)) throw new IllegalStateException("run " + r + " planned differently");
          plan = p;
          instant = t.get();
        }
        readbackMs += (System.nanoTime() - t1) / 1_000_000;
        restore(hoodie, before);
        Clock.setPlanningNow(null);
      }
    } finally {
      Clock.setPlanningNow(null);
      restore(hoodie, before);
    }
    if (plan == null) out.putNull("plan");
    else out.set("plan", plan);
    if (instant != null) out.put("clean_instant", instant);
    ObjectNode ms = out.putObject("ms");
    ms.put("spark_start", sparkMs);
    ms.put("jvm_uptime_at_spark_ready", uptimeReady);
    ms.put("plan", runs.get(0).asLong());
    ms.set("plan_runs", runs);
    ms.put("readback", readbackMs);
    return out;
  }

  /** Every file and directory below `root`. */
  static Set<Path> tree(Path root) {
    try (Stream<Path> s = Files.walk(root)) {
      return s.collect(Collectors.toCollection(HashSet::new));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Removes what was added below `root` since `before` was taken (deepest first). */
  static void restore(Path root, Set<Path> before) {
    List<Path> added = tree(root).stream().filter(p -> !before.contains(p))
        .sorted(Comparator.reverseOrder()).toList();
    for (Path p : added) {
      try {
        Files.deleteIfExists(p);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
