/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-close-with-parent.c — a tool window that closes with the window it belongs to */
#include "cpel-close-with-parent.h"

static void
on_parent_destroyed (GtkWindow *parent,
                     GtkWindow *window)
{
  /* GTK's handler, connected first, has forgotten the parent already. */
  gtk_window_set_transient_for (window, NULL);
  gtk_window_destroy (window);
}

void
cpel_close_with_parent (GtkWindow *window)
{
  GtkWindow *parent;

  g_return_if_fail (GTK_IS_WINDOW (window));

  /* Off, so that GTK's handler forgets the parent (AdwMessageDialog turns
   * it on). */
  gtk_window_set_destroy_with_parent (window, FALSE);

  parent = gtk_window_get_transient_for (window);
  if (parent != NULL)
    g_signal_connect_object (parent, "destroy", G_CALLBACK (on_parent_destroyed), window, 0);
}
