/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-context-menu.c — a widget's context menu at a point of it (the
 * timeline's and the compare pane's) */
#include "cpel-context-menu.h"

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
  x = CLAMP (x, 0, MAX (0, gtk_widget_get_width (owner) - 1));
  y = CLAMP (y, 0, MAX (0, gtk_widget_get_height (owner) - 1));
  gtk_popover_set_pointing_to (GTK_POPOVER (*menu), &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (*menu));
}
