/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-span-histogram-window.h — a span name's duration distribution
 *
 * The histogram of the spans named NAME over a range and tracks (computed
 * in a worker: cpel_span_histograms_compute ()), linear or log, by count
 * or time-weighted, with p50/p90/p99 markers.  Dragging over it selects
 * the spans of those bins: the session's "span-filter" (dropped when the
 * window goes).  Under it, the same spans as a scatter of duration over
 * time (log durations with Log Scale): a rectangle dragged over it
 * selects the spans whose points it holds, as the histogram's selection
 * does.  The timeline highlights the spans selected; the status line
 * counts them and says which of them is selected ("3 of 12": n and
 * Shift+N step through them).  "Go to Longest" selects the longest span
 * of the selection (else of the name) and centres it.  Its bins can be
 * saved as CSV.  While the session compares (a compare file), B's spans of
 * the name (by B's own rules, over the same range moved by the compare
 * offset) are drawn beside A's on the same bins, with both captures'
 * count, p50, p99 and mean and their changes.
 */
#pragma once

#include <adwaita.h>

#include "cpel-session.h"

G_BEGIN_DECLS

#define CPEL_TYPE_SPAN_HISTOGRAM_WINDOW (cpel_span_histogram_window_get_type ())
G_DECLARE_FINAL_TYPE (CpelSpanHistogramWindow, cpel_span_histogram_window,
                      CPEL, SPAN_HISTOGRAM_WINDOW, AdwWindow)

/* Spans named `name` of `session`'s file by its rules, in [t0, t1) of
 * `slots` (NULL: every track); `row` (may be NULL) gives the percentiles
 * marked. */
CpelSpanHistogramWindow *cpel_span_histogram_window_new (CpelSession       *session,
                                                         GtkWindow         *parent,
                                                         const char        *name,
                                                         gint64             t0,
                                                         gint64             t1,
                                                         const guint       *slots,
                                                         guint              n_slots,
                                                         const CpelSpanRow *row);
/* TRUE while the histogram (or the longest span) is computed. */
gboolean         cpel_span_histogram_window_is_busy   (CpelSpanHistogramWindow *self);
/* The histogram shown, or NULL (none yet, no span). */
const CpelSpanHistogram *cpel_span_histogram_window_get_histogram (CpelSpanHistogramWindow *self);
/* Comparing (the session has a compare file): B's histogram on the same
 * bins (NULL: none of the name in B, or not comparing), and the line of
 * A's and B's count, p50, p99 and mean and their changes (NULL: not
 * comparing). */
const CpelSpanHistogram *cpel_span_histogram_window_get_histogram_b (CpelSpanHistogramWindow *self);
const char      *cpel_span_histogram_window_get_compare_text (CpelSpanHistogramWindow *self);
void             cpel_span_histogram_window_set_log   (CpelSpanHistogramWindow *self,
                                                       gboolean                 log);
/* Select bins first..last, as a drag over them does. */
void             cpel_span_histogram_window_select_bins (CpelSpanHistogramWindow *self,
                                                         guint                    first,
                                                         guint                    last);
/* The spans of the scatter, or NULL (none yet). */
CpelSpanList    *cpel_span_histogram_window_get_scatter (CpelSpanHistogramWindow *self);
/* Comparing: B's spans of the name in the scatter (NULL: not comparing). */
CpelSpanList    *cpel_span_histogram_window_get_scatter_b (CpelSpanHistogramWindow *self);
/* The scatter's drawing area (its size gives the plot's geometry). */
GtkWidget       *cpel_span_histogram_window_get_scatter_area (CpelSpanHistogramWindow *self);
/* Select the spans of a rectangle of the scatter, in its area's
 * coordinates, as a drag from (x0, y0) to (x1, y1) does. */
void             cpel_span_histogram_window_select_rect (CpelSpanHistogramWindow *self,
                                                         double x0, double y0,
                                                         double x1, double y1);
/* The status line's text. */
const char      *cpel_span_histogram_window_get_status (CpelSpanHistogramWindow *self);
/* The bins as CSV (cpel_span_histograms_to_csv (): as `cpel spans --hist
 * --span NAME --bins 60 [--log] --csv` writes them), atomically; FALSE
 * (CPEL_ERROR_INVALID) without a histogram. */
gboolean         cpel_span_histogram_window_save_csv  (CpelSpanHistogramWindow *self,
                                                       GFile                   *file,
                                                       GError                 **error);
/* Saves by the file's name: the histogram as a PNG or SVG image (".png",
 * ".svg", 800 x 400, light), else the bins as CSV. */
gboolean         cpel_span_histogram_window_save      (CpelSpanHistogramWindow *self,
                                                        GFile                   *file,
                                                        GError                 **error);
/* "Go to Longest" (asynchronous: busy until done). */
void             cpel_span_histogram_window_go_to_longest (CpelSpanHistogramWindow *self);

G_END_DECLS
