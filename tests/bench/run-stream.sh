#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# run-stream.sh — the streaming CLI and the index build, one table, same run.
#
# usage: run-stream.sh CPEL BENCH_RUN BENCH_SCAN OUTDIR
#   CPEL       the built `cpel` binary
#   BENCH_RUN  the built bench-run program (wall, CPU and peak RSS per run)
#   BENCH_SCAN the built bench-scan program (map + byte-swap every event)
#   OUTDIR     where the generated captures are kept (the build dir; never committed)
# environment: CPEL_BENCH_STREAM_EVENTS (default 10000000), CPEL_BENCH_STREAM_TRACKS (64)
#
# Two captures of the same size from `cpel gen`: one with --sorted (every
# event section in time order: dump, search, stats and cut stream over the
# sections without an index) and the usual one (a few events swapped: they
# build the index first).  Each command best of 3; the ratios compare the
# two in the same run.  The index build (`cpel dump --from 10000s` on the
# usual capture: it builds the index, then prints nothing) is measured with
# and without transparent huge pages for the index (CPEL_INDEX_HUGEPAGES=0),
# alternating, and set against a bare pass that maps the file and byte-swaps
# every event (bench-scan).  Skips (exit 77) when the disk or
# memory is short.  Exit status 1 when a target is missed:
#   dump > /dev/null of the sorted capture: peak RSS <= 32 MB and wall <= 1.5 s,
#   human format and --tsv.
set -euo pipefail

if [ $# -ne 4 ]; then
  echo "usage: $0 CPEL BENCH_RUN BENCH_SCAN OUTDIR" >&2
  exit 2
fi
cpel=$1 bench_run=$2 bench_scan=$3 outdir=$4
events=${CPEL_BENCH_STREAM_EVENTS:-10000000}
tracks=${CPEL_BENCH_STREAM_TRACKS:-64}
sorted=$outdir/stream-$events-$tracks-sorted.cpel
usual=$outdir/stream-$events-$tracks.cpel
mkdir -p "$outdir"

# Room: both files (20 bytes an event) and, for the index, 12 bytes an event.
need_mb=$(( (events * 20 * 2) / 1000000 + 100 ))
free_mb=$(df -Pm "$outdir" | awk 'NR == 2 { print $4 }')
for f in "$sorted" "$usual"; do
  [ -f "$f" ] && need_mb=$(( need_mb - events * 20 / 1000000 ))
done
if [ "$free_mb" -lt "$need_mb" ]; then
  echo "SKIP: $need_mb MB of disk needed in $outdir, $free_mb MB free"
  exit 77
fi
mem_mb=$(awk '/MemAvailable/ { printf "%d", $2 / 1024 }' /proc/meminfo)
if [ "$mem_mb" -lt $(( events * 12 / 1000000 + 500 )) ]; then
  echo "SKIP: $(( events * 12 / 1000000 + 500 )) MB of memory needed, $mem_mb MB available"
  exit 77
fi

for f in "$sorted" "$usual"; do
  if [ ! -f "$f" ]; then
    extra=()
    [ "$f" = "$sorted" ] && extra=(--sorted)
    "$cpel" gen --events "$events" --tracks "$tracks" --seed 1 "${extra[@]}" "$f.part" --force > /dev/null
    mv -f "$f.part" "$f"
  fi
  cat "$f" > /dev/null   # the same page-cache state for every run
done

declare -A R
# measure NAME RUNS CMD... : R[NAME.best_s], R[NAME.peak_kb], ...
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

cut_out=$outdir/stream-cut.cpel
for kind in sorted usual; do
  f=${!kind}
  measure "dump.$kind" 3 "$cpel" dump --no-cache "$f"
  measure "tsv.$kind" 3 "$cpel" dump --no-cache --tsv "$f"
  measure "search.$kind" 3 "$cpel" search --no-cache --count --text ip4-lookup "$f"
  measure "stats.$kind" 3 "$cpel" stats --no-cache "$f"
  measure "cut.$kind" 3 "$cpel" cut --no-cache --force --from 1s --to 3s "$f" "$cut_out"
done
rm -f "$cut_out"

# Index build with / without THP, alternating, best of 3 each.
for i in 1 2 3; do
  measure "info.thp.$i" 1 "$cpel" dump --no-cache --from 10000s "$usual"
  measure "info.nothp.$i" 1 env CPEL_INDEX_HUGEPAGES=0 "$cpel" dump --no-cache --from 10000s "$usual"
done
best3 () {
  local b="" v
  for i in 1 2 3; do
    v=${R[$1.$i.best_s]}
    if [ -z "$b" ] || awk -v v="$v" -v b="$b" 'BEGIN { exit !(v < b) }'; then
      b=$v; R[$1.best.user_s]=${R[$1.$i.user_s]}; R[$1.best.sys_s]=${R[$1.$i.sys_s]}
    fi
  done
  R[$1.best.best_s]=$b
}
best3 info.thp
best3 info.nothp
scan_s=$("$bench_scan" "$usual" 3 | awk -F= '$1 == "scan_best_s" { print $2 }')

status=0
verdict () {
  if awk -v v="$1" -v l="$2" 'BEGIN { exit !(v <= l) }'; then echo ok; else status=1; echo MISSED; fi
}
ratio () { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
mb () { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }

row () { printf '%-30s %8s %8s %8s %9s   %8s %9s   %6s %6s  %s\n' "$@"; }
echo
echo "Streaming CLI: $events events, $tracks tracks, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "sorted = cpel gen --sorted (streamed, no index); usual = cpel gen (index built)"
echo
row "command" "wall s" "user s" "sys s" "peak MB" "wall s" "peak MB" "wall" "peak" ""
row "" "sorted" "" "" "" "usual" "" "ratio" "ratio" "verdict"
for c in dump tsv search stats cut; do
  v=""
  if [ "$c" = dump ] || [ "$c" = tsv ]; then
    v="rss $(verdict "$(mb "${R[$c.sorted.peak_kb]}")" 32), wall $(verdict "${R[$c.sorted.best_s]}" 1.5)"
  fi
  label=$c
  case $c in
    dump) label="dump > /dev/null";;
    tsv) label="dump --tsv > /dev/null";;
    search) label="search --count --text";;
    cut) label="cut --from 1s --to 3s";;
  esac
  row "$label" "${R[$c.sorted.best_s]}" "${R[$c.sorted.user_s]}" "${R[$c.sorted.sys_s]}" \
      "$(mb "${R[$c.sorted.peak_kb]}")" "${R[$c.usual.best_s]}" "$(mb "${R[$c.usual.peak_kb]}")" \
      "$(ratio "${R[$c.sorted.best_s]}" "${R[$c.usual.best_s]}")" \
      "$(ratio "${R[$c.sorted.peak_kb]}" "${R[$c.usual.peak_kb]}")" "$v"
done
echo
echo "Index build (cpel dump --from 10000s of the usual capture), best of 3, alternating:"
printf '  THP asked for (default):   %s s wall, %s s user, %s s sys\n' \
  "${R[info.thp.best.best_s]}" "${R[info.thp.best.user_s]}" "${R[info.thp.best.sys_s]}"
printf '  CPEL_INDEX_HUGEPAGES=0:    %s s wall, %s s user, %s s sys\n' \
  "${R[info.nothp.best.best_s]}" "${R[info.nothp.best.user_s]}" "${R[info.nothp.best.sys_s]}"
printf '  ratio with / without:      %s wall\n' "$(ratio "${R[info.thp.best.best_s]}" "${R[info.nothp.best.best_s]}")"
printf '  bare map + byte-swap pass: %s s wall; index build / bare pass: %s\n' \
  "$scan_s" "$(ratio "${R[info.thp.best.best_s]}" "$scan_s")"
echo "  (THP mode: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo unknown))"
echo
exit $status
