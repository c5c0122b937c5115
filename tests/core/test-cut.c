/* SPDX-License-Identifier: Apache-2.0 */
/* test-cut.c — a time range / track subset written as a new file */
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "cpel-core.h"
#include "cpel-cut.h"
#include "cpel-loader.h"
#include "cpel-test-util.h"

/* ---- building the source ------------------------------------------------ */

static void
put32 (GByteArray *a, gboolean le, guint32 v)
{
  guint8 b[4];

  v = le ? GUINT32_TO_LE (v) : GUINT32_TO_BE (v);
  memcpy (b, &v, 4);
  g_byte_array_append (a, b, 4);
}

static GBytes *
finish_bytes (CpelWriter *w)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (cpel_writer_finish (w, &error));
  g_assert_no_error (error);
  return cpel_writer_steal_bytes (w);
}

static CpelFile *
load (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  CpelFile *file = cpel_file_new_for_bytes (bytes, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (file);
  return file;
}

/* A source with two string tables (T and S), symbols, event and track
 * definitions, an unknown section, and three event sections: A (table T,
 * 1 GHz), B (table T, 2.4 GHz: ticks are not whole ns), C (table S, clock
 * 1000 read as ticks per µs); events unsorted, with ties. */
static GBytes *
rich_source (gboolean le, guint32 seed)
{
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, le, 1454622194, NULL);
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  static const guint8 unknown[] = { 1, 2, 3, 4, 5, 6, 7 };
  guint t = cpel_writer_add_string_table (w, "T");
  guint32 t_str[4];
  guint s;
  guint32 s_str;

  t_str[0] = cpel_writer_add_string (w, t, "hello");
  t_str[1] = cpel_writer_add_string (w, t, "world, \"quoted\"");
  t_str[2] = cpel_writer_add_string (w, t, "T");   /* equal to the table name */
  t_str[3] = 9999;                                  /* a bad string offset */
  s = cpel_writer_add_string_table (w, "S");
  s_str = cpel_writer_add_string (w, s, "from S");
  cpel_writer_begin_symbols (w, t);
  cpel_writer_add_symbol (w, 0x2000, "fn_b");
  cpel_writer_add_symbol (w, 0x1000, "fn_a");
  cpel_writer_begin_event_defs (w, t);
  cpel_writer_add_event_def (w, 1, "rx", "%s");
  cpel_writer_add_event_def (w, 2, "tx", "len %d");
  cpel_writer_add_event_def (w, 3, "call", "%k");
  cpel_writer_add_event_def (w, 4, "mark", NULL);
  cpel_writer_begin_track_defs (w, t);
  cpel_writer_add_track_def (w, 10, "worker %d");
  cpel_writer_add_track_def (w, 11, "main");
  cpel_writer_add_track_def (w, 0x12345678, NULL);
  cpel_writer_add_track_def (w, 13, "idle");   /* no events */
  cpel_writer_add_raw_section (w, 77, unknown, sizeof unknown);

  /* A: 300 events, 1 GHz, times in [100, 3100) so ties are common */
  cpel_writer_begin_events (w, t, 1000000000, 300);
  for (guint i = 0; i < 300; i++)
    {
      guint32 code = 1 + g_rand_int_range (rand, 0, 4);
      guint32 datum = code == 1 ? t_str[g_rand_int_range (rand, 0, 4)]
                    : code == 3 ? 0x1000u + (guint32) g_rand_int_range (rand, 0, 0x2000)
                    : g_rand_int (rand);
      guint32 tracks[] = { 10, 11, 0x12345678 };

      cpel_writer_add_event (w, 100 + g_rand_int_range (rand, 0, 3000),
                             tracks[g_rand_int_range (rand, 0, 3)], code, datum);
    }

  /* B: 200 events, 2.4 GHz, times in [100, 3100) ns */
  cpel_writer_begin_events (w, t, 2400000000u, 200);
  for (guint i = 0; i < 200; i++)
    {
      guint32 code = g_rand_boolean (rand) ? 1 : 2;

      cpel_writer_add_event (w, 240 + g_rand_int_range (rand, 0, 7200),
                             g_rand_boolean (rand) ? 10 : 11, code,
                             code == 1 ? t_str[g_rand_int_range (rand, 0, 3)] : i);
    }

  /* C: 100 events, table S, clock 1000 (per µs: 1 GHz), an undefined code */
  cpel_writer_begin_events (w, s, 1000, 100);
  for (guint i = 0; i < 100; i++)
    cpel_writer_add_event (w, 50 + g_rand_int_range (rand, 0, 3500), 11,
                           g_rand_boolean (rand) ? 1 : 99, s_str);
  return finish_bytes (w);
}

/* ---- comparing ------------------------------------------------------------ */

/* One line per event of the range on the slots, in time order: time since
 * the first of them, track id and label, code, label, raw datum. */
static GPtrArray *
dump (CpelFile *file, const guint *slots, guint n_slots, gint64 t0, gint64 t1)
{
  g_autoptr(CpelMerge) merge = cpel_merge_new (file, slots, n_slots, t0);
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) label = g_string_new (NULL);
  gint64 first = -1;
  CpelEvent e;

  while (cpel_merge_next (merge, &e, NULL) && e.time_ns < t1)
    {
      if (first < 0)
        first = e.time_ns;
      g_string_truncate (label, 0);
      cpel_file_append_label (file, &e, label);
      g_ptr_array_add (lines, g_strdup_printf ("%" G_GINT64_FORMAT "\t%u\t%s\t%u\t%s\t%u",
                                               e.time_ns - first, e.track_id,
                                               cpel_file_get_track_label (file, e.track_slot),
                                               e.code, label->str, e.datum));
    }
  return lines;
}

/* The raw 20-octet record of each event by file index. */
static GPtrArray *
records (CpelFile *file, GBytes *bytes)
{
  const guint8 *data = g_bytes_get_data (bytes, NULL);
  GPtrArray *recs = g_ptr_array_new ();

  for (guint i = 0; i < cpel_file_get_n_sections (file); i++)
    {
      const CpelSectionInfo *info = cpel_file_get_section (file, i);

      if (info->type == 5)
        for (guint32 j = 0; j < info->count; j++)
          g_ptr_array_add (recs, (gpointer) (data + info->offset + 8 + 72 + j * 20));
    }
  return recs;
}

/* The cut's event sections hold, section by section, the source records of
 * the range in time order; section headers (table name, clock) are kept. */
static void
check_records (CpelFile *src, GBytes *src_bytes, CpelFile *cut, GBytes *cut_bytes,
               const guint *slots, guint n_slots, gint64 t0, gint64 t1)
{
  g_autoptr(GPtrArray) src_recs = records (src, src_bytes);
  g_autoptr(GPtrArray) cut_recs = records (cut, cut_bytes);
  g_autoptr(CpelMerge) merge = cpel_merge_new (src, slots, n_slots, t0);
  const guint8 *sd = g_bytes_get_data (src_bytes, NULL);
  const guint8 *cd = g_bytes_get_data (cut_bytes, NULL);
  GPtrArray *want[8];
  guint n_src_ev = 0, n_cut_ev = 0, k = 0;
  CpelEvent e;

  for (guint s = 0; s < G_N_ELEMENTS (want); s++)
    want[s] = g_ptr_array_new ();
  while (cpel_merge_next (merge, &e, NULL) && e.time_ns < t1)
    g_ptr_array_add (want[e.section], g_ptr_array_index (src_recs, e.file_index));

  for (guint i = 0, j = 0; ; i++, j++)
    {
      const CpelSectionInfo *si = NULL, *ci = NULL;

      for (; i < cpel_file_get_n_sections (src); i++)
        if ((si = cpel_file_get_section (src, i))->type == 5)
          break;
      for (; j < cpel_file_get_n_sections (cut); j++)
        if ((ci = cpel_file_get_section (cut, j))->type == 5)
          break;
      if (i >= cpel_file_get_n_sections (src))
        {
          g_assert_cmpuint (j, ==, cpel_file_get_n_sections (cut));
          break;
        }
      g_assert_cmpuint (j, <, cpel_file_get_n_sections (cut));
      /* name and clock fields */
      g_assert_cmpmem (sd + si->offset + 8, 64, cd + ci->offset + 8, 64);
      g_assert_cmpmem (sd + si->offset + 8 + 68, 4, cd + ci->offset + 8 + 68, 4);
      g_assert_cmpuint (ci->count, ==, want[n_src_ev]->len);
      for (guint32 r = 0; r < ci->count; r++)
        g_assert_cmpmem (g_ptr_array_index (cut_recs, k + r), 20,
                         g_ptr_array_index (want[n_src_ev], r), 20);
      k += ci->count;
      n_src_ev++;
      n_cut_ev++;
    }
  g_assert_cmpuint (n_src_ev, ==, n_cut_ev);
  for (guint s = 0; s < G_N_ELEMENTS (want); s++)
    g_ptr_array_unref (want[s]);
}

static guint
n_warnings (CpelFile *file)
{
  return g_strv_length ((char **) cpel_file_get_warnings (file));
}

/* Cut, reload, compare dump and records; returns the cut. */
static CpelFile *
cut_and_check (CpelFile *src, GBytes *src_bytes, const guint *slots, guint n_slots,
               gint64 t0, gint64 t1, GBytes **out_bytes)
{
  CpelCutOptions opt = { t0, t1, slots, n_slots, FALSE };
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = cpel_cut_to_bytes (src, &opt, NULL, &error);
  g_autoptr(GPtrArray) want = NULL;
  g_autoptr(GPtrArray) got = NULL;
  CpelFile *cut;

  g_assert_no_error (error);
  g_assert_nonnull (bytes);
  cut = load (bytes);
  want = dump (src, slots, n_slots, t0, t1);
  got = dump (cut, NULL, 0, G_MININT64, G_MAXINT64);
  cpel_test_assert_same_lines (want, got);
  g_assert_cmpuint (cpel_file_get_n_events (cut), ==, want->len);
  check_records (src, src_bytes, cut, bytes, slots, n_slots, t0, t1);
  /* the event definitions came through whole */
  for (guint type = 0; type < cpel_file_get_n_types (src); type++)
    if (cpel_file_get_type_defined (src, type))
      {
        guint ct;

        g_assert_true (cpel_file_lookup_type (cut, cpel_file_get_type_code (src, type), &ct));
        g_assert_true (cpel_file_get_type_defined (cut, ct));
        g_assert_cmpstr (cpel_file_get_type_name (cut, ct), ==, cpel_file_get_type_name (src, type));
      }
  g_assert_cmpuint (cpel_file_is_little_endian (cut), ==, cpel_file_is_little_endian (src));
  g_assert_cmpuint (cpel_file_get_date (cut), ==, cpel_file_get_date (src));
  if (out_bytes)
    *out_bytes = g_steal_pointer (&bytes);
  return cut;
}

/* ---- tests -------------------------------------------------------------- */

static void
test_whole (void)
{
  for (guint le = 0; le < 2; le++)
    {
      g_autoptr(GBytes) src_bytes = rich_source (le, 1 + le);
      g_autoptr(CpelFile) src = load (src_bytes);
      g_autoptr(GBytes) cut_bytes = NULL;
      g_autoptr(CpelFile) cut = cut_and_check (src, src_bytes, NULL, 0, 0,
                                               cpel_file_get_duration (src) + 1, &cut_bytes);
      const guint8 *sd = g_bytes_get_data (src_bytes, NULL);
      const guint8 *cd = g_bytes_get_data (cut_bytes, NULL);
      guint n_defs = 0;

      g_assert_cmpuint (cpel_file_get_n_events (cut), ==, 600);
      g_assert_cmpuint (cpel_file_get_n_tracks (cut), ==, cpel_file_get_n_tracks (src));
      g_assert_cmpuint (cpel_file_get_n_types (cut), ==, cpel_file_get_n_types (src));
      g_assert_cmpuint (cpel_file_get_n_sections (cut), ==, cpel_file_get_n_sections (src));
      g_assert_cmpuint (n_warnings (cut), ==, n_warnings (src));
      g_assert_cmpint (cpel_file_get_base_ns (cut), ==, cpel_file_get_base_ns (src));
      g_assert_cmpint (cpel_file_get_duration (cut), ==, cpel_file_get_duration (src));

      /* definition sections, byte for byte and in order, before the events */
      for (guint i = 0; i < cpel_file_get_n_sections (src); i++)
        {
          const CpelSectionInfo *si = cpel_file_get_section (src, i);
          const CpelSectionInfo *ci;

          if (si->type == 5)
            continue;
          ci = cpel_file_get_section (cut, n_defs++);
          g_assert_cmpuint (ci->type, ==, si->type);
          g_assert_cmpmem (sd + si->offset, si->length + 8, cd + ci->offset, ci->length + 8);
        }
    }
}

static void
test_ranges (void)
{
  for (guint32 seed = 1; seed <= 6; seed++)
    {
      g_autoptr(GBytes) src_bytes = rich_source (seed & 1, seed);
      g_autoptr(CpelFile) src = load (src_bytes);
      g_autoptr(GRand) rand = g_rand_new_with_seed (seed + 100);
      gint64 d = cpel_file_get_duration (src);

      for (guint i = 0; i < 12; i++)
        {
          gint64 a = g_rand_int_range (rand, 0, (gint32) d);
          gint64 b = a + g_rand_int_range (rand, 1, (gint32) d);
          g_autoptr(CpelFile) cut = NULL;
          CpelEvent e;

          /* sometimes start on an event's exact time (ties at the edge) */
          if (i % 3 == 0)
            {
              cpel_file_get_track_event (src, i % 3, g_rand_int_range (rand, 0, 50), &e);
              a = e.time_ns;
            }
          cut = cut_and_check (src, src_bytes, NULL, 0, a, b, NULL);
          g_assert_cmpuint (cpel_file_get_n_events (cut), >, 0);
        }
    }
}

static void
test_tracks (void)
{
  g_autoptr(GBytes) src_bytes = rich_source (FALSE, 9);
  g_autoptr(CpelFile) src = load (src_bytes);
  guint s10, s13, sbig;
  g_autoptr(CpelFile) cut = NULL;
  g_autoptr(CpelFile) cut2 = NULL;
  guint slots[2];
  guint slot;

  g_assert_true (cpel_file_lookup_track (src, 10, &s10));
  g_assert_true (cpel_file_lookup_track (src, 13, &s13));
  g_assert_true (cpel_file_lookup_track (src, 0x12345678, &sbig));
  slots[0] = sbig;
  slots[1] = s10;
  cut = cut_and_check (src, src_bytes, slots, 2, 500, 2500, NULL);
  /* only the chosen tracks remain, with their labels */
  g_assert_cmpuint (cpel_file_get_n_tracks (cut), ==, 2);
  g_assert_true (cpel_file_lookup_track (cut, 10, &slot));
  g_assert_cmpstr (cpel_file_get_track_label (cut, slot), ==, "worker 10");
  g_assert_true (cpel_file_lookup_track (cut, 0x12345678, &slot));
  g_assert_cmpstr (cpel_file_get_track_label (cut, slot), ==, "0x12345678");
  g_assert_false (cpel_file_lookup_track (cut, 11, NULL));

  /* a defined track without events is kept when chosen */
  slots[0] = s13;
  cut2 = cut_and_check (src, src_bytes, slots, 1, 0, G_MAXINT64, NULL);
  g_assert_cmpuint (cpel_file_get_n_events (cut2), ==, 0);
  g_assert_cmpuint (cpel_file_get_n_tracks (cut2), ==, 1);
  g_assert_cmpstr (cpel_file_get_track_label (cut2, 0), ==, "idle");
}

static void
test_empty (void)
{
  g_autoptr(GBytes) src_bytes = rich_source (TRUE, 3);
  g_autoptr(CpelFile) src = load (src_bytes);
  g_autoptr(CpelFile) before = cut_and_check (src, src_bytes, NULL, 0, -1000, 0, NULL);
  g_autoptr(CpelFile) inverted = cut_and_check (src, src_bytes, NULL, 0, 50, 10, NULL);

  g_assert_cmpuint (cpel_file_get_n_events (before), ==, 0);
  g_assert_cmpuint (cpel_file_get_n_events (inverted), ==, 0);
  /* definitions still there: every defined code and track */
  g_assert_cmpuint (cpel_file_get_n_types (before), ==, 4);
  g_assert_cmpuint (cpel_file_get_n_tracks (before), ==, 4);
}

static void
test_bad_slots (void)
{
  g_autoptr(GBytes) src_bytes = rich_source (TRUE, 3);
  g_autoptr(CpelFile) src = load (src_bytes);
  guint bad[] = { 0, 0 };
  CpelCutOptions opt = { 0, 100, bad, 2, FALSE };
  g_autoptr(GError) error = NULL;

  g_assert_null (cpel_cut_to_bytes (src, &opt, NULL, &error));
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_INVALID);
  g_clear_error (&error);
  bad[1] = 99;
  g_assert_null (cpel_cut_to_bytes (src, &opt, NULL, &error));
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_INVALID);
}

static void
on_progress (double fraction, gpointer data)
{
  GArray *seen = data;

  g_array_append_val (seen, fraction);
}

static void
test_file (void)
{
  g_autoptr(GBytes) src_bytes = rich_source (FALSE, 4);
  g_autoptr(CpelFile) src = load (src_bytes);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cpel-cut-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "cut.cpel", NULL);
  g_autoptr(GArray) seen = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *contents = NULL;
  gsize len;
  guint64 n = 0;
  CpelCutOptions opt = { 1000, 2000, NULL, 0, FALSE };
  g_autoptr(CpelFile) cut = NULL;
  g_autoptr(GPtrArray) want = NULL;
  g_autoptr(GPtrArray) got = NULL;

  g_assert_no_error (error);
  g_assert_true (cpel_cut_write (src, path, &opt, NULL, on_progress, seen, &n, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_test_count_entries (dir), ==, 1);
  cut = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_file_get_n_events (cut), ==, n);
  want = dump (src, NULL, 0, 1000, 2000);
  got = dump (cut, NULL, 0, G_MININT64, G_MAXINT64);
  cpel_test_assert_same_lines (want, got);
  g_assert_cmpuint (n, ==, want->len);
  g_assert_cmpuint (seen->len, >=, 2);
  for (guint i = 1; i < seen->len; i++)
    g_assert_cmpfloat (g_array_index (seen, double, i), >=, g_array_index (seen, double, i - 1));
  g_assert_cmpfloat (g_array_index (seen, double, seen->len - 1), ==, 1.0);

  /* no overwrite: the existing file stays as it was */
  g_assert_true (g_file_set_contents (path, "precious", -1, &error));
  opt.t0 = 0;
  g_assert_false (cpel_cut_write (src, path, &opt, NULL, NULL, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS);
  g_clear_error (&error);
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  g_assert_cmpstr (contents, ==, "precious");
  g_assert_cmpuint (cpel_test_count_entries (dir), ==, 1);

  /* overwrite when asked */
  opt.overwrite = TRUE;
  g_assert_true (cpel_cut_write (src, path, &opt, NULL, NULL, NULL, &n, &error));
  g_assert_no_error (error);
  g_clear_object (&cut);
  cut = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_file_get_n_events (cut), ==, n);
  g_assert_cmpuint (cpel_test_count_entries (dir), ==, 1);

  /* a missing directory: an error, nothing written */
  g_clear_pointer (&path, g_free);
  path = g_build_filename (dir, "no", "such", "dir.cpel", NULL);
  g_assert_false (cpel_cut_write (src, path, &opt, NULL, NULL, NULL, NULL, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);

  g_clear_object (&cut);
  g_clear_pointer (&path, g_free);
  path = g_build_filename (dir, "cut.cpel", NULL);
  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static void
test_cancel (void)
{
  g_autoptr(GBytes) src_bytes = rich_source (FALSE, 5);
  g_autoptr(CpelFile) src = load (src_bytes);
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) c = g_cancellable_new ();
  g_autofree char *dir = g_dir_make_tmp ("cpel-cut-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "cut.cpel", NULL);

  g_cancellable_cancel (c);
  g_assert_false (cpel_cut_write (src, path, NULL, c, NULL, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (cpel_test_count_entries (dir), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* A cancellation in the middle of a large cut leaves nothing behind. */
static void
cancel_at_half (double fraction, gpointer data)
{
  if (fraction >= 0.5)
    g_cancellable_cancel (data);
}

static void
test_cancel_midway (void)
{
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, FALSE, 0, NULL);
  guint t = cpel_writer_add_string_table (w, "T");
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(CpelFile) src = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) c = g_cancellable_new ();
  g_autofree char *dir = g_dir_make_tmp ("cpel-cut-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "cut.cpel", NULL);

  cpel_writer_begin_events (w, t, 1000000000, 400000);
  for (guint i = 0; i < 400000; i++)
    cpel_writer_add_event (w, i, i % 7, i % 3, i);
  bytes = finish_bytes (w);
  src = load (bytes);
  g_assert_false (cpel_cut_write (src, path, NULL, c, cancel_at_half, c, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (cpel_test_count_entries (dir), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* ---- odd string tables, assembled by hand ------------------------------- */

typedef struct
{
  GByteArray *a;
  gboolean    le;
  guint       n;
} Asm;

static void
asm_init (Asm *m, gboolean le)
{
  static const guint8 zero[4] = { 0 };

  m->a = g_byte_array_new ();
  m->le = le;
  m->n = 0;
  g_byte_array_append (m->a, (const guint8 *) (le ? "\x81\0" : "\x01\0"), 2);
  g_byte_array_append (m->a, zero, 2);           /* section count, patched */
  put32 (m->a, le, 1454622194);
}

static void
asm_section (Asm *m, guint32 type, GByteArray *data)
{
  put32 (m->a, m->le, type);
  put32 (m->a, m->le, data->len);
  g_byte_array_append (m->a, data->data, data->len);
  g_byte_array_unref (data);
  m->n++;
}

/* A section body: 64-octet table name, then 32-bit words. */
static GByteArray *
body (gboolean le, const char *table, guint n_words, const guint32 *words)
{
  GByteArray *d = g_byte_array_new ();
  char name[64] = { 0 };

  memcpy (name, table, MIN (strlen (table), sizeof name));
  g_byte_array_append (d, (const guint8 *) name, 64);
  for (guint i = 0; i < n_words; i++)
    put32 (d, le, words[i]);
  return d;
}

static GByteArray *
bytes_of (const char *data, gsize len)
{
  return g_byte_array_append (g_byte_array_new (), (const guint8 *) data, len);
}

static GBytes *
asm_finish (Asm *m)
{
  m->a->data[2] = m->le ? m->n & 0xff : m->n >> 8;
  m->a->data[3] = m->le ? m->n >> 8 : m->n & 0xff;
  return g_byte_array_free_to_bytes (m->a);
}

/* P: "rx" at 2, "%s" at 5, "alpha" at 8, "beta" at 14; 19 octets of
 * strings, padded to 28 (VPP's converter pads beyond the multiple of 4: the
 * writer re-creates 20, offsets 20..27 are dropped padding). */
static const char p_table[28] = "P\0rx\0%s\0alpha\0beta";

/* Events (1 GHz) on track 1: code 1 ("rx", datum %s) with the given datums
 * at 100, 200, ...; one code 2 event (no datum format) with datum 24. */
static GBytes *
padded_source (gboolean le, const guint32 *datums, guint n, guint32 datum_fmt3,
               const char *events_table, gboolean with_dups)
{
  Asm m;
  /* count, then (code, event format, datum format) */
  guint32 defs[] = { datum_fmt3 ? 3 : 2, 1, 2, 5, 2, 0, 0, 3, 0, datum_fmt3 };
  g_autofree guint32 *ev = g_new (guint32, 2 + 5 * (n + 1));

  asm_init (&m, le);
  asm_section (&m, 1, bytes_of (p_table, sizeof p_table));
  if (with_dups)
    asm_section (&m, 1, bytes_of ("R\0dup\0dup\0\0", 12));
  asm_section (&m, 3, body (le, "P", datum_fmt3 ? 10 : 7, defs));
  ev[0] = n + 1;
  ev[1] = 1000000000;
  for (guint i = 0; i < n; i++)
    {
      guint32 *r = ev + 2 + 5 * i;
      r[0] = 0; r[1] = 100 * (i + 1); r[2] = 1; r[3] = 1; r[4] = datums[i];
    }
  {
    guint32 *r = ev + 2 + 5 * n;
    r[0] = 0; r[1] = 50; r[2] = 1; r[3] = datum_fmt3 ? 3 : 2; r[4] = 24;
  }
  asm_section (&m, 5, body (le, events_table, 2 + 5 * (n + 1), ev));
  return asm_finish (&m);
}

/* Cut the whole file and a range, reload, compare; the string tables of
 * the cut are those of the source, byte for byte and in order. */
static void
check_faithful (GBytes *src_bytes, gint64 t0, gint64 t1, guint n_range)
{
  g_autoptr(CpelFile) src = load (src_bytes);
  g_autoptr(GBytes) cut_bytes = NULL;
  g_autoptr(CpelFile) whole = cut_and_check (src, src_bytes, NULL, 0, 0, G_MAXINT64, &cut_bytes);
  g_autoptr(CpelFile) part = cut_and_check (src, src_bytes, NULL, 0, t0, t1, NULL);
  const guint8 *sd = g_bytes_get_data (src_bytes, NULL);
  const guint8 *cd = g_bytes_get_data (cut_bytes, NULL);
  guint j = 0;

  g_assert_cmpuint (cpel_file_get_n_events (whole), ==, cpel_file_get_n_events (src));
  g_assert_cmpuint (cpel_file_get_n_events (part), ==, n_range);
  g_assert_cmpuint (cpel_file_get_n_sections (whole), ==, cpel_file_get_n_sections (src));
  g_assert_cmpuint (n_warnings (whole), ==, n_warnings (src));
  for (guint i = 0; i < cpel_file_get_n_sections (src); i++)
    {
      const CpelSectionInfo *si = cpel_file_get_section (src, i);
      const CpelSectionInfo *ci;

      if (si->type != 1)
        continue;
      while ((ci = cpel_file_get_section (whole, j++))->type != 1)
        ;
      g_assert_cmpmem (sd + si->offset, si->length + 8, cd + ci->offset, ci->length + 8);
    }
}

static void
test_padding (void)
{
  static const guint32 ok[] = { 8, 14, 19, 5, 99 };   /* 19: the last NUL; 99: bad offset */
  static const guint32 tail[] = { 8, 24, 14 };          /* 24: padding beyond the multiple of 4 */

  for (guint le = 0; le < 2; le++)
    {
      g_autoptr(GBytes) src_bytes = padded_source (le, ok, G_N_ELEMENTS (ok), 0, "P", FALSE);
      g_autoptr(CpelFile) src = load (src_bytes);
      g_autoptr(GBytes) cut_bytes = NULL;
      g_autoptr(CpelFile) cut = cut_and_check (src, src_bytes, NULL, 0, 0, G_MAXINT64, &cut_bytes);
      g_autoptr(GBytes) tail_bytes = padded_source (le, tail, G_N_ELEMENTS (tail), 0, "P", FALSE);
      g_autoptr(CpelFile) tail_src = load (tail_bytes);
      g_autoptr(CpelFile) tail_cut = NULL;
      g_autoptr(GError) error = NULL;
      CpelCutOptions opt = { 0, G_MAXINT64, NULL, 0, FALSE };
      g_autofree char *dir = g_dir_make_tmp ("cpel-cut-XXXXXX", NULL);
      g_autofree char *path = g_build_filename (dir, "cut.cpel", NULL);

      /* the whole file keeps its size (the padding is kept), its table too */
      g_assert_cmpuint (g_bytes_get_size (cut_bytes), ==, g_bytes_get_size (src_bytes));
      g_assert_cmpuint (cpel_file_get_n_events (cut), ==, 6);
      check_faithful (src_bytes, 0, 150, 2);

      /* a %s datum into the padding reads the same (empty) string in the cut */
      g_assert_true (cpel_cut_write (tail_src, path, &opt, NULL, NULL, NULL, NULL, &error));
      g_assert_no_error (error);
      tail_cut = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      {
        g_autoptr(GPtrArray) want = dump (tail_src, NULL, 0, G_MININT64, G_MAXINT64);
        g_autoptr(GPtrArray) got = dump (tail_cut, NULL, 0, G_MININT64, G_MAXINT64);

        cpel_test_assert_same_lines (want, got);
        g_assert_cmpuint (want->len, ==, 4);
      }
      g_assert_cmpint (g_unlink (path), ==, 0);
      g_assert_cmpint (g_rmdir (dir), ==, 0);
      /* a range holding that event, and one before it (it is at 150 ns;
       * the code 2 event with datum 24, at 0, has no %s) */
      check_faithful (tail_bytes, 150, 250, 1);
      check_faithful (tail_bytes, 0, 150, 2);
    }
}

static void
test_def_in_padding (void)
{
  static const guint32 ok[] = { 8 };
  /* event code 3's datum format at offset 22: in the padding beyond the
   * multiple of 4 (an empty format) */
  g_autoptr(GBytes) src_bytes = padded_source (FALSE, ok, 1, 22, "P", FALSE);

  check_faithful (src_bytes, 0, 40, 1);
}

static void
test_repeated_strings (void)
{
  static const guint32 ok[] = { 8, 14 };
  static const guint32 dup_refs[] = { 2, 6, 10, 11, 0 };   /* "dup", "dup", "", padding, name */
  /* R (repeated and empty strings) named by nothing: kept all the same */
  g_autoptr(GBytes) src_bytes = padded_source (TRUE, ok, 2, 0, "P", TRUE);
  /* R named by the event section (its %s datums read R) */
  g_autoptr(GBytes) named_bytes = padded_source (TRUE, dup_refs, G_N_ELEMENTS (dup_refs), 0, "R", TRUE);
  g_autoptr(CpelFile) named = load (named_bytes);
  g_autoptr(GPtrArray) lines = dump (named, NULL, 0, G_MININT64, G_MAXINT64);

  check_faithful (src_bytes, 150, 250, 1);
  check_faithful (named_bytes, 150, 350, 2);
  /* the labels really come from R's repeated strings */
  g_assert_true (g_str_has_suffix (g_ptr_array_index (lines, 1), "\trx: dup\t2"));
  g_assert_true (g_str_has_suffix (g_ptr_array_index (lines, 2), "\trx: dup\t6"));
}

static void
test_missing_table (void)
{
  static const guint32 refs[] = { 8, 14 };

  /* the events name a table that does not exist: their section is written
   * raw and the %s datums read as in the source */
  for (guint le = 0; le < 2; le++)
    {
      g_autoptr(GBytes) src_bytes = padded_source (le, refs, 2, 0, "Nope", FALSE);
      g_autoptr(CpelFile) src = load (src_bytes);
      g_autoptr(GPtrArray) lines = dump (src, NULL, 0, G_MININT64, G_MAXINT64);

      /* no string from another table */
      g_assert_false (g_str_has_suffix (g_ptr_array_index (lines, 1), "\trx: alpha\t8"));
      check_faithful (src_bytes, 0, 40, 1);
      check_faithful (src_bytes, 40, 200, 2);
    }
}

/* A table whose length is not a multiple of 4 (the writer would pad it: it
 * is copied raw), a reference just past its end, and a table whose name
 * fills the events' 64-octet name field (the writer cannot name it). */
static void
test_odd_names (void)
{
  static const guint32 refs[] = { 2, 5, 7 };   /* "ab", past the end, far past */
  static const char unpadded[] = "U\0ab";      /* 5 octets */
  char long_name[80];

  memset (long_name, 'L', 64);
  memcpy (long_name + 64, "\0xyz\0\0\0", 8);   /* "xyz" at 65; 72 octets */
  for (guint le = 0; le < 2; le++)
    for (guint variant = 0; variant < 2; variant++)
      {
        Asm m;
        const char *table = variant ? long_name : unpadded;
        gsize table_len = variant ? 72 : 5;
        char name[65] = { 0 };
        guint32 ev[2 + 5 * 4];
        g_autoptr(GBytes) bytes = NULL;
        g_autoptr(CpelFile) src = NULL;

        memcpy (name, table, variant ? 64 : 1);
        asm_init (&m, le);
        asm_section (&m, 1, bytes_of (table, table_len));
        asm_section (&m, 1, bytes_of ("F\0%s\0\0\0", 8));
        asm_section (&m, 3, body (le, "F", 4, (guint32[]) { 1, 1, 0, 2 }));
        ev[0] = 4;
        ev[1] = 1000000000;
        for (guint i = 0; i < 4; i++)
          {
            guint32 *r = ev + 2 + 5 * i;
            r[0] = 0; r[1] = 10 * (i + 1); r[2] = 7; r[3] = 1;
            r[4] = i < 3 ? refs[i] : (variant ? 65 : 2);
          }
        asm_section (&m, 5, body (le, name, G_N_ELEMENTS (ev), ev));
        bytes = asm_finish (&m);
        src = load (bytes);
        {
          g_autoptr(GPtrArray) lines = dump (src, NULL, 0, G_MININT64, G_MAXINT64);

          /* the table is really the one read */
          g_assert_true (g_str_has_suffix (g_ptr_array_index (lines, 3),
                                           variant ? "\tE1: xyz\t65" : "\tE1: ab\t2"));
        }
        check_faithful (bytes, 15, 35, 2);
      }
}

static void
test_sample (void)
{
  g_autofree char *path = cpel_test_fixture_file ("vpp-sample.cpel");
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) src_bytes = NULL;
  g_autoptr(CpelFile) src = NULL;
  g_autoptr(CpelFile) whole = NULL;
  g_autoptr(CpelFile) part = NULL;
  g_autoptr(GBytes) whole_bytes = NULL;
  g_autoptr(GMappedFile) mapped = NULL;
  gint64 d;

  mapped = g_mapped_file_new (path, FALSE, &error);
  g_assert_no_error (error);
  src_bytes = g_mapped_file_get_bytes (mapped);
  src = load (src_bytes);
  d = cpel_file_get_duration (src);

  /* the whole capture comes out byte for byte (its string table's padding
   * beyond the multiple of 4 included) */
  whole = cut_and_check (src, src_bytes, NULL, 0, 0, d + 1, &whole_bytes);
  g_assert_cmpmem (g_bytes_get_data (whole_bytes, NULL), g_bytes_get_size (whole_bytes),
                   g_bytes_get_data (src_bytes, NULL), g_bytes_get_size (src_bytes));
  g_assert_cmpuint (n_warnings (whole), ==, 0);

  part = cut_and_check (src, src_bytes, NULL, 0, d / 3, 2 * d / 3, NULL);
  g_assert_cmpuint (cpel_file_get_n_events (part), >, 15);
  g_assert_cmpuint (cpel_file_get_n_events (part), <, 30);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/cut/whole", test_whole);
  g_test_add_func ("/core/cut/ranges", test_ranges);
  g_test_add_func ("/core/cut/tracks", test_tracks);
  g_test_add_func ("/core/cut/empty", test_empty);
  g_test_add_func ("/core/cut/bad-slots", test_bad_slots);
  g_test_add_func ("/core/cut/file", test_file);
  g_test_add_func ("/core/cut/cancel", test_cancel);
  g_test_add_func ("/core/cut/cancel-midway", test_cancel_midway);
  g_test_add_func ("/core/cut/padding", test_padding);
  g_test_add_func ("/core/cut/def-in-padding", test_def_in_padding);
  g_test_add_func ("/core/cut/repeated-strings", test_repeated_strings);
  g_test_add_func ("/core/cut/missing-table", test_missing_table);
  g_test_add_func ("/core/cut/odd-names", test_odd_names);
  g_test_add_func ("/core/cut/sample", test_sample);
  return g_test_run ();
}
