#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# run-compare-view.sh — the compare view's frame times (`cpelview
# --benchmark A --compare B`) against the single view of A and of B, same
# run (the compare view's target: two 10^7-event captures side by side,
# every frame's paint ≤ 16 ms p95; memory = the two single-capture figures
# added).
#
# usage: run-compare-view.sh CPEL CPELVIEW OUTDIR
#   CPEL       the built `cpel` binary (writes the captures)
#   CPELVIEW   the built viewer
#   OUTDIR     where the generated captures are kept (the build dir; never committed)
# environment: CPEL_BENCH_COMPARE_EVENTS (default 10000000),
#              CPEL_BENCH_COMPARE_TRACKS (1000), CPEL_BENCH_COMPARE_RUNS (3)
#
# A (seed 1) and B (seed 2, little-endian) from `cpel gen`; the three
# variants run in turn, RUNS rounds, under Xvfb 1280x800x24 with
# GSK_RENDERER=cairo.  Per variant the median over rounds of each run's
# paint p95 / max and its peak RSS; the ratios set compare against single A
# (time) and its memory above the viewer's own (a 10-event capture's peak)
# against single A's and single B's added.  Skips (exit 77)
# without xvfb-run/python3 or when disk or memory is short.  Exit status 1
# when the frame target is missed (compare paint p95 > 16 ms).
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/bench-util.sh"

bench_args 3 3 "CPEL CPELVIEW OUTDIR" "$@"
cpel=$1 cpelview=$2 outdir=$3
events=${CPEL_BENCH_COMPARE_EVENTS:-10000000}
tracks=${CPEL_BENCH_COMPARE_TRACKS:-1000}
runs=${CPEL_BENCH_COMPARE_RUNS:-3}
a=$outdir/compare-view-$events-$tracks-a.cpel
b=$outdir/compare-view-$events-$tracks-b.cpel
mkdir -p "$outdir"

bench_need_tools xvfb-run python3
bench_need_disk "$outdir" $(( $(bench_missing_mb "$events" "$a" "$b") + 100 ))
bench_need_mem $(( events * 80 / 1000000 + 800 ))

[ -f "$a" ] || bench_gen "$a" --events "$events" --tracks "$tracks" --seed 1 > /dev/null
tiny=$outdir/compare-view-tiny.cpel
[ -f "$tiny" ] || "$cpel" gen --events 10 --tracks 1 "$tiny" --force > /dev/null
[ -f "$b" ] || bench_gen "$b" --events "$events" --tracks "$tracks" --seed 2 --little-endian > /dev/null
cat "$a" "$b" > /dev/null

echo "machine: $(nproc) CPUs, load $(bench_load), $events events × $tracks tracks per capture, $runs rounds"
bench_cpelview "$outdir/compare-view-tiny.json" --benchmark "$tiny"
jsons=()
for r in $(seq "$runs"); do
  bench_cpelview "$outdir/compare-view-single-a-$r.json" --benchmark "$a"
  bench_cpelview "$outdir/compare-view-single-b-$r.json" --benchmark "$b"
  bench_cpelview "$outdir/compare-view-compare-$r.json" --benchmark "$a" --compare "$b"
  jsons+=("$outdir/compare-view-single-a-$r.json" "$outdir/compare-view-single-b-$r.json"
          "$outdir/compare-view-compare-$r.json")
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$outdir/compare-view-tiny.json" "${jsons[@]}" <<'PY'
import json, statistics, sys
base_kb = json.load(open(sys.argv[1]))["peak_rss_kb"]
files = sys.argv[2:]
variants = {"single-a": [], "single-b": [], "compare": []}
for i, path in enumerate(files):
    variants[["single-a", "single-b", "compare"][i % 3]].append(json.load(open(path)))
def med(v, key):
    return statistics.median(x["summary"][key] if key.startswith(("paint", "latency")) else x[key] for x in v)
rows = {}
print("%-9s %8s %10s %10s %9s %11s %9s" % ("view", "frames", "paint p95", "paint max", "lat p95", "first frame", "peak RSS"))
for name, v in variants.items():
    r = {k: med(v, k) for k in ("paint_ms_p95", "paint_ms_max", "latency_ms_p95",
                                "start_to_first_frame_ms", "peak_rss_kb")}
    rows[name] = r
    print("%-9s %8d %8.1f ms %7.1f ms %6.1f ms %8.0f ms %6.0f MB" % (
        name, v[0]["summary"]["frames"], r["paint_ms_p95"], r["paint_ms_max"], r["latency_ms_p95"],
        r["start_to_first_frame_ms"], r["peak_rss_kb"] / 1024))
c, sa, sb = rows["compare"], rows["single-a"], rows["single-b"]
print("compare / single A: paint p95 %.2f×, paint max %.2f×" % (
    c["paint_ms_p95"] / sa["paint_ms_p95"], c["paint_ms_max"] / sa["paint_ms_max"]))
print("viewer alone (10-event capture): %.0f MB peak RSS" % (base_kb / 1024))
singles_kb = (sa["peak_rss_kb"] - base_kb) + (sb["peak_rss_kb"] - base_kb)
if singles_kb > 0:
    print("compare's memory above it / (single A's + single B's): %.2f×" % (
        (c["peak_rss_kb"] - base_kb) / singles_kb))
print("(the single view also searches; the compare view replays fit, zooms, pan, zoom out only)")
ok = c["paint_ms_p95"] <= 16.0
print("target compare paint p95 <= 16 ms: %s" % ("met" if ok else "MISSED"))
sys.exit(0 if ok else 1)
PY
