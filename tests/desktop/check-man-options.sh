#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# check-man-options.sh — the man pages document what the programs offer:
# every command that `cpel --help` lists has its own section in cpel.1, and
# every long option of `cpel COMMAND --help` and `cpelview --help` appears in
# the page.  Runs the programs in the C locale.
#
# usage: check-man-options.sh cpel CPEL MAN_PAGE
#        check-man-options.sh cpelview CPELVIEW MAN_PAGE
set -u
[ $# -eq 3 ] || { echo "usage: $0 cpel|cpelview PROGRAM MAN_PAGE" >&2; exit 2; }
kind=$1 prog=$2 page=$3
export LC_ALL=C.UTF-8 LANGUAGE=C
unset DISPLAY WAYLAND_DISPLAY
fail=0

# long options of a --help text, without the help options themselves
long_options () {
  grep -oE '^ +(-[A-Za-z], )?--[a-z][a-z0-9-]*' | sed -E 's/.*--//' |
    grep -vE '^help(-all|-gapplication)?$' | LC_ALL=C sort -u
}

check_options () {   # $1: what, stdin: --help text
  for opt in $(long_options); do
    # roff writes a hyphen as \- (or plain -): compare without the escapes
    if sed 's/\\-/-/g' "$page" | grep -qE -- "--$opt([^a-z0-9-]|\$)"; then
      echo "ok: $1 --$opt"
    else
      echo "not ok: $1 --$opt is not in $(basename "$page")"
      fail=1
    fi
  done
}

case $kind in
  cpel)
    help=$("$prog" --help) || { echo "cpel --help failed"; exit 1; }
    commands=$(printf '%s\n' "$help" |
      sed -n '/^Commands:/,/^$/p' | sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p')
    [ -n "$commands" ] || { echo "no commands in cpel --help"; exit 1; }
    for cmd in $commands; do
      if grep -q "^\\.SS \"cpel $cmd " "$page"; then
        echo "ok: section for cpel $cmd"
      else
        echo "not ok: cpel $cmd has no section in $(basename "$page")"
        fail=1
      fi
      "$prog" "$cmd" --help >"${TMPDIR:-/tmp}/cpel-man-$$" 2>&1 ||
        { echo "not ok: cpel $cmd --help failed"; fail=1; }
      check_options "cpel $cmd" <"${TMPDIR:-/tmp}/cpel-man-$$"
      rm -f "${TMPDIR:-/tmp}/cpel-man-$$"
    done
    ;;
  cpelview)
    help=$("$prog" --help) || { echo "cpelview --help failed"; exit 1; }
    printf '%s\n' "$help" | check_options cpelview
    ;;
  *)
    echo "unknown kind $kind" >&2; exit 2 ;;
esac
exit $fail
