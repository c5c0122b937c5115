#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# End-to-end tests of cpelview, the way a user or a script drives it.
#
#   test-e2e.sh headless CPELVIEW PNGCHECK   --export-png without any display
#   test-e2e.sh gui      CPELVIEW PNGCHECK   the window under the current X
#                                            display, driven with xdotool
#
# The capture is the demo (`cpel gen --demo`, CPEL_CLI).  Exit 77 = skipped.
set -euo pipefail

mode=$1
cpelview=$2
pngcheck=$3
cli=${CPEL_CLI:?CPEL_CLI is not set}

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

if [ "$mode" = headless ]; then
  # No display at all: must not need one.
  env -u DISPLAY -u WAYLAND_DISPLAY "$cpelview" --export-png "$tmp/out.png" \
      --width 900 --height 500 "$tmp/demo.cpel"
  "$pngcheck" "$tmp/out.png" 900 500
  # A range and the dark palette.
  env -u DISPLAY -u WAYLAND_DISPLAY "$cpelview" --export-png "$tmp/dark.png" \
      --width 640 --height 400 --from 10ms --to 11ms --dark "$tmp/demo.cpel"
  "$pngcheck" "$tmp/dark.png" 640 400 --dark
  # The viewer's colour and summary modes: each changes the picture.
  env -u DISPLAY -u WAYLAND_DISPLAY "$cpelview" --export-png "$tmp/code.png" \
      --width 640 --height 400 --from 10ms --to 10.2ms "$tmp/demo.cpel"
  env -u DISPLAY -u WAYLAND_DISPLAY "$cpelview" --export-png "$tmp/track.png" \
      --width 640 --height 400 --from 10ms --to 10.2ms --color-by=track "$tmp/demo.cpel"
  env -u DISPLAY -u WAYLAND_DISPLAY "$cpelview" --export-png "$tmp/summary.png" \
      --width 640 --height 400 --from 10ms --to 10.2ms --summary "$tmp/demo.cpel"
  "$pngcheck" "$tmp/track.png" 640 400
  if cmp -s "$tmp/code.png" "$tmp/track.png" || cmp -s "$tmp/code.png" "$tmp/summary.png"; then
    echo "--color-by=track or --summary changed nothing" >&2; exit 1
  fi
  set +e
  env -u DISPLAY "$cpelview" --export-png "$tmp/y.png" --color-by=rainbow "$tmp/demo.cpel" 2>/dev/null; st=$?
  set -e
  [ "$st" = 2 ] && [ ! -e "$tmp/y.png" ]
  # A negative time is an error (times count from the first event).
  set +e
  env -u DISPLAY "$cpelview" --export-png "$tmp/neg.png" --from -1ms "$tmp/demo.cpel" \
      2>/dev/null; st=$?
  set -e
  [ "$st" = 2 ] && [ ! -e "$tmp/neg.png" ]
  # A bad file: exit 1 and a message; nothing written.
  head -c 1000 "$tmp/demo.cpel" > "$tmp/bad.cpel"
  if env -u DISPLAY "$cpelview" --export-png "$tmp/bad.png" "$tmp/bad.cpel" 2>"$tmp/err"; then
    echo "a truncated file was exported" >&2; exit 1
  fi
  grep -q . "$tmp/err"
  [ ! -e "$tmp/bad.png" ]
  # An existing OUT stays unless --force.
  cp "$tmp/out.png" "$tmp/keep.png"
  if env -u DISPLAY "$cpelview" --export-png "$tmp/out.png" --width 640 --height 400 \
       "$tmp/demo.cpel" 2>"$tmp/err"; then
    echo "an existing file was replaced without --force" >&2; exit 1
  fi
  grep -q -- --force "$tmp/err"
  cmp -s "$tmp/out.png" "$tmp/keep.png"
  env -u DISPLAY "$cpelview" --export-png "$tmp/out.png" --width 640 --height 400 --force \
      "$tmp/demo.cpel"
  "$pngcheck" "$tmp/out.png" 640 400
  # --force never replaces a FIFO (nor opens it); a symbolic link to a
  # regular file is written through and stays a link; "-" is standard output.
  mkfifo "$tmp/fifo"
  if env -u DISPLAY "$cpelview" --export-png "$tmp/fifo" --width 64 --height 64 --force \
       "$tmp/demo.cpel" 2>"$tmp/err"; then
    echo "--force replaced a FIFO" >&2; exit 1
  fi
  grep -q "not a regular file" "$tmp/err"
  [ -p "$tmp/fifo" ]
  echo old > "$tmp/target.png"
  ln -s target.png "$tmp/link.png"
  env -u DISPLAY "$cpelview" --export-png "$tmp/link.png" --width 640 --height 400 --force \
      "$tmp/demo.cpel"
  [ -L "$tmp/link.png" ] && [ "$(readlink "$tmp/link.png")" = target.png ]
  "$pngcheck" "$tmp/target.png" 640 400
  viewer=$(realpath "$cpelview")
  (cd "$tmp" && env -u DISPLAY "$viewer" --export-png - --width 640 --height 400 \
     "$tmp/demo.cpel" | cat > "$tmp/piped.png")
  [ ! -e "$tmp/-" ]
  "$pngcheck" "$tmp/piped.png" 640 400
  # Usage errors: exit 2.
  set +e
  env -u DISPLAY "$cpelview" --export-png "$tmp/x.png" 2>/dev/null; st=$?
  set -e
  [ "$st" -eq 2 ]
  echo "headless export: ok"
  exit 0
fi

if [ -z "${DISPLAY:-}" ] || ! command -v xdotool >/dev/null; then
  echo "no X display or no xdotool: skipped"
  exit 77
fi

. "$(dirname "$0")/../wait-util.sh"

# Ctrl+E, then in the Export View dialog the path typed as the file's name
# and Enter; returns once the PNG is there.
export_to() {
  local dialog
  xdotool key ctrl+e
  dialog=$(wait_window --pid "$pid" --name '^Export View$')
  [ -n "$dialog" ] || { echo "Ctrl+E opened no Export View dialog" >&2; exit 1; }
  xdotool windowfocus --sync "$dialog"
  xdotool key ctrl+a
  xdotool type --delay 20 "$1"
  xdotool key Return
  wait_file "$1" PNG || { echo "Export View wrote nothing" >&2; exit 1; }
}

# Window under test.
"$cpelview" "$tmp/demo.cpel" &
pid=$!

# Titled after the file once it is loaded.
wid=$(wait_window --pid "$pid" --name 'demo\.cpel')
[ -n "$wid" ] || { echo "no window appeared" >&2; exit 1; }
xdotool windowfocus --sync "$wid"
xdotool mousemove --window "$wid" 5 5     # keep the cursor line out of the export

# Zoom in (g2 keys and +), pan, zoom out one step.
xdotool key --delay 60 w w plus plus d a s
# Search: Ctrl+F, a query typed at once, Enter (searches what is typed,
# then selects and centres the first match).
xdotool key ctrl+f
xdotool type --delay 40 suspend
xdotool key Return
# Export the view (Ctrl+E) until it shows the search's highlights: the
# search runs in a worker, Ctrl+E may come before its result.
shown=
for _ in $(seq 1 200); do
  rm -f "$tmp/view.png"
  export_to "$tmp/view.png"
  if "$pngcheck" "$tmp/view.png" 400-4000 200-3000 --highlight 2>"$tmp/check"; then
    shown=1
    break
  fi
done
[ -n "$shown" ] || { cat "$tmp/check" >&2; exit 1; }

# Ctrl+Q quits cleanly.
xdotool key ctrl+q
wait_exit "$pid" || { echo "Ctrl+Q did not quit" >&2; exit 1; }
wait "$pid"
pid=
echo "gui: ok"
