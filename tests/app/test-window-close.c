/* SPDX-License-Identifier: Apache-2.0 */
/* test-window-close.c — a window closed right after a drag on it
 *
 * A quick drag on the Save View dialog (the whole dialog is a window
 * handle) makes GTK ask the window manager to move it; the dialog is then
 * closed before the pointer moves again.  Under a window manager (the
 * tests run under openbox: build-aux/with-wm.sh) the window manager moves
 * windows, so the dialog is destroyed at once and the next pointer motion
 * moves nothing that is gone.  (Without one, GDK 4.8 moves the window
 * itself, with a pointer grab that outlives the button, and the next
 * motion makes it move a destroyed X window: BadWindow, the process
 * exits — so this test needs the window manager.)  Real input through
 * XTEST on the test's own display connection: press, motion and release
 * reach GDK in one batch, as from a quick hand.
 */
#include "app-test-util.h"

#include <X11/extensions/XTest.h>

#include <gdk/x11/gdkx.h>

static CpelApplication *app;

typedef AppTestFixture Fixture;

static void
capture_event (guint64 i, TestEvent *ev, gpointer data)
{
  ev->t = i * 100;
  ev->track = (guint32) (i % 3);
  ev->code = i % 7 == 0 ? CODE_RECV : CODE_SEND;
  ev->datum = (guint32) i;
}

static void
write_capture (const char *path)
{
  test_write_capture (path, 3, 3000, capture_event, NULL);
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  if (app == NULL)
    return;
  app_test_fixture_setup (f, app, "cpelview-window-close", write_capture, 1000, 640, TRUE);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  if (app == NULL)
    return;
  app_test_fixture_teardown (f, app);
}

/* A window manager has taken the screen (EWMH). */
static gboolean
have_window_manager (void)
{
  GdkDisplay *display = gdk_display_get_default ();

  return GDK_IS_X11_DISPLAY (display)
         && gdk_x11_screen_supports_net_wm_hint (gdk_x11_display_get_screen (display),
                                                 "_NET_WM_MOVERESIZE");
}

static gboolean
pointer_button_down (void)
{
  Window root, child;
  int rx, ry, wx, wy;
  unsigned int mask = 0;

  XQueryPointer (app_test_xdisplay (), DefaultRootWindow (app_test_xdisplay ()), &root, &child, &rx, &ry, &wx, &wy, &mask);
  return (mask & (Button1Mask | Button2Mask | Button3Mask)) != 0;
}

/* The Save View dialog of `window`, shown and drawn. */
static GtkWindow *
open_save_view (CpelWindow *window)
{
  GtkWindow *dialog = NULL;

  app_test_activate_action (GTK_WIDGET (window), "save-view", NULL);
  app_test_wait_until ((dialog = app_test_find_toplevel ("Save View", NULL)) != NULL
                       && gtk_widget_get_mapped (GTK_WIDGET (dialog)), 20);
  app_test_wait_drawn (GTK_WIDGET (dialog));
  return dialog;
}

/* A quick drag with button 1 on the dialog's heading (the whole dialog
 * is a window handle): the press handled, then the motion and the
 * release sent together.  TRUE when no button is down afterwards: the
 * window manager's move grabs the pointer and may hold its events until
 * it has run, so on a busy machine the release reaches the server's
 * button state later — waited for (a minute at most). */
static gboolean
flick (GtkWindow *dialog, int dx)
{
  int x, y;

  app_test_to_root (GTK_WIDGET (dialog), gtk_widget_get_width (GTK_WIDGET (dialog)) / 2.0, 24, &x, &y);
  XTestFakeMotionEvent (app_test_xdisplay (), -1, x, y, CurrentTime);
  app_test_settle ();
  XTestFakeButtonEvent (app_test_xdisplay (), 1, True, CurrentTime);
  app_test_settle ();
  XTestFakeMotionEvent (app_test_xdisplay (), -1, x + dx, y + dx / 4, CurrentTime);
  XTestFakeButtonEvent (app_test_xdisplay (), 1, False, CurrentTime);
  app_test_settle ();
  gint64 end = g_get_monotonic_time () + 60 * G_TIME_SPAN_SECOND;
  while (pointer_button_down () && g_get_monotonic_time () < end)
    app_test_settle ();
  return !pointer_button_down ();
}

static void
test_dialog_dragged (Fixture *f, gconstpointer data)
{
  GtkWindow *dialog;
  int x, y;

  if (app == NULL || !app_test_can_send_input ())
    {
      g_test_skip ("no display");
      return;
    }
  if (!have_window_manager ())
    {
      g_test_message ("no window manager: run the GUI tests under build-aux/with-wm.sh");
      g_test_fail ();
      return;
    }
  for (int i = 0; i < 10; i++)
    {
      dialog = open_save_view (f->window);
      g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
      g_assert_true (flick (dialog, i % 2 == 0 ? 80 : -80));

      /* Escape or the close button: the window goes at once… */
      gtk_window_close (dialog);
      g_assert_null (dialog);
      g_assert_null (app_test_find_toplevel ("Save View", NULL));

      /* …and the pointer's next motion moves nothing that is gone. */
      app_test_to_root (GTK_WIDGET (cpel_window_get_timeline (f->window)), 20 + i, 40, &x, &y);
      XTestFakeMotionEvent (app_test_xdisplay (), -1, x, y, CurrentTime);
      app_test_settle ();
      g_assert_true (gtk_widget_get_visible (GTK_WIDGET (f->window)));
    }
}

static void
test_close_at_once (Fixture *f, gconstpointer data)
{
  GtkWindow *dialog;

  if (app == NULL || !app_test_can_send_input ())
    {
      g_test_skip ("no display");
      return;
    }
  dialog = open_save_view (f->window);
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
  gtk_window_close (dialog);
  g_assert_null (dialog);
}

/* A tool window closed while something still holds it (Statistics while its
 * count runs: the count holds the window), then the main window closed: the
 * tool window, let go of last, must not reach back to the freed main window.
 * (GTK 4.8's destroy-with-parent left it pointing there: the count's end
 * then warned of an instance with no class and the process aborted.) */
static void
test_tool_held (Fixture *f, gconstpointer data)
{
  static const struct { const char *action, *title; } tools[] = {
    { "statistics", "Statistics" },
    { "anomalies", "Anomalies" },
    { "spans", "Spans" },
  };

  if (app == NULL)
    {
      g_test_skip ("no display");
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (tools); i++)
    {
      g_autoptr(GtkWindow) held = NULL;
      CpelWindow *window = f->window;

      if (window == NULL)
        {
          window = cpel_window_new (app);
          gtk_window_present (GTK_WINDOW (window));
          app_test_open_and_wait (window, f->path);
        }
      f->window = NULL;
      g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
      app_test_activate_action (GTK_WIDGET (window), tools[i].action, NULL);
      held = app_test_find_toplevel (tools[i].title, NULL);
      g_assert_nonnull (held);
      g_assert_true (gtk_window_get_transient_for (held) == GTK_WINDOW (window));
      g_object_ref (held);
      gtk_window_destroy (held);
      gtk_window_destroy (GTK_WINDOW (window));
      app_test_wait_until (window == NULL, 30);
      /* Let go of last: a warning here fails the test. */
      g_clear_object (&held);
      app_test_drain ();
    }

  /* Not closed first: each goes with the main window. */
  {
    CpelWindow *window = cpel_window_new (app);
    GtkWindow *tool[G_N_ELEMENTS (tools)];

    gtk_window_present (GTK_WINDOW (window));
    app_test_open_and_wait (window, f->path);
    g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
    for (guint i = 0; i < G_N_ELEMENTS (tools); i++)
      {
        app_test_activate_action (GTK_WIDGET (window), tools[i].action, NULL);
        tool[i] = app_test_find_toplevel (tools[i].title, NULL);
        g_assert_nonnull (tool[i]);
        g_object_add_weak_pointer (G_OBJECT (tool[i]), (gpointer *) &tool[i]);
      }
    gtk_window_destroy (GTK_WINDOW (window));
    app_test_wait_until (window == NULL, 30);
    for (guint i = 0; i < G_N_ELEMENTS (tools); i++)
      app_test_wait_until (tool[i] == NULL, 30);
  }
}

int
main (int argc, char *argv[])
{
  gboolean display = app_test_init (&argc, &argv);

  if (!display || !GDK_IS_X11_DISPLAY (gdk_display_get_default ()))
    return app_test_run_no_display ("/app/window/close");

  app = app_test_new_application ();
  g_test_add ("/app/window/close/dialog-dragged", Fixture, NULL, fixture_setup,
              test_dialog_dragged, fixture_teardown);
  g_test_add ("/app/window/close/at-once", Fixture, NULL, fixture_setup,
              test_close_at_once, fixture_teardown);
  g_test_add ("/app/window/close/tool-held", Fixture, NULL, fixture_setup,
              test_tool_held, fixture_teardown);
  return app_test_run (&app);
}
