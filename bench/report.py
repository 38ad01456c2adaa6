#!/usr/bin/env python3
"""Writes the results table of bench/README.md (Markdown, on stdout) from
the JSON files bench/run.sh leaves in a results directory: Google
Benchmark's --benchmark_out files, timecmd.py's timings of find and
sort+comm, and run_info.json.

    report.py bench/results > bench/results/summary.md

Every ratio is against a baseline measured in the same run. Each target of
issue 16 (and of issue 7 where issue 16 has none) is reported as MET or MISSED with
the figure it was judged on.
Python standard library only.
"""
import glob
import json
import math
import os
import platform
import re
import sys

UNIT = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def load_gb(path):
    """Benchmark rows of one Google Benchmark JSON file, by name without the
    run options (min_time, repeats, iterations, real_time): the median
    aggregate when repeated, else the single run."""
    if not os.path.exists(path):
        return {}
    data = json.load(open(path))
    rows = {}
    for b in data.get("benchmarks", []):
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        parts = [p for p in b["run_name"].split("/")
                 if not re.match(r"^(min_time|repeats|iterations):", p) and p != "real_time"]
        key = "/".join(parts)
        b["seconds"] = b["real_time"] * UNIT[b["time_unit"]]
        b["cpu_seconds"] = b["cpu_time"] * UNIT[b["time_unit"]]
        if key not in rows or b.get("aggregate_name") == "median":
            rows[key] = b
    return rows


def load_json(path):
    return json.load(open(path)) if os.path.exists(path) else None


def fmt_n(n):
    n = float(n)
    for div, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if n >= div:
            return f"{n / div:.3g}{suffix}"
    return f"{n:.3g}"


def fmt_s(s):
    if s is None:
        return "-"
    if s >= 1:
        return f"{s:.2f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.1f} ms"
    return f"{s * 1e6:.0f} us"


def verdict(ok):
    return "**MET**" if ok else "**MISSED**"


def machine():
    model = "?"
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            model = line.split(":", 1)[1].strip()
            break
    mem = "?"
    for line in open("/proc/meminfo"):
        if line.startswith("MemTotal"):
            mem = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    return f"{model}, {os.cpu_count()} CPUs (nproc), {mem} RAM, Linux {platform.release()}"


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else "bench/results"
    info = load_json(os.path.join(out_dir, "run_info.json")) or {}
    rows_main = []  # what, figure, baseline, ratio, target, verdict
    details = []
    d = details.append

    def row(what, figure, baseline="", ratio="", target="", ok=None):
        rows_main.append((what, figure, baseline, ratio, target, "" if ok is None else verdict(ok)))

    row("Machine", machine())
    row("Date", f"{info.get('started', '?')} to {info.get('finished', '?')}")
    row("Command", f"`{info.get('command', 'bench/run.sh')}`; build: `--buildtype=release` (-O3)")
    row("Load average (1/5/15 min)", f"start {' / '.join(info.get('loadavg_start', []))}; "
        f"end {' / '.join(info.get('loadavg_end', []))}")
    row("Harness", "Google Benchmark 1.7.1 (Debian 12 `libbenchmark-dev`), wall-clock time, median of 3 "
        "repetitions (1 run where marked)")

    # --- Benchmark 1: four sizes -------------------------------------------------
    sizes = sorted(int(re.search(r"plan_(\d+)\.json", p).group(1))
                   for p in glob.glob(os.path.join(out_dir, "plan_*.json")))
    per_size = {}
    for n in sizes:
        rows = load_gb(os.path.join(out_dir, f"plan_{n}.json"))
        p = rows.get(f"plan_full/{n}")
        if not p:
            continue
        r, f = rows.get(f"reference_planner/{n}"), rows.get(f"floor/{n}")
        slices = p["slices"]
        per_size[n] = dict(
            p=p, slices=slices, seconds=p["seconds"], ns=p["seconds"] / slices * 1e9,
            rns=r["seconds"] / slices * 1e9 if r else None, r_once=bool(r) and r.get("run_type") != "aggregate",
            fns=f["seconds"] / slices * 1e9 if f else None,
            t1=rows.get(f"threads/{n}/threads:1"), t2=rows.get(f"threads/{n}/threads:2"),
            bit=rows.get(f"diag/savepoint_bit/{n}"))
    d("### 1. Full clean planning, keep_latest_commits, every partition written since the last clean")
    d("")
    d("| nominal slices | slices | data files | files in plan | lakegc | lakegc ns/slice | reference ns/slice "
      "| floor ns/slice | vs reference | / floor | model B/slice | names B/slice | RSS B/slice | peak RSS B/slice |")
    d("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n, v in per_size.items():
        p = v["p"]
        ref = "-" if not v["rns"] else f"{v['rns']:.0f}" + (" (1 run)" if v["r_once"] else "")
        flo = "-" if not v["fns"] else f"{v['fns']:.1f}"
        vs_ref = "-" if not v["rns"] else f"{v['rns'] / v['ns']:.1f}x faster"
        vs_floor = "-" if not v["fns"] else f"{v['ns'] / v['fns']:.0f}x"
        d(f"| {fmt_n(n)} | {fmt_n(v['slices'])} | {fmt_n(p['data_files'])} | {fmt_n(p['files_in_plan'])} | "
          f"{fmt_s(v['seconds'])} | {v['ns']:.0f} | {ref} | {flo} | {vs_ref} | {vs_floor} | "
          f"{p['model_bytes_per_slice']:.0f} | {p['name_bytes_per_slice']:.0f} | {p['rss_bytes_per_slice']:.0f} | "
          f"{p['peak_bytes_per_slice']:.0f} |")
        row(f"1. Full plan, {fmt_n(n)} slices", f"{v['ns']:.0f} ns/slice ({fmt_s(v['seconds'])})",
            (f"reference {v['rns']:.0f} ns/slice" if v["rns"] else "") +
            (f"; floor {v['fns']:.1f} ns/slice" if v["fns"] else ""),
            (f"{v['rns'] / v['ns']:.1f}x faster than reference" if v["rns"] else "") +
            (f"; {v['ns'] / v['fns']:.0f}x the floor" if v["fns"] else ""))
    d("")
    d("Memory: model = TableView::model_bytes() (array capacities, names excluded), names = name_bytes() (the "
      "arena's capacity), RSS = resident memory once the view and metadata are built and the builder freed, peak = "
      "the process's VmHWM (builder included). One fresh process per size.")
    d("")
    if per_size:
        big = max(per_size)
        v = per_size[big]
        if v["rns"]:
            row(f"1. Full plan at {fmt_n(big)}: against the reference planner", f"{v['ns']:.0f} ns/slice",
                f"reference {v['rns']:.0f} ns/slice", f"{v['rns'] / v['ns']:.1f}x faster", ">= 20x faster",
                v["rns"] / v["ns"] >= 20)
        if v["fns"]:
            row(f"1. Full plan at {fmt_n(big)}: against the floor", f"{v['ns']:.0f} ns/slice",
                f"floor {v['fns']:.1f} ns/slice", f"{v['ns'] / v['fns']:.0f}x", "<= 10x", v["ns"] / v["fns"] <= 10)
        p = v["p"]
        row(f"1. Model memory at {fmt_n(big)}", f"{p['model_bytes_per_slice']:.0f} B/slice (names: "
            f"{p['name_bytes_per_slice']:.0f} B/slice more)")
        row(f"1. Peak memory at {fmt_n(big)}, names and builder included", f"{p['peak_bytes_per_slice']:.0f} B/slice",
            "", "", "<= 150 B/slice", p["peak_bytes_per_slice"] <= 150)
        row("1. Peak memory per slice (fresh process per size)",
            "; ".join(f"{fmt_n(n)}: {x['p']['peak_bytes_per_slice']:.0f} B" for n, x in per_size.items()))
        if len(per_size) >= 2:
            xs = [math.log(x["slices"]) for x in per_size.values()]
            ys = [math.log(x["seconds"]) for x in per_size.values()]
            mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
            slope = sum((a - mx) * (b - my) for a, b in zip(xs, ys)) / sum((a - mx) ** 2 for a in xs)
            nss = [x["ns"] for x in per_size.values()]
            row("1. Cost grows linearly with slices (all four sizes above)",
                f"time ~ slices^{slope:.2f}; {min(nss):.0f} to {max(nss):.0f} ns/slice", "", "",
                "exponent 0.95 to 1.05", 0.95 <= slope <= 1.05)
        if any(x["bit"] for x in per_size.values()):
            d("What the savepoint guard costs: `guard::savepoints` tests a savepoint flag per slice that "
              "`TableViewBuilder::build()` gathers once from the slice's files (the savepoint names the "
              "then-latest base file of every group). The same plan with the check done by comparing instants instead (`diag/savepoint_bit`); "
              "differences of a few percent are noise:")
            d("")
            d("| nominal slices | guard::savepoints | check by instant | share of plan time in the guard |")
            d("|---:|---:|---:|---:|")
            for n, x in per_size.items():
                if x["bit"]:
                    ns2 = x["bit"]["seconds"] / x["slices"] * 1e9
                    d(f"| {fmt_n(n)} | {x['ns']:.0f} ns/slice | {ns2:.0f} ns/slice | "
                      f"{max(0.0, 1 - ns2 / x['ns']) * 100:.0f}% |")
            d("")

    # --- Benchmark 2 ----------------------------------------------------------------
    d("### 2. Incremental against full planning, 1% of partitions touched since the previous clean")
    d("")
    d("| nominal slices | partitions | scanned (incremental) | full | incremental | full / incremental |")
    d("|---:|---:|---:|---:|---:|---:|")
    last = None
    for n in sizes:
        rows = load_gb(os.path.join(out_dir, f"incremental_{n}.json"))
        f, i = rows.get(f"incremental/full/{n}"), rows.get(f"incremental/inc/{n}")
        if not f or not i:
            continue
        ratio = f["seconds"] / i["seconds"]
        last = (n, f, i, ratio)
        d(f"| {fmt_n(n)} | {f['partitions']:.0f} | {i['partitions_scanned']:.0f} | {fmt_s(f['seconds'])} | "
          f"{fmt_s(i['seconds'])} | {ratio:.0f}x |")
    d("")
    d("The same tables with commit metadata naming every file written (`incremental_named/`), as "
      "`hudi::journal` loads a real table: the listing check reads those lists before every plan.")
    d("")
    d("| nominal slices | full | incremental | full / incremental |")
    d("|---:|---:|---:|---:|")
    for n in sizes:
        path = os.path.join(out_dir, f"incremental_named_{n}.json")
        if not os.path.exists(path):
            continue
        rows = load_gb(path)
        f, i = rows.get(f"incremental_named/full/{n}"), rows.get(f"incremental_named/inc/{n}")
        if not f or not i:
            continue
        d(f"| {fmt_n(n)} | {fmt_s(f['seconds'])} | {fmt_s(i['seconds'])} | {f['seconds'] / i['seconds']:.0f}x |")
    d("")
    if last:
        n, f, i, ratio = last
        row(f"2. Incremental plan, 1% of partitions touched, {fmt_n(n)} slices", fmt_s(i["seconds"]),
            f"full plan {fmt_s(f['seconds'])}", f"{ratio:.0f}x faster", ">= 50x faster", ratio >= 50)

    # --- Benchmark 3 ----------------------------------------------------------------
    rows = load_gb(os.path.join(out_dir, "load.json"))
    if rows:
        d("### 3. Building the TableView from a listing; loading a layout-1 timeline of JSON commit files")
        d("")
        d("| what | time | files/s | MB/s | baseline (same input, same run) | ratio |")
        d("|---|---:|---:|---:|---|---:|")
        for key, b in rows.items():
            if not key.startswith("view_from_listing/"):
                continue
            fl = rows.get(key.replace("view_from_listing", "listing_floor"))
            ratio = f"{b['seconds'] / fl['seconds']:.0f}x" if fl else "-"
            d(f"| load_view from a listing of {fmt_n(b['files'])} files ({fmt_n(b['slices'])} slices) | "
              f"{fmt_s(b['seconds'])} | {fmt_n(b['items_per_second'])} | {b['bytes_per_second'] / 1e6:.0f} | "
              f"streaming the listing, touching each byte: {fmt_s(fl['seconds']) if fl else '-'} | {ratio} |")
            row(f"3. TableView from a listing of {fmt_n(b['files'])} files",
                f"{fmt_n(b['items_per_second'])} files/s, {b['bytes_per_second'] / 1e6:.0f} MB/s (of paths)",
                f"streaming the same listing: {fmt_n(fl['items_per_second'])} files/s" if fl else "", ratio,
                "<= 10x the listing floor", bool(fl) and b["seconds"] / fl["seconds"] <= 10)
        for key, b in rows.items():
            m = re.match(r"timeline/(memory|posix)/(\d+)$", key)
            if not m:
                continue
            mem = m.group(1) == "memory"
            base = rows.get(f"timeline/{'simdjson_parse' if mem else 'posix_read_parse'}/{m.group(2)}")
            what = f"hudi::journal::load, {'memory_storage' if mem else 'posix_storage'}"
            base_what = "simdjson DOM parse of the same bytes" if mem else "open+read+simdjson parse of the same files"
            ratio = f"{b['seconds'] / base['seconds']:.1f}x" if base else "-"
            d(f"| {what}: {fmt_n(b['commit_files'])} commit files ({fmt_n(b['timeline_files'])} timeline files, "
              f"{b['MB']:.0f} MB) | {fmt_s(b['seconds'])} | {fmt_n(b['items_per_second'])} commits/s | "
              f"{b['bytes_per_second'] / 1e6:.0f} | {base_what}: {fmt_s(base['seconds']) if base else '-'} "
              f"({base['bytes_per_second'] / 1e6 if base else 0:.0f} MB/s) | {ratio} |")
            row(f"3. Timeline of {fmt_n(b['commit_files'])} JSON commit files, {what}",
                f"{fmt_n(b['items_per_second'])} commit files/s, {b['bytes_per_second'] / 1e6:.0f} MB/s",
                f"{base_what}: {base['bytes_per_second'] / 1e6:.0f} MB/s" if base else "", f"{ratio} slower",
                ">= half the baseline's throughput", bool(base) and b["seconds"] / base["seconds"] <= 2)
        d("")

    # --- Benchmark 4 ----------------------------------------------------------------
    rows = load_gb(os.path.join(out_dir, "list.json"))
    find = load_json(os.path.join(out_dir, "find.json"))
    findp = load_json(os.path.join(out_dir, "find_printf.json"))
    tree = load_json(os.path.join(out_dir, "tree.json"))
    if rows and find:
        pl = rows.get("posix_list")
        files = pl["files"] if pl else 0
        fs = find["median_seconds"]
        d("### 4. posix_storage listing against `find TABLE -type f` (same tree, warm cache)")
        d("")
        if tree:
            d(f"Tree: {fmt_n(files)} files ({fmt_n(tree['data_files'])} 0-byte data files in {tree['partitions']} "
              f"partitions, {fmt_n(tree['timeline_files'])} timeline files), written in {tree['write_seconds']:.0f} s "
              "and deleted after the run.")
            d("")
        d("| lister | time | files/s | vs `find -type f` |")
        d("|---|---:|---:|---:|")
        d(f"| `find TABLE -type f \\| wc -l` | {fmt_s(fs)} | {fmt_n(files / fs) if files else '-'} | 1.00x |")
        if findp:
            d(f"| `find TABLE -type f -printf '%s %T@ %p\\n' \\| wc -l` (stats every file, as a listing must) | "
              f"{fmt_s(findp['median_seconds'])} | {fmt_n(files / findp['median_seconds']) if files else '-'} | "
              f"{findp['median_seconds'] / fs:.2f}x |")
        for key, label in (("posix_list", "lakegc posix_storage::list (sorted by name, fstatat per file)"),
                           ("posix_list_names", "lakegc posix_storage::list without attributes (what a clean "
                                                "plan lists: sorted by name, readdir's type, no stat)"),
                           ("walk_readdir", "floor: readdir by d_type, no stat, no sort"),
                           ("walk_readdir_stat", "readdir + fstatat per entry, no sort")):
            b = rows.get(key)
            if b:
                d(f"| {label} | {fmt_s(b['seconds'])} | {fmt_n(b['items_per_second'])} | {b['seconds'] / fs:.2f}x |")
        d("")
        if pl:
            extra = (f"; {pl['seconds'] / findp['median_seconds']:.2f}x `find -printf` (sizes and mtimes)"
                     if findp else "")
            row(f"4. posix_storage listing of {fmt_n(files)} files, with sizes and mtimes", f"{fmt_s(pl['seconds'])}, "
                f"{fmt_n(pl['items_per_second'])} files/s", f"`find -type f`: {fmt_s(fs)}",
                f"{pl['seconds'] / fs:.2f}x{extra}", "", None)
        pn = rows.get("posix_list_names")
        if pn:
            row(f"4. posix_storage listing of {fmt_n(pn['files'])} files as a clean plan lists them (names; "
                f"{fmt_n(pn['stats'])} stats)", f"{fmt_s(pn['seconds'])}, {fmt_n(pn['items_per_second'])} files/s",
                f"`find -type f`: {fmt_s(fs)}", f"{pn['seconds'] / fs:.2f}x", "<= 1.2x `find`",
                pn["seconds"] / fs <= 1.2)

    # --- Benchmark 5 ----------------------------------------------------------------
    rows = load_gb(os.path.join(out_dir, "sim.json"))
    for key, b in rows.items():
        row(f"5. Simulator, default swarm (`{key}`: run_seed for seeds 1..N)",
            f"{fmt_n(b['events_per_second'])} events/s, {b['seeds_per_minute']:.0f} seeds/min "
            f"({b['events_per_seed']:.0f} events/seed, {b['failed_seeds']:.0f} failed)")

    # --- Benchmark 6 ----------------------------------------------------------------
    d("### 6. Planning partitions on 1 and 2 threads")
    d("")
    d("| nominal slices | 1 thread | 2 threads | speedup |")
    d("|---:|---:|---:|---:|")
    for n, v in per_size.items():
        if v["t1"] and v["t2"]:
            d(f"| {fmt_n(n)} | {fmt_s(v['t1']['seconds'])} | {fmt_s(v['t2']['seconds'])} | "
              f"{v['t1']['seconds'] / v['t2']['seconds']:.2f}x |")
    d("")
    if per_size:
        big = max(per_size)
        v = per_size[big]
        if v["t1"] and v["t2"]:
            row(f"6. Planning on 2 threads, {fmt_n(big)} slices", fmt_s(v["t2"]["seconds"]),
                f"1 thread: {fmt_s(v['t1']['seconds'])}", f"{v['t1']['seconds'] / v['t2']['seconds']:.2f}x speedup")

    # --- Issue 6 ---------------------------------------------------------------------
    osizes = sorted(int(re.search(r"orphans_(\d+)\.json", p).group(1))
                    for p in glob.glob(os.path.join(out_dir, "orphans_*.json")))
    if osizes:
        d("### Issue 6: orphan sweep against `LC_ALL=C sort` + `comm -23` on the same files")
        d("")
        d("| listed paths | referenced | orphans found | OrphanSweep | paths/s | peak RSS | of it, the metadata | "
          "sort+comm | sort+comm peak RSS | time ratio | memory ratio | the sweep's own memory ratio |")
        d("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for n in osizes:
            b = load_gb(os.path.join(out_dir, f"orphans_{n}.json")).get(f"orphan_sweep/{n}")
            sc = load_json(os.path.join(out_dir, f"sort_comm_{n}.json"))
            if not b or not sc:
                continue
            t, st = b["seconds"], sc["median_seconds"]
            pk, spk = b["peak_rss_bytes"], sc["peak_rss_bytes"]
            md = b["rss_before_sweep_bytes"]  # the TableMetadata the sweep is handed, as the journal holds it
            d(f"| {fmt_n(n)} | {fmt_n(b['referenced'])} | {fmt_n(b['orphans'])} | {fmt_s(t)} | "
              f"{fmt_n(b['items_per_second'])} | {pk / 2**20:.0f} MiB | {md / 2**20:.0f} MiB | {fmt_s(st)} | "
              f"{spk / 2**20:.0f} MiB | {t / st:.2f}x | {pk / spk:.2f}x | {(pk - md) / spk:.2f}x |")
            if n == osizes[-1]:
                row(f"Issue 6. Orphan sweep, {fmt_n(n)} paths against {fmt_n(b['referenced_paths'])} referenced",
                    f"{fmt_n(b['items_per_second'])} paths/s ({fmt_s(t)}), peak RSS {pk / 2**20:.0f} MiB "
                    f"({md / 2**20:.0f} MiB of it the metadata handed to the sweep)",
                    f"`LC_ALL=C sort` + `comm -23`: {fmt_s(st)}, peak RSS {spk / 2**20:.0f} MiB",
                    f"{t / st:.2f}x the time, {pk / spk:.2f}x the memory ({(pk - md) / spk:.2f}x without the "
                    "metadata)", "<= 0.5x the time, <= 1x the memory",
                    t / st <= 0.5 and pk <= spk)
        d("")
        d("OrphanSweep's time covers OrphanSweep::make (the referenced set), reading listing.txt line by line into "
          "add(), and finish(); building TableMetadata from referenced.txt (the journal's job) is not included. "
          "sort+comm sorts both files and counts the listed paths nobody references. Ratios above 1: lakegc is "
          "slower / uses more. Peak RSS: the sweep's own process (one per size), the metadata included (its "
          "RSS before the sweep starts, shown separately: the verdict counts it); for sort+comm, its largest process.")
        d("")

    print("| | figure | baseline (same run) | ratio | target | verdict |")
    print("|---|---|---|---|---|---|")
    for r in rows_main:
        print("| " + " | ".join(r) + " |")
    print("")
    print("\n".join(details))


if __name__ == "__main__":
    main()
