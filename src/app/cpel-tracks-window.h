/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-tracks-window.h — the Tracks window: filter tracks by name, hide, pin to
 * the top, move up / down.
 */
#pragma once

#include "cpel-timeline.h"

G_BEGIN_DECLS

GtkWindow *cpel_tracks_new (GtkWindow    *parent,
                            CpelTimeline *timeline);

G_END_DECLS
