#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `cpelview --rules FILE`: a bad rules file is an error naming its line and
# column (exit 2, nothing opened); a good one adds its spans to what the
# viewer draws (the headless export differs from the one without it).
set -euo pipefail

cpelview=$1
cli=${CPEL_CLI:?CPEL_CLI is not set}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$cli" gen --demo --force "$tmp/demo.cpel" >/dev/null
printf '# ok\nspan x begin nope end event=b\n' > "$tmp/bad.rules"
printf 'span burst begin event=dispatch end event=vectors\n' > "$tmp/good.rules"

status=0
"$cpelview" --rules "$tmp/bad.rules" "$tmp/demo.cpel" 2> "$tmp/err" || status=$?
if [ "$status" -ne 2 ] || ! grep -q "bad.rules:2:14: " "$tmp/err"; then
  echo "not ok: a bad rules file: exit $status, stderr:"; cat "$tmp/err"
  exit 1
fi
echo "ok: a bad rules file is refused with its line and column"

"$cpelview" --export-png "$tmp/plain.png" --width 800 "$tmp/demo.cpel"
"$cpelview" --rules "$tmp/good.rules" --export-png "$tmp/rules.png" --width 800 "$tmp/demo.cpel"
if cmp -s "$tmp/plain.png" "$tmp/rules.png"; then
  echo "not ok: the rules file's spans are not drawn"
  exit 1
fi
echo "ok: the rules file's spans are drawn"
