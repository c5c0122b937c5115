#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Writes the seeds of fuzz-elf into corpus/elf: a small shared object with
# local, weak, aliased and underscored functions, PLT entries and a build
# id; its detached debug file; a kallsyms text with aliases, a module and
# damaged lines.  Usage: tests/fuzz/make-elf-seeds.sh (needs gcc, objcopy).
set -eu
out=$(dirname "$0")/corpus/elf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/s.c" <<'C'
extern int ext_a (int);
extern int ext_b (int);
static int local_fn (int x) { return ext_a (x) * 3; }
int __attribute__((weak)) weak_fn (int x) { return x + 1; }
int alias_target (int x) { return local_fn (x) + ext_b (x); }
int alias_name (int) __attribute__((alias ("alias_target")));
int _under (int x) { return weak_fn (x) - 1; }
int _ZN3foo3barEi (int x) { return x; }
C
gcc -O1 -fPIC -shared -nostdlib -Wl,--build-id=sha1 -Wl,-z,max-page-size=0x1000 \
    -Wl,-z,noseparate-code -o "$tmp/seed.so" "$tmp/s.c"
objcopy --remove-section .comment "$tmp/seed.so" "$out/seed-so"
objcopy --only-keep-debug "$out/seed-so" "$out/seed-debug"
cat >"$out/seed-kallsyms" <<'K'
ffffffff81000000 T srso_alias_untrain_ret
ffffffff81000000 T _stext
ffffffff81000000 T _text
ffffffff81001000 t local_a
ffffffff81001000 W weak_a
ffffffff81001040 T __global_b
ffffffff81001040 T global_b
ffffffff81002000 D some_data
ffffffff81003000 B some_bss
ffffffff81004000 r skipped_rodata
not a line
ffffffff8100 T
ffffffffc0000000 t mod_fn	[mod_a]
ffffffffc0000100 T mod_fn2	[mod_a]
ffffffffc0001000 t other_mod_fn	[mod_b]
K
