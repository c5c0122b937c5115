#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every skip in a meson test log has a documented reason: a test may skip for
# the machine it runs on (no display, not root, a tool missing), never for a
# file the repository should hold.  The allowed reasons are the first column
# of the "Skips" table in tests/fixtures/README.md; a skip is allowed when its
# reason starts with one of them.
#
# Reads GLib TAP skips (`ok N /path # SKIP reason`, `1..0 # SKIP reason`)
# and whole tests that exited 77 (their first line of output is the reason).
# Prints every skip; exit status 1 when one is not documented.
#
# Usage: build-aux/check-skips.sh TESTLOG...
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
readme=$top/tests/fixtures/README.md

mapfile -t allowed < <(awk '
  /^## / { in_skips = ($0 == "## Skips") ; next }
  in_skips && /^\| `/ { s = $0; sub(/^\| `/, "", s); sub(/`.*/, "", s); print s }' "$readme")
[ "${#allowed[@]}" -gt 0 ] || { echo "check-skips: no Skips table in $readme" >&2; exit 2; }

skips=$(awk '
  /^test: / { name = $0; sub(/^test: +/, "", name); status77 = 0; want = 0; next }
  /^result: +exit status 77$/ { status77 = 1; next }
  /^-+ stdout -+$/ { want = status77; next }
  want && NF { print name ": " $0; want = 0; next }
  /^(not )?ok [0-9]+ .* # [Ss][Kk][Ii][Pp]( |$)/ {
    line = $0; path = $3
    sub(/.* # [Ss][Kk][Ii][Pp] ?/, "", line)
    print name " " path ": " line; next
  }
  /^1\.\.0 # [Ss][Kk][Ii][Pp]/ {
    line = $0; sub(/^1\.\.0 # [Ss][Kk][Ii][Pp] ?/, "", line)
    print name ": " line
  }' "$@")

bad=0 n=0
while IFS= read -r skip; do
  [ -n "$skip" ] || continue
  n=$((n + 1))
  reason=${skip#*: }
  ok=0
  for a in "${allowed[@]}"; do
    case $reason in "$a"*) ok=1; break ;; esac
  done
  if [ "$ok" -eq 1 ]; then
    echo "skip (documented): $skip"
  else
    echo "SKIP NOT DOCUMENTED: $skip"
    bad=$((bad + 1))
  fi
done <<<"$skips"

echo "$n skips, $bad not documented (tests/fixtures/README.md, section Skips)"
[ "$bad" -eq 0 ]
