/* SPDX-License-Identifier: Apache-2.0 */
/* test-span-highlight.c — the spans a distribution selects, in the
 * viewer: highlighted in the timeline, marked on the overview strip,
 * stepped through with n / Shift+N ("k of N" in the distribution window's
 * status line); a rectangle dragged over the scatter of durations over
 * time selects the spans whose points it holds; the search bar's duration
 * filters; the Anomalies window on span durations */
#include "config.h"

#include "app-test-util.h"

#include <math.h>
#include <string.h>

#include "cpel-anomalies-window.h"
#include "cpel-anomaly-list.h"
#include "cpel-overview-strip.h"
#include "cpel-search-bar.h"
#include "cpel-span-histogram-window.h"
#include "cpel-span-scatter.h"
#include "cpel-table.h"
#include "cpel-window.h"

static CpelApplication *app;

typedef AppTestFixture Fixture;

/* ip4-lookup on two threads: vpp_main at 10 µs i lasting 1 µs, but 8 µs
 * at 30 µs and 9 µs at 70 µs; worker 1 at 10 µs i + 5 µs lasting 2 µs
 * (i = 0..9); "end" at 100 µs. */
static void
write_lookups (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelWriter) w = cpel_writer_new (path, TRUE, 0, &error);
  g_autoptr(GArray) evs = g_array_new (FALSE, FALSE, sizeof (guint64) * 3);
  guint table;

  g_assert_no_error (error);
  for (guint i = 0; i < 10; i++)
    {
      guint64 b1 = 10000 * i, d1 = i == 3 ? 8000 : i == 7 ? 9000 : 1000;
      guint64 b2 = 10000 * i + 5000;
      guint64 e[4][3] = { { b1, 1, 2 }, { b1 + d1, 1, 3 }, { b2, 2, 2 }, { b2 + 2000, 2, 3 } };

      g_array_append_vals (evs, e, 4);
    }
  {
    guint64 end[3] = { 100000, 1, 4 };

    g_array_append_vals (evs, end, 1);
  }
  /* in time order */
  for (guint i = 1; i < evs->len; i++)
    for (guint j = i; j > 0; j--)
      {
        guint64 *a = &g_array_index (evs, guint64, 3 * (j - 1));
        guint64 *b = &g_array_index (evs, guint64, 3 * j);
        guint64 t[3];

        if (a[0] <= b[0])
          break;
        memcpy (t, a, sizeof t);
        memcpy (a, b, sizeof t);
        memcpy (b, t, sizeof t);
      }
  table = cpel_writer_add_string_table (w, "FileStrtab");
  cpel_writer_begin_event_defs (w, table);
  cpel_writer_add_event_def (w, 1, "start", NULL);
  cpel_writer_add_event_def (w, 2, "ip4-lookup-call", NULL);
  cpel_writer_add_event_def (w, 3, "ip4-lookup-return", NULL);
  cpel_writer_add_event_def (w, 4, "end", NULL);
  cpel_writer_begin_track_defs (w, table);
  cpel_writer_add_track_def (w, 1, "vpp_main");
  cpel_writer_add_track_def (w, 2, "worker 1");
  cpel_writer_begin_events (w, table, 1000000000u, evs->len);
  for (guint i = 0; i < evs->len; i++)
    {
      guint64 *e = &g_array_index (evs, guint64, 3 * i);

      cpel_writer_add_event (w, e[0], (guint32) e[1], (guint32) e[2], 0);
    }
  g_assert_true (cpel_writer_finish (w, &error));
  g_assert_no_error (error);
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  if (app == NULL)
    return;
  app_test_fixture_setup (f, app, "cpelview-span-highlight", write_lookups, 1100, 700, TRUE);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  if (app == NULL)
    return;
  app_test_fixture_teardown (f, app);
}

#define SKIP_WITHOUT_DISPLAY() \
  G_STMT_START { if (app == NULL) { app_test_skip_no_display (); return; } } G_STMT_END

static CpelSpanHistogramWindow *
open_distribution (Fixture *f, CpelSession *session)
{
  CpelSpanHistogramWindow *dist;

  dist = cpel_span_histogram_window_new (session, GTK_WINDOW (f->window), "ip4-lookup",
                                         0, 0, NULL, 0, NULL);
  gtk_window_present (GTK_WINDOW (dist));
  app_test_wait_until (!cpel_span_histogram_window_is_busy (dist), 30);
  g_assert_nonnull (cpel_span_histogram_window_get_histogram (dist));
  app_test_wait_drawn (GTK_WIDGET (dist));
  return dist;
}

/* The begin time of the selected span (-1: none). */
static gint64
selected_begin (CpelSession *session)
{
  CpelSessionSpanRef ref;
  const CpelSpan *span = cpel_session_get_span_selection (session, &ref);

  if (span == NULL)
    return -1;
  return cpel_spans_begin_ns (cpel_session_get_spans (session), ref.slot, span);
}

/* n (Shift+N with `back`) on the timeline: a key press when there is
 * input, else the action the key is bound to. */
static void
press_n (CpelTimeline *timeline, gboolean back)
{
  if (app_test_can_send_input ())
    {
      app_test_focus (GTK_WIDGET (timeline));
      app_test_xdo ("key", back ? "shift+n" : "n", NULL);
      app_test_round_trips ();
      app_test_drain ();
    }
  else
    gtk_widget_activate_action (GTK_WIDGET (timeline),
                                back ? "timeline.previous-span-match"
                                     : "timeline.next-span-match", NULL);
}

static GtkWidget *
find_strip (GtkWidget *w)
{
  if (CPEL_IS_OVERVIEW_STRIP (w))
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_strip (c);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
test_step (Fixture *f, gconstpointer data)
{
  CpelTimeline *timeline;
  CpelSession *session;
  CpelSpanHistogramWindow *dist;
  const CpelSpanHistogram *h;
  const CpelSessionSpanMatch *m;
  guint first = 0;
  guint64 n = 0;

  SKIP_WITHOUT_DISPLAY ();
  timeline = cpel_window_get_timeline (f->window);
  session = cpel_timeline_get_session (timeline);
  app_test_wait_spans (session);
  dist = open_distribution (f, session);
  h = cpel_span_histogram_window_get_histogram (dist);
  g_assert_cmpuint (h->count, ==, 20);

  /* the bins from 8 µs on (the 4 µs bins and below out): the 8 and 9 µs ones */
  while (first + 1 < h->n_bins && h->edges[first + 1] <= 8000)
    first++;
  g_assert_cmpint (h->edges[first], >, 4000);
  cpel_span_histogram_window_select_bins (dist, first, h->n_bins - 1);
  g_assert_nonnull (cpel_session_get_span_filter (session));
  g_assert_true (cpel_timeline_get_view (timeline)->span_filter
                 == cpel_session_get_span_filter (session));
  m = cpel_session_get_span_matches (session, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpint (m[0].begin_ns, ==, 30000);
  g_assert_cmpint (m[1].begin_ns, ==, 70000);
  g_assert_nonnull (strstr (cpel_span_histogram_window_get_status (dist),
                            "n, Shift+N"));

  /* the overview strip marks them along its bottom in the accent colour */
  {
    GtkWidget *strip = find_strip (GTK_WIDGET (f->window));
    cairo_surface_t *image;
    int width, height, hits = 0;
    const CpelView *view = cpel_timeline_get_view (timeline);
    CpelRGBA accent = view->palette->accent;

    g_assert_nonnull (strip);
    app_test_wait_drawn (strip);
    width = gtk_widget_get_width (strip);
    height = gtk_widget_get_height (strip);
    image = app_test_widget_image (strip);
    g_assert_nonnull (image);
    for (guint k = 0; k < 2; k++)
      {
        int x = (int) cpel_render_overview_time_to_x (view, width, m[k].begin_ns);
        guint8 *p = cairo_image_surface_get_data (image)
                    + (gsize) (height - 2) * cairo_image_surface_get_stride (image) + 4 * x;
        guint32 px = *(guint32 *) (gpointer) p;
        double r = ((px >> 16) & 0xff) / 255.0, g = ((px >> 8) & 0xff) / 255.0;
        double b = (px & 0xff) / 255.0;

        hits += fabs (r - accent.r) + fabs (g - accent.g) + fabs (b - accent.b) < 0.1;
      }
    g_assert_cmpint (hits, ==, 2);
    cairo_surface_destroy (image);
  }

  /* n from the range's centre (50 µs): the 9 µs one at 70 µs, "2 of 2";
   * n again wraps to the first; Shift+N back to the last */
  cpel_session_unselect (session);
  {
    CpelRange range = { 40000, 60000 };

    cpel_session_set_range (session, &range, CPEL_SESSION_STEP);
  }
  press_n (timeline, FALSE);
  g_assert_cmpint (selected_begin (session), ==, 70000);
  g_assert_cmpint (cpel_session_get_span_match_position (session), ==, 1);
  g_assert_nonnull (strstr (cpel_span_histogram_window_get_status (dist), "2 of 2"));
  {
    const CpelRange *range = cpel_session_get_range (session);

    /* centred */
    g_assert_cmpint (llabs ((range->t0 + range->t1) / 2 - 74500), <=, 1);
  }
  press_n (timeline, FALSE);
  g_assert_cmpint (selected_begin (session), ==, 30000);
  g_assert_nonnull (strstr (cpel_span_histogram_window_get_status (dist), "1 of 2"));
  press_n (timeline, TRUE);
  g_assert_cmpint (selected_begin (session), ==, 70000);

  /* the selection gone (window closed): nothing to step through */
  gtk_window_destroy (GTK_WINDOW (dist));
  g_assert_null (cpel_session_get_span_filter (session));
  g_assert_null (cpel_timeline_get_view (timeline)->span_filter);
  press_n (timeline, FALSE);
  g_assert_cmpint (selected_begin (session), ==, 70000);
}

/* A rectangle over the scatter around the points of the two slow spans
 * (begun 30 and 70 µs, 8 and 9 µs long) selects exactly them. */
static void
test_scatter_drag (Fixture *f, gconstpointer data)
{
  CpelTimeline *timeline;
  CpelSession *session;
  CpelSpanHistogramWindow *dist;
  CpelSpanScatterView view = { 0 };
  GtkWidget *area;
  const CpelSpanFilter *filter;
  const CpelSessionSpanMatch *m;
  guint64 n = 0;
  double w, h, x0, y0, x1, y1;

  SKIP_WITHOUT_DISPLAY ();
  timeline = cpel_window_get_timeline (f->window);
  session = cpel_timeline_get_session (timeline);
  app_test_wait_spans (session);
  dist = open_distribution (f, session);
  g_assert_nonnull (cpel_span_histogram_window_get_scatter (dist));
  g_assert_cmpuint (cpel_span_list_get_n (cpel_span_histogram_window_get_scatter (dist)), ==, 20);
  area = cpel_span_histogram_window_get_scatter_area (dist);
  app_test_wait_drawn (area);
  w = gtk_widget_get_width (area);
  h = gtk_widget_get_height (area);
  g_assert_cmpfloat (h, >, 100);

  view.list = cpel_span_histogram_window_get_scatter (dist);
  view.max_ns = -1;
  cpel_span_scatter_fit (&view);
  x0 = cpel_span_scatter_x_of (&view, w, h, 30000) - 6;
  x1 = cpel_span_scatter_x_of (&view, w, h, 70000) + 6;
  y0 = cpel_span_scatter_y_of (&view, w, h, 9000) - 3;
  y1 = cpel_span_scatter_y_of (&view, w, h, 7000);
  if (app_test_can_send_input ())
    {
      int rx0, ry0, rx1, ry1;
      g_autofree char *sx0 = NULL, *sy0 = NULL, *sx1 = NULL, *sy1 = NULL, *mx = NULL;

      app_test_to_root (area, x0, y0, &rx0, &ry0);
      app_test_to_root (area, x1, y1, &rx1, &ry1);
      sx0 = g_strdup_printf ("%d", rx0);
      sy0 = g_strdup_printf ("%d", ry0);
      sx1 = g_strdup_printf ("%d", rx1);
      sy1 = g_strdup_printf ("%d", ry1);
      mx = g_strdup_printf ("%d", (rx0 + rx1) / 2);
      app_test_xdo ("mousemove", "--sync", sx0, sy0, "mousedown", "1",
                    "mousemove", "--sync", mx, sy1, "mousemove", "--sync", sx1, sy1,
                    "mouseup", "1", NULL);
      app_test_round_trips ();
      app_test_drain ();
    }
  else
    cpel_span_histogram_window_select_rect (dist, x0, y0, x1, y1);

  filter = cpel_session_get_span_filter (session);
  g_assert_nonnull (filter);
  g_assert_cmpint (filter->from_ns, <=, 30000);
  g_assert_cmpint (filter->to_ns, >=, 70000);
  g_assert_cmpint (filter->min_ns, <=, 8000);
  g_assert_cmpint (filter->min_ns, >, 2000);
  m = cpel_session_get_span_matches (session, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpint (m[0].begin_ns, ==, 30000);
  g_assert_cmpint (m[1].begin_ns, ==, 70000);
  g_assert_nonnull (strstr (cpel_span_histogram_window_get_status (dist), "2 of 20 spans"));
  g_assert_true (cpel_timeline_get_view (timeline)->span_filter == filter);

  /* Go to Longest: the longest of the rectangle's */
  cpel_span_histogram_window_go_to_longest (dist);
  app_test_wait_until (!cpel_span_histogram_window_is_busy (dist), 30);
  g_assert_cmpint (selected_begin (session), ==, 70000);
  g_assert_nonnull (strstr (cpel_span_histogram_window_get_status (dist), "2 of 2"));
}

/* Enter (Shift+Enter with `back`) in the search entry: a key press when
 * there is input, else the step it asks for. */
static void
press_enter (CpelSearchBar *bar, gboolean back)
{
  if (app_test_can_send_input ())
    {
      GtkWidget *entry = gtk_widget_get_first_child (GTK_WIDGET (bar));

      /* the entry has the keyboard while the bar is open */
      g_assert_nonnull (entry);
      app_test_xdo ("key", back ? "shift+Return" : "Return", NULL);
      app_test_round_trips ();
      app_test_drain ();
    }
  else
    cpel_search_bar_step (bar, back ? -1 : 1);
}

/* The search bar takes a duration filter: its spans are the matches
 * ("n of N" over spans), highlighted, stepped through with Enter. */
static void
test_search (Fixture *f, gconstpointer data)
{
  CpelTimeline *timeline;
  CpelSession *session;
  CpelSearchBar *bar;
  CpelRange range = { 0, 20000 };
  guint64 n = 0;

  SKIP_WITHOUT_DISPLAY ();
  timeline = cpel_window_get_timeline (f->window);
  session = cpel_timeline_get_session (timeline);
  bar = cpel_window_get_search_bar (f->window);
  app_test_wait_spans (session);
  cpel_session_set_range (session, &range, CPEL_SESSION_STEP);

  cpel_search_bar_set_search_mode (bar, TRUE);
  app_test_wait_drawn (GTK_WIDGET (bar));
  cpel_search_bar_search (bar, CPEL_SEARCH_TEXT, "ip4-lookup dur>5us", FALSE);
  app_test_wait_until (!cpel_search_bar_is_running (bar), 30);
  g_assert_null (cpel_search_bar_get_error (bar));
  g_assert_nonnull (cpel_session_get_span_filter (session));
  g_assert_cmpint (cpel_session_get_span_filter (session)->min_ns, ==, 5001);
  g_assert_nonnull (cpel_session_get_span_matches (session, &n));
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpstr (cpel_search_bar_get_status (bar), ==, "2 spans");
  /* no event matches meanwhile */
  g_assert_null (cpel_session_get_matches (session));
  g_assert_true (cpel_timeline_get_view (timeline)->span_filter
                 == cpel_session_get_span_filter (session));

  /* Enter from the range's centre (10 µs): 30 µs, then 70 µs; Shift+Enter back */
  press_enter (bar, FALSE);
  g_assert_cmpint (selected_begin (session), ==, 30000);
  g_assert_cmpstr (cpel_search_bar_get_status (bar), ==, "1 of 2");
  press_enter (bar, FALSE);
  g_assert_cmpint (selected_begin (session), ==, 70000);
  g_assert_cmpstr (cpel_search_bar_get_status (bar), ==, "2 of 2");
  press_enter (bar, TRUE);
  g_assert_cmpint (selected_begin (session), ==, 30000);

  /* every span of at least 2 µs: the worker's 10 and the two slow ones */
  cpel_search_bar_search (bar, CPEL_SEARCH_TEXT, "dur>=2us", FALSE);
  cpel_session_get_span_matches (session, &n);
  g_assert_cmpuint (n, ==, 12);
  /* none of a millisecond */
  cpel_search_bar_search (bar, CPEL_SEARCH_TEXT, "dur >= 1ms", FALSE);
  cpel_session_get_span_matches (session, &n);
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpstr (cpel_search_bar_get_status (bar), ==, "No matches");
  /* a malformed one: an error, nothing highlighted */
  cpel_search_bar_search (bar, CPEL_SEARCH_TEXT, "ip4-lookup dur>5xs", FALSE);
  g_assert_nonnull (cpel_search_bar_get_error (bar));
  g_assert_null (cpel_session_get_span_filter (session));

  /* events again: text without a condition */
  cpel_search_bar_search (bar, CPEL_SEARCH_TEXT, "ip4-lookup-call", FALSE);
  app_test_wait_until (!cpel_search_bar_is_running (bar), 30);
  g_assert_null (cpel_session_get_span_filter (session));
  g_assert_nonnull (cpel_session_get_matches (session));

  /* closing the bar takes the highlight away */
  cpel_search_bar_search (bar, CPEL_SEARCH_TEXT, "ip4-lookup dur>5us", FALSE);
  g_assert_nonnull (cpel_session_get_span_filter (session));
  cpel_search_bar_set_search_mode (bar, FALSE);
  g_assert_null (cpel_session_get_span_filter (session));
}

/* The Anomalies window on span durations: vpp_main's ip4-lookup (1 µs ×
 * 8, 8 µs, 9 µs: mean 2.5 µs, σ 3.008 µs) beyond 1.5 σ are the two slow
 * ones; worker 1's (all 2 µs, σ 0) none.  Jumping to one selects its
 * begin event and shows the span whole; F4's step follows time. */
static void
test_anomalies (Fixture *f, gconstpointer data)
{
  CpelTimeline *timeline;
  CpelSession *session;
  CpelAnomaliesWindow *win;
  CpelAnomalyResult *result;
  const CpelAnomaly *a;
  guint slot = 99;
  guint64 index = 99, pos = 99;
  double mean, sigma;
  guint64 n;

  SKIP_WITHOUT_DISPLAY ();
  timeline = cpel_window_get_timeline (f->window);
  session = cpel_timeline_get_session (timeline);
  app_test_wait_spans (session);
  win = cpel_anomalies_window_new (session, GTK_WINDOW (f->window));
  gtk_window_present (GTK_WINDOW (win));
  app_test_wait_drawn (GTK_WIDGET (win));
  g_assert_false (cpel_anomalies_window_set_span_query (win, "no-such-span", 1.5));
  g_assert_true (cpel_anomalies_window_set_span_query (win, "ip4-lookup", 1.5));
  cpel_anomalies_window_run (win);
  app_test_wait_until (!cpel_anomalies_window_is_busy (win), 30);
  result = cpel_anomalies_window_get_result (win);
  g_assert_nonnull (result);
  g_assert_cmpint (cpel_anomaly_result_get_metric (result), ==, CPEL_ANOMALY_DURATION);
  g_assert_cmpuint (cpel_anomaly_result_get_n (result), ==, 2);
  a = cpel_anomaly_result_get (result, 0);
  g_assert_cmpint (a->time_ns, ==, 30000);
  g_assert_cmpfloat (a->value, ==, 8000);
  g_assert_cmpuint (a->ref.slot, ==, 0);
  g_assert_cmpint (cpel_anomaly_result_get (result, 1)->time_ns, ==, 70000);
  g_assert_true (cpel_anomaly_result_get_track_stats (result, 0, &n, &mean, &sigma));
  g_assert_cmpuint (n, ==, 10);
  g_assert_cmpfloat (fabs (mean - 2500), <, 1e-6);
  g_assert_cmpfloat (fabs (sigma - sqrt (9050000.0)), <, 1e-3);

  /* the rows show durations */
  {
    GListModel *rows = cpel_anomalies_window_get_rows (win, FALSE);
    g_autoptr(CpelTableRow) row = g_list_model_get_item (rows, 0);
    g_autofree char *expected = cpel_time_format (8000);

    g_assert_cmpstr (cpel_table_row_get_text (row, CPEL_ANOMALY_CELL_VALUE), ==, expected);
  }

  cpel_anomalies_window_jump (win, 1);
  g_assert_true (cpel_session_get_selection (session, &slot, &index));
  g_assert_cmpuint (slot, ==, 0);
  {
    CpelEvent ev;
    const CpelRange *range = cpel_session_get_range (session);

    cpel_file_get_track_event (cpel_session_get_file (session), slot, index, &ev);
    g_assert_cmpint (ev.time_ns, ==, 70000);
    /* the 9 µs span whole */
    g_assert_cmpint (range->t0, <=, 70000);
    g_assert_cmpint (range->t1, >=, 79000);
  }
  g_assert_true (cpel_session_find_anomaly (session, result, 1, &pos));
  g_assert_cmpuint (pos, ==, 0);   /* wraps */
  g_assert_true (cpel_session_find_anomaly (session, result, -1, &pos));
  g_assert_cmpuint (pos, ==, 0);
}

int
main (int argc, char **argv)
{
  if (!app_test_init (&argc, &argv))
    return app_test_run_no_display ("/app/span-highlight");

  app = app_test_new_application ();
  g_test_add ("/app/span-highlight/step", Fixture, NULL, fixture_setup, test_step,
              fixture_teardown);
  g_test_add ("/app/span-highlight/scatter-drag", Fixture, NULL, fixture_setup,
              test_scatter_drag, fixture_teardown);
  g_test_add ("/app/span-highlight/search", Fixture, NULL, fixture_setup, test_search,
              fixture_teardown);
  g_test_add ("/app/span-highlight/anomalies", Fixture, NULL, fixture_setup, test_anomalies,
              fixture_teardown);
  return app_test_run (&app);
}
