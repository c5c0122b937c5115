/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-views-controller.h — saved views (g2's snapshots) on a window
 *
 * The views of the window's capture (CpelViews: a sidecar next to it, or
 * the user data dir) are loaded when a file is shown and saved after every
 * change.  Actions: win.save-view (a dialog for the name), win.next-view /
 * win.previous-view (g2 x / z), win.save-views / win.load-views (g2 p / l:
 * write / reread the file now), win.saved-views (the list window),
 * win.export-views / win.import-views (a chosen file), win.show-view(s),
 * win.delete-view(s).
 */
#pragma once

#include "cpel-window.h"

G_BEGIN_DECLS

void           cpel_views_controller_install     (CpelWindow          *window);
/* The views of the window's capture; NULL without a file on disk. */
CpelViews     *cpel_views_controller_get_views   (CpelWindow          *window);
/* What the window shows now, as a view named `name`. */
CpelSavedView *cpel_views_controller_capture     (CpelWindow          *window,
                                                  const char          *name);
/* Show `view`: time range (back in zoom history returns), tracks, hidden
 * event types, selection, scroll. */
void           cpel_views_controller_apply       (CpelWindow          *window,
                                                  const CpelSavedView *view);
/* Save what is shown under `name` (replacing a view of that name) and
 * write the views file.  FALSE with an error when writing failed (the view
 * is kept in the list). */
gboolean       cpel_views_controller_save_view   (CpelWindow          *window,
                                                  const char          *name,
                                                  GError             **error);
/* Show the view `name` once the window's file is loaded (now when it is);
 * a toast when the capture has no such view.  (`cpelview --view NAME`) */
void           cpel_views_controller_open_view   (CpelWindow          *window,
                                                  const char          *name);
/* A name no view has: "View N". */
char          *cpel_views_controller_new_name    (CpelWindow          *window);

G_END_DECLS
