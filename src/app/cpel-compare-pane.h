/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-compare-pane.h — two captures under one ruler (the compare view's
 * widget): draws cpel_render_compare(); zoom, pan and scroll act on both */
#pragma once

#include <gtk/gtk.h>

#include "cpel-core.h"
#include "cpel-render.h"
#include "cpel-session.h"

G_BEGIN_DECLS

#define CPEL_TYPE_COMPARE_PANE (cpel_compare_pane_get_type ())
G_DECLARE_FINAL_TYPE (CpelComparePane, cpel_compare_pane, CPEL, COMPARE_PANE, GtkWidget)

GtkWidget             *cpel_compare_pane_new        (void);
/* The compare state (B's offset, the ruler's origin, pairing): a session
 * of its own until one is set; the pane follows its notifications, and the
 * setters below change it. */
CpelSession           *cpel_compare_pane_get_session (CpelComparePane *self);
void                   cpel_compare_pane_set_session (CpelComparePane *self,
                                                      CpelSession     *session);
/* Both whole, from their first event (the alignment reset), pairing kept. */
void                   cpel_compare_pane_set_files  (CpelComparePane *self,
                                                     CpelFile        *a,
                                                     const char      *name_a,
                                                     CpelFile        *b,
                                                     const char      *name_b);
CpelFile              *cpel_compare_pane_get_file_a (CpelComparePane *self);
CpelFile              *cpel_compare_pane_get_file_b (CpelComparePane *self);
/* The view drawn (B's range synced). */
const CpelCompareView *cpel_compare_pane_get_view   (CpelComparePane *self);
/* B's time = A's time + offset. */
void                   cpel_compare_pane_set_offset (CpelComparePane *self,
                                                     gint64           offset_b);
gboolean               cpel_compare_pane_get_paired (CpelComparePane *self);
void                   cpel_compare_pane_set_paired (CpelComparePane *self,
                                                     gboolean         paired);
/* factor < 1 zooms in, around A's time `center`. */
void                   cpel_compare_pane_zoom       (CpelComparePane *self,
                                                     double           factor,
                                                     gint64           center);
/* By a fraction of the shown span (negative: earlier). */
void                   cpel_compare_pane_pan        (CpelComparePane *self,
                                                     double           fraction);
void                   cpel_compare_pane_zoom_fit   (CpelComparePane *self);
void                   cpel_compare_pane_set_range  (CpelComparePane *self,
                                                     gint64           t0,
                                                     gint64           t1);

/* Each side's whole-capture density summary (for the overview strip;
 * NULL: built when drawn); references kept, dropped with other files. */
void                   cpel_compare_pane_set_overviews (CpelComparePane *self,
                                                        CpelOverview    *a,
                                                        CpelOverview    *b);
/* The label formats (cpel-labels.h) of the two captures, in either order:
 * each side draws its events' labels with the ones of its file (none of
 * its file: the whole labels), also after a swap; references kept. */
void                   cpel_compare_pane_set_labels (CpelComparePane *self,
                                                     CpelLabels      *one,
                                                     CpelLabels      *other);
/* Matches to highlight in A and in B (either NULL: none); references kept. */
void                   cpel_compare_pane_set_matches (CpelComparePane  *self,
                                                      CpelSearchResult *a,
                                                      CpelSearchResult *b);
/* Select an event of a side (slot G_MAXUINT: none there). */
void                   cpel_compare_pane_select     (CpelComparePane *self,
                                                     CpelCompareSide  side,
                                                     guint            slot,
                                                     guint64          index);
/* The event the details pane shows: the side selected last (else the
 * other side's selection); FALSE when neither side has one.  Property
 * "selection" is notified on every change. */
gboolean               cpel_compare_pane_get_selection (CpelComparePane *self,
                                                        CpelCompareSide *side,
                                                        guint           *slot,
                                                        guint64         *index);
/* What a side shows: its hidden event types (n_types flags, NULL: none) and
 * its rows (slots in order, NULL: every track); both taken.  TRUE when
 * that changed anything. */
gboolean               cpel_compare_pane_set_filters (CpelComparePane *self,
                                                      CpelCompareSide  side,
                                                      guint8          *hidden_types,
                                                      guint           *rows,
                                                      guint            n_rows);
/* B's time = A's time + offset_b; the ruler reads A's time - origin. */
void                   cpel_compare_pane_set_alignment (CpelComparePane *self,
                                                        gint64           offset_b,
                                                        gint64           origin);
/* "Align Here": B's selected event drawn at A's selected event, the ruler
 * reading time from there (negative before); A does not move.  FALSE
 * unless both panes have a selected event. */
gboolean               cpel_compare_pane_align_selected (CpelComparePane *self);
/* The zoom history (every range change but the wheel's and the arrow
 * keys' steps, which coalesce): FALSE when there is nothing to go to. */
gboolean               cpel_compare_pane_go_back    (CpelComparePane *self);
gboolean               cpel_compare_pane_go_forward (CpelComparePane *self);
/* The measure band (A's times), drawn across both panes; a drag across
 * the ruler sets it, a click on the ruler or Escape clears it. */
void                   cpel_compare_pane_set_measure (CpelComparePane *self,
                                                      gint64           t0,
                                                      gint64           t1);
void                   cpel_compare_pane_clear_measure (CpelComparePane *self);
/* Centre A's time `t` (the span kept; not past the captures' ends when
 * the span fits between them). */
void                   cpel_compare_pane_center     (CpelComparePane *self,
                                                     gint64           t);
/* The pointer's time (A's) while it is over the rows' area; property
 * "cursor" is notified when it moves. */
gboolean               cpel_compare_pane_get_cursor (CpelComparePane *self,
                                                     gint64          *t);
/* Frames drawn so far and the last one's drawing (cpel_render_compare)
 * time, for `cpelview --benchmark A --compare B`. */
guint                  cpel_compare_pane_get_n_frames      (CpelComparePane *self);
gint64                 cpel_compare_pane_get_last_frame_us (CpelComparePane *self);

G_END_DECLS
