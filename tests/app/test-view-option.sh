#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `cpelview --view NAME FILE` end to end, driven with xdotool:
#   1. open the demo, zoom in with w, Ctrl+D and Enter save "View 1" (the
#      sidecar appears), Ctrl+Q;
#   2. `cpelview --view "View 1"`: Ctrl+E exports what it shows;
#   3. plain `cpelview`, x (the only saved view): Ctrl+E;
#   4. plain `cpelview`: Ctrl+E.
# 2 and 3 must be the same picture, and differ from 4.  Exit 77 = skipped.
set -euo pipefail

cpelview=$1
cli=${CPEL_CLI:?CPEL_CLI is not set}

if [ -z "${DISPLAY:-}" ] || ! command -v xdotool >/dev/null; then
  echo "no X display or no xdotool: skipped"
  exit 77
fi

tmp=$(mktemp -d)
pid=
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT

"$cli" gen --demo --force "$tmp/demo.cpel" >/dev/null

# Start cpelview with the given arguments; sets $pid and $wid.
start() {
  "$cpelview" "$@" &
  pid=$!
  wid=
  for _ in $(seq 1 100); do
    wid=$(xdotool search --onlyvisible --pid "$pid" --name 'demo\.cpel' 2>/dev/null | head -n 1 || true)
    [ -n "$wid" ] && break
    sleep 0.1
  done
  [ -n "$wid" ] || { echo "no window appeared" >&2; exit 1; }
  sleep 0.8
  xdotool windowsize --sync "$wid" 900 600
  xdotool windowfocus --sync "$wid"
  xdotool mousemove --window "$wid" 5 5
  sleep 0.3
}

quit() {
  xdotool key ctrl+q
  for _ in $(seq 1 50); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    echo "Ctrl+Q did not quit" >&2; exit 1
  fi
  wait "$pid"
  pid=
}

export_to() {
  xdotool key ctrl+e
  for _ in $(seq 1 50); do
    [ -s "$1" ] && break
    sleep 0.1
  done
  [ -s "$1" ] || { echo "Ctrl+E exported nothing" >&2; exit 1; }
}

# 1. Save a zoomed-in view.
start "$tmp/demo.cpel"
xdotool key --delay 80 w w w w d
sleep 0.3
xdotool key ctrl+d
sleep 0.8
xdotool key Return
for _ in $(seq 1 50); do
  [ -s "$tmp/demo.cpel.cpelviews" ] && break
  sleep 0.1
done
[ -s "$tmp/demo.cpel.cpelviews" ] || { echo "Save View wrote no sidecar" >&2; exit 1; }
grep -q 'View 1' "$tmp/demo.cpel.cpelviews"
quit

# 2. Open at that view.
CPEL_EXPORT_PATH="$tmp/at-view.png" start --view "View 1" "$tmp/demo.cpel"
export_to "$tmp/at-view.png"
quit

# 3. x steps to it.
CPEL_EXPORT_PATH="$tmp/stepped.png" start "$tmp/demo.cpel"
xdotool key x
sleep 0.5
export_to "$tmp/stepped.png"
quit

# 4. The whole capture.
CPEL_EXPORT_PATH="$tmp/plain.png" start "$tmp/demo.cpel"
export_to "$tmp/plain.png"
quit

cmp -s "$tmp/at-view.png" "$tmp/stepped.png" || { echo "--view and x show different views" >&2; exit 1; }
if cmp -s "$tmp/at-view.png" "$tmp/plain.png"; then
  echo "--view showed the whole capture" >&2; exit 1
fi
echo "--view: ok"
