/* SPDX-License-Identifier: Apache-2.0 */
/* test-cli-latency.c — `cpel spans --hist / --list`, `cpel diff --by spans`
 * and `cpel anomaly --span` on generated captures of known distributions */
#include <string.h>

#include "cpel-core.h"
#include "cpel-test-node-spans.h"
#include "cpel-test-util.h"
#include "cli-test-util.h"

static char *tmpdir;

/* Track 1: ip4-lookup, durations 1..1000 ns scrambled (count 1000, min 1,
 * p50 500, p90 900, p99 990, max 1000), 10 ns apart from t = 0. */
static gint64
uniform_duration (guint i)
{
  return (gint64) ((i * 379) % 1000) + 1;
}

static char *
write_uniform (const char *name)
{
  g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, sizeof (CpelTestNodeSpan));
  char *path = g_build_filename (tmpdir, name, NULL);
  gint64 d[1000];

  for (guint i = 0; i < 1000; i++)
    d[i] = uniform_duration (i);
  cpel_test_node_spans_append (spans, 1, "ip4-lookup", 0, 10, d, 1000);
  cpel_test_node_spans_write (path, (const CpelTestNodeSpan *) spans->data, spans->len);
  return path;
}

/* The begin time of the span of track 1 that lasts d ns. */
static gint64
uniform_begin (gint64 d)
{
  gint64 t = 0;

  for (guint i = 0; uniform_duration (i) != d; i++)
    t += uniform_duration (i) + 10;
  return t;
}

static void
test_uniform_table (void)
{
  g_autofree char *path = write_uniform ("uniform.cpel");
  g_auto(CliRun) r = { 0 };

  cli_run (&r, "spans", "--csv", path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_cmpstr (r.out, ==,
    "span,count,total_ns,min_ns,p50_ns,p90_ns,p99_ns,max_ns,mean_ns,orphan_begins,orphan_ends\r\n"
    "ip4-lookup,1000,500500,1,500,900,990,1000,501,0,0\r\n");
}

/* 900 x 1 us, 90 x 10 us, 10 x 1 ms interleaved: p50 = p90 = 1 us (the
 * 900th), p99 = 10 us (the 990th), max 1 ms. */
static void
test_skewed (void)
{
  g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, sizeof (CpelTestNodeSpan));
  g_autofree char *path = g_build_filename (tmpdir, "skewed.cpel", NULL);
  g_auto(CliRun) r = { 0 };
  gint64 d[1000];

  for (guint i = 0; i < 1000; i++)
    d[i] = i % 100 == 7 ? 1000000 : i % 10 == 3 && i % 100 != 93 ? 10000 : 1000;
  cpel_test_node_spans_append (spans, 1, "ip4-lookup", 0, 100, d, 1000);
  cpel_test_node_spans_write (path, (const CpelTestNodeSpan *) spans->data, spans->len);

  cli_run (&r, "spans", "--csv", path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==,
    "span,count,total_ns,min_ns,p50_ns,p90_ns,p99_ns,max_ns,mean_ns,orphan_begins,orphan_ends\r\n"
    "ip4-lookup,1000,11800000,1000,1000,1000,10000,1000000,11800,0,0\r\n");
  cli_run (&r, "spans", "--hist", "--log", "--bins", "3", "--csv", path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, "span,bin_lo_ns,bin_hi_ns,count\r\n"
                              "ip4-lookup,1000,10000,900\r\n"
                              "ip4-lookup,10000,100000,90\r\n"
                              "ip4-lookup,100000,1000001,10\r\n");
  /* the slow ones: 10 of 1 ms, every 100 spans */
  cli_run (&r, "spans", "--list", "--min", "1ms", path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpuint (count_lines (r.out), ==, 10);
  cli_run (&r, "anomaly", "--span", "ip4-lookup", "--above", "p99", path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_suffix (r.out, "\n10 anomalies among 1\u202f000 spans\n"));
}

static void
test_hist (void)
{
  g_autofree char *path = write_uniform ("hist.cpel");
  g_autoptr(GString) want = g_string_new ("span,bin_lo_ns,bin_hi_ns,count\r\n");
  g_auto(CliRun) r = { 0 };

  for (guint b = 0; b < 10; b++)
    g_string_append_printf (want, "ip4-lookup,%u,%u,100\r\n", 1 + 100 * b, 101 + 100 * b);
  cli_run (&r, "spans", "--hist", "--bins", "10", "--csv", path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, want->str);

  cli_run (&r, "spans", "--hist", "--log", "--bins", "3", "--csv", "--span", "ip4-lookup",
           path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, "span,bin_lo_ns,bin_hi_ns,count\r\n"
                              "ip4-lookup,1,10,9\r\n"
                              "ip4-lookup,10,100,90\r\n"
                              "ip4-lookup,100,1001,901\r\n");

  /* the aligned table, with units */
  cli_run (&r, "spans", "--hist", "--log", "--bins", "3", path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, "Span          From     Below  Count\n"
                              "ip4-lookup    1 ns     10 ns      9\n"
                              "ip4-lookup   10 ns    100 ns     90\n"
                              "ip4-lookup  100 ns  1.001 µs    901\n");

  /* a name without spans: the header only */
  cli_run (&r, "spans", "--hist", "--csv", "--span", "ip6-lookup", path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, "span,bin_lo_ns,bin_hi_ns,count\r\n");
}

static void
test_list (void)
{
  g_autofree char *path = write_uniform ("list.cpel");
  g_autofree char *want = NULL;
  g_auto(CliRun) r = { 0 };
  gint64 t998 = uniform_begin (998), t999 = uniform_begin (999), t1000 = uniform_begin (1000);

  cli_run (&r, "spans", "--list", "--top", "3", "--tsv", path);
  g_assert_cmpint (r.status, ==, 0);
  want = g_strdup_printf ("begin_ns\tend_ns\tduration_ns\ttrack\tspan\n"
                          "%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t1000\tvpp_wk_1\tip4-lookup\n"
                          "%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t999\tvpp_wk_1\tip4-lookup\n"
                          "%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t998\tvpp_wk_1\tip4-lookup\n",
                          t1000, t1000 + 1000, t999, t999 + 999, t998, t998 + 998);
  g_assert_cmpstr (r.out, ==, want);

  /* --min: in time order */
  cli_run (&r, "spans", "--list", "--min", "998ns", "--tsv", path);
  g_assert_cmpint (r.status, ==, 0);
  {
    gint64 t[3] = { t998, t999, t1000 }, d[3] = { 998, 999, 1000 };
    g_autoptr(GString) lines = g_string_new ("begin_ns\tend_ns\tduration_ns\ttrack\tspan\n");

    for (guint n = 0; n < 3; n++)
      {
        guint k = 0;

        for (guint j = 1; j < 3; j++)
          if (t[j] < t[k])
            k = j;
        g_string_append_printf (lines, "%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT
                                "\t%" G_GINT64_FORMAT "\tvpp_wk_1\tip4-lookup\n",
                                t[k], t[k] + d[k], d[k]);
        t[k] = G_MAXINT64;
      }
    g_assert_cmpstr (r.out, ==, lines->str);
  }

  /* the filter syntax */
  cli_run (&r, "spans", "--list", "--filter", "ip4-* dur>998ns", path);
  g_assert_cmpint (r.status, ==, 0);
  g_free (want);
  want = g_strdup_printf ("%" G_GINT64_FORMAT "  %" G_GINT64_FORMAT
                          "   999  vpp_wk_1  ip4-lookup\n"
                          "%" G_GINT64_FORMAT "  %" G_GINT64_FORMAT
                          "  1000  vpp_wk_1  ip4-lookup\n",
                          t999, t999 + 999, t1000, t1000 + 1000);
  g_assert_cmpstr (r.out, ==, want);
  cli_run (&r, "spans", "--list", "--filter", "dur>=1us", "--span", "ip4-lookup", "--tsv", path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpuint (count_lines (r.out), ==, 2);
  cli_run (&r, "spans", "--list", "--filter", "dur<2", path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpuint (count_lines (r.out), ==, 1);
  g_assert_true (g_str_has_suffix (r.out, " 1  vpp_wk_1  ip4-lookup\n"));
  cli_run (&r, "spans", "--list", "--span", "ip6-lookup", path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, "");

  /* usage errors */
  cli_run (&r, "spans", "--list", "--filter", "ip4-lookup dur>5xs", path);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "--filter: column 16: “5xs” is not a duration"));
  cli_run (&r, "spans", "--list", "--min", "5 parsecs", path);
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "spans", "--list", "--top", "0", path);
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "spans", "--list", "--hist", path);
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "spans", "--hist", "--top", "3", path);
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "spans", "--hist", "--bins", "0", path);
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "spans", "--list", "--csv", path);
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "spans", "--log", path);
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "spans", "--list", "--span", "x", "--filter", "y", path);
  g_assert_cmpint (r.status, ==, 2);
}

static char *
write_planted (gboolean b)
{
  g_autoptr(GArray) spans = cpel_test_node_spans_planted (b);
  char *path = g_build_filename (tmpdir, b ? "planted-b.cpel" : "planted-a.cpel", NULL);

  cpel_test_node_spans_write (path, (const CpelTestNodeSpan *) spans->data, spans->len);
  return path;
}

static char *
write_text (const char *name,
            const char *contents)
{
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (tmpdir, name, NULL);

  g_assert_true (g_file_set_contents (path, contents, -1, &error));
  g_assert_no_error (error);
  return path;
}

/* One node made slower in B: the CSV exactly, biggest change of the mean
 * first. */
static void
test_diff (void)
{
  g_autofree char *a = write_planted (FALSE);
  g_autofree char *b = write_planted (TRUE);
  g_autofree char *rules = write_text ("lookup.rules",
                                       "span lookup begin event=ip4-lookup-call "
                                       "end event=ip4-lookup-return\n");
  g_auto(CliRun) r = { 0 };

  cli_run (&r, "diff", "--by", "spans", "--csv", a, b);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_cmpstr (r.out, ==,
    "span,count_a,count_b,count_delta,mean_ns_a,mean_ns_b,mean_delta_pct,"
    "p99_ns_a,p99_ns_b,p99_delta_pct\r\n"
    "l2-input,10,10,0,200,150,-25.0,200,150,-25.0\r\n"
    "ip4-lookup,100,100,0,1000,1100,10.0,1000,2000,100.0\r\n"
    "arp-input,1,1,0,16,17,6.3,16,17,6.3\r\n"
    "dpdk-input,50,50,0,300,303,1.0,300,303,1.0\r\n"
    "ethernet-input,100,100,0,500,500,0.0,500,500,0.0\r\n"
    "ip4-rewrite,0,10,10,,400,,,400,\r\n"
    "ip6-lookup,5,0,-5,123,,,123,,\r\n");

  /* --rules for both, without the built-in ones */
  cli_run (&r, "diff", "--by", "spans", "--csv", "--no-builtin", "--rules", rules, a, b);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==,
    "span,count_a,count_b,count_delta,mean_ns_a,mean_ns_b,mean_delta_pct,"
    "p99_ns_a,p99_ns_b,p99_delta_pct\r\n"
    "lookup,100,100,0,1000,1100,10.0,1000,2000,100.0\r\n");

  /* the table: the regression in one line */
  cli_run (&r, "diff", "--by", "spans", a, b);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "A: planted-a.cpel\nB: planted-b.cpel\n\nSpan "));
  g_assert_nonnull (strstr (r.out, "\nip4-lookup          100      100    0  1.000 µs  1.100 µs  "
                                   "+10.0 %  1.000 µs  2.000 µs  +100.0 %\n"));

  cli_run (&r, "diff", "--rules", rules, a, b);
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "diff", "--by", "nodes", a, b);
  g_assert_cmpint (r.status, ==, 2);
}

static void
test_anomaly (void)
{
  g_autofree char *path = write_uniform ("anomaly.cpel");
  g_autofree char *a = write_planted (FALSE);
  g_auto(CliRun) r = { 0 };
  gint64 t1000 = uniform_begin (1000);
  g_autofree char *line = NULL;

  /* above p99 (990 ns): 991..1000 */
  cli_run (&r, "anomaly", "--span", "ip4-lookup", "--above", "p99", path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_cmpuint (count_lines (r.out), ==, 11);
  g_assert_true (g_str_has_suffix (r.out, "\n10 anomalies among 1\u202f000 spans\n"));
  g_assert_nonnull (strstr (r.out, "ip4-lookup-call: 0  [span ip4-lookup, duration 1.000 µs, "
                                   "z +1.73]\n"));

  /* the TSV: dump's columns, then span, duration and z */
  cli_run (&r, "anomaly", "--span", "ip4-lookup", "--above", "99.9", "--tsv", path);
  g_assert_cmpint (r.status, ==, 0);
  line = g_strdup_printf ("time_ns\ttrack\ttrack_label\tcode\tevent\tdatum\tspan\tduration_ns\tz\n"
                          "%" G_GINT64_FORMAT "\t1\tvpp_wk_1\t2\tip4-lookup-call\t"
                          "0\tip4-lookup\t1000\t+1.7303\n", t1000);
  g_assert_cmpstr (r.out, ==, line);

  /* sigma: |d - 500.5| > 1.7 * 288.67 for 1..9 and 992..1000 */
  cli_run (&r, "anomaly", "--span", "ip4-lookup", "--sigma", "1.7", path);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_suffix (r.out, "\n18 anomalies among 1\u202f000 spans\n"));

  /* equal durations: none */
  cli_run (&r, "anomaly", "--span", "ethernet-input", a);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, "0 anomalies among 100 spans\n");

  cli_run (&r, "anomaly", "--span", "ip4-lookup", "--above", "p100", path);
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "anomaly", "--span", "ip4-lookup", "--above", "p99", "--sigma", "2", path);
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "anomaly", "--span", "ip4-lookup", "--code", "1", path);
  g_assert_cmpint (r.status, ==, 2);
  cli_run (&r, "anomaly", "--above", "p99", "--code", "1", path);
  g_assert_cmpint (r.status, ==, 2);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmpdir = cli_tmpdir_new ();
  g_test_add_func ("/cli/latency/uniform-table", test_uniform_table);
  g_test_add_func ("/cli/latency/skewed", test_skewed);
  g_test_add_func ("/cli/latency/hist", test_hist);
  g_test_add_func ("/cli/latency/list", test_list);
  g_test_add_func ("/cli/latency/diff", test_diff);
  g_test_add_func ("/cli/latency/anomaly", test_anomaly);
  status = g_test_run ();
  cli_tmpdir_free (tmpdir);
  return status;
}
