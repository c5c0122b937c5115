#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# check-settings-keys.sh — every GSettings key the app reads or writes (through
# cpel_settings_*() or g_settings_*()) is declared in the schema.  The app's
# settings helpers ignore unknown keys on purpose (uninstalled runs have no
# schema), so a misspelt key would otherwise go unnoticed.
#
# usage: check-settings-keys.sh SOURCE_ROOT APP_ID
set -u
[ $# -eq 2 ] || { echo "usage: $0 SOURCE_ROOT APP_ID" >&2; exit 2; }
top=$1 app_id=$2
schema=$top/data/$app_id.gschema.xml

used=$(cat "$top"/src/app/*.c 2>/dev/null |
  grep -oE '(cpel|g)_settings_(get|set|bind|reset|get_user_value|get_default_value)[a-z_]* *\([^,;]*, *"[a-z0-9-]+"' |
  sed -E 's/.*"([a-z0-9-]+)"$/\1/' | LC_ALL=C sort -u)
if [ -z "$used" ]; then
  echo "no settings keys found in src/app: skip"
  exit 77
fi

fail=0
for key in $used; do
  if grep -q "<key name=\"$key\"" "$schema"; then
    echo "ok: $key"
  else
    echo "not ok: src/app uses \"$key\", which $app_id.gschema.xml does not declare"
    fail=1
  fi
done
exit $fail
