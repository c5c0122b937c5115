/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-close-guard.h — windows close without leaving GDK a dead window to move */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Every toplevel of the process, now and later: when nothing else handles
 * its close request, it closes through cpel_close_guard_destroy (). */
void cpel_close_guard_install (void);

/* Destroys `window` now, or — while GDK's own window move (X11 without a
 * window manager) holds it or a window transient for it — hides it now
 * and destroys it once the move has ended.  Shown again meanwhile, it
 * stays. */
void cpel_close_guard_destroy (GtkWindow *window);

/* How many windows wait to be destroyed (for tests). */
guint cpel_close_guard_get_n_pending (void);

G_END_DECLS
