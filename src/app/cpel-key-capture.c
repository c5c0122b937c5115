/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-key-capture.c — the timeline's keys from anywhere in its window */
#include "cpel-key-capture.h"

static gboolean
navigation_key (guint keyval)
{
  switch (keyval)
    {
    case GDK_KEY_Tab: case GDK_KEY_KP_Tab: case GDK_KEY_ISO_Left_Tab:
    case GDK_KEY_Return: case GDK_KEY_KP_Enter: case GDK_KEY_ISO_Enter:
    case GDK_KEY_space: case GDK_KEY_KP_Space:
    case GDK_KEY_Escape: case GDK_KEY_Menu:
    case GDK_KEY_Up: case GDK_KEY_Down: case GDK_KEY_Left: case GDK_KEY_Right:
    case GDK_KEY_KP_Up: case GDK_KEY_KP_Down: case GDK_KEY_KP_Left: case GDK_KEY_KP_Right:
      return TRUE;
    default:
      return FALSE;
    }
}

static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                GtkWidget             *target)
{
  GtkWidget *window = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller));
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));

  if (!gtk_widget_get_mapped (target) || !gtk_widget_is_sensitive (target))
    return FALSE;
  if ((state & (GDK_CONTROL_MASK | GDK_ALT_MASK | GDK_SUPER_MASK | GDK_META_MASK)) != 0
      || navigation_key (keyval))
    return FALSE;
  if (focus != NULL
      && (focus == target || gtk_widget_is_ancestor (focus, target)
          || GTK_IS_EDITABLE (focus) || GTK_IS_TEXT_VIEW (focus)))
    return FALSE;
  return gtk_event_controller_key_forward (controller, target);
}

void
cpel_key_capture_install (GtkWindow *window,
                          GtkWidget *target)
{
  GtkEventController *keys;

  g_return_if_fail (GTK_IS_WINDOW (window));
  g_return_if_fail (GTK_IS_WIDGET (target));

  /* Bubble phase: the focused widget and its parents had the key first. */
  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_name (keys, "cpel-key-capture");
  g_signal_connect_object (keys, "key-pressed", G_CALLBACK (on_key_pressed), target, 0);
  gtk_widget_add_controller (GTK_WIDGET (window), keys);
}
