/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-timeline.c — the timeline widget: view state and input
 *
 * The widget keeps a CpelView (range, rows, selection, matches, measure,
 * cursor) and turns pointer, touchpad and key input into changes of it.
 * Drawing is one cpel_render_view() call per frame into an image; the
 * widget redraws only when the view changes and caches nothing per event.
 */
#include "cpel-timeline.h"

#include "cpel-track-order.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>

/* Pixels around the label column's edge that grab it for resizing. */
#define RESIZE_GRIP       4.0
/* A press that moves less than this is a click. */
#define CLICK_SLOP        3.0
/* Click radius for picking an event. */
#define HIT_RADIUS        6.0
/* Rows scrolled by one wheel notch / arrow key. */
#define WHEEL_ROWS        3.0
#define MIN_LABEL_WIDTH   60.0
#define HISTORY_MAX       100
/* Continuous navigation (wheel, keys) within this time is one history step. */
#define HISTORY_COALESCE_US (700 * G_TIME_SPAN_MILLISECOND)

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

  CpelFile          *file;
  CpelView           view;
  CpelPalette        light;
  CpelPalette        dark;
  CpelRangeLimits    limits;
  double             label_width;
  char              *font;

  GArray            *back;       /* CpelRange */
  GArray            *forward;    /* CpelRange */
  gint64             last_remember_us;

  GtkAdjustment     *vadjustment;
  CpelSearchResult  *matches;
  guint8            *hidden_types;
  guint             *rows;
  CpelTrackOrder    *order;
  CpelOverview      *overview;
  guint              context_slot;
  GtkWidget         *context_menu;
  GMenuModel        *event_menu;   /* the owner's, for the selected event */
  GMenuModel        *track_menu;   /* the owner's items in a track's menu */
  CpelColorMode      color_mode;
  gboolean           summary;

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

  /* Statistics */
  guint64            n_frames;
  gint64             last_frame_us;
};

G_DEFINE_FINAL_TYPE (CpelTimeline, cpel_timeline, GTK_TYPE_WIDGET)

G_DEFINE_ENUM_TYPE (CpelColorMode, cpel_color_mode,
                    G_DEFINE_ENUM_VALUE (CPEL_COLOR_BY_CODE, "code"),
                    G_DEFINE_ENUM_VALUE (CPEL_COLOR_BY_TRACK, "track"),
                    G_DEFINE_ENUM_VALUE (CPEL_COLOR_NONE, "none"))

enum
{
  PROP_0,
  PROP_FILE,
  PROP_LABEL_WIDTH,
  PROP_COLOR_MODE,
  PROP_SUMMARY,
  PROP_ROW_HEIGHT,
  PROP_EVENT_MENU,
  PROP_TRACK_MENU,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  VIEW_CHANGED,
  SELECTION_CHANGED,
  POINTER_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ------------------------------------------------------------------------ */
/* Helpers                                                                    */

static double
time_area_width (CpelTimeline *self)
{
  return gtk_widget_get_width (GTK_WIDGET (self)) - self->view.label_width;
}

static guint
n_rows (CpelTimeline *self)
{
  if (self->file == NULL)
    return 0;
  return self->view.rows != NULL ? self->view.n_rows : cpel_file_get_n_tracks (self->file);
}

static guint
row_slot (CpelTimeline *self,
          guint         row)
{
  return self->view.rows != NULL ? self->view.rows[row] : row;
}

/* Display row of a slot, or -1 when the slot is filtered out. */
static int
slot_row (CpelTimeline *self,
          guint         slot)
{
  if (self->view.rows == NULL)
    return slot < n_rows (self) ? (int) slot : -1;
  for (guint i = 0; i < self->view.n_rows; i++)
    if (self->view.rows[i] == slot)
      return (int) i;
  return -1;
}

static gboolean
type_hidden (CpelTimeline *self,
             guint         slot,
             guint64       index)
{
  guint32 code;
  guint type;

  if (self->hidden_types == NULL)
    return FALSE;
  code = cpel_file_get_track_event_code (self->file, slot, index);
  if (!cpel_file_lookup_type (self->file, code, &type))
    return FALSE;
  return self->hidden_types[type] != 0;
}

/* The view changed: the next frame is drawn anew. */
static void
invalidate (CpelTimeline *self)
{
  self->frame_dirty = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
update_actions (CpelTimeline *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  gboolean has_file = self->file != NULL;
  CpelRange fit;

  cpel_range_fit (&fit, &self->limits);

  gtk_widget_action_set_enabled (widget, "timeline.zoom-in",
                                 has_file && cpel_range_span ((CpelRange *) &self->view.t0) > self->limits.min_span);
  gtk_widget_action_set_enabled (widget, "timeline.zoom-out",
                                 has_file && !cpel_range_equal ((CpelRange *) &self->view.t0, &fit));
  gtk_widget_action_set_enabled (widget, "timeline.fit",
                                 has_file && !cpel_range_equal ((CpelRange *) &self->view.t0, &fit));
  gtk_widget_action_set_enabled (widget, "timeline.back", has_file && self->back->len > 0);
  gtk_widget_action_set_enabled (widget, "timeline.forward", has_file && self->forward->len > 0);
  gtk_widget_action_set_enabled (widget, "timeline.pan-left", has_file);
  gtk_widget_action_set_enabled (widget, "timeline.pan-right", has_file);
  gtk_widget_action_set_enabled (widget, "timeline.scroll-up", has_file);
  gtk_widget_action_set_enabled (widget, "timeline.scroll-down", has_file);
  gtk_widget_action_set_enabled (widget, "timeline.page-up", has_file);
  gtk_widget_action_set_enabled (widget, "timeline.page-down", has_file);
  gtk_widget_action_set_enabled (widget, "timeline.next-event", has_file);
  gtk_widget_action_set_enabled (widget, "timeline.previous-event", has_file);
  gtk_widget_action_set_enabled (widget, "timeline.clear", has_file);
}

static void
view_changed (CpelTimeline *self)
{
  update_actions (self);
  invalidate (self);
  g_signal_emit (self, signals[VIEW_CHANGED], 0);
}

static void
update_cursor (CpelTimeline *self)
{
  gboolean has = self->file != NULL && self->pointer_inside
                 && self->pointer_x >= self->view.label_width;

  if (has)
    self->view.cursor_t = cpel_view_x_to_time (&self->view,
                                               gtk_widget_get_width (GTK_WIDGET (self)),
                                               self->pointer_x);
  self->view.has_cursor = has;
}

static CpelRange *
view_range (CpelTimeline *self)
{
  /* t0 and t1 are adjacent gint64 fields of CpelView, like CpelRange. */
  G_STATIC_ASSERT (G_STRUCT_OFFSET (CpelView, t1) - G_STRUCT_OFFSET (CpelView, t0) == sizeof (gint64));
  return (CpelRange *) &self->view.t0;
}

static void
remember (CpelTimeline *self,
          gboolean      coalesce)
{
  gint64 now = g_get_monotonic_time ();
  CpelRange *current = view_range (self);

  if (coalesce && now - self->last_remember_us < HISTORY_COALESCE_US)
    {
      self->last_remember_us = now;
      return;
    }
  self->last_remember_us = coalesce ? now : 0;

  if (self->back->len > 0
      && cpel_range_equal (&g_array_index (self->back, CpelRange, self->back->len - 1), current))
    return;
  g_array_append_val (self->back, *current);
  if (self->back->len > HISTORY_MAX)
    g_array_remove_index (self->back, 0);
  g_array_set_size (self->forward, 0);
}

/* Apply a new range: history (when `mode` is not 0: 1 = discrete step,
 * 2 = continuous, coalesced), clamp, redraw. */
static void
apply_range (CpelTimeline    *self,
             const CpelRange *range,
             int              mode)
{
  CpelRange next = *range;

  cpel_range_clamp (&next, &self->limits);
  if (cpel_range_equal (&next, view_range (self)))
    return;
  if (mode != 0)
    remember (self, mode == 2);
  *view_range (self) = next;
  update_cursor (self);
  view_changed (self);
}

static void
update_adjustment (CpelTimeline *self)
{
  double height = gtk_widget_get_height (GTK_WIDGET (self));
  double page = MAX (0.0, height - self->view.ruler_height);
  double upper = self->file != NULL ? cpel_view_get_content_height (&self->view) : 0;
  double value = gtk_adjustment_get_value (self->vadjustment);

  upper = MAX (upper, page);
  value = CLAMP (value, 0.0, upper - page);
  gtk_adjustment_configure (self->vadjustment, value, 0.0, upper,
                            self->view.row_height, MAX (self->view.row_height, page * 0.9),
                            page);
}

static double
clamp_label_width (CpelTimeline *self,
                   double        width)
{
  double widget_width = gtk_widget_get_width (GTK_WIDGET (self));
  double max = widget_width > 0 ? MAX (MIN_LABEL_WIDTH, widget_width / 2) : 1000.0;

  return CLAMP (width, MIN_LABEL_WIDTH, max);
}

static void
recount_measure (CpelTimeline *self)
{
  self->measure_count = cpel_view_count_range (&self->view,
                                               MIN (self->view.measure_t0, self->view.measure_t1),
                                               MAX (self->view.measure_t0, self->view.measure_t1));
}

static void
on_order_changed (CpelTrackOrder *order,
                  CpelTimeline   *self)
{
  guint n;
  const guint *rows = cpel_track_order_get_rows (order, &n);

  cpel_timeline_set_rows (self, rows, rows != NULL ? n : 0);
}

/* ------------------------------------------------------------------------ */
/* Public API                                                                 */

GtkWidget *
cpel_timeline_new (void)
{
  return g_object_new (CPEL_TYPE_TIMELINE, NULL);
}

void
cpel_timeline_set_file (CpelTimeline *self,
                        CpelFile     *file)
{
  cpel_timeline_set_file_full (self, file, NULL);
}

void
cpel_timeline_set_file_full (CpelTimeline *self,
                             CpelFile     *file,
                             CpelOverview *overview)
{
  g_return_if_fail (CPEL_IS_TIMELINE (self));
  g_return_if_fail (file == NULL || CPEL_IS_FILE (file));

  if (self->file == file)
    return;

  g_clear_pointer (&self->overview, cpel_overview_unref);
  if (overview != NULL)
    self->overview = cpel_overview_ref (overview);
  else if (file != NULL)
    self->overview = cpel_overview_new (file, 0, NULL, NULL);

  g_clear_pointer (&self->matches, cpel_search_result_unref);
  g_clear_pointer (&self->hidden_types, g_free);
  g_clear_pointer (&self->rows, g_free);
  if (self->order != NULL)
    g_signal_handlers_disconnect_by_data (self->order, self);
  g_clear_object (&self->order);
  g_set_object (&self->file, file);
  if (file != NULL)
    {
      self->order = cpel_track_order_new (file);
      g_signal_connect (self->order, "changed", G_CALLBACK (on_order_changed), self);
    }
  g_array_set_size (self->back, 0);
  g_array_set_size (self->forward, 0);

  {
    /* The row height and colours chosen stay for the next file. */
    double row_height = self->view.row_height > 0 ? self->view.row_height : 24;

    memset (&self->view, 0, sizeof self->view);
    self->view.ruler_height = 28;
    if (file != NULL)
      {
        cpel_view_init (&self->view, file, &self->light);
        cpel_range_limits_init (&self->limits, cpel_file_get_duration (file));
      }
    else
      cpel_range_limits_init (&self->limits, 0);
    self->view.row_height = row_height;
    self->view.color_by_type = self->color_mode == CPEL_COLOR_BY_CODE;
    self->view.color_mode = self->color_mode;
    self->view.summary = self->summary;
  }
  self->view.label_width = self->label_width;
  self->view.font = self->font;
  self->view.overview = self->overview;
  cpel_range_fit (view_range (self), &self->limits);
  self->view.has_selection = FALSE;
  self->view.has_measure = FALSE;
  self->view.matches = NULL;
  self->view.hidden_types = NULL;
  self->view.rows = NULL;
  self->view.n_rows = 0;
  self->measuring = FALSE;

  gtk_adjustment_set_value (self->vadjustment, 0);
  update_adjustment (self);
  update_cursor (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE]);
  view_changed (self);
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
  g_signal_emit (self, signals[POINTER_CHANGED], 0);
}

CpelFile *
cpel_timeline_get_file (CpelTimeline *self)
{
  g_return_val_if_fail (CPEL_IS_TIMELINE (self), NULL);
  return self->file;
}

const CpelView *
cpel_timeline_get_view (CpelTimeline *self)
{
  g_return_val_if_fail (CPEL_IS_TIMELINE (self), NULL);
  if (self->file == NULL)
    return NULL;
  self->view.palette = adw_style_manager_get_dark (adw_style_manager_get_default ())
                       ? &self->dark : &self->light;
  return &self->view;
}

CpelTrackOrder *
cpel_timeline_get_track_order (CpelTimeline *self)
{
  g_return_val_if_fail (CPEL_IS_TIMELINE (self), NULL);
  return self->order;
}

GtkAdjustment *
cpel_timeline_get_vadjustment (CpelTimeline *self)
{
  g_return_val_if_fail (CPEL_IS_TIMELINE (self), NULL);
  return self->vadjustment;
}

void
cpel_timeline_get_range (CpelTimeline *self,
                         gint64       *t0,
                         gint64       *t1)
{
  g_return_if_fail (CPEL_IS_TIMELINE (self));
  if (t0 != NULL)
    *t0 = self->view.t0;
  if (t1 != NULL)
    *t1 = self->view.t1;
}

void
cpel_timeline_get_limits (CpelTimeline    *self,
                          CpelRangeLimits *limits)
{
  g_return_if_fail (CPEL_IS_TIMELINE (self));
  g_return_if_fail (limits != NULL);
  *limits = self->limits;
}

void
cpel_timeline_set_range (CpelTimeline *self,
                         gint64        t0,
                         gint64        t1,
                         gboolean      remember_range)
{
  CpelRange range = { t0, t1 };

  g_return_if_fail (CPEL_IS_TIMELINE (self));
  if (self->file == NULL)
    return;
  apply_range (self, &range, remember_range ? 1 : 0);
}

void
cpel_timeline_zoom (CpelTimeline *self,
                    double        factor,
                    double        x)
{
  CpelRange range;
  gint64 anchor;
  double width;

  g_return_if_fail (CPEL_IS_TIMELINE (self));
  g_return_if_fail (factor > 0);
  if (self->file == NULL)
    return;

  width = gtk_widget_get_width (GTK_WIDGET (self));
  range = *view_range (self);
  if (x < self->view.label_width || time_area_width (self) <= 0)
    anchor = range.t0 + cpel_range_span (&range) / 2;
  else
    anchor = cpel_view_x_to_time (&self->view, width, x);
  cpel_range_zoom (&range, factor, anchor, &self->limits);
  apply_range (self, &range, 2);
}

void
cpel_timeline_pan (CpelTimeline *self,
                   double        fraction)
{
  CpelRange range;

  g_return_if_fail (CPEL_IS_TIMELINE (self));
  if (self->file == NULL)
    return;

  range = *view_range (self);
  cpel_range_pan (&range, (gint64) llround (fraction * (double) cpel_range_span (&range)),
                  &self->limits);
  apply_range (self, &range, 2);
}

void
cpel_timeline_scroll_tracks (CpelTimeline *self,
                             double        pixels)
{
  g_return_if_fail (CPEL_IS_TIMELINE (self));
  gtk_adjustment_set_value (self->vadjustment,
                            gtk_adjustment_get_value (self->vadjustment) + pixels);
}

void
cpel_timeline_fit (CpelTimeline *self)
{
  CpelRange range;

  g_return_if_fail (CPEL_IS_TIMELINE (self));
  if (self->file == NULL)
    return;
  cpel_range_fit (&range, &self->limits);
  apply_range (self, &range, 1);
}

static gboolean
history_step (CpelTimeline *self,
              GArray       *from,
              GArray       *to)
{
  CpelRange range;

  if (self->file == NULL || from->len == 0)
    return FALSE;
  range = g_array_index (from, CpelRange, from->len - 1);
  g_array_set_size (from, from->len - 1);
  g_array_append_val (to, *view_range (self));
  self->last_remember_us = 0;
  cpel_range_clamp (&range, &self->limits);
  *view_range (self) = range;
  update_cursor (self);
  view_changed (self);
  return TRUE;
}

gboolean
cpel_timeline_go_back (CpelTimeline *self)
{
  g_return_val_if_fail (CPEL_IS_TIMELINE (self), FALSE);
  return history_step (self, self->back, self->forward);
}

gboolean
cpel_timeline_go_forward (CpelTimeline *self)
{
  g_return_val_if_fail (CPEL_IS_TIMELINE (self), FALSE);
  return history_step (self, self->forward, self->back);
}

gboolean
cpel_timeline_get_selection (CpelTimeline *self,
                             guint        *slot,
                             guint64      *index)
{
  g_return_val_if_fail (CPEL_IS_TIMELINE (self), FALSE);
  if (self->file == NULL || !self->view.has_selection)
    return FALSE;
  if (slot != NULL)
    *slot = self->view.selected_slot;
  if (index != NULL)
    *index = self->view.selected_index;
  return TRUE;
}

/* Scroll the tracks so that the row of `slot` is on screen: centred, or
 * by the least movement. */
static void
scroll_to_slot (CpelTimeline *self,
                guint         slot,
                gboolean      centre)
{
  int row = slot_row (self, slot);
  double top, value, page, height = self->view.row_height;

  if (row < 0)
    return;
  top = row * height;
  value = gtk_adjustment_get_value (self->vadjustment);
  page = gtk_adjustment_get_page_size (self->vadjustment);
  if (top >= value && top + height <= value + page)
    return;
  if (centre)
    gtk_adjustment_set_value (self->vadjustment, top - (page - height) / 2);
  else if (top < value)
    gtk_adjustment_set_value (self->vadjustment, top);
  else
    gtk_adjustment_set_value (self->vadjustment, top + height - page);
}

void
cpel_timeline_reveal (CpelTimeline *self,
                      guint         slot,
                      guint64       index)
{
  CpelEvent event;
  CpelRange range;

  g_return_if_fail (CPEL_IS_TIMELINE (self));
  if (self->file == NULL || slot >= cpel_file_get_n_tracks (self->file)
      || index >= cpel_file_get_track_n_events (self->file, slot))
    return;

  cpel_file_get_track_event (self->file, slot, index, &event);
  range = *view_range (self);
  cpel_range_center (&range, event.time_ns, &self->limits);
  apply_range (self, &range, 1);

  scroll_to_slot (self, slot, TRUE);
}

gboolean
cpel_timeline_reveal_track (CpelTimeline *self,
                            guint         slot)
{
  g_return_val_if_fail (CPEL_IS_TIMELINE (self), FALSE);
  if (self->file == NULL || slot >= cpel_file_get_n_tracks (self->file) || slot_row (self, slot) < 0)
    return FALSE;
  scroll_to_slot (self, slot, TRUE);
  return TRUE;
}

void
cpel_timeline_select (CpelTimeline *self,
                      guint         slot,
                      guint64       index,
                      gboolean      reveal)
{
  g_return_if_fail (CPEL_IS_TIMELINE (self));
  if (self->file == NULL || slot >= cpel_file_get_n_tracks (self->file)
      || index >= cpel_file_get_track_n_events (self->file, slot))
    return;

  if (reveal)
    {
      CpelEvent event;

      cpel_file_get_track_event (self->file, slot, index, &event);
      if (event.time_ns < self->view.t0 || event.time_ns >= self->view.t1
          || slot_row (self, slot) < 0)
        cpel_timeline_reveal (self, slot, index);
      else
        scroll_to_slot (self, slot, FALSE);
    }

  if (self->view.has_selection && self->view.selected_slot == slot
      && self->view.selected_index == index)
    return;
  self->view.has_selection = TRUE;
  self->view.selected_slot = slot;
  self->view.selected_index = index;
  invalidate (self);
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

void
cpel_timeline_unselect (CpelTimeline *self)
{
  g_return_if_fail (CPEL_IS_TIMELINE (self));
  if (!self->view.has_selection)
    return;
  self->view.has_selection = FALSE;
  invalidate (self);
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

/* First visible event on `slot` at or after index `from` going in
 * `direction`; FALSE when none. */
static gboolean
find_visible (CpelTimeline *self,
              guint         slot,
              gint64        from,
              int           direction,
              guint64      *found)
{
  guint64 n = cpel_file_get_track_n_events (self->file, slot);

  for (gint64 i = from; i >= 0 && (guint64) i < n; i += direction)
    if (!type_hidden (self, slot, (guint64) i))
      {
        *found = (guint64) i;
        return TRUE;
      }
  return FALSE;
}

gboolean
cpel_timeline_select_adjacent (CpelTimeline *self,
                               int           direction)
{
  guint64 found;

  g_return_val_if_fail (CPEL_IS_TIMELINE (self), FALSE);
  if (self->file == NULL || n_rows (self) == 0)
    return FALSE;

  direction = direction >= 0 ? 1 : -1;
  if (self->view.has_selection)
    {
      guint slot = self->view.selected_slot;
      gint64 from = (gint64) self->view.selected_index + direction;

      if (!find_visible (self, slot, from, direction, &found))
        {
          gtk_widget_error_bell (GTK_WIDGET (self));
          return FALSE;
        }
      cpel_timeline_select (self, slot, found, TRUE);
      return TRUE;
    }

  /* No selection: the first (last) event in view on the topmost row shown
   * that has one. */
  {
    guint first_row = (guint) (gtk_adjustment_get_value (self->vadjustment) / self->view.row_height);
    guint n = n_rows (self);

    for (guint r = first_row; r < n; r++)
      {
        guint slot = row_slot (self, r);
        guint64 lo = cpel_file_track_lower_bound (self->file, slot, self->view.t0);
        guint64 hi = cpel_file_track_lower_bound (self->file, slot, self->view.t1);

        if (lo >= hi)
          continue;
        if (find_visible (self, slot, direction > 0 ? (gint64) lo : (gint64) hi - 1,
                          direction, &found))
          {
            cpel_timeline_select (self, slot, found, TRUE);
            return TRUE;
          }
      }
  }

  /* Nothing in view (a deep zoom between events): the nearest event past
   * the view that way, on any row shown, brought into view. */
  {
    gboolean have = FALSE;
    guint best_slot = 0;
    guint64 best_index = 0;
    gint64 best_t = 0;

    for (guint r = 0; r < n_rows (self); r++)
      {
        guint slot = row_slot (self, r);
        guint64 n;
        const gint64 *times = cpel_file_get_track_times (self->file, slot, &n);
        gint64 from = direction > 0
                      ? (gint64) cpel_file_track_lower_bound (self->file, slot, self->view.t1)
                      : (gint64) cpel_file_track_lower_bound (self->file, slot, self->view.t0) - 1;

        if (times == NULL || !find_visible (self, slot, from, direction, &found))
          continue;
        if (!have || (direction > 0 ? times[found] < best_t : times[found] > best_t))
          {
            have = TRUE;
            best_slot = slot;
            best_index = found;
            best_t = times[found];
          }
      }
    if (have)
      {
        cpel_timeline_select (self, best_slot, best_index, TRUE);
        return TRUE;
      }
  }
  gtk_widget_error_bell (GTK_WIDGET (self));
  return FALSE;
}

gboolean
cpel_timeline_select_at (CpelTimeline *self,
                         double        x,
                         double        y)
{
  guint slot;
  guint64 index;

  g_return_val_if_fail (CPEL_IS_TIMELINE (self), FALSE);
  if (self->file == NULL)
    return FALSE;
  if (!cpel_view_hit_test (&self->view, gtk_widget_get_width (GTK_WIDGET (self)),
                           x, y, HIT_RADIUS, &slot, &index))
    return FALSE;
  cpel_timeline_select (self, slot, index, FALSE);
  return TRUE;
}

void
cpel_timeline_set_matches (CpelTimeline     *self,
                           CpelSearchResult *matches)
{
  g_return_if_fail (CPEL_IS_TIMELINE (self));
  if (self->matches == matches)
    return;
  if (matches != NULL)
    cpel_search_result_ref (matches);
  g_clear_pointer (&self->matches, cpel_search_result_unref);
  self->matches = matches;
  self->view.matches = matches;
  view_changed (self);
}

CpelSearchResult *
cpel_timeline_get_matches (CpelTimeline *self)
{
  g_return_val_if_fail (CPEL_IS_TIMELINE (self), NULL);
  return self->matches;
}

void
cpel_timeline_set_hidden_types (CpelTimeline *self,
                                const guint8 *hidden)
{
  guint n_types;
  gboolean any = FALSE;

  g_return_if_fail (CPEL_IS_TIMELINE (self));
  if (self->file == NULL)
    return;

  n_types = cpel_file_get_n_types (self->file);
  g_clear_pointer (&self->hidden_types, g_free);
  if (hidden != NULL)
    for (guint i = 0; i < n_types && !any; i++)
      any = hidden[i] != 0;
  if (any)
    self->hidden_types = g_memdup2 (hidden, n_types);
  self->view.hidden_types = self->hidden_types;

  /* A hidden selection is no selection. */
  if (self->view.has_selection
      && type_hidden (self, self->view.selected_slot, self->view.selected_index))
    cpel_timeline_unselect (self);
  view_changed (self);
}

const guint8 *
cpel_timeline_get_hidden_types (CpelTimeline *self)
{
  g_return_val_if_fail (CPEL_IS_TIMELINE (self), NULL);
  return self->hidden_types;
}

void
cpel_timeline_set_rows (CpelTimeline *self,
                        const guint  *rows,
                        guint         n)
{
  g_return_if_fail (CPEL_IS_TIMELINE (self));
  if (self->file == NULL)
    return;

  if (rows != NULL)
    {
      guint n_tracks = cpel_file_get_n_tracks (self->file);

      for (guint i = 0; i < n; i++)
        g_return_if_fail (rows[i] < n_tracks);
      g_clear_pointer (&self->rows, g_free);
      self->rows = n > 0 ? g_memdup2 (rows, n * sizeof (guint)) : g_new0 (guint, 1);
      self->view.rows = self->rows;
      self->view.n_rows = n;
    }
  else
    {
      g_clear_pointer (&self->rows, g_free);
      self->view.rows = NULL;
      self->view.n_rows = 0;
    }
  update_adjustment (self);
  if (self->view.has_measure)
    recount_measure (self);
  view_changed (self);
}

gboolean
cpel_timeline_get_cursor_time (CpelTimeline *self,
                               gint64       *t)
{
  g_return_val_if_fail (CPEL_IS_TIMELINE (self), FALSE);
  if (!self->view.has_cursor)
    return FALSE;
  if (t != NULL)
    *t = self->view.cursor_t;
  return TRUE;
}

gboolean
cpel_timeline_get_measure (CpelTimeline *self,
                           gint64       *t0,
                           gint64       *t1,
                           guint64      *n_events)
{
  g_return_val_if_fail (CPEL_IS_TIMELINE (self), FALSE);
  if (self->file == NULL || !self->view.has_measure)
    return FALSE;
  if (t0 != NULL)
    *t0 = MIN (self->view.measure_t0, self->view.measure_t1);
  if (t1 != NULL)
    *t1 = MAX (self->view.measure_t0, self->view.measure_t1);
  if (n_events != NULL)
    *n_events = self->measure_count;
  return TRUE;
}

void
cpel_timeline_set_measure (CpelTimeline *self,
                           gint64        t0,
                           gint64        t1)
{
  g_return_if_fail (CPEL_IS_TIMELINE (self));
  if (self->file == NULL)
    return;
  self->view.has_measure = TRUE;
  self->view.measure_t0 = t0;
  self->view.measure_t1 = t1;
  recount_measure (self);
  invalidate (self);
  g_signal_emit (self, signals[POINTER_CHANGED], 0);
}

void
cpel_timeline_clear_measure (CpelTimeline *self)
{
  g_return_if_fail (CPEL_IS_TIMELINE (self));
  if (!self->view.has_measure)
    return;
  self->view.has_measure = FALSE;
  self->measuring = FALSE;
  invalidate (self);
  g_signal_emit (self, signals[POINTER_CHANGED], 0);
}

double
cpel_timeline_get_label_width (CpelTimeline *self)
{
  g_return_val_if_fail (CPEL_IS_TIMELINE (self), 0);
  return self->label_width;
}

void
cpel_timeline_set_label_width (CpelTimeline *self,
                               double        width)
{
  g_return_if_fail (CPEL_IS_TIMELINE (self));

  width = clamp_label_width (self, width);
  if (self->label_width == width)
    return;
  self->label_width = width;
  self->view.label_width = width;
  update_cursor (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LABEL_WIDTH]);
  view_changed (self);
}

CpelColorMode
cpel_timeline_get_color_mode (CpelTimeline *self)
{
  g_return_val_if_fail (CPEL_IS_TIMELINE (self), CPEL_COLOR_BY_CODE);
  return self->color_mode;
}

void
cpel_timeline_set_color_mode (CpelTimeline  *self,
                              CpelColorMode  mode)
{
  g_return_if_fail (CPEL_IS_TIMELINE (self));
  g_return_if_fail (mode <= CPEL_COLOR_NONE);
  if (self->color_mode == mode)
    return;
  self->color_mode = mode;
  self->view.color_by_type = mode == CPEL_COLOR_BY_CODE;
  self->view.color_mode = mode;
  invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLOR_MODE]);
}

gboolean
cpel_timeline_get_summary (CpelTimeline *self)
{
  g_return_val_if_fail (CPEL_IS_TIMELINE (self), FALSE);
  return self->summary;
}

void
cpel_timeline_set_summary (CpelTimeline *self,
                           gboolean      summary)
{
  g_return_if_fail (CPEL_IS_TIMELINE (self));
  summary = !!summary;
  if (self->summary == summary)
    return;
  self->summary = summary;
  self->view.summary = summary;
  invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SUMMARY]);
}

double
cpel_timeline_get_row_height (CpelTimeline *self)
{
  g_return_val_if_fail (CPEL_IS_TIMELINE (self), 0);
  return self->view.row_height;
}

void
cpel_timeline_set_row_height (CpelTimeline *self,
                              double        height)
{
  double old, top_row;

  g_return_if_fail (CPEL_IS_TIMELINE (self));
  height = CLAMP (round (height), CPEL_TIMELINE_MIN_ROW_HEIGHT, CPEL_TIMELINE_MAX_ROW_HEIGHT);
  old = self->view.row_height;
  if (old == height)
    return;
  /* Keep the row at the top of the view there. */
  top_row = gtk_adjustment_get_value (self->vadjustment) / old;
  self->view.row_height = height;
  update_adjustment (self);
  gtk_adjustment_set_value (self->vadjustment, top_row * height);
  if (self->view.has_measure)
    recount_measure (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ROW_HEIGHT]);
  view_changed (self);
}

guint64
cpel_timeline_get_n_frames (CpelTimeline *self)
{
  g_return_val_if_fail (CPEL_IS_TIMELINE (self), 0);
  return self->n_frames;
}

gint64
cpel_timeline_get_last_frame_us (CpelTimeline *self)
{
  g_return_val_if_fail (CPEL_IS_TIMELINE (self), 0);
  return self->last_frame_us;
}

/* ------------------------------------------------------------------------ */
/* Drawing                                                                    */

static void
update_font (CpelTimeline *self)
{
  PangoContext *context = gtk_widget_get_pango_context (GTK_WIDGET (self));
  const PangoFontDescription *desc = pango_context_get_font_description (context);
  const char *family = desc != NULL ? pango_font_description_get_family (desc) : NULL;
  g_autofree char *font = NULL;

  /* The desktop's font family at a size that fits a 24 px row. */
  font = g_strdup_printf ("%s 9", family != NULL ? family : "Sans");
  if (g_strcmp0 (font, self->font) != 0)
    {
      g_free (self->font);
      self->font = g_steal_pointer (&font);
      self->view.font = self->font;
      self->frame_dirty = TRUE;
    }
}

/* The cursor line and its marker on the ruler, over the cached frame (as
 * cpel_render_view draws them). */
static void
snapshot_cursor (CpelTimeline *self,
                 GtkSnapshot  *snapshot,
                 double        width,
                 double        height)
{
  const CpelView *view = &self->view;
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  double x, h = view->ruler_height;
  const CpelRGBA *c = &view->palette->accent;
  GdkRGBA color = { c->r, c->g, c->b, c->a };
  cairo_t *cr;

  if (!view->has_cursor || view->cursor_t < view->t0 || view->cursor_t >= view->t1
      || width <= view->label_width)
    return;
  x = round (cpel_view_time_to_x (view, width, view->cursor_t) * scale) / scale;
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (view->label_width, 0,
                                                         width - view->label_width, height));
  gtk_snapshot_append_color (snapshot, &color, &GRAPHENE_RECT_INIT (x, 0, 1, height));
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (x - 5, h - 6, 11, 6));
  gdk_cairo_set_source_rgba (cr, &color);
  cairo_move_to (cr, x - 4.5, h - 6);
  cairo_line_to (cr, x + 5.5, h - 6);
  cairo_line_to (cr, x + 0.5, h);
  cairo_close_path (cr);
  cairo_fill (cr);
  cairo_destroy (cr);
  gtk_snapshot_pop (snapshot);
}

/* While a track label is dragged: where it would land. */
static void
snapshot_reorder (CpelTimeline *self,
                  GtkSnapshot  *snapshot,
                  double        width)
{
  const CpelRGBA *c = &self->view.palette->accent;
  GdkRGBA color = { c->r, c->g, c->b, c->a };
  double y;

  if (self->drag_mode != DRAG_REORDER || self->reorder_row < 0)
    return;
  /* The label being moved, tinted. */
  {
    int from = slot_row (self, self->reorder_slot);
    GdkRGBA tint = color;

    tint.alpha = 0.18f;
    if (from >= 0)
      {
        y = MAX (cpel_view_get_row_y (&self->view, (guint) from), self->view.ruler_height);
        gtk_snapshot_append_color (snapshot, &tint,
                                   &GRAPHENE_RECT_INIT (0, y, self->view.label_width,
                                                        cpel_view_get_row_y (&self->view, (guint) from)
                                                        + self->view.row_height - y));
      }
  }
  y = cpel_view_get_row_y (&self->view, (guint) self->reorder_row);
  y = MAX (y, self->view.ruler_height + 1);
  gtk_snapshot_append_color (snapshot, &color, &GRAPHENE_RECT_INIT (0, y - 1, width, 2));
}

/* The view drawn into an image surface of the widget's size in device
 * pixels, then handed to GSK as a cairo node that paints that one image.
 * Drawing straight into the node would have the renderer replay every
 * primitive (through X requests with the cairo renderer on X11, where that
 * costs several times the drawing itself); a GdkMemoryTexture would be
 * converted pixel by pixel through floats by GTK 4.8's cairo renderer.
 * One image paint is one upload. */
static GskRenderNode *
render_frame (CpelTimeline   *self,
              const CpelView *view,
              int             width,
              int             height,
              int             scale)
{
  GtkSnapshot *snapshot;
  cairo_surface_t *surface;
  cairo_t *cr;

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width * scale, height * scale);
  if (cairo_surface_status (surface) != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (surface);
      return NULL;
    }
  cairo_surface_set_device_scale (surface, scale, scale);
  cr = cairo_create (surface);
  cpel_render_view (cr, width, height, view);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  snapshot = gtk_snapshot_new ();
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  cairo_set_operator (cr, CAIRO_OPERATOR_SOURCE);
  cairo_set_source_surface (cr, surface, 0, 0);
  cairo_paint (cr);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return gtk_snapshot_free_to_node (snapshot);
}

static void
cpel_timeline_snapshot (GtkWidget   *widget,
                        GtkSnapshot *snapshot)
{
  CpelTimeline *self = CPEL_TIMELINE (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  int scale = gtk_widget_get_scale_factor (widget);
  gint64 start;

  if (self->file == NULL || width <= 0 || height <= 0)
    return;

  start = g_get_monotonic_time ();
  update_font (self);
  cpel_timeline_get_view (self);   /* picks the palette */
  self->view.scroll_y = gtk_adjustment_get_value (self->vadjustment);

  if (self->frame == NULL || self->frame_dirty || self->frame_width != width
      || self->frame_height != height || self->frame_scale != scale
      || self->frame_palette != self->view.palette)
    {
      CpelView view = self->view;

      view.has_cursor = FALSE;
      g_clear_pointer (&self->frame, gsk_render_node_unref);
      self->frame = render_frame (self, &view, width, height, scale);
      self->frame_dirty = FALSE;
      self->frame_width = width;
      self->frame_height = height;
      self->frame_scale = scale;
      self->frame_palette = self->view.palette;
    }
  if (self->frame != NULL)
    gtk_snapshot_append_node (snapshot, self->frame);
  snapshot_reorder (self, snapshot, width);
  snapshot_cursor (self, snapshot, width, height);

  self->n_frames++;
  self->last_frame_us = g_get_monotonic_time () - start;
}

static void
cpel_timeline_size_allocate (GtkWidget *widget,
                             int        width,
                             int        height,
                             int        baseline)
{
  CpelTimeline *self = CPEL_TIMELINE (widget);
  double label_width = clamp_label_width (self, self->label_width);

  if (label_width != self->view.label_width)
    self->view.label_width = label_width;
  update_adjustment (self);
  g_signal_emit (self, signals[VIEW_CHANGED], 0);
}

static void
cpel_timeline_measure (GtkWidget      *widget,
                       GtkOrientation  orientation,
                       int             for_size,
                       int            *minimum,
                       int            *natural,
                       int            *minimum_baseline,
                       int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 240;
      *natural = 800;
    }
  else
    {
      *minimum = 120;
      *natural = 480;
    }
}

/* ------------------------------------------------------------------------ */
/* Input                                                                      */

static void
on_motion (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           CpelTimeline             *self)
{
  gboolean on_edge = self->file != NULL && fabs (x - self->view.label_width) <= RESIZE_GRIP;

  self->pointer_inside = TRUE;
  self->pointer_x = x;
  self->pointer_y = y;
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self),
                                   on_edge || self->drag_mode == DRAG_RESIZE ? "col-resize" : NULL);
  update_cursor (self);
  if (self->file != NULL)
    gtk_widget_queue_draw (GTK_WIDGET (self));   /* the cursor only: the frame is reused */
  g_signal_emit (self, signals[POINTER_CHANGED], 0);
}

static void
on_leave (GtkEventControllerMotion *controller,
          CpelTimeline             *self)
{
  self->pointer_inside = FALSE;
  update_cursor (self);
  if (self->file != NULL)
    gtk_widget_queue_draw (GTK_WIDGET (self));   /* the cursor only: the frame is reused */
  g_signal_emit (self, signals[POINTER_CHANGED], 0);
}

static gboolean
on_scroll (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           CpelTimeline             *self)
{
  GdkModifierType state;
  gboolean wheel;

  if (self->file == NULL)
    return FALSE;

  state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  wheel = gtk_event_controller_scroll_get_unit (controller) == GDK_SCROLL_UNIT_WHEEL;

  if (state & GDK_CONTROL_MASK)
    {
      double factor = wheel ? pow (1.25, -dy) : exp (-dy / 100.0);
      double x = self->pointer_inside ? self->pointer_x : -1;

      if (factor != 1.0)
        cpel_timeline_zoom (self, factor, x);
      return TRUE;
    }

  if (state & GDK_SHIFT_MASK)
    {
      /* Shift+wheel pans in time. */
      dx = dx != 0 ? dx : dy;
      dy = 0;
    }

  if (dx != 0)
    {
      double width = time_area_width (self);
      double fraction = wheel ? dx * CPEL_TIMELINE_PAN_STEP
                              : (width > 0 ? dx / width : 0);
      cpel_timeline_pan (self, fraction);
    }
  if (dy != 0)
    cpel_timeline_scroll_tracks (self, wheel ? dy * WHEEL_ROWS * self->view.row_height : dy);
  return TRUE;
}

static void
on_drag_begin (GtkGestureDrag *gesture,
               double          x,
               double          y,
               CpelTimeline   *self)
{
  if (self->file == NULL)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }

  gtk_widget_grab_focus (GTK_WIDGET (self));
  self->drag_x = x;
  self->drag_y = y;
  self->drag_moved = FALSE;
  self->drag_range = *view_range (self);
  self->drag_scroll = gtk_adjustment_get_value (self->vadjustment);
  self->drag_label_width = self->label_width;
  self->drag_state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  self->reorder_row = -1;

  if (fabs (x - self->view.label_width) <= RESIZE_GRIP)
    self->drag_mode = DRAG_RESIZE;
  else if (x < self->view.label_width && y >= self->view.ruler_height
           && cpel_view_row_at_y (&self->view, y) >= 0)
    {
      /* A track label: a click raises / sinks it (g2), a drag moves it. */
      self->drag_mode = DRAG_REORDER;
      self->reorder_slot = row_slot (self, (guint) cpel_view_row_at_y (&self->view, y));
    }
  else if (x < self->view.label_width)
    self->drag_mode = DRAG_SCROLL;
  else if (y < self->view.ruler_height)
    self->drag_mode = DRAG_RULER;
  else
    self->drag_mode = DRAG_PAN;
}

static void
on_drag_update (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                CpelTimeline   *self)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));

  if (self->drag_mode == DRAG_NONE)
    return;
  if (!self->drag_moved && fabs (dx) < CLICK_SLOP && fabs (dy) < CLICK_SLOP)
    return;
  self->drag_moved = TRUE;
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);

  switch (self->drag_mode)
    {
    case DRAG_PAN:
      {
        CpelRange range = self->drag_range;
        double tw = width - self->view.label_width;

        if (tw > 0)
          cpel_range_pan (&range,
                          (gint64) llround (-dx * (double) cpel_range_span (&range) / tw),
                          &self->limits);
        apply_range (self, &range, 2);
        gtk_adjustment_set_value (self->vadjustment, self->drag_scroll - dy);
        gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "grabbing");
      }
      break;

    case DRAG_SCROLL:
      gtk_adjustment_set_value (self->vadjustment, self->drag_scroll - dy);
      break;

    case DRAG_RULER:
      {
        /* The band being chosen, drawn as a measurement. */
        double x0 = MAX (self->drag_x, self->view.label_width);
        double x1 = CLAMP (self->drag_x + dx, self->view.label_width, width);

        self->view.has_measure = TRUE;
        self->view.measure_t0 = cpel_view_x_to_time (&self->view, width, x0);
        self->view.measure_t1 = cpel_view_x_to_time (&self->view, width, x1);
        recount_measure (self);
        invalidate (self);
        g_signal_emit (self, signals[POINTER_CHANGED], 0);
      }
      break;

    case DRAG_RESIZE:
      cpel_timeline_set_label_width (self, self->drag_label_width + dx);
      break;

    case DRAG_REORDER:
      {
        double y = self->drag_y + dy;
        double height = gtk_widget_get_height (GTK_WIDGET (self));
        double rh = self->view.row_height;
        double pos;

        /* Near the top or bottom edge the tracks scroll along. */
        if (y < self->view.ruler_height + rh / 2)
          cpel_timeline_scroll_tracks (self, -rh / 2);
        else if (y > height - rh / 2)
          cpel_timeline_scroll_tracks (self, rh / 2);
        self->view.scroll_y = gtk_adjustment_get_value (self->vadjustment);
        pos = (y - self->view.ruler_height + self->view.scroll_y) / rh;
        self->reorder_row = (int) CLAMP (floor (pos + 0.5), 0, (double) n_rows (self));
        gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "grabbing");
        gtk_widget_queue_draw (GTK_WIDGET (self));
      }
      break;

    case DRAG_NONE:
    default:
      break;
    }
}

static void
on_drag_end (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             CpelTimeline   *self)
{
  DragMode mode = self->drag_mode;

  self->drag_mode = DRAG_NONE;
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), NULL);
  if (self->file == NULL)
    return;

  if (mode == DRAG_REORDER)
    {
      int row = self->reorder_row;

      self->reorder_row = -1;
      gtk_widget_queue_draw (GTK_WIDGET (self));
      if (self->order == NULL || self->reorder_slot >= cpel_track_order_get_n (self->order))
        return;
      if (self->drag_moved && row >= 0)
        {
          guint before = (guint) row < n_rows (self) ? row_slot (self, (guint) row) : G_MAXUINT;

          cpel_track_order_place (self->order, self->reorder_slot, before);
          return;
        }
      if (!self->drag_moved && (self->drag_state & GDK_SHIFT_MASK))
        {
          cpel_track_order_raise (self->order, self->reorder_slot, TRUE);
          return;
        }
      if (!self->drag_moved && (self->drag_state & GDK_CONTROL_MASK))
        {
          cpel_track_order_raise (self->order, self->reorder_slot, FALSE);
          return;
        }
    }

  if (!self->drag_moved)
    {
      /* A click. */
      if (mode == DRAG_PAN || mode == DRAG_SCROLL || mode == DRAG_REORDER)
        {
          if (!cpel_timeline_select_at (self, self->drag_x, self->drag_y))
            cpel_timeline_unselect (self);
          cpel_timeline_clear_measure (self);
        }
      return;
    }

  if (mode == DRAG_RULER)
    {
      gint64 a = MIN (self->view.measure_t0, self->view.measure_t1);
      gint64 b = MAX (self->view.measure_t0, self->view.measure_t1);

      self->view.has_measure = FALSE;
      g_signal_emit (self, signals[POINTER_CHANGED], 0);
      if (b > a)
        cpel_timeline_set_range (self, a, b, TRUE);
      invalidate (self);
    }
}

static void popup_menu (CpelTimeline *self,
                        GMenuModel   *menu,
                        double        x,
                        double        y);

static void
show_track_menu (CpelTimeline *self,
                 guint         slot,
                 double        x,
                 double        y)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenu) section = g_menu_new ();
  gboolean pinned = cpel_track_order_get_pinned (self->order, slot);

  self->context_slot = slot;
  g_menu_append (section, pinned ? _("_Unpin") : _("_Pin to Top"), "timeline.track-pin");
  g_menu_append (section, _("Move _Up"), "timeline.track-up");
  g_menu_append (section, _("Move _Down"), "timeline.track-down");
  g_menu_append (section, _("Move to _Top"), "timeline.track-top");
  g_menu_append (section, _("Move to _Bottom"), "timeline.track-bottom");
  g_menu_append (section, _("_Hide Track"), "timeline.track-hide");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  g_clear_object (&section);
  section = g_menu_new ();
  for (int i = 0; self->track_menu != NULL && i < g_menu_model_get_n_items (self->track_menu); i++)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new_from_model (self->track_menu, i);

      g_menu_append_item (section, item);
    }
  g_menu_append (section, _("_Show All Tracks"), "timeline.tracks-reset");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  popup_menu (self, G_MENU_MODEL (menu), x, y);
}

/* The selected event's menu (right click on an event, Menu key): the
 * owner's (the window's chase). */
static void
show_event_menu (CpelTimeline *self,
                 double        x,
                 double        y)
{
  if (self->event_menu != NULL)
    popup_menu (self, self->event_menu, x, y);
}

static void
popup_menu (CpelTimeline *self,
            GMenuModel   *menu,
            double        x,
            double        y)
{
  if (self->context_menu == NULL)
    {
      self->context_menu = gtk_popover_menu_new_from_model (menu);
      gtk_widget_set_parent (self->context_menu, GTK_WIDGET (self));
      gtk_popover_set_has_arrow (GTK_POPOVER (self->context_menu), FALSE);
      gtk_widget_set_halign (self->context_menu, GTK_ALIGN_START);
    }
  else
    gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->context_menu), menu);
  gtk_popover_set_pointing_to (GTK_POPOVER (self->context_menu),
                               &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->context_menu));
}

static void
action_track (GtkWidget  *widget,
              const char *name,
              GVariant   *parameter)
{
  CpelTimeline *self = CPEL_TIMELINE (widget);
  guint slot = self->context_slot;

  if (self->order == NULL)
    return;
  if (g_str_equal (name, "timeline.tracks-reset"))
    cpel_track_order_reset (self->order);
  else if (slot >= cpel_track_order_get_n (self->order))
    return;
  else if (g_str_equal (name, "timeline.track-pin"))
    cpel_track_order_set_pinned (self->order, slot, !cpel_track_order_get_pinned (self->order, slot));
  else if (g_str_equal (name, "timeline.track-up"))
    cpel_track_order_move (self->order, slot, -1);
  else if (g_str_equal (name, "timeline.track-down"))
    cpel_track_order_move (self->order, slot, 1);
  else if (g_str_equal (name, "timeline.track-hide"))
    cpel_track_order_set_hidden (self->order, slot, TRUE);
  else if (g_str_equal (name, "timeline.track-top"))
    cpel_track_order_raise (self->order, slot, TRUE);
  else if (g_str_equal (name, "timeline.track-bottom"))
    cpel_track_order_raise (self->order, slot, FALSE);
}

static void
action_context_menu (GtkWidget  *widget,
                     const char *name,
                     GVariant   *parameter)
{
  CpelTimeline *self = CPEL_TIMELINE (widget);
  double width = gtk_widget_get_width (widget);
  CpelEvent event;
  double x, y;
  int row;

  if (self->file == NULL || !self->view.has_selection)
    return;
  cpel_file_get_track_event (self->file, self->view.selected_slot, self->view.selected_index, &event);
  row = slot_row (self, self->view.selected_slot);
  x = cpel_view_time_to_x (&self->view, width, event.time_ns);
  y = row >= 0 ? cpel_view_get_row_y (&self->view, (guint) row) + self->view.row_height / 2 : -1;
  if (x < self->view.label_width || x >= width || y < self->view.ruler_height
      || y >= gtk_widget_get_height (widget))
    {
      /* Off screen: bring it into view first. */
      cpel_timeline_reveal (self, self->view.selected_slot, self->view.selected_index);
      x = cpel_view_time_to_x (&self->view, width, event.time_ns);
      row = slot_row (self, self->view.selected_slot);
      y = row >= 0 ? cpel_view_get_row_y (&self->view, (guint) row) + self->view.row_height / 2
                   : self->view.ruler_height;
    }
  show_event_menu (self, x, y);
}

static void
on_measure_begin (GtkGestureDrag *gesture,
                  double          x,
                  double          y,
                  CpelTimeline   *self)
{
  if (self->file == NULL)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  if (x < self->view.label_width)
    {
      int row = cpel_view_row_at_y (&self->view, y);

      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      if (row >= 0)
        show_track_menu (self, row_slot (self, (guint) row), x, y);
      return;
    }
  gtk_widget_grab_focus (GTK_WIDGET (self));
  self->measuring = TRUE;
  self->drag_x = x;
  self->drag_y = y;
  self->drag_moved = FALSE;
}

static void
on_measure_update (GtkGestureDrag *gesture,
                   double          dx,
                   double          dy,
                   CpelTimeline   *self)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  double x1;

  if (!self->measuring)
    return;
  if (!self->drag_moved && fabs (dx) < CLICK_SLOP)
    return;
  self->drag_moved = TRUE;
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);

  x1 = CLAMP (self->drag_x + dx, self->view.label_width, width);
  cpel_timeline_set_measure (self,
                             cpel_view_x_to_time (&self->view, width, self->drag_x),
                             cpel_view_x_to_time (&self->view, width, x1));
}

static void
on_measure_end (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                CpelTimeline   *self)
{
  if (!self->measuring)
    return;
  self->measuring = FALSE;
  /* A right click without a drag clears the measurement; on an event it
   * selects it and opens its menu (chase). */
  if (!self->drag_moved)
    {
      cpel_timeline_clear_measure (self);
      if (self->drag_y >= self->view.ruler_height
          && cpel_timeline_select_at (self, self->drag_x, self->drag_y))
        show_event_menu (self, self->drag_x, self->drag_y);
    }
}

static void
on_pinch_begin (GtkGesture       *gesture,
                GdkEventSequence *sequence,
                CpelTimeline     *self)
{
  double x, y;

  if (self->file == NULL)
    {
      gtk_gesture_set_state (gesture, GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  self->pinch_range = *view_range (self);
  if (!gtk_gesture_get_bounding_box_center (gesture, &x, &y) || x < self->view.label_width)
    self->pinch_anchor = self->pinch_range.t0 + cpel_range_span (&self->pinch_range) / 2;
  else
    self->pinch_anchor = cpel_view_x_to_time (&self->view,
                                              gtk_widget_get_width (GTK_WIDGET (self)), x);
}

static void
on_pinch_scale_changed (GtkGestureZoom *gesture,
                        double          scale,
                        CpelTimeline   *self)
{
  CpelRange range = self->pinch_range;

  if (self->file == NULL || scale <= 0)
    return;
  cpel_range_zoom (&range, scale, self->pinch_anchor, &self->limits);
  apply_range (self, &range, 2);
}

static void
on_vadjustment_changed (GtkAdjustment *adjustment,
                        CpelTimeline  *self)
{
  self->view.scroll_y = gtk_adjustment_get_value (adjustment);
  if (self->file != NULL)
    view_changed (self);
}

static void
on_dark_changed (CpelTimeline *self)
{
  invalidate (self);
  g_signal_emit (self, signals[VIEW_CHANGED], 0);
}

/* ------------------------------------------------------------------------ */
/* Actions                                                                    */

static void
action_zoom (GtkWidget  *widget,
             const char *name,
             GVariant   *parameter)
{
  CpelTimeline *self = CPEL_TIMELINE (widget);
  double factor = g_str_equal (name, "timeline.zoom-in") ? CPEL_TIMELINE_ZOOM_STEP
                                                          : 1.0 / CPEL_TIMELINE_ZOOM_STEP;
  double x = -1;

  /* At the pointer when it is over the events (as Ctrl+wheel), else around
   * the selected event when it is in view (keyboard only), else the centre. */
  if (self->pointer_inside && self->pointer_x >= self->view.label_width)
    x = self->pointer_x;
  else if (self->file != NULL && self->view.has_selection)
    {
      CpelEvent event;

      cpel_file_get_track_event (self->file, self->view.selected_slot,
                                 self->view.selected_index, &event);
      if (event.time_ns >= self->view.t0 && event.time_ns < self->view.t1)
        x = cpel_view_time_to_x (&self->view, gtk_widget_get_width (widget), event.time_ns);
    }
  cpel_timeline_zoom (self, factor, x);
}

static void
action_pan (GtkWidget  *widget,
            const char *name,
            GVariant   *parameter)
{
  cpel_timeline_pan (CPEL_TIMELINE (widget),
                     g_str_equal (name, "timeline.pan-left") ? -CPEL_TIMELINE_PAN_STEP
                                                             : CPEL_TIMELINE_PAN_STEP);
}

static void
action_scroll (GtkWidget  *widget,
               const char *name,
               GVariant   *parameter)
{
  CpelTimeline *self = CPEL_TIMELINE (widget);
  double page = gtk_adjustment_get_page_increment (self->vadjustment);
  double row = self->view.row_height;

  if (g_str_equal (name, "timeline.scroll-up"))
    cpel_timeline_scroll_tracks (self, -row);
  else if (g_str_equal (name, "timeline.scroll-down"))
    cpel_timeline_scroll_tracks (self, row);
  else if (g_str_equal (name, "timeline.page-up"))
    cpel_timeline_scroll_tracks (self, -page);
  else
    cpel_timeline_scroll_tracks (self, page);
}

static void
action_fit (GtkWidget  *widget,
            const char *name,
            GVariant   *parameter)
{
  cpel_timeline_fit (CPEL_TIMELINE (widget));
}

static void
action_history (GtkWidget  *widget,
                const char *name,
                GVariant   *parameter)
{
  if (g_str_equal (name, "timeline.back"))
    cpel_timeline_go_back (CPEL_TIMELINE (widget));
  else
    cpel_timeline_go_forward (CPEL_TIMELINE (widget));
}

static void
action_adjacent (GtkWidget  *widget,
                 const char *name,
                 GVariant   *parameter)
{
  cpel_timeline_select_adjacent (CPEL_TIMELINE (widget),
                                 g_str_equal (name, "timeline.next-event") ? 1 : -1);
}

static void
action_modes (GtkWidget  *widget,
              const char *name,
              GVariant   *parameter)
{
  CpelTimeline *self = CPEL_TIMELINE (widget);

  if (g_str_equal (name, "timeline.taller-rows"))
    cpel_timeline_set_row_height (self, self->view.row_height + CPEL_TIMELINE_ROW_HEIGHT_STEP);
  else if (g_str_equal (name, "timeline.shorter-rows"))
    cpel_timeline_set_row_height (self, self->view.row_height - CPEL_TIMELINE_ROW_HEIGHT_STEP);
  else if (g_str_equal (name, "timeline.toggle-summary"))
    cpel_timeline_set_summary (self, !self->summary);
  else if (g_str_equal (name, "timeline.cycle-color"))
    /* g2's `c` toggles the colours: by event code <-> by track. */
    cpel_timeline_set_color_mode (self, self->color_mode == CPEL_COLOR_BY_CODE
                                        ? CPEL_COLOR_BY_TRACK : CPEL_COLOR_BY_CODE);
}

static void
action_clear (GtkWidget  *widget,
              const char *name,
              GVariant   *parameter)
{
  CpelTimeline *self = CPEL_TIMELINE (widget);

  if (self->view.has_measure)
    cpel_timeline_clear_measure (self);
  else
    cpel_timeline_unselect (self);
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                    */

static void
cpel_timeline_dispose (GObject *object)
{
  CpelTimeline *self = CPEL_TIMELINE (object);

  g_signal_handlers_disconnect_by_data (adw_style_manager_get_default (), self);
  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_data (self->vadjustment, self);
  g_clear_object (&self->vadjustment);
  g_clear_pointer (&self->context_menu, gtk_widget_unparent);
  g_clear_object (&self->event_menu);
  g_clear_object (&self->track_menu);
  g_clear_pointer (&self->frame, gsk_render_node_unref);
  if (self->order != NULL)
    g_signal_handlers_disconnect_by_data (self->order, self);
  g_clear_object (&self->order);
  g_clear_pointer (&self->matches, cpel_search_result_unref);
  g_clear_pointer (&self->overview, cpel_overview_unref);
  self->view.overview = NULL;
  g_clear_object (&self->file);

  G_OBJECT_CLASS (cpel_timeline_parent_class)->dispose (object);
}

static void
cpel_timeline_finalize (GObject *object)
{
  CpelTimeline *self = CPEL_TIMELINE (object);

  g_clear_pointer (&self->back, g_array_unref);
  g_clear_pointer (&self->forward, g_array_unref);
  g_clear_pointer (&self->hidden_types, g_free);
  g_clear_pointer (&self->rows, g_free);
  g_clear_pointer (&self->font, g_free);

  G_OBJECT_CLASS (cpel_timeline_parent_class)->finalize (object);
}

static void
cpel_timeline_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  CpelTimeline *self = CPEL_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;
    case PROP_LABEL_WIDTH:
      g_value_set_double (value, self->label_width);
      break;
    case PROP_COLOR_MODE:
      g_value_set_enum (value, self->color_mode);
      break;
    case PROP_SUMMARY:
      g_value_set_boolean (value, self->summary);
      break;
    case PROP_ROW_HEIGHT:
      g_value_set_double (value, self->view.row_height);
      break;
    case PROP_EVENT_MENU:
      g_value_set_object (value, self->event_menu);
      break;
    case PROP_TRACK_MENU:
      g_value_set_object (value, self->track_menu);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_timeline_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  CpelTimeline *self = CPEL_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_FILE:
      cpel_timeline_set_file (self, g_value_get_object (value));
      break;
    case PROP_LABEL_WIDTH:
      cpel_timeline_set_label_width (self, g_value_get_double (value));
      break;
    case PROP_COLOR_MODE:
      cpel_timeline_set_color_mode (self, g_value_get_enum (value));
      break;
    case PROP_SUMMARY:
      cpel_timeline_set_summary (self, g_value_get_boolean (value));
      break;
    case PROP_ROW_HEIGHT:
      cpel_timeline_set_row_height (self, g_value_get_double (value));
      break;
    case PROP_EVENT_MENU:
      if (g_set_object (&self->event_menu, g_value_get_object (value)))
        g_object_notify_by_pspec (object, pspec);
      break;
    case PROP_TRACK_MENU:
      if (g_set_object (&self->track_menu, g_value_get_object (value)))
        g_object_notify_by_pspec (object, pspec);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
add_binding (GtkWidgetClass  *widget_class,
             guint            keyval,
             GdkModifierType  mods,
             const char      *action)
{
  gtk_widget_class_add_binding_action (widget_class, keyval, mods, action, NULL);
}

static void
cpel_timeline_class_init (CpelTimelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cpel_timeline_dispose;
  object_class->finalize = cpel_timeline_finalize;
  object_class->get_property = cpel_timeline_get_property;
  object_class->set_property = cpel_timeline_set_property;

  widget_class->snapshot = cpel_timeline_snapshot;
  widget_class->size_allocate = cpel_timeline_size_allocate;
  widget_class->measure = cpel_timeline_measure;

  properties[PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL, CPEL_TYPE_FILE,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_LABEL_WIDTH] =
    g_param_spec_double ("label-width", NULL, NULL, MIN_LABEL_WIDTH, 4000.0, 160.0,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_COLOR_MODE] =
    g_param_spec_enum ("color-mode", NULL, NULL, CPEL_TYPE_COLOR_MODE, CPEL_COLOR_BY_CODE,
                       G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_SUMMARY] =
    g_param_spec_boolean ("summary", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_ROW_HEIGHT] =
    g_param_spec_double ("row-height", NULL, NULL, CPEL_TIMELINE_MIN_ROW_HEIGHT,
                         CPEL_TIMELINE_MAX_ROW_HEIGHT, 24.0,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* Menus of the timeline's owner: the selected event's (right click on
   * it, Menu key), and items added to a track's menu (before Show All
   * Tracks). */
  properties[PROP_EVENT_MENU] =
    g_param_spec_object ("event-menu", NULL, NULL, G_TYPE_MENU_MODEL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_TRACK_MENU] =
    g_param_spec_object ("track-menu", NULL, NULL, G_TYPE_MENU_MODEL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* The visible range or the track scroll changed. */
  signals[VIEW_CHANGED] =
    g_signal_new ("view-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SELECTION_CHANGED] =
    g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* The cursor time or the measurement changed. */
  signals[POINTER_CHANGED] =
    g_signal_new ("pointer-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_install_action (widget_class, "timeline.zoom-in", NULL, action_zoom);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-out", NULL, action_zoom);
  gtk_widget_class_install_action (widget_class, "timeline.pan-left", NULL, action_pan);
  gtk_widget_class_install_action (widget_class, "timeline.pan-right", NULL, action_pan);
  gtk_widget_class_install_action (widget_class, "timeline.scroll-up", NULL, action_scroll);
  gtk_widget_class_install_action (widget_class, "timeline.scroll-down", NULL, action_scroll);
  gtk_widget_class_install_action (widget_class, "timeline.page-up", NULL, action_scroll);
  gtk_widget_class_install_action (widget_class, "timeline.page-down", NULL, action_scroll);
  gtk_widget_class_install_action (widget_class, "timeline.fit", NULL, action_fit);
  gtk_widget_class_install_action (widget_class, "timeline.back", NULL, action_history);
  gtk_widget_class_install_action (widget_class, "timeline.forward", NULL, action_history);
  gtk_widget_class_install_action (widget_class, "timeline.next-event", NULL, action_adjacent);
  gtk_widget_class_install_action (widget_class, "timeline.previous-event", NULL, action_adjacent);
  gtk_widget_class_install_action (widget_class, "timeline.clear", NULL, action_clear);
  gtk_widget_class_install_action (widget_class, "timeline.track-pin", NULL, action_track);
  gtk_widget_class_install_action (widget_class, "timeline.track-up", NULL, action_track);
  gtk_widget_class_install_action (widget_class, "timeline.track-down", NULL, action_track);
  gtk_widget_class_install_action (widget_class, "timeline.track-hide", NULL, action_track);
  gtk_widget_class_install_action (widget_class, "timeline.tracks-reset", NULL, action_track);
  gtk_widget_class_install_action (widget_class, "timeline.track-top", NULL, action_track);
  gtk_widget_class_install_action (widget_class, "timeline.track-bottom", NULL, action_track);
  gtk_widget_class_install_action (widget_class, "timeline.context-menu", NULL, action_context_menu);
  gtk_widget_class_install_action (widget_class, "timeline.taller-rows", NULL, action_modes);
  gtk_widget_class_install_action (widget_class, "timeline.shorter-rows", NULL, action_modes);
  gtk_widget_class_install_action (widget_class, "timeline.toggle-summary", NULL, action_modes);
  gtk_widget_class_install_action (widget_class, "timeline.cycle-color", NULL, action_modes);

  add_binding (widget_class, GDK_KEY_plus, 0, "timeline.zoom-in");
  add_binding (widget_class, GDK_KEY_plus, GDK_SHIFT_MASK, "timeline.zoom-in");
  add_binding (widget_class, GDK_KEY_equal, 0, "timeline.zoom-in");
  add_binding (widget_class, GDK_KEY_KP_Add, 0, "timeline.zoom-in");
  add_binding (widget_class, GDK_KEY_w, 0, "timeline.zoom-in");
  add_binding (widget_class, GDK_KEY_minus, 0, "timeline.zoom-out");
  add_binding (widget_class, GDK_KEY_KP_Subtract, 0, "timeline.zoom-out");
  add_binding (widget_class, GDK_KEY_s, 0, "timeline.zoom-out");
  add_binding (widget_class, GDK_KEY_Left, 0, "timeline.pan-left");
  add_binding (widget_class, GDK_KEY_KP_Left, 0, "timeline.pan-left");
  add_binding (widget_class, GDK_KEY_a, 0, "timeline.pan-left");
  add_binding (widget_class, GDK_KEY_Right, 0, "timeline.pan-right");
  add_binding (widget_class, GDK_KEY_KP_Right, 0, "timeline.pan-right");
  add_binding (widget_class, GDK_KEY_d, 0, "timeline.pan-right");
  add_binding (widget_class, GDK_KEY_Up, 0, "timeline.scroll-up");
  add_binding (widget_class, GDK_KEY_KP_Up, 0, "timeline.scroll-up");
  add_binding (widget_class, GDK_KEY_r, 0, "timeline.scroll-up");
  add_binding (widget_class, GDK_KEY_Down, 0, "timeline.scroll-down");
  add_binding (widget_class, GDK_KEY_KP_Down, 0, "timeline.scroll-down");
  add_binding (widget_class, GDK_KEY_f, 0, "timeline.scroll-down");
  add_binding (widget_class, GDK_KEY_Page_Up, 0, "timeline.page-up");
  add_binding (widget_class, GDK_KEY_KP_Page_Up, 0, "timeline.page-up");
  add_binding (widget_class, GDK_KEY_Page_Down, 0, "timeline.page-down");
  add_binding (widget_class, GDK_KEY_KP_Page_Down, 0, "timeline.page-down");
  add_binding (widget_class, GDK_KEY_0, 0, "timeline.fit");
  add_binding (widget_class, GDK_KEY_KP_0, 0, "timeline.fit");
  add_binding (widget_class, GDK_KEY_Home, 0, "timeline.fit");
  add_binding (widget_class, GDK_KEY_KP_Home, 0, "timeline.fit");
  add_binding (widget_class, GDK_KEY_Left, GDK_ALT_MASK, "timeline.back");
  add_binding (widget_class, GDK_KEY_Right, GDK_ALT_MASK, "timeline.forward");
  add_binding (widget_class, GDK_KEY_Back, 0, "timeline.back");
  add_binding (widget_class, GDK_KEY_Forward, 0, "timeline.forward");
  add_binding (widget_class, GDK_KEY_Tab, 0, "timeline.next-event");
  add_binding (widget_class, GDK_KEY_KP_Tab, 0, "timeline.next-event");
  add_binding (widget_class, GDK_KEY_ISO_Left_Tab, GDK_SHIFT_MASK, "timeline.previous-event");
  add_binding (widget_class, GDK_KEY_Tab, GDK_SHIFT_MASK, "timeline.previous-event");
  add_binding (widget_class, GDK_KEY_Escape, 0, "timeline.clear");
  add_binding (widget_class, GDK_KEY_Menu, 0, "timeline.context-menu");
  add_binding (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK, "timeline.context-menu");

  /* The rest of g2's keys: t / g fewer / more tracks on screen (taller /
   * shorter rows), e summary mode, c colour mode. */
  add_binding (widget_class, GDK_KEY_t, 0, "timeline.taller-rows");
  add_binding (widget_class, GDK_KEY_g, 0, "timeline.shorter-rows");
  add_binding (widget_class, GDK_KEY_e, 0, "timeline.toggle-summary");
  add_binding (widget_class, GDK_KEY_c, 0, "timeline.cycle-color");
  /* The window adds the keys of its own actions (saved views, chase,
   * search) to the timeline: cpel-window-actions.c. */

  gtk_widget_class_set_css_name (widget_class, "timeline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_WIDGET);
}

static void
cpel_timeline_init (CpelTimeline *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkEventController *controller;
  GtkGesture *gesture;

  self->back = g_array_new (FALSE, FALSE, sizeof (CpelRange));
  self->forward = g_array_new (FALSE, FALSE, sizeof (CpelRange));
  self->label_width = 160;
  self->view.label_width = 160;
  self->view.row_height = 24;
  self->view.ruler_height = 28;
  cpel_palette_init_light (&self->light);
  cpel_palette_init_dark (&self->dark);
  cpel_range_limits_init (&self->limits, 0);
  cpel_range_fit (view_range (self), &self->limits);

  self->vadjustment = g_object_ref_sink (gtk_adjustment_new (0, 0, 0, 24, 240, 0));
  g_signal_connect (self->vadjustment, "value-changed",
                    G_CALLBACK (on_vadjustment_changed), self);

  gtk_widget_set_focusable (widget, TRUE);
  gtk_widget_set_focus_on_click (widget, TRUE);
  gtk_widget_set_overflow (widget, GTK_OVERFLOW_HIDDEN);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Timeline"),
                                  -1);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (controller, "enter", G_CALLBACK (on_motion), self);
  g_signal_connect (controller, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (widget, controller);

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (controller, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (widget, controller);

  gesture = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_PRIMARY);
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (gesture, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_SECONDARY);
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (on_measure_begin), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (on_measure_update), self);
  g_signal_connect (gesture, "drag-end", G_CALLBACK (on_measure_end), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_zoom_new ();
  g_signal_connect (gesture, "begin", G_CALLBACK (on_pinch_begin), self);
  g_signal_connect (gesture, "scale-changed", G_CALLBACK (on_pinch_scale_changed), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  g_signal_connect_swapped (adw_style_manager_get_default (), "notify::dark",
                            G_CALLBACK (on_dark_changed), self);

  update_actions (self);
}
