#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# run-compare-view.sh — the compare view's frame times (`cpelview
# --benchmark A --compare B`) against the single view of A and of B, same
# run (#15: two 10^7-event captures side by side, every frame's paint
# ≤ 16 ms p95; memory = the two single-capture figures added).
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

if [ $# -ne 3 ]; then
  echo "usage: $0 CPEL CPELVIEW OUTDIR" >&2
  exit 2
fi
cpel=$1 cpelview=$2 outdir=$3
events=${CPEL_BENCH_COMPARE_EVENTS:-10000000}
tracks=${CPEL_BENCH_COMPARE_TRACKS:-1000}
runs=${CPEL_BENCH_COMPARE_RUNS:-3}
a=$outdir/compare-view-$events-$tracks-a.cpel
b=$outdir/compare-view-$events-$tracks-b.cpel
mkdir -p "$outdir"

for tool in xvfb-run python3; do
  if ! command -v "$tool" > /dev/null; then
    echo "SKIP: $tool not found"
    exit 77
  fi
done
need_mb=$(( (events * 20 * 2) / 1000000 + 100 ))
free_mb=$(df -Pm "$outdir" | awk 'NR == 2 { print $4 }')
for f in "$a" "$b"; do
  [ -f "$f" ] && need_mb=$(( need_mb - events * 20 / 1000000 ))
done
if [ "$free_mb" -lt "$need_mb" ]; then
  echo "SKIP: $need_mb MB of disk needed in $outdir, $free_mb MB free"
  exit 77
fi
mem_mb=$(awk '/MemAvailable/ { printf "%d", $2 / 1024 }' /proc/meminfo)
if [ "$mem_mb" -lt $(( events * 80 / 1000000 + 800 )) ]; then
  echo "SKIP: $(( events * 80 / 1000000 + 800 )) MB of memory needed, $mem_mb MB available"
  exit 77
fi

[ -f "$a" ] || { "$cpel" gen --events "$events" --tracks "$tracks" --seed 1 "$a.part" --force > /dev/null; mv -f "$a.part" "$a"; }
tiny=$outdir/compare-view-tiny.cpel
[ -f "$tiny" ] || "$cpel" gen --events 10 --tracks 1 "$tiny" --force > /dev/null
[ -f "$b" ] || { "$cpel" gen --events "$events" --tracks "$tracks" --seed 2 --little-endian "$b.part" --force > /dev/null; mv -f "$b.part" "$b"; }
cat "$a" "$b" > /dev/null

view () {   # json file, cpelview args...
  local json=$1; shift
  if ! timeout 900 env GDK_BACKEND=x11 GSK_RENDERER=cairo GTK_A11Y=none GSETTINGS_BACKEND=memory \
       NO_AT_BRIDGE=1 xvfb-run -a -s "-screen 0 1280x800x24" "$cpelview" "$@" > "$json" 2> "$json.err"; then
    echo "cpelview $* failed: $(tail -3 "$json.err" | tr '\n' ' ')" >&2
    exit 1
  fi
}

echo "machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $events events × $tracks tracks per capture, $runs rounds"
view "$outdir/compare-view-tiny.json" --benchmark "$tiny"
jsons=()
for r in $(seq "$runs"); do
  view "$outdir/compare-view-single-a-$r.json" --benchmark "$a"
  view "$outdir/compare-view-single-b-$r.json" --benchmark "$b"
  view "$outdir/compare-view-compare-$r.json" --benchmark "$a" --compare "$b"
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
