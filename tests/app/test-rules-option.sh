#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `cpelview --rules FILE`, headless (no display needed):
#   1. a rules file with an error: exit status 2, the error with its line;
#   2. good rules: the exported picture shows their spans (it differs from
#      the one without them); the same export twice is the same picture.
set -euo pipefail

cpelview=$1
fixture=${CPEL_FIXTURES_DIR:?CPEL_FIXTURES_DIR is not set}/spans/vpp-dispatch.elog
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

printf 'span lookup begin event=ip4-lookup-call end event=ip4-lookup-return\nspan bad begin\n' \
  > "$tmp/bad.rules"
status=0
"$cpelview" --rules "$tmp/bad.rules" --export-png "$tmp/bad.png" "$fixture" 2> "$tmp/err" \
  || status=$?
if [ "$status" -ne 2 ]; then
  echo "bad rules: exit status $status, not 2"; exit 1
fi
if ! grep -q "bad.rules:2:" "$tmp/err"; then
  echo "bad rules: no line in the error:"; cat "$tmp/err"; exit 1
fi
if [ -e "$tmp/bad.png" ]; then
  echo "bad rules: an image was written"; exit 1
fi

# a span over each dispatch from ip4-input-no-checksum to ip4-rewrite: a
# second lane under the built-in spans
printf 'span path begin event=ip4-input-no-checksum-call end event=ip4-rewrite-return\n' \
  > "$tmp/good.rules"
args=(--from 0 --to 10us --width 800)
"$cpelview" --export-png "$tmp/plain.png" "${args[@]}" "$fixture"
"$cpelview" --rules "$tmp/good.rules" --export-png "$tmp/rules.png" "${args[@]}" "$fixture"
"$cpelview" --rules "$tmp/good.rules" --export-png "$tmp/rules2.png" "${args[@]}" "$fixture"
if cmp -s "$tmp/plain.png" "$tmp/rules.png"; then
  echo "the rules' spans are not drawn"; exit 1
fi
if ! cmp -s "$tmp/rules.png" "$tmp/rules2.png"; then
  echo "the same export differs"; exit 1
fi
echo "ok"
