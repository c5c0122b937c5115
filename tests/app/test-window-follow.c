/* SPDX-License-Identifier: Apache-2.0 */
/* test-window-follow.c — `cpelview --follow`: a Snabb ring written by a
 * thread (tests/snabb-ring-writer.h) while the window follows it.  Every
 * entry shown once, in order; a pan or a zoom stops following, win.follow
 * brings it back; Pause keeps what was seen, a lap is "lost at least N";
 * Save As writes a CPEL file that `cpel dump` reads with every event.
 * Waits are on the window's file (notify::file) and counts, never on time.
 */
#include "app-test-util.h"

#include <unistd.h>

#include <glib/gstdio.h>

#include "cpel-count.h"
#include "cpel-loader.h"
#include "cpel-search-bar.h"
#include "cpel-session.h"
#include "cpel-timeline.h"
#include "snabb-ring-writer.h"
#if HAVE_PERF
#include "cpel-perf-pipe-writer.h"
#include "cpel-test-util.h"
#endif

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
  /* nothing followed yet: no Save Capture As…, no Follow (the menu hides
   * the first while it is disabled) */
  g_assert_false (cpel_window_get_action_enabled (window, "save-capture"));
  g_assert_false (cpel_window_get_action_enabled (window, "follow"));
  g_assert_false (cpel_window_get_action_enabled (window, "follow-pause"));
  g_assert_true (cpel_window_follow (window, path, 0, &error));
  g_assert_no_error (error);
  g_assert_true (cpel_window_is_live (window));
  g_assert_true (cpel_window_get_following (window));
  g_assert_true (cpel_window_get_action_enabled (window, "save-capture"));
  g_assert_true (cpel_window_get_action_enabled (window, "follow-pause"));

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

/* An open search follows the capture: each newer capture is searched
 * again, and the match stepped to keeps its place ("2 of 50" becomes "2 of
 * 100" once the writer has written as much again). */
static void
test_follow_search (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  SnabbRing *ring;
  CpelWindow *window;
  CpelSearchBar *bar;

  SKIP_WITHOUT_DISPLAY ();
  dir = g_dir_make_tmp ("cpel-follow-app-XXXXXX", NULL);
  path = g_build_filename (dir, "events.timeline", NULL);
  ring = snabb_ring_create (path, 4096);

  window = cpel_window_new (app);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (cpel_window_follow (window, path, 0, &error));
  snabb_ring_write (ring, 100);
  app_test_wait_until (shown_events (window) == 100, 60);

  /* the odd entries: 50 matches; two steps */
  bar = cpel_window_get_search_bar (window);
  cpel_search_bar_set_search_mode (bar, TRUE);
  cpel_search_bar_search (bar, CPEL_SEARCH_TEXT, "test.odd", FALSE);
  app_test_wait_until (!cpel_search_bar_is_running (bar)
                       && g_strcmp0 (cpel_search_bar_get_status (bar), "50 matches") == 0, 60);
  cpel_search_bar_step (bar, 1);
  cpel_search_bar_step (bar, 1);
  g_assert_cmpstr (cpel_search_bar_get_status (bar), ==, "2 of 50");

  /* as much again: searched again, still the second match */
  snabb_ring_write (ring, 100);
  app_test_wait_until (shown_events (window) == 200, 60);
  app_test_wait_until (!cpel_search_bar_is_running (bar)
                       && g_str_has_suffix (cpel_search_bar_get_status (bar), "of 100"), 60);
  g_assert_cmpstr (cpel_search_bar_get_status (bar), ==, "2 of 100");
  cpel_search_bar_step (bar, 1);
  g_assert_cmpstr (cpel_search_bar_get_status (bar), ==, "3 of 100");

  gtk_window_destroy (GTK_WINDOW (window));
  snabb_ring_free (ring);
  app_test_remove_dir (dir);
}

#if HAVE_PERF
typedef struct
{
  int           fd;
  const guint8 *data;
  gsize         len;
} PipeWriter;

/* perf record -o - as it writes: the stream in pieces, then its end. */
static gpointer
pipe_thread (gpointer data)
{
  PipeWriter *w = data;

  for (gsize pos = 0; pos < w->len; pos += 4096)
    {
      gsize n = MIN (4096, w->len - pos);

      g_assert_cmpint (write (w->fd, w->data + pos, n), ==, (gssize) n);
    }
  close (w->fd);
  return NULL;
}

/* `perf record -o - … | cpelview --follow -`: the sched-wakeup fixture as
 * a pipe-mode stream on standard input with a LOST record after its first
 * sample: every sample shown, on CPU tracks; perf's count of what it lost
 * said as it is (not "at least") and a gap drawn; the title says
 * "Standard Input"; the end of the stream is the writer's exit. */
static void
test_follow_perf_stdin (void)
{
  g_autofree char *fixture = cpel_test_fixture_file ("perf/sched-wakeup.perf.data");
  g_autofree char *data = NULL;
  g_autoptr(GBytes) file = NULL;
  g_autoptr(GBytes) pipe_bytes = NULL;
  g_autoptr(GByteArray) stream = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  PipeWriter w;
  GThread *thread;
  CpelWindow *window;
  const guint8 *p;
  gsize len, pos;
  int fds[2], saved_stdin;
  guint64 id = 0, lost = 9;

  SKIP_WITHOUT_DISPLAY ();
  g_assert_true (g_file_get_contents (fixture, &data, &len, NULL));
  file = g_bytes_new_take (g_steal_pointer (&data), len);
  pipe_bytes = cpel_test_perf_to_pipe (file, NULL);
  p = g_bytes_get_data (pipe_bytes, &len);
  /* the records up to the first sample's end (HEADER_TRACING_DATA, 66,
   * is followed by its text) */
  pos = 16;
  while (TRUE)
    {
      guint32 type, extra = 0;
      guint16 size;

      g_assert_cmpuint (pos + 12, <=, len);
      memcpy (&type, p + pos, 4);
      memcpy (&size, p + pos + 6, 2);
      if (type == 66)
        memcpy (&extra, p + pos + 8, 4);
      g_assert_cmpuint (size, >=, 8);
      pos += size + extra;
      if (type == 9)
        break;
    }
  g_byte_array_append (stream, p, (guint) pos);
  cpel_test_pipe_hdr (stream, 2, 0, 24);
  g_byte_array_append (stream, (const guint8 *) &id, 8);
  g_byte_array_append (stream, (const guint8 *) &lost, 8);
  g_byte_array_append (stream, p + pos, (guint) (len - pos));

  g_assert_cmpint (pipe (fds), ==, 0);
  saved_stdin = dup (STDIN_FILENO);
  g_assert_cmpint (dup2 (fds[0], STDIN_FILENO), ==, STDIN_FILENO);
  close (fds[0]);

  window = cpel_window_new (app);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (cpel_window_follow (window, "-", 0, &error));
  g_assert_no_error (error);
  w = (PipeWriter) { fds[1], stream->data, stream->len };
  thread = g_thread_new ("perf-writer", pipe_thread, &w);
  app_test_wait_until (strstr (cpel_window_get_follow_text (window), "exited") != NULL, 60);
  g_thread_join (thread);
  app_test_wait_until (shown_events (window) == 147, 60);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "Standard Input");
  g_assert_cmpuint (cpel_file_get_n_tracks (cpel_window_get_file (window)), >=, 1);
  for (guint i = 0; i < cpel_file_get_n_tracks (cpel_window_get_file (window)); i++)
    g_assert_true (g_str_has_prefix (cpel_file_get_track_label (cpel_window_get_file (window),
                                                                i), "CPU "));
  g_assert_nonnull (strstr (cpel_window_get_follow_text (window), "lost 9 events"));
  g_assert_null (strstr (cpel_window_get_follow_text (window), "at least"));
  app_test_wait_until (cpel_timeline_get_n_gaps (cpel_window_get_timeline (window)) == 1, 60);

  gtk_window_destroy (GTK_WINDOW (window));
  app_test_drain ();
  g_assert_cmpint (dup2 (saved_stdin, STDIN_FILENO), ==, STDIN_FILENO);
  close (saved_stdin);
}
#endif

int
main (int argc, char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return app_test_run_no_display ("/app/window/follow");

  app = app_test_new_application ();
  g_test_add_func ("/app/window/follow/ring", test_follow_ring);
  g_test_add_func ("/app/window/follow/lapped", test_follow_lapped);
  g_test_add_func ("/app/window/follow/search", test_follow_search);
#if HAVE_PERF
  g_test_add_func ("/app/window/follow/perf-stdin", test_follow_perf_stdin);
#endif
  return app_test_run (&app);
}
