#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# run-cache.sh — the persisted index: a cold open (index built, --no-cache)
# against a warm one (index read back from the cache), same run, ratios.
#
# usage: run-cache.sh CPEL BENCH_RUN BENCH_SCAN OUTDIR [CPELVIEW]
#   CPEL       the built `cpel` binary
#   BENCH_RUN  the built bench-run program (wall, CPU and peak RSS per run)
#   BENCH_SCAN the built bench-scan program (map + byte-swap every event)
#   OUTDIR     where the generated capture and the cache dir are kept (the
#              build dir; never committed)
#   CPELVIEW   the built viewer (optional): start → first frame under xvfb-run
# environment: CPEL_BENCH_CACHE_EVENTS (default 10000000),
#              CPEL_BENCH_CACHE_TRACKS (default 64)
#              CPEL_BENCH_CACHE_RUNS (default 3; the viewer: 2, or 1 when 1)
#
# The capture is `cpel gen`'s usual one (a few events swapped: the CLI needs
# the index).  The cache lives in OUTDIR/cache-xdg (XDG_CACHE_HOME), emptied
# first.  CLI: `cpel dump --from 10000s` builds or reads the index and
# prints nothing; cold = --no-cache, first = with the cache, empty (build +
# write), warm = with it written; each best of 3 except first.  Viewer:
# `cpelview --benchmark` start → first frame, cold (--no-cache) and warm,
# best of 2, against the same on a 10-event capture (the start-up of the
# window itself).  Skips (exit 77) when disk or memory is short.
set -euo pipefail

if [ $# -lt 4 ] || [ $# -gt 5 ]; then
  echo "usage: $0 CPEL BENCH_RUN BENCH_SCAN OUTDIR [CPELVIEW]" >&2
  exit 2
fi
cpel=$1 bench_run=$2 bench_scan=$3 outdir=$4 cpelview=${5:-}
events=${CPEL_BENCH_CACHE_EVENTS:-10000000}
tracks=${CPEL_BENCH_CACHE_TRACKS:-64}
runs=${CPEL_BENCH_CACHE_RUNS:-3}
file=$outdir/cache-$events-$tracks.cpel
tiny=$outdir/cache-tiny.cpel
xdg=$outdir/cache-xdg
mkdir -p "$outdir"

need_mb=$(( events * 32 / 1000000 + 100 ))
[ -f "$file" ] && need_mb=$(( need_mb - events * 20 / 1000000 ))
free_mb=$(df -Pm "$outdir" | awk 'NR == 2 { print $4 }')
if [ "$free_mb" -lt "$need_mb" ]; then
  echo "SKIP: $need_mb MB of disk needed in $outdir, $free_mb MB free"
  exit 77
fi
mem_mb=$(awk '/MemAvailable/ { printf "%d", $2 / 1024 }' /proc/meminfo)
if [ "$mem_mb" -lt $(( events * 12 / 1000000 + 500 )) ]; then
  echo "SKIP: $(( events * 12 / 1000000 + 500 )) MB of memory needed, $mem_mb MB available"
  exit 77
fi

if [ ! -f "$file" ]; then
  "$cpel" gen --events "$events" --tracks "$tracks" --seed 1 "$file.part" --force > /dev/null
  mv -f "$file.part" "$file"
fi
[ -f "$tiny" ] || "$cpel" gen --events 10 --tracks 2 --seed 1 "$tiny" --force > /dev/null
cat "$file" > /dev/null   # the same page-cache state for every run

export XDG_CACHE_HOME=$xdg
# every size is cached here (the default minimum is 2^20 events)
export CPEL_CACHE_MIN_EVENTS=1
"$cpel" cache clear > /dev/null

declare -A R
measure () {
  local name=$1 runs=$2 key value
  shift 2
  while IFS='=' read -r key value; do
    R[$name.$key]=$value
  done < <("$bench_run" "$runs" "$@")
  if [ "${R[$name.status]}" != 0 ]; then
    echo "FAILED: $* (exit ${R[$name.status]})" >&2
    exit 1
  fi
}

measure cold "$runs" "$cpel" dump --no-cache --from 10000s "$file"
measure first 1 "$cpel" dump --from 10000s "$file"
cache_bytes=$(du -sb "$xdg" | cut -f1)
measure warm "$runs" "$cpel" dump --from 10000s "$file"
measure cold2 "$runs" "$cpel" dump --no-cache --from 10000s "$file"
# the better cold of the two rounds around the warm one
if awk -v a="${R[cold2.best_s]}" -v b="${R[cold.best_s]}" 'BEGIN { exit !(a < b) }'; then
  for k in best_s user_s sys_s peak_kb; do R[cold.$k]=${R[cold2.$k]}; done
fi
scan_s=$("$bench_scan" "$file" "$runs" | awk -F= '$1 == "scan_best_s" { print $2 }')

ratio () { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
mb () { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }
row () { printf '%-34s %8s %8s %8s %9s %9s\n' "$@"; }

echo
echo "Persisted index: $events events, $tracks tracks, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "cache file: $(awk -v b="$cache_bytes" 'BEGIN { printf "%.0f MB", b / 1e6 }') in $xdg"
echo
row "cpel dump --from 10000s" "wall s" "user s" "sys s" "peak MB" "/ cold"
for k in cold first warm; do
  case $k in
    cold) label="cold (--no-cache: build)";;
    first) label="first (build + write cache)";;
    warm) label="warm (read cache)";;
  esac
  row "$label" "${R[$k.best_s]}" "${R[$k.user_s]}" "${R[$k.sys_s]}" "$(mb "${R[$k.peak_kb]}")" \
      "$(ratio "${R[$k.best_s]}" "${R[cold.best_s]}")"
done
echo "bare map + byte-swap pass: $scan_s s (warm / bare: $(ratio "${R[warm.best_s]}" "$scan_s"))"
echo "(the CLI reads the whole file once either way: its first pass finds whether the"
echo " file is in time order; the cache replaces the index build after it)"

if [ -n "$cpelview" ] && command -v xvfb-run > /dev/null && command -v python3 > /dev/null; then
  first_frame () {   # prints start_to_first_frame_ms of `cpelview --benchmark ARGS`
    local json=$outdir/cache-app.json
    if ! timeout 900 env GDK_BACKEND=x11 GSK_RENDERER=cairo GTK_A11Y=none GSETTINGS_BACKEND=memory \
         NO_AT_BRIDGE=1 xvfb-run -a -s "-screen 0 1280x800x24" "$cpelview" "$@" > "$json" 2> "$json.err"; then
      echo "cpelview failed: $(tail -3 "$json.err" | tr '\n' ' ')" >&2
      exit 1
    fi
    python3 -c 'import json, sys; print("%.0f" % json.load(open(sys.argv[1]))["start_to_first_frame_ms"])' "$json"
  }
  best2 () {
    local a b
    a=$(first_frame "$@")
    [ "$runs" = 1 ] && { echo "$a"; return; }
    b=$(first_frame "$@")
    [ "$a" -lt "$b" ] && echo "$a" || echo "$b"
  }
  first_frame --benchmark "$file" > /dev/null   # cache written (it was already: same key)
  tiny_ms=$(best2 --no-cache --benchmark "$tiny")
  cold_ms=$(best2 --no-cache --benchmark "$file")
  warm_ms=$(best2 --benchmark "$file")
  echo
  echo "cpelview --benchmark, start → first frame (ms), best of $([ "$runs" = 1 ] && echo 1 || echo 2), Xvfb 1280x800x24, cairo:"
  printf '  10-event capture (window start-up): %6s\n' "$tiny_ms"
  printf '  cold (--no-cache):                  %6s   %s × start-up\n' "$cold_ms" "$(ratio "$cold_ms" "$tiny_ms")"
  printf '  warm (cache):                       %6s   %s × start-up, %s × cold\n' "$warm_ms" \
    "$(ratio "$warm_ms" "$tiny_ms")" "$(ratio "$warm_ms" "$cold_ms")"
  echo "  (the issue's target for 10^8 × 64: warm ≤ 1.5 × start-up)"
fi
echo
