#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the seed corpus of fuzz-format into corpus/format/ (see the input
layout at the top of fuzz-format.c).  Run once; the output is committed."""
import os
import struct
import sys

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'corpus', 'format')
os.makedirs(out, exist_ok=True)

TAB = b'Strings\0eth0\0ip4-input\0no-nul-at-end'
SYMS = [(0x401000, 8, 4), (0x401100, 13, 9), (0x401100, 8, 4), (0x500000, 23, 200)]


def seed(name, fmt, value, flags=0, tab=TAB, syms=SYMS):
    data = struct.pack('<BIHH', flags, value & 0xffffffff, len(fmt), len(tab)) + fmt + tab
    for v, off, ln in syms:
        data += struct.pack('<IHH', v, off, ln)
    with open(os.path.join(out, name), 'wb') as f:
        f.write(data)


seed('int-flags', b'%d %i %u %x %X %o %+d % d %-8d| %08x %#x %#o %.5d %8.3x', 0xfffffff6)
seed('int-lengths', b'%hd %hhd %hu %hhx %ld %lld %Lx %qd %jd %zd %td', 0x12348765)
seed('int-zero', b'%.0d|%#.0o|%#x|%#.0x|%5.0u|', 0)
seed('width-cap', b'%99999999999999d|%.99999999999x|%-300s', 7)
seed('char', b'[%c] [%-4c] [%4c]', 0x41)
seed('char-escape', b'[%c] [%5c]', 0x07)
seed('string', b'<%s> <%.3s> <%10s> <%-10s|', 8)
seed('string-unterminated', b'%s', 23)
seed('string-bad-offset', b'%s %20s', 0x1234)
seed('string-no-table', b'%s', 8, flags=1)
seed('symbol', b'%k %20k %-20k|', 0x401104)
seed('symbol-tie', b'%k', 0x401100)
seed('symbol-below', b'%k', 0x10)
seed('symbol-long-name', b'%k', 0x500001)
seed('symbol-no-table', b'%k', 0x401000, flags=2)
seed('literal', b'100%% literal, %n %p %f %%%', 1)
seed('cut-short', b'abc %-08.3l', 1)
seed('lone-percent', b'%', 1)
seed('embedded-nul', b'a%d\0%s', 5)
seed('empty', b'', 5)
seed('vpp', b'rx %d pkts on %s, node %k (0x%08x)', 12)
