/* SPDX-License-Identifier: Apache-2.0 */
/* cpel-range.c — the visible time range of a timeline and how it moves */
#include "cpel-range.h"

#include <math.h>

#include "cpel-file.h"   /* CPEL_TIME_MAX */

G_DEFINE_BOXED_TYPE (CpelRange, cpel_range, cpel_range_copy, cpel_range_free)

CpelRange *
cpel_range_copy (const CpelRange *range)
{
  g_return_val_if_fail (range != NULL, NULL);
  return g_memdup2 (range, sizeof *range);
}

void
cpel_range_free (CpelRange *range)
{
  g_free (range);
}

/* A double rounded to the nearest gint64, saturating. */
static gint64
to_int64 (double v)
{
  if (isnan (v))
    return 0;
  if (v >= 9.2e18)
    return G_MAXINT64 / 2;
  if (v <= -9.2e18)
    return G_MININT64 / 2;
  return (gint64) llround (v);
}

void
cpel_range_limits_init (CpelRangeLimits *limits,
                        gint64           duration)
{
  g_return_if_fail (limits != NULL);

  limits->lo = 0;
  limits->min_span = CPEL_RANGE_MIN_SPAN;
  /* The last event sits at `duration`: keep it inside [lo, hi). */
  if (duration < 0)
    duration = 0;
  if (duration > CPEL_TIME_MAX)     /* the loader's bound already */
    duration = CPEL_TIME_MAX;
  limits->hi = MAX (duration + 1, limits->lo + limits->min_span);
}

gboolean
cpel_range_clamp (CpelRange             *range,
                  const CpelRangeLimits *limits)
{
  CpelRange before;
  gint64 span, max_span;

  g_return_val_if_fail (range != NULL && limits != NULL, FALSE);

  before = *range;
  max_span = limits->hi - limits->lo;
  span = range->t1 - range->t0;

  if (span > max_span)
    {
      range->t0 = limits->lo;
      range->t1 = limits->hi;
      return !cpel_range_equal (&before, range);
    }
  if (span < limits->min_span)
    {
      /* Grow around the middle. */
      gint64 mid = span > 0 ? range->t0 + span / 2 : range->t0;
      range->t0 = mid - limits->min_span / 2;
      range->t1 = range->t0 + limits->min_span;
      span = limits->min_span;
    }
  if (range->t0 < limits->lo)
    {
      range->t0 = limits->lo;
      range->t1 = limits->lo + span;
    }
  if (range->t1 > limits->hi)
    {
      range->t1 = limits->hi;
      range->t0 = limits->hi - span;
    }
  return !cpel_range_equal (&before, range);
}

void
cpel_range_zoom (CpelRange             *range,
                 double                 factor,
                 gint64                 anchor,
                 const CpelRangeLimits *limits)
{
  double span, new_span, frac;

  g_return_if_fail (range != NULL && limits != NULL);
  g_return_if_fail (factor > 0);

  span = (double) (range->t1 - range->t0);
  if (span <= 0)
    span = 1;
  frac = ((double) (anchor - range->t0)) / span;
  frac = CLAMP (frac, 0.0, 1.0);

  new_span = span / factor;
  if (new_span < (double) limits->min_span)
    new_span = (double) limits->min_span;
  if (new_span >= (double) (limits->hi - limits->lo))
    {
      /* The whole capture, exactly (a double holds spans past 2^53 ns
       * only to a few ns). */
      cpel_range_fit (range, limits);
      return;
    }

  range->t0 = anchor - to_int64 (frac * new_span);
  range->t1 = range->t0 + to_int64 (new_span);
  cpel_range_clamp (range, limits);
}

void
cpel_range_pan (CpelRange             *range,
                gint64                 delta,
                const CpelRangeLimits *limits)
{
  g_return_if_fail (range != NULL && limits != NULL);

  /* Saturate so that huge deltas cannot overflow. */
  delta = CLAMP (delta, -(limits->hi - limits->lo), limits->hi - limits->lo);
  range->t0 += delta;
  range->t1 += delta;
  cpel_range_clamp (range, limits);
}

void
cpel_range_center (CpelRange             *range,
                   gint64                 t,
                   const CpelRangeLimits *limits)
{
  gint64 span;

  g_return_if_fail (range != NULL && limits != NULL);

  span = range->t1 - range->t0;
  range->t0 = t - span / 2;
  range->t1 = range->t0 + span;
  cpel_range_clamp (range, limits);
}

void
cpel_range_fit (CpelRange             *range,
                const CpelRangeLimits *limits)
{
  g_return_if_fail (range != NULL && limits != NULL);

  range->t0 = limits->lo;
  range->t1 = limits->hi;
}
