/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-close-guard.c — windows close without leaving GDK a dead window to move
 *
 * Without a window manager that moves windows itself (_NET_WM_MOVERESIZE:
 * a bare X server, some kiosk setups), GDK 4.8's X11 backend moves a
 * window by grabbing the pointer and moving the window on each pointer
 * motion it reads from X (gdksurface-x11.c, emulate_move_drag).  GTK can
 * start such a move after the button is already up: GtkWindowHandle
 * begins it on a motion that GDK delivers with the next frame, when the
 * button release behind it has already been read from X, so only the
 * next pointer motion ends the move — after moving the window once more.
 * An AdwMessageDialog is one window handle: a quick drag on the Save
 * View dialog (where nothing else takes the press) starts a move of it.
 * Close that window before the pointer moves again (Escape) and GDK
 * moves a destroyed X window: BadWindow on ConfigureWindow, GDK exits.
 *
 * GDK keeps the window's GdkSurface referenced but not its X window, and
 * nothing in GTK's API cancels the move.  So a window that closes while
 * GDK's move holds it (or a window transient for it, which would go with
 * it) is hidden at once (its X window stays) and destroyed once the move
 * has ended.  The move ends with the next pointer motion anywhere (GDK's
 * grab gets it); nothing announces that, so the pending windows are
 * checked ten times a second.
 *
 * Which surface GDK moves is GDK's own state: the X11 backend keeps its
 * move as the display's "gdk-surface-moveresize" data, a struct that
 * starts with the display and the moved surface (gdksurface-x11.c,
 * MoveResizeData, the same since GTK 2).  Reading those two fields is
 * the only way to ask; the display field is checked first.  (Whether GDK
 * holds a pointer grab — gdk_display_device_is_grabbed — is no answer:
 * GDK forgets a grab only when the pointer's next event reaches it.)
 */
#include "cpel-close-guard.h"

#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif

#define CHECK_MS 100

static GPtrArray *pending;   /* GtkWindow, hidden, to be destroyed */
static guint check_id;

/* The first fields of GDK's MoveResizeData. */
typedef struct
{
  GdkDisplay *display;
  GdkSurface *surface;
} MoveResizeHead;

/* The window GDK's emulated move holds now, or NULL. */
static GtkWindow *
moving_window (GtkWindow *window)
{
#ifdef GDK_WINDOWING_X11
  GdkDisplay *display = gtk_widget_get_display (GTK_WIDGET (window));
  GQuark quark = g_quark_try_string ("gdk-surface-moveresize");
  MoveResizeHead *mv;
  GtkNative *native;

  if (!GDK_IS_X11_DISPLAY (display) || quark == 0)
    return NULL;
  mv = g_object_get_qdata (G_OBJECT (display), quark);
  if (mv == NULL || mv->display != display || mv->surface == NULL || !GDK_IS_SURFACE (mv->surface))
    return NULL;
  native = gtk_native_get_for_surface (mv->surface);
  return GTK_IS_WINDOW (native) ? GTK_WINDOW (native) : NULL;
#else
  return NULL;
#endif
}

/* GDK's move holds `window` or a window that goes with it. */
static gboolean
held_by_move (GtkWindow *window)
{
  for (GtkWindow *w = moving_window (window); w != NULL; w = gtk_window_get_transient_for (w))
    if (w == window)
      return TRUE;
  return FALSE;
}

static void on_pending_visible (GtkWindow *window, GParamSpec *pspec, gpointer data);

static void
drop_pending (guint i)
{
  GtkWindow *window = g_ptr_array_index (pending, i);

  g_signal_handlers_disconnect_by_func (window, on_pending_visible, NULL);
  g_ptr_array_remove_index (pending, i);   /* unrefs */
}

/* Shown again (a tool window presented anew): the close is superseded. */
static void
on_pending_visible (GtkWindow  *window,
                    GParamSpec *pspec,
                    gpointer    data)
{
  guint i;

  if (gtk_widget_get_visible (GTK_WIDGET (window)) && g_ptr_array_find (pending, window, &i))
    drop_pending (i);
}

static gboolean
check_pending (gpointer data)
{
  while (pending->len > 0)
    {
      GtkWindow *window = g_object_ref (g_ptr_array_index (pending, pending->len - 1));

      if (held_by_move (window))
        {
          g_object_unref (window);
          return G_SOURCE_CONTINUE;
        }
      drop_pending (pending->len - 1);
      gtk_window_destroy (window);
      g_object_unref (window);
    }
  check_id = 0;
  return G_SOURCE_REMOVE;
}

void
cpel_close_guard_destroy (GtkWindow *window)
{
  g_return_if_fail (GTK_IS_WINDOW (window));

  if (!held_by_move (window))
    {
      gtk_window_destroy (window);
      return;
    }
  if (pending == NULL)
    pending = g_ptr_array_new_with_free_func (g_object_unref);
  if (g_ptr_array_find (pending, window, NULL))
    return;
  gtk_widget_set_visible (GTK_WIDGET (window), FALSE);
  g_ptr_array_add (pending, g_object_ref (window));
  g_signal_connect (window, "notify::visible", G_CALLBACK (on_pending_visible), NULL);
  if (check_id == 0)
    check_id = g_timeout_add (CHECK_MS, check_pending, NULL);
}

guint
cpel_close_guard_get_n_pending (void)
{
  return pending != NULL ? pending->len : 0;
}

/* Runs after the window's own handlers and class handler: only a close
 * that nothing stopped (hide-on-close, a question first) gets here, and
 * it would destroy the window next. */
static gboolean
on_close_request (GtkWindow *window,
                  gpointer   data)
{
  cpel_close_guard_destroy (window);
  return TRUE;
}

static void
on_toplevels_changed (GListModel *toplevels,
                      guint       position,
                      guint       removed,
                      guint       added,
                      gpointer    data)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);

      if (g_signal_handler_find (window, G_SIGNAL_MATCH_FUNC, 0, 0, NULL, on_close_request, NULL) == 0)
        g_signal_connect_after (window, "close-request", G_CALLBACK (on_close_request), NULL);
    }
}

void
cpel_close_guard_install (void)
{
  static gboolean installed;
  GListModel *toplevels = gtk_window_get_toplevels ();

  if (installed)
    return;
  installed = TRUE;
  on_toplevels_changed (toplevels, 0, 0, g_list_model_get_n_items (toplevels), NULL);
  g_signal_connect (toplevels, "items-changed", G_CALLBACK (on_toplevels_changed), NULL);
}
