/* SPDX-License-Identifier: Apache-2.0 */
/* test-anomalies-window.c — the Anomalies window: planted outliers found exactly, per
 * track mean / σ, next / previous by action and by key, worker path, text
 * datums */
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

static CpelApplication *app;

typedef AppTestFixture Fixture;

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
  test_write_capture (path, 2, ANOM_EVENTS, anomaly_event, NULL);
}

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

typedef struct
{
  guint64 count, n_intervals;
  gint64  min, max;
  double  sum;
} CodeExpect;

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

  g_assert_true (cpel_session_get_selection (cpel_timeline_get_session (timeline), &slot, &index));
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
    cpel_session_fit (cpel_timeline_get_session (timeline));
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
  cpel_session_unselect (cpel_timeline_get_session (timeline));
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
      cpel_session_select (cpel_timeline_get_session (timeline),
                           planted[0] % 2, planted[0] / 2, FALSE);
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
    cpel_session_set_hidden_types (cpel_timeline_get_session (timeline), hidden);
    cpel_anomalies_window_run (panel);
    wait_panel (panel);
    check_planted (panel, file);
    g_assert_nonnull (cpel_session_get_hidden_types (cpel_timeline_get_session (timeline)));
    g_assert_true (cpel_session_get_hidden_types (cpel_timeline_get_session (timeline))[type]);
    g_assert_nonnull (cpel_anomalies_window_get_hidden_note (panel));
    g_assert_nonnull (strstr (cpel_anomalies_window_get_hidden_note (panel), "stays hidden"));
    g_assert_cmpstr (cpel_toaster_get_text (cpel_window_get_toaster (f->window)), ==,
                     cpel_anomalies_window_get_hidden_note (panel));
    cpel_anomalies_window_jump (panel, 1);
    assert_selected (timeline, planted[1]);
    g_assert_true (cpel_session_get_hidden_types (cpel_timeline_get_session (timeline))[type]);
    hidden[type] = 0;
    cpel_session_set_hidden_types (cpel_timeline_get_session (timeline), hidden);
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
  cpel_session_unselect (cpel_timeline_get_session (timeline));
  cpel_timeline_set_range (timeline, 0, 300000, FALSE);
  activate (f, "anomaly-next", NULL);
  assert_selected (timeline, planted[0]);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (panel)));
}

int
main (int argc, char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return app_test_run_no_display ("/app/anomalies-window");

  app = app_test_new_application ();

#define ADD(path, func, write) \
  g_test_add ("/app/anomalies-window/" path, Fixture, (gconstpointer) (write), fixture_setup, func, \
              fixture_teardown)
  ADD ("planted", test_anomalies, write_anomalies);
  ADD ("text-datum", test_anomalies_text_datum, write_text_datums);
#undef ADD
  return app_test_run (&app);
}
