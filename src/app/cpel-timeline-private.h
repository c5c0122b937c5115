/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-timeline-private.h — CpelTimeline's instance struct and what its
 * parts share: cpel-timeline.c (the session's state mirrored, GObject), -snapshot.c
 * (drawing), -input.c (pointer, gestures, drags, measure, pinch, context
 * menus), -actions.c (timeline.* actions and their keys), -selection.c
 * (selecting and stepping through events). */
#pragma once

#include "cpel-timeline.h"

#include "cpel-session.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>

G_BEGIN_DECLS

/* Pixels around the label column's edge that grab it for resizing. */
#define RESIZE_GRIP       4.0
/* A press that moves less than this is a click. */
#define CLICK_SLOP        3.0
/* A measurement's end this close (px) to a span's edge snaps to it. */
#define MEASURE_SNAP_PX   5.0
/* Click radius for picking an event. */
#define HIT_RADIUS        CPEL_VIEW_HIT_RADIUS
/* Rows scrolled by one wheel notch / arrow key. */
#define WHEEL_ROWS        3.0
#define MIN_LABEL_WIDTH   60.0

typedef enum
{
  DRAG_NONE,
  DRAG_PAN,          /* on the tracks: pans time and tracks, or is a click */
  DRAG_SCROLL,       /* on the label column: scrolls tracks */
  DRAG_RULER,        /* across the ruler: zoom to the range */
  DRAG_RESIZE,       /* the label column's edge */
  DRAG_REORDER,      /* a track label: move the track */
} DragMode;

struct _CpelTimeline
{
  GtkWidget          parent_instance;

  /* The view state: range, history, tracks, types, selection, measure,
   * modes.  The widget draws it and turns input into changes of it. */
  CpelSession       *session;
  /* The session's file (kept in step when the session's changes). */
  CpelFile          *file;
  /* What cpel_render_view() draws: the session's state copied in on each
   * of its notifications, plus the widget's own (sizes, scroll, cursor). */
  CpelView           view;
  CpelPalette        light;
  CpelPalette        dark;
  double             label_width;
  char              *font;

  GtkAdjustment     *vadjustment;
  CpelOverview      *overview;
  CpelOverview      *next_overview;  /* given with the next file */
  guint              context_slot;
  GtkWidget         *context_menu;
  GMenuModel        *event_menu;   /* the owner's, for the selected event */
  GMenuModel        *track_menu;   /* the owner's items in a track's menu */

  /* Pointer */
  gboolean           pointer_inside;
  double             pointer_x;
  double             pointer_y;

  /* Drags */
  DragMode           drag_mode;
  gboolean           drag_moved;
  double             drag_x;
  double             drag_y;
  CpelRange          drag_range;
  double             drag_scroll;
  double             drag_label_width;
  gboolean           measuring;
  guint64            measure_count;
  GdkModifierType    drag_state;
  guint              reorder_slot;
  int                reorder_row;      /* insertion row, -1 = none */

  /* Pinch */
  CpelRange          pinch_range;
  gint64             pinch_anchor;

  /* The last frame without the cursor line, reused while only the cursor
   * moves (GSK then repaints just the cursor's strip). */
  GskRenderNode     *frame;
  gboolean           frame_dirty;
  int                frame_width;
  int                frame_height;
  int                frame_scale;
  const CpelPalette *frame_palette;

  /* Gaps of a followed capture (cpel_timeline_set_gaps): gint64 time,
   * guint64 lost, in pairs */
  GArray            *gaps;
  gboolean           gaps_at_least;

  /* Statistics */
  guint64            n_frames;
  gint64             last_frame_us;
};

enum
{
  PROP_0,
  PROP_FILE,
  PROP_SESSION,
  PROP_LABEL_WIDTH,
  PROP_COLOR_MODE,
  PROP_SUMMARY,
  PROP_ROW_HEIGHT,
  PROP_EVENT_MENU,
  PROP_TRACK_MENU,
  N_PROPS
};

extern GParamSpec *_cpel_timeline_properties[N_PROPS];

enum
{
  VIEW_CHANGED,
  SELECTION_CHANGED,
  POINTER_CHANGED,
  N_SIGNALS
};

extern guint _cpel_timeline_signals[N_SIGNALS];


/* cpel-timeline.c: the view state */
double     _cpel_timeline_time_area_width   (CpelTimeline      *self);
guint      _cpel_timeline_n_rows            (CpelTimeline      *self);
guint      _cpel_timeline_row_slot          (CpelTimeline      *self,
                                             guint              row);
/* Display row of a slot, or -1 when the slot is filtered out. */
int        _cpel_timeline_slot_row          (CpelTimeline      *self,
                                             guint              slot);
gboolean   _cpel_timeline_type_hidden       (CpelTimeline      *self,
                                             guint              slot,
                                             guint64            index);
/* The view changed: the next frame is drawn anew. */
void       _cpel_timeline_invalidate        (CpelTimeline      *self);
void       _cpel_timeline_view_changed      (CpelTimeline      *self);
void       _cpel_timeline_update_cursor     (CpelTimeline      *self);
CpelRange *_cpel_timeline_view_range        (CpelTimeline      *self);
/* Apply a new range to the session: history when `mode` is not 0
 * (1 = discrete step, 2 = continuous, coalesced), clamped. */
void       _cpel_timeline_apply_range       (CpelTimeline      *self,
                                             const CpelRange   *range,
                                             int                mode);
const CpelRangeLimits *_cpel_timeline_limits (CpelTimeline     *self);
void       _cpel_timeline_update_adjustment (CpelTimeline      *self);
double     _cpel_timeline_clamp_label_width (CpelTimeline      *self,
                                             double             width);
void       _cpel_timeline_recount_measure   (CpelTimeline      *self);
gint64     _cpel_timeline_measure_time      (CpelTimeline      *self,
                                             double             x,
                                             double             y);

/* cpel-timeline-snapshot.c: the GtkWidget vfuncs that draw and size it */
void       _cpel_timeline_snapshot          (GtkWidget         *widget,
                                             GtkSnapshot       *snapshot);
void       _cpel_timeline_size_allocate     (GtkWidget         *widget,
                                             int                width,
                                             int                height,
                                             int                baseline);
void       _cpel_timeline_measure           (GtkWidget         *widget,
                                             GtkOrientation     orientation,
                                             int                for_size,
                                             int               *minimum,
                                             int               *natural,
                                             int               *minimum_baseline,
                                             int               *natural_baseline);

/* cpel-timeline-input.c: the event controllers, the context menus */
void       _cpel_timeline_input_init        (CpelTimeline      *self);
void       _cpel_timeline_show_event_menu   (CpelTimeline      *self,
                                             double             x,
                                             double             y);

/* cpel-timeline-actions.c: timeline.* actions and their keys */
void       _cpel_timeline_class_actions_init (GtkWidgetClass   *widget_class);
void       _cpel_timeline_update_actions    (CpelTimeline      *self);

G_END_DECLS
