/* SPDX-License-Identifier: Apache-2.0 */
/* test-close-guard.c — a window closed while GDK may still move it
 *
 * Under Xvfb there is no window manager: GDK moves windows itself, with a
 * pointer grab that only the next pointer motion ends (cpel-close-guard.c
 * tells how GTK 4.8 starts such a move after the button is up).  A quick
 * drag on the Save View dialog (a window handle) starts one; the dialog
 * is closed before the pointer moves again.
 * Destroyed at once, the next motion makes GDK move a destroyed X window:
 * BadWindow, GDK exits (random input, seed 43).  The window must be hidden
 * at once and destroyed once the grab has ended; without a grab, a closed
 * window goes at once.  Real input through XTEST on the test's own
 * display connection: press, motion and release reach GDK in one batch,
 * as from a quick hand.
 */
#include "app-test-util.h"

#include <X11/extensions/XTest.h>

#include "cpel-close-guard.h"

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
  app_test_fixture_setup (f, app, "cpelview-close-guard", write_capture, 1000, 640, TRUE);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  if (app == NULL)
    return;
  app_test_fixture_teardown (f, app);
}

static gboolean
pointer_grabbed (void)
{
  GdkDisplay *display = gdk_display_get_default ();

  return gdk_display_device_is_grabbed (display, gdk_seat_get_pointer (gdk_display_get_default_seat (display)));
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
 * release sent together.  TRUE when it left GDK's pointer grab behind
 * with no button down (the late move). */
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
  return pointer_grabbed () && !pointer_button_down ();
}

static void
test_dialog_moved (Fixture *f, gconstpointer data)
{
  GtkWindow *dialog;
  gboolean late_move = FALSE;
  int x, y;

  if (app == NULL || !app_test_can_send_input ())
    {
      g_test_skip ("no display");
      return;
    }
  dialog = open_save_view (f->window);
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);

  /* Whether GDK reads the release before GTK handles the motion depends
   * on the frame clock: a few tries. */
  for (int i = 0; i < 10 && !late_move; i++)
    late_move = flick (dialog, i % 2 == 0 ? 80 : -80);
  if (!late_move)
    {
      g_object_remove_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
      g_test_skip ("GDK started no window move after the button release in 10 quick drags");
      return;
    }

  /* Escape or the close button: the window goes away at once… */
  gtk_window_close (dialog);
  g_assert_nonnull (dialog);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (dialog)));
  g_assert_cmpuint (cpel_close_guard_get_n_pending (), ==, 1);
  app_test_settle ();
  g_assert_nonnull (dialog);

  /* …and is destroyed once the pointer moved: the motion makes GDK move
   * the hidden window once more and end its move. */
  app_test_to_root (GTK_WIDGET (cpel_window_get_timeline (f->window)), 20, 40, &x, &y);
  XTestFakeMotionEvent (app_test_xdisplay (), -1, x, y, CurrentTime);
  app_test_settle ();
  app_test_wait_until (dialog == NULL, 20);
  g_assert_cmpuint (cpel_close_guard_get_n_pending (), ==, 0);

  /* The dialog can be opened and closed again. */
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (f->window)));
  dialog = open_save_view (f->window);
  gtk_window_close (dialog);
  g_assert_null (app_test_find_toplevel ("Save View", NULL));
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
  g_assert_false (pointer_grabbed ());
  gtk_window_close (dialog);
  g_assert_null (dialog);
  g_assert_cmpuint (cpel_close_guard_get_n_pending (), ==, 0);
}

int
main (int argc, char *argv[])
{
  gboolean display = app_test_init (&argc, &argv);

  if (!display || !GDK_IS_X11_DISPLAY (gdk_display_get_default ()))
    return app_test_run_no_display ("/app/close-guard");

  app = app_test_new_application ();
  g_test_add ("/app/close-guard/dialog-moved", Fixture, NULL, fixture_setup,
              test_dialog_moved, fixture_teardown);
  g_test_add ("/app/close-guard/close-at-once", Fixture, NULL, fixture_setup,
              test_close_at_once, fixture_teardown);
  return app_test_run (&app);
}
