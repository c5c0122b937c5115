/* SPDX-License-Identifier: Apache-2.0 */
/* test-stats-window.c — the Statistics window: numbers on a known file, shown
 * tracks, hidden types, measured range, CSV; sorting scrolls to the top */
#include "app-test-util.h"

#include <glib/gstdio.h>

#include "cpel-anomalies-window.h"
#include "cpel-anomaly-list.h"
#include "cpel-application.h"
#include "cpel-cut-dialog.h"
#include "cpel-event-type-row.h"
#include "cpel-event-types-window.h"
#include "cpel-print.h"
#include "cpel-span-histogram-window.h"
#include "cpel-stats-window.h"
#include "cpel-table.h"
#include "cpel-test-node-spans.h"
#include "cpel-window.h"

/* The visible file chooser (a dialog of GtkFileChooserNative), or NULL. */
static GtkFileChooser *
find_file_chooser (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) w = g_list_model_get_item (toplevels, i);

      if (GTK_IS_FILE_CHOOSER (w) && gtk_widget_get_visible (GTK_WIDGET (w)))
        return GTK_FILE_CHOOSER (w);
    }
  return NULL;
}

static CpelApplication *app;

typedef AppTestFixture Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  if (app == NULL)
    return;
  app_test_fixture_setup (f, app, "cpelview-tools", (AppTestWriteFunc) data, 1100, 700, TRUE);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  if (app == NULL)
    return;
  app_test_fixture_teardown (f, app);
}

static void
activate (Fixture *f, const char *action, GVariant *parameter)
{
  g_assert_true (app_test_action_enabled (GTK_WIDGET (f->window), action));
  app_test_activate_action (GTK_WIDGET (f->window), action, parameter);
}

static const char *
cell (GListModel *model, guint row, guint column)
{
  g_autoptr(GObject) listed = g_list_model_get_item (model, row);
  CpelTableRow *item = cpel_table_row_of (listed);   /* a tree's row: its table row */
  const char *text;

  g_assert_nonnull (item);
  text = cpel_table_row_get_text (item, column);
  /* The row keeps the text; the model keeps the row while it is listed
   * (lazy models make new rows: copy into a per-call cache). */
  return g_intern_string (text);
}

typedef struct
{
  guint64 count, n_intervals;
  gint64  min, max;
  double  sum;
} CodeExpect;

/* Brute force over the regular file: [t0, t1), tracks in `shown`, codes
 * not in `hidden_code`. */
static void
expect_regular (gint64 t0, gint64 t1, const gboolean *shown, guint32 hidden_code,
                CodeExpect expect[4], guint64 per_track[APP_TEST_REG_TRACKS])
{
  gint64 last[4][APP_TEST_REG_TRACKS];

  memset (expect, 0, 4 * sizeof (CodeExpect));
  memset (per_track, 0, APP_TEST_REG_TRACKS * sizeof (guint64));
  for (guint c = 0; c < 4; c++)
    for (guint r = 0; r < APP_TEST_REG_TRACKS; r++)
      last[c][r] = -1;
  for (guint64 i = 0; i < APP_TEST_REG_EVENTS; i++)
    {
      TestEvent ev;
      CodeExpect *e;

      app_test_regular_event (i, &ev, NULL);
      if ((gint64) ev.t < t0 || (gint64) ev.t >= t1 || !shown[ev.track] || ev.code == hidden_code)
        continue;
      e = &expect[ev.code];
      e->count++;
      per_track[ev.track]++;
      if (last[ev.code][ev.track] >= 0)
        {
          gint64 d = (gint64) ev.t - last[ev.code][ev.track];

          e->min = e->n_intervals == 0 ? d : MIN (e->min, d);
          e->max = e->n_intervals == 0 ? d : MAX (e->max, d);
          e->sum += d;
          e->n_intervals++;
        }
      last[ev.code][ev.track] = (gint64) ev.t;
    }
}

static CpelStatsWindow *
wait_stats (Fixture *f)
{
  CpelStatsWindow *stats = CPEL_STATS_WINDOW (cpel_window_get_statistics (f->window));
  gint64 end = g_get_monotonic_time () + 10 * G_TIME_SPAN_SECOND;

  g_assert_nonnull (stats);
  g_assert_true (cpel_stats_window_get_session (stats)
                 == cpel_timeline_get_session (cpel_window_get_timeline (f->window)));
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (stats)) == GTK_WINDOW (f->window));
  while (cpel_stats_window_is_busy (stats) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (cpel_stats_window_is_busy (stats));
  g_assert_nonnull (cpel_stats_window_get_stats (stats));
  app_test_drain ();
  return stats;
}

static void
check_stats (CpelStatsWindow *stats, gint64 t0, gint64 t1, const gboolean *shown, guint32 hidden_code)
{
  CodeExpect expect[4];
  guint64 per_track[APP_TEST_REG_TRACKS];
  GListModel *codes = cpel_stats_window_get_rows (stats, CPEL_STATS_CSV_CODES);
  GListModel *tracks = cpel_stats_window_get_rows (stats, CPEL_STATS_CSV_TRACKS);
  CpelStats *s = cpel_stats_window_get_stats (stats);
  guint row = 0, n_shown = 0;

  expect_regular (t0, t1, shown, hidden_code, expect, per_track);
  g_assert_cmpint (cpel_stats_get_t0 (s), ==, t0);
  g_assert_cmpint (cpel_stats_get_t1 (s), ==, t1);

  /* The codes table, as shown (ascending code by default). */
  for (guint32 code = 1; code <= 3; code++)
    {
      CodeExpect *e = &expect[code];
      g_autofree char *count = cpel_format_count (e->count);
      g_autofree char *n_int = cpel_format_count (e->n_intervals);
      g_autofree char *code_text = g_strdup_printf ("%u", code);

      if (e->count == 0)
        continue;
      g_assert_cmpstr (cell (codes, row, 0), ==, code_text);
      g_assert_cmpstr (cell (codes, row, 1), ==, code == CODE_SEND ? "send" : code == CODE_RECV ? "recv" : "idle");
      g_assert_cmpstr (cell (codes, row, 2), ==, count);
      g_assert_cmpstr (cell (codes, row, 3), ==, n_int);
      if (e->n_intervals > 0)
        {
          g_autofree char *min = cpel_time_format (e->min);
          g_autofree char *max = cpel_time_format (e->max);
          g_autofree char *mean = cpel_time_format ((gint64) (e->sum / e->n_intervals + 0.5));

          g_assert_cmpstr (cell (codes, row, 4), ==, min);
          g_assert_cmpstr (cell (codes, row, 5), ==, mean);
          g_assert_cmpstr (cell (codes, row, 6), ==, max);
        }
      else
        g_assert_cmpstr (cell (codes, row, 4), ==, "—");
      row++;
    }
  g_assert_cmpuint (g_list_model_get_n_items (codes), ==, row);

  /* The tracks table: the shown tracks. */
  for (guint r = 0; r < APP_TEST_REG_TRACKS; r++)
    {
      g_autofree char *id = g_strdup_printf ("%u", r);
      g_autofree char *label = g_strdup_printf ("thread %u", r);
      g_autofree char *count = cpel_format_count (per_track[r]);

      if (!shown[r])
        continue;
      g_assert_cmpstr (cell (tracks, n_shown, 0), ==, id);
      g_assert_cmpstr (cell (tracks, n_shown, 1), ==, label);
      g_assert_cmpstr (cell (tracks, n_shown, 2), ==, count);
      n_shown++;
    }
  g_assert_cmpuint (g_list_model_get_n_items (tracks), ==, n_shown);
}

static void
test_stats (Fixture *f, gconstpointer data)
{
  CpelTimeline *timeline = cpel_window_get_timeline (f->window);
  gboolean all[APP_TEST_REG_TRACKS] = { TRUE, TRUE, TRUE };
  gboolean two[APP_TEST_REG_TRACKS] = { TRUE, FALSE, TRUE };
  CpelStatsWindow *stats;
  g_autofree char *text = NULL;
  g_autofree char *csv_path = g_build_filename (f->dir, "stats.csv", NULL);
  g_autoptr(GFile) csv_file = g_file_new_for_path (csv_path);
  g_autoptr(GError) error = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *expected_csv = NULL;
  guint8 *hidden;

  /* The visible range. */
  cpel_timeline_set_range (timeline, 10000, 20050, FALSE);
  activate (f, "statistics", NULL);
  stats = wait_stats (f);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (stats)));
  check_stats (stats, 10000, 20050, all, 0);

  /* Copy as text: the core's text; save as CSV: the core's CSV. */
  text = cpel_stats_window_get_text (stats);
  g_assert_nonnull (strstr (text, "recv"));
  g_assert_true (cpel_stats_window_save_csv (stats, csv_file, CPEL_STATS_CSV_TRACKS, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, NULL));
  expected_csv = cpel_stats_to_csv (cpel_stats_window_get_stats (stats), CPEL_STATS_CSV_TRACKS);
  g_assert_cmpstr (csv, ==, expected_csv);
  g_assert_true (g_str_has_prefix (csv, "slot,track,label,count\r\n"));

  /* Save as CSV from the Tracks page: the dialog offers the tracks table. */
  {
    AdwViewStack *pages = ADW_VIEW_STACK (gtk_widget_get_template_child (GTK_WIDGET (stats),
                                                                       CPEL_TYPE_STATS_WINDOW, "view_stack"));
    GtkWidget *save = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (stats), CPEL_TYPE_STATS_WINDOW,
                                                                 "save_button"));
    GListModel *toplevels = gtk_window_get_toplevels ();
    GtkFileChooser *chooser = NULL;

    adw_view_stack_set_visible_child_name (pages, "tracks");
    g_signal_emit_by_name (save, "clicked");
    app_test_wait_until (find_file_chooser () != NULL
                         && gtk_widget_get_mapped (GTK_WIDGET (find_file_chooser ())), 30);
    app_test_wait_drawn (GTK_WIDGET (find_file_chooser ()));
    for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
      {
        g_autoptr(GObject) w = g_list_model_get_item (toplevels, i);

        if (GTK_IS_FILE_CHOOSER (w) && gtk_widget_get_visible (GTK_WIDGET (w)))
          chooser = GTK_FILE_CHOOSER (w);
      }
    g_assert_nonnull (chooser);
    g_assert_cmpstr (gtk_file_chooser_get_choice (chooser, "table"), ==, "tracks");
    gtk_window_close (GTK_WINDOW (chooser));
    app_test_wait_until (find_file_chooser () == NULL, 30);
    app_test_wait_drawn (GTK_WIDGET (stats));
    adw_view_stack_set_visible_child_name (pages, "codes");
  }

  /* Rows do something: an event-code row searches that code in the window,
   * a track row scrolls the timeline to the track. */
  {
    GtkColumnView *codes = GTK_COLUMN_VIEW (gtk_widget_get_template_child (GTK_WIDGET (stats),
                                                                          CPEL_TYPE_STATS_WINDOW, "codes_view"));
    GtkColumnView *tracks = GTK_COLUMN_VIEW (gtk_widget_get_template_child (GTK_WIDGET (stats),
                                                                           CPEL_TYPE_STATS_WINDOW, "tracks_view"));
    CpelSearchBar *bar = cpel_window_get_search_bar (f->window);
    GListModel *model = G_LIST_MODEL (gtk_column_view_get_model (codes));
    g_autoptr(CpelTableRow) row = g_list_model_get_item (model, 0);
    CpelFile *file = cpel_window_get_file (f->window);
    guint32 code = cpel_file_get_type_code (file, (guint) cpel_table_row_get_id (row));
    guint slot;
    guint64 index;

    g_signal_emit_by_name (codes, "activate", 0);
    g_assert_true (cpel_search_bar_get_search_mode (bar));
    while (cpel_search_bar_is_running (bar))
      g_main_context_iteration (NULL, TRUE);
    g_assert_nonnull (cpel_search_bar_get_result (bar));
    g_assert_cmpuint (cpel_search_result_get_n (cpel_search_bar_get_result (bar)), >, 0);
    g_assert_true (cpel_session_get_selection (cpel_timeline_get_session (timeline),
                                               &slot, &index));
    g_assert_cmpuint (cpel_file_get_track_event_code (file, slot, index), ==, code);
    cpel_search_bar_set_search_mode (bar, FALSE);

    g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (gtk_column_view_get_model (tracks))), >, 0);
    g_signal_emit_by_name (tracks, "activate", 0);   /* a shown track: no error bell, no warning */
    /* (stepping to the match moved the view: back to the range checked below) */
    cpel_session_unselect (cpel_timeline_get_session (timeline));
    cpel_timeline_set_range (timeline, 10000, 20050, FALSE);
  }

  /* A hidden track and a hidden type: the action counts again. */
  cpel_track_order_set_hidden (cpel_session_get_track_order (cpel_timeline_get_session (timeline)),
                               1, TRUE);
  hidden = g_new0 (guint8, cpel_file_get_n_types (cpel_window_get_file (f->window)));
  hidden[1] = 1;   /* types are in code order: 0 = send, 1 = recv */
  cpel_session_set_hidden_types (cpel_timeline_get_session (timeline), hidden);
  g_free (hidden);
  activate (f, "statistics", NULL);
  g_assert_true (CPEL_STATS_WINDOW (cpel_window_get_statistics (f->window)) == stats);
  stats = wait_stats (f);
  check_stats (stats, 10000, 20050, two, CODE_RECV);

  /* A measurement [m0, m1] wins over the visible range. */
  cpel_session_set_measure (cpel_timeline_get_session (timeline), 12345, 15000);
  cpel_stats_window_refresh (stats);
  stats = wait_stats (f);
  check_stats (stats, 12345, 15001, two, CODE_RECV);
  /* Headed as measured: end and span as the ruler's Δt (2.655 µs). */
  {
    GtkLabel *range = GTK_LABEL (gtk_widget_get_template_child (GTK_WIDGET (stats), CPEL_TYPE_STATS_WINDOW,
                                                               "range_label"));

    g_assert_nonnull (strstr (gtk_label_get_text (range), "15.000 µs (2.655 µs)"));
  }

  /* Sorting by a column reorders the rows shown. */
  {
    GtkColumnView *view = GTK_COLUMN_VIEW (gtk_widget_get_template_child (GTK_WIDGET (stats),
                                                                         CPEL_TYPE_STATS_WINDOW,
                                                                         "tracks_view"));
    GListModel *columns = gtk_column_view_get_columns (view);
    g_autoptr(GtkColumnViewColumn) count_column = g_list_model_get_item (columns, 2);
    GListModel *tracks = cpel_stats_window_get_rows (stats, CPEL_STATS_CSV_TRACKS);

    gtk_column_view_sort_by_column (view, count_column, GTK_SORT_DESCENDING);
    app_test_wait_until (g_list_model_get_n_items (tracks) == 2
                         && g_ascii_strtoull (cell (tracks, 0, 2), NULL, 10)
                            >= g_ascii_strtoull (cell (tracks, 1, 2), NULL, 10), 30);
    g_assert_cmpuint (g_list_model_get_n_items (tracks), ==, 2);
    g_assert_cmpuint (g_ascii_strtoull (cell (tracks, 0, 2), NULL, 10), >=,
                      g_ascii_strtoull (cell (tracks, 1, 2), NULL, 10));
  }
}

/* 60 tracks: the Tracks page's table scrolls. */
static void
many_tracks_event (guint64 i, TestEvent *ev, gpointer data)
{
  ev->t = i * 100;
  ev->track = (guint32) (i % 60);
  ev->code = CODE_SEND;
  ev->datum = (guint32) i;
}

static void
write_many_tracks (const char *path)
{
  test_write_capture (path, 60, 6000, many_tracks_event, NULL);
}

/* A new sort order on a scrolled-down table starts at its top, without
 * GTK 4.8's "GtkColumnListView failed to scroll to given position"
 * (random input seed 47: the scroll ran right after the sort model had
 * replaced every row, before they were laid out). */
static void
test_stats_sort_scrolled (Fixture *f, gconstpointer data)
{
  CpelStatsWindow *stats;
  AdwViewStack *pages;
  GtkColumnView *view;
  GtkAdjustment *adj;
  g_autoptr(GtkColumnViewColumn) column = NULL;

  activate (f, "statistics", NULL);
  stats = wait_stats (f);
  pages = ADW_VIEW_STACK (gtk_widget_get_template_child (GTK_WIDGET (stats), CPEL_TYPE_STATS_WINDOW,
                                                          "view_stack"));
  view = GTK_COLUMN_VIEW (gtk_widget_get_template_child (GTK_WIDGET (stats), CPEL_TYPE_STATS_WINDOW,
                                                         "tracks_view"));
  adw_view_stack_set_visible_child_name (pages, "tracks");
  app_test_wait_until (gtk_widget_get_mapped (GTK_WIDGET (view)), 10);
  app_test_wait_drawn (GTK_WIDGET (stats));
  adj = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (view));
  app_test_wait_until (gtk_adjustment_get_upper (adj) > gtk_adjustment_get_page_size (adj) + 100, 10);

  for (guint i = 0; i < 6; i++)
    {
      column = g_list_model_get_item (gtk_column_view_get_columns (view), i % 3);
      gtk_adjustment_set_value (adj, gtk_adjustment_get_upper (adj) - gtk_adjustment_get_page_size (adj));
      app_test_wait_drawn (GTK_WIDGET (stats));
      g_assert_cmpfloat (gtk_adjustment_get_value (adj), >, 0);
      gtk_column_view_sort_by_column (view, column, i % 2 == 0 ? GTK_SORT_DESCENDING : GTK_SORT_ASCENDING);
      app_test_wait_until (gtk_adjustment_get_value (adj) == gtk_adjustment_get_lower (adj), 10);
      app_test_wait_drawn (GTK_WIDGET (stats));
      g_clear_object (&column);
    }
}

/* ---- the Spans page ----------------------------------------------------- */

/* Track 1: ip4-lookup of 1..100 µs; track 2: dpdk-input 10 x 300 ns,
 * one ip4-lookup of 500 µs (the longest) at 20 ms, a dpdk-input at 40 ms. */
static void
write_node_spans (const char *path)
{
  g_autoptr(GArray) spans = g_array_new (FALSE, TRUE, sizeof (CpelTestNodeSpan));
  gint64 durations[100];
  gint64 short_ones[10];
  gint64 longest = 500000;
  gint64 t;

  for (guint i = 0; i < 100; i++)
    durations[i] = (gint64) (i + 1) * 1000;
  for (guint i = 0; i < 10; i++)
    short_ones[i] = 300;
  cpel_test_node_spans_append (spans, 1, "ip4-lookup", 1000, 500, durations, 100);
  t = cpel_test_node_spans_append (spans, 2, "dpdk-input", 1000, 700, short_ones, 10);
  cpel_test_node_spans_append (spans, 2, "ip4-lookup", MAX (t, 20000000), 0, &longest, 1);
  cpel_test_node_spans_append (spans, 2, "dpdk-input", 40000000, 0, short_ones, 1);
  cpel_test_node_spans_write (path, (CpelTestNodeSpan *) spans->data, spans->len);
}

/* Waits for the session's spans (derived in a worker thread). */
static void
wait_session_spans (CpelSession *session)
{
  gboolean ready = cpel_session_get_spans (session) != NULL;
  gulong id = g_signal_connect (session, "notify::spans",
                                G_CALLBACK (app_test_on_notify_flag), &ready);

  g_assert_true (app_test_wait_flag (&ready, 30000));
  g_signal_handler_disconnect (session, id);
  g_assert_nonnull (cpel_session_get_spans (session));
}

static const char *
duration_text (gint64 ns)
{
  g_autofree char *text = cpel_time_format (ns);

  return g_intern_string (text);
}

/* To look at the windows: CPEL_TEST_SHOT_DIR=dir saves the screen (under
 * xvfb) as dir/NAME-light.png and dir/NAME-dark.png. */
static void
shoot (GtkWidget *widget, const char *name)
{
  const char *dir = g_getenv ("CPEL_TEST_SHOT_DIR");
  AdwStyleManager *style = adw_style_manager_get_default ();

  if (dir == NULL)
    return;
  for (guint dark = 0; dark < 2; dark++)
    {
      g_autofree char *file = g_strdup_printf ("%s-%s.png", name, dark ? "dark" : "light");
      g_autofree char *path = g_build_filename (dir, file, NULL);
      g_autofree char *argv0 = g_find_program_in_path ("import");
      const char *argv[] = { argv0, "-window", "root", path, NULL };

      adw_style_manager_set_color_scheme (style, dark ? ADW_COLOR_SCHEME_FORCE_DARK
                                                      : ADW_COLOR_SCHEME_FORCE_LIGHT);
      app_test_drain ();
      /* Transitions (the stack's crossfade) run their course. */
      app_test_wait_frames (widget, 40);
      app_test_settle ();
      if (argv0 != NULL)
        g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, NULL,
                      NULL);
    }
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);
}

/* The page's rows against the core's summary (what `cpel spans` prints)
 * over [t0, t1) of every track. */
static void
check_span_rows (CpelStatsWindow *stats, CpelFile *file, CpelSpanRules *rules,
                 gint64 t0, gint64 t1)
{
  CpelSpansOptions options = { t0, t1, NULL, 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelSpanSummary) expected = cpel_span_summary_compute (file, rules, &options, FALSE,
                                                                   NULL, &error);
  GListModel *rows = cpel_stats_window_get_span_rows (stats, CPEL_SPAN_TABLE_SPANS);
  guint n;

  g_assert_no_error (error);
  n = cpel_span_summary_get_n_rows (expected, CPEL_SPAN_TABLE_SPANS);
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, n);
  for (guint i = 0; i < n; i++)
    {
      const CpelSpanRow *r = cpel_span_summary_get_row (expected, CPEL_SPAN_TABLE_SPANS, i);
      g_autofree char *count = cpel_format_count (r->count);
      guint row = G_MAXUINT;

      for (guint k = 0; k < n && row == G_MAXUINT; k++)
        if (g_strcmp0 (cell (rows, k, 0), r->name) == 0)
          row = k;
      g_assert_cmpuint (row, !=, G_MAXUINT);
      g_assert_cmpstr (cell (rows, row, 1), ==, count);
      g_assert_cmpstr (cell (rows, row, 2), ==, duration_text ((gint64) r->total_ns));
      g_assert_cmpstr (cell (rows, row, 3), ==, duration_text ((gint64) r->self_ns));
      g_assert_cmpstr (cell (rows, row, 4), ==, duration_text (r->min_ns));
      g_assert_cmpstr (cell (rows, row, 5), ==, duration_text (r->p50_ns));
      g_assert_cmpstr (cell (rows, row, 6), ==, duration_text (r->p90_ns));
      g_assert_cmpstr (cell (rows, row, 7), ==, duration_text (r->p99_ns));
      g_assert_cmpstr (cell (rows, row, 8), ==, duration_text (r->max_ns));
      g_assert_cmpstr (cell (rows, row, 9), ==, duration_text (r->mean_ns));
      g_assert_cmpstr (cell (rows, row, 10), ==, duration_text (r->stddev_ns));
    }
}

static void
test_stats_spans (Fixture *f, gconstpointer data)
{
  CpelTimeline *timeline = cpel_window_get_timeline (f->window);
  CpelSession *session = cpel_timeline_get_session (timeline);
  CpelFile *file = cpel_session_get_file (session);
  CpelSpanRules *rules = cpel_session_get_span_rules (session);
  CpelStatsWindow *stats;
  GListModel *rows;
  CpelSessionSpanRef ref = { 0 };
  const CpelSpan *span;
  CpelSpans *spans;
  guint ip4 = G_MAXUINT;
  gint64 begin, end;

  g_assert_nonnull (rules);
  wait_session_spans (session);

  /* The whole capture: ip4-lookup 101 spans (1..100 µs, 500 µs). */
  cpel_timeline_set_range (timeline, 0, 30000000, FALSE);
  activate (f, "statistics", NULL);
  stats = wait_stats (f);
  check_span_rows (stats, file, rules, 0, 30000000);
  rows = cpel_stats_window_get_span_rows (stats, CPEL_SPAN_TABLE_SPANS);
  for (guint k = 0; k < g_list_model_get_n_items (rows); k++)
    if (g_strcmp0 (cell (rows, k, 0), "ip4-lookup") == 0)
      ip4 = k;
  g_assert_cmpuint (ip4, !=, G_MAXUINT);
  g_assert_cmpstr (cell (rows, ip4, 1), ==, "101");
  g_assert_cmpstr (cell (rows, ip4, 4), ==, duration_text (1000));
  g_assert_cmpstr (cell (rows, ip4, 5), ==, duration_text (51000));
  g_assert_cmpstr (cell (rows, ip4, 6), ==, duration_text (91000));
  g_assert_cmpstr (cell (rows, ip4, 7), ==, duration_text (100000));
  g_assert_cmpstr (cell (rows, ip4, 8), ==, duration_text (500000));

  /* Copy as Text on the Spans page: the core's table. */
  {
    AdwViewStack *pages = ADW_VIEW_STACK (gtk_widget_get_template_child (GTK_WIDGET (stats),
                                                                       CPEL_TYPE_STATS_WINDOW,
                                                                       "view_stack"));
    g_autofree char *text = NULL;
    g_autofree char *expected = NULL;

    adw_view_stack_set_visible_child_name (pages, "spans");
    g_assert_cmpstr (adw_view_stack_get_visible_child_name (pages), ==, "spans");
    text = cpel_stats_window_get_text (stats);
    expected = cpel_span_summary_to_text (cpel_stats_window_get_span_summary (stats),
                                          CPEL_SPAN_TABLE_SPANS);
    g_assert_cmpstr (text, ==, expected);
    gtk_window_present (GTK_WINDOW (stats));
    shoot (GTK_WIDGET (stats), "spans-page");

    /* Save as CSV: the core's CSV. */
    {
      g_autofree char *path = g_build_filename (f->dir, "spans.csv", NULL);
      g_autoptr(GFile) out = g_file_new_for_path (path);
      g_autoptr(GError) error = NULL;
      g_autofree char *csv = NULL;
      g_autofree char *expected_csv =
        cpel_span_summary_to_csv (cpel_stats_window_get_span_summary (stats),
                                  CPEL_SPAN_TABLE_SPANS);

      g_assert_true (cpel_stats_window_save_span_csv (stats, out, CPEL_SPAN_TABLE_SPANS, &error));
      g_assert_no_error (error);
      g_assert_true (g_file_get_contents (path, &csv, NULL, NULL));
      g_assert_cmpstr (csv, ==, expected_csv);
      g_assert_true (g_str_has_prefix (csv, "span,count,total_ns,"));
    }
  }

  /* Activating the row selects its longest span (track 2's) and centres it. */
  cpel_stats_window_activate_span_row (stats, CPEL_SPAN_TABLE_SPANS, ip4);
  app_test_wait_until (!cpel_stats_window_is_busy (stats), 30);
  span = cpel_session_get_span_selection (session, &ref);
  g_assert_nonnull (span);
  spans = cpel_session_get_spans (session);
  g_assert_cmpstr (cpel_spans_get_name (spans, span->name), ==, "ip4-lookup");
  begin = cpel_spans_begin_ns (spans, ref.slot, span);
  end = cpel_spans_end_ns (spans, ref.slot, span);
  g_assert_cmpint (end - begin, ==, 500000);
  {
    const CpelRange *range = cpel_session_get_range (session);

    g_assert_cmpint (range->t0, <=, begin);
    g_assert_cmpint (range->t1, >=, end);
    g_assert_cmpint (llabs ((range->t0 + range->t1) / 2 - (begin + end) / 2), <=, 1);
  }

  /* The distribution of ip4-lookup: 60 linear bins of 8.317 µs from
   * 1 µs; dragging over the first selects 1..9 µs (9 spans), Go to
   * Longest selects the 9 µs one; the last bin holds the 500 µs one. */
  {
    CpelSpanHistogramWindow *dist;
    const CpelSpanHistogram *h;
    const CpelSpanFilter *filter;
    guint64 n = 0;

    dist = CPEL_SPAN_HISTOGRAM_WINDOW (cpel_stats_window_show_distribution (stats, ip4));
    g_assert_nonnull (dist);
    app_test_wait_until (!cpel_span_histogram_window_is_busy (dist), 30);
    h = cpel_span_histogram_window_get_histogram (dist);
    g_assert_nonnull (h);
    g_assert_cmpuint (h->count, ==, 101);
    g_assert_cmpuint (h->n_bins, ==, 60);
    for (guint i = 0; i < h->n_bins; i++)
      n += h->counts[i];
    g_assert_cmpuint (n, ==, 101);
    g_assert_cmpuint (h->counts[0], ==, 9);
    g_assert_cmpuint (h->counts[h->n_bins - 1], ==, 1);
    app_test_wait_drawn (GTK_WIDGET (dist));

    cpel_span_histogram_window_select_bins (dist, 0, 0);
    filter = cpel_session_get_span_filter (session);
    g_assert_nonnull (filter);
    g_assert_cmpint (filter->min_ns, ==, 1000);
    g_assert_cmpint (filter->max_ns, ==, h->edges[1] - 1);
    cpel_span_histogram_window_go_to_longest (dist);
    app_test_wait_until (!cpel_span_histogram_window_is_busy (dist), 30);
    span = cpel_session_get_span_selection (session, &ref);
    g_assert_nonnull (span);
    spans = cpel_session_get_spans (session);
    g_assert_cmpint (cpel_spans_end_ns (spans, ref.slot, span)
                     - cpel_spans_begin_ns (spans, ref.slot, span), ==, 9000);

    cpel_span_histogram_window_select_bins (dist, h->n_bins - 1, h->n_bins - 1);
    cpel_span_histogram_window_go_to_longest (dist);
    app_test_wait_until (!cpel_span_histogram_window_is_busy (dist), 30);
    span = cpel_session_get_span_selection (session, &ref);
    g_assert_cmpint (cpel_spans_end_ns (spans, ref.slot, span)
                     - cpel_spans_begin_ns (spans, ref.slot, span), ==, 500000);

    /* The histogram as a PNG and an SVG image, by the file's name. */
    for (guint i = 0; i < 2; i++)
      {
        g_autofree char *path = g_build_filename (f->dir, i == 0 ? "hist.png" : "hist.svg", NULL);
        g_autoptr(GFile) out = g_file_new_for_path (path);
        g_autoptr(GError) error = NULL;
        g_autofree char *bytes = NULL;
        gsize len = 0;

        g_assert_true (cpel_span_histogram_window_save (dist, out, &error));
        g_assert_no_error (error);
        g_assert_true (g_file_get_contents (path, &bytes, &len, NULL));
        if (i == 0)
          {
            cairo_surface_t *png = cairo_image_surface_create_from_png (path);

            g_assert_true (len > 8 && memcmp (bytes, "\x89PNG", 4) == 0);
            g_assert_cmpint (cairo_surface_status (png), ==, CAIRO_STATUS_SUCCESS);
            g_assert_cmpint (cairo_image_surface_get_width (png), ==, 800);
            cairo_surface_destroy (png);
          }
        else
          g_assert_nonnull (strstr (bytes, "<svg"));
      }

    /* The bins as CSV: what `cpel spans --hist` writes for the name. */
    {
      g_autofree char *path = g_build_filename (f->dir, "bins.csv", NULL);
      g_autoptr(GFile) out = g_file_new_for_path (path);
      g_autoptr(GError) error = NULL;
      g_autofree char *csv = NULL;
      g_autofree char *cli_out = NULL;
      const char *cli = g_getenv ("CPEL_CLI");

      g_assert_true (cpel_span_histogram_window_save (dist, out, &error));
      g_assert_no_error (error);
      g_assert_true (g_file_get_contents (path, &csv, NULL, NULL));
      g_assert_true (g_str_has_prefix (csv, "span,bin_lo_ns,bin_hi_ns,count\r\n"
                                            "ip4-lookup,1000,"));
      if (cli != NULL)
        {
          const char *argv[] = { cli, "spans", f->path, "--hist", "--span", "ip4-lookup",
                                 "--bins", "60", "--csv", NULL };
          int status = -1;

          g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL,
                                       NULL, NULL, &cli_out, NULL, &status, &error));
          g_assert_no_error (error);
          g_assert_cmpint (status, ==, 0);
          g_assert_cmpstr (csv, ==, cli_out);
        }
    }

    /* Log bins: the same spans. */
    cpel_span_histogram_window_select_bins (dist, 0, 4);
    shoot (GTK_WIDGET (dist), "span-histogram");
    cpel_span_histogram_window_set_log (dist, TRUE);
    app_test_wait_until (!cpel_span_histogram_window_is_busy (dist)
                         && cpel_span_histogram_window_get_histogram (dist) != NULL, 30);
    h = cpel_span_histogram_window_get_histogram (dist);
    g_assert_cmpuint (h->count, ==, 101);
    g_assert_cmpint (h->edges[0], ==, 1000);
    shoot (GTK_WIDGET (dist), "span-histogram-log");
    /* (a new histogram dropped the selection; make one again) */
    cpel_span_histogram_window_select_bins (dist, 0, 0);
    g_assert_nonnull (cpel_session_get_span_filter (session));
    gtk_window_destroy (GTK_WINDOW (dist));
    g_assert_null (cpel_session_get_span_filter (session));
  }

  /* Unfolded, ip4-lookup's row shows its tracks' rows: vpp_wk_1 (100
   * spans, 1..100 µs) and vpp_wk_2 (the 500 µs one), the percentiles left
   * to the name's row; activating a track's row selects the longest span
   * on that track (100 µs: not the 500 µs one of track 2). */
  {
    GtkColumnView *view = GTK_COLUMN_VIEW (gtk_widget_get_template_child (GTK_WIDGET (stats),
                                                                        CPEL_TYPE_STATS_WINDOW,
                                                                        "spans_view"));
    GListModel *listed = G_LIST_MODEL (gtk_column_view_get_model (view));
    g_autoptr(GtkTreeListRow) tree_row = NULL;
    guint n_before;

    /* the whole capture counted again (the distribution's Go to Longest
     * moved the range), in the window the user works in: the ranges its
     * rows move to are not counted again */
    cpel_timeline_set_range (timeline, 0, 30000000, FALSE);
    cpel_stats_window_refresh (stats);
    stats = wait_stats (f);
    gtk_window_present (GTK_WINDOW (stats));
    app_test_wait_until (gtk_window_is_active (GTK_WINDOW (stats)), 30);
    rows = cpel_stats_window_get_span_rows (stats, CPEL_SPAN_TABLE_SPANS);
    n_before = g_list_model_get_n_items (rows);
    ip4 = G_MAXUINT;
    for (guint k = 0; k < n_before; k++)
      if (g_strcmp0 (cell (rows, k, 0), "ip4-lookup") == 0)
        ip4 = k;
    g_assert_cmpuint (ip4, !=, G_MAXUINT);
    tree_row = g_list_model_get_item (listed, ip4);
    g_assert_true (GTK_IS_TREE_LIST_ROW (tree_row));
    g_assert_true (gtk_tree_list_row_is_expandable (tree_row));
    gtk_tree_list_row_set_expanded (tree_row, TRUE);
    g_assert_cmpuint (g_list_model_get_n_items (rows), ==, n_before + 2);
    app_test_wait_drawn (GTK_WIDGET (stats));
    shoot (GTK_WIDGET (stats), "spans-page-tracks");
    g_assert_cmpstr (cell (rows, ip4 + 1, 0), ==, "vpp_wk_1");
    g_assert_cmpstr (cell (rows, ip4 + 1, 1), ==, "100");
    g_assert_cmpstr (cell (rows, ip4 + 1, 4), ==, duration_text (1000));
    g_assert_cmpstr (cell (rows, ip4 + 1, 8), ==, duration_text (100000));
    g_assert_cmpstr (cell (rows, ip4 + 1, 5), ==, "—");
    g_assert_cmpstr (cell (rows, ip4 + 2, 0), ==, "vpp_wk_2");
    g_assert_cmpstr (cell (rows, ip4 + 2, 1), ==, "1");
    g_assert_cmpstr (cell (rows, ip4 + 2, 8), ==, duration_text (500000));
    app_test_wait_drawn (GTK_WIDGET (stats));
    shoot (GTK_WIDGET (stats), "spans-page-tracks");
    cpel_stats_window_activate_span_row (stats, CPEL_SPAN_TABLE_SPANS, ip4 + 1);
    app_test_wait_until (!cpel_stats_window_is_busy (stats), 30);
    span = cpel_session_get_span_selection (session, &ref);
    g_assert_nonnull (span);
    g_assert_cmpint (cpel_spans_end_ns (spans, ref.slot, span)
                     - cpel_spans_begin_ns (spans, ref.slot, span), ==, 100000);
    gtk_tree_list_row_set_expanded (tree_row, FALSE);
    g_assert_cmpuint (g_list_model_get_n_items (rows), ==, n_before);
  }

  /* A narrower range (the first 60 µs: ip4-lookup spans of track 1 that
   * end before it), set while the user works in the main window: the
   * window counts it again by itself once the range holds still, the Spans
   * page from the session's spans.  (Ranges this window moved to, above,
   * while it was the active one, left its tables as they were.) */
  gtk_window_present (GTK_WINDOW (f->window));
  app_test_wait_until (gtk_window_is_active (GTK_WINDOW (f->window)), 30);
  cpel_timeline_set_range (timeline, 0, 60000, FALSE);
  app_test_wait_until (!cpel_stats_window_is_busy (stats)
                       && cpel_stats_window_get_stats (stats) != NULL
                       && cpel_stats_get_t1 (cpel_stats_window_get_stats (stats)) == 60000
                       && cpel_stats_window_get_span_summary (stats) != NULL, 30);
  stats = wait_stats (f);
  check_span_rows (stats, file, rules, 0, 60000);
  cpel_stats_window_activate_span_row (stats, CPEL_SPAN_TABLE_SPANS, 0);
  app_test_wait_until (!cpel_stats_window_is_busy (stats), 30);
  span = cpel_session_get_span_selection (session, &ref);
  g_assert_nonnull (span);
  g_assert_cmpint (cpel_spans_end_ns (spans, ref.slot, span), <, 60000);

  /* States (Busy from a call, Idle from a return): the Thread States page
   * per track and state, as the core's; new rules count again. */
  {
    g_autoptr(CpelSpanRules) with_states = cpel_span_rules_new_builtin ();
    g_autoptr(GError) error = NULL;
    g_autoptr(CpelSpanSummary) expected = NULL;
    CpelSpansOptions options = { 0, 30000000, NULL, 0 };
    GListModel *states;
    guint n;

    g_assert_true (cpel_span_rules_add_text (with_states,
                                             "state Busy on event=*-call\n"
                                             "state Idle on event=*-return\n",
                                             -1, "test", &error));
    g_assert_no_error (error);
    cpel_timeline_set_range (timeline, 0, 30000000, FALSE);
    cpel_session_set_span_rules (session, with_states);
    stats = wait_stats (f);
    wait_session_spans (session);
    expected = cpel_span_summary_compute (file, with_states, &options, FALSE, NULL, &error);
    g_assert_no_error (error);
    n = cpel_span_summary_get_n_rows (expected, CPEL_SPAN_TABLE_STATES);
    g_assert_cmpuint (n, ==, 4);   /* two tracks, two states */
    states = cpel_stats_window_get_span_rows (stats, CPEL_SPAN_TABLE_STATES);
    g_assert_cmpuint (g_list_model_get_n_items (states), ==, n);
    for (guint i = 0; i < n; i++)
      {
        const CpelSpanRow *r = cpel_span_summary_get_row (expected, CPEL_SPAN_TABLE_STATES, i);
        g_autofree char *count = cpel_format_count (r->count);

        g_assert_cmpstr (cell (states, i, 0), ==, r->track);
        g_assert_cmpstr (cell (states, i, 1), ==, r->name);
        g_assert_cmpstr (cell (states, i, 2), ==, count);
        g_assert_cmpstr (cell (states, i, 3), ==, duration_text ((gint64) r->total_ns));
        g_assert_cmpstr (cell (states, i, 4), ==, duration_text (r->min_ns));
        g_assert_cmpstr (cell (states, i, 5), ==, duration_text (r->mean_ns));
        g_assert_cmpstr (cell (states, i, 6), ==, duration_text (r->max_ns));
      }
    {
      AdwViewStack *pages = ADW_VIEW_STACK (gtk_widget_get_template_child (GTK_WIDGET (stats),
                                                                         CPEL_TYPE_STATS_WINDOW,
                                                                         "view_stack"));

      adw_view_stack_set_visible_child_name (pages, "states");
      shoot (GTK_WIDGET (stats), "states-page");
    }
    /* Track 1's Busy: 1..100 µs; activating it selects the 100 µs state. */
    g_assert_cmpstr (cell (states, 0, 0), ==, "vpp_wk_1");
    g_assert_cmpstr (cell (states, 0, 1), ==, "Busy");
    g_assert_cmpstr (cell (states, 0, 2), ==, "100");
    cpel_stats_window_activate_span_row (stats, CPEL_SPAN_TABLE_STATES, 0);
    span = cpel_session_get_span_selection (session, &ref);
    g_assert_nonnull (span);
    g_assert_true (ref.state);
    spans = cpel_session_get_spans (session);
    g_assert_cmpint (cpel_spans_end_ns (spans, ref.slot, span)
                     - cpel_spans_begin_ns (spans, ref.slot, span), ==, 100000);
  }
}

int
main (int argc, char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return app_test_run_no_display ("/app/stats-window");

  app = app_test_new_application ();

#define ADD(path, func, write) \
  g_test_add ("/app/stats-window/" path, Fixture, (gconstpointer) (write), fixture_setup, func, \
              fixture_teardown)
  ADD ("numbers", test_stats, app_test_write_regular);
  ADD ("sort-scrolled", test_stats_sort_scrolled, write_many_tracks);
  ADD ("spans", test_stats_spans, write_node_spans);
#undef ADD
  return app_test_run (&app);
}
