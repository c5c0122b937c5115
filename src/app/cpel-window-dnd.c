/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-window-dnd.c — files dropped on the window are opened; one dropped
 * with Ctrl held is compared with the file shown */
#include "cpel-window-private.h"

static gboolean
on_drop (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         CpelWindow    *self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (target));
  gboolean compare = (mods & GDK_CONTROL_MASK) != 0 && self->file != NULL;

  if (compare && G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST) && g_value_get_boxed (value) != NULL)
    {
      cpel_window_compare_with (self, ((GSList *) g_value_get_boxed (value))->data);
      return TRUE;
    }
  if (compare && G_VALUE_HOLDS (value, G_TYPE_FILE))
    {
      cpel_window_compare_with (self, g_value_get_object (value));
      return TRUE;
    }
  if (G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    {
      GSList *files = g_value_get_boxed (value);

      if (files == NULL)
        return FALSE;
      for (GSList *l = files; l != NULL; l = l->next)
        cpel_window_open (self, l->data, 0);
      return TRUE;
    }
  if (G_VALUE_HOLDS (value, G_TYPE_FILE))
    {
      cpel_window_open (self, g_value_get_object (value), 0);
      return TRUE;
    }
  return FALSE;
}


void
_cpel_window_dnd_init (CpelWindow *self)
{
  GtkDropTarget *drop;

  drop = gtk_drop_target_new (G_TYPE_INVALID, GDK_ACTION_COPY);
  gtk_drop_target_set_gtypes (drop, (GType[2]) { GDK_TYPE_FILE_LIST, G_TYPE_FILE }, 2);
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self->main_stack), GTK_EVENT_CONTROLLER (drop));
}
