/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-details.h — the details pane: everything about the selected event */
#pragma once

#include <gtk/gtk.h>

#include "cpel-core.h"

G_BEGIN_DECLS

#define CPEL_TYPE_DETAILS (cpel_details_get_type ())
G_DECLARE_FINAL_TYPE (CpelDetails, cpel_details, CPEL, DETAILS, GtkWidget)

GtkWidget  *cpel_details_new       (void);
/* Show the index-th event of track `slot`; file NULL shows "nothing selected". */
void        cpel_details_set_event (CpelDetails *self,
                                    CpelFile    *file,
                                    guint        slot,
                                    guint64      index);
/* Show a span (a state, when `state`) of track `slot`: its name, begin,
 * end, duration, depth, completeness and its begin and end events. */
void        cpel_details_set_span  (CpelDetails *self,
                                    CpelFile    *file,
                                    CpelSpans   *spans,
                                    guint        slot,
                                    gboolean     state,
                                    guint64      index);
void        cpel_details_clear     (CpelDetails *self);
/* The label formats (cpel-labels.h) for the headline of an event of their
 * file: the label they make, else the event's name.  NULL: none. */
void        cpel_details_set_labels (CpelDetails *self,
                                     CpelLabels  *labels);
/* The value shown for a field (tests): "headline" (the event's name, or
 * its label by the label formats),
 * "label" (the whole label, body text), "time", "track", "code", "event",
 * "datum-hex", "datum-dec", "decoded", "delta", "call-chain" (a binary a
 * line, the symbols of its frames below it after an em space, an unknown
 * one followed by its address in hex); a span's "begin", "end",
 * "duration", "self", "depth", "flags", "begin-event", "end-event"; NULL when
 * unknown. */
const char *cpel_details_get_value (CpelDetails *self,
                                    const char  *field);

G_END_DECLS
