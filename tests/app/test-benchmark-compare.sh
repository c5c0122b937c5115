#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `cpelview --benchmark A --compare B` (and `--benchmark --compare A B`):
# the compare view's script runs to the end and its JSON names both
# captures with their event counts and one frame per step; an unreadable B
# ends it with exit status 0 but no JSON and a message naming the second
# file.  Exit 77 = skipped.
set -euo pipefail

cpelview=$1
cli=${CPEL_CLI:?CPEL_CLI is not set}

if [ -z "${DISPLAY:-}" ] || ! command -v python3 >/dev/null; then
  echo "no X display or no python3: skipped"
  exit 77
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$cli" gen --events 20000 --tracks 8 --seed 1 --force "$tmp/a.cpel" >/dev/null
"$cli" gen --events 30000 --tracks 5 --seed 2 --force "$tmp/b.cpel" >/dev/null
printf 'not an event log at all' > "$tmp/bad.cpel"

check () {   # json: mode compare, A and B as generated, the compare steps
  python3 - "$1" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["mode"] == "compare", j["mode"]
assert j["file"].endswith("/a.cpel") and j["events"] == 20000 and j["tracks"] == 8, j
assert j["file_b"].endswith("/b.cpel") and j["events_b"] == 30000 and j["tracks_b"] == 5, j
steps = [f["step"] for f in j["frames"]]
assert steps[0] == "fit", steps
assert steps.count("zoom-in") == 20 and steps.count("pan") == 16, steps
assert steps.count("zoom-out") >= 1 and "search-next" not in steps, steps
assert all(f["paint_ms"] > 0 and f["snapshot_ms"] > 0 for f in j["frames"]), j["frames"]
assert j["summary"]["frames"] == len(steps)
PY
}

timeout 300 "$cpelview" --benchmark "$tmp/a.cpel" --compare "$tmp/b.cpel" > "$tmp/1.json"
check "$tmp/1.json"
timeout 300 "$cpelview" --benchmark --compare "$tmp/a.cpel" "$tmp/b.cpel" > "$tmp/2.json"
check "$tmp/2.json"

# the single view is unchanged
timeout 300 "$cpelview" --benchmark "$tmp/a.cpel" > "$tmp/3.json"
python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); assert j["mode"] == "single" and "file_b" not in j and any(f["step"] == "search-next" for f in j["frames"])' "$tmp/3.json"

# B unreadable: no JSON, a message, the process ends
timeout 300 "$cpelview" --benchmark "$tmp/a.cpel" --compare "$tmp/bad.cpel" > "$tmp/4.json" 2> "$tmp/4.err" || true
[ ! -s "$tmp/4.json" ] || { echo "JSON printed for an unreadable B"; exit 1; }
grep -q "second file could not be loaded" "$tmp/4.err" || { cat "$tmp/4.err"; exit 1; }

# a B without A: usage, status 2
status=0
"$cpelview" --benchmark "$tmp/a.cpel" --compare > /dev/null 2> "$tmp/5.err" || status=$?
[ "$status" -eq 2 ] || { echo "status $status without B"; exit 1; }
echo ok
