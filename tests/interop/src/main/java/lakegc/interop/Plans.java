package lakegc.interop;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hudi.avro.model.HoodieCleanFileInfo;
import org.apache.hudi.avro.model.HoodieCleanerPlan;
import org.apache.hudi.client.SparkRDDWriteClient;
import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.engine.HoodieEngineContext;
import org.apache.hudi.common.model.HoodieTimelineTimeZone;
import org.apache.hudi.common.model.TableServiceType;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.util.CleanerUtils;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.table.HoodieSparkTable;
import org.apache.hudi.table.HoodieTable;
import org.apache.hudi.table.action.clean.CleanPlanActionExecutor;
import org.apache.hudi.table.action.clean.CleaningTriggerStrategy;
import org.apache.hudi.table.action.ttl.strategy.HoodiePartitionTTLStrategyFactory;
import org.apache.hudi.table.action.ttl.strategy.PartitionTTLStrategy;

/** plan-clean, plan-ttl, plan-archive: Hudi's own planning, on a throwaway copy. */
final class Plans {
  private Plans() {}

  static HoodieWriteConfig config(String base, HoodieTableMetaClient mc, Map<String, String> confs) {
    Map<String, String> props = Tables.writeOptions(mc);
    props.putAll(confs);
    return HoodieWriteConfig.newBuilder().withPath(base).withProps(props).build();
  }

  /** Sets the planning clock from --now (table timezone) or the virtual clock; returns the instant. */
  static String planningNow(Args a, HoodieTableMetaClient mc) {
    HoodieTimelineTimeZone tz = mc.getTableConfig().getTimelineTimezone();
    long ms = a.last("--now") != null ? Tables.instantToMs(a.last("--now"), tz) : Clock.currentTimeMillis();
    Clock.setPlanningNow(ms);
    return Tables.msToInstant(ms, tz);
  }

  static ObjectNode clean(Args a) throws Exception {
    String dir = Tables.check(a.table());
    Map<String, String> confs = a.confs();
    long t0 = System.nanoTime();
    Path copy = Tables.copy(dir);
    long tCopy = System.nanoTime();
    String base = copy.toString();
    try {
      HoodieTableMetaClient mc = Env.metaClient(base);
      Tables.clockAfterTable(mc);
      ObjectNode out = Json.obj();
      out.put("now", planningNow(a, mc));
      HoodieWriteConfig cfg = config(base, mc, confs);
      try (SparkRDDWriteClient<?> client = new SparkRDDWriteClient<>(Env.engine(), cfg)) {
        Option<String> t = client.scheduleTableService(Option.empty(), TableServiceType.CLEAN);
        if (t.isPresent()) {
          mc.reloadActiveTimeline();
          HoodieInstant req = mc.getInstantGenerator().getCleanRequestedInstant(t.get());
          out.set("plan", planJson(base, CleanerUtils.getCleanerPlan(mc, req)));
          out.put("clean_instant", t.get());
        } else {
          out.putNull("plan");
          // Why not: the trigger, or a plan without work. Hudi's own planner,
          // called as scheduling calls it, but not persisted.
          HoodieTable<?, ?, ?, ?> table = HoodieSparkTable.create(cfg, Env.engine(), Env.metaClient(base));
          Constructor<?> c = CleanPlanActionExecutor.class.getConstructor(
              HoodieEngineContext.class, HoodieWriteConfig.class, HoodieTable.class, Option.class);
          Object ex = c.newInstance(Env.engine(), cfg, table, Option.empty());
          Method needs = CleanPlanActionExecutor.class.getDeclaredMethod("needsCleaning", CleaningTriggerStrategy.class);
          needs.setAccessible(true);
          boolean trigger = (Boolean) needs.invoke(ex, cfg.getCleaningTriggerStrategy());
          ObjectNode why = out.putObject("unscheduled");
          why.put("trigger_met", trigger);
          if (trigger) {
            Method rc = CleanPlanActionExecutor.class.getDeclaredMethod("requestClean", HoodieEngineContext.class);
            rc.setAccessible(true);
            why.set("plan", planJson(base, (HoodieCleanerPlan) rc.invoke(ex, Env.engine())));
          }
        }
      }
      ObjectNode ms = out.putObject("ms");
      ms.put("copy", (tCopy - t0) / 1_000_000);
      ms.put("plan", (System.nanoTime() - tCopy) / 1_000_000);
      return out;
    } finally {
      Clock.setPlanningNow(null);
      Tables.delete(copy);
    }
  }

  /** A HoodieCleanerPlan in the shape of the `plan` object of `lakegc plan clean --json`. */
  static ObjectNode planJson(String base, HoodieCleanerPlan p) {
    ObjectNode o = Json.obj();
    if (p.getEarliestInstantToRetain() == null) o.putNull("earliestInstantToRetain");
    else o.put("earliestInstantToRetain", p.getEarliestInstantToRetain().getTimestamp().toString());
    o.put("lastCompletedCommitTimestamp", p.getLastCompletedCommitTimestamp() == null ? "" : p.getLastCompletedCommitTimestamp().toString());
    o.put("policy", p.getPolicy() == null ? null : p.getPolicy().toString());
    ObjectNode files = o.putObject("filePathsToBeDeletedPerPartition");
    TreeMap<String, TreeSet<String>> sorted = new TreeMap<>();
    if (p.getFilePathsToBeDeletedPerPartition() != null) {
      for (Map.Entry<String, List<HoodieCleanFileInfo>> e : p.getFilePathsToBeDeletedPerPartition().entrySet()) {
        TreeSet<String> s = sorted.computeIfAbsent(e.getKey().toString(), k -> new TreeSet<>());
        for (HoodieCleanFileInfo f : e.getValue()) s.add(Tables.relative(base, f.getFilePath().toString()));
      }
    }
    sorted.forEach((k, v) -> {
      ArrayNode arr = files.putArray(k);
      v.forEach(arr::add);
    });
    ArrayNode parts = o.putArray("partitionsToBeDeleted");
    if (p.getPartitionsToBeDeleted() != null) {
      new TreeSet<>(p.getPartitionsToBeDeleted().stream().map(Object::toString).toList()).forEach(parts::add);
    }
    ObjectNode extra = o.putObject("extraMetadata");
    if (p.getExtraMetadata() != null) {
      new TreeMap<>(p.getExtraMetadata()).forEach((k, v) -> extra.put(k.toString(), v.toString()));
    }
    return o;
  }

  static ObjectNode ttl(Args a) throws Exception {
    String dir = Tables.check(a.table());
    Path copy = Tables.copy(dir);
    String base = copy.toString();
    try {
      HoodieTableMetaClient mc = Env.metaClient(base);
      Tables.clockAfterTable(mc);
      HoodieTimelineTimeZone tz = mc.getTableConfig().getTimelineTimezone();
      // KeepByTimeStrategy compares against the instant time of the TTL's own
      // replacecommit: --now is that instant.
      String instant = a.last("--now") != null ? a.last("--now")
          : Tables.msToInstant(Clock.currentTimeMillis(), tz);
      Tables.instantToMs(instant, tz);
      HoodieWriteConfig cfg = config(base, mc, a.confs());
      HoodieTable<?, ?, ?, ?> table = HoodieSparkTable.create(cfg, Env.engine(), mc);
      PartitionTTLStrategy s = HoodiePartitionTTLStrategyFactory.createStrategy(table, cfg.getProps(), instant);
      ObjectNode out = Json.obj();
      out.put("now", instant);
      out.put("strategy", s.getClass().getSimpleName());
      ArrayNode arr = out.putArray("expired_partitions");
      new TreeSet<>(s.getExpiredPartitionPaths()).forEach(arr::add);
      return out;
    } finally {
      Tables.delete(copy);
    }
  }

  static ObjectNode archive(Args a) throws Exception {
    String dir = Tables.check(a.table());
    // --keep-copy DIR: archive a copy made there and leave it (to read the
    // table as Hudi's own archival left it).
    String keep = a.last("--keep-copy");
    Path copy = keep != null ? Tables.copy(dir, Path.of(keep)) : Tables.copy(dir);
    String base = copy.toString();
    try {
      HoodieTableMetaClient mc = Env.metaClient(base);
      Tables.clockAfterTable(mc);
      List<HoodieInstant> before = new ArrayList<>(mc.getActiveTimeline().getInstants());
      HoodieWriteConfig cfg = config(base, mc, a.confs());
      try (SparkRDDWriteClient<?> client = new SparkRDDWriteClient<>(Env.engine(), cfg)) {
        client.archive();
      }
      Set<String> after = new HashSet<>();
      for (HoodieInstant i : Env.metaClient(base).getActiveTimeline().getInstants()) after.add(key(i));
      ObjectNode out = Json.obj();
      ArrayNode arr = out.putArray("archived");
      int kept = 0;
      for (HoodieInstant i : before) {
        if (after.contains(key(i))) {
          kept++;
          continue;
        }
        ObjectNode n = arr.addObject();
        n.put("requested", i.requestedTime());
        n.put("action", i.getAction());
        n.put("state", i.getState().name().toLowerCase());
      }
      out.put("active_kept", kept);
      // Layout 2: the LSM history Hudi's archiver left, record by record
      // (archived-timeline's "lsm"), to compare with what lakegc writes.
      HoodieTableMetaClient after2 = Env.metaClient(base);
      if (after2.getTimelineLayoutVersion().getVersion() >= 2) {
        ObjectNode lsm = Json.obj();
        Archived.lsm(after2, lsm);
        out.set("lsm", lsm.get("lsm"));
      }
      return out;
    } finally {
      if (keep == null) Tables.delete(copy);
    }
  }

  static String key(HoodieInstant i) {
    return i.requestedTime() + "." + i.getAction() + "." + i.getState();
  }
}
