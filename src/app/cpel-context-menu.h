/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-context-menu.h — a widget's context menu at a point of it */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Where a context menu of `widget` asked for at (x, y) (widget
 * coordinates) may point: inside the widget's allocation.  FALSE when
 * there is no such point: the widget is not mapped or has no size, or
 * its window has no surface. */
gboolean cpel_context_menu_point (GtkWidget *widget,
                                  double    *x,
                                  double    *y);

/* Pops up `*menu`, a GtkPopoverMenu child of `owner` made on the first call
 * (from `model`; a later non-NULL `model` replaces its menu), pointing at
 * (x, y) of `owner` moved by cpel_context_menu_point (); does nothing when
 * that finds no point.  The owner unparents `*menu` in its dispose and
 * presents it in its size_allocate. */
void cpel_context_menu_popup (GtkWidget  **menu,
                              GtkWidget   *owner,
                              GMenuModel  *model,
                              double       x,
                              double       y);

/* Every toplevel of the process, now and later: Shift+F10, Menu and F10
 * (GTK's own menus: a text's, a selectable label's, the primary menu)
 * do nothing when the widget whose menu they would open has no point
 * (cpel_context_menu_point).  And in every window, while a popover is shown, the
 * viewports around its widget do not scroll to the keyboard's focus
 * (GTK 4.8's would scroll to the popover's items as if they were in the
 * page: its widget, and the menu, moved by about the menu's height, off
 * the screen near its edge). */
void cpel_context_menu_install (void);

G_END_DECLS
