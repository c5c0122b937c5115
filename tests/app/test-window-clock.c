/* SPDX-License-Identifier: Apache-2.0 */
/* test-window-clock.c — times on the capture's own clock in the window
 * (win.capture-clock, Display ▸ Capture Clock, the status line's clock
 * button): the status line, the modes, the details pane's "Capture clock"
 * row; greyed out, with a tooltip saying why, for a capture without one. */
#include "config.h"

#include "app-test-util.h"

#include "cpel-compare-pane.h"
#include "cpel-details.h"
#include "cpel-window.h"

static CpelApplication *app;

typedef AppTestFixture Fixture;

/* data "": an empty window (the fixture's capture not opened). */
static void
fixture_setup (Fixture *f, gconstpointer data)
{
  if (app == NULL)
    return;
  app_test_fixture_setup (f, app, "cpelview-clock", app_test_write_regular, 1100, 700,
                          data == NULL);
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

static gboolean
is_clock_button (GtkWidget *widget, gconstpointer data)
{
  return GTK_IS_TOGGLE_BUTTON (widget)
         && g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)),
                       "win.capture-clock") == 0;
}

static GtkWidget *
clock_button (CpelWindow *window)
{
  GtkWidget *button = app_test_find_widget (GTK_WIDGET (window), is_clock_button, NULL);

  g_assert_nonnull (button);
  return button;
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

/* A CPEL file says nothing of its clock: the toggle is greyed out and says
 * why, the details have no clock row. */
static void
test_none (Fixture *f, gconstpointer data)
{
  GtkWidget *button;
  CpelDetails *details;
  const char *tip;

  SKIP_WITHOUT_DISPLAY ();
  g_assert_false (app_test_action_enabled (GTK_WIDGET (f->window), "capture-clock"));
  button = clock_button (f->window);
  g_assert_false (gtk_widget_is_sensitive (button));
  tip = gtk_widget_get_tooltip_text (button);
  g_assert_nonnull (tip);
  g_assert_nonnull (strstr (tip, "does not say what its clock read"));
  shoot (GTK_WIDGET (f->window), "capture-clock-none");

  details = cpel_window_get_details (f->window);
  cpel_session_select (cpel_timeline_get_session (cpel_window_get_timeline (f->window)), 0, 3,
                       TRUE);
  g_assert_cmpstr (cpel_details_get_value (details, "clock"), ==, "");
  /* chosen anyway (the setting is kept across files): nothing changes */
  g_object_set (f->window, "capture-clock", TRUE, NULL);
  g_assert_null (strstr (cpel_window_get_range_text (f->window), "UTC"));
  g_assert_cmpstr (cpel_window_get_modes_text (f->window), ==, "");
}

/* A VPP elog: its wall clock, in UTC, on the status line and in the
 * details; the ruler's labels change. */
static void
test_elog (Fixture *f, gconstpointer data)
{
  g_autofree char *elog = cpel_test_fixture_file ("vpp-elog/tiny.elog");
  CpelTimeline *timeline;
  CpelDetails *details;
  GtkWidget *button;
  const char *range;
  cairo_surface_t *before, *after;
  guint64 differ = 0;
  guint cli;

  SKIP_WITHOUT_DISPLAY ();
  app_test_open_and_wait (f->window, elog);
  timeline = cpel_window_get_timeline (f->window);
  details = cpel_window_get_details (f->window);
  g_assert_true (app_test_action_enabled (GTK_WIDGET (f->window), "capture-clock"));
  button = clock_button (f->window);
  g_assert_true (gtk_widget_is_sensitive (button));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (button), "perf script"));

  /* the details show the clock whatever the ruler reads: the first event
   * (track "cli", id 1) at the header's start (09:11:13.604352192) and
   * 35.669 µs */
  g_assert_true (cpel_file_lookup_track (cpel_window_get_file (f->window), 1, &cli));
  cpel_session_select (cpel_timeline_get_session (timeline), cli, 0, TRUE);
  g_assert_cmpstr (cpel_details_get_value (details, "clock"), ==,
                   "2026-11-26 09:11:13.604387861 UTC");
  g_assert_null (strstr (cpel_window_get_range_text (f->window), "UTC"));

  app_test_wait_drawn (GTK_WIDGET (timeline));
  before = app_test_widget_image (GTK_WIDGET (timeline));
  app_test_activate_action (GTK_WIDGET (f->window), "capture-clock", NULL);
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (button)));
  range = cpel_window_get_range_text (f->window);
  g_test_message ("range: %s", range);
  g_assert_true (g_str_has_prefix (range, "2026-11-26 09:11:13.60"));
  g_assert_nonnull (strstr (range, " UTC ("));
  g_assert_cmpstr (cpel_window_get_modes_text (f->window), ==, "Capture clock");
  app_test_wait_drawn (GTK_WIDGET (timeline));
  after = app_test_widget_image (GTK_WIDGET (timeline));
  /* the ruler (its top 28 px) reads otherwise */
  for (int y = 0; y < 28; y++)
    for (int x = 0; x < cairo_image_surface_get_width (after); x++)
      differ += test_luma (before, x, y) != test_luma (after, x, y);
  g_assert_cmpuint (differ, >, 50);
  cairo_surface_destroy (before);
  cairo_surface_destroy (after);
  shoot (GTK_WIDGET (f->window), "capture-clock-elog");

  /* and back */
  app_test_activate_action (GTK_WIDGET (f->window), "capture-clock", NULL);
  g_assert_null (strstr (cpel_window_get_range_text (f->window), "UTC"));
  g_assert_cmpstr (cpel_window_get_modes_text (f->window), ==, "");
}

/* Comparing two elogs: Display ▸ Capture Clock puts A's wall clock on the
 * compare view's ruler (its labels change) and its status line, which says
 * the clock is A's; off again, times from the aligned point. */
static void
test_compare (Fixture *f, gconstpointer data)
{
  g_autofree char *a = cpel_test_fixture_file ("vpp-elog/tiny.elog");
  g_autofree char *b = cpel_test_fixture_file ("vpp-elog/workers.elog");
  g_autoptr(GFile) file_b = g_file_new_for_path (b);
  GtkWidget *pane;
  const CpelCompareView *view;
  const char *range;
  cairo_surface_t *before, *after;
  guint64 differ = 0;

  SKIP_WITHOUT_DISPLAY ();
  app_test_open_and_wait (f->window, a);
  cpel_window_compare_with (f->window, file_b);
  app_test_wait_until (cpel_window_is_comparing (f->window), 60);
  pane = cpel_window_get_compare_pane (f->window);
  app_test_wait_drawn (pane);
  view = cpel_compare_pane_get_view (CPEL_COMPARE_PANE (pane));
  g_assert_cmpint (view->a.clock, ==, CPEL_CLOCK_NONE);
  g_assert_null (strstr (cpel_window_get_range_text (f->window), "UTC"));
  before = app_test_widget_image (pane);

  app_test_activate_action (GTK_WIDGET (f->window), "capture-clock", NULL);
  g_assert_cmpint (view->a.clock, ==, CPEL_CLOCK_WALL);
  range = cpel_window_get_range_text (f->window);
  g_test_message ("range: %s", range);
  g_assert_true (g_str_has_prefix (range, "A’s clock: 2026-11-26 09:11:13.60"));
  g_assert_nonnull (strstr (range, " UTC ("));
  app_test_wait_drawn (pane);
  after = app_test_widget_image (pane);
  /* the ruler (its top 28 px) reads otherwise */
  for (int y = 0; y < 28; y++)
    for (int x = 0; x < cairo_image_surface_get_width (after); x++)
      differ += test_luma (before, x, y) != test_luma (after, x, y);
  g_assert_cmpuint (differ, >, 50);
  cairo_surface_destroy (before);
  cairo_surface_destroy (after);
  shoot (GTK_WIDGET (f->window), "capture-clock-compare");

  app_test_activate_action (GTK_WIDGET (f->window), "capture-clock", NULL);
  g_assert_cmpint (view->a.clock, ==, CPEL_CLOCK_NONE);
  g_assert_null (strstr (cpel_window_get_range_text (f->window), "UTC"));
}

#if HAVE_PERF
/* perf.data: seconds as perf script prints them. */
static void
test_perf (Fixture *f, gconstpointer data)
{
  g_autofree char *perf = cpel_test_fixture_file ("perf/sched-wakeup.perf.data");
  CpelDetails *details;
  const char *range;

  SKIP_WITHOUT_DISPLAY ();
  app_test_open_and_wait (f->window, perf);
  details = cpel_window_get_details (f->window);
  g_object_set (f->window, "capture-clock", TRUE, "show-details", TRUE, NULL);
  range = cpel_window_get_range_text (f->window);
  g_test_message ("range: %s", range);
  g_assert_true (g_str_has_prefix (range, "2584.361"));
  g_assert_null (strstr (range, "UTC"));
  cpel_session_select (cpel_timeline_get_session (cpel_window_get_timeline (f->window)), 0, 0,
                       TRUE);
  /* perf script --ns: 2584.361365612 */
  g_assert_cmpstr (cpel_details_get_value (details, "clock"), ==, "2584.361365612 s");
  shoot (GTK_WIDGET (f->window), "capture-clock-perf");
}
#endif

int
main (int argc, char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return app_test_run_no_display ("/app/window/capture-clock");
  app = app_test_new_application ();
  g_test_add ("/app/window/capture-clock/none", Fixture, NULL, fixture_setup, test_none,
              fixture_teardown);
  g_test_add ("/app/window/capture-clock/elog", Fixture, "", fixture_setup, test_elog,
              fixture_teardown);
  g_test_add ("/app/window/capture-clock/compare", Fixture, "", fixture_setup, test_compare,
              fixture_teardown);
#if HAVE_PERF
  g_test_add ("/app/window/capture-clock/perf", Fixture, "", fixture_setup, test_perf,
              fixture_teardown);
#endif
  return app_test_run (&app);
}
