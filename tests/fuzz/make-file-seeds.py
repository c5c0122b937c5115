#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes hand-made seeds of fuzz-file into corpus/file/ (the generated ones,
gen-*.cpel, come from `cpel gen`; the malformed ones, malformed-*.cpel, from
`data-test-malformed --write`).  Run once; the output is committed."""
import os
import struct

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'corpus', 'file')
os.makedirs(out, exist_ok=True)


class F:
    def __init__(self, le=False):
        self.le = le
        self.sections = []

    def u32(self, *vals):
        return b''.join(struct.pack('<I' if self.le else '>I', v & 0xffffffff) for v in vals)

    def section(self, typ, data):
        self.sections.append(self.u32(typ, len(data)) + data)

    def strtab(self, name, strings):
        data = name.encode() + b'\0'
        offs = []
        for s in strings:
            offs.append(len(data))
            data += s + b'\0'
        while len(data) % 4:
            data += b'\0'
        self.section(1, data)
        return offs

    @staticmethod
    def name(n):
        return n.encode().ljust(64, b'\0')

    def symbols(self, table, syms):
        self.section(2, self.name(table) + self.u32(len(syms)) + b''.join(self.u32(v, o) for v, o in syms))

    def evdefs(self, table, defs):
        self.section(3, self.name(table) + self.u32(len(defs)) + b''.join(self.u32(*d) for d in defs))

    def trackdefs(self, table, defs):
        self.section(4, self.name(table) + self.u32(len(defs)) + b''.join(self.u32(*d) for d in defs))

    def events(self, table, clock, evs):
        body = b''.join(self.u32(t >> 32, t, tr, code, datum) for t, tr, code, datum in evs)
        self.section(5, self.name(table) + self.u32(len(evs), clock) + body)

    def write(self, fname):
        head = bytes([1 | (0x80 if self.le else 0), 0]) + struct.pack('<H' if self.le else '>H', len(self.sections))
        head += self.u32(1700000000)
        with open(os.path.join(out, fname), 'wb') as f:
            f.write(head + b''.join(self.sections))


# Everything at once: two tables of one name, unsorted symbols with ties,
# duplicate definitions, ids and codes past the direct map (4096), several
# event sections with different clocks (ns, TSC, per-µs), unsorted events,
# ties, ticks near 2^64.
for le in (False, True):
    f = F(le)
    a = f.strtab('A', [b'rx %d on %s', b'node %k+%x', b'cpu %u', b'%08X %c %-5s|', b'eth0', b'worker %d', b'%s'])
    f.strtab('A', [b'shadowed'])
    b = f.strtab('B', [b'main', b'dispatch', b'ip4-lookup', b'%hhd/%hu/%#o'])
    f.symbols('B', [(0x401100, b[1]), (0x401000, b[0]), (0x401100, b[2]), (0xfffffff0, b[0])])
    f.evdefs('A', [(1, a[0], a[0]), (0x10000, a[1], a[1]), (1, a[2], a[2]), (0xffffffff, a[3], a[3]), (7, 0, 0)])
    f.evdefs('B', [(42, b[3], b[3])])
    f.trackdefs('A', [(0, a[5]), (0x80000000, a[2]), (0, a[4]), (5000, 0)])
    f.events('A', 1000000000, [(30, 0, 1, a[4]), (10, 0, 1, 3), (10, 5000, 0x10000, 0x401104), (10, 0, 42, 0x1234),
                               (2**64 - 1, 0x80000000, 0xffffffff, 0x41), (20, 0xffffffff, 99999, 0)])
    f.events('B', 2600000000, [(2600000000, 0, 1, b[2]), (0, 3, 7, 0), (5 * 2**32, 3, 7, 1)])
    f.events('A', 99999, [(99999, 1, 1, 0), (1, 1, 1, 0)])
    f.events('none', 0, [])
    f.write('rich-%s.cpel' % ('le' if le else 'be'))


# Nearly in time order (the reorder window of streaming): records a few and
# up to CPEL_REORDER_WINDOW - 1 (4095) places late or early, equal times,
# sections with their own clocks; one section in order.
def moved(evs, frm, to):
    e = evs.pop(frm)
    evs.insert(to, e)
    return evs


for le in (False, True):
    f = F(le)
    a = f.strtab('A', [b'one %d', b'two %x', b'cpu %d'])
    f.evdefs('A', [(1, a[0], a[0]), (2, a[1], a[1])])
    f.trackdefs('A', [(0, a[2]), (1, a[2]), (2, a[2])])
    small = [(100 + 10 * (i // 3), i % 3, 1 + i % 2, i) for i in range(120)]
    f.events('A', 1000000000, moved(moved(small, 5, 40), 100, 60))
    f.events('A', 2400000000, moved([(2400 + i, i % 2, 2, i) for i in range(80)], 70, 3))
    f.events('A', 3000, [(i // 2, 2, 1, i) for i in range(30)])
    f.write('window-%s.cpel' % ('le' if le else 'be'))

f = F(False)
a = f.strtab('A', [b'one %d', b'cpu %d'])
f.evdefs('A', [(1, a[0], a[0])])
f.trackdefs('A', [(0, a[1]), (1, a[1])])
f.events('A', 1000000000, moved([(10 * i, i % 2, 1, i) for i in range(4200)], 50, 50 + 4095))
f.write('window-edge.cpel')
