/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-render.c — a whole frame: rows, ruler, measurement band, cursor */
#include <inttypes.h>
#include <glib/gi18n-lib.h>
#include <math.h>

#include "cpel-render-private.h"

void
cpel_render_measure (CpelRenderCtx *ctx)
{
  const CpelView *view = ctx->view;
  const CpelPalette *pal = ctx->pal;
  cairo_t *cr = ctx->cr;
  gint64 m0 = MIN (view->measure_t0, view->measure_t1);
  gint64 m1 = MAX (view->measure_t0, view->measure_t1);
  double xa, xb, w, h = MAX (view->ruler_height, 0), pill_w, pill_h, px, py;
  g_autofree char *dt = NULL;
  g_autofree char *text = NULL;
  g_autofree char *n = NULL;
  guint64 count;
  PangoLayout *layout;

  if (ctx->tw <= 0)
    return;
  xa = cpel_view_time_to_x (view, ctx->width, m0);
  xb = cpel_view_time_to_x (view, ctx->width, m1);
  if (xb < ctx->x0 || xa > ctx->x0 + ctx->tw)
    return;

  cairo_save (cr);
  cairo_rectangle (cr, ctx->x0, 0, ctx->tw, ctx->height);
  cairo_clip (cr);

  w = MAX (xb - xa, 1.0 / ctx->scale);
  cpel_render_set_color (cr, &pal->measure);
  cairo_rectangle (cr, xa, 0, w, ctx->height);
  cairo_fill (cr);
  cpel_render_set_color_alpha (cr, &pal->accent, 0.8);
  cairo_rectangle (cr, xa, 0, 1.0 / ctx->scale, ctx->height);
  cairo_rectangle (cr, xa + w - 1.0 / ctx->scale, 0, 1.0 / ctx->scale, ctx->height);
  cairo_fill (cr);

  /* "Δ 1.234 ms · 57 events" in a pill centred on the band and kept inside
   * the timeline: just below the ruler, so that the ruler's labels stay
   * readable while measuring (a little translucent over the first row). */
  count = cpel_view_count_range (view, m0, m1);
  dt = cpel_time_format_kind (m1 - m0, ctx->file != NULL ? cpel_file_get_time_kind (ctx->file)
                                                         : CPEL_TIME_KIND_NS);
  n = cpel_format_count (count);
  /* TRANSLATORS: a measured interval and the number of events in it */
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Δ %s · %s event", "Δ %s · %s events",
                                       count == 1 ? 1 : 2),
                          dt, n);
  layout = cpel_render_ctx_text (ctx, text, -1, 0);
  pill_w = cpel_render_layout_width (layout) + 12;
  pill_h = ctx->text_height + 4;
  px = (MAX (xa, ctx->x0) + MIN (xa + w, ctx->x0 + ctx->tw)) / 2 - pill_w / 2;
  px = CLAMP (px, ctx->x0 + 2, MAX (ctx->x0 + 2, ctx->x0 + ctx->tw - pill_w - 2));
  py = h + 3;
  cpel_render_rounded_rect (cr, px, py, pill_w, pill_h, pill_h / 2);
  cpel_render_set_color_alpha (cr, &pal->selection, 0.92);
  cairo_fill (cr);
  cpel_render_set_color (cr, &pal->selection_fg);
  cairo_move_to (cr, px + 6, py + (pill_h - ctx->text_height) / 2);
  pango_cairo_show_layout (cr, layout);
  cairo_restore (cr);
}

void
cpel_render_cursor (CpelRenderCtx *ctx)
{
  const CpelView *view = ctx->view;
  cairo_t *cr = ctx->cr;
  double x, h = view->ruler_height;

  if (ctx->tw <= 0 || view->cursor_t < view->t0 || view->cursor_t >= view->t1)
    return;
  x = round (cpel_view_time_to_x (view, ctx->width, view->cursor_t) * ctx->scale) / ctx->scale;
  cairo_save (cr);
  cairo_rectangle (cr, ctx->x0, 0, ctx->tw, ctx->height);
  cairo_clip (cr);
  cpel_render_set_color (cr, &ctx->pal->accent);
  cairo_rectangle (cr, x, 0, 1.0, ctx->height);
  cairo_fill (cr);
  /* A small marker at the bottom of the ruler. */
  cairo_move_to (cr, x - 4.5, h - 6);
  cairo_line_to (cr, x + 5.5, h - 6);
  cairo_line_to (cr, x + 0.5, h);
  cairo_close_path (cr);
  cairo_fill (cr);
  cairo_restore (cr);
}

void
cpel_render_view (cairo_t *cr, double width, double height, const CpelView *view)
{
  CpelRenderCtx ctx;
  CpelPalette fallback;

  g_return_if_fail (cr != NULL);
  g_return_if_fail (view != NULL);
  g_return_if_fail (view->t1 > view->t0);

  if (width <= 0 || height <= 0)
    return;

  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_clip (cr);

  if (view->palette == NULL)
    {
      CpelView copy = *view;
      cpel_palette_init_light (&fallback);
      copy.palette = &fallback;
      cpel_render_ctx_init (&ctx, cr, width, height, &copy);
      ctx.view = view;
      ctx.pal = &fallback;
    }
  else
    cpel_render_ctx_init (&ctx, cr, width, height, view);

  cpel_render_set_color (cr, &ctx.pal->background);
  cairo_paint (cr);

  if (view->file != NULL)
    {
      cpel_render_rows_background (&ctx);
      cpel_render_ruler_grid (&ctx);
      cpel_render_rows_spans (&ctx);
      cpel_render_rows_events (&ctx);
      cpel_render_spans_legend (&ctx);
      cpel_render_label_column (&ctx);
    }
  cpel_render_ruler (&ctx);
  if (view->has_measure)
    cpel_render_measure (&ctx);
  if (view->has_cursor)
    cpel_render_cursor (&ctx);

  cpel_render_ctx_clear (&ctx);
  cairo_restore (cr);
}
