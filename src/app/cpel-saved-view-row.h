/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-saved-view-row.h — one row of the Saved Views window: a view's name
 * and what it shows; activating it shows the view (win.show-view), its
 * buttons rename (a popover) and delete (win.delete-view) it.
 */
#pragma once

#include <adwaita.h>

#include "cpel-core.h"

G_BEGIN_DECLS

#define CPEL_TYPE_SAVED_VIEW_ROW (cpel_saved_view_row_get_type ())
G_DECLARE_FINAL_TYPE (CpelSavedViewRow, cpel_saved_view_row, CPEL, SAVED_VIEW_ROW, AdwActionRow)

/* The view called `name` of `views`. */
CpelSavedViewRow *cpel_saved_view_row_new           (CpelViews        *views,
                                                     const char       *name);
const char       *cpel_saved_view_row_get_view_name (CpelSavedViewRow *self);
gboolean          cpel_saved_view_row_get_current   (CpelSavedViewRow *self);
void              cpel_saved_view_row_set_current   (CpelSavedViewRow *self,
                                                     gboolean          current);

G_END_DECLS
