/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-timeline.c — the timeline widget: its view state and the GObject
 * (drawing: -snapshot.c, input: -input.c, actions and keys: -actions.c,
 * selecting events: -selection.c)
 *
 * The view state (range and history, rows, hidden types, selection,
 * matches, measure, modes) is the CpelSession's: the widget copies it into
 * the CpelView it draws on each of the session's notifications, adds its
 * own (sizes, scroll, cursor), and turns pointer, touchpad and key input
 * into changes of the session.
 * Drawing is one cpel_render_view() call per frame into an image; the
 * widget redraws only when the view changes and caches nothing per event.
 */
#include "cpel-timeline-private.h"

#include "cpel-track-order.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>

G_DEFINE_FINAL_TYPE (CpelTimeline, cpel_timeline, GTK_TYPE_WIDGET)

GParamSpec *_cpel_timeline_properties[N_PROPS];

guint _cpel_timeline_signals[N_SIGNALS];

/* ------------------------------------------------------------------------ */
/* Helpers                                                                    */

double
_cpel_timeline_time_area_width (CpelTimeline *self)
{
  return gtk_widget_get_width (GTK_WIDGET (self)) - self->view.label_width;
}

guint
_cpel_timeline_n_rows (CpelTimeline *self)
{
  if (self->file == NULL)
    return 0;
  return self->view.rows != NULL ? self->view.n_rows : cpel_file_get_n_tracks (self->file);
}

guint
_cpel_timeline_row_slot (CpelTimeline *self,
          guint         row)
{
  return self->view.rows != NULL ? self->view.rows[row] : row;
}

/* Display row of a slot, or -1 when the slot is filtered out. */
int
_cpel_timeline_slot_row (CpelTimeline *self,
          guint         slot)
{
  if (self->view.rows == NULL)
    return slot < _cpel_timeline_n_rows (self) ? (int) slot : -1;
  for (guint i = 0; i < self->view.n_rows; i++)
    if (self->view.rows[i] == slot)
      return (int) i;
  return -1;
}

gboolean
_cpel_timeline_type_hidden (CpelTimeline *self,
             guint         slot,
             guint64       index)
{
  return cpel_session_event_hidden (self->session, slot, index);
}

const CpelRangeLimits *
_cpel_timeline_limits (CpelTimeline *self)
{
  return cpel_session_get_limits (self->session);
}

/* The view changed: the next frame is drawn anew. */
void
_cpel_timeline_invalidate (CpelTimeline *self)
{
  self->frame_dirty = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
_cpel_timeline_view_changed (CpelTimeline *self)
{
  _cpel_timeline_update_actions (self);
  _cpel_timeline_invalidate (self);
  g_signal_emit (self, _cpel_timeline_signals[VIEW_CHANGED], 0);
}

void
_cpel_timeline_update_cursor (CpelTimeline *self)
{
  gboolean has = self->file != NULL && self->pointer_inside
                 && self->pointer_x >= self->view.label_width;

  if (has)
    self->view.cursor_t = cpel_view_x_to_time (&self->view,
                                               gtk_widget_get_width (GTK_WIDGET (self)),
                                               self->pointer_x);
  self->view.has_cursor = has;
}

CpelRange *
_cpel_timeline_view_range (CpelTimeline *self)
{
  /* t0 and t1 are adjacent gint64 fields of CpelView, like CpelRange. */
  G_STATIC_ASSERT (G_STRUCT_OFFSET (CpelView, t1) - G_STRUCT_OFFSET (CpelView, t0) == sizeof (gint64));
  return (CpelRange *) &self->view.t0;
}

/* Apply a new range to the session: history (when `mode` is not 0:
 * 1 = discrete step, 2 = continuous, coalesced), clamped; the session's
 * notification redraws. */
void
_cpel_timeline_apply_range (CpelTimeline    *self,
             const CpelRange *range,
             int              mode)
{
  static const CpelSessionRemember remember[] = {
    CPEL_SESSION_FORGET, CPEL_SESSION_STEP, CPEL_SESSION_CONTINUOUS,
  };

  g_assert (mode >= 0 && mode <= 2);
  cpel_session_set_range (self->session, range, remember[mode]);
}

void
_cpel_timeline_update_adjustment (CpelTimeline *self)
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

double
_cpel_timeline_clamp_label_width (CpelTimeline *self,
                   double        width)
{
  double widget_width = gtk_widget_get_width (GTK_WIDGET (self));
  double max = widget_width > 0 ? MAX (MIN_LABEL_WIDTH, widget_width / 2) : 1000.0;

  return CLAMP (width, MIN_LABEL_WIDTH, max);
}

void
_cpel_timeline_recount_measure (CpelTimeline *self)
{
  self->measure_count = cpel_view_count_range (&self->view,
                                               MIN (self->view.measure_t0, self->view.measure_t1),
                                               MAX (self->view.measure_t0, self->view.measure_t1));
}

/* Copy the session's rows into the view. */
static void
sync_rows (CpelTimeline *self)
{
  guint n;
  const guint *rows = cpel_session_get_rows (self->session, &n);

  self->view.rows = rows;
  self->view.n_rows = rows != NULL ? n : 0;
}

/* A new file in the session: the view starts anew. */
static void
file_changed (CpelTimeline *self)
{
  CpelFile *file = cpel_session_get_file (self->session);
  /* The row height and colours chosen stay for the next file. */
  double row_height = self->view.row_height > 0 ? self->view.row_height : 24;

  g_clear_pointer (&self->overview, cpel_overview_unref);
  if (self->next_overview != NULL && file != NULL)
    self->overview = g_steal_pointer (&self->next_overview);
  else if (file != NULL)
    self->overview = cpel_overview_new (file, 0, NULL, NULL);
  g_clear_pointer (&self->next_overview, cpel_overview_unref);
  g_set_object (&self->file, file);

  memset (&self->view, 0, sizeof self->view);
  self->view.ruler_height = 28;
  if (file != NULL)
    cpel_view_init (&self->view, file, &self->light);
  self->view.row_height = row_height;
  self->view.label_width = self->label_width;
  self->view.font = self->font;
  self->view.overview = self->overview;
  self->measuring = FALSE;
}

/* Copy the session's state into the view. */
static void
sync_view (CpelTimeline *self)
{
  CpelColorMode mode = cpel_session_get_color_mode (self->session);
  guint slot;
  guint64 index;

  *_cpel_timeline_view_range (self) = *cpel_session_get_range (self->session);
  sync_rows (self);
  self->view.hidden_types = cpel_session_get_hidden_types (self->session);
  self->view.has_selection = cpel_session_get_selection (self->session, &slot, &index);
  if (self->view.has_selection)
    {
      self->view.selected_slot = slot;
      self->view.selected_index = index;
    }
  self->view.has_measure = cpel_session_get_measure_raw (self->session,
                                                         &self->view.measure_t0,
                                                         &self->view.measure_t1);
  self->view.color_by_type = mode == CPEL_COLOR_BY_CODE;
  self->view.color_mode = mode;
  self->view.summary = cpel_session_get_summary (self->session);
  self->view.clock = cpel_session_get_time_clock (self->session, &self->view.clock_origin);
  self->view.matches = cpel_session_get_matches (self->session);
  self->view.spans = cpel_session_get_show_spans (self->session)
                     ? cpel_session_get_spans (self->session) : NULL;
  self->view.span_filter = cpel_session_get_span_filter (self->session);
  self->view.labels = cpel_session_get_labels (self->session);
  {
    CpelSessionSpanRef ref;

    self->view.has_span_selection =
      cpel_session_get_span_selection (self->session, &ref) != NULL;
    if (self->view.has_span_selection)
      {
        self->view.selected_span_slot = ref.slot;
        self->view.selected_span_state = ref.state;
        self->view.selected_span_index = ref.index;
      }
  }
}

static void
on_session_file (CpelTimeline *self)
{
  if (cpel_session_get_file (self->session) == self->file)
    return;
  file_changed (self);
  sync_view (self);
  gtk_adjustment_set_value (self->vadjustment, 0);
  _cpel_timeline_update_adjustment (self);
  _cpel_timeline_update_cursor (self);

  g_object_notify_by_pspec (G_OBJECT (self), _cpel_timeline_properties[PROP_FILE]);
  _cpel_timeline_view_changed (self);
  g_signal_emit (self, _cpel_timeline_signals[SELECTION_CHANGED], 0);
  g_signal_emit (self, _cpel_timeline_signals[POINTER_CHANGED], 0);
}

static void
on_session_range (CpelTimeline *self)
{
  if (cpel_session_get_file (self->session) != self->file)
    return;   /* on_session_file follows */
  sync_view (self);
  _cpel_timeline_update_cursor (self);
  _cpel_timeline_view_changed (self);
}

static void
on_session_history (CpelTimeline *self)
{
  _cpel_timeline_update_actions (self);
}

static void
on_session_tracks (CpelTimeline *self)
{
  if (cpel_session_get_file (self->session) != self->file)
    return;
  sync_view (self);
  _cpel_timeline_update_adjustment (self);
  if (self->view.has_measure)
    _cpel_timeline_recount_measure (self);
  _cpel_timeline_view_changed (self);
}

/* The hidden types or the search matches changed. */
static void
on_session_types (CpelTimeline *self)
{
  if (cpel_session_get_file (self->session) != self->file)
    return;
  sync_view (self);
  _cpel_timeline_view_changed (self);
}

static void
on_session_selection (CpelTimeline *self)
{
  if (cpel_session_get_file (self->session) != self->file)
    return;
  sync_view (self);
  _cpel_timeline_invalidate (self);
  g_signal_emit (self, _cpel_timeline_signals[SELECTION_CHANGED], 0);
}

static void
on_session_measure (CpelTimeline *self)
{
  if (cpel_session_get_file (self->session) != self->file)
    return;
  sync_view (self);
  if (self->view.has_measure)
    _cpel_timeline_recount_measure (self);
  else
    self->measuring = FALSE;
  _cpel_timeline_invalidate (self);
  g_signal_emit (self, _cpel_timeline_signals[POINTER_CHANGED], 0);
}

static void
on_session_color_mode (CpelTimeline *self)
{
  sync_view (self);
  _cpel_timeline_invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), _cpel_timeline_properties[PROP_COLOR_MODE]);
}

/* The spans came (or went), or are shown or hidden. */
static void
on_session_spans (CpelTimeline *self)
{
  if (cpel_session_get_file (self->session) != self->file)
    return;
  sync_view (self);
  /* the states' legend keeps room below the rows (or no longer) */
  _cpel_timeline_update_adjustment (self);
  _cpel_timeline_view_changed (self);
}

/* Other label formats: the labels drawn again. */
static void
on_session_labels (CpelTimeline *self)
{
  sync_view (self);
  _cpel_timeline_invalidate (self);
}

static void
on_session_summary (CpelTimeline *self)
{
  sync_view (self);
  _cpel_timeline_invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), _cpel_timeline_properties[PROP_SUMMARY]);
}

/* Scroll the tracks so that the row of `slot` is on screen: centred, or
 * by the least movement. */
static void
on_session_reveal_track (CpelTimeline *self,
                         guint         slot,
                         gboolean      centre,
                         CpelSession  *session)
{
  int row = _cpel_timeline_slot_row (self, slot);
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

static void
disconnect_session (CpelTimeline *self)
{
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
}

/* ------------------------------------------------------------------------ */
/* Public API                                                                 */

CpelSession *
cpel_timeline_get_session (CpelTimeline *self)
{
  g_return_val_if_fail (CPEL_IS_TIMELINE (self), NULL);
  return self->session;
}

void
cpel_timeline_set_session (CpelTimeline *self,
                           CpelSession  *session)
{
  static const struct { const char *signal; GCallback callback; } handlers[] = {
    { "notify::file", G_CALLBACK (on_session_file) },
    { "notify::range", G_CALLBACK (on_session_range) },
    { "notify::can-go-back", G_CALLBACK (on_session_history) },
    { "notify::can-go-forward", G_CALLBACK (on_session_history) },
    { "notify::measure", G_CALLBACK (on_session_measure) },
    { "notify::color-mode", G_CALLBACK (on_session_color_mode) },
    { "notify::summary", G_CALLBACK (on_session_summary) },
    { "notify::spans", G_CALLBACK (on_session_spans) },
    { "notify::show-spans", G_CALLBACK (on_session_spans) },
    /* the ruler's clock: as the spans, a redraw and a new status line */
    { "notify::capture-clock", G_CALLBACK (on_session_spans) },
    { "notify::span-filter", G_CALLBACK (on_session_spans) },
    { "notify::labels", G_CALLBACK (on_session_labels) },
    { "tracks-changed", G_CALLBACK (on_session_tracks) },
    { "types-changed", G_CALLBACK (on_session_types) },
    { "matches-changed", G_CALLBACK (on_session_types) },
    { "selection-changed", G_CALLBACK (on_session_selection) },
  };
  CpelColorMode old_mode;
  gboolean old_summary;

  g_return_if_fail (CPEL_IS_TIMELINE (self));
  g_return_if_fail (CPEL_IS_SESSION (session));

  if (self->session == session)
    return;
  old_mode = self->session != NULL ? cpel_session_get_color_mode (self->session)
                                   : CPEL_COLOR_BY_CODE;
  old_summary = self->session != NULL && cpel_session_get_summary (self->session);
  disconnect_session (self);
  g_set_object (&self->session, session);
  for (guint i = 0; i < G_N_ELEMENTS (handlers); i++)
    g_signal_connect_swapped (session, handlers[i].signal, handlers[i].callback, self);
  g_signal_connect_swapped (session, "reveal-track", G_CALLBACK (on_session_reveal_track), self);

  /* Another file (or the same state anew). */
  file_changed (self);
  sync_view (self);
  gtk_adjustment_set_value (self->vadjustment, 0);
  _cpel_timeline_update_adjustment (self);
  _cpel_timeline_update_cursor (self);
  g_object_notify_by_pspec (G_OBJECT (self), _cpel_timeline_properties[PROP_SESSION]);
  g_object_notify_by_pspec (G_OBJECT (self), _cpel_timeline_properties[PROP_FILE]);
  if (old_mode != cpel_session_get_color_mode (session))
    g_object_notify_by_pspec (G_OBJECT (self), _cpel_timeline_properties[PROP_COLOR_MODE]);
  if (old_summary != cpel_session_get_summary (session))
    g_object_notify_by_pspec (G_OBJECT (self), _cpel_timeline_properties[PROP_SUMMARY]);
  _cpel_timeline_view_changed (self);
  g_signal_emit (self, _cpel_timeline_signals[SELECTION_CHANGED], 0);
  g_signal_emit (self, _cpel_timeline_signals[POINTER_CHANGED], 0);
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

  if (cpel_session_get_file (self->session) == file)
    return;
  g_clear_pointer (&self->next_overview, cpel_overview_unref);
  if (overview != NULL && file != NULL)
    self->next_overview = cpel_overview_ref (overview);
  cpel_session_set_file (self->session, file);
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
cpel_timeline_set_range (CpelTimeline *self,
                         gint64        t0,
                         gint64        t1,
                         gboolean      remember_range)
{
  CpelRange range = { t0, t1 };

  g_return_if_fail (CPEL_IS_TIMELINE (self));
  if (self->file == NULL)
    return;
  _cpel_timeline_apply_range (self, &range, remember_range ? 1 : 0);
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
  range = *_cpel_timeline_view_range (self);
  if (x < self->view.label_width || _cpel_timeline_time_area_width (self) <= 0)
    anchor = range.t0 + cpel_range_span (&range) / 2;
  else
    anchor = cpel_view_x_to_time (&self->view, width, x);
  cpel_range_zoom (&range, factor, anchor, _cpel_timeline_limits (self));
  _cpel_timeline_apply_range (self, &range, 2);
}

void
cpel_timeline_pan (CpelTimeline *self,
                   double        fraction)
{
  CpelRange range;

  g_return_if_fail (CPEL_IS_TIMELINE (self));
  if (self->file == NULL)
    return;

  range = *_cpel_timeline_view_range (self);
  cpel_range_pan (&range, (gint64) llround (fraction * (double) cpel_range_span (&range)),
                  _cpel_timeline_limits (self));
  _cpel_timeline_apply_range (self, &range, 2);
}

void
cpel_timeline_scroll_tracks (CpelTimeline *self,
                             double        pixels)
{
  g_return_if_fail (CPEL_IS_TIMELINE (self));
  gtk_adjustment_set_value (self->vadjustment,
                            gtk_adjustment_get_value (self->vadjustment) + pixels);
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
  if (!cpel_session_get_measure (self->session, t0, t1))
    return FALSE;
  if (n_events != NULL)
    *n_events = self->measure_count;
  return TRUE;
}

void
cpel_timeline_clear_measure (CpelTimeline *self)
{
  g_return_if_fail (CPEL_IS_TIMELINE (self));
  self->measuring = FALSE;
  cpel_session_clear_measure (self->session);
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

  width = _cpel_timeline_clamp_label_width (self, width);
  if (self->label_width == width)
    return;
  self->label_width = width;
  self->view.label_width = width;
  _cpel_timeline_update_cursor (self);
  g_object_notify_by_pspec (G_OBJECT (self), _cpel_timeline_properties[PROP_LABEL_WIDTH]);
  _cpel_timeline_view_changed (self);
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
  _cpel_timeline_update_adjustment (self);
  gtk_adjustment_set_value (self->vadjustment, top_row * height);
  if (self->view.has_measure)
    _cpel_timeline_recount_measure (self);
  g_object_notify_by_pspec (G_OBJECT (self), _cpel_timeline_properties[PROP_ROW_HEIGHT]);
  _cpel_timeline_view_changed (self);
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

void
cpel_timeline_set_gaps (CpelTimeline  *self,
                        const gint64  *times,
                        const guint64 *n_lost,
                        guint          n_gaps,
                        gboolean       at_least)
{
  g_return_if_fail (CPEL_IS_TIMELINE (self));
  g_return_if_fail (n_gaps == 0 || (times != NULL && n_lost != NULL));

  if (self->gaps == NULL && n_gaps == 0)
    return;
  if (self->gaps == NULL)
    self->gaps = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_array_set_size (self->gaps, 0);
  for (guint i = 0; i < n_gaps; i++)
    {
      gint64 lost = (gint64) MIN (n_lost[i], (guint64) G_MAXINT64);

      g_array_append_val (self->gaps, times[i]);
      g_array_append_val (self->gaps, lost);
    }
  self->gaps_at_least = at_least;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
cpel_timeline_get_n_gaps (CpelTimeline *self)
{
  g_return_val_if_fail (CPEL_IS_TIMELINE (self), 0);
  return self->gaps != NULL ? self->gaps->len / 2 : 0;
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
  disconnect_session (self);
  g_clear_object (&self->session);
  g_clear_pointer (&self->overview, cpel_overview_unref);
  g_clear_pointer (&self->next_overview, cpel_overview_unref);
  self->view.overview = NULL;
  g_clear_object (&self->file);

  G_OBJECT_CLASS (cpel_timeline_parent_class)->dispose (object);
}

static void
cpel_timeline_finalize (GObject *object)
{
  CpelTimeline *self = CPEL_TIMELINE (object);

  g_clear_pointer (&self->font, g_free);
  g_clear_pointer (&self->gaps, g_array_unref);

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
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_LABEL_WIDTH:
      g_value_set_double (value, self->label_width);
      break;
    case PROP_COLOR_MODE:
      g_value_set_enum (value, cpel_session_get_color_mode (self->session));
      break;
    case PROP_SUMMARY:
      g_value_set_boolean (value, cpel_session_get_summary (self->session));
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
    case PROP_SESSION:
      cpel_timeline_set_session (self, g_value_get_object (value));
      break;
    case PROP_LABEL_WIDTH:
      cpel_timeline_set_label_width (self, g_value_get_double (value));
      break;
    case PROP_COLOR_MODE:
      cpel_session_set_color_mode (self->session, g_value_get_enum (value));
      break;
    case PROP_SUMMARY:
      cpel_session_set_summary (self->session, g_value_get_boolean (value));
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
cpel_timeline_class_init (CpelTimelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cpel_timeline_dispose;
  object_class->finalize = cpel_timeline_finalize;
  object_class->get_property = cpel_timeline_get_property;
  object_class->set_property = cpel_timeline_set_property;

  widget_class->snapshot = _cpel_timeline_snapshot;
  widget_class->size_allocate = _cpel_timeline_size_allocate;
  widget_class->measure = _cpel_timeline_measure;

  _cpel_timeline_properties[PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL, CPEL_TYPE_FILE,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* The view state the timeline shows and changes (its own until set). */
  _cpel_timeline_properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, CPEL_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  _cpel_timeline_properties[PROP_LABEL_WIDTH] =
    g_param_spec_double ("label-width", NULL, NULL, MIN_LABEL_WIDTH, 4000.0, 160.0,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  _cpel_timeline_properties[PROP_COLOR_MODE] =
    g_param_spec_enum ("color-mode", NULL, NULL, CPEL_TYPE_COLOR_MODE, CPEL_COLOR_BY_CODE,
                       G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  _cpel_timeline_properties[PROP_SUMMARY] =
    g_param_spec_boolean ("summary", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  _cpel_timeline_properties[PROP_ROW_HEIGHT] =
    g_param_spec_double ("row-height", NULL, NULL, CPEL_TIMELINE_MIN_ROW_HEIGHT,
                         CPEL_TIMELINE_MAX_ROW_HEIGHT, 24.0,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* Menus of the timeline's owner: the selected event's (right click on
   * it, Menu key), and items added to a track's menu (before Show All
   * Tracks). */
  _cpel_timeline_properties[PROP_EVENT_MENU] =
    g_param_spec_object ("event-menu", NULL, NULL, G_TYPE_MENU_MODEL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  _cpel_timeline_properties[PROP_TRACK_MENU] =
    g_param_spec_object ("track-menu", NULL, NULL, G_TYPE_MENU_MODEL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, _cpel_timeline_properties);

  /* The visible range or the track scroll changed. */
  _cpel_timeline_signals[VIEW_CHANGED] =
    g_signal_new ("view-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  _cpel_timeline_signals[SELECTION_CHANGED] =
    g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* The cursor time or the measurement changed. */
  _cpel_timeline_signals[POINTER_CHANGED] =
    g_signal_new ("pointer-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  _cpel_timeline_class_actions_init (widget_class);

  gtk_widget_class_set_css_name (widget_class, "timeline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_WIDGET);
}

/* The tracks scrolled (the scrollbar, a view restored). */
static void
on_vadjustment_changed (GtkAdjustment *adjustment,
                        CpelTimeline  *self)
{
  self->view.scroll_y = gtk_adjustment_get_value (adjustment);
  if (self->file != NULL)
    _cpel_timeline_view_changed (self);
}

/* The palette follows the style. */
static void
on_dark_changed (CpelTimeline *self)
{
  _cpel_timeline_invalidate (self);
  g_signal_emit (self, _cpel_timeline_signals[VIEW_CHANGED], 0);
}

static void
cpel_timeline_init (CpelTimeline *self)
{
  GtkWidget *widget = GTK_WIDGET (self);

  self->label_width = 160;
  self->view.label_width = 160;
  self->view.row_height = 24;
  self->view.ruler_height = 28;
  cpel_palette_init_light (&self->light);
  cpel_palette_init_dark (&self->dark);

  self->vadjustment = g_object_ref_sink (gtk_adjustment_new (0, 0, 0, 24, 240, 0));
  g_signal_connect (self->vadjustment, "value-changed",
                    G_CALLBACK (on_vadjustment_changed), self);
  {
    g_autoptr(CpelSession) session = cpel_session_new ();

    cpel_timeline_set_session (self, session);
  }

  gtk_widget_set_focusable (widget, TRUE);
  gtk_widget_set_focus_on_click (widget, TRUE);
  gtk_widget_set_overflow (widget, GTK_OVERFLOW_HIDDEN);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Timeline"),
                                  -1);

  _cpel_timeline_input_init (self);

  g_signal_connect_swapped (adw_style_manager_get_default (), "notify::dark",
                            G_CALLBACK (on_dark_changed), self);

  _cpel_timeline_update_actions (self);
}
