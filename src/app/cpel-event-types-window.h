/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-event-types-window.h — the Event Types window: which event types a
 * session shows.
 */
#pragma once

#include <adwaita.h>

#include "cpel-session.h"

G_BEGIN_DECLS

#define CPEL_TYPE_EVENT_TYPES_WINDOW (cpel_event_types_window_get_type ())
G_DECLARE_FINAL_TYPE (CpelEventTypesWindow, cpel_event_types_window, CPEL, EVENT_TYPES_WINDOW,
                      AdwPreferencesWindow)

/* For the file `session` shows now (a new file needs a new window);
 * transient for `parent`. */
CpelEventTypesWindow *cpel_event_types_window_new         (CpelSession          *session,
                                                           GtkWindow            *parent);
CpelSession          *cpel_event_types_window_get_session (CpelEventTypesWindow *self);

G_END_DECLS
