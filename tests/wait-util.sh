# SPDX-License-Identifier: Apache-2.0
# wait-util.sh — waits on conditions for the shell tests (bash; sourced).
#
# Never a fixed sleep: each wait ends when its condition holds — a window
# appears, the window has been laid out at a size, a file appears, a process
# ends — and fails after a generous bound (WAIT_SECONDS, default 60).

WAIT_SECONDS=${WAIT_SECONDS:-60}

# wait_line PATTERN CMD...: runs CMD, which prints a line whenever what it
# watches changes, until a line contains PATTERN (then CMD is ended).
wait_line () {
  local pattern=$1 line watcher fd rc=1
  shift
  exec {fd}< <(exec timeout "$WAIT_SECONDS" "$@" 2>/dev/null)
  watcher=$!
  while IFS= read -r -u "$fd" line || [ -n "$line" ]; do
    case $line in
      *"$pattern"*) rc=0; break ;;
    esac
  done
  kill "$watcher" 2>/dev/null || true
  exec {fd}<&-
  return $rc
}

# wait_window ARGS...: the id of the first visible window that matches
# all of `xdotool search ARGS`, once there is one; nothing after the bound
# (the caller says what did not appear).  xdotool exits on an X error — a
# window of another test destroyed while the search reads its properties
# (BadWindow, Xlib's default handler) — with nothing found: searched again
# until the bound.
wait_window () {
  local end=$((SECONDS + WAIT_SECONDS)) wid=
  while [ -z "$wid" ] && [ "$SECONDS" -lt "$end" ]; do
    wid=$({ timeout "$((end - SECONDS))" xdotool search --sync --all --onlyvisible "$@" 2>/dev/null \
            | head -n 1; } || true)
    # an X error returns at once: not a busy loop meanwhile
    [ -n "$wid" ] || sleep 0.1
  done
  [ -n "$wid" ] && echo "$wid"
  return 0
}

# wait_laid_out WID WIDTH HEIGHT (xprop, Debian's x11-utils): returns once
# the GTK window has been allocated at WIDTH x HEIGHT (GTK sets its opaque
# region when it allocates the window, in the frame's layout phase, before
# that frame's paint).  The size comes from the app itself — its saved
# window size — never from resizing the X window from outside: GTK 4.8 on
# X11 without a window manager can keep its own pending size over a resize
# it did not ask for, and then reports nothing.
wait_laid_out () {
  wait_line "= 0, 0, $2, $3" xprop -spy -id "$1" _NET_WM_OPAQUE_REGION
}

# wait_file PATH [PATTERN]: PATH exists and has a line with PATTERN (any
# line by default); files written by rename appear whole.
wait_file () {
  wait_line "${2:-}" tail -n +1 -F "$1"
}

# wait_exit PID: the process has ended (not necessarily a child).
wait_exit () {
  timeout "$WAIT_SECONDS" tail --pid="$1" -s 0.1 -f /dev/null
  ! kill -0 "$1" 2>/dev/null
}
