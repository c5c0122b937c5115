#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# test-source-header-language.sh — an imported file's source header labels
# are stored untranslated and shown in the reader's language: `cpel convert`
# of a VPP elog run in German, then `cpel info` of the CPEL written reads
# "Ring size" in English and (with LANGUAGE=de) the German label from de.po.
#
# usage: test-source-header-language.sh CPEL BUILD_PO_DIR SHIM_LIBRARY ELOG
# Fails without the fixture; exit 77 (skip) without gettext(1).
set -u
[ $# -eq 4 ] || { echo "usage: $0 CPEL BUILD_PO_DIR SHIM ELOG" >&2; exit 2; }
cpel=$1 podir=$2 shim=$3 elog=$4

[ -f "$elog" ] || { echo "not ok: fixture $elog is missing"; exit 1; }
[ -f "$podir/de/LC_MESSAGES/cpelview.mo" ] || { echo "no German catalogue in $podir"; exit 1; }
command -v gettext >/dev/null || { echo "gettext(1) missing: skip"; exit 77; }

export LANG=C.UTF-8 LC_ALL= LC_MESSAGES=
export CPEL_TEST_LOCALEDIR=$podir
export LD_PRELOAD=$shim${LD_PRELOAD:+ $LD_PRELOAD}

label_en="Ring size"
label_de=$(LANGUAGE=de TEXTDOMAINDIR=$podir gettext cpelview "$label_en")
[ "$label_de" != "$label_en" ] || { echo "not ok: de.po does not translate \"$label_en\""; exit 1; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/cpel-header-lang-XXXXXX")
trap 'rm -rf "$dir"' EXIT
LANGUAGE=de "$cpel" convert "$elog" "$dir/out.cpel" >/dev/null || { echo "not ok: convert failed"; exit 1; }

fail=0
en=$(LANGUAGE=C "$cpel" info "$dir/out.cpel")
case "$en" in
  *"  $label_en: "*) echo "ok: English info shows \"$label_en\"" ;;
  *) echo "not ok: English info of a file converted in German lacks \"$label_en\":"; echo "$en"; fail=1 ;;
esac
de=$(LANGUAGE=de "$cpel" info "$dir/out.cpel")
case "$de" in
  *"  $label_de: "*) echo "ok: German info shows \"$label_de\"" ;;
  *) echo "not ok: German info lacks \"$label_de\":"; echo "$de"; fail=1 ;;
esac
exit $fail
