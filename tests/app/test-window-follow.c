/* SPDX-License-Identifier: Apache-2.0 */
/* test-window-follow.c — `cpelview --follow`: a Snabb ring written by a
 * thread (tests/snabb-ring-writer.h) while the window follows it.  Every
 * entry shown once, in order; a pan or a zoom stops following, win.follow
 * brings it back; Pause keeps what was seen, a lap is "lost at least N";
 * Save As writes a CPEL file that `cpel dump` reads with every event.
 * Waits are on the window's file (notify::file) and counts, never on time.
 */
#include "app-test-util.h"

#include <glib/gstdio.h>

#include "cpel-count.h"
#include "cpel-loader.h"
#include "cpel-session.h"
#include "cpel-timeline.h"
#include "snabb-ring-writer.h"

static CpelApplication *app;

#define SKIP_WITHOUT_DISPLAY() \
  G_STMT_START { if (app == NULL) { app_test_skip_no_display (); return; } } G_STMT_END

typedef struct
{
  SnabbRing *ring;
  guint64    n;
  guint64    chunk;
} Writer;

/* The writer, as a running Snabb: n entries in chunks, as fast as it can. */
static gpointer
write_thread (gpointer data)
{
  Writer *w = data;

  for (guint64 done = 0; done < w->n; done += w->chunk)
    snabb_ring_write (w->ring, MIN (w->chunk, w->n - done));
  return NULL;
}

static guint64
shown_events (CpelWindow *window)
{
  CpelFile *file = cpel_window_get_file (window);

  return file != NULL ? cpel_file_get_n_events (file) : 0;
}

/* Every event, each track's data in steps of 2 (the writer alternates two
 * messages, argument 0 its sequence number). */
static void
assert_in_order (CpelFile *file,
                 guint64   n)
{
  guint64 total = 0;

  g_assert_cmpuint (cpel_file_get_n_events (file), ==, n);
  for (guint slot = 0; slot < cpel_file_get_n_tracks (file); slot++)
    {
      guint64 m = cpel_file_get_track_n_events (file, slot);

      for (guint64 i = 1; i < m; i++)
        g_assert_cmpuint (cpel_file_get_track_event_datum (file, slot, i), ==,
                          cpel_file_get_track_event_datum (file, slot, i - 1) + 2);
      total += m;
    }
  g_assert_cmpuint (total, ==, n);
}

/* The newest event is in the visible range. */
static gboolean
newest_in_sight (CpelWindow *window)
{
  CpelSession *session = cpel_timeline_get_session (cpel_window_get_timeline (window));
  const CpelRange *r = cpel_session_get_range (session);
  gint64 dur = cpel_file_get_duration (cpel_window_get_file (window));

  return r->t0 <= dur && dur < r->t1;
}

/* `cpel dump` of path: its lines. */
static guint64
dump_lines (const char *path)
{
  const char *cli = g_getenv ("CPEL_CLI");
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0;
  guint64 n = 0;
  const char *argv[] = { cli, "dump", path, NULL };

  g_assert_nonnull (cli);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                               &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  for (const char *p = out; *p; p++)
    n += *p == '\n';
  return n;
}

static void
test_follow_ring (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *saved = NULL;
  g_autoptr(GError) error = NULL;
  Writer w = { NULL, 200000, 5000 };
  GThread *thread;
  CpelWindow *window;
  const guint64 more = 3000;
  gint64 t_write;

  SKIP_WITHOUT_DISPLAY ();
  dir = g_dir_make_tmp ("cpel-follow-app-XXXXXX", NULL);
  path = g_build_filename (dir, "events.timeline", NULL);
  saved = g_build_filename (dir, "saved.cpel", NULL);
  /* room for every entry: the ring is never lapped here */
  w.ring = snabb_ring_create (path, 262144);

  window = cpel_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 600);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (cpel_window_follow (window, path, 0, &error));
  g_assert_no_error (error);
  g_assert_true (cpel_window_is_live (window));
  g_assert_true (cpel_window_get_following (window));
  g_assert_true (cpel_window_get_action_enabled (window, "save-capture"));

  thread = g_thread_new ("ring-writer", write_thread, &w);
  app_test_wait_until (shown_events (window) == w.n, 60);
  g_thread_join (thread);
  assert_in_order (cpel_window_get_file (window), w.n);
  g_assert_cmpuint (cpel_timeline_get_n_gaps (cpel_window_get_timeline (window)), ==, 0);
  g_assert_true (cpel_window_get_following (window));
  g_assert_true (newest_in_sight (window));
  {
    g_autofree char *count = cpel_format_count (w.n);

    g_assert_nonnull (strstr (cpel_window_get_follow_text (window), count));
  }

  /* a zoom: following stops, and new events leave the range alone */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.zoom-in", NULL);
  g_assert_false (cpel_window_get_following (window));
  /* a pan after following again: the same */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.follow", NULL);
  g_assert_true (cpel_window_get_following (window));
  g_assert_true (newest_in_sight (window));
  gtk_widget_activate_action (GTK_WIDGET (cpel_window_get_timeline (window)),
                              "timeline.pan-left", NULL);
  g_assert_false (cpel_window_get_following (window));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.follow", NULL);
  g_assert_true (cpel_window_get_following (window));

  /* more events: still followed, the newest in sight */
  t_write = g_get_monotonic_time ();
  snabb_ring_write (w.ring, more);
  app_test_wait_until (shown_events (window) == w.n + more, 60);
  app_test_wait_drawn (GTK_WIDGET (window));
  /* a figure, not a check: from the write to a frame that shows it */
  g_test_message ("write to screen: %.0f ms (%" G_GUINT64_FORMAT " events kept)",
                  (g_get_monotonic_time () - t_write) / 1e3, w.n + more);
  assert_in_order (cpel_window_get_file (window), w.n + more);
  g_assert_true (cpel_window_get_following (window));
  g_assert_true (newest_in_sight (window));

  /* the writer exits; Save As keeps what was seen */
  snabb_ring_free (w.ring);
  g_unlink (path);
  app_test_wait_until (strstr (cpel_window_get_follow_text (window), "exited") != NULL, 60);
  g_assert_true (cpel_window_save_capture (window, saved, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (dump_lines (saved), ==, w.n + more);
  {
    g_autoptr(CpelFile) reopened = cpel_file_new_for_path (saved, NULL, NULL, NULL, NULL, &error);

    g_assert_no_error (error);
    assert_in_order (reopened, w.n + more);
  }

  gtk_window_destroy (GTK_WINDOW (window));
  app_test_remove_dir (dir);
}

static void
test_follow_lapped (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  SnabbRing *ring;
  CpelWindow *window;
  guint64 kept;

  SKIP_WITHOUT_DISPLAY ();
  dir = g_dir_make_tmp ("cpel-follow-app-XXXXXX", NULL);
  path = g_build_filename (dir, "events.timeline", NULL);
  ring = snabb_ring_create (path, 256);

  window = cpel_window_new (app);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (cpel_window_follow (window, path, 0, &error));
  snabb_ring_write (ring, 100);
  app_test_wait_until (shown_events (window) == 100, 60);

  /* paused: nothing read, everything seen kept */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.follow-pause", NULL);
  app_test_wait_until (strstr (cpel_window_get_follow_text (window), "Paused") != NULL, 60);
  snabb_ring_write (ring, 1000);
  app_test_drain ();
  g_assert_cmpuint (shown_events (window), ==, 100);

  /* resumed: the lap is a gap, "at least" */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.follow-pause", NULL);
  app_test_wait_until (strstr (cpel_window_get_follow_text (window), "lost at least") != NULL,
                       60);
  app_test_wait_until (shown_events (window) > 100, 60);
  kept = shown_events (window);
  g_assert_cmpuint (kept, <, 1100);
  /* and a gap on the timeline */
  app_test_wait_until (cpel_timeline_get_n_gaps (cpel_window_get_timeline (window)) == 1, 60);

  gtk_window_destroy (GTK_WINDOW (window));
  snabb_ring_free (ring);
  app_test_remove_dir (dir);
}

int
main (int argc, char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return app_test_run_no_display ("/app/window/follow");

  app = app_test_new_application ();
  g_test_add_func ("/app/window/follow/ring", test_follow_ring);
  g_test_add_func ("/app/window/follow/lapped", test_follow_lapped);
  return app_test_run (&app);
}
