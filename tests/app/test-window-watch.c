/* SPDX-License-Identifier: Apache-2.0 */
/* test-window-watch.c — the open file changes on disk: truncated under the view
 * (the mapping shrinks: reads past the new end would raise SIGBUS), rewritten
 * in place, or replaced by rename.  The window survives redraws at several
 * zooms, shows "The file changed on disk" and reloads the same path. */
#include "app-test-util.h"

#include <fcntl.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "cpel-app-util.h"
#include "cpel-application.h"
#include "cpel-window.h"

#define N_TRACKS 4
#define STEP_NS  100

static CpelApplication *app;

typedef AppTestFixture Fixture;

#define SKIP_WITHOUT_DISPLAY() G_STMT_START { if (app == NULL) { app_test_skip_no_display (); return; } } G_STMT_END

/* A capture of `n_events` on N_TRACKS tracks; `code_base` tells files apart.
 * `path` NULL: returned in memory. */
static GBytes *
write_capture (const char *path,
               guint64     n_events,
               guint32     code_base)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelWriter) w = cpel_writer_new (path, FALSE, 1700000000, &error);
  guint table;

  g_assert_no_error (error);
  table = cpel_writer_add_string_table (w, "FileStrtab");
  cpel_writer_begin_event_defs (w, table);
  cpel_writer_add_event_def (w, code_base, "send", "%d");
  cpel_writer_add_event_def (w, code_base + 1, "recv", "len %d");
  cpel_writer_begin_track_defs (w, table);
  for (guint i = 0; i < N_TRACKS; i++)
    cpel_writer_add_track_def (w, i, "thread %d");
  cpel_writer_begin_events (w, table, 1000000000u, n_events);
  for (guint64 i = 0; i < n_events; i++)
    cpel_writer_add_event (w, i * STEP_NS, (guint32) (i % N_TRACKS),
                           code_base + (i % 5 == 0), (guint32) i);
  g_assert_true (cpel_writer_finish (w, &error));
  g_assert_no_error (error);
  return path == NULL ? cpel_writer_steal_bytes (w) : NULL;
}

static AdwWindowTitle *
find_title (GtkWidget *widget)
{
  if (ADW_IS_WINDOW_TITLE (widget))
    return ADW_WINDOW_TITLE (widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      AdwWindowTitle *t = find_title (c);

      if (t != NULL)
        return t;
    }
  return NULL;
}

static const char *
subtitle (CpelWindow *window)
{
  AdwWindowTitle *title = find_title (GTK_WIDGET (window));

  g_assert_nonnull (title);
  return adw_window_title_get_subtitle (title);
}

/* The subtitle names `n` events, as the window formats counts. */
static void
assert_subtitle_count (CpelWindow *window, guint64 n)
{
  g_autofree char *count = cpel_format_count (n);
  g_autofree char *events = g_strdup_printf ("%s events", count);

  g_assert_nonnull (strstr (subtitle (window), events));
}

static void
raise_flag (gboolean *flag)
{
  *flag = TRUE;
}

/* Wait (up to 30 s) for the bar. */
static gboolean
wait_bar (CpelWindow *window)
{
  app_test_wait_until (cpel_window_is_reload_bar_shown (window), 30);
  return TRUE;
}

/* The first widget of `type` under `widget` with a label (when `labelled`). */
static GtkWidget *
find_widget (GtkWidget *widget, GType type, gboolean labelled)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type)
      && (!labelled || gtk_button_get_label (GTK_BUTTON (widget)) != NULL))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, type, labelled);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Press the bar's Reload button (win.reload without the bar); wait for a
 * new file or for the bar's error. */
static void
reload_and_wait (CpelWindow *window)
{
  gboolean replaced = FALSE;
  GtkWidget *bar = find_widget (GTK_WIDGET (window), GTK_TYPE_INFO_BAR, FALSE);
  GtkWidget *button;
  gulong id;

  g_assert_nonnull (bar);
  button = find_widget (bar, GTK_TYPE_BUTTON, TRUE);
  g_assert_nonnull (button);
  id = g_signal_connect (window, "notify::file", G_CALLBACK (app_test_on_notify_flag), &replaced);
  g_assert_true (app_test_action_enabled (GTK_WIDGET (window), "reload"));
  if (cpel_window_is_reload_bar_shown (window))
    {
      g_assert_true (gtk_widget_is_sensitive (button));
      g_signal_emit_by_name (button, "clicked");
    }
  else
    app_test_activate_action (GTK_WIDGET (window), "reload", NULL);
  app_test_wait_until (replaced || g_str_has_prefix (cpel_window_get_reload_message (window), "Could not"), 60);
  g_signal_handler_disconnect (window, id);
  app_test_wait_drawn (GTK_WIDGET (window));
}

/* Draw the view at several zooms, from the whole capture to its end. */
static void
redraw_at_zooms (CpelWindow *window)
{
  CpelTimeline *timeline = cpel_window_get_timeline (window);
  gint64 duration = cpel_file_get_duration (cpel_window_get_file (window));
  const double fractions[] = { 1.0, 0.5, 0.1, 0.01, 0.001 };

  for (guint i = 0; i < G_N_ELEMENTS (fractions); i++)
    {
      gint64 span = MAX (1000, (gint64) (duration * fractions[i]));

      /* The end of the capture: what the truncation took away. */
      cpel_timeline_set_range (timeline, duration - span, duration, FALSE);
      app_test_wait_drawn (GTK_WIDGET (timeline));
      cpel_timeline_zoom (timeline, 2.0, -1);
      app_test_wait_drawn (GTK_WIDGET (timeline));
    }
  cpel_session_fit (cpel_timeline_get_session (timeline));
  app_test_wait_drawn (GTK_WIDGET (timeline));
}

/* Several MB: the truncation takes many pages away from the mapping. */
static void
write_big (const char *path)
{
  write_capture (path, 300000, 100);
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  if (app == NULL)
    return;
  app_test_fixture_setup (f, app, "cpelview-reload", write_big, 1000, 600, TRUE);
  g_assert_false (cpel_window_is_reload_bar_shown (f->window));
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  if (app == NULL)
    return;
  app_test_fixture_teardown (f, app);
}

static void
test_truncate (Fixture *f, gconstpointer data)
{
  CpelFile *before;
  g_autofree char *old_subtitle = NULL;
  g_autoptr(GBytes) shorter = NULL;
  const guint8 *bytes;
  gsize len;
  int fd;
  gint64 t0, t1;
  guint slot;
  guint64 index;

  SKIP_WITHOUT_DISPLAY ();
  before = cpel_window_get_file (f->window);
  old_subtitle = g_strdup (subtitle (f->window));
  assert_subtitle_count (f->window, 300000);

  /* Half the file goes away while the window shows it. */
  g_assert_cmpint (truncate (f->path, (off_t) (cpel_file_get_size (before) / 2)), ==, 0);
  redraw_at_zooms (f->window);

  /* Still here: the reads past the end were repaired, the user is told. */
  g_assert_true (cpel_file_is_damaged (before));
  g_assert_true (wait_bar (f->window));
  g_assert_cmpstr (cpel_window_get_reload_message (f->window), ==, "The file changed on disk");

  /* Half a file does not load: the bar says so, the old view stays. */
  reload_and_wait (f->window);
  g_assert_true (cpel_window_get_file (f->window) == before);
  g_assert_true (cpel_window_is_reload_bar_shown (f->window));
  g_assert_true (g_str_has_prefix (cpel_window_get_reload_message (f->window), "Could not reload the file: "));
  g_assert_cmpstr (subtitle (f->window), ==, old_subtitle);
  redraw_at_zooms (f->window);

  /* Rewritten in place with a shorter valid capture. */
  shorter = write_capture (NULL, 1000, 100);
  bytes = g_bytes_get_data (shorter, &len);
  fd = open (f->path, O_WRONLY | O_TRUNC);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (write (fd, bytes, len), ==, (gssize) len);
  g_assert_cmpint (close (fd), ==, 0);
  wait_bar (f->window);   /* the change seen, past the debounce */

  cpel_timeline_set_range (cpel_window_get_timeline (f->window), 20000, 30000, FALSE);
  cpel_session_select (cpel_timeline_get_session (cpel_window_get_timeline (f->window)),
                       1, 60, FALSE);
  reload_and_wait (f->window);
  g_assert_true (cpel_window_get_file (f->window) != before);
  g_assert_cmpuint (cpel_file_get_n_events (cpel_window_get_file (f->window)), ==, 1000);
  assert_subtitle_count (f->window, 1000);
  g_assert_cmpstr (subtitle (f->window), !=, old_subtitle);
  g_assert_false (cpel_window_is_reload_bar_shown (f->window));
  g_assert_false (cpel_file_is_damaged (cpel_window_get_file (f->window)));

  /* The range and the selection still fit the new capture: kept. */
  cpel_timeline_get_range (cpel_window_get_timeline (f->window), &t0, &t1);
  g_assert_cmpint (t0, ==, 20000);
  g_assert_cmpint (t1, ==, 30000);
  g_assert_true (cpel_session_get_selection (
                   cpel_timeline_get_session (cpel_window_get_timeline (f->window)),
                   &slot, &index));
  g_assert_cmpuint (slot, ==, 1);
  g_assert_cmpuint (index, ==, 60);
  redraw_at_zooms (f->window);
  g_assert_false (cpel_window_is_reload_bar_shown (f->window));
}

static void
test_rename (Fixture *f, gconstpointer data)
{
  g_autofree char *old_subtitle = g_strdup (subtitle (f->window));
  g_autofree char *other = g_build_filename (f->dir, "other.cpel", NULL);
  CpelFile *before = cpel_window_get_file (f->window);
  GtkWindow *old_tracks;
  guint slot;
  guint64 index;

  SKIP_WITHOUT_DISPLAY ();
  /* A different capture replaces the file by rename: the mapping keeps
   * the old inode (no damage), the monitor sees the change. */
  cpel_session_select (cpel_timeline_get_session (cpel_window_get_timeline (f->window)),
                       3, 299000 / N_TRACKS, FALSE);
  write_capture (other, 5000, 200);
  g_assert_cmpint (g_rename (other, f->path), ==, 0);
  g_assert_true (wait_bar (f->window));
  g_assert_cmpstr (cpel_window_get_reload_message (f->window), ==, "The file changed on disk");
  redraw_at_zooms (f->window);
  g_assert_false (cpel_file_is_damaged (before));

  /* An open Tracks window edits the track order of the file shown: after
   * the reload it is a new one, for the new file. */
  app_test_activate_action (GTK_WIDGET (f->window), "tracks", NULL);
  app_test_wait_until (app_test_find_toplevel ("Tracks", NULL) != NULL, 30);
  old_tracks = app_test_find_toplevel ("Tracks", NULL);
  g_assert_nonnull (old_tracks);
  g_object_add_weak_pointer (G_OBJECT (old_tracks), (gpointer *) &old_tracks);

  reload_and_wait (f->window);
  g_assert_cmpuint (cpel_file_get_n_events (cpel_window_get_file (f->window)), ==, 5000);
  {
    guint n_windows;
    GtkWindow *tracks = app_test_find_toplevel ("Tracks", &n_windows);

    g_assert_nonnull (tracks);
    g_assert_cmpuint (n_windows, ==, 1);
    g_assert_true (tracks != old_tracks);
    if (old_tracks != NULL)
      {
        g_assert_false (gtk_widget_get_visible (GTK_WIDGET (old_tracks)));
        g_object_remove_weak_pointer (G_OBJECT (old_tracks), (gpointer *) &old_tracks);
      }
    gtk_window_destroy (tracks);
  }
  assert_subtitle_count (f->window, 5000);
  g_assert_cmpstr (subtitle (f->window), !=, old_subtitle);
  g_assert_false (cpel_window_is_reload_bar_shown (f->window));
  /* The selected event is past the new track's end: not kept. */
  g_assert_false (cpel_session_get_selection (
                    cpel_timeline_get_session (cpel_window_get_timeline (f->window)),
                    &slot, &index));

  /* And the new file is watched in turn. */
  write_capture (other, 700, 300);
  g_assert_cmpint (g_rename (other, f->path), ==, 0);
  g_assert_true (wait_bar (f->window));
  reload_and_wait (f->window);
  g_assert_cmpuint (cpel_file_get_n_events (cpel_window_get_file (f->window)), ==, 700);

  /* Reloading at once, before the change's events came in: the window
   * shows the new file and no bar follows for that change. */
  {
    /* The test's own monitor of the path sees the rename's events when the
     * window's does (one inotify reader serves both). */
    g_autoptr(GFile) path = g_file_new_for_path (f->path);
    g_autoptr(GFileMonitor) monitor = g_file_monitor_file (path, G_FILE_MONITOR_WATCH_MOVES, NULL, NULL);
    gboolean seen = FALSE;

    g_assert_nonnull (monitor);
    g_signal_connect_swapped (monitor, "changed", G_CALLBACK (raise_flag), &seen);
    write_capture (other, 900, 400);
    g_assert_cmpint (g_rename (other, f->path), ==, 0);
    reload_and_wait (f->window);
    g_assert_cmpuint (cpel_file_get_n_events (cpel_window_get_file (f->window)), ==, 900);
    app_test_wait_until (seen, 30);
    app_test_drain ();
    app_test_wait_until (!cpel_window_is_watch_pending (f->window), 30);
    app_test_drain ();
    g_assert_false (cpel_window_is_reload_bar_shown (f->window));
    g_file_monitor_cancel (monitor);
  }
}

int
main (int argc, char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return app_test_run_no_display ("/app/window/reload");

  app = app_test_new_application ();

  g_test_add ("/app/window/reload/truncate", Fixture, NULL, fixture_setup, test_truncate, fixture_teardown);
  g_test_add ("/app/window/reload/rename", Fixture, NULL, fixture_setup, test_rename, fixture_teardown);
  return app_test_run (&app);
}
