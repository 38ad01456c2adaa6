#!/usr/bin/env python3
"""Hudi's own clean planning against `lakegc plan clean` on the same on-disk
tables (issue 12's peer anchor, issue 16's "against Hudi itself"). Run it
through bench/hudi_vs_lakegc.sh, which builds the binaries first.

For the check size and then each size: generates the table (gen_hudi_table),
lists it once (the file count; warms the page cache for both planners),
times `lakegc plan clean TABLE --json` end to end (process start to exit,
median of --lakegc-repeat runs), times `tests/interop/hudi bench-clean`
(Hudi's scheduleTableService(CLEAN) on the table itself: the in-JVM planning
time it reports, and the process's wall time, JVM and Spark start-up
included), and, unless --no-warm, a second process planning twice, whose
second plan is Hudi's time in a warm JVM. Fails loudly (exit 1) unless both
planners name the same files, the same earliest instant to retain, the same
last completed commit and policy, and unless the table is unchanged after
Hudi ran. At the check size it also checks `hudi view` == `lakegc inspect
--json` and `hudi plan-clean` (on a copy) == the plan.

Writes <out>/results.json (everything measured) and <out>/summary.md, and
prints the summary. Python standard library only.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

GROUPS, VERSIONS, STRIPES = 100, 10, 10


def shape(files):
    """(partitions, groups, versions, stripes) of a table of about `files` files."""
    if files >= GROUPS * VERSIONS * STRIPES:
        return (max(STRIPES, round(files / (GROUPS * VERSIONS))), GROUPS, VERSIONS, STRIPES)
    return (20, max(1, round(files / (20 * VERSIONS))), VERSIONS, STRIPES)  # the check size


CPU = {}


def run(cmd, stdout_path=None, env=None):
    """Runs cmd; returns (seconds, peak RSS bytes of the process, exit code).
    CPU["last"] is its user + system CPU time in seconds."""
    out = open(stdout_path, "w") if stdout_path else subprocess.DEVNULL
    err = open(stdout_path + ".err", "w") if stdout_path else None
    try:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=out, stderr=err, env=env)
        _, status, ru = os.wait4(p.pid, 0)
        secs = time.perf_counter() - t0
        CPU["last"] = ru.ru_utime + ru.ru_stime
        p.returncode = os.waitstatus_to_exitcode(status)
    finally:
        if stdout_path:
            out.close()
            err.close()
    return secs, ru.ru_maxrss * 1024, p.returncode


def fail(msg):
    print("hudi_vs_lakegc: FAILED: " + msg, file=sys.stderr)
    sys.exit(1)


def tree(root):
    """Every path below root (files and directories), relative."""
    out = set()
    for d, dirs, files in os.walk(root):
        rel = os.path.relpath(d, root)
        for n in dirs + files:
            out.add(os.path.normpath(os.path.join(rel, n)))
    return out


def norm_plan(p):
    if p is None:
        return None
    files = set()
    for part, paths in (p.get("filePathsToBeDeletedPerPartition") or {}).items():
        files.update(paths)
    return {"earliestInstantToRetain": p.get("earliestInstantToRetain"),
            "lastCompletedCommitTimestamp": p.get("lastCompletedCommitTimestamp") or "",
            "policy": p.get("policy"),
            "files": files,
            "partitionsToBeDeleted": sorted(p.get("partitionsToBeDeleted") or [])}


def diff_plans(lake, hudi, label):
    a, b = norm_plan(lake), norm_plan(hudi)
    if a is None or b is None:
        return ["%s: lakegc plan %s, Hudi plan %s" % (label, a is not None, b is not None)] if a != b else []
    d = []
    for k in ("earliestInstantToRetain", "lastCompletedCommitTimestamp", "policy", "partitionsToBeDeleted"):
        if a[k] != b[k]:
            d.append("%s: %s lakegc %s, Hudi %s" % (label, k, a[k], b[k]))
    if a["files"] != b["files"]:
        only_l, only_h = sorted(a["files"] - b["files"]), sorted(b["files"] - a["files"])
        d.append("%s: files differ: %d only in lakegc's plan %s, %d only in Hudi's %s"
                 % (label, len(only_l), only_l[:5], len(only_h), only_h[:5]))
    return d


def norm_view(partitions):
    out = {}
    for p in partitions:
        groups = {}
        for g in p["file_groups"]:
            groups[g["file_id"]] = (g.get("replaced_by"), g.get("pending_compaction_base"),
                                    [(s["base_instant"], s["base_file"], sorted(s["log_files"]), s["size_bytes"])
                                     for s in g["slices"]])
        out[p["path"]] = (p.get("commit_time"), groups, sorted(p.get("uncommitted_files") or []))
    return out


def diff_views(lake_inspect, hudi_view):
    d = []
    a, b = norm_view(lake_inspect["partitions"]), norm_view(hudi_view["partitions"])
    if set(a) != set(b):
        d.append("view: partitions differ: only lakegc %s, only Hudi %s" % (sorted(set(a) - set(b))[:5],
                                                                           sorted(set(b) - set(a))[:5]))
    for k in sorted(set(a) & set(b)):
        if a[k] != b[k]:
            d.append("view: partition %s differs: lakegc %s, Hudi %s" % (k, str(a[k])[:300], str(b[k])[:300]))
            break
    ta = [(i["requested"], i["action"], i["state"]) for i in lake_inspect["timeline"]]
    tb = [(i["requested"], i["action"], i["state"]) for i in hudi_view["timeline"]]
    if ta != tb:
        d.append("view: timelines differ: lakegc %s, Hudi %s" % (ta[:3], tb[:3]))
    return d


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        err = ""
        if os.path.exists(path + ".err"):
            with open(path + ".err") as f:
                err = f.read()[-2000:]
        fail("%s: %s\n%s" % (path, e, err))


def fmt_s(s):
    return "%.2f s" % s if s >= 1 else "%.0f ms" % (s * 1000)


def one_size(o, files, check, env):
    p, g, v, s = shape(files)
    name = "check_%d" % (p * g * v) if check else "files_%d" % (p * g * v)
    table = os.path.join(o.work, name)
    res = {"name": name, "partitions": p, "groups_per_partition": g, "versions": v, "stripes": s,
           "retained": o.retained}
    if os.path.exists(table):
        subprocess.run(["rm", "-rf", table], check=True)
    print("== %s: %d partitions x %d groups x %d versions" % (name, p, g, v), file=sys.stderr)
    gen_out = os.path.join(o.work, name + ".gen.json")
    secs, _, rc = run([o.gen, "--out", table, "--partitions", str(p), "--groups", str(g),
                       "--versions", str(v), "--stripes", str(s)], gen_out, env)
    if rc != 0:
        fail("gen_hudi_table exit %d (%s.err)" % (rc, gen_out))
    res["generate"] = load(gen_out)
    res["generate_wall_s"] = secs
    t0 = time.perf_counter()
    before = tree(table)
    res["files_on_disk"] = sum(1 for x in before if os.path.isfile(os.path.join(table, x)))
    res["list_s"] = time.perf_counter() - t0
    print("   %d files on disk (%d data files), generated in %s" % (res["files_on_disk"],
          res["generate"]["data_files"], fmt_s(secs)), file=sys.stderr)

    conf = ["hoodie.clean.policy=KEEP_LATEST_COMMITS", "hoodie.clean.commits.retained=%d" % o.retained,
            "hoodie.clean.incremental.enabled=false"]
    cargs = [x for c in conf for x in ("--conf", c)]
    res["conf"] = conf

    # lakegc, end to end: --lakegc-repeat runs before Hudi's and as many after
    # (the machine is shared: both planners see the load of the whole run).
    lake_out = os.path.join(o.work, name + ".lakegc.json")
    times, cpus, rss, loads = [], [], [], []

    def lakegc_runs():
        for _ in range(o.lakegc_repeat):
            loads.append(os.getloadavg()[0])
            secs, peak, rc = run([o.lakegc, "plan", "clean", table, "--json"] + cargs, lake_out, env)
            if rc != 0:
                fail("lakegc plan clean exit %d (%s.err)" % (rc, lake_out))
            times.append(secs)
            cpus.append(CPU["last"])
            rss.append(peak)

    lakegc_runs()
    lake = load(lake_out)
    lp = norm_plan(lake.get("plan"))
    res["plan_files"] = len(lp["files"]) if lp else 0
    res["plan_partitions"] = len((lake.get("plan") or {}).get("filePathsToBeDeletedPerPartition") or {})
    print("   lakegc plan clean: %s (median of %d), %d files in the plan"
          % (fmt_s(statistics.median(times)), len(times), res["plan_files"]), file=sys.stderr)

    # Hudi, a fresh JVM planning once: in-JVM time and the process's wall time.
    hudi_out = os.path.join(o.work, name + ".hudi_bench_clean.json")
    load0 = os.getloadavg()[0]
    secs, peak, rc = run([o.hudi, "bench-clean", table] + cargs, hudi_out, env)
    if rc != 0:
        fail("hudi bench-clean exit %d (%s.err)" % (rc, hudi_out))
    h = load(hudi_out)
    res["hudi"] = {"wall_s": secs, "cpu_s": CPU["last"], "peak_rss_bytes": peak, "ms": h["ms"],
                   "plan_s": h["ms"]["plan"] / 1000.0, "spark_start_s": h["ms"]["spark_start"] / 1000.0,
                   "loadavg": [load0, os.getloadavg()[0]]}
    print("   hudi bench-clean: plan %s in the JVM, %s wall (JVM + Spark start-up included)"
          % (fmt_s(res["hudi"]["plan_s"]), fmt_s(secs)), file=sys.stderr)
    diffs = diff_plans(lake.get("plan"), h.get("plan"), name + " bench-clean")

    if not o.no_warm:
        warm_out = os.path.join(o.work, name + ".hudi_bench_clean_warm.json")
        secs2, peak2, rc = run([o.hudi, "bench-clean", table, "--repeat", "2"] + cargs, warm_out, env)
        if rc != 0:
            fail("hudi bench-clean --repeat 2 exit %d (%s.err)" % (rc, warm_out))
        h2 = load(warm_out)
        res["hudi_warm"] = {"wall_s": secs2, "cpu_s": CPU["last"], "peak_rss_bytes": peak2, "ms": h2["ms"],
                            "plan_s": h2["ms"]["plan_runs"][-1] / 1000.0}
        print("   hudi bench-clean, second plan in the same JVM: %s" % fmt_s(res["hudi_warm"]["plan_s"]),
              file=sys.stderr)
        diffs += diff_plans(lake.get("plan"), h2.get("plan"), name + " bench-clean --repeat 2")

    lakegc_runs()
    lake2 = load(lake_out)
    if lake2.get("plan") != lake.get("plan"):
        fail("%s: lakegc planned differently after Hudi ran" % name)
    res["lakegc"] = {"seconds": times, "median_s": statistics.median(times), "cpu_s": cpus,
                     "median_cpu_s": statistics.median(cpus), "peak_rss_bytes": max(rss),
                     "output_bytes": os.path.getsize(lake_out), "loadavg": loads}
    print("   lakegc plan clean, all runs: %s" % ", ".join(fmt_s(t) for t in times), file=sys.stderr)

    after = tree(table)
    if after != before:
        fail("%s: Hudi left the table changed: added %s, removed %s"
             % (name, sorted(after - before)[:5], sorted(before - after)[:5]))

    if check:
        # The table is one Hudi reads as lakegc does: view and plan-clean's own path.
        v_out = os.path.join(o.work, name + ".hudi_view.json")
        _, _, rc = run([o.hudi, "view", table], v_out, env)
        if rc != 0:
            fail("hudi view exit %d" % rc)
        i_out = os.path.join(o.work, name + ".lakegc_inspect.json")
        _, _, rc = run([o.lakegc, "inspect", table, "--json"], i_out, env)
        if rc != 0:
            fail("lakegc inspect exit %d" % rc)
        diffs += diff_views(load(i_out), load(v_out))
        pc_out = os.path.join(o.work, name + ".hudi_plan_clean.json")
        _, _, rc = run([o.hudi, "plan-clean", table] + cargs, pc_out, env)
        if rc != 0:
            fail("hudi plan-clean exit %d" % rc)
        diffs += diff_plans(lake.get("plan"), load(pc_out).get("plan"), name + " plan-clean")
        res["view_checked"] = True
    if diffs:
        fail("the planners disagree, so nothing here is a benchmark:\n  " + "\n  ".join(diffs))
    res["plans_agree"] = True
    print("   plans agree (%d files)%s" % (res["plan_files"], "; hudi view == lakegc inspect" if check else ""),
          file=sys.stderr)
    if not o.keep:
        subprocess.run(["rm", "-rf", table], check=True)
        for f in os.listdir(o.work):
            if f.startswith(name + "."):
                os.remove(os.path.join(o.work, f))
    return res


def summary(results, info):
    lines = ["# Hudi's clean planning against lakegc's, same on-disk table", "",
             "Run %s to %s on %s (%s); load average %.1f at the start, %.1f at the end."
             % (info["started"], info["finished"], info["cpu"], info["cores"], info["loadavg_start"],
                info["loadavg_end"]),
             "KEEP_LATEST_COMMITS, hoodie.clean.commits.retained=%d, incremental off (no previous clean: "
             "both list every partition); table version 6 COW, no metadata table." % info["retained"], "",
             "| files on disk | partitions | files in the plan | lakegc end to end | Hudi in-JVM (first plan) "
             "| Hudi in-JVM, warm (second plan) | Hudi with JVM + Spark start-up | Hudi in-JVM / lakegc "
             "| warm / lakegc | with start-up / lakegc | plans agree |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in results:
        lk = r["lakegc"]["median_s"]
        warm = r.get("hudi_warm", {}).get("plan_s")
        lines.append("| %s | %d | %s | %s | %s | %s | %s | %.0fx | %s | %.0fx | %s |" % (
            "{:,}".format(r["files_on_disk"]), r["partitions"], "{:,}".format(r["plan_files"]), fmt_s(lk),
            fmt_s(r["hudi"]["plan_s"]), fmt_s(warm) if warm else "-", fmt_s(r["hudi"]["wall_s"]),
            r["hudi"]["plan_s"] / lk, "%.0fx" % (warm / lk) if warm else "-", r["hudi"]["wall_s"] / lk,
            "yes" + (" (+ view)" if r.get("view_checked") else "")))
    lines += ["", "| files on disk | lakegc CPU (user+sys) | lakegc peak RSS | lakegc JSON output | Hudi process CPU "
              "| Hudi peak RSS | Spark start-up in the JVM | load average during Hudi |",
              "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        lines.append("| %s | %s | %.0f MiB | %.1f MB | %s | %.0f MiB | %s | %.1f to %.1f |" % (
            "{:,}".format(r["files_on_disk"]), fmt_s(r["lakegc"]["median_cpu_s"]),
            r["lakegc"]["peak_rss_bytes"] / 2**20, r["lakegc"]["output_bytes"] / 1e6, fmt_s(r["hudi"]["cpu_s"]),
            r["hudi"]["peak_rss_bytes"] / 2**20, fmt_s(r["hudi"]["spark_start_s"]), r["hudi"]["loadavg"][0],
            r["hudi"]["loadavg"][1]))
    lines += ["", "lakegc: median of %d runs (half before Hudi's, half after), wall time from process start to exit (listing, timeline, "
              "planning, JSON output). Hudi: `tests/interop/hudi bench-clean`, Spark local[2], -Xmx%s; in-JVM "
              "= meta client to the persisted `.clean.requested` (Spark already started); with start-up = "
              "the launcher process's wall time (JVM, Spark, planning, output, exit)." % (
                  info["lakegc_repeat"], info["xmx"]), ""]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lakegc", required=True)
    ap.add_argument("--gen", required=True)
    ap.add_argument("--hudi", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--sizes", default="100000,1000000")
    ap.add_argument("--check-size", type=int, default=2000)
    ap.add_argument("--retained", type=int, default=40)
    ap.add_argument("--lakegc-repeat", type=int, default=3)
    ap.add_argument("--no-warm", action="store_true")
    ap.add_argument("--keep", action="store_true")
    o = ap.parse_args()
    os.makedirs(o.out, exist_ok=True)
    os.makedirs(o.work, exist_ok=True)
    env = dict(os.environ, TZ="UTC")
    cpu = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    info = {"started": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "loadavg_start": os.getloadavg()[0],
            "cpu": cpu, "cores": "%d cores" % os.cpu_count(), "retained": o.retained,
            "lakegc_repeat": 2 * o.lakegc_repeat, "xmx": os.environ.get("LAKEGC_INTEROP_XMX", "3g"),
            "mem_total_gb": round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1)}
    results = [one_size(o, o.check_size, True, env)]
    for n in [int(x) for x in o.sizes.split(",") if x]:
        results.append(one_size(o, n, False, env))
    info["finished"] = time.strftime("%Y-%m-%d %H:%M:%S %Z")
    info["loadavg_end"] = os.getloadavg()[0]
    with open(os.path.join(o.out, "results.json"), "w") as f:
        json.dump({"info": info, "results": results}, f, indent=1)
    text = summary(results, info)
    with open(os.path.join(o.out, "summary.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
