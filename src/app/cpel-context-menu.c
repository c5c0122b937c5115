/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-context-menu.c — a widget's context menu at a point of it (the
 * timeline's and the compare pane's)
 *
 * The application's menus point at a rectangle inside their widget, or do
 * not open when the widget has no allocation on a surface (not mapped, or
 * its window going); the keys that open GTK's own menus (a text's, a
 * selectable label's, the primary menu on F10) are dropped then too.
 *
 * An open menu is laid out again whenever its widget moves in its window
 * (GtkPopover's surface-transform callback), so its widget must not move
 * off the monitors under it either.  GTK 4.8's viewport (the scrolling
 * page of a GtkScrolledWindow) did just that: a popover is a child of the
 * widget it belongs to, so when the menu takes the keyboard the viewport
 * "scrolls to the focus" (gtkviewport.c, focus_change_handler), placing
 * the menu's items as if they were inside the page, and scrolls the
 * page by about the menu's height, its widget along with it.  A selectable
 * value in File Information, right-clicked near the top of the screen,
 * went above it, and the menu's next layout found no monitor (random
 * input seed 91).  So while a popover is shown, the viewports around
 * its widget do not follow the keyboard, and a scroll of them still
 * animating when it opens (a click on a value moves the keyboard to it,
 * and the viewport scrolls it into view over 200 ms) stops there.
 * (Input does not scroll them meanwhile: a menu grabs it.)
 */
#include "cpel-context-menu.h"

gboolean
cpel_context_menu_point (GtkWidget *widget,
                         double    *x,
                         double    *y)
{
  GtkNative *native;
  int w, h;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), FALSE);

  native = gtk_widget_get_native (widget);
  if (!gtk_widget_get_mapped (widget) || native == NULL || gtk_native_get_surface (native) == NULL)
    return FALSE;
  w = gtk_widget_get_width (widget);
  h = gtk_widget_get_height (widget);
  if (w < 1 || h < 1)
    return FALSE;
  *x = CLAMP (*x, 0, w - 1);
  *y = CLAMP (*y, 0, h - 1);
  return TRUE;
}

void
cpel_context_menu_popup (GtkWidget  **menu,
                         GtkWidget   *owner,
                         GMenuModel  *model,
                         double       x,
                         double       y)
{
  g_return_if_fail (menu != NULL);
  g_return_if_fail (GTK_IS_WIDGET (owner));
  g_return_if_fail (*menu != NULL || G_IS_MENU_MODEL (model));

  if (*menu == NULL)
    {
      *menu = gtk_popover_menu_new_from_model (model);
      gtk_widget_set_parent (*menu, owner);
      gtk_popover_set_has_arrow (GTK_POPOVER (*menu), FALSE);
      gtk_widget_set_halign (*menu, GTK_ALIGN_START);
    }
  else if (model != NULL)
    gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (*menu), model);
  if (!cpel_context_menu_point (owner, &x, &y))
    return;
  gtk_popover_set_pointing_to (GTK_POPOVER (*menu), &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (*menu));
}

static void
find_primary_menu (GtkWidget *widget, GtkWidget **found)
{
  if (*found != NULL)
    return;
  if (GTK_IS_MENU_BUTTON (widget) && gtk_menu_button_get_primary (GTK_MENU_BUTTON (widget)))
    {
      *found = widget;
      return;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    find_primary_menu (c, found);
}

static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                gpointer               data)
{
  GtkWidget *window = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller));
  GdkModifierType mods = state & (GDK_SHIFT_MASK | GDK_CONTROL_MASK | GDK_ALT_MASK);
  GtkWidget *widget = NULL;
  double x = 0, y = 0;

  if ((keyval == GDK_KEY_F10 && mods == GDK_SHIFT_MASK) || (keyval == GDK_KEY_Menu && mods == 0))
    widget = gtk_root_get_focus (GTK_ROOT (window));
  else if (keyval == GDK_KEY_F10 && mods == 0)
    find_primary_menu (window, &widget);
  else
    return FALSE;
  /* Nothing has the keyboard: the window's own bindings decide. */
  if (widget == NULL)
    return FALSE;
  /* Its menu would point at nothing: the key does nothing. */
  return !cpel_context_menu_point (widget, &x, &y);
}

/* The viewports around each shown popover that stopped following the
 * keyboard for it: popover (weak: its entry goes with it) -> GPtrArray of
 * references.  The hooks are the module's, not any widget's: the table is
 * the module's state (main thread only, like the hooks). */
static GHashTable *paused_viewports;

static void
on_popover_gone (gpointer  data,
                 GObject  *popover)
{
  g_hash_table_remove (paused_viewports, popover);
}

static GPtrArray *
steal_paused (GtkWidget *popover)
{
  gpointer paused = NULL;

  if (paused_viewports == NULL
      || !g_hash_table_steal_extended (paused_viewports, popover, NULL, &paused))
    return NULL;
  g_object_weak_unref (G_OBJECT (popover), on_popover_gone, NULL);
  return paused;
}

/* Every widget's map and unmap.  A popover is mapped by its show, which
 * gives it the keyboard only then (gtk_popover_show: map, then
 * gtk_widget_child_focus): an emission hook runs after the class
 * handler, so here in between, before any viewport sees the focus move.
 * (A viewport's own handler is connected to its window's
 * notify::focus-widget when it joins the window, before anything the
 * application could connect there.) */
static gboolean
on_map_hook (GSignalInvocationHint *hint,
             guint                  n_values,
             const GValue          *values,
             gpointer               data)
{
  GtkWidget *widget = g_value_get_object (&values[0]);
  gboolean map = GPOINTER_TO_UINT (data);
  GPtrArray *paused;

  if (!GTK_IS_POPOVER (widget))
    return TRUE;
  if (!map)
    {
      /* Closed: they follow again (from the keyboard's next move, back
       * to the popover's widget, which is in view). */
      paused = steal_paused (widget);
      if (paused != NULL)
        {
          for (guint i = 0; i < paused->len; i++)
            gtk_viewport_set_scroll_to_focus (paused->pdata[i], TRUE);
          g_ptr_array_unref (paused);
        }
      return TRUE;
    }
  paused = g_ptr_array_new_with_free_func (g_object_unref);
  for (GtkWidget *w = gtk_widget_get_parent (widget); w != NULL; w = gtk_widget_get_parent (w))
    {
      if (GTK_IS_VIEWPORT (w) && gtk_viewport_get_scroll_to_focus (GTK_VIEWPORT (w)))
        {
          g_ptr_array_add (paused, g_object_ref (w));
          gtk_viewport_set_scroll_to_focus (GTK_VIEWPORT (w), FALSE);
        }
      /* A scroll still moving (GTK animates a viewport's scroll to the
       * focus, 200 ms) ends where it is: the menu's widget stays under
       * it.  (A value set without animation ends the animation.) */
      if (GTK_IS_SCROLLED_WINDOW (w))
        for (int i = 0; i < 2; i++)
          {
            GtkAdjustment *adj = i == 0 ? gtk_scrolled_window_get_hadjustment (GTK_SCROLLED_WINDOW (w))
                                        : gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (w));

            gtk_adjustment_set_value (adj, gtk_adjustment_get_value (adj));
          }
    }
  if (paused->len > 0)
    {
      g_autoptr(GPtrArray) before = steal_paused (widget);

      if (paused_viewports == NULL)
        paused_viewports = g_hash_table_new_full (NULL, NULL, NULL,
                                                  (GDestroyNotify) g_ptr_array_unref);
      g_hash_table_insert (paused_viewports, widget, paused);
      g_object_weak_ref (G_OBJECT (widget), on_popover_gone, NULL);
    }
  else
    g_ptr_array_unref (paused);
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
      g_autoptr(GtkWidget) window = g_list_model_get_item (toplevels, i);
      GtkEventController *keys;

      /* (a window joins the list once, when it is made) */
      /* Capture phase: before the focused widget's own key bindings. */
      keys = gtk_event_controller_key_new ();
      gtk_event_controller_set_name (keys, "cpel-context-menu-keys");
      gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
      g_signal_connect (keys, "key-pressed", G_CALLBACK (on_key_pressed), NULL);
      gtk_widget_add_controller (window, keys);
    }
}

void
cpel_context_menu_install (void)
{
  static gboolean installed;
  GListModel *toplevels = gtk_window_get_toplevels ();
  gpointer widget_class;

  if (installed)
    return;
  installed = TRUE;
  /* (the signals exist once the class does: maybe no widget yet) */
  widget_class = g_type_class_ref (GTK_TYPE_WIDGET);
  g_signal_add_emission_hook (g_signal_lookup ("map", GTK_TYPE_WIDGET), 0, on_map_hook,
                              GUINT_TO_POINTER (TRUE), NULL);
  g_signal_add_emission_hook (g_signal_lookup ("unmap", GTK_TYPE_WIDGET), 0, on_map_hook,
                              GUINT_TO_POINTER (FALSE), NULL);
  g_type_class_unref (widget_class);
  on_toplevels_changed (toplevels, 0, 0, g_list_model_get_n_items (toplevels), NULL);
  g_signal_connect (toplevels, "items-changed", G_CALLBACK (on_toplevels_changed), NULL);
}
