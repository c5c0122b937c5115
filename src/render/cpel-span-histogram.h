/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-span-histogram.h — one span name's duration histogram drawn with
 * cairo (cpel-span-dist.h's CpelSpanHistogram)
 *
 * Bars per bin (bins of equal width: linear bins on a linear axis, log
 * bins on a log axis), as tall as the bin's count (or its durations' sum,
 * time-weighted); a count axis on the left, duration labels under the
 * bars in the unit that fits ("10 µs", never "10.000 µs"); dashed
 * markers at p50, p90 and p99; with a selection, the bars outside it
 * faded.  Two captures' histograms can be overlaid.
 */
#pragma once

#include <cairo.h>

#include "cpel-render.h"
#include "cpel-span-dist.h"

G_BEGIN_DECLS

typedef struct
{
  const CpelSpanHistogram *hist;
  gboolean                 time_weighted;   /* bars by the bins' totals */
  gint64                   p50_ns, p90_ns, p99_ns;  /* < 0: no marker */
  guint                    sel_first;       /* the bins selected; */
  guint                    sel_last;        /* sel_first > sel_last: none */
  const CpelPalette       *palette;         /* NULL: light */
  gboolean                 log_axis;        /* log bins: labels at 1, 2, 5 x 10^k */
  /* Comparing: B's histogram on the same bins (cpel_span_histograms_compute_pair),
   * drawn with A's (hist, which may then be NULL: none in A), A in the
   * accent colour, B in the highlight colour, side by side in each bin (A
   * left) where bins are at least 6 px wide, else overlaid see-through,
   * with a legend naming them (NULL: "A", "B").  NULL: one histogram. */
  const CpelSpanHistogram *hist_b;
  const char              *name_a;
  const char              *name_b;
} CpelSpanHistogramView;

/* The plot area (bars) of a width x height histogram. */
void     cpel_span_histogram_plot_rect (double width, double height,
                                        double *x, double *y, double *w, double *h);
/* The bin under x (clamped to the first and last), or -1 without bins. */
int      cpel_span_histogram_bin_at    (const CpelSpanHistogram *hist,
                                        double width, double height, double x);
/* The x of a duration on the axis (interpolated within its bin). */
double   cpel_span_histogram_x_of      (const CpelSpanHistogram *hist,
                                        double width, double height, gint64 ns);
/* A duration in the unit that fits, at most 3 significant digits and no
 * trailing zeros: "0 ns", "250 ns", "10 µs", "1.5 ms", "2 s". */
char    *cpel_span_histogram_format_duration (gint64 ns);
void     cpel_render_span_histogram    (cairo_t *cr, double width, double height,
                                        const CpelSpanHistogramView *view);

G_END_DECLS
