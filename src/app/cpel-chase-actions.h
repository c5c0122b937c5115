/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-chase-actions.h — g2's chase on a window
 *
 * win.chase-event: show only the tracks holding an event with the selected
 * event's code; win.chase-datum: ... with its datum; win.chase-track: pin
 * the selected event's track on top; win.no-chase: the track list as it was
 * before the first chase.  Event and datum are looked up in a worker
 * (cancellable; a newer chase replaces a running one).
 */
#pragma once

#include "cpel-window.h"

G_BEGIN_DECLS

void     cpel_chase_actions_install  (CpelWindow *window);
/* A chase is in effect (win.no-chase would undo it). */
gboolean cpel_chase_actions_chasing  (CpelWindow *window);
/* A lookup is running in the worker. */
gboolean cpel_chase_actions_busy     (CpelWindow *window);

G_END_DECLS
