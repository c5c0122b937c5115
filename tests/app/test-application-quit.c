/* SPDX-License-Identifier: Apache-2.0 */
/* test-application-quit.c — quitting while the index cache is written
 *
 * app.quit (Ctrl+Q, and the end of `cpelview --benchmark`) waits for the
 * index cache being written, with a note in the window meanwhile, so that
 * the next open of the same capture starts warm: after the application
 * has run and quit, the cache is complete and no temporary file is left —
 * the index's and the derived spans' (cpel-span-cache.c).
 */
#include "app-test-util.h"

#include <glib/gstdio.h>

#include "cpel-async.h"
#include "cpel-gen.h"
#include "cpel-index-cache-private.h"
#include "cpel-loader.h"
#include "cpel-span-cache-private.h"
#include "cpel-spans-private.h"
#include "cpel-timeline.h"
#include "cpel-toaster.h"

static CpelApplication *app;
static char *cache_home;

typedef struct
{
  CpelWindow *window;
  gboolean    quit_called;
  guint       stores_at_quit;
  char       *note;
} QuitRun;

static gboolean
quit_soon (gpointer data)
{
  QuitRun *run = data;

  g_action_group_activate_action (G_ACTION_GROUP (app), "quit", NULL);
  run->quit_called = TRUE;
  run->stores_at_quit = cpel_index_stores_in_progress ();
  /* the window that stays says why */
  if (gtk_application_get_windows (GTK_APPLICATION (app)) != NULL)
    {
      GtkWindow *window = gtk_application_get_windows (GTK_APPLICATION (app))->data;

      if (CPEL_IS_WINDOW (window))
        run->note = g_strdup (cpel_toaster_get_text (
                                cpel_window_get_toaster (CPEL_WINDOW (window))));
    }
  return G_SOURCE_REMOVE;
}

static void
on_activate (GApplication *application,
             QuitRun      *run)
{
  g_idle_add (quit_soon, run);
}

static void
test_quit_waits (void)
{
  CpelGenOptions options = { .n_events = CPEL_INDEX_CACHE_DEFAULT_MIN_EVENTS * 2, .n_tracks = 8,
                             .seed = 5, .overwrite = TRUE };
  CpelLoadOptions cached = { .use_cache = TRUE };
  g_autofree char *dir = g_dir_make_tmp ("cpelview-quit-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "big.cpel", NULL);
  g_autofree char *cache_dir = cpel_index_cache_get_default_dir ();
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelFile) again = NULL;
  CpelSpanRules *rules = NULL;
  CpelSpans *spans = NULL;
  QuitRun run = { 0 };
  gulong id;

  g_assert_true (g_str_has_prefix (cache_dir, cache_home));
  g_assert_true (cpel_gen_write (path, &options, &error));
  g_assert_no_error (error);
  /* shown by the run (activate presents it); its index is built in memory,
   * to be written after its first frame, or at quit */
  run.window = cpel_window_new (app);
  app_test_open_and_wait (run.window, path);
  g_assert_true (cpel_file_index_store_is_pending (cpel_window_get_file (run.window)));
  g_assert_cmpuint (cpel_test_count_suffix (cache_dir, CPEL_INDEX_CACHE_SUFFIX), ==, 0);
  /* its spans derived: their store starts then, in a thread of its own */
  app_test_wait_spans (cpel_timeline_get_session (cpel_window_get_timeline (run.window)));
  rules = cpel_span_rules_ref (cpel_session_get_span_rules (
            cpel_timeline_get_session (cpel_window_get_timeline (run.window))));

  id = g_signal_connect (app, "activate", G_CALLBACK (on_activate), &run);
  g_application_run (G_APPLICATION (app), 0, NULL);
  g_signal_handler_disconnect (app, id);

  g_assert_true (run.quit_called);
  /* a store was under way when quit was asked, and quit waited for it */
  g_assert_cmpuint (run.stores_at_quit, >, 0);
  g_assert_cmpstr (run.note, ==, "Quitting once the index cache is written…");
  g_assert_cmpuint (cpel_index_stores_in_progress (), ==, 0);
  g_assert_null (gtk_application_get_windows (GTK_APPLICATION (app)));
  g_assert_cmpuint (cpel_test_count_suffix (cache_dir, CPEL_INDEX_CACHE_SUFFIX), ==, 1);
  g_assert_cmpuint (cpel_test_count_suffix (cache_dir, CPEL_INDEX_CACHE_TMP_SUFFIX), ==, 0);
  g_assert_cmpuint (cpel_test_count_suffix (cache_dir, CPEL_SPAN_CACHE_SUFFIX), ==, 1);
  g_assert_cmpuint (cpel_spans_stores_in_progress (), ==, 0);

  /* complete: the next open reads it, and it checks out in full */
  again = cpel_file_new_for_path (path, &cached, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (cpel_file_get_cache_load (again), ==, CPEL_INDEX_CACHE_USED);
  g_assert_true (cpel_file_verify_index (again, NULL));
  /* and its spans from their cache */
  spans = cpel_spans_derive (again, rules, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (cpel_spans_is_from_cache (spans));
  g_clear_pointer (&spans, cpel_spans_free);
  g_clear_pointer (&rules, cpel_span_rules_unref);
  g_clear_object (&again);
  g_free (run.note);
  app_test_remove_tree (dir);
}

int
main (int argc, char *argv[])
{
  gboolean display;
  int status;

  /* a cache dir of the test's own (read once, before GLib caches it) */
  cache_home = g_dir_make_tmp ("cpelview-quit-cache-XXXXXX", NULL);
  g_setenv ("XDG_CACHE_HOME", cache_home, TRUE);
  display = app_test_init (&argc, &argv);
  if (!display)
    return app_test_run_no_display ("/app/application");

  app = app_test_new_application ();
  g_test_add_func ("/app/application/quit-waits-for-index-cache", test_quit_waits);
  status = app_test_run (&app);
  app_test_remove_tree (cache_home);
  g_free (cache_home);
  return status;
}
