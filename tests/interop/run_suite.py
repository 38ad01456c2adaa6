#!/usr/bin/env python3
"""The interop suite: real Apache Hudi (tests/interop/hudi) judges lakegc.

    run_suite.py --lakegc PATH [--seeds SPEC] [--work DIR] [--keep] [--checks LIST]

For a set of seeds x (table version, table type, metadata table) it has Hudi
generate real tables, then checks them table by table. Two harness JVMs
(`hudi batch -`, fed line by line): one generates the tables in seed order,
the other runs every check on each table as soon as it is generated, in the
same order (the checks never wait for the whole matrix; the answers do not
depend on the overlap). Checks:

  view      `lakegc inspect --json` == `hudi view` (partitions, file groups,
            slices, replaced groups, pending compaction, uncommitted files, and
            the timeline), at the latest instant and --as-of a few instants;
  clean     `lakegc plan clean --json` == `hudi plan-clean` over a grid of
            settings (three policies, retained counts, incremental on/off,
            max.commits.to.clean, partition filters, empty-clean interval), the
            same --now given to both;
  orphans   `lakegc orphans --json --older-than 0s --force` lists no file that
            any `hudi view` (storage and metadata-table listing, latest and
            every as-of) shows in a slice;
  readback  `hudi baseline` / `hudi verify` / `hudi continue` on a table, and on
            a damaged copy verify must fail;
  execute   on every table, `lakegc clean --execute` on a copy (two settings,
            and on the first table with and without a metadata table crashed
            after a few changes, and after each metadata-table change, and
            resumed; a table whose metadata table has a partition lakegc
            cannot update must be refused): the files it deletes are the files of Hudi's own plan,
            and Hudi then loads the timeline, reads the latest snapshot and the
            promised time travel as the baseline, and writes 3 more commits
            with its own inline services (the crash on the first table only);
            and a completed clean emptied to 0 bytes is repaired by lakegc
            as by Hudi's own clean (`clean-run`) on another copy;
  lsm_read  on layout-2 tables whose history Hudi wrote, `lakegc inspect
            --json`'s archived timeline == `hudi archived-timeline` (Hudi's
            own Parquet reader over the LSM history);
  archive   `lakegc plan archive --json` == `hudi plan-archive` over a grid;
  archive_execute  `lakegc archive --execute` on a copy of the first table
            of each layout: Hudi reads what it wrote (layout 2: the same
            LSM records Hudi's own archiver writes for the plan), verify and
            (layout 2) continue pass;
  ttl       on partitioned tables, `lakegc plan ttl --json` == Hudi's
            KeepByTimeStrategy / KeepByCreationTimeStrategy (getExpiredPartitionPaths)
            over a grid (both strategies, days.retain <= 24, a selected list, a
            cap), the same TTL instant given to both; on the first partitioned
            table without a metadata table, `lakegc ttl --execute` on a copy
            writes the replacecommit Hudi's own TTL run writes (Hudi reads it
            back), Hudi's snapshot loses exactly the expired partitions, both
            cleaners then plan the same, and after `lakegc clean --execute`
            Hudi still reads the table as before the clean; a table with a
            metadata table is refused, unchanged;
  rollback  on the first table with a failed write left (EAGER, or LAZY
            on two-writer tables with heartbeats held alive; --seeds:
            every one), `lakegc rollback --execute` on a copy deletes the data
            files Hudi's own rollbackFailedWrites deletes on another copy, Hudi
            reads the table as the baseline and (--seeds), writing on, finds
            nothing left to roll back; on the first table of version 8 or 9
            with a metadata table, a write that failed after its metadata-table
            deltacommit (`hudi fail-after-mdt`): the same files deleted as
            Hudi's rollback, in both tables, Hudi reads it, a crash inside the
            metadata table's rollback resumes to the same files;
  selftest  every comparator reports a deliberately altered answer.

Any difference fails the suite, printed with the table, the seed and the
commands that reproduce it. Differences listed in known_differences.json are
reported loudly as KNOWN and do not fail the suite (they are bugs to fix and
remove from that file one by one).

The default run (8 tables) takes about 12 minutes on 2 cores. A longer sweep:
LAKEGC_INTEROP_SEEDS=20 (20 seeds over all 12 version/type/MDT combinations)
or --seeds 1-40. Stdlib only.
"""

import argparse
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import queue
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# (table version, type, metadata table) of the default run, one seed each.
DEFAULT_MATRIX = [
    (6, "COW", "off"), (6, "MOR", "on"), (8, "MOR", "off"), (9, "COW", "on"),
    (9, "MOR", "off"), (9, "MOR", "on"), (6, "MOR", "off"), (8, "COW", "on"),
]
ALL_COMBOS = [(v, t, m) for v in (6, 8, 9) for t in ("COW", "MOR") for m in ("off", "on")]


def mdt_indexes_of(seed):
    """The metadata-table indexes a table with a metadata table gets (generate
    --mdt-indexes): files only, Hudi 1.2's default (column_stats and
    partition_stats), or those and bloom_filters. In the default run: seed 2
    (v6 MOR) and 8 (v8 COW) the default, 4 (v9 COW) bloom filters too, 6 (v9
    MOR) files only."""
    return ("files", "stats", "bloom")[(seed // 2) % 3]

CHECKS = ("selftest", "view", "lsm_read", "clean", "orphans", "readback", "execute", "archive", "archive_execute", "ttl",
          "rollback")

# Settings `lakegc clean --execute` runs under in the execute check.
EXECUTE_GRID = [
    ["hoodie.clean.policy=KEEP_LATEST_COMMITS", "hoodie.clean.commits.retained=2"],
    ["hoodie.clean.policy=KEEP_LATEST_FILE_VERSIONS", "hoodie.clean.fileversions.retained=1"],
]


# A "difference" where Hudi gives the same answer before and after lakegc
# acted (e.g. the same HoodieTimeTravelException for a promised instant past
# the first incomplete commit, which Hudi refuses to travel to either way).
SAME_ANSWER = re.compile(r"^time travel as of \S+: baseline (.*), now \1$", re.S)


# Settings `lakegc plan archive` and `hudi plan-archive` are compared under:
# keep counts, with the default cleaner (10 retained: Hudi raises keep.min)
# and with cleaner settings that let archival run on these small tables.
ARCHIVE_GRID = [
    ["hoodie.keep.min.commits=2", "hoodie.keep.max.commits=3"],
    ["hoodie.keep.min.commits=2", "hoodie.keep.max.commits=3", "hoodie.clean.commits.retained=1"],
    ["hoodie.keep.min.commits=3", "hoodie.keep.max.commits=4", "hoodie.clean.commits.retained=2"],
    ["hoodie.keep.min.commits=5", "hoodie.keep.max.commits=6", "hoodie.clean.commits.retained=1"],
    ["hoodie.keep.min.commits=2", "hoodie.keep.max.commits=3", "hoodie.clean.commits.retained=4"],
    ["hoodie.keep.min.commits=2", "hoodie.keep.max.commits=3", "hoodie.clean.policy=KEEP_LATEST_BY_HOURS",
     "hoodie.clean.hours.retained=6"],
    ["hoodie.keep.min.commits=2", "hoodie.keep.max.commits=3", "hoodie.clean.policy=KEEP_LATEST_FILE_VERSIONS",
     "hoodie.clean.fileversions.retained=1"],
    ["hoodie.keep.min.commits=2", "hoodie.keep.max.commits=3", "hoodie.clean.commits.retained=1",
     "hoodie.archive.beyond.savepoint=true"],
    ["hoodie.keep.min.commits=2", "hoodie.keep.max.commits=3", "hoodie.clean.commits.retained=1",
     "hoodie.compact.inline.max.delta.commits=2"],
    # layout 1 only (layout 2 ignores both):
    ["hoodie.keep.min.commits=2", "hoodie.keep.max.commits=3", "hoodie.clean.commits.retained=1",
     "hoodie.archive.limit.instants=2"],
    ["hoodie.keep.min.commits=2", "hoodie.keep.max.commits=3", "hoodie.clean.commits.retained=1",
     "hoodie.archive.block.on.latest.clean.ectr=true"],
]


# Settings `lakegc plan ttl` and `hudi plan-ttl` are compared under, each with
# the TTL instant this many hours after the table's newest instant. days.retain
# stays <= 24: Hudi 1.2.0 computes the retention in int milliseconds, which
# overflows from 25 days (docs/hudi-ttl.md). "default": False settings run in the
# longer sweep (--seeds) only.
TTL_KEYS = {"type": "hoodie.partition.ttl.management.strategy.type",
            "days": "hoodie.partition.ttl.strategy.days.retain",
            "selected": "hoodie.partition.ttl.strategy.partition.selected",
            "max": "hoodie.partition.ttl.strategy.max.delete.partitions"}
TTL_GRID = [
    ({"type": "KEEP_BY_TIME", "days": 1, "default": False}, 1),
    ({"type": "KEEP_BY_TIME", "days": 1}, 30),
    ({"type": "KEEP_BY_TIME", "days": 2, "default": False}, 49),
    ({"type": "KEEP_BY_TIME", "days": 24}, 24 * 25),
    ({"type": "KEEP_BY_CREATION_TIME", "days": 1, "default": False}, 1),
    ({"type": "KEEP_BY_CREATION_TIME", "days": 3}, 73),
    ({"type": "KEEP_BY_TIME", "days": 1, "selected": "<first,last,missing>"}, 49),
    ({"type": "KEEP_BY_TIME", "days": 1, "max": 1}, 49),
    ({"type": "KEEP_BY_CREATION_TIME", "days": 1, "max": 2, "default": False}, 49),
]


# ----------------------------------------------------------------------------- utils

def log(msg):
    print(msg, flush=True)


def shell_join(args):
    out = []
    for a in args:
        a = str(a)
        out.append(a if re.fullmatch(r"[A-Za-z0-9_./=:,+@%-]+", a) else "'" + a.replace("'", "'\\''") + "'")
    return " ".join(out)


class Hudi:
    """One harness JVM running `hudi batch -`, fed one command at a time."""

    def __init__(self, launcher, stderr_path, env):
        self.launcher = launcher
        self.err = open(stderr_path, "a")
        self.proc = subprocess.Popen([launcher, "batch", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.err, text=True, env=env, bufsize=1)
        self.calls = 0
        self.ms = 0
        self.by_command = {}  # command -> [calls, ms], for the summary

    def __call__(self, *args):
        args = [str(a) for a in args]
        self.proc.stdin.write(json.dumps(args) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the hudi harness JVM died (see %s); last command: hudi %s"
                               % (self.err.name, shell_join(args)))
        r = json.loads(line)
        self.calls += 1
        self.ms += r.get("ms", 0)
        tally = self.by_command.setdefault(args[0], [0, 0])
        tally[0] += 1
        tally[1] += r.get("ms", 0)
        return r

    def close(self):
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=120)
        except Exception:
            self.proc.kill()
        self.err.close()


def latest_snapshot_baseline(hudi, table, base):
    """The table's latest snapshot as a baseline file for `hudi verify`.

    A verify against an empty baseline reports the latest snapshot as a
    difference ("latest snapshot: baseline null, now {...}"); that snapshot,
    with no time travel, is written to `base`. A full `hudi baseline` also
    reads every instant's time travel, at ten times the cost, which checks
    of actions that change no committed data file do not need. Returns
    (latest or None, the verify's other differences, the verify's answer)."""
    with open(base, "w") as f:
        json.dump({}, f)
    b = hudi("verify", table, "--baseline", base)
    diffs = (b.get("result") or {}).get("differences") or []
    latest = next((json.loads(m.group(1)) for d in diffs
                   for m in [re.match(r"latest snapshot: baseline null, now (\{.*\})$", d)] if m), None)
    with open(base, "w") as f:
        json.dump({"latest": latest, "as_of": {}} if latest is not None else {}, f)
    return latest, set(d for d in diffs if not d.startswith("latest snapshot:")), b


LAKEGC_TIME = [0, 0.0]  # lakegc runs and their seconds, for the summary


def run_lakegc(lakegc, args, env):
    t0 = time.time()
    p = subprocess.run([lakegc] + [str(a) for a in args], capture_output=True, text=True, env=env)
    LAKEGC_TIME[0] += 1
    LAKEGC_TIME[1] += time.time() - t0
    out = None
    if p.stdout.strip():
        try:
            out = json.loads(p.stdout)
        except ValueError:
            out = None
    return p.returncode, out, p.stderr.strip()


# ----------------------------------------------------------------------------- comparators

def norm_partitions(parts):
    """The comparable content of a `partitions` array. Order of partitions,
    file groups and log files within a slice is not part of the comparison
    (lakegc lists log files oldest first, Hudi's FileSlice newest first);
    slices stay newest first (both order them by base instant)."""
    out = {}
    for p in parts or []:
        groups = {}
        for g in p.get("file_groups", []):
            slices = [(s.get("base_instant"), s.get("base_file"), tuple(sorted(s.get("log_files", []))),
                       s.get("size_bytes")) for s in g.get("slices", [])]
            groups[g["file_id"]] = {"replaced_by": g.get("replaced_by"),
                                    "pending_compaction_base": g.get("pending_compaction_base"),
                                    "slices": slices}
        out[p["path"]] = {"commit_time": p.get("commit_time"), "groups": groups,
                          "uncommitted": sorted(p.get("uncommitted_files", []))}
    return out


def diff_views(lake_parts, hudi_parts):
    """Differences between two `partitions` arrays, as readable lines."""
    a, b = norm_partitions(lake_parts), norm_partitions(hudi_parts)
    d = []
    for path in sorted(set(a) | set(b)):
        if path not in b:
            d.append("partition %r: only lakegc lists it" % path)
            continue
        if path not in a:
            d.append("partition %r: only Hudi lists it" % path)
            continue
        pa, pb = a[path], b[path]
        if pa["commit_time"] != pb["commit_time"]:
            d.append("partition %r: commit_time lakegc %s, Hudi %s" % (path, pa["commit_time"], pb["commit_time"]))
        for fid in sorted(set(pa["groups"]) | set(pb["groups"])):
            ga, gb = pa["groups"].get(fid), pb["groups"].get(fid)
            where = "partition %r file group %s" % (path, fid)
            if gb is None:
                d.append("%s: only lakegc lists it (slices %s)" % (where, [s[0] for s in ga["slices"]]))
                continue
            if ga is None:
                d.append("%s: only Hudi lists it (slices %s)" % (where, [s[0] for s in gb["slices"]]))
                continue
            for k in ("replaced_by", "pending_compaction_base"):
                if ga[k] != gb[k]:
                    d.append("%s: %s lakegc %s, Hudi %s" % (where, k, ga[k], gb[k]))
            if ga["slices"] != gb["slices"]:
                sa = {s[0]: s for s in ga["slices"]}
                sb = {s[0]: s for s in gb["slices"]}
                for inst in sorted(set(sa) | set(sb), reverse=True):
                    x, y = sa.get(inst), sb.get(inst)
                    if x == y:
                        continue
                    if y is None:
                        d.append("%s: slice %s only in lakegc (base %s, logs %s)" % (where, inst, x[1], list(x[2])))
                    elif x is None:
                        d.append("%s: slice %s only in Hudi (base %s, logs %s)" % (where, inst, y[1], list(y[2])))
                    else:
                        if x[1] != y[1]:
                            d.append("%s: slice %s base_file lakegc %s, Hudi %s" % (where, inst, x[1], y[1]))
                        if x[3] != y[3]:
                            why = ""
                            if x[1] != y[1] or x[2] != y[2]:
                                why = " (files differ: only lakegc %s, only Hudi %s)" % (
                                    sorted(({x[1]} | set(x[2])) - ({y[1]} | set(y[2])) - {None}),
                                    sorted(({y[1]} | set(y[2])) - ({x[1]} | set(x[2])) - {None}))
                            d.append("%s: slice %s size_bytes lakegc %s, Hudi %s%s" % (where, inst, x[3], y[3], why))
                        if x[2] != y[2]:
                            d.append("%s: slice %s log files: only lakegc %s, only Hudi %s"
                                     % (where, inst, sorted(set(x[2]) - set(y[2])), sorted(set(y[2]) - set(x[2]))))
                if [s[0] for s in ga["slices"]] != [s[0] for s in gb["slices"]] and set(sa) == set(sb):
                    d.append("%s: slice order lakegc %s, Hudi %s" % (where, [s[0] for s in ga["slices"]],
                                                                  [s[0] for s in gb["slices"]]))
        ua, ub = set(pa["uncommitted"]), set(pb["uncommitted"])
        if ua != ub:
            d.append("partition %r: uncommitted files only lakegc %s, only Hudi %s"
                     % (path, sorted(ua - ub), sorted(ub - ua)))
    return d


def diff_timelines(lake_tl, hudi_tl, layout):
    def norm(tl):
        out = {}
        for i in tl or []:
            completed = i.get("completed") if layout == 2 else None
            out[(i["requested"], i["action"])] = (i["state"], completed)
        return out
    a, b = norm(lake_tl), norm(hudi_tl)
    d = []
    for k in sorted(set(a) | set(b)):
        if k not in b:
            d.append("timeline: %s.%s (%s) only in lakegc" % (k[0], k[1], a[k][0]))
        elif k not in a:
            d.append("timeline: %s.%s (%s) only in Hudi" % (k[0], k[1], b[k][0]))
        elif a[k] != b[k]:
            d.append("timeline: %s.%s lakegc %s, Hudi %s" % (k[0], k[1], a[k], b[k]))
    return d


def norm_plan(p):
    if p is None:
        return None
    files = {}
    for part, paths in (p.get("filePathsToBeDeletedPerPartition") or {}).items():
        if paths:
            files[part] = sorted(paths)
    return {"earliestInstantToRetain": p.get("earliestInstantToRetain"),
            "lastCompletedCommitTimestamp": p.get("lastCompletedCommitTimestamp") or "",
            "policy": p.get("policy"),
            "files": files,
            "partitionsToBeDeleted": sorted(p.get("partitionsToBeDeleted") or []),
            "extraMetadata": dict(p.get("extraMetadata") or {})}


def diff_plans(lake_plan, hudi_result):
    """lake_plan: the `plan` object of lakegc; hudi_result: `hudi plan-clean` output."""
    a = norm_plan(lake_plan)
    hp = hudi_result.get("plan")
    d = []
    if a is None:
        # lakegc: no clean is due (its `not_due`, Hudi's trigger).
        trig = (hudi_result.get("unscheduled") or {}).get("trigger_met")
        if hp is not None:
            n = sum(len(v) for v in (hp.get("filePathsToBeDeletedPerPartition") or {}).values())
            d.append("lakegc says no clean is due; Hudi schedules one (%d file(s), partitions %s)"
                     % (n, hp.get("partitionsToBeDeleted") or []))
        elif trig is True:
            d.append("lakegc says no clean is due; Hudi's trigger is met (its plan had no work)")
        return d
    if hp is None:
        # Hudi schedules nothing: lakegc must plan nothing either.
        why = "Hudi schedules no clean"
        if (hudi_result.get("unscheduled") or {}).get("trigger_met") is False:
            why += " (trigger not met: fewer completed commits since the last clean than hoodie.clean.trigger.max.commits)"
        if a["files"]:
            n = sum(len(v) for v in a["files"].values())
            d.append("%s; lakegc deletes %d file(s): %s" % (why, n, sorted(itertools.chain(*a["files"].values()))[:8]))
        if a["partitionsToBeDeleted"]:
            d.append("%s; lakegc deletes partitions %s" % (why, a["partitionsToBeDeleted"]))
        un = (hudi_result.get("unscheduled") or {}).get("plan")
        if un is not None:
            # The plan Hudi made but did not persist (no work). Hudi fills
            # lastCompletedCommitTimestamp in it only when it has an earliest
            # instant to retain (CleanPlanActionExecutor.getEmptyCleanerPlan).
            b = norm_plan(un)
            keys = ["earliestInstantToRetain"]
            if b["earliestInstantToRetain"] is not None:
                keys.append("lastCompletedCommitTimestamp")
            for k in keys:
                if a[k] != b[k]:
                    d.append("%s lakegc %s, Hudi (its plan without work) %s" % (k, a[k], b[k]))
        return d
    b = norm_plan(hp)
    for k in ("earliestInstantToRetain", "lastCompletedCommitTimestamp", "policy"):
        if a[k] != b[k]:
            d.append("%s lakegc %s, Hudi %s" % (k, a[k], b[k]))
    fa = set(itertools.chain(*a["files"].values()))
    fb = set(itertools.chain(*b["files"].values()))
    same_files = fa == fb
    # A slice both plans delete whose base file has a speculative copy (same
    # file id and instant, another write token): Hudi's listing-based view
    # names whichever copy readdir returned last, lakegc the committed one.
    # Report the pair as one difference so it is judged as one.
    def slice_of(name):
        m = BASE_RE.search(name)
        return (m.group(1), m.group(3)) if m else None
    only_a = {slice_of(f): f for f in fa - fb if slice_of(f)}
    for f in sorted(fb - fa):
        key = slice_of(f)
        if key and key in only_a and ("_9-99-999_" in f or "_9-99-999_" in only_a[key]):
            d.append("files deleted of slice %s differ by its speculative copy: only lakegc [%r], only Hudi [%r]"
                     % (key[1], only_a[key], f))
            fa.discard(only_a[key])
            fb.discard(f)
    if fa - fb:
        d.append("files only lakegc deletes (Hudi keeps): %s" % sorted(fa - fb))
    if fb - fa:
        d.append("files only Hudi deletes (lakegc keeps): %s" % sorted(fb - fa))
    if same_files and a["files"] != b["files"]:
        d.append("files grouped under different partitions: lakegc %s, Hudi %s" % (sorted(a["files"]), sorted(b["files"])))
    if a["partitionsToBeDeleted"] != b["partitionsToBeDeleted"]:
        d.append("partitionsToBeDeleted lakegc %s, Hudi %s" % (a["partitionsToBeDeleted"], b["partitionsToBeDeleted"]))
    if a["extraMetadata"] != b["extraMetadata"]:
        d.append("extraMetadata lakegc %s, Hudi %s" % (a["extraMetadata"], b["extraMetadata"]))
    return d


def diff_archived(lake, hudi_result):
    """lakegc plan archive --json vs hudi plan-archive: the archived instants
    (requested, action, state). An instant only Hudi archives carries the
    reasons lakegc gives for keeping it, so keeps-more entries can match them."""
    def key(i):
        return (i["requested"], i["action"], i["state"])
    mine = {key(i) for i in lake.get("archived", [])}
    theirs = {key(i) for i in hudi_result.get("archived", [])}
    why = {key(k): k.get("reasons", []) for k in lake.get("kept", [])}
    texts = []
    for k in sorted(theirs - mine):
        texts.append("only Hudi archives %s %s (%s) [lakegc keeps: %s]" % (k[0], k[1], k[2], ",".join(why.get(k, [])) or "-"))
    for k in sorted(mine - theirs):
        texts.append("only lakegc archives %s %s (%s)" % k)
    return texts


def first_per_instant(records):
    """LSM records, the first of each instant time (Hudi's ArchivedTimelineV2
    and lakegc keep the first they read, files in manifest order)."""
    seen, out = set(), []
    for r in records:
        if r["instantTime"] not in seen:
            seen.add(r["instantTime"])
            out.append(r)
    return sorted(out, key=lambda r: r["instantTime"])


def diff_lsm_read(lake_archived, hudi_result):
    """lakegc inspect --json's archived_timeline vs `hudi archived-timeline`
    (layout 2): the snapshot version, the manifest's files, and per instant
    its completion time, action and the sizes of its metadata and plan."""
    if lake_archived is None:
        return ["lakegc inspect shows no archived timeline on a layout-2 table"]
    if lake_archived.get("error"):
        return ["lakegc cannot read the LSM history Hudi wrote: %s" % lake_archived["error"]]
    lsm = hudi_result.get("lsm") or {}
    texts = []
    if lake_archived.get("version") != lsm.get("version"):
        texts.append("LSM snapshot version: lakegc %s, Hudi %s" % (lake_archived.get("version"), lsm.get("version")))
    theirs_files = [f["fileName"] for f in lsm.get("manifest", [])]
    if lake_archived.get("files") != theirs_files:
        texts.append("LSM manifest files: lakegc %s, Hudi %s" % (lake_archived.get("files"), theirs_files))
    mine = {i["requested"]: (i["completed"], i["action"], i["metadata_bytes"], i["plan_bytes"])
            for i in lake_archived.get("instants", [])}
    theirs = {r["instantTime"]: (r["completionTime"], r["action"], r["metadata_bytes"], r["plan_bytes"])
              for r in first_per_instant(lsm.get("records", []))}
    for t in sorted(set(mine) | set(theirs)):
        if mine.get(t) != theirs.get(t):
            texts.append("archived instant %s (completion, action, metadata bytes, plan bytes): lakegc %s, Hudi %s"
                         % (t, mine.get(t), theirs.get(t)))
    return texts


def lsm_record_key(r):
    return (r["instantTime"], r["completionTime"], r["action"], r["metadata_bytes"], r["metadata_crc32"],
            r["plan_bytes"], r["plan_crc32"], r["version"])


def diff_lsm_written(lake_lsm, hudi_lsm):
    """The LSM history lakegc wrote (as Hudi reads it) vs the one Hudi's own
    archiver wrote for the same plan and settings: the same records (times,
    action, metadata and plan bytes by size and CRC-32, version), the same
    data file names in the manifest, the same snapshot version. File sizes
    differ (another Parquet writer) and are not compared."""
    texts = []
    mine = [lsm_record_key(r) for r in first_per_instant(lake_lsm.get("records", []))]
    theirs = [lsm_record_key(r) for r in first_per_instant(hudi_lsm.get("records", []))]
    for k in sorted(set(mine) ^ set(theirs)):
        texts.append("LSM record %s only in %s's history" % (k[:3], "lakegc" if k in mine else "Hudi"))
    bad = [(r["instantTime"], r["entry"]) for r in lake_lsm.get("records", []) if r.get("entry") != "ok"]
    if bad:
        texts.append("Hudi's MetadataConversionUtils fails on records lakegc wrote: %s" % bad[:4])
    mf = [f["fileName"] for f in lake_lsm.get("manifest", [])]
    hf = [f["fileName"] for f in hudi_lsm.get("manifest", [])]
    if mf != hf:
        texts.append("LSM manifest files: lakegc %s, Hudi %s" % (mf, hf))
    if lake_lsm.get("version") != hudi_lsm.get("version"):
        texts.append("LSM snapshot version: lakegc %s, Hudi %s" % (lake_lsm.get("version"), hudi_lsm.get("version")))
    return texts


def files_shown(view):
    """Every file name `hudi view` shows in a slice, by partition path."""
    out = set()
    for p in view.get("partitions", []):
        for g in p.get("file_groups", []):
            for s in g.get("slices", []):
                if s.get("base_file"):
                    out.add(join(p["path"], s["base_file"]))
                for l in s.get("log_files", []):
                    out.add(join(p["path"], l))
    return out


def join(part, name):
    return name if not part else part + "/" + name


def diff_orphans(orphans_json, shown):
    d = []
    for kind in ("orphans", "too_young"):
        for f in orphans_json.get(kind, []):
            path = f["path"]
            if path in shown:
                d.append("lakegc orphans lists %s (%s) but Hudi's view shows it in a slice" % (path, kind))
    return d


# ----------------------------------------------------------------------------- known differences

LOG_RE = re.compile(r"\.([0-9a-f]{8}-[0-9a-f-]+-\d+)_(\d{17,})\.log\.\d+_[0-9-]+")
BASE_RE = re.compile(r"([0-9a-f]{8}-[0-9a-f-]+-\d+)_([0-9]+-[0-9]+-[0-9]+)_(\d{17,})\.parquet")
AS_OF_RE = re.compile(r"\(as of (\d+)\)")


def completed_writes(tb, as_of=None):
    """Requested times of completed write instants (Hudi's timeline), as of `as_of`."""
    tl = (tb.get("views") or [{}])[0].get("timeline") or []
    return {i["requested"] for i in tl
            if i["state"] == "completed" and i["action"] in ("commit", "deltacommit", "replacecommit")
            and (as_of is None or i["requested"] <= as_of)}


def pred_logs_not_committed(tb, text):
    """Every log file the difference names belongs to a deltacommit that is
    not completed (as of the view's instant): pending, failed, or later."""
    m = AS_OF_RE.search(text)
    done = completed_writes(tb, m.group(1) if m else None)
    logs = LOG_RE.findall(text)
    if not logs or (tb.get("version") or 9) < 8:
        return False
    if BASE_RE.search(text):
        return False  # a base file differs too: not this case
    return all(inst not in done for _, inst in logs)


def pred_pending_compaction_after_as_of(tb, text):
    """Hudi reports a pending compaction in a view as of T although it was
    requested after T."""
    m = AS_OF_RE.search(text)
    if not m or "pending_compaction_base lakegc None, Hudi" not in text:
        return False
    tl = (tb.get("views") or [{}])[0].get("timeline") or []
    return any(i["action"] == "compaction" and i["state"] != "completed" and i["requested"] > m.group(1) for i in tl)


def pred_planted_duplicate(tb, text):
    """The difference names a planted speculative duplicate (a copy of a
    committed base file under another write token)."""
    dups = [os.path.basename(s) for s in tb.get("gen", {}).get("strays", []) if "_9-99-999_" in s]
    return any(d in text for d in dups)


def pred_by_hours_utc_table_off_utc_jvm(tb, text):
    """KEEP_LATEST_BY_HOURS on a UTC table while the JVM's zone is not UTC."""
    import datetime
    off = datetime.datetime.now().astimezone().utcoffset()
    return ("KEEP_LATEST_BY_HOURS" in text and "tz=UTC" in (tb.get("desc") or "") and "[compensated" not in text
            and off is not None and off.total_seconds() != 0)


def pred_logs_of_pending_writes(tb, text):
    """Every log file the difference names is named by an APPEND marker of a
    write that is still pending (requested or inflight) on the timeline."""
    logs = [m.group(0) for m in LOG_RE.finditer(text)]
    if not logs or "files only lakegc deletes" not in text:
        return False
    tl = (tb.get("views") or [{}])[0].get("timeline") or []
    pending = {i["requested"] for i in tl if i["state"] != "completed"}
    temp = os.path.join(tb["dir"], ".hoodie", ".temp")
    named = set()
    for inst in pending:
        for root, _, files in os.walk(os.path.join(temp, inst)):
            for f in files:
                if f.endswith(".marker.APPEND"):
                    named.add(f[: -len(".marker.APPEND")])
    return all(l in named for l in logs)


def pred_slices_of_pending_writes(tb, text):
    """Every file of the difference ("only Hudi deletes") belongs to a slice
    (file id, base instant) one of whose files a pending write's marker
    names: lakegc keeps such a slice whole."""
    if "files only Hudi deletes" not in text and "only Hudi" not in text:
        return False
    tl = (tb.get("views") or [{}])[0].get("timeline") or []
    pending = {i["requested"] for i in tl if i["state"] != "completed"}
    temp = os.path.join(tb["dir"], ".hoodie", ".temp")
    slices = set()
    for inst in pending:
        for root, _, files in os.walk(os.path.join(temp, inst)):
            for f in files:
                m = re.match(r"(.*)\.marker\.(CREATE|MERGE|APPEND)$", f)
                if not m:
                    continue
                name = m.group(1)
                lm = LOG_RE.search("." + name.lstrip("."))
                bm = BASE_RE.search(name)
                if lm:
                    slices.add((lm.group(1), lm.group(2)))
                elif bm:
                    slices.add((bm.group(1), bm.group(3)))
    named = [(m.group(1), m.group(2)) for m in LOG_RE.finditer(text)] + \
            [(m.group(1), m.group(3)) for m in BASE_RE.finditer(text)]
    return bool(named) and all(x in slices for x in named)


def pred_partitions_with_pending_write_files(tb, text):
    """partitionsToBeDeleted: every partition only Hudi deletes holds a file
    of a write that is not completed (lakegc's listing shows it uncommitted,
    or a pending write's marker names a file there): lakegc keeps such a
    partition; Hudi deletes the directory under the running write."""
    m = re.match(r"^partitionsToBeDeleted lakegc (\[.*?\]), Hudi (\[.*?\])", text)
    if not m:
        return False
    lake, hudi = set(eval(m.group(1))), set(eval(m.group(2)))  # repr of two lists of strings
    only_hudi = hudi - lake
    if not only_hudi or lake - hudi:
        return False
    parts = {p["path"]: p for p in (tb.get("lake_inspect") or {}).get("partitions", [])}
    tl = (tb.get("lake_inspect") or {}).get("timeline", [])
    pending = {i["requested"] for i in tl if i["state"] != "completed"}
    temp = os.path.join(tb["dir"], ".hoodie", ".temp")
    for p in only_hudi:
        if parts.get(p, {}).get("uncommitted_files"):
            continue
        if any(os.path.isdir(os.path.join(temp, inst, p)) and os.listdir(os.path.join(temp, inst, p))
               for inst in pending):
            continue
        return False
    return True


def pred_archive_commits_kept_for_replaced_files(tb, text):
    """lakegc's archive plan under the same settings keeps a commit for
    replaced files still on storage (check_archive records the settings)."""
    return any(text.endswith(label) for label in tb.get("archive_replaced_labels", ()))


HELD_ECTR_RE = re.compile(r"^earliestInstantToRetain lakegc (\d+), Hudi (?:\(its plan without work\) )?(\d+)")


def pred_boundary_held_at_guarded_replace(tb, text):
    """lakegc's plan under the same settings reports its earliest instant to
    retain held back at a guarded replacecommit (`reasons.boundary_held`;
    check_clean records it per setting), and the difference is exactly that:
    lakegc's boundary is the replacecommit it held at and Hudi's is later, or
    files lakegc keeps behind it."""
    for label, held in tb.get("boundary_held", {}).items():
        if not text.endswith(label):
            continue
        m = HELD_ECTR_RE.match(text)
        if m:
            return m.group(1) == held and m.group(2) > held
        return text.startswith("files only Hudi deletes (lakegc keeps)")
    return False


PREDICATES = {
    "boundary_held_at_guarded_replace": pred_boundary_held_at_guarded_replace,
    "archive_commits_kept_for_replaced_files": pred_archive_commits_kept_for_replaced_files,
    "partitions_with_pending_write_files": pred_partitions_with_pending_write_files,
    "logs_of_pending_writes": pred_logs_of_pending_writes,
    "slices_of_pending_writes": pred_slices_of_pending_writes,
    "logs_not_committed": pred_logs_not_committed,
    "pending_compaction_after_as_of": pred_pending_compaction_after_as_of,
    "planted_duplicate": pred_planted_duplicate,
    "by_hours_utc_table_off_utc_jvm": pred_by_hours_utc_table_off_utc_jvm,
}


class Known:
    def __init__(self, path):
        self.path = path
        self.entries = []
        if os.path.exists(path):
            with open(path) as f:
                data = json.load(f)
            for e in data.get("differences", []):
                e["_re"] = re.compile(e["match"])
                if e.get("when") and e["when"] not in PREDICATES:
                    raise SystemExit("%s: %s: unknown predicate %r" % (path, e["id"], e["when"]))
                e["_hits"] = 0
                self.entries.append(e)

    def match(self, check, tb, text):
        for e in self.entries:
            checks = e["check"] if isinstance(e["check"], list) else [e["check"]]
            if check not in checks or not e["_re"].search(text):
                continue
            if not re.search(e.get("table", ""), (tb or {}).get("desc") or ""):
                continue
            when = e.get("when")
            if when and not PREDICATES[when](tb or {}, text):
                continue
            e["_hits"] += 1
            return e
        return None


# ----------------------------------------------------------------------------- the suite

class Suite:
    def __init__(self, opts):
        self.o = opts
        self.env = dict(os.environ)
        self.env["TZ"] = opts.tz
        self.known = Known(os.path.join(HERE, "known_differences.json"))
        self.failures = []   # (check, table, text, repro)
        self.known_hits = []
        self.counts = {}
        self.tables = []     # dicts: seed, dir, gen args, generate result (checker thread only)
        self.lock = threading.Lock()  # counts and failures: the generator thread reports too

    # -- reporting
    def diff(self, check, table, texts, repro):
        with self.lock:
            self._diff(check, table, texts, repro)

    def _diff(self, check, table, texts, repro):
        self.counts.setdefault(check, [0, 0])
        self.counts[check][0] += 1
        if not texts:
            return
        self.counts[check][1] += 1
        for t in texts:
            k = self.known.match(check, table, t)
            if k:
                self.known_hits.append((check, table, t, k["id"]))
            else:
                self.failures.append((check, table, t, repro))
                if len([f for f in self.failures if f[0] == check and f[1] == table]) <= 6:
                    log("  DIFF [%s] %s: %s" % (check, table["name"] if table else "-", t))

    def repro(self, table, *cmds):
        lines = []
        if table:
            lines.append("tests/interop/hudi " + shell_join(table["gen_args"]) + "   # timing-dependent; the seed fixes the scenario")
        lines += [shell_join(c) for c in cmds]
        return lines

    # -- phases
    def generate(self, hudi, ready, stop):
        """Generates every table in order on its own JVM and hands each to
        the checker through `ready` (None at the end)."""
        try:
            for seed, combo in self.o.tables:
                if stop.is_set():
                    break
                tb = self.generate_one(hudi, seed, combo)
                if tb:
                    ready.put(tb)
        except RuntimeError as e:
            self.failures.append(("generate", None, str(e), []))
            log("  FAIL generate: %s" % e)
        finally:
            ready.put(None)

    def generate_one(self, hudi, seed, combo):
        work = self.o.work
        v, t, m = combo
        name = "s%d_v%d_%s_mdt%s" % (seed, v, t.lower(), m)
        d = os.path.join(work, name)
        args = ["generate", "--seed", seed, "--out", d, "--table-version", v, "--type", t, "--mdt", m]
        if m == "on":
            args += ["--mdt-indexes", mdt_indexes_of(seed)]
        t0 = time.time()
        saved = d + ".generate.json"
        if self.o.reuse and os.path.exists(saved) and os.path.isdir(d):
            with open(saved) as f:
                r = {"exit": 0, "result": json.load(f)}
            for extra in (d + ".lakegc",):
                shutil.rmtree(extra, ignore_errors=True)
        else:
            r = hudi(*args)
            if r["exit"] == 0:
                with open(saved, "w") as f:
                    json.dump(r["result"], f)
        if r["exit"] != 0:
            self.failures.append(("generate", {"name": name}, "generate failed: %s" % r.get("error"),
                                  ["tests/interop/hudi " + shell_join(args)]))
            log("  FAIL generate %s: %s" % (name, r.get("error")))
            return None
        g = r["result"]
        s = g.get("settings", {})
        desc = "v%d %s mdt=%s%s tz=%s partitioned=%s hive=%s scheme=%s occ=%s" % (
            v, t, m, "(%s)" % g.get("mdt_indexes") if m == "on" else "", s.get("timezone"), g.get("partitioned"), s.get("hive_style"), s.get("partition_scheme"),
            s.get("occ_two_writers"))
        tb = {"name": name, "seed": seed, "dir": d, "gen_args": [str(a) for a in args], "gen": g,
              "version": v, "type": t, "mdt": m, "desc": desc}
        ops = [o["op"] + ("" if o.get("ok") else "!") for o in g["ops"]]
        log("  %s [%s]: %d ops in %.0fs (%s)%s" % (name, desc, len(ops), time.time() - t0, " ".join(ops),
                                             "; Hudi errors: %s" % g["errors"] if g["errors"] else ""))
        return tb

    def ldir(self, tb):
        """The directory lakegc reads: the table, or the copy made when lakegc
        refused the table for the marker checksum files a local (Hadoop
        ChecksumFileSystem) write leaves; that refusal is reported as a
        difference of its own, the other checks still run."""
        return tb.get("ldir", tb["dir"])

    def lake_inspect(self, tb, as_of=None):
        args = ["inspect", self.ldir(tb), "--json"] + (["--as-of", as_of] if as_of else [])
        rc, out, err = run_lakegc(self.o.lakegc, args, self.env)
        return rc, out, err, [self.o.lakegc] + args

    def check_view(self, hudi, tb):
        rc, latest, err, cmd = self.lake_inspect(tb)
        if rc != 0 and re.search(r"\.hoodie/\.temp/.*\.crc", err):
            self.diff("view", tb, ["lakegc refuses the table: %s" % err], self.repro(tb, cmd))
            copy = tb["dir"] + ".lakegc"
            shutil.rmtree(copy, ignore_errors=True)
            shutil.copytree(tb["dir"], copy, symlinks=True)
            for root, _, files in os.walk(os.path.join(copy, ".hoodie", ".temp")):
                for f in files:
                    if f.endswith(".crc"):
                        os.remove(os.path.join(root, f))
            tb["ldir"] = copy
            log("  %s: lakegc reads a copy without .hoodie/.temp/**/*.crc from here on" % tb["name"])
            rc, latest, err, cmd = self.lake_inspect(tb)
        if rc != 0 or latest is None:
            self.diff("view", tb, ["lakegc inspect failed (exit %d): %s" % (rc, err)], self.repro(tb, cmd))
            return
        tb["lake_inspect"] = latest
        layout = latest["table"]["timeline_layout"]
        commits = [i["requested"] for i in latest["timeline"]
                   if i["state"] == "completed" and i["action"] in ("commit", "deltacommit", "replacecommit")]
        picks = sorted(set([commits[0], commits[len(commits) // 2], commits[-2]] if len(commits) >= 3 else commits))
        tb["views"] = []
        for as_of in [None] + picks[: self.o.as_of]:
            if as_of is None:
                lake = latest
                lcmd = cmd
            else:
                rc, lake, err, lcmd = self.lake_inspect(tb, as_of)
                if rc != 0 or lake is None:
                    self.diff("view", tb, ["lakegc inspect --as-of %s failed (exit %d): %s" % (as_of, rc, err)],
                              self.repro(tb, lcmd))
                    continue
            hargs = ["view", tb["dir"]] + (["--as-of", as_of] if as_of else [])
            h = hudi(*hargs)
            if h["exit"] != 0:
                self.diff("view", tb, ["hudi view failed: %s" % h.get("error")], self.repro(tb, ["tests/interop/hudi"] + hargs))
                continue
            tb["views"].append(h["result"])
            where = " (as of %s)" % as_of if as_of else ""
            texts = [t + where for t in diff_views(lake["partitions"], h["result"]["partitions"])]
            texts += [t + where for t in diff_timelines(lake["timeline"], h["result"]["timeline"], layout)]
            self.diff("view", tb, texts, self.repro(tb, lcmd, ["tests/interop/hudi"] + hargs))
        if tb["mdt"] == "on":
            # Hudi's readers list through the metadata table: what that view
            # shows counts for the orphan check (lakegc lists storage, by
            # design, so the view check compares with the storage listing).
            h = hudi("view", tb["dir"], "--listing", "metadata")
            if h["exit"] == 0:
                tb["views"].append(h["result"])
            else:
                self.diff("view", tb, ["hudi view --listing metadata failed: %s" % h.get("error")], self.repro(tb))

    def clean_grid(self, tb):
        """Settings for plan-clean, each a list of k=v, chosen for this table."""
        parts = [p["path"] for p in tb["lake_inspect"]["partitions"]] if tb.get("lake_inspect") else []
        grid = []
        for n in (1, 2, 3, 5, 10):
            grid.append(["hoodie.clean.policy=KEEP_LATEST_COMMITS", "hoodie.clean.commits.retained=%d" % n])
        for n in (1, 3):
            grid.append(["hoodie.clean.policy=KEEP_LATEST_COMMITS", "hoodie.clean.commits.retained=%d" % n,
                         "hoodie.clean.incremental.enabled=false"])
        for n in (1, 2, 3):
            grid.append(["hoodie.clean.policy=KEEP_LATEST_FILE_VERSIONS", "hoodie.clean.fileversions.retained=%d" % n])
        for h in (1, 4, 12, 36):
            grid.append(["hoodie.clean.policy=KEEP_LATEST_BY_HOURS", "hoodie.clean.hours.retained=%d" % h])
        grid.append(["hoodie.clean.policy=KEEP_LATEST_BY_HOURS", "hoodie.clean.hours.retained=6",
                     "hoodie.clean.incremental.enabled=false"])
        for m in (1, 2):
            grid.append(["hoodie.clean.policy=KEEP_LATEST_COMMITS", "hoodie.clean.commits.retained=1",
                         "hoodie.clean.max.commits.to.clean=%d" % m])
        if len(parts) >= 2 and parts[0]:
            grid.append(["hoodie.clean.commits.retained=1", "hoodie.clean.incremental.enabled=false",
                         "hoodie.clean.partition.filter.selected=%s" % parts[0]])
            grid.append(["hoodie.clean.commits.retained=2", "hoodie.clean.incremental.enabled=false",
                         "hoodie.clean.partition.filter.regex=%s" % re.escape(parts[-1])])
        grid.append(["hoodie.clean.commits.retained=1", "hoodie.clean.trigger.max.commits=50"])
        grid.append(["hoodie.clean.commits.retained=30", "hoodie.write.empty.clean.interval.hours=1"])
        grid.append(["hoodie.clean.commits.retained=1", "hoodie.write.empty.clean.interval.hours=1"])
        return grid

    def plan_now(self, tb):
        """One "now" per table: an hour after its last instant (virtual time)."""
        last = max(i["requested"] for i in tb["lake_inspect"]["timeline"]) if tb.get("lake_inspect") else None
        if not last:
            return None
        import datetime
        t = datetime.datetime.strptime(last[:14], "%Y%m%d%H%M%S") + datetime.timedelta(hours=1)
        return t.strftime("%Y%m%d%H%M%S") + last[14:17]

    @staticmethod
    def shift_instant(t, seconds):
        import datetime
        d = datetime.datetime.strptime(t[:14], "%Y%m%d%H%M%S") + datetime.timedelta(seconds=seconds)
        return d.strftime("%Y%m%d%H%M%S") + t[14:17]

    def by_hours_shift(self, tb, conf):
        """Seconds of the JVM zone's UTC offset, for BY_HOURS settings on UTC tables."""
        import datetime
        if "tz=UTC" not in (tb.get("desc") or "") or not any("KEEP_LATEST_BY_HOURS" in c for c in conf):
            return 0
        off = datetime.datetime.now().astimezone().utcoffset()
        return int(off.total_seconds()) if off else 0

    def check_clean(self, hudi, tb):
        if not tb.get("lake_inspect"):
            return
        now = self.plan_now(tb)
        for conf in self.clean_grid(tb):
            cargs = list(itertools.chain(*[["--conf", c] for c in conf]))
            largs = ["plan", "clean", self.ldir(tb), "--json", "--now", now] + cargs
            hargs = ["plan-clean", tb["dir"], "--now", now] + cargs
            repro = self.repro(tb, [self.o.lakegc] + largs, ["tests/interop/hudi"] + hargs)
            rc, lake, err = run_lakegc(self.o.lakegc, largs, self.env)
            h = hudi(*hargs)
            label = " [%s]" % " ".join(conf)
            if h["exit"] != 0:
                self.diff("clean", tb, ["hudi plan-clean failed%s: %s" % (label, h.get("error"))], repro)
                continue
            if rc != 0 or lake is None:
                self.diff("clean", tb, ["lakegc plan clean failed (exit %d)%s: %s" % (rc, label, err)], repro)
                continue
            if "plan" not in lake:
                self.diff("clean", tb, ["lakegc plan clean printed no `plan` key%s" % label], repro)
                continue
            held = (lake.get("reasons") or {}).get("boundary_held")
            shift = self.by_hours_shift(tb, conf)
            if held:
                for lb in [label] + ([label + " [compensated: hudi --now %s]" % self.shift_instant(now, -shift)]
                                     if shift else []):
                    tb.setdefault("boundary_held", {})[lb] = held["held_at"]
            self.diff("clean", tb, [t + label for t in diff_plans(lake.get("plan"), h["result"])], repro)
            if shift:
                # Hudi formats the BY_HOURS cutoff in the JVM's zone, not the
                # table's (known difference by-hours-cutoff-in-jvm-zone). Hudi
                # told a "now" earlier by the JVM's UTC offset computes the
                # cutoff a correct Hudi would: compare that strictly too.
                hnow = self.shift_instant(now, -shift)
                hargs2 = ["plan-clean", tb["dir"], "--now", hnow] + cargs
                h2 = hudi(*hargs2)
                label2 = label + " [compensated: hudi --now %s]" % hnow
                repro2 = self.repro(tb, [self.o.lakegc] + largs, ["tests/interop/hudi"] + hargs2)
                if h2["exit"] != 0:
                    self.diff("clean", tb, ["hudi plan-clean failed%s: %s" % (label2, h2.get("error"))], repro2)
                else:
                    self.diff("clean", tb, [t + label2 for t in diff_plans(lake.get("plan"), h2["result"])], repro2)

    def check_lsm_read(self, hudi, tb):
        """Layout 2: lakegc reads the LSM history Hudi wrote (generate's
        inline archival) as Hudi's own reader does: `lakegc inspect --json`'s
        archived_timeline against `hudi archived-timeline`."""
        lake = tb.get("lake_inspect")
        if not lake or lake["table"]["timeline_layout"] != 2:
            return
        h = hudi("archived-timeline", tb["dir"])
        repro = self.repro(tb, [self.o.lakegc, "inspect", self.ldir(tb), "--json"],
                           ["tests/interop/hudi", "archived-timeline", tb["dir"]])
        if h["exit"] != 0:
            self.diff("lsm_read", tb, ["hudi archived-timeline failed: %s" % h.get("error")], repro)
            return
        texts = diff_lsm_read(lake.get("archived_timeline"), h["result"])
        self.diff("lsm_read", tb, texts, repro)
        lsm = h["result"].get("lsm") or {}
        tb["lsm_files"] = len(lsm.get("manifest", []))
        log("  %s: LSM history of %d file(s), %d record(s): lakegc reads it %s" % (
            tb["name"], len(lsm.get("manifest", [])), len(lsm.get("records", [])),
            "as Hudi does" if not texts else "DIFFERENTLY"))

    def check_archive(self, hudi, tb):
        archiving = 0
        for conf in ARCHIVE_GRID:
            cargs = list(itertools.chain(*[["--conf", c] for c in conf]))
            largs = ["plan", "archive", self.ldir(tb), "--json"] + cargs
            hargs = ["plan-archive", tb["dir"]] + cargs
            repro = self.repro(tb, [self.o.lakegc] + largs, ["tests/interop/hudi"] + hargs)
            rc, lake, err = run_lakegc(self.o.lakegc, largs, self.env)
            h = hudi(*hargs)
            label = " [%s]" % " ".join(conf)
            if h["exit"] != 0:
                self.diff("archive", tb, ["hudi plan-archive failed%s: %s" % (label, h.get("error"))], repro)
                continue
            if rc != 0 or lake is None:
                self.diff("archive", tb, ["lakegc plan archive failed (exit %d)%s: %s" % (rc, label, err)], repro)
                continue
            if any("replaced_files_on_storage" in k.get("reasons", []) for k in lake.get("kept", [])):
                tb.setdefault("archive_replaced_labels", set()).add(label)
            texts = diff_archived(lake, h["result"])
            # Settings both plan the same under, for archive_execute.
            tb.setdefault("archive_agreed", []).append((conf, bool(lake.get("archived")) and not texts))
            self.diff("archive", tb, [t + label for t in texts], repro)
            archiving += 1 if h["result"].get("archived") else 0
        log("  %s: Hudi archives something under %d of %d settings" % (tb["name"], archiving, len(ARCHIVE_GRID)))

    def ttl_conf(self, tb, setting):
        """A TTL_GRID setting as --conf values for this table."""
        parts = [p["path"] for p in tb["lake_inspect"]["partitions"]]
        conf = []
        for k, v in setting.items():
            if v == "<first,last,missing>":
                v = ",".join([parts[0], parts[-1], "missing=" + parts[0]])
            conf.append("%s=%s" % (TTL_KEYS[k], v))
        return conf

    def check_ttl(self, hudi, tb):
        if not tb.get("lake_inspect") or not tb["gen"].get("partitioned"):
            return
        last = max(i["requested"] for i in tb["lake_inspect"]["timeline"])
        t0 = time.time()
        cases = []
        for setting, hours in TTL_GRID if self.o.seeds else [g for g in TTL_GRID if g[0].get("default", True)]:
            setting = {k: v for k, v in setting.items() if k != "default"}
            conf = self.ttl_conf(tb, setting)
            cases.append((setting, conf, self.shift_instant(last, hours * 3600)))
        # Hudi: one call for the whole grid (its strategies only read the table).
        hargs = ["ttl-plans", tb["dir"]] + list(itertools.chain(*[
            ["--setting", json.dumps({"now": now, "conf": dict(c.split("=", 1) for c in conf)})]
            for _, conf, now in cases]))
        h = hudi(*hargs)
        if h["exit"] != 0:
            self.diff("ttl", tb, ["hudi ttl-plans failed: %s" % h.get("error")],
                      self.repro(tb, ["tests/interop/hudi"] + hargs))
            return
        for (setting, conf, now), hres in zip(cases, h["result"]["results"]):
            cargs = list(itertools.chain(*[["--conf", c] for c in conf]))
            largs = ["plan", "ttl", self.ldir(tb), "--json", "--now", now] + cargs
            repro = self.repro(tb, [self.o.lakegc] + largs, ["tests/interop/hudi", "plan-ttl", tb["dir"], "--now", now] + cargs)
            rc, lake, err = run_lakegc(self.o.lakegc, largs, self.env)
            label = " [%s; now %s]" % (" ".join(conf), now)
            if "error" in hres or rc != 0 or lake is None:
                if "error" in hres and rc == 2:
                    continue  # both refuse (e.g. a partition without .hoodie_partition_metadata)
                self.diff("ttl", tb, ["hudi: %s; lakegc plan ttl exit %d (%s)%s"
                                      % (hres.get("error", "ok"), rc, err.strip()[:300], label)], repro)
                continue
            a, b = sorted(lake["expired"]), sorted(hres["expired_partitions"])
            texts = [] if a == b else ["expired partitions: only lakegc %s, only Hudi %s%s"
                                        % (sorted(set(a) - set(b)), sorted(set(b) - set(a)), label)]
            if texts and not lake.get("order_exact", True):
                # The cap took the first expired partitions in an order lakegc
                # says it cannot know (order_note): the same number, all expired.
                every = {p["partition"] for p in lake["partitions"] if p["verdict"].startswith("expired")}
                if len(a) == len(b) and set(b) <= every:
                    texts = []
            self.diff("ttl", tb, texts, repro)
            if a and not setting.get("max") and not setting.get("selected") and a == b:
                # partly expired first: the snapshot keeps something to compare
                partial = len(a) < len(tb["lake_inspect"]["partitions"])
                tb.setdefault("ttl_expiring", []).insert(0 if partial else len(tb.get("ttl_expiring", [])), (conf, now, a))
        log("  %s: %d TTL plan(s) compared in %.1fs" % (tb["name"], len(cases), time.time() - t0))
        if tb["mdt"] == "on" and not getattr(self, "ttl_refused", False):
            self.ttl_refused = True
            self.check_ttl_refused(tb, last)
        # Executed once on a table without a metadata table and once on one
        # whose metadata table has partition_stats (the first of each with an
        # expiring setting).
        done = "ttl_executed_mdt" if tb["mdt"] == "on" else "ttl_executed"
        eligible = tb["mdt"] == "off" or "partition_stats" in self.mdt_partitions(self.ldir(tb))
        if eligible and not getattr(self, done, False) and tb.get("ttl_expiring"):
            setattr(self, done, True)
            self.check_ttl_execute(hudi, tb)

    def check_ttl_refused(self, tb, last):
        """lakegc ttl --execute refuses a table whose metadata table has a
        record index (Hudi deletes the dropped rows' keys there, which needs
        the data files read): a copy with record_index added to its
        hoodie.properties must be refused, its timeline unchanged."""
        copy = tb["dir"] + ".ttl-refused"
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(self.ldir(tb), copy, symlinks=True)
        props = os.path.join(copy, ".hoodie", "hoodie.properties")
        with open(props) as f:
            lines = [l.replace("hoodie.table.metadata.partitions=", "hoodie.table.metadata.partitions=record_index,")
                     if l.startswith("hoodie.table.metadata.partitions=") else l for l in f]
        with open(props, "w") as f:
            f.writelines(lines)
        before = sorted(os.listdir(os.path.join(copy, ".hoodie", "timeline" if tb["version"] >= 8 else "")))
        args = ["ttl", copy, "--execute", "--no-concurrent-writers", "--now", self.shift_instant(last, 30 * 3600),
                "--conf", "hoodie.partition.ttl.strategy.days.retain=1"]
        rc, _, err = run_lakegc(self.o.lakegc, args, self.env)
        after = sorted(os.listdir(os.path.join(copy, ".hoodie", "timeline" if tb["version"] >= 8 else "")))
        texts = []
        if rc != 1 or "'record_index'" not in err:
            texts.append("lakegc ttl --execute on a table with a record index: exit %d, expected a refusal (1) naming "
                         "it: %s" % (rc, err.strip()[:300]))
        if before != after:
            texts.append("a refused lakegc ttl --execute changed the timeline: %s" % sorted(set(after) - set(before)))
        self.diff("ttl", tb, texts, self.repro(tb, [self.o.lakegc] + args))
        shutil.rmtree(copy, ignore_errors=True)

    def check_ttl_execute(self, hudi, tb):
        """lakegc ttl --execute on a copy, judged by Hudi's own TTL run and reads."""
        t0 = time.time()
        conf, now, expired = tb["ttl_expiring"][0]
        cargs = list(itertools.chain(*[["--conf", c] for c in conf]))
        copy = tb["dir"] + ".ttl"
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(self.ldir(tb), copy, symlinks=True)
        largs = ["ttl", copy, "--execute", "--json", "--no-concurrent-writers", "--now", now] + cargs
        mdt = tb["mdt"] == "on"
        # With a metadata table Hudi's run goes to a copy of its own, kept to
        # compare the metadata tables.
        hcopy = tb["dir"] + ".ttl-hudi"
        if mdt:
            shutil.rmtree(hcopy, ignore_errors=True)
            shutil.copytree(self.ldir(tb), hcopy, symlinks=True)
        hrun = (["ttl-run", hcopy, "--in-place"] if mdt else ["ttl-run", tb["dir"]]) + ["--now", now] + cargs
        repro = self.repro(tb, ["cp", "-r", tb["dir"], copy], [self.o.lakegc] + largs, ["tests/interop/hudi"] + hrun)
        label = " [%s; now %s]" % (" ".join(conf), now)
        rc, lake, err = run_lakegc(self.o.lakegc, largs, self.env)
        if rc != 0 or lake is None or not lake.get("executed"):
            self.diff("ttl", tb, ["lakegc ttl --execute failed or wrote nothing (exit %d): %s%s"
                                  % (rc, err.strip()[:300], label)], repro)
            return
        # Hudi's own TTL run at the same instant, on another copy.
        h = hudi(*hrun)
        mine = hudi("replace-metadata", copy, "--instant", now)
        texts = []
        if h["exit"] != 0 or mine["exit"] != 0:
            texts.append("hudi ttl-run exit %d (%s); hudi replace-metadata on lakegc's copy exit %d (%s)"
                         % (h["exit"], h.get("error"), mine["exit"], mine.get("error")))
        else:
            lake_ids = {p: sorted(ids) for p, ids in lake["partition_to_replace_file_ids"].items()}
            hudi_ids = h["result"].get("completed", {}).get("partitionToReplaceFileIds")
            if lake_ids != hudi_ids:
                texts.append("partitionToReplaceFileIds lakegc %s, Hudi's TTL run %s" % (lake_ids, hudi_ids))
            for k in ("action", "state", "requested", "inflight", "completed"):
                if mine["result"].get(k) != h["result"].get(k):
                    texts.append("replacecommit %s as Hudi reads it: lakegc's %s, Hudi's %s"
                                 % (k, mine["result"].get(k), h["result"].get(k)))
        if mdt and h["exit"] == 0:
            texts += self.ttl_metadata_texts(hudi, tb, copy, hcopy, lake)
        # The snapshot: no row of an expired partition (Hudi's file-system
        # view skips the replaced groups); after the clean below, the same.
        s1 = hudi("snapshot-partitions", copy)
        if s1["exit"] != 0:
            texts.append("hudi snapshot-partitions after lakegc ttl --execute failed: %s" % s1.get("error"))
        elif set(s1["result"]["partitions"]) & set(expired):
            texts.append("Hudi's snapshot after lakegc ttl --execute still has rows of %s: %s"
                         % (sorted(set(s1["result"]["partitions"]) & set(expired)), s1["result"]["partitions"]))
        self.diff("ttl", tb, [t + label for t in texts], repro)
        # The cleaners after TTL: the same plan (the replaced groups, the emptied partitions).
        clean_conf = ["hoodie.clean.policy=KEEP_LATEST_FILE_VERSIONS", "hoodie.clean.fileversions.retained=1"]
        cnow = self.shift_instant(now, 3600)
        ccargs = list(itertools.chain(*[["--conf", c] for c in clean_conf]))
        lp = ["plan", "clean", copy, "--json", "--now", cnow] + ccargs
        hp = ["plan-clean", copy, "--now", cnow] + ccargs
        crepro = repro + [shell_join([self.o.lakegc] + lp), shell_join(["tests/interop/hudi"] + hp)]
        rc, lplan, err = run_lakegc(self.o.lakegc, lp, self.env)
        h = hudi(*hp)
        if rc != 0 or lplan is None or h["exit"] != 0:
            self.diff("ttl", tb, ["plan clean after ttl: lakegc exit %d (%s), hudi exit %d (%s)"
                                  % (rc, err.strip()[:200], h["exit"], h.get("error"))], crepro)
            return
        self.diff("ttl", tb, diff_plans(lplan.get("plan"), h["result"]), crepro)
        # lakegc's cleaner removes the replaced files; Hudi reads the same table after.
        ce = ["clean", copy, "--execute", "--json", "--no-concurrent-writers", "--now", cnow] + ccargs
        rc, cres, err = run_lakegc(self.o.lakegc, ce, self.env)
        texts = []
        if rc != 0:
            texts.append("lakegc clean --execute after ttl failed (exit %d): %s" % (rc, err.strip()[:300]))
        else:
            left = []
            for p in expired:
                pdir = os.path.join(copy, p)
                for root, _, files in os.walk(pdir) if os.path.isdir(pdir) else []:
                    left += [f for f in files if BASE_RE.search(f) or LOG_RE.search("." + f.lstrip("."))]
            gone = set(itertools.chain(*[v for v in (lplan["plan"] or {}).get("filePathsToBeDeletedPerPartition", {}).values()]))
            left = [f for f in left if any(f in g for g in gone)]
            if left:
                texts.append("files of expired partitions the clean planned but left on storage: %s" % left[:5])
            s2 = hudi("snapshot-partitions", copy)
            if s2["exit"] != 0 or s1["exit"] != 0 or s2["result"] != s1["result"]:
                texts.append("Hudi's snapshot after lakegc clean --execute: %s, before the clean %s"
                             % (s2.get("result") or s2.get("error"), s1.get("result") or s1.get("error")))
            if mdt:
                _, v, _ = latest_snapshot_baseline(hudi, copy, copy + ".verify.json")
                v -= tb.get("ttl_untouched_diffs", set())
                if v:
                    texts.append("hudi verify (the metadata table against storage) after lakegc's TTL and clean: %s"
                                 % sorted(v)[:4])
        self.diff("ttl", tb, [t + label for t in texts], crepro + [shell_join([self.o.lakegc] + ce)])
        log("  %s: lakegc ttl --execute replaced %s%s; Hudi's TTL run, snapshots and cleaners compared in %.1fs"
            % (tb["name"], expired, "; metadata table %s" % lake.get("metadata_table_partitions_updated") if mdt else "",
               time.time() - t0))
        if not self.o.keep:
            shutil.rmtree(copy, ignore_errors=True)
            shutil.rmtree(hcopy, ignore_errors=True)

    def ttl_metadata_texts(self, hudi, tb, copy, hcopy, lake):
        """With a metadata table: after lakegc's TTL the partition_stats Hudi
        reads equal those after Hudi's own TTL run (the expired partitions'
        gone, the rest kept), the partitions lakegc reports updated are those
        that got records, and Hudi validates the metadata table against
        storage (differences the untouched table had too left out)."""
        texts = []
        parts = self.mdt_partitions(copy)
        want = ["files"] + (["partition_stats"] if "partition_stats" in parts else [])
        if lake.get("metadata_table_partitions_updated") != want:
            texts.append("metadata_table_partitions_updated: %s, expected %s"
                         % (lake.get("metadata_table_partitions_updated"), want))
        if "partition_stats" in parts:
            empty = copy + ".no-files.json"
            with open(empty, "w") as f:
                json.dump([], f)
            a, b = hudi("index-state", copy, "--files", empty), hudi("index-state", hcopy, "--files", empty)
            if a["exit"] != 0 or b["exit"] != 0:
                texts.append("hudi index-state after TTL: lakegc's copy %s, Hudi's %s" % (a.get("error"), b.get("error")))
            elif a["result"].get("partition_stats") != b["result"].get("partition_stats"):
                texts.append("partition_stats after TTL: lakegc's %s, Hudi's %s"
                             % (a["result"].get("partition_stats"), b["result"].get("partition_stats")))
        if "ttl_untouched_diffs" not in tb:
            _, tb["ttl_untouched_diffs"], _ = latest_snapshot_baseline(hudi, self.ldir(tb), copy + ".untouched.json")
        _, v, _ = latest_snapshot_baseline(hudi, copy, copy + ".verify.json")
        v -= tb["ttl_untouched_diffs"]
        if v:
            texts.append("hudi verify (the metadata table against storage) after lakegc's TTL: %s" % sorted(v)[:4])
        return texts

    def check_orphans(self, hudi, tb):
        shown = set()
        for v in tb.get("views", []):
            shown |= files_shown(v)
        # every completed write instant as well ("any retained one")
        for i in (tb.get("lake_inspect") or {}).get("timeline", []):
            if i["state"] == "completed" and i["action"] in ("commit", "deltacommit", "replacecommit"):
                h = hudi("view", tb["dir"], "--as-of", i["requested"])
                if h["exit"] == 0:
                    shown |= files_shown(h["result"])
        args = ["orphans", self.ldir(tb), "--json", "--older-than", "0s", "--force"]
        rc, out, err = run_lakegc(self.o.lakegc, args, self.env)
        repro = self.repro(tb, [self.o.lakegc] + args, ["tests/interop/hudi", "view", tb["dir"]])
        if out is None or rc not in (0, 1):
            self.diff("orphans", tb, ["lakegc orphans failed (exit %d): %s" % (rc, err)], repro)
            return
        strays = tb["gen"].get("strays", [])
        listed = [f["path"] for f in out.get("orphans", []) + out.get("too_young", [])]
        tb["orphans_listed"] = listed
        self.diff("orphans", tb, diff_orphans(out, shown), repro)
        log("  %s: lakegc lists %d orphan(s) (%d planted strays, %d failed writes)%s"
            % (tb["name"], len(listed), len(strays), len(tb["gen"].get("failed_writes", [])),
               "; guards: %s" % out["guards"] if out.get("guards") else ""))

    def check_readback(self, hudi):
        # The first --readback tables of the whole run (--only keeps them).
        cands = [t for t in self.tables if t.get("lake_inspect") and t["seed"] in self.o.readback_seeds]
        if not cands:
            return
        for tb0 in cands:
            # on a copy: continue writes to it, and --reuse must find the table as generated
            tb = dict(tb0, dir=tb0["dir"] + ".readback")
            shutil.rmtree(tb["dir"], ignore_errors=True)
            shutil.copytree(tb0["dir"], tb["dir"], symlinks=True)
            base = os.path.join(self.o.work, tb["name"] + ".baseline.json")
            r = hudi("baseline", tb["dir"])
            repro = self.repro(tb, ["tests/interop/hudi", "baseline", tb["dir"]])
            if r["exit"] != 0:
                self.diff("readback", tb, ["hudi baseline failed: %s" % r.get("error")], repro)
                continue
            with open(base, "w") as f:
                json.dump(r["result"], f)
            promised = ",".join(sorted(r["result"].get("as_of", {}))[-3:])
            v = hudi("verify", tb["dir"], "--baseline", base, "--promised", promised)
            self.diff("readback", tb, [] if v["exit"] == 0 else
                      ["hudi verify of the untouched table failed: %s" % (v.get("error") or v["result"].get("differences"))],
                      self.repro(tb, ["tests/interop/hudi", "verify", tb["dir"], "--baseline", base, "--promised", promised]))
            # self-test: a copy with one file of the latest snapshot gone must fail verify
            dmg = tb["dir"] + ".damaged"
            shutil.rmtree(dmg, ignore_errors=True)
            shutil.copytree(tb["dir"], dmg, symlinks=True)
            victim = None
            for p in tb["lake_inspect"]["partitions"]:
                for g in p["file_groups"]:
                    if g["replaced_by"] is None and g["slices"] and g["slices"][0]["base_file"]:
                        victim = os.path.join(dmg, p["path"], g["slices"][0]["base_file"])
                        break
                if victim:
                    break
            if victim:
                os.remove(victim)
                v = hudi("verify", dmg, "--baseline", base)
                self.counts.setdefault("selftest", [0, 0])
                self.counts["selftest"][0] += 1
                if v["exit"] == 0:
                    self.failures.append(("selftest", tb, "hudi verify passed on a copy without %s" % victim, []))
                    log("  FAIL selftest: verify passed on a damaged copy")
            shutil.rmtree(dmg, ignore_errors=True)
            c = hudi(*self.continue_args(tb, tb["dir"], 2))
            self.diff("readback", tb, [] if c["exit"] == 0 else ["hudi continue failed: %s" % c.get("error")],
                      self.repro(tb, ["tests/interop/hudi"] + self.continue_args(tb, tb["dir"], 2)))
            shutil.rmtree(tb["dir"], ignore_errors=True)

    # Metadata-table partitions lakegc updates on clean (files) or that Hudi
    # writes no clean record to (lakegc/hudi/metadata_table/clean_records.hpp).
    @staticmethod
    def mdt_partitions(root):
        props = {}
        with open(os.path.join(root, ".hoodie", "hoodie.properties")) as f:
            for line in f:
                if "=" in line and not line.startswith("#"):
                    k, v = line.rstrip("\n").split("=", 1)
                    props[k] = v
        return [p for k in ("hoodie.table.metadata.partitions", "hoodie.table.metadata.partitions.inflight")
                for p in props.get(k, "").split(",") if p]

    @staticmethod
    def verify_failed(v, tb):
        """Why `hudi verify` failed, leaving out differences the untouched
        table had too (tb["untouched_diffs"]); None if it passed."""
        if v["exit"] == 0:
            return None
        if v.get("error"):
            return v["error"]
        new = [d for d in (v.get("result") or {}).get("differences") or [] if d not in tb.get("untouched_diffs", set())
               and not SAME_ANSWER.match(d)]
        return new or None

    # Metadata-table partitions lakegc keeps in step on a clean (files,
    # column_stats, bloom_filters get records; the others get none from Hudi).
    UPDATABLE = ("files", "column_stats", "bloom_filters", "record_index", "partition_stats")

    @classmethod
    def updatable(cls, p):
        return p in cls.UPDATABLE or p.startswith("secondary_index_")

    def mdt_updatable(self, tb):
        return all(self.updatable(p) for p in self.mdt_partitions(self.ldir(tb)))

    def check_execute_refused(self, tb, now, add_partition=None):
        """lakegc refuses a table whose metadata table has a partition it
        cannot update (exit 1, nothing deleted), naming the partition. With
        add_partition, a copy of an updatable table gets one listed."""
        copy = "%s.execute-refused" % tb["dir"]
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(self.ldir(tb), copy, symlinks=True)
        props = os.path.join(copy, ".hoodie", "hoodie.properties")
        if add_partition:
            with open(props) as f:
                lines = [l.replace("hoodie.table.metadata.partitions=", "hoodie.table.metadata.partitions=%s," % add_partition)
                         if l.startswith("hoodie.table.metadata.partitions=") else l for l in f]
            with open(props, "w") as f:
                f.writelines(lines)
        refused = [p for p in self.mdt_partitions(copy) if not self.updatable(p)]
        largs = ["clean", copy, "--execute", "--json", "--now", now, "--no-concurrent-writers"] + \
            list(itertools.chain(*[["--conf", c] for c in EXECUTE_GRID[0]]))
        before = self.data_files(copy)
        rc, _, err = run_lakegc(self.o.lakegc, largs, self.env)
        texts = []
        if rc != 1 or not any("'%s'" % p in err for p in refused):
            texts.append("lakegc clean --execute on a table with metadata partition(s) %s: exit %d, expected a refusal "
                         "naming one (exit 1): %s" % (refused, rc, err))
        if self.data_files(copy) != before:
            texts.append("lakegc clean --execute deleted files although it refused: %s"
                         % sorted(before - self.data_files(copy))[:8])
        self.diff("execute", tb, texts, self.repro(tb, [self.o.lakegc] + largs))
        log("  %s [metadata partitions %s]: lakegc refused (exit %d), %s" % (
            tb["name"], ",".join(self.mdt_partitions(copy)), rc, "nothing deleted" if not texts else "FAILED"))
        if not self.o.keep:
            shutil.rmtree(copy, ignore_errors=True)

    @staticmethod
    def hold_heartbeats(d):
        """Makes every heartbeat file of the copy d (.hoodie/.heartbeat/<instant>)
        alive for Hudi and lakegc alike: its time a year ahead of the real
        clock. Hudi compares a heartbeat's file time with the real clock, lakegc
        with --now, and the harness's instants (so --now) run ahead of the real
        clock: as written, a heartbeat beaten a minute ago is fresh to Hudi and
        hours old to lakegc, and the two LAZY rollbacks differ (before this,
        two-writer tables were left out of the rollback check for that).
        Held alive, a LAZY rollback must keep that write and roll back only the
        writes without a heartbeat (OCC losers, whose writer deleted it)."""
        hb = os.path.join(d, ".hoodie", ".heartbeat")
        if not os.path.isdir(hb):
            return
        ahead = time.time() + 365 * 24 * 3600
        for n in os.listdir(hb):
            if not n.endswith(".crc"):
                os.utime(os.path.join(hb, n), (ahead, ahead))

    @staticmethod
    def continue_args(tb, d, n, conf=()):
        """`hudi continue` on a copy of table tb: writers of a table generated
        with two OCC writers continue under OCC (LAZY rollback), as its own
        writers would; under EAGER Hudi refuses to roll back a write that lost
        its conflict check. `conf`: writer settings (--conf K=V)."""
        occ = (tb.get("gen") or {}).get("settings", {}).get("occ_two_writers")
        return ["continue", d, "--commits", str(n)] + (["--occ"] if occ else []) + \
            list(itertools.chain(*[["--conf", c] for c in conf]))

    @staticmethod
    def data_files(root):
        """Data files under a table root (not .hoodie, not checksum files), relative."""
        out = set()
        for d, dirs, files in os.walk(root):
            rel = os.path.relpath(d, root)
            if rel == ".hoodie" or rel.startswith(".hoodie" + os.sep):
                dirs[:] = []
                continue
            for f in files:
                if f.endswith(".crc") or f.startswith(".hoodie_partition_metadata"):
                    continue
                out.add(f if rel == "." else os.path.join(rel, f).replace(os.sep, "/"))
        return out

    @staticmethod
    def promised_instants(plan, timeline):
        """The completed writes a plan promises time travel to: those at or
        after its earliest instant to retain. (The newest slice before it is
        kept too, but Hudi refuses time travel before the last clean's
        earliest commit to retain: "Cleaner cleaned up the timestamp of
        interest".)"""
        writes = sorted(i["requested"] for i in timeline if i["state"] == "completed"
                        and i["action"] in ("commit", "deltacommit", "replacecommit"))
        e = (plan or {}).get("earliestInstantToRetain")
        if not e:
            return writes[-1:]
        return [w for w in writes if w >= e]

    def check_empty_clean(self, hudi, tb):
        """A clean that crashed while completing: on the first table of each
        kind (no metadata table; a metadata table of table version 8+; one of
        version 6; --seeds: every one) whose newest completed clean is not its
        newest instant, that clean's completed file is emptied (0 bytes, as a
        crash while writing it leaves it; with a metadata table also, in two
        more copies, removed: a crash just before it) in two copies; `lakegc
        clean --execute` on one and Hudi's own clean (`clean-run`) on the
        other, under the same settings and now, must repair it alike: the same
        data files deleted, the emptied clean completed again and as many new
        cleans, and Hudi reads lakegc's copy as before (verify). With a
        metadata table the emptied clean's deltacommit there is rolled back
        and written again, as Hudi's metadata writer does (verify checks the
        metadata table; version 6 keeps the old log behind a rollback command
        block). A version-6 metadata table with instants after the clean is
        refused instead (exit 1, nothing changed: the rewritten records would
        go behind theirs; check_empty_clean_refused), so on such a table the
        comparison also runs on a clean Hudi makes there first, which nothing
        follows (check_v6_newest_clean_crashed)."""
        kind = "plain" if tb["mdt"] == "off" else ("mdt" if tb["version"] >= 8 else "mdt6")
        kinds = getattr(self, "empty_clean_kinds", set())
        if not self.o.seeds and kind in kinds:
            return
        if kind == "mdt6":
            self.check_v6_newest_clean_crashed(hudi, tb)
        tl = os.path.join(self.ldir(tb), ".hoodie", "timeline" if tb["version"] >= 8 else "")
        timeline = tb["lake_inspect"]["timeline"]
        cleans = sorted(i["requested"] for i in timeline if i["action"] == "clean" and i["state"] == "completed")
        if not cleans or max(i["requested"] for i in timeline) == cleans[-1]:
            return
        t = cleans[-1]
        names = [n for n in os.listdir(tl) if n.startswith(t) and n.endswith(".clean")]
        if len(names) != 1:
            return
        self.empty_clean_kinds = kinds | {kind}
        now = self.plan_now(tb)
        conf = EXECUTE_GRID[1]
        cargs = list(itertools.chain(*[["--conf", c] for c in conf]))
        rel_tl = os.path.relpath(tl, self.ldir(tb))
        if kind == "mdt6" and self.check_empty_clean_refused(tb, t, tb["dir"] + ".empty-clean",
                                                             os.path.join(rel_tl, names[0]), now, cargs):
            return
        # With a metadata table, also the crash one step earlier: the clean's
        # completed file never written (its metadata deltacommit completed),
        # which Hudi's next clean finishes the same way.
        for variant in (("empty", "pending") if kind != "plain" else ("empty",)):
            self.check_crashed_clean(hudi, tb, t, os.path.join(rel_tl, names[0]), now, cargs, variant)

    def check_crashed_clean(self, hudi, tb, t, rel_clean, now, cargs, variant, src=None):
        """check_empty_clean's comparison with Hudi on two copies of the table
        (or of `src`) whose clean `t` (completed file `rel_clean`) crashed
        while completing: its completed file emptied (`variant` "empty") or
        removed ("pending")."""
        t0 = time.time()
        suffix = ".empty-clean" if variant == "empty" else ".pending-clean"
        copy, hcopy = tb["dir"] + suffix, tb["dir"] + suffix + "-hudi"
        rel_tl = os.path.dirname(rel_clean)
        for d in (copy, hcopy):
            shutil.rmtree(d, ignore_errors=True)
            shutil.copytree(src or self.ldir(tb), d, symlinks=True)
            if variant == "empty":
                open(os.path.join(d, rel_clean), "w").close()
            else:
                os.remove(os.path.join(d, rel_clean))
        what = "empty clean" if variant == "empty" else "pending clean"
        crash = ("truncate -s 0 " if variant == "empty" else "rm ") + os.path.join(copy, rel_clean)

        base = copy + ".baseline.json"
        latest, untouched, _ = latest_snapshot_baseline(hudi, copy, base)
        largs = ["clean", copy, "--execute", "--json", "--now", now, "--no-concurrent-writers"] + cargs
        repro = self.repro(tb, [crash], [self.o.lakegc] + largs,
                           ["tests/interop/hudi", "clean-run", hcopy, "--now", now] + cargs,
                           ["tests/interop/hudi", "verify", copy, "--baseline", base])
        before = self.data_files(copy)
        rc, out, err = run_lakegc(self.o.lakegc, largs, self.env)
        texts = []
        outcome = ""
        if rc != 0 or out is None:
            self.diff("execute", tb, ["%s %s: lakegc clean --execute failed (exit %d): %s" % (what, t, rc, err)],
                      repro)
            return
        h = hudi("clean-run", hcopy, "--now", now, *cargs)
        if h["exit"] != 0:
            texts.append("hudi clean-run failed: %s" % h.get("error"))
        else:
            lake, hud = before - self.data_files(copy), before - self.data_files(hcopy)
            if lake != hud:
                texts.append("files deleted: only lakegc %s, only Hudi %s" % (sorted(lake - hud)[:8], sorted(hud - lake)[:8]))

            def shape(d):
                files = os.listdir(os.path.join(d, rel_tl))
                again = [n for n in files if n.startswith(t) and n.endswith(".clean")
                         and os.path.getsize(os.path.join(d, rel_tl, n)) > 0]
                new = [n for n in files if n.endswith(".clean") and n[:17] > t]
                return len(again), len(new)
            if shape(copy) != shape(hcopy):
                texts.append("after the repair (clean %s completed again, new completed cleans): lakegc %s, Hudi %s"
                             % (t, shape(copy), shape(hcopy)))
            elif shape(copy)[0] != 1:
                texts.append("neither lakegc nor Hudi completed clean %s again" % t)
            outcome = "%d file(s) deleted, %d new clean(s)" % (len(lake), shape(copy)[1])
        if latest is None:
            texts.append("no latest snapshot from hudi verify before the repair")
        else:
            v = hudi("verify", copy, "--baseline", base)
            # A copy of `src` (another state than the table's) has its own
            # untouched differences, and must not set the table's.
            judged = dict(tb, untouched_diffs=untouched) if src else tb
            if not src:
                tb.setdefault("untouched_diffs", untouched)
            if self.verify_failed(v, judged) and h["exit"] == 0:
                # What Hudi's own repair leaves too is Hudi's answer (e.g. a
                # failed write's log-only slice that the storage view shows
                # once the clean completes and the metadata table never lists).
                hv = hudi("verify", hcopy, "--baseline", base)
                judged = dict(judged, untouched_diffs=set(judged.get("untouched_diffs") or set())
                              | set((hv.get("result") or {}).get("differences") or []))
            if self.verify_failed(v, judged):
                texts.append("hudi verify after lakegc's repair failed: %s" % self.verify_failed(v, judged))
        if not self.o.keep:
            shutil.rmtree(hcopy, ignore_errors=True)
        self.diff("execute", tb, ["%s %s: %s" % (what, t, x) for x in texts], repro)
        log("  %s: %s %s (crashed while completing) finished by lakegc and by Hudi in %.0fs: %s (%s)"
            % (tb["name"], what, t, time.time() - t0, "differ" if texts else "alike", outcome))

    def check_v6_newest_clean_crashed(self, hudi, tb):
        """check_empty_clean for a version-6 metadata table on a clean nothing
        follows: Hudi's own clean (`clean-run`) on a copy makes one, the newest
        instant in both timelines; then check_crashed_clean empties it, and
        removes it, on copies of that: lakegc and Hudi finish it alike, the
        metadata table's deltacommit of it rolled back (a rollback command
        block after its log) and written again."""
        self.empty_clean_kinds = getattr(self, "empty_clean_kinds", set()) | {"mdt6"}
        now = self.plan_now(tb)
        cargs = list(itertools.chain(*[["--conf", c] for c in EXECUTE_GRID[1]]))
        src = tb["dir"] + ".v6-newest-clean"
        shutil.rmtree(src, ignore_errors=True)
        shutil.copytree(self.ldir(tb), src, symlinks=True)
        r = hudi("clean-run", src, "--now", now, *cargs)
        t = (r.get("result") or {}).get("clean_instant")
        if r["exit"] == 0 and not t:
            log("  %s: NOT CHECKED: Hudi's clean-run found nothing to clean, so no version-6 clean to crash"
                % tb["name"])
            return
        if r["exit"] != 0 or not os.path.exists(os.path.join(src, ".hoodie", t + ".clean")):
            self.diff("execute", tb, ["hudi clean-run made no completed clean to crash (exit %d): %s"
                                      % (r["exit"], r.get("error") or r.get("result"))],
                      self.repro(tb, ["tests/interop/hudi", "clean-run", src, "--now", now] + cargs))
            return
        for variant in ("empty", "pending"):
            self.check_crashed_clean(hudi, tb, t, os.path.join(".hoodie", t + ".clean"), now, cargs, variant, src)
        if not self.o.keep:
            shutil.rmtree(src, ignore_errors=True)

    def check_empty_clean_refused(self, tb, t, copy, rel_clean, now, cargs):
        """check_empty_clean on a version-6 table with a metadata table whose
        metadata timeline has instants after the clean (Hudi would append the
        rewritten clean's records behind them; lakegc refuses): exit 1 naming
        the 0-byte clean and the later instant, nothing changed. True when it
        refused (checked here); False when lakegc repaired it (the metadata
        table had nothing later), which the caller then compares with Hudi."""
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(self.ldir(tb), copy, symlinks=True)
        open(os.path.join(copy, rel_clean), "w").close()

        def tree(root):
            return {os.path.relpath(os.path.join(d, f), root): os.path.getsize(os.path.join(d, f))
                    for d, _, files in os.walk(root) for f in files}
        before = tree(copy)
        largs = ["clean", copy, "--execute", "--json", "--now", now, "--no-concurrent-writers"] + cargs
        repro = self.repro(tb, ["truncate -s 0 " + os.path.join(copy, rel_clean)], [self.o.lakegc] + largs)
        rc, _, err = run_lakegc(self.o.lakegc, largs, self.env)
        if rc == 0:
            shutil.rmtree(copy, ignore_errors=True)
            return False
        texts = []
        if rc != 1 or "0-byte" not in (err or "") or "after pending clean" not in (err or ""):
            texts.append("empty clean %s on a version-6 metadata table: expected success or a refusal (exit 1) "
                         "naming the 0-byte clean and a later metadata instant, got exit %d: %s" % (t, rc, err))
        if tree(copy) != before:
            texts.append("empty clean %s on a version-6 metadata table: the refused run changed the table" % t)
        if not self.o.keep:
            shutil.rmtree(copy, ignore_errors=True)
        self.diff("execute", tb, texts, repro)
        log("  %s: empty completed clean %s with a version-6 metadata table and later metadata instants: %s" %
            (tb["name"], t, "; ".join(texts) if texts else "refused, nothing changed"))
        return True

    def check_execute(self, hudi, tb):
        if not tb.get("lake_inspect"):
            return
        self.check_empty_clean(hudi, tb)
        now = self.plan_now(tb)
        mdt = tb["mdt"] == "on"
        # The crashed-and-resumed runs on the first table of each kind only
        # (time): after 3 changes (a delete), and with a metadata table after
        # each of its 4 changes (requested, inflight, log file, completed).
        first = not any(t.get("executed") and t["mdt"] == tb["mdt"] for t in self.tables)
        # The default run crashes after one metadata-table change only (the log
        # file written, the deltacommit not yet completed: the state a rerun
        # must finish); a longer sweep (--seeds) after each of the four.
        crashes = (["3"] + ["mdt%d" % i for i in range(4)] if self.o.seeds else ["mdt2"]) if mdt else ["3"]
        if mdt and not self.mdt_updatable(tb):
            return self.check_execute_refused(tb, now)
        tb["executed"] = True  # refused tables do not count: the first executed one crashes
        if mdt and first:
            self.check_execute_refused(tb, now, add_partition="expr_index_lakegc_refusal")
        # Time: an execution is about six Spark jobs. The default run executes the
        # whole grid and the crash on the first table without a metadata table,
        # the first setting on the others, and on the first metadata-table table
        # only the first setting and its crash, then the first setting once on
        # each metadata-table table whose indexes (files only, column_stats,
        # bloom_filters) no executed table had; the longer sweep (--seeds)
        # executes the whole grid everywhere.
        indexes = (tb.get("gen") or {}).get("mdt_indexes")
        if mdt and not self.o.seeds and not first:
            if any(t.get("executed_indexes") == indexes for t in self.tables if t is not tb):
                return
        if mdt:
            tb["executed_indexes"] = indexes
        # Without a metadata table, after the first table the default run
        # executes once per table version not executed yet (v6 is layout 1,
        # v8/v9 layout 2): another table of a version adds time, not a rule.
        if not mdt and not self.o.seeds and not first:
            if any(t.get("executed_version") == tb["version"] for t in self.tables if t is not tb):
                return
        if not mdt:
            tb["executed_version"] = tb["version"]
        grid = EXECUTE_GRID[:1] if not first and not self.o.seeds else EXECUTE_GRID
        # With a metadata table the default run's one setting is
        # KEEP_LATEST_FILE_VERSIONS 1: on these small tables it deletes files
        # where KEEP_LATEST_COMMITS 2 often deletes none, and a clean that
        # deletes nothing leaves the indexes nothing to keep in step.
        crash_setting = EXECUTE_GRID[1] if mdt else EXECUTE_GRID[0]
        if mdt and not self.o.seeds:
            grid = [EXECUTE_GRID[1]]
        for k, conf in enumerate(grid + ([crash_setting + ["crash=" + c] for c in crashes] if first else [])):
            crash = next((c[len("crash="):] for c in conf if c.startswith("crash=")), None)
            conf = [c for c in conf if not c.startswith("crash=")]
            cargs = list(itertools.chain(*[["--conf", c] for c in conf]))
            copy = "%s.execute%d" % (tb["dir"], k)
            shutil.rmtree(copy, ignore_errors=True)
            shutil.copytree(self.ldir(tb), copy, symlinks=True)
            largs = ["clean", copy, "--execute", "--json", "--now", now, "--no-concurrent-writers"] + cargs
            b = hudi("baseline", copy)
            if b["exit"] != 0:
                self.diff("execute", tb, ["hudi baseline failed%s: %s" % (label, b.get("error"))], repro)
                continue
            base = copy + ".baseline.json"
            with open(base, "w") as f:
                json.dump(b["result"], f)
            if mdt and "untouched_diffs" not in tb:
                # Hudi's own tables can fail the metadata-table validation
                # before lakegc touches them (a planted stray file, logs of a
                # failed write: storage view and metadata view differ); only
                # differences the untouched copy does not have count.
                v0 = hudi("verify", copy, "--baseline", base)
                tb["untouched_diffs"] = set((v0.get("result") or {}).get("differences") or [])
            h = hudi("plan-clean", tb["dir"], "--now", now, *cargs)
            hudi_files = set()
            if h["exit"] == 0 and h["result"].get("plan"):
                for files in h["result"]["plan"]["filePathsToBeDeletedPerPartition"].values():
                    hudi_files |= set(files)
            # The metadata table's n-th change comes after requested,
            # inflight and one change per deleted file.
            budget = None if crash is None else (
                3 + len(hudi_files) + int(crash[3:]) if crash.startswith("mdt") else int(crash))
            label = " [%s%s]" % (" ".join(conf), ", crashed after %d changes (%s) then resumed" % (budget, crash)
                                 if crash else "")
            repro = self.repro(tb, ["tests/interop/hudi", "baseline", copy],
                               (["LAKEGC_CRASH_AFTER_MUTATIONS=%d" % budget] if crash else []) + [self.o.lakegc] + largs,
                               ["tests/interop/hudi", "verify", copy, "--baseline", copy + ".baseline.json"],
                               ["tests/interop/hudi"] + self.continue_args(tb, copy, 3))
            before = self.data_files(copy)
            # The metadata table's column_stats / bloom_filters as Hudi reads
            # them, before lakegc's clean and after (index_state_texts).
            index_parts = [p for p in self.mdt_partitions(copy) if p in ("column_stats", "bloom_filters")]
            files_json = copy + ".index-files.json"
            if index_parts:
                with open(files_json, "w") as f:
                    json.dump(sorted(before), f)
                index_before = hudi("index-state", copy, "--files", files_json)
            if crash:
                env = dict(self.env, LAKEGC_CRASH_AFTER_MUTATIONS=str(budget))
                p = subprocess.run([self.o.lakegc] + [str(a) for a in largs], capture_output=True, text=True, env=env)
                if p.returncode not in (0, 86):
                    self.diff("execute", tb, ["lakegc clean --execute (crashing) failed%s: exit %d: %s"
                                              % (label, p.returncode, p.stderr.strip())], repro)
                    continue
            rc, out, err = run_lakegc(self.o.lakegc, largs, self.env)
            if rc != 0 or out is None:
                self.diff("execute", tb, ["lakegc clean --execute failed%s (exit %d): %s" % (label, rc, err)], repro)
                continue
            deleted = before - self.data_files(copy)
            texts = []
            updated = out.get("metadata_table_partitions_updated")
            expect_updated = (["files"] + [p for p in ("column_stats", "bloom_filters") if p in index_parts and (
                deleted if p == "column_stats" else [f for f in deleted if not f.rsplit("/", 1)[-1].startswith(".")])]
                if mdt else [])
            if out.get("cleans") and sorted(updated or []) != sorted(expect_updated):
                texts.append("metadata_table_partitions_updated%s: %s, expected %s" % (label, updated, expect_updated))
            index_note = ""
            if index_parts:
                index_after = hudi("index-state", copy, "--files", files_json)
                texts += self.index_state_texts(index_before, index_after, deleted, out, label)
                had = (index_before.get("result") or {})
                index_note = "; %s: entries of %d deleted file(s) removed" % (",".join(index_parts), len(
                    [f for f in deleted if f in had.get("column_stats", {}) or f in had.get("bloom_filters", [])]))
            if deleted != hudi_files:
                texts.append("files deleted%s: only lakegc %s, only Hudi %s"
                             % (label, sorted(deleted - hudi_files)[:8], sorted(hudi_files - deleted)[:8]))
            # Hadoop's delete takes a file's `.<name>.crc` with it; so must lakegc's.
            stale = [f for f in deleted if os.path.exists(os.path.join(
                copy, os.path.dirname(f), "." + os.path.basename(f) + ".crc"))]
            if stale:
                texts.append("checksums of deleted files left behind%s: %s" % (label, sorted(stale)[:8]))
            promised = self.promised_instants(h["result"].get("plan") if h["exit"] == 0 else None,
                                              tb["lake_inspect"]["timeline"])
            promised = [t for t in promised if t in b["result"].get("as_of", {})]
            v = hudi("verify", copy, "--baseline", base, "--promised", ",".join(promised))
            if self.verify_failed(v, tb):
                texts.append("hudi verify after lakegc's clean failed%s: %s" % (label, self.verify_failed(v, tb)))
            # Hudi writing on after lakegc's clean is checked on the runs without
            # a crash; a crashed-and-resumed run is judged by verify (time).
            c = {"exit": 0, "skipped": True} if crash and not self.o.seeds else hudi(*self.continue_args(tb, copy, 3))
            if c.get("skipped"):
                pass
            elif c["exit"] != 0:
                texts.append("hudi continue after lakegc's clean failed%s: %s" % (label, c.get("error")))
            else:
                b2 = hudi("baseline", copy)
                with open(base, "w") as f:
                    json.dump(b2["result"] if b2["exit"] == 0 else {}, f)
                v2 = hudi("verify", copy, "--baseline", base)
                if b2["exit"] != 0 or self.verify_failed(v2, tb):
                    texts.append("hudi verify after continue failed%s: %s"
                                 % (label, b2.get("error") or self.verify_failed(v2, tb)))
            self.diff("execute", tb, texts, repro)
            log("  %s%s: lakegc deleted %d file(s), Hudi's plan %d%s; verify %s, continue %s"
                % (tb["name"], label, len(deleted), len(hudi_files), index_note,
                   "FAILED" if self.verify_failed(v, tb) else "ok",
                   "not run" if c.get("skipped") else "ok" if c["exit"] == 0 else "FAILED"))
            if not self.o.keep:
                shutil.rmtree(copy, ignore_errors=True)

    @staticmethod
    def index_state_texts(before, after, deleted, lake_out, label):
        """What differs from Hudi's own clean in the metadata table's indexes
        after lakegc's: Hudi's clean removes the column statistics and bloom
        filters of exactly the files it deletes and leaves every other
        file's. So after lakegc's clean, as read by Hudi's metadata reader,
        a deleted file has none and every other file has what it had; and
        lakegc names the columns Hudi's clean would (getColumnsToIndex)."""
        texts = []
        for name, r in (("before", before), ("after", after)):
            if r["exit"] != 0:
                return ["hudi index-state %s lakegc's clean failed%s: %s" % (name, label, r.get("error"))]
        b, a = before["result"], after["result"]
        lake_cols = lake_out.get("column_stats_columns")
        if "columns" in b and lake_out.get("cleans") and sorted(lake_cols or []) != sorted(b["columns"]):
            texts.append("column_stats columns%s: lakegc %s, Hudi's clean %s" % (label, lake_cols, b["columns"]))
        for part, key in (("column_stats", "column_stats"), ("bloom_filters", "bloom_filters")):
            if key not in b:
                continue
            was, now = b[key], a.get(key, {} if part == "column_stats" else [])
            if part == "bloom_filters":
                was, now = {f: True for f in was}, {f: True for f in now}
            left = sorted(f for f in deleted if f in now)
            if left:
                texts.append("%s%s still has entries of %d deleted file(s): %s" % (part, label, len(left), left[:4]))
            changed = sorted(f for f in set(was) | set(now) if f not in deleted and was.get(f) != now.get(f))
            if changed:
                texts.append("%s%s changed for %d file(s) lakegc did not delete: %s" % (part, label, len(changed),
                                                                                          changed[:4]))
        return texts

    def active_after_archival(self, copy, hres, gone):
        """Hudi's active timeline after lakegc's archival (`hres`, from
        `hudi archived-timeline`): none of the instants archived (`gone`,
        "<t>.<action>.COMPLETED") still on it, and the timeline `lakegc
        inspect` shows. Returns (differences, lakegc's inspect JSON)."""
        texts = []
        still = [i for i in hres["active"] if i in gone]
        if still:
            texts.append("instants both archived and on Hudi's active timeline: %s" % still[:6])
        rc, lin, err = run_lakegc(self.o.lakegc, ["inspect", copy, "--json"], self.env)
        lake_active = sorted("%s.%s.%s" % (i["requested"], i["action"], i["state"].upper())
                             for i in (lin or {}).get("timeline", []))
        if rc != 0 or lake_active != sorted(hres["active"]):
            texts.append("active timeline after archival: lakegc %s, Hudi %s (%s)" % (lake_active[:8], hres["active"][:8], err))
        return texts, lin or {}

    def archive_on_copy(self, hudi, tb, cargs, crash, lab, repro_of, baseline=None):
        """A copy of table tb, its latest snapshot as the baseline (archival
        changes no data file) unless `baseline` gives one (file, the verify
        differences of the table it was taken on), then `lakegc archive
        --execute` on it, first crashed after `crash` changes when given.
        Returns (copy, baseline file, those verify differences, lakegc's
        JSON, repro), or None after reporting what failed.
        `repro_of(copy, largs)` gives the commands that reproduce it."""
        copy = tb["dir"] + ".archive"
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(self.ldir(tb), copy, symlinks=True)
        largs = ["archive", copy, "--execute", "--json", "--no-concurrent-writers"] + cargs
        repro = repro_of(copy, (["LAKEGC_CRASH_AFTER_MUTATIONS=%d" % crash] if crash else []) + [self.o.lakegc] + largs)
        if baseline:
            base, untouched = baseline
        else:
            base = copy + ".baseline.json"
            latest, untouched, b = latest_snapshot_baseline(hudi, copy, base)
            if latest is None:
                self.diff("archive-execute", tb, ["no latest snapshot from hudi verify%s: %s" % (lab, b)], repro)
                return None
        if crash:
            env = dict(self.env, LAKEGC_CRASH_AFTER_MUTATIONS=str(crash))
            p = subprocess.run([self.o.lakegc] + [str(a) for a in largs], capture_output=True, text=True, env=env)
            if p.returncode not in (0, 86):
                self.diff("archive-execute", tb, ["lakegc archive --execute (crashing) failed%s: exit %d: %s"
                                                  % (lab, p.returncode, p.stderr.strip()[:300])], repro)
                return None
        rc, out, err = run_lakegc(self.o.lakegc, largs, self.env)
        if rc != 0 or out is None:
            self.diff("archive-execute", tb, ["lakegc archive --execute failed%s (exit %d): %s"
                                              % (lab, rc, err.strip()[:300])], repro)
            return None
        return copy, base, untouched, out, repro

    def check_archive_execute(self, hudi, tb):
        """`lakegc archive --execute` on a copy of a layout-1 table (table
        version 6), under the first setting of ARCHIVE_GRID under which lakegc's
        plan (judged equal to Hudi's by the archive check) archives something:
        Hudi 1.2 loads lakegc's archive log with its own classes
        (ActiveTimelineV1, ArchivedTimelineV1, every state's details read by
        Hudi's readers) and finds exactly the entries lakegc wrote and the active
        timeline lakegc left; `hudi verify` loads both timelines with every
        instant's details and reads the latest snapshot as before. The
        default run does it on the first such table only (time); --seeds on
        every one, plus a run crashed after its second change and resumed, and
        Hudi writing on after it (`continue`, whose inline archival appends to
        lakegc's archive)."""
        if tb["version"] in (8, 9):
            return self.check_archive_execute_lsm(hudi, tb)
        if tb["version"] != 6 or (not self.o.seeds and getattr(self, "archive_executed", False)):
            return
        t0 = time.time()
        for conf in ARCHIVE_GRID:
            cargs = list(itertools.chain(*[["--conf", c] for c in conf]))
            rc, plan, err = run_lakegc(self.o.lakegc, ["plan", "archive", self.ldir(tb), "--json"] + cargs, self.env)
            if rc == 0 and plan and plan.get("archived"):
                break
        else:
            return
        self.archive_executed = True
        label = " [%s]" % " ".join(conf)
        for crash in ([None, 2] if self.o.seeds else [None]):
            lab = label + (", crashed after %d changes then resumed" % crash if crash else "")
            done = self.archive_on_copy(hudi, tb, cargs, crash, lab, lambda copy, run: self.repro(
                tb, ["cp", "-r", tb["dir"], copy],
                ["tests/interop/hudi", "verify", copy, "--baseline", "EMPTY.json  # {}: prints the latest snapshot"], run,
                ["tests/interop/hudi", "archived-timeline", copy],
                ["tests/interop/hudi", "verify", copy, "--baseline", copy + ".baseline.json"]))
            if done is None:
                continue
            copy, base, untouched, out, repro = done
            texts = []
            planned = [(i["requested"], i["action"]) for i in plan["archived"]]
            if [(i["requested"], i["action"]) for i in out["archived"]] != planned and not crash:
                texts.append("archived %s, the dry run planned %s" % (out["archived"], plan["archived"]))
            h = hudi("archived-timeline", copy)
            if h["exit"] != 0:
                texts.append("hudi archived-timeline failed on lakegc's archive: %s" % h.get("error"))
            else:
                hres = h["result"]
                lake_entries = sorted((e["requested"], e["action"], e["state"]) for e in out["entries"])
                hudi_entries = sorted((i["requested"], i["action"], i["state"]) for i in hres["archived"])
                if crash is None and lake_entries != hudi_entries:
                    texts.append("archived entries: only lakegc %s, only Hudi %s"
                                 % (sorted(set(lake_entries) - set(hudi_entries))[:6],
                                    sorted(set(hudi_entries) - set(lake_entries))[:6]))
                missing = [i for i in hres["archived"] if not i.get("details") and i["state"] == "completed"
                           and i["action"] in ("commit", "deltacommit", "replacecommit", "clean", "rollback")]
                if missing:
                    texts.append("archived instants Hudi reads without details: %s" % missing[:4])
                gone = set("%s.%s.%s" % (r, a, s.upper()) for r, a, s in hudi_entries if s == "completed")
                texts += self.active_after_archival(copy, hres, gone)[0]
            v = hudi("verify", copy, "--baseline", base)
            failed = self.verify_failed(v, tb)
            if isinstance(failed, list):
                failed = [d for d in failed if d not in untouched] or None
            if failed:
                texts.append("hudi verify after lakegc archive --execute failed%s: %s" % (lab, failed))
            if self.o.seeds and not crash:
                c = hudi(*self.continue_args(tb, copy, 3))
                if c["exit"] != 0:
                    texts.append("hudi continue after lakegc archive --execute failed: %s" % c.get("error"))
                else:
                    h2 = hudi("archived-timeline", copy)
                    if h2["exit"] != 0:
                        texts.append("hudi archived-timeline after continue failed: %s" % h2.get("error"))
            self.diff("archive-execute", tb, [t + lab for t in texts], repro)
            log("  %s%s: lakegc archived %d instant(s) (%d entries in %s); Hudi reads them%s, verify %s"
                % (tb["name"], lab, len(out["archived"]), out["entries_written"], out["archive_files_written"],
                   "" if not texts else " WITH DIFFERENCES", "FAILED" if failed else "ok"))
            if not self.o.keep:
                shutil.rmtree(copy, ignore_errors=True)
                os.remove(base)
        log("  %s: archive-execute in %.1fs" % (tb["name"], time.time() - t0))

    # Hudi writing on after lakegc's layout-2 archival: its own archiver on
    # each commit, compacting the LSM history lakegc wrote.
    LSM_CONTINUE_CONF = ["hoodie.keep.min.commits=1", "hoodie.keep.max.commits=2", "hoodie.clean.commits.retained=1",
                         "hoodie.timeline.compaction.batch.size=2"]

    def check_archive_execute_lsm(self, hudi, tb):
        """`lakegc archive --execute` on a copy of a layout-2 table (table
        versions 8, 9), under the first setting of ARCHIVE_GRID under which
        lakegc's plan archives something and equals Hudi's (the archive
        check), with LSM compaction at 2 files: Hudi reads lakegc's LSM
        history with its own Parquet reader and finds the records its own
        archiver writes for that plan (`plan-archive` on another copy: times,
        action, metadata and plan bytes by CRC-32, version), the same data
        files in the manifest and the same snapshot version; every record
        converts with Hudi's MetadataConversionUtils; the active timeline is
        the one lakegc shows; `hudi verify` loads both timelines and reads
        the latest snapshot as Hudi reads its own archived copy (archival
        moves the timeline's start past files of writes that left no
        instant, which then read as committed: Hudi's semantics, planted by
        generate's strays); Hudi writes on (`continue`) with its
        own archival, which compacts the history lakegc wrote, and still
        reads every record. Default run: the first such table; --seeds:
        every one, plus a run crashed after its second change and resumed."""
        if not self.o.seeds and getattr(self, "archive_executed_lsm", False):
            return
        agreed = [c for c, ok in tb.get("archive_agreed", []) if ok]
        if not agreed:
            return
        # The default run prefers a table whose history Hudi wrote already,
        # so that lakegc's new file makes a layer of two and lakegc compacts
        # Hudi's file with its own; the run's last layout-2 table otherwise.
        later = [c for sd, c in self.o.tables if c[0] in (8, 9) and sd > tb["seed"]]
        if not self.o.seeds and not tb.get("lsm_files") and later:
            return
        self.archive_executed_lsm = True
        t0 = time.time()
        ms = {}

        def timed(name, *args):
            r = hudi(*args)
            ms[name] = ms.get(name, 0) + r.get("ms", 0)
            return r
        conf = agreed[0] + ["hoodie.timeline.compaction.batch.size=2"]
        cargs = list(itertools.chain(*[["--conf", c] for c in conf]))
        label = " [%s]" % " ".join(conf)
        # Hudi's own archival on a copy it keeps: its LSM history, and the
        # latest snapshot as Hudi reads the table after it (the baseline:
        # archival moves the timeline's start past files of writes that left
        # no instant, which then read as committed, after Hudi's archival too).
        hudi_copy = tb["dir"] + ".hudi-archive"
        own = timed("plan-archive", "plan-archive", tb["dir"], "--keep-copy", hudi_copy, *cargs)
        own_repro = self.repro(tb, ["tests/interop/hudi", "plan-archive", tb["dir"], "--keep-copy", hudi_copy] + cargs)
        if own["exit"] != 0 or not (own.get("result") or {}).get("lsm"):
            self.diff("archive-execute", tb, ["hudi plan-archive failed%s: %s" % (label, own.get("error"))], own_repro)
            return
        base = hudi_copy + ".baseline.json"
        latest, untouched, b = latest_snapshot_baseline(lambda *a: timed("baseline", *a), hudi_copy, base)
        if latest is None:
            self.diff("archive-execute", tb, ["no latest snapshot from hudi verify after Hudi's archival%s: %s"
                                              % (label, b)], own_repro)
            return
        for crash in ([None, 2] if self.o.seeds else [None]):
            lab = label + (", crashed after %d changes then resumed" % crash if crash else "")
            cont = self.continue_args(tb, tb["dir"] + ".archive", 2, self.LSM_CONTINUE_CONF)
            done = self.archive_on_copy(hudi, tb, cargs, crash, lab, lambda copy, run: self.repro(
                tb, ["cp", "-r", tb["dir"], copy], run, ["tests/interop/hudi", "archived-timeline", copy],
                ["tests/interop/hudi", "plan-archive", tb["dir"], "--keep-copy", hudi_copy] + cargs,
                ["tests/interop/hudi", "verify", hudi_copy, "--baseline", "EMPTY.json  # {}: prints the latest snapshot"],
                ["tests/interop/hudi", "verify", copy, "--baseline", base],
                ["tests/interop/hudi"] + cont), baseline=(base, untouched))
            if done is None:
                continue
            copy, base, untouched, out, repro = done
            texts = []
            h = timed("archived-timeline", "archived-timeline", copy)
            if h["exit"] != 0:
                texts.append("hudi archived-timeline failed on lakegc's LSM history: %s" % h.get("error"))
            else:
                hres = h["result"]
                texts += diff_lsm_written(hres.get("lsm") or {}, own["result"]["lsm"])
                gone = set("%s.%s.COMPLETED" % (i["requested"], i["action"]) for i in hres.get("archived", []))
                active_texts, lin = self.active_after_archival(copy, hres, gone)
                texts += active_texts
                if not active_texts and diff_lsm_read(lin.get("archived_timeline"), hres):
                    texts.append("lakegc reads back its own LSM history otherwise than Hudi: %s"
                                 % diff_lsm_read(lin.get("archived_timeline"), hres)[:3])
            v = timed("verify", "verify", copy, "--baseline", base)
            failed = self.verify_failed(v, tb)
            if isinstance(failed, list):
                failed = [d for d in failed if d not in untouched] or None
            if failed:
                texts.append("hudi verify after lakegc archive --execute (baseline: the table after Hudi's own "
                             "archival) failed%s: %s" % (lab, failed))
            continued = "not run"
            if not crash:
                c = timed("continue", *cont)
                if c["exit"] != 0:
                    texts.append("hudi continue after lakegc archive --execute failed: %s" % c.get("error"))
                    continued = "FAILED"
                else:
                    h2 = timed("archived-timeline", "archived-timeline", copy)
                    lsm2 = (h2.get("result") or {}).get("lsm") or {}
                    bad = [(r["instantTime"], r["entry"]) for r in lsm2.get("records", []) if r.get("entry") != "ok"]
                    if h2["exit"] != 0 or bad:
                        texts.append("hudi archived-timeline after continue: %s" % (h2.get("error") or bad[:4]))
                    continued = "ok, Hudi's history now %d file(s), version %s" % (len(lsm2.get("manifest", [])),
                                                                                  lsm2.get("version"))
            self.diff("archive-execute", tb, [t + lab for t in texts], repro)
            lsm = out.get("lsm", {})
            log("  %s%s: lakegc archived %d instant(s) into %s (%d compaction(s)); Hudi reads them%s; verify %s; "
                "continue %s" % (tb["name"], lab, len(out["archived"]), lsm.get("data_file"),
                                 len(lsm.get("compactions", [])), "" if not texts else " WITH DIFFERENCES",
                                 "FAILED" if failed else "ok", continued))
            if not self.o.keep:
                shutil.rmtree(copy, ignore_errors=True)
        if not self.o.keep:
            shutil.rmtree(hudi_copy, ignore_errors=True)
            os.remove(base)
        log("  %s: archive-execute (layout 2) in %.1fs (harness ms: %s)" % (
            tb["name"], time.time() - t0, ", ".join("%s %d" % kv for kv in sorted(ms.items()))))

    def check_rollback(self, hudi, tb):
        self.check_rollback_mdt(hudi, tb)
        self.check_rollback_failed(hudi, tb)

    @staticmethod
    def mdt_files(root):
        """The metadata table's files outside its own .hoodie (not checksum
        files, as data_files), relative to root."""
        out = set()
        mdt = os.path.join(root, ".hoodie", "metadata")
        for d, dirs, files in os.walk(mdt):
            if os.path.relpath(d, mdt) == ".hoodie":
                dirs[:] = []
                continue
            for f in files:
                if not f.endswith(".crc"):
                    out.add(os.path.relpath(os.path.join(d, f), root))
        return out

    def check_rollback_mdt(self, hudi, tb):
        """A write that failed after its metadata-table deltacommit completed
        (`hudi fail-after-mdt` on a copy: an upsert un-published, its markers
        back, as a crash between the two commits leaves it): `lakegc rollback
        --execute` on it and Hudi's own rollbackFailedWrites (`continue
        --commits 1`) on another copy delete the same files named with the
        failed instant, in the data table and in the metadata table; lakegc
        leaves no instant of it on either timeline and completes a rollback in
        the metadata table; Hudi reads lakegc's copy as before the write
        (verify); and a run crashed inside the metadata table's rollback, then
        resumed, ends with the same files. Default run: the first table of
        version 8 or 9 with a metadata table; --seeds: every one.

        Table version 6 (the first such table; --seeds: every one): Hudi's
        version-6 metadata writer records every rollback there (a deltacommit
        at the rollback instant listing its rollback log files) and then rolls
        the failed write's completed deltacommit back at the rollback instant
        + "006", keeping its logs and putting a rollback command block after
        them. lakegc must do the same: the same data files deleted and
        rollback log files written as Hudi's rollback, rollback blocks in the
        same metadata-table file groups as Hudi's, a metadata deltacommit at
        lakegc's rollback instant and a completed metadata rollback at that
        instant + "006", verify (whose storage and metadata-table views must
        agree) passes, and a crashed run resumed ends with the same files."""
        # Two-writer tables roll back LAZY: the OCC losers (no heartbeat) go
        # with the failed write, so "only files of the failed write" does not
        # hold there; check_rollback_failed compares them with Hudi.
        if tb["mdt"] != "on" or not tb.get("lake_inspect") or tb["gen"]["settings"].get("occ_two_writers"):
            return
        v6 = tb["version"] == 6
        done_attr = "rolled_back_mdt_v6" if v6 else "rolled_back_mdt"
        if not self.o.seeds and getattr(self, done_attr, False):
            return
        setattr(self, done_attr, True)
        t0 = time.time()
        now = self.plan_now(tb)
        copy, hcopy, pre = (tb["dir"] + x for x in (".rollback-mdt", ".rollback-mdt-hudi", ".rollback-mdt-pre"))
        for d in (copy, hcopy, pre):
            shutil.rmtree(d, ignore_errors=True)
        shutil.copytree(self.ldir(tb), copy, symlinks=True)
        # The latest snapshot before the failed write: what Hudi must read after.
        base = copy + ".baseline.json"
        latest, untouched, _ = latest_snapshot_baseline(hudi, copy, base)
        f = hudi("fail-after-mdt", copy)
        largs = ["rollback", copy, "--execute", "--json", "--now", now, "--no-concurrent-writers"]
        repro = self.repro(tb, ["tests/interop/hudi", "fail-after-mdt", copy], [self.o.lakegc] + largs,
                           ["tests/interop/hudi", "verify", copy, "--baseline", base])
        if f["exit"] != 0:
            self.diff("rollback", tb, ["hudi fail-after-mdt failed: %s" % f.get("error")], repro)
            return
        t = f["result"]["instant"]
        texts = []
        if latest is None:
            texts.append("no latest snapshot from hudi verify before the failed write")
        if f["result"]["metadata_table_deltacommit"] != "completed":
            texts.append("the failed write's metadata-table deltacommit is %s, not completed"
                         % f["result"]["metadata_table_deltacommit"])
        shutil.copytree(copy, hcopy, symlinks=True)
        shutil.copytree(copy, pre, symlinks=True)
        of_t = lambda files: set(x for x in files if t in os.path.basename(x))
        rc0, dry, err0 = run_lakegc(self.o.lakegc, ["rollback", copy, "--json", "--now", now], self.env)
        planned = [r for r in (dry or {}).get("rollbacks", []) if r["instant"] == t]
        if rc0 != 0 or not planned or not planned[0].get("in_metadata_table") or (dry or {}).get("refusal"):
            texts.append("lakegc's dry run does not plan to roll back %s with its metadata-table deltacommit "
                         "(exit %d): %s" % (t, rc0, ((dry or {}).get("refusal") or err0 or planned)))
        before_data, before_mdt = self.data_files(copy), self.mdt_files(copy)
        rc, out, err = run_lakegc(self.o.lakegc, largs, self.env)
        if rc != 0 or out is None:
            self.diff("rollback", tb, texts + ["lakegc rollback --execute failed (exit %d): %s" % (rc, err)], repro)
            return
        lake_data, lake_mdt = before_data - self.data_files(copy), before_mdt - self.mdt_files(copy)
        if lake_data != of_t(lake_data) or lake_mdt != of_t(lake_mdt):
            texts.append("lakegc deleted files not of the failed write: %s"
                         % sorted((lake_data - of_t(lake_data)) | (lake_mdt - of_t(lake_mdt)))[:8])
        if not lake_mdt and not v6:
            texts.append("lakegc deleted no metadata-table file of %s" % t)
        lake_logs = set(f for d in out.get("done", []) for f in d.get("rollback_log_files", []))
        h = hudi(*self.continue_args(tb, hcopy, 1))
        if h["exit"] != 0:
            texts.append("hudi's own rollback (continue --commits 1) failed: %s" % h.get("error"))
        else:
            hudi_data = of_t(before_data - self.data_files(hcopy))
            hudi_mdt = of_t(before_mdt - self.mdt_files(hcopy))
            lake_blocks = self.mdt_rollback_block_groups(copy, before_mdt)
            hudi_blocks = self.mdt_rollback_block_groups(hcopy, before_mdt)
            for what, a, b in (("data", lake_data, hudi_data), ("metadata-table", lake_mdt, hudi_mdt),
                               ("rollback log", lake_logs, set(h["result"].get("rollback_log_files", []))),
                               ("metadata-table rollback block file group", lake_blocks, hudi_blocks)):
                if a != b:
                    texts.append("%s files: only lakegc %s, only Hudi %s" % (what, sorted(a - b)[:8], sorted(b - a)[:8]))
            if v6 and not lake_blocks:
                texts.append("no rollback block in the version-6 metadata table after lakegc's rollback")
        mtl = os.path.join(copy, ".hoodie", "metadata", ".hoodie", *([] if v6 else ["timeline"]))
        dtl = os.path.join(copy, ".hoodie", *([] if v6 else ["timeline"]))
        left = [n for n in os.listdir(mtl) + os.listdir(dtl) if n.startswith(t)]
        if left:
            texts.append("instant files of %s left after lakegc's rollback: %s" % (t, left))
        done = (out.get("done") or [{}])[0]
        mdone = done.get("metadata_table") or {}
        if v6:
            rt = done.get("rollback_instant")
            if mdone.get("deltacommit") != rt or not os.path.exists(os.path.join(mtl, "%s.deltacommit" % rt)):
                texts.append("no metadata-table deltacommit at the rollback instant %s: %s" % (rt, mdone))
            if mdone.get("rollback_instant") != "%s006" % rt or not os.path.exists(
                    os.path.join(mtl, "%s006.rollback" % rt)):
                texts.append("no completed metadata-table rollback at %s006: %s" % (rt, mdone))
        else:
            rt = mdone.get("rollback_instant")
            if not rt or not any(n.startswith(rt + "_") and n.endswith(".rollback") for n in os.listdir(mtl)):
                texts.append("no completed rollback %s in the metadata table's timeline" % rt)
        v = hudi("verify", copy, "--baseline", base)
        tb.setdefault("untouched_diffs", untouched)
        if self.verify_failed(v, tb):
            texts.append("hudi verify after lakegc's rollback failed: %s" % self.verify_failed(v, tb))
        # A crash inside the metadata table's rollback (its rollback inflight,
        # not completed), then the next run: the same files as without.
        crash_note = "no crash landed inside the metadata table's rollback"
        ccopy = copy + "-crash"
        cargs = [a if a != copy else ccopy for a in largs]
        for n in range(1, 80):
            shutil.rmtree(ccopy, ignore_errors=True)
            shutil.copytree(pre, ccopy, symlinks=True)
            p = subprocess.run([self.o.lakegc] + [str(a) for a in cargs], capture_output=True, text=True,
                               env=dict(self.env, LAKEGC_CRASH_AFTER_MUTATIONS=str(n)))
            if p.returncode == 0:
                break
            names = os.listdir(os.path.join(ccopy, ".hoodie", "metadata", ".hoodie", *([] if v6 else ["timeline"])))
            pending = [x for x in names if x.endswith(".rollback.inflight")
                       and not any(y.startswith(x.split(".")[0] + "_") or y == x.split(".")[0] + ".rollback"
                                   for y in names)]
            if not pending:
                continue
            rc2, _, err2 = run_lakegc(self.o.lakegc, cargs, self.env)
            crash_note = "crash after %d changes, inside the metadata table's rollback, resumed: " % n
            if rc2 != 0:
                texts.append("lakegc rollback resumed after a crash after %d changes failed (exit %d): %s"
                             % (n, rc2, err2[:300]))
                crash_note += "FAILED"
            elif (self.data_files(ccopy), self.mdt_files(ccopy)) != (self.data_files(copy), self.mdt_files(copy)):
                texts.append("after a crash after %d changes and a resumed rollback the files differ from the run "
                             "without" % n)
                crash_note += "FAILED"
            else:
                crash_note += "same files"
            break
        if crash_note.startswith("no crash"):
            texts.append(crash_note)
        if not self.o.keep:
            for d in (hcopy, pre, ccopy):
                shutil.rmtree(d, ignore_errors=True)
        self.diff("rollback", tb, texts, repro)
        log("  %s: rollback of a write that reached the metadata table (%s; %d data, %d metadata-table files, %d "
            "rollback logs%s) in %.0fs; %s" % (tb["name"], t, len(lake_data), len(lake_mdt), len(lake_logs),
                                              ", version 6: rollback blocks in the metadata table" if v6 else "",
                                              time.time() - t0, crash_note))

    @staticmethod
    def mdt_rollback_block_groups(root, before):
        """The metadata-table file groups (partition, file id) of the log
        files under root that are not in `before` and begin with a rollback
        command block (Hudi's log format: magic "#HUDI#", block size, format
        version, then the block type, 0 for a command block)."""
        out = set()
        for rel in Suite.mdt_files(root) - before:
            name = os.path.basename(rel)
            if not name.startswith(".") or ".log." not in name:
                continue
            with open(os.path.join(root, rel), "rb") as f:
                head = f.read(22)
            if len(head) == 22 and head[:6] == b"#HUDI#" and int.from_bytes(head[18:22], "big") == 0:
                out.add((os.path.basename(os.path.dirname(rel)), name[1:].split("_")[0]))
        return out

    def check_rollback_failed(self, hudi, tb):
        """`lakegc rollback --execute` on a copy of a table with failed writes
        (the writers' own policy: EAGER, or LAZY under the file-system lock on
        two-writer tables, their heartbeats held alive for both sides; with or
        without a metadata table, which a write that never reached it leaves
        unchanged): the data files it
        deletes are the ones Hudi's own rollbackFailedWrites deletes on
        another copy (`hudi continue --commits 1`), Hudi then reads the
        table as before (verify against the baseline) and (--seeds: time),
        writing on, finds no failed write left to roll back; in table
        version 6 the log files holding rollback command blocks are the ones
        Hudi's rollback writes (name and size). Default run: the first table
        that lakegc rolls back (tables whose failed writes a later EAGER
        write rolled back already do not count) and the first whose
        rollback writes rollback blocks; --seeds: every one."""
        if not tb.get("lake_inspect") or not tb["gen"].get("failed_writes"):
            return
        now = self.plan_now(tb)
        occ = tb["gen"]["settings"].get("occ_two_writers")
        # A two-writer table's writers roll back LAZY under the file-system
        # lock (Tables.occOptions): lakegc is given the same write config and
        # takes that lock; other tables are EAGER with no lock configured.
        wconf = ["--conf", "hoodie.clean.failed.writes.policy=LAZY",
                 "--conf", "hoodie.write.concurrency.mode=optimistic_concurrency_control",
                 "--conf", "hoodie.write.lock.provider="
                           "org.apache.hudi.client.transaction.lock.FileSystemBasedLockProvider"] \
            if occ else ["--no-concurrent-writers"]
        largs_of = lambda d: ["rollback", d, "--execute", "--json", "--now", now] + wconf
        # Every copy gets the same heartbeats (see hold_heartbeats); the dry
        # run reads lakegc's copy, not the table other checks read.
        copy, hcopy = tb["dir"] + ".rollback", tb["dir"] + ".rollback-hudi"
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(self.ldir(tb), copy, symlinks=True)
        self.hold_heartbeats(copy)
        # A later EAGER write rolls earlier failed writes back itself: only a
        # table that still has one counts.
        rc0, out0, err0 = run_lakegc(self.o.lakegc, ["rollback", copy, "--json", "--now", now] + wconf, self.env)
        if rc0 != 0 or out0 is None:
            self.diff("rollback", tb, ["lakegc rollback (dry run) failed (exit %d): %s" % (rc0, err0)], [])
            return
        failed = [r["instant"] for r in out0["rollbacks"]] + [r["instant"] for r in out0["pending_rollbacks"]]
        blocks = any(r.get("kept_files") for r in out0["rollbacks"])
        if not self.o.seeds and (getattr(self, "rolled_back_blocks", False) if blocks else getattr(self, "rolled_back", False)):
            return
        if not failed:
            log("  %s: no failed write left to roll back (a later write rolled them back)" % tb["name"])
            return
        if out0.get("refusal"):
            # v6 logs needing a rollback block: refused, nothing changed
            # (corpus tests).
            log("  %s: lakegc refuses: %s" % (tb["name"], out0["refusal"][:200]))
            return
        of_failed = lambda files: set(f for f in files if any(t in os.path.basename(f) for t in failed))
        shutil.rmtree(hcopy, ignore_errors=True)
        shutil.copytree(copy, hcopy, symlinks=True)
        largs = largs_of(copy)
        repro = self.repro(tb, ["tests/interop/hudi", "verify", copy, "--baseline", "EMPTY.json  # {}: prints the latest snapshot"],
                           [self.o.lakegc] + largs,
                           ["tests/interop/hudi", "verify", copy, "--baseline", copy + ".baseline.json"],
                           ["tests/interop/hudi"] + self.continue_args(tb, hcopy, 1))
        # A rollback of uncommitted files changes no time travel: the latest
        # snapshot is baseline enough.
        base = copy + ".baseline.json"
        latest, untouched, b = latest_snapshot_baseline(hudi, copy, base)
        if tb["mdt"] == "on" and "untouched_diffs" not in tb:
            # Only differences the untouched copy does not have count (as in
            # the execute check: logs of failed writes differ between the
            # storage view and the metadata view before lakegc runs).
            tb["untouched_diffs"] = untouched
        b = {"exit": 0 if latest is not None else 1,
             "error": None if latest is not None else "no latest snapshot from hudi verify: %s" % b}
        before = self.data_files(copy)
        rc, out, err = run_lakegc(self.o.lakegc, largs, self.env)
        self.rolled_back = True
        self.rolled_back_blocks = getattr(self, "rolled_back_blocks", False) or blocks
        texts = []
        if rc != 0 or out is None:
            self.diff("rollback", tb, ["lakegc rollback --execute failed (exit %d): %s" % (rc, err)], repro)
            return
        after = self.data_files(copy)  # before `continue` (--seeds) writes on
        deleted = before - after
        # Version 6: the new log files holding rollback command blocks.
        lake_logs = set(f for d in out.get("done", []) for f in d.get("rollback_log_files", []))
        # Hudi's own rollback: `continue` rolls failed writes back before its
        # commit; its inline services may delete other files, so only the
        # files of the failed instants are compared.
        h = hudi(*self.continue_args(tb, hcopy, 1))
        if h["exit"] != 0:
            texts.append("hudi's own rollback (continue --commits 1) failed: %s" % h.get("error"))
        elif not h["result"].get("rolled_back_failed_writes"):
            texts.append("hudi's own rollbackFailedWrites found nothing to roll back; lakegc rolled back %s" % failed)
        else:
            hudi_deleted = of_failed(before - self.data_files(hcopy))
            if deleted != hudi_deleted:
                texts.append("files deleted: only lakegc %s, only Hudi %s"
                             % (sorted(deleted - hudi_deleted)[:8], sorted(hudi_deleted - deleted)[:8]))
            # The rollback log files by name and size, as Hudi's.
            hudi_logs = set(h["result"].get("rollback_log_files", []))
            if lake_logs != hudi_logs:
                texts.append("rollback log files: only lakegc %s, only Hudi %s"
                             % (sorted(lake_logs - hudi_logs)[:8], sorted(hudi_logs - lake_logs)[:8]))
            for f in sorted(lake_logs & hudi_logs):
                a, b2 = os.path.getsize(os.path.join(copy, f)), os.path.getsize(os.path.join(hcopy, f))
                if a != b2:
                    texts.append("rollback log file %s: %d bytes by lakegc, %d by Hudi" % (f, a, b2))
        # lakegc creates no data file but its rollback log files.
        created = self.data_files(copy) - before
        if created != lake_logs:
            texts.append("lakegc's rollback created data files other than its rollback log files: %s"
                         % sorted(created - lake_logs)[:8])
        v = hudi("verify", copy, "--baseline", base)
        if b["exit"] != 0 or self.verify_failed(v, tb):
            texts.append("hudi verify after lakegc's rollback failed: %s" % (b.get("error") or self.verify_failed(v, tb)))
        # Time: Hudi writing on after lakegc's rollback is the longer sweep's.
        c = hudi(*self.continue_args(tb, copy, 1)) if self.o.seeds else {"exit": 0, "skipped": True, "result": {}}
        if c["exit"] != 0:
            texts.append("hudi continue after lakegc's rollback failed: %s" % c.get("error"))
        elif c["result"].get("rolled_back_failed_writes"):
            texts.append("hudi found failed writes to roll back after lakegc's rollback")
        # A rollback crashed after two changes (the plan requested and the
        # first delete or block) and resumed: the same files as the run
        # without the crash, and Hudi reads it.
        ccopy = tb["dir"] + ".rollback-crash"
        shutil.rmtree(ccopy, ignore_errors=True)
        shutil.copytree(self.ldir(tb), ccopy, symlinks=True)
        self.hold_heartbeats(ccopy)
        cl = largs_of(ccopy)
        p = subprocess.run([self.o.lakegc] + [str(a) for a in cl], capture_output=True, text=True,
                           env=dict(self.env, LAKEGC_CRASH_AFTER_MUTATIONS="2"))
        if occ and p.returncode == 86:
            # The crashed run held the file-system lock; like a crashed Hudi
            # writer's, it stays until it expires (hoodie.write.lock.filesystem.expire,
            # by default never) or the operator removes it, as here.
            lock = os.path.join(ccopy, ".hoodie", "lock")
            if not os.path.exists(lock):
                texts.append("lakegc rollback --execute crashed under the file-system lock, but left no lock file")
            for f in (lock, os.path.join(ccopy, ".hoodie", ".lock.crc")):
                if os.path.exists(f):
                    os.remove(f)
        rc2, _, err2 = run_lakegc(self.o.lakegc, cl, self.env)
        crash_note = "crash after 2 changes then resumed: "
        if p.returncode not in (0, 86) or rc2 != 0:
            texts.append("lakegc rollback --execute crashed after 2 changes (exit %d), then resumed (exit %d): %s"
                         % (p.returncode, rc2, (p.stderr + err2).strip()[:300]))
            crash_note += "FAILED"
        else:
            if self.data_files(ccopy) != after:
                texts.append("after a crash and a resumed rollback the data files differ from the run without: "
                             "only crashed %s, only uninterrupted %s"
                             % (sorted(self.data_files(ccopy) - after)[:6], sorted(after - self.data_files(ccopy))[:6]))
            v2 = hudi("verify", ccopy, "--baseline", base)
            if self.verify_failed(v2, tb):
                texts.append("hudi verify after a crashed and resumed rollback failed: %s" % self.verify_failed(v2, tb))
            crash_note += "verify %s" % ("FAILED" if self.verify_failed(v2, tb) else "ok")
        if not self.o.keep:
            shutil.rmtree(ccopy, ignore_errors=True)
        self.diff("rollback", tb, texts, repro)
        log("  %s: %s" % (tb["name"], crash_note))
        log("  %s: lakegc rolled back %d write(s), deleted %d file(s), wrote %d rollback block(s) (Hudi's rollback: %s); verify %s, continue %s"
            % (tb["name"], len(out.get("done", [])), len(deleted), len(created),
               len(of_failed(before - self.data_files(hcopy))) if h["exit"] == 0 else "FAILED",
               "FAILED" if self.verify_failed(v, tb) else "ok",
               "not run" if c.get("skipped") else "ok" if c["exit"] == 0 else "FAILED"))
        if not self.o.keep:
            for d in (copy, hcopy):
                shutil.rmtree(d, ignore_errors=True)

    def selftest(self):
        """Every comparator must report an altered answer."""
        fails = []
        view = [{"path": "p", "commit_time": "1", "file_groups": [
            {"file_id": "f", "replaced_by": None, "pending_compaction_base": None,
             "slices": [{"base_instant": "2", "base_file": "f_0-1-2_2.parquet", "log_files": [".f_2.log.1_0-1-2"],
                         "size_bytes": 10}]}], "uncommitted_files": ["x_0-1-2_3.parquet"]}]
        if diff_views(view, view):
            fails.append("diff_views reports a difference between equal views")
        for mutate in (lambda v: v[0]["file_groups"][0]["slices"][0].update(base_file="g.parquet"),
                       lambda v: v[0]["file_groups"][0]["slices"][0]["log_files"].append(".f_3.log.1_0-1-2"),
                       lambda v: v[0]["file_groups"][0].update(replaced_by="5"),
                       lambda v: v[0]["file_groups"][0].update(pending_compaction_base="2"),
                       lambda v: v[0]["uncommitted_files"].clear(),
                       lambda v: v[0]["file_groups"].clear(),
                       lambda v: v[0].update(commit_time="0")):
            other = json.loads(json.dumps(view))
            mutate(other)
            if not diff_views(view, other):
                fails.append("diff_views misses an altered view: %s" % json.dumps(other))
        tl = [{"requested": "1", "completed": "2", "action": "commit", "state": "completed"}]
        if not diff_timelines(tl, [dict(tl[0], state="inflight")], 2):
            fails.append("diff_timelines misses an altered state")
        plan = {"earliestInstantToRetain": "3", "lastCompletedCommitTimestamp": "4", "policy": "KEEP_LATEST_COMMITS",
                "filePathsToBeDeletedPerPartition": {"p": ["p/a.parquet"]}, "partitionsToBeDeleted": [],
                "extraMetadata": {}}
        if diff_plans(plan, {"plan": plan}):
            fails.append("diff_plans reports a difference between equal plans")
        for mutate in (lambda p: p.update(earliestInstantToRetain="2"),
                       lambda p: p["filePathsToBeDeletedPerPartition"]["p"].append("p/b.parquet"),
                       lambda p: p["filePathsToBeDeletedPerPartition"].clear(),
                       lambda p: p.update(partitionsToBeDeleted=["p"]),
                       lambda p: p.update(extraMetadata={"savepointed_timestamps": "1"})):
            other = json.loads(json.dumps(plan))
            mutate(other)
            if not diff_plans(plan, {"plan": other}):
                fails.append("diff_plans misses an altered plan: %s" % json.dumps(other))
        fid = "0a1b2c3d-0000-0000-0000-000000000000-0"
        mine = dict(plan, filePathsToBeDeletedPerPartition={"p": ["p/%s_1-2-3_20240101000000000.parquet" % fid]})
        theirs = dict(plan, filePathsToBeDeletedPerPartition={"p": ["p/%s_9-99-999_20240101000000000.parquet" % fid]})
        paired = diff_plans(mine, {"plan": theirs})
        if len(paired) != 1 or "speculative copy" not in paired[0]:
            fails.append("diff_plans does not pair a slice's committed file with its speculative copy: %s" % paired)
        if not diff_plans(plan, {"plan": None}):
            fails.append("diff_plans misses files when Hudi schedules nothing")
        if diff_plans(None, {"plan": None, "unscheduled": {"trigger_met": False}}):
            fails.append("diff_plans reports a difference when neither schedules a clean")
        if not diff_plans(None, {"plan": plan}):
            fails.append("diff_plans misses a clean Hudi schedules when lakegc says none is due")
        if not diff_plans(None, {"plan": None, "unscheduled": {"trigger_met": True}}):
            fails.append("diff_plans misses a trigger Hudi finds met when lakegc says no clean is due")
        if not diff_orphans({"orphans": [{"path": "p/f_0-1-2_2.parquet"}]}, files_shown({"partitions": view})):
            fails.append("diff_orphans misses an orphan that Hudi's view shows")
        arch = {"archived": [{"requested": "1", "action": "commit", "state": "completed"}]}
        if diff_archived(arch, arch):
            fails.append("diff_archived reports a difference between equal plans")
        for other in ({"archived": []}, {"archived": [dict(arch["archived"][0], action="deltacommit")]},
                      {"archived": arch["archived"] + [{"requested": "2", "action": "clean", "state": "completed"}]}):
            if not diff_archived(arch, other) or not diff_archived(other, arch):
                fails.append("diff_archived misses an altered plan: %s" % json.dumps(other))
        lake_arch = {"version": 2, "files": ["1_2_0.parquet"], "error": None,
                     "instants": [{"requested": "1", "completed": "3", "action": "commit", "metadata_bytes": 5,
                                   "plan_bytes": None}]}
        rec = {"file": "1_2_0.parquet", "instantTime": "1", "completionTime": "3", "action": "commit",
               "metadata_bytes": 5, "metadata_crc32": 7, "plan_bytes": None, "plan_crc32": None, "version": 1,
               "entry": "ok"}
        hudi_arch = {"lsm": {"version": 2, "manifest": [{"fileName": "1_2_0.parquet", "fileLen": 9}], "records": [rec]}}
        if diff_lsm_read(lake_arch, hudi_arch) or diff_lsm_written(hudi_arch["lsm"], hudi_arch["lsm"]):
            fails.append("diff_lsm_read / diff_lsm_written report a difference between equal histories")
        for mutate in (lambda l, h: l.update(version=3), lambda l, h: l["files"].append("3_4_0.parquet"),
                       lambda l, h: l["instants"][0].update(completed="4"),
                       lambda l, h: l["instants"][0].update(plan_bytes=1), lambda l, h: l.update(error="x"),
                       lambda l, h: h["lsm"]["records"].append(dict(rec, instantTime="2"))):
            l2, h2 = json.loads(json.dumps(lake_arch)), json.loads(json.dumps(hudi_arch))
            mutate(l2, h2)
            if not diff_lsm_read(l2, h2):
                fails.append("diff_lsm_read misses an altered history: %s %s" % (json.dumps(l2), json.dumps(h2)))
        for mutate in (lambda h: h["records"][0].update(metadata_crc32=8), lambda h: h["records"][0].update(entry="NPE"),
                       lambda h: h.update(version=1), lambda h: h["manifest"].clear(),
                       lambda h: h["records"][0].update(completionTime="9")):
            h2 = json.loads(json.dumps(hudi_arch["lsm"]))
            mutate(h2)
            if not diff_lsm_written(h2, hudi_arch["lsm"]):
                fails.append("diff_lsm_written misses an altered history: %s" % json.dumps(h2))
        self.counts["selftest"] = [1, 1 if fails else 0]
        for f in fails:
            self.failures.append(("selftest", None, f, []))
            log("  FAIL selftest: " + f)
        return not fails

    def run(self):
        t_start = time.time()
        try:
            return self._run(t_start)
        except RuntimeError as e:
            log("")
            log("FAILED: the interop suite could not run: %s" % e)
            return 1

    PHASES = ("view", "lsm_read", "clean", "orphans", "execute", "archive", "archive_execute", "ttl", "rollback")

    def _run(self, t_start):
        checks = self.o.checks
        if "selftest" in checks:
            log("== selftest: the comparators report altered answers")
            self.selftest()
        needs_view = {"lsm_read", "clean", "orphans", "readback", "execute", "ttl", "rollback"} & set(checks)
        phases = [(name, getattr(self, "check_" + name)) for name in self.PHASES
                  if name in checks or (name == "view" and needs_view)]
        seconds = dict((name, 0.0) for name, _ in phases)
        gen_log = os.path.join(self.o.work, "hudi-generate.log")
        check_log = os.path.join(self.o.work, "hudi-harness.log")
        # Two JVMs: while the checker works on table k, the generator writes
        # table k+1. Tables reach the checker in seed order, so every check
        # sees the same earlier tables as a sequential run would.
        generator = Hudi(self.o.hudi, gen_log, self.env)
        hudi = Hudi(self.o.hudi, check_log, self.env)
        ready, stop = queue.Queue(), threading.Event()
        log("== %d table(s): Hudi 1.2 generates them (harness log %s) while the checks run on each in turn "
            "(harness log %s)" % (len(self.o.tables), gen_log, check_log))
        gen_thread = threading.Thread(target=self.generate, args=(generator, ready, stop), daemon=True)
        gen_thread.start()
        try:
            while True:
                tb = ready.get()
                if tb is None:
                    break
                self.tables.append(tb)
                for name, fn in phases:
                    t0 = time.time()
                    try:
                        fn(hudi, tb)
                    except RuntimeError as e:
                        self.failures.append((name, tb, str(e), []))
                        log("  FAIL %s %s: %s" % (name, tb["name"], e))
                        raise
                    finally:
                        seconds[name] += time.time() - t0
                log("   %s checked (%s)" % (tb["name"], ", ".join(n for n, _ in phases)))
            gen_thread.join()
            log("   generated in %.0fs, overlapped with the checks" % (generator.ms / 1000))
            log("   checks: %s" % ", ".join("%s %.0fs" % (n, seconds[n]) for n, _ in phases))
            if "readback" in checks:
                t0 = time.time()
                log("== readback: baseline, verify, damaged copy, continue")
                self.check_readback(hudi)
                log("   readback done in %.0fs" % (time.time() - t0))
        finally:
            stop.set()
            generator.close()
            hudi.close()
            gen_thread.join(timeout=5)
        return self.report(time.time() - t_start, [generator, hudi])

    def report(self, seconds, jvms):
        log("")
        log("== summary (%.0fs; %d harness calls, %.0fs inside the two harness JVMs)"
            % (seconds, sum(j.calls for j in jvms), sum(j.ms for j in jvms) / 1000))
        tallies = {}
        for j in jvms:
            for cmd, (n, ms) in j.by_command.items():
                t = tallies.setdefault(cmd, [0, 0])
                t[0] += n
                t[1] += ms
        log("  lakegc: %d run(s), %.0fs" % (LAKEGC_TIME[0], LAKEGC_TIME[1]))
        log("  harness time by command: %s" % ", ".join(
            "%s %d x %.1fs" % (cmd, n, ms / 1000 / n) for cmd, (n, ms) in
            sorted(tallies.items(), key=lambda kv: -kv[1][1])))
        for c, (n, bad) in sorted(self.counts.items()):
            log("  %-9s %4d comparison(s), %d with differences" % (c, n, bad))
        if self.known_hits:
            log("")
            log("KNOWN DIFFERENCES (listed in tests/interop/known_differences.json; fix and remove them):")
            by_id = {}
            for check, tb, text, kid in self.known_hits:
                by_id.setdefault(kid, []).append((tb["name"] if tb else "-", text))
            for kid, hits in sorted(by_id.items()):
                e = [x for x in self.known.entries if x["id"] == kid][0]
                log("  KNOWN %s (%d hit(s)): %s" % (kid, len(hits), e["reason"]))
                for name, text in hits[:3]:
                    log("      e.g. %s: %s" % (name, text[:300]))
        idle = [e["id"] for e in self.known.entries if e["_hits"] == 0]
        if idle:
            log("")
            log("known differences with no hit in this run (fixed? seeds differ?): %s" % ", ".join(idle))
        if self.failures:
            log("")
            log("FAILED: %d difference(s)" % len(self.failures))
            shown = 0
            for check, tb, text, repro in self.failures:
                shown += 1
                if shown > self.o.max_report:
                    log("  ... and %d more" % (len(self.failures) - self.o.max_report))
                    break
                log("- [%s] %s%s" % (check, "%s (seed %s; %s): " % (tb["name"], tb.get("seed"), tb.get("desc")) if tb else "", text))
                for r in repro:
                    log("      " + r)
            return 1
        log("PASSED")
        return 0


def parse_seeds(spec):
    seeds = []
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        if "-" in part:
            a, b = part.split("-", 1)
            seeds.extend(range(int(a), int(b) + 1))
        else:
            seeds.append(int(part))
    return seeds


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lakegc", required=True, help="the built lakegc binary")
    ap.add_argument("--hudi", default=os.path.join(HERE, "hudi"), help="the harness launcher")
    ap.add_argument("--seeds", default=os.environ.get("LAKEGC_INTEROP_SEEDS", ""),
                    help="N (N seeds over all 12 combinations) or a list/range like 1-40 (default: the 8-table run)")
    ap.add_argument("--work", default=None, help="where tables are generated (default: a temporary directory)")
    ap.add_argument("--keep", action="store_true", help="keep the generated tables")
    ap.add_argument("--reuse", action="store_true",
                    help="with --work: reuse tables an earlier run generated there (DIR.generate.json)")
    ap.add_argument("--checks", default=",".join(CHECKS), help="comma list of %s" % ", ".join(CHECKS))
    ap.add_argument("--as-of", type=int, default=3, help="as-of instants per table for the view check")
    ap.add_argument("--readback", type=int, default=1, help="tables that get baseline/verify/continue")
    ap.add_argument("--tz", default=os.environ.get("LAKEGC_INTEROP_TZ", "Asia/Kolkata"),
                    help="TZ for the harness JVM and lakegc (LOCAL-timezone tables; default Asia/Kolkata)")
    ap.add_argument("--max-report", type=int, default=200)
    ap.add_argument("--only", default="",
                    help="run only the tables of these seeds (a list/range like 2,5-6), e.g. to replay one table "
                         "of the default run as the default run checks it")
    o = ap.parse_args()
    if not os.access(o.lakegc, os.X_OK):
        print("run_suite: --lakegc %s is not an executable" % o.lakegc, file=sys.stderr)
        return 2
    for tool in ("java", "mvn"):
        if shutil.which(tool) is None:
            print("run_suite: %s not found: the interop suite needs default-jdk-headless and maven "
                  "(./dev installs them); it never skips" % tool, file=sys.stderr)
            return 1
    o.lakegc = os.path.abspath(o.lakegc)
    os.environ["TZ"] = o.tz  # the harness JVM, lakegc and the predicates all see it
    time.tzset()
    o.checks = [c for c in o.checks.split(",") if c]
    for c in o.checks:
        if c not in CHECKS:
            print("run_suite: unknown check %s" % c, file=sys.stderr)
            return 2
    if not o.seeds:
        o.tables = [(i + 1, combo) for i, combo in enumerate(DEFAULT_MATRIX)]
    elif re.fullmatch(r"\d+", o.seeds):
        n = int(o.seeds)
        o.tables = [(s, ALL_COMBOS[(s - 1) % len(ALL_COMBOS)]) for s in range(1, n + 1)]
    else:
        o.tables = [(s, ALL_COMBOS[(s - 1) % len(ALL_COMBOS)]) for s in parse_seeds(o.seeds)]
    o.readback_seeds = {t[0] for t in o.tables[: o.readback]}
    if o.only:
        keep = set(parse_seeds(o.only))
        o.tables = [t for t in o.tables if t[0] in keep]
    tmp = None
    if o.work is None:
        tmp = tempfile.mkdtemp(prefix="lakegc-interop-")
        o.work = tmp
    os.makedirs(o.work, exist_ok=True)
    log("interop suite: %d table(s), checks %s, work dir %s, TZ=%s" % (len(o.tables), ",".join(o.checks), o.work, o.tz))
    try:
        rc = Suite(o).run()
    finally:
        if tmp and not o.keep and os.environ.get("LAKEGC_INTEROP_KEEP") is None:
            shutil.rmtree(tmp, ignore_errors=True)
    return rc


if __name__ == "__main__":
    sys.exit(main())
