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
# sections without an index) and the usual one with two records 6000
# places apart swapped (make-out-of-order.sh: they build the index first;
# gen's own few neighbour swaps they would stream through the reorder
# window).  Each command best of 3; the ratios compare the
# two in the same run.  The index build (`cpel dump --from 10000s` on the
# usual capture: it builds the index, then prints nothing) is measured with
# and without transparent huge pages for the index (CPEL_INDEX_HUGEPAGES=1 asks),
# alternating, and set against a bare pass that maps the file and byte-swaps
# every event (bench-scan).  Skips (exit 77) when the disk or
# memory is short.  Exit status 1 when a target is missed:
#   dump > /dev/null of the sorted capture: peak RSS <= 32 MB and wall <= 1.5 s,
#   human format and --tsv.
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/bench-util.sh"

bench_args 4 4 "CPEL BENCH_RUN BENCH_SCAN OUTDIR" "$@"
cpel=$1 bench_run=$2 bench_scan=$3 outdir=$4
events=${CPEL_BENCH_STREAM_EVENTS:-10000000}
tracks=${CPEL_BENCH_STREAM_TRACKS:-64}
sorted=$outdir/stream-$events-$tracks-sorted.cpel
usual=$outdir/stream-$events-$tracks-unordered.cpel
mkdir -p "$outdir"

# Room: both files (20 bytes an event) and, for the index, 12 bytes an event.
bench_need_disk "$outdir" $(( $(bench_missing_mb "$events" "$sorted" "$usual") + 100 ))
bench_need_mem $(( events * 12 / 1000000 + 500 ))

for f in "$sorted" "$usual"; do
  if [ ! -f "$f" ]; then
    extra=()
    [ "$f" = "$sorted" ] && extra=(--sorted)
    bench_gen "$f.tmp" --events "$events" --tracks "$tracks" --seed 1 "${extra[@]}" > /dev/null
    # gen's neighbour swaps stream through the reorder window: two records
    # far apart swapped, so that the usual capture needs the index
    [ "$f" = "$usual" ] && "$(dirname "${BASH_SOURCE[0]}")/make-out-of-order.sh" "$cpel" "$f.tmp"
    mv -f "$f.tmp" "$f"
  fi
  cat "$f" > /dev/null   # the same page-cache state for every run
done

cut_out=$outdir/stream-cut.cpel
for kind in sorted usual; do
  f=${!kind}
  bench_measure "dump.$kind" 3 "$cpel" dump --no-cache "$f"
  bench_measure "tsv.$kind" 3 "$cpel" dump --no-cache --tsv "$f"
  bench_measure "search.$kind" 3 "$cpel" search --no-cache --count --text ip4-lookup "$f"
  bench_measure "stats.$kind" 3 "$cpel" stats --no-cache "$f"
  bench_measure "cut.$kind" 3 "$cpel" cut --no-cache --force --from 1s --to 3s "$f" "$cut_out"
done
rm -f "$cut_out"

# Index build with / without THP, alternating, best of 3 each.
for i in 1 2 3; do
  bench_measure "info.thp.$i" 1 env CPEL_INDEX_HUGEPAGES=1 "$cpel" dump --no-cache --from 10000s "$usual"
  bench_measure "info.nothp.$i" 1 "$cpel" dump --no-cache --from 10000s "$usual"
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

row () { printf '%-30s %8s %8s %8s %9s   %8s %9s   %6s %6s  %s\n' "$@"; }
echo
echo "Streaming CLI: $events events, $tracks tracks, $(nproc) CPUs, load $(bench_load)"
echo "sorted = cpel gen --sorted (streamed, no index); usual = cpel gen, two records far apart swapped (index built)"
echo
row "command" "wall s" "user s" "sys s" "peak MB" "wall s" "peak MB" "wall" "peak" ""
row "" "sorted" "" "" "" "usual" "" "ratio" "ratio" "verdict"
for c in dump tsv search stats cut; do
  v=""
  if [ "$c" = dump ] || [ "$c" = tsv ]; then
    v="rss $(bench_verdict "$(bench_mb "${R[$c.sorted.peak_kb]}")" 32), wall $(bench_verdict "${R[$c.sorted.best_s]}" 1.5)"
    case $v in *MISSED*) status=1;; esac
  fi
  label=$c
  case $c in
    dump) label="dump > /dev/null";;
    tsv) label="dump --tsv > /dev/null";;
    search) label="search --count --text";;
    cut) label="cut --from 1s --to 3s";;
  esac
  row "$label" "${R[$c.sorted.best_s]}" "${R[$c.sorted.user_s]}" "${R[$c.sorted.sys_s]}" \
      "$(bench_mb "${R[$c.sorted.peak_kb]}")" "${R[$c.usual.best_s]}" "$(bench_mb "${R[$c.usual.peak_kb]}")" \
      "$(bench_ratio "${R[$c.sorted.best_s]}" "${R[$c.usual.best_s]}")" \
      "$(bench_ratio "${R[$c.sorted.peak_kb]}" "${R[$c.usual.peak_kb]}")" "$v"
done
echo
echo "Index build (cpel dump --from 10000s of the usual capture), best of 3, alternating:"
printf '  CPEL_INDEX_HUGEPAGES=1:    %s s wall, %s s user, %s s sys\n' \
  "${R[info.thp.best.best_s]}" "${R[info.thp.best.user_s]}" "${R[info.thp.best.sys_s]}"
printf '  no huge pages (default):   %s s wall, %s s user, %s s sys\n' \
  "${R[info.nothp.best.best_s]}" "${R[info.nothp.best.user_s]}" "${R[info.nothp.best.sys_s]}"
printf '  ratio with / without:      %s wall\n' "$(bench_ratio "${R[info.thp.best.best_s]}" "${R[info.nothp.best.best_s]}")"
printf '  bare map + byte-swap pass: %s s wall; index build / bare pass: %s\n' \
  "$scan_s" "$(bench_ratio "${R[info.nothp.best.best_s]}" "$scan_s")"
echo "  (THP mode: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo unknown))"
echo
exit $status
