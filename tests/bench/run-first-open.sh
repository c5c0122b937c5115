#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# run-first-open.sh — the viewer's first open of a capture with many tracks
# against a bare read of the same file, same run.
#
# usage: run-first-open.sh CPEL BENCH_SCAN CPELVIEW OUTDIR
#   CPEL       the built `cpel` binary
#   BENCH_SCAN the built bench-scan program (map + byte-swap every event)
#   CPELVIEW   the built viewer
#   OUTDIR     where the capture is kept (the build dir; never committed)
# environment: CPEL_BENCH_FIRST_EVENTS (default 100000000),
#   CPEL_BENCH_FIRST_TRACKS (10000), CPEL_BENCH_FIRST_ROUNDS (3)
#
# A `cpel gen` capture of 10^8 events on 10^4 tracks (2 GB), read once so
# that every run finds it in the page cache.  Each round, one after the
# other: the bare pass (bench-scan, best of 3: one thread maps the file and
# byte-swaps every event, nothing built), `cpelview --no-cache --benchmark`
# and `cpelview --benchmark` with an empty cache folder (the usual first
# open: the index built in memory, the cache written after the first
# frame).  The viewer's `load_ms` is the file read, its index and the
# overview, from the open to the loaded file (before the first frame).
# Best of the rounds each; the ratio is load / bare pass; and the viewer's
# peak resident set at its first frame in bytes per event (the worst of
# every run: the index's 12 and what stays mapped of the capture's 20).
# Skips (exit 77) without xvfb-run or python3, or when the disk or memory
# is short.  Exit status 1 when a target is missed: both loads <= 4 x the
# bare pass, the peak <= 24 B/event.
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/bench-util.sh"

bench_args 4 4 "CPEL BENCH_SCAN CPELVIEW OUTDIR" "$@"
cpel=$1 bench_scan=$2 cpelview=$3 outdir=$4
events=${CPEL_BENCH_FIRST_EVENTS:-100000000}
tracks=${CPEL_BENCH_FIRST_TRACKS:-10000}
rounds=${CPEL_BENCH_FIRST_ROUNDS:-3}
file=$outdir/first-open-$events-$tracks.cpel
xdg=$outdir/first-open-xdg
mkdir -p "$outdir"

bench_need_tools xvfb-run python3
# the capture (20 B an event), and the cache written by the usual open (12)
bench_need_disk "$outdir" $(( $(bench_missing_mb "$events" "$file") + events * 13 / 1000000 + 200 ))
# the index in memory (12 B an event) beside the capture in the page cache
bench_need_mem $(( events * 32 / 1000000 + 800 ))

if [ ! -f "$file" ]; then
  bench_gen "$file" --events "$events" --tracks "$tracks" --seed 5 > /dev/null
fi
cat "$file" > /dev/null

load_ms () {   # prints "load_ms peak" of `cpelview ARGS` (peak: B/event at the first frame)
  local json=$outdir/first-open.json
  bench_cpelview "$json" "$@"
  python3 -c 'import json, sys; j = json.load(open(sys.argv[1]))
kb = j["peak_rss_first_frame_kb"]
peak = "%.1f" % (kb * 1024 / int(sys.argv[2])) if kb >= 0 else "n/a"
print("%.0f %s" % (j["load_ms"], peak))' "$json" "$events"
}
best () { printf '%s\n' "$@" | sort -n | head -1; }

scans=() nocache=() usual=() peaks=()
for _ in $(seq "$rounds"); do
  scans+=("$("$bench_scan" "$file" 3 | awk -F= '$1 == "scan_best_s" { printf "%.0f", $2 * 1000 }')")
  read -r ms peak < <(load_ms --no-cache --benchmark "$file") && [ -n "$peak" ] || exit 1
  nocache+=("$ms") peaks+=("$peak")
  rm -rf "$xdg"
  read -r ms peak < <(XDG_CACHE_HOME=$xdg load_ms --benchmark "$file") && [ -n "$peak" ] || exit 1
  usual+=("$ms") peaks+=("$peak")
done
rm -rf "$xdg"

scan_ms=$(best "${scans[@]}")
nocache_ms=$(best "${nocache[@]}")
usual_ms=$(best "${usual[@]}")
status=0
nocache_v=$(bench_verdict "$(bench_ratio "$nocache_ms" "$scan_ms")" 4)
usual_v=$(bench_verdict "$(bench_ratio "$usual_ms" "$scan_ms")" 4)
# n/a: no VmHWM in /proc (not a failure, not a pass)
if printf '%s\n' "${peaks[@]}" | grep -q 'n/a'; then
  peak_max=n/a peak_v=n/a
else
  peak_max=$(printf '%s\n' "${peaks[@]}" | sort -n | tail -1)
  peak_v=$(bench_verdict "$peak_max" 24)
fi
case "$nocache_v $usual_v $peak_v" in *MISSED*) status=1;; esac

echo
echo "First open: $events events × $tracks tracks ($(du -m "$file" | cut -f1) MB), $(nproc) CPUs, load $(bench_load)," \
     "THP $(sed 's/.*\[\(.*\)\].*/\1/' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo unknown)"
echo "best of $rounds rounds (each round: bare pass, no cache, usual), ms:"
printf '  %-44s %7s   runs: %s\n' "bare pass (map + byte-swap, one thread)" "$scan_ms" "${scans[*]}"
printf '  %-44s %7s   runs: %s   %s × bare (≤ 4: %s)\n' "cpelview --no-cache: load" "$nocache_ms" "${nocache[*]}" \
  "$(bench_ratio "$nocache_ms" "$scan_ms")" "$nocache_v"
printf '  %-44s %7s   runs: %s   %s × bare (≤ 4: %s)\n' "cpelview, empty cache (the usual first open)" "$usual_ms" \
  "${usual[*]}" "$(bench_ratio "$usual_ms" "$scan_ms")" "$usual_v"
printf '  %-44s %7s   runs: %s   (≤ 24: %s)\n' "peak RSS at the first frame, B/event (worst)" \
  "$peak_max" "${peaks[*]}" "$peak_v"
exit $status
