#!/usr/bin/env bash
# bench/hudi_vs_lakegc.sh: Hudi's own clean planning (tests/interop/hudi
# bench-clean: Apache Hudi 1.2.0, Spark local[2]) against `lakegc plan clean`
# (release build) on the same generated on-disk tables, in one run. Fails
# unless both plan the same files. Writes bench/results/hudi_vs_lakegc/
# (results.json, summary.md, run.log). Method: bench/README.md.
#
#   bench/hudi_vs_lakegc.sh          a 2k-file check table, then 100k and 1M files
#                                    (8-25 minutes on 2 cores; 1 GB free disk)
#   QUICK=1 bench/hudi_vs_lakegc.sh  the check table and 20k files (a few minutes)
#
# Environment: BUILD (default build-bench-hudi), TMPDIR (tables, default /tmp;
# deleted after each size unless KEEP=1), SIZES (comma-separated file counts),
# LAKEGC_INTEROP_XMX (Hudi's heap, default 3g), NICE (default 10).
set -euo pipefail

cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-bench-hudi}
OUT=${OUT:-bench/results/hudi_vs_lakegc}
NICE=${NICE:-10}
if [[ "${QUICK:-0}" == 1 ]]; then
  SIZES=${SIZES:-20000}
  OUT=${OUT}_quick
else
  SIZES=${SIZES:-100000,1000000}
fi

[[ -f "$BUILD/build.ninja" ]] || nice -n "$NICE" meson setup "$BUILD" -Dwerror=true --buildtype=release -Dtests=disabled
nice -n "$NICE" ninja -C "$BUILD" tools/lakegc bench/gen_hudi_table >&2
# The harness jar (the launcher builds it when src/ changed).
nice -n "$NICE" tests/interop/hudi --help >/dev/null

WORK=$(mktemp -d "${TMPDIR:-/tmp}/lakegc-hudi-bench.XXXXXX")
[[ "${KEEP:-0}" == 1 ]] || trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT"
keep=(); [[ "${KEEP:-0}" == 1 ]] && keep=(--keep)
nice -n "$NICE" python3 bench/hudi_vs_lakegc.py --lakegc "$BUILD/tools/lakegc" --gen "$BUILD/bench/gen_hudi_table" \
  --hudi tests/interop/hudi --work "$WORK" --out "$OUT" --sizes "$SIZES" "${keep[@]}" 2> >(tee "$OUT/run.log" >&2)
