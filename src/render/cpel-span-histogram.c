/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-span-histogram.c — a span name's duration histogram (see the header) */
#include "cpel-span-histogram.h"

#include <math.h>

#include <pango/pangocairo.h>

#include "cpel-render-private.h"

#define LEFT    64.0
#define RIGHT   16.0
#define TOP     14.0
#define BOTTOM  28.0

void
cpel_span_histogram_plot_rect (double  width,
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

int
cpel_span_histogram_bin_at (const CpelSpanHistogram *hist,
                            double                   width,
                            double                   height,
                            double                   x)
{
  double px, py, pw, ph;
  int bin;

  g_return_val_if_fail (hist != NULL, -1);
  if (hist->n_bins == 0)
    return -1;
  cpel_span_histogram_plot_rect (width, height, &px, &py, &pw, &ph);
  bin = (int) floor ((x - px) / pw * hist->n_bins);
  return CLAMP (bin, 0, (int) hist->n_bins - 1);
}

double
cpel_span_histogram_x_of (const CpelSpanHistogram *hist,
                          double                   width,
                          double                   height,
                          gint64                   ns)
{
  double px, py, pw, ph, bw;

  g_return_val_if_fail (hist != NULL, 0);
  cpel_span_histogram_plot_rect (width, height, &px, &py, &pw, &ph);
  if (hist->n_bins == 0)
    return px;
  bw = pw / hist->n_bins;
  if (ns <= hist->edges[0])
    return px;
  for (guint i = 0; i < hist->n_bins; i++)
    if (ns < hist->edges[i + 1])
      {
        double f = (double) (ns - hist->edges[i]) / (double) (hist->edges[i + 1] - hist->edges[i]);

        return px + (i + f) * bw;
      }
  return px + pw;
}

char *
cpel_span_histogram_format_duration (gint64 ns)
{
  static const char *units[] = { "ns", "µs", "ms", "s" };
  double v = (double) ABS (ns);
  guint unit = 0;

  while (unit < 3 && v >= 999.5)
    {
      v /= 1000;
      unit++;
    }
  return g_strdup_printf ("%s%.3g %s", ns < 0 ? "-" : "", v, units[unit]);
}

static void
label (cairo_t        *cr,
       PangoLayout    *layout,
       const char     *text,
       double          x,
       double          y,
       double          align,   /* 0 left, 0.5 centred, 1 right of x */
       const CpelRGBA *color)
{
  PangoRectangle r;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_extents (layout, NULL, &r);
  cpel_render_set_color (cr, color);
  cairo_move_to (cr, round (x - align * r.width), round (y));
  pango_cairo_show_layout (cr, layout);
}

void
cpel_render_span_histogram (cairo_t                     *cr,
                            double                       width,
                            double                       height,
                            const CpelSpanHistogramView *view)
{
  const CpelSpanHistogram *hist;
  CpelPalette fallback;
  const CpelPalette *palette;
  PangoLayout *layout;
  PangoFontDescription *font;
  double px, py, pw, ph, bw, top_value = 0;
  gboolean any_selected;
  guint ticks;

  g_return_if_fail (cr != NULL);
  g_return_if_fail (view != NULL && (view->hist != NULL || view->hist_b != NULL));
  if (width <= 0 || height <= 0)
    return;
  /* the bins (the same in A and B when comparing) */
  hist = view->hist != NULL ? view->hist : view->hist_b;
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
  cpel_span_histogram_plot_rect (width, height, &px, &py, &pw, &ph);

  layout = pango_cairo_create_layout (cr);
  font = pango_font_description_from_string ("Sans 9");
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);

  for (guint s = 0; s < 2; s++)
    {
      const CpelSpanHistogram *h = s == 0 ? view->hist : view->hist_b;

      for (guint i = 0; h != NULL && i < h->n_bins; i++)
        top_value = MAX (top_value, (double) (view->time_weighted ? h->totals[i] : h->counts[i]));
    }
  if (top_value <= 0)
    top_value = 1;

  /* Grid and count (time) axis: 0, half, top. */
  for (guint k = 0; k <= 2; k++)
    {
      double v = top_value * k / 2;
      double y = round (py + ph - ph * k / 2) + 0.5;
      g_autofree char *text = view->time_weighted
                              ? cpel_span_histogram_format_duration ((gint64) v)
                              : cpel_format_count ((guint64) v);

      cpel_render_set_color (cr, &palette->grid);
      cairo_set_line_width (cr, 1);
      cairo_move_to (cr, px, y);
      cairo_line_to (cr, px + pw, y);
      cairo_stroke (cr);
      label (cr, layout, text, px - 6, y - 7, 1, &palette->dim);
    }

  /* Selection (a band behind its bars), then the bars: with a selection,
   * the bars outside it faded. */
  bw = hist->n_bins > 0 ? pw / hist->n_bins : pw;
  any_selected = view->sel_first <= view->sel_last && view->sel_first < hist->n_bins;
  if (any_selected)
    {
      guint last = MIN (view->sel_last, hist->n_bins - 1);

      cpel_render_set_color_alpha (cr, &palette->accent, 0.12);
      cairo_rectangle (cr, px + view->sel_first * bw, py, (last + 1 - view->sel_first) * bw, ph);
      cairo_fill (cr);
    }
  for (guint s = 0; s < 2; s++)
    {
      const CpelSpanHistogram *sh = s == 0 ? view->hist : view->hist_b;
      /* two: side by side in each bin (A left, B right) where a bin is wide
       * enough, else overlaid, both see-through */
      gboolean halves = view->hist_b != NULL && bw >= 6;
      double alpha = view->hist_b != NULL && !halves ? 0.6 : 1.0;
      double bx = halves ? s * bw / 2 : 0, bwi = halves ? bw / 2 : bw;

      for (guint i = 0; sh != NULL && i < MIN (sh->n_bins, hist->n_bins); i++)
        {
          double v = (double) (view->time_weighted ? sh->totals[i] : sh->counts[i]);
          double h = v / top_value * ph;
          gboolean selected = view->sel_first <= i && i <= view->sel_last;

          if (v <= 0)
            continue;
          h = MAX (h, 1);
          cpel_render_set_color_alpha (cr, s == 0 ? &palette->accent : &palette->highlight,
                                       !any_selected || selected ? alpha : 0.35 * alpha);
          cairo_rectangle (cr, px + i * bw + bx + (bwi > 4 ? 0.5 : 0), py + ph - h,
                           MAX (bwi - (bwi > 4 ? 1 : 0), 1), h);
          cairo_fill (cr);
        }
    }
  if (view->hist_b != NULL)
    {
      /* the legend, at the upper right: ■ A  ■ B */
      const char *names[2] = { view->name_a != NULL ? view->name_a : "A",
                               view->name_b != NULL ? view->name_b : "B" };
      double x = px + pw - 6;

      for (int s = 1; s >= 0; s--)
        {
          PangoRectangle r;

          pango_layout_set_text (layout, names[s], -1);
          pango_layout_get_pixel_extents (layout, NULL, &r);
          x -= r.width;
          label (cr, layout, names[s], x, py + 2, 0, &palette->foreground);
          x -= 14;
          cpel_render_set_color_alpha (cr, s == 0 ? &palette->accent : &palette->highlight, 0.8);
          cairo_rectangle (cr, x, py + 2 + (r.height - 10) / 2.0, 10, 10);
          cairo_fill (cr);
          x -= 12;
        }
    }

  /* Duration labels under the bars at round durations, at least 80 px
   * apart: linear, the smallest step of 1, 2 or 5 x 10^k that fits; log,
   * the decades first, then 2 and 5 x 10^k where there is room. */
  if (hist->n_bins > 0)
    {
      static const gint64 mult[3] = { 1, 2, 5 };
      gint64 lo = hist->edges[0], hi = hist->edges[hist->n_bins];
      gint64 step = 0;
      double placed[64];
      guint n_placed = 0;

      ticks = MAX (1, (guint) (pw / 80));
      for (gint64 decade = 1; !view->log_axis && step == 0 && decade <= G_MAXINT64 / 10;
           decade *= 10)
        for (guint m = 0; m < 3 && step == 0; m++)
          if ((hi - lo) / (decade * mult[m]) <= (gint64) ticks)
            step = decade * mult[m];
      for (guint pass = 0; pass < (step > 0 ? 1u : 3u); pass++)
        for (gint64 decade = 1; decade <= G_MAXINT64 / 10 && decade <= hi; decade *= 10)
          {
            gint64 first = step > 0 ? (lo + step - 1) / step * step : decade * mult[pass];
            gint64 inc = step > 0 ? step : G_MAXINT64;

            for (gint64 v = first; v <= hi && n_placed < G_N_ELEMENTS (placed);
                 v = v > G_MAXINT64 - inc ? hi + 1 : v + inc)
              {
                double x = cpel_span_histogram_x_of (hist, width, height, v);
                g_autofree char *text = NULL;
                PangoRectangle r;
                gboolean room = v >= lo;

                for (guint k = 0; k < n_placed && room; k++)
                  room = fabs (placed[k] - x) >= 80;
                if (!room)
                  continue;
                placed[n_placed++] = x;
                text = cpel_span_histogram_format_duration (v);
                cpel_render_set_color (cr, &palette->dim);
                cairo_move_to (cr, round (x) + 0.5, py + ph);
                cairo_line_to (cr, round (x) + 0.5, py + ph + 4);
                cairo_stroke (cr);
                pango_layout_set_text (layout, text, -1);
                pango_layout_get_pixel_extents (layout, NULL, &r);
                /* Centred under the tick, kept inside the image. */
                label (cr, layout, text, CLAMP (x - r.width / 2.0, 2, width - r.width - 2),
                       py + ph + 6, 0, &palette->dim);
              }
            if (step > 0)
              break;
          }
    }

  /* Percentile markers. */
  {
    const gint64 ps[3] = { view->p50_ns, view->p90_ns, view->p99_ns };
    const char *names[3] = { "p50", "p90", "p99" };
    const double dash[] = { 4, 3 };

    for (guint k = 0; k < 3; k++)
      {
        double x;

        if (ps[k] < 0 || hist->n_bins == 0)
          continue;
        x = round (cpel_span_histogram_x_of (hist, width, height, ps[k])) + 0.5;
        cpel_render_set_color_alpha (cr, &palette->foreground, 0.8);
        cairo_set_dash (cr, dash, 2, 0);
        cairo_move_to (cr, x, py);
        cairo_line_to (cr, x, py + ph);
        cairo_stroke (cr);
        cairo_set_dash (cr, NULL, 0, 0);
        {
          PangoRectangle r;

          pango_layout_set_text (layout, names[k], -1);
          pango_layout_get_pixel_extents (layout, NULL, &r);
          cpel_render_set_color_alpha (cr, &palette->background, 0.85);
          cairo_rectangle (cr, x + 1, py + 2 + k * 15, r.width + 4, r.height);
          cairo_fill (cr);
          label (cr, layout, names[k], x + 3, py + 2 + k * 15, 0, &palette->foreground);
        }
      }
  }

  g_object_unref (layout);
  cairo_restore (cr);
}
