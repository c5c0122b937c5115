/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-track-order.h — which tracks a timeline shows, and in what order
 *
 * Every track has a position in a full order (initially slot order), may be
 * hidden, may be pinned (pinned tracks come first and ignore the name
 * filter), and the name filter keeps the tracks whose label contains its
 * text or matches its regular expression (case-insensitive either way).  The rows to draw follow from that.  No GTK.
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
/* Whether cpel_track_order_move (slot, delta) would move it (FALSE at the
 * end of its group). */
gboolean        cpel_track_order_can_move    (CpelTrackOrder *self,
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
/* A regular expression (GRegex, case-insensitive) instead of a text; an
 * empty one clears the filter.  A pattern that does not compile changes
 * nothing and says why in `error`. */
gboolean        cpel_track_order_set_filter_regex (CpelTrackOrder  *self,
                                                   const char      *pattern,
                                                   GError         **error);
/* The text (casefolded) or the pattern; NULL without a filter. */
const char     *cpel_track_order_get_filter  (CpelTrackOrder *self);
gboolean        cpel_track_order_get_filter_is_regex (CpelTrackOrder *self);
gboolean        cpel_track_order_matches     (CpelTrackOrder *self,
                                              guint           slot);
/* Everything back to slot order, shown, unpinned, unfiltered. */
void            cpel_track_order_reset       (CpelTrackOrder *self);

/* The rows to draw (slots), valid until the next change; NULL with
 * *n_rows = n when every track is shown in slot order. */
const guint    *cpel_track_order_get_rows    (CpelTrackOrder *self,
                                              guint          *n_rows);

/* The Tracks window's list: the pinned tracks, then the others the filter
 * keeps, in the full order (hidden ones included); *n_slots of them. */
guint          *cpel_track_order_get_listed  (CpelTrackOrder *self,
                                              guint          *n_slots);
/* The first track shown that the filter keeps (pinned tracks are shown
 * whatever the filter); G_MAXUINT: none. */
guint           cpel_track_order_first_shown_match (CpelTrackOrder *self);

/* Raise (top) or sink (bottom) a track within its group (g2's Shift+click
 * and Ctrl+click on a track label). */
void            cpel_track_order_raise       (CpelTrackOrder *self,
                                              guint           slot,
                                              gboolean        to_top);
/* Drag and drop: put `slot` just before the track `before` (G_MAXUINT: after
 * every track); it joins the group (pinned or not) of the place it lands. */
void            cpel_track_order_place       (CpelTrackOrder *self,
                                              guint           slot,
                                              guint           before);

typedef enum
{
  CPEL_TRACK_SORT_DEFAULT,   /* slot (file) order */
  CPEL_TRACK_SORT_NAME,      /* label, digits compared as numbers */
  CPEL_TRACK_SORT_ID,        /* track id, ascending */
  CPEL_TRACK_SORT_COUNT,     /* number of events, busiest first */
} CpelTrackSort;

/* Reorder every track by `key` (stable: slot order breaks ties); hidden,
 * pinned and the filter stay. */
void            cpel_track_order_sort        (CpelTrackOrder *self,
                                              CpelTrackSort   key);
/* Show exactly `slots`, in that order: the others hidden, nothing pinned,
 * no filter (a saved view, a chase).  Slots out of range are skipped. */
void            cpel_track_order_set_rows    (CpelTrackOrder *self,
                                              const guint    *slots,
                                              guint           n_slots);
/* A copy of the whole state, and putting one back (same file). */
CpelTrackOrder *cpel_track_order_copy        (CpelTrackOrder *self);
void            cpel_track_order_assign      (CpelTrackOrder *self,
                                              CpelTrackOrder *from);
/* Same order, hidden and pinned tracks and filter. */
gboolean        cpel_track_order_equal       (CpelTrackOrder *a,
                                              CpelTrackOrder *b);

G_END_DECLS
