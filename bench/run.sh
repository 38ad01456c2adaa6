#!/usr/bin/env bash
# bench/run.sh: the one command that reproduces every figure of
# bench/README.md. Builds the benchmarks, runs each with Google Benchmark's
# JSON output into bench/results/, times `find` and `sort`+`comm` on the
# same inputs in the same run (the ratios' baselines), then writes
# bench/results/summary.md (report.py) and bench/results/ns_per_slice.svg
# (plot.py).
#
#   bench/run.sh            full sizes (15-30 minutes on 2 cores plus the build;
#                           peak memory about 5.5 GB, 4 GB free disk under /tmp)
#   QUICK=1 bench/run.sh    small sizes, to try the pipeline in a minute
#
# Environment: BUILD (build directory, default build-bench), TMPDIR (scratch
# trees and inputs, default /tmp; everything written there is deleted).
set -euo pipefail

cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-bench}
OUT=${OUT:-bench/results}
SCRATCH_BASE=${TMPDIR:-/tmp}

if [[ "${QUICK:-0}" == 1 ]]; then
  SIZES="10000 100000"; TREE="20 50 5"; COMMITS=1000; LOAD_SIZE=100000; SIM_SEEDS=10
  ORPHAN_SIZES="100000"
else
  # Benchmark 1's four sizes; ~1 million files on disk (500 partitions x
  # 235 groups x 5 slices, 1.7 files per slice); 10,000 commit files;
  # 10 million listed paths against 5 million referenced.
  SIZES="10000 100000 1000000 10000000"; TREE="500 235 5"; COMMITS=10000; LOAD_SIZE=1000000; SIM_SEEDS=100
  ORPHAN_SIZES="100000 1000000 10000000"
fi

SCRATCH=$(mktemp -d "$SCRATCH_BASE/lakegc-bench.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT

[[ -f "$BUILD/build.ninja" ]] || meson setup "$BUILD" -Dwerror=true --buildtype=release -Dtests=disabled
ninja -C "$BUILD" bench/bench_plan bench/bench_load bench/bench_list bench/bench_orphans bench/bench_sim

mkdir -p "$OUT"
rm -f "$OUT"/*.json "$OUT"/summary.md
B="$BUILD/bench"
gb() { # gb NAME BINARY ARGS...: a Google Benchmark run with JSON output
  local name=$1; shift
  echo "== $name: $*" >&2
  "$@" --benchmark_out="$OUT/$name.json" --benchmark_out_format=json >&2
}

python3 - "$OUT/run_info.json" <<'EOF'
import json, os, sys, time
json.dump({"started": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "loadavg_start": open("/proc/loadavg").read().split()[:3],
           "command": "bench/run.sh" + (" (QUICK=1)" if os.environ.get("QUICK") == "1" else "")}, open(sys.argv[1], "w"))
EOF

# Benchmarks 1 and 6 (table with every partition written since the last
# clean), then 2 (1% written): one process per size and table, so each
# size's peak memory is its own.
for n in $SIZES; do
  gb "plan_$n" "$B/bench_plan" --sizes="$n" --benchmark_filter='^(plan_full|floor|threads|diag|reference_planner)/'
  gb "incremental_$n" "$B/bench_plan" --sizes="$n" --benchmark_filter='^incremental/'
  # The same with commit metadata naming every file (the listing check's
  # input on a real table).
  gb "incremental_named_$n" "$B/bench_plan" --sizes="$n" --benchmark_filter='^incremental_named/'
done

# Benchmark 3.
gb load "$B/bench_load" --sizes="$LOAD_SIZE" --commits="$COMMITS"

# Benchmark 4: the same tree, warm cache, listed by posix_storage and by find.
read -r P G S <<<"$TREE"
"$B/bench_list" --write-tree="$SCRATCH/table" --partitions="$P" --groups="$G" --slices="$S" >"$OUT/tree.json"
python3 bench/timecmd.py --name find --repeat 3 --warmup 1 -- \
  bash -c "find '$SCRATCH/table' -type f | wc -l" >"$OUT/find.json"
python3 bench/timecmd.py --name find_printf --repeat 3 -- \
  bash -c "find '$SCRATCH/table' -type f -printf '%s %T@ %p\n' | wc -l" >"$OUT/find_printf.json"
gb list "$B/bench_list" --tree="$SCRATCH/table"
rm -rf "$SCRATCH/table"

# Benchmark 5.
gb sim "$B/bench_sim" --seeds="$SIM_SEEDS"

# Issue 6: the orphan sweep against sort + comm on the same two files.
for n in $ORPHAN_SIZES; do
  m=$((n / 2))
  d="$SCRATCH/orphans_$n"
  "$B/bench_orphans" --write-inputs="$d" --paths="$n" --referenced="$m" >"$OUT/orphan_inputs_$n.json"
  cat "$d/listing.txt" "$d/referenced.txt" >/dev/null  # both sides start from the page cache
  python3 bench/timecmd.py --name "sort_comm_$n" --repeat 1 -- bash -c \
    "LC_ALL=C sort '$d/listing.txt' -o '$d/l.sorted' && LC_ALL=C sort '$d/referenced.txt' -o '$d/r.sorted' \
     && LC_ALL=C comm -23 '$d/l.sorted' '$d/r.sorted' | wc -l" >"$OUT/sort_comm_$n.json"
  gb "orphans_$n" "$B/bench_orphans" --inputs="$d" --paths="$n" --referenced="$m"
  rm -rf "$d"
done

python3 - "$OUT/run_info.json" <<'EOF'
import json, sys, time
info = json.load(open(sys.argv[1]))
info["finished"] = time.strftime("%Y-%m-%d %H:%M:%S %Z")
info["loadavg_end"] = open("/proc/loadavg").read().split()[:3]
json.dump(info, open(sys.argv[1], "w"))
EOF
python3 bench/report.py "$OUT" >"$OUT/summary.md"
python3 bench/plot.py "$OUT"
echo "results: $OUT/summary.md, $OUT/ns_per_slice.svg" >&2
