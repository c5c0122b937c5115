#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Lines are at most 100 columns (CONTRIBUTING.md, .editorconfig).

Checks every tracked source, build, script, template and documentation file
(tabs expanded to 8).  Files older than the rule still hold long lines: their
number per file is in build-aux/line-length-baseline.txt, and may only go
down.  A file over its count, or a file not in the list with any long line,
fails the check with the lines to rewrap.

Usage: check-line-length.py SOURCE_ROOT            (the check)
       check-line-length.py SOURCE_ROOT --update   (rewrite the list: only
                                                   to lower counts, or to
                                                   start one)
"""
import os
import subprocess
import sys

LIMIT = 100
SUFFIXES = ('.c', '.h', '.md', '.sh', '.py', '.build', '.ui', '.xml', '.css',
            '.txt', '.in', '.json', '.yml')
SKIP_PREFIXES = ('tests/fixtures/', 'po/', 'subprojects/')
BASELINE = 'build-aux/line-length-baseline.txt'


def tracked_files(root):
    try:
        out = subprocess.run(['git', '-C', root, 'ls-files', '-z'],
                             check=True, capture_output=True).stdout
        return [f for f in out.decode('utf-8', 'replace').split('\0') if f]
    except (OSError, subprocess.CalledProcessError):
        # not a git checkout (a release tarball): walk the tree
        found = []
        for top, dirs, names in os.walk(root):
            dirs[:] = [d for d in dirs if not d.startswith(('.', '_build'))]
            for name in names:
                found.append(os.path.relpath(os.path.join(top, name), root))
        return found


def long_lines(path):
    try:
        with open(path, encoding='utf-8') as f:
            text = f.read()
    except (OSError, UnicodeDecodeError):
        return []
    return [(i + 1, len(line.expandtabs(8)))
            for i, line in enumerate(text.split('\n'))
            if len(line.expandtabs(8)) > LIMIT]


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else '.'
    update = '--update' in sys.argv[2:]
    baseline = {}
    bpath = os.path.join(root, BASELINE)
    if os.path.exists(bpath):
        with open(bpath, encoding='utf-8') as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith('#'):
                    count, name = line.split(None, 1)
                    baseline[name] = int(count)
    found = {}
    failed = False
    for name in sorted(tracked_files(root)):
        if name.startswith(SKIP_PREFIXES) or not name.endswith(SUFFIXES):
            continue
        lines = long_lines(os.path.join(root, name))
        if lines:
            found[name] = lines
    for name, lines in found.items():
        allowed = baseline.get(name, 0)
        if len(lines) > allowed:
            failed = True
            if update:
                continue
            print('%s: %d lines over %d columns (allowed: %d):'
                  % (name, len(lines), LIMIT, allowed))
            for number, width in lines:
                print('  %s:%d: %d columns' % (name, number, width))
    lowered = [n for n in baseline if len(found.get(n, [])) < baseline[n]]
    if update:
        if failed and baseline:
            print('not updating: counts may only go down')
            return 1
        with open(bpath, 'w', encoding='utf-8') as f:
            f.write('# Long lines per file, from before the 100-column rule; only to go\n'
                    '# down.  build-aux/check-line-length.py SOURCE_ROOT --update\n')
            for name in sorted(found):
                f.write('%d %s\n' % (len(found[name]), name))
        return 0
    for name in lowered:
        print('note: %s now has %d long lines (list: %d): run with --update'
              % (name, len(found.get(name, [])), baseline[name]))
    total = sum(len(v) for v in found.values())
    print('%d lines over %d columns in %d files' % (total, LIMIT, len(found)))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
