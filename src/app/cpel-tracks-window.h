/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-tracks-window.h — the Tracks window: filter tracks by name, hide, pin
 * to the top, move up / down, sort.
 */
#pragma once

#include <adwaita.h>

#include "cpel-timeline.h"
#include "cpel-window.h"

G_BEGIN_DECLS

#define CPEL_TYPE_TRACKS_WINDOW (cpel_tracks_window_get_type ())
G_DECLARE_FINAL_TYPE (CpelTracksWindow, cpel_tracks_window, CPEL, TRACKS_WINDOW, AdwWindow)

/* For the file `parent` shows now (a new file needs a new window). */
CpelTracksWindow *cpel_tracks_window_new          (CpelWindow       *parent);
CpelTimeline     *cpel_tracks_window_get_timeline (CpelTracksWindow *self);

G_END_DECLS
