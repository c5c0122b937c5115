/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-overview-strip.c — the whole-capture density strip above the timeline
 *
 * Draws cpel_render_overview() with the timeline's view: the density and
 * the match ticks, which do not move with the view, once into images, and
 * over them at each frame only the view's window and the cursor (a cairo
 * fill of a thousand histogram bars per frame cost more than the timeline
 * itself).  The match layer is drawn in a worker: with tens of millions of
 * matches finding the columns that hold one reads scattered memory for a
 * few tens of ms, which no frame should wait for.  The spans highlighted
 * (the session's span filter: a distribution's selection) are marked in
 * the accent colour along the strip's bottom, a column per pixel that
 * holds the begin of one.  A press inside
 * the visible window drags it; a press elsewhere centres the window there
 * and then drags it.  The strip's geometry is the renderer's
 * (cpel_render_overview_x_to_time).
 */
#include "cpel-overview-strip.h"

#include <adwaita.h>
#include <math.h>

#include <glib/gi18n.h>

struct _CpelOverviewStrip
{
  GtkWidget     parent_instance;

  CpelTimeline *timeline;
  /* or the compare view's strip: both captures, the compare range */
  CpelComparePane *compare;
  CpelPalette       light;   /* the compare strip's colours */
  CpelPalette       dark;
  gint64        grab_offset;   /* time from the window's centre to the grab point */
  gboolean      drag_moved;    /* the drag has moved the range (and remembered it) */

  /* The layers that do not move with the view, and what they depend on. */
  cairo_surface_t   *base;      /* CPEL_OVERVIEW_LAYER_BASE */
  cairo_surface_t   *matches;   /* CPEL_OVERVIEW_LAYER_MATCHES; NULL without matches */
  int                cache_width;
  int                cache_height;
  int                cache_scale;
  const CpelPalette *cache_palette;
  CpelFile          *cache_file;      /* references: the key's identity stays valid */
  CpelOverview      *cache_overview;
  CpelSearchResult  *cache_matches;
  guint64            cache_shown;     /* cpel_render_overview_shown_hash */
  GCancellable      *matches_cancellable;   /* the match layer being drawn */
  /* The spans highlighted (the session's span filter): marked columns */
  guint8            *mark_cols;
  int                mark_width;
  const CpelSessionSpanMatch *mark_key;
  guint64            mark_n;
  CpelSpanFilter    *mark_filter;    /* the filter they are of (a new list may reuse memory) */
  CpelSpans         *mark_spans;
};

typedef struct
{
  CpelFile         *file;
  CpelOverview     *overview;
  CpelSearchResult *matches;
  CpelPalette       palette;
  int               width, height, scale;
} MatchesJob;

static void
matches_job_free (MatchesJob *job)
{
  g_clear_object (&job->file);
  g_clear_pointer (&job->overview, cpel_overview_unref);
  g_clear_pointer (&job->matches, cpel_search_result_unref);
  g_free (job);
}

G_DEFINE_FINAL_TYPE (CpelOverviewStrip, cpel_overview_strip, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_TIMELINE,
  PROP_COMPARE_PANE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

GtkWidget *
cpel_overview_strip_new (void)
{
  return g_object_new (CPEL_TYPE_OVERVIEW_STRIP, NULL);
}

gint64
cpel_overview_strip_x_to_time (CpelOverviewStrip *self,
                               double             x)
{
  const CpelView *view;
  double width = gtk_widget_get_width (GTK_WIDGET (self));

  g_return_val_if_fail (CPEL_IS_OVERVIEW_STRIP (self), 0);
  if (self->compare != NULL && width > 0)
    return cpel_render_compare_overview_x_to_time (cpel_compare_pane_get_view (self->compare),
                                                   width, CLAMP (x, 0.0, width));
  if (self->timeline == NULL || width <= 0)
    return 0;
  view = cpel_timeline_get_view (self->timeline);
  if (view == NULL)
    return 0;
  return cpel_render_overview_x_to_time (view, width, CLAMP (x, 0.0, width));
}

static void
cancel_matches (CpelOverviewStrip *self)
{
  if (self->matches_cancellable != NULL)
    g_cancellable_cancel (self->matches_cancellable);
  g_clear_object (&self->matches_cancellable);
}

static void
clear_cache (CpelOverviewStrip *self)
{
  cancel_matches (self);
  g_clear_pointer (&self->base, cairo_surface_destroy);
  g_clear_pointer (&self->matches, cairo_surface_destroy);
  g_clear_object (&self->cache_file);
  g_clear_pointer (&self->cache_overview, cpel_overview_unref);
  g_clear_pointer (&self->cache_matches, cpel_search_result_unref);
  self->cache_palette = NULL;
}

static cairo_surface_t *
render_layer (const CpelView    *view,
              int                width,
              int                height,
              int                scale,
              CpelOverviewLayer  layer)
{
  cairo_surface_t *surface;
  cairo_t *cr;

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width * scale, height * scale);
  cairo_surface_set_device_scale (surface, scale, scale);
  cr = cairo_create (surface);
  cpel_render_overview_layers (cr, width, height, view, layer);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

static void
matches_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  MatchesJob *job = task_data;
  CpelView view;

  cpel_view_init (&view, job->file, &job->palette);
  view.overview = job->overview;
  view.matches = job->matches;
  g_task_return_pointer (task, render_layer (&view, job->width, job->height, job->scale,
                                             CPEL_OVERVIEW_LAYER_MATCHES),
                         (GDestroyNotify) cairo_surface_destroy);
}

static void
on_matches_drawn (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(CpelOverviewStrip) self = user_data;
  MatchesJob *job = g_task_get_task_data (G_TASK (result));
  cairo_surface_t *surface = g_task_propagate_pointer (G_TASK (result), NULL);

  /* Still what the strip shows (not cancelled, same matches and size)? */
  if (surface == NULL)
    return;
  if (g_task_get_cancellable (G_TASK (result)) != self->matches_cancellable
      || job->matches != self->cache_matches || job->width != self->cache_width
      || job->height != self->cache_height || job->scale != self->cache_scale)
    {
      cairo_surface_destroy (surface);
      return;
    }
  g_clear_pointer (&self->matches, cairo_surface_destroy);
  self->matches = surface;
  g_clear_object (&self->matches_cancellable);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
start_matches (CpelOverviewStrip *self,
               const CpelView    *view,
               int                width,
               int                height,
               int                scale)
{
  g_autoptr(GTask) task = NULL;
  MatchesJob *job = g_new0 (MatchesJob, 1);

  job->file = g_object_ref (view->file);
  job->overview = view->overview != NULL ? cpel_overview_ref (view->overview) : NULL;
  job->matches = cpel_search_result_ref (view->matches);
  if (view->palette != NULL)
    job->palette = *view->palette;
  else
    cpel_palette_init_light (&job->palette);
  job->width = width;
  job->height = height;
  job->scale = scale;

  self->matches_cancellable = g_cancellable_new ();
  /* Not the task's source object: a worker thread may drop the task's
   * last reference, and the strip must be finalized in the main thread;
   * the callback (main thread, always called) drops this one. */
  task = g_task_new (NULL, self->matches_cancellable, on_matches_drawn, g_object_ref (self));
  g_task_set_source_tag (task, start_matches);
  g_task_set_name (task, "[cpelview] overview matches");
  g_task_set_task_data (task, job, (GDestroyNotify) matches_job_free);
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, matches_thread);
}

/* The density layer is redrawn when the capture, size, palette or what the
 * view shows (tracks, event types) change;
 * the match layer also when the matches do (a new search keeps the
 * density). */
static void
update_cache (CpelOverviewStrip *self,
              const CpelView    *view,
              int                width,
              int                height,
              int                scale)
{
  if (self->base == NULL || self->cache_width != width || self->cache_height != height
      || self->cache_scale != scale || self->cache_palette != view->palette
      || self->cache_file != view->file || self->cache_overview != view->overview
      || self->cache_shown != cpel_render_overview_shown_hash (view))
    {
      clear_cache (self);
      self->base = render_layer (view, width, height, scale, CPEL_OVERVIEW_LAYER_BASE);
      self->cache_width = width;
      self->cache_height = height;
      self->cache_scale = scale;
      self->cache_palette = view->palette;
      self->cache_file = view->file != NULL ? g_object_ref (view->file) : NULL;
      self->cache_overview = view->overview != NULL ? cpel_overview_ref (view->overview) : NULL;
      self->cache_shown = cpel_render_overview_shown_hash (view);
    }
  else if (self->cache_matches == view->matches)
    return;

  cancel_matches (self);
  g_clear_pointer (&self->matches, cairo_surface_destroy);
  g_clear_pointer (&self->cache_matches, cpel_search_result_unref);
  self->cache_matches = view->matches != NULL ? cpel_search_result_ref (view->matches) : NULL;
  if (view->matches != NULL && view->file != NULL && cpel_search_result_get_n (view->matches) > 0)
    start_matches (self, view, width, height, scale);
}

/* The compare strip: its BASE layer redrawn when the captures, the
 * offset, what either side shows, the size or the palette change. */
static void
snapshot_compare (CpelOverviewStrip *self,
                  GtkSnapshot       *snapshot,
                  int                width,
                  int                height)
{
  CpelCompareView cv = *cpel_compare_pane_get_view (self->compare);
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  guint64 shown;
  cairo_t *cr;

  if (cv.a.file == NULL || cv.b.file == NULL)
    return;
  cv.a.palette = adw_style_manager_get_dark (adw_style_manager_get_default ())
                 ? &self->dark : &self->light;
  shown = cpel_render_compare_overview_shown_hash (&cv);
  if (self->base == NULL || self->cache_width != width || self->cache_height != height
      || self->cache_scale != scale || self->cache_palette != cv.a.palette
      || self->cache_file != cv.a.file || self->cache_shown != shown)
    {
      clear_cache (self);
      self->base = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width * scale,
                                               height * scale);
      cairo_surface_set_device_scale (self->base, scale, scale);
      cr = cairo_create (self->base);
      cpel_render_compare_overview_layers (cr, width, height, &cv, CPEL_OVERVIEW_LAYER_BASE);
      cairo_destroy (cr);
      cairo_surface_flush (self->base);
      self->cache_width = width;
      self->cache_height = height;
      self->cache_scale = scale;
      self->cache_palette = cv.a.palette;
      self->cache_file = g_object_ref (cv.a.file);
      self->cache_shown = shown;
    }
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  cairo_set_source_surface (cr, self->base, 0, 0);
  cairo_paint (cr);
  cpel_render_compare_overview_layers (cr, width, height, &cv,
                                       CPEL_OVERVIEW_LAYER_WINDOW | CPEL_OVERVIEW_LAYER_TOP);
  cairo_destroy (cr);
}

#define MARK_HEIGHT 4

/* The highlighted spans' marks: which columns hold one, computed again
 * when the matches or the width change (a pass over the matches). */
static void
draw_span_marks (CpelOverviewStrip *self,
                 cairo_t           *cr,
                 const CpelView    *view,
                 int                width,
                 int                height)
{
  CpelSession *session = cpel_timeline_get_session (self->timeline);
  const CpelSessionSpanMatch *m;
  guint64 n = 0;
  int run = -1;

  m = session != NULL ? cpel_session_get_span_matches (session, &n) : NULL;
  if (m == NULL)
    {
      g_clear_pointer (&self->mark_cols, g_free);
      g_clear_pointer (&self->mark_filter, cpel_span_filter_free);
      self->mark_key = NULL;
      return;
    }
  if (m != self->mark_key || n != self->mark_n || width != self->mark_width
      || self->mark_cols == NULL || cpel_session_get_spans (session) != self->mark_spans
      || !cpel_span_filter_equal (cpel_session_get_span_filter (session), self->mark_filter))
    {
      g_clear_pointer (&self->mark_filter, cpel_span_filter_free);
      self->mark_filter = cpel_span_filter_copy (cpel_session_get_span_filter (session));
      self->mark_spans = cpel_session_get_spans (session);
      g_free (self->mark_cols);
      self->mark_cols = g_new0 (guint8, width);
      self->mark_key = m;
      self->mark_n = n;
      self->mark_width = width;
      for (guint64 i = 0; i < n; i++)
        {
          double x = cpel_render_overview_time_to_x (view, width, m[i].begin_ns);
          int c = (int) CLAMP (floor (x), 0, width - 1);

          self->mark_cols[c] = 1;
        }
    }
  {
    CpelPalette palette;
    const CpelPalette *p = view->palette;

    if (p == NULL)
      {
        cpel_palette_init_light (&palette);
        p = &palette;
      }
    cairo_set_source_rgba (cr, p->accent.r, p->accent.g, p->accent.b, 1.0);
  }
  for (int c = 0; c <= width; c++)
    {
      gboolean on = c < width && self->mark_cols[c];

      if (on && run < 0)
        run = c;
      else if (!on && run >= 0)
        {
          cairo_rectangle (cr, run, height - MARK_HEIGHT, c - run, MARK_HEIGHT);
          run = -1;
        }
    }
  cairo_fill (cr);
}

static void
cpel_overview_strip_snapshot (GtkWidget   *widget,
                              GtkSnapshot *snapshot)
{
  CpelOverviewStrip *self = CPEL_OVERVIEW_STRIP (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  const CpelView *view;
  cairo_t *cr;

  if (self->compare != NULL && width > 0 && height > 0)
    {
      snapshot_compare (self, snapshot, width, height);
      return;
    }
  if (self->timeline == NULL || width <= 0 || height <= 0)
    return;
  view = cpel_timeline_get_view (self->timeline);
  if (view == NULL)
    return;

  update_cache (self, view, width, height, gtk_widget_get_scale_factor (widget));
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  cairo_set_source_surface (cr, self->base, 0, 0);
  cairo_paint (cr);
  cpel_render_overview_layers (cr, width, height, view, CPEL_OVERVIEW_LAYER_WINDOW);
  if (self->matches != NULL)
    {
      cairo_set_source_surface (cr, self->matches, 0, 0);
      cairo_paint (cr);
    }
  draw_span_marks (self, cr, view, width, height);
  cpel_render_overview_layers (cr, width, height, view, CPEL_OVERVIEW_LAYER_TOP);
  cairo_destroy (cr);
}

static void
cpel_overview_strip_measure (GtkWidget      *widget,
                       GtkOrientation  orientation,
                       int             for_size,
                       int            *minimum,
                       int            *natural,
                       int            *minimum_baseline,
                       int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = *natural = 100;
  else
    *minimum = *natural = 44;
}

/* The session whose range the strip moves: the timeline's, or the compare
 * pane's (its compare range); NULL without captures. */
static CpelSession *
strip_session (CpelOverviewStrip *self)
{
  CpelSession *session = NULL;

  if (self->compare != NULL)
    {
      session = cpel_compare_pane_get_session (self->compare);
      return cpel_compare_pane_get_file_a (self->compare) != NULL ? session : NULL;
    }
  if (self->timeline != NULL)
    session = cpel_timeline_get_session (self->timeline);
  return session != NULL && cpel_session_get_file (session) != NULL ? session : NULL;
}

static CpelRange
strip_range (CpelOverviewStrip *self,
             CpelSession       *session)
{
  return self->compare != NULL ? *cpel_session_get_compare_range (session)
                               : *cpel_session_get_range (session);
}

static gboolean
strip_set_range (CpelOverviewStrip   *self,
                 CpelSession         *session,
                 const CpelRange     *range,
                 CpelSessionRemember  remember)
{
  if (self->compare != NULL)
    return cpel_session_set_compare_range (session, range, remember);
  return cpel_session_set_range (session, range, remember);
}

static void
move_to (CpelOverviewStrip *self,
         double        x)
{
  CpelSession *session = strip_session (self);
  CpelRange range;
  gint64 span;
  gint64 centre = cpel_overview_strip_x_to_time (self, x) - self->grab_offset;

  if (session == NULL)
    return;
  range = strip_range (self, session);
  span = cpel_range_span (&range);
  range.t0 = centre - span / 2;
  range.t1 = range.t0 + span;
  /* the range before the drag remembered once, at its first move */
  if (strip_set_range (self, session, &range,
                       self->drag_moved ? CPEL_SESSION_FORGET : CPEL_SESSION_STEP))
    self->drag_moved = TRUE;
}

static void
on_drag_begin (GtkGestureDrag *gesture,
               double          x,
               double          y,
               CpelOverviewStrip   *self)
{
  CpelSession *session = strip_session (self);
  CpelRange range;
  gint64 t;

  if (session == NULL)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);

  t = cpel_overview_strip_x_to_time (self, x);
  range = strip_range (self, session);
  self->drag_moved = FALSE;
  if (t >= range.t0 && t < range.t1)
    {
      /* Grab the window where it was pressed. */
      self->grab_offset = t - (range.t0 + cpel_range_span (&range) / 2);
    }
  else
    {
      self->grab_offset = 0;
      move_to (self, x);
    }
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "grabbing");
}

static void
on_drag_update (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                CpelOverviewStrip   *self)
{
  double x, y;

  if (self->timeline == NULL && self->compare == NULL)
    return;
  gtk_gesture_drag_get_start_point (gesture, &x, &y);
  move_to (self, x + dx);
}

static void
on_drag_end (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             CpelOverviewStrip   *self)
{
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), NULL);
}

void
cpel_overview_strip_set_timeline (CpelOverviewStrip *self,
                            CpelTimeline *timeline)
{
  g_return_if_fail (CPEL_IS_OVERVIEW_STRIP (self));
  g_return_if_fail (timeline == NULL || CPEL_IS_TIMELINE (timeline));

  if (self->timeline == timeline)
    return;
  g_clear_pointer (&self->mark_cols, g_free);
  g_clear_pointer (&self->mark_filter, cpel_span_filter_free);
  if (self->timeline != NULL)
    g_signal_handlers_disconnect_by_data (self->timeline, self);
  g_set_object (&self->timeline, timeline);
  if (timeline != NULL)
    {
      /* The window, the matches and the palette are drawn here too. */
      g_signal_connect_swapped (timeline, "view-changed",
                                G_CALLBACK (gtk_widget_queue_draw), self);
      g_signal_connect_swapped (timeline, "notify::file",
                                G_CALLBACK (gtk_widget_queue_draw), self);
      /* The pointer's time is marked on the strip too. */
      g_signal_connect_swapped (timeline, "pointer-changed",
                                G_CALLBACK (gtk_widget_queue_draw), self);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIMELINE]);
}

void
cpel_overview_strip_set_compare_pane (CpelOverviewStrip *self,
                                      CpelComparePane   *pane)
{
  g_return_if_fail (CPEL_IS_OVERVIEW_STRIP (self));
  g_return_if_fail (pane == NULL || CPEL_IS_COMPARE_PANE (pane));

  if (self->compare == pane)
    return;
  if (self->compare != NULL)
    g_signal_handlers_disconnect_by_data (self->compare, self);
  g_set_object (&self->compare, pane);
  clear_cache (self);
  if (pane != NULL)
    {
      /* the window (the range), the captures, their offset and filters, the
       * cursor */
      static const char *const changes[] = {
        "notify::t0", "notify::t1", "notify::offset", "notify::filters",
        "notify::file-a", "notify::file-b", "notify::cursor",
      };

      for (guint i = 0; i < G_N_ELEMENTS (changes); i++)
        g_signal_connect_swapped (pane, changes[i], G_CALLBACK (gtk_widget_queue_draw), self);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self),
                                   _("A and B on one time axis: click or drag to move the "
                                     "visible window"));
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COMPARE_PANE]);
}

CpelComparePane *
cpel_overview_strip_get_compare_pane (CpelOverviewStrip *self)
{
  g_return_val_if_fail (CPEL_IS_OVERVIEW_STRIP (self), NULL);
  return self->compare;
}

CpelTimeline *
cpel_overview_strip_get_timeline (CpelOverviewStrip *self)
{
  g_return_val_if_fail (CPEL_IS_OVERVIEW_STRIP (self), NULL);
  return self->timeline;
}

static void
cpel_overview_strip_dispose (GObject *object)
{
  CpelOverviewStrip *self = CPEL_OVERVIEW_STRIP (object);

  g_clear_pointer (&self->mark_cols, g_free);
  g_clear_pointer (&self->mark_filter, cpel_span_filter_free);
  if (self->timeline != NULL)
    g_signal_handlers_disconnect_by_data (self->timeline, self);
  g_clear_object (&self->timeline);
  if (self->compare != NULL)
    g_signal_handlers_disconnect_by_data (self->compare, self);
  g_clear_object (&self->compare);
  clear_cache (self);

  G_OBJECT_CLASS (cpel_overview_strip_parent_class)->dispose (object);
}

static void
cpel_overview_strip_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  CpelOverviewStrip *self = CPEL_OVERVIEW_STRIP (object);

  switch (prop_id)
    {
    case PROP_TIMELINE:
      g_value_set_object (value, self->timeline);
      break;
    case PROP_COMPARE_PANE:
      g_value_set_object (value, self->compare);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_overview_strip_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  CpelOverviewStrip *self = CPEL_OVERVIEW_STRIP (object);

  switch (prop_id)
    {
    case PROP_TIMELINE:
      cpel_overview_strip_set_timeline (self, g_value_get_object (value));
      break;
    case PROP_COMPARE_PANE:
      cpel_overview_strip_set_compare_pane (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cpel_overview_strip_class_init (CpelOverviewStripClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cpel_overview_strip_dispose;
  object_class->get_property = cpel_overview_strip_get_property;
  object_class->set_property = cpel_overview_strip_set_property;

  widget_class->snapshot = cpel_overview_strip_snapshot;
  widget_class->measure = cpel_overview_strip_measure;

  properties[PROP_TIMELINE] =
    g_param_spec_object ("timeline", NULL, NULL, CPEL_TYPE_TIMELINE,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* Set instead of a timeline: the compare view's strip. */
  properties[PROP_COMPARE_PANE] =
    g_param_spec_object ("compare-pane", NULL, NULL, CPEL_TYPE_COMPARE_PANE,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "overview");
}

static void
cpel_overview_strip_init (CpelOverviewStrip *self)
{
  GtkGesture *gesture;

  cpel_palette_init_light (&self->light);
  cpel_palette_init_dark (&self->dark);
  /* the compare strip picks its colours itself */
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (gtk_widget_queue_draw), self, G_CONNECT_SWAPPED);
  gesture = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_PRIMARY);
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (gesture, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  gtk_widget_set_tooltip_text (GTK_WIDGET (self),
                               _("Whole capture: click or drag to move the visible window"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Capture overview"),
                                  -1);
}
