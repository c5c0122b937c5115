#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# cpelview without a session bus (DBUS_SESSION_BUS_ADDRESS names no socket)
# and with accessibility on (GTK_A11Y unset): it runs quietly — no
# "Unable to acquire session bus" warning, no GLib-GIO CRITICAL (fatal
# here: G_DEBUG=fatal-criticals).  With dbus-daemon installed, also with an
# accessibility bus that is reachable (AT_SPI_BUS_ADDRESS) while the session
# bus is not: the case that made every accessibility event a CRITICAL.
# Exit 77 = skipped.
set -euo pipefail

cpelview=$1
cli=${CPEL_CLI:?CPEL_CLI is not set}

if [ -z "${DISPLAY:-}" ]; then
  echo "no X display: skipped"
  exit 77
fi

tmp=$(mktemp -d)
bus_pid=
cleanup () {
  if [ -n "$bus_pid" ]; then kill "$bus_pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

"$cli" gen --events 2000 --tracks 4 --seed 3 --force "$tmp/a.cpel" >/dev/null

run () {   # name, extra environment…
  local name=$1 status=0
  shift
  env -u GTK_A11Y -u NO_AT_BRIDGE DBUS_SESSION_BUS_ADDRESS=unix:path="$tmp/no-such-bus" \
      G_DEBUG=fatal-criticals "$@" \
      timeout 300 "$cpelview" --benchmark "$tmp/a.cpel" > "$tmp/$name.json" 2> "$tmp/$name.err" \
    || status=$?
  if [ "$status" -ne 0 ] || grep -E "CRITICAL|session bus|WARNING" "$tmp/$name.err"; then
    echo "$name: exit status $status; stderr:"
    cat "$tmp/$name.err"
    exit 1
  fi
  [ -s "$tmp/$name.json" ] || { echo "$name: no benchmark JSON"; exit 1; }
}

run no-bus

if command -v dbus-daemon >/dev/null; then
  dbus-daemon --session --fork --print-address=1 --print-pid=1 > "$tmp/bus" 2>/dev/null
  address=$(sed -n 1p "$tmp/bus")
  bus_pid=$(sed -n 2p "$tmp/bus")
  run a11y-bus-only AT_SPI_BUS_ADDRESS="$address"
else
  echo "# dbus-daemon not installed: the accessibility-bus case is not run"
fi
echo ok
