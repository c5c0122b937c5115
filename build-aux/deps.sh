#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian 12 packages the build and the tests need, when missing.
# Sourced by run.sh and test.sh.  Usage: cpel_install_deps [extra packages...]
cpel_install_deps () {
  local pkgs=(meson ninja-build pkg-config gcc libglib2.0-dev libgtk-4-dev
              libadwaita-1-dev libcairo2-dev libpango1.0-dev gettext
              desktop-file-utils appstream shared-mime-info groff-base
              libtraceevent-dev libzstd-dev libelf-dev libiberty-dev libbabeltrace2-dev libxtst-dev "$@")
  local missing=()
  local p
  for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "Installing: ${missing[*]}" >&2
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq || return 1
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" || return 1
}
