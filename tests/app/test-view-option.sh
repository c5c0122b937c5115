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

# Every cpelview here opens at 900 x 600: its saved window size, in a
# settings key file of the test's own.
export GSETTINGS_BACKEND=keyfile XDG_CONFIG_HOME="$tmp/config"
mkdir -p "$XDG_CONFIG_HOME/glib-2.0/settings"
cat > "$XDG_CONFIG_HOME/glib-2.0/settings/keyfile" <<'KEYFILE'
[io/github/cpelview/CpelView]
window-width=900
window-height=600
window-maximized=false
KEYFILE

. "$(dirname "$0")/../wait-util.sh"

# Start cpelview with the given arguments; sets $pid and $wid.  Returns
# when the file is loaded (the window is titled after it) and the window
# has been laid out at its saved size.
start() {
  "$cpelview" "$@" &
  pid=$!
  wid=$(wait_window --pid "$pid" --name 'demo\.cpel')
  [ -n "$wid" ] || { echo "no window appeared" >&2; exit 1; }
  wait_laid_out "$wid" 900 600 || { echo "the window was not laid out at 900x600" >&2; exit 1; }
  xdotool windowfocus --sync "$wid"
  xdotool mousemove --window "$wid" 5 5
}

quit() {
  xdotool key ctrl+q
  wait_exit "$pid" || { echo "Ctrl+Q did not quit" >&2; exit 1; }
  wait "$pid"
  pid=
}

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

# 1. Save a zoomed-in view: Ctrl+D opens the Save View dialog, Enter saves.
start "$tmp/demo.cpel"
xdotool key --delay 80 w w w w d
xdotool key ctrl+d
dialog=$(wait_window --pid "$pid" --name '^Save View$')
[ -n "$dialog" ] || { echo "Ctrl+D opened no Save View dialog" >&2; exit 1; }
xdotool windowfocus --sync "$dialog"
xdotool key Return
wait_file "$tmp/demo.cpel.cpelviews" 'View 1' || { echo "Save View wrote no sidecar" >&2; exit 1; }
quit

# 2. Open at that view.
start --view "View 1" "$tmp/demo.cpel"
export_to "$tmp/at-view.png"
quit

# 3. x steps to it.
start "$tmp/demo.cpel"
xdotool key x
export_to "$tmp/stepped.png"
quit

# 4. The whole capture.
start "$tmp/demo.cpel"
export_to "$tmp/plain.png"
quit

cmp -s "$tmp/at-view.png" "$tmp/stepped.png" || { echo "--view and x show different views" >&2; exit 1; }
if cmp -s "$tmp/at-view.png" "$tmp/plain.png"; then
  echo "--view showed the whole capture" >&2; exit 1
fi
echo "--view: ok"
