#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# run-scale.sh — CPEL Viewer at scale: 10^6, 10^7 and 10^8 events on 64 and
# 10^4 tracks, through core + render (bench-scale) and through the app
# (cpelview --benchmark under xvfb-run: --no-cache, then while the first
# open's index cache is written, each quiet and with two busy loops),
# printed as one table.
#
# usage: run-scale.sh CPEL BENCH_SCALE OUTDIR [CPELVIEW]
#   CPEL         the built `cpel` binary (generates the captures)
#   BENCH_SCALE  the built bench-scale program
#   OUTDIR       where captures and results go (a build directory or /tmp;
#                never committed).  A 10^8-event capture takes 2 GB.
#   CPELVIEW     the built viewer (optional)
# environment:
#   CPEL_SCALE_EVENTS  event counts (default "1000000 10000000 100000000")
#   CPEL_SCALE_TRACKS  track counts (default "64 10000")
#   CPEL_SCALE_FRAMES  frames per zoom level (default 60)
#   CPEL_SCALE_APP     0: skip cpelview --benchmark
#   CPEL_SCALE_KEEP    0: delete each capture after use (default: keep, reuse)
#
# Writes OUTDIR/scale-raw.txt (every measurement, key=value) and
# OUTDIR/scale-table.md (the table below, Markdown).  A capture that does not
# fit on the disk (or whose index does not fit in memory) is skipped with a
# message.  Exit status 1 when a target at 10^8 events is missed.
#
# Targets (10^8 events, 10^4 tracks and 64 tracks): open to first frame
# <= 3 s; frame time p95 <= 16 ms at every zoom; text search <= 1 s; peak
# RSS <= 32 bytes per event including the mapped 20-byte records.
set -uo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/../bench-util.sh"

bench_args 3 4 "CPEL BENCH_SCALE OUTDIR [CPELVIEW]" "$@"
cpel=$1 bench=$2 outdir=$3 cpelview=${4:-}
events_list=${CPEL_SCALE_EVENTS:-1000000 10000000 100000000}
tracks_list=${CPEL_SCALE_TRACKS:-64 10000}
frames=${CPEL_SCALE_FRAMES:-60}
mkdir -p "$outdir"
raw=$outdir/scale-raw.txt
table=$outdir/scale-table.md
: > "$raw"

log () { echo "$*" | tee -a "$raw" >&2; }

avail_bytes () { df -B1 --output=avail "$1" | tail -1 | tr -d ' '; }
mem_avail_bytes () { awk '/^MemAvailable:/ { printf "%.0f\n", $2 * 1024 }' /proc/meminfo; }

cpu_model=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
mem_total=$(awk '/^MemTotal:/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo)
machine="$(nproc) CPUs ($cpu_model), $mem_total RAM, $(uname -sr)"
log "machine=$machine"
log "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
log "loadavg_start=$(bench_load)"

xdg=$outdir/scale-xdg   # the cache folder of the runs that write the cache
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

declare -A R          # R[key@E-T] = value
declare -a columns    # "E-T" of the captures measured
declare -A skipped    # skipped[E-T] = reason

run_app=0
if [ -n "$cpelview" ] && [ "${CPEL_SCALE_APP:-1}" != 0 ]; then
  if ! command -v xvfb-run > /dev/null; then
    log "note: xvfb-run not found: cpelview --benchmark skipped"
  elif ! "$cpelview" --help 2>/dev/null | grep -q -- '--benchmark'; then
    log "note: this cpelview has no --benchmark: skipped"
  else
    run_app=1
  fi
fi

for events in $events_list; do
  for tracks in $tracks_list; do
    col=$events-$tracks
    file=$outdir/scale-$events-$tracks.cpel
    need=$(( events * 20 + tracks * 8 + 100000 ))

    # Memory: the 12-byte/event index plus the mapped records, with room.
    if [ "$(mem_avail_bytes)" -lt $(( events * 40 )) ]; then
      skipped[$col]="needs $(( events * 40 / 1000000 )) MB of memory, $(( $(mem_avail_bytes) / 1000000 )) MB available"
      log "SKIP $col: ${skipped[$col]}"
      continue
    fi
    if [ ! -f "$file" ]; then
      avail=$(avail_bytes "$outdir")
      if [ "$avail" -lt $(( need + 512 * 1000000 )) ]; then
        skipped[$col]="needs $(( need / 1000000 )) MB of disk (+512 MB spare), $(( avail / 1000000 )) MB free in $outdir"
        log "SKIP $col: ${skipped[$col]}"
        continue
      fi
      start=$(now_ns)
      if ! bench_gen "$file" --events "$events" --tracks "$tracks" --seed 1; then
        rm -f "$file.part"
        skipped[$col]="cpel gen failed"
        log "SKIP $col: cpel gen failed"
        continue
      fi
      R[gen_s@$col]=$(awk -v ns=$(( $(now_ns) - start )) 'BEGIN { printf "%.1f", ns / 1e9 }')
    else
      R[gen_s@$col]="(kept)"
    fi
    R[size_mb@$col]=$(awk -v b="$(stat -c %s "$file")" 'BEGIN { printf "%.0f", b / 1e6 }')
    columns+=("$col")

    # Warm the page cache (every measurement then sees the same state).
    if [ "$(mem_avail_bytes)" -gt $(( need * 3 )) ]; then
      cat "$file" > /dev/null
    fi

    log "== $col: bench-scale $file $frames"
    # Open + index and first frame: best of 3 fresh processes.
    best_open="" best_first="" open_runs="" best_open_cpu=""
    for run in 1 2 3; do
      out=$("$bench" "$file" 1 none 2>&1) || { log "$out"; continue; }
      o=$(sed -n 's/^open_s=//p' <<< "$out")
      f=$(sed -n 's/^open_to_first_frame_s=//p' <<< "$out")
      oc=$(sed -n 's/^open_cpu_s=//p' <<< "$out")
      if [ -z "$best_open_cpu" ] || awk -v a="$oc" -v b="$best_open_cpu" 'BEGIN { exit !(a < b) }'; then best_open_cpu=$oc; fi
      open_runs="$open_runs${open_runs:+,}$o"
      if [ -z "$best_open" ] || awk -v a="$o" -v b="$best_open" 'BEGIN { exit !(a < b) }'; then best_open=$o; fi
      if [ -z "$best_first" ] || awk -v a="$f" -v b="$best_first" 'BEGIN { exit !(a < b) }'; then best_first=$f; fi
    done
    R[open_best_s@$col]=$best_open
    R[first_best_s@$col]=$best_first
    R[open_runs@$col]=$open_runs
    R[open_best_cpu_s@$col]=$best_open_cpu
    log "open_runs=$open_runs"

    # Everything else in one process (memory peaks are this process's).
    out=$("$bench" "$file" "$frames" 2>&1)
    status=$?
    echo "$out" | sed "s/^/[$col] /" >> "$raw"
    if [ $status -ne 0 ]; then
      log "bench-scale failed on $col (status $status)"
    fi
    while IFS='=' read -r key value; do
      [ -n "$key" ] && [ "${key#* }" = "$key" ] && R[$key@$col]=$value
    done <<< "$out"

    # Through the app.
    if [ $run_app = 1 ]; then
      json=$outdir/scale-app-$col.json
      log "== $col: xvfb-run cpelview --benchmark"
      # The environment of the README and the tests (bench_xvfb).
      if bench_xvfb /usr/bin/time -f "app_maxrss_kb=%M" "$cpelview" --no-cache --benchmark "$file" \
           > "$json" 2> "$json.err"; then
        sed "s/^/[$col app] /" "$json" >> "$raw"
        R[app_maxrss_kb@$col]=$(sed -n 's/^app_maxrss_kb=//p' "$json.err")
        while IFS='=' read -r key value; do
          [ -n "$key" ] && R[app_$key@$col]=$value
        done < <(python3 - "$json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
s = d.get("summary", {})
for k in ("load_ms", "start_to_first_frame_ms", "search_ms", "peak_rss_first_frame_kb"):
    if k in d: print(f"{k}={d[k]:.0f}")
for k in ("latency_ms_median", "latency_ms_p95", "latency_ms_max",
          "paint_ms_median", "paint_ms_p95", "paint_ms_max", "frames"):
    if k in s: print(f"{k}={s[k]:.1f}" if isinstance(s[k], float) else f"{k}={s[k]}")
for k in ("layout_ms", "render_ms"):
    v = sorted(f[k] for f in d.get("frames", []) if k in f)
    if v:
        print(f"{k}_p95={v[max(0, -(-95 * len(v) // 100) - 1)]:.1f}")
snap = sorted(f["snapshot_ms"] for f in d.get("frames", []) if "snapshot_ms" in f)
if snap:
    print(f"snapshot_ms_p95={snap[max(0, -(-95 * len(snap) // 100) - 1)]:.1f}")
EOF
        )
      else
        log "cpelview --benchmark failed on $col: $(tail -3 "$json.err" | tr '\n' ' ')"
        R[app_failed@$col]=1
      fi
      # The same while the index cache is written (an empty cache folder:
      # the first open writes it during the frames that follow the first),
      # and both with two busy loops alongside.
      for variant in write busy busy_write; do
        args=(--no-cache)
        case $variant in *write) args=(); rm -rf "$xdg";; esac
        case $variant in busy*) busy_start;; esac
        if XDG_CACHE_HOME=$xdg bench_xvfb "$cpelview" "${args[@]}" --benchmark "$file" \
             > "$json.$variant" 2> "$json.$variant.err"; then
          while IFS='=' read -r key value; do
            [ -n "$key" ] && R[app_${variant}_$key@$col]=$value
          done < <(python3 - "$json.$variant" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
s = d.get("summary", {})
print("search_ms=%.0f" % d["search_ms"])
print("search_during_write=%d" % (1 if d.get("search_during_cache_write") else 0))
print("paint_ms_p95=%.1f" % s["paint_ms_p95"])
print("write_frames=%d" % s.get("frames_during_cache_write", 0))
print("write_paint_ms_p95=%.1f" % s.get("paint_ms_p95_during_cache_write", 0))
print("cache_wait_ms=%.0f" % d.get("cache_wait_ms", 0))
EOF
          )
        else
          log "cpelview --benchmark ($variant) failed on $col:" \
              "$(tail -3 "$json.$variant.err" | tr '\n' ' ')"
        fi
        busy_stop
      done
      rm -rf "$xdg"
    fi

    if [ "${CPEL_SCALE_KEEP:-1}" = 0 ]; then
      rm -f "$file"
    fi
  done
done
log "loadavg_end=$(bench_load)"

# ---- the table ---------------------------------------------------------------

get () { echo "${R[$1@$2]:-}"; }
fmt () { awk -v v="$1" -v f="$2" 'BEGIN { if (v == "") print "–"; else printf f, v }'; }
mb () { awk -v v="$1" 'BEGIN { if (v == "") print "–"; else printf "%.0f", v / 1e6 }'; }
per_event () { awk -v v="$1" -v n="$2" 'BEGIN { if (v == "" || n == "" || n == 0) print "–"; else printf "%.1f", v / n }'; }
label () { awk -v e="${1%-*}" -v t="${1#*-}" 'BEGIN { printf "10^%d × %s", log(e) / log(10) + 0.5, (t == 10000 ? "10^4" : t) }'; }

status=0
verdicts=""
# check COL VALUE LIMIT WHAT: a target at 10^8 events
check () {
  local col=$1 v=$2 limit=$3 what=$4
  [ "${col%-*}" = 100000000 ] || return 0
  if [ -z "$v" ]; then
    verdicts="$verdicts\n- $(label "$col"): $what: not measured"
    status=1
  elif awk -v v="$v" -v l="$limit" 'BEGIN { exit !(v <= l) }'; then
    verdicts="$verdicts\n- $(label "$col"): $what $v ≤ $limit: ok"
  else
    verdicts="$verdicts\n- $(label "$col"): $what $v > $limit: **MISSED**"
    status=1
  fi
}

{
  echo "### CPEL Viewer at scale"
  echo
  echo "Machine: $machine. Load average at start/end: $(sed -n 's/^loadavg_start=//p' "$raw") / $(sed -n 's/^loadavg_end=//p' "$raw")."
  echo "Captures from \`cpel gen --seed 1\` (warm page cache); frames offscreen through src/render, 1920×1080, scale 1;"
  echo "each frame pans to a new position and row range (nothing reused from the previous frame)."
  echo "cpelview rows: \`cpelview --benchmark\` in its default window on Xvfb 1280×800×24 with GSK_RENDERER=cairo;"
  echo "paint = the frame's work (layout, every widget's snapshot, rendering), latency adds the wait for the frame clock."
  echo
  printf '| measure |'
  for col in "${columns[@]}"; do printf ' %s |' "$(label "$col")"; done
  printf ' target (10^8) |\n|---|'
  for col in "${columns[@]}"; do printf -- '---:|'; done
  printf -- '---|\n'

  row () {   # row TITLE TARGET VALUE...
    local title=$1 target=$2
    shift 2
    printf '| %s |' "$title"
    for v in "$@"; do printf ' %s |' "$v"; done
    printf ' %s |\n' "$target"
  }
  vals () {  # vals FUNC: FUNC COL for every column
    local out=()
    for col in "${columns[@]}"; do out+=("$("$1" "$col")"); done
    printf '%s\n' "${out[@]}"
  }
  emit () { local title=$1 target=$2 func=$3; mapfile -t v < <(vals "$func"); row "$title" "$target" "${v[@]}"; }

  c_size () { echo "$(get size_mb "$1") MB"; }
  c_open () { echo "$(fmt "$(get open_best_s "$1")" "%.2f s") [CPU $(fmt "$(get open_best_cpu_s "$1")" "%.2f")]"; }
  c_nsev () { awk -v s="$(get open_best_s "$1")" -v n="$(get events "$1")" 'BEGIN { if (s == "" || n == "") print "–"; else printf "%.1f", s * 1e9 / n }'; }
  c_first () { fmt "$(get first_best_s "$1")" "%.2f s"; }
  c_hwm () { echo "$(mb "$(get hwm_open_bytes "$1")") MB / $(per_event "$(get hwm_open_bytes "$1")" "$(get events "$1")")"; }
  c_hwm_all () { echo "$(mb "$(get hwm_search_bytes "$1")") MB / $(per_event "$(get hwm_search_bytes "$1")" "$(get events "$1")")"; }
  c_base () { echo "$(mb "$(get rss_base_bytes "$1")") MB"; }
  c_lod () { echo "$(per_event "$(get lod_bytes "$1")" "$(get events "$1")")"; }
  zoom () { echo "$(fmt "$(get "zoom_$2_p50_ms" "$1")" "%.1f") / $(fmt "$(get "zoom_$2_p95_ms" "$1")" "%.1f") / $(fmt "$(get "zoom_$2_max_ms" "$1")" "%.1f")"; }
  z_full () { zoom "$1" full; }
  z_1 () { zoom "$1" 1e-1; }
  z_3 () { zoom "$1" 1e-3; }
  z_5 () { zoom "$1" 1e-5; }
  z_us () { zoom "$1" 1us; }
  z_cpu () { echo "$(fmt "$(get zoom_full_cpu_p95_ms "$1")" "%.1f") / $(fmt "$(get zoom_1e-1_cpu_p95_ms "$1")" "%.1f") / $(fmt "$(get zoom_1e-3_cpu_p95_ms "$1")" "%.1f") / $(fmt "$(get zoom_1e-5_cpu_p95_ms "$1")" "%.1f") / $(fmt "$(get zoom_1us_cpu_p95_ms "$1")" "%.1f")"; }
  c_sweep () { echo "$(fmt "$(get sweep_p95_ms "$1")" "%.1f") / $(fmt "$(get sweep_worst_p95_ms "$1")" "%.1f") [CPU $(fmt "$(get sweep_worst_cpu_p95_ms "$1")" "%.1f")]"; }
  c_redraw () { echo "$(fmt "$(get redraw_p50_ms "$1")" "%.1f") / $(fmt "$(get redraw_p95_ms "$1")" "%.1f")"; }
  search () { echo "$(fmt "$(get "search_$2_s" "$1")" "%.2f s") [CPU $(fmt "$(get "search_$2_cpu_s" "$1")" "%.2f")] ($(get "search_$2_matches" "$1"))"; }
  s_text () { search "$1" text; }
  s_text2 () { search "$1" text2; }
  s_regex () { search "$1" regex; }
  s_code () { search "$1" code; }
  a_open () { if [ -n "$(get app_failed "$1")" ]; then echo "failed"; else echo "$(fmt "$(get app_load_ms "$1")" "%.0f") / $(fmt "$(get app_start_to_first_frame_ms "$1")" "%.0f") ms"; fi; }
  a_lat () { echo "$(fmt "$(get app_latency_ms_median "$1")" "%.1f") / $(fmt "$(get app_latency_ms_p95 "$1")" "%.1f") / $(fmt "$(get app_latency_ms_max "$1")" "%.1f")"; }
  a_paint () { echo "$(fmt "$(get app_paint_ms_p95 "$1")" "%.1f") / $(fmt "$(get app_snapshot_ms_p95 "$1")" "%.1f")"; }
  a_paint_max () { echo "$(fmt "$(get app_paint_ms_median "$1")" "%.1f") / $(fmt "$(get app_paint_ms_max "$1")" "%.1f")"; }
  a_phases () { echo "$(fmt "$(get app_layout_ms_p95 "$1")" "%.1f") / $(fmt "$(get app_render_ms_p95 "$1")" "%.1f")"; }
  a_rss_first () { awk -v k="$(get app_peak_rss_first_frame_kb "$1")" -v n="$(get events "$1")" 'BEGIN { if (k == "" || n == "") print "–"; else printf "%.0f MB / %.1f", k * 1024 / 1e6, k * 1024 / n }'; }
  a_search () { fmt "$(get app_search_ms "$1")" "%.0f ms"; }
  ratio () {
    awk -v a="$1" -v b="$2" \
      'BEGIN { if (a == "" || b == "" || b == 0) print "–"; else printf "%.2f", a / b }'
  }
  # a_write COL VARIANT REF: paint p95 / during the write (frames) / search (× REF's)
  a_write () {
    echo "$(fmt "$(get "app_$2_paint_ms_p95" "$1")" "%.1f")" \
         "/ $(fmt "$(get "app_$2_write_paint_ms_p95" "$1")" "%.1f")" \
         "($(get "app_$2_write_frames" "$1"))" \
         "/ $(fmt "$(get "app_$2_search_ms" "$1")" "%.0f ms")" \
         "($(ratio "$(get "app_$2_search_ms" "$1")" "$(get "$3" "$1")")×)"
  }
  a_w () { a_write "$1" write app_search_ms; }
  a_b () {
    echo "$(fmt "$(get app_busy_paint_ms_p95 "$1")" "%.1f")" \
         "/ $(fmt "$(get app_busy_search_ms "$1")" "%.0f ms")"
  }
  a_bw () { a_write "$1" busy_write app_busy_search_ms; }
  a_rss () { awk -v k="$(get app_maxrss_kb "$1")" -v n="$(get events "$1")" 'BEGIN { if (k == "" || n == "") print "–"; else printf "%.0f MB / %.1f", k * 1024 / 1e6, k * 1024 / n }'; }

  emit "file size" "" c_size
  emit "open + index, best of 3: wall [CPU, all threads]" "linear" c_open
  emit "  ns per event" "flat" c_nsev
  emit "open → first frame (index, overview, view, strip)" "≤ 3 s" c_first
  emit "peak RSS after first frame (MB / B per event)" "≤ 32 B/event" c_hwm
  emit "  of which libraries, fonts (before opening)" "" c_base
  emit "  level-of-detail summaries (B per event)" "" c_lod
  emit "peak RSS after frames and searches (MB / B per event)" "" c_hwm_all
  emit "frame ms p50 / p95 / max: whole capture" "p95 ≤ 16 ms" z_full
  emit "  1/10 of it" "p95 ≤ 16 ms" z_1
  emit "  1/10^3" "p95 ≤ 16 ms" z_3
  emit "  1/10^5" "p95 ≤ 16 ms" z_5
  emit "  1 µs" "p95 ≤ 16 ms" z_us
  emit "  CPU ms per frame, p95 (same five levels)" "" z_cpu
  emit "  every zoom by halves: p95 all / worst level's p95 [its CPU p95]" "≤ 16 ms" c_sweep
  emit "  redraw at one zoom (cursor), p50 / p95" "" c_redraw
  emit "search text “ip4-lookup”: wall [CPU, all threads] (matches)" "≤ 1 s" s_text
  emit "search text “0xdead”" "" s_text2
  emit "search regex “ip[46]-(lookup\\|input)”" "" s_regex
  emit "search code “rx-burst”" "" s_code
  if [ $run_app = 1 ]; then
    emit "cpelview: load / start → first frame" "" a_open
    emit "cpelview: frame latency p50 / p95 / max (ms)" "" a_lat
    emit "cpelview: paint p95 / timeline snapshot p95 (ms)" "" a_paint
    emit "cpelview: paint p50 / max (ms)" "" a_paint_max
    emit "cpelview: layout p95 / render p95 (ms)" "" a_phases
    emit "cpelview: peak RSS at the first frame (MB / B per event)" "" a_rss_first
    emit "cpelview: search (most frequent type)" "" a_search
    emit "cpelview: peak RSS (MB / B per event)" "" a_rss
    emit "cpelview, cache written: paint p95 / during the write (frames) / search (× no cache)" \
      "≤ 16 ms, ≤ 1.2×" a_w
    emit "cpelview, two busy loops, --no-cache: paint p95 / search" "" a_b
    emit "cpelview, two busy loops, cache written: as above (× busy, no cache)" \
      "≤ 16 ms, ≤ 1.2×" a_bw
  fi

  for col in "${columns[@]}"; do
    check "$col" "$(get first_best_s "$col")" 3 "open → first frame (s)"
    check "$col" "$(per_event "$(get hwm_open_bytes "$col")" "$(get events "$col")")" 32 "peak RSS after first frame (B/event)"
    for z in full 1e-1 1e-3 1e-5 1us; do
      check "$col" "$(get "zoom_${z}_p95_ms" "$col")" 16 "frame p95 at zoom $z (ms)"
    done
    check "$col" "$(get sweep_worst_p95_ms "$col")" 16 "worst zoom level's frame p95 (ms)"
    check "$col" "$(get search_text_s "$col")" 1 "text search (s)"
    if [ $run_app = 1 ]; then
      check "$col" "$(get app_busy_write_write_paint_ms_p95 "$col")" 16 \
        "cpelview, busy loops, frames during the cache write: paint p95 (ms)"
      check "$col" \
        "$(ratio "$(get app_busy_write_search_ms "$col")" "$(get app_busy_search_ms "$col")")" \
        1.2 "cpelview, busy loops, search while the cache is written (× --no-cache)"
    fi
  done
  for col in "${!skipped[@]}"; do
    verdicts="$verdicts\n- $(label "$col"): skipped: ${skipped[$col]}"
  done
  echo
  echo "Targets:"
  echo -e "${verdicts:-\n- (no 10^8-event capture measured)}"
} > "$table"

echo
cat "$table"
echo
echo "raw: $raw"
echo "table: $table"
exit $status
