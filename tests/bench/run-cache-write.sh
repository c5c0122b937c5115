#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# run-cache-write.sh — the viewer's frames and search while the index cache
# of a first open is being written, against the same open without a cache,
# on a quiet machine and with two busy loops alongside; same run.
#
# usage: run-cache-write.sh CPEL CPELVIEW OUTDIR [CPELVIEW_BEFORE]
#   CPEL            the built `cpel` binary (generates the capture)
#   CPELVIEW        the built viewer
#   OUTDIR          where the capture is kept (the build dir; never committed)
#   CPELVIEW_BEFORE another viewer to measure in the same rounds (optional:
#                   a build from before a change, for the ratio)
# environment: CPEL_BENCH_WRITE_EVENTS (default 100000000),
#   CPEL_BENCH_WRITE_TRACKS (10000), CPEL_BENCH_WRITE_ROUNDS (3)
#
# Each round, one after the other and interleaved: `cpelview --no-cache
# --benchmark` and `cpelview --benchmark` with an empty cache folder (the
# usual first open: the index built in memory, written to the cache after
# the first frame, during the frames that follow), each quiet and with two
# busy loops (`while :; do :; done`) running.  From the JSON: paint p95 and
# max over all frames and over the frames drawn while the cache was written
# (`storing`), the search time (and whether it ran during the write), and
# how long the end waited for the write.  Medians of the rounds; ratios
# against --no-cache under the same load.  Skips (exit 77) without xvfb-run
# or python3, or when the disk or memory is short.  Exit status 1 when a
# target is missed: paint p95 <= 16 ms and search <= 1.2 x its --no-cache
# time, while the cache is written, under both loads.
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/bench-util.sh"

bench_args 3 4 "CPEL CPELVIEW OUTDIR [CPELVIEW_BEFORE]" "$@"
cpel=$1 cpelview=$2 outdir=$3 before=${4:-}
events=${CPEL_BENCH_WRITE_EVENTS:-100000000}
tracks=${CPEL_BENCH_WRITE_TRACKS:-10000}
rounds=${CPEL_BENCH_WRITE_ROUNDS:-3}
file=$outdir/cache-write-$events-$tracks.cpel
xdg=$outdir/cache-write-xdg
mkdir -p "$outdir"

bench_need_tools xvfb-run python3
bench_need_disk "$outdir" $(( $(bench_missing_mb "$events" "$file") + events * 13 / 1000000 + 200 ))
bench_need_mem $(( events * 32 / 1000000 + 800 ))

if [ ! -f "$file" ]; then
  bench_gen "$file" --events "$events" --tracks "$tracks" --seed 9 > /dev/null
fi
cat "$file" > /dev/null

busy_pids=()
busy_start () { for _ in 1 2; do (while :; do :; done) & busy_pids+=($!); done; }
busy_stop () {
  for pid in "${busy_pids[@]}"; do
    kill "$pid" 2> /dev/null || true
    wait "$pid" 2> /dev/null || true
  done
  busy_pids=()
}
trap busy_stop EXIT

# run VIEWER NAME ARGS...: one `--benchmark`, its figures appended to
# $outdir/cache-write-NAME.txt as one line of key=value
run () {
  local viewer=$1 name=$2
  shift 2
  local json=$outdir/cache-write.json
  rm -rf "$xdg"
  if ! XDG_CACHE_HOME=$xdg bench_xvfb "$viewer" "$@" --benchmark "$file" \
       > "$json" 2> "$json.err"; then
    echo "cpelview $* failed: $(tail -3 "$json.err" | tr '\n' ' ')" >&2
    exit 1
  fi
  python3 - "$json" >> "$outdir/cache-write-$name.txt" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = d["summary"]
w = [f["paint_ms"] for f in d["frames"] if f.get("storing")]
def p95(v):
    v = sorted(v)
    return v[min(len(v) - 1, int(round(0.95 * (len(v) - 1))))] if v else 0
print("paint_p95=%.1f paint_max=%.1f writing_frames=%d writing_p95=%.1f writing_max=%.1f "
      "search_ms=%.0f search_writing=%d wait_ms=%.0f load_ms=%.0f" % (
      s["paint_ms_p95"], s["paint_ms_max"], len(w), p95(w), max(w) if w else 0,
      d["search_ms"], 1 if d.get("search_during_cache_write") else 0, d.get("cache_wait_ms", 0),
      d["load_ms"]))
PY
}

names=(quiet-nocache quiet-cache busy-nocache busy-cache)
[ -n "$before" ] && names+=(quiet-before busy-before)
for n in "${names[@]}"; do : > "$outdir/cache-write-$n.txt"; done
load_quiet="" load_busy=""
for _ in $(seq "$rounds"); do
  load_quiet="$load_quiet $(cut -d' ' -f1 /proc/loadavg)"
  run "$cpelview" quiet-nocache --no-cache
  run "$cpelview" quiet-cache
  [ -n "$before" ] && run "$before" quiet-before
  busy_start
  load_busy="$load_busy $(cut -d' ' -f1 /proc/loadavg)"
  run "$cpelview" busy-nocache --no-cache
  run "$cpelview" busy-cache
  [ -n "$before" ] && run "$before" busy-before
  busy_stop
done
rm -rf "$xdg"

# median KEY NAME: the median of KEY over the rounds of NAME
median () {
  # shellcheck disable=SC2046 # one value a line, no spaces
  bench_median $(sed -n "s/.*\\b$1=\\([0-9.]*\\).*/\\1/p" "$outdir/cache-write-$2.txt")
}

status=0
echo
echo "Cache write during a first open: $events events × $tracks tracks" \
     "($(du -m "$file" | cut -f1) MB)," \
     "$(nproc) CPUs, load at the rounds' starts:$load_quiet (quiet);$load_busy (busy loops)"
echo "median of $rounds rounds; ratio: cache written / --no-cache under the same load"
printf '  %-26s %9s %9s %9s %9s %9s %7s %9s\n' variant "paint p95" "paint max" "wr. fr." "wr. p95" \
  "search" ratio "end wait"
for n in "${names[@]}"; do
  case $n in quiet-*) ref=quiet-nocache;; *) ref=busy-nocache;; esac
  ratio=$(bench_ratio "$(median search_ms "$n")" "$(median search_ms "$ref")")
  printf '  %-26s %9s %9s %9s %9s %9s %7s %9s\n' "$n" "$(median paint_p95 "$n")" \
    "$(median paint_max "$n")" "$(median writing_frames "$n")" "$(median writing_p95 "$n")" \
    "$(median search_ms "$n")" "$ratio" "$(median wait_ms "$n")"
  if [ "${n%-cache}" != "$n" ]; then
    p95_v=$(bench_verdict "$(median paint_p95 "$n")" 16)
    search_v=$(bench_verdict "$ratio" 1.2)
    echo "    $n: paint p95 ≤ 16 ms: $p95_v; search ≤ 1.2 × --no-cache: $search_v"
    case "$p95_v $search_v" in *MISSED*) status=1;; esac
  fi
done
echo "  (ms; wr. fr.: frames drawn while the cache was written, wr. p95: their paint p95;"
echo "   end wait: the end of --benchmark waiting for the write; per-round figures in $outdir)"
exit $status
