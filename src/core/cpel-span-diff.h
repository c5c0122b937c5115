/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-span-diff.h — span durations of two captures side by side
 *
 * The spans of A and of B (the same rules, the same range relative to each
 * capture's first event, every track), summarised as cpel_span_summary_compute
 * does (finished spans only), paired by span name: count, mean, p50 and p99
 * in A and B and their changes.
 *
 * A change in percent is (B - A) / A * 100 of the integer ns values shown
 * (the means rounded half up, the exact nearest-rank percentiles), rounded
 * to one decimal, halves away from zero, computed in integers: "12.5",
 * "-3.0", "0.0" (never "-0.0").  It is empty when the span has no span in A
 * or in B, or A's value is 0.
 */
#pragma once

#include "cpel-spans.h"

G_BEGIN_DECLS

typedef struct
{
  const char *name;
  guint64     count_a;
  guint64     count_b;
  gint64      count_delta;     /* count_b - count_a (saturated) */
  gint64      mean_ns_a, mean_ns_b;   /* meaningless when the count is 0 */
  gint64      p50_ns_a, p50_ns_b;
  gint64      p99_ns_a, p99_ns_b;
  gint64      max_ns_a, max_ns_b;
  gboolean    has_mean_pct;
  gint64      mean_pct10;      /* the change in tenths of a percent */
  gboolean    has_p99_pct;
  gint64      p99_pct10;
} CpelSpanDiffRow;

typedef struct _CpelSpanDiff CpelSpanDiff;

/* options: the range only (its slots must be NULL); NULL = all of both.
 * NULL with G_IO_ERROR_CANCELLED when cancelled. */
CpelSpanDiff          *cpel_span_diff_compute (CpelFile               *a,
                                               CpelFile               *b,
                                               CpelSpanRules          *rules,
                                               const CpelSpansOptions *options,
                                               GCancellable           *cancellable,
                                               GError                **error);
void                   cpel_span_diff_free    (CpelSpanDiff *diff);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelSpanDiff, cpel_span_diff_free)

/* One row per span name with a finished span in A or B, sorted by
 * |mean_pct10| descending (rows without it last), then name bytewise. */
guint                  cpel_span_diff_get_n_rows (CpelSpanDiff *diff);
const CpelSpanDiffRow *cpel_span_diff_get_row    (CpelSpanDiff *diff, guint i);
const CpelSpanDiffRow *cpel_span_diff_lookup     (CpelSpanDiff *diff, const char *name);

/* The change in percent as above ("" when has is FALSE). */
char                  *cpel_span_diff_format_pct (gboolean has, gint64 pct10);
/* The tenths of a percent of (b - a) / a, rounded half away from zero;
 * FALSE when a <= 0. */
gboolean               cpel_span_diff_pct10      (gint64 a, gint64 b, gint64 *pct10);

/* RFC 4180 CSV, CRLF:
 * span,count_a,count_b,count_delta,mean_ns_a,mean_ns_b,mean_delta_pct,
 * p99_ns_a,p99_ns_b,p99_delta_pct — ns fields empty when the count is 0. */
char                  *cpel_span_diff_to_csv     (CpelSpanDiff *diff);
/* An aligned table with units, after a line per capture (`name_a`,
 * `name_b`: e.g. the file names). */
char                  *cpel_span_diff_to_text    (CpelSpanDiff *diff, const char *name_a,
                                                  const char *name_b);

G_END_DECLS
