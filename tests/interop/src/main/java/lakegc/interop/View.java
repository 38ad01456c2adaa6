package lakegc.interop;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.hudi.common.config.HoodieMetadataConfig;
import org.apache.hudi.common.fs.FSUtils;
import org.apache.hudi.common.model.CompactionOperation;
import org.apache.hudi.common.model.FileSlice;
import org.apache.hudi.common.model.HoodieFileGroup;
import org.apache.hudi.common.model.HoodieFileGroupId;
import org.apache.hudi.common.model.HoodieLogFile;
import org.apache.hudi.common.model.HoodiePartitionMetadata;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.table.view.FileSystemViewManager;
import org.apache.hudi.common.table.view.HoodieTableFileSystemView;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.common.util.collection.Pair;
import org.apache.hudi.storage.StoragePath;
import org.apache.hudi.storage.StoragePathInfo;

/**
 * `view DIR [--as-of T] [--listing storage|metadata]`: Hudi's file-system view
 * as the cleaner builds it (HoodieTableFileSystemView over the active
 * timeline's completed instants and pending compactions,
 * filterCompletedAndCompactionInstants), printed in the shape of the
 * `partitions` array of `lakegc inspect --json`, plus the active timeline in
 * the shape of its `timeline` array.
 */
final class View {
  private View() {}

  static ObjectNode run(Args a) {
    String dir = Tables.check(a.table());
    String listing = a.get("--listing", "storage");
    if (!listing.equals("storage") && !listing.equals("metadata")) {
      throw new BadInput("view: --listing must be storage or metadata");
    }
    return view(dir, a.last("--as-of"), listing);
  }

  static ObjectNode view(String dir, String asOf, String listing) {
    HoodieTableMetaClient mc = Env.metaClient(dir);
    if (asOf != null) Tables.instantToMs(asOf, mc.getTableConfig().getTimelineTimezone());
    HoodieTimeline active = mc.getActiveTimeline();
    HoodieTimeline tl = active.filterCompletedAndCompactionInstants();
    if (asOf != null) tl = tl.findInstantsBeforeOrEquals(asOf);
    boolean useMdt = listing.equals("metadata");
    if (useMdt && !mc.getTableConfig().isMetadataTableAvailable()) {
      throw new BadInput("view: --listing metadata on a table without a metadata table");
    }
    HoodieMetadataConfig mdc = HoodieMetadataConfig.newBuilder().enable(useMdt).build();
    HoodieTableFileSystemView fsv =
        FileSystemViewManager.createInMemoryFileSystemViewWithTimeline(Env.engine(), mc, mdc, tl);
    try {
      List<String> parts = new ArrayList<>(FSUtils.getAllPartitionPaths(Env.engine(), mc, mdc));
      parts.sort(Comparator.naturalOrder());
      Map<HoodieFileGroupId, String> pendingBase = new HashMap<>();
      fsv.getPendingCompactionOperations().forEach((Pair<String, CompactionOperation> p) ->
          pendingBase.put(p.getValue().getFileGroupId(), p.getValue().getBaseInstantTime()));
      Method replaceInstant = replaceInstantMethod();

      ObjectNode out = Json.obj();
      ArrayNode partitions = out.putArray("partitions");
      for (String part : parts) {
        ObjectNode pj = partitions.addObject();
        pj.put("path", part);
        StoragePath full = part.isEmpty() ? mc.getBasePath() : new StoragePath(mc.getBasePath(), part);
        Option<String> created = Option.empty();
        if (HoodiePartitionMetadata.hasPartitionMetadata(mc.getStorage(), full)) {
          created = new HoodiePartitionMetadata(mc.getStorage(), full).readPartitionCreatedCommitTime();
        }
        if (created.isPresent()) pj.put("commit_time", created.get());
        else pj.putNull("commit_time");

        List<HoodieFileGroup> groups = new ArrayList<>();
        fsv.getAllFileGroups(part).forEach(groups::add);
        fsv.getAllReplacedFileGroups(part).forEach(groups::add);
        groups.sort(Comparator.comparing(g -> g.getFileGroupId().getFileId()));
        Set<String> owned = new HashSet<>();
        ArrayNode gj = pj.putArray("file_groups");
        for (HoodieFileGroup g : groups) {
          List<FileSlice> slices = g.getAllFileSlices().collect(Collectors.toList());
          if (slices.isEmpty()) continue;  // only uncommitted files: listed below
          ObjectNode gn = gj.addObject();
          gn.put("file_id", g.getFileGroupId().getFileId());
          Option<HoodieInstant> rep = replaceInstant(replaceInstant, fsv, g.getFileGroupId());
          if (rep.isPresent()) gn.put("replaced_by", rep.get().requestedTime());
          else gn.putNull("replaced_by");
          String pb = pendingBase.get(g.getFileGroupId());
          if (pb != null) gn.put("pending_compaction_base", pb);
          else gn.putNull("pending_compaction_base");
          ArrayNode sj = gn.putArray("slices");
          for (FileSlice s : slices) {
            ObjectNode sn = sj.addObject();
            sn.put("base_instant", s.getBaseInstantTime());
            long size = 0;
            if (s.getBaseFile().isPresent()) {
              sn.put("base_file", s.getBaseFile().get().getFileName());
              owned.add(s.getBaseFile().get().getFileName());
              size += Math.max(0, s.getBaseFile().get().getFileSize());
            } else {
              sn.putNull("base_file");
            }
            ArrayNode lj = sn.putArray("log_files");
            for (HoodieLogFile l : (Iterable<HoodieLogFile>) s.getLogFiles()::iterator) {
              lj.add(l.getFileName());
              owned.add(l.getFileName());
              size += Math.max(0, l.getFileSize());
            }
            sn.put("size_bytes", size);
          }
        }
        ArrayNode uj = pj.putArray("uncommitted_files");
        TreeSet<String> uncommitted = new TreeSet<>();
        for (StoragePathInfo f : mc.getStorage().listDirectEntries(full)) {
          if (f.isDirectory()) continue;
          String name = f.getPath().getName();
          if (FSUtils.isDataFile(f.getPath()) && !owned.contains(name)) uncommitted.add(name);
        }
        uncommitted.forEach(uj::add);
      }

      ArrayNode tj = out.putArray("timeline");
      HoodieTimeline shown = asOf == null ? active : active.findInstantsBeforeOrEquals(asOf);
      for (HoodieInstant i : shown.getInstants()) {
        ObjectNode in = tj.addObject();
        in.put("requested", i.requestedTime());
        String c = i.isCompleted() ? i.getCompletionTime() : null;
        if (c != null) in.put("completed", c);
        else in.putNull("completed");
        in.put("action", i.getAction());
        in.put("state", i.getState().name().toLowerCase());
      }
      out.put("as_of", asOf);
      out.put("listing", listing);
      return out;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } finally {
      fsv.close();
    }
  }

  static Method replaceInstantMethod() {
    for (Class<?> c = HoodieTableFileSystemView.class; c != null; c = c.getSuperclass()) {
      try {
        Method m = c.getDeclaredMethod("getReplaceInstant", HoodieFileGroupId.class);
        m.setAccessible(true);
        return m;
      } catch (NoSuchMethodException e) {
        // try the superclass
      }
    }
    throw new IllegalStateException("HoodieTableFileSystemView.getReplaceInstant not found");
  }

  @SuppressWarnings("unchecked")
  static Option<HoodieInstant> replaceInstant(Method m, HoodieTableFileSystemView v, HoodieFileGroupId id) {
    try {
      return (Option<HoodieInstant>) m.invoke(v, id);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }
}
