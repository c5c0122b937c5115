/* SPDX-License-Identifier: Apache-2.0 */
/* test-timeline-spans.c — spans in the viewer: a VPP dispatch capture
 * opened, its span drawn, selected by a click where no event is, the
 * details pane showing it; shown or not (win.show-spans); exported */
#include "config.h"

#include "app-test-util.h"

#include <glib/gstdio.h>

#include "cpel-print.h"
#include "cpel-test-node-spans.h"
#include "cpel-window.h"

static CpelApplication *app;

typedef AppTestFixture Fixture;

/* Track "vpp_main": start at 0, ip4-lookup [10 µs, 22 µs), end at 40 µs. */
static void
write_vpp (const char *path)
{
  static const CpelTestNodeEvent events[] = {
    { 0, "start" }, { 10000, "ip4-lookup-call" }, { 22000, "ip4-lookup-return" },
    { 40000, "end" },
  };

  cpel_test_node_events_write (path, "vpp_main", events, G_N_ELEMENTS (events));
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  if (app == NULL)
    return;
  app_test_fixture_setup (f, app, "cpelview-spans", write_vpp, 1100, 700, TRUE);
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

/* Clicks at (x, y) of the timeline: real input when there is, else the
 * click's own path. */
static void
click (CpelTimeline *timeline, double x, double y)
{
  if (app_test_can_send_input ())
    {
      app_test_pointer_to (GTK_WIDGET (timeline), x, y);
      app_test_xdo ("click", "1", NULL);
    }
  else if (!cpel_timeline_select_at (timeline, x, y)
           && !cpel_timeline_select_span_at (timeline, x, y))
    cpel_session_unselect (cpel_timeline_get_session (timeline));
}

static void
test_select (Fixture *f, gconstpointer data)
{
  CpelTimeline *timeline;
  CpelSession *session;
  CpelDetails *details;
  const CpelView *view;
  const CpelSpan *span;
  CpelSessionSpanRef ref;
  g_autofree char *duration = NULL;
  double x, y, width;

  SKIP_WITHOUT_DISPLAY ();
  timeline = cpel_window_get_timeline (f->window);
  session = cpel_timeline_get_session (timeline);
  details = cpel_window_get_details (f->window);
  app_test_wait_spans (session);
  app_test_wait_drawn (GTK_WIDGET (timeline));

  view = cpel_timeline_get_view (timeline);
  g_assert_true (view->spans == cpel_session_get_spans (session));
  width = gtk_widget_get_width (GTK_WIDGET (timeline));
  /* the span's middle, 6 µs from either event */
  x = cpel_view_time_to_x (view, width, 16000);
  y = cpel_view_get_row_y (view, 0) + view->row_height / 2 - 2;

  click (timeline, x, y);
  span = cpel_session_get_span_selection (session, &ref);
  g_assert_nonnull (span);
  g_assert_false (cpel_session_get_selection (session, NULL, NULL));
  g_assert_cmpuint (ref.slot, ==, 0);
  g_assert_false (ref.state);
  g_assert_cmpstr (cpel_spans_get_name (cpel_session_get_spans (session), span->name), ==,
                   "ip4-lookup");

  duration = cpel_time_format_kind (12000, CPEL_TIME_KIND_NS);
  g_assert_cmpstr (cpel_details_get_value (details, "headline"), ==, "ip4-lookup");
  g_assert_cmpstr (cpel_details_get_value (details, "duration"), ==, duration);
  g_assert_cmpstr (cpel_details_get_value (details, "self"), ==, duration);
  g_assert_cmpstr (cpel_details_get_value (details, "depth"), ==, "0");
  g_assert_cmpstr (cpel_details_get_value (details, "begin-event"), ==, "ip4-lookup-call");
  g_assert_cmpstr (cpel_details_get_value (details, "end-event"), ==, "ip4-lookup-return");
  g_assert_nonnull (strstr (cpel_details_get_value (details, "begin"), "10\u202f000 ns"));

  /* a click on an event selects the event, the span's details go */
  click (timeline, cpel_view_time_to_x (view, width, 10000), y);
  g_assert_null (cpel_session_get_span_selection (session, NULL));
  g_assert_true (cpel_session_get_selection (session, NULL, NULL));
  g_assert_cmpstr (cpel_details_get_value (details, "headline"), ==, "ip4-lookup-call");

  /* spans hidden: none drawn, none to click */
  g_assert_true (cpel_session_get_show_spans (session));
  app_test_activate_action (GTK_WIDGET (f->window), "show-spans", NULL);
  g_assert_false (cpel_session_get_show_spans (session));
  g_assert_null (cpel_timeline_get_view (timeline)->spans);
  g_assert_false (cpel_timeline_select_span_at (timeline, x, y));
  app_test_activate_action (GTK_WIDGET (f->window), "show-spans", NULL);
  g_assert_true (cpel_session_get_show_spans (session));
  g_assert_true (cpel_timeline_select_span_at (timeline, x, y));
}

/* A state: rules of the session's own, its band clicked. */
static void
test_state (Fixture *f, gconstpointer data)
{
  CpelTimeline *timeline;
  CpelSession *session;
  CpelDetails *details;
  const CpelView *view;
  CpelSessionSpanRef ref;
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *duration = NULL;
  double x, y, width;

  SKIP_WITHOUT_DISPLAY ();
  timeline = cpel_window_get_timeline (f->window);
  session = cpel_timeline_get_session (timeline);
  details = cpel_window_get_details (f->window);
  g_assert_true (cpel_span_rules_add_text (rules, "state Busy on event=start\n"
                                           "state Idle on event=end\n", -1, "test", &error));
  g_assert_no_error (error);
  cpel_session_set_span_rules (session, rules);
  app_test_wait_spans (session);
  app_test_wait_drawn (GTK_WIDGET (timeline));

  /* Busy [0, 40 µs): its band at the row's bottom, away from the events */
  view = cpel_timeline_get_view (timeline);
  width = gtk_widget_get_width (GTK_WIDGET (timeline));
  x = cpel_view_time_to_x (view, width, 30000);
  y = cpel_view_get_row_y (view, 0) + view->row_height * 3 / 4;
  click (timeline, x, y);
  g_assert_nonnull (cpel_session_get_span_selection (session, &ref));
  g_assert_true (ref.state);
  duration = cpel_time_format_kind (40000, CPEL_TIME_KIND_NS);
  g_assert_cmpstr (cpel_details_get_value (details, "headline"), ==, "Busy");
  g_assert_cmpstr (cpel_details_get_value (details, "label"), ==, "Thread state");
  g_assert_cmpstr (cpel_details_get_value (details, "duration"), ==, duration);
  g_assert_cmpstr (cpel_details_get_value (details, "begin-event"), ==, "start");
  g_assert_cmpstr (cpel_details_get_value (details, "end-event"), ==, "end");

  /* Tab: the next state (Idle, from the last event on: no end) */
  g_assert_true (cpel_timeline_select_adjacent (timeline, 1));
  g_assert_cmpstr (cpel_details_get_value (details, "headline"), ==, "Idle");
  g_assert_cmpstr (cpel_details_get_value (details, "flags"), ==,
                   "No end: the capture ended inside it");
}

/* Export View draws the spans: the span's pixels differ with them hidden. */
static void
test_export (Fixture *f, gconstpointer data)
{
  CpelTimeline *timeline;
  CpelSession *session;
  const CpelView *view;
  g_autofree char *with_path = NULL;
  g_autofree char *without_path = NULL;
  g_autoptr(GError) error = NULL;
  cairo_surface_t *with, *without;
  double x, y, width, a[3], b[3];

  SKIP_WITHOUT_DISPLAY ();
  timeline = cpel_window_get_timeline (f->window);
  session = cpel_timeline_get_session (timeline);
  app_test_wait_spans (session);
  view = cpel_timeline_get_view (timeline);
  width = gtk_widget_get_width (GTK_WIDGET (timeline));
  x = cpel_view_time_to_x (view, width, 16000);
  y = cpel_view_get_row_y (view, 0) + 4;

  with_path = g_build_filename (f->dir, "with.png", NULL);
  without_path = g_build_filename (f->dir, "without.png", NULL);
  g_assert_true (cpel_window_export (f->window, with_path, 1, FALSE, &error));
  g_assert_no_error (error);
  cpel_session_set_show_spans (session, FALSE);
  g_assert_true (cpel_window_export (f->window, without_path, 1, FALSE, &error));
  g_assert_no_error (error);
  with = cairo_image_surface_create_from_png (with_path);
  without = cairo_image_surface_create_from_png (without_path);
  test_pixel (with, (int) x, (int) y, a);
  test_pixel (without, (int) x, (int) y, b);
  g_assert_cmpfloat (fabs (a[0] - b[0]) + fabs (a[1] - b[1]) + fabs (a[2] - b[2]), >, 0.1);
  cairo_surface_destroy (with);
  cairo_surface_destroy (without);
}

/* To look at the window: CPEL_TEST_SHOT_DIR=dir saves the screen (under
 * xvfb) as dir/NAME-light.png and dir/NAME-dark.png. */
static void
shoot (GtkWidget *widget, const char *name)
{
  const char *dir = g_getenv ("CPEL_TEST_SHOT_DIR");
  AdwStyleManager *style = adw_style_manager_get_default ();

  if (dir == NULL)
    return;
  g_object_set (widget, "show-details", TRUE, NULL);
  for (guint dark = 0; dark < 2; dark++)
    {
      g_autofree char *file = g_strdup_printf ("%s-%s.png", name, dark ? "dark" : "light");
      g_autofree char *path = g_build_filename (dir, file, NULL);
      g_autofree char *argv0 = g_find_program_in_path ("import");
      const char *argv[] = { argv0, "-window", "root", path, NULL };

      adw_style_manager_set_color_scheme (style, dark ? ADW_COLOR_SCHEME_FORCE_DARK
                                                      : ADW_COLOR_SCHEME_FORCE_LIGHT);
      app_test_drain ();
      app_test_wait_frames (widget, 40);
      app_test_settle ();
      if (argv0 != NULL)
        g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, NULL,
                      NULL);
    }
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);
}

/* The details of a span whose rule has a key show it; of a state a
 * wake-up began, its waker.  Track 1: breath 41 [0, 5 µs); track 2:
 * Sleeping [0, 10 µs), Runnable [10, 20 µs) woken by 7, Sleeping after. */
static void
write_keys (const char *path)
{
  static const struct { guint64 t; guint32 track, code, datum; } events[] = {
    { 0, 1, 1, 41 }, { 0, 2, 3, 0 }, { 5000, 1, 2, 41 }, { 10000, 2, 4, 7 },
    { 20000, 2, 3, 0 },
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelWriter) w = cpel_writer_new (path, TRUE, 0, &error);
  guint table;

  g_assert_no_error (error);
  table = cpel_writer_add_string_table (w, "FileStrtab");
  cpel_writer_begin_event_defs (w, table);
  cpel_writer_add_event_def (w, 1, "breath_start", "breath=%d");
  cpel_writer_add_event_def (w, 2, "breath_end", "breath=%d");
  cpel_writer_add_event_def (w, 3, "sleep", NULL);
  cpel_writer_add_event_def (w, 4, "woken", "waker=%d");
  cpel_writer_begin_track_defs (w, table);
  cpel_writer_add_track_def (w, 1, "engine");
  cpel_writer_add_track_def (w, 2, "A [1]");
  cpel_writer_begin_events (w, table, 1000000000u, G_N_ELEMENTS (events));
  for (guint i = 0; i < G_N_ELEMENTS (events); i++)
    cpel_writer_add_event (w, events[i].t, events[i].track, events[i].code, events[i].datum);
  g_assert_true (cpel_writer_finish (w, &error));
  g_assert_no_error (error);
}

static void
test_key_waker (Fixture *f, gconstpointer data)
{
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new ();
  g_autoptr(CpelSpans) spans = NULL;
  CpelDetails *details;
  const CpelSpan *a;
  guint64 n = 0;

  SKIP_WITHOUT_DISPLAY ();
  details = cpel_window_get_details (f->window);
  path = g_build_filename (f->dir, "keys.cpel", NULL);
  write_keys (path);
  file = cpel_file_new_for_cpel_path (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (cpel_span_rules_add_text (rules,
                                           "span breath begin event=breath_start "
                                           "end event=breath_end key breath\n"
                                           "state Sleeping on event=sleep\n"
                                           "state Runnable on event=woken\n", -1, "test",
                                           &error));
  g_assert_no_error (error);
  spans = cpel_spans_derive (file, rules, NULL, NULL, &error);
  g_assert_no_error (error);

  a = cpel_spans_get_track_spans (spans, 0, &n);
  g_assert_cmpuint (n, ==, 1);
  cpel_details_set_span (details, file, spans, 0, FALSE, 0);
  g_assert_cmpstr (cpel_details_get_value (details, "headline"), ==, "breath");
  g_assert_cmpstr (cpel_details_get_value (details, "key"), ==, "breath = 41");
  g_assert_cmpstr (cpel_details_get_value (details, "waker"), ==, "");
  shoot (GTK_WIDGET (f->window), "details-key");

  a = cpel_spans_get_track_states (spans, 1, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpstr (cpel_spans_get_name (spans, a[1].name), ==, "Runnable");
  cpel_details_set_span (details, file, spans, 1, TRUE, 1);
  g_assert_cmpstr (cpel_details_get_value (details, "headline"), ==, "Runnable");
  g_assert_cmpstr (cpel_details_get_value (details, "waker"), ==, "7");
  g_assert_cmpstr (cpel_details_get_value (details, "key"), ==, "");
  shoot (GTK_WIDGET (f->window), "details-waker");
  /* a state no wake-up began: no waker */
  cpel_details_set_span (details, file, spans, 1, TRUE, 0);
  g_assert_cmpstr (cpel_details_get_value (details, "headline"), ==, "Sleeping");
  g_assert_cmpstr (cpel_details_get_value (details, "waker"), ==, "");
}

/* A measurement dragged (right button) from 3 px inside the span's begin
 * to 3 px inside its end snaps to both: exactly its 12 µs. */
static void
test_measure_snap (Fixture *f, gconstpointer data)
{
  CpelTimeline *timeline;
  const CpelView *view;
  double x0, x1, y, width;
  gint64 t0 = -1, t1 = -1;
  int rx0, ry0, rx1, ry1;
  g_autofree char *sx0 = NULL, *sy = NULL, *sx1 = NULL, *mx = NULL;

  SKIP_WITHOUT_DISPLAY ();
  if (!app_test_can_send_input ())
    {
      g_test_skip ("no input can be sent (xdotool)");
      return;
    }
  timeline = cpel_window_get_timeline (f->window);
  app_test_wait_spans (cpel_timeline_get_session (timeline));
  app_test_wait_drawn (GTK_WIDGET (timeline));
  view = cpel_timeline_get_view (timeline);
  width = gtk_widget_get_width (GTK_WIDGET (timeline));
  x0 = cpel_view_time_to_x (view, width, 10000) + 3;
  x1 = cpel_view_time_to_x (view, width, 22000) - 3;
  /* without snapping these read other times */
  g_assert_cmpint (cpel_view_x_to_time (view, width, x0), >, 10000);
  g_assert_cmpint (cpel_view_x_to_time (view, width, x1), <, 22000);
  y = cpel_view_get_row_y (view, 0) + 4;
  app_test_to_root (GTK_WIDGET (timeline), x0, y, &rx0, &ry0);
  app_test_to_root (GTK_WIDGET (timeline), x1, y, &rx1, &ry1);
  sx0 = g_strdup_printf ("%d", rx0);
  sy = g_strdup_printf ("%d", ry0);
  sx1 = g_strdup_printf ("%d", rx1);
  mx = g_strdup_printf ("%d", (rx0 + rx1) / 2);
  app_test_xdo ("mousemove", "--sync", sx0, sy, "mousedown", "3",
                "mousemove", "--sync", mx, sy, "mousemove", "--sync", sx1, sy,
                "mouseup", "3", NULL);
  app_test_round_trips ();
  app_test_drain ();
  g_assert_true (cpel_timeline_get_measure (timeline, &t0, &t1, NULL));
  g_assert_cmpint (MIN (t0, t1), ==, 10000);
  g_assert_cmpint (MAX (t0, t1), ==, 22000);
}

/* The printed page draws the spans as the timeline does: pixels of the
 * page differ with them hidden (a print job once left them out). */
static cairo_surface_t *
print_page (CpelWindow *window)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 842, 595);
  cairo_t *cr = cairo_create (surface);

  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  g_assert_true (cpel_print_draw_window (window, cr, 842, 595));
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

static void
test_print (Fixture *f, gconstpointer data)
{
  CpelSession *session;
  cairo_surface_t *with, *without;
  const guint8 *a, *b;
  guint differ = 0;

  SKIP_WITHOUT_DISPLAY ();
  session = cpel_timeline_get_session (cpel_window_get_timeline (f->window));
  app_test_wait_spans (session);
  app_test_wait_drawn (GTK_WIDGET (cpel_window_get_timeline (f->window)));
  with = print_page (f->window);
  cpel_session_set_show_spans (session, FALSE);
  without = print_page (f->window);
  a = cairo_image_surface_get_data (with);
  b = cairo_image_surface_get_data (without);
  for (gsize i = 0; i < (gsize) cairo_image_surface_get_stride (with) * 595; i += 4)
    if (memcmp (a + i, b + i, 3) != 0)
      differ++;
  /* the span's bar: a few hundred pixels at least */
  g_assert_cmpuint (differ, >, 200);
  if (g_getenv ("CPEL_TEST_SHOT_DIR") != NULL)
    {
      g_autofree char *png = g_build_filename (g_getenv ("CPEL_TEST_SHOT_DIR"),
                                               "print-spans.png", NULL);

      g_assert_cmpint (cairo_surface_write_to_png (with, png), ==, CAIRO_STATUS_SUCCESS);
    }
  cairo_surface_destroy (with);
  cairo_surface_destroy (without);
}

int
main (int argc, char **argv)
{
  if (!app_test_init (&argc, &argv))
    return app_test_run_no_display ("/app/timeline/spans");

  app = app_test_new_application ();
  g_test_add ("/app/timeline/spans/select", Fixture, NULL, fixture_setup, test_select,
              fixture_teardown);
  g_test_add ("/app/timeline/spans/export", Fixture, NULL, fixture_setup, test_export,
              fixture_teardown);
  g_test_add ("/app/timeline/spans/state", Fixture, NULL, fixture_setup, test_state,
              fixture_teardown);
  g_test_add ("/app/timeline/spans/print", Fixture, NULL, fixture_setup, test_print,
              fixture_teardown);
  g_test_add ("/app/timeline/spans/measure-snap", Fixture, NULL, fixture_setup,
              test_measure_snap, fixture_teardown);
  g_test_add ("/app/timeline/spans/key-waker", Fixture, NULL, fixture_setup,
              test_key_waker, fixture_teardown);
  return app_test_run (&app);
}
