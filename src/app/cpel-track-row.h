/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-track-row.h — one row of the Tracks window: shown check box, label
 * with id and event count, pin toggle, move up / down; edits the track
 * order itself.
 */
#pragma once

#include <gtk/gtk.h>

#include "cpel-track-order.h"

G_BEGIN_DECLS

#define CPEL_TYPE_TRACK_ROW (cpel_track_row_get_type ())
G_DECLARE_FINAL_TYPE (CpelTrackRow, cpel_track_row, CPEL, TRACK_ROW, GtkBox)

CpelTrackRow *cpel_track_row_new   (void);
/* Show track `slot` of `file` as `order` has it; G_MAXUINT: none. */
void          cpel_track_row_bind  (CpelTrackRow   *self,
                                    CpelTrackOrder *order,
                                    CpelFile       *file,
                                    guint           slot);
guint         cpel_track_row_get_slot (CpelTrackRow *self);

G_END_DECLS
