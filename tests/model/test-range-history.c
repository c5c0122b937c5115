/* SPDX-License-Identifier: Apache-2.0 */
/* test-range-history.c — CpelRangeHistory: a view's zoom history, Back and
 * Forward, continuous changes coalesced (the time is given: no clock, no
 * display). */
#include "cpel-range-history.h"

#define COALESCE 500

#define assert_range(r, a, b) \
  G_STMT_START { \
    g_assert_cmpint ((r).t0, ==, (a)); \
    g_assert_cmpint ((r).t1, ==, (b)); \
  } G_STMT_END

/* Steps back and forward again, each range once. */
static void
test_back_forward (void)
{
  g_autoptr(CpelRangeHistory) h = cpel_range_history_new (10, COALESCE);
  CpelRange r0 = { 0, 100 }, r1 = { 10, 60 }, r2 = { 20, 30 }, to = { -1, -1 };

  g_assert_false (cpel_range_history_can_back (h));
  g_assert_false (cpel_range_history_back (h, &r0, &to));
  assert_range (to, -1, -1);   /* untouched */

  /* r0 -> r1 -> r2, discrete steps */
  cpel_range_history_remember (h, &r0, FALSE, 1000);
  cpel_range_history_remember (h, &r1, FALSE, 1001);
  g_assert_true (cpel_range_history_can_back (h));
  g_assert_false (cpel_range_history_can_forward (h));

  g_assert_true (cpel_range_history_back (h, &r2, &to));
  assert_range (to, 10, 60);
  g_assert_true (cpel_range_history_back (h, &r1, &to));
  assert_range (to, 0, 100);
  g_assert_false (cpel_range_history_back (h, &r0, &to));
  g_assert_true (cpel_range_history_can_forward (h));

  g_assert_true (cpel_range_history_forward (h, &r0, &to));
  assert_range (to, 10, 60);
  g_assert_true (cpel_range_history_forward (h, &r1, &to));
  assert_range (to, 20, 30);
  g_assert_false (cpel_range_history_forward (h, &r2, &to));

  /* a new change after going back drops Forward */
  g_assert_true (cpel_range_history_back (h, &r2, &to));
  cpel_range_history_remember (h, &r1, FALSE, 2000);
  g_assert_false (cpel_range_history_can_forward (h));

  cpel_range_history_clear (h);
  g_assert_false (cpel_range_history_can_back (h));
  g_assert_false (cpel_range_history_can_forward (h));
}

/* Continuous changes within the coalescing time are one step; the same
 * range twice in a row is one. */
static void
test_coalesce (void)
{
  g_autoptr(CpelRangeHistory) h = cpel_range_history_new (10, COALESCE);
  CpelRange r0 = { 0, 100 }, r1 = { 5, 105 }, r2 = { 10, 110 }, r3 = { 15, 115 }, to;

  cpel_range_history_remember (h, &r0, TRUE, 10000);
  cpel_range_history_remember (h, &r1, TRUE, 10000 + COALESCE - 1);
  cpel_range_history_remember (h, &r2, TRUE, 10000 + 2 * COALESCE - 2);   /* still running */
  g_assert_true (cpel_range_history_back (h, &r3, &to));
  assert_range (to, 0, 100);
  g_assert_false (cpel_range_history_can_back (h));

  /* a pause longer than the coalescing time starts a new step */
  cpel_range_history_clear (h);
  cpel_range_history_remember (h, &r0, TRUE, 10000);
  cpel_range_history_remember (h, &r1, TRUE, 10000 + COALESCE);
  g_assert_true (cpel_range_history_back (h, &r2, &to));
  assert_range (to, 5, 105);
  g_assert_true (cpel_range_history_back (h, &r1, &to));
  assert_range (to, 0, 100);

  /* a discrete step ends a continuous run */
  cpel_range_history_clear (h);
  cpel_range_history_remember (h, &r0, TRUE, 10000);
  cpel_range_history_remember (h, &r1, FALSE, 10001);
  cpel_range_history_remember (h, &r2, TRUE, 10002);
  g_assert_true (cpel_range_history_back (h, &r3, &to));
  assert_range (to, 10, 110);

  /* the same range twice: one step */
  cpel_range_history_clear (h);
  cpel_range_history_remember (h, &r0, FALSE, 1);
  cpel_range_history_remember (h, &r0, FALSE, 2);
  g_assert_true (cpel_range_history_back (h, &r1, &to));
  g_assert_false (cpel_range_history_can_back (h));
}

/* At most `max` steps back: the oldest go. */
static void
test_max (void)
{
  g_autoptr(CpelRangeHistory) h = cpel_range_history_new (3, COALESCE);
  CpelRange r, to;
  guint n = 0;

  for (gint64 i = 0; i < 5; i++)
    {
      r = (CpelRange) { i, i + 10 };
      cpel_range_history_remember (h, &r, FALSE, i + 1);
    }
  r = (CpelRange) { 99, 109 };
  while (cpel_range_history_back (h, &r, &to))
    {
      g_assert_cmpint (to.t0, ==, 4 - (gint64) n);
      r = to;
      n++;
    }
  g_assert_cmpuint (n, ==, 3);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/model/range-history/back-forward", test_back_forward);
  g_test_add_func ("/model/range-history/coalesce", test_coalesce);
  g_test_add_func ("/model/range-history/max", test_max);
  return g_test_run ();
}
