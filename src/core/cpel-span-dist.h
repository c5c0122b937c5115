/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-span-dist.h — latency: duration filters, histograms, span lists and
 * duration anomalies, over the spans of cpel-spans.h
 *
 * Everything here reads the spans as cpel_span_summary_compute () does
 * (one merge when the file can stream, else track by track), over
 * CpelSpansOptions' range and tracks, and counts finished spans only:
 * orphans (CPEL_SPAN_ORPHAN) and states are left out.  Durations are
 * integer ns; whatever is kept per span for its duration is 8 bytes.
 */
#pragma once

#include "cpel-spans.h"

G_BEGIN_DECLS

/* ---- durations and duration filters ---- */

/* A duration: "250ns", "5us", "5µs", "1.5ms", "2s", or a whole number of
 * ns ("42"); blanks around it allowed, none negative.  FALSE for anything
 * else (also a value of 2^63 ns or more). */
gboolean         cpel_span_duration_parse   (const char *text,
                                             gint64     *ns);

/* A filter over spans, as the search bar and `cpel spans --list --filter`
 * take it: words separated by blanks; a condition `dur>5us` (operators
 * `<` `<=` `>` `>=` `=`, blanks allowed around the operator, a duration
 * as cpel_span_duration_parse ()) bounds the duration; every other word
 * is part of the span name (words joined by one blank; a "quoted" part
 * keeps its blanks), a glob (`*` `?` `\c`) matching the whole name.
 * All conditions must hold; no name matches every name.  Examples:
 * `ip4-lookup dur>5us`, `dur>=1ms`, `ip4-* dur>=1us dur<2us`. */
typedef struct
{
  char    *name;     /* the glob, or NULL: any name */
  gint64   min_ns;   /* durations in [min_ns, max_ns] match */
  gint64   max_ns;
  /* and spans beginning in [from_ns, to_ns] (a rectangle dragged over a
   * scatter of durations over time); G_MININT64, G_MAXINT64 unless set */
  gint64   from_ns;
  gint64   to_ns;
} CpelSpanFilter;

/* NULL with CPEL_ERROR_INVALID (message "column N: …", translated) for
 * malformed input; *column (when not NULL) is then the 1-based column
 * (in characters) of the error, else 0. */
CpelSpanFilter  *cpel_span_filter_parse     (const char *text,
                                             guint      *column,
                                             GError    **error);
/* A filter of the spans named exactly `name` (NULL: any; its glob
 * characters are escaped) with durations in [min_ns, max_ns]. */
CpelSpanFilter  *cpel_span_filter_new       (const char *name,
                                             gint64      min_ns,
                                             gint64      max_ns);
CpelSpanFilter  *cpel_span_filter_copy      (const CpelSpanFilter *filter);
gboolean         cpel_span_filter_equal     (const CpelSpanFilter *a,
                                             const CpelSpanFilter *b);
void             cpel_span_filter_free      (CpelSpanFilter *filter);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelSpanFilter, cpel_span_filter_free)
gboolean         cpel_span_filter_match_name (const CpelSpanFilter *filter,
                                              const char           *name);
gboolean         cpel_span_filter_match     (const CpelSpanFilter *filter,
                                             const char           *name,
                                             gint64                duration_ns);
/* cpel_span_filter_match () and the begin time in [from_ns, to_ns]. */
gboolean         cpel_span_filter_match_span (const CpelSpanFilter *filter,
                                              const char           *name,
                                              gint64                begin_ns,
                                              gint64                end_ns);

/* ---- histograms ---- */

typedef enum
{
  CPEL_SPAN_HIST_LINEAR,
  CPEL_SPAN_HIST_LOG,
} CpelSpanHistAxis;

/* One span name's histogram.  Bin i holds the durations d with
 * edges[i] <= d < edges[i + 1]; edges[0] is the shortest duration,
 * edges[n_bins] the longest + 1, so every span is in exactly one bin.
 * Linear: bins of equal width w = ceil((max + 1 - min) / N) ns, as many
 * as it takes (at most N).  Log: edges min * ((max + 1) / min)^(i / N)
 * rounded to the nearest ns (a shortest duration of 0 gets a bin [0, 1)
 * of its own, the other N - 1 from 1), bins that round to nothing
 * dropped. */
typedef struct
{
  const char    *name;
  guint64        count;      /* spans */
  guint64        total_ns;   /* their durations' sum (saturates) */
  gint64         min_ns;
  gint64         max_ns;
  guint          n_bins;
  const gint64  *edges;      /* n_bins + 1 */
  const guint64 *counts;     /* n_bins: spans per bin */
  const guint64 *totals;     /* n_bins: their durations' sum per bin (time-weighted) */
} CpelSpanHistogram;

typedef struct _CpelSpanHistograms CpelSpanHistograms;

#define CPEL_SPAN_HIST_MAX_BINS 100000

/* A histogram per span name (with `name`: of that name only, none when it
 * has no span), with n_bins (1..CPEL_SPAN_HIST_MAX_BINS) bins.  NULL with
 * G_IO_ERROR_CANCELLED when cancelled, CPEL_ERROR_INVALID on a bad slot. */
CpelSpanHistograms *cpel_span_histograms_compute (CpelFile               *file,
                                                  CpelSpanRules          *rules,
                                                  const CpelSpansOptions *options,
                                                  const char             *name,
                                                  guint                   n_bins,
                                                  CpelSpanHistAxis        axis,
                                                  GCancellable           *cancellable,
                                                  GError                **error);
/* The histograms of the spans named `name` in two captures (A: file_a by
 * rules_a over options_a, B likewise), on the same bins: those of
 * cpel_span_histograms_compute () over the shortest to the longest
 * duration of both, so that they can be overlaid.  *out_a and *out_b hold
 * one histogram each, or none when that capture has no finished span of
 * the name.  FALSE with an error as cpel_span_histograms_compute (). */
gboolean         cpel_span_histograms_compute_pair (CpelFile               *file_a,
                                                    CpelSpanRules          *rules_a,
                                                    const CpelSpansOptions *options_a,
                                                    CpelFile               *file_b,
                                                    CpelSpanRules          *rules_b,
                                                    const CpelSpansOptions *options_b,
                                                    const char             *name,
                                                    guint                   n_bins,
                                                    CpelSpanHistAxis        axis,
                                                    CpelSpanHistograms    **out_a,
                                                    CpelSpanHistograms    **out_b,
                                                    GCancellable           *cancellable,
                                                    GError                **error);
void             cpel_span_histograms_free  (CpelSpanHistograms *hists);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelSpanHistograms, cpel_span_histograms_free)
/* In `cpel spans`' order: total_ns descending, then name bytewise. */
guint            cpel_span_histograms_get_n (CpelSpanHistograms *hists);
const CpelSpanHistogram *cpel_span_histograms_get (CpelSpanHistograms *hists, guint i);
/* The spans of bins first..last of `h` (a selection dragged over a
 * histogram) as a filter for cpel_span_list_compute (): exactly the spans
 * those bins count. */
CpelSpanFilter  *cpel_span_histogram_selection (const CpelSpanHistogram *h,
                                                guint                    first,
                                                guint                    last);
/* RFC 4180 CSV, CRLF: span,bin_lo_ns,bin_hi_ns,count (bin_hi_ns excluded). */
char            *cpel_span_histograms_to_csv (CpelSpanHistograms *hists);
/* An aligned table with units (translated headings). */
char            *cpel_span_histograms_to_text (CpelSpanHistograms *hists);

/* ---- lists of spans ---- */

typedef struct
{
  gint64   begin_ns;
  gint64   end_ns;
  guint32  slot;       /* the track */
  guint32  begin;      /* the begin event's index in the track */
  const char *name;
} CpelSpanItem;

typedef struct _CpelSpanList CpelSpanList;

/* The finished spans that `filter` (NULL: all) lets through (its name,
 * durations and begin times); with top > 0
 * the `top` longest only (a heap of that many: bounded memory).  Sorted by
 * begin time, then track slot, then end time; with top > 0 by duration
 * descending, then begin time, then slot.  32 bytes per span listed. */
CpelSpanList    *cpel_span_list_compute     (CpelFile               *file,
                                             CpelSpanRules          *rules,
                                             const CpelSpansOptions *options,
                                             const CpelSpanFilter   *filter,
                                             guint64                 top,
                                             GCancellable           *cancellable,
                                             GError                **error);
void             cpel_span_list_free        (CpelSpanList *list);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelSpanList, cpel_span_list_free)
guint64          cpel_span_list_get_n       (CpelSpanList *list);
const CpelSpanItem *cpel_span_list_get      (CpelSpanList *list, guint64 i);
/* Spans looked at (finished, of a name the filter lets through). */
guint64          cpel_span_list_get_n_seen  (CpelSpanList *list);
/* One line per span: begin_ns end_ns duration_ns track span.  tsv: a
 * header line, fields separated by tabs (tabs and line breaks in labels
 * and names as blanks); else separated by blanks, numbers right-aligned. */
char            *cpel_span_list_to_text     (CpelSpanList *list, gboolean tsv);

/* ---- duration anomalies ---- */

typedef enum
{
  CPEL_SPAN_ANOMALY_SIGMA,   /* |d - mean| > k * sigma of its track and name */
  CPEL_SPAN_ANOMALY_ABOVE,   /* d > the p-th percentile (nearest rank) of its track and name */
} CpelSpanAnomalyMethod;

typedef struct
{
  CpelSpanItem  span;
  gint64        duration_ns;
  double        z;             /* (d - mean) / sigma; 0 when sigma is 0 */
} CpelSpanAnomaly;

typedef struct _CpelSpanAnomalies CpelSpanAnomalies;

/* The finished spans named `name` whose duration is unusual for their
 * track: SIGMA with k > 0 (population sigma; a track with fewer than two
 * spans or sigma 0 has none), ABOVE with 0 < p < 100.  In time order
 * (begin, then slot).  Reads the spans twice; 8 bytes per span of the
 * name kept for ABOVE, none for SIGMA. */
CpelSpanAnomalies *cpel_span_anomalies_find (CpelFile               *file,
                                             CpelSpanRules          *rules,
                                             const CpelSpansOptions *options,
                                             const char             *name,
                                             CpelSpanAnomalyMethod   method,
                                             double                  k_or_p,
                                             GCancellable           *cancellable,
                                             GError                **error);
void             cpel_span_anomalies_free   (CpelSpanAnomalies *anomalies);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelSpanAnomalies, cpel_span_anomalies_free)
guint64          cpel_span_anomalies_get_n  (CpelSpanAnomalies *anomalies);
const CpelSpanAnomaly *cpel_span_anomalies_get (CpelSpanAnomalies *anomalies, guint64 i);
/* Finished spans of the name looked at. */
guint64          cpel_span_anomalies_get_n_spans (CpelSpanAnomalies *anomalies);
/* The threshold of a track (ABOVE: the percentile; SIGMA: mean and sigma);
 * FALSE when the track has no span of the name. */
gboolean         cpel_span_anomalies_get_track (CpelSpanAnomalies *anomalies, guint slot,
                                                guint64 *n, double *mean, double *sigma,
                                                gint64 *percentile_ns);

G_END_DECLS
