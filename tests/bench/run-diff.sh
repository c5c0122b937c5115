#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# run-diff.sh — `cpel diff` of two large captures against `cpel stats` of
# each, same run; indexed, nearly sorted and sorted.
#
# usage: run-diff.sh CPEL BENCH_RUN OUTDIR
#   CPEL       the built `cpel` binary
#   BENCH_RUN  the built bench-run program (wall, CPU and peak RSS per run)
#   OUTDIR     where the generated captures are kept (the build dir; never committed)
# environment: CPEL_BENCH_DIFF_EVENTS (default 10000000), CPEL_BENCH_DIFF_TRACKS (64)
#
# A (big-endian, seed 1) and B (little-endian, seed 2) from `cpel gen`,
# each in three forms: out of order (two records 6000 places apart swapped,
# make-out-of-order.sh: only the index reads it in time order), as gen
# writes it (neighbours swapped: streamed through the reorder window) and
# --sorted (streamed); each command best of 3 with the page cache warm.
# The ratios set the indexed diff against the two single-capture stats it
# stands for: its time against their times added, its peak RSS against
# their peaks added.  Skips (exit 77) when the disk or memory is short.
# Exit status 1 when a target is missed: indexed diff <= 2 s wall and peak
# RSS <= 1.1 × the two stats' peaks added; streamed diffs' peak RSS <= 64 MB.
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/bench-util.sh"

bench_args 3 3 "CPEL BENCH_RUN OUTDIR" "$@"
cpel=$1 bench_run=$2 outdir=$3
events=${CPEL_BENCH_DIFF_EVENTS:-10000000}
tracks=${CPEL_BENCH_DIFF_TRACKS:-64}
a=$outdir/diff-$events-$tracks-a.cpel
b=$outdir/diff-$events-$tracks-b.cpel
ao=$outdir/diff-$events-$tracks-a-unordered.cpel
bo=$outdir/diff-$events-$tracks-b-unordered.cpel
as=$outdir/diff-$events-$tracks-a-sorted.cpel
bs=$outdir/diff-$events-$tracks-b-sorted.cpel
mkdir -p "$outdir"

bench_need_disk "$outdir" $(( $(bench_missing_mb "$events" "$a" "$b" "$ao" "$bo" "$as" "$bs") + 100 ))
bench_need_mem $(( events * 64 / 1000000 + 500 ))

[ -f "$a" ] || bench_gen "$a" --events "$events" --tracks "$tracks" --seed 1 > /dev/null
[ -f "$b" ] || bench_gen "$b" --events "$events" --tracks "$tracks" --seed 2 --little-endian > /dev/null
for pair in "$a:$ao" "$b:$bo"; do
  if [ ! -f "${pair#*:}" ]; then
    cp "${pair%%:*}" "${pair#*:}.part"
    "$(dirname "${BASH_SOURCE[0]}")/make-out-of-order.sh" "$cpel" "${pair#*:}.part"
    mv -f "${pair#*:}.part" "${pair#*:}"
  fi
done
[ -f "$as" ] || bench_gen "$as" --events "$events" --tracks "$tracks" --seed 1 --sorted > /dev/null
[ -f "$bs" ] || bench_gen "$bs" --events "$events" --tracks "$tracks" --seed 2 --little-endian --sorted > /dev/null
cat "$a" "$b" "$ao" "$bo" "$as" "$bs" > /dev/null

echo "machine: $(nproc) CPUs, load $(bench_load), $events events × 2, $tracks tracks"
bench_measure stats-a 3 "$cpel" stats --no-cache --csv "$ao"
bench_measure stats-b 3 "$cpel" stats --no-cache --csv "$bo"
bench_measure diff 3 "$cpel" diff --no-cache --csv "$ao" "$bo"
bench_measure diff-nearly 3 "$cpel" diff --no-cache --csv "$a" "$b"
bench_measure diff-sorted 3 "$cpel" diff --no-cache --csv "$as" "$bs"
echo "load after: $(bench_load)"
awk -v sa="${R[stats-a.best_s]}" -v sb="${R[stats-b.best_s]}" -v d="${R[diff.best_s]}" \
    -v ka="${R[stats-a.peak_kb]}" -v kb="${R[stats-b.peak_kb]}" -v kd="${R[diff.peak_kb]}" \
    -v dn="${R[diff-nearly.best_s]}" -v kdn="${R[diff-nearly.peak_kb]}" \
    -v ds="${R[diff-sorted.best_s]}" -v kds="${R[diff-sorted.peak_kb]}" 'BEGIN {
  printf "| command | wall (best of 3) | peak RSS |\n|---|---|---|\n"
  printf "| cpel stats --csv A (out of order: index) | %.2f s | %.0f MB |\n", sa, ka / 1024
  printf "| cpel stats --csv B (out of order: index) | %.2f s | %.0f MB |\n", sb, kb / 1024
  printf "| cpel diff --csv A B (out of order: index) | %.2f s | %.0f MB |\n", d, kd / 1024
  printf "| cpel diff --csv A B (as cpel gen writes them: reorder window) | %.2f s | %.0f MB |\n", dn, kdn / 1024
  printf "| cpel diff --csv A B (--sorted: streamed) | %.2f s | %.0f MB |\n", ds, kds / 1024
  printf "diff / (stats A + stats B): time %.2f, peak RSS %.2f\n", d / (sa + sb), kd / (ka + kb)
  printf "streamed / indexed diff: nearly sorted time %.2f, peak RSS %.3f; sorted time %.2f, peak RSS %.3f\n", dn / d, kdn / kd, ds / d, kds / kd
  bad = 0
  if (d > 2.0) { printf "MISSED: diff %.2f s > 2 s\n", d; bad = 1 }
  if (kd > 1.1 * (ka + kb)) { printf "MISSED: diff peak RSS %.0f MB > 1.1 × the two stats\n", kd / 1024; bad = 1 }
  if (kdn > 64 * 1024) { printf "MISSED: nearly sorted diff peak RSS %.0f MB > 64 MB\n", kdn / 1024; bad = 1 }
  if (kds > 64 * 1024) { printf "MISSED: sorted diff peak RSS %.0f MB > 64 MB\n", kds / 1024; bad = 1 }
  exit bad
}'
