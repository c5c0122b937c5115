#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# run-startup.sh — the viewer's start-up on a small capture against a bare
# libadwaita window, same run.
#
# usage: run-startup.sh CPEL BARE_WINDOW CPELVIEW OUTDIR [CPELVIEW_BEFORE]
#   CPEL            the built `cpel` binary (generates the capture)
#   BARE_WINDOW     the built bench-bare-window program
#   CPELVIEW        the built viewer
#   OUTDIR          where the capture is kept (the build dir; never committed)
#   CPELVIEW_BEFORE another viewer to measure in the same rounds (optional:
#                   a build from before a change)
# environment: CPEL_BENCH_STARTUP_EVENTS (default 1000),
#   CPEL_BENCH_STARTUP_RUNS (11)
#
# Interleaved, one after the other: the bare window and `cpelview
# --benchmark` on a `cpel gen` capture, each from main () to the end of the
# first frame (for the viewer: the first frame that shows the capture),
# under Xvfb with the cairo renderer.  One warm-up pair first (not
# counted); medians of the runs, and the ratio.  Skips (exit 77) without
# xvfb-run or python3.  Exit status 1 when the target is missed: the
# viewer's median <= 1.1 x the bare window's.
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/bench-util.sh"

bench_args 4 5 "CPEL BARE_WINDOW CPELVIEW OUTDIR [CPELVIEW_BEFORE]" "$@"
cpel=$1 bare=$2 cpelview=$3 outdir=$4 before=${5:-}
events=${CPEL_BENCH_STARTUP_EVENTS:-1000}
runs=${CPEL_BENCH_STARTUP_RUNS:-11}
file=$outdir/startup-$events.cpel
mkdir -p "$outdir"

bench_need_tools xvfb-run python3
if [ ! -f "$file" ]; then
  bench_gen "$file" --events "$events" --tracks 16 --seed 3 > /dev/null
fi

first_frame () {   # prints start_to_first_frame_ms of PROGRAM ARGS
  local json=$outdir/startup.json
  bench_xvfb_json "$json" "$@"
  python3 -c 'import json, sys
print("%.1f" % json.load(open(sys.argv[1]))["start_to_first_frame_ms"])' "$json"
}

first_frame "$bare" > /dev/null
first_frame "$cpelview" --benchmark "$file" > /dev/null
bares=() views=() befores=()
for _ in $(seq "$runs"); do
  bares+=("$(first_frame "$bare")")
  views+=("$(first_frame "$cpelview" --benchmark "$file")")
  if [ -n "$before" ]; then
    befores+=("$(first_frame "$before" --benchmark "$file")")
  fi
done
bare_ms=$(bench_median "${bares[@]}")
view_ms=$(bench_median "${views[@]}")
ratio=$(bench_ratio "$view_ms" "$bare_ms")
verdict=$(bench_verdict "$ratio" 1.1)

echo
echo "Start-up: $events events, $(nproc) CPUs, load $(bench_load), Xvfb, GSK_RENDERER=cairo," \
     "median of $runs interleaved runs (ms)"
printf '  %-36s %7s   runs: %s\n' "bare libadwaita window" "$bare_ms" "${bares[*]}"
printf '  %-36s %7s   runs: %s\n' "cpelview --benchmark, first frame" "$view_ms" "${views[*]}"
printf '  %-36s %7s   (≤ 1.1: %s)\n' "ratio" "$ratio" "$verdict"
if [ -n "$before" ]; then
  before_ms=$(bench_median "${befores[@]}")
  printf '  %-36s %7s   runs: %s   ratio %s\n' "before (CPELVIEW_BEFORE)" "$before_ms" \
    "${befores[*]}" "$(bench_ratio "$before_ms" "$bare_ms")"
fi
[ "$verdict" = ok ]
