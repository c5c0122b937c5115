#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `cpelview --follow SOURCE`: a source that cannot be read is said on
# stderr, with its name, and the status is 1 (no window stays open).
set -euo pipefail

cpelview=$1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for source in "$tmp/missing.timeline" "snabb:abc" "snabb:999999999"; do
  status=0
  SNABB_SHM_ROOT="$tmp" "$cpelview" --follow "$source" 2> "$tmp/err" || status=$?
  if [ "$status" -ne 1 ] || ! grep -qF "cpelview: $source: " "$tmp/err"; then
    echo "not ok: --follow $source: exit $status, stderr:"; cat "$tmp/err"
    exit 1
  fi
  echo "ok: --follow $source is refused: $(cat "$tmp/err")"
done
