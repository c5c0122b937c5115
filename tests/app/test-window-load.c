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
 * /app/window/ctf-loading/damaged: copies of the recorded LTTng trace that
 * libbabeltrace2 2.0.4 loops on (metadata cut at 412 bytes), aborts on (a
 * packet's content_size 0xfffffffffffff000) or eats memory on (a dynamic
 * array's length 2^28), handed to the reader with the checks skipped: the
 * window stays, empty, an error dialog over it says the trace reader
 * stopped, and no process went near 1 GiB resident.
 */
#include <sys/resource.h>
#include <unistd.h>

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

#define LTTNG "ctf/lttng-ust-2.13-pid/ust/pid/fixture_app-20993-20261126-091809"

/* Overwrites `n` bytes at `off` of `file` in `dir` (`off` < 0: at the end
 * of the first occurrence of `after`, `n_after` bytes). */
static void
poke (const char *dir, const char *file, gssize off, const guint8 *after, gsize n_after,
      const void *v, gsize n)
{
  g_autofree char *p = g_build_filename (dir, file, NULL);
  g_autofree char *data = NULL;
  gsize len = 0;
  g_assert_true (g_file_get_contents (p, &data, &len, NULL));
  for (gsize i = 0; off < 0 && i + n_after <= len; i++)
    if (memcmp (data + i, after, n_after) == 0)
      off = (gssize) (i + n_after);
  g_assert_cmpint (off, >=, 0);
  g_assert_cmpuint ((gsize) off + n, <=, len);
  memcpy (data + off, v, n);
  g_assert_true (g_file_set_contents (p, data, (gssize) len, NULL));
}

static void
test_damaged (void)
{
  /* depths[4] = 0, 0, 0, 65535 of the first queue_sample event of ch0_1:
   * hist's u32 length follows */
  static const guint8 depths[] = { 0, 0, 0, 0, 0, 0, 0xff, 0xff };
  const guint64 content = GUINT64_TO_LE (G_GUINT64_CONSTANT (0xfffffffffffff000));
  const guint32 length = GUINT32_TO_LE (1u << 28);

  if (app == NULL)
    {
      app_test_skip_no_display ();
      return;
    }
  g_autofree char *src = cpel_test_fixture_dir (LTTNG);
  g_autofree char *tmp = g_dir_make_tmp ("cpelview-ctf-damaged-XXXXXX", NULL);
  g_setenv ("CPEL_CTF_SKIP_CHECKS", "1", TRUE);
  g_setenv ("CPEL_CTF_READER_TIMEOUT", "2", TRUE);
  for (guint recipe = 0; recipe < 3; recipe++)
    {
      g_autofree char *name = g_strdup_printf ("trace%u", recipe);
      g_autofree char *dir = g_build_filename (tmp, name, NULL);
      cpel_test_copy_tree (src, dir);
      if (recipe == 0)
        {
          g_autofree char *meta = g_build_filename (dir, "metadata", NULL);
          g_assert_cmpint (truncate (meta, 412), ==, 0);
        }
      else if (recipe == 1)
        poke (dir, "ch0_0", 48, NULL, 0, &content, sizeof content);
      else
        poke (dir, "ch0_1", -1, depths, sizeof depths, &length, sizeof length);

      CpelWindow *window = cpel_window_new (app);
      g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
      gtk_window_present (GTK_WINDOW (window));
      app_test_open_and_wait (window, dir);
      g_assert_nonnull (window);
      g_assert_null (cpel_window_get_file (window));

      /* the error dialog over the window, the reader's end in its detail */
      g_autoptr(GList) tops = gtk_window_list_toplevels ();
      AdwMessageDialog *dialog = NULL;
      for (GList *l = tops; l != NULL; l = l->next)
        if (ADW_IS_MESSAGE_DIALOG (l->data)
            && gtk_window_get_transient_for (l->data) == GTK_WINDOW (window))
          dialog = l->data;
      g_assert_nonnull (dialog);
      GtkWidget *detail = adw_message_dialog_get_extra_child (dialog);
      g_assert_true (GTK_IS_LABEL (detail));
      const char *text = gtk_label_get_text (GTK_LABEL (detail));
      g_test_message ("%s", text);
      g_assert_nonnull (strstr (text, "This CTF trace is damaged (the trace reader stopped: "));
      gtk_window_destroy (GTK_WINDOW (dialog));
      gtk_window_destroy (GTK_WINDOW (window));
      app_test_drain ();
    }
  g_unsetenv ("CPEL_CTF_SKIP_CHECKS");
  g_unsetenv ("CPEL_CTF_READER_TIMEOUT");
  app_test_remove_tree (tmp);
  /* the viewer and its readers stayed under 1 GiB resident (KiB) */
  struct rusage self, children;
  g_assert_cmpint (getrusage (RUSAGE_SELF, &self), ==, 0);
  g_assert_cmpint (getrusage (RUSAGE_CHILDREN, &children), ==, 0);
  g_test_message ("peak resident memory: viewer %ld MiB, readers %ld MiB",
                  self.ru_maxrss >> 10, children.ru_maxrss >> 10);
  g_assert_cmpint (self.ru_maxrss, <, 1 << 20);
  g_assert_cmpint (children.ru_maxrss, <, 1 << 20);
}

int
main (int argc, char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return app_test_run_no_display ("/app/window/ctf-loading");
  app = app_test_new_application ();
  g_test_add ("/app/window/ctf-loading/responsive", Fixture, NULL, fixture_setup, test_responsive, fixture_teardown);
  g_test_add ("/app/window/ctf-loading/cancel", Fixture, NULL, fixture_setup, test_cancel, fixture_teardown);
  g_test_add_func ("/app/window/ctf-loading/damaged", test_damaged);
  return app_test_run (&app);
}
