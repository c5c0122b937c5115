/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-view-actions.h — the window's view-mode actions
 *
 * win.color-mode ("code", "track", "none"), win.summary-mode (boolean),
 * win.row-height ("taller", "shorter") mirror the timeline's properties
 * (its keys c, e, t and g change them too); win.sort-tracks ("name", "id",
 * "count", "default") reorders the timeline's tracks.
 */
#pragma once

#include "cpel-window.h"

G_BEGIN_DECLS

void cpel_view_actions_install (CpelWindow *window);

G_END_DECLS
