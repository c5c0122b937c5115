/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-import-elog-c2cpel.c — a VPP elog as VPP's c2cpel converts it
 * (--c2cpel): one event type per brief name, the rest of the text as the
 * datum string, tracks in c2cpel's order; written as a CPEL file.
 */
#include "cpel-import-elog-private.h"

#include <string.h>

#include "cpel-writer.h"

/* ---- c2cpel ----------------------------------------------------------------------- */

typedef struct
{
  GString    *tab;
  GHashTable *offsets;   /* string -> offset + 1 */
} C2Strtab;

static guint32
c2_add (C2Strtab *t, const char *s)
{
  gpointer v = g_hash_table_lookup (t->offsets, s);
  guint32 off;

  if (v != NULL)
    return GPOINTER_TO_UINT (v) - 1;
  off = (guint32) t->tab->len;
  g_string_append_len (t->tab, s, strlen (s) + 1);
  g_hash_table_insert (t->offsets, g_strdup (s), GUINT_TO_POINTER (off + 1));
  return off;
}

typedef struct
{
  guint32 original;
  guint32 name;   /* strtab offset */
} C2Track;

/* c2cpel's track order: glibc's merge sort with a compare that stops at the
 * end of the shorter name (prefixes compare equal), ties in input order. */
static int
c2_compare (const C2Track *a, const C2Track *b, const char *tab)
{
  const guint8 *s1 = (const guint8 *) tab + a->name, *s2 = (const guint8 *) tab + b->name;

  for (gsize i = 0; s1[i] && s2[i]; i++)
    if (s1[i] != s2[i])
      return s1[i] < s2[i] ? -1 : 1;
  return 0;
}

static void
c2_msort (C2Track *b, gsize n, C2Track *tmp, const char *tab)
{
  gsize n1, n2;
  C2Track *b1, *b2, *out = tmp;

  if (n <= 1)
    return;
  n1 = n / 2;
  n2 = n - n1;
  b1 = b;
  b2 = b + n1;
  c2_msort (b1, n1, tmp, tab);
  c2_msort (b2, n2, tmp, tab);
  while (n1 > 0 && n2 > 0)
    {
      if (c2_compare (b1, b2, tab) <= 0)
        {
          *out++ = *b1++;
          n1--;
        }
      else
        {
          *out++ = *b2++;
          n2--;
        }
    }
  if (n1 > 0)
    memcpy (out, b1, n1 * sizeof *out);
  memcpy (b, tmp, (n - n2) * sizeof *out);
}

static void
put32 (GByteArray *a, guint32 v)
{
  guint8 b[4] = { v >> 24, v >> 16, v >> 8, v };
  g_byte_array_append (a, b, 4);
}

static void
put_name64 (GByteArray *a, const char *name)
{
  guint8 buf[64] = { 0 };
  memcpy (buf, name, strlen (name));
  g_byte_array_append (a, buf, 64);
}

gboolean
_cpel_import_elog_c2cpel (Elog              *e,
                          CpelImportBuilder *b,
                          GError           **error)
{
  const CpelImportOptions *opts = cpel_import_builder_get_options (b);
  C2Strtab st = { g_string_new (NULL), g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL) };
  g_autoptr(GHashTable) event_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) track_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GArray) defs = g_array_new (FALSE, FALSE, sizeof (guint32));   /* id, name, fmt */
  g_autoptr(GArray) tracks = g_array_new (FALSE, FALSE, sizeof (C2Track));
  g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (guint32)); /* hi, lo, track, code, datum */
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GByteArray) sec = NULL;
  g_autofree guint32 *alpha = NULL;
  g_autofree C2Track *tmp = NULL;
  g_autoptr(CpelWriter) w = NULL;
  gboolean ok = FALSE;
  double start = 0;

  c2_add (&st, "FileStrtab");
  for (guint32 i = 0; i < e->n_events; i++)
    {
      ElogEvent ev;
      const ElogType *t;
      gpointer v;
      guint32 code, track, datum, rec[5];
      double delta;
      guint64 ts;
      const char *rest;

      g_string_truncate (text, 0);
      if (!_cpel_import_elog_read_event (e, &e->r, &ev, text))
        goto out;
      if (i == 0)
        start = ev.time;
      t = &e->types[ev.type];
      delta = ev.time - start;
      ts = delta > 0 ? (delta * 1e9 >= 1.8e19 ? G_MAXUINT64 : (guint64) (delta * 1e9)) : 0;

      v = g_hash_table_lookup (event_ids, t->name);
      if (v == NULL)
        {
          guint32 d[3];
          code = g_hash_table_size (event_ids);
          d[0] = code;
          d[1] = c2_add (&st, t->name);
          d[2] = c2_add (&st, "%s");
          g_array_append_vals (defs, d, 3);
          g_hash_table_insert (event_ids, g_strdup (t->name), GUINT_TO_POINTER (code + 1));
        }
      else
        code = GPOINTER_TO_UINT (v) - 1;

      v = g_hash_table_lookup (track_ids, e->tracks[ev.track]);
      if (v == NULL)
        {
          C2Track tr;
          track = tracks->len;
          tr.original = track;
          tr.name = c2_add (&st, e->tracks[ev.track]);
          g_array_append_val (tracks, tr);
          g_hash_table_insert (track_ids, g_strdup (e->tracks[ev.track]), GUINT_TO_POINTER (track + 1));
        }
      else
        track = GPOINTER_TO_UINT (v) - 1;

      /* the text minus the name and the character after it */
      rest = t->cut <= text->len ? text->str + t->cut : "";
      datum = c2_add (&st, rest);

      rec[0] = (guint32) (ts >> 32);
      rec[1] = (guint32) ts;
      rec[2] = track;
      rec[3] = code;
      rec[4] = datum;
      g_array_append_vals (events, rec, 5);
      if ((i & 0xffff) == 0 && !cpel_import_check_cancel (b, error))
        goto out;
    }

  /* tracks in c2cpel's order */
  tmp = g_new (C2Track, MAX (tracks->len, 1));
  c2_msort ((C2Track *) tracks->data, tracks->len, tmp, st.tab->str);
  alpha = g_new0 (guint32, MAX (tracks->len, 1));
  for (guint i = 0; i < tracks->len; i++)
    alpha[g_array_index (tracks, C2Track, i).original] = i;

  while (st.tab->len & 7)
    g_string_append_c (st.tab, '\0');

  w = cpel_writer_new (NULL, FALSE, opts->date ? opts->date : (guint32) (g_get_real_time () / G_USEC_PER_SEC),
                       error);
  if (w == NULL)
    goto out;
  cpel_writer_add_raw_section (w, 1, st.tab->str, st.tab->len);

  sec = g_byte_array_new ();
  put_name64 (sec, "FileStrtab");
  put32 (sec, defs->len / 3);
  for (guint i = 0; i < defs->len; i++)
    put32 (sec, g_array_index (defs, guint32, i));
  cpel_writer_add_raw_section (w, 3, sec->data, sec->len);

  g_byte_array_set_size (sec, 0);
  put_name64 (sec, "FileStrtab");
  put32 (sec, tracks->len);
  for (guint i = 0; i < tracks->len; i++)
    {
      put32 (sec, i);
      put32 (sec, g_array_index (tracks, C2Track, i).name);
    }
  cpel_writer_add_raw_section (w, 4, sec->data, sec->len);

  g_byte_array_set_size (sec, 0);
  put_name64 (sec, "FileStrtab");
  put32 (sec, events->len / 5);
  put32 (sec, 1000000000);
  for (guint i = 0; i < events->len; i += 5)
    {
      guint32 *rec = &g_array_index (events, guint32, i);
      put32 (sec, rec[0]);
      put32 (sec, rec[1]);
      put32 (sec, alpha[rec[2]]);
      put32 (sec, rec[3]);
      put32 (sec, rec[4]);
    }
  cpel_writer_add_raw_section (w, 5, sec->data, sec->len);
  if (!cpel_writer_finish (w, error))
    goto out;
  {
    g_autoptr(GBytes) bytes = cpel_writer_steal_bytes (w);
    cpel_import_builder_set_raw_output (b, bytes);
  }
  ok = TRUE;

out:
  g_string_free (st.tab, TRUE);
  g_hash_table_unref (st.offsets);
  return ok;
}
