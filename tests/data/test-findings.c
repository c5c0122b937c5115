/* SPDX-License-Identifier: Apache-2.0 */
/* test-findings.c — one reproducer per bug found by fuzzing or sanitizers.
 * tests/data/meson.build registers each path as its own test, with
 * should_fail: true while the bug is reported but not fixed; once fixed its
 * test passes (UNEXPECTEDPASS): move it to the fixed list (a regression
 * test from then on).
 *
 * /core/findings/stats-wide-range (fixed in 817c274): cpel_stats_to_text
 *   computed t1 - t0 in gint64: a range [G_MININT64, G_MAXINT64) overflowed
 *   (UBSan: signed integer overflow, cpel-stats.c) and showed a negative
 *   duration.
 * /core/findings/cut-long-table-name (fixed in 2f4f12d): an event section
 *   whose 64-octet table name field has no NUL loads (it names no table),
 *   but cutting the file failed with CPEL_ERROR_INVALID (“longer than 63
 *   bytes”, from the writer).
 */
#include <string.h>

#include "cpel-core.h"
#include "cpel-cut.h"
#include "cpel-loader.h"
#include "cpel-stats.h"
#include "malformed-cases.h"

static CpelFile *
load_case (const char *name)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  CpelFile *file;

  for (guint i = 0; i < G_N_ELEMENTS (malformed_cases); i++)
    if (g_str_equal (malformed_cases[i].name, name))
      bytes = malformed_build (&malformed_cases[i]);
  g_assert_nonnull (bytes);
  file = cpel_file_new_for_bytes (bytes, NULL, &error);
  g_assert_no_error (error);
  return file;
}

static void
test_stats_wide_range (void)
{
  g_autoptr(CpelFile) file = load_case ("clock-per-us");
  g_autoptr(GError) error = NULL;
  CpelStatsOptions options = { G_MININT64, G_MAXINT64, NULL, 0, NULL };
  g_autoptr(CpelStats) stats = cpel_stats_compute (file, &options, NULL, &error);
  g_autofree char *text = NULL;
  const char *open;

  g_assert_no_error (error);
  g_assert_cmpuint (cpel_stats_get_total (stats), ==, 2);
  text = cpel_stats_to_text (stats);
  /* "Range: A to B (DURATION)": the duration is not negative */
  open = strchr (text, '(');
  g_assert_nonnull (open);
  g_assert_cmpint (open[1], !=, '-');
}

static void
test_cut_long_table_name (void)
{
  g_autoptr(CpelFile) file = load_case ("name-without-nul");
  g_autoptr(GError) error = NULL;
  CpelCutOptions options = { 0, G_MAXINT64, NULL, 0, FALSE };
  g_autoptr(GBytes) bytes = cpel_cut_to_bytes (file, &options, NULL, &error);
  g_autoptr(CpelFile) cut = NULL;

  g_assert_no_error (error);
  cut = cpel_file_new_for_bytes (bytes, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cpel_file_get_n_events (cut), ==, 1);
  g_assert_cmpstr (cpel_file_get_section (cut, 0)->table_name, ==,
                   cpel_file_get_section (file, 0)->table_name);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/findings/stats-wide-range", test_stats_wide_range);
  g_test_add_func ("/core/findings/cut-long-table-name", test_cut_long_table_name);
  return g_test_run ();
}
