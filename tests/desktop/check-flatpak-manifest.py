#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the Flatpak manifest: valid JSON, the app id, command and GNOME
runtime, a sandbox without broad file system or device access, and one meson
module building this source tree.

usage: check-flatpak-manifest.py MANIFEST APP_ID SOURCE_ROOT
Runs on the Python interpreter that runs meson, so it needs nothing extra."""
import json
import os
import re
import sys

errors = []


def check(cond, msg):
    if not cond:
        errors.append(msg)


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    path, app_id, source_root = sys.argv[1:]
    try:
        with open(path, encoding='utf-8') as f:
            m = json.load(f)
    except (OSError, ValueError) as e:
        print('%s: cannot be read as JSON: %s' % (path, e), file=sys.stderr)
        return 1

    check(isinstance(m, dict), 'top level is not an object')
    if errors:
        return report(path)

    check(m.get('id', m.get('app-id')) == app_id, 'id is not %s' % app_id)
    check(os.path.basename(path) == app_id + '.json', 'file name does not match the app id')
    check(m.get('command') == 'cpelview', 'command is not cpelview')
    check(m.get('runtime') == 'org.gnome.Platform', 'runtime is not org.gnome.Platform')
    check(m.get('sdk') == 'org.gnome.Sdk', 'sdk is not org.gnome.Sdk')
    rv = m.get('runtime-version')
    check(isinstance(rv, str) and re.fullmatch(r'\d+', rv) is not None and int(rv) >= 45,
          'runtime-version %r is not a GNOME release number >= 45' % (rv,))

    fa = m.get('finish-args')
    check(isinstance(fa, list) and all(isinstance(a, str) for a in fa),
          'finish-args is not a list of strings')
    fa = fa if isinstance(fa, list) else []
    for needed in ('--share=ipc', '--socket=wayland', '--socket=fallback-x11', '--device=dri'):
        check(needed in fa, 'finish-args lacks %s' % needed)
    for a in fa:
        if not isinstance(a, str):
            continue
        if a.startswith('--filesystem='):
            where = a.split('=', 1)[1].split(':', 1)[0]
            check(where not in ('host', 'host-os', 'host-etc', 'home', '/', '~')
                  and not where.startswith('/') and not where.startswith('~'),
                  'broad file system access %s: files come through the portal' % a)
        check(a not in ('--socket=x11', '--device=all', '--share=network',
                        '--socket=session-bus', '--socket=system-bus'),
              'unneeded sandbox hole %s' % a)
    check(len(fa) == len(set(fa)), 'duplicate finish-args')

    mods = m.get('modules')
    check(isinstance(mods, list) and len(mods) >= 1, 'no modules')
    if isinstance(mods, list) and mods and isinstance(mods[-1], dict):
        app = mods[-1]
        check(app.get('buildsystem') == 'meson', 'the last module is not built with meson')
        opts = app.get('config-opts', [])
        check('-Dbenchmarks=false' in opts, 'config-opts lack -Dbenchmarks=false')
        check('-Dgui=false' not in opts, 'config-opts turn the GUI off')
        srcs = app.get('sources', [])
        dirs = [s for s in srcs if isinstance(s, dict) and s.get('type') == 'dir']
        check(len(dirs) == 1, 'the last module needs exactly one "dir" source')
        if dirs:
            src = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(path)),
                                                dirs[0].get('path', '')))
            check(os.path.samefile(src, source_root) if os.path.isdir(src) else False,
                  'dir source %r is not the project root' % dirs[0].get('path'))
            try:
                with open(os.path.join(src, 'meson.build'), encoding='utf-8') as f:
                    check(re.search(r"project\(\s*'cpelview'", f.read()) is not None,
                          'dir source does not hold the cpelview meson project')
            except OSError:
                check(False, 'dir source has no meson.build')
    return report(path)


def report(path):
    for e in errors:
        print('%s: %s' % (path, e), file=sys.stderr)
    if not errors:
        print('%s: ok' % path)
    return 1 if errors else 0


sys.exit(main())
