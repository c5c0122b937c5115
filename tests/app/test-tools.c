/* SPDX-License-Identifier: Apache-2.0 */
/* test-tools.c — the viewer's analysis and output tools: Statistics window
 * (numbers on a known file, shown tracks, hidden types, measured range,
 * CSV), Anomalies (planted outliers found exactly, per track mean / σ,
 * next / previous by action and by key, worker path), Save Range As (the
 * action writes a file whose events equal the range), print (the page
 * drawn onto an image surface; PDF export), and the event-type filter in
 * search. */
#include "app-test-util.h"

#include <glib/gstdio.h>

#include "cpel-anomalies-window.h"
#include "cpel-anomaly-list.h"
#include "cpel-application.h"
#include "cpel-cut-dialog.h"
#include "cpel-event-type-row.h"
#include "cpel-event-types-window.h"
#include "cpel-print.h"
#include "cpel-stats-window.h"
#include "cpel-table.h"
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

/* Counts as the viewer shows them (with digit grouping). */
static char *
counted (guint64 n, const char *suffix)
{
  g_autofree char *count = cpel_format_count (n);

  return g_strconcat (count, suffix, NULL);
}

static char *
counted_after (const char *prefix, guint64 n)
{
  g_autofree char *count = cpel_format_count (n);

  return g_strconcat (prefix, count, NULL);
}

static CpelApplication *app;

typedef AppTestFixture Fixture;

/* ---- files ---------------------------------------------------------------- */

static void
write_events (const char *path, guint n_tracks, guint64 n_events, TestEventFunc func)
{
  test_write_capture (path, n_tracks, n_events, func, NULL);
}

/* The regular file: 3000 events 100 ns apart on 3 tracks, every 7th a recv. */
#define REG_EVENTS 3000
#define REG_TRACKS 3
#define REG_STEP   100

static void
regular_event (guint64 i, TestEvent *ev, gpointer data)
{
  ev->t = i * REG_STEP;
  ev->track = (guint32) (i % REG_TRACKS);
  ev->code = i % 7 == 0 ? CODE_RECV : CODE_SEND;
  ev->datum = (guint32) i;
}

static void
write_regular (const char *path)
{
  write_events (path, REG_TRACKS, REG_EVENTS, regular_event);
}

/* The anomaly file: 2 tracks, send every 1000 ns alternating tracks, datum
 * 100 + (i % 5) - 2 but 5000 at the planted indices; recv idle noise. */
#define ANOM_EVENTS 4000
static const guint64 planted[] = { 402, 1201, 2750, 3333 };

static gboolean
is_planted (guint64 i)
{
  for (guint k = 0; k < G_N_ELEMENTS (planted); k++)
    if (planted[k] == i)
      return TRUE;
  return FALSE;
}

static void
anomaly_event (guint64 i, TestEvent *ev, gpointer data)
{
  ev->t = i * 1000;
  ev->track = (guint32) (i % 2);
  ev->code = i % 10 == 9 ? CODE_IDLE : CODE_SEND;
  ev->datum = is_planted (i) ? 5000 : (guint32) (100 + (i % 5)) - 2;
}

static void
write_anomalies (const char *path)
{
  write_events (path, 2, ANOM_EVENTS, anomaly_event);
}

/* ---- fixture ---------------------------------------------------------------- */

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
  g_autoptr(CpelTableRow) item = g_list_model_get_item (model, row);
  const char *text;

  g_assert_nonnull (item);
  text = cpel_table_row_get_text (item, column);
  /* The row keeps the text; the model keeps the row while it is listed
   * (lazy models make new rows: copy into a per-call cache). */
  return g_intern_string (text);
}

/* ---- statistics -------------------------------------------------------------- */

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
                CodeExpect expect[4], guint64 per_track[REG_TRACKS])
{
  gint64 last[4][REG_TRACKS];

  memset (expect, 0, 4 * sizeof (CodeExpect));
  memset (per_track, 0, REG_TRACKS * sizeof (guint64));
  for (guint c = 0; c < 4; c++)
    for (guint r = 0; r < REG_TRACKS; r++)
      last[c][r] = -1;
  for (guint64 i = 0; i < REG_EVENTS; i++)
    {
      TestEvent ev;
      CodeExpect *e;

      regular_event (i, &ev, NULL);
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
  guint64 per_track[REG_TRACKS];
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
  for (guint r = 0; r < REG_TRACKS; r++)
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
  gboolean all[REG_TRACKS] = { TRUE, TRUE, TRUE };
  gboolean two[REG_TRACKS] = { TRUE, FALSE, TRUE };
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
    g_assert_true (cpel_timeline_get_selection (timeline, &slot, &index));
    g_assert_cmpuint (cpel_file_get_track_event_code (file, slot, index), ==, code);
    cpel_search_bar_set_search_mode (bar, FALSE);

    g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (gtk_column_view_get_model (tracks))), >, 0);
    g_signal_emit_by_name (tracks, "activate", 0);   /* a shown track: no error bell, no warning */
    /* (stepping to the match moved the view: back to the range checked below) */
    cpel_timeline_unselect (timeline);
    cpel_timeline_set_range (timeline, 10000, 20050, FALSE);
  }

  /* A hidden track and a hidden type: the action counts again. */
  cpel_track_order_set_hidden (cpel_timeline_get_track_order (timeline), 1, TRUE);
  hidden = g_new0 (guint8, cpel_file_get_n_types (cpel_window_get_file (f->window)));
  hidden[1] = 1;   /* types are in code order: 0 = send, 1 = recv */
  cpel_timeline_set_hidden_types (timeline, hidden);
  g_free (hidden);
  activate (f, "statistics", NULL);
  g_assert_true (CPEL_STATS_WINDOW (cpel_window_get_statistics (f->window)) == stats);
  stats = wait_stats (f);
  check_stats (stats, 10000, 20050, two, CODE_RECV);

  /* A measurement [m0, m1] wins over the visible range. */
  cpel_timeline_set_measure (timeline, 12345, 15000);
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

/* ---- anomalies ----------------------------------------------------------------- */

static CpelAnomaliesWindow *
open_panel (Fixture *f)
{
  CpelAnomaliesWindow *panel;

  activate (f, "anomalies", NULL);
  panel = CPEL_ANOMALIES_WINDOW (cpel_window_get_anomalies (f->window));
  g_assert_nonnull (panel);
  g_assert_true (cpel_anomalies_window_get_session (panel)
                 == cpel_timeline_get_session (cpel_window_get_timeline (f->window)));
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (panel)) == GTK_WINDOW (f->window));
  app_test_drain ();
  return panel;
}

static void
wait_panel (CpelAnomaliesWindow *panel)
{
  gint64 end = g_get_monotonic_time () + 10 * G_TIME_SPAN_SECOND;

  while (cpel_anomalies_window_is_busy (panel) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (cpel_anomalies_window_is_busy (panel));
}

/* The selected event is the planted one at file index `i`. */
static void
assert_selected (CpelTimeline *timeline, guint64 i)
{
  guint slot;
  guint64 index;
  CpelEvent ev;

  g_assert_true (cpel_timeline_get_selection (timeline, &slot, &index));
  cpel_file_get_track_event (cpel_timeline_get_file (timeline), slot, index, &ev);
  g_assert_cmpuint (ev.file_index, ==, i);
}

static void
check_planted (CpelAnomaliesWindow *panel, CpelFile *file)
{
  CpelAnomalyResult *result = cpel_anomalies_window_get_result (panel);
  GListModel *rows = cpel_anomalies_window_get_rows (panel, FALSE);
  GListModel *tracks = cpel_anomalies_window_get_rows (panel, TRUE);

  g_assert_nonnull (result);
  /* Exactly the planted events, in time order. */
  g_assert_cmpuint (cpel_anomaly_result_get_n (result), ==, G_N_ELEMENTS (planted));
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, G_N_ELEMENTS (planted));
  for (guint k = 0; k < G_N_ELEMENTS (planted); k++)
    {
      const CpelAnomaly *a = cpel_anomaly_result_get (result, k);
      g_autofree char *time = cpel_time_format ((gint64) planted[k] * 1000);
      g_autofree char *label = g_strdup_printf ("thread %u", (guint) (planted[k] % 2));

      g_assert_cmpuint (a->file_index, ==, planted[k]);
      g_assert_cmpfloat (a->value, ==, 5000);
      g_assert_cmpfloat (a->z, >, 2.5);
      g_assert_cmpstr (cell (rows, k, CPEL_ANOMALY_CELL_TIME), ==, time);
      g_assert_cmpstr (cell (rows, k, CPEL_ANOMALY_CELL_TRACK), ==, label);
      g_assert_cmpstr (cell (rows, k, CPEL_ANOMALY_CELL_VALUE), ==, "5000");
      g_assert_true (g_str_has_prefix (cell (rows, k, CPEL_ANOMALY_CELL_Z), "+"));
    }

  /* Per track mean and σ, checked against a brute-force computation. */
  g_assert_cmpuint (g_list_model_get_n_items (tracks), ==, 2);
  for (guint r = 0; r < 2; r++)
    {
      double sum = 0, sq = 0, mean, sigma;
      guint64 n = 0, n_anom = 0;
      g_autofree char *n_text = NULL;
      g_autofree char *mean_text = NULL;
      g_autofree char *sigma_text = NULL;
      g_autofree char *anom_text = NULL;
      g_autoptr(CpelTableRow) row = g_list_model_get_item (tracks, r);

      g_assert_cmpuint (cpel_table_row_get_id (row), ==, r);
      for (guint64 i = r; i < ANOM_EVENTS; i += 2)
        {
          TestEvent ev;

          anomaly_event (i, &ev, NULL);
          if (ev.code != CODE_SEND)
            continue;
          sum += ev.datum;
          n++;
          n_anom += is_planted (i);
        }
      mean = sum / n;
      for (guint64 i = r; i < ANOM_EVENTS; i += 2)
        {
          TestEvent ev;

          anomaly_event (i, &ev, NULL);
          if (ev.code == CODE_SEND)
            sq += (ev.datum - mean) * (ev.datum - mean);
        }
      sigma = sqrt (sq / n);
      n_text = cpel_format_count (n);
      mean_text = g_strdup_printf ("%.1f", mean);
      sigma_text = g_strdup_printf ("%.1f", sigma);
      anom_text = cpel_format_count (n_anom);
      g_assert_cmpstr (cpel_table_row_get_text (row, 1), ==, n_text);
      g_assert_cmpstr (cpel_table_row_get_text (row, 2), ==, mean_text);
      g_assert_cmpstr (cpel_table_row_get_text (row, 3), ==, sigma_text);
      g_assert_cmpstr (cpel_table_row_get_text (row, 4), ==, anom_text);
    }
  (void) file;
}

/* A file whose busiest type has a text datum ("%s": string offsets):
 * "node" on 2 tracks every 1000 ns, with one 30 µs gap, and a few "send". */
#define CODE_NODE 4

static void
write_text_datums (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelWriter) w = cpel_writer_new (path, FALSE, 1700000000, &error);
  guint table;
  guint32 names[2];
  guint64 t = 0;

  g_assert_no_error (error);
  table = cpel_writer_add_string_table (w, "FileStrtab");
  names[0] = cpel_writer_add_string (w, table, "ip4-lookup");
  names[1] = cpel_writer_add_string (w, table, "ethernet-input, a longer name");
  cpel_writer_begin_event_defs (w, table);
  cpel_writer_add_event_def (w, CODE_SEND, "send", "%d");
  cpel_writer_add_event_def (w, CODE_NODE, "node", "%s");
  cpel_writer_begin_track_defs (w, table);
  cpel_writer_add_track_def (w, 0, "thread %d");
  cpel_writer_add_track_def (w, 1, "thread %d");
  cpel_writer_begin_events (w, table, 1000000000u, 410);
  for (guint i = 0; i < 400; i++)
    {
      t += i == 250 ? 30000 : 1000;
      cpel_writer_add_event (w, t, i % 2, CODE_NODE, names[i % 3 == 0]);
    }
  for (guint i = 0; i < 10; i++)
    cpel_writer_add_event (w, 500 + i * 1000, 0, CODE_SEND, i);
  g_assert_true (cpel_writer_finish (w, &error));
  g_assert_no_error (error);
}

/* The datum of a text type means nothing: the panel measures its intervals
 * (when it opens on it, and when the user picks it); a number type keeps
 * the datum. */
static void
test_anomalies_text_datum (Fixture *f, gconstpointer data)
{
  CpelAnomaliesWindow *panel = open_panel (f);
  CpelAnomalyResult *result;

  /* Opens on the busiest type, node: its intervals. */
  cpel_anomalies_window_run (panel);
  wait_panel (panel);
  result = cpel_anomalies_window_get_result (panel);
  g_assert_nonnull (result);
  g_assert_cmpuint (cpel_anomaly_result_get_code (result), ==, CODE_NODE);
  g_assert_cmpint (cpel_anomaly_result_get_metric (result), ==, CPEL_ANOMALY_INTERVAL);
  g_assert_cmpuint (cpel_anomaly_result_get_n (result), >=, 1);

  g_assert_true (cpel_anomalies_window_set_query (panel, CODE_SEND, CPEL_ANOMALY_DATUM, 2.5));
  cpel_anomalies_window_run (panel);
  wait_panel (panel);
  result = cpel_anomalies_window_get_result (panel);
  g_assert_cmpint (cpel_anomaly_result_get_metric (result), ==, CPEL_ANOMALY_DATUM);

  g_assert_true (cpel_anomalies_window_set_query (panel, CODE_NODE, CPEL_ANOMALY_DATUM, 2.5));
  cpel_anomalies_window_run (panel);
  wait_panel (panel);
  result = cpel_anomalies_window_get_result (panel);
  g_assert_nonnull (result);
  g_assert_cmpint (cpel_anomaly_result_get_metric (result), ==, CPEL_ANOMALY_INTERVAL);

  /* Going to an unusual interval from the whole capture shows it whole:
   * the view spans it twice over, from half of it before its start. */
  {
    CpelTimeline *timeline = cpel_window_get_timeline (f->window);
    const CpelAnomaly *a;
    gint64 t0, t1, interval;

    g_assert_cmpuint (cpel_anomaly_result_get_n (result), >=, 1);
    a = cpel_anomaly_result_get (result, 0);
    interval = (gint64) a->value;
    g_assert_cmpint (interval, >, 1000);
    cpel_timeline_fit (timeline);
    cpel_anomalies_window_jump (panel, 0);
    cpel_timeline_get_range (timeline, &t0, &t1);
    g_assert_cmpint (t0, <=, a->time_ns - interval);
    g_assert_cmpint (t1, >=, a->time_ns);
    g_assert_cmpint (t1 - t0, <=, 2 * interval + 2);
    /* Already shown at a readable size: the span stays. */
    cpel_timeline_set_range (timeline, a->time_ns - 4 * interval, a->time_ns + 4 * interval, FALSE);
    cpel_anomalies_window_jump (panel, 0);
    cpel_timeline_get_range (timeline, &t0, &t1);
    g_assert_cmpint (t1 - t0, ==, 8 * interval);
  }
}

static void
test_anomalies (Fixture *f, gconstpointer data)
{
  CpelTimeline *timeline = cpel_window_get_timeline (f->window);
  CpelFile *file = cpel_window_get_file (f->window);
  CpelAnomaliesWindow *panel;
  gint64 t0, t1;

  /* Before any search, next / previous just show the form. */
  activate (f, "anomaly-next", NULL);
  panel = CPEL_ANOMALIES_WINDOW (cpel_window_get_anomalies (f->window));
  g_assert_nonnull (panel);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (panel)));
  g_assert_null (cpel_anomalies_window_get_result (panel));

  panel = open_panel (f);
  g_assert_true (cpel_anomalies_window_set_query (panel, CODE_SEND, CPEL_ANOMALY_DATUM, 0));
  g_assert_false (cpel_anomalies_window_set_query (panel, 77, CPEL_ANOMALY_DATUM, 0));
  g_assert_true (cpel_anomalies_window_set_query (panel, CODE_SEND, CPEL_ANOMALY_DATUM, 2.5));
  cpel_anomalies_window_run (panel);
  wait_panel (panel);
  check_planted (panel, file);

  /* Next / previous from no selection: from the visible range. */
  cpel_timeline_unselect (timeline);
  cpel_timeline_set_range (timeline, 0, 300000, FALSE);
  activate (f, "anomaly-next", NULL);
  assert_selected (timeline, planted[0]);
  g_assert_cmpint (cpel_anomalies_window_get_current (panel), ==, 0);
  /* The anomaly is centred. */
  cpel_timeline_get_range (timeline, &t0, &t1);
  g_assert_cmpint (ABS ((t0 + t1) / 2 - (gint64) planted[0] * 1000), <=, 1);
  activate (f, "anomaly-next", NULL);
  assert_selected (timeline, planted[1]);
  activate (f, "anomaly-previous", NULL);
  assert_selected (timeline, planted[0]);
  /* Wrapping around. */
  activate (f, "anomaly-previous", NULL);
  assert_selected (timeline, planted[G_N_ELEMENTS (planted) - 1]);
  activate (f, "anomaly-next", NULL);
  assert_selected (timeline, planted[0]);

  /* Jumping from the list. */
  cpel_anomalies_window_jump (panel, 2);
  assert_selected (timeline, planted[2]);
  {
    GtkColumnView *view = GTK_COLUMN_VIEW (gtk_widget_get_template_child (GTK_WIDGET (panel),
                                                                         CPEL_TYPE_ANOMALIES_WINDOW,
                                                                         "anomaly_view"));
    GtkSelectionModel *model = gtk_column_view_get_model (view);

    g_assert_true (gtk_selection_model_is_selected (model, 2));
    gtk_selection_model_select_item (model, 1, TRUE);
    assert_selected (timeline, planted[1]);
  }

  /* The keys: F4 / Shift+F4 in the main window. */
  if (app_test_can_send_input ())
    {
      cpel_timeline_select (timeline, planted[0] % 2, planted[0] / 2, FALSE);
      assert_selected (timeline, planted[0]);
      app_test_focus (GTK_WIDGET (timeline));
      app_test_xdo ("key", "F4", NULL);
      assert_selected (timeline, planted[1]);
      app_test_xdo ("key", "shift+F4", NULL);
      assert_selected (timeline, planted[0]);
    }

  /* A hidden type stays hidden: its anomalies are still found, selected
   * and shown, and the user is told (with Event Types a click away). */
  {
    guint n_types = cpel_file_get_n_types (file), type;
    g_autofree guint8 *hidden = g_malloc0 (n_types);

    g_assert_null (cpel_anomalies_window_get_hidden_note (panel));
    g_assert_true (cpel_file_lookup_type (file, CODE_SEND, &type));
    hidden[type] = 1;
    cpel_timeline_set_hidden_types (timeline, hidden);
    cpel_anomalies_window_run (panel);
    wait_panel (panel);
    check_planted (panel, file);
    g_assert_nonnull (cpel_timeline_get_hidden_types (timeline));
    g_assert_true (cpel_timeline_get_hidden_types (timeline)[type]);
    g_assert_nonnull (cpel_anomalies_window_get_hidden_note (panel));
    g_assert_nonnull (strstr (cpel_anomalies_window_get_hidden_note (panel), "stays hidden"));
    g_assert_cmpstr (cpel_toaster_get_text (cpel_window_get_toaster (f->window)), ==,
                     cpel_anomalies_window_get_hidden_note (panel));
    cpel_anomalies_window_jump (panel, 1);
    assert_selected (timeline, planted[1]);
    g_assert_true (cpel_timeline_get_hidden_types (timeline)[type]);
    hidden[type] = 0;
    cpel_timeline_set_hidden_types (timeline, hidden);
  }

  /* A threshold above every z finds nothing. */
  cpel_anomalies_window_set_query (panel, CODE_SEND, CPEL_ANOMALY_DATUM, 50);
  cpel_anomalies_window_run (panel);
  g_assert_cmpuint (cpel_anomaly_result_get_n (cpel_anomalies_window_get_result (panel)), ==, 0);
  g_assert_false (cpel_anomalies_window_step (panel, 1));

  /* The worker path gives the same answer. */
  cpel_anomalies_window_set_thread_events (panel, 0);
  cpel_anomalies_window_set_query (panel, CODE_SEND, CPEL_ANOMALY_DATUM, 2.5);
  cpel_anomalies_window_run (panel);
  g_assert_true (cpel_anomalies_window_is_busy (panel));
  wait_panel (panel);
  check_planted (panel, file);

  /* Closing hides the panel and keeps the result for F4. */
  gtk_window_close (GTK_WINDOW (panel));
  app_test_wait_until (!gtk_widget_get_visible (GTK_WIDGET (panel)), 30);
  g_assert_true (CPEL_ANOMALIES_WINDOW (cpel_window_get_anomalies (f->window)) == panel);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (panel)));
  cpel_timeline_unselect (timeline);
  cpel_timeline_set_range (timeline, 0, 300000, FALSE);
  activate (f, "anomaly-next", NULL);
  assert_selected (timeline, planted[0]);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (panel)));
}

/* ---- save range ---------------------------------------------------------------- */

static void
wait_cut (Fixture *f)
{
  gint64 end = g_get_monotonic_time () + 10 * G_TIME_SPAN_SECOND;

  while (cpel_window_is_saving_range (f->window) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (cpel_window_is_saving_range (f->window));
  app_test_drain ();
}

/* One "dump" line per event: absolute ns, track, label, code, event label. */
static GPtrArray *
dump_lines (CpelFile *file, const guint *slots, guint n_slots, gint64 t0, gint64 t1)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(CpelMerge) merge = cpel_merge_new (file, slots, n_slots, t0);
  g_autoptr(GString) label = g_string_new (NULL);
  CpelEvent ev;
  guint64 index;

  while (cpel_merge_next (merge, &ev, &index))
    {
      if (ev.time_ns >= t1)
        break;
      g_string_truncate (label, 0);
      cpel_file_append_label (file, &ev, label);
      g_ptr_array_add (lines, g_strdup_printf ("%" G_GINT64_FORMAT "\t%u\t%s\t%u\t%s",
                                               cpel_file_get_base_ns (file) + ev.time_ns, ev.track_id,
                                               cpel_file_get_track_label (file, ev.track_slot),
                                               ev.code, label->str));
    }
  return lines;
}

static void
check_cut (const char *path, CpelFile *source, const guint *slots, guint n_slots, gint64 t0, gint64 t1)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) cut = cpel_file_new_for_path (path, NULL, NULL, NULL, NULL, &error);
  g_autoptr(GPtrArray) want = NULL;
  g_autoptr(GPtrArray) got = NULL;

  g_assert_no_error (error);
  want = dump_lines (source, slots, n_slots, t0, t1);
  got = dump_lines (cut, NULL, 0, G_MININT64, G_MAXINT64);
  g_assert_cmpuint (want->len, >, 0);
  g_assert_cmpuint (got->len, ==, want->len);
  for (guint i = 0; i < want->len; i++)
    g_assert_cmpstr (got->pdata[i], ==, want->pdata[i]);
}

static void
test_save_range (Fixture *f, gconstpointer data)
{
  CpelTimeline *timeline = cpel_window_get_timeline (f->window);
  CpelFile *file = cpel_window_get_file (f->window);
  g_autofree char *all_path = g_build_filename (f->dir, "all.cpel", NULL);
  g_autofree char *some_path = g_build_filename (f->dir, "some.cpel", NULL);
  const guint two[] = { 0, 2 };
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  gsize before_len, after_len;
  gint64 t0, t1;

  cpel_timeline_set_range (timeline, 50050, 120000, FALSE);
  cpel_timeline_get_range (timeline, &t0, &t1);

  /* Every track (the check unset). */
  activate (f, "save-range-to", g_variant_new ("(sb)", all_path, FALSE));
  wait_cut (f);
  g_assert_null (cpel_window_get_save_range_error (f->window));
  check_cut (all_path, file, NULL, 0, t0, t1);

  /* Visible tracks only: track 1 hidden. */
  cpel_track_order_set_hidden (cpel_timeline_get_track_order (timeline), 1, TRUE);
  activate (f, "save-range-to", g_variant_new ("(sb)", some_path, TRUE));
  wait_cut (f);
  g_assert_null (cpel_window_get_save_range_error (f->window));
  check_cut (some_path, file, two, G_N_ELEMENTS (two), t0, t1);

  /* Replacing a file (the chooser confirmed it). */
  activate (f, "save-range-to", g_variant_new ("(sb)", some_path, FALSE));
  wait_cut (f);
  g_assert_null (cpel_window_get_save_range_error (f->window));
  check_cut (some_path, file, NULL, 0, t0, t1);

  /* Never over the open file itself. */
  g_assert_true (g_file_get_contents (f->path, &before, &before_len, NULL));
  activate (f, "save-range-to", g_variant_new ("(sb)", f->path, FALSE));
  wait_cut (f);
  g_assert_nonnull (cpel_window_get_save_range_error (f->window));
  g_assert_true (g_file_get_contents (f->path, &after, &after_len, NULL));
  g_assert_cmpmem (before, before_len, after, after_len);

  /* The new file opens (as the toast's Open does) in a new window. */
  {
    g_autofree char *uri = g_filename_to_uri (all_path, NULL, NULL);
    guint n_windows = g_list_length (gtk_application_get_windows (GTK_APPLICATION (app)));
    gint64 end = g_get_monotonic_time () + 10 * G_TIME_SPAN_SECOND;

    activate (f, "open-recent", g_variant_new_string (uri));
    while (g_list_length (gtk_application_get_windows (GTK_APPLICATION (app))) == n_windows
           && g_get_monotonic_time () < end)
      g_main_context_iteration (NULL, TRUE);
    g_assert_cmpuint (g_list_length (gtk_application_get_windows (GTK_APPLICATION (app))), ==,
                      n_windows + 1);
  }
}

/* ---- print ---------------------------------------------------------------------- */

enum { DARK, LIGHT, COLOURED };

/* Any pixel in [x0, x1) × [y0, y1) that is dark, light or coloured. */
static gboolean
region_has (cairo_surface_t *surface, int x0, int y0, int x1, int y1, int what)
{
  const guint8 *data;
  int stride;

  cairo_surface_flush (surface);
  data = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);
  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++)
      {
        guint32 p = *(const guint32 *) (data + y * stride + x * 4);
        int r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;
        int lum = (r * 3 + g * 6 + b) / 10;

        int sat = MAX (r, MAX (g, b)) - MIN (r, MIN (g, b));

        if ((what == DARK && lum < 90) || (what == LIGHT && lum > 200) || (what == COLOURED && sat > 60))
          return TRUE;
      }
  return FALSE;
}

static void
test_print (Fixture *f, gconstpointer data)
{
  CpelTimeline *timeline = cpel_window_get_timeline (f->window);
  CpelPalette dark;
  CpelView view;
  cairo_surface_t *surface;
  cairo_t *cr;
  g_autofree char *header = NULL;
  g_autofree char *pdf_path = g_build_filename (f->dir, "print.pdf", NULL);
  g_autofree char *pdf = NULL;
  g_autoptr(GError) error = NULL;
  gsize pdf_len;
  const int W = 842, H = 595;

  cpel_timeline_set_range (timeline, 0, 5000, FALSE);
  header = cpel_print_header (f->window);
  g_assert_true (g_str_has_prefix (header, "capture.cpel — 0 ns – 5.000 µs"));

  /* The page from the draw-page code: a dark view prints light. */
  view = *cpel_timeline_get_view (timeline);
  cpel_palette_init_dark (&dark);
  view.palette = &dark;
  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, W, H);
  cr = cairo_create (surface);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cpel_print_draw_page (cr, W, H, &view, 1100, 600, header);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);

  /* Header text on top; the ruler and rows below it, light. */
  g_assert_true (region_has (surface, 0, 0, W / 2, 14, DARK));
  g_assert_false (region_has (surface, W / 2 + 200, 0, W, 12, DARK));
  g_assert_false (region_has (surface, 0, 0, W, 14, COLOURED));
  g_assert_true (region_has (surface, 200, 60, W, H, LIGHT));
  /* The track labels, dark on light, in the label column. */
  g_assert_true (region_has (surface, 0, 50, 100, 120, DARK));
  /* Events drawn: coloured ticks right of the label column (160 of 1100
   * px on screen, scaled to the page). */
  g_assert_true (region_has (surface, 130, 50, W, H, COLOURED));
  g_assert_false (region_has (surface, 0, 50, 100, H, COLOURED));
  /* Fit to the page: the view fills the width (the ruler's background
   * reaches the right edge below the header). */
  g_assert_true (region_has (surface, W - 3, 30, W, 60, LIGHT));
  /* To look at the page: CPEL_TEST_SHOT_DIR=dir. */
  if (g_getenv ("CPEL_TEST_SHOT_DIR") != NULL)
    {
      g_autofree char *png = g_build_filename (g_getenv ("CPEL_TEST_SHOT_DIR"), "print-page.png", NULL);

      g_assert_cmpint (cairo_surface_write_to_png (surface, png), ==, CAIRO_STATUS_SUCCESS);
    }
  cairo_surface_destroy (surface);

  /* Without a header the view starts at the top. */
  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, W, H);
  cr = cairo_create (surface);
  cairo_set_source_rgb (cr, 0, 0, 0);
  cairo_paint (cr);
  cpel_print_draw_page (cr, W, H, &view, 1100, 600, NULL);
  cairo_destroy (cr);
  g_assert_true (region_has (surface, 0, 0, W, 3, LIGHT));
  cairo_surface_destroy (surface);

  /* Through GtkPrintOperation into a PDF. */
  g_assert_true (cpel_print_window (f->window, pdf_path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (pdf_path, &pdf, &pdf_len, NULL));
  g_assert_cmpuint (pdf_len, >, 1000);
  g_assert_true (g_str_has_prefix (pdf, "%PDF"));
  g_assert_true (app_test_action_enabled (GTK_WIDGET (f->window), "print"));
}

/* ---- event types in search ----------------------------------------------------- */

static void
test_search_types (Fixture *f, gconstpointer data)
{
  CpelTimeline *timeline = cpel_window_get_timeline (f->window);
  CpelSearchBar *bar = cpel_window_get_search_bar (f->window);
  CpelFile *file = cpel_window_get_file (f->window);
  g_autofree guint8 *hidden = g_new0 (guint8, cpel_file_get_n_types (file));
  gint64 end = g_get_monotonic_time () + 10 * G_TIME_SPAN_SECOND;
  guint slot;
  guint64 index;

  cpel_search_bar_set_search_mode (bar, TRUE);
  /* Text "2" matches sends and recvs whose datum holds a 2. */
  cpel_search_bar_search (bar, CPEL_SEARCH_TEXT, "2", FALSE);
  while (cpel_search_bar_is_running (bar) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  {
    guint64 all = 0, sends = 0;
    g_autofree char *all_text = NULL;
    g_autofree char *sends_text = NULL;

    for (guint64 i = 0; i < REG_EVENTS; i++)
      {
        g_autofree char *label = g_strdup_printf (i % 7 == 0 ? "recv: len %u" : "send: %u", (guint) i);

        if (strchr (label, '2') != NULL)
          {
            all++;
            sends += i % 7 != 0;
          }
      }
    all_text = counted (all, " matches");
    sends_text = counted (sends, " matches");
    g_assert_cmpstr (cpel_search_bar_get_status (bar), ==, all_text);

    /* recv hidden: its matches are neither counted nor stepped to. */
    hidden[1] = 1;
    cpel_timeline_set_hidden_types (timeline, hidden);
    g_assert_cmpstr (cpel_search_bar_get_status (bar), ==, sends_text);
    cpel_timeline_unselect (timeline);
    for (guint k = 0; k < 40; k++)
      {
        cpel_search_bar_step (bar, 1);
        g_assert_true (cpel_timeline_get_selection (timeline, &slot, &index));
        g_assert_cmpuint (cpel_file_get_track_event_code (file, slot, index), ==, CODE_SEND);
      }
    for (guint k = 0; k < 40; k++)
      {
        cpel_search_bar_step (bar, -1);
        g_assert_true (cpel_timeline_get_selection (timeline, &slot, &index));
        g_assert_cmpuint (cpel_file_get_track_event_code (file, slot, index), ==, CODE_SEND);
      }
    /* Stepping shows "n of N" over the shown matches. */
    {
      g_autofree char *of = counted_after (" of ", sends);

      g_assert_true (g_str_has_suffix (cpel_search_bar_get_status (bar), of));
    }

    /* Everything hidden: no matches. */
    memset (hidden, 1, cpel_file_get_n_types (file));
    cpel_timeline_set_hidden_types (timeline, hidden);
    g_assert_cmpstr (cpel_search_bar_get_status (bar), ==, "No matches");

    /* Shown again: all of them ("k of N" after stepping). */
    cpel_timeline_set_hidden_types (timeline, NULL);
    {
      g_autofree char *of = counted_after (" of ", all);

      g_assert_true (g_str_has_suffix (cpel_search_bar_get_status (bar), of));
    }

    /* A hidden track (thread 1): its matches are neither counted, nor
     * stepped to, nor highlighted; back when it shows again. */
    {
      CpelTrackOrder *order = cpel_timeline_get_track_order (timeline);
      guint64 on_1 = 0, n_hl;
      g_autofree char *of = NULL;

      for (guint64 i = 0; i < REG_EVENTS; i++)
        {
          g_autofree char *label = g_strdup_printf (i % 7 == 0 ? "recv: len %u" : "send: %u", (guint) i);

          on_1 += i % REG_TRACKS == 1 && strchr (label, '2') != NULL;
        }
      g_assert_cmpuint (on_1, >, 0);
      cpel_track_order_set_hidden (order, 1, TRUE);
      of = counted_after (" of ", all - on_1);
      cpel_timeline_unselect (timeline);
      for (guint k = 0; k < 30; k++)
        {
          cpel_search_bar_step (bar, 1);
          g_assert_true (cpel_timeline_get_selection (timeline, &slot, &index));
          g_assert_cmpuint (slot, !=, 1);
        }
      g_assert_true (g_str_has_suffix (cpel_search_bar_get_status (bar), of));
      g_assert_nonnull (cpel_timeline_get_matches (timeline));
      cpel_search_result_get_track (cpel_timeline_get_matches (timeline), 1, &n_hl);
      g_assert_cmpuint (n_hl, ==, 0);
      cpel_search_result_get_track (cpel_timeline_get_matches (timeline), 0, &n_hl);
      g_assert_cmpuint (n_hl, >, 0);

      cpel_track_order_set_hidden (order, 1, FALSE);
      cpel_search_result_get_track (cpel_timeline_get_matches (timeline), 1, &n_hl);
      g_assert_cmpuint (n_hl, ==, on_1);
      g_clear_pointer (&of, g_free);
      of = counted_after (" of ", all);
      g_assert_true (g_str_has_suffix (cpel_search_bar_get_status (bar), of));
    }
  }
}

/* ---- Event Types window ------------------------------------------------------ */

static void
on_finalized (gpointer flag, GObject *where_the_object_was)
{
  *(gboolean *) flag = TRUE;
}

/* Destroys `window` and waits until it is finalized (nothing keeps it). */
static void
destroy_and_await_finalize (GtkWindow *window)
{
  gboolean gone = FALSE;

  g_object_weak_ref (G_OBJECT (window), on_finalized, &gone);
  gtk_window_destroy (window);
  app_test_await_flag (&gone, 10000);
}

static void
collect_rows (GtkWidget *widget, GPtrArray *rows)
{
  if (CPEL_IS_EVENT_TYPE_ROW (widget))
    g_ptr_array_add (rows, widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_rows (c, rows);
}

static GtkWidget *
find_button (GtkWidget *widget, const char *label)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_button (c, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* One row per type with its check box: unchecking hides the type on the
 * timeline at once, Hide All / Show All set every one, and the rows follow
 * hidden types set elsewhere (a saved view). */
static void
test_event_types (Fixture *f, gconstpointer data)
{
  CpelTimeline *timeline = cpel_window_get_timeline (f->window);
  CpelFile *file = cpel_window_get_file (f->window);
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  CpelEventTypesWindow *types;
  CpelEventTypeRow *recv = NULL;
  const guint8 *hidden;
  guint n_types = cpel_file_get_n_types (file);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.event-types", NULL));
  types = CPEL_EVENT_TYPES_WINDOW (app_test_find_toplevel ("Event Types", NULL));
  g_assert_nonnull (types);
  g_assert_true (cpel_event_types_window_get_session (types)
                 == cpel_timeline_get_session (timeline));
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (types)) == GTK_WINDOW (f->window));

  collect_rows (GTK_WIDGET (types), rows);
  g_assert_cmpuint (rows->len, ==, n_types);
  for (guint i = 0; i < rows->len; i++)
    {
      CpelEventTypeRow *row = g_ptr_array_index (rows, i);
      guint type = cpel_event_type_row_get_type_index (row);

      g_assert_cmpuint (type, ==, i);
      g_assert_true (cpel_event_type_row_get_shown (row));
      g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), ==,
                       cpel_file_get_type_name (file, type));
      if (cpel_file_get_type_code (file, type) == CODE_RECV)
        recv = row;
    }
  g_assert_nonnull (recv);
  g_assert_null (cpel_timeline_get_hidden_types (timeline));

  /* Unchecked: hidden at once. */
  cpel_event_type_row_set_shown (recv, FALSE);
  hidden = cpel_timeline_get_hidden_types (timeline);
  g_assert_nonnull (hidden);
  for (guint type = 0; type < n_types; type++)
    g_assert_cmpint (hidden[type], ==, type == cpel_event_type_row_get_type_index (recv));

  /* Set elsewhere: the rows follow. */
  cpel_timeline_set_hidden_types (timeline, NULL);
  g_assert_true (cpel_event_type_row_get_shown (recv));

  /* Hide All, Show All. */
  g_signal_emit_by_name (find_button (GTK_WIDGET (types), "_Hide All"), "clicked");
  hidden = cpel_timeline_get_hidden_types (timeline);
  g_assert_nonnull (hidden);
  for (guint i = 0; i < rows->len; i++)
    {
      g_assert_false (cpel_event_type_row_get_shown (g_ptr_array_index (rows, i)));
      g_assert_cmpint (hidden[i], ==, 1);
    }
  g_signal_emit_by_name (find_button (GTK_WIDGET (types), "_Show All"), "clicked");
  for (guint i = 0; i < rows->len; i++)
    g_assert_true (cpel_event_type_row_get_shown (g_ptr_array_index (rows, i)));
  hidden = cpel_timeline_get_hidden_types (timeline);
  for (guint type = 0; hidden != NULL && type < n_types; type++)
    g_assert_cmpint (hidden[type], ==, 0);

  /* Opened again: the same window. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.event-types", NULL));
  g_assert_true (CPEL_EVENT_TYPES_WINDOW (app_test_find_toplevel ("Event Types", NULL)) == types);
  destroy_and_await_finalize (GTK_WINDOW (types));
}

/* ---- the Save Range As progress dialog ------------------------------------------ */

static void
on_response (AdwMessageDialog *dialog, const char *response, char **out)
{
  g_free (*out);
  *out = g_strdup (response);
}

/* It names the file written, its bar follows the progress, and closing it
 * (Escape, the close button) answers "cancel". */
static void
test_cut_dialog (Fixture *f, gconstpointer data)
{
  g_autoptr(GFile) target = g_file_new_for_path ("/tmp/some where/range.cpel");
  g_autofree char *response = NULL;
  CpelCutDialog *dialog = cpel_cut_dialog_new (f->window, target);
  GtkWidget *bar;

  g_assert_true (cpel_cut_dialog_get_target (dialog) == target);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (f->window));
  g_assert_cmpstr (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (dialog)), ==, "Saving Range…");
  g_assert_cmpstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)), ==, "Writing “range.cpel”");
  g_assert_cmpstr (adw_message_dialog_get_close_response (ADW_MESSAGE_DIALOG (dialog)), ==, "cancel");
  g_assert_true (adw_message_dialog_has_response (ADW_MESSAGE_DIALOG (dialog), "cancel"));

  bar = app_test_find_descendant (adw_message_dialog_get_extra_child (ADW_MESSAGE_DIALOG (dialog)),
                      GTK_TYPE_PROGRESS_BAR);
  g_assert_nonnull (bar);
  g_assert_cmpfloat (gtk_progress_bar_get_fraction (GTK_PROGRESS_BAR (bar)), ==, 0.0);
  cpel_cut_dialog_set_fraction (dialog, 0.25);
  g_assert_cmpfloat (gtk_progress_bar_get_fraction (GTK_PROGRESS_BAR (bar)), ==, 0.25);
  cpel_cut_dialog_set_fraction (dialog, 7.0);
  g_assert_cmpfloat (cpel_cut_dialog_get_fraction (dialog), ==, 1.0);

  g_signal_connect (dialog, "response", G_CALLBACK (on_response), &response);
  gtk_window_present (GTK_WINDOW (dialog));
  g_object_ref (dialog);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "window.close", NULL));
  g_assert_cmpstr (response, ==, "cancel");
  /* Answered, it goes. */
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (dialog)));
  g_object_unref (dialog);
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
  write_events (path, 60, 6000, many_tracks_event);
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

int
main (int argc, char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return app_test_run_no_display ("/app/tools");

  app = app_test_new_application ();

#define ADD(path, func, write) \
  g_test_add ("/app/tools/" path, Fixture, (gconstpointer) (write), fixture_setup, func, fixture_teardown)
  ADD ("stats", test_stats, write_regular);
  ADD ("stats-sort-scrolled", test_stats_sort_scrolled, write_many_tracks);
  ADD ("anomalies", test_anomalies, write_anomalies);
  ADD ("anomalies-text-datum", test_anomalies_text_datum, write_text_datums);
  ADD ("save-range", test_save_range, write_regular);
  ADD ("print", test_print, write_regular);
  ADD ("search-types", test_search_types, write_regular);
  ADD ("event-types", test_event_types, write_regular);
  ADD ("cut-dialog", test_cut_dialog, write_regular);
#undef ADD
  return app_test_run (&app);
}
