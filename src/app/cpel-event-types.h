/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-event-types.h — the Event Types window: show / hide event types
 * (g2's event selector) on a timeline.
 */
#pragma once

#include "cpel-timeline.h"

G_BEGIN_DECLS

GtkWindow *cpel_event_types_new (GtkWindow    *parent,
                                 CpelTimeline *timeline);

G_END_DECLS
