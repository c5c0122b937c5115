/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-saved-views-window.h — the Saved Views window: a capture's views to
 * show, rename and delete; save, import, export.
 */
#pragma once

#include <adwaita.h>

#include "cpel-window.h"

G_BEGIN_DECLS

#define CPEL_TYPE_SAVED_VIEWS_WINDOW (cpel_saved_views_window_get_type ())
G_DECLARE_FINAL_TYPE (CpelSavedViewsWindow, cpel_saved_views_window, CPEL, SAVED_VIEWS_WINDOW,
                      AdwWindow)

/* Lists the views of the capture `parent` shows (a new capture needs a new
 * window); its buttons use `parent`'s win.* actions. */
CpelSavedViewsWindow *cpel_saved_views_window_new       (CpelWindow           *parent);
CpelViews            *cpel_saved_views_window_get_views (CpelSavedViewsWindow *self);

G_END_DECLS
