/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-span-scatter.h — one span name's durations over time drawn with
 * cairo: a point per span (cpel-span-dist.h's CpelSpanList) at its begin
 * time (x) and its duration (y, linear or log)
 *
 * The points go into an image a pixel each (darker where more of them
 * fall), so that a million spans cost a million stores, not a million
 * cairo fills.  A duration axis on the left, time labels under the plot
 * (time since the capture's start, in the unit that fits), dashed lines
 * at p50, p90 and p99; with a selection (a rectangle of begin times and
 * durations), its rectangle shaded and the points outside it faded.
 */
#pragma once

#include <cairo.h>

#include "cpel-render.h"
#include "cpel-span-dist.h"

G_BEGIN_DECLS

typedef struct
{
  CpelSpanList      *list;            /* the spans (NULL: an empty plot) */
  gint64             t0, t1;          /* the time axis [t0, t1]; t1 <= t0: the spans' */
  gint64             min_ns, max_ns;  /* the duration axis; max_ns < min_ns: the spans' */
  gboolean           log_axis;        /* durations on a log axis */
  gint64             p50_ns, p90_ns, p99_ns;  /* < 0: no line */
  gboolean           has_selection;
  gint64             sel_from_ns, sel_to_ns;  /* begin times selected */
  gint64             sel_min_ns, sel_max_ns;  /* durations selected */
  const CpelPalette *palette;         /* NULL: light */
  /* Comparing: B's spans of the name (NULL: none), drawn in the highlight
   * colour (B's in the histogram) at their begin time - b_offset (B's time
   * on A's axis), never selected; the axes fitted to both. */
  CpelSpanList      *list_b;
  gint64             b_offset;
} CpelSpanScatterView;

/* Fills in the axes the view leaves to the spans (t0, t1, min_ns, max_ns):
 * the spans' (A's and B's) first begin and last begin, their shortest and
 * longest duration (durations all alike: a tenth wider on either side). */
void     cpel_span_scatter_fit        (CpelSpanScatterView *view);
/* The plot area of a width x height scatter. */
void     cpel_span_scatter_plot_rect  (double width, double height,
                                       double *x, double *y, double *w, double *h);
/* Axis mapping of a fitted view: x of a begin time, y of a duration, and
 * back (clamped to the plot area). */
double   cpel_span_scatter_x_of       (const CpelSpanScatterView *view,
                                       double width, double height, gint64 t);
double   cpel_span_scatter_y_of       (const CpelSpanScatterView *view,
                                       double width, double height, gint64 ns);
gint64   cpel_span_scatter_time_at    (const CpelSpanScatterView *view,
                                       double width, double height, double x);
gint64   cpel_span_scatter_duration_at (const CpelSpanScatterView *view,
                                        double width, double height, double y);
/* The filter of the spans named `name` whose points fall in the rectangle
 * (x0, y0)-(x1, y1) of a fitted view: begin times and durations of its
 * edges. */
CpelSpanFilter *cpel_span_scatter_selection (const CpelSpanScatterView *view,
                                             const char *name,
                                             double width, double height,
                                             double x0, double y0, double x1, double y1);
void     cpel_render_span_scatter     (cairo_t *cr, double width, double height,
                                       const CpelSpanScatterView *view);

G_END_DECLS
