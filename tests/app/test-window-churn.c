/* SPDX-License-Identifier: Apache-2.0 */
/* test-window-churn.c — the viewer survives a capture that changes on disk
 * while it is loaded and drawn
 *
 * For each format (a generated CPEL file; the recorded VPP elog, Snabb
 * timeline, perf.data and LTTng CTF trace of tests/fixtures) a new window
 * opens a copy, RUNS times, while a thread (tests/churn-mutator.h) overwrites
 * it in place, cuts and restores it, copies another capture over it: on
 * even runs from before the open until the window has loaded and drawn, on
 * odd runs from the end of the load over the next frames (the timeline
 * reading a mapping that changes, the file monitor firing).  After each
 * run the window is there, not loading, and shows the capture or an error
 * (a message dialog over it).
 * RUNS is 15, a window each (80 s for the six cases on a loaded 2-core
 * machine; $CPEL_CHURN_RUNS=50 is the longer run, held too).  Waits are on conditions
 * (the loading property, frames drawn, the mutator's steps).
 */
#include "app-test-util.h"
#include "churn-mutator.h"
#include "config.h"
#include "cpel-gen.h"

static CpelApplication *app;

typedef struct
{
  const char *name;
  const char *file;       /* under the fixtures, or NULL: generated */
  const char *other;      /* under the fixtures, or NULL: the file itself */
  const char *trace;      /* CTF: the folder opened, `file` the stream changed */
} Format;

static const Format formats[] = {
  { "cpel", NULL, NULL, NULL },
  { "elog", "vpp-sample.elog", "vpp-elog/ring256-wrapped.elog", NULL },
  { "snabb", "snabb-timeline/engine-pipeline.timeline", "snabb-timeline/ring64-wrapped.timeline",
    NULL },
#if HAVE_PERF
  { "perf", "perf/sched-wakeup.perf.data", "perf/gzip-callgraph.perf.data", NULL },
#endif
#if HAVE_CTF
  { "ctf", "ctf/lttng-ust-2.13-pid/ust/pid/fixture_app-20993-20261126-091809/ch0_1",
    NULL, "ctf/lttng-ust-2.13-pid/ust/pid/fixture_app-20993-20261126-091809" },
  /* the same trace, its metadata changed */
  { "ctf-metadata", "ctf/lttng-ust-2.13-pid/ust/pid/fixture_app-20993-20261126-091809/metadata",
    NULL, "ctf/lttng-ust-2.13-pid/ust/pid/fixture_app-20993-20261126-091809" },
#endif
};

static guint
n_runs (void)
{
  const char *env = g_getenv ("CPEL_CHURN_RUNS");
  guint64 n = env != NULL ? g_ascii_strtoull (env, NULL, 10) : 0;
  return n > 0 && n < 100000 ? (guint) n : 15;
}

/* The message dialog over `window` (a load's error), or NULL. */
static GtkWindow *
error_dialog (CpelWindow *window)
{
  g_autoptr(GList) tops = gtk_window_list_toplevels ();
  for (GList *l = tops; l != NULL; l = l->next)
    if (ADW_IS_MESSAGE_DIALOG (l->data)
        && gtk_window_get_transient_for (l->data) == GTK_WINDOW (window))
      return l->data;
  return NULL;
}

static void
test_churn (gconstpointer data)
{
  const Format *f = data;
  g_autofree char *tmp = NULL, *gen_path = NULL, *gen_other = NULL, *open_path = NULL;
  Mutator m;
  guint runs = n_runs (), shown = 0, errors = 0;

  if (app == NULL)
    {
      app_test_skip_no_display ();
      return;
    }
  tmp = g_dir_make_tmp ("cpelview-churn-XXXXXX", NULL);
  g_assert_nonnull (tmp);
  if (f->file == NULL)
    {
      g_autoptr(GError) error = NULL;
      CpelGenOptions big = { 20000, 8, 1, FALSE, FALSE, FALSE, FALSE };
      CpelGenOptions small = { 5000, 3, 2, FALSE, FALSE, FALSE, FALSE };
      gen_path = g_build_filename (tmp, "churn.cpel", NULL);
      gen_other = g_build_filename (tmp, "other.cpel", NULL);
      g_assert_true (cpel_gen_write (gen_path, &big, &error));
      g_assert_true (cpel_gen_write (gen_other, &small, &error));
      g_assert_no_error (error);
    }
  open_path = mutator_init (&m, tmp, f->file, f->other, f->trace, gen_path, gen_other);

  g_autoptr(GFile) location = g_file_new_for_path (open_path);
  for (guint i = 0; i < runs; i++)
    {
      gboolean early = i % 2 == 0, done = FALSE;
      /* a window of its own: a window showing a capture opens another in a
       * new one */
      CpelWindow *window = cpel_window_new (app);
      g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
      gtk_window_set_default_size (GTK_WINDOW (window), 900, 500);
      gtk_window_present (GTK_WINDOW (window));
      app_test_wait_drawn (GTK_WIDGET (window));

      GThread *thread = mutator_start (&m, early);
      gulong id = g_signal_connect (window, "notify::loading",
                                    G_CALLBACK (app_test_on_notify_flag), &done);
      cpel_window_open (window, location, 0);
      while (cpel_window_is_loading (window))
        {
          done = FALSE;
          g_assert_true (app_test_wait_flag (&done, 120000));
        }
      g_signal_handler_disconnect (window, id);
      if (!early)
        {
          mutator_go (&m);
          mutator_wait_step (&m);
        }
      /* frames drawn while the file changes */
      app_test_wait_frames (GTK_WIDGET (window), 3);
      mutator_stop (&m, thread);

      /* alive, idle, and showing the capture or why not (a message dialog
       * over the window) */
      g_assert_nonnull (window);
      g_assert_false (cpel_window_is_loading (window));
      GtkWindow *dialog = error_dialog (window);
      if (cpel_window_get_file (window) != NULL)
        shown++;
      else
        {
          g_assert_nonnull (dialog);
          errors++;
        }
      if (dialog != NULL)
        gtk_window_destroy (dialog);
      gtk_window_destroy (GTK_WINDOW (window));
      app_test_drain ();
      g_assert_null (window);
    }
  g_test_message ("%s: %u opens, %u changes to the file; the capture shown after %u, "
                  "an error after %u", f->name, runs, m.steps, shown, errors);
  g_assert_cmpuint (m.steps, >=, runs);

  /* the file restored: it opens */
  CpelWindow *window = cpel_window_new (app);
  gtk_window_present (GTK_WINDOW (window));
  app_test_open_and_wait (window, open_path);
  g_assert_nonnull (cpel_window_get_file (window));
  gtk_window_destroy (GTK_WINDOW (window));
  app_test_drain ();

  mutator_clear (&m);
  app_test_remove_tree (tmp);
}

int
main (int argc, char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return app_test_run_no_display ("/app/window/churn");
  app = app_test_new_application ();
  /* libbabeltrace2 loops on some changed metadata: stopped sooner */
  g_setenv ("CPEL_CTF_READER_TIMEOUT", "2", TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_autofree char *p = g_strdup_printf ("/app/window/churn/%s", formats[i].name);
      g_test_add_data_func (p, &formats[i], test_churn);
    }
  return app_test_run (&app);
}
