/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-ctf-writer.h — a writer of synthetic CTF 1.8 traces for the
 * benchmark and the viewer's loading test (never committed: written where
 * they run): two streams (`CPU 0`, `CPU 1` by their packet context's
 * cpu_id), one event class `bench:tick` with a u32 and a u64 field, 24-byte
 * events in 64 KiB packets, 100 ns apart per stream. */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>

static const char cpel_test_ctf_metadata[] =
  "/* CTF 1.8 */\n"
  "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
  "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
  "trace { major = 1; minor = 8; byte_order = le;\n"
  "  packet.header := struct { uint32_t magic; uint32_t stream_id; }; };\n"
  "clock { name = bench; freq = 1000000000; offset = 0; };\n"
  "typealias integer { size = 64; align = 8; signed = false; map = clock.bench.value; } := clock_u64;\n"
  "stream { id = 0;\n"
  "  packet.context := struct { clock_u64 timestamp_begin; clock_u64 timestamp_end;\n"
  "    uint64_t content_size; uint64_t packet_size; uint32_t cpu_id; };\n"
  "  event.header := struct { uint32_t id; clock_u64 timestamp; }; };\n"
  "event { name = \"bench:tick\"; id = 0; stream_id = 0;\n"
  "  fields := struct { uint32_t value; uint64_t bytes; }; };\n";

#define CPEL_TEST_CTF_PACKET   65536
#define CPEL_TEST_CTF_PKT_HEAD 44
#define CPEL_TEST_CTF_EVENT    24

static inline void
cpel_test_ctf_u32 (GByteArray *a, guint32 v)
{
  g_byte_array_append (a, (const guint8 *) &v, 4);
}

static inline void
cpel_test_ctf_u64 (GByteArray *a, guint64 v)
{
  g_byte_array_append (a, (const guint8 *) &v, 8);
}

/* Writes the trace of `n` events into the folder `dir` (created). */
static inline void
cpel_test_ctf_write (const char *dir, guint64 n)
{
  g_autofree char *meta = g_build_filename (dir, "metadata", NULL);
  g_mkdir_with_parents (dir, 0755);
  guint per_packet = (CPEL_TEST_CTF_PACKET - CPEL_TEST_CTF_PKT_HEAD) / CPEL_TEST_CTF_EVENT;
  for (guint cpu = 0; cpu < 2; cpu++)
    {
      g_autoptr(GByteArray) a = g_byte_array_new ();
      guint64 todo = n / 2 + (cpu == 0 ? n % 2 : 0);
      guint64 t = 1000 + cpu * 7;
      while (todo > 0)
        {
          guint k = (guint) MIN (todo, per_packet);
          cpel_test_ctf_u32 (a, 0xC1FC1FC1);
          cpel_test_ctf_u32 (a, 0);
          cpel_test_ctf_u64 (a, t);
          cpel_test_ctf_u64 (a, t + (guint64) (k - 1) * 100);
          cpel_test_ctf_u64 (a, (CPEL_TEST_CTF_PKT_HEAD + (guint64) k * CPEL_TEST_CTF_EVENT) * 8);
          cpel_test_ctf_u64 (a, (guint64) CPEL_TEST_CTF_PACKET * 8);
          cpel_test_ctf_u32 (a, cpu);
          for (guint i = 0; i < k; i++, t += 100)
            {
              cpel_test_ctf_u32 (a, 0);
              cpel_test_ctf_u64 (a, t);
              cpel_test_ctf_u32 (a, i);
              cpel_test_ctf_u64 (a, (guint64) i * 1500);
            }
          guint pad = CPEL_TEST_CTF_PACKET - (CPEL_TEST_CTF_PKT_HEAD + k * CPEL_TEST_CTF_EVENT);
          for (guint i = 0; i < pad; i++)
            g_byte_array_append (a, (const guint8 *) "", 1);
          todo -= k;
        }
      g_autofree char *name = g_strdup_printf ("%s/stream_%u", dir, cpu);
      if (!g_file_set_contents (name, (const char *) a->data, a->len, NULL))
        g_error ("writing %s", name);
    }
  if (!g_file_set_contents (meta, cpel_test_ctf_metadata, -1, NULL))
    g_error ("writing %s", meta);
}
