/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-span-scatter.c — durations over time (see the header) */
#include "cpel-span-scatter.h"

#include <math.h>

#include <pango/pangocairo.h>

#include "cpel-render-private.h"
#include "cpel-span-histogram.h"

#define LEFT    64.0
#define RIGHT   34.0
#define TOP     14.0
#define BOTTOM  28.0
#define DOT     3       /* px: a point's side */

void
cpel_span_scatter_fit (CpelSpanScatterView *view)
{
  guint64 n;
  gint64 t0 = G_MAXINT64, t1 = G_MININT64, lo = G_MAXINT64, hi = G_MININT64;

  g_return_if_fail (view != NULL);
  n = 0;
  for (guint s = 0; s < 2; s++)
    {
      CpelSpanList *list = s == 0 ? view->list : view->list_b;
      gint64 shift = s == 0 ? 0 : view->b_offset;
      guint64 m = list != NULL ? cpel_span_list_get_n (list) : 0;

      for (guint64 i = 0; i < m; i++)
        {
          const CpelSpanItem *it = cpel_span_list_get (list, i);
          gint64 d = it->end_ns - it->begin_ns;

          t0 = MIN (t0, it->begin_ns - shift);
          t1 = MAX (t1, it->begin_ns - shift);
          lo = MIN (lo, d);
          hi = MAX (hi, d);
        }
      n += m;
    }
  if (n == 0)
    {
      t0 = lo = 0;
      t1 = hi = 1;
    }
  if (view->t1 <= view->t0)
    {
      view->t0 = t0;
      view->t1 = MAX (t1, t0 + 1);
    }
  if (view->max_ns < view->min_ns)
    {
      /* Durations (nearly) all alike: a tenth of the longest on either side,
       * or the axis would read "1 µs" at its bottom and at its top. */
      gint64 pad = (hi - lo) * 20 < hi ? MAX (hi / 10, 1) : 0;
      view->min_ns = MAX (lo - pad, 0);
      view->max_ns = MAX (hi + pad, view->min_ns + 1);
    }
}

void
cpel_span_scatter_plot_rect (double  width,
                             double  height,
                             double *x,
                             double *y,
                             double *w,
                             double *h)
{
  *x = LEFT;
  *y = TOP;
  *w = MAX (width - LEFT - RIGHT, 1);
  *h = MAX (height - TOP - BOTTOM, 1);
}

/* A duration's place on the axis, 0 (min_ns) to 1 (max_ns). */
static double
dur_frac (const CpelSpanScatterView *view,
          gint64                     ns)
{
  if (view->log_axis)
    {
      double a = log10 ((double) MAX (view->min_ns, 1));
      double b = log10 ((double) MAX (view->max_ns, 1));

      if (b <= a)
        return 0;
      return (log10 ((double) MAX (ns, 1)) - a) / (b - a);
    }
  if (view->max_ns <= view->min_ns)
    return 0;
  return ((double) ns - (double) view->min_ns) / ((double) view->max_ns - (double) view->min_ns);
}

double
cpel_span_scatter_x_of (const CpelSpanScatterView *view,
                        double                     width,
                        double                     height,
                        gint64                     t)
{
  double px, py, pw, ph;

  g_return_val_if_fail (view != NULL, 0);
  cpel_span_scatter_plot_rect (width, height, &px, &py, &pw, &ph);
  if (view->t1 <= view->t0)
    return px;
  return px + ((double) t - (double) view->t0) / ((double) view->t1 - (double) view->t0) * pw;
}

double
cpel_span_scatter_y_of (const CpelSpanScatterView *view,
                        double                     width,
                        double                     height,
                        gint64                     ns)
{
  double px, py, pw, ph;

  g_return_val_if_fail (view != NULL, 0);
  cpel_span_scatter_plot_rect (width, height, &px, &py, &pw, &ph);
  return py + ph - dur_frac (view, ns) * ph;
}

gint64
cpel_span_scatter_time_at (const CpelSpanScatterView *view,
                           double                     width,
                           double                     height,
                           double                     x)
{
  double px, py, pw, ph, f;

  g_return_val_if_fail (view != NULL, 0);
  cpel_span_scatter_plot_rect (width, height, &px, &py, &pw, &ph);
  f = CLAMP ((x - px) / pw, 0.0, 1.0);
  return view->t0 + (gint64) llround (f * ((double) view->t1 - (double) view->t0));
}

gint64
cpel_span_scatter_duration_at (const CpelSpanScatterView *view,
                               double                     width,
                               double                     height,
                               double                     y)
{
  double px, py, pw, ph, f;

  g_return_val_if_fail (view != NULL, 0);
  cpel_span_scatter_plot_rect (width, height, &px, &py, &pw, &ph);
  f = CLAMP ((py + ph - y) / ph, 0.0, 1.0);
  if (view->log_axis)
    {
      double a = log10 ((double) MAX (view->min_ns, 1));
      double b = log10 ((double) MAX (view->max_ns, 1));

      return (gint64) llround (pow (10, a + f * (b - a)));
    }
  return view->min_ns + (gint64) llround (f * ((double) view->max_ns - (double) view->min_ns));
}

CpelSpanFilter *
cpel_span_scatter_selection (const CpelSpanScatterView *view,
                             const char                *name,
                             double                     width,
                             double                     height,
                             double                     x0,
                             double                     y0,
                             double                     x1,
                             double                     y1)
{
  CpelSpanFilter *f;

  g_return_val_if_fail (view != NULL, NULL);
  f = cpel_span_filter_new (name,
                            cpel_span_scatter_duration_at (view, width, height, MAX (y0, y1)),
                            cpel_span_scatter_duration_at (view, width, height, MIN (y0, y1)));
  f->from_ns = cpel_span_scatter_time_at (view, width, height, MIN (x0, x1));
  f->to_ns = cpel_span_scatter_time_at (view, width, height, MAX (x0, x1));
  return f;
}

static void
label (cairo_t        *cr,
       PangoLayout    *layout,
       const char     *text,
       double          x,
       double          y,
       double          align,
       const CpelRGBA *color)
{
  PangoRectangle r;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_extents (layout, NULL, &r);
  cpel_render_set_color (cr, color);
  cairo_move_to (cr, round (x - align * r.width), round (y));
  pango_cairo_show_layout (cr, layout);
}

/* The smallest step of 1, 2 or 5 x 10^k with at most `ticks` steps over
 * [lo, hi]. */
static gint64
nice_step (gint64 lo,
           gint64 hi,
           guint  ticks)
{
  static const gint64 mult[3] = { 1, 2, 5 };

  for (gint64 decade = 1; decade <= G_MAXINT64 / 10; decade *= 10)
    for (guint m = 0; m < 3; m++)
      if ((hi - lo) / (decade * mult[m]) <= (gint64) ticks)
        return decade * mult[m];
  return MAX (hi - lo, 1);
}

static void
draw_points (cairo_t                   *cr,
             const CpelSpanScatterView *view,
             CpelSpanList              *list,
             gint64                     shift,
             const CpelRGBA            *color,
             const CpelPalette         *palette,
             double                     width,
             double                     height)
{
  double px, py, pw, ph;
  int iw, ih, stride;
  guint64 n = cpel_span_list_get_n (list);
  g_autofree guint32 *counts = NULL;
  g_autofree guint8 *in_sel = NULL;
  guint32 top = 0;
  cairo_surface_t *image;
  guint8 *data;

  cpel_span_scatter_plot_rect (width, height, &px, &py, &pw, &ph);
  iw = (int) ceil (pw) + DOT;
  ih = (int) ceil (ph) + DOT;
  counts = g_new0 (guint32, (gsize) iw * ih);
  in_sel = g_new0 (guint8, (gsize) iw * ih);
  for (guint64 i = 0; i < n; i++)
    {
      const CpelSpanItem *it = cpel_span_list_get (list, i);
      gint64 d = it->end_ns - it->begin_ns;
      int x = (int) floor (cpel_span_scatter_x_of (view, width, height, it->begin_ns - shift) - px);
      int y = (int) floor (cpel_span_scatter_y_of (view, width, height, d) - py) - DOT / 2;
      gboolean sel = view->has_selection && list == view->list
                     && it->begin_ns >= view->sel_from_ns && it->begin_ns <= view->sel_to_ns
                     && d >= view->sel_min_ns && d <= view->sel_max_ns;

      for (int dy = 0; dy < DOT; dy++)
        for (int dx = 0; dx < DOT; dx++)
          {
            int xx = CLAMP (x + dx, 0, iw - 1), yy = CLAMP (y + dy, 0, ih - 1);
            gsize k = (gsize) yy * iw + xx;

            if (counts[k] < G_MAXUINT32)
              counts[k]++;
            top = MAX (top, counts[k]);
            in_sel[k] |= sel;
          }
    }
  image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, iw, ih);
  if (cairo_surface_status (image) != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (image);
      return;
    }
  cairo_surface_flush (image);
  data = cairo_image_surface_get_data (image);
  stride = cairo_image_surface_get_stride (image);
  for (int y = 0; y < ih; y++)
    {
      guint32 *line = (guint32 *) (gpointer) (data + (gsize) y * stride);

      for (int x = 0; x < iw; x++)
        {
          guint32 c = counts[(gsize) y * iw + x];
          const CpelRGBA *col;
          double a;

          if (c == 0)
            {
              line[x] = 0;
              continue;
            }
          /* one point at 0.55, the densest pixel solid */
          a = 0.55 + 0.45 * log1p ((double) c) / log1p ((double) MAX (top, 1));
          if (view->has_selection && !in_sel[(gsize) y * iw + x])
            {
              col = &palette->dim;
              a *= 0.45;
            }
          else
            col = color;
          line[x] = (guint32) (a * 255 + 0.5) << 24 | (guint32) (col->r * a * 255 + 0.5) << 16
                    | (guint32) (col->g * a * 255 + 0.5) << 8 | (guint32) (col->b * a * 255 + 0.5);
        }
    }
  cairo_surface_mark_dirty (image);
  cairo_save (cr);
  cairo_rectangle (cr, px - DOT, py - DOT, pw + 2 * DOT, ph + 2 * DOT);
  cairo_clip (cr);
  cairo_set_source_surface (cr, image, px, py);
  cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
  cairo_paint (cr);
  cairo_restore (cr);
  cairo_surface_destroy (image);
}

void
cpel_render_span_scatter (cairo_t                   *cr,
                          double                     width,
                          double                     height,
                          const CpelSpanScatterView *view)
{
  CpelPalette fallback;
  const CpelPalette *palette;
  PangoLayout *layout;
  PangoFontDescription *font;
  double px, py, pw, ph;

  g_return_if_fail (cr != NULL);
  g_return_if_fail (view != NULL);
  if (width <= 0 || height <= 0)
    return;
  palette = view->palette;
  if (palette == NULL)
    {
      cpel_palette_init_light (&fallback);
      palette = &fallback;
    }
  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_clip (cr);
  cpel_render_set_color (cr, &palette->background);
  cairo_paint (cr);
  cpel_span_scatter_plot_rect (width, height, &px, &py, &pw, &ph);
  layout = pango_cairo_create_layout (cr);
  font = pango_font_description_from_string ("Sans 9");
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  cairo_set_line_width (cr, 1);

  /* Frame. */
  cpel_render_set_color (cr, &palette->grid);
  cairo_rectangle (cr, round (px) + 0.5, round (py) + 0.5, round (pw), round (ph));
  cairo_stroke (cr);

  /* Duration axis: linear, round steps; log, the decades (and 2, 5 x 10^k
   * where there is room), grid lines at least 22 px apart. */
  {
    double placed[64];
    guint n_placed = 0;
    gint64 lo = view->min_ns, hi = view->max_ns;
    gint64 step = view->log_axis ? 0 : nice_step (lo, hi, MAX (1, (guint) (ph / 40)));
    static const gint64 mult[3] = { 1, 2, 5 };

    for (guint pass = 0; pass < (step > 0 ? 1u : 3u); pass++)
      for (gint64 decade = 1; decade <= G_MAXINT64 / 10 && decade <= hi; decade *= 10)
        {
          gint64 first = step > 0 ? (lo + step - 1) / step * step : decade * mult[pass];
          gint64 inc = step > 0 ? step : G_MAXINT64;

          for (gint64 v = first; v <= hi && n_placed < G_N_ELEMENTS (placed);
               v = v > G_MAXINT64 - inc ? hi + 1 : v + inc)
            {
              double y = round (cpel_span_scatter_y_of (view, width, height, v)) + 0.5;
              g_autofree char *text = NULL;
              gboolean room = v >= lo;

              for (guint k = 0; k < n_placed && room; k++)
                room = fabs (placed[k] - y) >= 22;
              if (!room)
                continue;
              placed[n_placed++] = y;
              cpel_render_set_color (cr, &palette->grid);
              cairo_move_to (cr, px, y);
              cairo_line_to (cr, px + pw, y);
              cairo_stroke (cr);
              text = cpel_span_histogram_format_duration (v);
              label (cr, layout, text, px - 6, y - 7, 1, &palette->dim);
            }
          if (step > 0)
            break;
        }
  }

  /* Time axis: round steps at least 90 px apart. */
  {
    gint64 step = nice_step (view->t0, view->t1, MAX (1, (guint) (pw / 90)));
    gint64 first = view->t0 >= 0 ? (view->t0 + step - 1) / step * step : view->t0 / step * step;

    for (gint64 t = first; t <= view->t1 && step > 0;
         t = t > G_MAXINT64 - step ? G_MAXINT64 : t + step)
      {
        double x = round (cpel_span_scatter_x_of (view, width, height, t)) + 0.5;
        g_autofree char *text = cpel_span_histogram_format_duration (t);
        PangoRectangle r;

        cpel_render_set_color (cr, &palette->dim);
        cairo_move_to (cr, x, py + ph);
        cairo_line_to (cr, x, py + ph + 4);
        cairo_stroke (cr);
        pango_layout_set_text (layout, text, -1);
        pango_layout_get_pixel_extents (layout, NULL, &r);
        label (cr, layout, text, CLAMP (x - r.width / 2.0, 2, width - r.width - 2), py + ph + 6,
               0, &palette->dim);
        if (t == G_MAXINT64)
          break;
      }
  }

  /* The selection's rectangle, under the points. */
  if (view->has_selection)
    {
      double x0 = cpel_span_scatter_x_of (view, width, height, view->sel_from_ns);
      double x1 = cpel_span_scatter_x_of (view, width, height, view->sel_to_ns);
      double y0 = cpel_span_scatter_y_of (view, width, height, view->sel_max_ns);
      double y1 = cpel_span_scatter_y_of (view, width, height, view->sel_min_ns);

      cpel_render_set_color_alpha (cr, &palette->accent, 0.12);
      cairo_rectangle (cr, x0, y0, MAX (x1 - x0, 1), MAX (y1 - y0, 1));
      cairo_fill_preserve (cr);
      cpel_render_set_color_alpha (cr, &palette->accent, 0.6);
      cairo_stroke (cr);
    }

  /* B's under A's */
  if (view->list_b != NULL)
    draw_points (cr, view, view->list_b, view->b_offset, &palette->highlight, palette, width,
                 height);
  if (view->list != NULL)
    draw_points (cr, view, view->list, 0, &palette->accent, palette, width, height);

  /* Percentile lines, labelled on the right. */
  {
    const gint64 ps[3] = { view->p50_ns, view->p90_ns, view->p99_ns };
    const char *names[3] = { "p50", "p90", "p99" };
    const double dash[] = { 4, 3 };
    double below = -G_MAXDOUBLE;   /* labels upwards from p50, kept apart */

    for (guint k = 0; k < 3; k++)
      {
        double y, ly;

        if (ps[k] < 0 || ps[k] < view->min_ns || ps[k] > view->max_ns)
          continue;
        y = round (cpel_span_scatter_y_of (view, width, height, ps[k])) + 0.5;
        cpel_render_set_color_alpha (cr, &palette->foreground, 0.8);
        cairo_set_dash (cr, dash, 2, 0);
        cairo_move_to (cr, px, y);
        cairo_line_to (cr, px + pw, y);
        cairo_stroke (cr);
        cairo_set_dash (cr, NULL, 0, 0);
        ly = k == 0 ? y - 7 : MIN (y - 7, below - 13);
        below = ly;
        label (cr, layout, names[k], px + pw + 4, ly, 0, &palette->foreground);
      }
  }

  g_object_unref (layout);
  cairo_restore (cr);
}
