#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make-out-of-order.sh — swap two event records 6000 places apart in the
# first event section of FILE that has more than 7000 events, in place.
#
# usage: make-out-of-order.sh CPEL FILE
#
# `cpel gen`'s usual files have only neighbours swapped: the CLI streams
# them through its reorder window (4096 records).  The benchmarks that
# measure the index build (or compare with it) need a file only the index
# reads in time order: this makes one from a `cpel gen` file.
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 CPEL FILE" >&2
  exit 2
fi
cpel=$1 file=$2
# `cpel info`'s section table: "#  offset  type  length  count ..." with the
# type "events" for event sections
offset=$("$cpel" info --no-cache "$file" | awk '$3 == "events" && $5 > 7000 { print $2; exit }')
if [ -z "$offset" ]; then
  echo "$0: $file has no event section of more than 7000 events" >&2
  exit 1
fi
a=$(( offset + 8 + 72 + 100 * 20 ))   # section header, name, count and clock
b=$(( a + 6000 * 20 ))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dd if="$file" of="$tmp/a" bs=1 skip="$a" count=20 status=none
dd if="$file" of="$tmp/b" bs=1 skip="$b" count=20 status=none
dd if="$tmp/a" of="$file" bs=1 seek="$b" conv=notrunc status=none
dd if="$tmp/b" of="$file" bs=1 seek="$a" conv=notrunc status=none
