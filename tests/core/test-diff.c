/* SPDX-License-Identifier: Apache-2.0 */
/* test-diff.c — the differences between two captures (cpel-diff) */
#include <string.h>

#include <gio/gio.h>

#include "cpel-core.h"
#include "cpel-diff.h"
#include "cpel-test-util.h"
#include "cpel-test-pair.h"

static CpelDiff *
diff_of (CpelFile *a, CpelFile *b, const CpelDiffOptions *options)
{
  g_autoptr(GError) error = NULL;
  CpelDiff *diff = cpel_diff_compute (a, b, options, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (diff);
  return diff;
}

/* The planted differences give exactly the expected rows. */
static void
test_planted (void)
{
  g_autoptr(CpelFile) a = cpel_test_pair_file (FALSE, NULL);
  g_autoptr(CpelFile) b = cpel_test_pair_file (TRUE, NULL);
  g_autoptr(CpelDiff) diff = diff_of (a, b, NULL);
  g_autofree char *csv = cpel_diff_to_csv (diff, CPEL_DIFF_BY_EVENTS);
  g_autofree char *tracks = cpel_diff_to_csv (diff, CPEL_DIFF_BY_TRACKS);
  const CpelDiffRow *row;

  g_assert_false (cpel_file_is_little_endian (a));
  g_assert_true (cpel_file_is_little_endian (b));
  g_assert_cmpstr (csv, ==, CPEL_TEST_PAIR_CSV);
  g_assert_cmpstr (tracks, ==, CPEL_TEST_PAIR_TRACKS_CSV);
  g_assert_cmpuint (cpel_diff_get_total_a (diff), ==, 26);
  g_assert_cmpuint (cpel_diff_get_total_b (diff), ==, 28);

  row = cpel_diff_lookup (diff, CPEL_DIFF_BY_EVENTS, "slow");
  g_assert_nonnull (row);
  g_assert_cmpfloat (row->mean_b / row->mean_a, ==, 3.0);
  g_assert_cmpuint (row->n_intervals_a, ==, 3);
  g_assert_null (row->histogram_a);
  g_assert_null (cpel_diff_lookup (diff, CPEL_DIFF_BY_EVENTS, "nosuch"));
  g_assert_nonnull (cpel_diff_lookup (diff, CPEL_DIFF_BY_TRACKS, "wk2"));
}

/* The same without an index: cpel_stats_compute streams the events. */
static void
test_stream (void)
{
  CpelLoadOptions load = { .defer_index = TRUE };
  g_autoptr(CpelFile) a = cpel_test_pair_file (FALSE, &load);
  g_autoptr(CpelFile) b = cpel_test_pair_file (TRUE, &load);
  CpelDiffOptions options = { .from = 150, .to = 950, .histograms = TRUE };
  g_autoptr(CpelDiff) diff = NULL;
  g_autoptr(CpelDiff) range = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *tracks = NULL;
  g_autofree char *part = NULL;

  g_assert_true (cpel_file_is_time_ordered (a));
  g_assert_true (cpel_file_is_time_ordered (b));
  diff = diff_of (a, b, NULL);
  range = diff_of (a, b, &options);
  g_assert_false (cpel_file_has_index (a));
  g_assert_false (cpel_file_has_index (b));
  csv = cpel_diff_to_csv (diff, CPEL_DIFF_BY_EVENTS);
  tracks = cpel_diff_to_csv (diff, CPEL_DIFF_BY_TRACKS);
  part = cpel_diff_to_csv (range, CPEL_DIFF_BY_EVENTS);
  g_assert_cmpstr (csv, ==, CPEL_TEST_PAIR_CSV);
  g_assert_cmpstr (tracks, ==, CPEL_TEST_PAIR_TRACKS_CSV);
  g_assert_cmpstr (part, ==, CPEL_TEST_PAIR_RANGE_CSV);
  g_assert_cmpuint (cpel_diff_lookup (range, CPEL_DIFF_BY_EVENTS, "slow")->histogram_b[cpel_stats_histogram_bin (300)], ==, 2);
}

/* A range: relative to each capture's own first event. */
static void
test_range (void)
{
  g_autoptr(CpelFile) a = cpel_test_pair_file (FALSE, NULL);
  g_autoptr(CpelFile) b = cpel_test_pair_file (TRUE, NULL);
  CpelDiffOptions options = { .from = 150, .to = 950 };
  g_autoptr(CpelDiff) diff = diff_of (a, b, &options);
  g_autofree char *csv = cpel_diff_to_csv (diff, CPEL_DIFF_BY_EVENTS);
  g_autofree char *text = cpel_diff_to_text (diff, CPEL_DIFF_BY_EVENTS, "a.cpel", "b.cpel");

  g_assert_cmpstr (csv, ==, CPEL_TEST_PAIR_RANGE_CSV);
  g_assert_nonnull (strstr (text, "Range: 150 ns to 950 ns after each first event\n"));
}

/* Two codes of one name are one row, their intervals between each other
 * (cpel stats per code would see the 100 ns between code 5's two events). */
static void
test_codes_by_name (void)
{
  g_autoptr(CpelFile) a = cpel_test_pair_file (FALSE, NULL);
  g_autoptr(CpelStats) stats = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelDiff) diff = diff_of (a, a, NULL);
  const CpelDiffRow *row = cpel_diff_lookup (diff, CPEL_DIFF_BY_EVENTS, "dup");
  guint groups[6] = { 0, 1, 2, 3, 4, 4 };
  guint bad[6] = { 0, 1, 2, 3, 5, 5 };
  CpelStatsOptions options = { 0, G_MAXINT64, NULL, 0, NULL, groups, FALSE };

  g_assert_nonnull (row);
  g_assert_cmpuint (row->count_a, ==, 3);
  g_assert_cmpuint (row->n_intervals_a, ==, 2);
  g_assert_cmpfloat (row->mean_a, ==, 50.0);

  /* the stats under it: code 5 stands for both, code 6 has no entry */
  stats = cpel_stats_compute (a, &options, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_stats_get_n_codes (stats), ==, 5);
  g_assert_cmpuint (cpel_stats_get_code (stats, 4)->code, ==, 5);
  g_assert_cmpuint (cpel_stats_get_code (stats, 4)->count, ==, 3);
  g_clear_pointer (&stats, cpel_stats_free);
  options.type_groups = NULL;
  stats = cpel_stats_compute (a, &options, NULL, &error);
  g_assert_cmpuint (cpel_stats_get_n_codes (stats), ==, 6);
  g_assert_cmpfloat (cpel_stats_get_code (stats, 4)->interval_mean, ==, 100.0);
  g_clear_pointer (&stats, cpel_stats_free);

  /* a group must point back, not forward */
  options.type_groups = bad;
  g_assert_null (cpel_stats_compute (a, &options, NULL, &error));
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_INVALID);
}

/* A capture with itself: every delta 0, every change 0.0 %. */
static void
test_self (void)
{
  g_autoptr(CpelFile) a = cpel_test_pair_file (TRUE, NULL);
  g_autoptr(CpelDiff) diff = diff_of (a, a, NULL);

  for (guint by = CPEL_DIFF_BY_EVENTS; by <= CPEL_DIFF_BY_TRACKS; by++)
    {
      g_assert_cmpuint (cpel_diff_get_n_rows (diff, by), >, 0);
      for (guint i = 0; i < cpel_diff_get_n_rows (diff, by); i++)
        {
          const CpelDiffRow *row = cpel_diff_get_row (diff, by, i);
          g_autofree char *pct = cpel_diff_format_pct (row);

          g_assert_cmpint (row->count_delta, ==, 0);
          g_assert_cmpuint (row->count_a, ==, row->count_b);
          if (row->n_intervals_a > 0 && by == CPEL_DIFF_BY_EVENTS)
            g_assert_cmpstr (pct, ==, "0.0");
          else
            g_assert_cmpstr (pct, ==, "");
          /* sorted by name when nothing changed */
          if (i > 0)
            g_assert_cmpint (strcmp (cpel_diff_get_row (diff, by, i - 1)->name, row->name), <, 0);
        }
    }
}

/* Histograms: the intervals of each row, in bins of a quarter octave. */
static void
test_histograms (void)
{
  g_autoptr(CpelFile) a = cpel_test_pair_file (FALSE, NULL);
  g_autoptr(CpelFile) b = cpel_test_pair_file (TRUE, NULL);
  CpelDiffOptions options = { .to = G_MAXINT64, .histograms = TRUE };
  g_autoptr(CpelDiff) diff = diff_of (a, b, &options);
  const CpelDiffRow *row = cpel_diff_lookup (diff, CPEL_DIFF_BY_EVENTS, "slow");
  guint64 n = 0;

  g_assert_nonnull (row->histogram_a);
  g_assert_nonnull (row->histogram_b);
  for (guint i = 0; i < CPEL_STATS_HISTOGRAM_BINS; i++)
    n += row->histogram_a[i];
  g_assert_cmpuint (n, ==, row->n_intervals_a);
  g_assert_cmpuint (row->histogram_a[cpel_stats_histogram_bin (100)], ==, 3);
  g_assert_cmpuint (row->histogram_b[cpel_stats_histogram_bin (300)], ==, 3);
  g_assert_null (cpel_diff_lookup (diff, CPEL_DIFF_BY_EVENTS, "only-b")->histogram_a);

  /* the bins cover every interval once, in order */
  for (gint64 d = 0; d < 5000; d++)
    {
      guint bin = cpel_stats_histogram_bin (d);

      g_assert_cmpint (cpel_stats_histogram_bin_start (bin), <=, d);
      g_assert_cmpint (cpel_stats_histogram_bin_start (bin + 1), >, d);
    }
  g_assert_cmpuint (cpel_stats_histogram_bin (G_MAXINT64), <, CPEL_STATS_HISTOGRAM_BINS);
  g_assert_cmpint (cpel_stats_histogram_bin_start (cpel_stats_histogram_bin (G_MAXINT64)), <=, G_MAXINT64);
}

/* Percent and means as printed. */
static void
test_format (void)
{
  CpelDiffRow row = { .name = "x", .n_intervals_a = 1, .n_intervals_b = 1,
                      .mean_a = 3.0, .mean_b = 2.999 };
  g_autofree char *pct = cpel_diff_format_pct (&row);
  g_autofree char *mean = cpel_diff_format_mean (1, 2.0005);
  g_autofree char *none = cpel_diff_format_mean (0, 2.0);

  g_assert_cmpstr (pct, ==, "0.0");          /* -0.03 %, not -0.0 */
  g_assert_cmpstr (none, ==, "");
  g_assert_cmpuint (strlen (mean), ==, 5);   /* 3 decimals */
  row.mean_a = 0.0;
  g_clear_pointer (&pct, g_free);
  pct = cpel_diff_format_pct (&row);
  g_assert_cmpstr (pct, ==, "");            /* no percent of 0 ns */
}

static void
test_cancel (void)
{
  g_autoptr(CpelFile) a = cpel_test_pair_file (FALSE, NULL);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;

  g_cancellable_cancel (cancellable);
  g_assert_null (cpel_diff_compute (a, a, NULL, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

static gboolean
keep_none (guint slot, gpointer data)
{
  return FALSE;
}

/* A's hidden types and shown tracks applied to B by name: codes and slots
 * differ between the two; a track only B has stays unless told. */
static void
test_map_filters (void)
{
  g_autoptr(CpelFile) a = cpel_test_pair_file (FALSE, NULL);
  g_autoptr(CpelFile) b = cpel_test_pair_file (TRUE, NULL);
  g_autofree guint8 *hidden_a = g_malloc0 (cpel_file_get_n_types (a));
  g_autofree guint8 *hidden_b = NULL;
  g_autofree guint *rows = NULL;
  guint n = 0, only_wk1 = cpel_test_slot_labelled (a, "wk1");
  guint n_hidden = 0;

  g_assert_null (cpel_diff_map_hidden_types (a, NULL, b));
  g_assert_null (cpel_diff_map_hidden_types (a, hidden_a, b));
  hidden_a[cpel_test_type_named (a, "double")] = 1;
  hidden_a[cpel_test_type_named (a, "only-a")] = 1;
  hidden_a[cpel_test_type_named (a, "dup")] = 1;   /* one of A's two "dup" codes */
  hidden_b = cpel_diff_map_hidden_types (a, hidden_a, b);
  g_assert_nonnull (hidden_b);
  for (guint t = 0; t < cpel_file_get_n_types (b); t++)
    n_hidden += hidden_b[t] != 0;
  g_assert_cmpuint (n_hidden, ==, 2);
  g_assert_true (hidden_b[cpel_test_type_named (b, "double")]);
  g_assert_true (hidden_b[cpel_test_type_named (b, "dup")]);
  g_assert_false (hidden_b[cpel_test_type_named (b, "same")]);

  /* every track of A shown: B's in A's order of labels, then wk2 */
  rows = cpel_diff_map_rows (a, NULL, 0, b, NULL, NULL, &n);
  cpel_test_assert_rows (b, rows, n, "wk0", "wk1", "wk2", NULL);
  g_clear_pointer (&rows, g_free);

  /* only wk1 shown in A */
  rows = cpel_diff_map_rows (a, &only_wk1, 1, b, NULL, NULL, &n);
  cpel_test_assert_rows (b, rows, n, "wk1", "wk2", NULL);
  g_clear_pointer (&rows, g_free);
  rows = cpel_diff_map_rows (a, &only_wk1, 1, b, keep_none, NULL, &n);
  cpel_test_assert_rows (b, rows, n, "wk1", NULL);
  g_clear_pointer (&rows, g_free);

  /* no row at all: an empty list, not NULL (= every row) */
  rows = cpel_diff_map_rows (b, (const guint[]) { cpel_test_slot_labelled (b, "wk2") }, 1, a, NULL, NULL, &n);
  g_assert_nonnull (rows);
  g_assert_cmpuint (n, ==, 0);
  g_clear_pointer (&rows, g_free);

  /* B to A in A's own order: every row in slot order = NULL */
  rows = cpel_diff_map_rows (a, NULL, 0, a, NULL, NULL, &n);
  g_assert_null (rows);
  g_assert_cmpuint (n, ==, cpel_file_get_n_tracks (a));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/diff/planted", test_planted);
  g_test_add_func ("/core/diff/range", test_range);
  g_test_add_func ("/core/diff/stream", test_stream);
  g_test_add_func ("/core/diff/codes-by-name", test_codes_by_name);
  g_test_add_func ("/core/diff/self", test_self);
  g_test_add_func ("/core/diff/histograms", test_histograms);
  g_test_add_func ("/core/diff/format", test_format);
  g_test_add_func ("/core/diff/cancel", test_cancel);
  g_test_add_func ("/core/diff/map-filters", test_map_filters);
  return g_test_run ();
}
