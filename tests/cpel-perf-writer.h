/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-perf-writer.h — a small writer of synthetic perf.data files for the
 * tests, the fuzz seeds and the benchmark (layout: doc/import-formats.md
 * section 4): a 104-byte header, attrs of `attr_size` bytes each with their
 * ids, the data section, and no feature sections. */
#pragma once

#include <string.h>
#include <glib.h>

#define CPEL_TEST_PERF_IP      (1u << 0)
#define CPEL_TEST_PERF_TID     (1u << 1)
#define CPEL_TEST_PERF_TIME    (1u << 2)
#define CPEL_TEST_PERF_ID      (1u << 6)
#define CPEL_TEST_PERF_CPU     (1u << 7)
#define CPEL_TEST_PERF_PERIOD  (1u << 8)
#define CPEL_TEST_PERF_RAW     (1u << 10)
#define CPEL_TEST_PERF_IDENT   (1u << 16)

static inline void
cpel_test_perf_u64 (GByteArray *a, guint64 v)
{
  g_byte_array_append (a, (const guint8 *) &v, 8);
}

static inline void
cpel_test_perf_u32 (GByteArray *a, guint32 v)
{
  g_byte_array_append (a, (const guint8 *) &v, 4);
}

static inline void
cpel_test_perf_hdr (GByteArray *a, guint32 type, guint16 misc, guint16 size)
{
  cpel_test_perf_u32 (a, type);
  g_byte_array_append (a, (const guint8 *) &misc, 2);
  g_byte_array_append (a, (const guint8 *) &size, 2);
}

/* A SAMPLE with the fields of `sample_type` (IDENTIFIER, IP, TID, TIME, ID,
 * CPU, PERIOD); `misc`: the cpumode (1 kernel, 2 user, 0 unknown). */
static inline void
cpel_test_perf_sample_misc (GByteArray *a, guint16 misc, guint64 sample_type, guint64 id, guint64 ip,
                            guint32 pid, guint32 tid, guint64 time, guint32 cpu)
{
  guint n = 0;
  for (guint b = 0; b < 17; b++)
    if ((sample_type >> b) & 1)
      n++;
  cpel_test_perf_hdr (a, 9, misc, (guint16) (8 + 8 * n));
  if (sample_type & CPEL_TEST_PERF_IDENT)
    cpel_test_perf_u64 (a, id);
  if (sample_type & CPEL_TEST_PERF_IP)
    cpel_test_perf_u64 (a, ip);
  if (sample_type & CPEL_TEST_PERF_TID)
    {
      cpel_test_perf_u32 (a, pid);
      cpel_test_perf_u32 (a, tid);
    }
  if (sample_type & CPEL_TEST_PERF_TIME)
    cpel_test_perf_u64 (a, time);
  if (sample_type & CPEL_TEST_PERF_ID)
    cpel_test_perf_u64 (a, id);
  if (sample_type & CPEL_TEST_PERF_CPU)
    cpel_test_perf_u64 (a, cpu);
  if (sample_type & CPEL_TEST_PERF_PERIOD)
    cpel_test_perf_u64 (a, 1000);
}

static inline void
cpel_test_perf_sample (GByteArray *a, guint64 sample_type, guint64 id, guint64 ip,
                       guint32 pid, guint32 tid, guint64 time, guint32 cpu)
{
  cpel_test_perf_sample_misc (a, 0, sample_type, id, ip, pid, tid, time, cpu);
}

/* An MMAP2 record of process `pid` (user mode, no build id) with the
 * sample_id_all trailer of an IP|TID|TIME|PERIOD attr (pid/tid, time 0). */
static inline void
cpel_test_perf_mmap2 (GByteArray *a, guint32 pid, guint64 start, guint64 len, guint64 pgoff,
                      const char *filename)
{
  gsize name_len = (strlen (filename) + 1 + 7) & ~(gsize) 7;
  cpel_test_perf_hdr (a, 10, 2, (guint16) (8 + 64 + name_len + 16));
  cpel_test_perf_u32 (a, pid);
  cpel_test_perf_u32 (a, pid);
  cpel_test_perf_u64 (a, start);
  cpel_test_perf_u64 (a, len);
  cpel_test_perf_u64 (a, pgoff);
  for (guint i = 0; i < 3; i++)
    cpel_test_perf_u64 (a, 0);               /* maj, min, ino, ino_generation */
  cpel_test_perf_u32 (a, 5);                 /* PROT_READ | PROT_EXEC */
  cpel_test_perf_u32 (a, 2);                 /* MAP_PRIVATE */
  guint8 buf[4096] = { 0 };
  g_assert (name_len <= sizeof buf);
  memcpy (buf, filename, strlen (filename));
  g_byte_array_append (a, buf, (guint) name_len);
  cpel_test_perf_u32 (a, pid);
  cpel_test_perf_u32 (a, pid);
  cpel_test_perf_u64 (a, 0);
}

/* A COMM record (no sample_id_all trailer). */
static inline void
cpel_test_perf_comm (GByteArray *a, guint32 pid, guint32 tid, const char *comm)
{
  gsize len = (strlen (comm) + 1 + 7) & ~(gsize) 7;
  cpel_test_perf_hdr (a, 3, 0, (guint16) (8 + 8 + len));
  cpel_test_perf_u32 (a, pid);
  cpel_test_perf_u32 (a, tid);
  guint8 buf[64] = { 0 };
  g_assert (len <= sizeof buf);
  memcpy (buf, comm, strlen (comm));
  g_byte_array_append (a, buf, (guint) len);
}

/* The whole file: one attr per entry of `sample_types` (n_attrs of them,
 * type 1 = software, config 0 = cpu-clock, ids i + 1), stored with
 * `attr_size` bytes each (144 like perf 6.1; the attr itself says 128), then
 * `records` as the data section. */
static inline GBytes *
cpel_test_perf_file (const guint64 *sample_types, guint n_attrs, guint64 attr_size,
                     const guint8 *records, gsize records_len)
{
  GByteArray *a = g_byte_array_new ();
  guint64 attrs_off = 104;
  guint64 entry = attr_size >= 16 + 128 && attr_size <= 4096 ? attr_size : 144;
  guint64 ids_off = attrs_off + entry * n_attrs;
  guint64 data_off = ids_off + 8 * (guint64) n_attrs;

  g_byte_array_append (a, (const guint8 *) "PERFILE2", 8);
  cpel_test_perf_u64 (a, 104);
  cpel_test_perf_u64 (a, attr_size);
  cpel_test_perf_u64 (a, attrs_off);
  cpel_test_perf_u64 (a, entry * n_attrs);
  cpel_test_perf_u64 (a, data_off);
  cpel_test_perf_u64 (a, records_len);
  cpel_test_perf_u64 (a, 0);
  cpel_test_perf_u64 (a, 0);
  for (guint i = 0; i < 4; i++)
    cpel_test_perf_u64 (a, 0);
  for (guint i = 0; i < n_attrs; i++)
    {
      guint8 attr[128] = { 0 };
      guint32 type = 1, size = 128;
      guint64 flags = (guint64) 1 << 18;   /* sample_id_all */
      memcpy (attr, &type, 4);
      memcpy (attr + 4, &size, 4);
      memcpy (attr + 24, &sample_types[i], 8);
      memcpy (attr + 40, &flags, 8);
      g_byte_array_append (a, attr, 128);
      for (guint64 k = 128; k < entry - 16; k++)
        g_byte_array_append (a, (const guint8 *) "", 1);
      cpel_test_perf_u64 (a, ids_off + 8 * (guint64) i);
      cpel_test_perf_u64 (a, 8);
    }
  for (guint i = 0; i < n_attrs; i++)
    cpel_test_perf_u64 (a, i + 1);
  g_byte_array_append (a, records, (guint) records_len);
  return g_byte_array_free_to_bytes (a);
}
