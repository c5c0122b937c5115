#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Regenerates the AppStream screenshots (main-window.png, zoomed-in.png,
# summary.png — the whole capture in summary mode, g2's e — and their
# -dark.png twins in the dark style) from a demo capture under Xvfb with a window manager (build-aux/with-wm.sh).  Needs xvfb-run,
# openbox, x11-utils, xdotool and imagemagick (import).
# usage: data/screenshots/take-screenshots.sh BUILDDIR
set -eu
[ $# -eq 1 ] || { echo "usage: $0 BUILDDIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/src/cli/cpel" gen --demo --force "$tmp/demo.cpel"

cat >"$tmp/shoot.sh" <<'EOS'
# $1 app, $2 file, $3 output, $4 zoom steps (Ctrl+wheel at the pointer),
# $5 light or dark, $6 (optional) a key to press before the shot
export ADW_DEBUG_COLOR_SCHEME=prefer-$5
export GDK_BACKEND=x11 GSK_RENDERER=cairo GTK_A11Y=none NO_AT_BRIDGE=1 \
       GSETTINGS_BACKEND=memory LANGUAGE=C
"$1" "$2" &
pid=$!
sleep 4
w=$(xdotool search --onlyvisible --name '.' | head -n 1)
xdotool windowmove "$w" 0 0
sleep 0.5
xdotool mousemove --window "$w" 600 300
i=0
while [ "$i" -lt "$4" ]; do
  xdotool keydown ctrl click 4 keyup ctrl
  sleep 0.1
  i=$((i + 1))
done
[ -z "${6:-}" ] || xdotool key --window "$w" "$6"
sleep 1
import -window "$w" "$3"
kill "$pid"
EOS
export GSETTINGS_SCHEMA_DIR="$build/data"
xvfb-run -a -s "-screen 0 1400x900x24" "$here/../../build-aux/with-wm.sh" sh "$tmp/shoot.sh" "$build/src/app/cpelview" "$tmp/demo.cpel" "$here/main-window.png" 0 light
xvfb-run -a -s "-screen 0 1400x900x24" "$here/../../build-aux/with-wm.sh" sh "$tmp/shoot.sh" "$build/src/app/cpelview" "$tmp/demo.cpel" "$here/zoomed-in.png" 14 light
xvfb-run -a -s "-screen 0 1400x900x24" "$here/../../build-aux/with-wm.sh" sh "$tmp/shoot.sh" "$build/src/app/cpelview" "$tmp/demo.cpel" "$here/main-window-dark.png" 0 dark
xvfb-run -a -s "-screen 0 1400x900x24" "$here/../../build-aux/with-wm.sh" sh "$tmp/shoot.sh" "$build/src/app/cpelview" "$tmp/demo.cpel" "$here/zoomed-in-dark.png" 14 dark
xvfb-run -a -s "-screen 0 1400x900x24" "$here/../../build-aux/with-wm.sh" sh "$tmp/shoot.sh" "$build/src/app/cpelview" "$tmp/demo.cpel" "$here/summary.png" 0 light e
xvfb-run -a -s "-screen 0 1400x900x24" "$here/../../build-aux/with-wm.sh" sh "$tmp/shoot.sh" "$build/src/app/cpelview" "$tmp/demo.cpel" "$here/summary-dark.png" 0 dark e
