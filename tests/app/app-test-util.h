/* SPDX-License-Identifier: Apache-2.0 */
/* app-test-util.h — helpers for the viewer's widget tests (run under Xvfb)
 *
 * Files come from tests/render/render-test-util.h (built in memory with the
 * writer).  Real input goes through xdotool (XTEST) to the test's own
 * window, so gestures, scroll controllers and key bindings are exercised
 * as a user would.
 *
 * Tests wait on conditions, never on the clock: a flag a signal raises, a
 * property, the frame clock's after-paint, the events of a round trip to
 * the X server.  Every wait has a generous bound that fails the test.
 */
#pragma once

#include <glib/gstdio.h>
#include <adwaita.h>
#include <gdk/x11/gdkx.h>

#include "cpel-test-util.h"
#include "render-test-util.h"
#include "cpelview-resources.h"
#include "cpel-application.h"
#include "cpel-window.h"

/* gtk + libadwaita, or FALSE (then every test is skipped) without a display. */
/* Removes a test's scratch directory and the files in it. */
static inline void
app_test_remove_dir (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *p = g_build_filename (dir, name, NULL);
      g_unlink (p);
    }
  g_rmdir (dir);
}

/* Removes `dir` and everything under it (a scratch home). */
static inline void
app_test_remove_tree (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *p = g_build_filename (dir, name, NULL);

      if (g_file_test (p, G_FILE_TEST_IS_DIR) && !g_file_test (p, G_FILE_TEST_IS_SYMLINK))
        app_test_remove_tree (p);
      else
        g_unlink (p);
    }
  g_rmdir (dir);
}

/* Destroys every window of the application (dialogs, new windows). */
static inline void
app_test_destroy_windows (GApplication *app)
{
  GList *windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (app)));

  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_destroy (l->data);
  g_list_free (windows);
}

static inline gboolean
app_test_init (int *argc, char ***argv)
{
  g_test_init (argc, argv, NULL);
  /* Any warning from GTK or the app (markup errors, bad sizes...) fails. */
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  (void) cpelview_get_resource ();
  if (!gtk_init_check ())
    return FALSE;
  adw_init ();
  return TRUE;
}

static void
app_test_skip_no_display (void)
{
  g_test_skip ("no display: run under xvfb-run (build-aux/test.sh does)");
}

/* Handle what is ready now (events already received, idles, the results
 * of finished work) without waiting for anything else. */
static inline void
app_test_drain (void)
{
  for (guint i = 0; i < 10000 && g_main_context_iteration (NULL, FALSE); i++)
    ;
}

static inline gboolean
app_test_wakeup (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* Iterate until `expr` holds; fails after `seconds` (a generous bound:
 * the condition ends the wait).  A wakeup now and then re-checks
 * conditions that no event announces (a layout, a thread's flag). */
#define app_test_wait_until(expr, seconds) \
  G_STMT_START { \
    gint64 _end = g_get_monotonic_time () + (seconds) * G_TIME_SPAN_SECOND; \
    guint _wakeup = g_timeout_add (10, app_test_wakeup, NULL); \
    while (!(expr) && g_get_monotonic_time () < _end) \
      g_main_context_iteration (NULL, TRUE); \
    g_source_remove (_wakeup); \
    if (!(expr)) \
      g_error ("%s:%d: still not true after %d s: %s", __FILE__, __LINE__, (int) (seconds), #expr); \
  } G_STMT_END

/* Iterate until *flag or the timeout (ms); returns *flag. */
static inline gboolean
app_test_wait_flag (const gboolean *flag, guint timeout_ms)
{
  gint64 end = g_get_monotonic_time () + timeout_ms * G_TIME_SPAN_MILLISECOND;
  guint wakeup = g_timeout_add (10, app_test_wakeup, NULL);

  while (!*flag && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (wakeup);
  return *flag;
}

/* Iterate until *flag or `timeout_ms`; fails the test on the timeout
 * (a generous bound: the condition, not the time, ends the wait). */
#define app_test_await_flag(flag, timeout_ms) \
  g_assert_true (app_test_wait_flag ((flag), (timeout_ms)))

static inline void
app_test_on_after_paint (GdkFrameClock *clock, guint *count)
{
  (*count)++;
}

/* Let `widget`'s window paint `n` frames (a redraw is queued first), with
 * an overall bound of 10 s that fails the test. */
static inline void
app_test_wait_frames (GtkWidget *widget, guint n)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);
  gint64 end = g_get_monotonic_time () + 10 * G_TIME_SPAN_SECOND;
  guint count = 0;
  gulong id;

  g_assert_nonnull (clock);
  id = g_signal_connect (clock, "after-paint", G_CALLBACK (app_test_on_after_paint), &count);
  while (count < n && g_get_monotonic_time () < end)
    {
      gtk_widget_queue_draw (widget);
      g_main_context_iteration (NULL, TRUE);
    }
  g_signal_handler_disconnect (clock, id);
  g_assert_cmpuint (count, >=, n);
}

/* `widget`'s window has painted a frame (a redraw queued first) and what
 * followed has been handled. */
static inline void
app_test_wait_drawn (GtkWidget *widget)
{
  app_test_wait_frames (widget, 1);
  app_test_drain ();
}

/* Iterate until `widget` has been allocated and drawn at least once. */
static inline void
app_test_wait_allocated (GtkWidget *widget, int min_width)
{
  app_test_wait_until (gtk_widget_get_width (widget) >= min_width, 30);
  app_test_wait_drawn (widget);
}

/* ---- real input through xdotool ---------------------------------------- */

static inline Display *
app_test_xdisplay (void)
{
  return gdk_x11_display_get_xdisplay (gdk_display_get_default ());
}

/* TRUE when real input can be sent: an X11 display and xdotool. */
static inline gboolean
app_test_can_send_input (void)
{
  g_autofree char *xdotool = g_find_program_in_path ("xdotool");

  return xdotool != NULL && GDK_IS_X11_DISPLAY (gdk_display_get_default ());
}

static inline gulong
app_test_xid (GtkWidget *widget)
{
  GtkNative *native = gtk_widget_get_native (widget);

  return gdk_x11_surface_get_xid (gtk_native_get_surface (native));
}

/* Round trips to the X server until one brings nothing to handle: what
 * handling an event sends back to this client (the input method's
 * forwarded keys, a focus change) comes in too. */
static inline void
app_test_round_trips (void)
{
  for (guint round = 0; round < 100; round++)
    {
      guint handled = 0;

      XSync (app_test_xdisplay (), False);
      while (handled < 10000 && g_main_context_iteration (NULL, FALSE))
        handled++;
      if (handled == 0)
        break;
    }
}

/* Let injected input arrive and be handled: a round trip to the X server
 * (it queues the events XTEST made before its reply), the events and what
 * they queued handled, then a frame painted by every shown window. */
static inline void
app_test_settle (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  app_test_round_trips ();
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) w = g_list_model_get_item (toplevels, i);

      if (gtk_widget_get_mapped (w))
        app_test_wait_frames (w, 1);
    }
  app_test_round_trips ();
}

static inline char *
app_test_xdotool (void)
{
  return g_find_program_in_path ("xdotool");
}

/* Real input through xdotool (XTEST) with `args` (NULL-terminated), then
 * the events handled: xdotool's requests are all processed when it exits
 * (XCloseDisplay syncs), and app_test_settle's round trips bring the
 * events they caused. */
static inline void
app_test_xdo (const char *first, ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  int status = 0;
  va_list ap;

  g_ptr_array_add (argv, app_test_xdotool ());
  va_start (ap, first);
  for (const char *a = first; a != NULL; a = va_arg (ap, const char *))
    g_ptr_array_add (argv, g_strdup (a));
  va_end (ap);
  g_ptr_array_add (argv, NULL);

  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT,
                NULL, NULL, NULL, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  app_test_settle ();
}

/* Widget coordinates (x, y) to root coordinates (the window's surface
 * origin comes from the X server). */
static inline void
app_test_to_root (GtkWidget *widget, double x, double y, int *rx, int *ry)
{
  GtkNative *native = gtk_widget_get_native (widget);
  graphene_point_t p;
  double sx, sy;
  Window child;
  int ox = 0, oy = 0;
  GdkSurface *surface = gtk_native_get_surface (native);
  Display *xdisplay = gdk_x11_display_get_xdisplay (gdk_surface_get_display (surface));

  g_assert_true (gtk_widget_compute_point (widget, GTK_WIDGET (native),
                                           &GRAPHENE_POINT_INIT ((float) x, (float) y), &p));
  gtk_native_get_surface_transform (native, &sx, &sy);
  XTranslateCoordinates (xdisplay, gdk_x11_surface_get_xid (surface),
                         DefaultRootWindow (xdisplay), 0, 0, &ox, &oy, &child);
  *rx = ox + (int) (p.x + sx);
  *ry = oy + (int) (p.y + sy);
}

static inline void
app_test_pointer_to (GtkWidget *widget, double x, double y)
{
  int rx, ry;
  g_autofree char *sx = NULL;
  g_autofree char *sy = NULL;

  app_test_to_root (widget, x, y, &rx, &ry);
  sx = g_strdup_printf ("%d", rx);
  sy = g_strdup_printf ("%d", ry);
  app_test_xdo ("mousemove", "--sync", sx, sy, NULL);
}

/* Give the keyboard to `widget`'s window and `widget`. */
static inline void
app_test_focus (GtkWidget *widget)
{
  g_autofree char *xid = g_strdup_printf ("%lu", app_test_xid (widget));

  app_test_xdo ("windowfocus", "--sync", xid, NULL);
  gtk_widget_grab_focus (widget);
  app_test_wait_drawn (widget);
}

/* What the widget shows: its render nodes drawn on an image; NULL while it
 * waits for a redraw. */
static inline cairo_surface_t *
app_test_widget_image (GtkWidget *widget)
{
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GskRenderNode *node;
  cairo_surface_t *surface;
  cairo_t *cr;

  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  if (node == NULL)
    return NULL;   /* nothing drawn yet (a redraw pending) */
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cr = cairo_create (surface);
  gsk_render_node_draw (node, cr);
  cairo_destroy (cr);
  gsk_render_node_unref (node);
  cairo_surface_flush (surface);
  return surface;
}

/* A "notify" handler that raises a flag (for app_test_wait_flag). */
static inline void
app_test_on_notify_flag (GObject *object, GParamSpec *pspec, gboolean *flag)
{
  *flag = TRUE;
}

/* Opens `path` in `window` and waits for the worker to finish loading it. */
/* The visible toplevel titled `title` (the last one listed), or NULL;
 * `count` gets how many there are. */
static inline GtkWindow *
app_test_find_toplevel (const char *title, guint *count)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  GtkWindow *found = NULL;
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) w = g_list_model_get_item (toplevels, i);

      if (g_strcmp0 (gtk_window_get_title (w), title) == 0 && gtk_widget_get_visible (GTK_WIDGET (w)))
        {
          found = w;
          n++;
        }
    }
  if (count != NULL)
    *count = n;
  return found;
}

static inline void
app_test_open_and_wait (CpelWindow *window, const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  gboolean done = FALSE;
  gulong id;

  id = g_signal_connect (window, "notify::loading", G_CALLBACK (app_test_on_notify_flag), &done);
  cpel_window_open (window, file);
  while (cpel_window_is_loading (window))
    {
      done = FALSE;
      g_assert_true (app_test_wait_flag (&done, 60000));
    }
  g_signal_handler_disconnect (window, id);
  if (gtk_widget_get_mapped (GTK_WIDGET (window)))
    app_test_wait_drawn (GTK_WIDGET (window));
  else
    app_test_drain ();
}

/* The application of a test program: its own instance (never forwarded to
 * a running viewer), registered, opening files. */
static inline CpelApplication *
app_test_new_application (void)
{
  CpelApplication *app = cpel_application_new (g_get_monotonic_time ());

  g_application_set_flags (G_APPLICATION (app),
                           G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));
  return app;
}

/* A fixture's end: every window of the test (dialogs and tool windows go
 * with their parents), then its scratch directory. */
static inline void
app_test_fixture_cleanup (CpelApplication *app, char *dir, char *path)
{
  app_test_destroy_windows (G_APPLICATION (app));
  app_test_drain ();
  app_test_remove_dir (dir);
  g_free (dir);
  g_free (path);
}

/* The window's actions are widget actions (win.NAME), outside its own
 * GActionGroup: whether `name` (without "win.") is enabled. */
static inline gboolean
app_test_action_enabled (GtkWidget *window, const char *name)
{
  return g_action_group_get_action_enabled (cpel_window_get_actions (CPEL_WINDOW (window)), name);
}

/* Activate win.`name` (a floating `parameter` is consumed). */
static inline void
app_test_activate_action (GtkWidget *window, const char *name, GVariant *parameter)
{
  g_autofree char *full = g_strconcat ("win.", name, NULL);

  if (parameter != NULL)
    g_variant_ref_sink (parameter);
  g_assert_true (gtk_widget_activate_action_variant (window, full, parameter));
  if (parameter != NULL)
    g_variant_unref (parameter);
}
