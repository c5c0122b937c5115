/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-context-menu.h — a widget's context menu at a point of it */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Pops up `*menu`, a GtkPopoverMenu child of `owner` made on the first call
 * (from `model`; a later non-NULL `model` replaces its menu), pointing at
 * (x, y) of `owner`, kept inside it: a point off the screen has no monitor
 * (Gdk-CRITICAL gdk_monitor_get_geometry on X11).  The owner unparents
 * `*menu` in its dispose and presents it in its size_allocate. */
void cpel_context_menu_popup (GtkWidget  **menu,
                              GtkWidget   *owner,
                              GMenuModel  *model,
                              double       x,
                              double       y);

G_END_DECLS
