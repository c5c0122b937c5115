/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-test-pair.c — the two captures with planted differences and the
 * checks the diff, compare rendering and compare window tests share (see
 * cpel-test-pair.h) */
#include <stdarg.h>

#include "cpel-test-pair.h"
#include "cpel-test-util.h"
#include "cpel-writer.h"

typedef struct
{
  gint64  rel_ns;
  guint32 track;
  guint32 code;
} PairEvent;

static gint
pair_cmp (gconstpointer a, gconstpointer b)
{
  const PairEvent *x = a, *y = b;

  return x->rel_ns < y->rel_ns ? -1 : x->rel_ns > y->rel_ns;
}

GBytes *
cpel_test_pair_write (gboolean b_side)
{
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, b_side, 0, NULL);
  g_autoptr(GArray) ev = g_array_new (FALSE, FALSE, sizeof (PairEvent));
  g_autoptr(GError) error = NULL;
  guint t = cpel_writer_add_string_table (w, "T");
  /* A: wk0 = 1, wk1 = 2; B: wk1 = 5, wk0 = 6, wk2 = 7 */
  guint32 wk0 = b_side ? 6 : 1, wk1 = b_side ? 5 : 2;
  guint32 same = b_side ? 10 : 2, dbl = b_side ? 11 : 3, slow = b_side ? 12 : 4;
  guint64 base_ns = b_side ? 4000 : 100;
  PairEvent e;

  cpel_writer_begin_event_defs (w, t);
  if (!b_side)
    {
      cpel_writer_add_event_def (w, 1, "only-a", NULL);
      cpel_writer_add_event_def (w, 2, "same", NULL);
      cpel_writer_add_event_def (w, 3, "double", NULL);
      cpel_writer_add_event_def (w, 4, "slow", NULL);
      cpel_writer_add_event_def (w, 5, "dup", NULL);
      cpel_writer_add_event_def (w, 6, "dup", NULL);
    }
  else
    {
      cpel_writer_add_event_def (w, 10, "same", NULL);
      cpel_writer_add_event_def (w, 11, "double", NULL);
      cpel_writer_add_event_def (w, 12, "slow", NULL);
      cpel_writer_add_event_def (w, 13, "only-b", NULL);
      cpel_writer_add_event_def (w, 14, "dup", NULL);
    }
  cpel_writer_begin_track_defs (w, t);
  if (!b_side)
    {
      cpel_writer_add_track_def (w, 1, "wk0");
      cpel_writer_add_track_def (w, 2, "wk1");
    }
  else
    {
      cpel_writer_add_track_def (w, 5, "wk1");
      cpel_writer_add_track_def (w, 6, "wk0");
      cpel_writer_add_track_def (w, 7, "wk2");
    }

#define PAIR_ADD(ns, tr, c) G_STMT_START { e.rel_ns = (ns); e.track = (tr); e.code = (c); \
    g_array_append_val (ev, e); } G_STMT_END
  for (guint k = 0; k < 10; k++)
    PAIR_ADD (100 * k, wk0, same);
  for (guint k = 0; k < (b_side ? 10u : 5u); k++)
    PAIR_ADD ((b_side ? 100 : 200) * k, wk0, dbl);
  for (guint k = 0; k < 4; k++)
    PAIR_ADD ((b_side ? 300 : 100) * k, wk1, slow);
  if (!b_side)
    {
      PAIR_ADD (900, wk1, 1);
      PAIR_ADD (910, wk1, 1);
      PAIR_ADD (920, wk1, 1);
      PAIR_ADD (931, wk1, 1);
      PAIR_ADD (1900, wk0, 5);
      PAIR_ADD (1950, wk0, 6);
      PAIR_ADD (2000, wk0, 5);
    }
  else
    {
      PAIR_ADD (500, 7, 13);
      PAIR_ADD (1900, wk0, 14);
      PAIR_ADD (1950, wk0, 14);
      PAIR_ADD (2000, wk0, 14);
    }
#undef PAIR_ADD
  /* in time order: the file can be streamed without an index */
  g_array_sort (ev, pair_cmp);

  /* 1 GHz: ticks are ns; 2.5 GHz: 2.5 ticks per ns (every time is even) */
  cpel_writer_begin_events (w, t, b_side ? 2500000000u : 1000000000u, ev->len);
  for (guint i = 0; i < ev->len; i++)
    {
      const PairEvent *p = &g_array_index (ev, PairEvent, i);
      guint64 ns = base_ns + (guint64) p->rel_ns;
      guint64 ticks = b_side ? ns * 5 / 2 : ns;

      g_assert (!b_side || ns % 2 == 0);
      cpel_writer_add_event (w, ticks, p->track, p->code, i);
    }
  g_assert_true (cpel_writer_finish (w, &error));
  g_assert_no_error (error);
  return cpel_writer_steal_bytes (w);
}

void
cpel_test_pair_write_files (const char *path_a,
                            const char *path_b)
{
  g_autoptr(GError) error = NULL;

  for (guint side = 0; side < 2; side++)
    {
      g_autoptr(GBytes) bytes = cpel_test_pair_write (side == 1);
      gsize len;
      const char *data = g_bytes_get_data (bytes, &len);

      g_assert_true (g_file_set_contents (side == 0 ? path_a : path_b, data, len, &error));
      g_assert_no_error (error);
    }
}

CpelFile *
cpel_test_pair_file (gboolean               b_side,
                     const CpelLoadOptions *options)
{
  g_autoptr(GBytes) bytes = cpel_test_pair_write (b_side);

  return cpel_test_file_for_bytes (bytes, options);
}

guint
cpel_test_type_named (CpelFile   *file,
                      const char *name)
{
  for (guint t = 0; t < cpel_file_get_n_types (file); t++)
    if (g_strcmp0 (cpel_file_get_type_name (file, t), name) == 0)
      return t;
  g_error ("no event type named \"%s\"", name);
}

guint
cpel_test_slot_labelled (CpelFile   *file,
                         const char *label)
{
  for (guint s = 0; s < cpel_file_get_n_tracks (file); s++)
    if (g_strcmp0 (cpel_file_get_track_label (file, s), label) == 0)
      return s;
  g_error ("no track labelled \"%s\"", label);
}

void
cpel_test_assert_rows_at (const char  *where,
                          CpelFile    *file,
                          const guint *rows,
                          guint        n_rows,
                          const char  *first_label,
                          ...)
{
  va_list args;
  guint i = 0;

  va_start (args, first_label);
  for (const char *label = first_label; label != NULL; label = va_arg (args, const char *), i++)
    {
      const char *got;

      if (rows == NULL)
        g_error ("%s: rows NULL (%u), \"%s\" expected as row %u", where, n_rows, label, i);
      if (i >= n_rows)
        g_error ("%s: %u rows, \"%s\" expected as row %u", where, n_rows, label, i);
      if (rows[i] >= cpel_file_get_n_tracks (file))
        g_error ("%s: row %u is slot %u of %u", where, i, rows[i], cpel_file_get_n_tracks (file));
      got = cpel_file_get_track_label (file, rows[i]);
      if (g_strcmp0 (got, label) != 0)
        g_error ("%s: row %u is \"%s\", \"%s\" expected", where, i, got, label);
    }
  va_end (args);
  if (n_rows != i)
    g_error ("%s: %u rows, %u expected", where, n_rows, i);
}
