/* SPDX-License-Identifier: Apache-2.0 */
/* test-span-dist.c — duration filters, histograms, span lists and duration
 * anomalies over synthetic distributions with known figures */
#include <stdlib.h>
#include <string.h>

#include "cpel-core.h"
#include "cpel-durations-private.h"
#include "cpel-test-node-spans.h"
#include "cpel-test-util.h"

/* Durations 1..1000 ns in a scrambled order (379 is prime to 1000):
 * count 1000, min 1, p50 500, p90 900, p99 990, max 1000, total 500500. */
static GArray *
uniform_1000 (guint32     track,
              const char *node,
              gint64      t0)
{
  GArray *spans = g_array_new (FALSE, FALSE, sizeof (CpelTestNodeSpan));
  gint64 d[1000];

  for (guint i = 0; i < 1000; i++)
    d[i] = (gint64) ((i * 379) % 1000) + 1;
  cpel_test_node_spans_append (spans, track, node, t0, 10, d, 1000);
  return spans;
}

static CpelFile *
file_of (GArray *spans)
{
  g_autoptr(GBytes) bytes = cpel_test_node_spans_bytes ((const CpelTestNodeSpan *) spans->data,
                                                        spans->len);

  return cpel_test_file_for_bytes (bytes, NULL);
}

static void
test_duration (void)
{
  gint64 ns = -1;

  g_assert_true (cpel_span_duration_parse ("250ns", &ns));
  g_assert_cmpint (ns, ==, 250);
  g_assert_true (cpel_span_duration_parse ("5us", &ns));
  g_assert_cmpint (ns, ==, 5000);
  g_assert_true (cpel_span_duration_parse ("5µs", &ns));
  g_assert_cmpint (ns, ==, 5000);
  g_assert_true (cpel_span_duration_parse ("1ms", &ns));
  g_assert_cmpint (ns, ==, 1000000);
  g_assert_true (cpel_span_duration_parse ("1.5ms", &ns));
  g_assert_cmpint (ns, ==, 1500000);
  g_assert_true (cpel_span_duration_parse ("2s", &ns));
  g_assert_cmpint (ns, ==, 2000000000);
  g_assert_true (cpel_span_duration_parse (" 42 ", &ns));
  g_assert_cmpint (ns, ==, 42);
  g_assert_false (cpel_span_duration_parse ("-5us", &ns));
  g_assert_false (cpel_span_duration_parse ("+5us", &ns));
  g_assert_false (cpel_span_duration_parse ("5 parsecs", &ns));
  g_assert_false (cpel_span_duration_parse ("us", &ns));
  g_assert_false (cpel_span_duration_parse ("", &ns));
  g_assert_false (cpel_span_duration_parse ("99999999999s", &ns));
}

static void
assert_filter (const char *text,
               const char *name,
               gint64      min_ns,
               gint64      max_ns)
{
  g_autoptr(GError) error = NULL;
  guint column = 99;
  g_autoptr(CpelSpanFilter) f = cpel_span_filter_parse (text, &column, &error);

  g_assert_no_error (error);
  g_assert_nonnull (f);
  g_assert_cmpuint (column, ==, 0);
  g_assert_cmpstr (f->name, ==, name);
  g_assert_cmpint (f->min_ns, ==, min_ns);
  g_assert_cmpint (f->max_ns, ==, max_ns);
}

static void
assert_filter_error (const char *text,
                     guint       want_column,
                     const char *want_message)
{
  g_autoptr(GError) error = NULL;
  guint column = 0;
  g_autoptr(CpelSpanFilter) f = cpel_span_filter_parse (text, &column, &error);

  g_assert_null (f);
  g_assert_error (error, CPEL_ERROR, CPEL_ERROR_INVALID);
  g_assert_cmpuint (column, ==, want_column);
  g_assert_cmpstr (error->message, ==, want_message);
}

static void
test_filter (void)
{
  g_autoptr(CpelSpanFilter) f = NULL;

  assert_filter ("ip4-lookup dur>5us", "ip4-lookup", 5001, G_MAXINT64);
  assert_filter ("dur>=1ms", NULL, 1000000, G_MAXINT64);
  assert_filter ("dur<1us", NULL, 0, 999);
  assert_filter ("dur<=1us", NULL, 0, 1000);
  assert_filter ("dur=250ns", NULL, 250, 250);
  assert_filter ("dur == 250", NULL, 250, 250);
  assert_filter ("  ip4-*  dur >= 1us   dur < 2us ", "ip4-*", 1000, 1999);
  assert_filter ("process tw dur>1us", "process tw", 1001, G_MAXINT64);
  assert_filter ("\"Off  CPU\" dur>0", "Off  CPU", 1, G_MAXINT64);
  assert_filter ("durable duration", "durable duration", 0, G_MAXINT64);
  assert_filter ("", NULL, 0, G_MAXINT64);
  /* contradictory bounds: nothing matches, not an error */
  assert_filter ("dur<0", NULL, 0, -1);

  assert_filter_error ("ip4-lookup dur>", 16,
                       "column 16: expected a duration such as 5us after the operator");
  assert_filter_error ("ip4-lookup dur>5xs", 16,
                       "column 16: “5xs” is not a duration (such as 250ns, 5us, 1ms or 2s)");
  assert_filter_error ("dur>-5us", 5,
                       "column 5: “-5us” is not a duration (such as 250ns, 5us, 1ms or 2s)");
  assert_filter_error ("dur!=5us", 4, "column 4: expected <, <=, >, >= or = after “dur”");
  assert_filter_error ("ip4 >5us", 5, "column 5: a condition starts with “dur”, as in dur>5us");
  assert_filter_error ("ip4 =5us", 5, "column 5: a condition starts with “dur”, as in dur>5us");
  assert_filter_error ("é \"open dur>1us", 3, "column 3: the quote is not closed");
  assert_filter_error ("a\xff", 2, "column 2: not valid UTF-8");

  f = cpel_span_filter_parse ("ip4-* dur>=1us dur<2us", NULL, NULL);
  g_assert_true (cpel_span_filter_match (f, "ip4-lookup", 1000));
  g_assert_true (cpel_span_filter_match (f, "ip4-lookup", 1999));
  g_assert_false (cpel_span_filter_match (f, "ip4-lookup", 999));
  g_assert_false (cpel_span_filter_match (f, "ip4-lookup", 2000));
  g_assert_false (cpel_span_filter_match (f, "ip6-lookup", 1500));
  g_assert_true (cpel_span_filter_match_name (f, "ip4-rewrite"));
}

/* The summary (cpel spans) gives the known figures exactly. */
static void
test_uniform_summary (void)
{
  g_autoptr(GArray) spans = uniform_1000 (1, "ip4-lookup", 100);
  g_autoptr(CpelFile) file = file_of (spans);
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new_builtin ();
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelSpanSummary) s = cpel_span_summary_compute (file, rules, NULL, FALSE, NULL,
                                                            &error);
  const CpelSpanRow *r;

  g_assert_no_error (error);
  g_assert_cmpuint (cpel_span_summary_get_n_rows (s, CPEL_SPAN_TABLE_SPANS), ==, 1);
  r = cpel_span_summary_get_row (s, CPEL_SPAN_TABLE_SPANS, 0);
  g_assert_cmpstr (r->name, ==, "ip4-lookup");
  g_assert_cmpuint (r->count, ==, 1000);
  g_assert_cmpuint (r->total_ns, ==, 500500);
  g_assert_cmpint (r->min_ns, ==, 1);
  g_assert_cmpint (r->p50_ns, ==, 500);
  g_assert_cmpint (r->p90_ns, ==, 900);
  g_assert_cmpint (r->p99_ns, ==, 990);
  g_assert_cmpint (r->max_ns, ==, 1000);
  g_assert_cmpint (r->mean_ns, ==, 501);   /* 500.5 rounded half up */
}

static const CpelSpanHistogram *
one_hist (CpelSpanHistograms *hs,
          const char         *name)
{
  for (guint i = 0; i < cpel_span_histograms_get_n (hs); i++)
    if (strcmp (cpel_span_histograms_get (hs, i)->name, name) == 0)
      return cpel_span_histograms_get (hs, i);
  g_assert_not_reached ();
  return NULL;
}

static void
test_histogram (void)
{
  g_autoptr(GArray) spans = uniform_1000 (1, "ip4-lookup", 100);
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new_builtin ();
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelSpanHistograms) lin = NULL;
  g_autoptr(CpelSpanHistograms) lg = NULL;
  g_autoptr(CpelSpanHistograms) one = NULL;
  g_autoptr(CpelSpanHistograms) zero = NULL;
  g_autofree char *csv = NULL;
  const CpelSpanHistogram *h;
  gint64 d7[7] = { 0, 0, 1, 5, 50, 500, 5000 };

  /* a second node: 0, 0, 1, 5, 50, 500, 5000 ns */
  cpel_test_node_spans_append (spans, 2, "ethernet-input", 0, 3, d7, 7);
  file = file_of (spans);

  lin = cpel_span_histograms_compute (file, rules, NULL, NULL, 10, CPEL_SPAN_HIST_LINEAR,
                                      NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_span_histograms_get_n (lin), ==, 2);
  /* cpel spans' order: total descending */
  g_assert_cmpstr (cpel_span_histograms_get (lin, 0)->name, ==, "ip4-lookup");
  h = one_hist (lin, "ip4-lookup");
  g_assert_cmpuint (h->count, ==, 1000);
  g_assert_cmpuint (h->n_bins, ==, 10);
  for (guint b = 0; b < 10; b++)
    {
      g_assert_cmpint (h->edges[b], ==, 1 + 100 * (gint64) b);
      g_assert_cmpuint (h->counts[b], ==, 100);
    }
  g_assert_cmpint (h->edges[10], ==, 1001);
  /* bin 0 holds 1..100: their sum */
  g_assert_cmpuint (h->totals[0], ==, 5050);

  /* 3 linear bins of 1..1000: width 334, the last clipped at 1001 */
  one = cpel_span_histograms_compute (file, rules, NULL, "ip4-lookup", 3,
                                      CPEL_SPAN_HIST_LINEAR, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_span_histograms_get_n (one), ==, 1);
  csv = cpel_span_histograms_to_csv (one);
  g_assert_cmpstr (csv, ==, "span,bin_lo_ns,bin_hi_ns,count\r\n"
                            "ip4-lookup,1,335,334\r\n"
                            "ip4-lookup,335,669,334\r\n"
                            "ip4-lookup,669,1001,332\r\n");
  g_clear_pointer (&csv, g_free);

  /* log: 1 * 1001^(i/3) rounded: 1, 10, 100, 1001 */
  lg = cpel_span_histograms_compute (file, rules, NULL, NULL, 3, CPEL_SPAN_HIST_LOG, NULL,
                                     &error);
  g_assert_no_error (error);
  csv = cpel_span_histograms_to_csv (lg);
  g_assert_cmpstr (csv, ==, "span,bin_lo_ns,bin_hi_ns,count\r\n"
                            "ip4-lookup,1,10,9\r\n"
                            "ip4-lookup,10,100,90\r\n"
                            "ip4-lookup,100,1001,901\r\n"
                            /* 0 has a bin of its own, 1..5000 the other two */
                            "ethernet-input,0,1,2\r\n"
                            "ethernet-input,1,71,3\r\n"
                            "ethernet-input,71,5001,2\r\n");

  /* a name without spans: no histogram */
  zero = cpel_span_histograms_compute (file, rules, NULL, "ip6-lookup", 10,
                                       CPEL_SPAN_HIST_LOG, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_span_histograms_get_n (zero), ==, 0);
}

/* Equal durations: one bin, on either axis. */
static void
test_histogram_flat (void)
{
  g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, sizeof (CpelTestNodeSpan));
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new_builtin ();
  g_autoptr(CpelSpanHistograms) lin = NULL;
  g_autoptr(CpelSpanHistograms) lg = NULL;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  gint64 d[4] = { 7, 7, 7, 7 };

  cpel_test_node_spans_append (spans, 1, "n", 0, 1, d, 4);
  file = file_of (spans);
  lin = cpel_span_histograms_compute (file, rules, NULL, NULL, 50, CPEL_SPAN_HIST_LINEAR,
                                      NULL, NULL);
  lg = cpel_span_histograms_compute (file, rules, NULL, NULL, 50, CPEL_SPAN_HIST_LOG, NULL,
                                     NULL);
  a = cpel_span_histograms_to_csv (lin);
  b = cpel_span_histograms_to_csv (lg);
  g_assert_cmpstr (a, ==, "span,bin_lo_ns,bin_hi_ns,count\r\nn,7,8,4\r\n");
  g_assert_cmpstr (b, ==, a);
}

static void
test_list (void)
{
  g_autoptr(GArray) spans = uniform_1000 (1, "ip4-lookup", 100);
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new_builtin ();
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelSpanFilter) f = NULL;
  g_autoptr(CpelSpanList) top = NULL;
  g_autoptr(CpelSpanList) slow = NULL;
  g_autoptr(CpelSpanList) all = NULL;
  g_autofree char *text = NULL;
  gint64 d3[3] = { 998, 2000, 5 };

  /* another track: a tie with the 998 ns one, longer than all, shorter */
  cpel_test_node_spans_append (spans, 2, "ip4-lookup", 0, 1, d3, 3);
  file = file_of (spans);

  top = cpel_span_list_compute (file, rules, NULL, NULL, 4, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_span_list_get_n (top), ==, 4);
  g_assert_cmpuint (cpel_span_list_get_n_seen (top), ==, 1003);
  text = cpel_span_list_to_text (top, TRUE);
  /* the 1000 ns span of track 1 begins at 100 + the durations and gaps of
   * the spans before it */
  {
    gint64 t = 100;

    for (guint i = 0; (i * 379) % 1000 != 999; i++)
      t += (gint64) ((i * 379) % 1000) + 1 + 10;
    g_assert_cmpint (cpel_span_list_get (top, 1)->begin_ns, ==, t);
    g_assert_cmpint (cpel_span_list_get (top, 1)->end_ns, ==, t + 1000);
  }
  g_assert_cmpint (cpel_span_list_get (top, 0)->begin_ns, ==, 999);
  g_assert_cmpint (cpel_span_list_get (top, 0)->end_ns, ==, 2999);
  g_assert_cmpint (cpel_span_list_get (top, 2)->end_ns - cpel_span_list_get (top, 2)->begin_ns,
                   ==, 999);
  /* the tie at 998 ns: the earlier first (track 2's, at 0) */
  g_assert_cmpint (cpel_span_list_get (top, 3)->begin_ns, ==, 0);
  g_assert_cmpuint (cpel_span_list_get (top, 3)->slot, ==, 1);
  g_assert_true (g_str_has_prefix (text, "begin_ns\tend_ns\tduration_ns\ttrack\tspan\n"
                                         "999\t2999\t2000\tvpp_wk_2\tip4-lookup\n"));
  g_assert_true (g_str_has_suffix (text, "0\t998\t998\tvpp_wk_2\tip4-lookup\n"));

  /* a filter: >= 995 ns, in time order */
  f = cpel_span_filter_parse ("ip4-lookup dur>=995ns", NULL, &error);
  g_assert_no_error (error);
  slow = cpel_span_list_compute (file, rules, NULL, f, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_span_list_get_n (slow), ==, 8);   /* 995..1000, 998, 2000 */
  for (guint64 i = 0; i < cpel_span_list_get_n (slow); i++)
    {
      const CpelSpanItem *it = cpel_span_list_get (slow, i);

      g_assert_cmpint (it->end_ns - it->begin_ns, >=, 995);
      if (i > 0)
        g_assert_cmpint (it->begin_ns, >=, cpel_span_list_get (slow, i - 1)->begin_ns);
    }
  g_assert_cmpint (cpel_span_list_get (slow, 0)->begin_ns, ==, 0);
  g_assert_cmpint (cpel_span_list_get (slow, 1)->begin_ns, ==, 999);

  /* and begun in [1, 999] (a scatter's rectangle): the 2000 ns one alone;
   * a copy is equal, a bound moved is not */
  {
    g_autoptr(CpelSpanFilter) rect = cpel_span_filter_copy (f);
    g_autoptr(CpelSpanList) in_rect = NULL;

    g_assert_cmpint (f->from_ns, ==, G_MININT64);
    g_assert_cmpint (f->to_ns, ==, G_MAXINT64);
    g_assert_true (cpel_span_filter_equal (rect, f));
    rect->from_ns = 1;
    rect->to_ns = 999;
    g_assert_false (cpel_span_filter_equal (rect, f));
    g_assert_true (cpel_span_filter_match_span (rect, "ip4-lookup", 999, 2999));
    g_assert_false (cpel_span_filter_match_span (rect, "ip4-lookup", 0, 998));
    g_assert_false (cpel_span_filter_match_span (rect, "ip4-lookup", 1000, 2999));
    in_rect = cpel_span_list_compute (file, rules, NULL, rect, 0, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (cpel_span_list_get_n (in_rect), ==, 1);
    g_assert_cmpint (cpel_span_list_get (in_rect, 0)->begin_ns, ==, 999);
  }

  /* everything, no filter: every span once */
  all = cpel_span_list_compute (file, rules, NULL, NULL, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_span_list_get_n (all), ==, 1003);
}

static void
test_pct (void)
{
  struct { gint64 a, b; gboolean ok; gint64 pct10; const char *text; } cases[] = {
    { 8, 9, TRUE, 125, "12.5" },
    { 16, 17, TRUE, 63, "6.3" },       /* 6.25: halves away from zero */
    { 17, 16, TRUE, -59, "-5.9" },
    { 1000, 1000, TRUE, 0, "0.0" },
    { 3, 4, TRUE, 333, "33.3" },
    { 2000, 1999, TRUE, -1, "-0.1" },  /* -0.05 */
    { 20000, 19999, TRUE, 0, "0.0" },  /* -0.005: never "-0.0" */
    { 1, 0, TRUE, -1000, "-100.0" },
    { 0, 5, FALSE, 0, "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gint64 p = 0;
      gboolean ok = cpel_span_diff_pct10 (cases[i].a, cases[i].b, &p);
      g_autofree char *text = cpel_span_diff_format_pct (ok, p);

      g_assert_cmpint (ok, ==, cases[i].ok);
      if (ok)
        g_assert_cmpint (p, ==, cases[i].pct10);
      g_assert_cmpstr (text, ==, cases[i].text);
    }
}

/* The planted regression's ip4-lookup in A and B on the same bins: A's
 * 100 x 1000 ns and B's 90 x 1000 ns + 10 x 2000 ns over [1000, 2001) in
 * 10 linear bins of 101 ns; a name only A has: B's histograms empty. */
static void
test_hist_pair (void)
{
  g_autoptr(GArray) sa = cpel_test_node_spans_planted (FALSE);
  g_autoptr(GArray) sb = cpel_test_node_spans_planted (TRUE);
  g_autoptr(CpelFile) a = file_of (sa);
  g_autoptr(CpelFile) b = file_of (sb);
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new_builtin ();
  g_autoptr(CpelSpanHistograms) ha = NULL;
  g_autoptr(CpelSpanHistograms) hb = NULL;
  g_autoptr(GError) error = NULL;
  const CpelSpanHistogram *x, *y;

  g_assert_true (cpel_span_histograms_compute_pair (a, rules, NULL, b, rules, NULL, "ip4-lookup",
                                                    10, CPEL_SPAN_HIST_LINEAR, &ha, &hb, NULL,
                                                    &error));
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_span_histograms_get_n (ha), ==, 1);
  g_assert_cmpuint (cpel_span_histograms_get_n (hb), ==, 1);
  x = cpel_span_histograms_get (ha, 0);
  y = cpel_span_histograms_get (hb, 0);
  g_assert_cmpstr (x->name, ==, "ip4-lookup");
  g_assert_cmpuint (x->n_bins, ==, 10);
  g_assert_cmpuint (y->n_bins, ==, 10);
  for (guint i = 0; i <= 10; i++)
    g_assert_cmpint (x->edges[i], ==, y->edges[i]);
  g_assert_cmpint (x->edges[0], ==, 1000);
  g_assert_cmpint (x->edges[10], ==, 2001);
  g_assert_cmpuint (x->counts[0], ==, 100);
  g_assert_cmpuint (x->counts[9], ==, 0);
  g_assert_cmpuint (y->counts[0], ==, 90);
  g_assert_cmpuint (y->counts[9], ==, 10);
  g_assert_cmpint (x->min_ns, ==, 1000);
  g_assert_cmpint (x->max_ns, ==, 1000);
  g_assert_cmpint (y->max_ns, ==, 2000);
  g_clear_pointer (&ha, cpel_span_histograms_free);
  g_clear_pointer (&hb, cpel_span_histograms_free);

  g_assert_true (cpel_span_histograms_compute_pair (a, rules, NULL, b, rules, NULL, "ip6-lookup",
                                                    10, CPEL_SPAN_HIST_LOG, &ha, &hb, NULL,
                                                    &error));
  g_assert_cmpuint (cpel_span_histograms_get_n (ha), ==, 1);
  g_assert_cmpuint (cpel_span_histograms_get_n (hb), ==, 0);
  g_assert_cmpuint (cpel_span_histograms_get (ha, 0)->count, ==, 5);
}

/* The planted regression: every figure of every row. */
static void
test_diff_planted (void)
{
  g_autoptr(GArray) sa = cpel_test_node_spans_planted (FALSE);
  g_autoptr(GArray) sb = cpel_test_node_spans_planted (TRUE);
  g_autoptr(CpelFile) a = file_of (sa);
  g_autoptr(CpelFile) b = file_of (sb);
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new_builtin ();
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelSpanDiff) diff = cpel_span_diff_compute (a, b, rules, NULL, NULL, &error);
  g_autofree char *csv = NULL;
  const CpelSpanDiffRow *r;

  g_assert_no_error (error);
  csv = cpel_span_diff_to_csv (diff);
  g_assert_cmpstr (csv, ==,
    "span,count_a,count_b,count_delta,mean_ns_a,mean_ns_b,mean_delta_pct,"
    "p99_ns_a,p99_ns_b,p99_delta_pct\r\n"
    "l2-input,10,10,0,200,150,-25.0,200,150,-25.0\r\n"
    "ip4-lookup,100,100,0,1000,1100,10.0,1000,2000,100.0\r\n"
    "arp-input,1,1,0,16,17,6.3,16,17,6.3\r\n"
    "dpdk-input,50,50,0,300,303,1.0,300,303,1.0\r\n"
    "ethernet-input,100,100,0,500,500,0.0,500,500,0.0\r\n"
    "ip4-rewrite,0,10,10,,400,,,400,\r\n"
    "ip6-lookup,5,0,-5,123,,,123,,\r\n");
  r = cpel_span_diff_lookup (diff, "ip4-lookup");
  g_assert_nonnull (r);
  g_assert_cmpint (r->p50_ns_a, ==, 1000);
  g_assert_cmpint (r->p50_ns_b, ==, 1000);
  g_assert_cmpint (r->max_ns_b, ==, 2000);
  g_assert_null (cpel_span_diff_lookup (diff, "nothing"));
}

static void
test_anomalies (void)
{
  g_autoptr(GArray) spans = uniform_1000 (1, "ip4-lookup", 0);
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new_builtin ();
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelSpanAnomalies) above = NULL;
  g_autoptr(CpelSpanAnomalies) sigma = NULL;
  g_autoptr(CpelSpanAnomalies) flat = NULL;
  g_autoptr(CpelSpanAnomalies) above_999 = NULL;
  gint64 d4[4] = { 5000, 5000, 5000, 5000 };
  guint64 n = 0, low = 0, high = 0;
  double mean = 0, sd = 0;
  gint64 p = 0;

  /* track 2: equal durations, sigma 0, nothing above its p99 */
  cpel_test_node_spans_append (spans, 2, "ip4-lookup", 0, 1, d4, 4);
  file = file_of (spans);

  above = cpel_span_anomalies_find (file, rules, NULL, "ip4-lookup", CPEL_SPAN_ANOMALY_ABOVE,
                                    99, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_span_anomalies_get_n_spans (above), ==, 1004);
  /* 991..1000 on track 1 */
  g_assert_cmpuint (cpel_span_anomalies_get_n (above), ==, 10);
  for (guint64 i = 0; i < 10; i++)
    {
      const CpelSpanAnomaly *a = cpel_span_anomalies_get (above, i);

      g_assert_cmpint (a->duration_ns, >, 990);
      g_assert_cmpint (a->duration_ns, ==, a->span.end_ns - a->span.begin_ns);
      g_assert_cmpuint (a->span.slot, ==, 0);
      g_assert_cmpstr (a->span.name, ==, "ip4-lookup");
      if (i > 0)
        g_assert_cmpint (a->span.begin_ns, >,
                         cpel_span_anomalies_get (above, i - 1)->span.begin_ns);
    }
  g_assert_true (cpel_span_anomalies_get_track (above, 0, &n, &mean, &sd, &p));
  g_assert_cmpuint (n, ==, 1000);
  g_assert_cmpint (p, ==, 990);
  g_assert_cmpfloat_with_epsilon (mean, 500.5, 1e-9);
  g_assert_true (cpel_span_anomalies_get_track (above, 1, &n, NULL, &sd, &p));
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpint (p, ==, 5000);
  g_assert_cmpfloat (sd, ==, 0);

  /* p99.9: the 999th of 1000 */
  above_999 = cpel_span_anomalies_find (file, rules, NULL, "ip4-lookup",
                                        CPEL_SPAN_ANOMALY_ABOVE, 99.9, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_span_anomalies_get_n (above_999), ==, 1);
  g_assert_cmpint (cpel_span_anomalies_get (above_999, 0)->duration_ns, ==, 1000);

  /* sigma = sqrt ((1000^2 - 1) / 12) = 288.67: |d - 500.5| > 1.7 sigma
   * (490.74) for 1..9 and 992..1000 */
  sigma = cpel_span_anomalies_find (file, rules, NULL, "ip4-lookup", CPEL_SPAN_ANOMALY_SIGMA,
                                    1.7, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_span_anomalies_get_n (sigma), ==, 18);
  for (guint64 i = 0; i < 18; i++)
    {
      const CpelSpanAnomaly *a = cpel_span_anomalies_get (sigma, i);

      if (a->duration_ns <= 9)
        {
          low++;
          g_assert_cmpfloat (a->z, <, -1.7);
        }
      else
        {
          high++;
          g_assert_cmpint (a->duration_ns, >=, 992);
          g_assert_cmpfloat (a->z, >, 1.7);
        }
    }
  g_assert_cmpuint (low, ==, 9);
  g_assert_cmpuint (high, ==, 9);

  /* a name without spans */
  flat = cpel_span_anomalies_find (file, rules, NULL, "ip6-lookup", CPEL_SPAN_ANOMALY_SIGMA,
                                   2.5, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_span_anomalies_get_n (flat), ==, 0);
  g_assert_cmpuint (cpel_span_anomalies_get_n_spans (flat), ==, 0);
  g_assert_false (cpel_span_anomalies_get_track (flat, 0, NULL, NULL, NULL, NULL));
}

static gint
i64_cmp (gconstpointer a,
         gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/* Chunked durations: selection exact across chunk boundaries (many equal
 * values too), 8 bytes a value plus less than a chunk. */
static void
test_durations (void)
{
  const guint64 n = 3 * CPEL_DURATIONS_CHUNK + 17;
  g_autoptr(GRand) rand = g_rand_new_with_seed (27);
  g_autofree gint64 *sorted = g_new (gint64, n);
  CpelDurations d;
  guint64 ks[] = { 0, 1, 4095, 4096, 4097, 6000, 8191, 8192, 12000, n - 2, n - 1 };

  cpel_durations_init (&d);
  g_assert_cmpuint (cpel_durations_bytes (&d), ==, 0);
  for (guint64 i = 0; i < n; i++)
    {
      /* a few distinct values often repeated, and some spread */
      gint64 v = (i % 3 == 0) ? g_rand_int_range (rand, 0, 50)
                              : g_rand_int_range (rand, 0, 1000000);

      sorted[i] = v;
      cpel_durations_append (&d, v);
    }
  g_assert_cmpuint (d.n, ==, n);
  g_assert_cmpuint (cpel_durations_bytes (&d), <=,
                    n * 8 + CPEL_DURATIONS_CHUNK * 8 + 8 * 8);
  qsort (sorted, n, sizeof (gint64), i64_cmp);
  for (guint i = 0; i < G_N_ELEMENTS (ks); i++)
    g_assert_cmpint (cpel_durations_select (&d, 0, n - 1, ks[i]), ==, sorted[ks[i]]);
  /* as the summary does: each from the previous rank on */
  {
    guint64 k50 = n / 2, k90 = n * 9 / 10, k99 = n * 99 / 100;

    g_assert_cmpint (cpel_durations_select (&d, 0, n - 1, k50), ==, sorted[k50]);
    g_assert_cmpint (cpel_durations_select (&d, k50, n - 1, k90), ==, sorted[k90]);
    g_assert_cmpint (cpel_durations_select (&d, k90, n - 1, k99), ==, sorted[k99]);
  }
  cpel_durations_clear (&d);

  /* a few values: the first chunk stays small */
  cpel_durations_append (&d, 5);
  cpel_durations_append (&d, 3);
  g_assert_cmpuint (cpel_durations_bytes (&d), <=, 16 * 8 + 4 * 8);
  g_assert_cmpint (cpel_durations_select (&d, 0, 1, 0), ==, 3);
  cpel_durations_clear (&d);
}

/* Ranks read by narrowing histograms equal the sorted values: spread,
 * clustered, all equal, the whole 64-bit range and negative values, the
 * first and last ranks, over a few chunks. */
static void
test_durations_ranks (void)
{
  const guint64 n = 20 * CPEL_DURATIONS_CHUNK + 5;
  g_autoptr(GRand) rand = g_rand_new_with_seed (1203);
  g_autofree gint64 *sorted = g_new (gint64, n);

  g_assert_cmpuint (n, >=, CPEL_DURATIONS_SELECT_MIN);
  for (guint kind = 0; kind < 5; kind++)
    {
      CpelDurations d;
      gint64 min = G_MAXINT64, max = G_MININT64;
      guint64 ranks[] = { 0, 1, n / 2, n * 9 / 10, n * 99 / 100, n - 2, n - 1, 777 };
      gint64 out[G_N_ELEMENTS (ranks)];

      cpel_durations_init (&d);
      for (guint64 i = 0; i < n; i++)
        {
          gint64 v;

          switch (kind)
            {
            case 0:   /* ns durations up to 10 ms */
              v = g_rand_int_range (rand, 0, 10000000);
              break;
            case 1:   /* most at 1 us, a tail of 10 and 1000 us */
              v = i % 100 == 0 ? 1000000 : i % 10 == 0 ? 10000 : 1000 + (gint64) (i % 3);
              break;
            case 2:   /* all equal */
              v = 42;
              break;
            case 3:   /* the whole range */
              v = (gint64) (((guint64) g_rand_int (rand) << 32) | g_rand_int (rand));
              if (i == 7)
                v = G_MININT64;
              if (i == 8)
                v = G_MAXINT64;
              break;
            default:  /* two values far apart */
              v = i % 2 ? G_MAXINT64 - 1 : 0;
              break;
            }
          sorted[i] = v;
          min = MIN (min, v);
          max = MAX (max, v);
          cpel_durations_append (&d, v);
        }
      qsort (sorted, n, sizeof (gint64), i64_cmp);
      cpel_durations_select_ranks (&d, min, max, ranks, G_N_ELEMENTS (ranks), out);
      for (guint i = 0; i < G_N_ELEMENTS (ranks); i++)
        g_assert_cmpint (out[i], ==, sorted[ranks[i]]);
      cpel_durations_clear (&d);
    }
}

/* A skewed distribution: 900 x 1 us, 90 x 10 us, 10 x 1 ms. Nearest rank:
 * p50 and p90 (the 900th) 1 us, p99 (the 990th) 10 us, max 1 ms. */
static void
test_skewed (void)
{
  g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, sizeof (CpelTestNodeSpan));
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new_builtin ();
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelSpanSummary) s = NULL;
  g_autoptr(CpelSpanHistograms) h = NULL;
  g_autofree char *csv = NULL;
  g_autofree gint64 *d = g_new (gint64, 1000);
  const CpelSpanRow *r;

  /* interleaved: the slow ones spread over the capture */
  for (guint i = 0; i < 1000; i++)
    d[i] = i % 100 == 7 ? 1000000 : i % 10 == 3 && i % 100 != 93 ? 10000 : 1000;
  cpel_test_node_spans_append (spans, 4, "ip4-lookup", 0, 100, d, 1000);
  file = file_of (spans);
  s = cpel_span_summary_compute (file, rules, NULL, FALSE, NULL, &error);
  g_assert_no_error (error);
  r = cpel_span_summary_get_row (s, CPEL_SPAN_TABLE_SPANS, 0);
  g_assert_cmpuint (r->count, ==, 1000);
  g_assert_cmpint (r->min_ns, ==, 1000);
  g_assert_cmpint (r->p50_ns, ==, 1000);
  g_assert_cmpint (r->p90_ns, ==, 1000);
  g_assert_cmpint (r->p99_ns, ==, 10000);
  g_assert_cmpint (r->max_ns, ==, 1000000);
  g_assert_cmpuint (r->total_ns, ==, 900 * 1000 + 90 * 10000 + 10 * 1000000);

  h = cpel_span_histograms_compute (file, rules, NULL, "ip4-lookup", 3, CPEL_SPAN_HIST_LOG,
                                    NULL, &error);
  g_assert_no_error (error);
  csv = cpel_span_histograms_to_csv (h);
  /* 1000 * 1000.001^(i/3): 10000, 100000 */
  g_assert_cmpstr (csv, ==, "span,bin_lo_ns,bin_hi_ns,count\r\n"
                            "ip4-lookup,1000,10000,900\r\n"
                            "ip4-lookup,10000,100000,90\r\n"
                            "ip4-lookup,100000,1000001,10\r\n");
}

/* Percentiles over ranges: exactly those of the spans that lie wholly in
 * the range (a span the range cuts is an orphan), checked against a
 * sorted copy for ranges picked at random (fixed seed). */
static void
test_ranges (void)
{
  g_autoptr(GArray) spans = uniform_1000 (1, "ip4-lookup", 0);
  g_autoptr(CpelFile) file = file_of (spans);
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new_builtin ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  const CpelTestNodeSpan *all = (const CpelTestNodeSpan *) spans->data;
  gint64 end = all[spans->len - 1].begin_ns + all[spans->len - 1].duration_ns;
  guint checked = 0;

  for (guint round = 0; round < 40; round++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(CpelSpanSummary) s = NULL;
      g_autoptr(CpelSpanHistograms) h = NULL;
      g_autoptr(GArray) in = g_array_new (FALSE, FALSE, sizeof (gint64));
      CpelSpansOptions o = { 0 };
      const CpelSpanRow *r;
      guint64 n, sum = 0;

      o.t0 = g_rand_int_range (rand, 0, (gint32) end);
      o.t1 = o.t0 + 1 + g_rand_int_range (rand, 0, (gint32) (end - o.t0));
      for (guint i = 0; i < spans->len; i++)
        if (all[i].begin_ns >= o.t0 && all[i].begin_ns + all[i].duration_ns < o.t1)
          g_array_append_val (in, all[i].duration_ns);
      g_array_sort (in, i64_cmp);
      n = in->len;
      s = cpel_span_summary_compute (file, rules, &o, FALSE, NULL, &error);
      g_assert_no_error (error);
      if (n == 0)
        {
          g_assert_true (cpel_span_summary_get_n_rows (s, CPEL_SPAN_TABLE_SPANS) == 0
                         || cpel_span_summary_get_row (s, CPEL_SPAN_TABLE_SPANS, 0)->count == 0);
          continue;
        }
      checked++;
      r = cpel_span_summary_get_row (s, CPEL_SPAN_TABLE_SPANS, 0);
      g_assert_cmpuint (r->count, ==, n);
      g_assert_cmpint (r->min_ns, ==, g_array_index (in, gint64, 0));
      g_assert_cmpint (r->p50_ns, ==, g_array_index (in, gint64, (n * 50 + 99) / 100 - 1));
      g_assert_cmpint (r->p90_ns, ==, g_array_index (in, gint64, (n * 90 + 99) / 100 - 1));
      g_assert_cmpint (r->p99_ns, ==, g_array_index (in, gint64, (n * 99 + 99) / 100 - 1));
      g_assert_cmpint (r->max_ns, ==, g_array_index (in, gint64, n - 1));

      /* the histogram of the range: every span of it in one bin */
      h = cpel_span_histograms_compute (file, rules, &o, "ip4-lookup", 7, round % 2,
                                        NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (cpel_span_histograms_get_n (h), ==, 1);
      for (guint b = 0; b < cpel_span_histograms_get (h, 0)->n_bins; b++)
        sum += cpel_span_histograms_get (h, 0)->counts[b];
      g_assert_cmpuint (sum, ==, n);
    }
  g_assert_cmpuint (checked, >=, 30);
}

/* Dragging over bins 3..5 selects exactly the spans they count. */
static void
test_histogram_selection (void)
{
  g_autoptr(GArray) spans = uniform_1000 (1, "ip4-lookup", 0);
  g_autoptr(CpelFile) file = NULL;
  g_autoptr(CpelSpanRules) rules = cpel_span_rules_new_builtin ();
  g_autoptr(GError) error = NULL;
  g_autoptr(CpelSpanHistograms) hs = NULL;
  g_autoptr(CpelSpanFilter) sel = NULL;
  g_autoptr(CpelSpanFilter) starry = cpel_span_filter_new ("a*b?\\", 0, G_MAXINT64);
  g_autoptr(CpelSpanList) list = NULL;
  const CpelSpanHistogram *h;
  gint64 d2[2] = { 400, 450 };

  /* another node of the same durations: not selected */
  cpel_test_node_spans_append (spans, 2, "ip4-rewrite", 0, 5, d2, 2);
  file = file_of (spans);
  hs = cpel_span_histograms_compute (file, rules, NULL, NULL, 10, CPEL_SPAN_HIST_LINEAR, NULL,
                                     &error);
  g_assert_no_error (error);
  h = one_hist (hs, "ip4-lookup");
  sel = cpel_span_histogram_selection (h, 3, 5);
  g_assert_cmpint (sel->min_ns, ==, 301);
  g_assert_cmpint (sel->max_ns, ==, 600);
  list = cpel_span_list_compute (file, rules, NULL, sel, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_span_list_get_n (list), ==,
                    h->counts[3] + h->counts[4] + h->counts[5]);
  g_assert_cmpuint (cpel_span_list_get_n (list), ==, 300);
  for (guint64 i = 0; i < cpel_span_list_get_n (list); i++)
    {
      const CpelSpanItem *it = cpel_span_list_get (list, i);

      g_assert_cmpstr (it->name, ==, "ip4-lookup");
      g_assert_cmpint (it->end_ns - it->begin_ns, >=, 301);
      g_assert_cmpint (it->end_ns - it->begin_ns, <=, 600);
    }

  /* names are matched exactly, glob characters and all */
  g_assert_true (cpel_span_filter_match_name (starry, "a*b?\\"));
  g_assert_false (cpel_span_filter_match_name (starry, "axxbc\\"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/span-dist/duration", test_duration);
  g_test_add_func ("/core/span-dist/filter", test_filter);
  g_test_add_func ("/core/span-dist/durations", test_durations);
  g_test_add_func ("/core/span-dist/durations-ranks", test_durations_ranks);
  g_test_add_func ("/core/span-dist/uniform-summary", test_uniform_summary);
  g_test_add_func ("/core/span-dist/skewed", test_skewed);
  g_test_add_func ("/core/span-dist/ranges", test_ranges);
  g_test_add_func ("/core/span-dist/histogram", test_histogram);
  g_test_add_func ("/core/span-dist/histogram-flat", test_histogram_flat);
  g_test_add_func ("/core/span-dist/histogram-selection", test_histogram_selection);
  g_test_add_func ("/core/span-dist/list", test_list);
  g_test_add_func ("/core/span-dist/diff-pct", test_pct);
  g_test_add_func ("/core/span-dist/diff-planted", test_diff_planted);
  g_test_add_func ("/core/span-dist/hist-pair", test_hist_pair);
  g_test_add_func ("/core/span-dist/anomalies", test_anomalies);
  return g_test_run ();
}
