#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The repository stands on its own: no tracked file refers to the folder
# `shared` beside the checkout (by its relative path, a meson path built from
# the parent folder and that name, or the old environment variable) or to an issue number
# of a tracker the repository does not carry (a hash and a number, "issue"
# and a number).  Not scanned: the recorded fixtures in tests/fixtures (data)
# and .ci/run, which hides that folder from the suite.  Prints what it finds;
# exit status 1 when it finds anything.
#
# Usage: build-aux/check-self-contained.sh
set -euo pipefail
cd "$(dirname "$0")/.."

# (the patterns are written so that this file does not match them)
dots='\.\.'
name=sha''red
patterns=(
  -e "$dots/$name"
  -e "'$dots' */ *'$name'"
  -e 'CPEL_SHARED''_DIR'
  -e '(^|[^&])#[1-9][0-9]{1,2}\b'
  -e '\b[Ii]ssues? #?[0-9]+'
)

# the tracked files; in a copy without .git (.ci/run makes one), every file
# but build output
list_files () {
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1 &&
     [ "$(git rev-parse --show-toplevel)" = "$PWD" ]; then
    git ls-files -z -- . ':(exclude)tests/fixtures/**' ':(exclude).ci/run'
  else
    find . \( -path ./.git -o -path './_build*' -o -path ./build -o -path ./builddir \
              -o -path ./tests/fixtures -o -path ./.ci/run \) -prune -o -type f -print0
  fi
}

found=$(list_files | xargs -0 grep -nIE "${patterns[@]}" -- || true)
if [ -n "$found" ]; then
  echo "$found"
  echo "check-self-contained: the lines above refer to the folder beside the checkout" \
       "or to an issue number: point them at tests/fixtures or doc/, or say the thing itself" >&2
  exit 1
fi
echo "check-self-contained: no reference to a folder beside the checkout or to an issue"
