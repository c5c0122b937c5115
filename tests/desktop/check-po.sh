#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# check-po.sh — translation checks
#   check     LANG's catalogue compiles cleanly (msgfmt --check)
#   complete  merged with what xgettext extracts from po/POTFILES.in right
#             now, LANG's catalogue has no untranslated or fuzzy message
#   extract   xgettext extracts po/POTFILES.in without a warning (a warning
#             means a string that cannot be translated as written, e.g. a
#             G_GUINT64_FORMAT macro inside _(): use "%" PRIu64 instead)
#
# usage: check-po.sh check|complete|extract SOURCE_ROOT LANG
set -u
[ $# -eq 3 ] || { echo "usage: $0 check|complete|extract SOURCE_ROOT LANG" >&2; exit 2; }
mode=$1 top=$2 lang=$3
po=$top/po/$lang.po

case $mode in
  check)
    msgfmt --check --check-accelerators=_ --verbose -o /dev/null "$po"
    exit $?
    ;;
  complete|extract)
    ;;
  *)
    echo "unknown mode $mode" >&2; exit 2 ;;
esac

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cpel-po-XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM

# the same keywords as meson's i18n 'glib' preset (po/meson.build)
grep -v '^#' "$top/po/POTFILES.in" | grep . >"$tmp/files"
(cd "$top" && xgettext --from-code=UTF-8 --add-comments \
    --keyword=_ --keyword=N_ --keyword=C_:1c,2 --keyword=NC_:1c,2 \
    --keyword=g_dcgettext:2 --keyword=g_dngettext:2,3 --keyword=g_dpgettext2:2c,3 \
    --flag=N_:1:pass-c-format --flag=C_:2:pass-c-format --flag=NC_:2:pass-c-format \
    --flag=g_dngettext:2:pass-c-format --flag=g_strdup_printf:1:c-format \
    --flag=g_string_printf:2:c-format --flag=g_string_append_printf:2:c-format \
    --flag=g_error_new:3:c-format --flag=g_set_error:4:c-format \
    --flag=g_markup_printf_escaped:1:c-format --flag=g_log:3:c-format \
    --flag=g_print:1:c-format --flag=g_printerr:1:c-format \
    --flag=g_printf:1:c-format --flag=g_fprintf:2:c-format \
    --flag=g_sprintf:2:c-format --flag=g_snprintf:3:c-format \
    -f "$tmp/files" -o "$tmp/all.pot") 2>"$tmp/xgettext.log" || {
  cat "$tmp/xgettext.log"; echo "xgettext failed"; exit 1; }

if [ "$mode" = extract ]; then
  bad=0
  if [ -s "$tmp/xgettext.log" ]; then
    cat "$tmp/xgettext.log"
    echo "xgettext warns: these strings cannot be translated as written"
    bad=1
  fi
  # A macro such as G_GUINT64_FORMAT inside _() cuts the msgid short at its
  # "%" (xgettext cannot expand it), even where no warning is given.
  msgcat --no-wrap "$tmp/all.pot" >"$tmp/nowrap.pot" || exit 1
  awk '/^#: / { ref = substr($0, 4) }
       /^msgid(_plural)? "(.*[^%])?%[-+ #0'"'"']*"$/ { print "cut short: " ref ": " $0 }' \
    "$tmp/nowrap.pot" >"$tmp/cut"
  if [ -s "$tmp/cut" ]; then
    cat "$tmp/cut"
    echo "these msgids end in a bare %: write \"%\" PRIu64 (or %zu, %llu with a cast) instead of G_*_FORMAT in translatable strings"
    bad=1
  fi
  [ $bad -eq 0 ] || exit 1
  echo "$(grep -c '^msgid ' "$tmp/all.pot") messages extracted without warnings"
  exit 0
fi

msgmerge --quiet --no-fuzzy-matching -o "$tmp/merged.po" "$po" "$tmp/all.pot" || exit 1
msgfmt --check -o /dev/null "$tmp/merged.po" || exit 1
untranslated=$(msgattrib --untranslated --no-obsolete "$tmp/merged.po" | grep -c '^msgid ' || true)
fuzzy=$(msgattrib --only-fuzzy --no-obsolete "$tmp/merged.po" | grep -c '^msgid ' || true)
total=$(msgattrib --no-obsolete "$tmp/merged.po" | grep -c '^msgid ' || true)
# each non-empty msgattrib output starts with the header entry (msgid "")
[ "$untranslated" -gt 0 ] && untranslated=$((untranslated - 1))
[ "$fuzzy" -gt 0 ] && fuzzy=$((fuzzy - 1))
total=$((total - 1))
echo "$lang: $total messages, $untranslated untranslated, $fuzzy fuzzy"
if [ "$untranslated" -ne 0 ] || [ "$fuzzy" -ne 0 ]; then
  msgattrib --untranslated --no-obsolete "$tmp/merged.po" | grep -A1 '^msgid ' | head -n 60
  msgattrib --only-fuzzy --no-obsolete "$tmp/merged.po" | grep -A1 '^msgid ' | head -n 60
  echo "run: meson compile -C BUILDDIR cpelview-update-po, then translate po/$lang.po"
  exit 1
fi
exit 0
