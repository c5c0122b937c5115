#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# run-diff.sh — `cpel diff` of two large captures against `cpel stats` of
# each, same run.
#
# usage: run-diff.sh CPEL BENCH_RUN OUTDIR
#   CPEL       the built `cpel` binary
#   BENCH_RUN  the built bench-run program (wall, CPU and peak RSS per run)
#   OUTDIR     where the generated captures are kept (the build dir; never committed)
# environment: CPEL_BENCH_DIFF_EVENTS (default 10000000), CPEL_BENCH_DIFF_TRACKS (64)
#
# A (big-endian, seed 1) and B (little-endian, seed 2) from `cpel gen`;
# each command best of 3 with the page cache warm.  The ratios set the diff
# against the two single-capture stats it stands for: its time against
# their times added, its peak RSS against their peaks added.  Skips (exit
# 77) when the disk or memory is short.  Exit status 1 when a target is
# missed: diff <= 2 s wall; peak RSS <= 1.1 × the two stats' peaks added.
set -euo pipefail

if [ $# -ne 3 ]; then
  echo "usage: $0 CPEL BENCH_RUN OUTDIR" >&2
  exit 2
fi
cpel=$1 bench_run=$2 outdir=$3
events=${CPEL_BENCH_DIFF_EVENTS:-10000000}
tracks=${CPEL_BENCH_DIFF_TRACKS:-64}
a=$outdir/diff-$events-$tracks-a.cpel
b=$outdir/diff-$events-$tracks-b.cpel
mkdir -p "$outdir"

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
if [ "$mem_mb" -lt $(( events * 64 / 1000000 + 500 )) ]; then
  echo "SKIP: $(( events * 64 / 1000000 + 500 )) MB of memory needed, $mem_mb MB available"
  exit 77
fi

[ -f "$a" ] || { "$cpel" gen --events "$events" --tracks "$tracks" --seed 1 "$a.part" --force > /dev/null; mv -f "$a.part" "$a"; }
[ -f "$b" ] || { "$cpel" gen --events "$events" --tracks "$tracks" --seed 2 --little-endian "$b.part" --force > /dev/null; mv -f "$b.part" "$b"; }
cat "$a" "$b" > /dev/null

run () {   # name, command...: prints "name best_s peak_kb"
  local name=$1; shift
  local out best peak
  out=$("$bench_run" 3 "$@")
  best=$(printf '%s\n' "$out" | sed -n 's/^best_s=//p')
  peak=$(printf '%s\n' "$out" | sed -n 's/^peak_kb=//p')
  echo "$name $best $peak"
}

echo "machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $events events × 2, $tracks tracks"
read -r _ stats_a_s stats_a_kb < <(run stats-a "$cpel" stats --no-cache --csv "$a")
read -r _ stats_b_s stats_b_kb < <(run stats-b "$cpel" stats --no-cache --csv "$b")
read -r _ diff_s diff_kb < <(run diff "$cpel" diff --no-cache --csv "$a" "$b")
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
awk -v sa="$stats_a_s" -v sb="$stats_b_s" -v d="$diff_s" \
    -v ka="$stats_a_kb" -v kb="$stats_b_kb" -v kd="$diff_kb" 'BEGIN {
  printf "| command | wall (best of 3) | peak RSS |\n|---|---|---|\n"
  printf "| cpel stats --csv A | %.2f s | %.0f MB |\n", sa, ka / 1024
  printf "| cpel stats --csv B | %.2f s | %.0f MB |\n", sb, kb / 1024
  printf "| cpel diff --csv A B | %.2f s | %.0f MB |\n", d, kd / 1024
  printf "diff / (stats A + stats B): time %.2f, peak RSS %.2f\n", d / (sa + sb), kd / (ka + kb)
  bad = 0
  if (d > 2.0) { printf "MISSED: diff %.2f s > 2 s\n", d; bad = 1 }
  if (kd > 1.1 * (ka + kb)) { printf "MISSED: diff peak RSS %.0f MB > 1.1 × the two stats\n", kd / 1024; bad = 1 }
  exit bad
}'
