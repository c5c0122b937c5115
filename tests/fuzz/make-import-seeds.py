#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes seeds of the importers into corpus/file/: a small VPP elog with
every argument kind and a small wrapped Snabb timeline (layouts:
doc/import-formats.md, sections 1 and 2).  Run once; the output is
committed."""
import os
import struct

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'corpus', 'file')
os.makedirs(out, exist_ok=True)


def u16(v): return struct.pack('>H', v)
def u32(v): return struct.pack('>I', v & 0xffffffff)
def u64(v): return u32(v & 0xffffffff) + u32(v >> 32)            # low half first
def f64(d): return u64(struct.unpack('<Q', struct.pack('<d', d))[0])
def f32(d): return u32(struct.unpack('<I', struct.pack('<f', d))[0])
def varint(v):
    assert v < 128
    return bytes([v << 1 | 1])
def cstr(s):
    b = s.encode()
    return varint(len(b)) + b


def elog():
    types = [('rx %d q %d', 'i2i4', []), ('big %Ld %Lx', 'i8i8', []), ('r %.3f %.1f', 'f8f4', []),
             ('link %s %s', 't1t4', ['down', 'up']), ('node %s', 'T4', []), ('peer %s', 's0', []),
             ('tick', '', []), ('fn(x) %02x', 'i1', [])]
    b = u32(7) + b'elog v0' + u32(64)
    b += u64(305000001000000000) + u64(4096024000) + u64(305000000000000000) + u64(2000000000)
    b += u32(len(types))
    for i, (fmt, args, enums) in enumerate(types):
        b += cstr(fmt) + cstr(args) + u32(i + 1) + u32(len(enums)) + b''.join(cstr(e) for e in enums)
    tracks = ['default', 'rx worker 1', 'rx worker 10']
    b += u32(len(tracks)) + b''.join(cstr(t) for t in tracks)
    strtab = b'ip4-input\0ip6-lookup\0'
    b += u32(len(strtab)) + strtab
    ev = [(0, 1, 0.001, u16(3) + u32(0xffffffff)), (1, 2, 0.002, u64(1 << 40) + u64(0xabcdef)),
          (2, 0, 0.002, f64(0.0625) + f32(41.5)), (3, 1, 0.003, bytes([1]) + u32(1)),
          (4, 2, 0.004, u32(10)), (5, 0, 0.005, cstr('198.51.100.7')), (6, 0, 0.006, b''),
          (7, 1, 0.007, bytes([0x1f]))]
    b += u32(len(ev))
    for t, tr, time, args in ev:
        b += u16(t) + u16(tr) + f64(time) + args
    return b


def snabb():
    n, strings_bytes = 8, 256
    head = bytes([0x01, 0x00, 0x1d, 0x44, 0x23, 0x72, 0xff, 0xa3]) + struct.pack('<HHII', 3, 0, n * 64, strings_bytes)
    head += bytes(64 - len(head))
    msgs = [b'1,5|engine.breath_start: breath totalpackets', b'2,3|engine.got_monotonic_time: unixnanos',
            b'3,3|app.pull app=tee:']
    strings = bytearray(strings_bytes)
    ids, off = [], 0
    for m in msgs:
        ids.append(off // 16)
        strings[off:off + len(m)] = m
        off += (len(m) + 1 + 15) // 16 * 16
    log = bytearray(n * 64)
    tscs = [1500, 1600, 1700, 1800, 1000, 1100, 1200, 1300]   # wrapped: slot 4 is the oldest
    for s, tsc in enumerate(tscs):
        m = ids[s % 3]
        args = [s, 2.5, 0, 0, 0, 0] if m != ids[1] else [1e9 + s * 100, 0, 0, 0, 0, 0]
        log[s * 64:(s + 1) * 64] = struct.pack('<dHHI6d', float(tsc), m, 67, 0, *args)
    return head + bytes(log) + bytes(strings)


with open(os.path.join(out, 'import-vpp.elog'), 'wb') as f:
    f.write(elog())
with open(os.path.join(out, 'import-wrapped.timeline'), 'wb') as f:
    f.write(snabb())
