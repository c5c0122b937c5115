#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The build without the optional importers: -Dctf=disabled -Dperf=disabled,
# with pkg-config unable to see libbabeltrace2, libtraceevent and libelf (a
# folder of links to every other .pc file), as on a machine without them.
# Checks that no compile or link command names those libraries (nor
# libiberty; libzstd stays: compressed captures use it), then runs the
# suites that need no display.
# Usage: build-aux/test-minimal.sh   (BUILDDIR: default _build-min; build it
#                                     through this script only: a plain
#                                     `meson compile` may reconfigure it
#                                     with the libraries visible)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$(dirname "$here")"
builddir=${BUILDDIR:-_build-min}

pcdir=$(mktemp -d)
trap 'rm -rf "$pcdir"' EXIT
for dir in $(pkg-config --variable pc_path pkg-config | tr ':' ' '); do
  for pc in "$dir"/*.pc; do
    [ -e "$pc" ] || continue
    case $(basename "$pc") in
      babeltrace2*.pc | libtraceevent.pc | libelf.pc | libdw.pc) continue ;;
    esac
    [ -e "$pcdir/$(basename "$pc")" ] || ln -s "$pc" "$pcdir/"
  done
done
export PKG_CONFIG_LIBDIR=$pcdir

opts=(-Dctf=disabled -Dperf=disabled)
if [ -d "$builddir/meson-private" ]; then
  meson setup --reconfigure "$builddir" "${opts[@]}" >/dev/null
else
  meson setup "$builddir" "${opts[@]}" >/dev/null
fi
meson compile -C "$builddir"
if ninja -C "$builddir" -t commands | grep -E 'babeltrace|traceevent|-lelf|iberty'; then
  echo "test-minimal: a command above names a library of a disabled importer" >&2
  exit 1
fi
meson test -C "$builddir" --print-errorlogs --num-processes 2 \
  --suite core --suite model --suite render --suite cli --suite fuzz
