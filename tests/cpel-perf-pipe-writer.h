/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-perf-pipe-writer.h — writes a file-mode perf.data again in pipe mode,
 * as `perf record -o -` would have written it, for the tests: the 16-byte
 * header; a HEADER_FEATURE record per feature section (but TRACING_DATA,
 * BUILD_ID and EVENT_DESC, which pipe mode sends otherwise); a HEADER_ATTR
 * record per attr with its ids; an EVENT_UPDATE (NAME) record per named
 * attr; HEADER_TRACING_DATA followed by the tracing text (8-byte padded);
 * a HEADER_BUILD_ID record per build id entry; then the data section's
 * records unchanged.  The input is a trusted fixture (asserted, not
 * checked). */
#pragma once

#include <string.h>
#include <glib.h>

static inline void
cpel_test_pipe_hdr (GByteArray *a, guint32 type, guint16 misc, gsize size)
{
  g_assert (size <= G_MAXUINT16);
  guint16 sz = (guint16) size;
  g_byte_array_append (a, (const guint8 *) &type, 4);
  g_byte_array_append (a, (const guint8 *) &misc, 2);
  g_byte_array_append (a, (const guint8 *) &sz, 2);
}

static inline guint64
cpel_test_pipe_rd64 (const guint8 *p)
{
  guint64 v;
  memcpy (&v, p, 8);
  return v;
}

/* `names[i]` (may be NULL, or hold NULLs): the name of attr i for its
 * EVENT_UPDATE record. */
static inline GBytes *
cpel_test_perf_to_pipe (GBytes *file, const char *const *names)
{
  gsize size;
  const guint8 *d = g_bytes_get_data (file, &size);
  g_assert (size >= 104 && memcmp (d, "PERFILE2", 8) == 0);
  guint64 attr_size = cpel_test_pipe_rd64 (d + 16);
  guint64 attrs_off = cpel_test_pipe_rd64 (d + 24), attrs_size = cpel_test_pipe_rd64 (d + 32);
  guint64 data_off = cpel_test_pipe_rd64 (d + 40), data_size = cpel_test_pipe_rd64 (d + 48);
  guint64 feats[4];
  for (guint i = 0; i < 4; i++)
    feats[i] = cpel_test_pipe_rd64 (d + 72 + 8 * i);
  g_assert (data_off + data_size <= size);

  GByteArray *a = g_byte_array_new ();
  static const guint64 zero = 0;
  g_byte_array_append (a, (const guint8 *) "PERFILE2", 8);
  guint64 hsize = 16;
  g_byte_array_append (a, (const guint8 *) &hsize, 8);

  const guint8 *tracing = NULL, *build_ids = NULL;
  guint64 tracing_size = 0, build_ids_size = 0;
  guint64 table = data_off + data_size;
  guint k = 0;
  for (guint64 f = 0; f < 256; f++)
    {
      if (!((feats[f / 64] >> (f % 64)) & 1))
        continue;
      g_assert (table + 16 * (k + 1) <= size);
      guint64 off = cpel_test_pipe_rd64 (d + table + 16 * k);
      guint64 len = cpel_test_pipe_rd64 (d + table + 16 * k + 8);
      k++;
      g_assert (off + len <= size);
      if (f == 1)
        {
          tracing = d + off;
          tracing_size = len;
          continue;
        }
      if (f == 2)
        {
          build_ids = d + off;
          build_ids_size = len;
          continue;
        }
      if (f == 12)   /* EVENT_DESC: pipe mode names the attrs by EVENT_UPDATE */
        continue;
      cpel_test_pipe_hdr (a, 80, 0, 16 + len);
      g_byte_array_append (a, (const guint8 *) &f, 8);
      g_byte_array_append (a, d + off, (guint) len);
    }

  for (guint64 i = 0; i < attrs_size / attr_size; i++)
    {
      const guint8 *at = d + attrs_off + i * attr_size;
      guint32 asz;
      memcpy (&asz, at + 4, 4);
      g_assert (asz <= attr_size - 16);
      guint64 ids_off = cpel_test_pipe_rd64 (at + attr_size - 16);
      guint64 ids_size = cpel_test_pipe_rd64 (at + attr_size - 8);
      cpel_test_pipe_hdr (a, 64, 0, 8 + asz + ids_size);
      g_byte_array_append (a, at, asz);
      g_byte_array_append (a, d + ids_off, (guint) ids_size);
      if (names != NULL && names[i] != NULL && ids_size >= 8)
        {
          gsize len = (strlen (names[i]) + 1 + 7) & ~(gsize) 7;
          guint64 type = 2;   /* PERF_EVENT_UPDATE__NAME */
          cpel_test_pipe_hdr (a, 78, 0, 8 + 16 + len);
          g_byte_array_append (a, (const guint8 *) &type, 8);
          g_byte_array_append (a, d + ids_off, 8);
          g_byte_array_append (a, (const guint8 *) names[i], (guint) strlen (names[i]));
          g_byte_array_append (a, (const guint8 *) &zero, (guint) (len - strlen (names[i])));
        }
    }

  if (tracing != NULL)
    {
      guint32 padded = (guint32) ((tracing_size + 7) & ~(guint64) 7);
      cpel_test_pipe_hdr (a, 66, 0, 16);
      g_byte_array_append (a, (const guint8 *) &padded, 4);
      g_byte_array_append (a, (const guint8 *) &zero, 4);
      g_byte_array_append (a, tracing, (guint) tracing_size);
      g_byte_array_append (a, (const guint8 *) &zero, (guint) (padded - tracing_size));
    }

  /* build id entries: each a record already; pipe mode types them 67 */
  for (guint64 pos = 0; pos + 8 <= build_ids_size;)
    {
      guint16 len;
      memcpy (&len, build_ids + pos + 6, 2);
      g_assert (len >= 8 && pos + len <= build_ids_size);
      guint old = a->len;
      g_byte_array_append (a, build_ids + pos, len);
      guint32 type = 67;
      memcpy (a->data + old, &type, 4);
      pos += len;
    }

  g_byte_array_append (a, d + data_off, (guint) data_size);
  return g_byte_array_free_to_bytes (a);
}
