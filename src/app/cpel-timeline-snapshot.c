/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-timeline-snapshot.c — drawing the timeline: one cpel_render_view()
 * per changed frame, the cursor line, the gaps of a followed capture and a
 * dragged track over it */
#include "cpel-timeline-private.h"

#include <glib/gi18n.h>

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

/* Where entries were lost (a followed capture): a red line across the
 * rows, and how many on the ruler, over the cached frame. */
static void
snapshot_gaps (CpelTimeline *self,
               GtkSnapshot  *snapshot,
               double        width,
               double        height)
{
  const CpelView *view = &self->view;
  GdkRGBA red = { 0.88, 0.11, 0.14, 0.85 };
  double h = view->ruler_height;
  double free_x = -G_MAXDOUBLE;   /* where the next label fits */

  if (self->gaps == NULL || self->gaps->len == 0 || width <= view->label_width)
    return;
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (view->label_width, 0,
                                                         width - view->label_width, height));
  /* the lines first, the labels over them */
  for (guint i = 0; i + 1 < self->gaps->len; i += 2)
    {
      gint64 t = g_array_index (self->gaps, gint64, i);

      if (t >= view->t0 && t < view->t1)
        gtk_snapshot_append_color (snapshot, &red,
                                   &GRAPHENE_RECT_INIT (round (cpel_view_time_to_x (view, width, t))
                                                        - 1, h, 2, height - h));
    }
  for (guint i = 0; i + 1 < self->gaps->len; i += 2)
    {
      gint64 t = g_array_index (self->gaps, gint64, i);
      gint64 lost = g_array_index (self->gaps, gint64, i + 1);
      g_autofree char *count = NULL;
      g_autofree char *text = NULL;
      PangoLayout *layout;
      int tw, th;
      double x;

      if (t < view->t0 || t >= view->t1)
        continue;
      x = round (cpel_view_time_to_x (view, width, t));
      if (x < free_x)
        continue;   /* gaps close together: their lines only */
      count = cpel_format_count ((guint64) lost);
      /* TRANSLATORS: a gap marker on the timeline: entries lost there */
      text = self->gaps_at_least ? g_strdup_printf (_("lost ≥ %s"), count)
                                 : g_strdup_printf (_("lost %s"), count);
      layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
      pango_layout_get_pixel_size (layout, &tw, &th);
      free_x = x + tw + 12;
      gtk_snapshot_append_color (snapshot, &red,
                                 &GRAPHENE_RECT_INIT (x + 1, h, tw + 6, th + 2));
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x + 4, h + 1));
      gtk_snapshot_append_layout (snapshot, layout, &(GdkRGBA) { 1, 1, 1, 1 });
      gtk_snapshot_restore (snapshot);
      g_object_unref (layout);
    }
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
    int from = _cpel_timeline_slot_row (self, self->reorder_slot);
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

void
_cpel_timeline_snapshot (GtkWidget   *widget,
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
  snapshot_gaps (self, snapshot, width, height);
  snapshot_cursor (self, snapshot, width, height);

  self->n_frames++;
  self->last_frame_us = g_get_monotonic_time () - start;
}

void
_cpel_timeline_size_allocate (GtkWidget *widget,
                             int        width,
                             int        height,
                             int        baseline)
{
  CpelTimeline *self = CPEL_TIMELINE (widget);
  double label_width = _cpel_timeline_clamp_label_width (self, self->label_width);

  if (label_width != self->view.label_width)
    self->view.label_width = label_width;
  _cpel_timeline_update_adjustment (self);
  g_signal_emit (self, _cpel_timeline_signals[VIEW_CHANGED], 0);
}

void
_cpel_timeline_measure (GtkWidget      *widget,
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

