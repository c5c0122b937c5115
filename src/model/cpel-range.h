/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-range.h — the visible time range of a timeline and how it moves
 *
 * Pure arithmetic (no GTK): zoom around an anchor, pan, centre, and clamp a
 * range [t0, t1) to the capture [lo, hi) with a minimum span.
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* The smallest span a view may show (ns). */
#define CPEL_RANGE_MIN_SPAN G_GINT64_CONSTANT (20)

typedef struct
{
  gint64 t0;
  gint64 t1;
} CpelRange;

/* CpelRange as a boxed type (the session's "range" and "measure"). */
#define CPEL_TYPE_RANGE (cpel_range_get_type ())
GType    cpel_range_get_type    (void) G_GNUC_CONST;
CpelRange *cpel_range_copy      (const CpelRange       *range);
void     cpel_range_free        (CpelRange             *range);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CpelRange, cpel_range_free)

typedef struct
{
  gint64 lo;        /* capture start (0) */
  gint64 hi;        /* capture end, exclusive (last event + 1, at least lo + min_span) */
  gint64 min_span;
} CpelRangeLimits;

/* Limits for a capture whose last event is at `duration` ns. */
void     cpel_range_limits_init (CpelRangeLimits       *limits,
                                 gint64                 duration);

/* Bring `range` inside the limits: span in [min_span, hi - lo], then shifted
 * into [lo, hi).  Returns TRUE when the range was changed. */
gboolean cpel_range_clamp       (CpelRange             *range,
                                 const CpelRangeLimits *limits);

/* Zoom in by `factor` (> 1 zooms in, < 1 out) keeping `anchor` (a time) at
 * the same place on screen; clamped. */
void     cpel_range_zoom        (CpelRange             *range,
                                 double                 factor,
                                 gint64                 anchor,
                                 const CpelRangeLimits *limits);

/* Move by `delta` ns (positive: later); clamped. */
void     cpel_range_pan         (CpelRange             *range,
                                 gint64                 delta,
                                 const CpelRangeLimits *limits);

/* Centre on `t` keeping the span; clamped. */
void     cpel_range_center      (CpelRange             *range,
                                 gint64                 t,
                                 const CpelRangeLimits *limits);

/* The whole capture. */
void     cpel_range_fit         (CpelRange             *range,
                                 const CpelRangeLimits *limits);

static inline gint64
cpel_range_span (const CpelRange *range)
{
  return range->t1 - range->t0;
}

static inline gboolean
cpel_range_equal (const CpelRange *a, const CpelRange *b)
{
  return a->t0 == b->t0 && a->t1 == b->t1;
}

G_END_DECLS
