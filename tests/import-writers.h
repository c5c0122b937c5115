/* SPDX-License-Identifier: Apache-2.0 */
/* import-writers.h — tiny writers of VPP elog and Snabb timeline files for
 * tests and benchmarks (the layouts of doc/import-formats.md, sections 1 and 2) */
#pragma once

#include <glib.h>
#include <string.h>

/* ---- VPP elog -------------------------------------------------------------------- */

static inline void
elogw_u8 (GByteArray *a, guint32 v)
{
  guint8 b = (guint8) v;
  g_byte_array_append (a, &b, 1);
}

static inline void
elogw_u16 (GByteArray *a, guint32 v)
{
  guint8 b[2] = { v >> 8, v };
  g_byte_array_append (a, b, 2);
}

static inline void
elogw_u32 (GByteArray *a, guint32 v)
{
  guint8 b[4] = { v >> 24, v >> 16, v >> 8, v };
  g_byte_array_append (a, b, 4);
}

/* serialize_64: low half first, each half big-endian */
static inline void
elogw_u64 (GByteArray *a, guint64 v)
{
  elogw_u32 (a, (guint32) v);
  elogw_u32 (a, (guint32) (v >> 32));
}

static inline void
elogw_f64 (GByteArray *a, double d)
{
  guint64 v;
  memcpy (&v, &d, 8);
  elogw_u64 (a, v);
}

static inline void
elogw_f32 (GByteArray *a, float f)
{
  guint32 v;
  memcpy (&v, &f, 4);
  elogw_u32 (a, v);
}

static inline void
elogw_varint (GByteArray *a, guint64 v)
{
  if (v < 128)
    elogw_u8 (a, (guint32) (v << 1 | 1));
  else if (v < 128 + (1u << 14))
    {
      guint32 x = (guint32) ((v - 128) << 2 | 2);
      guint8 b[2] = { x, x >> 8 };
      g_byte_array_append (a, b, 2);
    }
  else if (v < 16512 + (G_GUINT64_CONSTANT (1) << 29))
    {
      guint32 x = (guint32) ((v - 16512) << 3 | 4);
      guint8 b[4] = { x, x >> 8, x >> 16, x >> 24 };
      g_byte_array_append (a, b, 4);
    }
  else
    {
      guint8 b[9] = { 0 };
      for (int i = 0; i < 8; i++)
        b[1 + i] = (guint8) (v >> (8 * i));
      g_byte_array_append (a, b, 9);
    }
}

static inline void
elogw_cstring (GByteArray *a, const char *s)
{
  elogw_varint (a, strlen (s));
  g_byte_array_append (a, (const guint8 *) s, strlen (s));
}

typedef struct
{
  const char  *format;
  const char  *args;
  const char **enums;   /* NULL-terminated or NULL */
} ElogwType;

/* Header up to (not including) the event count. */
static inline void
elogw_header (GByteArray      *a,
              const ElogwType *types,
              guint            n_types,
              const char     **tracks,
              guint            n_tracks,
              const char      *strtab,
              guint            strtab_len)
{
  elogw_u32 (a, 7);
  g_byte_array_append (a, (const guint8 *) "elog v0", 7);
  elogw_u32 (a, 1024);                                 /* ring size */
  elogw_u64 (a, G_GUINT64_CONSTANT (305000001000000000)); /* save: os_nsec */
  elogw_u64 (a, G_GUINT64_CONSTANT (1000000000) * 2 + 2096024000); /* save: cpu */
  elogw_u64 (a, G_GUINT64_CONSTANT (305000000000000000)); /* init */
  elogw_u64 (a, G_GUINT64_CONSTANT (2000000000));
  elogw_u32 (a, n_types);
  for (guint i = 0; i < n_types; i++)
    {
      guint n = 0;
      elogw_cstring (a, types[i].format);
      elogw_cstring (a, types[i].args);
      elogw_u32 (a, i + 1);
      while (types[i].enums && types[i].enums[n])
        n++;
      elogw_u32 (a, n);
      for (guint k = 0; k < n; k++)
        elogw_cstring (a, types[i].enums[k]);
    }
  elogw_u32 (a, n_tracks);
  for (guint i = 0; i < n_tracks; i++)
    elogw_cstring (a, tracks[i]);
  elogw_u32 (a, strtab_len);
  g_byte_array_append (a, (const guint8 *) strtab, strtab_len);
}

static inline void
elogw_event_head (GByteArray *a, guint type, guint track, double t)
{
  elogw_u16 (a, type);
  elogw_u16 (a, track);
  elogw_f64 (a, t);
}

/* ---- Snabb timeline --------------------------------------------------------------- */

typedef struct
{
  GByteArray *a;
  guint32     n_entries;
  guint32     strings_bytes;
  guint32     next_msg;   /* next free 16-byte slot of the string table */
} Snabbw;

static inline void
snabbw_init (Snabbw *w, guint32 n_entries, guint32 strings_bytes, guint16 major)
{
  static const guint8 magic[8] = { 0x01, 0x00, 0x1d, 0x44, 0x23, 0x72, 0xff, 0xa3 };
  guint8 head[64] = { 0 };
  guint32 log_bytes = n_entries * 64;

  memcpy (head, magic, 8);
  head[8] = major; head[9] = major >> 8;
  head[12] = log_bytes; head[13] = log_bytes >> 8; head[14] = log_bytes >> 16; head[15] = log_bytes >> 24;
  head[16] = strings_bytes; head[17] = strings_bytes >> 8; head[18] = strings_bytes >> 16;
  head[19] = strings_bytes >> 24;
  w->a = g_byte_array_sized_new (64 + log_bytes + strings_bytes);
  g_byte_array_append (w->a, head, 64);
  g_byte_array_set_size (w->a, 64 + log_bytes + strings_bytes);
  memset (w->a->data + 64, 0, log_bytes + strings_bytes);
  w->n_entries = n_entries;
  w->strings_bytes = strings_bytes;
  w->next_msg = 0;
}

/* Adds a message; returns its msgid. */
static inline guint16
snabbw_message (Snabbw *w, const char *text)
{
  guint32 off = w->next_msg * 16, len = (guint32) strlen (text) + 1;
  guint8 *strings = w->a->data + 64 + (gsize) w->n_entries * 64;
  guint16 id = (guint16) w->next_msg;

  g_assert (off + len <= w->strings_bytes);
  memcpy (strings + off, text, len);
  w->next_msg += (len + 15) / 16;
  return id;
}

static inline void
snabbw_put_f64 (guint8 *p, double d)
{
  guint64 v;
  memcpy (&v, &d, 8);
  for (int i = 0; i < 8; i++)
    p[i] = (guint8) (v >> (8 * i));
}

static inline void
snabbw_entry (Snabbw *w, guint32 slot, double tsc, guint16 msgid, guint16 core_numa,
              const double *args, guint n_args)
{
  guint8 *e = w->a->data + 64 + (gsize) slot * 64;

  snabbw_put_f64 (e, tsc);
  e[8] = msgid; e[9] = msgid >> 8;
  e[10] = core_numa; e[11] = core_numa >> 8;
  for (guint i = 0; i < 6; i++)
    snabbw_put_f64 (e + 16 + 8 * i, i < n_args ? args[i] : 0.0);
}
