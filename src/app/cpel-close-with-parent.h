/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-close-with-parent.h — a tool window that closes with the window it belongs to */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Closes `window` when its transient parent is destroyed — what GTK's
 * destroy-with-parent does, without its hazard in GTK 4.8: there,
 * gtk_window_destroy () of a window that something still holds (a count
 * running in a worker) leaves it alive and transient for its parent; the
 * parent's destroy then skips it (already destroyed) and leaves it pointing
 * at the freed parent, which its last unref reads.  Here GTK's own handler
 * forgets the parent (this turns destroy-with-parent off) and this one closes
 * the window.  Call once the transient parent is set. */
void cpel_close_with_parent (GtkWindow *window);

G_END_DECLS
