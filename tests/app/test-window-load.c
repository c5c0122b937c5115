/* SPDX-License-Identifier: Apache-2.0 */
/* test-window-load.c — the viewer stays responsive while a 10^6-event CTF
 * trace loads
 *
 * The trace is written by the test (tests/cpel-ctf-writer.h, two streams,
 * ~24 MB) into a scratch folder and opened as a user opens a folder.
 * libbabeltrace2 reads it in the loader's worker; meanwhile the window's
 * frame clock must go on ticking (a tick callback counts the frames the
 * main thread ran while the window said it was loading) and the progress
 * shown must move (every fraction a mapped progress bar is given while
 * loading is recorded).  A second case cancels the load halfway (win.cancel-load,
 * as the Cancel button does) and waits for the window to be idle and empty.
 * Waits are on conditions (the loading property, frames, progress), never
 * on the clock; the longest gap between two frames is reported, not
 * asserted (timings belong to benchmarks).
 */
#include "app-test-util.h"
#include "cpel-ctf-writer.h"

#define N_EVENTS 1000000

static CpelApplication *app;

typedef struct
{
  char       *dir;
  char       *trace;
  CpelWindow *window;
  /* what the frame clock saw */
  guint       frames_loading;
  double      progress_seen[4096];
  guint       n_progress;
  gint64      last_frame_us;
  gint64      max_gap_us;
} Fixture;

/* Every fraction a shown progress bar of the window takes while loading
 * (the loading page's and the header bar's; the search bar's stays at 0),
 * counted when the bar is told, not when a frame happens to sample it: how
 * many of the worker's fractions meet a frame depends on the load. */
static void
on_fraction (GtkProgressBar *bar, GParamSpec *pspec, gpointer data)
{
  Fixture *f = data;
  if (!cpel_window_is_loading (f->window) || !gtk_widget_get_mapped (GTK_WIDGET (bar)))
    return;
  double p = gtk_progress_bar_get_fraction (bar);
  if (p > 0 && (f->n_progress == 0 || p != f->progress_seen[f->n_progress - 1])
      && f->n_progress < G_N_ELEMENTS (f->progress_seen))
    f->progress_seen[f->n_progress++] = p;
}

static void
watch_progress_bars (GtkWidget *widget, Fixture *f)
{
  if (GTK_IS_PROGRESS_BAR (widget))
    g_signal_connect (widget, "notify::fraction", G_CALLBACK (on_fraction), f);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    watch_progress_bars (c, f);
}

/* Counts the frames the main thread ran while the window was loading. */
static gboolean
on_tick (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  Fixture *f = data;
  gint64 now = gdk_frame_clock_get_frame_time (clock);

  if (cpel_window_is_loading (f->window))
    {
      f->frames_loading++;
      if (f->last_frame_us != 0)
        f->max_gap_us = MAX (f->max_gap_us, now - f->last_frame_us);
      f->last_frame_us = now;
    }
  return G_SOURCE_CONTINUE;
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  if (app == NULL)
    return;
  f->dir = g_dir_make_tmp ("cpelview-ctf-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
  f->trace = g_build_filename (f->dir, "trace", NULL);
  cpel_test_ctf_write (f->trace, N_EVENTS);

  f->window = cpel_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1000, 600);
  gtk_window_present (GTK_WINDOW (f->window));
  app_test_wait_drawn (GTK_WIDGET (f->window));
  gtk_widget_add_tick_callback (GTK_WIDGET (f->window), on_tick, f, NULL);
  watch_progress_bars (GTK_WIDGET (f->window), f);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  if (app == NULL)
    return;
  gtk_window_destroy (GTK_WINDOW (f->window));
  app_test_drain ();
  app_test_remove_tree (f->dir);
  g_free (f->trace);
  g_free (f->dir);
}

static void
open_trace (Fixture *f)
{
  g_autoptr(GFile) folder = g_file_new_for_path (f->trace);
  cpel_window_open (f->window, folder, 0);
  g_assert_true (cpel_window_is_loading (f->window));
}

static void
test_responsive (Fixture *f, gconstpointer data)
{
  if (app == NULL)
    {
      app_test_skip_no_display ();
      return;
    }
  gint64 t0 = g_get_monotonic_time ();
  open_trace (f);
  /* generous bound: 10^6 events through libbabeltrace2 on a loaded machine */
  app_test_wait_until (!cpel_window_is_loading (f->window), 600);
  g_test_message ("loaded in %.2f s", (g_get_monotonic_time () - t0) / 1e6);
  CpelFile *file = cpel_window_get_file (f->window);
  g_assert_nonnull (file);
  g_assert_cmpuint (cpel_file_get_n_events (file), ==, N_EVENTS);
  g_assert_cmpuint (cpel_file_get_n_tracks (file), ==, 2);

  g_test_message ("%u frames while loading, %u progress values shown, longest gap between frames %.0f ms",
                  f->frames_loading, f->n_progress, f->max_gap_us / 1000.0);
  /* the main thread kept painting while the worker read the trace */
  g_assert_cmpuint (f->frames_loading, >=, 10);
  /* the bar moved while loading, forward only */
  g_assert_cmpuint (f->n_progress, >=, 2);
  for (guint i = 1; i < f->n_progress; i++)
    g_assert_cmpfloat (f->progress_seen[i], >, f->progress_seen[i - 1]);

  /* and the view answers at once */
  app_test_wait_drawn (GTK_WIDGET (cpel_window_get_timeline (f->window)));
}

static void
test_cancel (Fixture *f, gconstpointer data)
{
  if (app == NULL)
    {
      app_test_skip_no_display ();
      return;
    }
  open_trace (f);
  /* halfway through (as the progress shows it), the user cancels */
  app_test_wait_until ((f->n_progress > 0 && f->progress_seen[f->n_progress - 1] >= 0.2)
                       || !cpel_window_is_loading (f->window), 600);
  if (!cpel_window_is_loading (f->window))
    {
      /* finished before a fifth was shown: nothing to cancel (not a failure
       * of responsiveness, and the other case checks the frames) */
      g_test_incomplete ("the trace loaded before the progress reached 20 %");
      return;
    }
  guint frames_before = f->frames_loading;
  g_assert_true (app_test_action_enabled (GTK_WIDGET (f->window), "cancel-load"));
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.cancel-load", NULL);
  app_test_wait_until (!cpel_window_is_loading (f->window), 120);
  g_assert_null (cpel_window_get_file (f->window));
  g_assert_false (app_test_action_enabled (GTK_WIDGET (f->window), "cancel-load"));
  g_assert_cmpuint (frames_before, >=, 1);
  app_test_wait_drawn (GTK_WIDGET (f->window));
}

int
main (int argc, char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return app_test_run_no_display ("/app/window/ctf-loading");
  app = app_test_new_application ();
  g_test_add ("/app/window/ctf-loading/responsive", Fixture, NULL, fixture_setup, test_responsive, fixture_teardown);
  g_test_add ("/app/window/ctf-loading/cancel", Fixture, NULL, fixture_setup, test_cancel, fixture_teardown);
  return app_test_run (&app);
}
