/* SPDX-License-Identifier: Apache-2.0 */
/* test-timeline.c — the timeline widget: zoom, pan, history, track scroll,
 * selection, measurement, track order; through its API and its actions. */
#include "app-test-util.h"

#include "cpel-timeline.h"

#define WIDTH   1160   /* label column 160 + 1000 px of time */
#define HEIGHT  400
#define N_EVENTS 3000
#define N_TRACKS 3
#define STEP_NS 100    /* event i at i * 100 ns, on track i % 3 */

typedef struct
{
  CpelFile     *file;
  GtkWindow    *window;
  CpelTimeline *timeline;
} Fixture;

static void
event_func (guint64 i, TestEvent *ev, gpointer data)
{
  ev->t = i * STEP_NS;
  ev->track = (guint32) (i % N_TRACKS);
  ev->code = i % 7 == 0 ? CODE_RECV : CODE_SEND;
  ev->datum = (guint32) i;
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  if (gdk_display_get_default () == NULL)
    return;
  f->file = test_file_new_func (N_TRACKS, N_EVENTS, event_func, NULL);
  f->window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (f->window, WIDTH, HEIGHT);
  f->timeline = CPEL_TIMELINE (cpel_timeline_new ());
  gtk_window_set_child (f->window, GTK_WIDGET (f->timeline));
  cpel_timeline_set_file (f->timeline, f->file);
  gtk_window_present (f->window);
  app_test_wait_allocated (GTK_WIDGET (f->timeline), WIDTH);
  g_assert_cmpfloat (cpel_timeline_get_label_width (f->timeline), ==, 160);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  if (f->window != NULL)
    gtk_window_destroy (f->window);
  g_clear_object (&f->file);
  app_test_drain ();
}

#define SKIP_WITHOUT_DISPLAY(f) \
  G_STMT_START { if ((f)->file == NULL) { app_test_skip_no_display (); return; } } G_STMT_END

static gint64
span (Fixture *f)
{
  gint64 t0, t1;
  cpel_timeline_get_range (f->timeline, &t0, &t1);
  return t1 - t0;
}

static gint64
centre (Fixture *f)
{
  gint64 t0, t1;
  cpel_timeline_get_range (f->timeline, &t0, &t1);
  return t0 + (t1 - t0) / 2;
}

static void
activate (Fixture *f, const char *action)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->timeline), action, NULL));
}

/* The last event is at 299900 ns: the capture is [0, 299901). */
static void
test_fit (Fixture *f, gconstpointer data)
{
  gint64 t0, t1;
  CpelRangeLimits limits;

  SKIP_WITHOUT_DISPLAY (f);
  cpel_timeline_get_range (f->timeline, &t0, &t1);
  g_assert_cmpint (t0, ==, 0);
  g_assert_cmpint (t1, ==, (N_EVENTS - 1) * STEP_NS + 1);
  limits = *cpel_session_get_limits (cpel_timeline_get_session (f->timeline));
  g_assert_cmpint (limits.min_span, ==, 20);

  cpel_timeline_set_range (f->timeline, 1000, 2000, FALSE);
  activate (f, "timeline.fit");
  cpel_timeline_get_range (f->timeline, &t0, &t1);
  g_assert_cmpint (t0, ==, 0);
  g_assert_cmpint (t1, ==, 299901);
}

static void
test_zoom_keys (Fixture *f, gconstpointer data)
{
  gint64 s0, c0;

  SKIP_WITHOUT_DISPLAY (f);
  /* The keys zoom at the pointer when it is over the events (test-timeline-keys.c's
   * /app/timeline/g2-keys-anywhere): keep it on the label column. */
  if (app_test_can_send_input ())
    app_test_pointer_to (GTK_WIDGET (f->timeline), 5, 5);
  cpel_timeline_set_range (f->timeline, 100000, 200000, FALSE);
  s0 = span (f);
  c0 = centre (f);

  /* Zoom in: half the span around the centre. */
  activate (f, "timeline.zoom-in");
  g_assert_cmpint (span (f), ==, s0 / 2);
  g_assert_cmpint (ABS (centre (f) - c0), <=, 1);

  /* Zoom out: back. */
  activate (f, "timeline.zoom-out");
  g_assert_cmpint (span (f), ==, s0);
  g_assert_cmpint (ABS (centre (f) - c0), <=, 1);

  /* With a selected event in view, zoom keeps that event in place. */
  {
    guint slot;
    guint64 index;
    CpelEvent ev;
    double x0;
    const CpelView *view;

    /* Event 1234: t = 123400 on track 1 (index 411). */
    cpel_session_select (cpel_timeline_get_session (f->timeline), 1, 411, FALSE);
    g_assert_true (cpel_session_get_selection (cpel_timeline_get_session (f->timeline),
                                               &slot, &index));
    cpel_file_get_track_event (f->file, slot, index, &ev);
    g_assert_cmpint (ev.time_ns, ==, 123400);
    view = cpel_timeline_get_view (f->timeline);
    x0 = cpel_view_time_to_x (view, WIDTH, ev.time_ns);
    activate (f, "timeline.zoom-in");
    view = cpel_timeline_get_view (f->timeline);
    g_assert_cmpfloat (fabs (cpel_view_time_to_x (view, WIDTH, ev.time_ns) - x0), <, 1.0);
    g_assert_cmpint (span (f), ==, s0 / 2);
  }
}

static void
test_zoom_at_pointer (Fixture *f, gconstpointer data)
{
  const CpelView *view;
  gint64 t_before, t_after;
  double x = 160 + 250;   /* a quarter into the time area */

  SKIP_WITHOUT_DISPLAY (f);
  view = cpel_timeline_get_view (f->timeline);
  t_before = cpel_view_x_to_time (view, WIDTH, x);
  cpel_timeline_zoom (f->timeline, 3.0, x);
  view = cpel_timeline_get_view (f->timeline);
  t_after = cpel_view_x_to_time (view, WIDTH, x);
  g_assert_cmpint (ABS (t_after - t_before), <=, 1);
  g_assert_cmpint (ABS (span (f) - 299901 / 3), <=, 1);
}

/* Down to the minimum span of 20 ns, never below; out to the capture,
 * never beyond. */
static void
test_zoom_limits (Fixture *f, gconstpointer data)
{
  gint64 t0, t1;

  SKIP_WITHOUT_DISPLAY (f);
  for (int i = 0; i < 40; i++)
    activate (f, "timeline.zoom-in");
  g_assert_cmpint (span (f), ==, CPEL_RANGE_MIN_SPAN);
  /* Deep zoom still shows single nanoseconds: 1000 px for 20 ns. */
  {
    const CpelView *view = cpel_timeline_get_view (f->timeline);
    gint64 a = cpel_view_x_to_time (view, WIDTH, 160 + 100);
    gint64 b = cpel_view_x_to_time (view, WIDTH, 160 + 150);
    g_assert_cmpint (b - a, ==, 1);
  }
  cpel_timeline_zoom (f->timeline, 2.0, -1);
  g_assert_cmpint (span (f), ==, CPEL_RANGE_MIN_SPAN);

  for (int i = 0; i < 40; i++)
    cpel_timeline_zoom (f->timeline, 0.5, -1);
  cpel_timeline_get_range (f->timeline, &t0, &t1);
  g_assert_cmpint (t0, ==, 0);
  g_assert_cmpint (t1, ==, 299901);
}

static void
test_pan (Fixture *f, gconstpointer data)
{
  gint64 t0, t1;

  SKIP_WITHOUT_DISPLAY (f);
  cpel_timeline_set_range (f->timeline, 100000, 110000, FALSE);
  activate (f, "timeline.pan-right");
  cpel_timeline_get_range (f->timeline, &t0, &t1);
  g_assert_cmpint (t0, ==, 101000);
  g_assert_cmpint (t1, ==, 111000);
  activate (f, "timeline.pan-left");
  activate (f, "timeline.pan-left");
  cpel_timeline_get_range (f->timeline, &t0, &t1);
  g_assert_cmpint (t0, ==, 99000);
  g_assert_cmpint (t1, ==, 109000);

  /* Clamped to the capture at both ends, span kept. */
  for (int i = 0; i < 300; i++)
    activate (f, "timeline.pan-right");
  cpel_timeline_get_range (f->timeline, &t0, &t1);
  g_assert_cmpint (t1, ==, 299901);
  g_assert_cmpint (t1 - t0, ==, 10000);
  cpel_timeline_pan (f->timeline, -1000.0);
  cpel_timeline_get_range (f->timeline, &t0, &t1);
  g_assert_cmpint (t0, ==, 0);
  g_assert_cmpint (t1, ==, 10000);
}

static void
test_history (Fixture *f, gconstpointer data)
{
  gint64 t0, t1;

  SKIP_WITHOUT_DISPLAY (f);
  cpel_timeline_set_range (f->timeline, 1000, 2000, TRUE);
  cpel_timeline_set_range (f->timeline, 5000, 6000, TRUE);

  activate (f, "timeline.back");
  cpel_timeline_get_range (f->timeline, &t0, &t1);
  g_assert_cmpint (t0, ==, 1000);
  g_assert_cmpint (t1, ==, 2000);
  activate (f, "timeline.back");
  cpel_timeline_get_range (f->timeline, &t0, &t1);
  g_assert_cmpint (t0, ==, 0);
  g_assert_cmpint (t1, ==, 299901);
  g_assert_false (cpel_session_go_back (cpel_timeline_get_session (f->timeline)));

  activate (f, "timeline.forward");
  cpel_timeline_get_range (f->timeline, &t0, &t1);
  g_assert_cmpint (t0, ==, 1000);
  activate (f, "timeline.forward");
  cpel_timeline_get_range (f->timeline, &t0, &t1);
  g_assert_cmpint (t0, ==, 5000);
  g_assert_false (cpel_session_go_forward (cpel_timeline_get_session (f->timeline)));

  /* A new step clears the forward list. */
  activate (f, "timeline.back");
  cpel_timeline_set_range (f->timeline, 7000, 8000, TRUE);
  g_assert_false (cpel_session_go_forward (cpel_timeline_get_session (f->timeline)));
  g_assert_true (cpel_session_go_back (cpel_timeline_get_session (f->timeline)));
  cpel_timeline_get_range (f->timeline, &t0, &t1);
  g_assert_cmpint (t0, ==, 1000);
}

static void
test_scroll_tracks (Fixture *f, gconstpointer data)
{
  g_autoptr(CpelFile) many = NULL;
  GtkAdjustment *adj;
  double upper, page;

  SKIP_WITHOUT_DISPLAY (f);
  /* 3 tracks fit: nothing to scroll. */
  adj = cpel_timeline_get_vadjustment (f->timeline);
  activate (f, "timeline.scroll-down");
  g_assert_cmpfloat (gtk_adjustment_get_value (adj), ==, 0);

  /* 100 tracks of 24 px in 372 px. */
  {
    TestEvent ev[100];
    for (guint i = 0; i < 100; i++)
      ev[i] = (TestEvent) { i * 10, i, CODE_SEND, i };
    many = test_file_new (100, ev, 100);
  }
  cpel_timeline_set_file (f->timeline, many);
  app_test_wait_drawn (GTK_WIDGET (f->timeline));
  upper = gtk_adjustment_get_upper (adj);
  page = gtk_adjustment_get_page_size (adj);
  g_assert_cmpfloat (upper, ==, 100 * 24);
  g_assert_cmpfloat (page, ==, gtk_widget_get_height (GTK_WIDGET (f->timeline)) - 28);

  activate (f, "timeline.scroll-down");
  g_assert_cmpfloat (gtk_adjustment_get_value (adj), ==, 24);
  activate (f, "timeline.page-down");
  g_assert_cmpfloat (gtk_adjustment_get_value (adj), >, 24 + page * 0.8);
  for (int i = 0; i < 50; i++)
    activate (f, "timeline.page-down");
  g_assert_cmpfloat (gtk_adjustment_get_value (adj), ==, upper - page);
  for (int i = 0; i < 200; i++)
    activate (f, "timeline.scroll-up");
  g_assert_cmpfloat (gtk_adjustment_get_value (adj), ==, 0);
  /* The view follows the adjustment. */
  gtk_adjustment_set_value (adj, 48);
  g_assert_cmpfloat (cpel_timeline_get_view (f->timeline)->scroll_y, ==, 48);
}

static void
test_select (Fixture *f, gconstpointer data)
{
  guint slot;
  guint64 index;
  const CpelView *view;
  double x, y;
  gint64 t0, t1;

  SKIP_WITHOUT_DISPLAY (f);
  g_assert_false (cpel_session_get_selection (cpel_timeline_get_session (f->timeline), NULL, NULL));

  /* Click on event 30 (t = 3000, track 0, index 10), zoomed so that events
   * are 10 px apart. */
  cpel_timeline_set_range (f->timeline, 0, 10000, FALSE);
  view = cpel_timeline_get_view (f->timeline);
  x = cpel_view_time_to_x (view, WIDTH, 3000) + 2;
  y = cpel_view_get_row_y (view, 0) + 12;
  g_assert_true (cpel_timeline_select_at (f->timeline, x, y));
  g_assert_true (cpel_session_get_selection (cpel_timeline_get_session (f->timeline),
                                             &slot, &index));
  g_assert_cmpuint (slot, ==, 0);
  g_assert_cmpuint (index, ==, 10);

  /* Far from any event: nothing. */
  g_assert_false (cpel_timeline_select_at (f->timeline, x, cpel_view_get_row_y (view, 2) + 24 + 30));

  /* Tab / Shift+Tab walk the track. */
  activate (f, "timeline.next-event");
  g_assert_true (cpel_session_get_selection (cpel_timeline_get_session (f->timeline),
                                             &slot, &index));
  g_assert_cmpuint (slot, ==, 0);
  g_assert_cmpuint (index, ==, 11);
  activate (f, "timeline.previous-event");
  activate (f, "timeline.previous-event");
  g_assert_true (cpel_session_get_selection (cpel_timeline_get_session (f->timeline),
                                             &slot, &index));
  g_assert_cmpuint (index, ==, 9);

  /* Walking out of view re-centres on the event. */
  cpel_session_select (cpel_timeline_get_session (f->timeline), 0, 33, FALSE);   /* t = 9900 */
  activate (f, "timeline.next-event");                /* t = 10200: out of view */
  cpel_timeline_get_range (f->timeline, &t0, &t1);
  g_assert_cmpint (t0, <=, 10200);
  g_assert_cmpint (t1, >, 10200);
  g_assert_cmpint (t1 - t0, ==, 10000);
  g_assert_cmpint (ABS ((t0 + t1) / 2 - 10200), <=, 1);

  /* Hidden types are skipped: hide "recv" (every 7th event). */
  {
    guint type;
    guint8 *hidden = g_malloc0 (cpel_file_get_n_types (f->file));

    g_assert_true (cpel_file_lookup_type (f->file, CODE_RECV, &type));
    hidden[type] = 1;
    cpel_session_set_hidden_types (cpel_timeline_get_session (f->timeline), hidden);
    g_free (hidden);
    /* Event 63 (track 0, index 21) is recv: from index 20 the next shown
     * one is index 22. */
    cpel_session_select (cpel_timeline_get_session (f->timeline), 0, 20, FALSE);
    activate (f, "timeline.next-event");
    g_assert_true (cpel_session_get_selection (cpel_timeline_get_session (f->timeline),
                                               &slot, &index));
    g_assert_cmpuint (index, ==, 22);
  }

  /* Escape clears the selection. */
  activate (f, "timeline.clear");
  g_assert_false (cpel_session_get_selection (cpel_timeline_get_session (f->timeline), NULL, NULL));

  /* No selection and no event in view (between t = 3000 and 3100): Tab
   * takes the next event after the view, Shift+Tab the one before, each
   * brought into view. */
  cpel_session_set_hidden_types (cpel_timeline_get_session (f->timeline), NULL);
  cpel_timeline_set_range (f->timeline, 3010, 3090, FALSE);
  activate (f, "timeline.next-event");
  g_assert_true (cpel_session_get_selection (cpel_timeline_get_session (f->timeline),
                                             &slot, &index));
  g_assert_cmpuint (slot, ==, 1);
  g_assert_cmpuint (index, ==, 10);         /* event 31, t = 3100 */
  cpel_timeline_get_range (f->timeline, &t0, &t1);
  g_assert_cmpint (t0, <=, 3100);
  g_assert_cmpint (t1, >, 3100);
  activate (f, "timeline.clear");
  cpel_timeline_set_range (f->timeline, 3010, 3090, FALSE);
  activate (f, "timeline.previous-event");
  g_assert_true (cpel_session_get_selection (cpel_timeline_get_session (f->timeline),
                                             &slot, &index));
  g_assert_cmpuint (slot, ==, 0);
  g_assert_cmpuint (index, ==, 10);         /* event 30, t = 3000 */
  activate (f, "timeline.clear");
}

static void
test_measure (Fixture *f, gconstpointer data)
{
  gint64 a, b;
  guint64 n;

  SKIP_WITHOUT_DISPLAY (f);
  g_assert_false (cpel_timeline_get_measure (f->timeline, NULL, NULL, NULL));
  /* [1000, 2000] holds events 10..20 (inclusive): 11. */
  cpel_session_set_measure (cpel_timeline_get_session (f->timeline), 2000, 1000);
  g_assert_true (cpel_timeline_get_measure (f->timeline, &a, &b, &n));
  g_assert_cmpint (a, ==, 1000);
  g_assert_cmpint (b, ==, 2000);
  g_assert_cmpuint (n, ==, 11);
  activate (f, "timeline.clear");
  g_assert_false (cpel_timeline_get_measure (f->timeline, NULL, NULL, NULL));
}

static void
test_track_order (Fixture *f, gconstpointer data)
{
  CpelTrackOrder *order;
  const CpelView *view;
  guint n;
  const guint *rows;

  SKIP_WITHOUT_DISPLAY (f);
  order = cpel_session_get_track_order (cpel_timeline_get_session (f->timeline));
  g_assert_nonnull (order);
  view = cpel_timeline_get_view (f->timeline);
  g_assert_null (view->rows);

  /* Pin track 2: it comes first. */
  cpel_track_order_set_pinned (order, 2, TRUE);
  view = cpel_timeline_get_view (f->timeline);
  g_assert_cmpuint (view->n_rows, ==, 3);
  g_assert_cmpuint (view->rows[0], ==, 2);
  g_assert_cmpuint (view->rows[1], ==, 0);
  g_assert_cmpuint (view->rows[2], ==, 1);

  /* What can move: the pinned one alone in its group, the unpinned ones
   * between the ends of theirs. */
  g_assert_false (cpel_track_order_can_move (order, 2, -1));
  g_assert_false (cpel_track_order_can_move (order, 2, 1));
  g_assert_false (cpel_track_order_can_move (order, 0, -1));
  g_assert_true (cpel_track_order_can_move (order, 0, 1));
  g_assert_true (cpel_track_order_can_move (order, 1, -1));
  g_assert_false (cpel_track_order_can_move (order, 1, 1));

  /* Move track 0 down among the unpinned. */
  cpel_track_order_move (order, 0, 1);
  g_assert_true (cpel_track_order_can_move (order, 0, -1));
  g_assert_false (cpel_track_order_can_move (order, 0, 1));
  rows = cpel_track_order_get_rows (order, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpuint (rows[0], ==, 2);
  g_assert_cmpuint (rows[1], ==, 1);
  g_assert_cmpuint (rows[2], ==, 0);

  /* Hide track 1. */
  cpel_track_order_set_hidden (order, 1, TRUE);
  view = cpel_timeline_get_view (f->timeline);
  g_assert_cmpuint (view->n_rows, ==, 2);
  g_assert_cmpuint (view->rows[0], ==, 2);
  g_assert_cmpuint (view->rows[1], ==, 0);

  /* Filter by name: "thread 0" keeps track 0, the pinned one stays. */
  cpel_track_order_set_filter (order, "THREAD 0");
  view = cpel_timeline_get_view (f->timeline);
  g_assert_cmpuint (view->n_rows, ==, 2);
  cpel_track_order_set_pinned (order, 2, FALSE);
  view = cpel_timeline_get_view (f->timeline);
  g_assert_cmpuint (view->n_rows, ==, 1);
  g_assert_cmpuint (view->rows[0], ==, 0);

  /* The measurement counts the shown rows only. */
  cpel_session_set_measure (cpel_timeline_get_session (f->timeline), 0, 2999);
  {
    guint64 count;
    g_assert_true (cpel_timeline_get_measure (f->timeline, NULL, NULL, &count));
    g_assert_cmpuint (count, ==, 10);   /* events 0, 3, ..., 27 */
  }

  cpel_track_order_reset (order);
  view = cpel_timeline_get_view (f->timeline);
  g_assert_null (view->rows);
  g_assert_cmpuint (cpel_view_get_n_rows (view), ==, 3);
}

static void
test_frames (Fixture *f, gconstpointer data)
{
  guint64 n;

  SKIP_WITHOUT_DISPLAY (f);
  /* A change draws a frame; nothing else does: not the window's own
   * frames (three of them, the window redrawn, the timeline unchanged). */
  app_test_wait_until (cpel_timeline_get_n_frames (f->timeline) >= 1, 30);
  app_test_wait_frames (GTK_WIDGET (f->window), 3);
  n = cpel_timeline_get_n_frames (f->timeline);
  app_test_wait_frames (GTK_WIDGET (f->window), 3);
  g_assert_cmpuint (cpel_timeline_get_n_frames (f->timeline), ==, n);
  activate (f, "timeline.zoom-in");
  app_test_wait_until (cpel_timeline_get_n_frames (f->timeline) >= n + 1, 30);
  app_test_wait_frames (GTK_WIDGET (f->window), 3);
  g_assert_cmpuint (cpel_timeline_get_n_frames (f->timeline), ==, n + 1);
}

int
main (int argc, char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return app_test_run_no_display ("/app/timeline");

#define ADD(path, func) \
  g_test_add ("/app/timeline/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("fit", test_fit);
  ADD ("zoom-keys", test_zoom_keys);
  ADD ("zoom-at-pointer", test_zoom_at_pointer);
  ADD ("zoom-limits", test_zoom_limits);
  ADD ("pan", test_pan);
  ADD ("history", test_history);
  ADD ("scroll-tracks", test_scroll_tracks);
  ADD ("select", test_select);
  ADD ("measure", test_measure);
  ADD ("track-order", test_track_order);
  ADD ("frames", test_frames);
#undef ADD
  return g_test_run ();
}
