/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-append-writer.h — a little-endian CPEL file written in pieces, for
 * the tests of the growing-file follower (layout: doc/cpel-format.md)
 *
 * cpel_start () gives the header and the definitions: string table
 * "strtab", event code 1 "rx" with datum "%d pkts", track 5 "worker %d";
 * put_events () adds an events section (1 GHz clock) of n events from time
 * t, 100 ns apart, code 1, track 5, datum t / 10.
 */
#pragma once

#include <stdio.h>

#include <glib.h>

static inline void
put32 (GByteArray *a,
       guint32     v)
{
  v = GUINT32_TO_LE (v);
  g_byte_array_append (a, (guint8 *) &v, 4);
}

static inline void
put_section (GByteArray *a,
             guint32     type,
             GByteArray *data)
{
  put32 (a, type);
  put32 (a, data->len);
  g_byte_array_append (a, data->data, data->len);
}

static inline void
put_name (GByteArray *a)
{
  guint8 name[64] = "strtab";

  g_byte_array_append (a, name, 64);
}

/* An events section of n events from time t (ns), code 1, track 5, datum = t / 10. */
static inline void
put_events (GByteArray *a,
            guint64     t,
            guint       n)
{
  g_autoptr(GByteArray) d = g_byte_array_new ();

  put_name (d);
  put32 (d, n);
  put32 (d, 1000000000);
  for (guint i = 0; i < n; i++, t += 100)
    {
      put32 (d, (guint32) (t >> 32));
      put32 (d, (guint32) t);
      put32 (d, 5);
      put32 (d, 1);
      put32 (d, (guint32) (t / 10));
    }
  put_section (a, 5, d);
}

static inline GByteArray *
cpel_start (void)
{
  GByteArray *a = g_byte_array_new ();
  g_autoptr(GByteArray) st = g_byte_array_new ();
  g_autoptr(GByteArray) ev = g_byte_array_new ();
  g_autoptr(GByteArray) tr = g_byte_array_new ();
  static const char strings[] = "strtab\0rx\0%d pkts\0worker %d\0";

  g_byte_array_append (a, (const guint8 *) "\x81\0\0\0\0\0\0\0", 8);
  g_byte_array_append (st, (const guint8 *) strings, sizeof strings);
  put_section (a, 1, st);
  put_name (ev);
  put32 (ev, 1);
  put32 (ev, 1);
  put32 (ev, 7);    /* "rx" */
  put32 (ev, 10);   /* "%d pkts" */
  put_section (a, 3, ev);
  put_name (tr);
  put32 (tr, 1);
  put32 (tr, 5);
  put32 (tr, 18);   /* "worker %d" */
  put_section (a, 4, tr);
  return a;
}

static inline void
append_file (const char *path,
             GByteArray *a)
{
  FILE *fp = fopen (path, "ab");

  g_assert_nonnull (fp);
  g_assert_cmpuint (fwrite (a->data, 1, a->len, fp), ==, a->len);
  g_assert_cmpint (fclose (fp), ==, 0);
}
