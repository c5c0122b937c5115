/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-tracks-window.h — the Tracks window: filter tracks by name, hide, pin
 * to the top, move up / down, sort.
 */
#pragma once

#include <adwaita.h>

#include "cpel-session.h"

G_BEGIN_DECLS

#define CPEL_TYPE_TRACKS_WINDOW (cpel_tracks_window_get_type ())
G_DECLARE_FINAL_TYPE (CpelTracksWindow, cpel_tracks_window, CPEL, TRACKS_WINDOW, AdwWindow)

/* For the file `session` shows now (a new file needs a new window);
 * transient for `parent`. */
CpelTracksWindow *cpel_tracks_window_new         (CpelSession      *session,
                                                  GtkWindow        *parent);
CpelSession      *cpel_tracks_window_get_session (CpelTracksWindow *self);

G_END_DECLS
