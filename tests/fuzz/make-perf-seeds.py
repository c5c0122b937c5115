#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes synthetic perf.data seeds of fuzz-file into corpus/file/ (the
loader opens perf.data through its importer): perf-samples (one cpu-clock
attr, COMM, FORK, LOST and samples on 3 threads), perf-multi-attr (two attrs
told apart by IDENTIFIER, sample_id_all trailers), perf-tracepoint (a
sched_switch attr with TRACING_DATA holding its format, RAW payloads, a
sched_wakeup too), perf-zstd (the records of perf-samples in a
PERF_RECORD_COMPRESSED record; needs the `zstd` command) and perf-mmap
(mappings, fork, exec and build ids: what names sample addresses) and
perf-pipe (perf-tracepoint in pipe mode, as perf record -o - writes it:
HEADER_FEATURE, HEADER_ATTR, EVENT_UPDATE names, HEADER_TRACING_DATA with
its text after the record, then the records).  Layout:
doc/import-formats.md section 4.  Run once; the output is
committed."""
import os
import struct
import subprocess

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'corpus', 'file')
os.makedirs(out, exist_ok=True)

IP, TID, TIME, ID, CPU, PERIOD, RAW, IDENT = 1, 2, 4, 64, 128, 256, 1024, 1 << 16


def rec(typ, body, misc=0):
    while len(body) % 8:
        body += b'\0'
    return struct.pack('<IHH', typ, misc, 8 + len(body)) + body


def sample(st, ident=0, ip=0, pid=0, tid=0, time=0, cpu=0, raw=b''):
    b = b''
    if st & IDENT:
        b += struct.pack('<Q', ident)
    if st & IP:
        b += struct.pack('<Q', ip)
    if st & TID:
        b += struct.pack('<II', pid, tid)
    if st & TIME:
        b += struct.pack('<Q', time)
    if st & ID:
        b += struct.pack('<Q', ident)
    if st & CPU:
        b += struct.pack('<II', cpu, 0)
    if st & PERIOD:
        b += struct.pack('<Q', 1)
    if st & RAW:
        size = len(raw) + 4
        pad = (8 - size % 8) % 8
        b += struct.pack('<I', len(raw) + pad) + raw + b'\0' * pad
    return rec(9, b)


def comm(pid, tid, name, trailer=b''):
    return rec(3, struct.pack('<II', pid, tid) + name.encode() + b'\0' * (8 - len(name) % 8) + trailer)


def attr(typ, config, st, flags=1 << 18):
    a = struct.pack('<IIQQQQQ', typ, 128, config, 1, st, 0, flags)
    return a + b'\0' * (128 - len(a))


def perf_string(s):
    b = s.encode() + b'\0'
    b += b'\0' * ((64 - len(b) % 64) % 64)
    return struct.pack('<I', len(b)) + b


def write(name, attrs, records, features=None):
    """attrs: list of (attr bytes, [ids]); features: {bit: bytes}"""
    features = features or {}
    attr_size = 144
    attrs_off = 104
    ids_off = attrs_off + attr_size * len(attrs)
    ids_blob = b''
    entries = b''
    for a, ids in attrs:
        entries += a + struct.pack('<QQ', ids_off + len(ids_blob), 8 * len(ids))
        ids_blob += b''.join(struct.pack('<Q', i) for i in ids)
    data_off = ids_off + len(ids_blob)
    data = b''.join(records)
    feat_table_off = data_off + len(data)
    bits = sorted(features)
    feat_data_off = feat_table_off + 16 * len(bits)
    table = b''
    blobs = b''
    for b in bits:
        table += struct.pack('<QQ', feat_data_off + len(blobs), len(features[b]))
        blobs += features[b]
    bitmap = [0, 0, 0, 0]
    for b in bits:
        bitmap[b // 64] |= 1 << (b % 64)
    header = b'PERFILE2' + struct.pack('<QQQQQQQQ', 104, attr_size, attrs_off, len(entries),
                                       data_off, len(data), 0, 0) + struct.pack('<4Q', *bitmap)
    blob = header + entries + ids_blob + data + table + blobs
    with open(os.path.join(out, name), 'wb') as f:
        f.write(blob)
    return data


def write_pipe(name, attrs, records, features=None, names=None):
    """pipe mode: a 16-byte header, then header records and the records"""
    features = features or {}
    blob = b'PERFILE2' + struct.pack('<Q', 16)
    for b in sorted(features):
        if b != 1:
            blob += struct.pack('<IHHQ', 80, 0, 16 + len(features[b]), b) + features[b]
    for k, (a, ids) in enumerate(attrs):
        blob += struct.pack('<IHH', 64, 0, 8 + 128 + 8 * len(ids)) + a[:128]
        blob += b''.join(struct.pack('<Q', i) for i in ids)
        if names and ids:
            n = names[k].encode() + b'\0'
            n += b'\0' * ((8 - len(n) % 8) % 8)
            blob += struct.pack('<IHHQQ', 78, 0, 24 + len(n), 2, ids[0]) + n
    if 1 in features:
        t = features[1] + b'\0' * ((8 - len(features[1]) % 8) % 8)
        blob += struct.pack('<IHHII', 66, 0, 16, len(t), 0) + t
    blob += b''.join(records)
    with open(os.path.join(out, name), 'wb') as f:
        f.write(blob)


# perf-samples: one attr, no id in the samples
st = IP | TID | TIME | PERIOD
records = [comm(100, 100, 'server'), comm(100, 101, 'worker-1'),
           rec(7, struct.pack('<IIIIQ', 100, 100, 102, 100, 900)),   # FORK
           rec(2, struct.pack('<QQ', 1, 17))]                         # LOST
for i in range(24):
    records.append(sample(st, ip=0xffffffff81000000 + 16 * i, pid=100, tid=100 + i % 3,
                          time=1000 + 250 * i))
records.append(rec(68, b''))   # FINISHED_ROUND
plain = write('perf-samples', [(attr(1, 0, st), [1])], records,
              {3: perf_string('seedhost'), 7: struct.pack('<II', 2, 2)})

# perf-multi-attr: IDENTIFIER first, sample_id_all trailers on COMM
st2 = IDENT | IP | TID | TIME | CPU | PERIOD
trailer = struct.pack('<IIQII', 200, 200, 500, 0, 0) + struct.pack('<Q', 11)
records = [comm(200, 200, 'app', struct.pack('<II', 200, 200) + struct.pack('<Q', 500)
                + struct.pack('<II', 0, 0) + struct.pack('<Q', 11))]
for i in range(16):
    records.append(sample(st2, ident=11 if i % 2 else 22, ip=0x400000 + i, pid=200, tid=200,
                          time=600 + 100 * i, cpu=i % 2))
write('perf-multi-attr', [(attr(1, 0, st2), [11, 12]), (attr(0, 1, st2), [22])], records,
      {12: struct.pack('<II', 2, 128)
       + attr(1, 0, st2) + struct.pack('<I', 1) + perf_string('cpu-clock') + struct.pack('<Q', 11)
       + attr(0, 1, st2) + struct.pack('<I', 1) + perf_string('instructions') + struct.pack('<Q', 22)})

# perf-tracepoint: sched_switch with its format in TRACING_DATA
SWITCH_FMT = b'''name: sched_switch
ID: 316
format:
\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;
\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;
\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;
\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;

\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;
\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;
\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;
\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;
\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;
\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;
\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;

print fmt: "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s next_pid=%d next_prio=%d", REC->prev_comm, REC->prev_pid, REC->prev_prio, (REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1)) ? __print_flags(REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1), "|", { 0x00000001, "S" }, { 0x00000002, "D" }, { 0x00000004, "T" }, { 0x00000008, "t" }, { 0x00000010, "X" }, { 0x00000020, "Z" }, { 0x00000040, "P" }, { 0x00000080, "I" }) : "R", REC->prev_state & (((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) ? "+" : "", REC->next_comm, REC->next_pid, REC->next_prio
'''
WAKEUP_FMT = b'''name: sched_wakeup
ID: 318
format:
\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;
\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;
\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;
\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;

\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;
\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;
\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;
\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;

print fmt: "comm=%s pid=%d prio=%d target_cpu=%03d", REC->comm, REC->pid, REC->prio, REC->target_cpu
'''


def tracing_data():
    b = b'\x17\x08\x44tracing0.6\0' + struct.pack('<BBI', 0, 8, 4096)
    hp = b'\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n'
    b += b'header_page\0' + struct.pack('<Q', len(hp)) + hp
    b += b'header_event\0' + struct.pack('<Q', 0)
    b += struct.pack('<I', 0)                          # ftrace formats
    b += struct.pack('<I', 1) + b'sched\0' + struct.pack('<I', 2)
    for fmt in (SWITCH_FMT, WAKEUP_FMT):
        b += struct.pack('<Q', len(fmt)) + fmt
    b += struct.pack('<I', 0) + struct.pack('<I', 0)   # kallsyms, printk
    b += struct.pack('<Q', 0)                          # saved cmdlines
    return b


def switch_raw(prev, prev_pid, state, nxt, next_pid):
    return (struct.pack('<HBBi', 316, 0, 0, prev_pid) + prev.encode().ljust(16, b'\0')
            + struct.pack('<iiq', prev_pid, 120, state) + nxt.encode().ljust(16, b'\0')
            + struct.pack('<ii', next_pid, 120))


def wakeup_raw(name, pid, cpu):
    return struct.pack('<HBBi', 318, 0, 0, 1) + name.encode().ljust(16, b'\0') + struct.pack('<iii', pid, 120, cpu)


st3 = IDENT | IP | TID | TIME | CPU | PERIOD | RAW
records = []
names = ['init', 'sshd', 'bash', 'swapper/0']
for i in range(12):
    a, b = names[i % 4], names[(i + 1) % 4]
    records.append(sample(st3, ident=31, ip=0xffffffff82000000, pid=i % 4, tid=i % 4,
                          time=5000 + 40 * i, cpu=i % 2,
                          raw=switch_raw(a, i % 4, [0, 1, 2, 256][i % 4], b, (i + 1) % 4)))
    records.append(sample(st3, ident=32, ip=0xffffffff81000100, pid=1, tid=1,
                          time=5010 + 40 * i, cpu=i % 2, raw=wakeup_raw(b, (i + 1) % 4, i % 2)))
write('perf-tracepoint', [(attr(2, 316, st3), [31]), (attr(2, 318, st3), [32])], records,
      {1: tracing_data(), 3: perf_string('seedhost')})
write_pipe('perf-pipe', [(attr(2, 316, st3), [31]), (attr(2, 318, st3), [32])], records,
           {1: tracing_data(), 3: perf_string('seedhost')},
           ['sched:sched_switch', 'sched:sched_wakeup'])

# perf-zstd: perf-samples' records inside a COMPRESSED record
try:
    z = subprocess.run(['zstd', '-q', '-1', '-c'], input=plain, capture_output=True, check=True).stdout
    write('perf-zstd', [(attr(1, 0, st), [1])], [rec(81, z)],
          {27: struct.pack('<IIIII', 0, 1, 1, 4, 528384)})
except (OSError, subprocess.CalledProcessError):
    print('no zstd: perf-zstd not written')

# perf-mmap: what names sample addresses — MMAP2 records (one with a build
# id, [vdso]), the kernel's MMAP, FORK and an exec COMM, user and kernel
# samples, the BUILD_ID feature; the files named do not exist (a fuzzed
# path may name a real one: it is opened as untrusted ELF), OSRELEASE is no
# real kernel's, so /proc/kallsyms is never read.
st4 = IP | TID | TIME | PERIOD
trailer = struct.pack('<IIQ', 7, 7, 0)


def mmap2(pid, start, length, pgoff, name, build_id=None, misc=2):
    body = struct.pack('<IIQQQ', pid, pid, start, length, pgoff)
    if build_id is not None:
        body += struct.pack('<BBH', len(build_id), 0, 0) + build_id.ljust(20, b'\0')
        misc |= 1 << 14
    else:
        body += struct.pack('<IIQQ', 8, 1, 1234, 0)
    body += struct.pack('<II', 5, 2) + name.encode() + b'\0'
    while len(body) % 8:
        body += b'\0'
    return rec(10, body + trailer, misc)


def build_id_entry(pid, build_id, name, misc):
    body = struct.pack('<i', pid) + build_id.ljust(20, b'\0') + struct.pack('<BBH', len(build_id), 0, 0)
    body += name.encode() + b'\0'
    while (len(body) + 8) % 8:
        body += b'\0'
    return struct.pack('<IHH', 0, misc | (1 << 15), 8 + len(body)) + body


bid = bytes(range(1, 21))
kmap = rec(1, struct.pack('<IIQQQ', 0xffffffff, 0, 0xffffffff81000000, 0x1000000, 0xffffffff81000000)
           + b'[kernel.kallsyms]_text\0\0' + trailer, 1)
records = [comm(7, 7, 'app') , mmap2(7, 0x400000, 0x10000, 0, '/nonexistent/cpel-seed/app', bid),
           mmap2(7, 0x7f0000000000, 0x2000, 0x1000, '/nonexistent/cpel-seed/lib.so'),
           mmap2(7, 0x7fff00000000, 0x2000, 0, '[vdso]'), kmap,
           rec(7, struct.pack('<IIIIQ', 8, 7, 8, 7, 100) + trailer),
           rec(3, struct.pack('<II', 8, 8) + b'child\0\0\0' + struct.pack('<IIQ', 8, 8, 150), 1 << 13)]
for i in range(8):
    pid = 7 if i < 4 else 8
    ip = [0x401234, 0x7f0000000800, 0x7fff00000010, 0xffffffff81001000][i % 4]
    records.append(rec(9, struct.pack('<QIIQQ', ip, pid, pid, 120 + 20 * i, 1), 1 if ip >> 63 else 2))
write('perf-mmap', [(attr(1, 0, st4), [1])], records,
      {2: build_id_entry(7, bid, '/nonexistent/cpel-seed/app', 2)
          + build_id_entry(-1, bytes(range(40, 60)), '[kernel.kallsyms]', 1),
       4: perf_string('0.0.0-cpel-seed')})
