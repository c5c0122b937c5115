#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what is missing, builds, and opens FILE (or the bundled demo capture).
# Usage: build-aux/run.sh [FILE]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
file=${1:+$(realpath "$1")}
cd "$top"
. "$here/deps.sh"
cpel_install_deps

builddir=${BUILDDIR:-_build}
[ -d "$builddir" ] || meson setup "$builddir"
meson compile -C "$builddir"

if [ -z "$file" ]; then
  file="$builddir/demo.cpel"
  [ -f "$file" ] || "$builddir/src/cli/cpel" gen --demo --force "$file"
fi
if [ -x "$builddir/src/app/cpelview" ]; then
  # uninstalled run: use the schema compiled in the build tree
  export GSETTINGS_SCHEMA_DIR="$(cd "$builddir" && pwd)/data"
  exec "$builddir/src/app/cpelview" "$file"
fi
"$builddir/src/cli/cpel" info "$file"
"$builddir/src/cli/cpel" dump "$file" | head -20
