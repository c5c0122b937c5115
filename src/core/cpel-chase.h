/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-chase.h — g2's "chase": the tracks an event code or datum runs through
 *
 * Chasing an event code (or a datum, e.g. a buffer address handed from
 * thread to thread, or both) narrows the view to the tracks holding at least
 * one matching event.  Chasing a track pins it at the top: a track order
 * with that slot moved first.
 */
#pragma once

#include "cpel-file.h"

G_BEGIN_DECLS

typedef struct
{
  gboolean  match_code;
  guint32   code;
  gboolean  match_datum;
  guint32   datum;
} CpelChaseQuery;

/* Slots (ascending) of the tracks with at least one event matching every
 * enabled criterion (no criterion: every track with an event).  Returns a
 * newly allocated array of *n_slots entries (never NULL on success; free
 * with g_free), or NULL with G_IO_ERROR_CANCELLED. */
guint *cpel_chase_find_tracks       (CpelFile              *file,
                                     const CpelChaseQuery  *query,
                                     guint                 *n_slots,
                                     GCancellable          *cancellable,
                                     GError               **error);

/* Shorthands (not cancellable). */
guint *cpel_chase_tracks_with_code  (CpelFile *file, guint32 code, guint *n_slots);
guint *cpel_chase_tracks_with_datum (CpelFile *file, guint32 datum, guint *n_slots);
guint *cpel_chase_tracks_with_event (CpelFile *file, guint32 code, guint32 datum,
                                     guint *n_slots);

/* A track order with `slots` moved to the top, in the order given, the rest
 * keeping their relative order.  `order` NULL = every slot 0..n_order-1.  A
 * slot absent from `order` is inserted at the top; a slot given twice
 * counts once.  Newly allocated, *n_out entries. */
guint *cpel_chase_order_to_top      (const guint *order, guint n_order,
                                     const guint *slots, guint n_slots,
                                     guint *n_out);
/* "Chase track": one slot to the top. */
guint *cpel_chase_order_pin         (const guint *order, guint n_order,
                                     guint slot, guint *n_out);

G_END_DECLS
