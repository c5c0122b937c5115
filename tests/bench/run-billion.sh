#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# run-billion.sh — 10^9 events × 64 tracks (a 20 GB capture, a 12 GB index):
# the first open completes with the index built in a file (the cache file,
# or a temporary one), the resident set stays bounded, the frames after it
# and the re-open from the cache.
#
# usage: run-billion.sh CPEL BENCH_RUN OUTDIR [CPELVIEW]
#   CPEL       the built `cpel` binary
#   BENCH_RUN  the built bench-run program (wall, CPU and peak RSS)
#   OUTDIR     where the capture and the cache dir go (the build dir; never
#              committed; both removed at the end unless CPEL_BENCH_BILLION_KEEP=1)
#   CPELVIEW   the built viewer (optional): first open, frames, re-open
# environment: CPEL_BENCH_BILLION_EVENTS (default 1000000000),
#              CPEL_BENCH_BILLION_TRACKS (default 64)
#
# The capture is `cpel gen`'s usual one with two records far apart swapped
# (make-out-of-order.sh): the CLI then needs the index instead of
# streaming.  CLI: `cpel dump --no-cache --from 10000s` builds the index —
# 12 bytes an event, more than a quarter of this machine's memory at 10^9,
# so in an unlinked temporary file — and prints nothing.  Viewer:
# `cpelview --benchmark` (Xvfb 1280x800x24, cairo) with the index cache on
# and its limit raised above the index (keyfile settings in OUTDIR):
# first open (index built straight into the cache file), then a re-open
# from it.  Its frames: the fit, 20 zoom steps, 16 pans and the zoom back
# out ("view steps"), then a search for the most frequent event type and
# 10 × next match.  Skips (exit 77) when disk is short.
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/bench-util.sh"

bench_args 3 4 "CPEL BENCH_RUN OUTDIR [CPELVIEW]" "$@"
cpel=$1 bench_run=$2 outdir=$3 cpelview=${4:-}
events=${CPEL_BENCH_BILLION_EVENTS:-1000000000}
tracks=${CPEL_BENCH_BILLION_TRACKS:-64}
file=$outdir/billion-$events-$tracks.cpel
xdg=$outdir/billion-xdg
config=$outdir/billion-config
mkdir -p "$outdir"

# Room: the capture (20 bytes an event), its index twice at most (the CLI's
# temporary file is gone before the viewer writes the cache) and 1 GB.
bench_need_disk "$outdir" $(( $(bench_missing_mb "$events" "$file") + events * 12 / 1000000 + 1000 ))

cleanup () {
  rm -rf "$xdg" "$config"
  [ "${CPEL_BENCH_BILLION_KEEP:-0}" = 1 ] || rm -f "$file"
}
trap cleanup EXIT

if [ ! -f "$file" ]; then
  t0=$(now_ns)
  bench_gen "$file.tmp" --events "$events" --tracks "$tracks" --seed 9 > /dev/null
  "$(dirname "${BASH_SOURCE[0]}")/make-out-of-order.sh" "$cpel" "$file.tmp"
  mv -f "$file.tmp" "$file"
  gen_s=$(awk -v a="$t0" -v b="$(now_ns)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
else
  gen_s="(kept)"
fi

rm -rf "$xdg"
export XDG_CACHE_HOME=$xdg
# the temporary index file goes to $XDG_CACHE_HOME/cpel-viewer (on disk);
# a file whatever the size (at 10^9 it would be one anyway)
bench_measure cli 1 env CPEL_INDEX_FILE_MIN_MB=0 "$cpel" dump --no-cache --from 10000s "$file"
# the same with the index in memory, for the comparison, when it fits
if [ "$(awk '/MemAvailable/ { printf "%d", $2 / 1024 }' /proc/meminfo)" -gt $(( events * 12 / 1000000 + 4000 )) ]; then
  bench_measure cli_mem 1 env CPEL_INDEX_FILE_MIN_MB=1000000000 "$cpel" dump --no-cache --from 10000s "$file"
fi

row () { printf '| %s | %s | %s |\n' "$@"; }

echo
echo "Big capture: $events events × $tracks tracks ($(du -m "$file" | cut -f1) MB), $(nproc) CPUs," \
     "$(awk '/MemTotal/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo), load $(bench_load)"
echo "capture made in $gen_s s"
echo
echo "| work | figure | target |"
echo "|---|---|---|"
row "CLI \`cpel dump --no-cache\` (index in a temporary file): wall, CPU" \
    "${R[cli.best_s]} s, $(awk -v u="${R[cli.user_s]}" -v s="${R[cli.sys_s]}" 'BEGIN { printf "%.1f", u + s }') s" "completes"
row "CLI peak RSS" "$(bench_mb "${R[cli.peak_kb]}") MB" "≤ 6144 MB: $(bench_verdict "$(bench_mb "${R[cli.peak_kb]}")" 6144)"
if [ -n "${R[cli_mem.best_s]:-}" ]; then
  row "the same, index in memory: wall, peak RSS" "${R[cli_mem.best_s]} s, $(bench_mb "${R[cli_mem.peak_kb]}") MB" "(comparison)"
fi

if [ -n "$cpelview" ] && command -v xvfb-run > /dev/null && command -v python3 > /dev/null; then
  # the cache limit above the index (MiB), in keyfile settings of our own
  mkdir -p "$config/glib-2.0/settings"
  printf '[io/github/cpelview/CpelView]\nindex-cache-max-size=%d\n' $(( events * 12 / 1048576 + 2048 )) \
    > "$config/glib-2.0/settings/keyfile"
  view () {   # view NAME: cpelview --benchmark on the capture → OUTDIR/billion-NAME.json
    local json=$outdir/billion-$1.json
    if ! timeout 3600 env XDG_CONFIG_HOME="$config" GSETTINGS_BACKEND=keyfile GDK_BACKEND=x11 \
           GSK_RENDERER=cairo GTK_A11Y=none NO_AT_BRIDGE=1 \
           xvfb-run -a -s "-screen 0 1280x800x24" "$cpelview" --benchmark "$file" > "$json" 2> "$json.err"; then
      echo "cpelview --benchmark failed: $(tail -3 "$json.err" | tr '\n' ' ')" >&2
      exit 1
    fi
  }
  # the viewer's schema (meson sets it; else the build dir's data/)
  export GSETTINGS_SCHEMA_DIR=${GSETTINGS_SCHEMA_DIR:-$(dirname "$cpelview")/../../data}
  rm -rf "$xdg"
  view first
  if ! ls "$xdg"/cpel-viewer/index/*.cpelidx > /dev/null 2>&1; then
    echo "the first open wrote no index cache (no schema in $GSETTINGS_SCHEMA_DIR, or a full disk?)" >&2
    exit 1
  fi
  view warm
  python3 - "$outdir/billion-first.json" "$outdir/billion-warm.json" <<'PY'
import json, sys

def p95(values):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(0.95 * (len(values) - 1))))]

def row(*cells):
    print("| " + " | ".join(cells) + " |")

def verdict(value, limit):
    return "ok" if value <= limit else "MISSED"

for name, path in (("first open", sys.argv[1]), ("re-open (cache)", sys.argv[2])):
    d = json.load(open(path))
    view = [f for f in d["frames"] if not f["step"].startswith("search")]
    paint = p95([f["paint_ms"] for f in view])
    first_s = d["start_to_first_frame_ms"] / 1000
    rss_mb = d["peak_rss_before_search_kb"] / 1024
    target = "≤ 2 s: " + verdict(first_s, 2) if name.startswith("re-open") else "completes"
    row("viewer %s: start → first frame" % name, "%.2f s" % first_s, target)
    row("viewer %s: peak RSS through the view steps" % name, "%.0f MB" % rss_mb,
        "≤ 6144 MB: " + verdict(rss_mb, 6144))
    row("viewer %s: view steps' paint p95 / median (%d frames, %d pages read from the disk)"
        % (name, len(view), d.get("major_faults_view_steps", -1)),
        "%.1f / %.1f ms" % (paint, sorted(f["paint_ms"] for f in view)[len(view) // 2]),
        "≤ 16 ms: " + verdict(paint, 16))
    row("viewer %s: search (%d matches), then peak RSS" % (name, d["search_matches"]),
        "%.1f s, %.0f MB" % (d["search_ms"] / 1000, d["peak_rss_kb"] / 1024),
        "≤ 6144 MB: " + verdict(d["peak_rss_kb"] / 1024, 6144))
PY
fi
echo
