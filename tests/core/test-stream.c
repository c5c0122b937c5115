/* SPDX-License-Identifier: Apache-2.0 */
/* test-stream.c — reading a file in time order without its index
 *
 * A file loaded with defer_index is merged over its event sections when
 * they are in time order; otherwise its index is built.  Either way the
 * events must come out exactly as from the index: same order, same fields.
 */
#include <glib/gstdio.h>
#include <string.h>

#include "cpel-core.h"
#include "cpel-gen.h"
#include "cpel-loader.h"

typedef struct
{
  guint64 ticks;
  guint32 track, code, datum;
} Ev;

typedef struct
{
  guint32 clock;
  guint   n;
  Ev     *events;
} Section;

static GBytes *
write_file (const Section *sections,
            guint          n_sections,
            gboolean       little_endian)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, little_endian, 0, &error);
  guint strings, defs;

  g_assert_no_error (error);
  defs = cpel_writer_add_string_table (w, "Defs");
  strings = cpel_writer_add_string_table (w, "Strings");
  cpel_writer_add_string (w, strings, "hello");
  cpel_writer_begin_event_defs (w, defs);
  cpel_writer_add_event_def (w, 1, "one", "%d");
  cpel_writer_add_event_def (w, 2, "two", "%s");
  cpel_writer_add_event_def (w, 7, "seven", NULL);
  cpel_writer_begin_track_defs (w, defs);
  cpel_writer_add_track_def (w, 3, "cpu %d");
  cpel_writer_add_track_def (w, 99, "unused %d");
  for (guint s = 0; s < n_sections; s++)
    {
      cpel_writer_begin_events (w, strings, sections[s].clock, sections[s].n);
      for (guint i = 0; i < sections[s].n; i++)
        {
          const Ev *e = &sections[s].events[i];
          cpel_writer_add_event (w, e->ticks, e->track, e->code, e->datum);
        }
    }
  g_assert_true (cpel_writer_finish (w, &error));
  g_assert_no_error (error);
  return cpel_writer_steal_bytes (w);
}

static void
assert_same_event (const CpelEvent *a,
                   const CpelEvent *b)
{
  g_assert_cmpint (a->time_ns, ==, b->time_ns);
  g_assert_cmpuint (a->file_index, ==, b->file_index);
  g_assert_cmpuint (a->track_id, ==, b->track_id);
  g_assert_cmpuint (a->code, ==, b->code);
  g_assert_cmpuint (a->datum, ==, b->datum);
  g_assert_cmpuint (a->track_slot, ==, b->track_slot);
  g_assert_cmpuint (a->type, ==, b->type);
  g_assert_cmpuint (a->section, ==, b->section);
}

/* Every event from `from` on (of `slots` when not NULL), from both files. */
static guint64
compare_merges (CpelFile    *indexed,
                CpelFile    *streamed,
                const guint *slots,
                guint        n_slots,
                gint64       from)
{
  g_autoptr(CpelMerge) a = cpel_merge_new (indexed, slots, n_slots, from);
  g_autoptr(CpelMerge) b = cpel_merge_new (streamed, slots, n_slots, from);
  CpelEvent ea, eb;
  guint64 n = 0;

  while (cpel_merge_next (a, &ea, NULL))
    {
      g_assert_true (cpel_merge_next (b, &eb, NULL));
      assert_same_event (&ea, &eb);
      n++;
    }
  g_assert_false (cpel_merge_next (b, &eb, NULL));
  return n;
}

static void
compare_stats (CpelFile               *indexed,
               CpelFile               *streamed,
               const CpelStatsOptions *options)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelStats) a = cpel_stats_compute (indexed, options, NULL, &error);
  g_autoptr(CpelStats) b = cpel_stats_compute (streamed, options, NULL, &error);
  g_autofree char *ta = NULL;
  g_autofree char *tb = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (cpel_stats_get_n_codes (a), ==, cpel_stats_get_n_codes (b));
  for (guint i = 0; i < cpel_stats_get_n_codes (a); i++)
    {
      const CpelStatsCode *ca = cpel_stats_get_code (a, i), *cb = cpel_stats_get_code (b, i);

      g_assert_cmpuint (ca->code, ==, cb->code);
      g_assert_cmpuint (ca->count, ==, cb->count);
      g_assert_cmpuint (ca->n_intervals, ==, cb->n_intervals);
      g_assert_cmpint (ca->interval_min, ==, cb->interval_min);
      g_assert_cmpint (ca->interval_max, ==, cb->interval_max);
      g_assert_cmpfloat (ca->interval_mean, ==, cb->interval_mean);
    }
  g_assert_cmpuint (cpel_stats_get_n_tracks (a), ==, cpel_stats_get_n_tracks (b));
  for (guint i = 0; i < cpel_stats_get_n_tracks (a); i++)
    {
      const CpelStatsTrack *xa = cpel_stats_get_track (a, i), *xb = cpel_stats_get_track (b, i);

      g_assert_cmpuint (xa->slot, ==, xb->slot);
      g_assert_cmpuint (xa->count, ==, xb->count);
    }
  ta = cpel_stats_to_text (a);
  tb = cpel_stats_to_text (b);
  g_assert_cmpstr (ta, ==, tb);
}

static void
compare_cut (CpelFile             *indexed,
             CpelFile             *streamed,
             const CpelCutOptions *options)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) a = cpel_cut_to_bytes (indexed, options, NULL, &error);
  g_autoptr(GBytes) b = NULL;

  g_assert_no_error (error);
  b = cpel_cut_to_bytes (streamed, options, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (a, b));
}

/* Loaded without its index and checked by cpel_file_check_nearly_ordered():
 * when nearly ordered, streamed (no index built) with the same events,
 * statistics and cut as the indexed file. */
static void
compare_nearly (GBytes      *bytes,
                CpelFile    *indexed,
                gboolean     expect_nearly,
                const gint64 *froms,
                guint        n_froms)
{
  g_autoptr(GError) error = NULL;
  CpelLoadOptions deferred = { .defer_index = TRUE };
  g_autoptr(CpelFile) nearly = cpel_file_new_for_bytes (bytes, &deferred, &error);
  gint64 duration = cpel_file_get_duration (indexed);
  guint n_tracks = cpel_file_get_n_tracks (indexed);
  gboolean ok;

  g_assert_no_error (error);
  ok = cpel_file_check_nearly_ordered (nearly, NULL);
  g_assert_cmpint (ok, ==, expect_nearly);
  g_assert_cmpint (cpel_file_can_stream (nearly), ==, expect_nearly);
  /* a second check changes nothing */
  g_assert_cmpint (cpel_file_check_nearly_ordered (nearly, NULL), ==, expect_nearly);

  g_assert_cmpuint (compare_merges (indexed, nearly, NULL, 0, 0), ==,
                    cpel_file_get_n_events (indexed));
  for (gint64 from = -1; from <= duration + 1; from += MAX (duration / 13, 1))
    compare_merges (indexed, nearly, NULL, 0, from);
  for (guint i = 0; i < n_froms; i++)
    compare_merges (indexed, nearly, NULL, 0, froms[i]);
  compare_merges (indexed, nearly, NULL, 0, duration);
  compare_merges (indexed, nearly, NULL, 0, G_MAXINT64);
  if (n_tracks >= 2)
    {
      guint some[] = { n_tracks - 1, 0 };

      compare_merges (indexed, nearly, some, 1, 0);
      compare_merges (indexed, nearly, some, 2, duration / 3);
    }
  compare_stats (indexed, nearly, NULL);
  {
    CpelStatsOptions options = { duration / 5, duration / 2 + 1, NULL, 0, NULL };

    compare_stats (indexed, nearly, &options);
  }
  g_assert_cmpint (cpel_file_has_index (nearly), ==, !expect_nearly);
  /* cut: each section's range through its reorder heap, byte for byte as
   * from the index, and still without it */
  compare_cut (indexed, nearly, NULL);
  {
    CpelCutOptions options = { duration / 3, duration / 2 + 1, NULL, 0, FALSE };

    compare_cut (indexed, nearly, &options);
    for (guint i = 0; i < n_froms; i++)
      {
        options.t0 = froms[i];
        options.t1 = froms[i] + MAX (duration / 11, 1);
        compare_cut (indexed, nearly, &options);
      }
    options.t0 = duration / 4;
    options.t1 = duration / 4;   /* empty */
    compare_cut (indexed, nearly, &options);
    if (n_tracks >= 2)
      {
        guint some[] = { n_tracks - 1, 0 };

        options.t0 = duration / 5;
        options.t1 = duration;
        options.slots = some;
        options.n_slots = 2;
        compare_cut (indexed, nearly, &options);
        options.n_slots = 1;
        options.t0 = 0;
        compare_cut (indexed, nearly, &options);
      }
  }
  g_assert_cmpint (cpel_file_has_index (nearly), ==, !expect_nearly);
  compare_merges (indexed, nearly, NULL, 0, 0);
}

static void
compare_files (GBytes   *bytes,
               gboolean  expect_ordered)
{
  g_autoptr(GError) error = NULL;
  CpelLoadOptions deferred = { .defer_index = TRUE };
  g_autoptr(CpelFile) indexed = cpel_file_new_for_bytes (bytes, NULL, &error);
  g_autoptr(CpelFile) streamed = NULL;
  gint64 duration;
  guint n_tracks;

  g_assert_no_error (error);
  streamed = cpel_file_new_for_bytes (bytes, &deferred, &error);
  g_assert_no_error (error);

  g_assert_true (cpel_file_has_index (indexed));
  g_assert_false (cpel_file_has_index (streamed));
  g_assert_cmpint (cpel_file_is_time_ordered (streamed), ==, expect_ordered);
  g_assert_cmpint (cpel_file_is_time_ordered (indexed), ==, expect_ordered);

  /* what does not need the index is there already */
  g_assert_cmpuint (cpel_file_get_n_events (streamed), ==, cpel_file_get_n_events (indexed));
  g_assert_cmpint (cpel_file_get_duration (streamed), ==, cpel_file_get_duration (indexed));
  g_assert_cmpint (cpel_file_get_base_ns (streamed), ==, cpel_file_get_base_ns (indexed));
  n_tracks = cpel_file_get_n_tracks (indexed);
  g_assert_cmpuint (cpel_file_get_n_tracks (streamed), ==, n_tracks);
  for (guint s = 0; s < n_tracks; s++)
    {
      g_assert_cmpstr (cpel_file_get_track_label (streamed, s), ==,
                       cpel_file_get_track_label (indexed, s));
      g_assert_cmpuint (cpel_file_get_track_n_events (streamed, s), ==,
                        cpel_file_get_track_n_events (indexed, s));
    }
  g_assert_cmpuint (cpel_file_get_n_types (streamed), ==, cpel_file_get_n_types (indexed));

  duration = cpel_file_get_duration (indexed);
  g_assert_cmpuint (compare_merges (indexed, streamed, NULL, 0, 0), ==,
                    cpel_file_get_n_events (indexed));
  for (gint64 from = -1; from <= duration + 1; from += MAX (duration / 7, 1))
    compare_merges (indexed, streamed, NULL, 0, from);
  compare_merges (indexed, streamed, NULL, 0, duration);
  compare_merges (indexed, streamed, NULL, 0, duration + 1);
  compare_merges (indexed, streamed, NULL, 0, G_MAXINT64);
  if (n_tracks >= 2)
    {
      guint some[] = { n_tracks - 1, 0 };

      compare_merges (indexed, streamed, some, 1, 0);
      compare_merges (indexed, streamed, some, 2, duration / 2);
    }
  compare_merges (indexed, streamed, (const guint[]) { 0 }, 0, 0);

  /* cut: each section's range straight from the records */
  compare_cut (indexed, streamed, NULL);
  {
    guint some[] = { n_tracks - 1, 0 };
    CpelCutOptions options = { duration / 3, duration / 2 + 1, NULL, 0, FALSE };

    compare_cut (indexed, streamed, &options);
    if (n_tracks >= 2)
      {
        options.slots = some;
        options.n_slots = 2;
        compare_cut (indexed, streamed, &options);
        options.n_slots = 1;
        options.t0 = 0;
        compare_cut (indexed, streamed, &options);
      }
  }

  /* statistics: in one merge when there is no index */
  compare_stats (indexed, streamed, NULL);
  {
    g_autofree guint8 *hidden = g_malloc0 (MAX (cpel_file_get_n_types (indexed), 1));
    guint some[] = { n_tracks - 1, 0 };
    CpelStatsOptions options = { duration / 5, duration / 2 + 1, NULL, 0, hidden };

    if (cpel_file_get_n_types (indexed) > 1)
      hidden[1] = 1;
    compare_stats (indexed, streamed, &options);
    if (n_tracks >= 2)
      {
        options.slots = some;
        options.n_slots = 2;
        options.t0 = 0;
        compare_stats (indexed, streamed, &options);
      }
  }

  /* streaming a time-ordered file needs no index; any other one builds it */
  g_assert_cmpint (cpel_file_has_index (streamed), ==, !expect_ordered);

  /* the deferred index, once built, is the same */
  g_assert_true (cpel_file_ensure_index (streamed, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (cpel_file_has_index (streamed));
  for (guint s = 0; s < n_tracks; s++)
    {
      guint64 na, nb;
      const gint64 *ta = cpel_file_get_track_times (indexed, s, &na);
      const gint64 *tb = cpel_file_get_track_times (streamed, s, &nb);

      g_assert_cmpuint (na, ==, nb);
      if (na > 0)
        g_assert_cmpmem (ta, na * sizeof (gint64), tb, nb * sizeof (gint64));
      for (guint64 i = 0; i < na; i++)
        {
          CpelEvent ea, eb;

          cpel_file_get_track_event (indexed, s, i, &ea);
          cpel_file_get_track_event (streamed, s, i, &eb);
          assert_same_event (&ea, &eb);
        }
    }
  compare_merges (indexed, streamed, NULL, 0, 0);

  /* every file these tests make is nearly in order */
  compare_nearly (bytes, indexed, TRUE, NULL, 0);
}

/* Three sections with their own clocks (one read as ticks per µs), times
 * that overlap across sections, equal times within and across sections. */
static void
make_sections (Section *sections,
               gboolean sorted,
               guint32  seed)
{
  static const guint32 clocks[] = { 1000000000, 2400000000u, 3000 };
  GRand *rand = g_rand_new_with_seed (seed);

  for (guint s = 0; s < 3; s++)
    {
      /* ticks per ns: 1, 2.4, 3 */
      guint64 t = s == 1 ? 2400 : 0;

      sections[s].clock = clocks[s];
      sections[s].n = 300 + 50 * s;
      sections[s].events = g_new (Ev, sections[s].n);
      for (guint i = 0; i < sections[s].n; i++)
        {
          Ev *e = &sections[s].events[i];

          /* steps of 0 (equal times) or a few ns, in each section's ticks */
          t += (s == 0 ? 1 : s == 1 ? 24 : 30) * (guint64) g_rand_int_range (rand, 0, 3);
          e->ticks = t;
          e->track = g_rand_int_range (rand, 0, 4) == 0 ? 3 : g_rand_int_range (rand, 0, 6) * 0x10001;
          e->code = g_rand_int_range (rand, 0, 3) == 0 ? 2 : g_rand_int_range (rand, 0, 9);
          e->datum = e->code == 2 ? 0 : g_rand_int (rand);
        }
    }
  if (!sorted)
    {
      /* one pair out of order in the middle section */
      Ev *e = sections[1].events;
      Ev tmp = e[100];

      g_assert_cmpuint (e[100].ticks, <, e[120].ticks);
      e[100] = e[120];
      e[120] = tmp;
    }
  g_rand_free (rand);
}

static void
free_sections (Section *sections,
               guint    n)
{
  for (guint s = 0; s < n; s++)
    g_free (sections[s].events);
}

static void
test_sections (gconstpointer data)
{
  gboolean sorted = GPOINTER_TO_INT (data);

  for (guint seed = 1; seed <= 4; seed++)
    for (int little = 0; little <= 1; little++)
      {
        Section sections[3];
        g_autoptr(GBytes) bytes = NULL;

        make_sections (sections, sorted, seed);
        bytes = write_file (sections, 3, little);
        compare_files (bytes, sorted);
        /* one section alone, and the sections in another order */
        {
          g_autoptr(GBytes) one = write_file (&sections[2], 1, little);
          Section swapped[3] = { sections[2], sections[0], sections[1] };
          g_autoptr(GBytes) other = write_file (swapped, 3, little);

          compare_files (one, TRUE);
          compare_files (other, sorted);
        }
        free_sections (sections, 3);
      }
}

/* Every table of the diff of a and b, as CSV and as text, and the
 * histograms: the output of `cpel diff` for each option. */
static char *
diff_outputs (CpelFile              *a,
              CpelFile              *b,
              const CpelDiffOptions *options)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelDiff) diff = cpel_diff_compute (a, b, options, NULL, &error);
  GString *out = g_string_new (NULL);

  g_assert_no_error (error);
  g_assert_nonnull (diff);
  for (CpelDiffBy by = CPEL_DIFF_BY_EVENTS; by <= CPEL_DIFF_BY_TRACKS; by++)
    {
      g_autofree char *csv = cpel_diff_to_csv (diff, by);
      g_autofree char *text = cpel_diff_to_text (diff, by, "a.cpel", "b.cpel");

      g_string_append (out, csv);
      g_string_append (out, text);
      for (guint i = 0; i < cpel_diff_get_n_rows (diff, by); i++)
        {
          const CpelDiffRow *row = cpel_diff_get_row (diff, by, i);

          for (guint side = 0; side < 2; side++)
            {
              const guint64 *h = side == 0 ? row->histogram_a : row->histogram_b;

              g_string_append_printf (out, "%s %u:", row->name, side);
              for (guint k = 0; h != NULL && k < CPEL_STATS_HISTOGRAM_BINS; k++)
                g_string_append_printf (out, " %" G_GUINT64_FORMAT, h[k]);
              g_string_append_c (out, '\n');
            }
        }
    }
  g_string_append_printf (out, "totals %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "\n",
                          cpel_diff_get_total_a (diff), cpel_diff_get_total_b (diff));
  return g_string_free (out, FALSE);
}

/* `cpel diff` of two files read without their index (streamed when in time
 * order) against the diff of the same files indexed, for several ranges,
 * hidden types and with histograms; the streamed ones build no index. */
static void
compare_diff (GBytes *bytes_a,
              GBytes *bytes_b)
{
  g_autoptr(GError) error = NULL;
  CpelLoadOptions deferred = { .defer_index = TRUE };
  g_autoptr(CpelFile) ia = cpel_file_new_for_bytes (bytes_a, NULL, &error);
  g_autoptr(CpelFile) ib = cpel_file_new_for_bytes (bytes_b, NULL, &error);
  g_autoptr(CpelFile) sa = cpel_file_new_for_bytes (bytes_a, &deferred, &error);
  g_autoptr(CpelFile) sb = cpel_file_new_for_bytes (bytes_b, &deferred, &error);
  g_autofree guint8 *hidden_a = NULL;
  g_autofree guint8 *hidden_b = NULL;
  gint64 span = MAX (cpel_file_get_duration (ia), cpel_file_get_duration (ib));
  gboolean ordered_a, ordered_b;

  g_assert_no_error (error);
  ordered_a = cpel_file_is_time_ordered (sa);
  ordered_b = cpel_file_is_time_ordered (sb);
  hidden_a = g_malloc0 (MAX (cpel_file_get_n_types (ia), 1));
  hidden_b = g_malloc0 (MAX (cpel_file_get_n_types (ib), 1));
  if (cpel_file_get_n_types (ia) > 1)
    hidden_a[1] = 1;
  if (cpel_file_get_n_types (ib) > 0)
    hidden_b[0] = 1;

  {
    const CpelDiffOptions options[] = {
      { 0, G_MAXINT64, FALSE, NULL, NULL },
      { 0, G_MAXINT64, TRUE, NULL, NULL },
      { span / 5, G_MAXINT64, FALSE, NULL, NULL },
      { 0, span / 3 + 1, TRUE, NULL, NULL },
      { span / 4, span / 2, TRUE, hidden_a, hidden_b },
      { 0, G_MAXINT64, FALSE, hidden_a, NULL },
      { span + 1, G_MAXINT64, FALSE, NULL, NULL },
      { 1, 2, TRUE, NULL, NULL },
    };

    for (guint i = 0; i < G_N_ELEMENTS (options); i++)
      {
        g_autofree char *want = diff_outputs (ia, ib, &options[i]);
        g_autofree char *got = diff_outputs (sa, sb, &options[i]);
        g_autofree char *got_ab = diff_outputs (sa, ib, &options[i]);

        g_assert_cmpstr (got, ==, want);
        g_assert_cmpstr (got_ab, ==, want);
      }
    {
      g_autofree char *want = diff_outputs (ia, ib, NULL);
      g_autofree char *got = diff_outputs (sa, sb, NULL);

      g_assert_cmpstr (got, ==, want);
    }
  }
  g_assert_cmpint (cpel_file_has_index (sa), ==, !ordered_a);
  g_assert_cmpint (cpel_file_has_index (sb), ==, !ordered_b);
}

static void
test_diff (void)
{
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autofree char *dir = g_dir_make_tmp ("cpel-stream-XXXXXX", NULL);

  /* sections with their own clocks, sorted (two seeds) and not */
  for (guint k = 0; k < 3; k++)
    {
      Section sections[3];

      make_sections (sections, k < 2, k + 1);
      g_ptr_array_add (files, write_file (sections, 3, k == 1));
      free_sections (sections, 3);
    }
  /* cpel gen's usual (a few events swapped) and sorted files */
  for (int sorted = 0; sorted <= 1; sorted++)
    {
      g_autofree char *path = g_build_filename (dir, "gen.cpel", NULL);
      CpelGenOptions options = { .n_events = 50000, .n_tracks = 11 + sorted, .seed = 7 + sorted,
                                 .little_endian = sorted, .sorted = sorted };
      g_autoptr(GError) error = NULL;
      char *data;
      gsize len;

      g_assert_true (cpel_gen_write (path, &options, &error));
      g_assert_no_error (error);
      g_assert_true (g_file_get_contents (path, &data, &len, &error));
      g_assert_no_error (error);
      g_ptr_array_add (files, g_bytes_new_take (data, len));
      g_unlink (path);
    }
  g_rmdir (dir);
  /* no event at all */
  g_ptr_array_add (files, write_file (NULL, 0, FALSE));

  for (guint i = 0; i < files->len; i++)
    for (guint j = 0; j < files->len; j++)
      compare_diff (files->pdata[i], files->pdata[j]);
}

/* Whether every record of the section is at or after every record `window`
 * or more places before it (in ticks): the condition itself, run directly. */
static gboolean
within_window (const Section *section,
               guint          window)
{
  guint64 max = 0;

  for (guint j = window; j < section->n; j++)
    {
      max = MAX (max, section->events[j - window].ticks);
      if (section->events[j].ticks < max)
        return FALSE;
    }
  return TRUE;
}

/* The record at `from` moved to `to`, the ones between shifted by one. */
static void
move_event (Section *section,
            guint    from,
            guint    to)
{
  Ev e = section->events[from];

  if (to > from)
    memmove (&section->events[from], &section->events[from + 1], (to - from) * sizeof (Ev));
  else
    memmove (&section->events[to + 1], &section->events[to], (from - to) * sizeof (Ev));
  section->events[to] = e;
}

/* A section in order: `step` ticks apart, `equal` records at each time. */
static void
fill_section (Section *section,
              guint32  clock,
              guint    n,
              guint    step,
              guint    equal,
              guint64  t0)
{
  section->clock = clock;
  section->n = n;
  section->events = g_new (Ev, n);
  for (guint i = 0; i < n; i++)
    section->events[i] = (Ev) { t0 + (guint64) step * (i / equal), i % 5 == 0 ? 3 : i % 7,
                                (i * 7) % 3 == 0 ? 2 : (i % 3 == 0 ? 7 : 1), i };
}

static void
check_window (Section  *sections,
              guint     n_sections,
              gboolean  expect_nearly,
              gint64   *froms,
              guint     n_froms)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = write_file (sections, n_sections, FALSE);
  g_autoptr(CpelFile) indexed = cpel_file_new_for_bytes (bytes, NULL, &error);
  gboolean within = TRUE;

  g_assert_no_error (error);
  for (guint s = 0; s < n_sections; s++)
    within &= within_window (&sections[s], CPEL_REORDER_WINDOW);
  g_assert_cmpint (within, ==, expect_nearly);
  compare_nearly (bytes, indexed, expect_nearly, froms, n_froms);
}

/* The reorder window at its edges: a record CPEL_REORDER_WINDOW − 1 places
 * late or early streams, one more does not (the index is built); equal
 * times; several sections with their own clocks; random local swaps. */
static void
test_window (void)
{
  const guint K = CPEL_REORDER_WINDOW;
  const guint n = 3 * K;
  const guint p = K + 100;

  for (int extra = 0; extra <= 1; extra++)
    {
      Section late, early;
      gint64 froms[] = { 10 * (gint64) p - 1, 10 * (gint64) p, 10 * (gint64) p + 1,
                         10 * (gint64) (p + K / 2), 10 * (gint64) (p + K) };

      /* record p moved K − 1 (K) places later: the first record above it
       * is K (K + 1) places before it */
      fill_section (&late, 1000000000, n, 10, 1, 0);
      move_event (&late, p, p + K - 1 + extra);
      check_window (&late, 1, !extra, froms, G_N_ELEMENTS (froms));
      free_sections (&late, 1);

      /* record p + K − 1 (+ 1) moved to p: it is above the K − 1 (K) after it */
      fill_section (&early, 1000000000, n, 10, 1, 0);
      move_event (&early, p + K - 1 + extra, p);
      check_window (&early, 1, !extra, froms, G_N_ELEMENTS (froms));
      free_sections (&early, 1);
    }

  /* equal times (four records at each): the ones equal to the moved record
   * do not count; moved to the start and to the end */
  {
    Section eq[3];
    gint64 froms[] = { 10 * (gint64) (p / 4), 10 * (gint64) (p / 4) + 1, 0, 1 };

    fill_section (&eq[0], 1000000000, n, 10, 4, 0);
    move_event (&eq[0], p, p + K + 2);
    fill_section (&eq[1], 1000000000, n, 10, 4, 5);
    move_event (&eq[1], 3, 0);
    move_event (&eq[1], n - 1, n - 4);
    move_event (&eq[1], 0, K);
    fill_section (&eq[2], 1000000000, n, 10, 4, 0);
    move_event (&eq[2], p, p + K + 4);
    check_window (eq, 2, TRUE, froms, G_N_ELEMENTS (froms));
    check_window (&eq[2], 1, FALSE, froms, G_N_ELEMENTS (froms));
    free_sections (eq, 3);
  }

  /* sections with their own clocks (2.4 ticks per ns: several ticks read as
   * the same ns; 3000 ticks/s read as ticks per µs), one in order */
  {
    Section clocks[3];
    gint64 froms[] = { 2000, 2001, 7777, 12000 };

    fill_section (&clocks[0], 2400000000u, 2 * K, 1, 1, 1000);
    move_event (&clocks[0], 10, 10 + K - 1);
    move_event (&clocks[0], K + 500 + K / 2, K + 500);
    fill_section (&clocks[1], 3000, K, 1, 3, 0);
    move_event (&clocks[1], K - 2, 1);
    fill_section (&clocks[2], 1000000000, K / 2, 7, 2, 333);
    check_window (clocks, 3, TRUE, froms, G_N_ELEMENTS (froms));
    move_event (&clocks[0], 200, 200 + K);
    check_window (clocks, 3, FALSE, froms, G_N_ELEMENTS (froms));
    free_sections (clocks, 3);
  }

  /* random swaps at most `d` places apart */
  {
    static const guint distances[] = { 1, 2, 100, 2048, 4095, 4096, 5000 };
    GRand *rand = g_rand_new_with_seed (11);

    for (guint k = 0; k < G_N_ELEMENTS (distances); k++)
      {
        Section r[2];
        gint64 froms[] = { 12345, 66666 };
        guint d = distances[k];

        fill_section (&r[0], 1000000000, n, 10, 1 + k % 3, 0);
        fill_section (&r[1], 2400000000u, n / 2, 24, 1, 100);
        for (guint i = 0; i < 20; i++)
          {
            guint a = g_rand_int_range (rand, 0, n - d);
            Ev tmp = r[0].events[a];

            r[0].events[a] = r[0].events[a + d];
            r[0].events[a + d] = tmp;
          }
        check_window (r, 2, within_window (&r[0], K), froms, G_N_ELEMENTS (froms));
        free_sections (r, 2);
      }
    g_rand_free (rand);
  }
}

static void
test_empty (void)
{
  Section sections[2] = { { 1000000000, 0, NULL }, { 1000000000, 0, NULL } };
  g_autoptr(GBytes) none = write_file (sections, 0, FALSE);
  g_autoptr(GBytes) empty = write_file (sections, 2, TRUE);

  compare_files (none, TRUE);
  compare_files (empty, TRUE);
}

/* The index is built by two threads, each over half of the events: the
 * one pair out of order sits exactly where they meet. */
static void
test_chunk_boundary (void)
{
  const guint n = 1200000;
  Section section = { 1000000000, n, g_new (Ev, n) };
  CpelLoadOptions two = { .n_threads = 2, .defer_index = TRUE };
  g_autoptr(GError) error = NULL;

  for (int out_of_order = 0; out_of_order <= 1; out_of_order++)
    {
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(CpelFile) file = NULL;

      for (guint i = 0; i < n; i++)
        section.events[i] = (Ev) { 10 * (guint64) i, i % 5, 1, i };
      if (out_of_order)
        {
          section.events[n / 2 - 1].ticks = 10 * (guint64) (n / 2) + 1;
          section.events[n / 2].ticks = 10 * (guint64) (n / 2);
        }
      bytes = write_file (&section, 1, FALSE);
      file = cpel_file_new_for_bytes (bytes, &two, &error);
      g_assert_no_error (error);
      g_assert_cmpint (cpel_file_is_time_ordered (file), ==, !out_of_order);
      compare_files (bytes, !out_of_order);
    }
  g_free (section.events);
}

/* cpel gen's files: the usual one has a few events swapped across tracks,
 * --sorted none. */
static void
test_gen (void)
{
  g_autofree char *dir = g_dir_make_tmp ("cpel-stream-XXXXXX", NULL);

  for (int sorted = 0; sorted <= 1; sorted++)
    {
      g_autofree char *path = g_build_filename (dir, sorted ? "sorted.cpel" : "usual.cpel", NULL);
      CpelGenOptions options = { .n_events = 200000, .n_tracks = 37, .seed = 5,
                                 .little_endian = sorted, .sorted = sorted };
      g_autoptr(GError) error = NULL;
      g_autoptr(GMappedFile) mapped = NULL;
      g_autoptr(GBytes) bytes = NULL;

      g_assert_true (cpel_gen_write (path, &options, &error));
      g_assert_no_error (error);
      mapped = g_mapped_file_new (path, FALSE, &error);
      g_assert_no_error (error);
      bytes = g_mapped_file_get_bytes (mapped);
      compare_files (bytes, sorted);
      g_clear_pointer (&bytes, g_bytes_unref);
      g_clear_pointer (&mapped, g_mapped_file_unref);

      /* from the path: the pages read are given back as the merge goes */
      {
        CpelLoadOptions deferred = { .defer_index = TRUE };
        g_autoptr(CpelFile) indexed = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
        g_autoptr(CpelFile) streamed = cpel_file_new_for_path (path, &deferred, NULL, NULL, NULL, &error);

        g_assert_no_error (error);
        g_assert_cmpuint (compare_merges (indexed, streamed, NULL, 0, 0), ==, options.n_events);
      }
      g_unlink (path);
    }
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/core/stream/sections/sorted", GINT_TO_POINTER (TRUE), test_sections);
  g_test_add_data_func ("/core/stream/sections/unsorted", GINT_TO_POINTER (FALSE), test_sections);
  g_test_add_func ("/core/stream/empty", test_empty);
  g_test_add_func ("/core/stream/chunk-boundary", test_chunk_boundary);
  g_test_add_func ("/core/stream/gen", test_gen);
  g_test_add_func ("/core/stream/diff", test_diff);
  g_test_add_func ("/core/stream/window", test_window);
  return g_test_run ();
}
