#!/usr/bin/env python3
"""Times a shell command for bench/run.sh: wall time of each run and the
peak resident memory of its largest process, as JSON on stdout.

    timecmd.py --name NAME [--repeat N] [--warmup W] -- COMMAND...

Wall time, not CPU time: the benchmarks it is compared with report real
time too (UseRealTime), and both see the same machine load. Peak memory is
getrusage(RUSAGE_CHILDREN).ru_maxrss, the largest descendant this process
waited for (a fresh interpreter per measurement, so nothing else counts).
Python standard library only.
"""
import argparse
import json
import resource
import statistics
import subprocess
import sys
import time


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--name", required=True)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--warmup", type=int, default=0)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    cmd = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not cmd:
        parser.error("no command")
    out = ""
    for _ in range(args.warmup):
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    times = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        p = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True)
        times.append(time.perf_counter() - t0)
        out = p.stdout.strip()[-200:]
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    json.dump({
        "name": args.name,
        "command": cmd,
        "seconds": times,
        "median_seconds": statistics.median(times),
        "min_seconds": min(times),
        "peak_rss_bytes": usage.ru_maxrss * 1024,
        "stdout_tail": out,
    }, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
