/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-saved-views-window.h — the Saved Views window: a capture's views to
 * show, rename and delete; save, import, export.
 */
#pragma once

#include <adwaita.h>

#include "cpel-session.h"

G_BEGIN_DECLS

#define CPEL_TYPE_SAVED_VIEWS_WINDOW (cpel_saved_views_window_get_type ())
G_DECLARE_FINAL_TYPE (CpelSavedViewsWindow, cpel_saved_views_window, CPEL, SAVED_VIEWS_WINDOW,
                      AdwWindow)

/* Lists the saved views of `session` (the one `parent` shows), following
 * its "views".  Its buttons and rows activate `parent`'s win.* actions
 * (save-view, show-view, delete-view, write-views, save-views, load-views,
 * import-views, export-views). */
CpelSavedViewsWindow *cpel_saved_views_window_new       (GtkWindow            *parent,
                                                         CpelSession          *session);
CpelSession          *cpel_saved_views_window_get_session (CpelSavedViewsWindow *self);
/* The views listed (the session's; NULL when it has none). */
CpelViews            *cpel_saved_views_window_get_views (CpelSavedViewsWindow *self);

G_END_DECLS
