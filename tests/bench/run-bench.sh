#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# run-bench.sh — the core benchmarks of CPEL Viewer, printed as one table.
#
# usage: run-bench.sh CPEL BENCH_OPEN OUTDIR
#   CPEL        the built `cpel` binary
#   BENCH_OPEN  the built bench-open program
#   OUTDIR      where the generated capture is kept (the build dir; never committed)
# environment: CPEL_BENCH_EVENTS (default 10000000), CPEL_BENCH_TRACKS (default 1000)
#
# Generates OUTDIR/bench-EVENTS-TRACKS.cpel with `cpel gen` when absent, then
# measures open + index (best of 3) and the index memory beyond the mapping,
# `cpel dump --tsv > /dev/null` (best of 3) and a few more, and checks the
# targets.  Exit status 1 when a target is missed.
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/bench-util.sh"

bench_args 3 3 "CPEL BENCH_OPEN OUTDIR" "$@"
cpel=$1 bench_open=$2 outdir=$3
events=${CPEL_BENCH_EVENTS:-10000000}
tracks=${CPEL_BENCH_TRACKS:-1000}
file=$outdir/bench-$events-$tracks.cpel
mkdir -p "$outdir"

# best_of N CMD... : prints the best wall time in seconds of N runs
best_of () {
  local n=$1 best="" start end ms
  shift
  for _ in $(seq "$n"); do
    start=$(now_ns)
    "$@"
    end=$(now_ns)
    ms=$(( (end - start) / 1000000 ))
    if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
  done
  awk -v ms="$best" 'BEGIN { printf "%.3f", ms / 1000 }'
}

gen_s="(cached)"
if [ ! -f "$file" ]; then
  start=$(now_ns)
  bench_gen "$file" --events "$events" --tracks "$tracks" --seed 1
  end=$(now_ns)
  gen_s=$(awk -v ns=$((end - start)) 'BEGIN { printf "%.3f s", ns / 1e9 }')
fi
size_mb=$(awk -v b="$(stat -c %s "$file")" 'BEGIN { printf "%.0f", b / 1e6 }')

# Warm the page cache once so every measurement sees the same state.
cat "$file" > /dev/null

declare -A open small
while IFS='=' read -r key value; do
  open[$key]=$value
done < <("$bench_open" "$file" 3)

# A tenth of the events on as many tracks: the slope between the two sizes
# is the index's marginal cost per event, without fixed per-track costs.
small_events=$((events / 10))
small_file=$outdir/bench-$small_events-$tracks.cpel
if [ ! -f "$small_file" ]; then
  bench_gen "$small_file" --events "$small_events" --tracks "$tracks" --seed 1
fi
while IFS='=' read -r key value; do
  small[$key]=$value
done < <("$bench_open" "$small_file" 1)
slope=$(awk -v a="${open[anon_bytes]:-0}" -v b="${small[anon_bytes]:-0}" \
            -v n="${open[events]}" -v m="${small[events]}" \
            'BEGIN { if (n > m) printf "%.2f", (a - b) / (n - m); else print "n/a" }')
fixed_kb=$(awk -v a="${open[anon_bytes]:-0}" -v n="${open[events]}" -v s="$slope" \
            'BEGIN { if (s != "n/a") printf "%.0f", (a - s * n) / 1024; else print "n/a" }')

dump_tsv() { "$cpel" dump --no-cache --tsv "$file" > /dev/null; }
dump_human() { "$cpel" dump --no-cache "$file" > /dev/null; }
search_text() { "$cpel" search --no-cache --count --text "ip4-lookup" "$file" > /dev/null; }
info() { "$cpel" info "$file" > /dev/null; }

dump_tsv_s=$(best_of 3 dump_tsv)
dump_human_s=$(best_of 3 dump_human)
search_s=$(best_of 3 search_text)
info_s=$(best_of 3 info)

status=0
v_open=$(bench_verdict "${open[open_best_s]}" 0.3)
v_slope=$(bench_verdict "$slope" 12)
v_dump=$(bench_verdict "$dump_tsv_s" 2.0)
# The per-event cost is the slope; the total adds a fixed part per track
# and thread (shown), which is not a cost per event.
for v in "$v_open" "$v_slope" "$v_dump"; do
  [ "$v" = ok ] || status=1
done

row () { printf '%-44s %-16s %-16s %s\n' "$@"; }
echo
echo "CPEL benchmarks: ${open[events]} events, ${open[tracks]} tracks, ${size_mb} MB file, $(nproc) CPUs"
echo
row "measure" "value" "target" "verdict"
row "-------" "-----" "------" "-------"
row "cpel gen (once)" "$gen_s" "-" ""
row "open + index (best of 3: ${open[open_runs_s]})" "${open[open_best_s]} s" "<= 0.3 s" "$v_open"
row "index memory beyond the mapping, total" "${open[bytes_per_event]:-n/a} B/event" "(12 + fixed)" ""
row "  (anon / still mapped after the load)" "$(( ${open[anon_bytes]:-0} / 1000000 )) / $(( ${open[mapped_bytes]:-0} / 1000000 )) MB" "" ""
row "  peak RSS during the load, all counted" "${open[peak_bytes_per_event]:-n/a} B/event" "" ""
row "  marginal, slope $small_events -> ${open[events]}" "$slope B/event" "<= 12 B/event" "$v_slope"
row "  fixed part (tracks, threads)" "$fixed_kb KiB" "-" ""
row "cpel dump --tsv > /dev/null (best of 3)" "$dump_tsv_s s" "<= 2 s" "$v_dump"
row "cpel dump > /dev/null (best of 3)" "$dump_human_s s" "-" ""
row "cpel search --count --text (best of 3)" "$search_s s" "-" ""
row "cpel info (best of 3)" "$info_s s" "-" ""
echo
exit $status
