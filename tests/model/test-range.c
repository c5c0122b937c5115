/* SPDX-License-Identifier: Apache-2.0 */
/* test-range.c — CpelRange: the visible time range, clamped, zoomed, panned
 * and centred inside a capture (no display needed). */
#include "cpel-range.h"
#include "cpel-file.h"   /* CPEL_TIME_MAX */

/* A capture whose last event is at 999 ns: [0, 1000). */
#define DURATION 999

#define assert_range(r, a, b) \
  G_STMT_START { \
    g_assert_cmpint ((r).t0, ==, (a)); \
    g_assert_cmpint ((r).t1, ==, (b)); \
  } G_STMT_END

static void
test_limits (void)
{
  CpelRangeLimits limits;

  cpel_range_limits_init (&limits, DURATION);
  g_assert_cmpint (limits.lo, ==, 0);
  g_assert_cmpint (limits.hi, ==, 1000);   /* the last event inside */
  g_assert_cmpint (limits.min_span, ==, CPEL_RANGE_MIN_SPAN);

  /* An empty or one-instant capture still has the minimum span. */
  cpel_range_limits_init (&limits, 0);
  g_assert_cmpint (limits.hi, ==, CPEL_RANGE_MIN_SPAN);
  cpel_range_limits_init (&limits, -5);
  g_assert_cmpint (limits.hi, ==, CPEL_RANGE_MIN_SPAN);

  /* A damaged duration beyond the loader's bound is held to it. */
  cpel_range_limits_init (&limits, G_MAXINT64);
  g_assert_cmpint (limits.hi, ==, CPEL_TIME_MAX + 1);
}

static void
test_clamp (void)
{
  CpelRangeLimits limits;
  CpelRange r;

  cpel_range_limits_init (&limits, DURATION);

  /* Inside already: unchanged, and says so. */
  r = (CpelRange) { 100, 200 };
  g_assert_false (cpel_range_clamp (&r, &limits));
  assert_range (r, 100, 200);

  /* Shifted in from either side, keeping the span. */
  r = (CpelRange) { -50, 50 };
  g_assert_true (cpel_range_clamp (&r, &limits));
  assert_range (r, 0, 100);
  r = (CpelRange) { 950, 1050 };
  g_assert_true (cpel_range_clamp (&r, &limits));
  assert_range (r, 900, 1000);

  /* Wider than the capture: the whole capture. */
  r = (CpelRange) { -5000, 5000 };
  g_assert_true (cpel_range_clamp (&r, &limits));
  assert_range (r, 0, 1000);

  /* Narrower than the minimum: grown around its middle... */
  r = (CpelRange) { 500, 506 };
  g_assert_true (cpel_range_clamp (&r, &limits));
  assert_range (r, 493, 493 + CPEL_RANGE_MIN_SPAN);
  /* ...or around its start when empty or reversed, then shifted in. */
  r = (CpelRange) { 10, 10 };
  g_assert_true (cpel_range_clamp (&r, &limits));
  assert_range (r, 0, CPEL_RANGE_MIN_SPAN);
  r = (CpelRange) { 600, 400 };
  g_assert_true (cpel_range_clamp (&r, &limits));
  assert_range (r, 590, 610);
}

static void
test_zoom (void)
{
  CpelRangeLimits limits;
  CpelRange r;

  cpel_range_limits_init (&limits, DURATION);

  /* Twice as close around the middle. */
  cpel_range_fit (&r, &limits);
  cpel_range_zoom (&r, 2.0, 500, &limits);
  assert_range (r, 250, 750);

  /* The anchor stays where it was on screen: a quarter in. */
  cpel_range_zoom (&r, 2.0, 375, &limits);
  assert_range (r, 312, 562);
  g_assert_cmpint (ABS ((375 - r.t0) * 4 - cpel_range_span (&r)), <=, 4);

  /* At the left edge the edge stays. */
  cpel_range_fit (&r, &limits);
  cpel_range_zoom (&r, 4.0, 0, &limits);
  assert_range (r, 0, 250);

  /* An anchor beyond the range's end becomes the new end. */
  r = (CpelRange) { 200, 400 };
  cpel_range_zoom (&r, 2.0, 900, &limits);
  assert_range (r, 800, 900);

  /* Zooming out goes no further than the capture. */
  r = (CpelRange) { 250, 750 };
  cpel_range_zoom (&r, 0.5, 500, &limits);
  assert_range (r, 0, 1000);
  cpel_range_zoom (&r, 0.01, 500, &limits);
  assert_range (r, 0, 1000);

  /* Zooming in stops at the minimum span. */
  r = (CpelRange) { 100, 140 };
  cpel_range_zoom (&r, 4.0, 120, &limits);
  assert_range (r, 110, 110 + CPEL_RANGE_MIN_SPAN);
  cpel_range_zoom (&r, 1000.0, 120, &limits);
  assert_range (r, 110, 110 + CPEL_RANGE_MIN_SPAN);
}

static void
test_pan (void)
{
  CpelRangeLimits limits;
  CpelRange r = { 0, 100 };

  cpel_range_limits_init (&limits, DURATION);

  cpel_range_pan (&r, 50, &limits);
  assert_range (r, 50, 150);
  cpel_range_pan (&r, -20, &limits);
  assert_range (r, 30, 130);
  /* Stops at the ends, span kept. */
  cpel_range_pan (&r, -1000, &limits);
  assert_range (r, 0, 100);
  cpel_range_pan (&r, 5000, &limits);
  assert_range (r, 900, 1000);
  /* Deltas that would overflow saturate. */
  cpel_range_pan (&r, G_MININT64, &limits);
  assert_range (r, 0, 100);
  cpel_range_pan (&r, G_MAXINT64, &limits);
  assert_range (r, 900, 1000);
}

static void
test_center (void)
{
  CpelRangeLimits limits;
  CpelRange r = { 0, 100 };

  cpel_range_limits_init (&limits, DURATION);

  cpel_range_center (&r, 500, &limits);
  assert_range (r, 450, 550);
  cpel_range_center (&r, 10, &limits);
  assert_range (r, 0, 100);
  cpel_range_center (&r, 990, &limits);
  assert_range (r, 900, 1000);
  g_assert_cmpint (cpel_range_span (&r), ==, 100);
}

static void
test_fit_equal (void)
{
  CpelRangeLimits limits;
  CpelRange a = { 1, 2 }, b;

  cpel_range_limits_init (&limits, DURATION);
  cpel_range_fit (&a, &limits);
  assert_range (a, 0, 1000);
  b = a;
  g_assert_true (cpel_range_equal (&a, &b));
  b.t1--;
  g_assert_false (cpel_range_equal (&a, &b));
  g_assert_cmpint (cpel_range_span (&b), ==, 999);
}

/* Near the largest times the arithmetic neither overflows nor leaves the
 * capture. */
static void
test_huge (void)
{
  CpelRangeLimits limits;
  CpelRange r;

  cpel_range_limits_init (&limits, CPEL_TIME_MAX);
  cpel_range_fit (&r, &limits);
  cpel_range_zoom (&r, 1e12, CPEL_TIME_MAX, &limits);
  g_assert_cmpint (r.t0, >=, limits.lo);
  g_assert_cmpint (r.t1, <=, limits.hi);
  g_assert_cmpint (r.t1, >=, CPEL_TIME_MAX);
  g_assert_cmpint (cpel_range_span (&r), >=, CPEL_RANGE_MIN_SPAN);
  g_assert_cmpint (cpel_range_span (&r), <, limits.hi / 1000000);
  cpel_range_pan (&r, G_MAXINT64, &limits);
  g_assert_cmpint (r.t1, ==, limits.hi);
  cpel_range_zoom (&r, 1e-12, 0, &limits);
  assert_range (r, limits.lo, limits.hi);
  cpel_range_center (&r, G_MININT64 / 4, &limits);
  assert_range (r, limits.lo, limits.hi);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/model/range/limits", test_limits);
  g_test_add_func ("/model/range/clamp", test_clamp);
  g_test_add_func ("/model/range/zoom", test_zoom);
  g_test_add_func ("/model/range/pan", test_pan);
  g_test_add_func ("/model/range/center", test_center);
  g_test_add_func ("/model/range/fit-equal", test_fit_equal);
  g_test_add_func ("/model/range/huge", test_huge);
  return g_test_run ();
}
