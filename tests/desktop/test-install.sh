#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# test-install.sh — `meson install --destdir` into a scratch directory, then
# checks that every file of the desktop integration is there, and that the
# installed files agree with each other (binary, icon, launchable, schema).
#
# usage: test-install.sh MESON BUILD_ROOT PREFIX APP_ID RELPATH...
#   RELPATH: files that must be installed, relative to PREFIX
set -u
[ $# -ge 4 ] || { echo "usage: $0 MESON BUILD_ROOT PREFIX APP_ID RELPATH..." >&2; exit 2; }
meson=$1 build_root=$2 prefix=$3 app_id=$4
shift 4

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cpel-install-XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
dest=$tmp/root
root=$dest$prefix
fail=0
bad () { echo "not ok: $*"; fail=1; }

# Without --no-rebuild: `meson test` builds only what the tests need, and
# this test runs alone (is_parallel: false), so building here is safe.
if ! "$meson" install -C "$build_root" --destdir "$dest" >"$tmp/install.log" 2>&1; then
  cat "$tmp/install.log"
  echo "Bail out! meson install failed"
  exit 1
fi

echo "# installed files:"
(cd "$dest" && find . \( -type f -o -type l \) | LC_ALL=C sort | sed 's/^/#   /')

for rel in "$@"; do
  if [ -f "$root/$rel" ] && [ -s "$root/$rel" ]; then
    echo "ok: $rel"
  else
    bad "$rel missing or empty"
  fi
done

# nothing outside the prefix
outside=$(cd "$dest" && find . -type f | grep -v "^\.$prefix/" || true)
[ -z "$outside" ] || bad "installed outside $prefix: $outside"

# DESTDIR install: the post-install cache updates must be skipped
for cache in share/glib-2.0/schemas/gschemas.compiled share/mime/mime.cache \
             share/icons/hicolor/icon-theme.cache share/applications/mimeinfo.cache; do
  [ ! -e "$root/$cache" ] || bad "$cache generated in a DESTDIR install"
done

desktop=$(find "$root" -name "$app_id.desktop" | head -n 1)
if [ -n "$desktop" ]; then
  exec_bin=$(sed -n 's/^Exec=\([^ ]*\).*/\1/p' "$desktop" | head -n 1)
  icon=$(sed -n 's/^Icon=//p' "$desktop" | head -n 1)
  [ -n "$exec_bin" ] && find "$root" -path "*/bin/$exec_bin" -type f -perm -u+x | grep -q . ||
    bad "Exec=$exec_bin is not an installed executable"
  [ "$icon" = "$app_id" ] || bad "Icon=$icon is not the app id"
  find "$root" -path "*/icons/hicolor/scalable/apps/$icon.svg" | grep -q . ||
    bad "no scalable icon named $icon"
  grep -q '^MimeType=.*application/x-cpel;' "$desktop" || bad "desktop file lacks application/x-cpel"
  grep -q '^MimeType=.*application/x-vpp-elog;' "$desktop" || bad "desktop file lacks application/x-vpp-elog"
  grep -q '^MimeType=.*application/x-snabb-timeline;' "$desktop" || bad "desktop file lacks application/x-snabb-timeline"
fi

metainfo=$(find "$root" -name "$app_id.metainfo.xml" | head -n 1)
if [ -n "$metainfo" ]; then
  grep -q "<launchable type=\"desktop-id\">$app_id.desktop</launchable>" "$metainfo" ||
    bad "metainfo launchable is not $app_id.desktop"
  grep -q "<id>$app_id</id>" "$metainfo" || bad "metainfo id is not $app_id"
fi

schema=$(find "$root" -name "$app_id.gschema.xml" | head -n 1)
if [ -n "$schema" ] && command -v glib-compile-schemas >/dev/null; then
  glib-compile-schemas --strict --dry-run "$(dirname "$schema")" || bad "installed schema does not compile"
fi

mo=$(find "$root" -path '*/de/LC_MESSAGES/*.mo' | head -n 1)
if [ -n "$mo" ] && command -v msgunfmt >/dev/null; then
  n=$(msgunfmt "$mo" | grep -c '^msgid ' || true)
  [ "$n" -gt 10 ] || bad "German catalogue holds only $n messages"
fi

[ $fail -eq 0 ] && echo "all installed files present"
exit $fail
