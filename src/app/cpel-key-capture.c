/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-key-capture.c — the timeline's keys from anywhere in its window, and
 * a search entry's keys while its bar opens */
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

/* ---- a search entry's keys while its bar opens ---------------------------- */

/* What GTK does with a key press for a mapped `widget`: its shortcuts (key
 * bindings such as BackSpace, Return, Escape, Ctrl+A), then its key
 * controllers (typing, through the input method).  GTK skips the
 * shortcuts of an unmapped widget; they are run here. */
static gboolean
forward_key (GtkEventControllerKey *controller,
             GtkWidget             *widget)
{
  GdkEvent *event = gtk_event_controller_get_current_event (GTK_EVENT_CONTROLLER (controller));
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (c)
          || gtk_shortcut_controller_get_scope (GTK_SHORTCUT_CONTROLLER (c)) != GTK_SHORTCUT_SCOPE_LOCAL)
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (c)); j++)
        {
          g_autoptr(GObject) item = g_list_model_get_item (G_LIST_MODEL (c), j);
          GtkShortcut *shortcut = GTK_IS_SHORTCUT (item) ? GTK_SHORTCUT (item) : NULL;

          if (shortcut != NULL
              && gtk_shortcut_trigger_trigger (gtk_shortcut_get_trigger (shortcut), event, FALSE)
                 == GDK_KEY_MATCH_EXACT
              && gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut),
                                               GTK_SHORTCUT_ACTION_EXCLUSIVE, widget,
                                               gtk_shortcut_get_arguments (shortcut)))
            return TRUE;
        }
    }
  return gtk_event_controller_key_forward (controller, widget);
}

typedef struct
{
  GtkSearchBar *bar;     /* weak: the controller goes with the window */
  GtkEditable  *entry;
} SearchKeys;

static gboolean
on_search_key_pressed (GtkEventControllerKey *controller,
                       guint                  keyval,
                       guint                  keycode,
                       GdkModifierType        state,
                       SearchKeys            *keys)
{
  GtkWidget *window = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller));
  GtkWidget *entry = GTK_WIDGET (keys->entry);
  GtkWidget *text;

  if (keys->bar == NULL || keys->entry == NULL)
    return GDK_EVENT_PROPAGATE;
  text = GTK_WIDGET (gtk_editable_get_delegate (keys->entry));
  if (text == NULL)
    text = entry;

  /* Only keys headed for the entry while it cannot take them itself. */
  if (!gtk_search_bar_get_search_mode (keys->bar)
      || gtk_widget_get_mapped (text)
      || gtk_root_get_focus (GTK_ROOT (window)) != text)
    return GDK_EVENT_PROPAGATE;

  /* The text first, then the entry (a search entry's Escape, Ctrl+G,
   * Shift+Enter); the rest (the window's shortcuts) goes on as usual. */
  if (forward_key (controller, text) || (text != entry && forward_key (controller, entry)))
    return GDK_EVENT_STOP;
  return GDK_EVENT_PROPAGATE;
}

static void
search_keys_free (gpointer data,
                  GClosure *closure)
{
  SearchKeys *keys = data;

  g_clear_weak_pointer (&keys->bar);
  g_clear_weak_pointer (&keys->entry);
  g_free (keys);
}

GtkEventController *
cpel_key_capture_new_search_keys (GtkSearchBar *bar,
                                  GtkEditable  *entry)
{
  GtkEventController *controller;
  SearchKeys *keys;

  g_return_val_if_fail (GTK_IS_SEARCH_BAR (bar), NULL);
  g_return_val_if_fail (GTK_IS_EDITABLE (entry), NULL);

  keys = g_new0 (SearchKeys, 1);
  g_set_weak_pointer (&keys->bar, bar);
  g_set_weak_pointer (&keys->entry, entry);
  controller = gtk_event_controller_key_new ();
  gtk_event_controller_set_name (controller, "cpel-search-keys");
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  g_signal_connect_data (controller, "key-pressed", G_CALLBACK (on_search_key_pressed),
                         keys, search_keys_free, 0);
  return controller;
}
