/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-saved-views.h — the Saved Views window: a capture's views to show,
 * rename and delete; save, import, export */
#pragma once

#include "cpel-window.h"

G_BEGIN_DECLS

/* A new window listing `views` (those of `window`'s capture). */
GtkWindow *cpel_saved_views_new (CpelWindow *window,
                                 CpelViews  *views);

G_END_DECLS
