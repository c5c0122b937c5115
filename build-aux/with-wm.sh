#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs a command on the X display in $DISPLAY under a window manager
# (openbox), as on a desktop: the GUI tests run like this inside xvfb-run.
# Usage: xvfb-run -a -s "-screen 0 1280x800x24" build-aux/with-wm.sh COMMAND [ARGS...]
# Starts openbox, waits until it has taken the screen (the root window's
# _NET_SUPPORTING_WM_CHECK is set: an event, no fixed delay), runs the
# command, stops openbox; exits with the command's status.
set -euo pipefail

if [ -z "${DISPLAY:-}" ]; then
  echo "with-wm.sh: no DISPLAY" >&2
  exit 1
fi

openbox --sm-disable >/dev/null 2>&1 &
wm=$!
trap 'kill "$wm" 2>/dev/null || true; wait "$wm" 2>/dev/null || true' EXIT

# xprop -spy prints the root window's properties now and after each
# change (asked for one property that is not there yet, it would exit).
exec 3< <(exec xprop -root -spy 2>&1)
spy=$!
ready=0
while IFS= read -r -t 60 line <&3; do
  case "$line" in
    _NET_SUPPORTING_WM_CHECK*"window id"*) ready=1; break ;;
  esac
done
kill "$spy" 2>/dev/null || true
exec 3<&-
if [ "$ready" -ne 1 ]; then
  echo "with-wm.sh: openbox did not take the screen" >&2
  exit 1
fi

status=0
"$@" || status=$?
exit "$status"
