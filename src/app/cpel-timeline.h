/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-timeline.h — the timeline widget: view state and input; drawing is
 * cpel_render_view()'s job.
 */
#pragma once

#include <gtk/gtk.h>

#include "cpel-render.h"
#include "cpel-range.h"
#include "cpel-session.h"
#include "cpel-track-order.h"

G_BEGIN_DECLS

/* Zoom factor of one key press / button click. */
#define CPEL_TIMELINE_ZOOM_STEP 2.0
/* Pan of one key press, as a fraction of the visible span. */
#define CPEL_TIMELINE_PAN_STEP  0.1

#define CPEL_TYPE_TIMELINE (cpel_timeline_get_type ())
G_DECLARE_FINAL_TYPE (CpelTimeline, cpel_timeline, CPEL, TIMELINE, GtkWidget)

GtkWidget      *cpel_timeline_new               (void);

/* The view state shown (range, history, tracks, types, selection, measure,
 * colour and summary modes): a session of its own until one is set.  Read
 * and change the view state through the session; the functions below are
 * the widget's (pixels, pointer, scrolling) and a few kept shortcuts. */
CpelSession    *cpel_timeline_get_session       (CpelTimeline      *self);
void            cpel_timeline_set_session       (CpelTimeline      *self,
                                                 CpelSession       *session);

/* Show `file` (NULL: nothing); its overview summary is built here. */
void            cpel_timeline_set_file          (CpelTimeline      *self,
                                                 CpelFile          *file);
/* Same with a summary built beforehand (e.g. in the loading thread). */
void            cpel_timeline_set_file_full     (CpelTimeline      *self,
                                                 CpelFile          *file,
                                                 CpelOverview      *overview);
CpelFile       *cpel_timeline_get_file          (CpelTimeline      *self);

/* The view as drawn (valid until the next change; NULL without a file). */
const CpelView *cpel_timeline_get_view          (CpelTimeline      *self);
GtkAdjustment  *cpel_timeline_get_vadjustment   (CpelTimeline      *self);

/* Visible time range [t0, t1) (the session's; its limits are there too). */
void            cpel_timeline_get_range         (CpelTimeline      *self,
                                                 gint64            *t0,
                                                 gint64            *t1);
/* Set the range (clamped).  `remember`: the previous range goes to the
 * zoom history (Alt+←). */
void            cpel_timeline_set_range         (CpelTimeline      *self,
                                                 gint64             t0,
                                                 gint64             t1,
                                                 gboolean           remember);

/* Zoom by `factor` (> 1: in) keeping the time under `x` (widget
 * coordinates) in place; x < 0: around the centre of the time area. */
void            cpel_timeline_zoom              (CpelTimeline      *self,
                                                 double             factor,
                                                 double             x);
/* Pan by a fraction of the visible span (positive: later). */
void            cpel_timeline_pan               (CpelTimeline      *self,
                                                 double             fraction);
/* Scroll the tracks by `pixels` (positive: down). */
void            cpel_timeline_scroll_tracks     (CpelTimeline      *self,
                                                 double             pixels);

/* Select the next (direction > 0) or previous visible event on the
 * selected track; FALSE when there is none. */
gboolean        cpel_timeline_select_adjacent   (CpelTimeline      *self,
                                                 int                direction);
/* Select the nearest event to (x, y) within a few pixels. */
gboolean        cpel_timeline_select_at         (CpelTimeline      *self,
                                                 double             x,
                                                 double             y);

/* Select the span or state drawn at (x, y) (where no event is near). */
gboolean        cpel_timeline_select_span_at    (CpelTimeline      *self,
                                                 double             x,
                                                 double             y);

/* Pointer and measurement (for the status line). */
gboolean        cpel_timeline_get_cursor_time   (CpelTimeline      *self,
                                                 gint64            *t);
gboolean        cpel_timeline_get_measure       (CpelTimeline      *self,
                                                 gint64            *t0,
                                                 gint64            *t1,
                                                 guint64           *n_events);
void            cpel_timeline_clear_measure     (CpelTimeline      *self);

double          cpel_timeline_get_label_width   (CpelTimeline      *self);
void            cpel_timeline_set_label_width   (CpelTimeline      *self,
                                                 double             width);

/* How event ticks and density are coloured (g2's `c`): CpelColorMode, in
 * cpel-color-mode.h; the session keeps it and the summary mode (g2's `e`:
 * ticks and density only, no event labels), which the properties
 * "color-mode" and "summary" mirror.  Property "row-height" (g2's `t` /
 * `g`). */
#define CPEL_TIMELINE_MIN_ROW_HEIGHT 12.0
#define CPEL_TIMELINE_MAX_ROW_HEIGHT 72.0
#define CPEL_TIMELINE_ROW_HEIGHT_STEP 4.0
double          cpel_timeline_get_row_height    (CpelTimeline      *self);
/* Clamped to [MIN, MAX]; the top row stays where it is. */
void            cpel_timeline_set_row_height    (CpelTimeline      *self,
                                                 double             height);

/* Frames drawn so far and the duration of the last snapshot (µs). */
guint64         cpel_timeline_get_n_frames      (CpelTimeline      *self);
gint64          cpel_timeline_get_last_frame_us (CpelTimeline      *self);

/* Places where entries were lost (a followed capture): a red line across
 * the rows at each time, "lost N" (`at_least`: "lost ≥ N") on the ruler.
 * Copied; n_gaps 0 clears them. */
void            cpel_timeline_set_gaps          (CpelTimeline      *self,
                                                 const gint64      *times,
                                                 const guint64     *n_lost,
                                                 guint              n_gaps,
                                                 gboolean           at_least);
guint           cpel_timeline_get_n_gaps        (CpelTimeline      *self);

G_END_DECLS
