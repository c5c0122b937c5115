#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what is missing, builds, and runs every test (GUI tests under xvfb-run,
# with a window manager: build-aux/with-wm.sh).
# Usage: build-aux/test.sh            (exit status non-zero on any failure)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
cd "$top"
# fail fast: the repository must not lean on anything beside it
"$here/check-self-contained.sh"
. "$here/deps.sh"
cpel_install_deps xvfb xauth openbox xdotool x11-utils imagemagick clang libclang-rt-14-dev \
  linux-perf babeltrace2 lttng-tools liblttng-ust-dev

builddir=${BUILDDIR:-_build}
if [ -d "$builddir/meson-private" ]; then
  meson setup --reconfigure "$builddir" >/dev/null
else
  meson setup "$builddir"
fi
meson compile -C "$builddir"

export GDK_BACKEND=x11 GSK_RENDERER=cairo GTK_A11Y=none GSETTINGS_BACKEND=memory
export NO_AT_BRIDGE=1
xvfb-run -a -s "-screen 0 1280x800x24" "$here/with-wm.sh" \
  meson test -C "$builddir" --print-errorlogs --num-processes 2
