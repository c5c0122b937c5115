/* cpel-track-order.h — which tracks a timeline shows, and in what order
 *
 * Every track has a position in a full order (initially slot order), may be
 * hidden, may be pinned (pinned tracks come first and ignore the name
 * filter), and the name filter keeps the tracks whose label contains it
 * (case-insensitive).  The rows to draw follow from that.  No GTK.
 */
#pragma once

#include "cpel-core.h"

G_BEGIN_DECLS

#define CPEL_TYPE_TRACK_ORDER (cpel_track_order_get_type ())
G_DECLARE_FINAL_TYPE (CpelTrackOrder, cpel_track_order, CPEL, TRACK_ORDER, GObject)

CpelTrackOrder *cpel_track_order_new         (CpelFile       *file);

guint           cpel_track_order_get_n       (CpelTrackOrder *self);
/* The slot at `position` of the full order. */
guint           cpel_track_order_get_slot    (CpelTrackOrder *self,
                                              guint           position);
/* Move a track `delta` places among the tracks of its group (pinned or
 * not) in the full order; stops at the ends. */
void            cpel_track_order_move        (CpelTrackOrder *self,
                                              guint           slot,
                                              int             delta);
void            cpel_track_order_set_hidden  (CpelTrackOrder *self,
                                              guint           slot,
                                              gboolean        hidden);
gboolean        cpel_track_order_get_hidden  (CpelTrackOrder *self,
                                              guint           slot);
void            cpel_track_order_set_pinned  (CpelTrackOrder *self,
                                              guint           slot,
                                              gboolean        pinned);
gboolean        cpel_track_order_get_pinned  (CpelTrackOrder *self,
                                              guint           slot);
void            cpel_track_order_set_filter  (CpelTrackOrder *self,
                                              const char     *text);
const char     *cpel_track_order_get_filter  (CpelTrackOrder *self);
gboolean        cpel_track_order_matches     (CpelTrackOrder *self,
                                              guint           slot);
/* Everything back to slot order, shown, unpinned, unfiltered. */
void            cpel_track_order_reset       (CpelTrackOrder *self);

/* The rows to draw (slots), valid until the next change; NULL with
 * *n_rows = n when every track is shown in slot order. */
const guint    *cpel_track_order_get_rows    (CpelTrackOrder *self,
                                              guint          *n_rows);

G_END_DECLS
