/* SPDX-License-Identifier: Apache-2.0 */
/* test-stats.c — per code / per track statistics over a time range */
#include <string.h>

#include <gio/gio.h>

#include "cpel-core.h"
#include "cpel-loader.h"
#include "cpel-stats.h"
#include "cpel-test-util.h"

/* Clock 1 GHz: ticks are ns (and the earliest event is at 100).
 *   track 10: code 1 at 100, 150, 400; code 2 at 200, 300
 *   track 20: code 1 at 120, 125;     code 3 at 500
 * Relative times: subtract 100. */
static CpelFile *
small_file (void)
{
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, FALSE, 0, NULL);
  guint t = cpel_writer_add_string_table (w, "T");

  cpel_writer_begin_event_defs (w, t);
  cpel_writer_add_event_def (w, 1, "rx", "%d");
  cpel_writer_add_event_def (w, 2, "say \"hi\", ok", NULL);
  cpel_writer_add_event_def (w, 3, "drop", NULL);
  cpel_writer_begin_track_defs (w, t);
  cpel_writer_add_track_def (w, 10, "worker, \"ten\"");
  cpel_writer_add_track_def (w, 20, "worker twenty");
  cpel_writer_begin_events (w, t, 1000000000, 8);
  cpel_writer_add_event (w, 400, 10, 1, 0);
  cpel_writer_add_event (w, 100, 10, 1, 0);
  cpel_writer_add_event (w, 120, 20, 1, 0);
  cpel_writer_add_event (w, 150, 10, 1, 0);
  cpel_writer_add_event (w, 200, 10, 2, 0);
  cpel_writer_add_event (w, 125, 20, 1, 0);
  cpel_writer_add_event (w, 300, 10, 2, 0);
  cpel_writer_add_event (w, 500, 20, 3, 0);
  return cpel_test_writer_file (w);
}

static CpelStats *
compute (CpelFile *file, const CpelStatsOptions *options)
{
  g_autoptr(GError) error = NULL;
  CpelStats *stats = cpel_stats_compute (file, options, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (stats);
  return stats;
}

static void
test_whole (void)
{
  g_autoptr(CpelFile) file = small_file ();
  g_autoptr(CpelStats) stats = compute (file, NULL);
  const CpelStatsCode *c;

  g_assert_cmpuint (cpel_stats_get_total (stats), ==, 8);
  g_assert_cmpint (cpel_stats_get_t0 (stats), ==, 0);
  g_assert_cmpint (cpel_stats_get_t1 (stats), ==, 401);
  g_assert_cmpuint (cpel_stats_get_n_codes (stats), ==, 3);

  /* code 1: track 10 intervals 50, 250; track 20: 5 -> min 5 max 250 mean 305/3 */
  c = cpel_stats_get_code (stats, 0);
  g_assert_cmpuint (c->code, ==, 1);
  g_assert_cmpstr (c->name, ==, "rx");
  g_assert_cmpuint (c->count, ==, 5);
  g_assert_cmpuint (c->n_intervals, ==, 3);
  g_assert_cmpint (c->interval_min, ==, 5);
  g_assert_cmpint (c->interval_max, ==, 250);
  g_assert_cmpfloat_with_epsilon (c->interval_mean, 305.0 / 3, 1e-9);

  c = cpel_stats_get_code (stats, 1);
  g_assert_cmpuint (c->code, ==, 2);
  g_assert_cmpuint (c->count, ==, 2);
  g_assert_cmpuint (c->n_intervals, ==, 1);
  g_assert_cmpint (c->interval_min, ==, 100);
  g_assert_cmpint (c->interval_max, ==, 100);
  g_assert_cmpfloat (c->interval_mean, ==, 100.0);

  c = cpel_stats_get_code (stats, 2);
  g_assert_cmpuint (c->code, ==, 3);
  g_assert_cmpuint (c->count, ==, 1);
  g_assert_cmpuint (c->n_intervals, ==, 0);

  g_assert_cmpuint (cpel_stats_get_n_tracks (stats), ==, 2);
  g_assert_cmpuint (cpel_stats_get_track (stats, 0)->track_id, ==, 10);
  g_assert_cmpuint (cpel_stats_get_track (stats, 0)->count, ==, 5);
  g_assert_cmpuint (cpel_stats_get_track (stats, 1)->track_id, ==, 20);
  g_assert_cmpuint (cpel_stats_get_track (stats, 1)->count, ==, 3);
  g_assert_cmpuint (cpel_stats_get_n_busy_tracks (stats), ==, 2);
}

static void
test_range (void)
{
  g_autoptr(CpelFile) file = small_file ();
  /* relative [25, 300): absolute [125, 400) — drops 100, 120, 400, 500 */
  CpelStatsOptions opt = { .t0 = 25, .t1 = 300 };
  g_autoptr(CpelStats) stats = compute (file, &opt);
  const CpelStatsCode *c;

  g_assert_cmpuint (cpel_stats_get_total (stats), ==, 4);
  g_assert_cmpuint (cpel_stats_get_n_codes (stats), ==, 2);
  /* code 1: 125 (track 20), 150 (track 10): no pair on one track */
  c = cpel_stats_get_code (stats, 0);
  g_assert_cmpuint (c->code, ==, 1);
  g_assert_cmpuint (c->count, ==, 2);
  g_assert_cmpuint (c->n_intervals, ==, 0);
  g_assert_cmpint (c->interval_min, ==, 0);
  c = cpel_stats_get_code (stats, 1);
  g_assert_cmpuint (c->code, ==, 2);
  g_assert_cmpuint (c->n_intervals, ==, 1);
  g_assert_cmpuint (cpel_stats_get_track (stats, 0)->count, ==, 3);
  g_assert_cmpuint (cpel_stats_get_track (stats, 1)->count, ==, 1);
  g_assert_cmpuint (cpel_stats_get_n_busy_tracks (stats), ==, 2);
}

static void
test_empty_range (void)
{
  g_autoptr(CpelFile) file = small_file ();
  CpelStatsOptions opt = { .t0 = 300, .t1 = 300 };
  g_autoptr(CpelStats) stats = compute (file, &opt);

  g_assert_cmpuint (cpel_stats_get_total (stats), ==, 0);
  g_assert_cmpuint (cpel_stats_get_n_codes (stats), ==, 0);
  g_assert_cmpuint (cpel_stats_get_n_tracks (stats), ==, 2);
  g_assert_cmpuint (cpel_stats_get_n_busy_tracks (stats), ==, 0);
}

static void
test_subset_hidden (void)
{
  g_autoptr(CpelFile) file = small_file ();
  guint slots[] = { 1 };
  guint8 hidden[3] = { 0 };
  guint type;
  CpelStatsOptions opt = { .t0 = 0, .t1 = G_MAXINT64, .slots = slots, .n_slots = 1 };
  g_autoptr(CpelStats) s1 = NULL;
  g_autoptr(CpelStats) s2 = NULL;

  s1 = compute (file, &opt);
  g_assert_cmpuint (cpel_stats_get_total (s1), ==, 3);
  g_assert_cmpuint (cpel_stats_get_n_tracks (s1), ==, 1);
  g_assert_cmpuint (cpel_stats_get_track (s1, 0)->track_id, ==, 20);
  g_assert_cmpuint (cpel_stats_get_n_codes (s1), ==, 2);
  g_assert_cmpint (cpel_stats_get_code (s1, 0)->interval_max, ==, 5);

  g_assert_true (cpel_file_lookup_type (file, 1, &type));
  hidden[type] = 1;
  opt.slots = NULL;
  opt.hidden_types = hidden;
  s2 = compute (file, &opt);
  g_assert_cmpuint (cpel_stats_get_total (s2), ==, 3);
  g_assert_cmpuint (cpel_stats_get_n_codes (s2), ==, 2);
  g_assert_cmpuint (cpel_stats_get_code (s2, 0)->code, ==, 2);
  g_assert_cmpuint (cpel_stats_get_track (s2, 0)->count, ==, 2);
  g_assert_cmpuint (cpel_stats_get_track (s2, 1)->count, ==, 1);
}

static void
test_bad_slots (void)
{
  g_autoptr(CpelFile) file = small_file ();
  guint bad[] = { 2 };
  guint twice[] = { 0, 0 };
  CpelStatsOptions opt = { .t0 = 0, .t1 = 1000, .slots = bad, .n_slots = 1 };
  g_autoptr(GError) error = NULL;
  CpelStats *stats;

  stats = cpel_stats_compute (file, &opt, NULL, &error);
  g_assert_null (stats);
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_INVALID);
  g_clear_error (&error);

  opt.slots = twice;
  opt.n_slots = 2;
  stats = cpel_stats_compute (file, &opt, NULL, &error);
  g_assert_null (stats);
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_INVALID);
}

static void
test_cancel (void)
{
  g_autoptr(CpelFile) file = small_file ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;

  g_cancellable_cancel (cancellable);
  g_assert_null (cpel_stats_compute (file, NULL, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

static void
test_text (void)
{
  g_autoptr(CpelFile) file = small_file ();
  g_autoptr(CpelStats) stats = compute (file, NULL);
  g_autofree char *text = cpel_stats_to_text (stats);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  const char *code_head = NULL, *rx = NULL;
  gsize col;

  g_test_message ("%s", text);
  for (guint i = 0; lines[i]; i++)
    {
      if (g_str_has_prefix (lines[i], "Code"))
        code_head = lines[i];
      if (strstr (lines[i], " rx ") != NULL)
        rx = lines[i];
    }
  g_assert_nonnull (code_head);
  g_assert_nonnull (rx);
  /* right-aligned columns: "Max" ends where the row's last value ends */
  col = strlen (code_head);
  g_assert_cmpuint (strlen (rx), ==, col);
  g_assert_true (g_str_has_suffix (rx, "250 ns"));
  g_assert_nonnull (strstr (rx, " 102 ns "));   /* mean 305/3 = 101.67 ns, rounded */
  g_assert_nonnull (strstr (text, "Total"));
  g_assert_nonnull (strstr (text, "worker, \"ten\""));
}

/* One table: the summary, then only that table, the same lines as in the
 * full text. */
static void
test_table_text (void)
{
  g_autoptr(CpelFile) file = small_file ();
  g_autoptr(CpelStats) stats = compute (file, NULL);
  g_autofree char *all = cpel_stats_to_text (stats);
  g_autofree char *codes = cpel_stats_table_to_text (stats, CPEL_STATS_CSV_CODES);
  g_autofree char *tracks = cpel_stats_table_to_text (stats, CPEL_STATS_CSV_TRACKS);
  const char *blank2;

  /* the full text is: summary, blank, codes table, blank, tracks table */
  blank2 = strstr (strstr (all, "\n\n") + 2, "\n\n");
  g_assert_nonnull (blank2);
  g_assert_true (g_str_has_prefix (all, codes));
  g_assert_cmpuint (strlen (codes), ==, (gsize) (blank2 - all) + 1);
  g_assert_nonnull (strstr (codes, " rx "));
  g_assert_null (strstr (codes, "Total"));
  g_assert_true (g_str_has_suffix (all, strstr (tracks, "\n\n") + 2));
  g_assert_nonnull (strstr (tracks, "Total"));
  g_assert_null (strstr (tracks, " rx "));
  g_assert_true (strncmp (tracks, all, strstr (all, "\n\n") - all) == 0);
}

/* The widest range: every event, and a duration that does not wrap. */
static void
test_wide_range (void)
{
  g_autoptr(CpelFile) file = small_file ();
  CpelStatsOptions options = { G_MININT64, G_MAXINT64, NULL, 0, NULL };
  g_autoptr(CpelStats) all = compute (file, NULL);
  g_autoptr(CpelStats) stats = compute (file, &options);
  g_autofree char *text = cpel_stats_to_text (stats);
  const char *open = strchr (text, '(');

  g_assert_cmpuint (cpel_stats_get_total (stats), ==, cpel_stats_get_total (all));
  g_assert_nonnull (open);
  g_assert_cmpint (open[1], !=, '-');
  g_assert_cmpint (open[1], !=, '0');
}

static void
test_csv (void)
{
  g_autoptr(CpelFile) file = small_file ();
  g_autoptr(CpelStats) stats = compute (file, NULL);
  g_autofree char *codes = cpel_stats_to_csv (stats, CPEL_STATS_CSV_CODES);
  g_autofree char *tracks = cpel_stats_to_csv (stats, CPEL_STATS_CSV_TRACKS);

  g_assert_cmpstr (codes, ==,
                   "code,event,count,intervals,min_ns,mean_ns,max_ns\r\n"
                   "1,rx,5,3,5,101.667,250\r\n"
                   "2,\"say \"\"hi\"\", ok\",2,1,100,100.000,100\r\n"
                   "3,drop,1,0,,,\r\n");
  g_assert_cmpstr (tracks, ==,
                   "slot,track,label,count\r\n"
                   "0,10,\"worker, \"\"ten\"\"\",5\r\n"
                   "1,20,worker twenty,3\r\n");
}

static void
test_csv_field (void)
{
  g_autoptr(GString) s = g_string_new (NULL);

  cpel_csv_append_field (s, "plain");
  g_string_append_c (s, '|');
  cpel_csv_append_field (s, "a\nb");
  g_string_append_c (s, '|');
  cpel_csv_append_field (s, "cr\r");
  g_string_append_c (s, '|');
  cpel_csv_append_field (s, "");
  g_string_append_c (s, '|');
  cpel_csv_append_field (s, "\"");
  g_assert_cmpstr (s->str, ==, "plain|\"a\nb\"|\"cr\r\"||\"\"\"\"");
}

/* ---- against a brute-force reference on a random file ----------------- */

typedef struct
{
  guint64 count, n;
  gint64  min, max;
  double  sum;
} Ref;

static CpelFile *
random_file (guint32 seed)
{
  g_autoptr(CpelWriter) w = cpel_writer_new (NULL, seed & 1, 0, NULL);
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  guint t = cpel_writer_add_string_table (w, "T");

  cpel_writer_begin_event_defs (w, t);
  for (guint32 code = 0; code < 6; code++)
    {
      g_autofree char *name = g_strdup_printf ("ev%u", code);
      cpel_writer_add_event_def (w, code * 7, name, "%d");
    }
  /* three sections with different clocks, unsorted, some ties */
  for (guint s = 0; s < 3; s++)
    {
      guint32 clocks[] = { 1000000000, 3000000, 2400000000u };
      guint n = 800;

      cpel_writer_begin_events (w, t, clocks[s], n);
      for (guint i = 0; i < n; i++)
        cpel_writer_add_event (w, g_rand_int_range (rand, 0, 200000) * (clocks[s] / 1000000),
                               g_rand_int_range (rand, 0, 5), g_rand_int_range (rand, 0, 8) * 7,
                               g_rand_int (rand));
    }
  return cpel_test_writer_file (w);
}

static void
check_against_reference (CpelFile *file, gint64 t0, gint64 t1, const guint8 *hidden)
{
  guint n_types = cpel_file_get_n_types (file);
  g_autofree Ref *ref = g_new0 (Ref, n_types);
  CpelStatsOptions opt = { .t0 = t0, .t1 = t1, .hidden_types = hidden };
  g_autoptr(CpelStats) stats = compute (file, &opt);
  guint64 total = 0;
  guint k = 0;

  for (guint slot = 0; slot < cpel_file_get_n_tracks (file); slot++)
    {
      g_autofree gint64 *last = g_new (gint64, n_types);
      guint64 count = 0;

      for (guint i = 0; i < n_types; i++)
        last[i] = -1;
      for (guint64 i = 0; i < cpel_file_get_track_n_events (file, slot); i++)
        {
          CpelEvent e;

          cpel_file_get_track_event (file, slot, i, &e);
          if (e.time_ns < t0 || e.time_ns >= t1 || (hidden && hidden[e.type]))
            continue;
          count++;
          ref[e.type].count++;
          if (last[e.type] >= 0)
            {
              gint64 d = e.time_ns - last[e.type];
              if (ref[e.type].n == 0 || d < ref[e.type].min)
                ref[e.type].min = d;
              if (ref[e.type].n == 0 || d > ref[e.type].max)
                ref[e.type].max = d;
              ref[e.type].sum += d;
              ref[e.type].n++;
            }
          last[e.type] = e.time_ns;
        }
      g_assert_cmpuint (cpel_stats_get_track (stats, slot)->count, ==, count);
      total += count;
    }
  g_assert_cmpuint (cpel_stats_get_total (stats), ==, total);
  for (guint type = 0; type < n_types; type++)
    {
      const CpelStatsCode *c;

      if (ref[type].count == 0)
        continue;
      g_assert_cmpuint (k, <, cpel_stats_get_n_codes (stats));
      c = cpel_stats_get_code (stats, k++);
      g_assert_cmpuint (c->type, ==, type);
      g_assert_cmpuint (c->code, ==, cpel_file_get_type_code (file, type));
      g_assert_cmpuint (c->count, ==, ref[type].count);
      g_assert_cmpuint (c->n_intervals, ==, ref[type].n);
      if (ref[type].n)
        {
          g_assert_cmpint (c->interval_min, ==, ref[type].min);
          g_assert_cmpint (c->interval_max, ==, ref[type].max);
          g_assert_cmpfloat_with_epsilon (c->interval_mean, ref[type].sum / ref[type].n, 1e-6);
        }
    }
  g_assert_cmpuint (k, ==, cpel_stats_get_n_codes (stats));
}

static void
test_reference (void)
{
  for (guint32 seed = 1; seed <= 4; seed++)
    {
      g_autoptr(CpelFile) file = random_file (seed);
      g_autoptr(GRand) rand = g_rand_new_with_seed (seed * 77);
      gint64 d = cpel_file_get_duration (file);
      g_autofree guint8 *hidden = g_new0 (guint8, cpel_file_get_n_types (file));

      check_against_reference (file, 0, d + 1, NULL);
      check_against_reference (file, 0, d, NULL);
      for (guint i = 0; i < 20; i++)
        {
          gint64 a = g_rand_int_range (rand, 0, (gint32) MIN (d, G_MAXINT32));
          gint64 b = a + g_rand_int_range (rand, 0, (gint32) MIN (d, G_MAXINT32));

          hidden[g_rand_int_range (rand, 0, cpel_file_get_n_types (file))] ^= 1;
          check_against_reference (file, a, b, i & 1 ? hidden : NULL);
        }
    }
}

static void
test_sample (void)
{
  g_autofree char *path = cpel_test_fixture_file ("vpp-sample.cpel");
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelStats) stats = NULL;
  g_autoptr(GError) error = NULL;
  guint64 sum = 0;

  file = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  stats = compute (file, NULL);
  g_assert_cmpuint (cpel_stats_get_total (stats), ==, 67);
  g_assert_cmpuint (cpel_stats_get_n_tracks (stats), ==, 2);
  for (guint i = 0; i < cpel_stats_get_n_codes (stats); i++)
    {
      const CpelStatsCode *c = cpel_stats_get_code (stats, i);
      g_assert_cmpuint (c->count, ==, cpel_file_get_type_n_events (file, c->type));
      sum += c->count;
    }
  g_assert_cmpuint (sum, ==, 67);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/stats/whole", test_whole);
  g_test_add_func ("/core/stats/range", test_range);
  g_test_add_func ("/core/stats/empty-range", test_empty_range);
  g_test_add_func ("/core/stats/subset-hidden", test_subset_hidden);
  g_test_add_func ("/core/stats/bad-slots", test_bad_slots);
  g_test_add_func ("/core/stats/cancel", test_cancel);
  g_test_add_func ("/core/stats/text", test_text);
  g_test_add_func ("/core/stats/table-text", test_table_text);
  g_test_add_func ("/core/stats/wide-range", test_wide_range);
  g_test_add_func ("/core/stats/csv", test_csv);
  g_test_add_func ("/core/stats/csv-field", test_csv_field);
  g_test_add_func ("/core/stats/reference", test_reference);
  g_test_add_func ("/core/stats/sample", test_sample);
  return g_test_run ();
}
